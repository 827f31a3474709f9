//! Shared harness of the Last Hundred Yards tests: a game from the shipped data, mails parsed
//! and resolved as the daemon would, a fixed dice seed per step, and views per seat.
#![allow(dead_code)]

use std::collections::BTreeMap;

use despatch::dice::Dice;
use despatch::engine::{Rejected, Ruleset, Silence, Submitted, Viewer};
use despatch::rulesets::kit::roster::Roster;
use despatch::rulesets::last_hundred_yards::LastHundredYards as Lhy;
use despatch::rulesets::last_hundred_yards::sight;
use despatch::rulesets::last_hundred_yards::state::{LhyState, Orders, Place};

pub const RULESET: &str = include_str!("../../games/last-hundred-yards/ruleset.toml");
pub const PATROL: &str = include_str!("../../games/last-hundred-yards/scenarios/patrol.toml");
pub const BRIDGEHEAD: &str =
    include_str!("../../games/last-hundred-yards/scenarios/bridgehead.toml");

pub fn seats() -> Vec<String> {
    vec!["us".into(), "germany".into()]
}

pub fn game(scenario: &str) -> LhyState {
    Lhy::setup(RULESET, scenario, &seats()).expect("setup")
}

pub fn seed(k: u64, salt: u64) -> [u8; 32] {
    let mut s = [0u8; 32];
    s[..8].copy_from_slice(&k.to_be_bytes());
    s[8..16].copy_from_slice(&salt.to_be_bytes());
    s
}

pub fn parse(st: &LhyState, seat: &str, text: &str) -> Result<Orders, Vec<Rejected>> {
    Lhy::parse(st, seat, text)
}

/// Resolves the open step with these mails (seats not given: silent, standing orders).
pub fn step(st: &LhyState, mails: &[(&str, &str)], salt: u64) -> LhyState {
    let spec = Lhy::step(st);
    let mut subs = BTreeMap::new();
    for (seat, text) in mails {
        let o = parse(st, seat, text).unwrap_or_else(|e| panic!("{seat}: {text}\n{e:#?}"));
        subs.insert(seat.to_string(), Submitted::Orders(o));
    }
    for p in &spec.prompts {
        subs.entry(p.seat.clone())
            .or_insert(Submitted::Nmr(Silence::StandingOrders));
    }
    let mut dice = Dice::new(seed(st.serial as u64 + st.turn.number as u64 * 1000, salt));
    Lhy::resolve(st, &subs, &mut dice)
}

/// Every text a seat may read now: log, sections, board and the map.
pub fn seen(st: &LhyState, seat: &str) -> String {
    let v = Lhy::view(st, &Viewer::Seat(seat.into()));
    serde_json::to_string(&v).unwrap()
}

pub fn log(st: &LhyState, seat: &str) -> String {
    Lhy::view(st, &Viewer::Seat(seat.into())).log.join("\n")
}

pub fn hex(st: &LhyState, s: &str) -> despatch::board::hex::Hex {
    st.map.grid().parse_hex(s).unwrap()
}

/// The patrol game with only `watcher` left of the Germans, in open ground at 0305, and the
/// US squad A1-1 at 0307, two hexes from it in clear sight.
pub fn face_to_face(watcher: &str) -> LhyState {
    let mut st = game(PATROL);
    for u in st.units.iter_mut() {
        if u.side == "germany" && u.name != watcher {
            u.place = Place::Eliminated;
        }
    }
    let (g, a) = (hex(&st, "0305"), hex(&st, "0307"));
    st.unit_mut(watcher).unwrap().at = g;
    st.unit_mut(watcher).unwrap().hidden = false;
    st.unit_mut("A1-1").unwrap().at = a;
    let w = st.unit(watcher).unwrap().clone();
    assert!(sight::sees(&st, &w, a), "clear sight from 0305 to 0307");
    st
}
