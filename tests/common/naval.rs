//! Test helpers both naval golden-test files use: the test ruleset, ships in scenario TOML,
//! the seats, and ship lookups on a state.
#![allow(dead_code)]

use despatch::rulesets::naval_rjw::state::{NavalState, Ship};

pub const RULESET: &str = include_str!("../fixtures/naval-test-ruleset.toml");

pub fn ship(name: &str, class: &str, x: f64, y: f64, heading: f64, extra: &str) -> String {
    format!(
        "[[sides.ships]]\nname = \"{name}\"\nclass = \"{class}\"\nx = {x:?}\ny = {y:?}\nheading = {heading:?}\n{extra}\n"
    )
}

pub fn seats() -> Vec<String> {
    vec!["japan".to_string(), "russia".to_string()]
}

pub fn russians_far() -> String {
    [
        ship("Tsesarevich", "BB", 60.0, 40.0, 270.0, ""),
        ship("Retvizan", "BB", 62.0, 40.0, 270.0, ""),
    ]
    .concat()
}

pub fn find<'a>(st: &'a NavalState, name: &str) -> &'a Ship {
    st.ships.iter().find(|s| s.name == name).expect("ship")
}

pub fn find_mut<'a>(st: &'a mut NavalState, name: &str) -> &'a mut Ship {
    st.ships.iter_mut().find(|s| s.name == name).expect("ship")
}

pub fn near(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6
}
