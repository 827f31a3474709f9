//! Mails to and about observers (issue 16, point 5), pure. An observer's mails are built from
//! `Viewer::Spectator` alone — never from a seat's view — and carry no seat's secret: their
//! reply address is the plain game mailbox. The seats are told, by count and by who added
//! them, that someone watches (ruling W1 in docs/watching.md), never the observer's address.

use crate::dice;
use crate::engine::{Event, Play, Viewer};
use crate::report::{self, ResultsCtx};
use crate::store::SeatPrivate;

use super::replies::{answer_draft, plain, short};
use super::rich;
use super::toolkit::{dice_section, event_draft, last_lock, results_subject};
use super::{ComposeError, Draft, DraftKind, MailCtx, Recipient};
use crate::mail::outbound;

/// The first line of every mail to an observer. `despatch verify` reads it to hold the mail
/// against the spectator view (an observer's mail names no seat).
pub const SPECTATOR_MARK: &str = "SPECTATOR VIEW";

/// The name an observer's drafts are composed under (for Message-IDs and the map's name); the
/// route it would make is never sent (see `observer_outgoing`).
const AS_SPECTATOR: &str = "spectator";

/// A stand-in secret for composing: the reply address it would make is thrown away
/// (`observer_outgoing` sets no Reply-To), so an observer never holds a route to a seat.
const NO_TOKEN: &str = "spectatorxxxxxxxxxxxxxxx";

/// Whether `to` is an observer's stand-in recipient (which must get no seat's page).
pub(super) fn is_stand_in(to: &Recipient) -> bool {
    to.private.token == NO_TOKEN
}

/// The recipient an observer's draft is built for: their address, no secret, UTC.
pub fn observer_recipient(address: &str) -> Recipient {
    Recipient {
        seat: AS_SPECTATOR.to_string(),
        private: SeatPrivate {
            address: address.to_string(),
            name: String::new(),
            token: NO_TOKEN.to_string(),
            time_zone: "UTC".into(),
            also_from: vec![],
            notify: Default::default(),
        },
    }
}

/// The observer's mail as sent: the draft addressed to `address`, with no Reply-To (a reply
/// goes to the game mailbox, carries no secret and is answered that observers cannot order).
pub fn observer_outgoing(
    draft: &Draft,
    address: &str,
    stop: Option<&str>,
    ctx: &MailCtx,
) -> Result<super::Outgoing, super::BuildError> {
    let to = [observer_recipient(address)];
    let mut c = ctx.clone();
    c.recipients = &to;
    let mut out = draft.outgoing(&c)?;
    out.reply_to = None;
    // A spectator stops from their own address to the game's (W7): no seat's route.
    let (local, domain) = ctx.address_parts();
    let code = stop.map(|s| outbound::unsubscribe_code(&["spectator", &draft.game, s]));
    let (uris, one_click) = outbound::unsubscribe_uris(
        ctx.unsubscribe_url,
        code.as_deref(),
        outbound::unsubscribe_mailto(&format!("{local}+{}@{domain}", draft.game)),
    );
    out.list_unsubscribe = Some(uris);
    out.one_click = one_click;
    Ok(out)
}

fn lead(game: &dyn Play, delay: u32) -> String {
    let behind = match delay {
        0 => "as each step resolves".to_string(),
        1 => "one step behind the game".to_string(),
        n => format!("{n} steps behind the game"),
    };
    format!(
        "{SPECTATOR_MARK}\nYou watch game {} as a spectator, {behind}: you see what every seat \
         may see, nothing hidden. Spectators cannot send orders.\n\n",
        game.book().id
    )
}

