//! The event-sourced game record: journal events, the step cycle (submit → lock → resolve),
//! deadlines and silence. Pure: the clock arrives as `now`, the host's onion elements as `v_k`,
//! and the same `apply` both plays the game live and replays (verifies) a journal.

use std::collections::BTreeMap;
use std::marker::PhantomData;

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::dice::{self, Dice, Hash, Roll};

use super::ruleset::{Outcome, Rejected, Ruleset, SeatId, Silence, StepSpec, Submitted};

/// How a game treats time: deadlines, reminders and silence. Per game, set at creation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Policy {
    /// Hours a step stays open after it opens.
    pub step_hours: u32,
    /// Per prompt kind (`setup`, `manoeuvre`, `fire`), hours overriding `step_hours`.
    #[serde(default)]
    pub hours_by_kind: BTreeMap<String, u32>,
    /// Reminders go out this many hours before the deadline (each once).
    #[serde(default)]
    pub reminder_hours: Vec<u32>,
    /// Extra hours after the deadline before silence is applied.
    #[serde(default)]
    pub grace_hours: u32,
    pub on_silence: Silence,
}

impl Default for Policy {
    fn default() -> Self {
        Self {
            step_hours: 72,
            hours_by_kind: BTreeMap::new(),
            reminder_hours: vec![24],
            grace_hours: 0,
            on_silence: Silence::StandingOrders,
        }
    }
}

/// One seat as the journal records it (no address, no secret: the journal can be shown to auditors).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatEntry {
    pub seat: SeatId,
    pub side: String,
}

/// A seat's digest in a lock (`None` = NMR, hashed as the empty string).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LockEntry {
    pub seat: SeatId,
    pub digest: String,
}

/// One journal line. The exact bytes of the line are hashed into the log chain.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    GameCreated {
        game: String,
        ruleset: String,
        scenario: String,
        /// The data the game was set up from, so the journal alone replays it.
        ruleset_toml: String,
        scenario_toml: String,
        seats: Vec<SeatEntry>,
        anchor: String,
        onion_len: u64,
        policy: Policy,
        at: DateTime<Utc>,
    },
    Submission {
        step: u64,
        seat: SeatId,
        digest: String,
        orders: String,
        message_id: String,
        at: DateTime<Utc>,
        /// Closing lines of the mail not read as orders (a sign-off without `-- `), echoed in
        /// the receipt so the player sees what was skipped.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        ignored: Vec<String>,
    },
    Lock {
        step: u64,
        log_head: String,
        seats: Vec<LockEntry>,
        nmr: Vec<SeatId>,
        lock: String,
        at: DateTime<Utc>,
    },
    Results {
        step: u64,
        reveal: String,
        seed: String,
        rolls: Vec<Roll>,
        state_digest: String,
        at: DateTime<Utc>,
    },
    Reminder {
        step: u64,
        seat: SeatId,
        hours_left: u32,
        at: DateTime<Utc>,
    },
    DeadlineChanged {
        step: u64,
        deadline: DateTime<Utc>,
        reason: String,
        at: DateTime<Utc>,
    },
    Forfeit {
        step: u64,
        seat: SeatId,
        at: DateTime<Utc>,
    },
    /// A new host onion, committed while the old one still has steps left: steps from
    /// `from_step` on reveal elements of this one (dice-protocol.md, "The host onion").
    OnionRenewed {
        from_step: u64,
        anchor: String,
        onion_len: u64,
        at: DateTime<Utc>,
    },
    /// Something the organiser did by hand, kept in the log for every player to see.
    GmAction {
        step: u64,
        action: GmKind,
        reason: String,
        at: DateTime<Utc>,
    },
}

/// The organiser's interventions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum GmKind {
    /// Lock the open step now; silent seats are NMR (the way on from `wait_for_gm`).
    CloseStep,
    /// A new player takes over a seat (the address and the new secret stay in the store).
    ReplaceSeat { seat: SeatId },
}

