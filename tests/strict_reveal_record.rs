//! `despatch player reveal` against an edited or forged lock mail (issue 29, points 1 and 3;
//! ruling S8 in docs/strict-dice.md): it answers only lock mails the game signed with the key
//! `player trust` kept from the welcome; it keeps a record of every reveal it gave, gives only
//! the seat's next reveal whatever step a mail names — even a mail the host edited and signed
//! again with the game's own key — answers a resend alike, and turns a second lock for one step
//! into the player's evidence.

use crate::forgery::{host_mail_key, reseal, resign, unsigned};
use crate::strict_world;

use despatch::cli::player;
use despatch::daemon::Intake;
use despatch::dice::{self, MailKey};
use strict_world::*;

/// The lock mail's decoded body, for a forger's edits.
fn lock_body(w: &World, seat: &str, step: u64) -> String {
    body(&w.lock_mail(seat, step))
}

/// The genuine lock mail as a plain-text mail, signature intact.
fn lock_text(w: &World, seat: &str, step: u64) -> String {
    as_mail(&lock_body(w, seat, step))
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
    let mut w = world_by_reveal(true);
    w.bid_all([1, 2, 3]);
    let genuine = lock_body(&w, "blue-scout", 1);
    let heading = "step 1, seat blue-scout, reveal 1)";
    assert!(genuine.contains(heading), "{genuine}");
    let dir = w.player_dir("blue-scout").to_path_buf();
    // The attack, by the host (who holds the key and signs his edit): r_40 would give
    // r_1 … r_39 by hashing, the seat's reveals still to come.
    let later = genuine
        .replace(heading, "step 40, seat blue-scout, reveal 40)")
        .replace("L_1 = ", "L_40 = ");
    let skip = genuine.replace(heading, "step 1, seat blue-scout, reveal 2)");
    for forged in [later, skip] {
        let err = player::reveal(&dir, host_signed(&w, &forged).as_bytes())
            .expect_err("only the next reveal is given")
            .to_string();
        assert!(err.contains("your next reveal is number 1"), "{err}");
    }
    // The reveal number taken out, so the tool would fall back to the step: refused too.
    let stripped = genuine
        .replace(heading, "step 40, seat blue-scout)")
        .replace("L_1 = ", "L_40 = ");
    let err = player::reveal(&dir, host_signed(&w, &stripped).as_bytes())
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
    let mut w = world_by_reveal(true);
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
    // The game's own signature on the lock it asked about: the player's proof in a dispute.
    let sig = g[0]["signature"]
        .as_str()
        .expect("the lock mail's signature is kept");
    assert_eq!(sig.len(), 128, "{sig}");
    assert!(
        despatch::report::unfold(&lock_body(&w, "blue-scout", 1))
            .contains(&format!("Mail-Signature: ed25519:{sig}")),
        "{sig}"
    );
    // A resend after a lost reply: the same lock, the same line, recorded once.
    let dir = w.player_dir("blue-scout").to_path_buf();
    let again = player::reveal_at(&dir, &w.lock_mail("blue-scout", 1), w.now).unwrap();
    assert_eq!(again, (line, None));
    assert_eq!(given(&w, "blue-scout").len(), 1);

    w.reveal("red-1", 1);
    w.bid_all([3, 0, 1]);
    let genuine = lock_body(&w, "blue-scout", 2);
    let heading = "step 2, seat blue-scout, reveal 2)";
    assert!(genuine.contains(heading), "{genuine}");
    // An earlier reveal asked for a later step, and the next one asked for an earlier step
    // (edits the host signs again).
    let earlier = host_signed(
        &w,
        &genuine.replace(heading, "step 2, seat blue-scout, reveal 1)"),
    );
    let err = player::reveal(&dir, earlier.as_bytes())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("you gave reveal 1") && err.contains("for step 2"),
        "{err}"
    );
    let backwards = host_signed(
        &w,
        &genuine
            .replace(heading, "step 1, seat blue-scout, reveal 2)")
            .replace("L_2 = ", "L_1 = "),
    );
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
    let mut w = world_by_reveal(true);
    w.bid_all([1, 2, 3]);
    let genuine = lock_text(&w, "blue-scout", 1);
    let real = journal_lock(&w, 1);
    let fake = dice::to_hex(&[0xab; 32]);
    // The host shows this seat another lock, signed with the game's key.
    let forged = host_signed(&w, &lock_body(&w, "blue-scout", 1).replace(&real, &fake));
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
    assert_eq!(locks, vec![fake.clone(), real]);

    // The step goes on with the genuine lock; the seat's own folder, with the forged lock mail
    // kept beside the game's mails, shows the host's two locks for one step, both signed.
    let out = w.send("blue-scout", &second);
    assert!(matches!(out, Intake::Accepted { .. }), "{out:?}");
    w.reveal("red-1", 1);
    assert_eq!(w.game().book().step, 2, "step 1 resolved");
    let folder = tempfile::tempdir().unwrap();
    for (name, bytes) in w.raw("-blue-scout") {
        std::fs::write(folder.path().join(name), bytes).unwrap();
    }
    let registry = despatch::rulesets::registry().with::<crate::toy::Bids>();
    let (_, clean) = despatch::verify::verify_mails_with(folder.path(), Some(GAME), &registry);
    assert!(clean.is_empty(), "the seat's own mails alone: {clean:?}");
    std::fs::write(folder.path().join("zz-forged-lock"), forged.as_bytes()).unwrap();
    let (_, found) = despatch::verify::verify_mails_with(folder.path(), Some(GAME), &registry);
    let said = format!("{found:?}");
    assert!(
        said.contains("lock of step 1") && said.contains("equivocation"),
        "{said}"
    );
}

