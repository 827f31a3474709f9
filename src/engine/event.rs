//! The journal's vocabulary: one `Event` per line, hashed byte for byte into the log chain, plus
//! the per-game policy they carry. New fields are optional and skipped when empty, so a line
//! written by an earlier build re-serialises to the same bytes and old games keep verifying.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::dice::{Protocol, Roll};

use super::club::{Club, ClubRefused, OnResign};
pub use super::ids::{valid_game_id, valid_seat_id};
use super::ruleset::{SeatId, Silence};

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
    /// Press, absences, resignation and spectators (config.toml `[games.policy.club]`).
    #[serde(default, skip_serializing_if = "Club::is_default")]
    pub club: Club,
}

impl Default for Policy {
    /// The documented defaults (config.toml's `[games.policy]`): one set, used wherever a
    /// configuration leaves the policy out.
    fn default() -> Self {
        Self {
            step_hours: 72,
            hours_by_kind: BTreeMap::from([("setup".into(), 120), ("fire".into(), 48)]),
            reminder_hours: vec![24, 4],
            grace_hours: 0,
            on_silence: Silence::StandingOrders,
            club: Club::default(),
        }
    }
}

/// Why a game's policy is refused: hours out of their range, or its club's settings. Checked
/// before any game uses it; the words name the key to fix.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PolicyRefused {
    /// `step_hours`, `hours_by_kind.<kind>` or `reminder_hours`.
    #[error("{key} = {hours}: use 1 to {MAX_HOURS} hours")]
    Hours { key: String, hours: u32 },
    #[error("grace_hours = {0}: use 0 to {MAX_HOURS} hours")]
    Grace(u32),
    #[error(transparent)]
    Club(#[from] ClubRefused),
}

/// Longest a step, a grace or a reminder may be: ten years. Anything longer is a typo, and
/// times that far out would overflow the calendar arithmetic.
pub const MAX_HOURS: u32 = 24 * 366 * 10;

impl Policy {
    /// Checks every number, so a bad configuration is refused before any game uses it.
    pub fn check(&self) -> Result<(), PolicyRefused> {
        let hours = |key: &str, hours: u32| {
            if hours == 0 || hours > MAX_HOURS {
                Err(PolicyRefused::Hours {
                    key: key.to_string(),
                    hours,
                })
            } else {
                Ok(())
            }
        };
        hours("step_hours", self.step_hours)?;
        for (kind, h) in &self.hours_by_kind {
            hours(&format!("hours_by_kind.{kind}"), *h)?;
        }
        for h in &self.reminder_hours {
            hours("reminder_hours", *h)?;
        }
        if self.grace_hours > MAX_HOURS {
            return Err(PolicyRefused::Grace(self.grace_hours));
        }
        Ok(self.club.check()?)
    }
}

/// One seat as the journal records it (no address, no secret: the journal can be shown to auditors).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatEntry {
    pub seat: SeatId,
    pub side: String,
}

/// A seat's digest in a lock (empty = NMR, hashed as the empty string).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LockEntry {
    pub seat: SeatId,
    pub digest: String,
}

fn is_v1(p: &Protocol) -> bool {
    *p == Protocol::V1
}

