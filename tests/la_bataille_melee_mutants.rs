//! The assault fire's casualties on the mêlée roll, and who may Huzzah (seed p.2 steps 4–5;
//! p.3 on firefights; R23). Written for the survivors of the mutation runs of 2026-11-27 in
//! `assault/melee.rs` (mutants/runs.toml): each test fails under one of them.

use despatch::rulesets::la_bataille::state::{Cohesion, Leader};

use crate::lbt::{
    QUIET, Table, assert_has, battalion, british, duel, field, grenadiers, has, two_on_one,
};

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
                british("28th-Foot", "0505", facing, 4),
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
            british("28th-Foot", "0505", "S", 4),
            british("30th-Foot", "0505", "S", 2),
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

const HUZZAH_ALWAYS: (&str, &str) = ("allies", "OPPORTUNITY FIRE OFF\nHUZZAH ALWAYS\n");
const TWO_ASSAULT: (&str, &str) = ("france", "ASSAULT A AT 0505\nASSAULT B AT 0505\n");

/// R23: the tables turn only when every targeted stack fails its Huzzah check. Two targeted,
/// one fails: the French stay the attacker (both failing is the golden test's T-6).
#[test]
fn a_huzzah_that_breaks_one_of_two_attackers_does_not_turn_the_tables() {
    let mut t = two_on_one("British");
    let log = t.play_on(
        &[TWO_ASSAULT, HUZZAH_ALWAYS],
        &[2, 2, 2, 2, 2, 2, 5, 1, 1, 1, 6, 6, 2, 2, 3, 3],
    );
    assert_has(&log, "A1 Huzzah morale check of A in 0506: rolled 6+6");
    assert_has(&log, "A1 Huzzah morale check of B in 0606: rolled 2+2");
    assert_has(&log, "A1: the Huzzah does not turn the tables.");
    assert!(!has(&log, "the British become the attacker"), "{log:?}");
}

/// When the Huzzah turns the tables the fire's casualties count for the British, now the
/// attacker: the mêlée DRM from fire changes sign.
#[test]
fn when_the_huzzah_turns_the_tables_the_fire_drm_changes_sign() {
    let mut t = two_on_one("British");
    let log = t.play_on(
        &[TWO_ASSAULT, HUZZAH_ALWAYS],
        &[2, 2, 2, 2, 2, 2, 5, 1, 1, 6, 6, 6, 6, 6, 1, 1],
    );
    assert_has(&log, "the British become the attacker");
    assert_has(&log, "A1: mêlée DRM from fire -9.");
    assert_has(&log, "rolled 1+1 +9 fire");
}

fn leader(name: &str, side: &str, with: &str, rating: u32) -> Leader {
    Leader {
        name: name.into(),
        side: side.into(),
        with: with.into(),
        rating,
        gone: false,
    }
}

/// R16: the leaders' mêlée modifiers are added for the attacker's and taken away for the
/// defender's: Ney (3, +2) with the column against Picton (1, +1) with the line is +1.
#[test]
fn the_leaders_melee_modifiers_count_for_the_attacker_and_against_the_defender() {
    let mut t = duel("column", "Prussian");
    t.st.leaders = vec![
        leader("Ney", "france", "1/45e", 3),
        leader("Picton", "allies", "28th-Foot", 1),
    ];
    let log = t.play_on(
        &[("france", "ASSAULT 1/45e AT 0505 VIA 0506\n"), QUIET],
        &[2, 2, 2, 2, 1, 1, 1, 2, 2],
    );
    assert_has(&log, "rolled 2+2 +0 fire +1 leaders = 5");
}

/// p.5: an Old Guard Charge that ends in a firefight in the Maneuver Segment is fought again
/// in the coming Mêlée Segment — once: a second blank there waits for the next Mêlée Segment
/// like any firefight.
#[test]
fn an_old_guard_firefight_is_fought_once_more_in_the_coming_melee_segment() {
    let mut t = Table::new(&field(
        &[
            grenadiers("0507"),
            battalion("allies", "28th-Foot", "0505", "S", "line", 3),
        ],
        "",
    ));
    let log = t.play_on(
        &[
            (
                "france",
                "GUARD CHARGE Grenadiers AT 0505 VIA 0506\nIMPETUS AUTO\n",
            ),
            QUIET,
        ],
        &[2, 2, 2, 2, 1, 1, 1, 2, 2, 1, 1, 1, 1, 1, 1, 1, 3, 3],
    );
    assert_has(&log, "A1: a firefight.");
    let turn: Vec<String> = log
        .iter()
        .take_while(|l| !l.contains("the Allies player turn begins"))
        .cloned()
        .collect();
    let again = turn
        .iter()
        .filter(|l| l.contains("a firefight fought again"))
        .count();
    assert_eq!(again, 1, "{turn:#?}");
    assert_has(&turn, "column Firefight; rolled 3+3");
}
