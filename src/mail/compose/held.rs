//! What a player is told when their mail is held (`daemon::held`): pure text from the values
//! the daemon hands in (times, the seat, the limit). It says when the mail will be read and
//! that it need not be sent again; it quotes nothing of the held mail.

use chrono::{DateTime, Utc};

use crate::report::{self, wrap_text};
use crate::store::HeldCause;

use super::replies::{plain, warning};
use super::{Draft, Recipient};

/// A held mail's cause in a few words, as `despatch held` and the intake log show it.
pub fn held_reason(cause: &HeldCause) -> String {
    match cause {
        HeldCause::RateLimit { until, .. } => format!(
            "over its seat's hourly limit until {}",
            until.format("%Y-%m-%d %H:%M UTC")
        ),
        HeldCause::Failed { error } => format!("processing failed: {error}"),
        HeldCause::Behind { key } => {
            format!("waits behind the same sender's earlier held mail {key}")
        }
    }
}

/// When a held mail will be read, as a seat is told.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadAt {
    pub at: DateTime<Utc>,
    /// It is read then because the step's deadline comes first (the mail came before it).
    pub before_deadline: bool,
}

/// To a seat whose mail went over the hourly limit: once per run of held mail, named after
/// the held mail's key (so a mail held again after a crash is told of once).
pub fn held_notice(
    game_id: &str,
    to: &Recipient,
    key: &str,
    arrived: DateTime<Utc>,
    read: ReadAt,
    limit: u32,
) -> Draft {
    let tz = to.private.time_zone.as_str();
    let when = if read.before_deadline {
        format!(
            "just before the step's deadline, at about {}, because it came before it",
            report::fmt_time(read.at, tz)
        )
    } else {
        format!("at about {}", report::fmt_time(read.at, tz))
    };
    let body = format!(
        "Your mail of {arrived} to game {game_id} is held: seat {seat} sent more than {limit} \
         mails within an hour, the most Despatch reads from one seat in an hour.\n\n\
         It will be read {when}, and applied then; you need not send it again. Mails you \
         send meanwhile wait behind it and are read in the order you sent them.\n\n\
         You are told this once; nothing of your mail is repeated here.\n",
        arrived = report::fmt_time(arrived, tz),
        seat = to.seat,
    );
    warning(
        &format!("held-{key}"),
        game_id,
        to,
        "Your mail is held and will be read later",
        &wrap_text(&body),
    )
}

/// To a sender recognised by the reply address of a seat (never by what the mail says) whose
/// mail could not be processed: the subject and the text of a letter. `next_try` is when it
/// is tried again by itself (`None`: only when the trouble is fixed).
pub fn held_failed_letter(
    game_id: &str,
    arrived: DateTime<Utc>,
    next_try: Option<DateTime<Utc>>,
    tz: &str,
) -> (String, String) {
    let when = match next_try {
        Some(t) => format!(
            "It is tried again at about {} and every little while after, ",
            report::fmt_time(t, tz)
        ),
        None => "It is tried again ".to_string(),
    };
    let text = format!(
        "Your mail of {arrived} to game {game_id} is held: Despatch could not process it, \
         because of a fault on the host's side, not in your mail. The organiser has been \
         told.\n\n\
         {when}and applied as soon as the fault is fixed; you need not send it again. \
         Mails you send to this game meanwhile wait behind it and are read in the order you \
         sent them.\n\n\
         You are told this at most once in six hours; nothing of your mail is repeated \
         here.\n",
        arrived = report::fmt_time(arrived, tz),
    );
    (
        format!("[{game_id}] Your mail is held and will be read later"),
        plain(game_id, &wrap_text(&text)),
    )
}

/// The organiser's report of a mail that could not be processed and is held (`key`, in
/// `held_dir`), from `from` (empty when unknown) to `game`: the subject and the text.
pub(super) fn held_failed_report(
    error: &str,
    from: &str,
    game: Option<&str>,
    key: &str,
    held_dir: &str,
) -> (String, String) {
    let from = if from.is_empty() {
        "an unknown sender"
    } else {
        from
    };
    let text = format!(
        "Despatch could not process a mail and holds it; every other mail and game\n\
         went on.\n\n\
         Reason: {error}\n\n\
         From {from} to game {}, held as {key} in {held_dir}.\n\
         It is tried again by itself (after a minute, doubling to an hour), and at\n\
         once when the game's folder changes (a fixed owner or mode, an edited file)\n\
         or the daemon restarts.\n\n\
         despatch held                 lists held mail\n\
         despatch held --retry {key}  tries it now\n",
        game.unwrap_or("(none named)"),
    );
    (
        "A mail could not be processed and is held".to_string(),
        text,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::SeatPrivate;
    use chrono::TimeZone;

    fn seat(tz: &str) -> Recipient {
        Recipient {
            seat: "us".into(),
            private: SeatPrivate {
                address: "p@x.example".into(),
                name: String::new(),
                token: "secret0000000000000000".into(),
                time_zone: tz.into(),
                also_from: vec![],
                notify: Default::default(),
            },
        }
    }

    #[test]
    fn the_notice_says_when_in_the_seats_zone_and_quotes_nothing() {
        let t = Utc.with_ymd_and_hms(2026, 11, 22, 20, 0, 0).unwrap();
        let read = ReadAt {
            at: t + chrono::Duration::minutes(42),
            before_deadline: false,
        };
        let d = held_notice("g1", &seat("Europe/Paris"), "abcd", t, read, 60);
        assert_eq!(d.name, "held-abcd");
        assert!(d.text.contains("21:42 CET"), "{}", d.text);
        assert!(d.text.contains("more than 60"), "{}", d.text);
        assert!(d.text.contains("need not send it again"), "{}", d.text);
        assert!(!d.text.contains("secret0000"), "{}", d.text);
        let early = held_notice(
            "g1",
            &seat("UTC"),
            "abcd",
            t,
            ReadAt {
                before_deadline: true,
                ..read
            },
            60,
        );
        assert!(
            early.text.contains("before the step's deadline"),
            "{}",
            early.text
        );
        assert!(early.text.contains("20:42 UTC"), "{}", early.text);
    }

    #[test]
    fn the_failed_letter_names_the_game_and_when_it_is_tried() {
        let t = Utc.with_ymd_and_hms(2026, 11, 22, 20, 0, 0).unwrap();
        let (subject, text) =
            held_failed_letter("g1", t, Some(t + chrono::Duration::minutes(1)), "UTC");
        assert_eq!(subject, "[g1] Your mail is held and will be read later");
        assert!(
            text.contains("20:01 UTC") && text.contains("game g1"),
            "{text}"
        );
        let (_, later) = held_failed_letter("g1", t, None, "UTC");
        assert!(later.contains("It is tried again and applied"), "{later}");
    }
}
