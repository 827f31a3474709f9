//! Applying one journal line to a game: the same code plays the game live and replays (verifies)
//! a journal, checking every promise of the dice protocol — the log chain, the onion's reveals,
//! each lock's inputs, each seed and every roll, and the digests a known salt key opens. Pure.

use chrono::{DateTime, Utc};

use crate::dice::{self, Dice, Protocol, Roll};

use super::event::{Event, GmKind, ReplayError, err};
use super::game::{Game, LockInfo, Locked, OnionSegment, Pending, state_digest};
use super::ruleset::Ruleset;

impl<R: Ruleset> Game<R> {
    /// Applies one journal event, checking everything the dice protocol promises.
    /// `line` is the exact journal line; `index` its 0-based position (for error messages).
    pub fn apply(&mut self, event: &Event, line: &str, index: u64) -> Result<(), ReplayError> {
        let kind = event.kind();
        let after_abandon = matches!(
            event,
            Event::GameEnded { .. }
                | Event::SpectatorJoined { .. }
                | Event::SpectatorLeft { .. }
                | Event::StrictOpened { .. }
        );
        if self.club.abandoned.is_some() && !after_abandon {
            // Nothing of the abandoned step may be locked, revealed or rolled (ruling S10).
            return Err(err(
                index,
                kind,
                "type",
                "the game was abandoned: only its end may follow",
            ));
        }
        if self.club.paused.is_some() && super::pause::stopped_by_pause(event) {
            // Nothing of the clock runs while the organiser has stopped it (ruling O5).
            return Err(err(
                index,
                kind,
                "type",
                "the game is paused: its clock is stopped",
            ));
        }
        match event {
            Event::GameCreated { .. } => {
                return Err(err(index, kind, "type", "a second game_created"));
            }
            Event::GamePaused { .. } | Event::GameResumed { .. } => {
                self.apply_pause(event, index)?
            }
            // A message from the organiser changes nothing in the game; the step must be open.
            Event::GmBroadcast {
                step,
                digest,
                salt,
                text,
                ..
            } => {
                self.expect_step(index, kind, *step)?;
                if self.ended {
                    return Err(err(index, kind, "type", "the game has already ended"));
                }
                // A kept text must open its digest, as press's does.
                if let (Some(salt), Some(text)) = (salt, text) {
                    let s = dice::from_hex(salt)
                        .ok_or_else(|| err(index, kind, "salt", "not 32 bytes of hex"))?;
                    let want = super::press::digest(&self.id, *step, "gm", &s, text);
                    if dice::to_hex(&want) != *digest {
                        return Err(err(index, kind, "digest", "does not open with the text"));
                    }
                }
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
                self.seat_mail(index, kind, *step, seat, "submission")?;
                R::parse(&self.state, seat, orders)
                    .map_err(|r| not_valid(index, kind, "orders", &r))?;
                let d = self.opened_digest(index, kind, *step, seat, orders, digest)?;
                self.book.message_ids.insert(message_id.clone());
                self.book.pending.insert(
                    seat.clone(),
                    Pending {
                        orders: orders.clone(),
                        digest: d,
                        message_id: message_id.clone(),
                        at: *at,
                    },
                );
            }
            Event::Standing {
                step,
                seat,
                digest,
                orders,
                message_id,
                ..
            } => {
                self.seat_mail(index, kind, *step, seat, "standing orders")?;
                let read = R::standing(&self.state, seat, orders)
                    .map_err(|r| not_valid(index, kind, "standing orders", &r))?;
                let state = match read.applied {
                    Some((state, again)) if &again == orders && read.other.is_empty() => state,
                    _ => {
                        return Err(err(
                            index,
                            kind,
                            "orders",
                            "not the canonical form of standing orders alone",
                        ));
                    }
                };
                self.opened_digest(index, kind, *step, seat, orders, digest)?;
                self.book.message_ids.insert(message_id.clone());
                self.state = state;
            }
            Event::Lock {
                step,
                log_head,
                seats,
                nmr,
                lock,
                at,
            } => {
                self.expect_step(index, kind, *step)?;
                if log_head != &dice::to_hex(&self.head) {
                    return Err(err(
                        index,
                        kind,
                        "log_head",
                        "is not the log head before the lock",
                    ));
                }
                let (exp_seats, exp_nmr, exp_lock) =
                    super::decide::lock_parts(&self.book, &self.spec());
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
            }
            Event::StrictMode { .. }
            | Event::Reveal { .. }
            | Event::SplitLock { .. }
            | Event::RevealMissed { .. }
            | Event::RevealOverdue { .. } => self.apply_strict(event, index)?,
            Event::StrictOpened { .. } => self.apply_opened(event, index)?,
            Event::Results {
                step,
                reveal,
                seed,
                rolls,
                state_digest: digest,
                at,
            } => self.apply_results(index, *step, reveal, seed, rolls, digest, *at)?,
            Event::Reminder {
                step,
                seat,
                hours_left,
                ..
            } => {
                self.expect_step(index, kind, *step)?;
                self.book.reminders.push((seat.clone(), *hours_left));
            }
            Event::DeadlineChanged {
                step,
                deadline,
                absence,
                ..
            } => {
                self.expect_step(index, kind, *step)?;
                self.book.deadline = Some(*deadline);
                if !absence {
                    // The organiser's deadline is taken as given (ruling A3).
                    self.book.club.unmoved_deadline = Some(*deadline);
                }
            }
            Event::Absent { .. }
            | Event::AbsenceCancelled { .. }
            | Event::Conceded { .. }
            | Event::Resigned { .. }
            | Event::DrawAgreed { .. } => self.apply_seat_act(event, index)?,
            Event::Forfeit { step, seat, .. } => {
                self.expect_step(index, kind, *step)?;
                if !self.seats.iter().any(|s| &s.seat == seat) {
                    return Err(err(index, kind, "seat", format!("unknown seat `{seat}`")));
                }
                if self.forfeited.contains(seat) {
                    return Err(err(
                        index,
                        kind,
                        "seat",
                        format!("{seat} has already forfeited"),
                    ));
                }
                self.book.forfeited.push(seat.clone());
            }
            Event::OnionRenewed {
                from_step,
                anchor,
                onion_len,
                ..
            } => {
                let o = *self.onions.last().expect("the game's own onion");
                // The new onion must take over before the old one runs dry, and not in the past.
                if *from_step < self.step || *from_step > o.from_step + o.len {
                    return Err(err(
                        index,
                        kind,
                        "from_step",
                        format!(
                            "{from_step} is outside steps {}..={} the current onion can still bridge",
                            self.step,
                            o.from_step + o.len
                        ),
                    ));
                }
                let a = dice::from_hex(anchor)
                    .ok_or_else(|| err(index, kind, "anchor", "not 32 bytes of hex"))?;
                self.book.onions.push(OnionSegment {
                    from_step: *from_step,
                    anchor: a,
                    len: *onion_len,
                });
            }
            // Who watches changes nothing in the game; the step must be the open one.
            Event::SpectatorJoined { step, .. } | Event::SpectatorLeft { step, .. } => {
                self.expect_step(index, kind, *step)?;
                if self.ended {
                    return Err(err(index, kind, "type", "the game has already ended"));
                }
            }
            Event::GmAction { step, action, .. } => {
                self.expect_step(index, kind, *step)?;
                match action {
                    GmKind::ReplaceSeat { seat } if !self.seats.iter().any(|s| &s.seat == seat) => {
                        return Err(err(index, kind, "action", format!("unknown seat `{seat}`")));
                    }
                    // A resigned seat has a player again (ruling R2).
                    GmKind::ReplaceSeat { seat } => self.book.club.resigned.retain(|s| s != seat),
                    // Games indexed by reveal never close a step waiting for reveals (ruling S2).
                    GmKind::CloseStep
                        if self.strict.as_ref().is_some_and(|st| st.by_reveal)
                            && !self.awaited_reveals().is_empty() =>
                    {
                        return Err(err(
                            index,
                            kind,
                            "action",
                            "close-step while strict reveals are awaited (ruling S2)",
                        ));
                    }
                    GmKind::CloseStep => self.book.closed_by_gm = true,
                }
            }
            Event::Press { .. } => self.apply_press(event, index)?,
            Event::GameAbandoned { step, reason, .. } => {
                self.apply_abandon(*step, reason, index)?
            }
            Event::GameEnded { step, salt_key, .. } => {
                self.expect_step(index, kind, *step)?;
                if self.ended {
                    return Err(err(index, kind, "type", "the game has already ended"));
                }
                if self.outcome_now().is_none() {
                    return Err(err(index, kind, "type", "the game is not over"));
                }
                match (self.protocol, salt_key) {
                    (Protocol::V2, Some(z)) => {
                        let z = dice::from_hex(z)
                            .ok_or_else(|| err(index, kind, "salt_key", "not 32 bytes of hex"))?;
                        if self.salt_commitment != Some(dice::salt_key_commitment(&self.id, &z)) {
                            return Err(err(
                                index,
                                kind,
                                "salt_key",
                                "does not hash to the commitment Z of the game's first event",
                            ));
                        }
                        self.book.salt_key = Some(z);
                    }
                    (Protocol::V2, None) => {
                        return Err(err(
                            index,
                            kind,
                            "salt_key",
                            "a v2 game publishes its salt key",
                        ));
                    }
                    (Protocol::V1, _) => {}
                }
                self.book.ended = true;
            }
        }
        self.book.log(line);
        Ok(())
    }

