//! Lone Star, issue 28 leftovers: getting on or off the seat's own windwagon under way only
//! with a STOP for it in the same mail (R36), the ambushed modifier by the standing
//! `AMBUSH` path (R47), and mortar rounds counted on the card (R50). Orders in the players'
//! own syntax, dice from fixed seeds.

use crate::lone_star_common;

use crate::lone_star_wagons::riding;
use despatch::engine::{Ruleset, Viewer};
use despatch::rulesets::lone_star::LoneStar;
use despatch::rulesets::lone_star::combat::{self, Band};
use despatch::rulesets::lone_star::data::Heavy;
use despatch::rulesets::lone_star::state::{Fig, Form, Phase, State};
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
    assert!(
        e.contains("STOP Prairie Schooner"),
        "the hint names the line: {e}"
    );
    // With the STOP, before or after the DISEMBARK line: accepted, and carried out (the wagon
    // moves first and halts, then its passengers get out).
    for mail in [
        "STOP Prairie Schooner\nDISEMBARK Rangers 30,10",
        "DISEMBARK Rangers 30,10\nSTOP Prairie Schooner",
    ] {
        let after = step(&st, &[("bowie", mail)], 2);
        assert!(after.unit(WAGON).unwrap().halted, "{}", log(&after));
        assert_eq!(
            after.unit("Rangers").unwrap().aboard,
            None,
            "{}",
            log(&after)
        );
    }
    // A STOP for another wagon does not count.
    let e = refused(&st, "bowie", "DISEMBARK Rangers 30,10\nSTOP Alamo Battery");
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
        &[(
            "bowie",
            "EMBARK Rangers Prairie Schooner\nSTOP Prairie Schooner",
        )],
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

/// The Rangers of the patrol with their machine gun swapped for a mortar of `rounds`.
fn mortar_rangers(st: &mut State, rounds: u32) {
    let r = st.unit_mut("Rangers");
    for f in r.figures.iter_mut() {
        if matches!(f, Fig::Heavy(_)) {
            *f = Fig::Heavy(Heavy::Mortar);
        }
    }
    r.mortar_rounds = rounds;
}

fn card_of(st: &State) -> String {
    LoneStar::view(st, &Viewer::Seat("hays".into()))
        .sections
        .iter()
        .flat_map(|(_, l)| l.clone())
        .filter(|l| l.contains("Rangers"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn r50_a_mortar_spends_a_round_a_shot_and_out_of_rounds_fights_as_a_trooper_less_one() {
    let mut st = patrol();
    to_combat(&mut st);
    let fire = [("hays", "FIRE Rangers AT Grenzer")];
    let mut shots = Vec::new();
    for rounds in [0, 1, 2] {
        let mut s = st.clone();
        mortar_rangers(&mut s, rounds);
        let before = s.unit("Rangers").unwrap().clone();
        let after = step(&s, &fire, 4);
        let line = attack_line(&after, "Rangers");
        let band = if line.contains("(short)") {
            Band::Short
        } else {
            Band::Long
        };
        let base = combat::strength(&s, &before, band);
        assert!(line.contains(&format!("strength {base}")), "{line}");
        assert_eq!(
            after.unit("Rangers").unwrap().mortar_rounds,
            rounds.saturating_sub(1),
            "{}",
            log(&after)
        );
        let last = log(&after).contains("Rangers's mortar has fired its last round");
        assert_eq!(last, rounds == 1, "{}", log(&after));
        shots.push((band, base));
    }
    // Out of rounds, the team is a trooper less one: less than its own mortar.
    let t = &st.data.figures.trooper;
    let m = &st.data.figures.mortar;
    let (band, empty) = shots[0];
    let (trooper, mortar) = match band {
        Band::Short => (t.short.int(), m.short.int()),
        _ => (t.long.int(), m.long.int()),
    };
    assert_eq!(shots[1].1 - empty, mortar - (trooper - 1), "{shots:?}");
    // Melee spends no round.
    let mut melee = teaching();
    melee_set(&mut melee);
    melee.unit_mut("Rangers").mounted = false;
    melee
        .unit_mut("Rangers")
        .figures
        .push(Fig::Heavy(Heavy::Mortar));
    melee.unit_mut("Rangers").mortar_rounds = 1;
    let after = step(&melee, &[], 4);
    assert!(
        log(&after).contains("Rangers fights Grenzer"),
        "{}",
        log(&after)
    );
    assert_eq!(after.unit("Rangers").unwrap().mortar_rounds, 1);
}

#[test]
fn r50_the_card_counts_mortar_rounds_from_the_scenario() {
    let st = patrol_with(
        "[[unit]]\nname = \"Mortar Section\"\nseat = \"hays\"\narm = \"infantry\"\n\
         troopers = 3\nheavy = \"mortar\"\nmortar_rounds = 2\nleadership = 1\nzeal = 1\n\
         esprit = 1\nmove = 7\nshort = 8\nlong = 30\nat = [34, 20]\nfacing = 270\n",
    );
    let u = st.unit("Mortar Section").unwrap();
    assert_eq!(u.heavy(), Some(Heavy::Mortar));
    assert_eq!(u.mortar_rounds, 2);
    let mut st = patrol();
    mortar_rangers(&mut st, 3);
    assert!(card_of(&st).contains("mortar 3"), "{}", card_of(&st));
    mortar_rangers(&mut st, 0);
    assert!(card_of(&st).contains("mortar out"), "{}", card_of(&st));
}