/// The spectator view of step `step`'s results, from the game as it stands right after them.
/// Named `spectator-<step>` (the daemon adds the observer's id).
pub fn spectator_results(
    game: &dyn Play,
    step: u64,
    delay: u32,
    ctx: &MailCtx,
) -> Result<Draft, ComposeError> {
    let book = game.book();
    let view = game.view(&Viewer::Spectator);
    let to = observer_recipient("");
    let info = last_lock(game, step);
    let dice = dice_section(&info, &book.last_rolls);
    let rich = rich::build(
        game,
        &to,
        &view,
        None,
        serde_json::json!({
            "step": step, "step_title": book.last_step_title,
            "waiting": game.waiting_for(), "dice": dice,
        }),
        ctx,
    )?;
    let body = report::render(
        "results",
        &ResultsCtx {
            game: &book.id,
            step,
            step_title: &book.last_step_title,
            view: &view,
            prompt: None,
            standing: None,
            deadline: None,
            waiting: game.waiting_for(),
            dice,
            protocol: book.protocol.name(),
        },
    )?;
    let text = rich::seal(game, &format!("{}{body}", lead(game, delay)), Some(&rich))?;
    Ok(Draft {
        waits: None,
        brings: Vec::new(),
        name: format!("spectator-{step:06}"),
        kind: DraftKind::Results,
        game: book.id.clone(),
        seat: AS_SPECTATOR.into(),
        subject: results_subject(game, "", None),
        text,
        rich: Some(rich),
        calendar: None,
        answers: None,
        step: super::asked_step(game),
    })
}

/// The game-over mail in the spectator view, with the journal (once the game is over every
/// order is public: the salt key opens every digest) so an observer's folder verifies alone.
pub fn spectator_over(game: &dyn Play, step: u64, ctx: &MailCtx) -> Result<Draft, ComposeError> {
    let book = game.book();
    let view = game.view(&Viewer::Spectator);
    let to = observer_recipient("");
    let info = last_lock(game, step);
    let outcome = game.outcome();
    // As the seats' game-over mail: an abandoned game shows no figures and no dice.
    let abandoned = book.club.abandoned.is_some();
    let figures = (!abandoned).then(|| game.victory_figures());
    let mut rich = rich::build(
        game,
        &to,
        &view,
        None,
        serde_json::json!({
            "step": step, "step_title": book.last_step_title,
            "outcome": outcome.as_ref().map(|o| o.summary.clone()),
            "figures": outcome.as_ref().and(figures.clone()),
            "dice": (!abandoned).then(|| dice_section(&info, &book.last_rolls)),
        }),
        ctx,
    )?;
    rich.journal = ctx
        .journal
        .map(|lines| lines.iter().map(|l| format!("{l}\n")).collect());
    let salt_key = book
        .salt_key
        .or(ctx.salt_key.filter(|_| book.protocol == dice::Protocol::V2))
        .map(|z| dice::to_hex(&z));
    let body = report::render(
        "game_over",
        serde_json::json!({
            "outcome": outcome.as_ref().map(|o| o.summary.clone()).unwrap_or_default(),
            "view": view, "salt_key": salt_key,
            "journal": ctx.journal.is_some(), "figures": figures.unwrap_or_default(),
        }),
    )?;
    let dice = match book.last_lock {
        Some(_) if abandoned => String::new(),
        Some(_) => report::render(
            "dice",
            serde_json::json!({
                "game": book.id, "step": step, "protocol": book.protocol.name(),
                "dice": dice_section(&info, &book.last_rolls),
            }),
        )?,
        None => String::new(),
    };
    let text = rich::seal(
        game,
        &format!("{SPECTATOR_MARK}\n\n{body}\n{dice}"),
        Some(&rich),
    )?;
    Ok(Draft {
        waits: None,
        brings: Vec::new(),
        name: "spectator-over".into(),
        kind: DraftKind::GameOver,
        game: book.id.clone(),
        seat: AS_SPECTATOR.into(),
        subject: results_subject(game, "", None),
        text,
        rich: Some(rich),
        calendar: None,
        answers: None,
        step: super::asked_step(game),
    })
}

