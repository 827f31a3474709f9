//! The Fire Chart strength of each formation (R18's stand-in factors): a line fires with every
//! increment, a column, a square and skirmishers with half (only the head or the outer face
//! fires), limbered guns not at all. Written for the survivors of the mutation run of
//! 2026-11-27 in `combat/fire.rs` (mutants/runs.toml).

use despatch::rulesets::la_bataille::combat;

use crate::lbt::{Table, field};

/// Fire strength of one four-increment line battalion (fire 1 an increment) in `formation`.
fn battalion_strength(formation: &str) -> f64 {
    let t = Table::new(&field(
        &[(
            "allies",
            "28th-Foot",
            "line_infantry",
            "British",
            "0505",
            "S",
            formation,
            4,
            8,
        )],
        "",
    ));
    combat::fire_strength(&t.st, &[t.unit("28th-Foot")])
}

#[test]
fn a_line_fires_whole_and_a_column_square_or_skirmish_screen_with_half() {
    assert_eq!(battalion_strength("line"), 4.0);
    assert_eq!(battalion_strength("column"), 2.0);
    assert_eq!(battalion_strength("square"), 2.0);
    assert_eq!(battalion_strength("skirmish"), 2.0);
}

/// A battery fires unlimbered (fire 3 an increment) and not at all limbered.
#[test]
fn limbered_guns_do_not_fire() {
    let strength = |formation: &str| {
        let t = Table::new(&field(
            &[(
                "allies",
                "Sandham",
                "foot_artillery",
                "British",
                "0505",
                "S",
                formation,
                2,
                7,
            )],
            "",
        ));
        combat::fire_strength(&t.st, &[t.unit("Sandham")])
    };
    assert_eq!(strength("unlimbered"), 6.0);
    assert_eq!(strength("limbered"), 0.0);
}

/// Column shifts of a battery's fire (range 6) at a battalion in `formation` `rows` hexes
/// north in the same column.
fn battery_shift(formation: &str, rows: u32) -> (i32, Vec<String>) {
    battery_shift_at("line_infantry", formation, rows)
}

fn battery_shift_at(class: &str, formation: &str, rows: u32) -> (i32, Vec<String>) {
    let target = format!("05{:02}", 10 - rows);
    let t = Table::new(&field(
        &[
            (
                "france",
                "Guns",
                "foot_artillery",
                "French",
                "0510",
                "N",
                "unlimbered",
                2,
                7,
            ),
            (
                "allies", "Target", class, "Prussian", &target, "S", formation, 4, 8,
            ),
        ],
        "",
    ));
    let target = t.unit("Target").hex;
    combat::fire_shift(&t.st, &[t.unit("Guns")], target, false)
}

/// R18 long range: beyond half the range (6) a column left; at exactly half none.
#[test]
fn long_range_begins_beyond_half_the_range() {
    assert_eq!(battery_shift("line", 3).0, 0);
    let (shift, why) = battery_shift("line", 4);
    assert_eq!(shift, -1, "{why:?}");
    assert!(why.iter().any(|w| w.contains("long range")), "{why:?}");
}

/// R18 target formations: a square +2, a column +1, skirmishers −2, a line none; guns
/// limbered +1.
#[test]
fn the_targets_formation_shifts_the_column() {
    assert_eq!(battery_shift("square", 2).0, 2);
    assert_eq!(battery_shift("column", 2).0, 1);
    assert_eq!(battery_shift("skirmish", 2).0, -2);
    assert_eq!(battery_shift("line", 2).0, 0);
    // Guns: limbered +1, unlimbered none.
    assert_eq!(battery_shift_at("foot_artillery", "limbered", 2).0, 1);
    assert_eq!(battery_shift_at("foot_artillery", "unlimbered", 2).0, 0);
}
