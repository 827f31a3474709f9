//! Lone Star's sequence of play as data (README "The turn by mail"): the cards drawn once,
//! movement card by card, sealed combat, the melee's end, prisoners marched and the extra half
//! moves, the turn's end. What each step asks is here; what it does is in its module (`turn`,
//! `march`, `fight`, `melee`), and only this table says which step follows which.

use crate::dice::Dice;
use crate::engine::procedure::{
    END_OF_TURN, Next, Procedure, Step, Submissions, TurnEnd, nothing_more,
};
use crate::engine::{Prompt, StepSpec};

use super::data::Arm;
use super::orders::{COMBAT_WORDS, EXTRA_WORDS, MELEE_END_WORDS, MOVE_WORDS, Orders};
use super::state::{Phase, State, Unit};
use super::{asked, fight, march, melee, turn};

/// The sequence; `LoneStar::procedure` hands it to the engine.
pub static SEQUENCE: Procedure<State, Orders, Phase> = Procedure {
    steps: &[
        Step {
            name: "cards",
            rule: "R1",
            does: "the turn-order cards are drawn once, before turn 1, one die a card, face up",
            keywords: &[],
            ask: ask_cards,
            resolve: draw_cards,
            then: &["movement", "combat"],
        },
        Step {
            name: "movement",
            rule: "R2–R4, R8–R12, R14, R15, R28, R35–R37, R41–R44, R46, R48; L7",
            does: "the seat holding the card moves its units; the next card's seat is asked once it has moved; ambushers are placed after the last (L7)",
            keywords: MOVE_WORDS,
            ask: ask_movement,
            resolve: movement,
            then: &["movement", "combat"],
        },
        Step {
            name: "combat",
            rule: "R5–R7, R16–R18, R25–R34, R38, R39, R47, R50–R52",
            does: "sealed, every seat at once: targets, aim points, prisoners, grenades or gas, reveals; artillery, then grenades, gas, melee and every shot together",
            keywords: COMBAT_WORDS,
            ask: ask_combat,
            resolve: combat,
            then: &["end of melee", "extra movement", END_OF_TURN],
        },
        Step {
            name: "end of melee",
            rule: "R13, R19, R20, R40",
            does: "sealed, seats with units in melee: stay or leave; then prisoners are marched off (R40)",
            keywords: MELEE_END_WORDS,
            ask: ask_melee_end,
            resolve: melee_end,
            then: &["extra movement", END_OF_TURN],
        },
        Step {
            name: "extra movement",
            rule: "R4, L6",
            does: "infantry that neither fired nor was fired on makes a half move, in card order, never into melee",
            keywords: EXTRA_WORDS,
            ask: ask_extra,
            resolve: extra,
            then: &[END_OF_TURN],
        },
        Step {
            name: "game over",
            rule: "R21, R49, R55",
            does: "the battle is over",
            keywords: &[],
            ask: ask_game_over,
            resolve: nothing_more,
            then: &[],
        },
    ],
    end_of_turn: Some(TurnEnd {
        rule: "R21, R49",
        does: "smoke laid the turn before lifts; at the turn limit, or with a side gone, the battle ends",
        run: end_of_turn,
        then: &["movement", "combat", "game over"],
    }),
    phase: |s| s.phase.clone(),
    name: name_of,
    enter: |s, p| s.phase = p,
    begin: |s| s.log.clear(),
    game_over: turn::game_over,
};

fn name_of(p: &Phase) -> &'static str {
    match p {
        Phase::Cards => "cards",
        Phase::Move { .. } => "movement",
        Phase::Combat => "combat",
        Phase::MeleeEnd => "end of melee",
        Phase::Extra => "extra movement",
        Phase::GameOver => "game over",
    }
}

fn end_of_turn(s: &mut State, _: &mut Dice) -> Next<Phase> {
    turn::end_turn(s)
}

fn draw_cards(s: &mut State, _: &Submissions<Orders>, dice: &mut Dice) -> Next<Phase> {
    turn::draw_cards(s, dice)
}

fn movement(s: &mut State, subs: &Submissions<Orders>, dice: &mut Dice) -> Next<Phase> {
    let Phase::Move { card } = s.phase else {
        return Next::Again;
    };
    march::resolve_move(s, card, subs, dice);
    turn::next_mover(s, card + 1)
}

fn combat(s: &mut State, subs: &Submissions<Orders>, dice: &mut Dice) -> Next<Phase> {
    fight::resolve_combat(s, subs, dice);
    if fight::melee_goes_on(s) {
        Next::To(Phase::MeleeEnd)
    } else {
        turn::begin_extra(s)
    }
}

fn melee_end(s: &mut State, subs: &Submissions<Orders>, dice: &mut Dice) -> Next<Phase> {
    melee::resolve_melee_end(s, subs, dice);
    turn::begin_extra(s)
}

fn extra(s: &mut State, subs: &Submissions<Orders>, _: &mut Dice) -> Next<Phase> {
    turn::resolve_extra(s, subs)
}

fn ask_cards(_: &State) -> StepSpec {
    StepSpec {
        title: "The turn-order cards are drawn".into(),
        prompts: vec![],
        sealed: false,
    }
}

fn ask_game_over(_: &State) -> StepSpec {
    StepSpec {
        title: "The battle is over".into(),
        prompts: vec![],
        sealed: false,
    }
}