    /// A seat's mail for the open step (`what`: a submission, standing orders): of this step,
    /// before its lock, from a seat of the game.
    fn seat_mail(
        &self,
        index: u64,
        kind: &str,
        step: u64,
        seat: &str,
        what: &str,
    ) -> Result<(), ReplayError> {
        self.expect_step(index, kind, step)?;
        if self.locked.is_some() {
            return Err(err(index, kind, "step", format!("{what} after the lock")));
        }
        if !self.seats.iter().any(|s| s.seat == seat) {
            return Err(err(index, kind, "seat", format!("unknown seat `{seat}`")));
        }
        Ok(())
    }

    /// A submission's (or standing orders') digest, checked against its orders when the salt
    /// key is known.
    fn opened_digest(
        &self,
        index: u64,
        kind: &str,
        step: u64,
        seat: &str,
        orders: &str,
        digest: &str,
    ) -> Result<dice::Hash, ReplayError> {
        let d = dice::from_hex(digest)
            .ok_or_else(|| err(index, kind, "digest", "not 32 bytes of hex"))?;
        if let Some(z) = self.opening_key() {
            let salt = dice::salt(&self.id, &z, step, seat);
            let again = dice::orders_digest(self.protocol, &self.id, step, seat, &salt, orders);
            if again != d {
                return Err(err(
                    index,
                    kind,
                    "digest",
                    format!("{seat}'s orders do not open this digest with the salt key"),
                ));
            }
        }
        Ok(d)
    }

