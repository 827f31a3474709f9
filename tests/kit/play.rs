//! Random legal play through the real daemon, store and journal: sample orders sent as mails,
//! some seats silent so deadlines and the silence policy decide, until the game ends or a step
//! limit; every third mail is signed off by hand. Then the journal must replay to the snapshot and `verify` must pass from the store
//! and from the mails.

use chrono::{Duration, TimeZone, Utc};
use despatch::config::{Config, DEFAULT_CONFIG};
use despatch::daemon::{Daemon, Intake};
use despatch::dice::GameSecrets;
use despatch::engine::{Game, Play, Ruleset};
use despatch::verify;

use super::Subject;
use super::leaks::Watch;

/// What a game left behind.
pub struct Played {
    pub steps: u64,
    pub over: bool,
    pub mails: u64,
    /// For each seat (in the scenario's order): the order mails its player sent, and the mails
    /// it received (each mail once, the mails that waited for it attached inside), by kind
    /// (the subject less its tag and anything after a colon or dash).
    pub inbox: Vec<(String, u64, Vec<String>)>,
}

/// Plays one game of `R` by mail; checks the round trip and leaks at every step.
pub fn play<R: Ruleset>(
    s: &Subject<R>,
    seed: u64,
    silent_every: u64,
    max_steps: u64,
    watch: &mut Watch,
) -> Played {
    play_with(s, seed, silent_every, max_steps, watch, false)
}

/// `play`, on the shipped configuration (one mail a step) or, with `every_mail`, with every
/// seat sent every mail on its own (`NOTIFY ALL ON`).
pub fn play_with<R: Ruleset>(
    s: &Subject<R>,
    seed: u64,
    silent_every: u64,
    max_steps: u64,
    watch: &mut Watch,
    every_mail: bool,
) -> Played {
    let tmp = tempfile::tempdir().unwrap();
    let mut cfg = Config::parse(DEFAULT_CONFIG, &tmp.path().join("config.toml")).unwrap();
    if every_mail {
        cfg.games.notify = despatch::store::Notify::all();
    }
    cfg.games.games_dir = s.games_dir.clone();
    cfg.games.games_dir_set = true;
    let d = Daemon::with_registry(cfg, s.registry.clone()).unwrap();
    let id = "rnd";
    let mut now =
        Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap() + Duration::days(seed as i64 % 300);
    let mut c0 = [0u8; 32];
    c0[..8].copy_from_slice(&seed.to_be_bytes());
    let toks: Vec<String> = (0..s.seats.len())
        .map(|i| format!("s{i}{seed:022}"))
        .collect();
    let seats: Vec<(String, String)> = s
        .seats
        .iter()
        .map(|(seat, a)| (seat.to_string(), a.to_string()))
        .collect();
    d.create_game_with(
        id,
        R::NAME,
        s.scenario,
        &seats,
        now,
        GameSecrets::pinned(id, c0, [0x5a; 32], 2000),
        &toks,
    )
    .unwrap_or_else(|e| panic!("{}: creating a game of {}: {e:#}", R::NAME, s.scenario));
    let store = d.data.game(id);
    let mut n = 0u64;
    let mut sent_by = vec![0u64; s.seats.len()];
    loop {
        let g: Game<R> = store.load().unwrap();
        watch.look::<R>(s, &g, &d.cfg.mail.outbox);
        if g.is_over() || g.step > max_steps {
            break;
        }
        let waiting = g.waiting_for();
        assert!(
            !waiting.is_empty(),
            "{}: dead end at step {} (seed {seed})",
            R::NAME,
            g.step
        );
        let mut sent = false;
        for (i, (seat, address)) in s.seats.iter().enumerate() {
            if !waiting.iter().any(|w| w == seat) {
                continue;
            }
            n += 1;
            if silent_every > 0 && (seed + n).is_multiple_of(silent_every) {
                continue; // this seat stays silent: the deadline decides
            }
            let orders = R::sample_orders(&g.state, seat, seed.wrapping_mul(7919).wrapping_add(n));
            round_trip::<R>(&g, seat, &orders);
            // No order line the ruleset writes is a mail command (club-rules M3).
            super::commands::assert_no_command_line(R::NAME, &orders);
            // Players sign their mails: a hand-written closing must never sink one.
            let body = if n.is_multiple_of(3) {
                format!("{}\n\nThanks,\nGeorge\n", orders.trim_end())
            } else {
                orders.clone()
            };
            let raw = format!(
                "From: <{address}>\r\nTo: despatch+{id}.{seat}.{}@localhost\r\nSubject: orders\r\nMessage-ID: <r{n}.{seed}@x>\r\n\r\n{}\r\n",
                toks[i],
                body.replace('\n', "\r\n")
            );
            now += Duration::minutes(7);
            let out = d.ingest(raw.as_bytes(), now).unwrap();
            assert!(
                matches!(out, Intake::Accepted { .. }),
                "{}: seed {seed} step {}: {out:?}\n{orders}",
                R::NAME,
                g.step
            );
            sent = true;
            sent_by[i] += 1;
        }
        let step_before = g.step;
        let g: Game<R> = store.load().unwrap();
        // With nobody silent, a step the mails resolved opens the next one, whose seats write
        // on the next round (as players do); otherwise whoever is still awaited stays silent.
        let answered_all = silent_every == 0 && sent && g.step != step_before;
        if !sent || (!answered_all && !g.waiting_for().is_empty()) {
            // Nobody (more) will write: jump past the deadline and let silence apply.
            if let Some(deadline) = g.deadline {
                now =
                    deadline + Duration::hours(g.policy.grace_hours as i64) + Duration::minutes(1);
            }
            d.run_once(now).unwrap();
        }
    }
    let g: Game<R> = store.load().unwrap();
    let registry = &s.registry;
    let (_, findings) = verify::verify_store(&store, registry);
    assert!(
        findings.is_empty(),
        "{}: seed {seed}: {findings:?}",
        R::NAME
    );
    let (checked, mail_findings) =
        verify::verify_mails_with(&d.cfg.mail.outbox, Some(id), registry);
    assert!(
        mail_findings.is_empty(),
        "{}: seed {seed}: {mail_findings:?}",
        R::NAME
    );
    // A game that ended mailed its journal: every mail was held against a replay of it.
    if g.is_over() && g.protocol == despatch::dice::Protocol::V2 {
        assert_eq!(
            checked.replayed_mails,
            checked.mails,
            "{}: seed {seed}: every mail is checked against the journal the game-over mail carries",
            R::NAME
        );
    }
    if g.is_over() {
        game_over_explains_itself::<R>(&g, &d.cfg.mail.outbox, seed);
    }
    if let Some(keep) = &s.keep {
        let to = keep.join(format!("{}-{seed}", R::NAME));
        std::fs::create_dir_all(&to).unwrap();
        for f in ["journal.jsonl", "heads.log", "host.secret"] {
            std::fs::copy(store.dir.join(f), to.join(f)).unwrap();
        }
    }
    // The snapshot and the journal's tail load to what a full replay gives.
    let opened = store.open(registry).unwrap();
    assert_eq!(opened.state_json(), serde_json::to_value(&g.state).unwrap());
    assert_eq!(opened.book(), &g.book);
    let inbox = s
        .seats
        .iter()
        .zip(&sent_by)
        .map(|((seat, address), sent)| {
            (
                seat.to_string(),
                *sent,
                mails_to(&d.cfg.mail.outbox, address),
            )
        })
        .collect();
    Played {
        steps: g.step - 1,
        over: g.is_over(),
        mails: checked.mails,
        inbox,
    }
}

