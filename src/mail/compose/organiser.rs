//! The organiser's reports: each trouble or call for a hand the daemon meets, as one typed
//! report with its subject and words (what happened, what goes on, the fix). Pure: paths,
//! reasons and times come in as values; nothing here reads the disk, queues a mail or decides
//! whether the organiser is told (the daemon does, once per report's name).

use chrono::{DateTime, Utc};

use crate::report::fmt_time;

/// One report to the organiser. The subject goes out under the game's `[id]` tag.
#[derive(Debug, Clone)]
pub enum OrganiserReport<'a> {
    /// A HELP was answered without the ruleset's order reference, which could not be read.
    ReferenceMissing { ruleset: &'a str, place: &'a str },
    /// A game failed this pass and is set aside; `advice` is the doctor's cause and fix.
    GameSetAside { game: &'a str, advice: &'a str },
    /// A seat's reveal quoted another lock than the journal's.
    SplitLock {
        seat: &'a str,
        step: u64,
        quoted: &'a str,
        lock: &'a str,
    },
    /// A mail to a seat could not be built and was set aside in `kept`.
    Unbuilt {
        name: &'a str,
        seat: &'a str,
        game: &'a str,
        why: &'a str,
        kept: &'a str,
    },
    /// A mail will never go; it is kept in `kept`.
    Undeliverable {
        game: &'a str,
        to: &'a str,
        why: &'a str,
        kept: &'a str,
    },
    /// A seat over the hourly limit: its mail is held until `read_at`.
    HeldOverLimit {
        seat: &'a str,
        game: &'a str,
        limit: u32,
        arrived: DateTime<Utc>,
        read_at: DateTime<Utc>,
        before_deadline: bool,
        key: &'a str,
    },
    /// A mail could not be processed and is held as `key` in `held_dir`.
    HeldFailed {
        error: &'a str,
        from: &'a str,
        game: Option<&'a str>,
        key: &'a str,
        held_dir: &'a str,
    },
    /// A mail could not even be held (`why`); `max_held` is the house's bound on held mail.
    NotHeld {
        from: &'a str,
        game: Option<&'a str>,
        why: &'a str,
        max_held: usize,
    },
    /// A mail in the inbox cannot be read and stays there.
    InboxUnreadable { why: &'a str, file: &'a str },
    /// A seat resigned and wants a new player.
    ReplacementWanted {
        game: &'a str,
        step: u64,
        seat: &'a str,
    },
}

impl OrganiserReport<'_> {
    /// The subject (without the `[game]` tag) and the body.
    pub fn words(&self) -> (String, String) {
        match *self {
            Self::ReferenceMissing { ruleset, place } => (
                "The order reference cannot be read".into(),
                format!(
                    "A player asked for HELP, and the order reference of {ruleset} could not be read\n\
                     from {place}; the player got the rest of the answer.\n\n\
                     Fix: install the rulesets' data again (README, \"Install, and upgrade\"), or\n\
                     check games_dir in the configuration; then run despatch doctor.\n"
                ),
            ),
            Self::GameSetAside { game, advice } => (
                format!("Game {game} is set aside"),
                format!(
                    "Despatch could not advance game {game} and set it aside; every other game goes\n\
                     on, and it is tried again at each pass.\n\n{advice}"
                ),
            ),
            Self::SplitLock {
                seat,
                step,
                quoted,
                lock,
            } => (
                format!("Split lock reported by {seat} (step {step})"),
                format!(
                    "{seat}'s reveal for step {step} quoted L_{step} = {quoted},\n\
                     but the journal holds L_{step} = {lock}.\n\
                     It is recorded in the log as the seat's proof that it was shown another lock.\n"
                ),
            ),
            Self::Unbuilt {
                name,
                seat,
                game,
                why,
                kept,
            } => (
                format!("A mail to seat {seat} could not be built"),
                format!(
                    "Despatch could not build the mail {name} to seat {seat} of game {game} and set it\n\
                     aside; every other mail was sent and the game goes on. Later mails to the\n\
                     seat that fail the same way are set aside too, without another report.\n\n\
                     Reason: {why}\n\nWhat is known of each is kept in {kept}.\n"
                ),
            ),
            Self::Undeliverable {
                game,
                to,
                why,
                kept,
            } => (
                format!("Undeliverable mail to {to}"),
                format!(
                    "Despatch could not deliver a mail of game {game} to {to}.\n\nReason: {why}\n\n\
                     The mail is kept in {kept} for you to forward or resend. The player may have\n\
                     changed address: `despatch gm replace` hands the seat to a new one.\n"
                ),
            ),
            Self::HeldOverLimit {
                seat,
                game,
                limit,
                arrived,
                read_at,
                before_deadline,
                key,
            } => held_over_limit(seat, game, limit, arrived, read_at, before_deadline, key),
            Self::HeldFailed {
                error,
                from,
                game,
                key,
                held_dir,
            } => super::held::held_failed_report(error, from, game, key, held_dir),
            Self::NotHeld {
                from,
                game,
                why,
                max_held,
            } => not_held(from, game, why, max_held),
            Self::InboxUnreadable { why, file } => (
                "A mail in the inbox cannot be read".into(),
                format!(
                    "Despatch cannot read a mail in its inbox and leaves it there; it is read again\n\
                     at each pass, and every other mail goes on.\n\nReason: {why}\n\nFile: {file}\n"
                ),
            ),
            Self::ReplacementWanted { game, step, seat } => {
                super::seat_acts::replacement_wanted(game, step, seat)
            }
        }
    }
}

