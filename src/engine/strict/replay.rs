//! Replaying the strict events of a journal (docs/strict-dice.md): each is checked against the
//! journal so far — the strict seats and layout, a reveal against the lock and the seat's onion,
//! a split lock, and the overdue or (older games) missed reveals. Pure: no clock, disk or mail.

use std::collections::BTreeMap;

use crate::dice;

use super::super::books::{StrictBook, StrictSeat};
use super::super::event::{Event, MAX_HOURS, ReplayError, StrictAnchor, err};
use super::super::game::Game;
use super::super::ruleset::{Ruleset, SeatId};
use super::{BOUND, BY_REVEAL, reveal_fits};

impl<R: Ruleset> Game<R> {
    /// Applies the strict events, checking each against the journal so far.
    pub(crate) fn apply_strict(&mut self, event: &Event, index: u64) -> Result<(), ReplayError> {
        match event {
            Event::StrictMode { .. } => self.apply_strict_mode(event, index),
            Event::Reveal { .. } => self.apply_reveal(event, index),
            Event::SplitLock { .. } => self.apply_split_lock(event, index),
            Event::RevealMissed { .. } => self.apply_reveal_missed(event, index),
            Event::RevealOverdue { .. } => self.apply_reveal_overdue(event, index),
            _ => unreachable!("apply_strict is called for strict events only"),
        }
    }

    /// A journaled list of silent strict seats must be exactly the seats still awaited.
    fn expect_awaited(&self, index: u64, kind: &str, seats: &[SeatId]) -> Result<(), ReplayError> {
        let awaited = self.awaited_reveals();
        if awaited.is_empty() || seats != awaited.as_slice() {
            return Err(err(
                index,
                kind,
                "seats",
                "are not the strict seats still awaited",
            ));
        }
        Ok(())
    }

    /// Strict mode, set right after game_created and once: the onions' layout, the reveal
    /// hours, and the strict seats with their anchors.
    fn apply_strict_mode(&mut self, event: &Event, index: u64) -> Result<(), ReplayError> {
        let Event::StrictMode {
            seats,
            reveal_hours,
            onion_index,
            ..
        } = event
        else {
            unreachable!("apply_strict_mode is called for strict_mode only")
        };
        let kind = event.kind();
        let (by_reveal, bound) = match onion_index.as_deref() {
            None => (false, false),
            Some(BY_REVEAL) => (true, false),
            Some(BOUND) => (true, true),
            Some(_) => {
                return Err(err(
                    index,
                    kind,
                    "onion_index",
                    format!("is \"{BOUND}\", \"{BY_REVEAL}\" or absent"),
                ));
            }
        };
        if self.events != 1 || self.strict.is_some() {
            return Err(err(
                index,
                kind,
                "type",
                "strict mode is set right after game_created, once",
            ));
        }
        if *reveal_hours == 0 || *reveal_hours > MAX_HOURS {
            return Err(err(
                index,
                kind,
                "reveal_hours",
                format!("use 1 to {MAX_HOURS} hours"),
            ));
        }
        let list = self.strict_seats(index, kind, seats)?;
        if list.len() != seats.len() || list.is_empty() {
            return Err(err(
                index,
                kind,
                "seats",
                "names a seat the game does not have, or none",
            ));
        }
        self.book.strict = Some(StrictBook {
            seats: list,
            reveal_hours: *reveal_hours,
            locked_at: None,
            needs_dice: false,
            reveals: BTreeMap::new(),
            missed: Vec::new(),
            splits: Vec::new(),
            by_reveal,
            overdue: Vec::new(),
            bound,
        });
        Ok(())
    }

    /// The strict seats of a strict_mode event, kept in the game's seat order whatever order
    /// the event lists them in: each once, with an anchor and an onion of at least one element.
    fn strict_seats(
        &self,
        index: u64,
        kind: &str,
        seats: &[StrictAnchor],
    ) -> Result<Vec<StrictSeat>, ReplayError> {
        let mut list = Vec::new();
        // Kept in the game's seat order whatever order the event lists them in.
        for entry in &self.seats {
            let mut it = seats.iter().filter(|a| a.seat == entry.seat);
            let Some(a) = it.next() else { continue };
            if it.next().is_some() {
                return Err(err(
                    index,
                    kind,
                    "seats",
                    format!("{} is listed twice", a.seat),
                ));
            }
            let anchor = dice::from_hex(&a.anchor)
                .ok_or_else(|| err(index, kind, "anchor", "not 32 bytes of hex"))?;
            if a.onion_len == 0 {
                return Err(err(index, kind, "onion_len", "must be at least 1"));
            }
            list.push(StrictSeat {
                seat: a.seat.clone(),
                anchor,
                len: a.onion_len,
                last: anchor,
                last_step: 0,
                revealed: 0,
                given: Vec::new(),
                opened: None,
            });
        }
        Ok(list)
    }