#[test]
fn a_lock_mail_the_game_did_not_sign_gets_nothing() {
    let mut w = world(true);
    w.bid_all([1, 2, 3]);
    let dir = w.player_dir("blue-scout").to_path_buf();
    let genuine = lock_body(&w, "blue-scout", 1);
    let real = journal_lock(&w, 1);
    let fake = dice::to_hex(&[0xab; 32]);
    let edited = genuine.replace(&real, &fake);
    // A stranger's or a fellow player's forgeries: the edit with its seal made again but the
    // game's signature kept; the signature stripped; signed with a key of their own.
    let stranger = MailKey([7; 32]);
    let forgeries = [
        ("edited", as_mail(&reseal(&edited))),
        ("unsigned", as_mail(&unsigned(&reseal(&edited)))),
        (
            "another key",
            as_mail(&resign(&reseal(&edited), GAME, &stranger)),
        ),
    ];
    for (what, forged) in &forgeries {
        let err = player::reveal(&dir, forged.as_bytes())
            .expect_err(what)
            .to_string();
        assert!(
            err.contains("not one game strict-1 signed") && err.contains("Nothing was revealed"),
            "{what}: {err}"
        );
    }
    // The control: the same edit signed with the game's key passes the signature check (the
    // record, not the signature, is what holds against the host: S8).
    let (line, _) = player::reveal_at(&dir, host_signed(&w, &edited).as_bytes(), w.now).unwrap();
    assert!(line.contains(&fake), "{line}");
    assert!(!record(&w, "red-1").exists());
    // A game id that would name a path out of the player's folder is refused before any file
    // is read.
    let escaping = lock_body(&w, "red-1", 1).replace(
        &format!("STRICT DICE LOCK (game {GAME},"),
        "STRICT DICE LOCK (game ../../etc/x,",
    );
    let err = player::reveal(w.player_dir("red-1"), as_mail(&escaping).as_bytes())
        .unwrap_err()
        .to_string();
    assert!(err.contains("is not a game id"), "{err}");
    // A lock section added after the seal is never what is answered: the sealed one is.
    let appended = format!(
        "{}\nSTRICT DICE LOCK (game {GAME}, step 40, seat red-1, reveal 40)\nL_40 = {fake}\n",
        lock_text(&w, "red-1", 1)
    );
    let (line, _) = player::reveal_at(w.player_dir("red-1"), appended.as_bytes(), w.now).unwrap();
    assert!(
        line.starts_with(&format!("REVEAL 1\n  {real}\n  ")),
        "{line}"
    );
}

