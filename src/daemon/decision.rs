//! What intake decides about one inbound mail: the outcome (`Intake`, logged and returned to
//! the caller) and the `Decision` the daemon carries out (events to append, drafts to queue,
//! files and guard records to write). Values only: nothing here reads or writes the store.

use anyhow::Result;
use chrono::{DateTime, Utc};

use crate::engine::guard::Activity;
use crate::engine::{Event, Rejected};
use crate::mail::compose::{self, Draft};
use crate::mail::inbound::Inbound;
use crate::mail::inbound::desk::DeskLine;
use crate::mail::outbound::Outgoing;
use crate::store::SeatsFile;

use super::open_game::OpenGame;

/// What happened to one inbound message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Intake {
    Accepted {
        game: String,
        seat: String,
        step: u64,
    },
    Rejected {
        game: String,
        seat: String,
        lines: usize,
    },
    Help {
        game: String,
        seat: String,
    },
    Duplicate,
    Automated(String),
    Unknown(String),
    Unauthenticated {
        game: String,
        seat: String,
    },
    /// The seat's secret from an address not registered for it: not applied; the seat's
    /// registered player is told.
    Unregistered {
        game: String,
        seat: String,
    },
    /// From a player whose seat the organiser handed on: told once, not applied.
    PassedOn {
        game: String,
        seat: String,
    },
    /// A seat command (ADDRESS, TIMEZONE, NOTIFY): answered with the seat's settings.
    Settings {
        game: String,
        seat: String,
    },
    /// A seat's act on the game (ABSENT, CONCEDE, RESIGN, a draw vote), carried out.
    SeatAct {
        game: String,
        seat: String,
    },
    /// From an observer's address: observers cannot send orders; told at most once an hour.
    Observer {
        game: String,
    },
    /// A mail for the lobby (GAMES, OPEN, JOIN…): what became of it.
    Lobby(&'static str),
    /// A registered player's mail that named no game (or `LIST`): answered with their games.
    Listed {
        games: usize,
    },
    Unreadable(String),
    /// STATUS, HISTORY/RESEND or PRESS (issue 16) answered; `command` says which, or
    /// `refused` when the line could not be carried out.
    Talk {
        game: String,
        seat: String,
        command: &'static str,
    },
    /// A stranger went over `max_per_sender_per_hour`: set aside unanswered.
    RateLimited,
    /// A seat went over `max_per_sender_per_hour`: the mail is held (`daemon::held`) and read
    /// at `until`, when the seat's hour has room again, or before the step's `deadline` when
    /// it came before it.
    Held {
        game: String,
        seat: String,
        until: DateTime<Utc>,
        deadline: Option<DateTime<Utc>>,
    },
    /// Processing failed (the game's files, the store, a fault): the mail is held with the
    /// reason and retried (`daemon::held`).
    Failed(String),
    /// A mail to the organiser's desk from its organiser: `commands` lines carried out or
    /// refused, each answered (daemon/desk.rs).
    Desk {
        commands: usize,
    },
    /// A mail to the desk without the sender's own desk secret: nothing done (ruling D2).
    DeskRefused,
}

impl Intake {
    pub fn word(&self) -> &'static str {
        match self {
            Intake::Accepted { .. } => "accepted",
            Intake::Rejected { .. } => "rejected",
            Intake::Help { .. } => "help",
            Intake::Duplicate => "duplicate",
            Intake::Automated(_) => "automated",
            Intake::Unknown(_) => "unknown",
            Intake::Unauthenticated { .. } => "unauthenticated",
            Intake::Unregistered { .. } => "unregistered",
            Intake::PassedOn { .. } => "passed-on",
            Intake::Settings { .. } => "settings",
            Intake::SeatAct { .. } => "seat-act",
            Intake::Observer { .. } => "observer",
            Intake::Lobby(w) => w,
            Intake::Listed { .. } => "listed",
            Intake::Talk { command, .. } => command,
            Intake::Unreadable(_) => "unreadable",
            Intake::RateLimited => "rate-limited",
            Intake::Held { .. } => "held",
            Intake::Failed(_) => "failed",
            Intake::Desk { .. } => "desk",
            Intake::DeskRefused => "desk-refused",
        }
    }
}