    #[allow(clippy::too_many_arguments)]
    fn apply_results(
        &mut self,
        index: u64,
        step: u64,
        reveal: &str,
        seed: &str,
        rolls: &[Roll],
        digest: &str,
        at: DateTime<Utc>,
    ) -> Result<(), ReplayError> {
        let kind = "results";
        self.expect_step(index, kind, step)?;
        let Locked { lock, nmr } = self
            .locked
            .clone()
            .ok_or_else(|| err(index, kind, "step", "results without a lock"))?;
        let v = dice::from_hex(reveal)
            .ok_or_else(|| err(index, kind, "reveal", "not 32 bytes of hex"))?;
        // The first step of a renewed onion hashes to that onion's anchor.
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
        // v1: the salts of accepted submissions came from v_k, so every digest opens now.
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
        if seed != dice::to_hex(&s) {
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
        let mut dice = Dice::new(s);
        let subs = self
            .submissions(&nmr)
            .map_err(|e| err(index, kind, "orders", e))?;
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
        Ok(())
    }
}

/// Orders in the journal that do not read as `what` any more: the first bad line and why.
fn not_valid(index: u64, kind: &str, what: &str, r: &[crate::engine::Rejected]) -> ReplayError {
    let first = r.first();
    err(
        index,
        kind,
        "orders",
        format!(
            "not valid {what}: line {}: {}",
            first.map(|x| x.line).unwrap_or(0),
            first.map(|x| x.reason.as_str()).unwrap_or("?")
        ),
    )
}
