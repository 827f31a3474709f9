//! "Bids", a toy third ruleset that lives entirely in the tests: it proves a new ruleset is its
//! own two folders (this one and `tests/fixtures/games/bids/`) plus one registry line, and that
//! it passes the conformance kit. Three seats on two sides (as Lone Star has several players a
//! side), sealed simultaneous bids, an optional prompt, a hidden per-seat reserve, and a
//! standing cap on a seat's bids that any mail may set (`STANDING CAP n`, rulings SO1–SO4).

use std::collections::BTreeMap;

use despatch::dice::{Dice, Faces};
use despatch::engine::procedure::{Next, Procedure, Step, Submissions, nothing_more};
use despatch::engine::{
    Outcome, Prompt, Rejected, Ruleset, SeatId, SetupRefused, StandingRead, StepSpec, Submitted,
    View, Viewer,
};
use serde::{Deserialize, Serialize};

/// The ruleset's marker type.
pub struct Bids;

/// Where the game stands, worked out from the round (the state stores no phase).
#[derive(Debug, Clone, PartialEq)]
pub enum Round {
    Bidding,
    Over,
}

/// The sequence of play: sealed bids each round, then the game's end.
static SEQUENCE: Procedure<State, Option<u32>, Round> = Procedure {
    steps: &[
        Step {
            name: "bidding",
            rule: "R1",
            does: "every seat bids 0 to 3, sealed, and rolls a die",
            keywords: &["BID", "PASS"],
            ask: ask_bids,
            resolve: bids,
            then: &["bidding", "game over"],
        },
        Step {
            name: "game over",
            rule: "R3",
            does: "the higher score wins",
            keywords: &[],
            ask: ask_bids,
            resolve: nothing_more,
            then: &[],
        },
    ],
    end_of_turn: None,
    phase: |s| {
        if s.round > s.rounds {
            Round::Over
        } else {
            Round::Bidding
        }
    },
    name: |p| match p {
        Round::Bidding => "bidding",
        Round::Over => "game over",
    },
    // The round moves on inside `bids`: there is no phase to set.
    enter: |_, _| {},
    // The log is the last round's: a state that kept every round's would grow with the game.
    begin: |s| s.log.clear(),
    game_over: |_, _| {},
};

fn ask_bids(state: &State) -> StepSpec {
    if state.round > state.rounds {
        return StepSpec {
            title: "over".into(),
            prompts: vec![],
            sealed: false,
        };
    }
    StepSpec {
        title: format!("Round {}", state.round),
        prompts: state
            .seats
            .iter()
            .map(|(s, _, optional)| Prompt {
                seat: s.clone(),
                kind: "bid".into(),
                question: format!("Bid 0-{MAX_BID} (sealed), or PASS."),
                required: !optional,
            })
            .collect(),
        sealed: true,
    }
}

