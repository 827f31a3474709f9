//! Last Hundred Yards (GMT): platoon activations and the call-for-reaction loop by mail.
//! This file wires the modules into `engine::Ruleset`; the rules live in the modules and the
//! sequence of play in `procedure`.

pub mod action;
pub mod assault;
pub mod briefing;
pub mod campaign;
pub mod checks;
pub mod concealment;
pub mod cycle;
pub mod data;
pub mod fire;
pub mod los;
pub mod maneuver;
pub mod map;
pub mod numbers;
pub mod orders;
pub mod phases;
pub mod platoon;
pub mod procedure;
pub mod reaction;
pub mod resolution;
pub mod sample;
pub mod scenario;
pub mod setup;
pub mod sight;
pub mod stacking;
pub mod state;
mod text_map;
pub mod turn;
pub mod vehicle;
pub mod view;
pub mod withdraw;

use crate::engine::procedure::Procedure;
use crate::engine::{
    CarryRefused, Outcome, Rejected, Ruleset, SeatId, SetupRefused, StandingRead, View, Viewer,
};

use state::{LhyState, Orders, Phase};

/// The Last Hundred Yards ruleset as the engine sees it.
pub struct LastHundredYards;

impl Ruleset for LastHundredYards {
    const NAME: &'static str = "last-hundred-yards";
    type State = LhyState;
    type Orders = Orders;
    type Phase = Phase;

    fn procedure() -> &'static Procedure<Self::State, Self::Orders, Self::Phase> {
        &procedure::SEQUENCE
    }

    fn setup(
        ruleset_toml: &str,
        scenario_toml: &str,
        seats: &[SeatId],
    ) -> Result<LhyState, SetupRefused> {
        scenario::new_state(ruleset_toml, scenario_toml, seats)
    }

    fn carry(
        finished: &LhyState,
        next_scenario_toml: &str,
        terms: &toml::Table,
    ) -> Result<String, CarryRefused> {
        campaign::carry(finished, next_scenario_toml, terms)
    }

    fn seats(s: &LhyState) -> Vec<(SeatId, String)> {
        s.seat_order
            .iter()
            .map(|x| (x.clone(), x.clone()))
            .collect()
    }

    fn parse(s: &LhyState, seat: &str, text: &str) -> Result<Orders, Vec<Rejected>> {
        let lines = orders::read(s, seat, text)?;
        let errs = checks::check_mail(s, seat, &lines);
        if !errs.is_empty() {
            return Err(errs);
        }
        Ok(lines.into_iter().map(|(_, _, o)| o).collect())
    }

    fn canonical(o: &Orders) -> String {
        orders::print(o)
    }

    fn standing_keywords() -> &'static [&'static str] {
        &["STANDING", "SET"]
    }

    fn standing(
        s: &LhyState,
        seat: &str,
        text: &str,
    ) -> Result<StandingRead<LhyState>, Vec<Rejected>> {
        let (standing, other) = orders::standing_lines(s, seat, text)?;
        let applied = (!standing.is_empty()).then(|| {
            let mut next = s.clone();
            turn::standing_and_settings(&mut next, seat, &standing);
            (next, orders::print(&standing))
        });
        Ok(StandingRead { applied, other })
    }

    fn view(s: &LhyState, viewer: &Viewer) -> View {
        view::view(s, viewer)
    }

    fn outcome(s: &LhyState) -> Option<Outcome> {
        s.outcome.clone()
    }

    fn result_words(s: &LhyState) -> Option<String> {
        s.result.clone()
    }

    fn order_keywords() -> Vec<&'static str> {
        orders::keywords()
    }

    fn victory_figures(s: &LhyState) -> Vec<String> {
        phases::victory_figures(s)
    }

    fn briefing(s: &LhyState, seat: &str) -> Vec<(String, Vec<String>)> {
        briefing::briefing(s, seat)
    }

    fn unit_numbers(s: &LhyState, seat: &str) -> Vec<(String, Vec<String>)> {
        numbers::unit_numbers(s, seat)
    }

    fn looks_like_an_order(s: &LhyState, line: &str) -> bool {
        crate::rulesets::kit::grammar::looks_like_an_order(
            line,
            &orders::keywords(),
            s.units.iter().map(|x| x.name.as_str()),
        )
    }

    fn sample_orders(s: &LhyState, seat: &str, choice: u64) -> String {
        sample::sample_orders(s, seat, choice)
    }
}
