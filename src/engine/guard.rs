//! The flood and loop guards of intake, pure: given what a sender (an authenticated seat, or
//! separately a stranger) did lately and the time, is this mail read, set aside, or answered?
//! Counting happens only after authentication for seats, so a forger sending a player's From
//! address can exhaust only the strangers' budget, never the player's. An auto-responder that
//! ignores `Auto-Submitted` is caught when the same text is rejected a few times running.

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};

/// How many identical rejected mails in a row make a sender an auto-responder.
pub const LOOP_AFTER: u32 = 3;
/// At most one warning about mails without the seat's secret per seat in this many hours.
pub const AUTH_NOTICE_HOURS: i64 = 6;

/// What the guard remembers of one sender (a seat of a game, or a stranger's address).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Activity {
    /// When its mails were read, the last hour's only.
    #[serde(default)]
    pub mails: Vec<DateTime<Utc>>,
    /// The digest of the last rejected text, how many times running it was rejected, and when.
    #[serde(default)]
    pub rejected: Option<(String, u32, DateTime<Utc>)>,
    /// When the seat was last warned of a mail without its secret.
    #[serde(default)]
    pub last_auth_notice: Option<DateTime<Utc>>,
}

/// Whether a mail is read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    Read,
    /// Over the hourly budget. A seat's mail is held and read when `Activity::free_at` says
    /// (see `daemon::held`); a stranger's is set aside unanswered.
    TooMany,
    /// The same text was rejected `LOOP_AFTER` times running: an auto-responder.
    Loop,
}

impl Activity {
    /// Counts this mail (at `now`) against `per_hour`, and checks it is not a repeat of a text
    /// already rejected `LOOP_AFTER` times running (`text_digest` of what the sender wrote).
    pub fn admit(&mut self, now: DateTime<Utc>, per_hour: u32, text_digest: &str) -> Verdict {
        let hour_ago = now - Duration::hours(1);
        self.mails.retain(|t| *t > hour_ago);
        if let Some((d, n, at)) = &self.rejected
            && d == text_digest
            && *n >= LOOP_AFTER
            && now - *at < Duration::hours(24)
        {
            return Verdict::Loop;
        }
        if self.mails.len() >= per_hour as usize {
            return Verdict::TooMany;
        }
        self.mails.push(now);
        Verdict::Read
    }

    /// When the hourly window next has room for a mail, given the mails it counts: an hour
    /// after the oldest one that must age out. `None` while it has room now.
    pub fn free_at(&self, per_hour: u32) -> Option<DateTime<Utc>> {
        let mut times = self.mails.clone();
        if times.len() < per_hour as usize {
            return None;
        }
        times.sort_unstable();
        Some(times[times.len() - per_hour as usize] + Duration::hours(1))
    }

    /// Records the outcome of a mail that was read: rejected (with its text's digest) or not.
    pub fn outcome(&mut self, now: DateTime<Utc>, rejected_text: Option<&str>) {
        self.rejected = match (rejected_text, self.rejected.take()) {
            (Some(d), Some((last, n, _))) if last == d => Some((last, n + 1, now)),
            (Some(d), _) => Some((d.to_string(), 1, now)),
            (None, _) => None,
        };
    }

    /// Whether the seat may be warned now of a mail without its secret (and notes it).
    pub fn may_warn(&mut self, now: DateTime<Utc>) -> bool {
        match self.last_auth_notice {
            Some(t) if now - t < Duration::hours(AUTH_NOTICE_HOURS) => false,
            _ => {
                self.last_auth_notice = Some(now);
                true
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn t(min: i64) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap() + Duration::minutes(min)
    }

    #[test]
    fn the_hourly_budget_counts_only_the_last_hour() {
        let mut a = Activity::default();
        for i in 0..3 {
            assert_eq!(a.admit(t(i), 3, "x"), Verdict::Read);
        }
        assert_eq!(a.admit(t(10), 3, "x"), Verdict::TooMany);
        assert_eq!(
            a.admit(t(61), 3, "x"),
            Verdict::Read,
            "the first mail is an hour old"
        );
    }

    #[test]
    fn a_full_window_has_room_again_an_hour_after_its_oldest_mail() {
        let mut a = Activity::default();
        assert_eq!(a.free_at(3), None);
        for i in [0, 5, 7] {
            assert_eq!(a.admit(t(i), 3, "x"), Verdict::Read);
        }
        assert_eq!(a.admit(t(20), 3, "x"), Verdict::TooMany);
        let free = a.free_at(3).unwrap();
        assert_eq!(free, t(60));
        assert_eq!(
            a.admit(free - Duration::seconds(1), 3, "x"),
            Verdict::TooMany
        );
        assert_eq!(
            a.admit(free, 3, "x"),
            Verdict::Read,
            "room at exactly free_at"
        );
        assert_eq!(a.free_at(3), Some(t(65)), "then the next one ages out");
    }

    #[test]
    fn the_same_rejected_text_three_times_running_is_a_loop() {
        let mut a = Activity::default();
        for i in 0..3 {
            assert_eq!(a.admit(t(i), 60, "canned"), Verdict::Read);
            a.outcome(t(i), Some("canned"));
        }
        assert_eq!(a.admit(t(5), 60, "canned"), Verdict::Loop);
        assert_eq!(
            a.admit(t(6), 60, "orders"),
            Verdict::Read,
            "other text is read"
        );
        a.outcome(t(6), None);
        assert_eq!(
            a.admit(t(7), 60, "canned"),
            Verdict::Read,
            "an accepted mail resets it"
        );
    }

    #[test]
    fn warnings_about_missing_secrets_are_spaced() {
        let mut a = Activity::default();
        assert!(a.may_warn(t(0)));
        assert!(!a.may_warn(t(60)));
        assert!(a.may_warn(t(60 * AUTH_NOTICE_HOURS + 1)));
    }
}