#[test]
fn without_the_welcome_kept_nothing_is_revealed_and_a_second_welcome_cannot_change_the_key() {
    let mut w = world(true);
    w.bid_all([1, 2, 3]);
    let dir = w.player_dir("blue-scout").to_path_buf();
    let kept = dir.join(format!("{GAME}.trust.json"));
    let saved = std::fs::read(&kept).expect("world() ran player trust");
    std::fs::remove_file(&kept).unwrap();
    let err = player::reveal(&dir, &w.lock_mail("blue-scout", 1))
        .unwrap_err()
        .to_string();
    assert!(err.contains("despatch player trust"), "{err}");
    assert!(!record(&w, "blue-scout").exists(), "nothing given");
    std::fs::write(&kept, &saved).unwrap();

    // A welcome whose key was swapped and signed with the swapped key: consistent in itself,
    // but not the welcome kept: refused, and the kept key stands.
    let welcome = body(&w.raw("-welcome-blue-scout")[0].1);
    let k = host_mail_key(&w.store().dir).public();
    let other = MailKey([9; 32]);
    let swapped = welcome.replace(&dice::to_hex(&k), &dice::to_hex(&other.public()));
    let swapped = as_mail(&resign(&reseal(&swapped), GAME, &other));
    let err = player::trust(&dir, swapped.as_bytes(), w.now)
        .unwrap_err()
        .to_string();
    assert!(err.contains("already keeps another anchor line"), "{err}");
    assert_eq!(std::fs::read(&kept).unwrap(), saved);
    // Its key swapped but not signed with it: not a welcome of any key.
    let unsigned_swap = welcome.replace(&dice::to_hex(&k), &dice::to_hex(&other.public()));
    let err = player::trust(&dir, as_mail(&reseal(&unsigned_swap)).as_bytes(), w.now)
        .unwrap_err()
        .to_string();
    assert!(err.contains("does not verify"), "{err}");
    // The same welcome again is fine (a player who runs trust twice).
    let again = player::trust(&dir, &w.raw("-welcome-blue-scout")[0].1, w.now).unwrap();
    assert!(again.contains(&dice::to_hex(&k)), "{again}");
    let (_, out) = w.reveal("blue-scout", 1);
    assert!(matches!(out, Intake::Accepted { .. }), "{out:?}");
}

#[test]
fn a_game_older_than_signed_mails_is_answered_with_a_note() {
    let mut w = world(true);
    w.bid_all([1, 2, 3]);
    // A welcome as games made before mails were signed sent it: no key on the anchor line,
    // no signature.
    let dir = w.player_dir("red-1").to_path_buf();
    std::fs::remove_file(dir.join(format!("{GAME}.trust.json"))).unwrap();
    let welcome = despatch::report::unfold(&body(&w.raw("-welcome-red-1")[0].1));
    let k = dice::to_hex(&host_mail_key(&w.store().dir).public());
    let old = unsigned(&reseal(
        &welcome.replace(&format!(", mail key K = {k}"), ""),
    ));
    assert!(!old.contains("mail key K"));
    let said = player::trust(&dir, as_mail(&old).as_bytes(), w.now).unwrap();
    assert!(said.contains("does not sign its mails"), "{said}");
    let (line, note) = player::reveal_at(&dir, &w.lock_mail("red-1", 1), w.now).unwrap();
    assert!(line.starts_with("REVEAL 1\n  "), "{line}");
    let note = note.expect("the player is told the origin was not checked");
    assert!(note.contains("origin could not be checked"), "{note}");
    // Its seal still has to check: an edited body is refused even unsigned.
    let edited = lock_body(&w, "red-1", 1).replace("locked", "LOCKED");
    let err = player::reveal(&dir, as_mail(&edited).as_bytes())
        .unwrap_err()
        .to_string();
    assert!(err.contains("seal does not check"), "{err}");
}