    /// A strict seat's reveal for the locked step: it quotes `L_k`, the seat is awaited, and
    /// `r` is its onion's next element (bound games: kept for the opening).
    fn apply_reveal(&mut self, event: &Event, index: u64) -> Result<(), ReplayError> {
        let Event::Reveal {
            step,
            seat,
            lock,
            reveal,
            message_id,
            ..
        } = event
        else {
            unreachable!("apply_reveal is called for reveals only")
        };
        let kind = event.kind();
        self.expect_step(index, kind, *step)?;
        let r = dice::from_hex(reveal)
            .ok_or_else(|| err(index, kind, "reveal", "not 32 bytes of hex"))?;
        let quoted =
            dice::from_hex(lock).ok_or_else(|| err(index, kind, "lock", "not 32 bytes of hex"))?;
        match self.locked.as_ref() {
            Some(l) if l.lock == quoted => {}
            Some(_) => return Err(err(index, kind, "lock", format!("is not L_{step}"))),
            None => return Err(err(index, kind, "step", "a reveal before the lock")),
        }
        if !self.awaited_reveals().contains(seat) {
            return Err(err(
                index,
                kind,
                "seat",
                format!("no reveal from {seat} is awaited"),
            ));
        }
        let s = self
            .strict
            .as_ref()
            .and_then(|st| st.seat(seat))
            .expect("an awaited seat is strict");
        if !reveal_fits(&self.book, s, *step, &r) {
            return Err(err(
                index,
                kind,
                "reveal",
                format!("r_{seat}_{step} does not hash back to {seat}'s anchor"),
            ));
        }
        self.book.message_ids.insert(message_id.clone());
        let st = self.book.strict.as_mut().expect("checked above");
        st.reveals.insert(seat.clone(), r);
        if st.bound {
            crate::engine::strict_bound::keep_given(st, seat, *step, quoted, r);
        }
        Ok(())
    }

    /// A seat's proof that it was shown another lock than the journal's (ruling S3).
    fn apply_split_lock(&mut self, event: &Event, index: u64) -> Result<(), ReplayError> {
        let Event::SplitLock {
            step,
            seat,
            quoted,
            lock,
            message_id,
            ..
        } = event
        else {
            unreachable!("apply_split_lock is called for split locks only")
        };
        let kind = event.kind();
        self.expect_step(index, kind, *step)?;
        let Some(l) = self.locked.as_ref() else {
            return Err(err(index, kind, "step", "a split lock before the lock"));
        };
        if lock != &dice::to_hex(&l.lock) || quoted == lock {
            return Err(err(
                index,
                kind,
                "quoted",
                "records no split: the quoted lock is L_k, or `lock` is not",
            ));
        }
        if self.strict.as_ref().and_then(|st| st.seat(seat)).is_none() {
            return Err(err(
                index,
                kind,
                "seat",
                format!("{seat} is not a strict seat"),
            ));
        }
        self.book.message_ids.insert(message_id.clone());
        let st = self.book.strict.as_mut().expect("checked above");
        st.splits.push((*step, seat.clone()));
        Ok(())
    }

    /// Older games (indexed by step) only: the strict seats silent at the reveal deadline, or
    /// when the organiser closed the step.
    fn apply_reveal_missed(&mut self, event: &Event, index: u64) -> Result<(), ReplayError> {
        let Event::RevealMissed { step, seats, at } = event else {
            unreachable!("apply_reveal_missed is called for reveal_missed only")
        };
        let kind = event.kind();
        self.expect_step(index, kind, *step)?;
        if self.strict.as_ref().is_some_and(|st| st.by_reveal) {
            // The lever this game closes: an empty r is a seed the host computes ahead.
            return Err(err(
                index,
                kind,
                "type",
                "a step of a game indexed by reveal never resolves without a strict reveal (ruling S2)",
            ));
        }
        self.expect_awaited(index, kind, seats)?;
        let due = self.reveal_deadline().is_some_and(|d| *at >= d);
        if !(self.closed_by_gm
            || due && self.policy.on_silence != crate::engine::Silence::WaitForGm)
        {
            return Err(err(
                index,
                kind,
                "at",
                "before the reveal deadline, and the organiser did not close the step",
            ));
        }
        let st = self.book.strict.as_mut().expect("awaited seats are strict");
        st.missed = seats.clone();
        Ok(())
    }

    /// The reveal deadline passed with reveals missing: every seat is told, once a step.
    fn apply_reveal_overdue(&mut self, event: &Event, index: u64) -> Result<(), ReplayError> {
        let Event::RevealOverdue { step, seats, at } = event else {
            unreachable!("apply_reveal_overdue is called for reveal_overdue only")
        };
        let kind = event.kind();
        self.expect_step(index, kind, *step)?;
        self.expect_awaited(index, kind, seats)?;
        if self.reveal_deadline().is_none_or(|d| *at < d) {
            return Err(err(index, kind, "at", "before the reveal deadline"));
        }
        let st = self.book.strict.as_mut().expect("awaited seats are strict");
        if !st.overdue.is_empty() {
            return Err(err(index, kind, "type", "already told for this step"));
        }
        st.overdue = seats.clone();
        Ok(())
    }
}
