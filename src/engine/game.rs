//! The event-sourced game record. `Book` is everything the journal establishes that no ruleset
//! knows about (seats, steps, deadlines, digests, the dice chain); `Game<R>` is a book plus the
//! ruleset's state. `apply` both plays the game live and replays (verifies) a journal, checking
//! every promise of the dice protocol. Pure: time and secrets come in as values.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::{Deref, DerefMut};

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::dice::{self, Hash, Protocol, Roll, SaltKey, hex32};

use super::books::{ClubBook, StrictBook};
use super::event::PolicyRefused;
use super::event::{
    Event, LockEntry, Policy, ReplayError, SeatEntry, err, valid_game_id, valid_seat_id,
};
use super::ruleset::{Ruleset, SeatId, SetupRefused, Silence, StepSpec, Submitted};

/// An accepted submission waiting for the lock.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Pending {
    pub orders: String,
    #[serde(with = "hex32")]
    pub digest: Hash,
    pub message_id: String,
    pub at: DateTime<Utc>,
}

/// The lock of the open step, once taken (between `Lock` and `Results`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Locked {
    #[serde(with = "hex32")]
    pub lock: Hash,
    pub nmr: Vec<SeatId>,
}

/// One committed host onion: the first step it serves, its anchor and its length.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct OnionSegment {
    pub from_step: u64,
    #[serde(with = "hex32")]
    pub anchor: Hash,
    pub len: u64,
}

/// What a results mail prints so a player can re-derive the dice.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LockInfo {
    pub step: u64,
    pub log_head: String,
    /// The index of `log_head` in the journal (the line before the lock), so seats comparing
    /// their mails can match it with a footer's `log head #i` (absent in snapshots made before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub log_head_index: Option<u64>,
    pub seats: Vec<LockEntry>,
    pub lock: String,
    pub reveal: String,
    pub seed: String,
    /// Strict games: each strict seat's `r_seat_k` as `S_k` took it (empty when none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub strict: Vec<LockEntry>,
}

/// Why the engine cannot go on with what the host handed it: a secret missing from the store
/// or not matching the game, a step asked to resolve before it may, orders the journal holds
/// that the ruleset no longer reads. The host's to fix, never a player's doing; the words go to
/// the host's log.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HostFault {
    /// `HostSecrets::reveal` refused, in the store's words.
    #[error("{0}")]
    Reveal(String),
    #[error("this game's salt key is missing from the store")]
    NoSaltKey,
    #[error("the stored salt key does not match the game's commitment Z")]
    SaltKeyMismatch,
    #[error("the step is not locked")]
    NotLocked,
    #[error("waiting for the strict reveals of {}", .0.join(", "))]
    AwaitingReveals(Vec<SeatId>),
    #[error("canonical orders of {seat} no longer parse: {reason}")]
    OrdersNoLongerParse { seat: SeatId, reason: String },
}

