//! Answers about a player's own settings and games: what a seat command changed (addresses,
//! time zone, which mails), a warning that the seat's secret came from an address not
//! registered, the once-only word to a player whose seat passed on, and the list of a player's
//! games. Pure text from values; what to change and whom to tell is the daemon's decision.

use chrono::{DateTime, Utc};

use crate::config::address::Unfit;
use crate::engine::Play;
use crate::mail::inbound::NotifyKind;
use crate::report;

use super::replies::{answer_draft, plain, short, warning};
use super::{Draft, DraftKind, Recipient};

/// The commands, as every settings answer ends with them.
const COMMANDS: &str = "Settings you can change by mail, one command as the first line of a mail
to this game (like orders):

    NAME Alice Smith             your name in lists and league tables
    TIMEZONE Europe/Paris        times in that zone (and UTC)
    NOTIFY ALL ON                every mail on its own, as it happens
    NOTIFY ALL OFF               one mail a step: the rest comes with it
    NOTIFY RECEIPTS ON           a receipt at once for each order mail
    NOTIFY RESULTS ON            every step's results, even asking nothing
    ADDRESS ADD you@home.org     also read your mails from that address
    ADDRESS REMOVE you@home.org  stop reading mails from it
    LIST                         your games, and where to write to each
";

/// What a seat command did to the seat's settings, as the daemon decided it
/// (daemon/settings.rs): the figures its answer gives (`settings_reply` says it in words).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SettingDone {
    /// ADDRESS ADD or REMOVE from an address other than the seat's registered one, `main`.
    OnlyFromMain {
        main: String,
    },
    AlreadyYours {
        address: String,
    },
    Unfit {
        address: String,
        why: Unfit,
    },
    /// Another player's address, in any game of this host (ruling E2): refused without
    /// saying whose or where, so the answer tells nothing about who plays what.
    TakenElsewhere {
        address: String,
    },
    TooManyAddresses {
        max: usize,
    },
    AddressAdded {
        address: String,
        main: String,
    },
    /// The address the game mails, which only the organiser can change.
    MainNotRemovable {
        address: String,
    },
    AddressRemoved {
        address: String,
    },
    NotYours {
        address: String,
    },
    AddressesShown,
    NameShown,
    NameSet {
        name: String,
    },
    TimeZoneSet {
        zone: String,
    },
    NotifyShown,
    NotifySet {
        kind: NotifyKind,
        on: bool,
    },
    /// STOP: one mail a step at most.
    Stopped,
    NotUnderstood {
        command: String,
        why: String,
    },
}

/// The first words of the answer: what the command did.
fn setting_said(done: &SettingDone) -> String {
    match done {
        SettingDone::OnlyFromMain { main } => format!(
            "Addresses can be added or removed only by a mail from the seat's registered \
             address ({main}); nothing changed."
        ),
        SettingDone::AlreadyYours { address } => {
            format!("{address} is already one of your addresses; nothing changed.")
        }
        SettingDone::Unfit { address, why } => format!(
            "{address} cannot be one of your addresses: {}. Nothing changed.",
            why.words()
        ),
        SettingDone::TakenElsewhere { address } => format!(
            "{address} cannot be one of your addresses: it is already registered for another \
             player's seat on this host. Nothing changed."
        ),
        SettingDone::TooManyAddresses { max } => format!(
            "A seat may have at most {max} extra addresses; remove one \
             first (ADDRESS REMOVE …). Nothing changed."
        ),
        SettingDone::AddressAdded { address, main } => format!(
            "Mails from {address} carrying this seat's secret are now read as yours.\n\
             Every mail of the game still goes to {main} only."
        ),
        SettingDone::MainNotRemovable { address } => format!(
            "{address} is the address the game mails; only the organiser can change it \
             (gm replace). Nothing changed."
        ),
        SettingDone::AddressRemoved { address } => {
            format!("Mails from {address} are no longer read for this seat.")
        }
        SettingDone::NotYours { address } => {
            format!("{address} is not one of your addresses; nothing changed.")
        }
        SettingDone::AddressesShown => "Your addresses are below.".to_string(),
        SettingDone::NameShown => "Your name is below.".to_string(),
        SettingDone::NameSet { name } => format!(
            "Your name in this game is now {name}. League tables show the name of your \
             latest game that has one."
        ),
        SettingDone::TimeZoneSet { zone } => {
            format!("Times in your mails are now shown in {zone} (and in UTC).")
        }
        SettingDone::NotifyShown => "Which mails you get is below.".to_string(),
        SettingDone::NotifySet { kind, on } => notify_said(*kind, *on),
        SettingDone::Stopped => {
            "STOP: you now get one mail a step at most. Receipts, \"has sent orders\" \
                 notices and results that ask nothing of you wait for your next mail that asks \
                 you for orders, and come with it (listed at its top, attached whole).\n\
                 While you hold a seat, the mails that ask you for orders, the answers to your \
                 mails and the game-over mail still come: a game cannot go on without them. \
                 To leave the game, write RESIGN (or CONCEDE) as the first line of a mail to \
                 it; to have every mail on its own again, NOTIFY ALL ON."
                .to_string()
        }
        SettingDone::NotUnderstood { command, why } => {
            format!("{command} was not understood: {why}. Nothing changed.")
        }
    }
}

