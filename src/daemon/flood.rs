//! The cap on answers Despatch sends to an address other than the (proven) sender of the
//! mail answered: a games list for a tokenless mail, a notice of a mail without the seat's
//! secret, a spectator's request or STOP answer (docs/club-rules.md F1). Whoever forges
//! mails cannot make Despatch a lever for flooding someone else. Counts per destination, in
//! the store (`answered/`, fsynced); decides only, the records are written by the caller.

use chrono::{DateTime, Utc};
use tracing::warn;

use crate::engine::guard::{Activity, Verdict};

use super::Daemon;

/// Answers one address may get per hour that it did not provably ask for (ruling F1): enough
/// for a player who mistypes twice and then asks for the list, far too few to flood anyone.
pub const ANSWERS_PER_HOUR: u32 = 3;

impl Daemon {
    /// Whether one more such answer (`what`, for the log) may go to `to` at `now`. When it
    /// may, the record to keep is pushed to `records` (a later answer of the same decision
    /// counts on it); when not, that it was not sent is logged, naming no secret.
    pub(super) fn may_answer(
        &self,
        to: &str,
        what: &str,
        now: DateTime<Utc>,
        records: &mut Vec<(String, Activity)>,
    ) -> bool {
        let key = to.to_ascii_lowercase();
        let a = records
            .iter()
            .rev()
            .find(|(x, _)| *x == key)
            .map(|(_, a)| a.clone())
            .unwrap_or_else(|| self.data.answered(&key));
        match count_answer(a, what, now) {
            Some(a) => {
                records.push((key, a));
                true
            }
            None => false,
        }
    }
}

/// One more answer counted on an address's record when it fits in the hour (ruling F1);
/// `None`, logged with `what`, when it does not.
pub(super) fn count_answer(mut a: Activity, what: &str, now: DateTime<Utc>) -> Option<Activity> {
    if a.admit(now, ANSWERS_PER_HOUR, "") == Verdict::Read {
        return Some(a);
    }
    warn!(
        what,
        per_hour = ANSWERS_PER_HOUR,
        "an answer to an address that did not ask for it is over the hourly cap: not sent"
    );
    None
}
