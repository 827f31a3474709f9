//! Issue 30 point 5 by mail: every prompt carries one example built from the seat's own units
//! that the game in hand accepts, and every rejection's hint is itself accepted. The testers'
//! faults: the Last Hundred Yards welcome's examples were off the patrol map and a refused
//! move's hint was refused again ("0407 is not next to 0610": three mails for a one-hex move);
//! a Lone Star seat whose units cannot move got no hint when refused.

use chrono::{TimeZone, Utc};
use despatch::daemon::Intake;
use despatch::engine::{Game, Play};
use despatch::rulesets::kit::roster::Roster;
use despatch::rulesets::last_hundred_yards::LastHundredYards as Lhy;
use despatch::rulesets::last_hundred_yards::checks;
use despatch::rulesets::last_hundred_yards::state::{Phase, Place};
use despatch::rulesets::lone_star::LoneStar;
use despatch::rulesets::lone_star::state::Phase as LsPhase;

use crate::mail_world;
use mail_world::{World, delivered};

const GAME: &str = "hints";

fn patrol() -> World {
    mail_world::world(
        GAME,
        "last-hundred-yards",
        "patrol",
        &[
            ("us", "able6@company-a.example", "ustoken0123456789abcdefg"),
            (
                "germany",
                "kompanie@erste.example",
                "detoken0123456789abcdefg",
            ),
        ],
        Utc.with_ymd_and_hms(2026, 11, 23, 9, 0, 0).unwrap(),
        ([0x4c; 32], [0x59; 32]),
    )
}

fn lhy(w: &World) -> Game<Lhy> {
    w.daemon.data.game(GAME).load().unwrap()
}

/// The indented lines under `For example:` in a mail's text.
fn example_in(text: &str) -> Option<String> {
    let after = text.split_once("For example:\n")?.1;
    let lines: Vec<&str> = after
        .lines()
        .take_while(|l| l.starts_with("    "))
        .map(str::trim)
        .collect();
    (!lines.is_empty()).then(|| lines.join("\n"))
}

/// The hint of the first problem of a rejection mail, its lines joined.
fn hint_in(text: &str) -> Option<String> {
    let after = text.split_once("hint: ")?.1;
    let mut lines = after.lines();
    let mut out = vec![lines.next()?.trim().to_string()];
    out.extend(
        lines
            .take_while(|l| l.starts_with("          "))
            .map(|l| l.trim().to_string()),
    );
    Some(out.join("\n"))
}

#[test]
fn the_welcome_example_is_an_order_the_patrol_accepts_from_each_seat() {
    let w = patrol();
    let g = lhy(&w);
    for seat in ["us", "germany"] {
        let welcome = delivered(w.outbox(), &format!("welcome-{seat}"));
        assert_eq!(welcome.len(), 1, "{seat}");
        let example = example_in(&welcome[0])
            .unwrap_or_else(|| panic!("{seat}: no example in the welcome:\n{}", welcome[0]));
        assert!(
            g.parse_orders(seat, &example).is_ok(),
            "{seat}: the welcome's example is refused: {example}"
        );
    }
}

#[test]
fn a_refused_moves_hint_is_accepted_when_sent_back() {
    let mut w = patrol();
    assert!(matches!(w.send("us", "PASS"), Intake::Accepted { .. }));
    assert!(matches!(w.send("germany", "PASS"), Intake::Accepted { .. }));
    let g = lhy(&w);
    let Phase::Activate { side } = g.state.phase.clone() else {
        panic!("no activation after set-up: {:?}", g.state.phase)
    };
    let st = &g.state;
    let platoon = checks::may_activate_now(st, &side)[0].clone();
    let unit = st
        .units
        .iter()
        .find(|u| u.platoon.as_deref() == Some(platoon.as_str()) && u.place == Place::Map)
        .unwrap();
    // A hex two rows away: on the map, and not next to the unit.
    let grid = st.map.grid();
    let at = st.name_of(unit.at);
    let (col, row) = at.split_at(2);
    let row: i32 = row.parse().unwrap();
    let far = [row + 2, row - 2]
        .into_iter()
        .map(|r| format!("{col}{r:02}"))
        .find(|l| grid.parse_hex(l).is_ok_and(|h| st.map.on_map(h)))
        .unwrap();
    let mail = format!("ACTIVATE {platoon}\nMOVE {} TO {far}", unit.name);
    assert!(
        matches!(w.send(&side, &mail), Intake::Rejected { .. }),
        "{mail}"
    );
    let rejection = delivered(w.outbox(), "reject-")
        .pop()
        .expect("the rejection");
    assert!(
        rejection.contains(&format!("{far} is not next to {at}")),
        "{rejection}"
    );
    let hint = hint_in(&rejection).unwrap_or_else(|| panic!("no hint:\n{rejection}"));
    let out = w.send(&side, &hint);
    assert!(
        matches!(out, Intake::Accepted { .. }),
        "the hint was refused: {hint}\n{out:?}"
    );
}

