//! Naval Wargame Rules for the Russo-Japanese War (Mike Adams, 2003): grammar, state, resolution, views.
//! This file wires the modules into `engine::Ruleset`; the rules themselves live in the modules.

pub mod campaign;
pub mod checks;
pub mod command;
pub mod damage;
pub mod data;
pub mod gunnery;
pub mod movement;
pub mod numbers;
pub mod orders;
pub mod procedure;
pub mod sample;
pub mod setup;
pub mod state;
pub mod stats;
pub mod turn;
pub mod view;

use crate::engine::procedure::Procedure;
use crate::engine::{
    CarryRefused, Outcome, Rejected, Ruleset, SeatId, SetupRefused, StandingRead, View, Viewer,
};

use state::{NavalState, Orders, Phase};

/// The naval ruleset as the engine sees it.
pub struct NavalRjw;

impl Ruleset for NavalRjw {
    const NAME: &'static str = "naval-rjw";
    type State = NavalState;
    type Orders = Orders;
    type Phase = Phase;

    fn procedure() -> &'static Procedure<Self::State, Self::Orders, Self::Phase> {
        &procedure::SEQUENCE
    }

    fn setup(
        ruleset_toml: &str,
        scenario_toml: &str,
        seats: &[SeatId],
    ) -> Result<NavalState, SetupRefused> {
        setup::new_state(ruleset_toml, scenario_toml, seats)
    }

    fn carry(
        finished: &NavalState,
        next_scenario_toml: &str,
        terms: &toml::Table,
    ) -> Result<String, CarryRefused> {
        campaign::carry(finished, next_scenario_toml, terms)
    }

    fn seats(state: &NavalState) -> Vec<(SeatId, String)> {
        state
            .seat_order
            .iter()
            .map(|s| (s.clone(), s.clone()))
            .collect()
    }

    fn parse(state: &NavalState, seat: &str, text: &str) -> Result<Orders, Vec<Rejected>> {
        orders::parse(state, seat, text)
    }

    fn canonical(orders: &Orders) -> String {
        orders::print(orders)
    }

    fn standing_keywords() -> &'static [&'static str] {
        &["STANDING"]
    }

    fn standing(
        state: &NavalState,
        seat: &str,
        text: &str,
    ) -> Result<StandingRead<NavalState>, Vec<Rejected>> {
        orders::standing(state, seat, text)
    }

    fn view(state: &NavalState, viewer: &Viewer) -> View {
        view::view(state, viewer)
    }

    fn outcome(state: &NavalState) -> Option<Outcome> {
        state.outcome.clone()
    }

    fn victory_figures(state: &NavalState) -> Vec<String> {
        checks::victory_figures(state)
    }

    fn order_keywords() -> Vec<&'static str> {
        orders::keywords()
    }

    fn unit_numbers(state: &NavalState, seat: &str) -> Vec<(String, Vec<String>)> {
        numbers::unit_numbers(state, seat)
    }

    fn looks_like_an_order(state: &Self::State, line: &str) -> bool {
        crate::rulesets::kit::grammar::looks_like_an_order(
            line,
            &orders::keywords(),
            state.ships.iter().map(|x| x.name.as_str()),
        )
    }

    fn sample_orders(state: &NavalState, seat: &str, choice: u64) -> String {
        sample::sample_orders(state, seat, choice)
    }
}
