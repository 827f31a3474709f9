//! Strict mode against a host who also plays (issue 29, point 3; rulings S2 and S8 in
//! docs/strict-dice.md): one test per lever he holds — close-step, extend, a dropped reveal, a
//! late daemon run — each through the mail pipeline, each showing that step 1 resolves only
//! with the seed that has every strict reveal. The player tool's levers (a lock mail for a
//! later step, a forged lock) are in strict_reveal_record.rs.

use crate::strict_world;
use crate::toy;

use chrono::Duration;
use despatch::cli::player;
use despatch::daemon::Intake;
use despatch::dice;
use despatch::engine::{Event, Silence};
use despatch::verify;
use strict_world::*;

fn registry() -> despatch::engine::Registry {
    despatch::rulesets::registry().with::<toy::Bids>()
}

/// The one seed step 1 may have: over `L_1`, `v_1` and both strict seats' journaled reveals.
fn seed_with_every_reveal(w: &World) -> String {
    let journal = w.journal();
    let lock = match of_kind(&journal, "lock")[0] {
        Event::Lock { lock, .. } => dice::from_hex(lock).unwrap(),
        _ => unreachable!(),
    };
    let v = match of_kind(&journal, "results")[0] {
        Event::Results { reveal, .. } => dice::from_hex(reveal).unwrap(),
        _ => unreachable!(),
    };
    let r = |seat: &str| {
        journal.iter().find_map(|e| match e {
            Event::Reveal {
                step: 1,
                seat: s,
                reveal,
                ..
            } if s == seat => dice::from_hex(reveal),
            _ => None,
        })
    };
    let inputs: Vec<(String, Option<dice::Hash>)> = STRICT
        .iter()
        .map(|s| {
            (
                s.to_string(),
                Some(r(s).expect("every strict seat revealed")),
            )
        })
        .collect();
    dice::to_hex(&dice::seed_strict(dice::Protocol::V2, &lock, &v, &inputs))
}

fn step_1_seed(w: &World) -> String {
    match of_kind(&w.journal(), "results")[..] {
        [Event::Results { seed, .. }, ..] => seed.clone(),
        _ => panic!("step 1 has not resolved"),
    }
}

fn still_waiting(w: &World) {
    let journal = w.journal();
    assert!(of_kind(&journal, "results").is_empty(), "step 1 resolved");
    assert!(of_kind(&journal, "reveal_missed").is_empty());
    assert_eq!(w.game().book().step, 1);
    assert!(w.game().book().locked.is_some());
}

const POLICIES: [Option<Silence>; 4] = [
    None,
    Some(Silence::Pass),
    Some(Silence::Forfeit),
    Some(Silence::WaitForGm),
];

#[test]
fn close_step_is_refused_while_a_reveal_is_awaited_under_every_silence_policy() {
    for policy in POLICIES {
        let mut w = world_with(true, policy);
        w.bid_all([1, 2, 3]);
        // blue-scout's reveal is in; red-1's is awaited. A host holding blue-scout's reveal
        // would know both seeds: with red-1's r, and with an empty one.
        w.reveal("blue-scout", 1);
        let late = w.now + Duration::hours(REVEAL_HOURS as i64 * 4);
        for at in [w.now + Duration::minutes(1), late] {
            let err = w
                .daemon
                .gm_close_step(GAME, "red-1 is away", at)
                .expect_err("close-step must be refused")
                .to_string();
            assert!(
                err.contains("waits for the strict reveal of red-1") && err.contains("ruling S2"),
                "{policy:?}: {err}"
            );
        }
        assert!(of_kind(&w.journal(), "gm_action").is_empty(), "{policy:?}");
        still_waiting(&w);
        w.reveal("red-1", 1);
        assert_eq!(w.game().book().step, 2, "{policy:?}");
        assert_eq!(step_1_seed(&w), seed_with_every_reveal(&w), "{policy:?}");
    }
}

