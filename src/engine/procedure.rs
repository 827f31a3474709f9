//! The sequence of play as data: a ruleset lists its steps — a name, the rule each comes from,
//! what it asks, the order words it takes, and a resolve that says what comes next — and the
//! default `Ruleset::step` and `Ruleset::resolve` drive that list. Pure: no clock, disk or
//! network; nothing here knows a ruleset, and no step function decides which step follows
//! another except by the `Next` it returns.

use std::collections::BTreeMap;

use crate::dice::Dice;

use super::step::{Outcome, SeatId, StepSpec, Submitted};

/// The locked submissions a step resolves with, one per prompted seat.
pub type Submissions<O> = BTreeMap<SeatId, Submitted<O>>;

/// The name the trace and the printed sequence give the end of a turn (not a step: nobody is
/// asked there, and it resolves inside the step that ends the turn).
pub const END_OF_TURN: &str = "end of turn";

/// What comes after a step, as its resolve says.
#[derive(Debug, Clone, PartialEq)]
pub enum Next<P> {
    /// The step this phase names, with the phase's own figures (the card, the side asked).
    To(P),
    /// The same phase once more: what it asks has moved on inside the state (the agenda's next
    /// question), or the step resolved nothing (the game is over).
    Again,
    /// The turn is over: the procedure's `end_of_turn` runs and says what begins the next.
    EndOfTurn,
    /// The rules ended the game: the procedure's `game_over` records it.
    GameOver(Outcome),
}

/// A step's rules: run on the locked submissions, they change the state and say what is next.
pub type Resolve<S, O, P> = fn(&mut S, &Submissions<O>, &mut Dice) -> Next<P>;

/// One step of the sequence of play.
pub struct Step<S, O, P> {
    /// Its name as the phase spells it and the printed sequence shows it (`move`, `combat`).
    pub name: &'static str,
    /// The rules it comes from, as the ruleset's README numbers them (`R4–R12`, `§5.1`).
    pub rule: &'static str,
    /// What happens, in the game's words, for HELP and the README.
    pub does: &'static str,
    /// The order words a seat may begin a line with in this step (empty: nobody is asked).
    pub keywords: &'static [&'static str],
    /// Who is asked what now.
    pub ask: fn(&S) -> StepSpec,
    /// The step's rules, run on the locked submissions: changes the state, says what is next.
    pub resolve: Resolve<S, O, P>,
    /// Every step (or `END_OF_TURN`) `resolve` may lead to; the conformance kit checks random
    /// play never leaves this list and that each name in it exists.
    pub then: &'static [&'static str],
}

/// What happens between turns: bookkeeping, the victory test, the first step of the next turn
/// (with the dice of the step that ended the turn: a turn may begin with a roll).
pub struct TurnEnd<S, P> {
    pub rule: &'static str,
    pub does: &'static str,
    pub run: fn(&mut S, &mut Dice) -> Next<P>,
    pub then: &'static [&'static str],
}

/// A ruleset's whole sequence of play, over its state `S`, orders `O` and phase `P` (the
/// ruleset's `State`, `Orders` and `Phase`: `Ruleset::procedure` returns it).
pub struct Procedure<S: 'static, O: 'static, P: 'static> {
    /// In the order the rulebook gives them; the last is the game's end, where nothing is asked.
    pub steps: &'static [Step<S, O, P>],
    /// `None` for a game without turns.
    pub end_of_turn: Option<TurnEnd<S, P>>,
    /// The state's phase (a copy: a ruleset may work it out rather than store it), and the
    /// step a phase names.
    pub phase: fn(&S) -> P,
    pub name: fn(&P) -> &'static str,
    /// Puts the state in a phase.
    pub enter: fn(&mut S, P),
    /// Runs before any step resolves (the last resolution's log cleared, say).
    pub begin: fn(&mut S),
    /// Records the outcome and puts the state in its last step.
    pub game_over: fn(&mut S, Outcome),
}

