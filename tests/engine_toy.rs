//! The engine decides, with no disk and no clock: a toy ruleset (tests/toy) with three seats on
//! two sides, sealed bids and an optional prompt, played through the pure engine — submissions,
//! locks, results, reminders, silence at the deadline, the organiser's acts, onion renewal and
//! the end of the game — and replayed from its journal lines.

use crate::toy;

use chrono::{DateTime, Duration, TimeZone, Utc};
use despatch::dice::{self, GameSecrets, Hash, Protocol};
use despatch::engine::{
    Creation, Event, Game, GmError, HostSecrets, Play, Policy, Ruleset, Silence, replay,
};
use toy::Bids;

const RULESET: &str = include_str!("fixtures/games/bids/ruleset.toml");
const SCENARIO: &str = include_str!("fixtures/games/bids/scenarios/club.toml");

/// The host's secrets as a value: what the store would hand the engine.
struct Host(GameSecrets);

impl HostSecrets for Host {
    fn reveal(&self, k: u64) -> Result<Hash, String> {
        self.0.onion.reveal(k).map_err(|e| e.to_string())
    }
    fn salt_key(&self) -> Option<Hash> {
        self.0.salt_key.map(|z| z.0)
    }
}

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 1, 12, 0, 0).unwrap()
}

/// A game and its journal lines, as the daemon would have them, with pinned secrets.
struct Table {
    game: Game<Bids>,
    lines: Vec<String>,
    host: Host,
}

impl Table {
    fn new(policy: Policy, onion_len: u64) -> Table {
        let host = Host(GameSecrets::pinned("toy", [3; 32], [4; 32], onion_len));
        let seats: Vec<String> = ["red-1", "red-2", "blue-scout"].map(String::from).to_vec();
        let first = Game::<Bids>::creation_event(&Creation {
            game: "toy",
            scenario: "club",
            ruleset_toml: RULESET,
            scenario_toml: SCENARIO,
            seats: &seats,
            protocol: Protocol::V2,
            anchor: host.0.onion.anchor(),
            onion_len,
            salt_commitment: host.0.salt_commitment("toy"),
            mail_key: host.0.mail_key.map(|k| k.public()),
            policy,
            now: t0(),
        })
        .unwrap();
        let lines = vec![first.to_line()];
        let game = Game::<Bids>::from_creation(&first, &lines[0]).unwrap();
        Table { game, lines, host }
    }

    fn push(&mut self, ev: Event) {
        let line = ev.to_line();
        self.game
            .apply(&ev, &line, self.lines.len() as u64)
            .unwrap();
        self.lines.push(line);
    }

    fn submit(&mut self, seat: &str, text: &str, at: DateTime<Utc>) -> Result<(), String> {
        let salt = self.game.salt(seat, &self.host).unwrap();
        let mid = format!("m{}", self.lines.len());
        match self
            .game
            .submission_event(seat, text, None, &salt, &mid, at)
        {
            Ok(ev) => {
                self.push(ev);
                Ok(())
            }
            Err(r) => Err(r[0].reason.clone()),
        }
    }

    /// Everything the game does by itself now, applied.
    fn settle(&mut self, at: DateTime<Utc>) {
        while let Some(ev) = self.game.next_event(&self.host, at).unwrap() {
            self.push(ev);
        }
    }

    fn due(&mut self, at: DateTime<Utc>) -> Vec<Event> {
        let due = self.game.due_events(at);
        for ev in &due {
            self.push(ev.clone());
        }
        due
    }
}

fn policy(on_silence: Silence) -> Policy {
    Policy {
        step_hours: 48,
        hours_by_kind: Default::default(),
        reminder_hours: vec![12],
        on_silence,
        ..Policy::default()
    }
}

