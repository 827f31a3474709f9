//! Every game answers the `Play` contract (engine/play.rs): the ruleset's part from `R`, the
//! decisions by handing the game to decide.rs, abandon.rs, pause.rs and example.rs, which take
//! any `Play`. This file sits above them all so that none of them names it: the contract is a
//! leaf, the decisions depend on it, and only here are the two put together.

use chrono::{DateTime, Utc};

use crate::dice::{self, Dice, Hash};

use super::campaign::CarryRefused;
use super::event::{Event, ReplayError};
use super::game::{Book, Game, HostFault, HostSecrets, state_digest};
use super::play::{GmError, Play};
use super::ruleset::{Outcome, Rejected, Ruleset, SeatId, StepSpec, View, Viewer};
use super::{abandon, decide, example, pause};

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

    fn results_event(&self, v_k: &Hash, now: DateTime<Utc>) -> Result<Event, HostFault> {
        let locked = self.locked.as_ref().ok_or(HostFault::NotLocked)?;
        let waiting = self.awaited_reveals();
        if !waiting.is_empty() {
            return Err(HostFault::AwaitingReveals(waiting));
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

    fn open_digests(&mut self, z: Hash) -> Result<(), HostFault> {
        Game::open_digests(self, z)
    }

    fn boxed_clone(&self) -> Box<dyn Play> {
        Box::new(self.clone())
    }

    fn carry_into(
        &self,
        next_scenario_toml: &str,
        terms: &toml::Table,
    ) -> Result<String, CarryRefused> {
        R::carry(&self.state, next_scenario_toml, terms)
    }

    // ---- the decisions ----

    fn waiting_for(&self) -> Vec<SeatId> {
        decide::waiting_for(self.book(), &self.spec())
    }

    fn example_orders(&self, seat: &str) -> Option<String> {
        example::example_orders(self, seat)
    }

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

    fn lock_event(&self, now: DateTime<Utc>) -> Event {
        decide::lock_event(self.book(), &self.spec(), now)
    }

    fn next_event(
        &self,
        secrets: &dyn HostSecrets,
        now: DateTime<Utc>,
    ) -> Result<Option<Event>, HostFault> {
        decide::next_event(self, secrets, now)
    }

    fn due_events(&self, now: DateTime<Utc>) -> Vec<Event> {
        decide::due_events(self, now)
    }

    fn at_rest(&self) -> bool {
        decide::at_rest(self)
    }

    fn next_due(&self) -> Option<DateTime<Utc>> {
        decide::next_due(self)
    }

    fn renewal_due(&self) -> Option<u64> {
        decide::renewal_due(self)
    }

    fn gm_extend(&self, hours: i64, reason: &str, now: DateTime<Utc>) -> Result<Event, GmError> {
        decide::gm_extend(self, hours, reason, now)
    }

    fn gm_close_step(&self, reason: &str, now: DateTime<Utc>) -> Result<Event, GmError> {
        decide::gm_close_step(self, reason, now)
    }

    fn gm_abandon(&self, reason: &str, now: DateTime<Utc>) -> Result<Event, GmError> {
        abandon::gm_abandon(self, reason, now)
    }

    fn gm_pause(&self, reason: &str, now: DateTime<Utc>) -> Result<Event, GmError> {
        pause::gm_pause(self, reason, now)
    }

    fn gm_resume(&self, now: DateTime<Utc>) -> Result<Event, GmError> {
        pause::gm_resume(self, now)
    }

    fn gm_replace(&self, seat: &str, reason: &str, now: DateTime<Utc>) -> Result<Event, GmError> {
        decide::gm_replace(self, seat, reason, now)
    }
}
