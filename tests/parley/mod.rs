//! "Parley", a test-only ruleset for the league tests: two seats each send `HOLD` or `YIELD`
//! once, and the engine's outcome decides the game — one holder wins, two holders (or two
//! yielders) draw. It lets a league test end games in a win, a loss and a draw through the
//! real engine and daemon, with the players' own order syntax, without faking any result.
#![allow(dead_code)]

use std::collections::BTreeMap;

use despatch::dice::Dice;
use despatch::engine::procedure::{Next, Procedure, Step, Submissions, nothing_more};
use despatch::engine::{
    Outcome, Prompt, Rejected, Ruleset, SeatId, SetupRefused, StepSpec, Submitted, View, Viewer,
};
use serde::{Deserialize, Serialize};

pub struct Parley;

/// One sealed step of terms, then the end.
static SEQUENCE: Procedure<State, bool, bool> = Procedure {
    steps: &[
        Step {
            name: "terms",
            rule: "P1",
            does: "each seat holds or yields, sealed",
            keywords: &["HOLD", "YIELD"],
            ask: terms,
            resolve: said,
            then: &["game over"],
        },
        Step {
            name: "game over",
            rule: "P2",
            does: "one holder wins; two holders or two yielders draw",
            keywords: &[],
            ask: terms,
            resolve: nothing_more,
            then: &[],
        },
    ],
    end_of_turn: None,
    phase: |s| s.done,
    name: |done| if *done { "game over" } else { "terms" },
    enter: |_, _| {},
    begin: |_| {},
    game_over: |_, _| {},
};

fn terms(state: &State) -> StepSpec {
    StepSpec {
        title: "Terms".into(),
        prompts: if state.done {
            vec![]
        } else {
            state
                .seats
                .iter()
                .map(|s| Prompt {
                    seat: s.clone(),
                    kind: "terms".into(),
                    question: "HOLD or YIELD?".into(),
                    required: true,
                })
                .collect()
        },
        sealed: true,
    }
}

fn said(next: &mut State, subs: &Submissions<bool>, _: &mut Dice) -> Next<bool> {
    for s in next.seats.clone() {
        let word = match subs.get(&s) {
            Some(Submitted::Orders(true)) => "HOLD",
            Some(Submitted::Orders(false)) => "YIELD",
            _ => "silent",
        };
        next.said.insert(s, word.into());
    }
    next.done = true;
    Next::Again
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub seats: Vec<String>,
    /// Each seat's word once the step is resolved (`HOLD`, `YIELD`, or `silent`).
    pub said: BTreeMap<String, String>,
    pub done: bool,
}

/// The ruleset folder a test's games_dir needs: `parley/ruleset.toml` and one scenario.
pub fn write_games_dir(dir: &std::path::Path) {
    let r = dir.join("parley");
    std::fs::create_dir_all(r.join("scenarios")).unwrap();
    std::fs::write(r.join("ruleset.toml"), "# Parley: no data.\n").unwrap();
    std::fs::write(
        r.join("scenarios/duel.toml"),
        "# Two seats, one word each.\n",
    )
    .unwrap();
}

impl Ruleset for Parley {
    const NAME: &'static str = "parley";
    type State = State;
    type Orders = bool;
    /// Whether the terms are said (worked out from the state).
    type Phase = bool;

    fn procedure() -> &'static Procedure<Self::State, Self::Orders, Self::Phase> {
        &SEQUENCE
    }

    fn setup(_: &str, _: &str, seats: &[SeatId]) -> Result<State, SetupRefused> {
        if seats.len() != 2 {
            return Err(SetupRefused::Seats("parley needs two seats".into()));
        }
        Ok(State {
            seats: seats.to_vec(),
            said: BTreeMap::new(),
            done: false,
        })
    }

    fn seats(state: &State) -> Vec<(SeatId, String)> {
        state.seats.iter().map(|s| (s.clone(), s.clone())).collect()
    }

    fn parse(_: &State, _: &str, text: &str) -> Result<bool, Vec<Rejected>> {
        match text.trim() {
            "HOLD" => Ok(true),
            "YIELD" => Ok(false),
            other => Err(vec![Rejected {
                line: 1,
                text: other.into(),
                reason: "write HOLD or YIELD".into(),
                hint: Some("HOLD".into()),
            }]),
        }
    }

    fn canonical(hold: &bool) -> String {
        if *hold { "HOLD\n" } else { "YIELD\n" }.into()
    }

    fn order_keywords() -> Vec<&'static str> {
        vec!["HOLD", "YIELD"]
    }

    fn view(state: &State, viewer: &Viewer) -> View {
        View {
            viewer: viewer.clone(),
            scenario: "Parley".into(),
            turn: "Terms".into(),
            log: state
                .said
                .iter()
                .map(|(s, w)| format!("{s} said {w}."))
                .collect(),
            board: vec![],
            sections: vec![],
            data: serde_json::Value::Null,
            map: None,
        }
    }

    fn outcome(state: &State) -> Option<Outcome> {
        if !state.done {
            return None;
        }
        let holders: Vec<String> = state
            .seats
            .iter()
            .filter(|s| state.said[*s] == "HOLD")
            .cloned()
            .collect();
        Some(if holders.len() == 1 {
            Outcome {
                summary: format!("{} held firm and wins.", holders[0]),
                winners: holders,
            }
        } else {
            Outcome {
                winners: vec![],
                summary: "neither side prevailed: a draw.".into(),
            }
        })
    }

    fn sample_orders(_: &State, _: &str, choice: u64) -> String {
        if choice.is_multiple_of(2) {
            "HOLD\n"
        } else {
            "YIELD\n"
        }
        .into()
    }
}
