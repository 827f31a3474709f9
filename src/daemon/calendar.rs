//! A player's calendar (issue 31 point 5): every deadline of every game the address plays, as
//! an iCalendar feed (`report::ics::feed`) and as lines for a mail. Reads the games; decides
//! nothing (the `CALENDAR` answer and the site's feed file use it); it reads only the games
//! the store's players index names for the address, which adds games it did not know yet.

use anyhow::Result;
use chrono::{DateTime, Utc};

use crate::report::{self, ics::FeedEntry};

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
        let mut entries = vec![];
        let mut lines = vec![];
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
                let head = format!("{id} ({seat}):");
                if g.game.is_over() {
                    lines.push(format!("{head} over"));
                    continue;
                }
                if book.club.paused.is_some() {
                    lines.push(format!("{head} step {} paused by the organiser", book.step));
                    continue;
                }
                let Some(at) = book.deadline else {
                    lines.push(format!("{head} step {} has no deadline", book.step));
                    continue;
                };
                let awaited = waiting.contains(&seat);
                let summary = if awaited {
                    format!("Orders due: {id}, step {} ({seat})", book.step)
                } else {
                    format!("Step {} of {id} closes ({seat})", book.step)
                };
                lines.push(format!(
                    "{head} step {}, {} {}",
                    book.step,
                    if awaited {
                        "your orders are due"
                    } else {
                        "closes"
                    },
                    report::fmt_short(at, zone)
                ));
                entries.push(FeedEntry {
                    uid: format!("{id}-{}-{seat}@{domain}", book.step),
                    sequence: g.store.journal_len(),
                    at,
                    summary,
                    description: format!(
                        "{}: {}",
                        g.game.spec().title,
                        if at <= now {
                            "the deadline has passed; the step resolves at the next pass"
                        } else if awaited {
                            "reply to the step's mail with your orders"
                        } else {
                            "your orders are in"
                        }
                    ),
                });
            }
        }
        let title = format!("Despatch: {}", name.unwrap_or_else(|| address.to_string()));
        Ok(PlayerCalendar {
            ics: report::ics::feed(&title, &entries, now),
            lines,
        })
    }
}
