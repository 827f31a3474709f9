//! Answers about a player's own settings and games: what a seat command changed (addresses,
//! time zone, which mails), a warning that the seat's secret came from an address not
//! registered, the once-only word to a player whose seat passed on, and the list of a player's
//! games. Pure text from values; what to change and whom to tell is the daemon's decision.

use chrono::{DateTime, Utc};

use crate::engine::Play;
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

/// The answer to a seat command: `said` is what happened (decided by the daemon), then the
/// seat's settings as they now stand, with the open deadline in the seat's zone.
pub fn settings_reply(game: &dyn Play, to: &Recipient, said: &str, message_id: &str) -> Draft {
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
