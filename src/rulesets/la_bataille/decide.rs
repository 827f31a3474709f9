//! Player decisions at awkward moments: a procedure that needs one takes the answer to the
//! question it asked, or the seat's standing order, or asks by mail (and waits). Silence gets
//! the fixed answers of R30. Nothing here changes a unit; it only answers and asks.

use crate::rulesets::kit::roster::TwoSides;

use super::state::{Answer, Choice, LbState, Phase, Policy, QKind, Question, RecallPolicy};

/// What a procedure did: finished its step, or stopped to wait for an answer by mail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    Done,
    Asked,
}

/// The answer to the open question, if one was given (the procedure that asked takes it).
pub fn take(st: &mut LbState) -> Option<Answer> {
    st.answer.take()
}

/// Puts the question to its seat; the procedure stops until it is answered.
pub fn ask(st: &mut LbState, question: Question) -> Flow {
    let who = st.side_name(&question.seat);
    st.say(format!("The {who} player is asked: {}", question.text));
    st.phase = Phase::Question { question };
    Flow::Asked
}

pub fn question(seat: &str, kind: QKind, text: String, options: Vec<String>) -> Question {
    Question {
        seat: seat.to_string(),
        kind,
        text,
        options,
        count: 0,
        form_up: false,
        standing_answers: false,
    }
}

/// A yes/no standing policy: `Some(answer)` when it decides.
pub fn policy(p: Policy) -> Option<bool> {
    match p {
        Policy::Ask => None,
        Policy::Always => Some(true),
        Policy::Never => Some(false),
    }
}

pub fn auto(c: Choice) -> bool {
    c == Choice::Auto
}

/// Does a recall policy decide, and how, for a target that formed square (`square`) or one
/// that retreated before the charge?
pub fn recall(p: RecallPolicy, square: bool) -> Option<bool> {
    match p {
        RecallPolicy::Ask => None,
        RecallPolicy::Always => Some(true),
        RecallPolicy::Never => Some(false),
        RecallPolicy::IfSquare => Some(square),
    }
}

/// R30: the answer of a seat that stays silent past the deadline. Nothing optional is done:
/// no retreat, no new assault, no Huzzah, no square, no recall, no reaction; choices the
/// ruleset can make (the next mêlée, displacement, impetus, pursuit) are made as `AUTO`.
pub fn silent_answer(q: &Question) -> Answer {
    match q.kind {
        QKind::Pick | QKind::Displace | QKind::Impetus | QKind::Pursue => Answer::Auto,
        QKind::RetreatBeforeAssault | QKind::RetreatBeforeCharge => Answer::Retreat(false),
        QKind::NewAssault => Answer::NewAssault(None),
        QKind::Huzzah => Answer::Huzzah(false),
        QKind::Square => Answer::Square(vec![]),
        QKind::Recall => Answer::Recall(None),
        QKind::Reaction => Answer::React(None),
        QKind::Exploit => Answer::Exploit(vec![]),
    }
}
