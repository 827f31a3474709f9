//! La Bataille's victory (R34): an objective scores for the side with a fighting unit in it,
//! else for its last holder, the side that stood in it at the end of a player turn. Tests in
//! the players' own order syntax; no dice are rolled (nobody is in range).

use crate::lbt;

use despatch::rulesets::la_bataille::segment::victory_points;
use lbt::*;

/// A French battalion next to the crossroads (0505, 5 VP, the Allies' at the start) and a
/// Prussian battalion far off, out of range and sight of it.
fn crossroads() -> Table {
    Table::new(&field(
        &[
            battalion("france", "A", "0506", "N", "column", 4),
            battalion("allies", "B", "0101", "S", "line", 4),
        ],
        "[[objectives]]\nname = \"the crossroads\"\nhex = \"0505\"\nvp = 5\nholder = \"allies\"\n",
    ))
}

fn vp(t: &Table, side: &str) -> u32 {
    victory_points(&t.st)
        .into_iter()
        .find(|(s, _)| s == side)
        .map_or(0, |(_, v)| v)
}

#[test]
fn r34_a_side_that_ends_a_player_turn_in_an_objective_keeps_it_after_moving_on() {
    let mut t = crossroads();
    assert_eq!((vp(&t, "france"), vp(&t, "allies")), (0, 5));
    t.play_on(&[("france", "MOVE A 0505\n")], &[]);
    t.play_on(&[("allies", "PASS\n")], &[]);
    // Game turn 2: A marches on; the crossroads stays French, its last holder.
    t.play_on(&[("france", "MOVE A 0504\n")], &[]);
    assert_eq!(t.st.label(t.unit("A").hex), "0504");
    assert_eq!((vp(&t, "france"), vp(&t, "allies")), (5, 0));
    assert_eq!(t.st.objectives[0].holder, "france");
}

#[test]
fn r34_a_unit_passing_through_an_objective_in_one_move_does_not_take_it() {
    let mut t = crossroads();
    t.play_on(&[("france", "MOVE A 0505 0504\n")], &[]);
    assert_eq!(t.st.label(t.unit("A").hex), "0504");
    assert_eq!((vp(&t, "france"), vp(&t, "allies")), (0, 5));
    assert_eq!(t.st.objectives[0].holder, "allies");
}