impl<S: Clone + 'static, O: 'static, P: 'static> Procedure<S, O, P> {
    pub fn step_named(&self, name: &str) -> Option<&Step<S, O, P>> {
        self.steps.iter().find(|s| s.name == name)
    }

    /// The name of the step `state` is in.
    pub fn current(&self, state: &S) -> &'static str {
        (self.name)(&(self.phase)(state))
    }

    /// Who is asked what now. A phase the table does not list (the conformance kit fails on
    /// one) asks nobody, under a title that says so.
    pub fn ask(&self, state: &S) -> StepSpec {
        let name = self.current(state);
        match self.step_named(name) {
            Some(step) => (step.ask)(state),
            None => StepSpec {
                title: format!("(no step `{name}` in the sequence of play)"),
                prompts: Vec::new(),
                sealed: false,
            },
        }
    }

    /// Resolves the step `state` is in, then follows its `Next`.
    pub fn resolve(&self, state: &S, subs: &Submissions<O>, dice: &mut Dice) -> S {
        self.resolve_traced(state, subs, dice).0
    }

    /// `resolve`, and the names passed through: the step resolved, then `END_OF_TURN` if the
    /// turn ended, then the step the state is left in.
    pub fn resolve_traced(
        &self,
        state: &S,
        subs: &Submissions<O>,
        dice: &mut Dice,
    ) -> (S, Vec<&'static str>) {
        let mut s = state.clone();
        (self.begin)(&mut s);
        let from = self.current(&s);
        let mut trace = vec![from];
        if let Some(step) = self.step_named(from) {
            let next = (step.resolve)(&mut s, subs, dice);
            self.follow(&mut s, next, dice, &mut trace);
        }
        trace.push(self.current(&s));
        (s, trace)
    }

    fn follow(&self, s: &mut S, next: Next<P>, dice: &mut Dice, trace: &mut Vec<&'static str>) {
        match next {
            Next::To(p) => (self.enter)(s, p),
            Next::Again => {}
            Next::GameOver(o) => (self.game_over)(s, o),
            Next::EndOfTurn => {
                trace.push(END_OF_TURN);
                let Some(t) = &self.end_of_turn else { return };
                match (t.run)(s, dice) {
                    Next::To(p) => (self.enter)(s, p),
                    Next::GameOver(o) => (self.game_over)(s, o),
                    // A turn's end that ends the turn again, or stays, leaves the state where
                    // it is: the trace shows the repeat and the kit's transition check fails.
                    Next::EndOfTurn => trace.push(END_OF_TURN),
                    Next::Again => {}
                }
            }
        }
    }

    /// Whatever a `then` list names that is neither a step nor the end of a turn this table
    /// has, as `from → to` lines (empty when the table is whole).
    pub fn undeclared(&self) -> Vec<String> {
        let known = |n: &str| {
            self.step_named(n).is_some() || (n == END_OF_TURN && self.end_of_turn.is_some())
        };
        let turn = self.end_of_turn.iter().map(|t| (END_OF_TURN, t.then));
        self.steps
            .iter()
            .map(|s| (s.name, s.then))
            .chain(turn)
            .flat_map(|(from, then)| then.iter().map(move |to| (from, *to)))
            .filter(|(_, to)| !known(to))
            .map(|(from, to)| format!("{from} → {to}"))
            .collect()
    }

    /// Whether `to` may follow `from` as the table declares it.
    pub fn declares(&self, from: &str, to: &str) -> bool {
        if from == END_OF_TURN {
            return self
                .end_of_turn
                .as_ref()
                .is_some_and(|t| t.then.contains(&to));
        }
        self.step_named(from).is_some_and(|s| s.then.contains(&to))
    }

    /// The sequence as HELP and the README print it: one line per step (`Step 1, cards (R1):
    /// …`), then the end of the turn, each with its rule, what it takes and what may follow.
    pub fn sequence(&self) -> Vec<String> {
        let follows = |then: &[&str]| {
            if then.is_empty() {
                String::new()
            } else {
                format!(" Then: {}.", then.join(", "))
            }
        };
        let mut out: Vec<String> = self
            .steps
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let takes = if s.keywords.is_empty() {
                    " Nobody is asked.".to_string()
                } else {
                    format!(" Orders: {}.", s.keywords.join(", "))
                };
                format!(
                    "Step {}, {} ({}): {}.{takes}{}",
                    i + 1,
                    s.name,
                    s.rule,
                    s.does,
                    follows(s.then)
                )
            })
            .collect();
        if let Some(t) = &self.end_of_turn {
            out.push(format!(
                "At the {END_OF_TURN} ({}): {}.{}",
                t.rule,
                t.does,
                follows(t.then)
            ));
        }
        out
    }

    /// The sequence as the ruleset's README holds it: a Markdown list hard-wrapped at `width`
    /// columns (a mail's 72), each entry's lines after the first two spaces in, as a mail lays
    /// out a list item (so no wrapped line of order words stands alone like a heading).
    pub fn sequence_markdown(&self, width: usize) -> String {
        self.sequence()
            .iter()
            .map(|p| wrap(&format!("- {p}"), width, 2))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// `text` hard-wrapped at `width` columns, its lines after the first indented by `hang`.
fn wrap(text: &str, width: usize, hang: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            out.push_str(&line);
            out.push('\n');
            line = " ".repeat(hang);
        } else if !line.is_empty() && !line.ends_with(' ') {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push_str(&line);
    out
}

/// The resolve of the game's last step: nothing happens any more.
pub fn nothing_more<S, O, P>(_: &mut S, _: &Submissions<O>, _: &mut Dice) -> Next<P> {
    Next::Again
}