/// Why a new game's first event was refused: nothing is journaled and the organiser is told
/// exactly this.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CreationRefused {
    #[error("game id `{0}`: use 1–40 characters a–z, 0–9 and `-`, starting with a letter")]
    GameId(String),
    #[error("seat `{0}`: use 1–24 characters a–z, 0–9, `_` and `-`, starting with a letter")]
    SeatId(String),
    #[error("onion_len must be at least 1")]
    NoOnion,
    #[error("policy: {0}")]
    Policy(#[from] PolicyRefused),
    #[error("a despatch-dice/v2 game needs a salt key commitment")]
    NoSaltCommitment,
    /// The ruleset could not set the game up from its data, scenario and seats.
    #[error(transparent)]
    Setup(#[from] SetupRefused),
}

/// The host's secrets as the engine may use them: `v_k` for a step and, from v2, the salt key.
/// The shell holds them (the store); the engine only computes with what it is handed.
pub trait HostSecrets {
    fn reveal(&self, k: u64) -> Result<Hash, String>;
    fn salt_key(&self) -> Option<Hash>;
}

/// Everything the journal establishes, whatever the ruleset.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Book {
    pub id: String,
    pub ruleset: String,
    pub scenario: String,
    pub protocol: Protocol,
    pub seats: Vec<SeatEntry>,
    #[serde(with = "hex32")]
    pub anchor: Hash,
    pub onion_len: u64,
    /// `Z` (v2).
    #[serde(with = "hex32::opt")]
    pub salt_commitment: Option<Hash>,
    /// `K`, the public key that signs every mail (games made since mails are signed).
    #[serde(default, with = "hex32::opt")]
    pub mail_key: Option<Hash>,
    /// `z` once the game-ended event published it (v2).
    #[serde(with = "hex32::opt")]
    pub salt_key: Option<Hash>,
    /// `z` handed in by an auditor holding the store (`open_digests`), so every digest is
    /// checked as it is replayed. Never written to a snapshot.
    #[serde(skip)]
    pub auditor_salt_key: Option<SaltKey>,
    pub policy: Policy,
    /// The step now open (1-based).
    pub step: u64,
    pub opened_at: DateTime<Utc>,
    pub deadline: Option<DateTime<Utc>>,
    pub pending: BTreeMap<SeatId, Pending>,
    pub locked: Option<Locked>,
    /// The last revealed onion element (`v_0` = anchor).
    #[serde(with = "hex32")]
    pub last_reveal: Hash,
    /// Every onion committed so far; the first is the game's own, later ones `OnionRenewed`.
    pub onions: Vec<OnionSegment>,
    pub reminders: Vec<(SeatId, u32)>,
    /// Seats out of the game under the `forfeit` policy.
    pub forfeited: Vec<SeatId>,
    /// True once `GameEnded` is journaled.
    pub ended: bool,
    /// The organiser closed the open step: it locks without waiting for silent seats.
    pub closed_by_gm: bool,
    /// Log chain: head after the last applied event, and how many events.
    #[serde(with = "hex32")]
    pub head: Hash,
    pub events: u64,
    /// The last results' roll table (for the results mail).
    pub last_rolls: Vec<Roll>,
    pub last_lock: Option<LockInfo>,
    /// The title of the step the last results resolved (the state has moved on since).
    pub last_step_title: String,
    /// Message-IDs of every applied submission: the journal, not `seen.log`, is the authority,
    /// so a mail re-read after a crash between the two is recognised.
    pub message_ids: BTreeSet<String>,
    /// Strict dice: the seats' anchors and the open step's reveals (`None` in default mode).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strict: Option<StrictBook>,
    /// Absences, concessions, resignations and an agreed draw (engine/seat_acts.rs).
    #[serde(default, skip_serializing_if = "ClubBook::is_empty")]
    pub club: ClubBook,
}

impl Book {
    pub fn seat_ids(&self) -> Vec<SeatId> {
        self.seats.iter().map(|s| s.seat.clone()).collect()
    }

    pub fn side_of(&self, seat: &str) -> Option<&str> {
        self.seats
            .iter()
            .find(|s| s.seat == seat)
            .map(|s| s.side.as_str())
    }

    /// Steps the newest onion can still serve after the open one.
    pub fn onion_steps_left(&self) -> u64 {
        let o = self.onions.last().expect("the game's own onion");
        (o.from_step + o.len).saturating_sub(self.step + 1)
    }

    /// The salt of `seat`'s orders in the open step: v1 from `v_k`, v2 from the salt key.
    pub fn salt(&self, seat: &str, secrets: &dyn HostSecrets) -> Result<Hash, HostFault> {
        match self.protocol {
            Protocol::V1 => {
                let v_k = secrets.reveal(self.step).map_err(HostFault::Reveal)?;
                Ok(dice::salt_v1(&v_k, seat))
            }
            Protocol::V2 => {
                let z = secrets.salt_key().ok_or(HostFault::NoSaltKey)?;
                Ok(dice::salt(&self.id, &z, self.step, seat))
            }
        }
    }

    /// The salt key that opens digests now, if any (published, or handed in by an auditor).
    pub(crate) fn opening_key(&self) -> Option<Hash> {
        self.salt_key.or(self.auditor_salt_key.map(|SaltKey(z)| z))
    }

    pub(crate) fn log(&mut self, line: &str) {
        self.head = dice::log_step(self.protocol, &self.head, line.as_bytes());
        self.events += 1;
    }

