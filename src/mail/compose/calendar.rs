//! A player's calendar in words (issue 31 point 5): every deadline of every seat the address
//! holds, as an iCalendar feed and as one line per seat for the `CALENDAR` answer. Pure: the
//! daemon reads the games and hands in each seat's state.

use chrono::{DateTime, Utc};

use crate::report::{self, ics::FeedEntry};

/// One seat of the player, as its game stands.
#[derive(Debug, Clone)]
pub struct SeatOnCalendar {
    pub game: String,
    pub seat: String,
    pub over: bool,
    pub paused: bool,
    pub step: u64,
    pub step_title: String,
    pub deadline: Option<DateTime<Utc>>,
    /// Whether the seat's orders are awaited for the step.
    pub awaited: bool,
    /// The game's journal length: the feed entry's sequence, so a calendar sees a change.
    pub sequence: u64,
}

/// The feed (titled after the player `name`) and the lines, times written in `zone`; a paused
/// or ended game, or a step without a deadline, says so and has no entry.
pub fn calendar_of(
    name: &str,
    seats: &[SeatOnCalendar],
    zone: &str,
    domain: &str,
    now: DateTime<Utc>,
) -> (String, Vec<String>) {
    let mut entries = vec![];
    let mut lines = vec![];
    for s in seats {
        let (id, seat, step) = (&s.game, &s.seat, s.step);
        let head = format!("{id} ({seat}):");
        if s.over {
            lines.push(format!("{head} over"));
            continue;
        }
        if s.paused {
            lines.push(format!("{head} step {step} paused by the organiser"));
            continue;
        }
        let Some(at) = s.deadline else {
            lines.push(format!("{head} step {step} has no deadline"));
            continue;
        };
        let summary = if s.awaited {
            format!("Orders due: {id}, step {step} ({seat})")
        } else {
            format!("Step {step} of {id} closes ({seat})")
        };
        lines.push(format!(
            "{head} step {step}, {} {}",
            if s.awaited {
                "your orders are due"
            } else {
                "closes"
            },
            report::fmt_short(at, zone)
        ));
        entries.push(FeedEntry {
            uid: format!("{id}-{step}-{seat}@{domain}"),
            sequence: s.sequence,
            at,
            summary,
            description: format!(
                "{}: {}",
                s.step_title,
                if at <= now {
                    "the deadline has passed; the step resolves at the next pass"
                } else if s.awaited {
                    "reply to the step's mail with your orders"
                } else {
                    "your orders are in"
                }
            ),
        });
    }
    let title = format!("Despatch: {name}");
    (report::ics::feed(&title, &entries, now), lines)
}
