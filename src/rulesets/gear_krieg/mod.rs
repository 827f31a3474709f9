//! Gear Krieg demo game (Dream Pod 9, DP9-500): grammar, state, resolution, views.
//! This file wires the modules into `engine::Ruleset`; the rules themselves live in the modules.

pub mod activation;
pub mod briefing;
pub mod campaign;
pub mod combat;
pub mod data;
pub mod ground;
pub mod orders;
pub mod roll;
pub mod round;
pub mod sample;
pub mod state;
pub mod stats;
pub mod view;

use std::collections::BTreeMap;

use crate::dice::Dice;
use crate::engine::{
    Outcome, Prompt, Rejected, Ruleset, SeatId, StandingRead, StepSpec, Submitted, View, Viewer,
};
use crate::rulesets::kit::grammar::tenths;

use state::{GkState, Orders, Phase};

/// The Gear Krieg ruleset as the engine sees it.
pub struct GearKrieg;

fn prompt(seat: &str, kind: &str, question: String, required: bool) -> Prompt {
    Prompt {
        seat: seat.to_string(),
        kind: kind.into(),
        question,
        required,
    }
}

/// What the side to play is asked. A legal queued block needs no mail: the step locks at once
/// and plays it, so the question must not offer to replace it (it has played by the time the
/// mail is read); a queued block that became illegal is named with the reason.
fn activate_question(
    round: u32,
    names: &[&str],
    cp: u32,
    queued: Option<&Result<state::Block, (String, String)>>,
) -> String {
    match queued {
        Some(Ok(b)) => format!(
            "Round {round}: your queued activation of {} plays at once, without waiting for a mail; the next mail reports it.",
            b.unit
        ),
        Some(Err((unit, why))) => format!(
            "Round {round}: your queued activation of {unit} cannot be played ({why}); activate one of {} ({cp} CP left).",
            names.join(", ")
        ),
        None => format!(
            "Round {round}: activate one of {} ({cp} CP left).",
            names.join(", ")
        ),
    }
}

/// The prompts of the current step (see README "Sequence of play by mail").
pub fn step_spec(state: &GkState) -> StepSpec {
    match &state.phase {
        Phase::Declare => StepSpec {
            title: format!("Round {} — Step 1 declarations", state.round),
            prompts: state
                .seat_order
                .iter()
                .map(|s| {
                    let ask = state.side(s).is_none_or(|x| x.ask_declarations);
                    let mut q = format!(
                        "Round {}, Step 1: declare extra Actions (EXTRA unit n) and Defensive Maneuvers (DEFEND unit), or PASS.",
                        state.round
                    );
                    if state.round == 1 {
                        q.push_str(" Round 1: also each unit's initial speed (SPEED unit STATIONARY|COMBAT|TOP); silence is STATIONARY.");
                    }
                    if !ask {
                        q.push_str(" You set DECLARATIONS SKIP: silence declares nothing.");
                    }
                    prompt(s, "declare", q, ask)
                })
                .collect(),
            sealed: true,
        },
        Phase::Activate { side } => {
            let other = state.enemy_of(side);
            let queued = state.side(side).and_then(|s| orders::queued_head(state, s));
            let names: Vec<&str> = state
                .unactivated(side)
                .iter()
                .map(|u| u.name.as_str())
                .collect();
            let cp = state.side(side).map_or(0, |s| s.cp);
            StepSpec {
                title: format!(
                    "Round {} — {} activates",
                    state.round,
                    state.side_name(side)
                ),
                prompts: vec![
                    prompt(
                        side,
                        "activate",
                        activate_question(state.round, &names, cp, queued.as_ref()),
                        !matches!(queued, Some(Ok(_))),
                    ),
                    prompt(
                        &other,
                        "standing",
                        "Optional: change your standing orders (OVERWATCH…) or queue your next activation.".into(),
                        false,
                    ),
                ],
                sealed: false,
            }
        }
        Phase::Interrupt { side, mover } => {
            let at = state.unit(mover).map(|u| u.pos);
            StepSpec {
                title: format!("Round {} — interrupt {}?", state.round, mover),
                prompts: vec![prompt(
                    side,
                    "interrupt",
                    format!(
                        "{mover} is moving and is now at {}. Interrupt now (INTERRUPT unit FIRE weapon) or NO INTERRUPT; you may add OVERWATCH orders for the rest of its move and your next activation.",
                        at.map_or(String::new(), |p| format!(
                            "{},{}",
                            tenths(p.x),
                            tenths(p.y)
                        ))
                    ),
                    true,
                )],
                sealed: false,
            }
        }
        Phase::GameOver => StepSpec {
            title: "The battle is over".into(),
            prompts: vec![],
            sealed: false,
        },
    }
}

/// Until this ruleset's sequence of play moves onto the table (issue 33 point 1), its own
/// `step` and `resolve` drive it and the table is empty.
static UNTABLED: crate::engine::procedure::Procedure<GearKrieg> =
    crate::engine::procedure::Procedure {
        steps: &[],
        end_of_turn: None,
        phase: |s| s.phase.clone(),
        name: |_| "",
        enter: |s, p| s.phase = p,
        begin: |_| {},
        game_over: |_, _| {},
    };

impl Ruleset for GearKrieg {
    const NAME: &'static str = "gear-krieg";
    type State = GkState;
    type Orders = Orders;
    type Phase = Phase;

    fn procedure() -> &'static crate::engine::procedure::Procedure<Self> {
        &UNTABLED
    }

    fn setup(ruleset_toml: &str, scenario_toml: &str, seats: &[SeatId]) -> Result<GkState, String> {
        round::new_state(ruleset_toml, scenario_toml, seats)
    }

    fn carry(
        finished: &GkState,
        next_scenario_toml: &str,
        terms: &toml::Table,
    ) -> Result<String, String> {
        campaign::carry(finished, next_scenario_toml, terms)
    }

    fn seats(state: &GkState) -> Vec<(SeatId, String)> {
        state
            .seat_order
            .iter()
            .map(|s| (s.clone(), s.clone()))
            .collect()
    }

    fn step(state: &GkState) -> StepSpec {
        step_spec(state)
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

    fn resolve(
        state: &GkState,
        submissions: &BTreeMap<SeatId, Submitted<Orders>>,
        dice: &mut Dice,
    ) -> GkState {
        let mut s = state.clone();
        s.log.clear();
        match s.phase {
            Phase::Declare => round::resolve_declare(&mut s, submissions, dice),
            Phase::Activate { .. } => round::resolve_activate(&mut s, submissions, dice),
            Phase::Interrupt { .. } => round::resolve_interrupt(&mut s, submissions, dice),
            Phase::GameOver => {}
        }
        s
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
