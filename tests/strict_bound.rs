//! Strict reveals bound to their lock (issue 29 point 3; ruling S11 in docs/strict-dice.md): a
//! host who plays and shows a strict seat a lock early gets a reveal useless for any other lock,
//! and the seat's tool then answers no other lock for that reveal number, so he can neither learn
//! the seed of the real lock nor choose between two. After the end each seat opens its onion and
//! every reveal is checked against its anchor and lock: a value the seat never gave is caught,
//! by the seat's own tool (which then opens nothing) and by the verifiers.

use crate::strict_world;
use crate::toy;

use despatch::cli::player;
use despatch::daemon::Intake;
use despatch::dice::{self, HostOnion, Protocol};
use despatch::verify;
use strict_world::*;

fn registry() -> despatch::engine::Registry {
    despatch::rulesets::registry().with::<toy::Bids>()
}

fn reveal_value(line: &str) -> String {
    line.split_whitespace().last().unwrap().to_string()
}

/// A copy of a player's folder, as it stood: what the seat's tool would have answered had the
/// host not shown it anything first.
fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, to.join(p.file_name().unwrap())).unwrap();
    }
}

/// The host's early lock against one seat, in a game made with `world`: the reveal the tool
/// gives for the early lock and the one it would give for the real lock (from an untouched copy
/// of the folder), and what the tool then says to the real lock.
fn early_lock(mut w: World) -> (String, String, Result<String, String>, World) {
    w.bid_all([1, 2, 3]);
    let real = journal_lock(&w, 1);
    let early = dice::to_hex(&[0xab; 32]);
    let genuine = w.lock_mail("blue-scout", 1);
    let forged = host_signed(
        &w,
        &body(&w.lock_mail("blue-scout", 1)).replace(&real, &early),
    );
    let dir = w.player_dir("blue-scout").to_path_buf();
    let untouched = w.tmp.path().join("untouched");
    copy_dir(&dir, &untouched);
    let for_early = player::reveal(&dir, forged.as_bytes()).unwrap();
    let for_real = player::reveal(&untouched, &genuine).unwrap();
    let then = player::reveal(&dir, &genuine).map_err(|e| e.to_string());
    (reveal_value(&for_early), reveal_value(&for_real), then, w)
}

#[test]
fn an_early_lock_gets_a_reveal_useless_for_the_real_lock_and_the_real_lock_then_gets_nothing() {
    let (early, real, then, w) = early_lock(world(true));
    // What the host learnt is not the seat's reveal for the real lock: without e_1, which stays
    // on the player's machine, he cannot compute the seed the real lock will have.
    assert_ne!(early, real);
    let err = then.expect_err("one lock per reveal number");
    assert!(
        err.contains("refused, nothing revealed") && err.contains("evidence"),
        "{err}"
    );
    // The record keeps the answered lock and the refused one, each with the game's signature.
    let rec: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(
            w.player_dir("blue-scout")
                .join(format!("{GAME}.blue-scout.reveals.json")),
        )
        .unwrap(),
    )
    .unwrap();
    assert_eq!(rec["by"], "bound");
    assert_eq!(rec["reveals"].as_array().unwrap().len(), 1);
    assert_eq!(rec["refused"][0]["lock"], journal_lock(&w, 1).as_str());
    assert!(rec["refused"][0]["signature"].is_string());
    // The step cannot resolve with the early reveal: the daemon takes it as a split lock (S3).
    let mut w = w;
    let out = w.send(
        "blue-scout",
        &format!("REVEAL 1 {} {early}", dice::to_hex(&[0xab; 32])),
    );
    assert!(matches!(out, Intake::Accepted { .. }), "{out:?}");
    assert_eq!(of_kind(&w.journal(), "split_lock").len(), 1);
    assert!(w.game().book().locked.is_some(), "step 1 still waits (S2)");

    // The control: in a game made before S11 the same early lock gave the very reveal the real
    // lock takes — the lever this ruling removes.
    let (early, real, then, _) = early_lock(world_by_reveal(true));
    assert_eq!(
        early, real,
        "unbound, the early lock told the host the real reveal"
    );
    assert!(then.is_ok(), "and the real lock was answered too");
}