/// The decision on one mail: what it is, and what to write and send for it.
pub(super) struct Decision {
    pub(super) intake: Intake,
    /// The game it concerns, opened, when anything is to be written or sent.
    pub(super) game: Option<OpenGame>,
    /// Journal events to append, in order (each mails what it mails).
    pub(super) events: Vec<Event>,
    /// Mails that answer this mail alone (rejection, HELP, a warning to the seat).
    pub(super) drafts: Vec<Draft>,
    /// Mails to an address that is no seat's (a former player, a list of games), by queue
    /// name: in the game's outbox when there is a game, else the house's.
    pub(super) letters: Vec<(String, Outgoing)>,
    /// The private seats file as it is to be after this mail (a seat command, a former player
    /// told), written before anything is queued.
    pub(super) seats: Option<SeatsFile>,
    /// The guard's records to keep: the seat's activity, a stranger's.
    pub(super) seat_activity: Option<(String, Activity)>,
    pub(super) stranger: Option<(String, Activity)>,
    /// The per-address records of answers to addresses that did not (provably) ask
    /// (docs/club-rules.md F1), written before anything is queued.
    pub(super) answered: Vec<(String, Activity)>,
    /// Record the Message-ID as processed by the game (after authentication only).
    pub(super) processed: bool,
    /// Private files of the game to write (durably) before any event is appended: a press
    /// message's text, which its event's mails are composed from.
    pub(super) files: Vec<(std::path::PathBuf, Vec<u8>)>,
    /// Mails already built, by queue name: a delivered mail sent again (`HISTORY n`).
    pub(super) built: Vec<(String, Vec<u8>)>,
    /// An address that wrote STOP to the house, to record as such (ruling L2).
    pub(super) quiet: Option<String>,
    /// The lobby's book as it is to be after a lobby mail, written before its letters.
    pub(super) lobby: Option<crate::store::LobbyBook>,
    /// A mail to the organiser's desk: what to do for it (daemon/desk.rs).
    pub(super) desk: Option<DeskJob>,
    /// A HELP answered without the ruleset's order reference, which cannot be read: the
    /// organiser is told (`reference_missing`).
    pub(super) reference_missing: bool,
}

impl Decision {
    pub(super) fn only(intake: Intake) -> Self {
        Self {
            intake,
            game: None,
            events: vec![],
            drafts: vec![],
            letters: vec![],
            seats: None,
            seat_activity: None,
            stranger: None,
            answered: vec![],
            processed: false,
            files: vec![],
            built: vec![],
            quiet: None,
            lobby: None,
            desk: None,
            reference_missing: false,
        }
    }

    /// A decision about an authenticated seat's mail in game `g`.
    pub(super) fn for_seat(intake: Intake, g: OpenGame, seat: &str, activity: Activity) -> Self {
        Self {
            intake,
            game: Some(g),
            events: vec![],
            drafts: vec![],
            letters: vec![],
            seats: None,
            seat_activity: Some((seat.to_string(), activity)),
            stranger: None,
            answered: vec![],
            processed: true,
            files: vec![],
            built: vec![],
            quiet: None,
            lobby: None,
            desk: None,
            reference_missing: false,
        }
    }
}

impl Decision {
    /// An authenticated seat's mail that became `event` (orders, a reveal) for `step`.
    pub(super) fn accepted(
        g: OpenGame,
        seat: &str,
        activity: Activity,
        step: u64,
        event: Event,
    ) -> Self {
        let intake = Intake::Accepted {
            game: g.game.book().id.clone(),
            seat: seat.to_string(),
            step,
        };
        let mut d = Self::for_seat(intake, g, seat, activity);
        d.events = vec![event];
        d
    }

    /// An authenticated seat's mail that applied nothing: answered, as `Re:` its subject, with
    /// every problem. `lines` is what the intake log counts as bad lines.
    pub(super) fn rejected(
        g: OpenGame,
        seat: &str,
        activity: Activity,
        inb: &Inbound,
        problems: &[Rejected],
        lines: usize,
    ) -> Result<Self> {
        let to = g.recipient(seat).expect("an authenticated seat").clone();
        let draft = compose::rejection(g.game.as_ref(), &to, problems, &inb.message_id)?;
        let intake = Intake::Rejected {
            game: g.game.book().id.clone(),
            seat: seat.to_string(),
            lines,
        };
        let mut d = Self::for_seat(intake, g, seat, activity);
        d.drafts = vec![draft];
        Ok(d)
    }
}

/// What intake decided about a desk mail, carried out by `desk_carry_out`.
pub(super) enum DeskJob {
    /// From an organiser with its secret: the commands to carry out, in order.
    Act {
        organiser: String,
        lines: Vec<DeskLine>,
    },
    /// Not authenticated: the organiser to tell (at most once an hour), if any is concerned.
    Warn { organiser: Option<String> },
}