#[test]
fn extend_is_refused_while_a_reveal_is_awaited_and_moves_no_deadline() {
    let mut w = world(true);
    w.bid_all([1, 2, 3]);
    w.reveal("blue-scout", 1);
    let due = w.game().book().reveal_deadline().unwrap();
    for hours in [-6, 48] {
        let err = w
            .daemon
            .gm_extend(GAME, hours, "", w.now)
            .expect_err("extend must be refused")
            .to_string();
        assert!(
            err.contains("waits for the strict reveal of red-1"),
            "{err}"
        );
    }
    assert!(of_kind(&w.journal(), "deadline_changed").is_empty());
    assert_eq!(w.game().book().reveal_deadline(), Some(due));
    still_waiting(&w);
}

#[test]
fn a_dropped_reveal_never_reseeds_the_step_it_is_told_to_every_seat_and_waited_for() {
    for policy in POLICIES {
        let mut w = world_with(true, policy);
        w.bid_all([1, 2, 3]);
        w.reveal("red-1", 1);
        // blue-scout's reveal mail never reaches the daemon.
        let due = w.game().book().reveal_deadline().unwrap();
        assert_eq!(w.game().next_due(), Some(due), "{policy:?}");
        w.tick(due - Duration::minutes(1));
        assert!(of_kind(&w.journal(), "reveal_overdue").is_empty());
        w.tick(due);
        let journal = w.journal();
        assert!(
            matches!(of_kind(&journal, "reveal_overdue")[..],
                [Event::RevealOverdue { step: 1, seats, .. }] if seats == &["blue-scout"]),
            "{policy:?}"
        );
        still_waiting(&w);
        assert!(w.game().book().forfeited.is_empty(), "{policy:?}");
        assert_eq!(w.game().next_due(), None, "only the reveal moves it now");
        w.tick(due + Duration::days(30));
        still_waiting(&w);
        assert_eq!(
            of_kind(&w.journal(), "reveal_overdue").len(),
            1,
            "told once"
        );
        // Publicly: every seat reads who is awaited and since when.
        for (s, _, _) in SEATS {
            let mail = w.text(&format!("-overdue-{s}"));
            assert!(
                mail.contains("Waiting for blue-scout's reveal for step 1 since"),
                "{mail}"
            );
        }
        // The silent seat is reminded: its tool answers the reminder as it answers the lock.
        let reminder = w.raw("-overdue-blue-scout").remove(0).1;
        let line = player::reveal(w.player_dir("blue-scout"), &reminder).unwrap();
        let again = player::reveal(w.player_dir("blue-scout"), &w.lock_mail("blue-scout", 1));
        assert_eq!(
            Some(&line),
            again.as_ref().ok(),
            "one reveal, whichever mail"
        );
        let out = w.send("blue-scout", &line);
        assert!(matches!(out, Intake::Accepted { step: 1, .. }), "{out:?}");
        assert_eq!(w.game().book().step, 2, "{policy:?}");
        assert_eq!(step_1_seed(&w), seed_with_every_reveal(&w), "{policy:?}");
        let (_, findings) = verify::verify_store(&w.store(), &registry());
        assert!(findings.is_empty(), "{findings:?}");
    }
}

#[test]
fn a_daemon_run_late_after_the_reveal_deadline_still_takes_the_reveal_waiting_for_it() {
    let mut w = world(true);
    w.bid_all([1, 2, 3]);
    w.reveal("red-1", 1);
    // blue-scout's reveal sits in the host's mailbox; the host runs the daemon's clock past
    // the reveal deadline before reading it.
    let line = player::reveal(w.player_dir("blue-scout"), &w.lock_mail("blue-scout", 1)).unwrap();
    let due = w.game().book().reveal_deadline().unwrap();
    w.tick(due + Duration::hours(30));
    still_waiting(&w);
    let out = w.send("blue-scout", &line);
    assert!(matches!(out, Intake::Accepted { step: 1, .. }), "{out:?}");
    assert_eq!(step_1_seed(&w), seed_with_every_reveal(&w));
    let (_, findings) = verify::verify_store(&w.store(), &registry());
    assert!(findings.is_empty(), "{findings:?}");
}