#[test]
fn a_bound_lock_mail_stripped_of_its_mark_gets_nothing() {
    let mut w = world(true);
    w.bid_all([1, 2, 3]);
    let genuine = body(&w.lock_mail("red-1", 1));
    assert!(genuine.contains("reveal 1, bound)"), "{genuine}");
    // The host asks without `bound`: an answer would be e_1 itself, good for any lock.
    let stripped = host_signed(&w, &genuine.replace("reveal 1, bound)", "reveal 1)"));
    let err = player::reveal(w.player_dir("red-1"), stripped.as_bytes())
        .expect_err("a bound onion never answers unbound")
        .to_string();
    assert!(err.contains("does not say `bound`"), "{err}");
    // The genuine one is answered, with a value that is not the onion element.
    let line = player::reveal(w.player_dir("red-1"), &w.lock_mail("red-1", 1)).unwrap();
    let e1 = seat_onion(&w, "red-1").reveal(1).unwrap();
    let lock = dice::from_hex(&journal_lock(&w, 1)).unwrap();
    assert_ne!(reveal_value(&line), dice::to_hex(&e1));
    assert_eq!(
        reveal_value(&line),
        dice::to_hex(&dice::bound_reveal(
            Protocol::V2,
            GAME,
            "red-1",
            1,
            &e1,
            &lock
        ))
    );
}

/// The seat's onion, from the secret in its player's folder (what a modified tool would use).
fn seat_onion(w: &World, seat: &str) -> HostOnion {
    let secret: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(
            w.player_dir(seat)
                .join(format!("{GAME}.{seat}.strict.json")),
        )
        .unwrap(),
    )
    .unwrap();
    let c0 = dice::from_hex(secret["secret"].as_str().unwrap()).unwrap();
    HostOnion::for_party(Protocol::V2, GAME, seat, c0, 50)
}

/// Three rounds with both strict seats revealing; the game is then over.
fn play_three(w: &mut World) {
    for (k, bids) in (1..).zip([[1, 2, 3], [3, 0, 1], [2, 2, 0]]) {
        w.bid_all(bids);
        for seat in STRICT {
            let (_, out) = w.reveal(seat, k);
            assert!(matches!(out, Intake::Accepted { .. }), "{seat}: {out:?}");
        }
    }
    assert!(w.game().is_over());
}

#[test]
fn each_seat_opens_its_onion_after_the_end_and_every_reveal_checks() {
    let mut w = world(true);
    // Before the end, an opening is refused: e_j would let the host compute any lock's reveal.
    w.bid_all([1, 2, 3]);
    w.reveal("red-1", 1);
    // (its true e_1, through the one reveal the journal took: refused only for the time).
    let e1 = seat_onion(&w, "red-1").reveal(1).unwrap();
    let n = w.journal().len();
    let out = w.send("red-1", &format!("OPEN 1 {}", dice::to_hex(&e1)));
    assert!(matches!(out, Intake::Rejected { .. }), "{out:?}");
    assert_eq!(w.journal().len(), n);
    w.reveal("blue-scout", 1);
    for (k, bids) in (2..).zip([[3, 0, 1], [2, 2, 0]]) {
        w.bid_all(bids);
        for seat in STRICT {
            w.reveal(seat, k);
        }
    }
    assert!(w.game().is_over());
    let request = body(&w.open_request("red-1"));
    assert!(request.contains("STRICT DICE OPEN (game strict-1, seat red-1, reveals 3)"));
    // An element that is not the seat's, or not through the last reveal: refused.
    let n = w.journal().len();
    let out = w.send("red-1", &format!("OPEN 3 {}", dice::to_hex(&[7; 32])));
    assert!(matches!(out, Intake::Rejected { .. }), "{out:?}");
    let (line, _) = {
        let line = player::reveal(w.player_dir("red-1"), &w.open_request("red-1")).unwrap();
        (line, ())
    };
    let e3 = reveal_value(&line);
    let out = w.send("red-1", &format!("OPEN 2 {e3}"));
    assert!(matches!(out, Intake::Rejected { .. }), "{out:?}");
    assert_eq!(
        w.journal().len(),
        n,
        "nothing journaled for a refused opening"
    );
    for seat in STRICT {
        let (_, out) = w.open(seat);
        assert!(matches!(out, Intake::Accepted { .. }), "{seat}: {out:?}");
    }
    assert_eq!(of_kind(&w.journal(), "strict_opened").len(), 2);
    let told = w.raw("-opened-");
    assert_eq!(told.len(), 2 * SEATS.len(), "each opening to every seat");
    let text = body(&told[0].1);
    assert!(text.contains("strict open "), "{text}");
    assert!(text.contains("reveals check"), "{text}");
    let (checked, findings) = verify::verify_store(&w.store(), &registry());
    assert!(findings.is_empty(), "{findings:?}");
    assert_eq!(checked.bound_reveals, 6);
    // One seat's own folder checks every reveal of both strict seats from the mails alone.
    let folder = tempfile::tempdir().unwrap();
    for (name, bytes) in w.raw("-red-2") {
        std::fs::write(folder.path().join(name), bytes).unwrap();
    }
    let (checked, findings) = verify::verify_mails_with(folder.path(), Some(GAME), &registry());
    assert!(findings.is_empty(), "{findings:?}");
    assert_eq!(checked.bound_reveals, 6, "{checked:?}");
    assert!(checked.unopened.is_empty());
    // After the opening, no lock mail of the game is answered.
    let err = player::reveal(w.player_dir("red-1"), &w.lock_mail("red-1", 3))
        .expect_err("opened: the game said it was over")
        .to_string();
    assert!(err.contains("you opened your onion"), "{err}");
}

