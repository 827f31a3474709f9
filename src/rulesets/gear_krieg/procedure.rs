//! Gear Krieg's sequence of play as data (README "Sequence of play by mail", p.3): Step 1
//! declarations with Step 2's initiative, Step 3's activations one mail at a time with the
//! enemy's "interrupt now?" (R24), Step 4 at the round's end. What each step asks is here;
//! what it does is in `round` (and the acts in `activation`), and only this table says which
//! step follows which.

use crate::dice::Dice;
use crate::engine::procedure::{
    END_OF_TURN, Next, Procedure, Step, Submissions, TurnEnd, nothing_more,
};
use crate::engine::{Prompt, StepSpec};
use crate::rulesets::kit::grammar::tenths;
use crate::rulesets::kit::roster::{Roster, TwoSides};

use super::orders::{self, ACTIVATE_WORDS, DECLARE_WORDS, INTERRUPT_WORDS};
use super::round;
use super::state::{self, GkState, Orders, Phase};

/// The sequence; `GearKrieg::procedure` hands it to the engine.
pub static SEQUENCE: Procedure<GkState, Orders, Phase> = Procedure {
    steps: &[
        Step {
            name: "declarations",
            rule: "p.3 Steps 1–2; R8, R25–R27",
            does: "sealed, both sides: extra Actions, Defensive Maneuvers and in round 1 each unit's initial speed; then the initiative is rolled, Command Points given, and the side chosen in advance activates first",
            keywords: DECLARE_WORDS,
            ask: ask_declare,
            resolve: declare,
            then: &["activation", END_OF_TURN],
        },
        Step {
            name: "activation",
            rule: "p.3 Step 3; R1–R23, R27, R28, R32",
            does: "the side to play activates one unit (its block, else a queued one, else the first unit not yet activated holds); the other side may queue blocks; sides alternate while both have units to activate",
            keywords: ACTIVATE_WORDS,
            ask: ask_activate,
            resolve: activate,
            then: &["activation", "interrupt", END_OF_TURN, "game over"],
        },
        Step {
            name: "interrupt",
            rule: "R24, R27, R28",
            does: "a move stopped where a unit of the enemy's not on overwatch could fire: it fires now or not, may activate out of sequence and set overwatch; then the move goes on",
            keywords: INTERRUPT_WORDS,
            ask: ask_interrupt,
            resolve: interrupt,
            then: &["activation", "interrupt", END_OF_TURN, "game over"],
        },
        Step {
            name: "game over",
            rule: "R28–R30",
            does: "the battle is over",
            keywords: &[],
            ask: ask_game_over,
            resolve: nothing_more,
            then: &[],
        },
    ],
    end_of_turn: Some(TurnEnd {
        rule: "p.3 Step 4; R28–R30, R33",
        does: "Command Points and unspent Actions are lost and saturation zones lift; a side with no unit left loses; at the round limit the victory points decide; else the next round begins",
        run: end_round,
        then: &["declarations", "game over"],
    }),
    phase: |s| s.phase.clone(),
    name: name_of,
    enter: |s, p| s.phase = p,
    begin: |s| s.log.clear(),
    game_over: round::game_over,
};

fn name_of(p: &Phase) -> &'static str {
    match p {
        Phase::Declare => "declarations",
        Phase::Activate { .. } => "activation",
        Phase::Interrupt { .. } => "interrupt",
        Phase::GameOver => "game over",
    }
}

fn declare(s: &mut GkState, subs: &Submissions<Orders>, dice: &mut Dice) -> Next<Phase> {
    round::resolve_declare(s, subs, dice)
}

fn activate(s: &mut GkState, subs: &Submissions<Orders>, dice: &mut Dice) -> Next<Phase> {
    let Phase::Activate { side } = s.phase.clone() else {
        return Next::Again;
    };
    round::resolve_activate(s, side, subs, dice)
}

fn interrupt(s: &mut GkState, subs: &Submissions<Orders>, dice: &mut Dice) -> Next<Phase> {
    let Phase::Interrupt { side, mover } = s.phase.clone() else {
        return Next::Again;
    };
    round::resolve_interrupt(s, side, mover, subs, dice)
}

/// Nobody is asked (the battle is over, or a phase that is not the step's).
fn ask_game_over(_: &GkState) -> StepSpec {
    StepSpec {
        title: "The battle is over".into(),
        prompts: vec![],
        sealed: false,
    }
}

/// Step 1, sealed, both sides; a side that set DECLARATIONS SKIP need not answer.
fn ask_declare(state: &GkState) -> StepSpec {
    StepSpec {
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
                Prompt::new(s, "declare", q, ask)
            })
            .collect(),
        sealed: true,
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

/// Step 3: the side to play is asked for its block; the other side may write (standing orders,
/// queued blocks) but need not.
fn ask_activate(state: &GkState) -> StepSpec {
    let Phase::Activate { side } = &state.phase else {
        return ask_game_over(state);
    };
    let other = state.enemy_of(side).unwrap_or_default().to_string();
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
            Prompt::new(
                side,
                "activate",
                activate_question(state.round, &names, cp, queued.as_ref()),
                !matches!(queued, Some(Ok(_))),
            ),
            Prompt::new(
                &other,
                "standing",
                "Optional: change your standing orders (OVERWATCH…) or queue your next activation."
                    .into(),
                false,
            ),
        ],
        sealed: false,
    }
}

/// "Interrupt now?": the side whose unit could fire at the mover where it stopped (R24).
fn ask_interrupt(state: &GkState) -> StepSpec {
    let Phase::Interrupt { side, mover } = &state.phase else {
        return ask_game_over(state);
    };
    let at = state.unit(mover).map(|u| u.pos);
    StepSpec {
        title: format!("Round {} — interrupt {}?", state.round, mover),
        prompts: vec![Prompt::new(
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

/// Step 4: the round's end (it rolls nothing).
fn end_round(s: &mut GkState, _: &mut Dice) -> Next<Phase> {
    round::end_round(s)
}
