//! Issue 16 points 5 and 8 by mail: observers added by the organiser or (per the club policy)
//! by a seat's `SPECTATOR ADD`, who receive the spectator view — nothing hidden, delayed by
//! `spectator_delay_steps` — and can send nothing. Naval order syntax; the training scenario's
//! Russian minefields (genuine or dummy, known only to Russia) are the hidden facts.

use crate::naval_mail;

use chrono::{Duration, TimeZone, Utc};
use despatch::config::Config;
use despatch::daemon::Intake;
use despatch::engine::Silence;
use despatch::engine::club::Spectators;
use mail_parser::MessageParser;
use naval_mail::{Game, SEATS, plain_address, start, start_configured};

const WATCHER: &str = "watcher@club.example";

fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn when() -> chrono::DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 6, 1, 9, 30, 0).unwrap()
}

fn with(spectators: Spectators, delay: u32, forfeit: bool) -> Game {
    start_configured("training", |c: &mut Config| {
        c.games.policy.club.spectators = spectators;
        c.games.policy.club.spectator_delay_steps = delay;
        if forfeit {
            c.games.policy.on_silence = Silence::Forfeit;
        }
    })
}

/// The address confirms by replying to the one mail that asked it (W5), keeping the code.
pub fn confirm(g: &mut Game, address: &str) -> Intake {
    let ask = g
        .mails_to(address)
        .into_iter()
        .rfind(|m| m.subject.contains("Please confirm you want to watch"))
        .expect("a confirmation request");
    g.send_from(
        address,
        "despatch@localhost",
        &format!("Re: {}", ask.subject),
        Some(&ask.message_id),
        "Yes, I'd like to watch.",
    )
}

/// Every delivered mail to `address` as (file name, raw bytes), oldest first by name, but
/// the request to confirm (which is no game mail).
fn raw_to(g: &Game, address: &str) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for sub in ["new", "cur"] {
        for e in std::fs::read_dir(g.d.cfg.mail.outbox.join(sub))
            .unwrap()
            .flatten()
        {
            let bytes = std::fs::read(e.path()).unwrap();
            let m = MessageParser::default().parse(&bytes).unwrap();
            if m.to().and_then(|a| a.first()).and_then(|a| a.address()) == Some(address)
                && !m
                    .subject()
                    .is_some_and(|s| s.contains("Please confirm you want to watch"))
            {
                out.push((e.file_name().to_string_lossy().into_owned(), bytes));
            }
        }
    }
    out.sort();
    out
}

/// Every line a mail shows anywhere: its text, its HTML and each text attachment (the SVG map).
fn shown_lines(bytes: &[u8]) -> Vec<String> {
    let m = MessageParser::default().parse(bytes).unwrap();
    let mut lines: Vec<String> = Vec::new();
    for i in 0..3 {
        if let Some(t) = m.body_text(i) {
            lines.extend(t.lines().map(str::to_string));
        }
        if let Some(h) = m.body_html(i) {
            lines.extend(h.lines().map(str::to_string));
        }
    }
    for a in m.attachments() {
        if let Ok(t) = std::str::from_utf8(a.contents()) {
            lines.extend(t.lines().map(str::to_string));
        }
    }
    lines
}

/// The hidden facts of the training scenario as a line would show them: a Russian field's
/// nature (`field M1 (russia) …: genuine`).
fn shows_a_field_nature(lines: &[String]) -> Option<String> {
    lines
        .iter()
        .find(|l| l.contains("field M") && (l.contains(": genuine") || l.contains(": dummy")))
        .cloned()
}

/// The steps whose results a set of mails tells (`WHAT HAPPENED (step k`).
fn steps_told(mails: &[(String, Vec<u8>)]) -> Vec<u64> {
    let mut v: Vec<u64> = mails
        .iter()
        .filter_map(|(_, b)| {
            let t = MessageParser::default()
                .parse(b)?
                .body_text(0)?
                .into_owned();
            let at = t.find("WHAT HAPPENED (step ")?;
            t[at + 20..]
                .split(|c: char| !c.is_ascii_digit())
                .next()?
                .parse()
                .ok()
        })
        .collect();
    v.sort();
    v
}

