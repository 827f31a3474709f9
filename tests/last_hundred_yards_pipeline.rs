//! Last Hundred Yards by mail through the real pipeline: raw mails into `Daemon::ingest`, the
//! seats replying to their tokened addresses, a whole game turn of Platoon Activation Cycles
//! with a call for Reaction answered by mail, `verify` on the store and the mails, no concealed
//! unit's name in the enemy's mails, and the maps drawn for both seats.

use std::path::PathBuf;

use chrono::{TimeZone, Utc};
use despatch::daemon::Intake;
use despatch::engine::{Game, Play, Ruleset, Viewer};
use despatch::rulesets::last_hundred_yards::LastHundredYards as Lhy;
use despatch::rulesets::last_hundred_yards::state::Phase;
use despatch::verify;

const GAME: &str = "patrol";
const US: &str = "able6@company-a.example";
const GERMANY: &str = "kompanie@erste.example";
const TOKEN_US: &str = "ustoken0123456789abcdefg";
const TOKEN_DE: &str = "detoken0123456789abcdefg";

use crate::mail_world;

use mail_world::{World, delivered};

fn world() -> World {
    mail_world::world(
        GAME,
        "last-hundred-yards",
        "patrol",
        &[("us", US, TOKEN_US), ("germany", GERMANY, TOKEN_DE)],
        Utc.with_ymd_and_hms(2026, 11, 23, 9, 0, 0).unwrap(),
        ([0x4c; 32], [0x59; 32]),
    )
}

impl World {
    fn game(&self) -> Game<Lhy> {
        self.daemon.data.game(GAME).load().unwrap()
    }
}

/// The mail a player writes for the open prompt, from the order reference.
fn orders(g: &Game<Lhy>, seat: &str) -> String {
    let st = &g.state;
    let try_first = |texts: &[&str]| -> String {
        texts
            .iter()
            .find(|t| Lhy::parse(st, seat, t).is_ok())
            .map_or("PASS".to_string(), |t| t.to_string())
    };
    match (&st.phase, seat) {
        (Phase::Activate { .. }, "us") => try_first(&[
            "ACTIVATE 1PLT\nMOVE A1-2 TO 0909 0908\nHOLD A1-1",
            "ACTIVATE 1PLT\nHOLD A1-1",
        ]),
        (Phase::Activate { .. }, _) => try_first(&["ACTIVATE G1PLT\nHOLD G1-1"]),
        (Phase::React { .. }, "germany") => try_first(&["FIRE MG-42 AT A1-2", "PASS"]),
        _ => "PASS".into(),
    }
}

#[test]
fn a_game_turn_by_mail_with_a_reaction_completes_and_verifies() {
    let mut w = world();
    assert!(matches!(
        w.send("us", "PLACE A1-2 0910"),
        Intake::Accepted { .. }
    ));
    // Set-up is sealed: the German notice of the US mail carries none of it.
    let outbox = w.daemon.cfg.mail.outbox.clone();
    for n in delivered(&outbox, "submission-germany") {
        assert!(!n.contains("A1-2"), "sealed set-up leaked: {n}");
    }
    assert!(matches!(
        w.send("germany", "PLACE MG-42 0905\nPLACE G1-2 0805\nHIDE G1-1"),
        Intake::Accepted { .. }
    ));
    let mut reactions_by_mail = 0;
    let mut mails = 2;
    loop {
        let g = w.game();
        // Whole game turns until one had a reaction by mail (who wins the Initiative is the
        // dice's say, and only the US activation here draws a German reaction).
        if g.is_over() || (g.state.turn.number > 1 && reactions_by_mail > 0) {
            break;
        }
        if matches!(g.state.phase, Phase::React { .. }) {
            reactions_by_mail += 1;
        }
        let waiting = g.waiting_for();
        assert!(
            !waiting.is_empty(),
            "dead end at step {}: {:?}",
            g.step,
            g.state.phase
        );
        for seat in waiting {
            let text = orders(&g, &seat);
            let out = w.send(&seat, &text);
            assert!(
                matches!(out, Intake::Accepted { .. }),
                "{seat}: {text}\n{out:?}"
            );
            mails += 1;
        }
        assert!(mails < 80, "the game turns do not end");
    }
    eprintln!("{mails} mails from the players, {reactions_by_mail} of them reactions");
    assert!(reactions_by_mail > 0, "a reaction was asked by mail");
    let g = w.game();
    assert!(g.state.turn.number >= 2 || g.is_over());
    // The hidden German squad never shows in a mail to the US.
    for text in delivered(&outbox, "-us") {
        assert!(
            !text.contains("G1-1 ("),
            "hidden unit leaked to the US: {text}"
        );
    }
    // The maps for both seats, drawn from their views.
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/lhy-maps");
    std::fs::create_dir_all(&dir).unwrap();
    for seat in ["us", "germany"] {
        let v = Lhy::view(&g.state, &Viewer::Seat(seat.into()));
        let png = despatch::render::png(v.map.as_ref().unwrap(), 900).unwrap();
        std::fs::write(dir.join(format!("patrol-{seat}.png")), png).unwrap();
    }
    let store = w.daemon.data.game(GAME);
    let (checked, findings) = verify::verify_store(&store, &despatch::rulesets::registry());
    assert!(findings.is_empty(), "{findings:?}");
    assert!(checked.rolls > 0 && checked.steps > 2, "{checked:?}");
    let (mchecked, mfindings) = verify::verify_mails(&w.daemon.cfg.mail.outbox, Some(GAME));
    assert!(mfindings.is_empty(), "{mfindings:?}");
    assert_eq!(mchecked.steps, checked.steps);
}

#[test]
fn help_by_mail_sends_the_order_reference() {
    let mut w = world();
    let out = w.send("us", "HELP");
    eprintln!("{out:?}");
    let outbox = w.daemon.cfg.mail.outbox.clone();
    let all: Vec<String> = delivered(&outbox, "us");
    assert!(
        all.iter()
            .any(|t| t.contains("STANDING ALL WITHDRAW IF ASSAULTED")),
        "HELP answers with the order reference"
    );
}
