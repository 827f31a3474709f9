//! Last Hundred Yards' sequence of play as data (README "Sequence of play by mail"): the sealed
//! set-up, the activations, the calls for Reaction, the stacking choice, the game's end. What
//! each step asks is here; what it does is in its module (`turn` for the set-up and Phase I,
//! `cycle` for Phase II, `phases` for Phases III–VII and victory), and only this table and its
//! wrappers say which step follows which. Nothing here changes the state except through them.

use crate::dice::Dice;
use crate::engine::procedure::{Next, Procedure, Step, Submissions, nothing_more};
use crate::engine::{Outcome, Prompt, StepSpec};
use crate::rulesets::kit::roster::TwoSides;

use super::cycle::{self, Activated, Calls};
use super::orders::{ACTIVATE_WORDS, REACT_WORDS, SETUP_WORDS, STACKING_WORDS};
use super::state::{LhyState, Orders, Phase};
use super::{checks, phases, reaction, stacking, turn};

/// Every step but the set-up may go on, without mail, through the end of the cycle, the next
/// activation and Phases III–VII into any step of the next turn.
const ANY: &[&str] = &["activation", "call for reaction", "stacking", "game over"];

/// The sequence; `LastHundredYards::procedure` hands it to the engine. No `end_of_turn`:
/// Phases III–VII roll dice (fire and assault resolution, Time Lapse, recombination), which a
/// `TurnEnd` cannot, so they run inside the step whose resolve ends the turn.
pub static SEQUENCE: Procedure<LhyState, Orders, Phase> = Procedure {
    steps: &[
        Step {
            name: "set-up",
            rule: "R20; §5.0 I, R27",
            does: "sealed, both sides at once: keep the mission's positions, or place units in the set-up zone, hide some, place dummies, set facings and standing reactions; then the first game turn's Initiative is rolled (§5.0 I) and the holder is asked to activate",
            keywords: SETUP_WORDS,
            ask: ask_setup,
            resolve: setup,
            then: &["activation", "game over"],
        },
        Step {
            name: "activation",
            rule: "§5.0 II, §6.0 II, §7.1, §7.2, §9.1.1, R29, R32; §5.0 III–VII, R25, R37",
            does: "the active player activates a platoon (ACTIVATE, then its units' actions) and may queue further ACTIVATE blocks, which play without mail while legal; silence activates the first platoon that may go, its units holding (R29). When every platoon has activated, Fire and Assault Resolution, Mortar Fire Adjustment, Time Lapse, Clean Up and the victory check follow without mail, then the next game turn's Initiative",
            keywords: ACTIVATE_WORDS,
            ask: ask_activate,
            resolve: activate,
            then: ANY,
        },
        Step {
            name: "call for reaction",
            rule: "§8.0–8.3, R18, R28, R33",
            does: "after every activation and reaction, calls for Reaction go back and forth until two passes in a row; a side is asked by mail only when a unit of it saw the last enemy action (or must react) and no standing reaction covers it; the active player's answer may carry his next ACTIVATE",
            keywords: REACT_WORDS,
            ask: ask_react,
            resolve: react,
            then: ANY,
        },
        Step {
            name: "stacking",
            rule: "§6.0 II.3, §2.4, R30",
            does: "at Marker Adjustment (Red Motion markers off, Assault Arrows become assaults, hidden units that acted revealed) the owner of a hex over the stacking limits names the units he gives up; the latest arrivals go for those he does not name",
            keywords: STACKING_WORDS,
            ask: ask_stacking,
            resolve: stacking,
            then: ANY,
        },
        Step {
            name: "game over",
            rule: "R25, R37",
            does: "the mission is over",
            keywords: &[],
            ask: ask_game_over,
            resolve: nothing_more,
            then: &[],
        },
    ],
    end_of_turn: None,
    phase: |s| s.phase.clone(),
    name: name_of,
    enter: |s, p| s.phase = p,
    begin: |s| s.log.clear(),
    game_over,
};

