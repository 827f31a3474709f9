//! La Bataille's sequence of play as data (README "How a game turn runs"): the phasing
//! player's Maneuver Segment, the questions a procedure puts to one seat on the way (the
//! Cavalry Charge procedure's, and the Mêlée Segment's and assault procedures'), the end of
//! the player turn. What each step asks is here; what it does is in `turn` (the agenda),
//! `segment` and the procedures' modules, and only this table says which step follows which.

use std::collections::BTreeMap;

use crate::dice::Dice;
use crate::engine::procedure::{
    END_OF_TURN, Next, Procedure, Step, Submissions, TurnEnd, nothing_more,
};
use crate::engine::{Prompt, SeatId, StepSpec, Submitted};
use crate::rulesets::kit::roster::TwoSides;

use super::orders::{self, ASSAULT_ANSWERS, CHARGE_ANSWERS, MANEUVER_WORDS};
use super::roll::Roller;
use super::state::{LbState, Orders, Phase};
use super::turn::{self, Stop};
use super::{numbers, segment};

/// After the Maneuver Segment or an answer: a question, the end of the player turn, the end
/// of the battle; the phasing player's Maneuver Segment again only when the agenda halts.
const AFTER_AGENDA: &[&str] = &[
    "charge question",
    "assault question",
    "maneuver",
    END_OF_TURN,
    "game over",
];

/// The sequence; `LaBataille::procedure` hands it to the engine.
pub static SEQUENCE: Procedure<LbState, Orders, Phase> = Procedure {
    steps: &[
        Step {
            name: "maneuver",
            rule: "R1, R4–R9, R17, R18, R21, R26, R37",
            does: "the phasing player's orders are carried out in the order written (moves, facing, formations, assaults with their approach, Old Guard Charges, fire targets); then the cavalry charges are executed and their mêlées resolved, the Fire Segment fires and the Mêlée Segment resolves the assaults due, picked in turn, until a seat must answer a question; the Rally (R20) closes the player turn",
            keywords: MANEUVER_WORDS,
            ask: ask_maneuver,
            resolve: maneuver,
            then: AFTER_AGENDA,
        },
        Step {
            name: "charge question",
            rule: "R12, R19, R28, R29, R30, R32",
            does: "one seat answers the Cavalry Charge procedure: square attempts, a Reaction Charge or Form Up and Stand, a recall, a Retreat Before the Charge, whom a failed recall pursues (silence: no, and the game's choice); the procedure then runs on as after the Maneuver Segment",
            keywords: CHARGE_ANSWERS,
            ask: ask_question,
            resolve: question,
            then: AFTER_AGENDA,
        },
        Step {
            name: "assault question",
            rule: "R9, R10, R12, R21, R23–R25, R30",
            does: "one seat answers the Mêlée Segment or the Infantry Assault and Old Guard Charge procedures: which mêlée next, a Retreat Before Assault, a new assault, a Huzzah, displacement, the impetus path, the Old Guard's exploitation (silence: no, and the game's choice); the procedure then runs on as after the Maneuver Segment",
            keywords: ASSAULT_ANSWERS,
            ask: ask_question,
            resolve: question,
            then: AFTER_AGENDA,
        },
        Step {
            name: "game over",
            rule: "R34",
            does: "the battle is over",
            keywords: &[],
            ask: ask_game_over,
            resolve: nothing_more,
            then: &[],
        },
    ],
    end_of_turn: Some(TurnEnd {
        rule: "R1, R34",
        does: "the end of the player turn, after its Rally: objectives taken; a side with nothing left loses; the other side's player turn, or, after both, the next game turn (cavalry that did not charge rests) or, after the last, victory by points",
        run: end_player_turn,
        then: &["maneuver", "game over"],
    }),
    phase: |s| s.phase.clone(),
    name: name_of,
    enter: |s, p| s.phase = p,
    begin: |s| s.log.clear(),
    game_over: segment::game_over,
};

fn name_of(p: &Phase) -> &'static str {
    match p {
        Phase::Maneuver { .. } => "maneuver",
        Phase::Question { question } if orders::charge_question(&question.kind) => {
            "charge question"
        }
        Phase::Question { .. } => "assault question",
        Phase::GameOver => "game over",
    }
}

fn maneuver(s: &mut LbState, subs: &Submissions<Orders>, dice: &mut Dice) -> Next<Phase> {
    maneuver_with(s, subs, dice)
}

fn question(s: &mut LbState, subs: &Submissions<Orders>, dice: &mut Dice) -> Next<Phase> {
    question_with(s, subs, dice)
}

/// The Maneuver Segment with any roller: every seat's standing orders, the phasing player's
/// orders on the agenda, the agenda run.
fn maneuver_with(s: &mut LbState, subs: &Submissions<Orders>, r: &mut dyn Roller) -> Next<Phase> {
    turn::take_standing(s, subs);
    let Phase::Maneuver { side } = s.phase.clone() else {
        return Next::Again;
    };
    turn::take_orders(s, &side, subs);
    let stop = turn::run(s, r);
    after(s, stop)
}

