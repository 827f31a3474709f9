//! The organiser's desk, answered: one answer per desk mail quoting each command with what was
//! done or exactly why not, the organiser's list of games, and the note that the desk was tried
//! without its secret. Pure: the daemon carries the commands out and hands in what they did;
//! nothing here acts, reads a file or decides who may act.

use chrono::{DateTime, Duration, Utc};

use crate::engine::Play;
use crate::report::{self, fmt_time};

use super::ComposeError;
use super::toolkit::time_left_words;

/// The reason a CLOSE without one gives its seats.
pub const CLOSED_BY_THE_ORGANISER: &str = "closed by the organiser";
/// The reason a REPLACE without one gives its seats.
pub const THE_PREVIOUS_PLAYER_LEFT: &str = "the previous player left";

/// What one desk command did.
#[derive(Debug, Clone)]
pub enum DeskDone {
    Help,
    /// `GAMES`: one line per game the organiser runs (`game_line`, or why it cannot be read).
    Games(Vec<String>),
    Extended {
        game: String,
        deadline: DateTime<Utc>,
    },
    Closed {
        game: String,
        resolved: usize,
    },
    Replaced {
        game: String,
        seat: String,
        address: String,
    },
    /// `left`: what the step had left before its deadline (None: it has none).
    Paused {
        game: String,
        left: Option<Duration>,
    },
    Resumed {
        game: String,
        deadline: Option<DateTime<Utc>>,
        resolved: usize,
    },
    /// A message sent: the player addresses it reached, the games it was journaled in, those
    /// skipped and why.
    Broadcast {
        players: usize,
        games: Vec<String>,
        skipped: Vec<String>,
    },
}

/// Why a desk command was not carried out.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DeskRefused {
    #[error("there is no game `{0}`")]
    NoGame(String),
    #[error("game `{0}` is not yours: only its own organiser may act on it")]
    NotYours(String),
    /// The line could not be read, or the act itself refused (its own words).
    #[error("{0}")]
    Said(String),
}

/// The answer's words for a command done.
pub fn desk_done(done: &DeskDone) -> Result<String, ComposeError> {
    Ok(match done {
        DeskDone::Help => report::render("desk_help", ())?,
        DeskDone::Games(lines) => match lines.len() {
            0 => "You organise no game here.".into(),
            n => format!("Your games ({n}):\n{}", lines.join("\n")),
        },
        DeskDone::Extended { game, deadline } => format!(
            "DONE: the deadline of {game} is now {}. Every seat is told.",
            fmt_time(*deadline, "UTC")
        ),
        DeskDone::Closed { game, resolved } => format!(
            "DONE: the open step of {game} is closed; {resolved} step(s) resolved. Seats that \
             had not sent orders are recorded as no move received."
        ),
        DeskDone::Replaced {
            game,
            seat,
            address,
        } => format!(
            "DONE: seat {seat} of {game} now belongs to {address}, with a new secret; \
             a welcome is on its way to them and every seat is told."
        ),
        DeskDone::Paused { game, left } => {
            let left = match left {
                Some(l) if *l > Duration::zero() => {
                    format!("{} were left before the deadline", time_left_words(*l))
                }
                Some(_) => "its deadline had passed".into(),
                None => "its step has no deadline".into(),
            };
            format!(
                "DONE: {game} is paused: no deadline passes, no reminder goes and no \
                 silence counts until you RESUME it ({left}). Every seat is told."
            )
        }
        DeskDone::Resumed {
            game,
            deadline,
            resolved,
        } => {
            let when = match deadline {
                Some(d) => format!("its deadline is now {}", fmt_time(*d, "UTC")),
                None => "its step has no deadline".into(),
            };
            let resolved = match resolved {
                0 => String::new(),
                n => format!(" Every order was in: {n} step(s) resolved at once."),
            };
            format!("DONE: {game} goes on; {when}. Every seat is told.{resolved}")
        }
        DeskDone::Broadcast {
            players,
            games,
            skipped,
        } => {
            let skipped = match skipped.as_slice() {
                [] => String::new(),
                s => format!(" Not sent to: {}.", s.join("; ")),
            };
            format!(
                "DONE: your message went to {players} player address(es) of {}.{skipped}",
                games.join(", ")
            )
        }
    })
}

/// Why a league's message went to a game of it: not to one the organiser does not run, nor to
/// one that is over.
pub fn skipped_not_yours(game: &str) -> String {
    format!("{game} (not yours)")
}

/// See `skipped_not_yours`.
pub fn skipped_over(game: &str) -> String {
    format!("{game} (over)")
}

/// A league message that reached nobody.
pub fn league_reached_nobody(league: &str) -> String {
    format!("league `{league}` has no game in play that is yours, so nobody was written to")
}