#[test]
fn the_gm_adds_an_observer_who_sees_the_spectator_view_and_no_hidden_fact() {
    let mut g = start();
    let said = g.d.gm_spectator("g", true, WATCHER, when()).unwrap();
    assert!(said.contains(WATCHER), "{said}");
    assert_eq!(
        confirm(&mut g, WATCHER),
        Intake::Observer { game: "g".into() }
    );
    let seats = g.d.data.game("g").seats().unwrap();
    assert_eq!(seats.spectators.len(), 1);
    assert_eq!(seats.spectators[0].address, WATCHER);
    // The journal (shown to auditors) says someone watches, never who.
    let journal = String::from_utf8(g.journal()).unwrap();
    assert!(
        journal.contains("\"type\":\"spectator_joined\""),
        "{journal}"
    );
    assert!(!journal.contains("watcher"), "the address is not journaled");
    // Ruling W1: every seat is told, by count and by whom, never the address.
    for (seat, _, _) in SEATS {
        let notice = g
            .inbox(seat)
            .into_iter()
            .rfind(|m| m.subject.contains("A spectator now watches"))
            .unwrap_or_else(|| panic!("{seat} was not told"));
        assert!(
            flat(&notice.text)
                .contains("The organiser added a spectator. One spectator now watches"),
            "{}",
            notice.text
        );
        assert!(!notice.text.contains("watcher"), "{}", notice.text);
    }
    let welcome = g.mails_to(WATCHER);
    assert_eq!(welcome.len(), 2, "the request, then one welcome");
    let welcome = &welcome[1..];
    assert!(
        welcome[0].text.starts_with("SPECTATOR VIEW"),
        "{}",
        welcome[0].text
    );
    assert!(
        welcome[0].text.contains("Anchor A = "),
        "{}",
        welcome[0].text
    );

    // Set-up and manoeuvre resolve (no game ends in them); gunnery is open.
    g.play_until(3);
    let mails = raw_to(&g, WATCHER);
    assert_eq!(
        steps_told(&mails),
        vec![1, 2],
        "one results mail per step, at once"
    );
    let mut russia_saw = None;
    for (_, bytes) in raw_to(&g, SEATS[1].1) {
        russia_saw = russia_saw.or(shows_a_field_nature(&shown_lines(&bytes)));
    }
    // Positive control: the owner's mails show the fields' nature in the very form looked for.
    assert!(
        russia_saw.is_some(),
        "Russia's mails never show a field's nature"
    );
    for (name, bytes) in &mails {
        let lines = shown_lines(bytes);
        assert_eq!(shows_a_field_nature(&lines), None, "{name} leaks a field");
        let m = MessageParser::default().parse(bytes).unwrap();
        // No route to a seat: no Reply-To at all, and no seat's secret anywhere.
        assert!(m.reply_to().is_none(), "{name} has a Reply-To");
        let raw = String::from_utf8_lossy(bytes);
        for (_, _, token) in SEATS {
            assert!(!raw.contains(token), "{name} carries a seat's secret");
        }
        for (_, address, _) in SEATS {
            assert!(!raw.contains(address), "{name} names a player's address");
        }
    }
}

