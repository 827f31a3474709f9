//! Applying one journal line to a game: the same code plays the game live and replays (verifies)
//! a journal, checking every promise of the dice protocol — the log chain, the onion's reveals,
//! each lock's inputs, each seed and every roll, and the digests a known salt key opens. Pure.
//! `apply` is the dispatcher: one arm per event, each calling the step that checks and applies
//! it (here; a step's lock and results in resolution.rs; the others beside their own
//! decisions: seat acts, strict dice, press, pause, abandonment).

use crate::dice::{self, Protocol};

use super::event::{Event, GmKind, ReplayError, err};
use super::game::{Game, OnionSegment, Pending};
use super::ruleset::Ruleset;

impl<R: Ruleset> Game<R> {
    /// Applies one journal event, checking everything the dice protocol promises.
    /// `line` is the exact journal line; `index` its 0-based position (for error messages).
    pub fn apply(&mut self, event: &Event, line: &str, index: u64) -> Result<(), ReplayError> {
        self.takes(event, index)?;
        let kind = event.kind();
        match event {
            Event::GameCreated { .. } => {
                return Err(err(index, kind, "type", "a second game_created"));
            }
            Event::GamePaused { .. } | Event::GameResumed { .. } => {
                self.apply_pause(event, index)?
            }
            Event::GmBroadcast { .. } => self.check_broadcast(event, index)?,
            Event::Submission { .. } => self.apply_submission(event, index)?,
            Event::Standing { .. } => self.apply_standing(event, index)?,
            Event::Lock { .. } => self.apply_lock(event, index)?,
            Event::StrictMode { .. }
            | Event::Reveal { .. }
            | Event::SplitLock { .. }
            | Event::RevealMissed { .. }
            | Event::RevealOverdue { .. } => self.apply_strict(event, index)?,
            Event::StrictOpened { .. } => self.apply_opened(event, index)?,
            Event::Results { .. } => self.apply_results(event, index)?,
            Event::Reminder {
                step,
                seat,
                hours_left,
                ..
            } => {
                self.expect_step(index, kind, *step)?;
                self.book.reminders.push((seat.clone(), *hours_left));
            }
            Event::DeadlineChanged { .. } => self.apply_deadline(event, index)?,
            Event::Absent { .. }
            | Event::AbsenceCancelled { .. }
            | Event::Conceded { .. }
            | Event::Resigned { .. }
            | Event::DrawAgreed { .. } => self.apply_seat_act(event, index)?,
            Event::Forfeit { step, seat, .. } => self.apply_forfeit(index, *step, seat)?,
            Event::OnionRenewed { .. } => self.apply_renewal(event, index)?,
            // Who watches changes nothing in the game; the step must be the open one.
            Event::SpectatorJoined { step, .. } | Event::SpectatorLeft { step, .. } => {
                self.expect_step(index, kind, *step)?;
                if self.ended {
                    return Err(err(index, kind, "type", "the game has already ended"));
                }
            }
            Event::GmAction { step, action, .. } => self.apply_gm_action(index, *step, action)?,
            Event::Press { .. } => self.apply_press(event, index)?,
            Event::GameAbandoned { step, reason, .. } => {
                self.apply_abandon(*step, reason, index)?
            }
            Event::GameEnded { step, salt_key, .. } => self.apply_end(index, *step, salt_key)?,
        }
        self.book.log(line);
        Ok(())
    }

    /// Whether the game takes `event` at all: after an abandonment only its end (and who
    /// watches, and the strict seats' openings); while paused nothing of the clock.
    fn takes(&self, event: &Event, index: u64) -> Result<(), ReplayError> {
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
        Ok(())
    }

