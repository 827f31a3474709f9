//! `despatch gm abandon` on a strict game stalled on a missing reveal (ruling S10 in
//! docs/strict-dice.md, O1 in docs/club-rules.md), through the mail pipeline: the game ends
//! with no result and the stalled step never resolves — no dice, no results mail, not even
//! when the reveal comes after — every seat and the confirmed spectator are told once, and
//! every verifier takes the ended game. The control is the same game not abandoned.

use crate::strict_world;
use crate::toy;

use chrono::Duration;
use despatch::cli::player;
use despatch::daemon::Intake;
use despatch::engine::Event;
use despatch::verify;
use strict_world::*;

pub const WATCHER: &str = "watcher@club.example";
const REASON: &str = "blue-scout's player has not been heard of for a month";

fn registry() -> despatch::engine::Registry {
    despatch::rulesets::registry().with::<toy::Bids>()
}

/// A mail from `from` (no seat) answering `in_reply_to`.
fn mail_from(w: &mut World, from: &str, subject: &str, in_reply_to: &str, body: &str) -> Intake {
    w.sent += 1;
    w.now += Duration::minutes(10);
    let raw = format!(
        "From: <{from}>\r\nTo: despatch@localhost\r\nSubject: {subject}\r\nIn-Reply-To: <{in_reply_to}>\r\nReferences: <{in_reply_to}>\r\nMessage-ID: <w{}@watcher.example>\r\nDate: {}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n",
        w.sent,
        w.now.to_rfc2822()
    );
    let out = w.daemon.ingest(raw.as_bytes(), w.now).unwrap();
    w.daemon.deliver().unwrap();
    out
}

/// Every delivered mail addressed to `to`: (file name, raw bytes).
pub fn mails_to(w: &World, to: &str) -> Vec<(String, Vec<u8>)> {
    w.raw("")
        .into_iter()
        .filter(|(_, b)| String::from_utf8_lossy(b).contains(&format!("\nTo: {to}")))
        .collect()
}

/// The organiser adds the watcher, who confirms by replying to the one request.
pub fn watched(w: &mut World) {
    w.daemon
        .gm_spectator(GAME, true, WATCHER, w.now)
        .expect("the organiser may add a spectator");
    w.daemon.deliver().unwrap();
    let ask = mails_to(w, WATCHER).pop().expect("a request to confirm").1;
    let m = mail_parser::MessageParser::default().parse(&ask).unwrap();
    let (subject, id) = (m.subject().unwrap().to_string(), m.message_id().unwrap());
    let id = id.to_string();
    let out = mail_from(w, WATCHER, &format!("Re: {subject}"), &id, "Yes, please.");
    assert!(!matches!(out, Intake::Rejected { .. }), "{out:?}");
    assert!(
        of_kind(&w.journal(), "spectator_joined").len() == 1,
        "the watcher confirmed"
    );
}

/// Step 1 locked, red-1 revealed, blue-scout silent past the reveal deadline.
fn stalled() -> World {
    let mut w = world(true);
    watched(&mut w);
    w.bid_all([1, 2, 3]);
    w.reveal("red-1", 1);
    let due = w.game().book().reveal_deadline().unwrap();
    w.tick(due + Duration::hours(1));
    assert_eq!(of_kind(&w.journal(), "reveal_overdue").len(), 1);
    w
}

fn no_dice_for_step_1(journal: &[Event]) {
    assert!(of_kind(journal, "results").is_empty(), "step 1 resolved");
    assert!(of_kind(journal, "reveal_missed").is_empty());
    assert!(
        !journal
            .iter()
            .any(|e| matches!(e, Event::Reveal { seat, .. } if seat == "blue-scout")),
        "no reveal of blue-scout journaled"
    );
}

/// One seat's mails as the player would keep them, verified as `despatch verify <folder>`.
fn verify_folder_of(w: &World, to: &str, dir: &std::path::Path) {
    let folder = dir.join(to);
    std::fs::create_dir_all(&folder).unwrap();
    for (name, bytes) in mails_to(w, to) {
        std::fs::write(folder.join(name), bytes).unwrap();
    }
    let (checked, findings) = verify::verify_mails_with(&folder, Some(GAME), &registry());
    assert!(findings.is_empty(), "{to}: {findings:?}");
    assert!(checked.mails > 0, "{to}: {checked:?}");
    // The independent Python verifier (stdlib only) takes the same folder.
    let found = std::process::Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if crate::demo_mails::tool_present(found, "python3", "apt-get install python3") {
        let out = std::process::Command::new("python3")
            .arg(crate::demo_mails::repo().join("tests/verifier/verify_mails.py"))
            .arg(&folder)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{to}: {stdout}");
    }
}