impl Event {
    pub fn kind(&self) -> &'static str {
        match self {
            Event::GameCreated { .. } => "game_created",
            Event::Submission { .. } => "submission",
            Event::Lock { .. } => "lock",
            Event::Results { .. } => "results",
            Event::Reminder { .. } => "reminder",
            Event::DeadlineChanged { .. } => "deadline_changed",
            Event::Forfeit { .. } => "forfeit",
            Event::OnionRenewed { .. } => "onion_renewed",
            Event::GmAction { .. } => "gm_action",
        }
    }

    /// The exact journal line (without the newline). serde_json keeps field order as declared.
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).expect("events always serialise")
    }
}

/// A replay or verification failure, naming the event and the field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("event {index} ({kind}), field `{field}`: {detail}")]
pub struct ReplayError {
    pub index: u64,
    pub kind: String,
    pub field: String,
    pub detail: String,
}

/// An accepted submission waiting for the lock.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Pending {
    pub orders: String,
    pub digest: Hash,
    pub message_id: String,
    pub at: DateTime<Utc>,
}

/// What is due at `now` (the daemon turns these into events and mails).
#[derive(Debug, Clone, PartialEq)]
pub enum Due {
    Reminder {
        seat: SeatId,
        hours_left: u32,
    },
    /// The deadline (plus grace) has passed with these seats silent.
    Deadline {
        silent: Vec<SeatId>,
    },
}

/// The game as the journal makes it.
#[derive(Debug, Clone)]
pub struct Game<R: Ruleset> {
    pub id: String,
    pub ruleset: String,
    pub scenario: String,
    pub seats: Vec<SeatEntry>,
    pub anchor: Hash,
    pub onion_len: u64,
    pub policy: Policy,
    pub state: R::State,
    /// The step now open (1-based).
    pub step: u64,
    pub opened_at: DateTime<Utc>,
    pub deadline: Option<DateTime<Utc>>,
    pub pending: BTreeMap<SeatId, Pending>,
    /// The lock of the open step once taken (between `Lock` and `Results`).
    pub locked: Option<(Hash, Vec<SeatId>)>,
    /// The last revealed onion element (`v_0` = anchor).
    pub last_reveal: Hash,
    /// Every onion committed so far: (first step it serves, anchor, length); the first is the
    /// game's anchor, later ones come from `OnionRenewed`.
    pub onions: Vec<(u64, Hash, u64)>,
    pub reminders: Vec<(SeatId, u32)>,
    pub forfeited: Option<SeatId>,
    /// Log chain: head after the last applied event, and how many events.
    pub head: Hash,
    pub events: u64,
    /// The last results' roll table (for the results mail).
    pub last_rolls: Vec<Roll>,
    pub last_lock: Option<LockInfo>,
    /// The title of the step the last results resolved (the state has moved on since).
    pub last_step_title: String,
    /// Message-IDs of every applied submission: the journal, not `seen.log`, is the authority,
    /// so a mail re-read after a crash between the two is recognised.
    pub message_ids: std::collections::BTreeSet<String>,
    _r: PhantomData<R>,
}

/// What a results mail prints so a player can re-derive the dice.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LockInfo {
    pub step: u64,
    pub log_head: String,
    pub seats: Vec<LockEntry>,
    pub lock: String,
    pub reveal: String,
    pub seed: String,
}

fn hex(h: &Hash) -> String {
    dice::to_hex(h)
}

fn err(index: u64, kind: &str, field: &str, detail: impl Into<String>) -> ReplayError {
    ReplayError {
        index,
        kind: kind.to_string(),
        field: field.to_string(),
        detail: detail.into(),
    }
}

pub fn state_digest<S: Serialize>(state: &S) -> String {
    let bytes = serde_json::to_vec(state).expect("states always serialise");
    hex(&Sha256::digest(&bytes).into())
}

