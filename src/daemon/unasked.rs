//! Mail from outside a game's seats, as values a pure decision consults: the per-address cap
//! on answers to addresses that did not (provably) ask (docs/club-rules.md F1), with the
//! records the daemon read before deciding and those the decision's answers update (written by
//! intake's `carry_out` before anything is queued), and the strangers' hourly budget. `flood.rs`
//! keeps the same cap for the shell's own letters, with the same count. Nothing here reads or
//! writes the store but `Daemon::unasked`, the gathering.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};

use crate::engine::guard::{Activity, Verdict};

use super::Daemon;
use super::flood::count_answer;

/// The cap's records of the addresses a decision may answer unasked, and the answers it made.
#[derive(Debug, Clone, Default)]
pub(super) struct Unasked {
    /// As the store had them, by address in lower case.
    read: BTreeMap<String, Activity>,
    /// Each answer made, with its address's record as it is to be after it (newest last).
    pub(super) records: Vec<(String, Activity)>,
}

impl Unasked {
    /// The records as read, by address.
    pub(super) fn read(read: impl IntoIterator<Item = (String, Activity)>) -> Self {
        Self {
            read: read
                .into_iter()
                .map(|(a, r)| (a.to_ascii_lowercase(), r))
                .collect(),
            records: vec![],
        }
    }

    /// Whether one more answer to `to` fits in its hour (and counts it when it does). `what`
    /// names the answer in the log line of one refused.
    pub(super) fn admit(&mut self, to: &str, what: &str, now: DateTime<Utc>) -> bool {
        let key = to.to_ascii_lowercase();
        let a = self
            .records
            .iter()
            .rev()
            .find(|(x, _)| *x == key)
            .map(|(_, a)| a.clone())
            .or_else(|| self.read.get(&key).cloned())
            .unwrap_or_default();
        match count_answer(a, what, now) {
            Some(a) => {
                self.records.push((key, a));
                true
            }
            None => false,
        }
    }
}

/// A stranger's mail (no seat, or a seat's From without its secret) counted against the
/// strangers' budget (`per_hour`, `max_per_sender_per_hour`), never a player's: whether it is
/// over, and the record as it is to be.
pub(super) fn stranger_admit(
    mut record: Activity,
    per_hour: u32,
    now: DateTime<Utc>,
) -> (bool, Activity) {
    let over = record.admit(now, per_hour, "") != Verdict::Read;
    (over, record)
}

impl Daemon {
    /// The cap's records of `addresses`, read for a decision that may answer them.
    pub(super) fn unasked<'a>(&self, addresses: impl IntoIterator<Item = &'a str>) -> Unasked {
        Unasked::read(
            addresses
                .into_iter()
                .map(|a| (a.to_string(), self.data.answered(&a.to_ascii_lowercase()))),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_gets_three_unasked_answers_an_hour_counted_across_one_decision() {
        let now = DateTime::<Utc>::UNIX_EPOCH;
        let mut u = Unasked::read([("Who@X.org".to_string(), Activity::default())]);
        let sent: Vec<bool> = (0..4).map(|_| u.admit("who@x.ORG", "test", now)).collect();
        assert_eq!(sent, [true, true, true, false]);
        assert_eq!(u.records.len(), 3);
        assert!(u.records.iter().all(|(k, _)| k == "who@x.org"));
        // What the store had counts: an address answered thrice this hour gets no fourth.
        let full = u.records.last().unwrap().1.clone();
        let mut again = Unasked::read([("who@x.org".to_string(), full)]);
        assert!(!again.admit("who@x.org", "test", now));
        assert!(again.records.is_empty());
        // An hour on, it has room again.
        assert!(again.admit("who@x.org", "test", now + chrono::Duration::hours(1)));
    }
}