#[test]
fn a_stalled_strict_game_abandoned_ends_with_no_result_and_resolves_nothing() {
    let mut w = stalled();
    let before = w.delivered();
    let at = w.now + Duration::hours(2);
    let step = w.daemon.gm_abandon(GAME, REASON, at).unwrap();
    assert_eq!(step, 1);
    let journal = w.journal();
    let n = journal.len();
    assert!(
        matches!(&journal[n - 2], Event::GameAbandoned { step: 1, reason, .. } if reason == REASON),
        "{:?}",
        journal[n - 2]
    );
    assert!(
        matches!(
            &journal[n - 1],
            Event::GameEnded {
                step: 1,
                salt_key: Some(_),
                ..
            }
        ),
        "the salt key is published as at every end"
    );
    no_dice_for_step_1(&journal);
    let game = w.game();
    let outcome = game.outcome().expect("over");
    assert!(outcome.winners.is_empty());
    assert!(
        outcome
            .summary
            .starts_with("Abandoned by the organiser at step 1")
    );
    assert!(game.book().locked.is_some(), "the lock stays, unresolved");

    // One mail each to the three seats and the watcher, which says it all; and red-1, whose
    // reveal of step 1 was bound to its lock, is asked to open its onion (ruling S11).
    let all = w.raw("");
    let opens = w.raw("-open-");
    assert_eq!(names(&opens).len(), 1, "{:?}", names(&opens));
    assert!(opens[0].0.contains("-open-red-1"), "{:?}", names(&opens));
    assert_eq!(all.len() - before, SEATS.len() + 1 + 1, "{:?}", names(&all));
    for to in SEATS.iter().map(|s| s.1).chain([WATCHER]) {
        let over: Vec<String> = mails_to(&w, to)
            .iter()
            .map(|(_, b)| body(b))
            .filter(|t| t.contains("The game is over."))
            .collect();
        assert_eq!(over.len(), 1, "{to}");
        let flat = over[0].split_whitespace().collect::<Vec<_>>().join(" ");
        for says in [
            "Abandoned by the organiser at step 1",
            REASON,
            "nobody wins and it is not a draw",
            "no dice were rolled for it",
            "Salt key z =",
        ] {
            assert!(flat.contains(says), "{to} misses {says:?}: {flat}");
        }
        assert!(!flat.contains("DICE"), "{to}: no dice claimed: {flat}");
    }
    let subject = w.raw("-over-red-1").remove(0).1;
    assert!(
        String::from_utf8_lossy(&subject).contains("Game over: abandoned by the organiser"),
        "the subject says it"
    );

    // Nothing more: not a tick, not the late reveal, which is answered "the game is over".
    w.tick(w.now + Duration::days(40));
    let line = player::reveal(w.player_dir("blue-scout"), &w.lock_mail("blue-scout", 1)).unwrap();
    let out = w.send("blue-scout", &line);
    assert!(!matches!(out, Intake::Accepted { .. }), "{out:?}");
    assert_eq!(w.journal().len(), n, "nothing journaled after the end");
    no_dice_for_step_1(&w.journal());
    let scout = SEATS.iter().find(|s| s.0 == "blue-scout").unwrap().1;
    let answered = mails_to(&w, scout).iter().any(|(_, b)| {
        let t = body(b).split_whitespace().collect::<Vec<_>>().join(" ");
        t.contains("the game is over, so no reveal is asked for any more")
    });
    assert!(answered, "the late reveal is answered: the game is over");
    assert!(
        !w.raw("").iter().any(|(n, _)| n.contains("-results-")),
        "no results mail at all"
    );

    // Every verifier takes the abandoned game: the store, and each seat's and the watcher's
    // folder of mails.
    let (_, findings) = verify::verify_store(&w.store(), &registry());
    assert!(findings.is_empty(), "{findings:?}");
    let tmp = tempfile::tempdir().unwrap();
    for to in SEATS.iter().map(|s| s.1).chain([WATCHER]) {
        verify_folder_of(&w, to, tmp.path());
    }
}

#[test]
fn the_same_stalled_game_not_abandoned_still_waits_and_then_resolves() {
    let mut w = stalled();
    w.tick(w.now + Duration::days(40));
    let journal = w.journal();
    no_dice_for_step_1(&journal);
    assert!(of_kind(&journal, "game_ended").is_empty());
    assert!(w.game().outcome().is_none());
    let (_, out) = w.reveal("blue-scout", 1);
    assert!(matches!(out, Intake::Accepted { step: 1, .. }), "{out:?}");
    assert_eq!(of_kind(&w.journal(), "results").len(), 1);
}

#[test]
fn nothing_may_follow_an_abandonment_in_a_journal_but_the_games_end() {
    let w = stalled();
    let line = player::reveal(w.player_dir("blue-scout"), &w.lock_mail("blue-scout", 1)).unwrap();
    w.daemon.gm_abandon(GAME, REASON, w.now).unwrap();
    let mut lines = w.store().read_journal().unwrap().lines;
    // A forged reveal slipped in after the abandonment: replay refuses it.
    let (_, k, quoted, r) = {
        let mut p = line.split_whitespace();
        (
            p.next(),
            p.next().unwrap().parse::<u64>().unwrap(),
            p.next().unwrap().to_string(),
            p.next().unwrap().to_string(),
        )
    };
    let forged = Event::Reveal {
        step: k,
        seat: "blue-scout".into(),
        lock: quoted,
        reveal: r,
        message_id: "forged@x".into(),
        at: w.now,
    };
    let at = lines.len() - 1;
    lines.insert(at, forged.to_line());
    let Err(e) = registry().replay(&lines) else {
        panic!("a reveal after the abandonment must be refused")
    };
    assert!(e.to_string().contains("abandoned"), "{e}");
    lines.remove(at);
    assert!(registry().replay(&lines).is_ok());
}