/// The kinds of the mails of the outbox Maildir that went to `address` (one entry a mail).
fn mails_to(outbox: &std::path::Path, address: &str) -> Vec<String> {
    let mut kinds = Vec::new();
    for sub in ["new", "cur"] {
        let Ok(rd) = std::fs::read_dir(outbox.join(sub)) else {
            continue;
        };
        for e in rd {
            let raw = std::fs::read(e.unwrap().path()).unwrap();
            let m = mail_parser::MessageParser::default().parse(&raw).unwrap();
            let to = m
                .to()
                .and_then(|a| a.first())
                .and_then(|a| a.address())
                .unwrap_or("");
            if to.eq_ignore_ascii_case(address) {
                let subject = m.subject().unwrap_or("");
                let bare = subject.split_once("] ").map_or(subject, |(_, r)| r);
                let kind = bare.split([':', '—']).next().unwrap_or(bare).trim();
                kinds.push(kind.to_string());
            }
        }
    }
    kinds
}

/// `parse(canonical(o)) == o`: the canonical form of a sample parses back to itself.
fn round_trip<R: Ruleset>(g: &Game<R>, seat: &str, orders: &str) {
    let o = R::parse(&g.state, seat, orders).unwrap_or_else(|e| {
        panic!(
            "{}: a sample for {seat} does not parse: {e:?}\n{orders}",
            R::NAME
        )
    });
    let canonical = R::canonical(&o);
    let again = R::parse(&g.state, seat, &canonical).unwrap_or_else(|e| {
        panic!(
            "{}: canonical orders do not parse: {e:?}\n{canonical}",
            R::NAME
        )
    });
    assert_eq!(
        R::canonical(&again),
        canonical,
        "{}: canonical form is not a fixed point",
        R::NAME
    );
}

/// Issue 14.7: every game-over mail says how the result was reached, with the victory test's
/// figures as the final state gives them (recomputed here, not copied from the mail).
fn game_over_explains_itself<R: Ruleset>(g: &Game<R>, outbox: &std::path::Path, seed: u64) {
    let figures = R::victory_figures(&g.state);
    assert!(
        !figures.is_empty(),
        "{}: the ruleset gives no victory figures",
        R::NAME
    );
    let mut over = 0;
    for sub in ["new", "cur"] {
        for e in std::fs::read_dir(outbox.join(sub)).unwrap() {
            let raw = std::fs::read(e.unwrap().path()).unwrap();
            let m = mail_parser::MessageParser::default().parse(&raw).unwrap();
            if !m.subject().unwrap_or("").contains("Game over") {
                continue;
            }
            over += 1;
            let text = m.body_text(0).unwrap().replace("\r\n", "\n");
            // The HTML as a reader sees it: entities decoded.
            let html = m
                .body_html(0)
                .unwrap_or_default()
                .replace("&#x27;", "'")
                .replace("&#39;", "'")
                .replace("&quot;", "\"")
                .replace("&#x2f;", "/")
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&amp;", "&");
            assert!(
                text.contains("HOW IT WAS DECIDED"),
                "{}: seed {seed}: {text}",
                R::NAME
            );
            // Texts are wrapped at 72 columns: read line breaks as spaces.
            let flat = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
            let (text, html) = (flat(&text), flat(&html));
            for line in figures.iter().map(|l| flat(l)) {
                assert!(
                    text.contains(line.as_str()),
                    "{}: seed {seed}: the game-over mail lacks {line:?}",
                    R::NAME
                );
                assert!(
                    html.contains(line.as_str()),
                    "{}: seed {seed}: the game-over HTML lacks {line:?}",
                    R::NAME
                );
            }
        }
    }
    assert!(over > 0, "{}: seed {seed}: no game-over mail", R::NAME);
}