/// NOTIFY <kind> ON or OFF: which mails now come on their own, and which wait.
fn notify_said(kind: NotifyKind, on: bool) -> String {
    let what = match kind {
        NotifyKind::Orders => "\"X has sent orders\" notices",
        NotifyKind::Optional => "Results of steps that only invite you",
        NotifyKind::Receipts => "Receipts of your orders",
        NotifyKind::Results => "Results of steps that ask nothing of you",
        NotifyKind::Both => "Receipts, notices and results that ask nothing of you",
    };
    if on {
        format!("{what} now come to you on their own, as they happen.")
    } else {
        format!(
            "{what} now wait for your next mail that asks you for orders (or ends \
             the game), and come with it: listed at its top and attached whole."
        )
    }
}

/// The answer to a seat command: what it did (`done`, decided by the daemon), then the
/// seat's settings as they now stand, with the open deadline in the seat's zone.
pub fn settings_reply(
    game: &dyn Play,
    to: &Recipient,
    done: &SettingDone,
    message_id: &str,
) -> Draft {
    let said = setting_said(done);
    let p = &to.private;
    let mut body = format!(
        "{}\n\nYOUR SETTINGS FOR SEAT {}\n",
        report::code_marks_to_quotes(said.trim_end()),
        to.seat
    );
    let name = if p.name.trim().is_empty() {
        "(none given: league tables show your seat)"
    } else {
        p.name.as_str()
    };
    body.push_str(&format!("Name:             {name}\n"));
    body.push_str(&format!("Mails go to:      {}\n", p.address));
    for a in &p.also_from {
        body.push_str(&format!("Also read from:   {a}\n"));
    }
    body.push_str(&format!("Time zone:        {}\n", p.time_zone));
    if let Some(d) = game.book().deadline.filter(|_| !game.is_over()) {
        body.push_str(&format!(
            "Open deadline:    {}\n",
            report::fmt_time(d, &p.time_zone)
        ));
    }
    let on = |b: bool| {
        if b {
            "on their own"
        } else {
            "with your next mail"
        }
    };
    body.push_str(&format!(
        "Receipts:         {}\nOrders notices:   {}\nOther results:    {}\nOptional steps:   {}\n\n{COMMANDS}",
        on(p.notify.receipts),
        on(p.notify.orders),
        on(p.notify.results),
        on(p.notify.optional)
    ));
    answer_draft(
        game,
        to,
        format!("settings-{}", short(message_id)),
        DraftKind::Settings,
        "Settings: yours now",
        &body,
        message_id,
    )
}

/// To the seat's registered player: a mail carrying the seat's secret came from `from`, which
/// is not one of the seat's addresses. Nothing of that mail is repeated; nothing was applied.
pub fn unregistered_notice(game_id: &str, to: &Recipient, from: &str, message_id: &str) -> Draft {
    let body = format!(
        "A mail for seat {seat} carrying the seat's secret arrived from {from},\n\
         which is not registered for this seat. Nothing in it was applied, and nothing\n\
         of it is repeated here or sent to that address.\n\n\
         If that address is yours, reply to this mail from this address with the line\n\n\
         ADDRESS ADD {from}\n\n\
         and send the mail again from there. If it is not yours, someone has your seat's\n\
         secret: tell the organiser, who can give the seat a new one.\n",
        seat = to.seat
    );
    warning(
        &format!("unregistered-{}", short(message_id)),
        game_id,
        to,
        "Orders from an address not registered",
        &body,
    )
}

/// The subject of the one mail to a player whose seat the organiser handed on.
pub fn passed_on_subject(game_id: &str, seat: &str) -> String {
    format!("[{game_id}] Seat {seat} has another player")
}

/// Once, to a player whose seat the organiser handed on: their mail was not applied.
pub fn passed_on_text(game_id: &str, seat: &str, until: DateTime<Utc>) -> String {
    let text = plain(
        game_id,
        &format!(
            "Your mail to game {game_id} was not applied: seat {seat} passed to another player\n\
             on {}. Mails from this address are no longer read for it, and this is the\n\
             only time you are told. Ask the organiser if you think this is a mistake.\n",
            report::fmt_time(until, "UTC")
        ),
    );
    report::wrap_text(&text)
}

/// One of a player's games, for [`games_list_text`].
pub struct ListedGame {
    pub game: String,
    pub seat: String,
    pub ruleset: String,
    /// Where to write for this seat (its reply address, secret included: the list goes only to
    /// an address the seat reads mail from).
    pub reply_to: String,
    /// The game's state in a few words (`step 4 open, due …`, `over`).
    pub state: String,
}

/// The list of a player's games, answering `LIST` (`asked`) or a mail that named no game.
pub fn games_list_text(address: &str, games: &[ListedGame], asked: bool) -> String {
    let mut body = if asked {
        format!("These are the games in which {address} plays a seat:\n\n")
    } else {
        format!(
            "Your mail named no game, so nothing was applied. These are the games in which\n\
             {address} plays a seat:\n\n"
        )
    };
    for g in games {
        body.push_str(&format!(
            "  {} ({}), seat {}: {}\n    write to: {}\n",
            g.game, g.ruleset, g.seat, g.state, g.reply_to
        ));
    }
    body.push_str(
        "\nTo send orders or a command to a game, reply to any of its mails (the reply\n\
         address carries the game and your seat's secret), or write to the address shown.\n",
    );
    report::wrap_text(&format!("{}\n\n-- \nDespatch\n", body.trim_end()))
}
