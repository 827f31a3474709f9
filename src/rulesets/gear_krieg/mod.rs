//! Gear Krieg demo game (Dream Pod 9, DP9-500): grammar, state, resolution, views.
//! This file wires the modules into `engine::Ruleset`; the rules themselves live in the modules.

pub mod activation;
pub mod briefing;
pub mod campaign;
pub mod combat;
pub mod data;
pub mod ground;
pub mod in_force;
pub mod orders;
pub mod procedure;
pub mod roll;
pub mod round;
pub mod sample;
pub mod state;
pub mod stats;
pub mod view;

use crate::engine::procedure::Procedure;
use crate::engine::{
    CarryRefused, Outcome, Rejected, Ruleset, SeatId, SetupRefused, StandingRead, View, Viewer,
};

use state::{GkState, Orders, Phase};

/// The Gear Krieg ruleset as the engine sees it.
pub struct GearKrieg;

impl Ruleset for GearKrieg {
    const NAME: &'static str = "gear-krieg";
    type State = GkState;
    type Orders = Orders;
    type Phase = Phase;

    fn procedure() -> &'static Procedure<Self::State, Self::Orders, Self::Phase> {
        &procedure::SEQUENCE
    }

    fn setup(
        ruleset_toml: &str,
        scenario_toml: &str,
        seats: &[SeatId],
    ) -> Result<GkState, SetupRefused> {
        round::new_state(ruleset_toml, scenario_toml, seats)
    }

    fn carry(
        finished: &GkState,
        next_scenario_toml: &str,
        terms: &toml::Table,
    ) -> Result<String, CarryRefused> {
        campaign::carry(finished, next_scenario_toml, terms)
    }

    fn seats(state: &GkState) -> Vec<(SeatId, String)> {
        state
            .seat_order
            .iter()
            .map(|s| (s.clone(), s.clone()))
            .collect()
    }

    fn parse(state: &GkState, seat: &str, text: &str) -> Result<Orders, Vec<Rejected>> {
        orders::parse(state, seat, text)
    }

    fn canonical(orders: &Orders) -> String {
        orders::print(orders)
    }

    fn standing_keywords() -> &'static [&'static str] {
        orders::STANDING
    }

    fn standing(
        state: &GkState,
        seat: &str,
        text: &str,
    ) -> Result<StandingRead<GkState>, Vec<Rejected>> {
        orders::standing(state, seat, text)
    }

    fn view(state: &GkState, viewer: &Viewer) -> View {
        view::view(state, viewer)
    }

    fn outcome(state: &GkState) -> Option<Outcome> {
        state.outcome.clone()
    }

    fn order_keywords() -> Vec<&'static str> {
        orders::keywords()
    }

    fn victory_figures(state: &GkState) -> Vec<String> {
        round::victory_figures(state)
    }

    fn briefing(state: &GkState, seat: &str) -> Vec<(String, Vec<String>)> {
        briefing::briefing(state, seat)
    }

    fn unit_numbers(state: &GkState, seat: &str) -> Vec<(String, Vec<String>)> {
        briefing::unit_numbers(state, seat)
    }

    fn looks_like_an_order(state: &Self::State, line: &str) -> bool {
        crate::rulesets::kit::grammar::looks_like_an_order(
            line,
            &orders::keywords(),
            state.units.iter().map(|x| x.name.as_str()),
        )
    }

    fn sample_orders(state: &GkState, seat: &str, choice: u64) -> String {
        sample::sample_orders(state, seat, choice)
    }
}