impl<R: Ruleset> Game<R> {
    /// The first event of a game. `anchor` comes from the host onion the store just made.
    #[allow(clippy::too_many_arguments)]
    pub fn creation_event(
        game: &str,
        scenario: &str,
        ruleset_toml: &str,
        scenario_toml: &str,
        seats: &[SeatId],
        anchor: &Hash,
        onion_len: u64,
        policy: Policy,
        now: DateTime<Utc>,
    ) -> Result<Event, String> {
        if !valid_game_id(game) {
            return Err(format!(
                "game id `{game}`: use 1–40 characters a–z, 0–9 and `-`, starting with a letter"
            ));
        }
        let state = R::setup(ruleset_toml, scenario_toml, seats)?;
        let sides = R::seats(&state);
        Ok(Event::GameCreated {
            game: game.to_string(),
            ruleset: R::NAME.to_string(),
            scenario: scenario.to_string(),
            ruleset_toml: ruleset_toml.to_string(),
            scenario_toml: scenario_toml.to_string(),
            seats: sides
                .into_iter()
                .map(|(seat, side)| SeatEntry { seat, side })
                .collect(),
            anchor: hex(anchor),
            onion_len,
            policy,
            at: now,
        })
    }

    /// Builds the game from its first event.
    pub fn from_creation(event: &Event, line: &str) -> Result<Self, ReplayError> {
        let Event::GameCreated {
            game,
            ruleset,
            scenario,
            ruleset_toml,
            scenario_toml,
            seats,
            anchor,
            onion_len,
            policy,
            at,
        } = event
        else {
            return Err(err(
                0,
                event.kind(),
                "type",
                "the journal must begin with game_created",
            ));
        };
        if ruleset != R::NAME {
            return Err(err(
                0,
                "game_created",
                "ruleset",
                format!("`{ruleset}` is not {}", R::NAME),
            ));
        }
        let ids: Vec<SeatId> = seats.iter().map(|s| s.seat.clone()).collect();
        let state = R::setup(ruleset_toml, scenario_toml, &ids)
            .map_err(|e| err(0, "game_created", "scenario_toml", e))?;
        let anchor = dice::from_hex(anchor)
            .ok_or_else(|| err(0, "game_created", "anchor", "not 32 bytes of hex"))?;
        let mut g = Game {
            id: game.clone(),
            ruleset: ruleset.clone(),
            scenario: scenario.clone(),
            seats: seats.clone(),
            anchor,
            onion_len: *onion_len,
            policy: policy.clone(),
            state,
            step: 1,
            opened_at: *at,
            deadline: None,
            pending: BTreeMap::new(),
            locked: None,
            last_reveal: anchor,
            onions: vec![(1, anchor, *onion_len)],
            reminders: Vec::new(),
            forfeited: None,
            head: dice::log_step(&dice::log_genesis(), line.as_bytes()),
            events: 1,
            last_rolls: Vec::new(),
            last_lock: None,
            last_step_title: String::new(),
            message_ids: Default::default(),
            _r: PhantomData,
        };
        g.deadline = g.compute_deadline();
        Ok(g)
    }

    /// Steps the newest onion can still serve after the open one.
    pub fn onion_steps_left(&self) -> u64 {
        let (from, _, len) = *self.onions.last().expect("the game's own onion");
        (from + len).saturating_sub(self.step + 1)
    }

    pub fn seat_ids(&self) -> Vec<SeatId> {
        self.seats.iter().map(|s| s.seat.clone()).collect()
    }