    pub(crate) fn expect_step(&self, index: u64, kind: &str, step: u64) -> Result<(), ReplayError> {
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

/// The game as the journal makes it: the book and the ruleset's state.
pub struct Game<R: Ruleset> {
    pub book: Book,
    pub state: R::State,
}

// By hand: a derive would ask the ruleset's marker type to be `Clone` and `Debug` too.
impl<R: Ruleset> std::fmt::Debug for Game<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Game")
            .field("book", &self.book)
            .field("state", &self.state)
            .finish()
    }
}

impl<R: Ruleset> Clone for Game<R> {
    fn clone(&self) -> Self {
        Game {
            book: self.book.clone(),
            state: self.state.clone(),
        }
    }
}

impl<R: Ruleset> Deref for Game<R> {
    type Target = Book;
    fn deref(&self) -> &Book {
        &self.book
    }
}

impl<R: Ruleset> DerefMut for Game<R> {
    fn deref_mut(&mut self) -> &mut Book {
        &mut self.book
    }
}

/// The open step's length: the longest of its prompts' hours under the policy.
pub fn step_length(policy: &Policy, spec: &StepSpec) -> Option<Duration> {
    spec.prompts
        .iter()
        .map(|p| {
            policy
                .hours_by_kind
                .get(&p.kind)
                .copied()
                .unwrap_or(policy.step_hours)
        })
        .max()
        .map(|h| Duration::hours(h as i64))
}

pub fn state_digest<S: Serialize>(state: &S) -> String {
    let bytes = serde_json::to_vec(state).expect("states always serialise");
    dice::to_hex(&Sha256::digest(&bytes).into())
}

/// The hashes of a game's first event: its anchor, its salt key commitment `Z` (which a v2
/// game must have) and its mail key `K`, each 32 bytes of hex.
#[allow(clippy::type_complexity)]
fn created_keys(
    anchor: &str,
    salt_commitment: &Option<String>,
    mail_key: &Option<String>,
    protocol: Protocol,
) -> Result<(Hash, Option<Hash>, Option<Hash>), ReplayError> {
    let anchor = dice::from_hex(anchor)
        .ok_or_else(|| err(0, "game_created", "anchor", "not 32 bytes of hex"))?;
    let salt_commitment = match salt_commitment {
        Some(z) => Some(
            dice::from_hex(z)
                .ok_or_else(|| err(0, "game_created", "salt_commitment", "not 32 bytes of hex"))?,
        ),
        None if protocol == Protocol::V2 => {
            return Err(err(
                0,
                "game_created",
                "salt_commitment",
                "missing in a v2 game",
            ));
        }
        None => None,
    };
    let mail_key = match mail_key {
        Some(k) => Some(
            dice::from_hex(k)
                .ok_or_else(|| err(0, "game_created", "mail_key", "not 32 bytes of hex"))?,
        ),
        None => None,
    };
    Ok((anchor, salt_commitment, mail_key))
}

/// What a new game is made of, besides the ruleset: the shell gathers it.
#[derive(Debug, Clone)]
pub struct Creation<'a> {
    pub game: &'a str,
    pub scenario: &'a str,
    pub ruleset_toml: &'a str,
    pub scenario_toml: &'a str,
    pub seats: &'a [SeatId],
    pub protocol: Protocol,
    pub anchor: Hash,
    pub onion_len: u64,
    pub salt_commitment: Option<Hash>,
    /// `K`, the public key that signs the game's mails (docs/dice-protocol.md).
    pub mail_key: Option<Hash>,
    pub policy: Policy,
    pub now: DateTime<Utc>,
}

