//! `despatch demo`: two scripted admirals play Naval RJW through the real pipeline. They read the
//! mails Despatch delivered to them, reply into the inbox Maildir as a mail client would (quoted
//! text, signatures, one HTML-only mail, one typo, one re-delivery), and the daemon processes them.
//! The scripted players are the only part that is not the real thing.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use chrono::{DateTime, Duration, Utc};
use mail_parser::{Address, MessageParser};

use crate::config::{Config, DEFAULT_CONFIG};
use crate::daemon::{Daemon, Intake};
use crate::engine::{Game, Play as _, Ruleset};
use crate::mail::maildir::Maildir;
use crate::rulesets::naval_rjw::NavalRjw;
use crate::rulesets::naval_rjw::state::Phase;

const GAME: &str = "yellow-sea";

/// A scripted player: an address and the last Despatch mail it received.
struct Player {
    seat: &'static str,
    address: &'static str,
    signature: &'static str,
    last: Option<Received>,
    sent: u32,
}

#[derive(Clone)]
struct Received {
    message_id: String,
    reply_to: String,
    subject: String,
    text: String,
    /// Mails that waited for this one and came attached to it (one mail a step).
    attached: usize,
}

fn first_address(a: Option<&Address>) -> Option<String> {
    a?.first()?.address().map(|s| s.to_string())
}

/// Reads every mail in the outbound Maildir addressed to `who`, newest last.
fn inbox_of(outbox: &Path, who: &str) -> Result<Vec<Received>> {
    let mut files: Vec<PathBuf> = ["new", "cur"]
        .iter()
        .filter_map(|d| std::fs::read_dir(outbox.join(d)).ok())
        .flat_map(|rd| rd.filter_map(|e| e.ok()).map(|e| e.path()))
        .collect();
    // Names start with the game and the journal index, so the order is the order of events.
    files.sort_by_key(|p| p.file_name().map(|n| n.to_os_string()));
    let mut out = Vec::new();
    for p in files {
        let bytes = std::fs::read(&p)?;
        let Some(m) = MessageParser::default().parse(&bytes) else {
            continue;
        };
        if first_address(m.to()).as_deref() != Some(who) {
            continue;
        }
        out.push(Received {
            message_id: m.message_id().unwrap_or_default().to_string(),
            reply_to: first_address(m.reply_to()).unwrap_or_default(),
            subject: m.subject().unwrap_or_default().to_string(),
            text: m.body_text(0).map(|t| t.into_owned()).unwrap_or_default(),
            attached: crate::verify::attached_mails(&bytes).len(),
        });
    }
    // A player answers the mail that asks about the newest step (its subject tag says which),
    // not an earlier HELP answer or rejection that happens to sort later.
    out.sort_by_key(|m| asked_step(&m.subject));
    Ok(out)
}

/// The step in a subject tag `[game #4]`, 0 when there is none.
fn asked_step(subject: &str) -> u64 {
    subject
        .split_once(" #")
        .and_then(|(_, rest)| rest.split_once(']'))
        .and_then(|(k, _)| k.parse().ok())
        .unwrap_or(0)
}