    pub fn spec(&self) -> StepSpec {
        R::step(&self.state)
    }

    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(seat) = &self.forfeited {
            let winners = self
                .seats
                .iter()
                .filter(|s| &s.seat != seat)
                .map(|s| s.side.clone())
                .collect();
            return Some(Outcome {
                winners,
                summary: format!("{seat} forfeited the game."),
            });
        }
        R::outcome(&self.state)
    }

    pub fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    fn compute_deadline(&self) -> Option<DateTime<Utc>> {
        let spec = self.spec();
        let hours = spec
            .prompts
            .iter()
            .map(|p| {
                self.policy
                    .hours_by_kind
                    .get(&p.kind)
                    .copied()
                    .unwrap_or(self.policy.step_hours)
            })
            .max()?;
        Some(self.opened_at + Duration::hours(hours as i64))
    }

    /// Seats whose required prompt is still unanswered.
    pub fn waiting_for(&self) -> Vec<SeatId> {
        self.spec()
            .prompts
            .iter()
            .filter(|p| p.required && !self.pending.contains_key(&p.seat))
            .map(|p| p.seat.clone())
            .collect()
    }

    /// True when the open step can be locked now (every required prompt answered).
    pub fn ready_to_lock(&self) -> bool {
        !self.is_over() && self.locked.is_none() && self.waiting_for().is_empty()
    }

    pub fn is_prompted(&self, seat: &str) -> bool {
        self.spec().prompts.iter().any(|p| p.seat == seat)
    }

    /// Checks one seat's orders for the open step. `v_k` is this step's onion element (for the salt).
    pub fn submission_event(
        &self,
        seat: &str,
        text: &str,
        v_k: &Hash,
        message_id: &str,
        now: DateTime<Utc>,
    ) -> Result<Event, Vec<Rejected>> {
        if self.is_over() {
            return Err(vec![Rejected {
                line: 0,
                text: String::new(),
                reason: "the game is over".into(),
                hint: None,
            }]);
        }
        if !self.is_prompted(seat) {
            return Err(vec![Rejected {
                line: 0,
                text: String::new(),
                reason: format!("no orders are asked of {seat} in this step"),
                hint: Some(format!("this step: {}", self.spec().title)),
            }]);
        }
        let (orders, ignored) = match R::parse(&self.state, seat, text) {
            Ok(o) => (o, Vec::new()),
            Err(problems) => match sign_off(text, &problems) {
                Some((cleaned, ignored)) => match R::parse(&self.state, seat, &cleaned) {
                    Ok(o) => (o, ignored),
                    Err(_) => return Err(problems),
                },
                None => return Err(problems),
            },
        };
        let canonical = R::canonical(&orders);
        let salt = dice::salt(v_k, seat);
        let d = dice::orders_digest(&self.id, self.step, seat, &salt, &canonical);
        Ok(Event::Submission {
            step: self.step,
            seat: seat.to_string(),
            digest: hex(&d),
            orders: canonical,
            message_id: message_id.to_string(),
            ignored,
            at: now,
        })
    }

    /// The lock's inputs for the open step: seat digests in seat order, NMR seats, `L_k`.
    fn lock_parts(&self) -> (Vec<LockEntry>, Vec<SeatId>, Hash) {
        let entries: Vec<(String, Option<Hash>)> = self
            .seats
            .iter()
            .map(|s| (s.seat.clone(), self.pending.get(&s.seat).map(|p| p.digest)))
            .collect();
        let nmr = self
            .spec()
            .prompts
            .iter()
            .map(|p| p.seat.clone())
            .filter(|s| !self.pending.contains_key(s))
            .collect();
        let lock = dice::lock(&self.id, self.step, &self.head, &entries);
        let seats = entries
            .iter()
            .map(|(seat, d)| LockEntry {
                seat: seat.clone(),
                digest: d.map(|d| hex(&d)).unwrap_or_default(),
            })
            .collect();
        (seats, nmr, lock)
    }

    /// The lock of the open step; seats not in `pending` are NMR.
    pub fn lock_event(&self, now: DateTime<Utc>) -> Event {
        let (seats, nmr, lock) = self.lock_parts();
        Event::Lock {
            step: self.step,
            log_head: hex(&self.head),
            seats,
            nmr,
            lock: hex(&lock),
            at: now,
        }
    }

    fn submissions(
        &self,
        nmr: &[SeatId],
    ) -> Result<BTreeMap<SeatId, Submitted<R::Orders>>, String> {
        let mut subs = BTreeMap::new();
        for (seat, p) in &self.pending {
            let orders = R::parse(&self.state, seat, &p.orders).map_err(|r| {
                format!(
                    "canonical orders of {seat} no longer parse: {}",
                    r.first().map(|x| x.reason.as_str()).unwrap_or("?")
                )
            })?;
            subs.insert(seat.clone(), Submitted::Orders(orders));
        }
        for seat in nmr {
            subs.insert(seat.clone(), Submitted::Nmr(self.policy.on_silence));
        }
        Ok(subs)
    }

    /// Resolves the locked step with `v_k` and returns the results event (not yet applied).
    pub fn results_event(&self, v_k: &Hash, now: DateTime<Utc>) -> Result<Event, String> {
        let (lock, nmr) = self.locked.as_ref().ok_or("the step is not locked")?;
        let seed = dice::seed(lock, v_k, &[]);
        let mut dice = Dice::new(seed);
        let subs = self.submissions(nmr)?;
        let next = R::resolve(&self.state, &subs, &mut dice);
        Ok(Event::Results {
            step: self.step,
            reveal: hex(v_k),
            seed: hex(&seed),
            rolls: dice.into_table(),
            state_digest: state_digest(&next),
            at: now,
        })
    }

    /// Reminders and deadlines due at `now`.
    pub fn due(&self, now: DateTime<Utc>) -> Vec<Due> {
        let Some(deadline) = self.deadline else {
            return vec![];
        };
        if self.is_over() || self.locked.is_some() {
            return vec![];
        }
        let waiting = self.waiting_for();
        let mut out = Vec::new();
        if now >= deadline + Duration::hours(self.policy.grace_hours as i64) {
            if !waiting.is_empty() {
                out.push(Due::Deadline { silent: waiting });
            }
            return out;
        }
        for seat in &waiting {
            // Only the most urgent reminder not yet sent, so a late daemon sends one, not several.
            let mut hours: Vec<u32> = self.policy.reminder_hours.clone();
            hours.sort_unstable();
            if let Some(h) = hours.into_iter().find(|h| {
                now >= deadline - Duration::hours(*h as i64)
                    && !self.reminders.iter().any(|(s, x)| s == seat && x <= h)
            }) {
                out.push(Due::Reminder {
                    seat: seat.clone(),
                    hours_left: h,
                });
            }
        }
        out
    }

    /// Applies one journal event, checking everything the dice protocol promises.
    /// `line` is the exact journal line; `index` its 0-based position (for error messages).
    pub fn apply(&mut self, event: &Event, line: &str, index: u64) -> Result<(), ReplayError> {
        let kind = event.kind();
        match event {
            Event::GameCreated { .. } => {
                return Err(err(index, kind, "type", "a second game_created"));
            }
            Event::Submission {
                step,
                seat,
                digest,
                orders,
                message_id,
                at,
                ..
            } => {
                self.expect_step(index, kind, *step)?;
                if self.locked.is_some() {
                    return Err(err(index, kind, "step", "submission after the lock"));
                }
                if !self.seats.iter().any(|s| &s.seat == seat) {
                    return Err(err(index, kind, "seat", format!("unknown seat `{seat}`")));
                }
                R::parse(&self.state, seat, orders).map_err(|r| {
                    err(
                        index,
                        kind,
                        "orders",
                        format!(
                            "not valid orders: line {}: {}",
                            r.first().map(|x| x.line).unwrap_or(0),
                            r.first().map(|x| x.reason.as_str()).unwrap_or("?")
                        ),
                    )
                })?;
                let d = dice::from_hex(digest)
                    .ok_or_else(|| err(index, kind, "digest", "not 32 bytes of hex"))?;
                self.message_ids.insert(message_id.clone());
                self.pending.insert(
                    seat.clone(),
                    Pending {
                        orders: orders.clone(),
                        digest: d,
                        message_id: message_id.clone(),
                        at: *at,
                    },
                );
            }
            Event::Lock {
                step,
                log_head,
                seats,
                nmr,
                lock,
                ..
            } => {
                self.expect_step(index, kind, *step)?;
                if log_head != &hex(&self.head) {
                    return Err(err(
                        index,
                        kind,
                        "log_head",
                        "is not the log head before the lock",
                    ));
                }
                let (exp_seats, exp_nmr, exp_lock) = self.lock_parts();
                let exp_lock = hex(&exp_lock);
                if seats != &exp_seats {
                    return Err(err(
                        index,
                        kind,
                        "seats",
                        "digests differ from the accepted submissions",
                    ));
                }
                if nmr != &exp_nmr {
                    return Err(err(
                        index,
                        kind,
                        "nmr",
                        "differs from the seats that did not submit",
                    ));
                }
                if lock != &exp_lock {
                    return Err(err(
                        index,
                        kind,
                        "lock",
                        format!("L_k should be {exp_lock}"),
                    ));
                }
                let l = dice::from_hex(lock).expect("checked equal to a hex hash");
                self.locked = Some((l, nmr.clone()));
                self.last_lock = Some(LockInfo {
                    step: *step,
                    log_head: log_head.clone(),
                    seats: seats.clone(),
                    lock: lock.clone(),
                    reveal: String::new(),
                    seed: String::new(),
                });
            }
            Event::Results {
                step,
                reveal,
                seed,
                rolls,
                state_digest: digest,
                at,
            } => {
                self.expect_step(index, kind, *step)?;
                let (lock, nmr) = self
                    .locked
                    .clone()
                    .ok_or_else(|| err(index, kind, "step", "results without a lock"))?;
                let v = dice::from_hex(reveal)
                    .ok_or_else(|| err(index, kind, "reveal", "not 32 bytes of hex"))?;
                // The first step of a renewed onion hashes to that onion's anchor.
                let previous = match self.onions.iter().rev().find(|(from, _, _)| *from <= *step) {
                    Some((from, anchor, _)) if from == step => *anchor,
                    _ => self.last_reveal,
                };
                if !dice::check_reveal(&self.id, &previous, &v) {
                    return Err(err(
                        index,
                        kind,
                        "reveal",
                        format!("v_{step} does not hash to v_{}", step - 1),
                    ));
                }
                // The salts of accepted submissions depend on v_k: now every digest can be opened.
                for (seat, p) in &self.pending {
                    let d = dice::orders_digest(
                        &self.id,
                        *step,
                        seat,
                        &dice::salt(&v, seat),
                        &p.orders,
                    );
                    if d != p.digest {
                        return Err(err(
                            index,
                            kind,
                            "reveal",
                            format!("the digest of {seat}'s orders does not open with v_{step}"),
                        ));
                    }
                }
                let s = dice::seed(&lock, &v, &[]);
                if seed != &hex(&s) {
                    return Err(err(
                        index,
                        kind,
                        "seed",
                        format!("S_k should be {}", hex(&s)),
                    ));
                }
                if let Err((j, why)) = dice::check_table(&s, rolls) {
                    return Err(err(index, kind, &format!("rolls[{j}]"), why));
                }
                let mut dice = Dice::new(s);
                let subs = self
                    .submissions(&nmr)
                    .map_err(|e| err(index, kind, "orders", e))?;
                let next = R::resolve(&self.state, &subs, &mut dice);
                if dice.table() != rolls.as_slice() {
                    let j = dice
                        .table()
                        .iter()
                        .zip(rolls.iter())
                        .position(|(a, b)| a != b)
                        .unwrap_or(dice.table().len().min(rolls.len()));
                    return Err(err(
                        index,
                        kind,
                        &format!("rolls[{j}]"),
                        "the engine's replay asks for other rolls (labels, faces or count)",
                    ));
                }
                if digest != &state_digest(&next) {
                    return Err(err(
                        index,
                        kind,
                        "state_digest",
                        "the replayed state differs",
                    ));
                }
                if let Some(info) = self.last_lock.as_mut() {
                    info.reveal = reveal.clone();
                    info.seed = seed.clone();
                }
                self.last_step_title = self.spec().title;
                self.state = next;
                self.last_rolls = rolls.clone();
                self.last_reveal = v;
                self.step += 1;
                self.pending.clear();
                self.locked = None;
                self.reminders.clear();
                self.opened_at = *at;
                self.deadline = self.compute_deadline();
            }
            Event::Reminder {
                step,
                seat,
                hours_left,
                ..
            } => {
                self.expect_step(index, kind, *step)?;
                self.reminders.push((seat.clone(), *hours_left));
            }
            Event::DeadlineChanged { step, deadline, .. } => {
                self.expect_step(index, kind, *step)?;
                self.deadline = Some(*deadline);
            }
            Event::Forfeit { step, seat, .. } => {
                self.expect_step(index, kind, *step)?;
                self.forfeited = Some(seat.clone());
            }
            Event::OnionRenewed {
                from_step,
                anchor,
                onion_len,
                ..
            } => {
                let (from, _, len) = *self.onions.last().expect("the game's own onion");
                // The new onion must take over before the old one runs dry, and not in the past.
                if *from_step < self.step || *from_step > from + len {
                    return Err(err(
                        index,
                        kind,
                        "from_step",
                        format!(
                            "{from_step} is outside steps {}..={} the current onion can still bridge",
                            self.step,
                            from + len
                        ),
                    ));
                }
                let a = dice::from_hex(anchor)
                    .ok_or_else(|| err(index, kind, "anchor", "not 32 bytes of hex"))?;
                self.onions.push((*from_step, a, *onion_len));
            }
            Event::GmAction { step, action, .. } => {
                self.expect_step(index, kind, *step)?;
                if let GmKind::ReplaceSeat { seat } = action
                    && !self.seats.iter().any(|s| &s.seat == seat)
                {
                    return Err(err(index, kind, "action", format!("unknown seat `{seat}`")));
                }
            }
        }
        self.head = dice::log_step(&self.head, line.as_bytes());
        self.events += 1;
        Ok(())
    }

    fn expect_step(&self, index: u64, kind: &str, step: u64) -> Result<(), ReplayError> {
        if step != self.step {
            return Err(err(
                index,
                kind,
                "step",
                format!("is {step}, but step {} is open", self.step),
            ));
        }
        Ok(())
    }
}