/// The first mail to a new observer: what game, who plays, how far behind, and the dice
/// commitment their results mails are checked against.
pub fn spectator_welcome(game: &dyn Play, delay: u32) -> Result<Draft, ComposeError> {
    let book = game.book();
    let onion = book.onions.last().copied();
    let mut body = lead(game, delay);
    body.push_str(&format!(
        "Game {} ({}, scenario {}).\nSeats:\n",
        book.id,
        game.ruleset(),
        book.scenario
    ));
    for s in &book.seats {
        body.push_str(&format!("  {} ({})\n", s.seat, s.side));
    }
    body.push_str(&format!(
        "\nFrom now on you receive the results of each step as a spectator sees them, then \
         the game-over mail with the whole journal.\n\nEvery roll comes from {}. The host \
         committed to its secrets before the game began:\n",
        book.protocol.name()
    ));
    if let Some(o) = onion {
        body.push_str(&format!(
            "    Anchor A = {}   (from step {}, onion length {}{})\n",
            dice::to_hex(&o.anchor),
            o.from_step,
            o.len,
            super::toolkit::mail_key_clause(book)
        ));
    }
    body.push_str(
        "Keep these mails and run `despatch verify <folder>` to re-derive every die.\n\
         To stop watching, ask the organiser or the player who added you.\n",
    );
    let text = rich::seal(game, &body, None)?;
    Ok(Draft {
        waits: None,
        brings: Vec::new(),
        name: "spectator-welcome".into(),
        kind: DraftKind::GmNotice,
        game: book.id.clone(),
        seat: AS_SPECTATOR.into(),
        subject: format!("You are watching {}", book.id),
        text,
        rich: None,
        calendar: None,
        answers: None,
        step: super::asked_step(game),
    })
}

/// What the seats are told when an observer joins or leaves: who added or removed them and
/// how many watch now; never the observer's address (ruling W1).
pub(super) fn seat_notices(
    game: &dyn Play,
    ev: &Event,
    index: u64,
    ctx: &MailCtx,
) -> Result<Vec<Draft>, ComposeError> {
    let (joined, by, watching) = match ev {
        Event::SpectatorJoined { by, watching, .. } => (true, by, *watching),
        Event::SpectatorLeft { by, watching, .. } => (false, by, *watching),
        _ => return Ok(vec![]),
    };
    let head = match (joined, by.as_str()) {
        (false, "spectator") => "A spectator stopped watching, at their own request.".to_string(),
        (true, "gm") => "The organiser added a spectator.".to_string(),
        (false, "gm") => "The organiser removed a spectator.".to_string(),
        (true, seat) => format!("Seat {seat} added a spectator."),
        (false, seat) => format!("Seat {seat} removed a spectator."),
    };
    let body = format!(
        "{head} {} now watch{} this game.\n\
         Spectators see only what every seat may see (nothing hidden), and cannot send orders.\n",
        match watching {
            0 => "Nobody".to_string(),
            1 => "One spectator".to_string(),
            n => format!("{n} spectators"),
        },
        if watching <= 1 { "es" } else { "" }
    );
    let mut out = Vec::new();
    for to in ctx.recipients {
        out.push(event_draft(
            game,
            index,
            DraftKind::GmNotice,
            to,
            "spectator",
            if joined {
                "A spectator now watches".into()
            } else {
                "A spectator stopped watching".into()
            },
            rich::seal(game, &body, None)?,
        ));
    }
    Ok(out)
}

/// The answer to a seat's `SPECTATOR ADD|REMOVE`: what happened (decided by the daemon) and
/// the spectators that seat added (`mine`: each address, and whether it watches or was only
/// asked). Other seats' observers are counted, never named.
pub fn spectator_reply(
    game: &dyn Play,
    to: &Recipient,
    said: &str,
    mine: &[(&str, bool)],
    others: usize,
    message_id: &str,
) -> Draft {
    let mut body = format!(
        "{}\n\nSPECTATORS YOU ADDED\n",
        report::code_marks_to_quotes(said.trim_end())
    );
    if mine.is_empty() {
        body.push_str("  (none)\n");
    }
    for (address, watching) in mine {
        if *watching {
            body.push_str(&format!("  {address}\n"));
        } else {
            body.push_str(&format!("  {address} (asked, not confirmed yet)\n"));
        }
    }
    if others > 0 {
        body.push_str(&format!("Added by others: {others}\n"));
    }
    body.push_str(
        "\nSPECTATOR ADD watcher@example.org     let someone watch (spectator view)\n\
         SPECTATOR REMOVE watcher@example.org  stop mailing them\n",
    );
    answer_draft(
        game,
        to,
        format!("spectators-{}", short(message_id)),
        DraftKind::Settings,
        "Settings: your spectators",
        &body,
        message_id,
    )
}

