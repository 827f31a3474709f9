//! A player's calendar (issue 31 point 5): every deadline of every game the address plays, as
//! an iCalendar feed (`report::ics::feed`) and as lines for a mail. Reads the games; decides
//! nothing (the `CALENDAR` answer and the site's feed file use it); it reads only the games
//! the store's players index names for the address, which adds games it did not know yet.

use anyhow::Result;
use chrono::{DateTime, Utc};

use crate::mail::compose::{self, SeatOnCalendar};

use super::Daemon;

/// What a player's calendar holds now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerCalendar {
    /// The iCalendar feed.
    pub ics: String,
    /// One line per game the address plays, in the zone asked for (a paused or ended game
    /// says so and has no entry).
    pub lines: Vec<String>,
}

impl Daemon {
    /// The calendar of the player whose seats are registered to `address` (the address a
    /// game mails: extra addresses a seat writes from are not the player, ruling E2), times
    /// written in `zone`.
    pub fn player_calendar(
        &self,
        address: &str,
        zone: &str,
        now: DateTime<Utc>,
    ) -> Result<PlayerCalendar> {
        let (_, domain) = self.cfg.address_parts();
        let mut seated = vec![];
        let mut name = None;
        // The games the players index names (a few, not every game stored), each read to be
        // sure: the index may name more than the seats now hold.
        for id in self.data.games_of(address)? {
            let Ok(seats) = self.data.game(&id).seats() else {
                continue;
            };
            let mine: Vec<(String, String)> = seats
                .seats
                .iter()
                .filter(|(_, p)| p.address.eq_ignore_ascii_case(address))
                .map(|(s, p)| (s.clone(), p.name.clone()))
                .collect();
            if mine.is_empty() {
                continue;
            }
            let Ok(g) = self.open_game(&id) else {
                continue;
            };
            let book = g.game.book();
            let waiting = g.game.waiting_for();
            for (seat, player) in mine {
                if name.is_none() && !player.is_empty() {
                    name = Some(player.clone());
                }
                seated.push(SeatOnCalendar {
                    game: id.clone(),
                    awaited: waiting.contains(&seat),
                    seat,
                    over: g.game.is_over(),
                    paused: book.club.paused.is_some(),
                    step: book.step,
                    step_title: g.game.spec().title.to_string(),
                    deadline: book.deadline,
                    sequence: g.store.journal_len(),
                });
            }
        }
        let name = name.unwrap_or_else(|| address.to_string());
        let (ics, lines) = compose::calendar_of(&name, &seated, zone, &domain, now);
        Ok(PlayerCalendar { ics, lines })
    }
}
