//! The engine is game-agnostic: a toy ruleset with three seats on two sides (as Lone Star has
//! several players a side), sealed simultaneous declarations and an optional prompt, played
//! through the pure engine and replayed from its journal lines.

use std::collections::BTreeMap;

use chrono::{Duration, TimeZone, Utc};
use despatch::dice::{self, Dice, Faces, HostOnion};
use despatch::engine::{
    Due, Event, Game, Outcome, Policy, Prompt, Rejected, Ruleset, SeatId, Silence, StepSpec,
    Submitted, View, Viewer,
};
use despatch::store::replay;
use serde::{Deserialize, Serialize};

/// Each round every seat bids 0–3 (sealed); the scout may also bid, but need not.
/// A side scores its bids plus one d6 per seat; three rounds.
#[derive(Debug, Clone)]
struct Bids;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct State {
    round: u32,
    scores: BTreeMap<String, i64>,
    log: Vec<String>,
}

const SEATS: [(&str, &str); 3] = [("red-1", "red"), ("red-2", "red"), ("blue-scout", "blue")];

impl Ruleset for Bids {
    const NAME: &'static str = "bids";
    type State = State;
    type Orders = u32;

    fn setup(_: &str, _: &str, seats: &[SeatId]) -> Result<State, String> {
        if seats.len() != 3 {
            return Err("three seats".into());
        }
        Ok(State {
            round: 1,
            scores: BTreeMap::from([("red".into(), 0), ("blue".into(), 0)]),
            log: vec![],
        })
    }

    fn seats(_: &State) -> Vec<(SeatId, String)> {
        SEATS
            .iter()
            .map(|(s, d)| (s.to_string(), d.to_string()))
            .collect()
    }

    fn step(state: &State) -> StepSpec {
        if state.round > 3 {
            return StepSpec {
                title: "over".into(),
                prompts: vec![],
                sealed: false,
            };
        }
        StepSpec {
            title: format!("Round {}", state.round),
            prompts: SEATS
                .iter()
                .map(|(s, _)| Prompt {
                    seat: s.to_string(),
                    kind: "bid".into(),
                    question: "Bid 0-3".into(),
                    required: *s != "blue-scout",
                })
                .collect(),
            sealed: true,
        }
    }

    fn parse(_: &State, _: &str, text: &str) -> Result<u32, Vec<Rejected>> {
        let t = text.trim();
        match t.strip_prefix("BID ").and_then(|n| n.parse::<u32>().ok()) {
            Some(n) if n <= 3 => Ok(n),
            _ => Err(vec![Rejected {
                line: 1,
                text: t.into(),
                reason: "write BID 0 to BID 3".into(),
                hint: None,
            }]),
        }
    }

    fn canonical(o: &u32) -> String {
        format!("BID {o}\n")
    }

    fn resolve(state: &State, subs: &BTreeMap<SeatId, Submitted<u32>>, dice: &mut Dice) -> State {
        let mut next = state.clone();
        for (seat, side) in SEATS {
            let bid = match subs.get(seat) {
                Some(Submitted::Orders(b)) => *b as i64,
                _ => 0,
            };
            let roll = dice.roll_one(format!("round {} {seat}", state.round), Faces::d(6)) as i64;
            *next.scores.get_mut(side).unwrap() += bid + roll;
            next.log.push(format!("{seat} bid {bid} rolled {roll}"));
        }
        next.round += 1;
        next
    }

    fn view(state: &State, viewer: &Viewer) -> View {
        View {
            viewer: viewer.clone(),
            scenario: "Bids".into(),
            turn: format!("Round {}", state.round),
            log: state.log.clone(),
            board: vec![],
            sections: vec![],
            data: serde_json::Value::Null,
            map: None,
        }
    }

    fn outcome(state: &State) -> Option<Outcome> {
        (state.round > 3).then(|| {
            let (r, b) = (state.scores["red"], state.scores["blue"]);
            Outcome {
                winners: if r > b {
                    vec!["red".into()]
                } else if b > r {
                    vec!["blue".into()]
                } else {
                    vec![]
                },
                summary: format!("red {r}, blue {b}"),
            }
        })
    }

    fn order_reference() -> &'static str {
        "BID n"
    }

    fn sample_orders(_: &State, _: &str, choice: u64) -> String {
        format!("BID {}\n", choice % 4)
    }
}