/// What the organiser's `despatch gm spectator` did, as the shell says it: the address asked
/// to confirm (the request lapsing in `pending_days`), or removed; `watching`, how many watch
/// now.
pub fn gm_spectator_said(
    game: &str,
    add: bool,
    address: &str,
    watching: u32,
    pending_days: i64,
) -> String {
    if add {
        format!(
            "{game}: {address} has been asked to confirm by reply (one mail); they watch once \
             they do, and the request lapses unconfirmed in {pending_days} days ({watching} \
             watching now)."
        )
    } else {
        format!("{game}: {address} no longer watches ({watching} spectator(s)).")
    }
}

/// What a one-click unsubscription (club-rules L1) did, as `despatch gm unsubscribe` says it:
/// a seat's optional mail stopped (`seat`), or a spectator's watching (`None`).
pub fn unsubscribed(game: &str, seat: Option<&str>) -> String {
    match seat {
        Some(seat) => format!(
            "{game}: seat {seat} gets no optional mail any more (STOP); the mails that ask for \
             orders still come."
        ),
        None => format!("{game}: a spectator stopped watching (STOP)."),
    }
}

/// Why a seat's or the organiser's SPECTATOR line changed nothing (docs/watching.md).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpectatorRefused {
    #[error("this game is private: its club policy allows no spectators")]
    Private,
    #[error("in this game only the organiser adds or removes spectators (club policy)")]
    OrganiserOnly,
    #[error("the game is over: there is nothing more to watch")]
    GameOver,
    /// The address cannot be mailed (ruling E1); `why` says how.
    #[error("{address} cannot watch: {why}")]
    Unfit { address: String, why: String },
    #[error("{0} plays a seat in this game")]
    PlaysASeat(String),
    #[error("{0} already watches this game")]
    WatchesAlready(String),
    #[error("{0} has already been asked and has not confirmed yet")]
    AskedAlready(String),
    #[error("a game may have at most {0} spectators (those asked and not yet confirmed count too)")]
    Full(usize),
    #[error("{0} does not watch this game")]
    NotWatching(String),
    #[error("{0} was added by someone else: only they or the organiser can remove them")]
    AddedByAnother(String),
    /// The request to confirm could not go: the address's hourly cap of unasked mail (F1).
    #[error(
        "{0} has had as many mails it did not ask for as it may have this hour; try again later"
    )]
    OverHourlyCap(String),
}

/// What a seat's SPECTATOR line did, for its answer: the request sent (which lapses in
/// `pending_days`), the spectator removed, or why nothing changed.
pub fn spectator_said(
    add: bool,
    address: &str,
    done: Result<(), &SpectatorRefused>,
    pending_days: i64,
) -> String {
    match done {
        Ok(()) if add => format!(
            "{address} has been sent one mail asking them to confirm. They watch \
             once they reply to it; until then nothing else is sent to them, and \
             the request lapses unconfirmed in {pending_days} days. When they confirm, the \
             other seats are told that a spectator was added by you, not the \
             address."
        ),
        Ok(()) => format!("{address} no longer watches this game."),
        Err(why) => format!("Not done: {why}. Nothing changed."),
    }
}

/// To an observer who wrote to the game: observers cannot send orders; nothing happened.
/// Subject and text.
pub fn observer_refusal(game_id: &str) -> (String, String) {
    let text = plain(
        game_id,
        &format!(
            "You watch game {game_id} as a spectator. Spectators cannot send orders or\n\
             commands, so nothing in your mail was applied or passed on. This answer is\n\
             sent at most once an hour.\n"
        ),
    );
    (
        format!("[{game_id}] Spectators cannot send orders"),
        report::wrap_text(&text),
    )
}
