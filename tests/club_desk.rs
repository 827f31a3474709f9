//! The organiser's desk by mail (issue 31 point 4; docs/club-rules.md O2–O9), through
//! `Daemon::ingest` and the outbox with the test-only Parley ruleset: every command allowed
//! and refused (wrong sender, wrong secret, a game not theirs, paused twice, resume running,
//! an unknown seat), pause and resume around the hour's threshold, verify green on a game
//! paused and resumed (and red once its resumed deadline is forged), broadcasts to a game and
//! to a league, and the desk secret in no seat's mail and no log line.

use std::sync::{Arc, Mutex};

use crate::parley;

use chrono::{DateTime, Duration, TimeZone, Utc};
use despatch::config::{Config, DEFAULT_CONFIG};
use despatch::daemon::{Daemon, Intake, NewGame};
use despatch::dice::GameSecrets;
use despatch::engine::Registry;
use mail_parser::MessageParser;
use parley::Parley;

/// The house's organiser (`mail.gm_address`) and a game's own (`--gm`).
const SEC: &str = "sec@club.example";
const UMPIRE: &str = "umpire@club.example";
const ANN: &str = "ann@club.example";
const BOB: &str = "bob@club.example";
const CY: &str = "cy@club.example";

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 9, 1, 9, 0, 0).unwrap()
}

fn token(game: &str, seat: &str) -> String {
    format!("{game}{seat}tokenxxxxxxxxxxxxxxxxxx")[..24].to_string()
}

struct Club {
    _tmp: tempfile::TempDir,
    d: Daemon,
    now: DateTime<Utc>,
    n: u32,
}

struct Mail {
    to: String,
    subject: String,
    reply_to: String,
    text: String,
    raw: String,
}

fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// g1 (ann, bob) and g3 (bob, cy) are the house's, in league autumn; g2 (bob, cy) is the
/// umpire's, in the same league.
fn club() -> Club {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games-data");
    parley::write_games_dir(&games);
    let mut cfg = Config::parse(DEFAULT_CONFIG, &tmp.path().join("config.toml")).unwrap();
    cfg.games.games_dir = games;
    cfg.games.games_dir_set = true;
    cfg.mail.gm_address = Some(SEC.into());
    let d = Daemon::with_registry(cfg, Registry::new().with::<Parley>()).unwrap();
    let c = Club {
        _tmp: tmp,
        d,
        now: t0(),
        n: 0,
    };
    for (id, north, south, gm) in [
        ("g1", ANN, BOB, None),
        ("g2", BOB, CY, Some(UMPIRE)),
        ("g3", BOB, CY, None),
    ] {
        let seats =
            [("north", north), ("south", south)].map(|(s, a)| (s.to_string(), a.to_string()));
        c.d.create_game_full(
            id,
            "parley",
            "duel",
            &seats,
            t0(),
            GameSecrets::pinned(id, [3; 32], [4; 32], 50),
            &[token(id, "north"), token(id, "south")],
            &NewGame {
                league: Some("autumn".into()),
                carry_from: None,
                gm: gm.map(str::to_string),
                campaign: None,
            },
        )
        .unwrap();
    }
    c.d.deliver().unwrap();
    c
}

impl Club {
    fn desk_of(&self, organiser: &str) -> String {
        self.d.desk_address(organiser).unwrap()
    }

    fn secret_of(&self, organiser: &str) -> String {
        let a = self.desk_of(organiser);
        a.split_once('@')
            .unwrap()
            .0
            .rsplit_once('.')
            .unwrap()
            .1
            .to_string()
    }

    /// A mail from `from` to `to` with `body`, ten minutes after the last.
    fn mail(&mut self, from: &str, to: &str, body: &str) -> Intake {
        self.n += 1;
        self.mail_again(from, to, body)
    }

    /// The same, with the Message-ID of the last mail (a copy delivered twice).
    fn mail_again(&mut self, from: &str, to: &str, body: &str) -> Intake {
        // For the leak test's log capture: call sites first met on another test's thread
        // may have cached that nobody listens; asked again, they see its subscriber.
        tracing::callsite::rebuild_interest_cache();
        self.now += Duration::minutes(10);
        let raw = format!(
            "From: <{from}>\r\nTo: {to}\r\nSubject: desk\r\nMessage-ID: <d{}@club.example>\r\n\
             MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}\r\n",
            self.n,
            body.replace('\n', "\r\n")
        );
        let out = self.d.ingest(raw.as_bytes(), self.now).unwrap();
        self.d.deliver_at(self.now).unwrap();
        out
    }