/// A strict seat's commitment: the anchor of the onion the player made with
/// `despatch player init` (party = the seat), and its length.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StrictAnchor {
    pub seat: SeatId,
    pub anchor: String,
    pub onion_len: u64,
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
        /// The dice protocol; absent in games created under v1.
        #[serde(default, skip_serializing_if = "is_v1")]
        protocol: Protocol,
        /// `Z`, the commitment to the salt key (v2).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        salt_commitment: Option<String>,
        /// `K`, the public Ed25519 key that signs the game's mails; absent in games made
        /// before mails were signed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mail_key: Option<String>,
    },
    Submission {
        step: u64,
        seat: SeatId,
        digest: String,
        orders: String,
        message_id: String,
        at: DateTime<Utc>,
        /// Closing lines of the mail not read as orders (a sign-off), echoed in the receipt so
        /// the player sees what was skipped.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        ignored: Vec<String>,
    },
    /// Standing orders and settings from a mail that did not answer the open step (ruling SO1
    /// in docs/standing-orders.md): in force from this line on. Their digest is made as a
    /// submission's, with the seat's salt for the open step, so the salt key opens it.
    Standing {
        step: u64,
        seat: SeatId,
        digest: String,
        orders: String,
        message_id: String,
        at: DateTime<Utc>,
        /// The step the mail answered, when it named one (it had resolved).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        answered: Option<u64>,
        /// The mail's other lines: orders for a step, which changed nothing (the reply lists
        /// them with the reason).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        not_applied: Vec<String>,
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
        /// Moved for a seat's absence (or back after one is withdrawn or refused), not set by
        /// the organiser: the step's deadline without absences stays what it was.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        absence: bool,
    },
    /// A seat that stayed silent under the `forfeit` policy is out of the game.
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
    /// The game is over; under v2 the salt key `z` is published, so anyone can open every
    /// orders digest of the game.
    GameEnded {
        step: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        salt_key: Option<String>,
        at: DateTime<Utc>,
    },
    /// Strict dice (dice-protocol.md, "Strict mode"): the seats whose own onion element joins
    /// every seed, their anchors, and the hours a reveal may take after a lock. Journaled right
    /// after `GameCreated`, so every seat has the anchors before any orders are sent.
    StrictMode {
        seats: Vec<StrictAnchor>,
        reveal_hours: u32,
        at: DateTime<Utc>,
        /// How a seat's onion is indexed: `"reveal"` (its `j`-th reveal is `c_{N-j}`), or
        /// absent in games created before it (step `k` used `c_{N-k}`), which replay as before.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        onion_index: Option<String>,
    },
    /// A strict seat's reveal `r_seat_k` for the locked step, quoting the `L_k` it was shown.
    Reveal {
        step: u64,
        seat: SeatId,
        lock: String,
        reveal: String,
        message_id: String,
        at: DateTime<Utc>,
    },
    /// A strict seat opened its onion after the game ended (games whose reveals are bound to
    /// their lock, ruling S11): `element` is its `e_J`, from which every earlier element
    /// follows by hashing, so each reveal it gave can be checked against its lock and anchor.
    StrictOpened {
        seat: SeatId,
        /// `J`: the number of reveals the game used, the last of which `element` is.
        reveal: u64,
        element: String,
        message_id: String,
        at: DateTime<Utc>,
    },
    /// A strict seat's reveal that quoted another `L_k` than the journal's: kept as the
    /// seat's proof that it was shown a different lock (a split view). Its `r` is not used.
    SplitLock {
        step: u64,
        seat: SeatId,
        quoted: String,
        lock: String,
        message_id: String,
        at: DateTime<Utc>,
    },
    /// The reveal deadline passed (or the organiser closed the step) without these strict
    /// seats' reveals: their `r` is empty in `S_k`. Only in games without `onion_index` (the
    /// old ruling S2); a game indexed by reveal never resolves a step without every reveal.
    RevealMissed {
        step: u64,
        seats: Vec<SeatId>,
        at: DateTime<Utc>,
    },
    /// The reveal deadline passed with these strict seats' reveals still missing: told to
    /// every seat, and the step goes on waiting (ruling S2 in docs/strict-dice.md).
    RevealOverdue {
        step: u64,
        seats: Vec<SeatId>,
        at: DateTime<Utc>,
    },
    /// A press message between players (`PRESS TO …`, issue 16): who sent it to whom and its
    /// digest `P` (`engine::press`); its text and salt only under `press_record = "text"`.
    Press {
        step: u64,
        from: SeatId,
        to: Vec<SeatId>,
        /// Relayed to the game's organiser too.
        #[serde(default, skip_serializing_if = "is_false")]
        gm: bool,
        digest: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        salt: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        text: Option<String>,
        message_id: String,
        at: DateTime<Utc>,
    },
    /// An observer began to watch (issue 16, point 5). Only an opaque id is journaled: the
    /// address stays in the private seats file, since the journal is shown to auditors.
    /// `by` is `gm` or the seat that added them; `watching` the count after the change.
    SpectatorJoined {
        step: u64,
        spectator: String,
        by: String,
        watching: u32,
        at: DateTime<Utc>,
    },
    /// An observer stopped watching (same fields as `SpectatorJoined`).
    SpectatorLeft {
        step: u64,
        spectator: String,
        by: String,
        watching: u32,
        at: DateTime<Utc>,
    },
    // ---- Club life (issue 16 points 3 and 4; docs/club-rules.md, engine/seat_acts.rs) ----
    /// A seat will be away: whole days of its own time zone, `first_day` to `last_day`, held as
    /// the instants `from` (inclusive) and `until` (exclusive) so replay needs no zone.
    Absent {
        seat: SeatId,
        first_day: chrono::NaiveDate,
        last_day: chrono::NaiveDate,
        from: DateTime<Utc>,
        until: DateTime<Utc>,
        at: DateTime<Utc>,
    },
    /// The absence of `seat` beginning at `from` no longer stands: withdrawn by its seat
    /// before it began, or `refused` by the organiser.
    AbsenceCancelled {
        seat: SeatId,
        from: DateTime<Utc>,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        refused: bool,
        #[serde(default, skip_serializing_if = "String::is_empty")]
        reason: String,
        at: DateTime<Utc>,
    },
    /// `seat` conceded for its whole side: the side is out of the game (ruling C1).
    Conceded {
        step: u64,
        seat: SeatId,
        side: String,
        at: DateTime<Utc>,
    },
    /// `seat`'s player left the game; the seat goes on as the policy of the time said.
    Resigned {
        step: u64,
        seat: SeatId,
        on_resign: OnResign,
        at: DateTime<Utc>,
    },
    /// Every seat still playing agreed a draw (the votes themselves were never journaled).
    DrawAgreed {
        step: u64,
        seats: Vec<SeatId>,
        at: DateTime<Utc>,
    },
    /// The organiser ended the game without a result (`despatch gm abandon`, engine/abandon.rs):
    /// no winner, no draw, and step `step` never resolved — nothing is locked or rolled by it.
    GameAbandoned {
        step: u64,
        reason: String,
        at: DateTime<Utc>,
    },
    // ---- The organiser's desk (issue 31 point 4; engine/pause.rs, club-rules.md O2–O9) ----
    /// The organiser stopped the clock of step `step`: no deadline passes, no reminder goes
    /// and no silence is applied until `game_resumed`. Orders still arrive and are kept.
    GamePaused {
        step: u64,
        reason: String,
        at: DateTime<Utc>,
    },
    /// The clock runs again: the open step's deadline is `at` plus the time that was left at
    /// the pause (at least an hour, ruling O6); replay recomputes it and refuses another.
    GameResumed {
        step: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        deadline: Option<DateTime<Utc>>,
        at: DateTime<Utc>,
    },
    /// A message from the organiser to every seat (`BROADCAST`): its digest `P` as press has
    /// (`engine::press::digest`, from `gm`); its text and salt only under `press_record = "text"`.
    GmBroadcast {
        step: u64,
        digest: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        salt: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        text: Option<String>,
        /// The league it went to, when it was sent to every game of one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        league: Option<String>,
        at: DateTime<Utc>,
    },
}

