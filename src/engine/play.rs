//! `Play`: one game whatever its ruleset, as the shell (daemon, store, verify, mail) sees it.
//! Object-safe, so the registry hands out `Box<dyn Play>` and nothing above the engine is
//! generic over a ruleset. The decisions themselves live in `decide.rs`; this is the contract.

use chrono::{DateTime, Utc};

use crate::dice::{self, Dice, Hash};

use super::decide::{self, GmError};
use super::event::{Event, ReplayError};
use super::game::{Book, Game, HostSecrets, state_digest};
use super::ruleset::{Outcome, Rejected, Ruleset, SeatId, StepSpec, View, Viewer};

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
    fn results_event(&self, v_k: &Hash, now: DateTime<Utc>) -> Result<Event, String>;
    /// A legal set of orders for `seat`, chosen by `choice` (demo players, random play).
    fn sample_orders(&self, seat: &str, choice: u64) -> String;
    /// The ruleset state as JSON (snapshots, verify).
    fn state_json(&self) -> serde_json::Value;
    /// Hands in the salt key so replay checks every digest (v2; see `Game::open_digests`).
    fn open_digests(&mut self, z: Hash) -> Result<(), String>;
    /// Campaigns: the next scenario as this finished game leaves the sides (`Ruleset::carry`).
    /// `terms` is the campaign's `[carry]` table.
    fn carry_into(&self, next_scenario_toml: &str, terms: &toml::Table) -> Result<String, String>;
    fn boxed_clone(&self) -> Box<dyn Play>;

    // ---- derived; the bodies are in decide.rs ----

    fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// Seats whose required prompt is still unanswered (forfeited seats are never awaited).
    fn waiting_for(&self) -> Vec<SeatId> {
        decide::waiting_for(self.book(), &self.spec())
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

    /// One legal example of what `seat` is asked for now, from the ruleset's samples (the
    /// prompt's "For example"; `engine/example.rs`). `None` when it is asked nothing.
    fn example_orders(&self, seat: &str) -> Option<String> {
        super::example::example_orders(self, seat)
    }

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
    ) -> Result<Event, Vec<Rejected>> {
        decide::submission_event(self, seat, text, answers, salt, message_id, now)
    }

    /// The lock of the open step; seats without a submission are NMR.
    fn lock_event(&self, now: DateTime<Utc>) -> Event {
        decide::lock_event(self.book(), &self.spec(), now)
    }

    /// The next event the game makes by itself, with no player and no clock: the results of a
    /// locked step, the lock of a step every seat has answered, the end of the game.
    fn next_event(
        &self,
        secrets: &dyn HostSecrets,
        now: DateTime<Utc>,
    ) -> Result<Option<Event>, String> {
        decide::next_event(self, secrets, now)
    }

    /// What the clock makes due at `now`, to be applied in order: reminders, or at the
    /// deadline the silence policy (a lock, or a forfeit for every silent seat).
    fn due_events(&self, now: DateTime<Utc>) -> Vec<Event> {
        decide::due_events(self, now)
    }

    /// Whether nothing but mail, the clock or the organiser can move the game now.
    fn at_rest(&self) -> bool {
        decide::at_rest(self)
    }

    /// The earliest moment the clock may make something due (see `decide::next_due`).
    fn next_due(&self) -> Option<DateTime<Utc>> {
        decide::next_due(self)
    }

    /// `Some(from_step)` when the newest onion is running low and a new one must be committed.
    fn renewal_due(&self) -> Option<u64> {
        decide::renewal_due(self)
    }

    /// The organiser moves the open step's deadline by `hours` (negative to shorten).
    fn gm_extend(&self, hours: i64, reason: &str, now: DateTime<Utc>) -> Result<Event, GmError> {
        decide::gm_extend(self, hours, reason, now)
    }

    /// The organiser closes the open step: it locks at once, silent seats NMR.
    fn gm_close_step(&self, reason: &str, now: DateTime<Utc>) -> Result<Event, GmError> {
        decide::gm_close_step(self, reason, now)
    }

    /// The organiser ends the game without a result, resolving nothing (engine/abandon.rs).
    fn gm_abandon(&self, reason: &str, now: DateTime<Utc>) -> Result<Event, GmError> {
        super::abandon::gm_abandon(self, reason, now)
    }

    /// The organiser stops the open step's clock (engine/pause.rs).
    fn gm_pause(&self, reason: &str, now: DateTime<Utc>) -> Result<Event, GmError> {
        super::pause::gm_pause(self, reason, now)
    }

    /// The organiser starts the clock again with the time that was left.
    fn gm_resume(&self, now: DateTime<Utc>) -> Result<Event, GmError> {
        super::pause::gm_resume(self, now)
    }

    /// The organiser hands `seat` to a new player.
    fn gm_replace(&self, seat: &str, reason: &str, now: DateTime<Utc>) -> Result<Event, GmError> {
        decide::gm_replace(self, seat, reason, now)
    }
}