    /// The organiser's own mail to their own desk.
    fn desk(&mut self, organiser: &str, body: &str) -> Intake {
        let to = self.desk_of(organiser);
        self.mail(organiser, &to, body)
    }

    fn say(&mut self, game: &str, seat: &str, from: &str, body: &str) -> Intake {
        let to = format!("despatch+{game}.{seat}.{}@localhost", token(game, seat));
        self.mail(from, &to, body)
    }

    fn mails(&self) -> Vec<Mail> {
        let mut files: Vec<_> = ["new", "cur"]
            .iter()
            .flat_map(|sub| std::fs::read_dir(self.d.cfg.mail.outbox.join(sub)).unwrap())
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        files
            .into_iter()
            .map(|p| {
                let bytes = std::fs::read(&p).unwrap();
                let m = MessageParser::default().parse(&bytes).unwrap();
                let first = |a: Option<&mail_parser::Address>| {
                    a.and_then(|a| a.first())
                        .and_then(|a| a.address())
                        .unwrap_or("")
                        .to_string()
                };
                Mail {
                    to: first(m.to()),
                    reply_to: first(m.reply_to()),
                    subject: m.subject().unwrap_or("").to_string(),
                    text: m.body_text(0).map(|t| t.into_owned()).unwrap_or_default(),
                    raw: String::from_utf8_lossy(&bytes).into_owned(),
                }
            })
            .collect()
    }

    fn mails_to(&self, to: &str) -> Vec<Mail> {
        self.mails().into_iter().filter(|m| m.to == to).collect()
    }

    /// The text of the one desk answer to `organiser` that has `needle`.
    fn answer(&self, organiser: &str, needle: &str) -> String {
        let hits: Vec<String> = self
            .mails_to(organiser)
            .into_iter()
            .filter(|m| m.subject.starts_with("Re: desk"))
            .map(|m| flat(&m.text))
            .filter(|t| t.contains(needle))
            .collect();
        assert_eq!(hits.len(), 1, "one answer to {organiser} with {needle:?}");
        hits[0].clone()
    }

    fn journal(&self, game: &str) -> Vec<String> {
        self.d.data.game(game).read_journal().unwrap().lines
    }

    fn kinds(&self, game: &str) -> Vec<String> {
        self.journal(game)
            .iter()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                v["type"].as_str().unwrap().to_string()
            })
            .collect()
    }
}

#[test]
fn mail_to_the_organiser_replies_to_their_own_desk() {
    let mut c = club();
    c.say("g1", "north", ANN, "PRESS TO gm\nMay I have a day more?");
    c.say("g2", "north", BOB, "PRESS TO gm\nAnd I?");
    let to_sec = c.mails_to(SEC);
    let to_umpire = c.mails_to(UMPIRE);
    assert!(!to_sec.is_empty() && !to_umpire.is_empty());
    assert!(to_sec.iter().all(|m| m.reply_to == c.desk_of(SEC)));
    assert!(to_umpire.iter().all(|m| m.reply_to == c.desk_of(UMPIRE)));
    // One secret per organiser address, stable, and never a game's address.
    assert_ne!(c.secret_of(SEC), c.secret_of(UMPIRE));
    assert_eq!(c.desk_of(SEC), c.desk_of("Sec@Club.Example"));
    assert!(c.desk_of(SEC).starts_with("despatch+_desk."));
    let key = c.d.data.root.join("desk.key");
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(
        std::fs::metadata(&key).unwrap().permissions().mode() & 0o777,
        0o600
    );
}

