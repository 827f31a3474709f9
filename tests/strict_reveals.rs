//! Strict dice when a reveal goes wrong (rulings S3–S5, docs/strict-dice.md): a reveal quoting
//! another `L_k` is recorded and reported as a split lock; a reveal that does not hash back to
//! the seat's anchor is refused; verify fails on a tampered reveal. A missing reveal (ruling
//! S2) is in strict_levers.rs.

use crate::strict_world;
use crate::toy;

use despatch::daemon::Intake;
use despatch::dice;
use despatch::engine::Event;
use despatch::verify;
use strict_world::*;

fn registry() -> despatch::engine::Registry {
    despatch::rulesets::registry().with::<toy::Bids>()
}

#[test]
fn a_reveal_quoting_another_lock_is_recorded_and_reported_as_a_split_lock() {
    let mut w = world_by_reveal(true);
    w.bid_all([1, 1, 1]);
    let real = w.game().book().locked.as_ref().unwrap().lock;
    // The mail blue-scout was shown carries another L_1 (a host showing seats different locks,
    // sealed and signed again with the game's own key: a mail the player's tool answers).
    let shown = dice::to_hex(&[0xab; 32]);
    let edited = body(&w.lock_mail("blue-scout", 1)).replace(&dice::to_hex(&real), &shown);
    let key = crate::forgery::host_mail_key(&w.store().dir);
    let forged = format!(
        "Subject: step 1 is locked\r\n\r\n{}",
        crate::forgery::resign(&crate::forgery::reseal(&edited), GAME, &key)
    );
    let line =
        despatch::cli::player::reveal(w.player_dir("blue-scout"), forged.as_bytes()).unwrap();
    assert!(
        line.contains(&shown),
        "the reply quotes the L_1 it was shown"
    );
    let out = w.send("blue-scout", &line);
    assert!(matches!(out, Intake::Accepted { .. }), "{out:?}");

    let journal = w.journal();
    let splits = of_kind(&journal, "split_lock");
    assert_eq!(splits.len(), 1);
    let Event::SplitLock {
        seat, quoted, lock, ..
    } = splits[0]
    else {
        unreachable!()
    };
    assert_eq!(
        (seat.as_str(), quoted.as_str(), lock.as_str()),
        ("blue-scout", shown.as_str(), dice::to_hex(&real).as_str())
    );
    // Every seat and the organiser are told; the split r is not used, the seat is still awaited.
    for (s, _, _) in SEATS {
        let mail = despatch::report::unfold(&w.text(&format!("-split-{s}")));
        assert!(mail.contains(&format!("L_1 = {shown}")), "{mail}");
    }
    let gm = w.raw("split-lock-1-blue-scout");
    assert_eq!(gm.len(), 1, "one report to the organiser");
    assert!(body(&gm[0].1).contains(&shown));
    assert!(
        w.game()
            .book()
            .awaited_reveals()
            .contains(&"blue-scout".to_string())
    );
    // The honest reveal still counts, and the game verifies with the split on record.
    w.reveal("blue-scout", 1);
    w.reveal("red-1", 1);
    assert_eq!(w.game().book().step, 2);
    let (_, findings) = verify::verify_store(&w.store(), &registry());
    assert!(findings.is_empty(), "{findings:?}");
}

#[test]
fn a_reveal_that_does_not_hash_to_the_anchor_is_refused_and_journals_nothing() {
    let mut w = world_by_reveal(true);
    w.bid_all([2, 0, 1]);
    let lock = w.game().book().locked.as_ref().unwrap().lock;
    let before = w.journal().len();
    let out = w.send(
        "red-1",
        &format!(
            "REVEAL 1 {} {}",
            dice::to_hex(&lock),
            dice::to_hex(&[7; 32])
        ),
    );
    assert!(matches!(out, Intake::Rejected { .. }), "{out:?}");
    assert_eq!(w.journal().len(), before, "nothing journaled");
    let answer = w
        .raw("")
        .into_iter()
        .map(|(_, b)| body(&b))
        .find(|t| t.contains("does not hash back to red-1's anchor"));
    assert!(answer.is_some(), "the seat is told why");
    // A seat that is not strict has nothing to reveal.
    let out = w.send(
        "red-2",
        &format!(
            "REVEAL 1 {} {}",
            dice::to_hex(&lock),
            dice::to_hex(&[7; 32])
        ),
    );
    assert!(matches!(out, Intake::Rejected { .. }), "{out:?}");
}

#[test]
fn verify_fails_naming_the_step_when_a_journaled_reveal_is_tampered_with() {
    let mut w = world_by_reveal(true);
    w.bid_all([1, 2, 3]);
    w.reveal("red-1", 1);
    w.reveal("blue-scout", 1);
    w.bid_all([3, 3, 3]);
    w.reveal("red-1", 2);
    w.reveal("blue-scout", 2);
    let (_, findings) = verify::verify_store(&w.store(), &registry());
    assert!(findings.is_empty(), "{findings:?}");

    // Change one hex digit of blue-scout's step-2 reveal in the journal.
    let path = w.store().dir.join("journal.jsonl");
    let text = std::fs::read_to_string(&path).unwrap();
    let line = text
        .lines()
        .find(|l| {
            l.contains("\"type\":\"reveal\"")
                && l.contains("\"step\":2")
                && l.contains("blue-scout")
        })
        .unwrap()
        .to_string();
    let event: serde_json::Value = serde_json::from_str(&line).unwrap();
    let r = event["reveal"].as_str().unwrap();
    let flipped = format!("{}{}", if r.starts_with('0') { "1" } else { "0" }, &r[1..]);
    std::fs::write(&path, text.replace(&line, &line.replace(r, &flipped))).unwrap();

    let (_, findings) = verify::verify_store(&w.store(), &registry());
    let f = findings
        .iter()
        .find(|f| f.field == "reveal")
        .unwrap_or_else(|| panic!("no finding on the reveal: {findings:?}"));
    assert!(f.place.contains("(reveal)"), "{f}");
    assert!(
        f.detail.contains("r_blue-scout_2"),
        "names the seat and step: {f}"
    );
}