/// `HeldOverLimit`'s words: when the held mail is read, and how to read it now.
fn held_over_limit(
    seat: &str,
    game: &str,
    limit: u32,
    arrived: DateTime<Utc>,
    read_at: DateTime<Utc>,
    before_deadline: bool,
    key: &str,
) -> (String, String) {
    (
        format!("Mail of seat {seat} held (over the hourly limit)"),
        format!(
            "Seat {seat} of game {game} sent more than {limit} mails within an hour\n\
             (mail.max_per_sender_per_hour). Its mail of {} is held and will be read at\n\
             {}{}; the seat's later mails wait behind it. The seat was told.\n\n\
             despatch held                 lists held mail\n\
             despatch held --retry {key}  reads it now, the limit aside\n",
            fmt_time(arrived, "UTC"),
            fmt_time(read_at, "UTC"),
            if before_deadline {
                " (before the step's deadline, which it came before)"
            } else {
                ""
            },
        ),
    )
}

/// `NotHeld`'s words: the original is the only copy, and where it stays.
fn not_held(from: &str, game: Option<&str>, why: &str, max_held: usize) -> (String, String) {
    (
        "Mail could not be held".into(),
        format!(
            "A mail from {} to game {} could not be held for later ({why}): more than\n\
             mail.max_per_sender_per_hour of its mails are held already, or {max_held} in all.\n\
             Its original stays in the inbox (cur/) or the IMAP quarantine folder.\n",
            if from.is_empty() {
                "an unknown sender"
            } else {
                from
            },
            game.unwrap_or("(none named)"),
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_names_its_cause_and_its_fix() {
        let (s, t) = OrganiserReport::Undeliverable {
            game: "g1",
            to: "ann@club.example",
            why: "550 no such user",
            kept: "/data/games/g1/failed",
        }
        .words();
        assert_eq!(s, "Undeliverable mail to ann@club.example");
        assert!(t.contains("Reason: 550 no such user"), "{t}");
        assert!(t.contains("despatch gm replace"), "{t}");
        let (s, t) = OrganiserReport::NotHeld {
            from: "",
            game: None,
            why: "disk full",
            max_held: 500,
        }
        .words();
        assert_eq!(s, "Mail could not be held");
        assert!(
            t.starts_with("A mail from an unknown sender to game (none named) could not be held for later (disk full)"),
            "{t}"
        );
        assert!(t.contains("or 500 in all"), "{t}");
    }

    #[test]
    fn a_held_mail_read_before_its_deadline_says_so_and_one_after_does_not() {
        let at = |h| DateTime::parse_from_rfc3339(&format!("2026-11-28T{h:02}:00:00Z")).unwrap();
        let report = |before_deadline| {
            OrganiserReport::HeldOverLimit {
                seat: "Japan",
                game: "g1",
                limit: 20,
                arrived: at(10).into(),
                read_at: at(11).into(),
                before_deadline,
                key: "k1",
            }
            .words()
            .1
        };
        assert!(report(true).contains("(before the step's deadline"));
        assert!(!report(false).contains("deadline"));
        assert!(report(false).contains("despatch held --retry k1"));
    }
}