#[test]
fn every_command_is_answered_with_what_was_done_or_exactly_why_not() {
    let mut c = club();
    let out = c.desk(
        SEC,
        "EXTEND g1 24 Bob is ill\nPAUSE g1 club meeting\nPAUSE g1\nRESUME g3\n\
         RESUME g2\nREPLACE g1 west cy@club.example\nREPLACE g1 south dan@club.example Bob left\n\
         EXTEND nosuch 5\nDANCE g1\nGAMES\nHELP",
    );
    assert_eq!(out, Intake::Desk { commands: 11 });
    let a = c.answer(SEC, "EXTEND g1 24");
    for want in [
        "> EXTEND g1 24 Bob is ill DONE: the deadline of g1 is now Saturday 5 September 2026, 09:00 UTC. Every seat is told.",
        "> PAUSE g1 club meeting DONE: g1 is paused",
        "(95 h 50 min were left before the deadline)",
        "> PAUSE g1 NOT DONE: the game is paused (since Tue 1 Sep 2026 09:10 UTC)",
        "> RESUME g3 NOT DONE: the game is not paused: its clock is running",
        "> RESUME g2 NOT DONE: game `g2` is not yours",
        "> REPLACE g1 west cy@club.example NOT DONE: no seat `west` (seats: north, south)",
        "> REPLACE g1 south dan@club.example Bob left DONE: seat south of g1 now belongs to dan@club.example",
        "> EXTEND nosuch 5 NOT DONE: there is no game `nosuch`",
        "> DANCE g1 NOT DONE: `DANCE` is not a desk command",
        "> GAMES Your games (2):",
        "g1 (parley, duel): PAUSED at step 1 (Terms) since Tuesday 1 September 2026, 09:10 UTC (95 h 50 min left); reason: club meeting",
        "g3 (parley, duel): step 1 (Terms); deadline Friday 4 September 2026, 09:00 UTC; waiting for north, south",
        "THE ORGANISER'S DESK",
    ] {
        assert!(a.contains(want), "{want:?} in {a}");
    }
    assert!(!a.contains("g2 (parley"), "{a}");
    // Each act is in the journal as the shell's are; nothing from a refused line.
    assert_eq!(
        c.kinds("g1")[1..],
        ["deadline_changed", "game_paused", "gm_action"]
    );
    assert_eq!(c.kinds("g2"), ["game_created"]);
    assert_eq!(c.kinds("g3"), ["game_created"]);
    // Every seat was told; the new player was welcomed; Bob is a former player of g1.
    let ann: Vec<String> = c.mails_to(ANN).iter().map(|m| m.subject.clone()).collect();
    assert!(ann.iter().any(|s| s.contains("New deadline")), "{ann:?}");
    assert!(
        ann.iter()
            .any(|s| s.contains("The organiser paused the game")),
        "{ann:?}"
    );
    let dan = c.mails_to("dan@club.example");
    assert!(
        dan.iter()
            .any(|m| m.subject.contains("You take over seat south"))
    );
    let paused = flat(
        &c.mails_to(ANN)
            .into_iter()
            .find(|m| m.subject.contains("paused"))
            .unwrap()
            .text,
    );
    assert!(
        paused.contains("Reason: club meeting")
            && paused.contains("Orders you send meanwhile are read and kept"),
        "{paused}"
    );

    // Resume running after a resume; CLOSE resolves a step; the umpire runs g2 alone.
    c.desk(SEC, "RESUME g1\nRESUME g1\nCLOSE g3 nobody answers");
    let a = c.answer(SEC, "RESUME g1");
    assert!(
        a.contains("> RESUME g1 DONE: g1 goes on; its deadline is now"),
        "{a}"
    );
    assert!(
        a.contains("> RESUME g1 NOT DONE: the game is not paused"),
        "{a}"
    );
    assert!(
        a.contains(
            "> CLOSE g3 nobody answers DONE: the open step of g3 is closed; 1 step(s) resolved"
        ),
        "{a}"
    );
    c.desk(UMPIRE, "PAUSE g2\nEXTEND g1 2");
    let a = c.answer(UMPIRE, "PAUSE g2");
    assert!(a.contains("> PAUSE g2 DONE"), "{a}");
    assert!(
        a.contains("> EXTEND g1 2 NOT DONE: game `g1` is not yours"),
        "{a}"
    );
    // A mail read again (the same Message-ID) is not carried out twice.
    let desk = c.desk_of(UMPIRE);
    assert_eq!(
        c.mail_again(UMPIRE, &desk, "PAUSE g2\nEXTEND g1 2"),
        Intake::Duplicate
    );
    assert_eq!(c.kinds("g2")[1..], ["game_paused"]);
}