fn name_of(p: &Phase) -> &'static str {
    match p {
        Phase::Setup => "set-up",
        Phase::Activate { .. } => "activation",
        Phase::React { .. } => "call for reaction",
        Phase::Stacking { .. } => "stacking",
        Phase::GameOver => "game over",
    }
}

/// The victory check (`phases::victory`) has recorded the outcome and said it; the state
/// rests in its last step.
fn game_over(s: &mut LhyState, o: Outcome) {
    s.outcome = Some(o);
    s.phase = Phase::GameOver;
}

// ---------------------------------------------------------------- the steps

fn setup(s: &mut LhyState, subs: &Submissions<Orders>, dice: &mut Dice) -> Next<Phase> {
    turn::resolve_setup(s, subs);
    new_turn(s, dice)
}

fn activate(s: &mut LhyState, subs: &Submissions<Orders>, dice: &mut Dice) -> Next<Phase> {
    let Phase::Activate { side } = s.phase.clone() else {
        return Next::Again;
    };
    match cycle::resolve_activate(s, &side, subs, dice) {
        Activated::Cycle(true) => calls(s, dice),
        Activated::Cycle(false) => Next::Again,
        Activated::NoBlock => next_activation(s, dice),
        Activated::NoPlatoon => end_of_turn(s, dice),
    }
}

fn react(s: &mut LhyState, subs: &Submissions<Orders>, dice: &mut Dice) -> Next<Phase> {
    let Phase::React { side } = s.phase.clone() else {
        return Next::Again;
    };
    cycle::resolve_react(s, &side, subs, dice);
    calls(s, dice)
}

fn stacking(s: &mut LhyState, subs: &Submissions<Orders>, dice: &mut Dice) -> Next<Phase> {
    let Phase::Stacking { side } = s.phase.clone() else {
        return Next::Again;
    };
    cycle::resolve_stacking(s, &side, subs);
    stacking_or_next(s, dice)
}

// ---------------------------------------------------------------- between the asked steps
// What happens without mail between two steps: the rules run in their modules, and these say
// where the turn goes from what they report. They call each other as the turn goes round
// (a queued activation's cycle ends in the next activation), never a rule module's step.

/// A new game turn: the Initiative Phase, then its first activation.
fn new_turn(s: &mut LhyState, dice: &mut Dice) -> Next<Phase> {
    turn::start_turn(s, dice);
    next_activation(s, dice)
}

/// The active player's next activation: a queued one that still fits plays at once; else he
/// is asked; with no platoon waiting, the turn ends.
fn next_activation(s: &mut LhyState, dice: &mut Dice) -> Next<Phase> {
    let side = s.turn.active.clone();
    if checks::waiting_platoons(s, &side).is_empty() {
        return end_of_turn(s, dice);
    }
    match cycle::take_queued(s, &side) {
        Some(block) => {
            if cycle::activate(s, &side, &block, dice) {
                calls(s, dice)
            } else {
                Next::Again
            }
        }
        None => Next::To(Phase::Activate { side }),
    }
}

/// The calls for Reaction: a side to ask by mail, or Marker Adjustment once both passed.
fn calls(s: &mut LhyState, dice: &mut Dice) -> Next<Phase> {
    match cycle::call_loop(s, dice) {
        Calls::Mail(side) => Next::To(Phase::React { side }),
        Calls::Passed => {
            cycle::marker_adjustment(s);
            stacking_or_next(s, dice)
        }
        Calls::NoCycle => Next::Again,
    }
}

/// After Marker Adjustment or a stacking choice: the next over-stacked side is asked, or the
/// cycle closes and the next activation follows.
fn stacking_or_next(s: &mut LhyState, dice: &mut Dice) -> Next<Phase> {
    match cycle::over_stacked(s) {
        Some(side) => Next::To(Phase::Stacking { side }),
        None => {
            cycle::close_cycle(s);
            next_activation(s, dice)
        }
    }
}

/// Phases III–VII; the mission ends, or the next game turn begins.
fn end_of_turn(s: &mut LhyState, dice: &mut Dice) -> Next<Phase> {
    match phases::end_turn(s, dice) {
        Some(o) => Next::GameOver(o),
        None => new_turn(s, dice),
    }
}

// ---------------------------------------------------------------- what each step asks

