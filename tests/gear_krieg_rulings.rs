//! The Gear Krieg rulings of `games/gear-krieg/README.md`, one test per ruling (`fn r<N>_…`,
//! counted by the conformance kit's ruling table), in the players' order syntax through the
//! public `Ruleset` API on the Crossroads scenario, with fixed dice.

use std::collections::BTreeMap;

use despatch::board::tabletop::Pt;
use despatch::dice::Dice;
use despatch::engine::{Ruleset, Submitted};
use despatch::rulesets::gear_krieg::GearKrieg;
use despatch::rulesets::gear_krieg::data::{InitialSpeed, MoveMode};
use despatch::rulesets::gear_krieg::state::{GkState, Phase};
use despatch::rulesets::kit::roster::{Roster, TwoSides};

const RULESET: &str = include_str!("../games/gear-krieg/ruleset.toml");
const SCENARIO: &str = include_str!("../games/gear-krieg/scenarios/crossroads.toml");

fn new_game() -> GkState {
    GearKrieg::setup(RULESET, SCENARIO, &["us".into(), "germany".into()]).unwrap()
}

fn activating(side: &str) -> GkState {
    let mut st = new_game();
    st.phase = Phase::Activate { side: side.into() };
    st.to_play = side.into();
    st
}

fn resolve(st: &GkState, mails: &[(&str, &str)], seed: u8) -> GkState {
    let mut subs = BTreeMap::new();
    for (seat, text) in mails {
        let o = GearKrieg::parse(st, seat, text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
        subs.insert(seat.to_string(), Submitted::Orders(o));
    }
    GearKrieg::resolve(st, &subs, &mut Dice::new([seed; 32]))
}

fn logged(st: &GkState, line: &str) {
    assert!(
        st.log.iter().any(|l| l.text == line),
        "missing {line:?} in {:?}",
        st.log.iter().map(|l| &l.text).collect::<Vec<_>>()
    );
}

/// R19: a walker kicks only in Walker mode; it punches in either mode.
#[test]
fn r19_kicks_only_in_walker_mode() {
    let mut st = activating("us");
    st.unit_mut("General-1").unwrap().pos = Pt::new(20.0, 20.0);
    st.unit_mut("General-1").unwrap().heading = 90.0;
    st.unit_mut("Valkurie-1").unwrap().pos = Pt::new(21.0, 20.0);
    let kick = "ACTIVATE General-1\nKICK Valkurie-1\n";
    assert!(
        GearKrieg::parse(&st, "us", kick).is_ok(),
        "Walker mode kicks"
    );
    st.unit_mut("General-1").unwrap().mode = MoveMode::Ground;
    let e = GearKrieg::parse(&st, "us", kick).unwrap_err();
    assert!(
        e.iter()
            .any(|r| r.line == 2 && r.reason.contains("a walker cannot kick in Ground mode")),
        "{e:?}"
    );
    assert!(GearKrieg::parse(&st, "us", "ACTIVATE General-1\nPUNCH Valkurie-1\n").is_ok());
}

/// R27: silence declares nothing (round 1: stationary), holds the first unit not yet activated
/// when nothing is queued, and answers "interrupt now?" with no interrupt.
#[test]
fn r27_silence_declares_nothing_holds_and_does_not_interrupt() {
    let st = new_game();
    assert_eq!(st.phase, Phase::Declare);
    let st = GearKrieg::resolve(&st, &BTreeMap::new(), &mut Dice::new([3; 32]));
    for u in &st.units {
        assert_eq!(u.initial, InitialSpeed::Stationary, "{}", u.name);
        assert_eq!((u.extra_declared, u.defensive), (0, false), "{}", u.name);
    }
    let Phase::Activate { side } = st.phase.clone() else {
        panic!("{:?}", st.phase)
    };
    let first = st.unactivated(&side)[0].name.clone();
    let name = st.side_name(&side).to_string();
    let st = GearKrieg::resolve(&st, &BTreeMap::new(), &mut Dice::new([4; 32]));
    logged(&st, &format!("{name} sends no activation: {first} holds."));
    assert!(st.unit(&first).unwrap().activated);
    // Play on with the scripted players until "interrupt now?"; then stay silent.
    let mut st = st;
    for k in 0..300u64 {
        if let Phase::Interrupt { side, mover } = st.phase.clone() {
            let name = st.side_name(&side).to_string();
            let st = GearKrieg::resolve(&st, &BTreeMap::new(), &mut Dice::new([5; 32]));
            logged(&st, &format!("{name} does not interrupt."));
            assert!(st.unit(&mover).is_some_and(|u| u.activated || !u.alive()));
            return;
        }
        assert!(
            GearKrieg::outcome(&st).is_none(),
            "ended before an interrupt"
        );
        let spec = GearKrieg::step(&st);
        let mut subs = BTreeMap::new();
        for p in spec.prompts.iter().filter(|p| p.required) {
            let text = GearKrieg::sample_orders(&st, &p.seat, k);
            let o = GearKrieg::parse(&st, &p.seat, &text).unwrap();
            subs.insert(p.seat.clone(), Submitted::Orders(o));
        }
        st = GearKrieg::resolve(&st, &subs, &mut Dice::new([k as u8; 32]));
    }
    panic!("no interrupt question came up");
}

/// R28: a side with no unit left loses at once, not at the round limit.
#[test]
fn r28_a_side_with_no_unit_left_loses_at_once() {
    let mut st = activating("us");
    for u in st.units.iter_mut().filter(|u| u.side == "germany") {
        u.destroyed = true;
        for t in &mut u.troopers {
            t.hits = t.circles;
        }
    }
    assert!(st.alive("germany").is_empty());
    let st = resolve(&st, &[("us", "ACTIVATE General-1\nHOLD\n")], 1);
    let o = GearKrieg::outcome(&st).expect("the game is over");
    assert_eq!(o.winners, ["us"]);
    assert_eq!(
        o.summary,
        format!(
            "{} has no unit left: {} wins.",
            st.side_name("germany"),
            st.side_name("us")
        )
    );
    assert_eq!(st.round, 1);
    assert_eq!(st.phase, Phase::GameOver);
}

/// R8: infantry may declare extra Actions like any unit (Step 1, in order syntax).
#[test]
fn r8_infantry_declare_extra_actions_like_any_unit() {
    let st = new_game();
    let st = resolve(
        &st,
        &[("us", "EXTRA US-Squad\n"), ("germany", "EXTRA Squad-1\n")],
        2,
    );
    for squad in ["US-Squad", "Squad-1"] {
        let u = st.unit(squad).unwrap();
        assert!(u.is_infantry());
        assert_eq!((u.extra_declared, u.actions), (1, 2), "{squad}");
    }
    assert_eq!(
        st.unit("Squad-2").unwrap().actions,
        1,
        "undeclared: one Action"
    );
}

/// R30: the round limit and the winning margin are the scenario's (Crossroads: 10 and 10), not
/// the engine's: a scenario saying otherwise is played otherwise.
#[test]
fn r30_round_limit_and_margin_come_from_the_scenario() {
    let st = new_game();
    assert_eq!((st.max_rounds, st.winning_margin), (10, 10));
    let other = SCENARIO
        .replace("max_rounds = 10", "max_rounds = 4")
        .replace("winning_margin = 10", "winning_margin = 7");
    let st = GearKrieg::setup(RULESET, &other, &["us".into(), "germany".into()]).unwrap();
    assert_eq!((st.max_rounds, st.winning_margin), (4, 7));
}

/// R31: Crossroads at Hill 112 is 48 x 36 cm, by day: two Generals and a US squad against two
/// Valkuries and two German squads.
#[test]
fn r31_crossroads_map_and_forces() {
    let st = new_game();
    assert_eq!((st.width, st.height, st.night), (48.0, 36.0, false));
    let force = |side: &str| {
        st.units
            .iter()
            .filter(|u| u.side == side)
            .map(|u| (u.name.as_str(), u.is_infantry()))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        force("us"),
        [
            ("General-1", false),
            ("General-2", false),
            ("US-Squad", true)
        ]
    );
    assert_eq!(
        force("germany"),
        [
            ("Valkurie-1", false),
            ("Valkurie-2", false),
            ("Squad-1", true),
            ("Squad-2", true)
        ]
    );
}