fn bids(next: &mut State, subs: &Submissions<Option<u32>>, dice: &mut Dice) -> Next<Round> {
    for (seat, side, _) in next.seats.clone() {
        // R1: silence bids nothing, whatever the policy.
        let bid = match subs.get(&seat) {
            Some(Submitted::Orders(Some(b))) => *b as i64,
            _ => 0,
        };
        let roll = dice.roll_one(format!("round {} {seat}", next.round), Faces::d(6)) as i64;
        *next.scores.get_mut(&side).expect("every side scores") += bid + roll;
        next.log
            .push(format!("{seat} bid {bid} and rolled {roll}."));
    }
    next.round += 1;
    Next::Again
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub round: u32,
    pub rounds: u32,
    /// (seat, side, optional prompt) in seat order.
    pub seats: Vec<(String, String, bool)>,
    pub scores: BTreeMap<String, i64>,
    /// Each seat's secret reserve: its owner alone sees it (R2), and it breaks ties (R3).
    pub reserve: BTreeMap<String, u32>,
    /// What the last round did.
    pub log: Vec<String>,
    /// Each seat's standing cap on its bids (`STANDING CAP n`): a higher bid is refused.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub cap: BTreeMap<String, u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Data {
    rounds: u32,
    max_bid: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Scenario {
    seat: Vec<ScenarioSeat>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ScenarioSeat {
    id: String,
    side: String,
    #[serde(default)]
    optional: bool,
    reserve: u32,
}

/// Highest bid; the ruleset data says 3 (kept in the state's first read of the data).
const MAX_BID: u32 = 3;

fn bad(line: usize, text: &str, reason: &str) -> Vec<Rejected> {
    vec![Rejected {
        line,
        text: text.into(),
        reason: reason.into(),
        hint: Some(format!("write BID 0 to BID {MAX_BID}, or PASS")),
    }]
}

impl Ruleset for Bids {
    const NAME: &'static str = "bids";
    type State = State;
    /// The bid; `None` passes (bids nothing).
    type Orders = Option<u32>;
    type Phase = Round;

    fn procedure() -> &'static Procedure<Self::State, Self::Orders, Self::Phase> {
        &SEQUENCE
    }

    fn setup(
        ruleset_toml: &str,
        scenario_toml: &str,
        seats: &[SeatId],
    ) -> Result<State, SetupRefused> {
        let unreadable = |file| {
            move |e: toml::de::Error| SetupRefused::Unreadable {
                file,
                reason: e.to_string(),
            }
        };
        let data: Data = toml::from_str(ruleset_toml).map_err(unreadable("ruleset.toml"))?;
        if data.max_bid != MAX_BID {
            return Err(SetupRefused::RulesetData(format!(
                "max_bid is {MAX_BID} in this toy, not {}",
                data.max_bid
            )));
        }
        let scen: Scenario = toml::from_str(scenario_toml).map_err(unreadable("scenario"))?;
        let ids: Vec<&str> = scen.seat.iter().map(|s| s.id.as_str()).collect();
        if ids != seats.iter().map(String::as_str).collect::<Vec<_>>() {
            return Err(SetupRefused::Seats(format!(
                "seats must be {}",
                ids.join(", ")
            )));
        }
        Ok(State {
            round: 1,
            rounds: data.rounds,
            seats: scen
                .seat
                .iter()
                .map(|s| (s.id.clone(), s.side.clone(), s.optional))
                .collect(),
            scores: scen.seat.iter().map(|s| (s.side.clone(), 0)).collect(),
            reserve: scen
                .seat
                .iter()
                .map(|s| (s.id.clone(), s.reserve))
                .collect(),
            log: vec![],
            cap: BTreeMap::new(),
        })
    }

    fn seats(state: &State) -> Vec<(SeatId, String)> {
        state
            .seats
            .iter()
            .map(|(s, d, _)| (s.clone(), d.clone()))
            .collect()
    }

    fn parse(state: &State, seat: &str, text: &str) -> Result<Option<u32>, Vec<Rejected>> {
        let cap = state.cap.get(seat).copied().unwrap_or(MAX_BID);
        let mut bid = None;
        let mut seen = false;
        for (i, line) in text.lines().enumerate() {
            let t = line.trim();
            if t.is_empty() {
                continue;
            }
            if seen {
                return Err(bad(i + 1, t, "one bid per mail"));
            }
            seen = true;
            let upper = t.to_ascii_uppercase();
            if upper == "PASS" {
                continue;
            }
            match upper.strip_prefix("BID ").map(|n| n.trim().parse::<u32>()) {
                Some(Ok(n)) if n > cap && n <= MAX_BID => {
                    return Err(bad(i + 1, t, "that bid is over your standing cap"));
                }
                Some(Ok(n)) if n <= MAX_BID => bid = Some(n),
                Some(Ok(_)) => return Err(bad(i + 1, t, "that bid is too high")),
                _ => return Err(bad(i + 1, t, "not an order")),
            }
        }
        Ok(bid)
    }

    fn canonical(o: &Option<u32>) -> String {
        match o {
            Some(n) => format!("BID {n}\n"),
            None => "PASS\n".into(),
        }
    }

    fn order_keywords() -> Vec<&'static str> {
        vec!["BID", "PASS"]
    }

    fn standing_keywords() -> &'static [&'static str] {
        &["STANDING"]
    }

    fn standing(
        state: &State,
        seat: &str,
        text: &str,
    ) -> Result<StandingRead<State>, Vec<Rejected>> {
        let mut caps = Vec::new();
        let mut wrong = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let t = line.trim();
            if t.is_empty() {
                continue;
            }
            match t
                .to_ascii_uppercase()
                .strip_prefix("STANDING CAP ")
                .map(|n| n.trim().parse::<u32>())
            {
                Some(Ok(n)) if n <= MAX_BID => caps.push(n),
                _ => wrong.extend(bad(i + 1, t, "a standing cap is STANDING CAP 0 to 3")),
            }
        }
        if !wrong.is_empty() {
            return Err(wrong);
        }
        let Some(last) = caps.last() else {
            return Ok(StandingRead::none());
        };
        let mut next = state.clone();
        next.cap.insert(seat.to_string(), *last);
        let canonical = caps.iter().map(|n| format!("STANDING CAP {n}\n")).collect();
        Ok(StandingRead {
            applied: Some((next, canonical)),
            other: vec![],
        })
    }

    fn view(state: &State, viewer: &Viewer) -> View {
        let mut sections = vec![(
            "Scores".to_string(),
            state
                .scores
                .iter()
                .map(|(side, n)| format!("{side}: {n}"))
                .collect(),
        )];
        // R2: a reserve is seen by its owner alone.
        if let Viewer::Seat(seat) = viewer
            && let Some(r) = state.reserve.get(seat)
        {
            sections.push(("Your reserve".into(), vec![format!("reserve: {r}")]));
        }
        View {
            viewer: viewer.clone(),
            scenario: "Sealed bids".into(),
            turn: format!("Round {}", state.round.min(state.rounds)),
            log: state.log.clone(),
            board: vec![],
            sections,
            data: serde_json::Value::Null,
            map: None,
        }
    }

    fn victory_figures(state: &State) -> Vec<String> {
        state
            .scores
            .iter()
            .map(|(side, n)| {
                format!(
                    "{side}: score {n} after round {}",
                    state.round.saturating_sub(1)
                )
            })
            .collect()
    }

    fn outcome(state: &State) -> Option<Outcome> {
        (state.round > state.rounds).then(|| {
            let mut best: Vec<(i64, u32, String)> = state
                .scores
                .iter()
                .map(|(side, n)| {
                    // R3: equal scores go to the side with the larger total reserve.
                    let reserve = state
                        .seats
                        .iter()
                        .filter(|(_, d, _)| d == side)
                        .map(|(s, _, _)| state.reserve[s])
                        .sum();
                    (*n, reserve, side.clone())
                })
                .collect();
            best.sort();
            let top = best.last().cloned().expect("two sides");
            let tied = best.iter().filter(|b| b.0 == top.0 && b.1 == top.1).count() > 1;
            Outcome {
                winners: if tied { vec![] } else { vec![top.2.clone()] },
                summary: best
                    .iter()
                    .map(|(n, _, s)| format!("{s} {n}"))
                    .collect::<Vec<_>>()
                    .join(", "),
            }
        })
    }

    fn sample_orders(_: &State, _: &str, choice: u64) -> String {
        match choice % 5 {
            4 => "PASS\n".into(),
            n => format!("BID {n}\n"),
        }
    }
}