/// The answer to a desk mail: each command quoted, then what became of it; a mail with no
/// command gets the desk's help.
pub fn desk_answer_text(
    lines: &[(&str, Result<String, DeskRefused>)],
) -> Result<String, ComposeError> {
    let mut answer = String::new();
    if lines.is_empty() {
        answer.push_str("Your mail held no command, so nothing was done.\n\n");
        answer.push_str(&report::render("desk_help", ())?);
    }
    for (text, said) in lines {
        let said = match said {
            Ok(s) => s.clone(),
            Err(why) => format!("NOT DONE: {why}"),
        };
        answer.push_str(&format!("> {text}\n{}\n\n", said.trim_end()));
    }
    Ok(answer)
}

/// The answer's subject: the desk mail's own, as a reply.
pub fn desk_answer_subject(asked: &str) -> String {
    match asked.trim() {
        "" => "The organiser's desk".to_string(),
        s if s.to_ascii_lowercase().starts_with("re:") => s.to_string(),
        s => format!("Re: {s}"),
    }
}

/// The note to an organiser whose desk was written to without its secret (subject, text);
/// nothing of the mail is quoted, since its sender may be anyone.
pub fn desk_refused_note() -> (&'static str, &'static str) {
    (
        "A mail to your desk was refused",
        "A mail to your organiser's desk was refused: it came either from your \
         address without your desk's secret, or with your desk's secret from another \
         address. Nothing was done.\n\nIf you did not send it, someone may be \
         trying your desk. Only mail from your own address to the desk address this \
         mail's Reply-To shows is read. You are told of this at most once an hour.\n",
    )
}

/// The subject of a league's message, sent from the house to each player once.
pub fn league_message_subject(league: &str) -> String {
    format!("[league {league}] A message from the organiser")
}

/// What a league's message says it is about.
pub fn league_message_about(league: &str, games: &[String]) -> String {
    format!("league {league} (games {})", games.join(", "))
}

/// A game of the organiser's list that cannot be read.
pub fn game_unreadable_line(id: &str, why: &str) -> String {
    format!("{id}: cannot be read ({why})")
}

/// One game in the organiser's list: its state and deadline.
pub fn game_line(id: &str, game: &dyn Play) -> String {
    let book = game.book();
    let head = format!("{id} ({}, {})", book.ruleset, book.scenario);
    if let Some(o) = game.outcome() {
        return format!("{head}: over. {}", o.summary);
    }
    let step = format!("step {} ({})", book.step, game.spec().title);
    if let Some(p) = &book.club.paused {
        let left = match p.left() {
            Some(l) if l > Duration::zero() => format!("{} left", time_left_words(l)),
            Some(_) => "its deadline had passed".into(),
            None => "no deadline".into(),
        };
        return format!(
            "{head}: PAUSED at {step} since {} ({left}); reason: {}",
            fmt_time(p.at, "UTC"),
            p.reason
        );
    }
    let deadline = match book.deadline {
        Some(d) => format!("deadline {}", fmt_time(d, "UTC")),
        None => "no deadline".into(),
    };
    let waiting = game.waiting_for();
    let waiting = match waiting.is_empty() {
        true => "every order in".to_string(),
        false => format!("waiting for {}", waiting.join(", ")),
    };
    format!("{head}: {step}; {deadline}; {waiting}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_command_is_quoted_with_what_became_of_it() {
        let a = desk_answer_text(&[
            ("CLOSE g1", Ok("DONE: closed.".into())),
            ("EXTEND g2 24", Err(DeskRefused::NotYours("g2".into()))),
        ])
        .unwrap();
        assert_eq!(
            a,
            "> CLOSE g1\nDONE: closed.\n\n> EXTEND g2 24\nNOT DONE: game `g2` is not yours: \
             only its own organiser may act on it\n\n"
        );
        let empty = desk_answer_text(&[]).unwrap();
        assert!(empty.starts_with("Your mail held no command, so nothing was done.\n\n"));
    }

    #[test]
    fn a_pause_says_what_was_left_and_a_resume_what_it_resolved() {
        let paused = |left| {
            desk_done(&DeskDone::Paused {
                game: "g1".into(),
                left,
            })
            .unwrap()
        };
        assert!(paused(Some(Duration::minutes(90))).contains("(1 h 30 min were left before"));
        assert!(paused(Some(Duration::zero())).contains("(its deadline had passed)"));
        assert!(paused(None).contains("(its step has no deadline)"));
        let resumed = |resolved| {
            desk_done(&DeskDone::Resumed {
                game: "g1".into(),
                deadline: None,
                resolved,
            })
            .unwrap()
        };
        assert!(resumed(0).ends_with("Every seat is told."));
        assert!(resumed(2).ends_with("Every order was in: 2 step(s) resolved at once."));
        assert_eq!(desk_answer_subject("  "), "The organiser's desk");
        assert_eq!(desk_answer_subject("RE: games"), "RE: games");
        assert_eq!(desk_answer_subject("games"), "Re: games");
    }
}