    /// A message from the organiser changes nothing in the game; the step must be open, and a
    /// kept text must open its digest, as press's does.
    fn check_broadcast(&self, event: &Event, index: u64) -> Result<(), ReplayError> {
        let Event::GmBroadcast {
            step,
            digest,
            salt,
            text,
            ..
        } = event
        else {
            unreachable!("check_broadcast is called for gm_broadcast only")
        };
        let kind = event.kind();
        self.expect_step(index, kind, *step)?;
        if self.ended {
            return Err(err(index, kind, "type", "the game has already ended"));
        }
        if let (Some(salt), Some(text)) = (salt, text) {
            let s = dice::from_hex(salt)
                .ok_or_else(|| err(index, kind, "salt", "not 32 bytes of hex"))?;
            let want = super::press::digest(&self.id, *step, "gm", &s, text);
            if dice::to_hex(&want) != *digest {
                return Err(err(index, kind, "digest", "does not open with the text"));
            }
        }
        Ok(())
    }

    /// A seat's orders for the open step: they still parse, their digest opens when the salt
    /// key is known, and they wait for the lock.
    fn apply_submission(&mut self, event: &Event, index: u64) -> Result<(), ReplayError> {
        let Event::Submission {
            step,
            seat,
            digest,
            orders,
            message_id,
            at,
            ..
        } = event
        else {
            unreachable!("apply_submission is called for submissions only")
        };
        let kind = event.kind();
        self.seat_mail(index, kind, *step, seat, "submission")?;
        R::parse(&self.state, seat, orders).map_err(|r| not_valid(index, kind, "orders", &r))?;
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
        Ok(())
    }

    /// A seat's standing orders: the canonical form of standing orders alone, applied to the
    /// state at once.
    fn apply_standing(&mut self, event: &Event, index: u64) -> Result<(), ReplayError> {
        let Event::Standing {
            step,
            seat,
            digest,
            orders,
            message_id,
            ..
        } = event
        else {
            unreachable!("apply_standing is called for standing orders only")
        };
        let kind = event.kind();
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
        Ok(())
    }

    /// A deadline moved: by an absence (the step's own deadline stays as it was), or by the
    /// organiser, whose deadline is taken as given (ruling A3).
    fn apply_deadline(&mut self, event: &Event, index: u64) -> Result<(), ReplayError> {
        let Event::DeadlineChanged {
            step,
            deadline,
            absence,
            ..
        } = event
        else {
            unreachable!("apply_deadline is called for deadline_changed only")
        };
        self.expect_step(index, event.kind(), *step)?;
        self.book.deadline = Some(*deadline);
        if !absence {
            // The organiser's deadline is taken as given (ruling A3).
            self.book.club.unmoved_deadline = Some(*deadline);
        }
        Ok(())
    }

    /// A seat out of the game under the `forfeit` policy: a seat of the game, once.
    fn apply_forfeit(&mut self, index: u64, step: u64, seat: &str) -> Result<(), ReplayError> {
        let kind = "forfeit";
        self.expect_step(index, kind, step)?;
        if !self.seats.iter().any(|s| s.seat == seat) {
            return Err(err(index, kind, "seat", format!("unknown seat `{seat}`")));
        }
        if self.forfeited.iter().any(|s| s == seat) {
            return Err(err(
                index,
                kind,
                "seat",
                format!("{seat} has already forfeited"),
            ));
        }
        self.book.forfeited.push(seat.to_string());
        Ok(())
    }

    /// A new onion: it must take over before the old one runs dry, and not in the past.
    fn apply_renewal(&mut self, event: &Event, index: u64) -> Result<(), ReplayError> {
        let Event::OnionRenewed {
            from_step,
            anchor,
            onion_len,
            ..
        } = event
        else {
            unreachable!("apply_renewal is called for onion_renewed only")
        };
        let kind = event.kind();
        let o = *self.onions.last().expect("the game's own onion");
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
        Ok(())
    }

    /// The organiser's act on the open step: a seat handed to a new player, or the step closed.
    fn apply_gm_action(
        &mut self,
        index: u64,
        step: u64,
        action: &GmKind,
    ) -> Result<(), ReplayError> {
        let kind = "gm_action";
        self.expect_step(index, kind, step)?;
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
        Ok(())
    }

    /// The game's end: once, only when it is over, and (v2) with the salt key that hashes to
    /// the commitment of its first event.
    fn apply_end(
        &mut self,
        index: u64,
        step: u64,
        salt_key: &Option<String>,
    ) -> Result<(), ReplayError> {
        let kind = "game_ended";
        self.expect_step(index, kind, step)?;
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