#[test]
fn three_seats_two_sides_sealed_optional_and_replayable() {
    let mut t = Table::new(policy(Silence::Pass), 50);
    // Round 1: both red seats bid; the scout's prompt is optional, so the step locks without it.
    assert_eq!(t.game.waiting_for(), vec!["red-1", "red-2"]);
    t.submit("red-1", "BID 3", t0()).unwrap();
    assert!(!t.game.ready_to_lock());
    assert!(
        t.submit("red-2", "BID 9", t0()).is_err(),
        "bad bids are data"
    );
    t.submit("red-2", "BID 1", t0()).unwrap();
    assert!(t.game.ready_to_lock());
    let lock = t.game.lock_event(t0());
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
    t.settle(t0());
    assert_eq!(t.game.state.round, 2);
    assert_eq!(t.game.last_rolls.len(), 3, "one stream per roll request");

    // Round 2: a reminder 12 h before the deadline, once; then silence applies (Pass: a lock).
    let deadline = t.game.deadline.unwrap();
    assert_eq!(deadline, t.game.opened_at + Duration::hours(48));
    assert!(t.due(deadline - Duration::hours(13)).is_empty());
    let due = t.due(deadline - Duration::hours(11));
    assert_eq!(due.len(), 2, "both required seats are reminded: {due:?}");
    assert!(
        t.due(deadline - Duration::hours(10)).is_empty(),
        "each reminder once"
    );
    t.submit("blue-scout", "BID 2", deadline).unwrap();
    match t.due(deadline).as_slice() {
        [Event::Lock { nmr, .. }] => assert_eq!(nmr, &vec!["red-1", "red-2"]),
        other => panic!("{other:?}"),
    }
    t.settle(deadline);
    assert_eq!(t.game.state.round, 3);

    // Round 3 and the end: the game-ended event publishes the salt key (v2).
    for seat in ["red-1", "red-2", "blue-scout"] {
        t.submit(seat, "BID 0", deadline).unwrap();
    }
    t.settle(deadline);
    assert!(t.game.is_over());
    assert!(matches!(
        t.lines
            .last()
            .map(|l| serde_json::from_str::<Event>(l).unwrap()),
        Some(Event::GameEnded {
            salt_key: Some(_),
            ..
        })
    ));
    assert!(t.game.ended && t.game.salt_key.is_some());
    assert!(t.submit("red-1", "BID 1", deadline).is_err());

    // The journal lines alone replay to the same game, and a changed roll is named.
    let again = replay::<Bids>(&t.lines).unwrap();
    assert_eq!(again.state, t.game.state);
    assert_eq!(again.head, t.game.head);
    let results_at = t
        .lines
        .iter()
        .rposition(|l| l.contains("\"type\":\"results\""))
        .unwrap();
    let mut forged = t.lines.clone();
    let Event::Results {
        step,
        reveal,
        seed,
        mut rolls,
        state_digest,
        at,
    } = serde_json::from_str(&forged[results_at]).unwrap()
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
    let sub_at = t
        .lines
        .iter()
        .position(|l| l.contains("\"type\":\"submission\""))
        .unwrap();
    let mut forged = t.lines.clone();
    forged[sub_at] = forged[sub_at].replace("BID 3", "BID 2");
    let e = replay::<Bids>(&forged).unwrap_err();
    assert_eq!(
        (e.kind.as_str(), e.field.as_str()),
        ("lock", "log_head"),
        "{e}"
    );
    // Even with the chain recomputed, the salt key published at the end no longer opens the
    // digest: an auditor hands it in before replaying, and the forged submission is named.
    let rechained = rechain(&forged, sub_at);
    let Some(Event::GameEnded {
        salt_key: Some(z), ..
    }) = rechained.last().map(|l| serde_json::from_str(l).unwrap())
    else {
        panic!("the game ended with its salt key")
    };
    let z = dice::from_hex(&z).unwrap();
    let registry = despatch::engine::Registry::new().with::<Bids>();
    let e = registry
        .replay_opened(&rechained, Some(z))
        .map(|_| ())
        .unwrap_err();
    assert_eq!(
        (e.index, e.field.as_str()),
        (sub_at as u64, "digest"),
        "{e}"
    );
    assert!(
        registry.replay_opened(&t.lines, Some(z)).is_ok(),
        "the true journal opens"
    );
    // During the game nobody can open a v2 digest; the host's auditor, holding the key, can.
    let in_progress = rechained[..sub_at + 1].to_vec();
    assert!(
        replay::<Bids>(&in_progress).is_ok(),
        "nobody can open a v2 digest before the end…"
    );
    let first: Event = serde_json::from_str(&in_progress[0]).unwrap();
    let mut audited = Game::<Bids>::from_creation(&first, &in_progress[0]).unwrap();
    audited.open_digests([4; 32]).unwrap();
    let failed = in_progress.iter().enumerate().skip(1).find_map(|(i, l)| {
        audited
            .apply(&serde_json::from_str(l).unwrap(), l, i as u64)
            .err()
    });
    assert_eq!(
        failed.map(|e| e.field),
        Some("digest".to_string()),
        "…but the host's auditor can"
    );
    assert!(
        audited.open_digests([5; 32]).is_err(),
        "a wrong salt key is refused"
    );
}

