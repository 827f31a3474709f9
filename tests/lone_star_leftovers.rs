//! Lone Star, issue 28 leftovers: getting on or off the seat's own windwagon under way only
//! with a STOP for it in the same mail (R36). Orders in the players' own syntax, dice from
//! fixed seeds.

use crate::lone_star_common;

use crate::lone_star_wagons::riding;
use despatch::engine::Ruleset;
use despatch::rulesets::lone_star::LoneStar;
use despatch::rulesets::lone_star::state::{Form, State};
use lone_star_common::*;

const WAGON: &str = "Prairie Schooner";

/// The wagon under way on its halting third, so a STOP halts it where it stands (R36), and
/// the Rangers given to the wagon's own seat, Bowie, whose card it is.
fn own_wagon_under_way(st: &mut State) {
    st.unit_mut("Rangers").seat = "bowie".into();
    let w = st.unit_mut(WAGON);
    w.halted = false;
    w.last_third = true;
    card_to(st, "bowie");
}

#[test]
fn r36_getting_out_of_ones_own_wagon_under_way_needs_a_stop_in_the_same_mail() {
    let mut st = riding();
    own_wagon_under_way(&mut st);
    let e = refused(&st, "bowie", "DISEMBARK Rangers 30,10");
    assert!(e.contains("no STOP in this mail halts it"), "{e}");
    assert!(e.contains("STOP Prairie Schooner"), "the hint names the line: {e}");
    // With the STOP, before or after the DISEMBARK line: accepted, and carried out (the wagon
    // moves first and halts, then its passengers get out).
    for mail in [
        "STOP Prairie Schooner\nDISEMBARK Rangers 30,10",
        "DISEMBARK Rangers 30,10\nSTOP Prairie Schooner",
    ] {
        let after = step(&st, &[("bowie", mail)], 2);
        assert!(after.unit(WAGON).unwrap().halted, "{}", log(&after));
        assert_eq!(after.unit("Rangers").unwrap().aboard, None, "{}", log(&after));
    }
    // A STOP for another wagon does not count.
    let e = refused(
        &st,
        "bowie",
        "DISEMBARK Rangers 30,10\nSTOP Alamo Battery",
    );
    assert!(e.contains("no STOP in this mail halts it"), "{e}");
    // The wagon halted: no STOP needed (nor allowed).
    st.unit_mut(WAGON).halted = true;
    assert!(LoneStar::parse(&st, "bowie", "DISEMBARK Rangers 30,10").is_ok());
}

#[test]
fn r36_boarding_ones_own_wagon_that_the_same_mail_halts_is_accepted() {
    let mut st = patrol();
    place(&mut st, "Rangers", 40.0, 9.0, 180.0, Form::Column);
    own_wagon_under_way(&mut st);
    let e = refused(&st, "bowie", "EMBARK Rangers Prairie Schooner");
    assert!(e.contains("no STOP in this mail halts it"), "{e}");
    let after = step(
        &st,
        &[("bowie", "EMBARK Rangers Prairie Schooner\nSTOP Prairie Schooner")],
        2,
    );
    assert_eq!(
        after.unit("Rangers").unwrap().aboard.as_deref(),
        Some(WAGON),
        "{}",
        log(&after)
    );
    // Another seat's wagon under way: its STOP is not in this mail; refused line by line.
    let mut other = st.clone();
    other.unit_mut("Rangers").seat = "hays".into();
    card_to(&mut other, "hays");
    let e = refused(&other, "hays", "EMBARK Rangers Prairie Schooner");
    assert!(e.contains("is not halted (R36)"), "{e}");
}
