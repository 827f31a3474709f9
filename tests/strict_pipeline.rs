//! Strict dice end to end (issue 17 point 1): a toy game with two strict seats played through
//! raw mails, `despatch player init` / `player reveal` (the library behind them), every dice step
//! waiting for both reveals, seeds with m = 2, `despatch verify` on the store and the mails, and
//! the count of emails a strict dice step costs, measured against the same game in default mode.

use crate::strict_world;
use crate::toy;

use despatch::daemon::Intake;
use despatch::dice;
use despatch::engine::{Event, strict};
use despatch::verify;
use strict_world::*;

const BIDS: [[u32; 3]; 3] = [[1, 2, 3], [3, 0, 1], [2, 2, 0]];

/// Plays the three rounds; in strict mode both strict seats reveal after each lock, and open
/// their onions when the game-over asks (bound reveals, ruling S11).
fn play_out(w: &mut World, strict: bool) {
    for (k, bids) in (1..).zip(BIDS) {
        w.bid_all(bids);
        if strict {
            for seat in STRICT {
                let (_, out) = w.reveal(seat, k);
                assert!(matches!(out, Intake::Accepted { .. }), "{seat}: {out:?}");
            }
        }
    }
    if strict {
        for seat in STRICT {
            let (_, out) = w.open(seat);
            assert!(matches!(out, Intake::Accepted { .. }), "{seat}: {out:?}");
        }
    }
}