/// Recomputes the lock heads and the log chain after line `from` (a forger's best effort).
fn rechain(lines: &[String], from: usize) -> Vec<String> {
    let mut head = dice::log_genesis(Protocol::V2);
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let mut line = line.clone();
        if let Ok(Event::Lock {
            step,
            seats,
            nmr,
            lock,
            at,
            ..
        }) = serde_json::from_str(&line)
            && i > from
        {
            let log_head = dice::to_hex(&head);
            line = Event::Lock {
                step,
                log_head,
                seats,
                nmr,
                lock,
                at,
            }
            .to_line();
        }
        head = dice::log_step(Protocol::V2, &head, line.as_bytes());
        out.push(line);
    }
    out
}

#[test]
fn forfeit_takes_every_silent_seat_and_ends_when_one_side_is_left() {
    let mut t = Table::new(policy(Silence::Forfeit), 50);
    let deadline = t.game.deadline.unwrap();
    t.submit("blue-scout", "BID 1", t0()).unwrap();
    let due = t.due(deadline);
    let forfeits: Vec<&str> = due
        .iter()
        .filter_map(|e| match e {
            Event::Forfeit { seat, .. } => Some(seat.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(
        forfeits,
        vec!["red-1", "red-2"],
        "both silent seats, not only the first"
    );
    let o = t.game.outcome().expect("red has no seat left");
    assert_eq!(o.winners, vec!["blue"]);
    assert!(o.summary.contains("red-1 and red-2"), "{}", o.summary);
    t.settle(deadline);
    assert!(t.game.ended, "the end is journaled");
    assert!(
        t.due(deadline + Duration::hours(100)).is_empty(),
        "nothing more is due"
    );
}

#[test]
fn one_forfeit_of_a_side_with_other_seats_goes_on() {
    let mut t = Table::new(policy(Silence::Forfeit), 50);
    let deadline = t.game.deadline.unwrap();
    t.submit("red-2", "BID 2", t0()).unwrap();
    let due = t.due(deadline);
    assert_eq!(due.len(), 1);
    assert!(t.game.outcome().is_none(), "red-2 still plays for red");
    // The forfeited seat is never awaited again; the step locks with it as NMR.
    assert!(t.game.waiting_for().is_empty());
    t.settle(deadline);
    assert_eq!(t.game.state.round, 2);
    assert_eq!(t.game.waiting_for(), vec!["red-2"]);
    let salt = t.game.salt("red-1", &t.host).unwrap();
    let refused = t
        .game
        .submission_event("red-1", "BID 1", None, &salt, "late", deadline)
        .unwrap_err();
    assert!(refused[0].reason.contains("forfeited"), "{refused:?}");
}

#[test]
fn wait_for_gm_holds_until_the_organiser_closes_the_step() {
    let mut t = Table::new(policy(Silence::WaitForGm), 50);
    let deadline = t.game.deadline.unwrap();
    assert!(
        t.due(deadline + Duration::hours(500)).is_empty(),
        "nothing automatic"
    );
    assert!(t.game.next_event(&t.host, deadline).unwrap().is_none());
    let ev = t.game.gm_close_step("players away", deadline).unwrap();
    t.push(ev);
    t.settle(deadline);
    assert_eq!(
        t.game.state.round, 2,
        "closed, locked with every seat NMR, resolved"
    );
    assert!(!t.game.closed_by_gm, "the next step waits again");
}

#[test]
fn the_organisers_acts_are_checked_before_anything_is_recorded() {
    let mut t = Table::new(policy(Silence::Pass), 50);
    let now = t0() + Duration::hours(1);
    assert_eq!(t.game.gm_extend(0, "x", now), Err(GmError::Hours(0)));
    assert_eq!(
        t.game.gm_extend(10_000_000_000, "x", now),
        Err(GmError::Hours(10_000_000_000))
    );
    let Event::DeadlineChanged { deadline, .. } = t.game.gm_extend(-5, "sooner", now).unwrap()
    else {
        panic!()
    };
    assert_eq!(deadline, t0() + Duration::hours(43));
    assert!(matches!(
        t.game.gm_replace("green-1", "x", now),
        Err(GmError::NoSeat { .. })
    ));
    assert!(t.game.gm_replace("red-2", "left", now).is_ok());
    // Once the game is over, nothing the organiser does applies.
    for round in 0..3 {
        for seat in ["red-1", "red-2"] {
            t.submit(seat, "BID 1", now + Duration::minutes(round))
                .unwrap();
        }
        t.settle(now + Duration::minutes(round));
    }
    assert!(t.game.is_over());
    assert!(matches!(
        t.game.gm_extend(5, "x", now),
        Err(GmError::Over(_))
    ));
    assert!(matches!(
        t.game.gm_close_step("x", now),
        Err(GmError::Over(_))
    ));
}

#[test]
fn a_new_onion_is_due_before_the_old_one_runs_out() {
    let mut t = Table::new(policy(Silence::Pass), 3);
    assert_eq!(t.game.renewal_due(), None);
    let mut renewed_at = None;
    for round in 0..3 {
        let at = t0() + Duration::minutes(round);
        if let Some(from) = t.game.renewal_due() {
            renewed_at = Some(from);
            break;
        }
        for seat in ["red-1", "red-2"] {
            t.submit(seat, "PASS", at).unwrap();
        }
        t.settle(at);
    }
    // Length 3, a quarter rounds up to 1: due once no step is left after the open one.
    assert_eq!(renewed_at, Some(3), "renewal due at the onion's last step");
}

#[test]
fn a_mail_for_a_closed_step_or_with_nothing_in_it_changes_nothing() {
    let mut t = Table::new(policy(Silence::Pass), 50);
    for seat in ["red-1", "red-2"] {
        t.submit(seat, "BID 1", t0()).unwrap();
    }
    t.settle(t0());
    let salt = t.game.salt("red-1", &t.host).unwrap();
    let late = t
        .game
        .submission_event("red-1", "BID 2", Some(1), &salt, "late", t0())
        .unwrap_err();
    assert!(
        late[0].reason.contains("step 1 has already been resolved"),
        "{late:?}"
    );
    assert!(
        late[0]
            .hint
            .as_deref()
            .unwrap()
            .contains("the open step is 2")
    );
    let empty = t
        .game
        .submission_event("red-1", " \n\n", None, &salt, "empty", t0())
        .unwrap_err();
    assert!(
        empty[0].reason.contains("nothing in this mail"),
        "{empty:?}"
    );
    assert!(empty[0].hint.as_deref().unwrap().contains("PASS"));
    assert!(
        t.game
            .submission_event("red-1", "PASS", None, &salt, "pass", t0())
            .is_ok()
    );
    assert_eq!(Bids::NAME, "bids");
}

/// Rulings SO1, SO3 and SO4 (docs/standing-orders.md) in the pure engine: a mail for a step
/// already resolved carries its standing orders, in force at once and replayed from the
/// journal, and nothing else of it; one standing line gone wrong applies none; standing orders
/// that would unmake an answer already sent, or that come while the step is locked, wait.
#[test]
fn standing_orders_outside_a_step_hold_at_once_all_or_nothing_and_never_unmake_an_answer() {
    let mut t = Table::new(policy(Silence::Pass), 50);
    for seat in ["red-1", "red-2"] {
        t.submit(seat, "BID 1", t0()).unwrap();
    }
    t.settle(t0());
    assert_eq!(t.game.step, 2);
    let salt = t.game.salt("red-1", &t.host).unwrap();
    let late = |t: &Table, text: &str| {
        t.game
            .submission_event("red-1", text, Some(1), &salt, "late", t0())
    };
    // SO1: the cap holds at once; the bid for step 1 is not applied, nor taken for step 2.
    let ev = late(&t, "BID 3\nSTANDING CAP 2").unwrap();
    let Event::Standing {
        step,
        orders,
        answered,
        not_applied,
        ..
    } = &ev
    else {
        panic!("{ev:?}")
    };
    assert_eq!(
        (*step, orders.as_str(), *answered, not_applied.clone()),
        (2, "STANDING CAP 2\n", Some(1), vec!["BID 3".to_string()])
    );
    t.push(ev);
    assert_eq!(t.game.state.cap.get("red-1"), Some(&2));
    assert!(t.game.pending.is_empty(), "standing orders answer no step");
    // The cap at work, both sides of it.
    assert!(
        t.submit("red-1", "BID 3", t0())
            .unwrap_err()
            .contains("standing cap")
    );
    t.submit("red-1", "BID 2", t0()).unwrap();
    // SO4: a cap under the answer already sent would unmake it; at the answer it would not.
    let unmakes = late(&t, "STANDING CAP 1").unwrap_err();
    assert!(unmakes[0].reason.contains("unmake"), "{unmakes:?}");
    assert!(late(&t, "STANDING CAP 2").is_ok());
    // SO3: one bad line, nothing applied.
    let bad = late(&t, "STANDING CAP 3\nSTANDING CAP 9").unwrap_err();
    assert_eq!((bad.len(), bad[0].line), (1, 2), "{bad:?}");
    // A mail for step 1 with no standing line is refused as before.
    assert!(
        late(&t, "BID 1").unwrap_err()[0]
            .reason
            .contains("already been resolved")
    );
    // The journal replays to the same game, the standing event included.
    let again = replay::<Bids>(&t.lines).unwrap();
    assert_eq!(again.state, t.game.state);
    // SO4: while the step is locked, standing orders wait.
    t.submit("red-2", "BID 0", t0()).unwrap();
    let lock = t.game.next_event(&t.host, t0()).unwrap().unwrap();
    assert!(matches!(lock, Event::Lock { .. }), "{lock:?}");
    t.push(lock);
    let locked = late(&t, "STANDING CAP 3").unwrap_err();
    assert!(locked[0].reason.contains("locked"), "{locked:?}");
    t.settle(t0());
    assert_eq!(t.game.step, 3);
    // Once the results are in, the same mail is taken (step 1 is now two steps back).
    assert!(late(&t, "STANDING CAP 3").is_ok());
}

/// The daemon leaves a game unopened until `next_due`, so it must be exactly the first moment
/// the clock makes anything due: nothing a second before, something at it, under every silence
/// policy, with reminders sent or not, through whole games; and `at_rest` says what
/// `next_event` says.
#[test]
fn next_due_is_the_first_moment_the_clock_makes_anything_due() {
    for on_silence in [
        Silence::StandingOrders,
        Silence::Pass,
        Silence::Forfeit,
        Silence::WaitForGm,
    ] {
        for grace_hours in [0, 6] {
            let mut t = Table::new(
                Policy {
                    reminder_hours: vec![24, 1, 12],
                    grace_hours,
                    ..policy(on_silence)
                },
                200,
            );
            let mut clock_events = 0;
            for round in 0..40 {
                assert!(t.game.at_rest(), "{on_silence:?} round {round}");
                assert!(t.game.next_event(&t.host, t0()).unwrap().is_none());
                let Some(at) = t.game.next_due() else {
                    // Only mail or the organiser can move it: nothing is due even much later.
                    let later = t.game.deadline.unwrap_or(t0()) + Duration::days(400);
                    assert!(t.game.due_events(later).is_empty(), "{on_silence:?}");
                    if t.game.is_over() {
                        break;
                    }
                    // The organiser closes the step (WaitForGm), or the seats write.
                    if let Ok(ev) = t.game.gm_close_step("test", later) {
                        t.push(ev);
                    } else {
                        for seat in t.game.waiting_for() {
                            t.submit(&seat, "BID 1", later).unwrap();
                        }
                    }
                    assert!(!t.game.at_rest() || t.game.is_over());
                    t.settle(later);
                    continue;
                };
                assert!(
                    t.game.due_events(at - Duration::seconds(1)).is_empty(),
                    "{on_silence:?}: something due before {at}"
                );
                // One seat writes now and then, so reminders go to some seats only.
                if round % 3 == 1 && t.game.waiting_for().len() > 1 {
                    let seat = t.game.waiting_for()[0].clone();
                    t.submit(&seat, "BID 2", at - Duration::seconds(1)).unwrap();
                    t.settle(at - Duration::seconds(1));
                    continue;
                }
                let due = t.due(at);
                assert!(!due.is_empty(), "{on_silence:?}: nothing due at {at}");
                clock_events += due.len();
                t.settle(at);
            }
            assert!(clock_events > 5, "{on_silence:?}: only {clock_events}");
        }
    }
}