#[test]
fn a_wrong_sender_or_secret_does_nothing_and_the_organiser_hears_once_an_hour() {
    let mut c = club();
    let before: Vec<Vec<String>> = ["g1", "g2", "g3"].iter().map(|g| c.journal(g)).collect();
    let sec_desk = c.desk_of(SEC);
    let wrong = sec_desk.replace(&c.secret_of(SEC), "aaaaaaaaaaaaaaaaaaaaaaaa");
    // A seat's player with the organiser's secret (a leaked desk address).
    assert_eq!(c.mail(ANN, &sec_desk, "PAUSE g1"), Intake::DeskRefused);
    // A forged From without the secret, and the other organiser with it.
    assert_eq!(c.mail(SEC, &wrong, "PAUSE g1"), Intake::DeskRefused);
    assert_eq!(c.mail(UMPIRE, &sec_desk, "PAUSE g1"), Intake::DeskRefused);
    assert_eq!(
        c.mail(SEC, "despatch+_desk@localhost", "PAUSE g1"),
        Intake::DeskRefused
    );
    let after: Vec<Vec<String>> = ["g1", "g2", "g3"].iter().map(|g| c.journal(g)).collect();
    assert_eq!(before, after, "nothing was journaled");
    // The sender is never answered; the organiser concerned is told once in the hour.
    assert!(c.mails_to(ANN).iter().all(|m| !m.subject.contains("desk")));
    let notes = |c: &Club, to: &str| {
        c.mails_to(to)
            .iter()
            .filter(|m| m.subject.contains("A mail to your desk was refused"))
            .count()
    };
    assert_eq!(notes(&c, SEC), 1);
    assert_eq!(notes(&c, UMPIRE), 0, "the secret was the house organiser's");
    c.now += Duration::minutes(61);
    c.mail(ANN, &sec_desk, "PAUSE g1");
    assert_eq!(notes(&c, SEC), 2, "a new hour, a new note");
    // Control: the same mail from the organiser acts.
    assert!(matches!(
        c.desk(SEC, "PAUSE g1"),
        Intake::Desk { commands: 1 }
    ));
    assert_eq!(c.kinds("g1")[1..], ["game_paused"]);
}

/// Games g1: paused 10 h in, orders sent while paused are kept, resumed 300 h in.
#[test]
fn a_pause_stops_the_clock_and_a_resume_gives_back_the_time_left() {
    let mut c = club();
    c.now = t0() + Duration::hours(10) - Duration::minutes(10);
    c.desk(SEC, "PAUSE g1 a dispute about the rules");
    let paused_at = c.now;
    // Far past the old deadline (72 h) nothing happens: no reminder, no lock, no due time.
    let g = c.d.open_game("g1").unwrap();
    assert_eq!(g.game.next_due(), None);
    assert!(g.game.due_events(t0() + Duration::hours(500)).is_empty());
    c.d.run_once(t0() + Duration::hours(200)).unwrap();
    c.now = t0() + Duration::hours(200);
    assert_eq!(
        c.say("g1", "north", ANN, "HOLD"),
        Intake::Accepted {
            game: "g1".into(),
            seat: "north".into(),
            step: 1
        }
    );
    assert_eq!(
        c.say("g1", "south", BOB, "YIELD"),
        Intake::Accepted {
            game: "g1".into(),
            seat: "south".into(),
            step: 1
        }
    );
    c.d.run_once(c.now + Duration::hours(1)).unwrap();
    assert_eq!(
        c.kinds("g1")[1..],
        ["game_paused", "submission", "submission"],
        "every order in, and still no lock while paused"
    );
    // Resume 300 h in: 62 h were left, so the deadline is 362 h in; then the step resolves.
    c.now = t0() + Duration::hours(300) - Duration::minutes(10);
    c.desk(SEC, "RESUME g1");
    let a = c.answer(SEC, "RESUME g1");
    let want = t0() + Duration::hours(362);
    assert!(
        a.contains(&format!(
            "its deadline is now {}",
            despatch::report::fmt_time(want, "UTC")
        )),
        "{a}"
    );
    assert!(
        a.contains("Every order was in: 1 step(s) resolved at once"),
        "{a}"
    );
    let line: serde_json::Value = serde_json::from_str(&c.journal("g1")[4]).unwrap();
    assert_eq!(line["type"], "game_resumed");
    assert_eq!(
        line["deadline"],
        want.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
    );
    let told = c
        .mails_to(ANN)
        .into_iter()
        .find(|m| m.subject.contains("The game goes on"))
        .unwrap();
    assert!(
        flat(&told.text).contains("the time that was left when the game was paused"),
        "{}",
        told.text
    );
    assert!(paused_at < c.now);

    // Verify replays the pause and the resume: green; red once the deadline is forged.
    let (_, findings) = despatch::verify::verify_store(&c.d.data.game("g1"), &c.d.registry);
    assert!(findings.is_empty(), "{findings:?}");
    let store = c.d.data.game("g1");
    let path = store.journal_path();
    let good = std::fs::read_to_string(&path).unwrap();
    let forged = good.replace(
        &want.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        &(want + Duration::hours(24)).to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
    );
    assert_ne!(forged, good);
    std::fs::write(&path, forged).unwrap();
    let (_, findings) = despatch::verify::verify_store(&store, &c.d.registry);
    assert!(
        findings
            .iter()
            .any(|f| format!("{f:?}").contains("game_resumed")),
        "{findings:?}"
    );
    std::fs::write(&path, good).unwrap();
}

