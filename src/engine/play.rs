//! `Play`: one game whatever its ruleset, as the shell (daemon, store, verify, mail) sees it.
//! Object-safe, so the registry hands out `Box<dyn Play>` and nothing above the engine is
//! generic over a ruleset. This is the contract only: every game answers it in
//! `game_play.rs`, the ruleset's part from the ruleset and the decisions from decide.rs,
//! abandon.rs, pause.rs and example.rs. So this file names no decision, and every decision
//! may name it: the arrows run one way.

use chrono::{DateTime, Utc};

use crate::dice::Hash;

use super::campaign::CarryRefused;
use super::event::{Event, MAX_HOURS, ReplayError};
use super::game::{Book, HostFault, HostSecrets};
use super::ruleset::{Outcome, Rejected, SeatId, StepSpec, View, Viewer};

/// Why the organiser's command cannot be carried out.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GmError {
    #[error("game `{0}` is over")]
    Over(String),
    #[error("no seat `{seat}` (seats: {seats})")]
    NoSeat { seat: String, seats: String },
    #[error("--hours {0}: use a whole number of hours from -{MAX_HOURS} to {MAX_HOURS}, not 0")]
    Hours(i64),
    #[error("the step is already locked and resolving")]
    Locked,
    /// A strict step waits for reveals: see `strict::gm_refusal`.
    #[error("{0}")]
    AwaitingReveals(String),
    #[error("{0} has no absence that has not ended")]
    NoAbsence(String),
    #[error("--reason is empty: say why the game is abandoned; every seat and spectator reads it")]
    NoReason,
    /// The game's clock is stopped (engine/pause.rs): deadlines wait for `RESUME`.
    #[error(
        "the game is paused (since {}): its deadline is stopped; resume it first",
        .0.format("%a %-d %b %Y %H:%M UTC")
    )]
    Paused(DateTime<Utc>),
    #[error("the game is not paused: its clock is running, so there is nothing to resume")]
    NotPaused,
    #[error("the message is empty: write it on the lines after BROADCAST")]
    NoMessage,
}