/// The seat not asked in an activation or a call for Reaction may still send settings.
fn other_optional(s: &LhyState, side: &str) -> Prompt {
    Prompt::new(
        s.enemy_of(side).unwrap_or_default(),
        "standing",
        "Optional: change your standing reactions (STANDING …, SET REACTIONS …) or declare a FEINT on your Assault Arrow.".into(),
        false,
    )
}

/// Both sides, sealed.
fn ask_setup(s: &LhyState) -> StepSpec {
    StepSpec {
            title: format!("{} — mission set-up", s.scenario),
            prompts: s
                .seat_order
                .iter()
                .map(|x| {
                    Prompt::new(
                        x,
                        "setup",
                        "Set up (sealed): PLACE unit hex, HIDE unit, DUMMY hex, FACE unit dir, standing reactions; or PASS to keep the mission's positions.".into(),
                        true,
                    )
                })
                .collect(),
            sealed: true,
    }
}

/// The active player, for his activation mail.
fn ask_activate(s: &LhyState) -> StepSpec {
    let Phase::Activate { side } = &s.phase else {
        return ask_game_over(s);
    };
    // Only the platoons that may go now (issue 30 point 6); all waiting ones if the
    // rules' order leaves none (then the refusal names who goes first).
    let now = checks::may_activate_now(s, side);
    let waiting = if now.is_empty() {
        checks::waiting_platoons(s, side)
    } else {
        now
    }
    .join(", ");
    StepSpec {
        title: format!(
            "Game turn {} — {} activates",
            s.turn.number,
            s.side_name(side)
        ),
        prompts: vec![
            Prompt::new(
                side,
                "activate",
                format!(
                    "Game turn {}: activate a platoon (ACTIVATE platoon [WITH platoon]) and give its units' actions; may go now: {waiting}. You may queue further ACTIVATE blocks.",
                    s.turn.number
                ),
                true,
            ),
            other_optional(s, side),
        ],
        sealed: false,
    }
}

/// The side the call for Reaction is put to.
fn ask_react(s: &LhyState) -> StepSpec {
    let Phase::React { side } = &s.phase else {
        return ask_game_over(s);
    };
    let mut who = reaction::triggered(s, side);
    who.extend(reaction::mandatory(s, side));
    who.sort();
    who.dedup();
    let active = s.turn.active == *side;
    StepSpec {
        title: format!(
            "Game turn {} — call for Reaction to {}",
            s.turn.number,
            s.side_name(side)
        ),
        prompts: vec![
            Prompt::new(
                side,
                "react",
                format!(
                    "Call for Reaction{}: react with your units ({}) or PASS; units you do not name follow their standing reactions (HOLD unit stops one).{}",
                    {
                        let seen = reaction::seen_actions(s, side);
                        if seen.is_empty() {
                            String::new()
                        } else {
                            format!(" (your units saw: {})", seen.join("; "))
                        }
                    },
                    if who.is_empty() {
                        "optional reactions only".to_string()
                    } else {
                        format!(
                            "these saw the last enemy action or must react: {}",
                            who.join(", ")
                        )
                    },
                    if active {
                        " You may add your next ACTIVATE block in the same mail."
                    } else {
                        ""
                    }
                ),
                true,
            ),
            other_optional(s, side),
        ],
        sealed: false,
    }
}

/// The owner of an over-stacked hex.
fn ask_stacking(s: &LhyState) -> StepSpec {
    let Phase::Stacking { side } = &s.phase else {
        return ask_game_over(s);
    };
    StepSpec {
        title: format!("Game turn {} — stacking", s.turn.number),
        prompts: vec![Prompt::new(
            side,
            "stacking",
            format!(
                "Over-stacked in {}: ELIMINATE the units you give up (or PASS: the latest arrivals go).",
                stacking::over(s, side)
                    .iter()
                    .map(|h| s.name_of(*h))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            true,
        )],
        sealed: false,
    }
}

fn ask_game_over(_: &LhyState) -> StepSpec {
    StepSpec {
        title: "The mission is over".into(),
        prompts: vec![],
        sealed: false,
    }
}
