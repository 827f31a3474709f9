//! La Bataille (the revised assault and charge procedures, seed `001_d1afed21c8c1fac8`) on a
//! stand-in base game. This file wires the modules into `engine::Ruleset`; the rules live in
//! the modules: the sequence of play in `procedure`, the turn in `turn`, the procedures in
//! `assault`, `charge` and `cavalry`.

pub mod assault;
pub mod campaign;
pub mod cavalry;
pub mod charge;
pub mod combat;
pub mod data;
pub mod decide;
pub mod field;
pub mod maneuver;
pub mod movement;
pub mod numbers;
pub mod orders;
pub mod procedure;
pub mod roll;
pub mod sample;
pub mod segment;
pub mod setup;
pub mod square;
pub mod state;
pub mod turn;
pub mod view;

use crate::engine::procedure::Procedure;
use crate::engine::{
    CarryRefused, Outcome, Rejected, Ruleset, SeatId, SetupRefused, StandingRead, View, Viewer,
};

use state::{LbState, Order, Orders, Phase};

/// The La Bataille ruleset as the engine sees it.
pub struct LaBataille;

impl Ruleset for LaBataille {
    const NAME: &'static str = "la-bataille";
    type State = LbState;
    type Orders = Orders;
    type Phase = Phase;

    fn procedure() -> &'static Procedure<Self::State, Self::Orders, Self::Phase> {
        &procedure::SEQUENCE
    }

    fn setup(
        ruleset_toml: &str,
        scenario_toml: &str,
        seats: &[SeatId],
    ) -> Result<LbState, SetupRefused> {
        setup::new_state(ruleset_toml, scenario_toml, seats)
    }

    /// R39–R43 (`campaign`).
    fn carry(
        finished: &LbState,
        next_scenario_toml: &str,
        terms: &toml::Table,
    ) -> Result<String, CarryRefused> {
        campaign::carry(finished, next_scenario_toml, terms)
    }

    fn seats(st: &LbState) -> Vec<(SeatId, String)> {
        st.seat_order
            .iter()
            .map(|s| (s.clone(), s.clone()))
            .collect()
    }

    fn parse(st: &LbState, seat: &str, text: &str) -> Result<Orders, Vec<Rejected>> {
        orders::parse(st, seat, text)
    }

    fn canonical(o: &Orders) -> String {
        orders::print(o)
    }

    fn standing_keywords() -> &'static [&'static str] {
        orders::STANDING
    }

    fn standing(
        st: &LbState,
        seat: &str,
        text: &str,
    ) -> Result<StandingRead<LbState>, Vec<Rejected>> {
        let (standing, other) = orders::standing(st, seat, text)?;
        if standing.is_empty() {
            return Ok(StandingRead {
                applied: None,
                other,
            });
        }
        let list: Vec<Order> = standing.into_iter().map(Order::Standing).collect();
        let mut next = st.clone();
        turn::apply_standing(&mut next, seat, &list);
        if let Phase::Question { question } = &mut next.phase
            && question.seat == seat
            && orders::covered(question, &list)
        {
            question.standing_answers = true;
        }
        let canonical = orders::print(&Orders {
            grid: st.grid,
            list,
        });
        Ok(StandingRead {
            applied: Some((next, canonical)),
            other,
        })
    }

    fn view(st: &LbState, viewer: &Viewer) -> View {
        view::view(st, viewer)
    }

    fn victory_figures(st: &LbState) -> Vec<String> {
        segment::victory_figures(st)
    }

    fn outcome(st: &LbState) -> Option<Outcome> {
        st.outcome.clone()
    }

    /// The words the outcome's summary ends with (R34): "the Allies win", "a draw".
    fn result_words(st: &LbState) -> Option<String> {
        st.outcome
            .as_ref()
            .map(|o| segment::result_words(st, &o.winners))
    }

    fn order_keywords() -> Vec<&'static str> {
        orders::keywords()
    }

    fn unit_numbers(st: &LbState, seat: &str) -> Vec<(String, Vec<String>)> {
        numbers::unit_numbers(st, seat)
    }

    fn looks_like_an_order(st: &Self::State, line: &str) -> bool {
        crate::rulesets::kit::grammar::looks_like_an_order(
            line,
            &orders::keywords(),
            st.units.iter().map(|x| x.name.as_str()),
        )
    }

    fn sample_orders(st: &LbState, seat: &str, choice: u64) -> String {
        sample::sample_orders(st, seat, choice)
    }
}