/// Around the hour (ruling O6) through the pipeline: 30 min left gives an hour, 61 min stays.
#[test]
fn a_step_resumed_with_under_an_hour_left_gets_the_hour() {
    for (left_min, want_min, raised) in [(30, 60, true), (61, 61, false)] {
        let mut c = club();
        c.now = t0() + Duration::hours(72) - Duration::minutes(left_min + 10);
        c.desk(SEC, "PAUSE g3");
        c.now = t0() + Duration::hours(100) - Duration::minutes(10);
        c.desk(SEC, "RESUME g3");
        let resumed = c.now;
        let g = c.d.open_game("g3").unwrap();
        assert_eq!(
            g.game.book().deadline,
            Some(resumed + Duration::minutes(want_min)),
            "{left_min} min left"
        );
        let told = c
            .mails_to(CY)
            .into_iter()
            .find(|m| m.subject.contains("The game goes on"))
            .unwrap();
        assert_eq!(
            flat(&told.text).contains("the least a resumed step gives"),
            raised,
            "{}",
            told.text
        );
    }
}

#[test]
fn a_broadcast_reaches_every_player_once_and_is_journaled_as_a_digest() {
    let mut c = club();
    let msg = "Dear all,\n\n  the club meets on Friday at eight.";
    let out = c.desk(SEC, &format!("BROADCAST g1\n{msg}\nEND\nBROADCAST LEAGUE autumn\nThe autumn league ends in May.\nEND\nBROADCAST g2\nnot mine"));
    assert_eq!(out, Intake::Desk { commands: 3 });
    let a = c.answer(SEC, "BROADCAST g1");
    assert!(
        a.contains("DONE: your message went to 2 player address(es) of g1."),
        "{a}"
    );
    assert!(
        a.contains("DONE: your message went to 3 player address(es) of g1, g3. Not sent to: g2 (not yours)."),
        "{a}"
    );
    assert!(
        a.contains("> BROADCAST g2 NOT DONE: game `g2` is not yours"),
        "{a}"
    );
    // The game's message: once to each of its players, the text as written.
    for p in [ANN, BOB] {
        let got: Vec<Mail> = c
            .mails_to(p)
            .into_iter()
            .filter(|m| m.subject == "[g1 #1] A message from the organiser")
            .collect();
        assert_eq!(
            got.len(),
            1,
            "{p}: {:?}",
            c.mails_to(p).iter().map(|m| &m.subject).collect::<Vec<_>>()
        );
        assert!(
            got[0].text.contains("  the club meets on Friday at eight."),
            "{}",
            got[0].text
        );
        assert!(got[0].text.contains("A message from the organiser of g1"));
    }
    // The league's: one mail per player address, however many of its games they sit in.
    for (p, n) in [(ANN, 1), (BOB, 1), (CY, 1), (UMPIRE, 0)] {
        let got = c
            .mails_to(p)
            .into_iter()
            .filter(|m| m.subject == "[league autumn] A message from the organiser")
            .count();
        assert_eq!(got, n, "{p}");
    }
    assert!(c.mails_to(CY).iter().all(|m| !m.text.contains("not mine")));
    // Journaled as a digest only (press_record = digest), in each game it went to.
    let line: serde_json::Value = serde_json::from_str(c.journal("g1").last().unwrap()).unwrap();
    assert_eq!(line["type"], "gm_broadcast");
    assert_eq!(line["league"], "autumn");
    assert!(line.get("text").is_none() && line["digest"].as_str().unwrap().len() == 64);
    assert_eq!(c.kinds("g1")[1..], ["gm_broadcast", "gm_broadcast"]);
    assert_eq!(c.kinds("g3")[1..], ["gm_broadcast"]);
    assert_eq!(c.kinds("g2"), ["game_created"]);
    let (_, findings) = despatch::verify::verify_store(&c.d.data.game("g1"), &c.d.registry);
    assert!(findings.is_empty(), "{findings:?}");
}

