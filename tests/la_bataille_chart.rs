//! The stand-in Assaut et Mêlée Chart as shipped (R2, issue 28 point 4): every threshold of
//! its rows, both sides, and the seed's aim that an even assault most often becomes a firefight.
//! It reads the chart through `melee_result`; it plays no game.

use despatch::rulesets::la_bataille::combat::{charge_result, melee_result};
use despatch::rulesets::la_bataille::data::{MeleeResult, RulesetData};

use MeleeResult::{
    AttackerRouts as AR, AttackerSurrenders as AS, Blank, DefenderRouts as DR,
    DefenderSurrenders as DS,
};

const RULESET: &str = include_str!("../games/la-bataille/ruleset.toml");

fn chart() -> RulesetData {
    RulesetData::load(RULESET).expect("the shipped ruleset loads")
}

/// The column's index by its label.
fn col(d: &RulesetData, label: &str) -> Option<usize> {
    d.assaut_et_melee
        .columns
        .get()
        .iter()
        .position(|c| c == label)
}

#[test]
fn at_one_to_one_surrenders_are_only_at_the_ends_and_a_firefight_spans_3_to_11() {
    let d = chart();
    let c = col(&d, "1:1");
    let at = |roll| melee_result(&d, c, roll);
    // Each pair straddles one threshold.
    assert_eq!((at(-2), at(-1)), (AS, AR));
    assert_eq!((at(2), at(3)), (AR, Blank));
    assert_eq!((at(11), at(12)), (Blank, DR(1)));
    assert_eq!((at(13), at(14)), (DR(1), DR(2)));
    assert_eq!((at(15), at(16)), (DR(2), DS(2)));
    assert_eq!((at(17), at(18)), (DS(2), DS(3)));
    // Off the chart reads as its ends: two casualties each way (±6) stay inside.
    assert_eq!((at(-20), at(40)), (AS, DS(3)));
}

#[test]
fn each_column_right_adds_one_to_the_roll() {
    let d = chart();
    for (label, first_blank, first_dr1) in [
        ("1:3", 5, 14),
        ("1:2", 4, 13),
        ("1:1", 3, 12),
        ("3:2", 2, 11),
        ("2:1", 1, 10),
        ("6:1", -3, 6),
    ] {
        let c = col(&d, label);
        let at = |roll| melee_result(&d, c, roll);
        assert_eq!(at(first_blank - 1), AR, "{label} below its firefight band");
        assert_eq!(at(first_blank), Blank, "{label} its first blank");
        assert_eq!(at(first_dr1 - 1), Blank, "{label} its last blank");
        assert_eq!(at(first_dr1), DR(1), "{label} its first DR1");
    }
    // No attacker surrenders at 6:1, none for the defender at 1:3's top but DS2.
    assert_eq!(melee_result(&d, col(&d, "6:1"), -20), AR);
    assert_eq!(melee_result(&d, col(&d, "1:3"), 40), DS(2));
}

#[test]
fn the_firefight_column_routs_the_attacker_at_3_and_the_defender_from_10() {
    let d = chart();
    let at = |roll| melee_result(&d, None, roll);
    assert_eq!((at(3), at(4)), (AR, Blank));
    assert_eq!((at(9), at(10)), (Blank, DR(1)));
    assert_eq!((at(11), at(12)), (DR(1), DR(2)));
    assert_eq!(
        (at(-20), at(40)),
        (AR, DR(2)),
        "no surrender in a firefight"
    );
}

#[test]
fn an_even_assault_without_casualties_is_a_firefight_34_times_in_36() {
    // The seed (p.1): attacker retreat, firefight or defender retreat, "the chance of a
    // firefight was higher".
    let d = chart();
    let c = col(&d, "1:1");
    let mut n = [0u32; 3];
    for a in 1..=6 {
        for b in 1..=6 {
            match melee_result(&d, c, a + b) {
                Blank => n[1] += 1,
                AR | AS => n[0] += 1,
                DR(_) | DS(_) => n[2] += 1,
            }
        }
    }
    assert_eq!(n, [1, 34, 1]);
}

/// The column's index, for the charge rows (which read every column).
fn idx(d: &RulesetData, label: &str) -> usize {
    col(d, label).unwrap_or_else(|| panic!("no column {label}"))
}

#[test]
fn r38_an_even_charge_routs_one_side_on_2_to_5_and_9_to_12_and_bounces_on_6_to_8() {
    let d = chart();
    let at = |roll| charge_result(&d, idx(&d, "1:1"), roll);
    // Each pair straddles one threshold of the 1:1 charge row.
    assert_eq!((at(-2), at(-1)), (AS, AR));
    assert_eq!((at(5), at(6)), (AR, Blank));
    assert_eq!((at(8), at(9)), (Blank, DR(1)));
    assert_eq!((at(14), at(15)), (DR(1), DS(2)));
    assert_eq!((at(17), at(18)), (DS(2), DS(3)));
    assert_eq!((at(-20), at(40)), (AS, DS(3)));
    // The nearest wrong reading: the infantry row, whose blank spans 3 to 11.
    assert_eq!(melee_result(&d, col(&d, "1:1"), 5), Blank);
    assert_eq!(melee_result(&d, col(&d, "1:1"), 9), Blank);
}

#[test]
fn r38_each_charge_column_right_adds_one_to_the_roll() {
    let d = chart();
    for (label, first_bounce, first_dr) in [
        ("1:3", 8, 11),
        ("1:2", 7, 10),
        ("1:1", 6, 9),
        ("3:2", 5, 8),
        ("2:1", 4, 7),
        ("3:1", 3, 6),
        ("6:1", 0, 3),
    ] {
        let at = |roll| charge_result(&d, idx(&d, label), roll);
        assert_eq!(at(first_bounce - 1), AR, "{label} below its bounce band");
        assert_eq!(at(first_bounce), Blank, "{label} its first bounce");
        assert_eq!(at(first_dr - 1), Blank, "{label} its last bounce");
        assert_eq!(at(first_dr), DR(1), "{label} its first DR");
    }
}

#[test]
fn r38_an_even_charge_without_leaders_bounces_16_times_in_36_and_routs_each_side_10() {
    // Before R38 a charge read the infantry rows: at 1:1 it bounced 34 times in 36, so no
    // charge between even horse was worth making.
    let d = chart();
    let mut n = [0u32; 3];
    for a in 1..=6 {
        for b in 1..=6 {
            match charge_result(&d, idx(&d, "1:1"), a + b) {
                Blank => n[1] += 1,
                AR | AS => n[0] += 1,
                DR(_) | DS(_) => n[2] += 1,
            }
        }
    }
    assert_eq!(n, [10, 16, 10]);
}
