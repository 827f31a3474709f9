//! `despatch player reveal` against an edited or forged lock mail (issue 29, point 3; ruling
//! S8 in docs/strict-dice.md): it keeps a record of every reveal it gave, gives only the
//! seat's next reveal whatever step a mail names, answers a resend alike, and turns a second
//! lock for one step into the player's evidence.

use crate::strict_world;

use despatch::cli::player;
use despatch::daemon::Intake;
use despatch::dice;
use despatch::engine::Event;
use strict_world::*;

/// The lock mail as a plain-text mail of its decoded body, for a forger's edits (the raw mail
/// is quoted-printable).
fn lock_text(w: &World, seat: &str, step: u64) -> String {
    format!(
        "Subject: step {step} is locked\r\n\r\n{}",
        body(&w.lock_mail(seat, step))
    )
}

fn journal_lock(w: &World, step: u64) -> String {
    w.journal()
        .iter()
        .find_map(|e| match e {
            Event::Lock { step: k, lock, .. } if *k == step => Some(lock.clone()),
            _ => None,
        })
        .unwrap()
}

fn record(w: &World, seat: &str) -> std::path::PathBuf {
    w.player_dir(seat)
        .join(format!("{GAME}.{seat}.reveals.json"))
}

fn given(w: &World, seat: &str) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(record(w, seat)).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["reveals"].as_array().unwrap().clone()
}

#[test]
fn a_lock_mail_edited_to_a_later_step_or_reveal_gets_nothing() {
    let mut w = world(true);
    w.bid_all([1, 2, 3]);
    let genuine = lock_text(&w, "blue-scout", 1);
    let heading = "step 1, seat blue-scout, reveal 1)";
    assert!(genuine.contains(heading), "{genuine}");
    let dir = w.player_dir("blue-scout").to_path_buf();
    // The attack: r_40 would give r_1 … r_39 by hashing, the seat's reveals still to come.
    let later = genuine
        .replace(heading, "step 40, seat blue-scout, reveal 40)")
        .replace("L_1 = ", "L_40 = ");
    let skip = genuine.replace(heading, "step 1, seat blue-scout, reveal 2)");
    for forged in [later, skip] {
        let err = player::reveal(&dir, forged.as_bytes())
            .expect_err("only the next reveal is given")
            .to_string();
        assert!(err.contains("your next reveal is number 1"), "{err}");
    }
    // The reveal number taken out, so the tool would fall back to the step: refused too.
    let stripped = genuine
        .replace(heading, "step 40, seat blue-scout)")
        .replace("L_1 = ", "L_40 = ");
    let err = player::reveal(&dir, stripped.as_bytes())
        .expect_err("a mail without a reveal number")
        .to_string();
    assert!(err.contains("names no reveal number"), "{err}");
    assert!(
        !record(&w, "blue-scout").exists(),
        "nothing given, nothing recorded"
    );
    // The genuine mail is answered and the game goes on.
    for seat in STRICT {
        let (_, out) = w.reveal(seat, 1);
        assert!(matches!(out, Intake::Accepted { step: 1, .. }), "{out:?}");
    }
    assert_eq!(w.game().book().step, 2);
}

#[test]
fn the_record_holds_each_reveal_a_resend_is_answered_alike_and_an_old_index_is_refused() {
    let mut w = world(true);
    w.bid_all([1, 2, 3]);
    let (line, out) = w.reveal("blue-scout", 1);
    assert!(matches!(out, Intake::Accepted { .. }), "{out:?}");
    let path = record(&w, "blue-scout");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "the record is the player's own");
    }
    let g = given(&w, "blue-scout");
    assert_eq!(g.len(), 1);
    assert_eq!(g[0]["index"], 1);
    assert_eq!(g[0]["step"], 1);
    assert_eq!(g[0]["lock"], journal_lock(&w, 1).as_str());
    assert!(g[0]["at"].is_string());
    // A resend after a lost reply: the same lock, the same line, recorded once.
    let dir = w.player_dir("blue-scout").to_path_buf();
    let again = player::reveal_at(&dir, &w.lock_mail("blue-scout", 1), w.now).unwrap();
    assert_eq!(again, (line, None));
    assert_eq!(given(&w, "blue-scout").len(), 1);

    w.reveal("red-1", 1);
    w.bid_all([3, 0, 1]);
    let genuine = lock_text(&w, "blue-scout", 2);
    let heading = "step 2, seat blue-scout, reveal 2)";
    assert!(genuine.contains(heading), "{genuine}");
    // An earlier reveal asked for a later step, and the next one asked for an earlier step.
    let earlier = genuine.replace(heading, "step 2, seat blue-scout, reveal 1)");
    let err = player::reveal(&dir, earlier.as_bytes())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("you gave reveal 1") && err.contains("for step 2"),
        "{err}"
    );
    let backwards = genuine
        .replace(heading, "step 1, seat blue-scout, reveal 2)")
        .replace("L_2 = ", "L_1 = ");
    let err = player::reveal(&dir, backwards.as_bytes())
        .unwrap_err()
        .to_string();
    assert!(err.contains("steps only go forward"), "{err}");
    assert_eq!(given(&w, "blue-scout").len(), 1, "refusals record nothing");
    let (_, out) = w.reveal("blue-scout", 2);
    assert!(matches!(out, Intake::Accepted { step: 2, .. }), "{out:?}");
    let g = given(&w, "blue-scout");
    assert_eq!(
        (g.len(), &g[1]["index"], &g[1]["step"]),
        (2, &2.into(), &2.into())
    );
}

#[test]
fn a_forged_lock_gets_only_the_next_reveal_and_the_genuine_lock_then_shows_the_split() {
    let mut w = world(true);
    w.bid_all([1, 2, 3]);
    let genuine = lock_text(&w, "blue-scout", 1);
    let real = journal_lock(&w, 1);
    let fake = dice::to_hex(&[0xab; 32]);
    let forged = genuine.replace(&real, &fake);
    let dir = w.player_dir("blue-scout").to_path_buf();
    let (first, note) = player::reveal_at(&dir, forged.as_bytes(), w.now).unwrap();
    assert!(first.contains(&fake) && note.is_none(), "{first}");
    // The genuine lock for the same step: the same element (already out, nothing new), and
    // a note naming both locks; both stay in the record as the player's evidence.
    let (second, note) = player::reveal_at(&dir, genuine.as_bytes(), w.now).unwrap();
    assert_eq!(
        first.split_whitespace().last(),
        second.split_whitespace().last()
    );
    let note = note.expect("the split is pointed out");
    assert!(note.contains(&fake) && note.contains(&real), "{note}");
    let locks: Vec<_> = given(&w, "blue-scout")
        .iter()
        .map(|g| g["lock"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(locks, vec![fake, real]);
}