#[test]
fn a_reveal_the_seat_never_gave_is_caught_by_its_tool_and_by_the_verifiers() {
    let mut w = world(true);
    // red-1 reveals at step 1 a value its onion did not give (a modified tool — or, seen from the
    // seats' mails, a host who put his own value in the journal): the daemon cannot tell yet.
    w.bid_all([1, 2, 3]);
    let lock = journal_lock(&w, 1);
    let out = w.send(
        "red-1",
        &format!("REVEAL 1 {lock} {}", dice::to_hex(&[5; 32])),
    );
    assert!(matches!(out, Intake::Accepted { .. }), "{out:?}");
    w.reveal("blue-scout", 1);
    let onion = seat_onion(&w, "red-1");
    for (k, bids) in (2..).zip([[3, 0, 1], [2, 2, 0]]) {
        w.bid_all(bids);
        // red-1's modified tool goes on with its own bound reveals 2 and 3.
        let lock = journal_lock(&w, k);
        let l = dice::from_hex(&lock).unwrap();
        let r = dice::bound_reveal(
            Protocol::V2,
            GAME,
            "red-1",
            k,
            &onion.reveal(k).unwrap(),
            &l,
        );
        let out = w.send("red-1", &format!("REVEAL {k} {lock} {}", dice::to_hex(&r)));
        assert!(matches!(out, Intake::Accepted { .. }), "{out:?}");
        w.reveal("blue-scout", k);
    }
    assert!(w.game().is_over());
    // The honest tool compares the game's record with its own and opens nothing.
    let err = player::reveal(w.player_dir("red-1"), &w.open_request("red-1"))
        .expect_err("the game used a reveal red-1's tool never gave")
        .to_string();
    assert!(err.contains("not a reveal you gave"), "{err}");
    // Opened anyway (the element straight from the secret): journaled, and every verifier names
    // step 1 and red-1; blue-scout's honest opening checks.
    let e3 = onion.reveal(3).unwrap();
    let out = w.send("red-1", &format!("OPEN 3 {}", dice::to_hex(&e3)));
    assert!(matches!(out, Intake::Accepted { .. }), "{out:?}");
    w.open("blue-scout");
    let told = body(&w.raw("-opened-red-2")[0].1);
    assert!(told.contains("DOES NOT CHECK: reveal 1 (step 1)"), "{told}");
    let (_, findings) = verify::verify_store(&w.store(), &registry());
    let said = format!("{findings:?}");
    assert!(
        findings.len() == 1 && said.contains("step 1") && said.contains("strict r red-1"),
        "{said}"
    );
    let folder = tempfile::tempdir().unwrap();
    for (name, bytes) in w.raw("-red-2") {
        std::fs::write(folder.path().join(name), bytes).unwrap();
    }
    let (_, findings) = verify::verify_mails_with(folder.path(), Some(GAME), &registry());
    let said = format!("{findings:?}");
    assert!(
        said.contains("step 1") && said.contains("strict r red-1") && !said.contains("blue-scout"),
        "{said}"
    );
}

