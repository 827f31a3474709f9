//! Last Hundred Yards (GMT): platoon activations and the call-for-reaction loop by mail.
//! This file wires the modules into `engine::Ruleset`; the rules live in the modules.

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

use std::collections::BTreeMap;

use crate::dice::Dice;
use crate::engine::{
    Outcome, Prompt, Rejected, Ruleset, SeatId, StandingRead, StepSpec, Submitted, View, Viewer,
};

use state::{LhyState, Orders, Phase};

/// The Last Hundred Yards ruleset as the engine sees it.
pub struct LastHundredYards;

fn prompt(seat: &str, kind: &str, question: String, required: bool) -> Prompt {
    Prompt {
        seat: seat.to_string(),
        kind: kind.into(),
        question,
        required,
    }
}

/// The prompts of the current step (README "Sequence of play by mail").
pub fn step_spec(s: &LhyState) -> StepSpec {
    let other_optional = |side: &str| {
        prompt(
            &s.enemy_of(side),
            "standing",
            "Optional: change your standing reactions (STANDING …, SET REACTIONS …) or declare a FEINT on your Assault Arrow.".into(),
            false,
        )
    };
    match &s.phase {
        Phase::Setup => StepSpec {
            title: format!("{} — mission set-up", s.scenario),
            prompts: s
                .seat_order
                .iter()
                .map(|x| {
                    prompt(
                        x,
                        "setup",
                        "Set up (sealed): PLACE unit hex, HIDE unit, DUMMY hex, FACE unit dir, standing reactions; or PASS to keep the mission's positions.".into(),
                        true,
                    )
                })
                .collect(),
            sealed: true,
        },
        Phase::Activate { side } => {
            // Only the platoons that may go now (issue 30 point 6); all waiting ones if the
            // rules' order leaves none (then the refusal names who goes first).
            let now = checks::may_activate_now(s, side);
            let waiting = if now.is_empty() { turn::waiting_platoons(s, side) } else { now }.join(", ");
            StepSpec {
                title: format!("Game turn {} — {} activates", s.turn.number, s.side_name(side)),
                prompts: vec![
                    prompt(
                        side,
                        "activate",
                        format!(
                            "Game turn {}: activate a platoon (ACTIVATE platoon [WITH platoon]) and give its units' actions; may go now: {waiting}. You may queue further ACTIVATE blocks.",
                            s.turn.number
                        ),
                        true,
                    ),
                    other_optional(side),
                ],
                sealed: false,
            }
        }
        Phase::React { side } => {
            let mut who = reaction::triggered(s, side);
            who.extend(reaction::mandatory(s, side));
            who.sort();
            who.dedup();
            let active = s.turn.active == *side;
            StepSpec {
                title: format!("Game turn {} — call for Reaction to {}", s.turn.number, s.side_name(side)),
                prompts: vec![
                    prompt(
                        side,
                        "react",
                        format!(
                            "Call for Reaction{}: react with your units ({}) or PASS; units you do not name follow their standing reactions (HOLD unit stops one).{}",
                            {
                                let seen = reaction::seen_actions(s, side);
                                if seen.is_empty() { String::new() } else { format!(" (your units saw: {})", seen.join("; ")) }
                            },
                            if who.is_empty() { "optional reactions only".to_string() } else { format!("these saw the last enemy action or must react: {}", who.join(", ")) },
                            if active { " You may add your next ACTIVATE block in the same mail." } else { "" }
                        ),
                        true,
                    ),
                    other_optional(side),
                ],
                sealed: false,
            }
        }
        Phase::Stacking { side } => StepSpec {
            title: format!("Game turn {} — stacking", s.turn.number),
            prompts: vec![prompt(
                side,
                "stacking",
                format!(
                    "Over-stacked in {}: ELIMINATE the units you give up (or PASS: the latest arrivals go).",
                    stacking::over(s, side).iter().map(|h| s.name_of(*h)).collect::<Vec<_>>().join(", ")
                ),
                true,
            )],
            sealed: false,
        },
        Phase::Over => StepSpec {
            title: "The mission is over".into(),
            prompts: vec![],
            sealed: false,
        },
    }
}

/// Until this ruleset's sequence of play moves onto the table (issue 33 point 1), its own
/// `step` and `resolve` drive it and the table is empty.
static UNTABLED: crate::engine::procedure::Procedure<LastHundredYards> =
    crate::engine::procedure::Procedure {
        steps: &[],
        end_of_turn: None,
        phase: |s| s.phase.clone(),
        name: |_| "",
        enter: |s, p| s.phase = p,
        begin: |_| {},
        game_over: |_, _| {},
    };

impl Ruleset for LastHundredYards {
    const NAME: &'static str = "last-hundred-yards";
    type State = LhyState;
    type Orders = Orders;
    type Phase = Phase;

    fn procedure() -> &'static crate::engine::procedure::Procedure<Self> {
        &UNTABLED
    }

    fn setup(
        ruleset_toml: &str,
        scenario_toml: &str,
        seats: &[SeatId],
    ) -> Result<LhyState, String> {
        scenario::new_state(ruleset_toml, scenario_toml, seats)
    }

    fn carry(
        finished: &LhyState,
        next_scenario_toml: &str,
        terms: &toml::Table,
    ) -> Result<String, String> {
        campaign::carry(finished, next_scenario_toml, terms)
    }

    fn seats(s: &LhyState) -> Vec<(SeatId, String)> {
        s.seat_order
            .iter()
            .map(|x| (x.clone(), x.clone()))
            .collect()
    }

    fn step(s: &LhyState) -> StepSpec {
        step_spec(s)
    }

    fn parse(s: &LhyState, seat: &str, text: &str) -> Result<Orders, Vec<Rejected>> {
        let lines = orders::read(s, seat, text)?;
        let errs = turn::check_mail(s, seat, &lines);
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

    fn resolve(
        s: &LhyState,
        subs: &BTreeMap<SeatId, Submitted<Orders>>,
        dice: &mut Dice,
    ) -> LhyState {
        let mut n = s.clone();
        n.log.clear();
        match n.phase {
            Phase::Setup => turn::resolve_setup(&mut n, subs, dice),
            Phase::Activate { .. } => turn::resolve_activate(&mut n, subs, dice),
            Phase::React { .. } => turn::resolve_react(&mut n, subs, dice),
            Phase::Stacking { .. } => turn::resolve_stacking(&mut n, subs, dice),
            Phase::Over => {}
        }
        n
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
        turn::victory_figures(s)
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
