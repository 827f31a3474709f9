//! The naval game's sequence of play as data (README "Sequence of play", R23): the sealed
//! set-up once, then player turns of two steps, the active side's manoeuvre mail and the sealed
//! fire step (the victory test and the next side's Command Points end it). What each step asks
//! is here; what it does is in `setup` and `turn` (and the acts in `movement` and `gunnery`),
//! and only this table says which step follows which.
//!
//! There is no `end_of_turn`: the turn ends inside the fire step because the next side's CP
//! roll (step 1) needs the dice, which a turn's end is not given.

use crate::dice::Dice;
use crate::engine::procedure::{Next, Procedure, Step, Submissions, nothing_more};
use crate::engine::{Prompt, StepSpec};
use crate::rulesets::kit::grammar::num;
use crate::rulesets::kit::roster::TwoSides;

use super::orders::{FIRE_WORDS, MANOEUVRE_WORDS, SETUP_WORDS};
use super::state::{NavalState, Orders, Phase};
use super::turn::has_standing;
use super::{setup, stats, turn};

/// The sequence; `NavalRjw::procedure` hands it to the engine.
pub static SEQUENCE: Procedure<NavalState, Orders, Phase> = Procedure {
    steps: &[
        Step {
            name: "set-up",
            rule: "R21, R23, R26",
            does: "sealed, both sides, once: flagship, second-in-command and pre-game minefields; the scouting roll decides who moves first, and that side's Command Points are rolled",
            keywords: SETUP_WORDS,
            ask: ask_setup,
            resolve: setup_step,
            then: &["manoeuvre"],
        },
        Step {
            name: "manoeuvre",
            rule: "steps 2–4; R8, R13–R19, R23, R25–R28",
            does: "one mail from the active side: repairs, manoeuvres and halts, optionally its fire plan and smoke; then the compulsory moves and any minefield attacks",
            keywords: MANOEUVRE_WORDS,
            ask: ask_manoeuvre,
            resolve: manoeuvre,
            then: &["fire"],
        },
        Step {
            name: "fire",
            rule: "steps 5–7 and the next turn's step 1; R9, R10, R12, R19, R22–R24, R33",
            does: "sealed: the non-active side's fire plan, and the active side's if not given yet; the non-active side fires first, then the active side; its own hit markers come off; a defeat or the turn limit ends the battle, else the other side's Command Points are rolled and it manoeuvres",
            keywords: FIRE_WORDS,
            ask: ask_fire,
            resolve: fire,
            then: &["manoeuvre", "game over"],
        },
        Step {
            name: "game over",
            rule: "R9, R33",
            does: "the battle is over",
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
    game_over: turn::game_over,
};

fn name_of(p: &Phase) -> &'static str {
    match p {
        Phase::Setup => "set-up",
        Phase::Manoeuvre => "manoeuvre",
        Phase::Fire => "fire",
        Phase::GameOver => "game over",
    }
}

fn setup_step(s: &mut NavalState, subs: &Submissions<Orders>, dice: &mut Dice) -> Next<Phase> {
    setup::resolve_setup(s, subs, dice)
}

fn manoeuvre(s: &mut NavalState, subs: &Submissions<Orders>, dice: &mut Dice) -> Next<Phase> {
    turn::manoeuvre(s, subs, dice);
    Next::To(Phase::Fire)
}

fn fire(s: &mut NavalState, subs: &Submissions<Orders>, dice: &mut Dice) -> Next<Phase> {
    if !turn::fire(s, subs, dice) {
        return Next::Again;
    }
    if let Some(o) = turn::judge(s) {
        return Next::GameOver(o);
    }
    turn::next_turn(s, dice);
    Next::To(Phase::Manoeuvre)
}

fn ask_game_over(_: &NavalState) -> StepSpec {
    StepSpec {
        title: "The battle is over".into(),
        prompts: vec![],
        sealed: false,
    }
}

/// Both seats, sealed: nominations and pre-game minefields (silence keeps the scenario's).
fn ask_setup(state: &NavalState) -> StepSpec {
    StepSpec {
        title: format!("{}: set-up", state.scenario_name),
        prompts: state
            .seat_order
            .iter()
            .map(|s| Prompt {
                seat: s.clone(),
                kind: "setup".into(),
                question: format!(
                    "Set-up: {} nominates a flagship and a second-in-command (silence keeps {} and {}), \
                     and may place up to {} genuine minefield(s) with up to {} dummies each.",
                    state.side_name(s),
                    stats::fleet(state, s).and_then(|f| f.flagship.clone()).unwrap_or_default(),
                    stats::fleet(state, s).and_then(|f| f.second.clone()).unwrap_or_default(),
                    num(state.data.rules.pregame_genuine_max.get()),
                    num(state.data.rules.dummies_per_genuine.get()),
                ),
                required: true,
            })
            .collect(),
        sealed: true,
    }
}

/// The active side's one mail for steps 2–4 (its CP rolled and reported before).
fn ask_manoeuvre(state: &NavalState) -> StepSpec {
    let a = &state.active;
    let mut q = format!(
        "Turn {}: {} has {} CP. Orders for repair, manoeuvre and halts; you may add your fire plan.",
        state.turn,
        state.side_name(a),
        state.cp_left
    );
    if let Some(f) = stats::fleet(state, a)
        && !f.rescue_owed.is_empty()
    {
        q.push_str(&format!(
            " Survivors of {} wait for rescue (RESCUE wreck WITH ship).",
            f.rescue_owed.join(", ")
        ));
    }
    StepSpec {
        title: format!("Turn {} — {} manoeuvres", state.turn, state.side_name(a)),
        prompts: vec![Prompt {
            seat: a.clone(),
            kind: "manoeuvre".into(),
            question: q,
            required: true,
        }],
        sealed: true,
    }
}

/// Sealed: the non-active side's fire plan, and the active side's unless it came with the
/// manoeuvre orders; a side with standing fire orders need not answer (R23).
fn ask_fire(state: &NavalState) -> StepSpec {
    let a = state.active.clone();
    let n = state.enemy_of(&a).unwrap_or_default().to_string();
    let mut prompts = vec![Prompt {
        seat: n.clone(),
        kind: "fire".into(),
        question: format!(
            "Turn {}: {} fires first. Declare your fire plan (targets, supports, smoke){}.",
            state.turn,
            state.side_name(&n),
            if has_standing(state, &n) {
                "; silence applies your standing fire orders"
            } else {
                ""
            }
        ),
        required: !has_standing(state, &n),
    }];
    if state.pending_fire.is_none() {
        prompts.push(Prompt {
            seat: a.clone(),
            kind: "fire".into(),
            question: format!(
                "Turn {}: {} fires second. Declare your fire plan (targets, supports, smoke){}.",
                state.turn,
                state.side_name(&a),
                if has_standing(state, &a) {
                    "; silence applies your standing fire orders"
                } else {
                    ""
                }
            ),
            required: !has_standing(state, &a),
        });
    }
    StepSpec {
        title: format!("Turn {} — gunnery", state.turn),
        prompts,
        sealed: true,
    }
}