/// One game, type-erased. Everything here is pure.
pub trait Play: Send + Sync {
    /// The ruleset-independent record.
    fn book(&self) -> &Book;
    /// The ruleset's name (`naval-rjw`).
    fn ruleset(&self) -> &'static str;
    /// The open step: who is asked what.
    fn spec(&self) -> StepSpec;
    /// `Some` once the game is over (by the rules or by forfeit).
    fn outcome(&self) -> Option<Outcome>;
    /// The ruleset's words for the result when its rules ended the game (`Ruleset::result_words`).
    fn result_words(&self) -> Option<String>;
    /// The victory test's figures as they stand (the ruleset's words), for the game-over mail.
    fn victory_figures(&self) -> Vec<String>;
    /// What `viewer` may see now.
    fn view(&self, viewer: &Viewer) -> View;
    /// Applies one journal line (live play and replay alike).
    fn apply(&mut self, event: &Event, line: &str, index: u64) -> Result<(), ReplayError>;
    /// Parses a seat's orders for the open step (the ruleset's grammar).
    fn parse_orders(&self, seat: &str, text: &str) -> Result<String, Vec<Rejected>>;
    /// Words that may begin a standing order or setting (`Ruleset::standing_keywords`).
    fn standing_keywords(&self) -> &'static [&'static str];
    /// The standing orders among `text`'s lines (others blanked) for a mail that does not
    /// answer the open step: their canonical form and the numbers of offered lines that are
    /// step orders after all; `None` when there are none (`Ruleset::standing`).
    fn standing_orders(
        &self,
        seat: &str,
        text: &str,
    ) -> Result<Option<(String, Vec<usize>)>, Vec<Rejected>>;
    /// Words that begin an order in this ruleset (for telling orders from sign-offs).
    fn order_keywords(&self) -> Vec<&'static str>;
    /// What `seat` plays for and with (welcome and HELP mails), its units' numbers included.
    fn briefing(&self, seat: &str) -> Vec<(String, Vec<String>)>;
    /// The numbers `seat`'s own units are ordered with (`Ruleset::unit_numbers`; `UNITS`).
    fn unit_numbers(&self, seat: &str) -> Vec<(String, Vec<String>)>;
    /// Whether a line looks like an order gone wrong (names a piece, or a keyword's near miss).
    fn looks_like_an_order(&self, line: &str) -> bool;
    /// Resolves the locked step with `v_k` into its results event (not yet applied).
    fn results_event(&self, v_k: &Hash, now: DateTime<Utc>) -> Result<Event, HostFault>;
    /// A legal set of orders for `seat`, chosen by `choice` (demo players, random play).
    fn sample_orders(&self, seat: &str, choice: u64) -> String;
    /// The ruleset state as JSON (snapshots, verify).
    fn state_json(&self) -> serde_json::Value;
    /// Hands in the salt key so replay checks every digest (v2; see `Game::open_digests`).
    fn open_digests(&mut self, z: Hash) -> Result<(), HostFault>;
    /// Campaigns: the next scenario as this finished game leaves the sides (`Ruleset::carry`).
    /// `terms` is the campaign's `[carry]` table.
    fn carry_into(
        &self,
        next_scenario_toml: &str,
        terms: &toml::Table,
    ) -> Result<String, CarryRefused>;
    fn boxed_clone(&self) -> Box<dyn Play>;

    // ---- read off the contract ----

    fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// True when the open step can be locked now: every required prompt answered, or the
    /// organiser closed the step.
    fn ready_to_lock(&self) -> bool {
        let b = self.book();
        // A paused step locks only once resumed, even with every order in (ruling O5).
        !self.is_over()
            && b.locked.is_none()
            && b.club.paused.is_none()
            && (b.closed_by_gm || self.waiting_for().is_empty())
    }

    fn is_prompted(&self, seat: &str) -> bool {
        self.spec().prompts.iter().any(|p| p.seat == seat)
    }

    // ---- the decisions (answered in game_play.rs) ----

    /// Seats whose required prompt is still unanswered (forfeited seats are never awaited).
    fn waiting_for(&self) -> Vec<SeatId>;

    /// One legal example of what `seat` is asked for now, from the ruleset's samples (the
    /// prompt's "For example"; `engine/example.rs`). `None` when it is asked nothing.
    fn example_orders(&self, seat: &str) -> Option<String>;

    /// Checks one seat's mail for the open step and returns the submission event, or every
    /// reason it cannot be applied. `answers` is the step the mail says it answers, if any;
    /// `salt` is `book().salt(seat, secrets)`.
    fn submission_event(
        &self,
        seat: &str,
        text: &str,
        answers: Option<u64>,
        salt: &Hash,
        message_id: &str,
        now: DateTime<Utc>,
    ) -> Result<Event, Vec<Rejected>>;

    /// The lock of the open step; seats without a submission are NMR.
    fn lock_event(&self, now: DateTime<Utc>) -> Event;

    /// The next event the game makes by itself, with no player and no clock: the results of a
    /// locked step, the lock of a step every seat has answered, the end of the game.
    fn next_event(
        &self,
        secrets: &dyn HostSecrets,
        now: DateTime<Utc>,
    ) -> Result<Option<Event>, HostFault>;

    /// What the clock makes due at `now`, to be applied in order: reminders, or at the
    /// deadline the silence policy (a lock, or a forfeit for every silent seat).
    fn due_events(&self, now: DateTime<Utc>) -> Vec<Event>;

    /// Whether nothing but mail, the clock or the organiser can move the game now.
    fn at_rest(&self) -> bool;

    /// The earliest moment the clock may make something due (see `decide::next_due`).
    fn next_due(&self) -> Option<DateTime<Utc>>;

    /// `Some(from_step)` when the newest onion is running low and a new one must be committed.
    fn renewal_due(&self) -> Option<u64>;

    /// The organiser moves the open step's deadline by `hours` (negative to shorten).
    fn gm_extend(&self, hours: i64, reason: &str, now: DateTime<Utc>) -> Result<Event, GmError>;

    /// The organiser closes the open step: it locks at once, silent seats NMR.
    fn gm_close_step(&self, reason: &str, now: DateTime<Utc>) -> Result<Event, GmError>;

    /// The organiser ends the game without a result, resolving nothing (engine/abandon.rs).
    fn gm_abandon(&self, reason: &str, now: DateTime<Utc>) -> Result<Event, GmError>;

    /// The organiser stops the open step's clock (engine/pause.rs).
    fn gm_pause(&self, reason: &str, now: DateTime<Utc>) -> Result<Event, GmError>;

    /// The organiser starts the clock again with the time that was left.
    fn gm_resume(&self, now: DateTime<Utc>) -> Result<Event, GmError>;

    /// The organiser hands `seat` to a new player.
    fn gm_replace(&self, seat: &str, reason: &str, now: DateTime<Utc>) -> Result<Event, GmError>;
}
