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