#[test]
fn without_the_openings_the_verifiers_say_the_reveals_are_unchecked() {
    let mut w = world(true);
    play_three(&mut w);
    let (checked, findings) = verify::verify_store(&w.store(), &registry());
    assert!(findings.is_empty(), "{findings:?}");
    assert_eq!(checked.bound_reveals, 0);
    assert_eq!(checked.unopened, vec!["red-1", "blue-scout"]);
    w.open("red-1");
    let (checked, _) = verify::verify_store(&w.store(), &registry());
    assert_eq!(checked.bound_reveals, 3);
    assert_eq!(checked.unopened, vec!["blue-scout"]);
}

#[test]
fn replay_takes_an_opening_only_after_the_end_once_and_through_every_reveal() {
    let mut w = world(true);
    play_three(&mut w);
    w.open("red-1");
    let lines = w.store().read_journal().unwrap().lines;
    let reg = registry();
    assert!(reg.replay(&lines).is_ok(), "the journal as written");
    let opened = lines.len() - 1;
    assert!(
        lines[opened].contains("\"strict_opened\""),
        "{}",
        lines[opened]
    );
    let ended = lines
        .iter()
        .position(|l| l.contains("\"game_ended\""))
        .unwrap();
    let refused = |edited: Vec<String>, field: &str| {
        let e = reg.replay(&edited).err().expect("refused");
        assert_eq!(e.kind, "strict_opened", "{e:?}");
        assert_eq!(e.field, field, "{e:?}");
        assert!(!e.detail.is_empty());
    };
    // Before the end: the opening moved above game_ended.
    let mut early = lines.clone();
    let line = early.remove(opened);
    early.insert(ended, line);
    refused(early, "element");
    // Twice for one seat.
    let mut twice = lines.clone();
    twice.push(lines[opened].replace("<strict-1-", "<again-strict-1-"));
    refused(twice, "element");
    // Through another reveal than the three the journal took: 2 and 4.
    for j in ["2", "4"] {
        let mut other = lines.clone();
        other[opened] = other[opened].replace("\"reveal\":3", &format!("\"reveal\":{j}"));
        assert_ne!(other[opened], lines[opened]);
        refused(other, "element");
    }
    // An element that is not the seat's e_3: e_2 (one step down its onion) does not walk to the
    // anchor in three steps.
    let v: serde_json::Value = serde_json::from_str(&lines[opened]).unwrap();
    let e3 = dice::from_hex(v["element"].as_str().unwrap()).unwrap();
    let e2 = dice::onion_step(Protocol::V2, GAME, "red-1", &e3);
    let mut wrong = lines.clone();
    wrong[opened] = wrong[opened].replace(&dice::to_hex(&e3), &dice::to_hex(&e2));
    refused(wrong, "element");
}

#[test]
fn a_watcher_gets_each_opening_and_the_archive_keeps_it() {
    use crate::strict_abandon::{WATCHER, mails_to, watched};
    let mut w = world(true);
    watched(&mut w);
    play_three(&mut w);
    let archived = |w: &World| {
        let dir = w.daemon.archive_dir(GAME);
        let mut text = String::new();
        for e in walk(&dir) {
            text.push_str(&String::from_utf8_lossy(&std::fs::read(e).unwrap()));
        }
        text
    };
    assert!(!archived(&w).is_empty(), "written at the end");
    assert!(!archived(&w).contains("strict_opened"));
    w.open("red-1");
    let seen: Vec<String> = mails_to(&w, WATCHER)
        .iter()
        .map(|(_, b)| body(b))
        .filter(|t| t.contains("STRICT DICE OPENED"))
        .collect();
    assert_eq!(seen.len(), 1, "the watcher is told of the opening");
    assert!(
        seen[0].contains("strict open red-1 reveal 3 step 3 = "),
        "{}",
        seen[0]
    );
    assert!(
        !seen[0].contains("tokred"),
        "no seat's secret in a watcher's mail"
    );
    assert!(
        archived(&w).contains("strict_opened"),
        "the archive's journal has it"
    );
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                out.extend(walk(&p));
            } else {
                out.push(p);
            }
        }
    }
    out
}