#[test]
fn anchors_are_journaled_at_creation_and_copied_to_every_seat() {
    let w = world(true);
    let journal = w.journal();
    let Event::StrictMode {
        seats,
        reveal_hours,
        ..
    } = &journal[1]
    else {
        panic!(
            "the second journal line is the strict mode: {:?}",
            journal[1]
        );
    };
    assert_eq!(*reveal_hours, REVEAL_HOURS);
    assert_eq!(
        seats.iter().map(|a| a.seat.as_str()).collect::<Vec<_>>(),
        STRICT.to_vec()
    );
    for (seat, _, _) in SEATS {
        // Folded to 72 columns in the mail; one line once unfolded (dice-protocol.md).
        let mail = despatch::report::unfold(&w.text(&format!("000001-strict-{seat}")));
        for a in seats {
            assert!(
                mail.contains(&format!("Strict anchor {} = {}", a.seat, a.anchor)),
                "{seat}'s copy lacks {}'s anchor:\n{mail}",
                a.seat
            );
        }
    }
    // The secret stays in the player's folder: the folder's file holds it, no mail does.
    let file = std::fs::read_dir(w.player_dir("red-1"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let secret: serde_json::Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    let c0 = secret["secret"].as_str().unwrap();
    assert_eq!(c0.len(), 64);
    for (name, raw) in w.raw("") {
        assert!(!body(&raw).contains(c0), "{name} carries the secret");
    }
}

#[test]
fn each_dice_step_waits_for_every_strict_reveal_then_rolls_with_them() {
    let mut w = world(true);
    w.bid_all([1, 2, 3]);
    let g = w.game();
    let book = g.book();
    assert!(book.locked.is_some(), "every seat bid: the step is locked");
    assert_eq!(book.awaited_reveals(), STRICT.to_vec());
    assert!(
        w.raw("-results-").is_empty(),
        "no results before the reveals"
    );
    // Only the strict seats are asked, each shown L_1.
    let lock = dice::to_hex(&book.locked.as_ref().unwrap().lock);
    for seat in STRICT {
        let mail = body(&w.lock_mail(seat, 1));
        assert!(mail.contains(&format!("L_1 = {lock}")), "{mail}");
        assert!(mail.contains("despatch player reveal"), "{mail}");
    }
    assert!(w.raw("-lock-red-2").is_empty(), "red-2 is not strict");

    let (line, out) = w.reveal("red-1", 1);
    assert!(matches!(out, Intake::Accepted { step: 1, .. }), "{out:?}");
    assert!(
        line.starts_with(&format!("REVEAL 1\n  {lock}\n  ")),
        "{line}"
    );
    assert_eq!(w.game().book().awaited_reveals(), vec!["blue-scout"]);
    assert!(w.raw("-results-").is_empty(), "one reveal is not enough");
    // A second reveal of the same seat is refused and changes nothing.
    let again = w.send("red-1", &line);
    assert!(matches!(again, Intake::Rejected { .. }), "{again:?}");

    w.reveal("blue-scout", 1);
    let g = w.game();
    assert_eq!(g.book().step, 2, "both reveals in: step 1 resolved");
    // S_1 is exactly the protocol's: H(DS(seed), L_1, v_1, m = 2, each strict seat's r).
    let journal = w.journal();
    let reveals: Vec<(String, Option<dice::Hash>)> = of_kind(&journal, "reveal")
        .iter()
        .map(|e| match e {
            Event::Reveal { seat, reveal, .. } => (seat.clone(), dice::from_hex(reveal)),
            _ => unreachable!(),
        })
        .collect();
    assert_eq!(reveals.len(), 2);
    let Some(Event::Results { reveal, seed, .. }) = of_kind(&journal, "results").first().copied()
    else {
        panic!("no results");
    };
    let v1 = dice::from_hex(reveal).unwrap();
    let l1 = dice::from_hex(&lock).unwrap();
    assert_eq!(
        seed,
        &dice::to_hex(&dice::seed_strict(dice::Protocol::V2, &l1, &v1, &reveals))
    );
    assert_ne!(
        seed,
        &dice::to_hex(&dice::seed(dice::Protocol::V2, &l1, &v1, &[])),
        "the strict r's change the seed"
    );
    // The results mail prints every strict r, so a player re-derives S_1 from it.
    let results = despatch::report::unfold(&w.text("-results-red-2"));
    for (seat, r) in &reveals {
        assert!(
            results.contains(&format!("strict r {seat} = {}", dice::to_hex(&r.unwrap()))),
            "{results}"
        );
    }
}

#[test]
fn a_strict_game_plays_to_the_end_and_verifies_from_store_and_mails() {
    let mut w = world(true);
    play_out(&mut w, true);
    let g = w.game();
    assert!(g.is_over(), "three rounds played");
    assert_eq!(
        of_kind(&w.journal(), "reveal").len(),
        6,
        "two per dice step"
    );

    let registry = despatch::rulesets::registry().with::<toy::Bids>();
    let (checked, findings) = verify::verify_store(&w.store(), &registry);
    assert!(findings.is_empty(), "{findings:?}");
    assert_eq!(checked.steps, 3);
    assert_eq!(
        checked.bound_reveals, 6,
        "every bound reveal checked by the openings"
    );
    assert!(checked.unopened.is_empty(), "{:?}", checked.unopened);
    let (checked, findings) = verify::verify_mails_with(w.outbox(), Some(GAME), &registry);
    assert!(findings.is_empty(), "{findings:?}");
    assert_eq!(checked.steps, 3, "three results mails' seeds re-derived");
    assert!(checked.replayed_mails > 0, "the game-over journal replayed");
    // The outbox holds every seat's mail: each results mail's r checked once per step seen.
    assert!(checked.bound_reveals >= 6, "{}", checked.bound_reveals);
}

#[test]
fn emails_per_strict_dice_step_are_one_extra_per_strict_seat_each_way() {
    let mut plain = world(false);
    play_out(&mut plain, false);
    let mut strict = world(true);
    play_out(&mut strict, true);
    let steps = BIDS.len();
    let m = STRICT.len();
    // Sent by the players: their orders, plus (strict) one reveal per strict seat and step.
    let extra_in = strict.sent as usize - plain.sent as usize;
    // Sent by Despatch, less the strict anchors mail (one per seat, once per game), and the
    // game's end: one open request per strict seat, one opening notice per seat and opening.
    let anchors_mails = strict.raw("-strict-").len();
    let open_requests = strict.raw("-open-").len();
    let opened = strict.raw("-opened-").len();
    assert_eq!(open_requests, m, "one open request per strict seat");
    assert_eq!(opened, m * SEATS.len(), "each opening told to every seat");
    let per_game_in = m; // the openings
    let extra_in = extra_in - per_game_in;
    let extra_out = strict.delivered() - plain.delivered() - anchors_mails - open_requests - opened;
    println!(
        "strict dice: {m} strict seats, {steps} dice steps; per step {} mail(s) in (reveals) and {} \
         mail(s) out (lock mails) beyond default mode; once per game {anchors_mails} anchors mail(s), \
         {open_requests} open request(s), {per_game_in} opening(s) in and {opened} opening notice(s)",
        extra_in / steps,
        extra_out / steps
    );
    assert_eq!(
        extra_in,
        m * steps,
        "one reveal per strict seat per dice step"
    );
    assert_eq!(
        extra_out,
        m * steps,
        "one lock mail per strict seat per dice step"
    );
    assert_eq!(anchors_mails, SEATS.len());
}

#[test]
fn player_commands_work_from_the_command_line() {
    let w = world(false);
    let dir = w.tmp.path().join("cli-player");
    let bin = env!("CARGO_BIN_EXE_despatch");
    let out = std::process::Command::new(bin)
        .args([
            "player", "init", "--game", GAME, "--seat", "red-1", "--len", "20", "--dir",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let printed = String::from_utf8_lossy(&out.stdout).into_owned();
    let line = printed.lines().find(|l| l.starts_with("STRICT ")).unwrap();
    let (seat, _, len) = strict::parse_anchor(line).unwrap();
    assert_eq!((seat.as_str(), len), ("red-1", 20));
    // A second init would overwrite a committed secret: refused.
    let again = std::process::Command::new(bin)
        .args(["player", "init", "--game", GAME, "--seat", "red-1", "--dir"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(!again.status.success());
    // `reveal` on a mail that asks for none says so.
    let not_lock = dir.join("not-a-lock.eml");
    std::fs::write(&not_lock, "Subject: hello\r\n\r\nnothing here\r\n").unwrap();
    let r = std::process::Command::new(bin)
        .args(["player", "reveal", "--dir"])
        .arg(&dir)
        .arg(&not_lock)
        .output()
        .unwrap();
    assert!(!r.status.success());
    assert!(String::from_utf8_lossy(&r.stderr).contains("STRICT DICE LOCK"));
}

#[test]
fn despatch_new_takes_the_anchor_line_a_player_init_printed() {
    let tmp = tempfile::tempdir().unwrap();
    let games = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    let cfg_path = tmp.path().join("config.toml");
    let text = despatch::config::DEFAULT_CONFIG.replace(
        "# games_dir = \"games\"",
        &format!("games_dir = {:?}", games.display().to_string()),
    );
    std::fs::write(&cfg_path, text).unwrap();
    let bin = env!("CARGO_BIN_EXE_despatch");
    let init = std::process::Command::new(bin)
        .args([
            "player", "init", "--game", "club-1", "--seat", "japan", "--dir",
        ])
        .arg(tmp.path().join("japan-home"))
        .output()
        .unwrap();
    let printed = String::from_utf8_lossy(&init.stdout).into_owned();
    let line = printed.lines().find(|l| l.starts_with("STRICT ")).unwrap();
    let new = std::process::Command::new(bin)
        .arg("--config")
        .arg(&cfg_path)
        .args([
            "new",
            "club-1",
            "--ruleset",
            "naval-rjw",
            "--scenario",
            "yellow-sea-1904",
            "--seat",
            "japan=togo@example.org",
            "--seat",
            "russia=vitgeft@example.net",
            "--reveal-hours",
            "6",
            "--strict-seat",
            line,
        ])
        .output()
        .unwrap();
    assert!(
        new.status.success(),
        "{}",
        String::from_utf8_lossy(&new.stderr)
    );
    let cfg = despatch::config::Config::load(&cfg_path).unwrap();
    let d = despatch::daemon::Daemon::new(cfg).unwrap();
    let book = d.open_game("club-1").unwrap().game.book().clone();
    let st = book.strict.expect("the game is strict");
    let (_, anchor, len) = strict::parse_anchor(line).unwrap();
    assert_eq!(st.reveal_hours, 6);
    assert_eq!(st.seats.len(), 1);
    assert_eq!(
        (
            st.seats[0].seat.as_str(),
            st.seats[0].anchor,
            st.seats[0].len
        ),
        ("japan", anchor, len)
    );
    // An anchor for a seat the game lacks is refused before anything is journaled.
    let bad = std::process::Command::new(bin)
        .arg("--config")
        .arg(&cfg_path)
        .args([
            "new",
            "club-2",
            "--ruleset",
            "naval-rjw",
            "--scenario",
            "yellow-sea-1904",
            "--seat",
            "japan=togo@example.org",
            "--seat",
            "russia=vitgeft@example.net",
            "--strict-seat",
            &line.replace("japan", "france"),
        ])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("strict seats"));
    assert!(
        !d.data.game("club-2").exists(),
        "no half-made game is left behind"
    );
}