/// A sign-off written without the `-- ` separator ("Regards," / "Wilhelm") makes the trailing
/// lines bad orders. When the only bad lines are such a short closing block — at most 3 lines
/// of at most 5 words, no digits, and nothing the ruleset could suggest instead — they are
/// blanked (keeping line numbers) and returned, so the mail is not refused for its courtesy.
/// A mistyped last order still fails: it has digits, a hint, or good orders below it.
fn sign_off(text: &str, problems: &[Rejected]) -> Option<(String, Vec<String>)> {
    let lines: Vec<&str> = text.lines().collect();
    let non_empty: Vec<usize> = (0..lines.len())
        .filter(|i| !lines[*i].trim().is_empty())
        .collect();
    let bad: Vec<usize> = problems.iter().map(|p| p.line).collect();
    if bad.is_empty() || bad.contains(&0) || problems.iter().any(|p| p.hint.is_some()) {
        return None;
    }
    // The bad lines must be exactly the last non-empty lines.
    let tail: Vec<usize> = non_empty
        .iter()
        .rev()
        .take(bad.len())
        .map(|i| i + 1)
        .collect();
    let mut sorted = bad.clone();
    sorted.sort_unstable();
    sorted.dedup();
    let mut tail_sorted = tail.clone();
    tail_sorted.sort_unstable();
    if sorted != tail_sorted || sorted.len() > 3 || sorted.len() >= non_empty.len() {
        return None;
    }
    let closing: Vec<String> = sorted
        .iter()
        .map(|n| lines[n - 1].trim().to_string())
        .collect();
    if closing
        .iter()
        .any(|l| l.split_whitespace().count() > 5 || l.chars().any(|c| c.is_ascii_digit()))
    {
        return None;
    }
    let cleaned: Vec<&str> = lines
        .iter()
        .enumerate()
        .map(|(i, l)| if sorted.contains(&(i + 1)) { "" } else { *l })
        .collect();
    Some((cleaned.join("\n"), closing))
}

pub fn valid_game_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 40
        && id.starts_with(|c: char| c.is_ascii_lowercase())
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}
