//! Gear Krieg test helpers shared by the ruling tests: Crossroads set up (with the shipped
//! ruleset or one with a value changed), units placed, one step resolved with seeded dice
//! returning the dice drawn, and the log read back.
#![allow(dead_code)]

use std::collections::BTreeMap;

use despatch::board::tabletop::Pt;
use despatch::dice::{Dice, Roll};
use despatch::engine::{Ruleset, Submitted};
use despatch::rulesets::gear_krieg::GearKrieg;
use despatch::rulesets::gear_krieg::state::{GkState, Phase};
use despatch::rulesets::kit::roster::Roster;

pub const RULESET: &str = include_str!("../../games/gear-krieg/ruleset.toml");
pub const SCENARIO: &str = include_str!("../../games/gear-krieg/scenarios/crossroads.toml");

pub fn new_game() -> GkState {
    GearKrieg::setup(RULESET, SCENARIO, &["us".into(), "germany".into()]).unwrap()
}

/// Crossroads played with `ruleset` (the shipped one, or one with a value changed to show
/// which value a rule reads), `side` to activate.
pub fn activating_with(ruleset: &str, side: &str) -> GkState {
    let mut st = GearKrieg::setup(ruleset, SCENARIO, &["us".into(), "germany".into()]).unwrap();
    st.phase = Phase::Activate { side: side.into() };
    st.to_play = side.into();
    st
}

pub fn activating(side: &str) -> GkState {
    activating_with(RULESET, side)
}

pub fn place(st: &mut GkState, name: &str, x: f64, y: f64, heading: f64) {
    let u = st.unit_mut(name).unwrap();
    u.pos = Pt::new(x, y);
    u.heading = heading;
}

/// Resolves one step with the mails given and the dice of seed `k`; returns the new state and
/// the dice drawn, so that expectations come from the dice shown.
pub fn play(st: &GkState, mails: &[(&str, &str)], k: u64) -> (GkState, Vec<Roll>) {
    let mut subs = BTreeMap::new();
    for (seat, text) in mails {
        let o = GearKrieg::parse(st, seat, text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
        subs.insert(seat.to_string(), Submitted::Orders(o));
    }
    let mut seed = [0u8; 32];
    seed[..8].copy_from_slice(&k.to_be_bytes());
    let mut dice = Dice::new(seed);
    let next = GearKrieg::resolve(st, &subs, &mut dice);
    (next, dice.table().to_vec())
}

/// The faces of the roll drawn under `label`.
pub fn faces(rolls: &[Roll], label: &str) -> Vec<u32> {
    rolls
        .iter()
        .find(|r| r.label == label)
        .unwrap_or_else(|| panic!("no roll {label:?} in {rolls:?}"))
        .results
        .clone()
}

/// The log lines starting with `start`.
pub fn lines(st: &GkState, start: &str) -> Vec<String> {
    st.log
        .iter()
        .map(|l| l.text.clone())
        .filter(|t| t.starts_with(start))
        .collect()
}

/// The first log line starting with `start`.
pub fn line(st: &GkState, start: &str) -> String {
    lines(st, start)
        .into_iter()
        .next()
        .unwrap_or_else(|| panic!("no line {start:?} in {:?}", st.log))
}