#[test]
fn the_delay_holds_and_the_end_releases_everything_then_verify_passes() {
    let mut g = with(Spectators::Gm, 1, true);
    g.d.gm_spectator("g", true, WATCHER, when()).unwrap();
    confirm(&mut g, WATCHER);
    g.play_until(2);
    // Step 1 resolved; one step behind, the observer has nothing yet but the welcome.
    assert_eq!(steps_told(&raw_to(&g, WATCHER)), Vec::<u64>::new());
    assert_eq!(raw_to(&g, WATCHER).len(), 1);
    // Set-up and manoeuvre resolved (no game ends in them): the observer has step 1 only.
    g.play_until(3);
    assert_eq!(g.step(), 3);
    assert_eq!(steps_told(&raw_to(&g, WATCHER)), vec![1]);
    // Both seats stay silent past the deadline: under `forfeit` the game ends.
    let late = when() + Duration::days(30);
    g.d.tick("g", late).unwrap();
    g.d.deliver().unwrap();
    assert!(g.d.open_game("g").unwrap().game.is_over());
    let mails = raw_to(&g, WATCHER);
    assert_eq!(steps_told(&mails), vec![1, 2], "the held steps went out");
    let over: Vec<_> = g
        .mails_to(WATCHER)
        .into_iter()
        .filter(|m| m.subject.contains("Game over"))
        .collect();
    assert_eq!(over.len(), 1, "one game-over mail");
    for (name, bytes) in &mails {
        assert_eq!(
            shows_a_field_nature(&shown_lines(bytes)),
            None,
            "{name} leaks a field"
        );
    }
    // The observer's folder alone verifies, every mail held against the spectator view.
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes) in &mails {
        std::fs::write(dir.path().join(name), bytes).unwrap();
    }
    let (checked, findings) = despatch::verify::verify_mails(dir.path(), None);
    assert!(findings.is_empty(), "{findings:#?}");
    assert!(checked.replayed_mails >= 4, "{checked:?}");
    // Negative control: a spectator mail altered to show Russia's view no longer verifies.
    let (name, bytes) = mails
        .iter()
        .find(|(_, b)| String::from_utf8_lossy(b).contains("WHAT HAPPENED (step 2"))
        .unwrap();
    let forged = String::from_utf8_lossy(bytes).replace("SPECTATOR VIEW", "SPECTATOR VIEX");
    std::fs::write(dir.path().join(name), forged).unwrap();
    let (_, findings) = despatch::verify::verify_mails(dir.path(), None);
    assert!(!findings.is_empty(), "an altered spectator mail passed");
}

#[test]
fn a_player_adds_and_removes_observers_by_mail_only_under_the_players_policy() {
    let mut g = with(Spectators::Players, 0, false);
    let (out, answer) = g.send(
        "japan",
        &plain_address("japan"),
        "watch",
        None,
        &format!("SPECTATOR ADD Umpire <{WATCHER}>"),
    );
    assert!(matches!(out, Intake::Settings { .. }), "{out:?}");
    assert!(
        flat(&answer).contains(&format!(
            "{WATCHER} has been sent one mail asking them to confirm"
        )),
        "{answer}"
    );
    assert_eq!(g.mails_to(WATCHER).len(), 1, "the request to confirm");
    confirm(&mut g, WATCHER);
    assert_eq!(g.mails_to(WATCHER).len(), 2, "then the welcome");
    let notice = g
        .inbox("russia")
        .into_iter()
        .rfind(|m| m.subject.contains("A spectator now watches"))
        .unwrap();
    assert!(
        flat(&notice.text).contains("Seat japan added a spectator"),
        "{}",
        notice.text
    );
    assert!(!notice.text.contains(WATCHER));
    // One seat cannot act for another: Russia may not remove Japan's observer.
    let (_, answer) = g.send(
        "russia",
        &plain_address("russia"),
        "x",
        None,
        &format!("SPECTATOR REMOVE {WATCHER}"),
    );
    assert!(
        flat(&answer).contains("was added by someone else"),
        "{answer}"
    );
    assert!(
        !answer.contains("SPECTATORS YOU ADDED\n  watcher"),
        "Russia is not told the address: {answer}"
    );
    assert_eq!(g.d.data.game("g").seats().unwrap().spectators.len(), 1);
    // Japan may.
    let (_, answer) = g.send(
        "japan",
        &plain_address("japan"),
        "x",
        None,
        &format!("SPECTATOR REMOVE {WATCHER}"),
    );
    assert!(flat(&answer).contains("no longer watches"), "{answer}");
    assert!(g.d.data.game("g").seats().unwrap().spectators.is_empty());
    let journal = String::from_utf8(g.journal()).unwrap();
    assert!(
        journal.contains("\"type\":\"spectator_left\",\"step\":1"),
        "{journal}"
    );
    g.play_until(2);
    assert_eq!(
        g.mails_to(WATCHER).len(),
        2,
        "a removed observer gets nothing more"
    );
}