#[test]
fn three_seats_two_sides_sealed_optional_and_replayable() {
    let onion = HostOnion::from_secret("toy", [3; 32], 50);
    let t0 = Utc.with_ymd_and_hms(2026, 3, 1, 12, 0, 0).unwrap();
    let seats: Vec<String> = SEATS.iter().map(|(s, _)| s.to_string()).collect();
    let policy = Policy {
        step_hours: 48,
        reminder_hours: vec![12],
        on_silence: Silence::Pass,
        ..Policy::default()
    };
    let first = Game::<Bids>::creation_event(
        "toy",
        "none",
        "",
        "",
        &seats,
        &onion.anchor(),
        50,
        policy,
        t0,
    )
    .unwrap();
    let mut lines = vec![first.to_line()];
    let mut game = Game::<Bids>::from_creation(&first, &lines[0]).unwrap();
    let push = |game: &mut Game<Bids>, ev: Event, lines: &mut Vec<String>| {
        let line = ev.to_line();
        game.apply(&ev, &line, lines.len() as u64).unwrap();
        lines.push(line);
    };

    // Round 1: both red seats bid; the scout's prompt is optional, so the step locks without it.
    let v1 = onion.reveal(1).unwrap();
    assert_eq!(
        game.waiting_for(),
        vec!["red-1".to_string(), "red-2".to_string()]
    );
    let e = game
        .submission_event("red-1", "BID 3", &v1, "m1", t0)
        .unwrap();
    push(&mut game, e, &mut lines);
    assert!(!game.ready_to_lock());
    assert!(
        game.submission_event("red-2", "BID 9", &v1, "m2", t0)
            .is_err(),
        "bad bids are data"
    );
    let e = game
        .submission_event("red-2", "BID 1", &v1, "m2", t0)
        .unwrap();
    push(&mut game, e, &mut lines);
    assert!(game.ready_to_lock());
    let lock = game.lock_event(t0);
    match &lock {
        Event::Lock { nmr, seats, .. } => {
            assert_eq!(
                nmr,
                &vec!["blue-scout".to_string()],
                "the silent optional seat is NMR"
            );
            assert_eq!(seats.len(), 3, "every seat is in the lock, in seat order");
            assert_eq!(seats[2].digest, "", "an NMR hashes as the empty digest");
        }
        other => panic!("{other:?}"),
    }
    push(&mut game, lock, &mut lines);
    let results = game.results_event(&v1, t0).unwrap();
    push(&mut game, results, &mut lines);
    assert_eq!(game.state.round, 2);
    assert_eq!(game.last_rolls.len(), 3, "one stream per roll request");

    // Round 2: a reminder is due 12 h before the deadline, then silence applies (Pass).
    let deadline = game.deadline.unwrap();
    assert_eq!(deadline, t0 + Duration::hours(48));
    assert!(game.due(deadline - Duration::hours(13)).is_empty());
    let due = game.due(deadline - Duration::hours(11));
    assert_eq!(due.len(), 2, "both required seats are reminded: {due:?}");
    for d in due {
        if let Due::Reminder { seat, hours_left } = d {
            push(
                &mut game,
                Event::Reminder {
                    step: 2,
                    seat,
                    hours_left,
                    at: deadline - Duration::hours(11),
                },
                &mut lines,
            );
        }
    }
    assert!(
        game.due(deadline - Duration::hours(10)).is_empty(),
        "each reminder once"
    );
    match game.due(deadline).as_slice() {
        [Due::Deadline { silent }] => assert_eq!(silent.len(), 2),
        other => panic!("{other:?}"),
    }
    let v2 = onion.reveal(2).unwrap();
    let e = game
        .submission_event("blue-scout", "BID 2", &v2, "m3", deadline)
        .unwrap();
    push(&mut game, e, &mut lines);
    let lock = game.lock_event(deadline);
    push(&mut game, lock, &mut lines);
    let results = game.results_event(&v2, deadline).unwrap();
    push(&mut game, results, &mut lines);

    // Round 3 and the end.
    let v3 = onion.reveal(3).unwrap();
    for (i, seat) in ["red-1", "red-2", "blue-scout"].iter().enumerate() {
        let e = game
            .submission_event(seat, "BID 0", &v3, &format!("n{i}"), deadline)
            .unwrap();
        push(&mut game, e, &mut lines);
    }
    let lock = game.lock_event(deadline);
    push(&mut game, lock, &mut lines);
    let results = game.results_event(&v3, deadline).unwrap();
    push(&mut game, results, &mut lines);
    assert!(game.is_over());
    assert!(
        game.submission_event(
            "red-1",
            "BID 1",
            &onion.reveal(4).unwrap(),
            "late",
            deadline
        )
        .is_err()
    );

    // The journal lines alone replay to the same game, and a changed roll is named.
    let again = replay::<Bids>(&lines).unwrap();
    assert_eq!(again.state, game.state);
    assert_eq!(again.head, game.head);
    let results_at = lines
        .iter()
        .rposition(|l| l.contains("\"type\":\"results\""))
        .unwrap();
    let mut forged = lines.clone();
    let ev: Event = serde_json::from_str(&forged[results_at]).unwrap();
    let Event::Results {
        step,
        reveal,
        seed,
        mut rolls,
        state_digest,
        at,
    } = ev
    else {
        unreachable!()
    };
    rolls[1].results[0] = rolls[1].results[0] % 6 + 1;
    forged[results_at] = Event::Results {
        step,
        reveal,
        seed,
        rolls,
        state_digest,
        at,
    }
    .to_line();
    let e = replay::<Bids>(&forged).unwrap_err();
    assert_eq!(
        (e.index, e.field.as_str()),
        (results_at as u64, "rolls[1]"),
        "{e}"
    );
    // Orders changed after the fact: the next lock no longer hashes the same log head.
    let sub_at = lines
        .iter()
        .position(|l| l.contains("\"type\":\"submission\""))
        .unwrap();
    let mut forged = lines.clone();
    forged[sub_at] = forged[sub_at].replace("BID 3", "BID 2");
    let e = replay::<Bids>(&forged).unwrap_err();
    assert_eq!(
        (e.kind.as_str(), e.field.as_str()),
        ("lock", "log_head"),
        "{e}"
    );
    // Even with the chain recomputed, the digest no longer opens with the revealed v_k.
    let mut head = dice::log_genesis();
    let mut rechained = Vec::new();
    for (i, line) in forged.iter().enumerate() {
        let mut line = line.clone();
        if line.contains("\"type\":\"lock\"") && i > sub_at {
            let mut ev: serde_json::Value = serde_json::from_str(&line).unwrap();
            ev["log_head"] = serde_json::Value::String(dice::to_hex(&head));
            line = serde_json::to_string(&ev).unwrap();
        }
        head = dice::log_step(&head, line.as_bytes());
        rechained.push(line);
    }
    let e = replay::<Bids>(&rechained).unwrap_err();
    assert!(["lock", "results"].contains(&e.kind.as_str()), "{e}");
}
