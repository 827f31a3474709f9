//! Issue 30 points 5 and 6 in Lone Star's movement step: the card holder's prompt names only
//! the units that may move now and only the order words they can take; a seat whose units
//! cannot move is offered nothing to move (the testers' "MOVE, CHARGE, FORM…" to a battery and
//! a halted windwagon).

use crate::lone_star_common;

use despatch::engine::Ruleset;
use despatch::rulesets::lone_star::LoneStar;
use despatch::rulesets::lone_star::state::State;
use lone_star_common::*;

fn question(st: &State, seat: &str) -> String {
    let spec = LoneStar::step(st);
    spec.prompts
        .iter()
        .find(|p| p.seat == seat)
        .map(|p| p.question.clone())
        .unwrap_or_default()
}

/// (units listed, words offered) of a movement prompt.
fn offered(q: &str) -> (Vec<String>, Vec<String>) {
    let Some(rest) = q.split_once("move your units (").map(|(_, r)| r) else {
        return (vec![], vec![]);
    };
    let (units, rest) = rest.split_once("): ").unwrap();
    let words = rest.split_once(';').unwrap().0;
    (
        units.split(", ").map(String::from).collect(),
        words
            .replace(" or ", ", ")
            .split(", ")
            .map(String::from)
            .collect(),
    )
}

/// An order of `word` for `unit`, for the words whose form needs nothing but the unit.
fn probe(st: &State, word: &str, unit: &str) -> Option<String> {
    Some(match word {
        "FORM" => format!("FORM {unit} LINE"),
        "SAIL" => format!("SAIL {unit} 90"),
        "CHARGE" => {
            let u = st.units.iter().find(|u| u.name == unit)?;
            let e = st.enemies_of(u).find(|e| !e.hidden)?;
            format!("CHARGE {unit} {}", e.name)
        }
        "HOLD" | "ENTRENCH" | "MOUNT" | "DISMOUNT" | "STOP" | "SMOKE" => format!("{word} {unit}"),
        _ => return None,
    })
}

#[test]
fn a_battery_and_a_halted_windwagon_are_not_told_to_move_charge_or_form() {
    let mut st = patrol();
    card_to(&mut st, "bowie");
    let q = question(&st, "bowie");
    for never in ["MOVE", "CHARGE", "FORM", "ENTRENCH", "Alamo Battery"] {
        assert!(!q.contains(never), "{never} offered: {q}");
    }
    let (units, words) = offered(&q);
    assert_eq!(units, ["Prairie Schooner"], "{q}");
    assert_eq!(words, ["SAIL", "HOLD"], "{q}");
}

#[test]
fn a_seat_none_of_whose_units_may_move_is_offered_nothing_to_move() {
    let mut st = patrol();
    for u in st.units.iter_mut().filter(|u| u.seat == "hays") {
        u.routing = true;
    }
    card_to(&mut st, "hays");
    let q = question(&st, "hays");
    assert!(q.contains("none of your units may move"), "{q}");
    assert!(!q.contains("MOVE") && !q.contains("HOLD"), "{q}");
}

/// Every word a prompt offers is one the parser takes for one of the units it lists.
#[test]
fn every_word_offered_is_accepted_for_a_unit_listed() {
    for st in [patrol(), tidal()] {
        for seat in st.seats.iter().map(|s| s.id.clone()).collect::<Vec<_>>() {
            let mut st = st.clone();
            card_to(&mut st, &seat);
            let (units, words) = offered(&question(&st, &seat));
            for w in &words {
                let probes: Vec<String> = units.iter().filter_map(|u| probe(&st, w, u)).collect();
                if probes.is_empty() {
                    continue;
                }
                assert!(
                    probes
                        .iter()
                        .any(|p| LoneStar::parse(&st, &seat, p).is_ok()),
                    "{seat}: {w} offered but refused for every unit listed: {probes:?}"
                );
            }
        }
    }
}