fn is_false(b: &bool) -> bool {
    !*b
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
            Event::Standing { .. } => "standing",
            Event::Lock { .. } => "lock",
            Event::Results { .. } => "results",
            Event::Reminder { .. } => "reminder",
            Event::DeadlineChanged { .. } => "deadline_changed",
            Event::Forfeit { .. } => "forfeit",
            Event::OnionRenewed { .. } => "onion_renewed",
            Event::GmAction { .. } => "gm_action",
            Event::GameEnded { .. } => "game_ended",
            Event::StrictMode { .. } => "strict_mode",
            Event::Reveal { .. } => "reveal",
            Event::SplitLock { .. } => "split_lock",
            Event::RevealMissed { .. } => "reveal_missed",
            Event::RevealOverdue { .. } => "reveal_overdue",
            Event::StrictOpened { .. } => "strict_opened",
            Event::Press { .. } => "press",
            Event::SpectatorJoined { .. } => "spectator_joined",
            Event::SpectatorLeft { .. } => "spectator_left",
            Event::Absent { .. } => "absent",
            Event::AbsenceCancelled { .. } => "absence_cancelled",
            Event::Conceded { .. } => "conceded",
            Event::Resigned { .. } => "resigned",
            Event::DrawAgreed { .. } => "draw_agreed",
            Event::GameAbandoned { .. } => "game_abandoned",
            Event::GamePaused { .. } => "game_paused",
            Event::GameResumed { .. } => "game_resumed",
            Event::GmBroadcast { .. } => "gm_broadcast",
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

pub(crate) fn err(index: u64, kind: &str, field: &str, detail: impl Into<String>) -> ReplayError {
    ReplayError {
        index,
        kind: kind.to_string(),
        field: field.to_string(),
        detail: detail.into(),
    }
}
