//! The words of one step between the engine and a ruleset: seats, what a step asks of whom,
//! what a silent seat gets, a locked submission, the outcome. Plain data; it decides nothing.

use serde::Serialize;

/// A seat's id as the journal and the dice protocol spell it (`japan`, `russia`).
pub type SeatId = String;

/// What the engine does when a prompted seat stays silent past the deadline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Silence {
    /// Apply the seat's standing orders (or the ruleset's default), recorded as NMR.
    StandingOrders,
    /// The seat passes: nothing is ordered.
    Pass,
    /// The step waits until the GM acts.
    WaitForGm,
    /// The seat forfeits the game.
    Forfeit,
}

/// A question put to one seat in the current step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Prompt {
    pub seat: SeatId,
    /// Short machine name of the prompt (`setup`, `manoeuvre`, `fire`).
    pub kind: String,
    /// What the seat is asked, in the game's words, for the mail.
    pub question: String,
    /// A required prompt holds the lock until answered (or the deadline passes).
    /// An optional one (covered by standing orders) may be answered but does not hold it.
    pub required: bool,
}

impl Prompt {
    pub fn new(seat: &str, kind: &str, question: String, required: bool) -> Self {
        Self {
            seat: seat.to_string(),
            kind: kind.into(),
            question,
            required,
        }
    }
}

/// The step the game is in: who is asked what, and whether answers are sealed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct StepSpec {
    /// For mails and logs, e.g. `Turn 3 — Japan manoeuvres`.
    pub title: String,
    pub prompts: Vec<Prompt>,
    /// Sealed: no seat sees another's orders before the lock.
    pub sealed: bool,
}

/// How the game stands at the end.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Outcome {
    /// Winning side ids; empty for a draw.
    pub winners: Vec<String>,
    pub summary: String,
}

/// A locked submission as the ruleset receives it.
#[derive(Debug, Clone, PartialEq)]
pub enum Submitted<O> {
    Orders(O),
    /// No move received: the silence policy applies (see `Silence`).
    Nmr(Silence),
}
