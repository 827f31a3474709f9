//! Issue 30 point 5 in La Bataille: the Maneuver Segment's prompt offers only the orders the
//! seat's units can take (the teaching game's Allies have no cavalry and no Old Guard: no
//! CHARGE, no GUARD CHARGE), and an Old Guard unit brings GUARD CHARGE back.

use despatch::engine::Ruleset;
use despatch::rulesets::la_bataille::LaBataille;
use despatch::rulesets::la_bataille::state::{LbState, Phase};

use crate::lbt::{RULESET, seats};

fn maneuver_question(st: &mut LbState, side: &str) -> String {
    st.phase = Phase::Maneuver { side: side.into() };
    LaBataille::step(st)
        .prompts
        .iter()
        .find(|p| p.seat == side)
        .map(|p| p.question.clone())
        .unwrap()
}

#[test]
fn the_maneuver_prompt_offers_only_what_the_seats_units_can_do() {
    let teaching = include_str!("../games/la-bataille/scenarios/teaching.toml");
    let mut st = LaBataille::setup(RULESET, teaching, &seats()).unwrap();
    let allies = maneuver_question(&mut st, "allies");
    assert!(!allies.contains("CHARGE"), "{allies}");
    assert!(
        allies.contains("MOVE") && allies.contains("FIRE"),
        "{allies}"
    );
    let france = maneuver_question(&mut st, "france");
    assert!(
        france.contains("ASSAULT") && france.contains("CHARGE"),
        "{france}"
    );
    assert!(!france.contains("GUARD CHARGE"), "{france}");
    // The Old Guard at Waterloo may make its charge.
    let waterloo = include_str!("../games/la-bataille/scenarios/waterloo-1815.toml");
    let mut st = LaBataille::setup(RULESET, waterloo, &seats()).unwrap();
    let france = maneuver_question(&mut st, "france");
    assert!(france.contains("GUARD CHARGE"), "{france}");
}