impl<R: Ruleset> Game<R> {
    /// The first event of a game, after checking everything it is made of.
    pub fn creation_event(c: &Creation) -> Result<Event, CreationRefused> {
        if !valid_game_id(c.game) {
            return Err(CreationRefused::GameId(c.game.to_string()));
        }
        if let Some(bad) = c.seats.iter().find(|s| !valid_seat_id(s)) {
            return Err(CreationRefused::SeatId(bad.clone()));
        }
        if c.onion_len == 0 {
            return Err(CreationRefused::NoOnion);
        }
        c.policy.check()?;
        if c.protocol == Protocol::V2 && c.salt_commitment.is_none() {
            return Err(CreationRefused::NoSaltCommitment);
        }
        let state = R::setup(c.ruleset_toml, c.scenario_toml, c.seats)?;
        Ok(Event::GameCreated {
            game: c.game.to_string(),
            ruleset: R::NAME.to_string(),
            scenario: c.scenario.to_string(),
            ruleset_toml: c.ruleset_toml.to_string(),
            scenario_toml: c.scenario_toml.to_string(),
            seats: R::seats(&state)
                .into_iter()
                .map(|(seat, side)| SeatEntry { seat, side })
                .collect(),
            anchor: dice::to_hex(&c.anchor),
            onion_len: c.onion_len,
            policy: c.policy.clone(),
            at: c.now,
            protocol: c.protocol,
            salt_commitment: c.salt_commitment.as_ref().map(dice::to_hex),
            mail_key: c.mail_key.as_ref().map(dice::to_hex),
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
            protocol,
            salt_commitment,
            mail_key,
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
            .map_err(|e| err(0, "game_created", "scenario_toml", e.to_string()))?;
        let (anchor, salt_commitment, mail_key) =
            created_keys(anchor, salt_commitment, mail_key, *protocol)?;
        let mut book = Book {
            id: game.clone(),
            ruleset: ruleset.clone(),
            scenario: scenario.clone(),
            protocol: *protocol,
            seats: seats.clone(),
            anchor,
            onion_len: *onion_len,
            salt_commitment,
            mail_key,
            salt_key: None,
            auditor_salt_key: None,
            policy: policy.clone(),
            step: 1,
            opened_at: *at,
            deadline: None,
            pending: BTreeMap::new(),
            locked: None,
            last_reveal: anchor,
            onions: vec![OnionSegment {
                from_step: 1,
                anchor,
                len: *onion_len,
            }],
            reminders: Vec::new(),
            forfeited: Vec::new(),
            ended: false,
            closed_by_gm: false,
            head: dice::log_genesis(*protocol),
            events: 0,
            last_rolls: Vec::new(),
            last_lock: None,
            last_step_title: String::new(),
            message_ids: BTreeSet::new(),
            strict: None,
            club: Default::default(),
        };
        book.log(line);
        let mut g = Game { book, state };
        g.open_deadline();
        Ok(g)
    }

    /// Hands in the salt key from the store, so replay checks every digest as it goes (v2).
    /// `Err` if it does not match the game's commitment.
    pub fn open_digests(&mut self, z: Hash) -> Result<(), HostFault> {
        if self.protocol != Protocol::V2 {
            return Ok(());
        }
        if self.salt_commitment != Some(dice::salt_key_commitment(&self.id, &z)) {
            return Err(HostFault::SaltKeyMismatch);
        }
        self.book.auditor_salt_key = Some(SaltKey(z));
        Ok(())
    }

    pub fn spec(&self) -> StepSpec {
        R::step(&self.state)
    }

    pub(crate) fn compute_deadline(&self) -> Option<DateTime<Utc>> {
        let len = step_length(&self.policy, &self.spec())?;
        self.opened_at.checked_add_signed(len)
    }

    pub(crate) fn submissions(
        &self,
        nmr: &[SeatId],
    ) -> Result<BTreeMap<SeatId, Submitted<R::Orders>>, HostFault> {
        let mut subs = BTreeMap::new();
        for (seat, p) in &self.pending {
            let orders = R::parse(&self.state, seat, &p.orders).map_err(|r| {
                HostFault::OrdersNoLongerParse {
                    seat: seat.clone(),
                    reason: r.first().map_or("?", |x| x.reason.as_str()).to_string(),
                }
            })?;
            subs.insert(seat.clone(), Submitted::Orders(orders));
        }
        for seat in nmr {
            let silence = if self.forfeited.contains(seat) {
                Silence::Forfeit
            } else if self.club.resigned.contains(seat) {
                // A seat without a player is answered by its standing orders (ruling R1).
                Silence::StandingOrders
            } else {
                self.policy.on_silence
            };
            subs.insert(seat.clone(), Submitted::Nmr(silence));
        }
        Ok(subs)
    }
}