impl<R: Ruleset> Play for Game<R> {
    fn book(&self) -> &Book {
        &self.book
    }

    fn ruleset(&self) -> &'static str {
        R::NAME
    }

    fn spec(&self) -> StepSpec {
        R::step(&self.state)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome_now()
    }

    fn result_words(&self) -> Option<String> {
        self.result_words_now()
    }

    fn victory_figures(&self) -> Vec<String> {
        R::victory_figures(&self.state)
    }

    fn view(&self, viewer: &Viewer) -> View {
        R::view(&self.state, viewer)
    }

    fn apply(&mut self, event: &Event, line: &str, index: u64) -> Result<(), ReplayError> {
        Game::apply(self, event, line, index)
    }

    fn parse_orders(&self, seat: &str, text: &str) -> Result<String, Vec<Rejected>> {
        R::parse(&self.state, seat, text).map(|o| R::canonical(&o))
    }

    fn order_keywords(&self) -> Vec<&'static str> {
        R::order_keywords()
    }

    fn standing_keywords(&self) -> &'static [&'static str] {
        R::standing_keywords()
    }

    fn standing_orders(
        &self,
        seat: &str,
        text: &str,
    ) -> Result<Option<(String, Vec<usize>)>, Vec<Rejected>> {
        let read = R::standing(&self.state, seat, text)?;
        let Some((state, canonical)) = read.applied else {
            return Ok(None);
        };
        // Orders already sent for the open step are read again at its lock, against the state
        // then: standing orders that would unmake one wait for the seat's next mail (SO4).
        if let Some(who) = self
            .pending
            .iter()
            .find(|(s, p)| R::parse(&state, s, &p.orders).is_err())
            .map(|(s, _)| s)
        {
            return Err(vec![Rejected {
                line: 0,
                text: String::new(),
                reason: format!(
                    "these standing orders would unmake the orders {who} has sent for the open \
                     step, so they are not applied now"
                ),
                hint: Some("send them again with your orders for the next step".into()),
            }]);
        }
        Ok(Some((canonical, read.other)))
    }

    fn briefing(&self, seat: &str) -> Vec<(String, Vec<String>)> {
        // The units' numbers belong in the welcome too (issue 30 point 6); a ruleset whose
        // briefing already holds them under the same title is not shown them twice.
        let mut sections = R::briefing(&self.state, seat);
        for (title, lines) in R::unit_numbers(&self.state, seat) {
            if !sections.iter().any(|(t, _)| t.eq_ignore_ascii_case(&title)) {
                sections.push((title, lines));
            }
        }
        sections
    }

    fn unit_numbers(&self, seat: &str) -> Vec<(String, Vec<String>)> {
        R::unit_numbers(&self.state, seat)
    }

    fn looks_like_an_order(&self, line: &str) -> bool {
        R::looks_like_an_order(&self.state, line)
    }

    fn results_event(&self, v_k: &Hash, now: DateTime<Utc>) -> Result<Event, String> {
        let locked = self.locked.as_ref().ok_or("the step is not locked")?;
        let waiting = self.awaited_reveals();
        if !waiting.is_empty() {
            return Err(format!(
                "waiting for the strict reveals of {}",
                waiting.join(", ")
            ));
        }
        let seed = dice::seed_strict(self.protocol, &locked.lock, v_k, &self.strict_seed_inputs());
        let mut dice = Dice::new(seed);
        let subs = self.submissions(&locked.nmr)?;
        let next = R::resolve(&self.state, &subs, &mut dice);
        Ok(Event::Results {
            step: self.step,
            reveal: dice::to_hex(v_k),
            seed: dice::to_hex(&seed),
            rolls: dice.into_table(),
            state_digest: state_digest(&next),
            at: now,
        })
    }

    fn sample_orders(&self, seat: &str, choice: u64) -> String {
        R::sample_orders(&self.state, seat, choice)
    }

    fn state_json(&self) -> serde_json::Value {
        serde_json::to_value(&self.state).expect("states always serialise")
    }

    fn open_digests(&mut self, z: Hash) -> Result<(), String> {
        Game::open_digests(self, z)
    }

    fn boxed_clone(&self) -> Box<dyn Play> {
        Box::new(self.clone())
    }

    fn carry_into(&self, next_scenario_toml: &str, terms: &toml::Table) -> Result<String, String> {
        R::carry(&self.state, next_scenario_toml, terms)
    }
}