/// An answer with any roller: every seat's standing orders, the answer kept for the procedure
/// that asked, the agenda run on.
fn question_with(s: &mut LbState, subs: &Submissions<Orders>, r: &mut dyn Roller) -> Next<Phase> {
    turn::take_standing(s, subs);
    let Phase::Question { question } = s.phase.clone() else {
        return Next::Again;
    };
    turn::take_answer(s, &question, subs);
    let stop = turn::run(s, r);
    after(s, stop)
}

/// What comes after the agenda stopped.
fn after(s: &LbState, stop: Stop) -> Next<Phase> {
    match stop {
        Stop::Asked(question) => Next::To(Phase::Question { question }),
        Stop::TurnEnds => Next::EndOfTurn,
        Stop::GameOver(o) => Next::GameOver(o),
        Stop::Halted => Next::To(Phase::Maneuver {
            side: s.phasing.clone(),
        }),
    }
}

/// The end of the player turn (its Rally rolled inside the step that reached it).
fn end_player_turn(s: &mut LbState, _: &mut Dice) -> Next<Phase> {
    segment::end_player_turn(s)
}

/// One step resolved with any roller (the golden tests' scripted dice; the engine's driver
/// takes the protocol's `Dice` only), followed as the engine's driver follows this table.
pub fn resolve_with(
    s: &mut LbState,
    subs: &BTreeMap<SeatId, Submitted<Orders>>,
    r: &mut dyn Roller,
) {
    let p = &SEQUENCE;
    (p.begin)(s);
    let next = match &s.phase {
        Phase::Maneuver { .. } => maneuver_with(s, subs, r),
        Phase::Question { .. } => question_with(s, subs, r),
        Phase::GameOver => Next::Again,
    };
    let next = match next {
        // The turn's end rolls nothing: the table's own step, without the protocol's dice.
        Next::EndOfTurn => segment::end_player_turn(s),
        n => n,
    };
    match next {
        Next::To(phase) => (p.enter)(s, phase),
        Next::GameOver(o) => (p.game_over)(s, o),
        Next::Again | Next::EndOfTurn => {}
    }
}

/// What the seat that may only send standing orders is offered.
fn optional(seat: &str) -> Prompt {
    Prompt {
        seat: seat.to_string(),
        kind: "standing".into(),
        question: "Optional: change your standing orders (HUZZAH ALWAYS, SQUARE ALWAYS, RETREAT BEFORE ASSAULT IF 3:1 …).".into(),
        required: false,
    }
}

/// The phasing player's Maneuver Segment orders; the other seat may send standing orders.
fn ask_maneuver(st: &LbState) -> StepSpec {
    let Phase::Maneuver { side } = &st.phase else {
        return ask_game_over(st);
    };
    // Only the orders the seat's units can take (issue 30 point 5).
    let words = {
        let w = numbers::maneuver_words(st, side);
        match w.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
            Some((last, _)) => last.to_string(),
            None => "no".to_string(),
        }
    };
    StepSpec {
        title: format!("Turn {} — {} Maneuver Segment", st.turn, st.side_name(side)),
        prompts: vec![
            Prompt {
                seat: side.clone(),
                kind: "maneuver".into(),
                question: format!(
                    "Turn {} of {}: your Maneuver Segment. Send {words} orders, or PASS.",
                    st.turn, st.turns,
                ),
                required: true,
            },
            optional(st.enemy_of(side).unwrap_or_default()),
        ],
        sealed: false,
    }
}

/// One question to one seat; the other seat may send standing orders.
fn ask_question(st: &LbState) -> StepSpec {
    let Phase::Question { question } = &st.phase else {
        return ask_game_over(st);
    };
    StepSpec {
        title: format!(
            "Turn {} — a question to the {} player",
            st.turn,
            st.side_name(&question.seat)
        ),
        prompts: vec![
            Prompt {
                seat: question.seat.clone(),
                kind: "question".into(),
                question: format!("{} ({})", question.text, orders::hint(question)),
                required: !question.standing_answers,
            },
            optional(st.enemy_of(&question.seat).unwrap_or_default()),
        ],
        sealed: false,
    }
}

fn ask_game_over(_: &LbState) -> StepSpec {
    StepSpec {
        title: "The battle is over".into(),
        prompts: vec![],
        sealed: false,
    }
}

#[cfg(test)]
mod tests {
    use super::super::state::QKind;
    use super::*;

    /// Each question step's words are exactly the answers of the kinds it asks, and the PASS
    /// of the seat not asked.
    #[test]
    fn question_steps_take_their_kinds_answers() {
        let kinds = [
            QKind::Pick,
            QKind::RetreatBeforeAssault,
            QKind::NewAssault,
            QKind::Huzzah,
            QKind::Square,
            QKind::Recall,
            QKind::Reaction,
            QKind::RetreatBeforeCharge,
            QKind::Displace,
            QKind::Impetus,
            QKind::Pursue,
            QKind::Exploit,
        ];
        for (step, charge) in [(CHARGE_ANSWERS, true), (ASSAULT_ANSWERS, false)] {
            let mut want: Vec<&str> = kinds
                .iter()
                .filter(|k| orders::charge_question(k) == charge)
                .flat_map(|k| orders::answer_words(k).iter().copied())
                .chain(orders::QUIET.iter().copied())
                .collect();
            want.sort_unstable();
            want.dedup();
            let mut have = step.to_vec();
            have.sort_unstable();
            assert_eq!(have, want);
        }
    }
}
