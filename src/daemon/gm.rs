//! The organiser's hands: extend a deadline, close a step, abandon the game, hand a seat to a
//! new player. The engine decides whether each is allowed and what it records; this only
//! validates what the command line gave, stores the new private data first, appends, mails
//! and delivers.

use anyhow::{Result, anyhow};
use chrono::{DateTime, Utc};

use crate::mail::address::Mailbox;

use super::Daemon;
use super::games::reload;

impl Daemon {
    /// Moves the open step's deadline by `hours` (negative to shorten) and tells every seat.
    pub fn gm_extend(
        &self,
        game_id: &str,
        hours: i64,
        reason: &str,
        now: DateTime<Utc>,
    ) -> Result<DateTime<Utc>> {
        let _lock = self.data.lock()?;
        let mut g = self.open_game(game_id)?;
        let ev = g.game.gm_extend(hours, reason, now)?;
        let crate::engine::Event::DeadlineChanged { deadline, .. } = ev else {
            unreachable!("gm_extend returns a deadline change")
        };
        self.append(&mut g, &ev, now)?;
        self.close(&g)?;
        self.deliver_at(now)?;
        Ok(deadline)
    }

    /// Locks the open step now; seats that have not answered are NMR and the game's silence
    /// policy (standing orders or pass) applies to them. Returns the steps resolved.
    pub fn gm_close_step(&self, game_id: &str, reason: &str, now: DateTime<Utc>) -> Result<usize> {
        let _lock = self.data.lock()?;
        let mut g = self.open_game(game_id)?;
        let ev = g.game.gm_close_step(reason, now)?;
        self.append(&mut g, &ev, now)?;
        let n = self.settle_open(&mut g, now)?;
        self.close(&g)?;
        self.deliver_at(now)?;
        Ok(n)
    }

    /// Ends the game with no result (engine/abandon.rs): journals the abandonment, then only
    /// what every end brings (the salt key published, the archive, the league's standings);
    /// the open or locked step is never resolved. Returns the step it stood at.
    pub fn gm_abandon(&self, game_id: &str, reason: &str, now: DateTime<Utc>) -> Result<u64> {
        let _lock = self.data.lock()?;
        let mut g = self.open_game(game_id)?;
        let ev = g.game.gm_abandon(reason, now)?;
        let step = g.game.book().step;
        self.append(&mut g, &ev, now)?;
        self.settle_open(&mut g, now)?;
        self.close(&g)?;
        self.deliver_at(now)?;
        Ok(step)
    }

    /// Hands a seat to a new player: new address, new secret, a take-over welcome mail.
    pub fn gm_replace(
        &self,
        game_id: &str,
        seat: &str,
        address: &str,
        reason: &str,
        now: DateTime<Utc>,
    ) -> Result<()> {
        let _lock = self.data.lock()?;
        let mailbox: Mailbox = address.parse().map_err(|e| anyhow!("--address: {e}"))?;
        let mut g = self.open_game(game_id)?;
        // The engine says first whether the act is allowed, before anything is stored.
        let ev = g.game.gm_replace(seat, reason, now)?;
        let mut seats = g.seats.clone();
        // A seat whose player resigned has no private record left: the new player starts one.
        let resigned = !seats.seats.contains_key(seat);
        let private =
            seats
                .seats
                .entry(seat.to_string())
                .or_insert_with(|| crate::store::SeatPrivate {
                    address: String::new(),
                    name: String::new(),
                    token: String::new(),
                    time_zone: "UTC".into(),
                    also_from: Vec::new(),
                    notify: Default::default(),
                });
        // The player leaving is remembered, so a mail from them later is answered once.
        let former = crate::store::FormerPlayer {
            seat: seat.to_string(),
            address: private.address.clone(),
            until: now,
            told: false,
        };
        private.address = mailbox.address;
        // Extra addresses were the previous player's; the new player adds their own.
        private.also_from.clear();
        if !mailbox.name.is_empty() {
            private.name = mailbox.name;
        }
        private.token = crate::store::new_token()?;
        if !resigned {
            seats.former.push(former);
        }
        seats.draw_votes.remove(seat);
        // The private file first: the event's mails must go to the new player.
        g.store.write_seats(&seats)?;
        reload(&mut g)?;
        self.append(&mut g, &ev, now)?;
        self.close(&g)?;
        self.deliver_at(now)?;
        Ok(())
    }
}
