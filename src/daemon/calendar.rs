//! A player's calendar (issue 31 point 5): every deadline of every game the address plays, as
//! an iCalendar feed (`report::ics::feed`) and as lines for a mail. Reads the games; decides
//! nothing (the `CALENDAR` answer and the site's feed file use it); it reads only the games
//! the store's players index names for the address, which adds games it did not know yet.

use std::collections::HashMap;

use anyhow::Result;
use chrono::{DateTime, Utc};

use crate::mail::compose::{self, SeatOnCalendar};
use crate::store::SeatsFile;

use super::Daemon;
use super::open_game::OpenGame;

/// What a player's calendar holds now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerCalendar {
    /// The iCalendar feed.
    pub ics: String,
    /// One line per game the address plays, in the zone asked for (a paused or ended game
    /// says so and has no entry).
    pub lines: Vec<String>,
}

/// What a calendar takes from one game, read once however many of its players' feeds are
/// made from it: a step's page rewrite makes one feed per seat, and each feed names every game
/// of its player, the game just changed among them (open already: not read again).
#[derive(Default)]
pub(super) struct CalendarGames {
    /// Each game's seats file (`None`: unreadable, left out as before).
    seats: HashMap<String, Option<SeatsFile>>,
    /// Each game as a calendar shows it (`None`: it did not open, left out as before).
    games: HashMap<String, Option<GameOnCalendar>>,
}

/// A game's facts for every seat's entry.
struct GameOnCalendar {
    waiting: Vec<String>,
    over: bool,
    paused: bool,
    step: u64,
    step_title: String,
    deadline: Option<DateTime<Utc>>,
    sequence: u64,
}

impl GameOnCalendar {
    fn of(g: &OpenGame) -> GameOnCalendar {
        let book = g.game.book();
        GameOnCalendar {
            waiting: g.game.waiting_for(),
            over: g.game.is_over(),
            paused: book.club.paused.is_some(),
            step: book.step,
            step_title: g.game.spec().title.to_string(),
            deadline: book.deadline,
            sequence: g.store.journal_len(),
        }
    }
}

impl CalendarGames {
    /// `g` (open, as it stands) counted as read.
    pub(super) fn with(g: &OpenGame) -> CalendarGames {
        let mut c = CalendarGames::default();
        c.seats.insert(g.store.id.clone(), Some(g.seats.clone()));
        c.games
            .insert(g.store.id.clone(), Some(GameOnCalendar::of(g)));
        c
    }
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
        self.player_calendar_from(address, zone, now, &mut CalendarGames::default())
    }

    /// `player_calendar`, each game read at most once across the calls sharing `read`.
    pub(super) fn player_calendar_from(
        &self,
        address: &str,
        zone: &str,
        now: DateTime<Utc>,
        read: &mut CalendarGames,
    ) -> Result<PlayerCalendar> {
        let (_, domain) = self.cfg.address_parts();
        let mut seated = vec![];
        let mut name = None;
        // The games the players index names (a few, not every game stored), each read to be
        // sure: the index may name more than the seats now hold.
        for id in self.data.games_of(address)? {
            let seats = read
                .seats
                .entry(id.clone())
                .or_insert_with(|| self.data.game(&id).seats().ok());
            let Some(seats) = seats else {
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
            let game = read
                .games
                .entry(id.clone())
                .or_insert_with(|| self.open_game(&id).ok().map(|g| GameOnCalendar::of(&g)));
            let Some(g) = game else {
                continue;
            };
            for (seat, player) in mine {
                if name.is_none() && !player.is_empty() {
                    name = Some(player.clone());
                }
                seated.push(SeatOnCalendar {
                    game: id.clone(),
                    awaited: g.waiting.contains(&seat),
                    seat,
                    over: g.over,
                    paused: g.paused,
                    step: g.step,
                    step_title: g.step_title.clone(),
                    deadline: g.deadline,
                    sequence: g.sequence,
                });
            }
        }
        let name = name.unwrap_or_else(|| address.to_string());
        let (ics, lines) = compose::calendar_of(&name, &seated, zone, &domain, now);
        Ok(PlayerCalendar { ics, lines })
    }
}