#[test]
fn the_policy_says_who_may_add_and_bad_lines_change_nothing() {
    // `gm` (the default): a player is refused, with why.
    let mut g = start();
    let (out, answer) = g.send(
        "japan",
        &plain_address("japan"),
        "x",
        None,
        &format!("SPECTATOR ADD {WATCHER}"),
    );
    assert!(matches!(out, Intake::Settings { .. }), "{out:?}");
    assert!(
        flat(&answer).contains("only the organiser adds or removes spectators"),
        "{answer}"
    );
    assert!(g.mails_to(WATCHER).is_empty());
    // Malformed lines: the reason, nothing applied.
    let (_, answer) = g.send(
        "japan",
        &plain_address("japan"),
        "x",
        None,
        "SPECTATOR ADD not-an-address",
    );
    assert!(
        flat(&answer).contains("SPECTATOR was not understood"),
        "{answer}"
    );
    let (_, answer) = g.send(
        "japan",
        &plain_address("japan"),
        "x",
        None,
        "SPECTATOR please",
    );
    assert!(
        flat(&answer).contains("write SPECTATOR ADD watcher@example.org"),
        "{answer}"
    );
    // The organiser cannot make a player an observer of their own game.
    let err = g.d.gm_spectator("g", true, SEATS[1].1, when()).unwrap_err();
    assert!(err.to_string().contains("plays a seat"), "{err}");
    let err = g.d.gm_spectator("g", false, WATCHER, when()).unwrap_err();
    assert!(err.to_string().contains("does not watch"), "{err}");
    assert!(g.d.data.game("g").seats().unwrap().spectators.is_empty());
    assert!(
        !String::from_utf8(g.journal())
            .unwrap()
            .contains("spectator_")
    );

    // `none`: nobody, not even the organiser.
    let mut g = with(Spectators::None, 0, false);
    let err = g.d.gm_spectator("g", true, WATCHER, when()).unwrap_err();
    assert!(err.to_string().contains("allows no spectators"), "{err}");
    let (_, answer) = g.send(
        "japan",
        &plain_address("japan"),
        "x",
        None,
        &format!("SPECTATOR ADD {WATCHER}"),
    );
    assert!(flat(&answer).contains("allows no spectators"), "{answer}");
    assert!(g.d.data.game("g").seats().unwrap().spectators.is_empty());
}

#[test]
fn an_observer_cannot_send_orders_and_is_told_at_most_hourly() {
    let mut g = start();
    g.d.gm_spectator("g", true, WATCHER, when()).unwrap();
    confirm(&mut g, WATCHER);
    let before = g.mails_to(WATCHER).len();
    let orders = g.orders("japan");
    let out = g.send_from(
        WATCHER,
        "despatch@localhost",
        "Re: [g #1] Results",
        None,
        &orders,
    );
    assert_eq!(out, Intake::Observer { game: "g".into() });
    assert_eq!(g.step(), 1, "nothing applied");
    let told = g.mails_to(WATCHER);
    assert_eq!(told.len(), before + 1);
    assert!(
        flat(&told.last().unwrap().text).contains("Spectators cannot send orders"),
        "{}",
        told.last().unwrap().text
    );
    // A second mail within the hour: nothing happens, nobody is mailed.
    let out = g.send_from(
        WATCHER,
        "despatch@localhost",
        "Re: [g #1] again",
        None,
        "FIRE everything",
    );
    assert_eq!(out, Intake::Observer { game: "g".into() });
    assert_eq!(g.mails_to(WATCHER).len(), before + 1);
    assert!(
        g.waiting().contains(&"japan".to_string()),
        "Japan still owes orders"
    );
}