#[test]
fn a_lone_star_seat_that_cannot_move_gets_a_legal_hint() {
    let w = mail_world::lone_star_patrol("lsh");
    let mut g: Game<LoneStar> = w.daemon.data.game("lsh").load().unwrap();
    // bowie holds the card: a battery that does not move and a halted windwagon.
    g.state.cards = g.state.seats.iter().map(|s| s.id.clone()).collect();
    let i = g.state.cards.iter().position(|s| s == "bowie").unwrap();
    g.state.phase = LsPhase::Move { card: i };
    let refused = g
        .parse_orders("bowie", "MOVE Alamo Battery 20,20")
        .unwrap_err();
    assert_eq!(refused[0].hint, None, "control: the ruleset gives no hint");
    let mended = despatch::engine::example::mend_hints(&g, "bowie", refused);
    let hint = mended[0].hint.clone().expect("a hint");
    let hint: String = hint.lines().map(str::trim).collect::<Vec<_>>().join("\n");
    assert!(
        g.parse_orders("bowie", &hint).is_ok(),
        "the hint is refused: {hint}"
    );
    // And the prompt's example holds too.
    let example = g.example_orders("bowie").expect("an example");
    assert!(g.parse_orders("bowie", &example).is_ok(), "{example}");
}

#[test]
fn a_gear_krieg_concealment_refusal_gets_a_legal_hint() {
    use despatch::board::tabletop::Pt;
    use despatch::rulesets::gear_krieg::GearKrieg;
    use despatch::rulesets::gear_krieg::state::Phase as GkPhase;
    let w = mail_world::world(
        "gkh",
        "gear-krieg",
        "crossroads",
        &[
            (
                "us",
                "patton@third-army.example",
                "ustoken0123456789abcdefg",
            ),
            (
                "germany",
                "rommel@afrika.example",
                "detoken0123456789abcdefg",
            ),
        ],
        Utc.with_ymd_and_hms(2026, 11, 23, 9, 0, 0).unwrap(),
        ([0x47; 32], [0x4b; 32]),
    );
    let mut g: Game<GearKrieg> = w.daemon.data.game("gkh").load().unwrap();
    // The R12 set piece: General-1 deep in Bocage wood, Valkurie-1 west of it (Concealment 5
    // against Detection 4).
    g.state.phase = GkPhase::Activate { side: "us".into() };
    g.state.to_play = "us".into();
    for (name, x, y, heading) in [
        ("General-1", 23.6, 27.0, 270.0),
        ("Valkurie-1", 17.0, 27.0, 90.0),
    ] {
        let u = g.state.unit_mut(name).unwrap();
        u.pos = Pt::new(x, y);
        u.heading = heading;
    }
    let refused = g
        .parse_orders("us", "ACTIVATE General-1\nFIRE Cannon AT Valkurie-1")
        .unwrap_err();
    let fire = refused
        .iter()
        .find(|r| r.reason.contains("cannot be targeted: Concealment"))
        .expect("the concealment refusal");
    assert_eq!(fire.hint, None, "control: the ruleset gives no hint");
    let mended = despatch::engine::example::mend_hints(&g, "us", refused);
    for r in &mended {
        let hint = r.hint.clone().unwrap_or_else(|| panic!("no hint: {r:?}"));
        let hint: String = hint.lines().map(str::trim).collect::<Vec<_>>().join("\n");
        assert!(g.parse_orders("us", &hint).is_ok(), "refused hint: {hint}");
    }
}