/// `seat`'s received mails copied to a fresh folder, as the player keeps them.
fn folder_of(w: &World, seat: &str) -> tempfile::TempDir {
    let to = SEATS.iter().find(|s| s.0 == seat).unwrap().1;
    let folder = tempfile::tempdir().unwrap();
    for (name, bytes) in crate::strict_abandon::mails_to(w, to) {
        std::fs::write(folder.path().join(name), bytes).unwrap();
    }
    folder
}

#[test]
fn a_seat_sees_mid_game_that_the_seed_took_a_reveal_it_never_gave() {
    // The control: an honest game, two steps in; red-1's results mails show its two reveals as
    // its tool gave them, from the command line as the player runs it.
    let mut w = world(true);
    for (k, bids) in (1..).zip([[1, 2, 3], [3, 0, 1]]) {
        w.bid_all(bids);
        for seat in STRICT {
            w.reveal(seat, k);
        }
    }
    assert!(!w.game().is_over());
    let folder = folder_of(&w, "red-1");
    let r = player::check(w.player_dir("red-1"), &[folder.path().to_path_buf()]).unwrap();
    assert!(r.problems.is_empty(), "{:?}", r.problems);
    assert_eq!((r.mails, r.matched), (2, 2));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_despatch"))
        .args(["player", "check", "--dir"])
        .arg(w.player_dir("red-1"))
        .arg(folder.path())
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && said.starts_with("OK: 2 results mail(s)"),
        "{said}"
    );

    // The attack: red-1's tool gives its reveal for step 1, but the seed takes another value
    // (here sent in its place; a host could write it into the journal himself).
    let mut w = world(true);
    w.bid_all([1, 2, 3]);
    let line = player::reveal(w.player_dir("red-1"), &w.lock_mail("red-1", 1)).unwrap();
    let (head, _) = line.rsplit_once(' ').unwrap();
    let out = w.send("red-1", &format!("{head} {}", dice::to_hex(&[6; 32])));
    assert!(matches!(out, Intake::Accepted { .. }), "{out:?}");
    w.reveal("blue-scout", 1);
    assert_eq!(
        w.game().book().step,
        2,
        "step 1 resolved with the other value"
    );
    let folder = folder_of(&w, "red-1");
    let r = player::check(w.player_dir("red-1"), &[folder.path().to_path_buf()]).unwrap();
    assert_eq!(r.problems.len(), 1, "{:?}", r.problems);
    assert!(
        r.problems[0].contains("step 1") && r.problems[0].contains("never sent"),
        "{:?}",
        r.problems
    );
    // blue-scout's record and mails agree: only the seat whose reveal was replaced sees it.
    let folder = folder_of(&w, "blue-scout");
    let r = player::check(w.player_dir("blue-scout"), &[folder.path().to_path_buf()]).unwrap();
    assert!(r.problems.is_empty(), "{:?}", r.problems);
    assert_eq!(r.matched, 1);
}

#[test]
fn a_lock_mail_naming_a_seat_out_of_the_folder_is_refused() {
    // The host signs what he likes: a seat name is a file name in the player's folder, so a
    // path in it is refused before anything is read or written there.
    let mut w = world(true);
    w.bid_all([1, 2, 3]);
    let genuine = body(&w.lock_mail("red-1", 1));
    let edited = genuine.replace("seat red-1, reveal 1", "seat ../../red-1, reveal 1");
    assert_ne!(edited, genuine);
    let err = player::reveal(w.player_dir("red-1"), host_signed(&w, &edited).as_bytes())
        .expect_err("not a seat")
        .to_string();
    assert!(err.contains("is not a game id and seat"), "{err}");
    // The genuine one still works.
    assert!(player::reveal(w.player_dir("red-1"), &w.lock_mail("red-1", 1)).is_ok());
}
