//! The organiser's hands: extend a deadline, close a step, abandon the game, hand a seat to a
//! new player, pause and resume the clock. The engine decides whether each is allowed and what
//! it records; this only validates what the command line (or the desk by mail) gave, stores
//! the new private data first, appends, mails and delivers. Each act has a `_locked` form
//! for the desk, which runs inside intake's hold on the data lock.

use anyhow::{Result, anyhow};
use chrono::{DateTime, Utc};

use crate::config::address::Mailbox;

use super::Daemon;
use super::open_game::reload;

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
        let deadline = self.gm_extend_locked(game_id, hours, reason, now)?;
        self.deliver_at(now)?;
        Ok(deadline)
    }

    pub(super) fn gm_extend_locked(
        &self,
        game_id: &str,
        hours: i64,
        reason: &str,
        now: DateTime<Utc>,
    ) -> Result<DateTime<Utc>> {
        let mut g = self.open_game(game_id)?;
        let ev = g.game.gm_extend(hours, reason, now)?;
        let crate::engine::Event::DeadlineChanged { deadline, .. } = ev else {
            unreachable!("gm_extend returns a deadline change")
        };
        self.append(&mut g, &ev, now)?;
        self.close(&g)?;
        Ok(deadline)
    }

    /// Locks the open step now; seats that have not answered are NMR and the game's silence
    /// policy (standing orders or pass) applies to them. Returns the steps resolved.
    pub fn gm_close_step(&self, game_id: &str, reason: &str, now: DateTime<Utc>) -> Result<usize> {
        let _lock = self.data.lock()?;
        let n = self.gm_close_step_locked(game_id, reason, now)?;
        self.deliver_at(now)?;
        Ok(n)
    }

    pub(super) fn gm_close_step_locked(
        &self,
        game_id: &str,
        reason: &str,
        now: DateTime<Utc>,
    ) -> Result<usize> {
        let mut g = self.open_game(game_id)?;
        let ev = g.game.gm_close_step(reason, now)?;
        self.append(&mut g, &ev, now)?;
        let n = self.settle_open(&mut g, now)?;
        self.close(&g)?;
        Ok(n)
    }

    /// Stops the open step's clock (engine/pause.rs); every seat is told. Returns the time
    /// that was left, if the step had a deadline.
    pub fn gm_pause(
        &self,
        game_id: &str,
        reason: &str,
        now: DateTime<Utc>,
    ) -> Result<Option<chrono::Duration>> {
        let _lock = self.data.lock()?;
        let left = self.gm_pause_locked(game_id, reason, now)?;
        self.deliver_at(now)?;
        Ok(left)
    }

    pub(super) fn gm_pause_locked(
        &self,
        game_id: &str,
        reason: &str,
        now: DateTime<Utc>,
    ) -> Result<Option<chrono::Duration>> {
        let mut g = self.open_game(game_id)?;
        let ev = g.game.gm_pause(reason, now)?;
        self.append(&mut g, &ev, now)?;
        self.close(&g)?;
        Ok(g.game.book().club.paused.as_ref().and_then(|p| p.left()))
    }

    /// Starts the clock again with the time that was left (at least an hour); every seat is
    /// told the new deadline. Returns it, and the steps resolved at once (every order in).
    pub fn gm_resume(
        &self,
        game_id: &str,
        now: DateTime<Utc>,
    ) -> Result<(Option<DateTime<Utc>>, usize)> {
        let _lock = self.data.lock()?;
        let out = self.gm_resume_locked(game_id, now)?;
        self.deliver_at(now)?;
        Ok(out)
    }

    pub(super) fn gm_resume_locked(
        &self,
        game_id: &str,
        now: DateTime<Utc>,
    ) -> Result<(Option<DateTime<Utc>>, usize)> {
        let mut g = self.open_game(game_id)?;
        let ev = g.game.gm_resume(now)?;
        let crate::engine::Event::GameResumed { deadline, .. } = ev else {
            unreachable!("gm_resume returns a resume")
        };
        self.append(&mut g, &ev, now)?;
        // A step whose every order came in while paused locks now (ruling O5).
        let n = self.settle_open(&mut g, now)?;
        self.close(&g)?;
        Ok((deadline, n))
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

    /// `despatch gm broadcast`: a message to every player of `game`, or of every game in play
    /// of `league` (exactly one of them), as the desk's BROADCAST does.
    pub fn gm_broadcast(
        &self,
        game: Option<&str>,
        league: Option<&str>,
        message: &str,
        now: DateTime<Utc>,
    ) -> Result<super::desk_acts::Broadcast> {
        let text = crate::engine::press::canonical(message).map_err(|e| anyhow!(e.why))?;
        let _lock = self.data.lock()?;
        let b = match (game, league) {
            (Some(g), None) => self.broadcast_game_locked(g, &text, now)?,
            (None, Some(l)) => self.broadcast_league_locked(l, &text, None, now)?,
            _ => anyhow::bail!("name a game or a league (--league), not both"),
        };
        self.deliver_at(now)?;
        Ok(b)
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
        self.gm_replace_locked(game_id, seat, address, reason, now)?;
        self.deliver_at(now)?;
        Ok(())
    }

    pub(super) fn gm_replace_locked(
        &self,
        game_id: &str,
        seat: &str,
        address: &str,
        reason: &str,
        now: DateTime<Utc>,
    ) -> Result<()> {
        let mailbox: Mailbox = address
            .parse()
            .map_err(|e| anyhow!("`{address}` is not a mail address: {e}"))?;
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
        Ok(())
    }
}
