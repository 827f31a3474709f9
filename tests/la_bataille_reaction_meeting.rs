//! Reaction Charges meet face to face (issue 28, seed p.6 step 4a.i): the two stacks ride into
//! the hexes between them and end adjacent. A reactor with no open way to the charger (the
//! charge's own target in between) cannot meet it and is not offered the reaction; a cavalry
//! defender that bounces goes one hex straight away from the attackers (R29, R31).

use crate::lbt;

use lbt::*;

#[test]
fn r29_a_reactor_behind_the_target_has_no_way_to_meet_the_charger_and_is_not_offered() {
    let mut t = Table::new(&field(
        &[
            (
                "france",
                "Cuir",
                "heavy_cavalry",
                "French",
                "0509",
                "N",
                "line",
                3,
                9,
            ),
            (
                "allies",
                "Target",
                "line_infantry",
                "Prussian",
                "0505",
                "S",
                "line",
                3,
                8,
            ),
            // 3 hexes from 0507, in their front, but the Target stands on the only shortest way.
            (
                "allies",
                "Hussars",
                "light_cavalry",
                "British",
                "0504",
                "S",
                "line",
                3,
                8,
            ),
        ],
        "",
    ));
    let log = t.play_on(
        &[
            ("france", "CHARGE Cuir AT 0505\n"),
            (
                "allies",
                "OPPORTUNITY FIRE OFF\nSQUARE NEVER\nREACTION ALWAYS\n",
            ),
        ],
        &[],
    );
    assert!(!has(&log, "Reaction Charge"), "{}", log.join("\n"));
    assert_has(&log, "C1: Cuir reach 0505.");
    assert_eq!(t.st.label(t.unit("Hussars").hex), "0504");
}

/// Light cavalry against light cavalry, 3 increments each: the mêlée is at 1:1.
fn lancers_and_hussars() -> Table {
    Table::new(&field(
        &[
            (
                "france",
                "Lanciers",
                "light_cavalry",
                "French",
                "0509",
                "N",
                "line",
                3,
                8,
            ),
            (
                "allies",
                "Hussars",
                "light_cavalry",
                "British",
                "0505",
                "S",
                "line",
                3,
                8,
            ),
        ],
        "",
    ))
}

#[test]
fn r29_r31_the_stacks_meet_adjacent_and_a_bounced_defender_goes_straight_away() {
    let mut t = lancers_and_hussars();
    t.play_on(&[("france", "CHARGE Lanciers AT 0505\n"), QUIET], &[]);
    let (seat, _) = t.asked().expect("the reaction is asked");
    assert_eq!(seat, "allies");
    // The reaction passes (2+2), the mêlée at 1:1 rolls 3+3 = 6: blank, both bounce.
    let log = t.play_on(&[("allies", "REACT Hussars\n")], &[2, 2, 3, 3]);
    assert_has(
        &log,
        "Hussars and Lanciers meet face to face at 0506 and 0507",
    );
    assert_has(
        &log,
        "column 1:1; rolled 3+3 +0 fire +0 leaders = 6: blank.",
    );
    assert_has(&log, "C2: the charge bounces.");
    // The attackers (Hussars, from 0506) go one hex back along their path; the defenders one
    // hex straight away from 0506: 0508, not a hex beside it.
    assert_has(&log, "C2: Hussars fall back to 0505.");
    assert_has(&log, "Lanciers bounce back to 0508.");
    assert_eq!(t.st.label(t.unit("Lanciers").hex), "0508");
    assert_eq!(t.st.label(t.unit("Hussars").hex), "0505");
}

#[test]
fn r29_the_winner_of_a_reaction_melee_advances_one_hex_into_the_loser_s_hex() {
    let mut t = lancers_and_hussars();
    t.play_on(&[("france", "CHARGE Lanciers AT 0505\n"), QUIET], &[]);
    // Pass (2+2); 1:1 rolls 6+6 = 12: DR1, the Lanciers rout.
    let log = t.play_on(&[("allies", "REACT Hussars\n")], &[2, 2, 6, 6]);
    let h = t.st.grid.parse_hex("0506").unwrap();
    let l = t.st.grid.parse_hex("0507").unwrap();
    assert_eq!(h.distance(l), 1, "the meeting hexes are adjacent");
    assert_has(&log, "meet face to face at 0506 and 0507");
    assert_has(&log, "= 12: DR1");
    // One hex of advance, from 0506 into 0507 (then the Regroup, two back along the path).
    assert_has(&log, "C2: Hussars advance into 0507");
    assert_has(&log, "C2: Hussars fall back to 0505.");
}