fn old_game(name: &str) -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/strict-step-indexed")
        .join(name)
}

fn old_store(dir: std::path::PathBuf) -> despatch::store::GameStore {
    despatch::store::GameStore {
        dir,
        id: GAME.to_string(),
    }
}

/// Journals written before ruling S2 changed (onions indexed by step, a missing reveal resolved
/// with an empty r at the deadline, on close-step, or with a forfeit) keep replaying.
#[test]
fn old_step_indexed_journals_with_missed_reveals_still_verify() {
    for name in ["lapsed", "closed", "forfeit"] {
        let store = old_store(old_game(name).join("store"));
        let journal = std::fs::read_to_string(store.dir.join("journal.jsonl")).unwrap();
        assert!(journal.contains("\"type\":\"reveal_missed\""), "{name}");
        assert!(!journal.contains("onion_index"), "{name}");
        let (checked, findings) = verify::verify_store(&store, &registry());
        assert!(findings.is_empty(), "{name}: {findings:?}");
        assert!(checked.steps >= 1, "{name}: {checked:?}");
    }
    let (checked, findings) =
        verify::verify_mails_with(&old_game("lapsed").join("mails"), Some(GAME), &registry());
    assert!(findings.is_empty(), "{findings:?}");
    assert_eq!(checked.steps, 3);

    // Control: in a game indexed by reveal, the same line after a lapsed deadline is refused.
    let mut w = world(true);
    w.bid_all([1, 2, 3]);
    w.reveal("red-1", 1);
    let due = w.game().book().reveal_deadline().unwrap();
    let mut lines = w.store().read_journal().unwrap().lines;
    lines.push(
        Event::RevealMissed {
            step: 1,
            seats: vec!["blue-scout".into()],
            at: due,
        }
        .to_line(),
    );
    let err = match registry().replay(&lines) {
        Ok(_) => panic!("a reveal_missed replayed in a game indexed by reveal"),
        Err(e) => e,
    };
    assert_eq!(err.kind, "reveal_missed", "{err:?}");
    assert!(
        err.detail
            .contains("never resolves without a strict reveal"),
        "{err:?}"
    );
}

/// S2's "a concession or draw that ends the game leaves the step unresolved": the game still
/// ends as every game does (`game_ended` publishes the salt key, the game-over mail goes out),
/// with no seed for the step that waited. Before, a strict step awaiting a reveal swallowed the
/// end: the game was over but never ended.
#[test]
fn a_draw_or_the_silent_seats_concession_while_a_reveal_is_awaited_ends_the_game_unresolved() {
    for how in ["draw", "concession"] {
        let mut w = world(true);
        w.bid_all([1, 2, 3]);
        w.reveal("red-1", 1);
        // The control: blue-scout's reveal is awaited, nothing ends the game.
        still_waiting(&w);
        assert!(of_kind(&w.journal(), "game_ended").is_empty());
        if how == "draw" {
            for (i, (seat, _, _)) in SEATS.iter().enumerate() {
                let word = if i == 0 { "PROPOSE" } else { "ACCEPT" };
                let out = w.send(seat, &format!("{word} DRAW {GAME}"));
                assert!(!matches!(out, Intake::Rejected { .. }), "{seat}: {out:?}");
            }
            assert_eq!(of_kind(&w.journal(), "draw_agreed").len(), 1, "{how}");
        } else {
            let out = w.send("blue-scout", &format!("CONCEDE {GAME}"));
            assert!(!matches!(out, Intake::Rejected { .. }), "{out:?}");
            assert_eq!(of_kind(&w.journal(), "conceded").len(), 1, "{how}");
        }
        let journal = w.journal();
        assert!(w.game().is_over(), "{how}");
        assert_eq!(
            of_kind(&journal, "game_ended").len(),
            1,
            "{how}: the game ends"
        );
        still_waiting(&w);
        assert!(
            !w.raw("-over-").is_empty(),
            "{how}: the game-over mail goes out"
        );
        let (_, found) = verify::verify_store(&w.store(), &registry());
        assert!(found.is_empty(), "{how}: {found:?}");
    }
}
