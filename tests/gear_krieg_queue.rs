//! Queued activations (issue 10, point 4) in the players' order syntax: a second queue says it
//! replaced the first; a queued block that became illegal is named with the reason, asked for
//! again, and dropped with the reason in its owner's log only.

use std::collections::BTreeMap;

use despatch::dice::Dice;
use despatch::engine::{Ruleset, Submitted, Viewer};
use despatch::rulesets::gear_krieg::GearKrieg;
use despatch::rulesets::gear_krieg::state::{GkState, Phase};
use despatch::rulesets::kit::roster::{Roster, TwoSides};

const RULESET: &str = include_str!("../games/gear-krieg/ruleset.toml");
const SCENARIO: &str = include_str!("../games/gear-krieg/scenarios/crossroads.toml");

/// Round 1, the US to activate.
fn us_to_play() -> GkState {
    let mut st = GearKrieg::setup(RULESET, SCENARIO, &["us".into(), "germany".into()]).unwrap();
    st.phase = Phase::Activate { side: "us".into() };
    st.to_play = "us".into();
    st
}

fn resolve(st: &GkState, mails: &[(&str, &str)]) -> GkState {
    let mut subs = BTreeMap::new();
    for (seat, text) in mails {
        let o = GearKrieg::parse(st, seat, text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
        subs.insert(seat.to_string(), Submitted::Orders(o));
    }
    GearKrieg::resolve(st, &subs, &mut Dice::new([7; 32]))
}

fn log_of(st: &GkState, seat: &str) -> Vec<String> {
    GearKrieg::view(st, &Viewer::Seat(seat.into())).log
}

#[test]
fn a_second_queue_says_it_replaced_the_first() {
    let st = us_to_play();
    let st = resolve(
        &st,
        &[
            ("germany", "ACTIVATE Valkurie-1\nHOLD\n"),
            ("us", "ACTIVATE General-1\nHOLD\n"),
        ],
    );
    assert!(
        log_of(&st, "germany").iter().any(|l| l
            == "1 activation(s) queued for your next turn(s); they are hidden from the enemy."),
        "{:?}",
        log_of(&st, "germany")
    );
    // The US plays again (as after an out-of-sequence activation): the Germans queue anew.
    let mut st = st;
    st.phase = Phase::Activate { side: "us".into() };
    st.to_play = "us".into();
    let st = resolve(
        &st,
        &[
            ("germany", "ACTIVATE Valkurie-2\nHOLD\n"),
            ("us", "ACTIVATE General-2\nHOLD\n"),
        ],
    );
    let log = log_of(&st, "germany");
    assert!(
        log.iter().any(|l| l
            == "1 activation(s) queued for your next turn(s), replacing the activation(s) queued before (ACTIVATE Valkurie-1); they are hidden from the enemy."),
        "{log:?}"
    );
    let queued: Vec<&str> = st
        .side("germany")
        .unwrap()
        .queued
        .iter()
        .map(|b| b.unit.as_str())
        .collect();
    assert_eq!(queued, ["Valkurie-2"]);
    assert!(
        !log_of(&st, "us").iter().any(|l| l.contains("queued")),
        "the queue is hidden from the enemy"
    );
}

#[test]
fn a_queued_block_that_became_illegal_is_reported_with_the_reason() {
    let st = us_to_play();
    let mut st = resolve(
        &st,
        &[
            ("germany", "ACTIVATE Valkurie-1\nHOLD\n"),
            ("us", "ACTIVATE General-1\nHOLD\n"),
        ],
    );
    assert_eq!(
        st.phase,
        Phase::Activate {
            side: "germany".into()
        }
    );
    // Valkurie-1 was activated meanwhile (as by an out-of-sequence activation).
    st.unit_mut("Valkurie-1").unwrap().activated = true;
    let spec = GearKrieg::step(&st);
    let ask = spec.prompts.iter().find(|p| p.seat == "germany").unwrap();
    assert!(
        ask.required,
        "an illegal queue does not stand in for the mail"
    );
    assert!(
        ask.question.contains(
            "your queued activation of Valkurie-1 cannot be played (Valkurie-1 has already been activated this round); activate one of Valkurie-2"
        ),
        "{}",
        ask.question
    );
    let st = resolve(&st, &[("germany", "ACTIVATE Valkurie-2\nHOLD\n")]);
    let log = log_of(&st, "germany");
    assert!(
        log.iter().any(|l| l
            == "Your queued activation of Valkurie-1 is dropped: Valkurie-1 has already been activated this round."),
        "{log:?}"
    );
    assert!(st.side("germany").unwrap().queued.is_empty());
    assert!(st.unit("Valkurie-2").unwrap().activated);
    assert!(!log_of(&st, "us").iter().any(|l| l.contains("queued")));
}

#[test]
fn a_legal_queue_is_announced_as_playing_at_once() {
    let st = us_to_play();
    let st = resolve(
        &st,
        &[
            ("germany", "ACTIVATE Valkurie-1\nHOLD\n"),
            ("us", "ACTIVATE General-1\nHOLD\n"),
        ],
    );
    let spec = GearKrieg::step(&st);
    let ask = spec.prompts.iter().find(|p| p.seat == "germany").unwrap();
    assert!(!ask.required);
    assert_eq!(
        ask.question,
        "Round 1: your queued activation of Valkurie-1 plays at once, without waiting for a mail; the next mail reports it."
    );
    let st = resolve(&st, &[]);
    assert!(st.unit("Valkurie-1").unwrap().activated);
    assert!(
        log_of(&st, "germany")
            .iter()
            .any(|l| l == "Your queued activation of Valkurie-1 is played.")
    );
}