/// A writer for the log lines of the calls made inside `capture`.
#[derive(Clone, Default)]
struct Logs(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Logs {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn the_desk_secret_is_in_no_seats_mail_and_no_log_line() {
    let logs = Logs::default();
    let sink = logs.clone();
    let sub = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_ansi(false)
        .with_writer(move || sink.clone())
        .finish();
    let c = tracing::subscriber::with_default(sub, || {
        // Tests on other threads may have met these call sites before this subscriber was
        // set, and cached that nobody listens: asked again, they see it.
        tracing::callsite::rebuild_interest_cache();
        let mut c = club();
        let desk = c.desk_of(SEC);
        c.say("g1", "north", ANN, "PRESS TO gm\nA word, please.");
        c.desk(
            SEC,
            "PAUSE g1\nBROADCAST g1\nHello all\nEND\nGAMES\nRESUME g1",
        );
        c.mail(ANN, &desk, "PAUSE g1");
        c.mail(BOB, &desk.replace('_', ""), "PAUSE g1");
        c.desk(SEC, "BROADCAST LEAGUE autumn\nHello league");
        c.say("g1", "north", ANN, "HOLD");
        c.say("g1", "south", BOB, "YIELD");
        c.d.run_once(c.now + Duration::hours(1)).unwrap();
        c
    });
    let secret = c.secret_of(SEC);
    let logs = String::from_utf8(logs.0.lock().unwrap().clone()).unwrap();
    // Positive control: the log capture works, and the scan finds the secret where it is.
    assert!(
        logs.contains("the organiser's desk mail carried out"),
        "{logs}"
    );
    let with_secret: Vec<Mail> = c
        .mails()
        .into_iter()
        .filter(|m| m.raw.contains(&secret))
        .collect();
    assert!(
        !with_secret.is_empty(),
        "the organiser's mails carry their desk"
    );
    assert!(
        with_secret.iter().all(|m| m.to == SEC),
        "only to the organiser"
    );
    assert!(c.mails().iter().any(|m| m.to == ANN), "seats were mailed");
    assert!(!logs.contains(&secret), "a log line holds the desk secret");
    // Nor any file the data folder keeps (the intake log, journals, outboxes' sent copies
    // other than the organiser's own mails).
    let mut stack = vec![c.d.data.root.clone()];
    let mut files = 0;
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            files += 1;
            let text = String::from_utf8_lossy(&std::fs::read(&p).unwrap()).into_owned();
            if text.contains(&secret) {
                let m = MessageParser::default().parse(text.as_bytes()).unwrap();
                let to = m
                    .to()
                    .and_then(|a| a.first())
                    .and_then(|a| a.address())
                    .unwrap_or("");
                assert_eq!(to, SEC, "{} holds the secret", p.display());
            }
        }
    }
    assert!(files > 20, "the data folder was scanned ({files} files)");
}
