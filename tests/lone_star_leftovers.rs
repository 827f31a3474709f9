//! Lone Star, issue 28 leftovers: getting on or off the seat's own windwagon under way only
//! with a STOP for it in the same mail (R36), the ambushed modifier by the standing
//! `AMBUSH` path (R47). Orders in the players' own syntax, dice from fixed seeds.

use crate::lone_star_common;

use crate::lone_star_wagons::riding;
use despatch::engine::Ruleset;
use despatch::rulesets::lone_star::LoneStar;
use despatch::rulesets::lone_star::state::{Form, Phase, State};
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

/// The log line of a unit's own attack.
fn attack_line(st: &State, firer: &str) -> String {
    log(st)
        .lines()
        .find(|l| l.starts_with(&format!("{firer} fires at")))
        .unwrap_or_else(|| panic!("{firer} fires: {}", log(st)))
        .to_string()
}

/// The Scouts hidden in the Pecan bottom, the Grenzer and the Sipahi facing them, and Hays
/// holding the last card of the turn with the Scouts' standing ambush of `reach` inches.
fn standing_ambush(reach: &str) -> State {
    let mut st = patrol();
    place(&mut st, "Grenzer", 20.0, 27.0, 90.0, Form::Line);
    place(&mut st, "Sipahi", 20.0, 23.0, 90.0, Form::Line);
    st.unit_mut("Sipahi").mounted = false;
    place(&mut st, "Rangers", 46.0, 2.0, 0.0, Form::Line);
    st.cards = ["bowie", "von-arnim", "enver", "hays"]
        .map(String::from)
        .to_vec();
    st.phase = Phase::Move { card: 3 };
    let mail = format!(
        "STANDING Comanche Scouts AMBUSH {reach}\nHOLD Comanche Scouts\nEXTRA Comanche Scouts NONE"
    );
    step(&st, &[("hays", &mail)], 5)
}

#[test]
fn r47_a_standing_ambush_makes_the_targets_fire_back_ambushed() {
    let placed = standing_ambush("10");
    assert_eq!(placed.phase, Phase::Combat, "{}", log(&placed));
    assert!(
        log(&placed).contains("AMBUSH! Comanche Scouts is placed"),
        "{}",
        log(&placed)
    );
    assert!(!placed.unit("Comanche Scouts").unwrap().hidden);
    // Combat with every seat silent: standing orders and the nearest target.
    let after = step(&placed, &[], 9);
    let scouts = attack_line(&after, "Comanche Scouts");
    assert!(!scouts.contains("ambushed"), "{scouts}");
    let (hit, other) = if scouts.contains("at Grenzer") {
        ("Grenzer", "Sipahi")
    } else {
        assert!(scouts.contains("at Sipahi"), "{scouts}");
        ("Sipahi", "Grenzer")
    };
    // The unit the ambusher fires at returns fire ambushed (−5) ...
    let back = attack_line(&after, hit);
    assert!(back.contains("at Comanche Scouts"), "{back}");
    assert!(back.contains("ambushed -5"), "{back}");
    // ... another unit firing at the ambusher takes no such modifier.
    let side = attack_line(&after, other);
    assert!(side.contains("at Comanche Scouts"), "{side}");
    assert!(!side.contains("ambushed"), "{side}");
    // An ambush distance short of every enemy: the Scouts stay hidden, no one is ambushed.
    let short = standing_ambush("3");
    assert!(!log(&short).contains("AMBUSH!"), "{}", log(&short));
    assert!(short.unit("Comanche Scouts").unwrap().hidden);
    let after = step(&short, &[], 9);
    assert!(!log(&after).contains("ambushed"), "{}", log(&after));
}