fn quote(text: &str) -> String {
    text.lines()
        .take(30)
        .map(|l| {
            if l.is_empty() {
                ">".to_string()
            } else {
                format!("> {l}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A reply as Thunderbird would write it: orders on top, attribution, quoted mail, signature.
fn reply(
    p: &Player,
    to: &Received,
    body: &str,
    message_id: &str,
    date: DateTime<Utc>,
    html_only: bool,
) -> Vec<u8> {
    let subject = if to.subject.starts_with("Re: ") {
        to.subject.clone()
    } else {
        format!("Re: {}", to.subject)
    };
    let mut m = String::new();
    let _ = write!(
        m,
        "Message-ID: <{message_id}>\r\nDate: {}\r\nFrom: {} <{}>\r\nTo: {}\r\nSubject: {subject}\r\nIn-Reply-To: <{}>\r\nReferences: <{}>\r\nMIME-Version: 1.0\r\nUser-Agent: Mozilla Thunderbird\r\n",
        date.to_rfc2822(),
        p.signature,
        p.address,
        to.reply_to,
        to.message_id,
        to.message_id
    );
    if html_only {
        let html_body: String = body
            .lines()
            .map(|l| {
                format!(
                    "<div>{}</div>",
                    l.replace('&', "&amp;").replace('<', "&lt;")
                )
            })
            .collect();
        let _ = write!(
            m,
            "Content-Type: text/html; charset=UTF-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n<html><body>{html_body}<div><br></div><blockquote type=\"cite\">earlier mail</blockquote></body></html>\r\n"
        );
    } else {
        let _ = write!(
            m,
            "Content-Type: text/plain; charset=UTF-8; format=flowed\r\nContent-Transfer-Encoding: 8bit\r\n\r\n{}\r\n\r\nOn {}, Despatch wrote:\r\n{}\r\n\r\n-- \r\n{}\r\n",
            body.replace('\n', "\r\n"),
            date.format("%d/%m/%Y %H:%M"),
            quote(&to.text).replace('\n', "\r\n"),
            p.signature
        );
    }
    m.into_bytes()
}

/// Emails the players sent, by player turn.
#[derive(Default)]
struct Tally {
    /// (turn, active side) → emails per seat.
    by_turn: BTreeMap<u32, (String, BTreeMap<String, u32>)>,
    rejected: u32,
    duplicates: u32,
    help: u32,
}

pub fn demo_config(dir: &Path) -> Result<Config> {
    let games = if Path::new("games/naval-rjw/ruleset.toml").exists() {
        std::env::current_dir()?.join("games")
    } else {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("games")
    };
    let mut cfg = Config::parse(DEFAULT_CONFIG, &dir.join("config.toml"))?;
    cfg.games.games_dir = games;
    Ok(cfg)
}

/// Plays the demo game and returns the report to print.
pub fn run_demo(dir: &Path, scenario: &str, max_steps: u64) -> Result<String> {
    let dir = fresh_folder(dir)?;
    let cfg = demo_config(&dir)?;
    std::fs::write(dir.join("config.toml"), demo_config_text(&cfg))?;
    let daemon = Daemon::new(cfg.clone())?;
    let mut players = the_admirals();
    // Real time: mail dates before 1970 are not representable, and the deadlines must look real.
    let now = Utc::now();
    {
        let _lock = daemon.data.lock()?;
        daemon.create_game(
            GAME,
            "naval-rjw",
            scenario,
            &players
                .iter()
                .map(|p| (p.seat.to_string(), p.address.to_string()))
                .collect::<Vec<_>>(),
            now,
        )?;
    }
    daemon.deliver()?;
    let store = daemon.data.game(GAME);
    let mut script = Script {
        daemon: &daemon,
        inbox: Maildir::open_or_create(&cfg.mail.inbox)?,
        outbox: &cfg.mail.outbox,
        now,
        mail_no: 0,
        tally: Tally::default(),
        html_sent: false,
        typo_sent: false,
        help_sent: false,
        standing_sent: false,
    };
    loop {
        let game: Game<NavalRjw> = store.load()?;
        if game.is_over() || game.step > max_steps {
            break;
        }
        let waiting = game.waiting_for();
        if waiting.is_empty() {
            bail!(
                "the demo game is stuck at step {} with nobody to ask",
                game.step
            );
        }
        for p in players.iter_mut() {
            if waiting.iter().any(|w| w == p.seat) {
                script.answer(p, &game)?;
            }
        }
        script.now += Duration::minutes(5);
        let pass = daemon.run_once(script.now)?;
        script.tally.duplicates += pass
            .processed
            .iter()
            .filter(|i| matches!(i, Intake::Duplicate))
            .count() as u32;
        all_accepted(&pass.processed, game.step)?;
    }
    report(&dir, &cfg, &store, &script.tally, &players)
}

/// The demo's folder, made afresh (only ever wiping a folder this command made).
fn fresh_folder(dir: &Path) -> Result<PathBuf> {
    if dir.exists() {
        if !dir.join(".despatch-demo").exists() {
            bail!(
                "{} exists and was not made by `despatch demo`; choose another --dir",
                dir.display()
            );
        }
        std::fs::remove_dir_all(dir).with_context(|| dir.display().to_string())?;
    }
    std::fs::create_dir_all(dir)?;
    std::fs::write(dir.join(".despatch-demo"), "made by despatch demo\n")?;
    Ok(dir.canonicalize()?)
}

fn the_admirals() -> [Player; 2] {
    [
        Player {
            seat: "japan",
            address: "togo@mikasa.example",
            signature: "Admiral Togo Heihachiro",
            last: None,
            sent: 0,
        },
        Player {
            seat: "russia",
            address: "vitgeft@tsesarevich.example",
            signature: "Rear-Admiral V. K. Vitgeft",
            last: None,
            sent: 0,
        },
    ]
}

/// Every mail of the scripted players is one the game takes: anything else is a demo bug.
fn all_accepted(processed: &[Intake], step: u64) -> Result<()> {
    if processed.iter().any(|i| {
        matches!(
            i,
            Intake::Rejected { .. } | Intake::Unknown(_) | Intake::Unauthenticated { .. }
        )
    }) {
        let bad: Vec<_> = processed
            .iter()
            .filter(|i| {
                !matches!(
                    i,
                    Intake::Accepted { .. } | Intake::Duplicate | Intake::Help { .. }
                )
            })
            .collect();
        bail!("the demo's scripted orders were not all accepted at step {step}: {bad:?}");
    }
    Ok(())
}

/// The scripted players' side of the game: the clock, the mails sent, and the one-off mails
/// (HELP, a typo, an HTML-only mail, standing orders) each sent once.
struct Script<'a> {
    daemon: &'a Daemon,
    inbox: Maildir,
    outbox: &'a Path,
    now: DateTime<Utc>,
    mail_no: u32,
    tally: Tally,
    html_sent: bool,
    typo_sent: bool,
    help_sent: bool,
    standing_sent: bool,
}

impl Script<'_> {
    /// A seat asked for orders replies to the last mail it received.
    fn answer(&mut self, p: &mut Player, game: &Game<NavalRjw>) -> Result<()> {
        let got = inbox_of(self.outbox, p.address)?;
        let Some(last) = got.last().cloned() else {
            bail!("{} has received no mail to reply to", p.seat);
        };
        p.last = Some(last.clone());
        self.now += Duration::minutes(20);
        self.mail_no += 1;
        let (now, mail_no) = (self.now, self.mail_no);
        let id = format!(
            "demo-{mail_no}@{}",
            p.address.split('@').nth(1).unwrap_or("example")
        );
        if !self.help_sent && p.seat == "russia" {
            self.help_sent = true;
            let help = reply(p, &last, "HELP", &format!("help-{id}"), now, false);
            self.inbox.deliver(&help, &format!("help-{mail_no}"))?;
            self.tally.help += 1;
        }
        let orders = self.orders(p, game);
        if !self.typo_sent && game.state.phase == Phase::Manoeuvre {
            self.typo_sent = true;
            let bad = format!("TRUN Mikasa PORT 45\n{orders}MOVE Mikasaa 99\n");
            let b = reply(p, &last, &bad, &format!("typo-{id}"), now, false);
            self.inbox.deliver(&b, &format!("typo-{mail_no}"))?;
            self.daemon.run_once(now)?;
            self.tally.rejected += 1;
        }
        let html = !self.html_sent && game.step > 3;
        self.html_sent |= html;
        let bytes = reply(p, &last, &orders, &id, now, html);
        self.inbox.deliver(&bytes, &format!("order-{mail_no}"))?;
        p.sent += 1;
        *self
            .tally
            .by_turn
            .entry(turn_of(game))
            .or_insert_with(|| (active_of(game), BTreeMap::new()))
            .1
            .entry(p.seat.to_string())
            .or_default() += 1;
        if mail_no == 5 {
            // The same mail delivered twice (a client retry, a re-fetch): it must change nothing.
            self.inbox
                .deliver(&bytes, &format!("order-{mail_no}-again"))?;
        }
        Ok(())
    }

    /// The seat's orders for this step, as each admiral plays.
    fn orders(&mut self, p: &Player, game: &Game<NavalRjw>) -> String {
        let choice = game.step * 7 + self.mail_no as u64;
        let mut orders = NavalRjw::sample_orders(&game.state, p.seat, choice);
        // Japan plays as a careful admiral would: its fire plan goes with its manoeuvre
        // orders (declared before any firing, as the seed requires), saving the fire step.
        if p.seat == "japan"
            && game.state.phase == Phase::Manoeuvre
            && let Some(with_fire) = (0..40)
                .map(|k| NavalRjw::sample_orders(&game.state, p.seat, choice + 1000 * k))
                .find(|o| o.lines().any(|l| l.starts_with("FIRE ")))
        {
            orders = with_fire;
        }
        // Russia sets standing fire orders at set-up and is never asked to fire again;
        // Japan never uses them and answers every fire step it is asked. The two kinds of
        // player turn then show the two figures the report prints.
        if p.seat == "russia" && !self.standing_sent {
            self.standing_sent = true;
            if !orders.contains("STANDING FIRE") {
                orders = format!("STANDING FIRE NEAREST\n{orders}");
            }
        }
        if p.seat == "japan" {
            let kept: Vec<&str> = orders
                .lines()
                .filter(|l| !l.starts_with("STANDING"))
                .collect();
            orders = if kept.is_empty() {
                "PASS\n".to_string()
            } else {
                format!("{}\n", kept.join("\n"))
            };
        }
        orders
    }
}

/// The player turn a mail belongs to; the set-up step is turn 0.
fn turn_of(game: &Game<NavalRjw>) -> u32 {
    if game.state.phase == Phase::Setup {
        0
    } else {
        game.state.turn
    }
}

fn active_of(game: &Game<NavalRjw>) -> String {
    if game.state.phase == Phase::Setup {
        "both".into()
    } else {
        game.state.active.clone()
    }
}

/// The config the demo leaves beside its game, with the rulesets it played from written in
/// (uncommented), so the commands its report suggests (`show`, `new`, `verify`) read the same
/// rulesets and not whatever copy is installed on the host.
fn demo_config_text(cfg: &Config) -> String {
    DEFAULT_CONFIG.replace(
        "# games_dir = \"games\"",
        &format!("games_dir = \"{}\"", cfg.games.games_dir.display()),
    )
}

fn report(
    dir: &Path,
    cfg: &Config,
    store: &crate::store::GameStore,
    tally: &Tally,
    players: &[Player],
) -> Result<String> {
    let game: Game<NavalRjw> = store.load()?;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Despatch demo: Naval RJW, game `{GAME}` ({}).",
        game.scenario
    );
    match game.outcome() {
        Some(o) => {
            let _ = writeln!(s, "Result after {} steps: {}", game.step - 1, o.summary);
        }
        None => {
            let _ = writeln!(s, "Stopped after {} steps without a result.", game.step - 1);
        }
    }
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "Emails the players sent, per player turn (accepted order mails):"
    );
    let _ = writeln!(
        s,
        "  turn  active   japan  russia  total   (turn 0 = the set-up step)"
    );
    turn_figures(&mut s, tally);
    let _ = writeln!(
        s,
        "  Also sent: {} HELP request, {} mail with bad orders (rejected, nothing applied), and one re-delivered mail ({} ignored as already processed).",
        tally.help, tally.rejected, tally.duplicates
    );
    let total: u32 = players.iter().map(|p| p.sent).sum();
    let _ = writeln!(s, "  Order mails accepted: {total}.");
    // One mail a step: what each player's inbox held, and how much came attached instead.
    for p in players {
        let inbox = inbox_of(&cfg.mail.outbox, p.address)?;
        let attached: usize = inbox.iter().map(|m| m.attached).sum();
        let _ = writeln!(
            s,
            "  {} received {} mails ({} more came attached to them, having waited for the next \
             mail that asked something: receipts, notices, results of other steps).",
            p.seat,
            inbox.len(),
            attached
        );
    }
    let _ = writeln!(s);
    where_things_are(&mut s, dir, cfg, store);
    Ok(s)
}

/// The emails per player turn, a line a turn, and each side's mean.
fn turn_figures(s: &mut String, tally: &Tally) {
    let mut one = (0u32, 0u32);
    let mut two = (0u32, 0u32);
    for (turn, (active, seats)) in &tally.by_turn {
        let j = seats.get("japan").copied().unwrap_or(0);
        let r = seats.get("russia").copied().unwrap_or(0);
        let _ = writeln!(s, "  {turn:>4}  {active:<7}  {j:>5}  {r:>6}  {:>5}", j + r);
        if *turn > 0 {
            if active == "japan" {
                one = (one.0 + 1, one.1 + j + r);
            } else {
                two = (two.0 + 1, two.1 + j + r);
            }
        }
    }
    if one.0 > 0 && two.0 > 0 {
        let _ = writeln!(
            s,
            "  Japan's turns (Russia has standing fire orders): {:.2} emails per player turn\n    (Japan's manoeuvre mail carries its fire plan; Russia is not asked).",
            one.1 as f64 / one.0 as f64
        );
        let _ = writeln!(
            s,
            "  Russia's turns (Japan answers every fire step):  {:.2} emails per player turn\n    (Russia's manoeuvre mail, then Japan's fire plan: the seed's information flow).",
            two.1 as f64 / two.0 as f64
        );
    }
}

/// Where the demo left its mails, store and configuration, and the commands to look at them.
fn where_things_are(s: &mut String, dir: &Path, cfg: &Config, store: &crate::store::GameStore) {
    let _ = writeln!(s, "Where things are:");
    let _ = writeln!(
        s,
        "  mails Despatch sent    {}   (open with: neomutt -f {})",
        cfg.mail.outbox.display(),
        cfg.mail.outbox.display()
    );
    let _ = writeln!(s, "  mails the players sent {}", cfg.mail.inbox.display());
    let _ = writeln!(s, "  the game store         {}", store.dir.display());
    let _ = writeln!(
        s,
        "  configuration          {}",
        dir.join("config.toml").display()
    );
    let _ = writeln!(s);
    let _ = writeln!(s, "Check every roll:");
    let _ = writeln!(
        s,
        "  despatch verify {}            (the journal: chain, onion, locks, rolls, replay)",
        store.dir.display()
    );
    let _ = writeln!(
        s,
        "  despatch verify {}   (the mails alone, as a player would)",
        cfg.mail.outbox.display()
    );
    let _ = writeln!(s, "See the board as one side does:");
    let _ = writeln!(
        s,
        "  despatch --config {} show {GAME} --as russia",
        dir.join("config.toml").display()
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The written config names the demo's rulesets itself: without that line a later
    /// `despatch --config var/demo/config.toml new …` searched var/demo/games and then an
    /// installed copy, which may be missing or of another version.
    #[test]
    fn the_demo_config_names_the_rulesets_it_played_from() {
        let dir = std::env::temp_dir().join(format!("despatch-demo-cfg-{}", std::process::id()));
        let cfg = demo_config(&dir).unwrap();
        let text = demo_config_text(&cfg);
        let back = Config::parse(&text, &dir.join("config.toml")).unwrap();
        assert!(back.games.games_dir_set, "games_dir is commented out");
        assert_eq!(back.games.games_dir, cfg.games.games_dir);
        assert_eq!(back.games_dirs(), vec![cfg.games.games_dir.clone()]);
    }
}
