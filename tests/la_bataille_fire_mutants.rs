//! The Fire Chart strength of each formation (R18's stand-in factors): a line fires with every
//! increment, a column, a square and skirmishers with half (only the head or the outer face
//! fires), limbered guns not at all. Written for the survivors of the mutation run of
//! 2026-11-27 in `combat/fire.rs` (mutants/runs.toml).

use despatch::rulesets::kit::roster::{Roster, TwoSides};
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

/// A stack of one living battalion (two increments, at 0505) and one that surrendered (still
/// carrying four increments on its counter), three French battalions around; the Allies'
/// count of increments taken starts at `taken_before`.
fn losses_table() -> Table {
    use crate::lbt::battalion;
    Table::new(&field(
        &[
            battalion("allies", "Living", "0505", "S", "line", 2),
            battalion("allies", "Surrendered", "0505", "S", "line", 4),
            battalion("allies", "Far-Friend", "0509", "S", "line", 4),
            battalion("france", "Near-Foe", "0506", "N", "column", 4),
        ],
        "",
    ))
}

fn leader(name: &str, with: &str) -> despatch::rulesets::la_bataille::state::Leader {
    despatch::rulesets::la_bataille::state::Leader {
        name: name.into(),
        side: "allies".into(),
        with: with.into(),
        rating: 2,
        gone: false,
    }
}

/// R14: losses fall on living units only. A surrendered unit's counter still shows
/// increments, but it cannot lose them again: the living one pays (survivor 137:35); and a
/// unit with no increment left takes none (survivor 137:51: it would underflow).
#[test]
fn r14_losses_fall_on_living_units_with_increments_to_lose() {
    let mut t = losses_table();
    t.st.unit_mut("Surrendered").unwrap().eliminated = true;
    let gone = combat::take_losses(&mut t.st, &["Surrendered".into(), "Living".into()], 1);
    assert!(gone.is_empty());
    assert_eq!(
        t.unit("Living").increments,
        1,
        "the living battalion lost one"
    );
    assert_eq!(
        t.unit("Surrendered").increments,
        4,
        "the surrendered one, none"
    );

    t.st.unit_mut("Living").unwrap().increments = 0;
    let gone = combat::take_losses(&mut t.st, &["Living".into()], 1);
    assert!(gone.is_empty());
    assert_eq!(
        t.unit("Living").increments,
        0,
        "nothing to take, nothing taken"
    );
}

/// R16: an eliminated unit's leader rides to the nearest FRIENDLY fighting unit — not to a
/// nearer enemy (survivor 171:52) — and leaders with other units stay where they are
/// (survivor 175:62).
#[test]
fn r16_a_leader_rides_to_the_nearest_friend_and_other_leaders_stay() {
    let mut t = losses_table();
    t.st.leaders = vec![leader("Picton", "Living"), leader("Kempt", "Far-Friend")];
    combat::take_losses(&mut t.st, &["Living".into()], 2);
    assert!(t.unit("Living").eliminated);
    let with = |n: &str| {
        t.st.leaders
            .iter()
            .find(|l| l.name == n)
            .map(|l| (l.with.clone(), l.gone))
            .unwrap()
    };
    // The Surrendered battalion shares the hex but is not eliminated here: it is the nearest
    // friend, at distance 0; Near-Foe is one hex away and French.
    assert_eq!(with("Picton"), ("Surrendered".to_string(), false));
    assert_eq!(
        with("Kempt"),
        ("Far-Friend".to_string(), false),
        "stays with its unit"
    );
    // With no friend in the hex, the nearer enemy still does not take him in.
    let mut t = losses_table();
    t.st.unit_mut("Surrendered").unwrap().eliminated = true;
    t.st.leaders = vec![leader("Picton", "Living")];
    combat::take_losses(&mut t.st, &["Living".into()], 2);
    assert_eq!(
        t.st.leaders[0].with, "Far-Friend",
        "four hexes off, but a friend"
    );
}

/// A surrender credits the enemy with every increment the stack still had, added to what it
/// had taken before (survivor 203:32: `+=` made `*=`).
#[test]
fn a_surrender_adds_the_stacks_increments_to_the_enemys_count() {
    let mut t = losses_table();
    t.st.side_mut("france").unwrap().increments_taken = 2;
    combat::surrender(&mut t.st, &["Living".into(), "Surrendered".into()]);
    assert_eq!(t.st.side("france").unwrap().increments_taken, 2 + 2 + 4);
    assert!(t.unit("Living").eliminated && t.unit("Surrendered").eliminated);
}
