//! The assault fire's casualties on the mêlée roll, and who may Huzzah (seed p.2 steps 4–5;
//! p.3 on firefights; R23). Written for the survivors of the mutation runs of 2026-11-27 in
//! `assault/melee.rs` (mutants/runs.toml): each test fails under one of them.

use despatch::rulesets::la_bataille::state::Cohesion;

use crate::lbt::{QUIET, Table, assert_has, battalion, duel, field, has};

/// Step 4: "−3 for each casualty" the Defensive Fire inflicts, so two casualties are −6 (one
/// casualty cannot tell −3 × n from −3 / n).
#[test]
fn two_defensive_fire_casualties_move_the_melee_roll_by_minus_six() {
    let mut t = duel("column", "Prussian");
    // Both pass, no shift; the Offensive Fire misses, the doubled Defensive Fire hits twice.
    let log = t.play_on(
        &[("france", "ASSAULT 1/45e AT 0505 VIA 0506\n"), QUIET],
        &[2, 2, 2, 2, 1, 1, 4, 2, 2],
    );
    assert_has(&log, "A1: mêlée DRM from fire -6.");
}

/// And "+3 for each casualty" the Offensive Fire inflicts: two are +6.
#[test]
fn two_offensive_fire_casualties_move_the_melee_roll_by_plus_six() {
    let mut t = duel("line", "Prussian");
    let log = t.play_on(
        &[("france", "ASSAULT 1/45e AT 0505 VIA 0506\n"), QUIET],
        &[2, 2, 2, 2, 1, 5, 1, 2, 2],
    );
    assert_has(&log, "A1: mêlée DRM from fire +6.");
}

/// A British line that passes its check in a firefight's later round does not Huzzah: the
/// Huzzah is step 5 of the assault's first round, and a firefight goes straight to the
/// Firefight column (its standing HUZZAH ALWAYS notwithstanding).
#[test]
fn no_huzzah_in_a_firefight_round() {
    let mut t = duel("column", "British");
    let first = t.play_on(
        &[
            ("france", "ASSAULT 1/45e AT 0505 VIA 0506\n"),
            ("allies", "OPPORTUNITY FIRE OFF\nHUZZAH ALWAYS\n"),
        ],
        &[2, 2, 2, 2, 1, 1, 1, 2, 2, 2, 2],
    );
    assert_has(&first, "A1: a firefight.");
    let next = t.play_on(&[("allies", "PASS\n")], &[]);
    assert_has(&next, "a firefight fought again on the Firefight column");
    assert_has(&next, "column Firefight; rolled");
    assert!(!has(&next, "Huzzah"), "{next:?}");
    assert!(t.asked().is_none());
}

/// R23: the British Huzzah turns on the assailants they face. A line assaulted from its rear
/// passes its check and faces nobody: no Huzzah, though it stands HUZZAH ALWAYS; facing the
/// assault, the same line Huzzahs (both sides of the condition).
#[test]
fn a_british_line_assaulted_from_its_rear_does_not_huzzah() {
    let play = |facing: &str| {
        let mut t = Table::new(&field(
            &[
                battalion("france", "1/45e", "0506", "N", "column", 4),
                (
                    "allies",
                    "28th-Foot",
                    "line_infantry",
                    "British",
                    "0505",
                    facing,
                    "line",
                    4,
                    8,
                ),
            ],
            "",
        ));
        t.play_on(
            &[
                ("france", "ASSAULT 1/45e AT 0505\n"),
                ("allies", "OPPORTUNITY FIRE OFF\nHUZZAH ALWAYS\n"),
            ],
            &[2, 2, 2, 2, 1, 1, 1, 2, 2],
        )
    };
    let rear = play("N");
    assert_has(&rear, "28th-Foot pass: Defensive Fire doubled");
    assert!(!has(&rear, "Huzzah"), "{rear:?}");
    let front = play("S");
    assert_has(&front, "A1: Huzzah! 28th-Foot turn on their assailants.");
}

/// A routed battalion in the hex does not Huzzah with the line that passed: only fighting
/// units turn on the assailants.
#[test]
fn a_routed_battalion_in_the_hex_does_not_huzzah() {
    let mut t = Table::new(&field(
        &[
            battalion("france", "1/45e", "0506", "N", "column", 4),
            (
                "allies",
                "28th-Foot",
                "line_infantry",
                "British",
                "0505",
                "S",
                "line",
                4,
                8,
            ),
            (
                "allies",
                "30th-Foot",
                "line_infantry",
                "British",
                "0505",
                "S",
                "line",
                2,
                8,
            ),
        ],
        "",
    ));
    t.st.units
        .iter_mut()
        .find(|u| u.name == "30th-Foot")
        .expect("30th")
        .cohesion = Cohesion::Routed;
    let log = t.play_on(
        &[
            ("france", "ASSAULT 1/45e AT 0505\n"),
            ("allies", "OPPORTUNITY FIRE OFF\nHUZZAH ALWAYS\n"),
        ],
        &[2, 2, 2, 2, 1, 1, 1, 2, 2],
    );
    assert_has(&log, "A1: Huzzah! 28th-Foot turn on their assailants.");
}