/// The seat holding the card is asked for its movement mail (one for all its units, R4).
fn ask_movement(state: &State) -> StepSpec {
    let t = state.turn;
    let Phase::Move { card } = &state.phase else {
        return ask_cards(state);
    };
    let seat = &state.cards[*card];
    // An escort marches by itself (R40): the question does not offer it.
    let units: Vec<&Unit> = state
        .seat_units(seat)
        .into_iter()
        .filter(|u| u.escorting == 0)
        .collect();
    let ask: Vec<&str> = units
        .iter()
        .filter(|u| {
            u.may_move()
                && u.melee.is_empty()
                && !u.routing
                && (u.standing.advance.is_none() || u.arm == Arm::Windwagon)
                && !(u.hidden && u.standing.ambush.is_some())
                && u.arm != Arm::Panjandrum
                && u.aboard.is_none()
        })
        .map(|u| u.name.as_str())
        .collect();
    // Only the units that may move now, and only the words they may take (issue 30
    // points 5 and 6): a seat whose units cannot move is offered nothing to move.
    let movers: Vec<&Unit> = units
        .iter()
        .copied()
        .filter(|u| ask.contains(&u.name.as_str()))
        .collect();
    let words = asked::move_words(state, &movers);
    let q = if movers.is_empty() || words.is_empty() {
        format!(
            "Turn {t}, card {} of {}: none of your units may move on this card (in melee, routing, advancing or waiting in ambush by standing orders, aboard, or unable to move); nothing is asked of you, and standing orders cover them.",
            card + 1,
            state.cards.len(),
        )
    } else {
        format!(
            "Turn {t}, card {} of {}: move your units ({}): {}; standing orders cover the rest.",
            card + 1,
            state.cards.len(),
            ask.join(", "),
            asked::listed(&words)
        )
    };
    StepSpec {
        title: format!(
            "Turn {t} — {} moves (card {})",
            state
                .seats
                .iter()
                .find(|s| s.id == *seat)
                .map_or(seat.as_str(), |s| s.name.as_str()),
            card + 1
        ),
        prompts: vec![Prompt::new(seat, "move", q, !ask.is_empty())],
        sealed: false,
    }
}

/// Every seat with units, sealed: only what no standing order or default covers needs an answer.
fn ask_combat(state: &State) -> StepSpec {
    let t = state.turn;
    StepSpec {
                title: format!("Turn {t} — combat (sealed)"),
                prompts: state
                    .seats
                    .iter()
                    .filter(|s| !state.seat_units(&s.id).is_empty())
                    .map(|s| {
                        let qs = turn::combat_questions(state, &s.id);
                        // Nothing to ask is the rules' defaults (R19, R29) as often as standing
                        // orders: a seat that sent none is not told its standing orders cover it.
                        let standing = state.seat_units(&s.id).iter().any(|u| !u.standing.is_empty());
                        let q = if qs.is_empty() && standing {
                            format!("Turn {t} combat: your standing orders and the rules' defaults cover everything; you may still send FIRE, PRISONERS, GAS or REVEAL.")
                        } else if qs.is_empty() {
                            format!("Turn {t} combat: nothing needs your answer: silence fires each unit at the nearest enemy it may shoot (R29); you may still send FIRE, PRISONERS, GAS or REVEAL.")
                        } else {
                            format!("Turn {t} combat, sealed: {}", qs.join(" "))
                        };
                        Prompt::new(&s.id, "combat", q, !qs.is_empty())
                    })
                    .collect(),
                sealed: true,
            }
}

/// Seats with units in melee, sealed: stay or leave (silence stays, R19).
fn ask_melee_end(state: &State) -> StepSpec {
    let t = state.turn;
    StepSpec {
        title: format!("Turn {t} — stay in melee or leave (sealed)"),
        prompts: state
            .seats
            .iter()
            .filter_map(|s| {
                let inm: Vec<&Unit> = state
                    .seat_units(&s.id)
                    .into_iter()
                    .filter(|u| !u.melee.is_empty())
                    .collect();
                if inm.is_empty() {
                    return None;
                }
                let ask = inm.iter().any(|u| u.standing.stay.is_none());
                let names: Vec<&str> = inm.iter().map(|u| u.name.as_str()).collect();
                Some(Prompt::new(
                    &s.id,
                    "melee",
                    format!(
                        "Turn {t}: STAY or LEAVE the melee for {} (silence stays).",
                        names.join(", ")
                    ),
                    ask,
                ))
            })
            .collect(),
        sealed: true,
    }
}

/// Seats with units that may make an extra half move.
fn ask_extra(state: &State) -> StepSpec {
    let t = state.turn;
    StepSpec {
                title: format!("Turn {t} — extra half moves"),
                prompts: state
                    .seats
                    .iter()
                    .filter_map(|s| {
                        let el: Vec<&Unit> = state.seat_units(&s.id).into_iter().filter(|u| turn::needs_extra(u)).collect();
                        if el.is_empty() {
                            return None;
                        }
                        let ask = el.iter().any(|u| u.extra_plan.is_none() && u.standing.extra.is_none());
                        let names: Vec<&str> = el.iter().map(|u| u.name.as_str()).collect();
                        Some(Prompt::new(&s.id, "extra", format!("Turn {t}: extra half move (EXTRA unit x,y or EXTRA unit NONE) for {}; moves go in card order.", names.join(", ")), ask))
                    })
                    .collect(),
                sealed: false,
            }
}
