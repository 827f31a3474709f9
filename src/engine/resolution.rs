//! A step's resolution as the journal records it: the lock (the accepted orders and the silent
//! seats sealed in `L_k` on the log head) and the results (`v_k` opening the onion, the seed,
//! every roll and the state reached). Replay checks each against what the engine computes
//! again; live play goes through the same checks. Pure: the dice come from the journal's own
//! values, never from a clock or a secret this does not hold.

use chrono::{DateTime, Utc};

use crate::dice::{self, Dice, Hash, Protocol, Roll};

use super::event::{Event, ReplayError, err};
use super::game::{Game, LockInfo, Locked, state_digest};
use super::ruleset::{Ruleset, SeatId};

impl<R: Ruleset> Game<R> {
    /// A lock: made on the log head before it, from exactly the accepted submissions and the
    /// silent seats, with the `L_k` they give; the strict reveal clock starts.
    pub(super) fn apply_lock(&mut self, event: &Event, index: u64) -> Result<(), ReplayError> {
        let Event::Lock {
            step,
            log_head,
            seats,
            nmr,
            lock,
            at,
        } = event
        else {
            unreachable!("apply_lock is called for locks only")
        };
        let kind = event.kind();
        self.expect_step(index, kind, *step)?;
        if log_head != &dice::to_hex(&self.head) {
            return Err(err(
                index,
                kind,
                "log_head",
                "is not the log head before the lock",
            ));
        }
        let (exp_seats, exp_nmr, exp_lock) = super::decide::lock_parts(&self.book, &self.spec());
        let exp_lock = dice::to_hex(&exp_lock);
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
        self.book.locked = Some(Locked {
            lock: l,
            nmr: nmr.clone(),
        });
        self.book.last_lock = Some(LockInfo {
            step: *step,
            log_head: log_head.clone(),
            log_head_index: index.checked_sub(1),
            seats: seats.clone(),
            lock: lock.clone(),
            reveal: String::new(),
            seed: String::new(),
            strict: Vec::new(),
        });
        self.strict_on_lock(*at);
        Ok(())
    }

    /// A step's results: the reveal opens the onion (and, in v1, every digest), every strict
    /// reveal is in, the seed is the lock's, and the ruleset asks for exactly the journal's
    /// rolls and reaches exactly its state. Then the next step opens.
    pub(super) fn apply_results(&mut self, event: &Event, index: u64) -> Result<(), ReplayError> {
        let Event::Results {
            step,
            reveal,
            seed,
            rolls,
            state_digest: digest,
            at,
        } = event
        else {
            unreachable!("apply_results is called for results only")
        };
        let (step, kind) = (*step, "results");
        self.expect_step(index, kind, step)?;
        let Locked { lock, nmr } = self
            .locked
            .clone()
            .ok_or_else(|| err(index, kind, "step", "results without a lock"))?;
        let v = self.opened_reveal(index, step, reveal)?;
        let waiting = self.awaited_reveals();
        if !waiting.is_empty() {
            return Err(err(
                index,
                kind,
                "step",
                format!(
                    "results before the strict reveals of {}",
                    waiting.join(", ")
                ),
            ));
        }
        // Strict games list every strict seat (m of them), default games none (m = 0).
        let s = dice::seed_strict(self.protocol, &lock, &v, &self.strict_seed_inputs());
        if seed != &dice::to_hex(&s) {
            return Err(err(
                index,
                kind,
                "seed",
                format!("S_k should be {}", dice::to_hex(&s)),
            ));
        }
        if let Err((j, why)) = dice::check_table(&s, rolls) {
            return Err(err(index, kind, &format!("rolls[{j}]"), why));
        }
        let next = self.replayed(index, s, &nmr, rolls, digest)?;
        self.next_step(reveal, seed, rolls, v, next, *at);
        Ok(())
    }

    /// `v_k` of a results line, checked: it hashes to the onion's previous element (the first
    /// step of a renewed onion, to that onion's anchor), and in v1, where the salts of accepted
    /// submissions came from `v_k`, every digest opens with it.
    fn opened_reveal(&self, index: u64, step: u64, reveal: &str) -> Result<Hash, ReplayError> {
        let kind = "results";
        let v = dice::from_hex(reveal)
            .ok_or_else(|| err(index, kind, "reveal", "not 32 bytes of hex"))?;
        let previous = match self.onions.iter().rev().find(|o| o.from_step <= step) {
            Some(o) if o.from_step == step => o.anchor,
            _ => self.last_reveal,
        };
        if !dice::check_reveal(self.protocol, &self.id, &previous, &v) {
            return Err(err(
                index,
                kind,
                "reveal",
                format!("v_{step} does not hash to v_{}", step - 1),
            ));
        }
        if self.protocol == Protocol::V1 {
            for (seat, p) in &self.pending {
                let salt = dice::salt_v1(&v, seat);
                let d = dice::orders_digest(self.protocol, &self.id, step, seat, &salt, &p.orders);
                if d != p.digest {
                    return Err(err(
                        index,
                        kind,
                        "reveal",
                        format!("the digest of {seat}'s orders does not open with v_{step}"),
                    ));
                }
            }
        }
        Ok(v)
    }

    /// The state the ruleset reaches from the locked orders with seed `s`, checked against the
    /// journal's rolls (labels, faces and count) and its state digest.
    fn replayed(
        &self,
        index: u64,
        s: Hash,
        nmr: &[SeatId],
        rolls: &[Roll],
        digest: &str,
    ) -> Result<R::State, ReplayError> {
        let kind = "results";
        let mut dice = Dice::new(s);
        let subs = self
            .submissions(nmr)
            .map_err(|e| err(index, kind, "orders", e.to_string()))?;
        let next = R::resolve(&self.state, &subs, &mut dice);
        if dice.table() != rolls {
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
        if digest != state_digest(&next) {
            return Err(err(
                index,
                kind,
                "state_digest",
                "the replayed state differs",
            ));
        }
        Ok(next)
    }

    /// After checked results: the lock's record gets its reveal and seed, the state moves on
    /// and the next step opens with its deadline.
    fn next_step(
        &mut self,
        reveal: &str,
        seed: &str,
        rolls: &[Roll],
        v: Hash,
        next: R::State,
        at: DateTime<Utc>,
    ) {
        let strict = self.strict_after_results();
        if let Some(info) = self.book.last_lock.as_mut() {
            info.reveal = reveal.to_string();
            info.seed = seed.to_string();
            info.strict = strict;
        }
        self.book.last_step_title = self.spec().title;
        self.state = next;
        let b = &mut self.book;
        b.last_rolls = rolls.to_vec();
        b.last_reveal = v;
        b.step += 1;
        b.pending.clear();
        b.locked = None;
        b.reminders.clear();
        b.closed_by_gm = false;
        b.opened_at = at;
        self.open_deadline();
    }
}
