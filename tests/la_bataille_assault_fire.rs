//! Whom a defending stack's Defensive Fire falls on, and when it is canister (seed p.4–5:
//! "Offensive and Defensive Fire is conducted simultaneously"; artillery firing canister at an
//! adjacent target shifts two columns right). Written for the survivors of the mutation run
//! of 2026-11-27 in `assault/melee.rs` (mutants/survivors.toml): each test fails under one of
//! them.

use crate::lbt::{QUIET, Table, assert_has, battalion, field, has};

/// Two French columns assault one battalion facing NE: A (0506, listed first) stands in its
/// rear arc, B (0606) in its front. The Defensive Fire goes at B, the stack it faces.
#[test]
fn the_defenders_fire_goes_at_the_assaulting_stack_it_faces() {
    let mut t = Table::new(&field(
        &[
            battalion("france", "A", "0506", "N", "column", 4),
            battalion("france", "B", "0606", "NW", "column", 4),
            battalion("allies", "28th-Foot", "0505", "NE", "line", 4),
        ],
        "",
    ));
    let log = t.play_on(
        &[("france", "ASSAULT A AT 0505\nASSAULT B AT 0505\n"), QUIET],
        &[2, 2, 2, 2, 2, 2, 1],
    );
    assert_has(&log, "B (French, Number 1) joins assault A1");
    assert_has(&log, "Defensive Fire of 28th-Foot at 0606");
    assert!(!has(&log, "Defensive Fire of 28th-Foot at 0506"), "{log:?}");
}

/// A battalion assaulted from its rear faces none of its attackers and still fires at the
/// adjacent one.
#[test]
fn a_defender_facing_away_still_fires_at_the_adjacent_assault() {
    let mut t = Table::new(&field(
        &[
            battalion("france", "1/45e", "0506", "N", "column", 4),
            battalion("allies", "28th-Foot", "0505", "N", "line", 4),
        ],
        "",
    ));
    let log = t.play_on(
        &[("france", "ASSAULT 1/45e AT 0505\n"), QUIET],
        &[2, 2, 2, 2, 1],
    );
    assert_has(&log, "Defensive Fire of 28th-Foot at 0506");
}

/// Canister is the guns' own: a battalion stacked with guns fires canister only when the guns
/// are unlimbered (both sides of the condition).
#[test]
fn only_unlimbered_guns_make_the_defensive_fire_canister() {
    let fire = |guns: &str| {
        let mut t = Table::new(&field(
            &[
                battalion("france", "1/45e", "0506", "N", "column", 4),
                battalion("allies", "28th-Foot", "0505", "S", "line", 2),
                (
                    "allies",
                    "Guns",
                    "foot_artillery",
                    "Prussian",
                    "0505",
                    "S",
                    guns,
                    2,
                    7,
                ),
            ],
            "",
        ));
        let log = t.play_on(
            &[("france", "ASSAULT 1/45e AT 0505\n"), QUIET],
            &[2, 2, 2, 2, 1],
        );
        log.into_iter()
            .find(|l| l.contains("Defensive Fire of") && l.contains("at 0506"))
            .unwrap_or_else(|| panic!("no Defensive Fire with guns {guns}"))
    };
    assert!(fire("unlimbered").contains("+2 canister"));
    let limbered = fire("limbered");
    assert!(!limbered.contains("canister"), "{limbered}");
}
