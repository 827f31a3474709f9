//! Shared set pieces of the Lone Star rule tests: the shipped scenarios, one step resolved
//! with players' mails and seeded dice, and placing units for a set piece.
#![allow(dead_code)]

use std::collections::BTreeMap;

use despatch::board::tabletop::Pt;
use despatch::dice::Dice;
use despatch::engine::{Ruleset, Silence, Submitted};
use despatch::rulesets::lone_star::LoneStar;
use despatch::rulesets::lone_star::state::{Form, Phase, State};

pub const RULESET: &str = include_str!("../../games/lone-star/ruleset.toml");
pub const PATROL: &str = include_str!("../../games/lone-star/scenarios/patrol.toml");
pub const TIDAL: &str = include_str!("../../games/lone-star/scenarios/tidal.toml");

pub fn patrol() -> State {
    patrol_with("")
}

/// The club-night scenario with extra scenario text (more units) appended.
pub fn patrol_with(extra: &str) -> State {
    LoneStar::setup(
        RULESET,
        &format!("{PATROL}\n{extra}"),
        &["hays", "bowie", "von-arnim", "enver"].map(String::from),
    )
    .unwrap()
}

pub fn tidal() -> State {
    LoneStar::setup(
        RULESET,
        TIDAL,
        &[
            "hays",
            "travis",
            "smythe",
            "bowie",
            "von-arnim",
            "von-moltke",
            "enver",
            "krupp",
        ]
        .map(String::from),
    )
    .unwrap()
}

/// Resolves the open step with these mails (other prompted seats silent), dice from `seed`.
pub fn step(st: &State, mails: &[(&str, &str)], seed: u8) -> State {
    let spec = LoneStar::step(st);
    let subs: BTreeMap<String, Submitted<_>> = spec
        .prompts
        .iter()
        .map(|p| {
            let sub = match mails.iter().find(|(s, _)| *s == p.seat) {
                Some((s, text)) => Submitted::Orders(
                    LoneStar::parse(st, s, text).unwrap_or_else(|e| panic!("{text}: {e:?}")),
                ),
                None => Submitted::Nmr(Silence::StandingOrders),
            };
            (p.seat.clone(), sub)
        })
        .collect();
    LoneStar::resolve(st, &subs, &mut Dice::new([seed; 32]))
}

/// Puts a unit somewhere, for a set piece.
pub fn place(st: &mut State, name: &str, x: f64, y: f64, facing: f64, form: Form) {
    let u = st.unit_mut(name);
    u.pos = Pt::new(x, y);
    u.facing = facing;
    u.form = form;
}

/// Gives the card to `seat`: the movement step of that seat.
pub fn card_to(st: &mut State, seat: &str) {
    if !st.cards.contains(&seat.to_string()) {
        st.cards = st.seats.iter().map(|s| s.id.clone()).collect();
    }
    let i = st.cards.iter().position(|s| s == seat).unwrap();
    st.phase = Phase::Move { card: i };
}

/// The combat step, with the cards dealt in seat order.
pub fn to_combat(st: &mut State) {
    st.cards = st.seats.iter().map(|s| s.id.clone()).collect();
    st.phase = Phase::Combat;
}

pub fn log(st: &State) -> String {
    st.log
        .iter()
        .map(|l| l.0.clone())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The parse error of a mail, as one text.
pub fn refused(st: &State, seat: &str, text: &str) -> String {
    match LoneStar::parse(st, seat, text) {
        Ok(o) => panic!("{text} was accepted: {o:?}"),
        Err(e) => format!("{e:?}"),
    }
}

/// The two-player teaching game: Rangers against Grenzer at the well.
pub fn teaching() -> State {
    LoneStar::setup(
        RULESET,
        include_str!("../../games/lone-star/scenarios/teaching.toml"),
        &["hays".to_string(), "von-arnim".to_string()],
    )
    .unwrap()
}

/// Sets Grenzer and Rangers in melee, in the combat step (the teaching game's units).
pub fn melee_set(st: &mut State) {
    place(st, "Rangers", 18.0, 12.0, 90.0, Form::Line);
    place(st, "Grenzer", 20.0, 12.0, 270.0, Form::Line);
    st.unit_mut("Rangers").melee = vec!["Grenzer".into()];
    st.unit_mut("Grenzer").melee = vec!["Rangers".into()];
    st.cards = vec!["hays".into(), "von-arnim".into()];
    st.phase = Phase::Combat;
}
