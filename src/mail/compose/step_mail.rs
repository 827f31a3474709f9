//! The mails of a step's course, one function per journal event: orders and standing orders
//! received, reminders, a moved deadline, a forfeit, a new dice anchor. Each takes the event
//! and the game right after it and returns its drafts; it sends nothing and decides no other
//! event's mail (the dispatcher is `events`).

use crate::dice;
use crate::engine::{Event, Play};
use crate::report;

use super::rich::{self, deadline_text};
use super::toolkit::{
    event_draft, game_over_subject, prompt_text, receipt_subject, silence_words, standing_subject,
    time_left_words,
};
use super::{ComposeError, Draft, DraftKind, MailCtx};

/// Orders received: a receipt to their seat, a notice to the others (sealed: only who sent).
pub(super) fn submission(
    game: &dyn Play,
    ev: &Event,
    index: u64,
    ctx: &MailCtx,
) -> Result<Vec<Draft>, ComposeError> {
    let Event::Submission {
        step,
        seat,
        digest,
        orders,
        ignored,
        message_id,
        ..
    } = ev
    else {
        return Ok(Vec::new());
    };
    let book = game.book();
    let title = game.spec().title;
    let mut out = Vec::new();
    let sealed = game.spec().sealed;
    // Nobody left to answer: the step locks at once and its results mail follows this
    // one (Lone Star's card-order moves: one seat per step).
    let resolves_now = game.waiting_for().is_empty();
    for to in ctx.recipients {
        let mine = &to.seat == seat;
        // None is sent when the results mail follows at once: every digest is in the
        // lock's table of the results mail as well, so nothing the dice depend on is
        // lost. Otherwise receipts and notices wait for the seat's next mail that asks
        // something of it, unless the seat asked for them on their own (`gather`).
        if !mine && resolves_now {
            continue;
        }
        let waits = if mine {
            // Lines taken for a greeting or sign-off are no reason to write at once: a
            // line that looks like an order is refused, never skipped
            // (`Ruleset::looks_like_an_order`).
            super::gather::receipt_waits(to, *step, digest, true)
        } else {
            super::gather::notice_waits(to, seat, *step)
        };
        let body = if mine {
            let salt = ctx
                .salt_key
                .filter(|_| book.protocol == dice::Protocol::V2)
                .map(|z| dice::to_hex(&dice::salt(&book.id, &z, *step, seat)));
            report::render(
                "receipt",
                serde_json::json!({
                    "seat": seat, "step": step, "step_title": title,
                    "orders": orders.lines().collect::<Vec<_>>(),
                    "ignored": ignored, "digest": digest, "salt": salt, "sealed": sealed,
                    "waiting": game.waiting_for(), "deadline": deadline_text(game, to),
                }),
            )?
        } else {
            let prompt = prompt_text(game, &to.seat);
            let answered = book.pending.contains_key(&to.seat);
            report::render(
                "notice",
                serde_json::json!({
                    "submitter": seat, "step": step, "step_title": title, "digest": digest,
                    "sealed": sealed,
                    "your_turn": prompt.is_some() && !answered, "prompt": prompt,
                    "deadline": deadline_text(game, to),
                }),
            )?
        };
        let (kind, subject) = if mine {
            (DraftKind::Receipt, receipt_subject(&title))
        } else {
            (DraftKind::Notice, format!("{seat} has sent orders"))
        };
        let mut d = event_draft(
            game,
            index,
            kind,
            to,
            "submission",
            subject,
            rich::seal(game, &body, None)?,
        );
        if mine {
            d.answers = Some(message_id.clone());
        }
        d.waits = waits;
        out.push(d);
    }
    Ok(out)
}

/// Standing orders received: a receipt to their seat alone (they are as secret as orders).
pub(super) fn standing(
    game: &dyn Play,
    ev: &Event,
    index: u64,
    ctx: &MailCtx,
) -> Result<Vec<Draft>, ComposeError> {
    let Event::Standing {
        step,
        seat,
        digest,
        orders,
        message_id,
        answered,
        not_applied,
        ..
    } = ev
    else {
        return Ok(Vec::new());
    };
    let book = game.book();
    let title = game.spec().title;
    let mut out = Vec::new();
    // Only the seat hears of its standing orders: they are as secret as its orders.
    for to in ctx.recipients.iter().filter(|to| &to.seat == seat) {
        let salt = ctx
            .salt_key
            .filter(|_| book.protocol == dice::Protocol::V2)
            .map(|z| dice::to_hex(&dice::salt(&book.id, &z, *step, seat)));
        let body = report::render(
            "standing",
            serde_json::json!({
                "seat": seat, "step": step, "step_title": title,
                "orders": orders.lines().collect::<Vec<_>>(),
                "answered": answered, "not_applied": not_applied,
                "digest": digest, "salt": salt,
                "prompt": prompt_text(game, seat), "deadline": deadline_text(game, to),
            }),
        )?;
        let mut d = event_draft(
            game,
            index,
            DraftKind::Receipt,
            to,
            "standing",
            standing_subject(&title),
            rich::seal(game, &body, None)?,
        );
        d.answers = Some(message_id.clone());
        d.waits = super::gather::receipt_waits(to, *step, digest, not_applied.is_empty());
        out.push(d);
    }
    Ok(out)
}

/// A reminder to a seat whose orders are still awaited near the deadline.
pub(super) fn reminder(
    game: &dyn Play,
    ev: &Event,
    index: u64,
    ctx: &MailCtx,
) -> Result<Vec<Draft>, ComposeError> {
    let Event::Reminder {
        step,
        seat,
        hours_left,
        at,
    } = ev
    else {
        return Ok(Vec::new());
    };
    let book = game.book();
    let title = game.spec().title;
    let mut out = Vec::new();
    if let Some(to) = ctx.recipient(seat) {
        // The time really left when the reminder was sent, not its slot: a game whose
        // step opened 2 h 49 min before the deadline gets "2 h 49 min", not "4 h".
        let left = match book.deadline {
            Some(d) => time_left_words(d - *at),
            None => format!("{hours_left} h"),
        };
        let body = report::render(
            "reminder",
            serde_json::json!({
                "step": step, "step_title": title, "left": left,
                "prompt": prompt_text(game, seat).unwrap_or_default(),
                "deadline": deadline_text(game, to).unwrap_or_default(),
                "on_silence": silence_words(book.policy.on_silence),
            }),
        )?;
        out.push(event_draft(
            game,
            index,
            DraftKind::Reminder,
            to,
            "reminder",
            match book.deadline {
                // The time left first: the due time (in the body) would be cut.
                Some(_) => format!("Reminder: {left} left for your orders"),
                None => format!("Reminder: your orders are due in {hours_left} h"),
            },
            rich::seal(game, &body, None)?,
        ));
    }
    Ok(out)
}

/// A deadline moved: every seat is told, and the seats asked for orders get the calendar entry again.
pub(super) fn deadline_changed(
    game: &dyn Play,
    ev: &Event,
    index: u64,
    ctx: &MailCtx,
) -> Result<Vec<Draft>, ComposeError> {
    let Event::DeadlineChanged {
        deadline, reason, ..
    } = ev
    else {
        return Ok(Vec::new());
    };
    let book = game.book();
    let title = game.spec().title;
    let mut out = Vec::new();
    let (_, domain) = ctx.address_parts();
    for to in ctx.recipients {
        let when = report::fmt_time(*deadline, &to.private.time_zone);
        let mut body = format!(
            "The deadline of step {} ({}) is now {when}.\nReason: {reason}\n",
            book.step, title,
        );
        // The seats asked for orders get the calendar entry again, same UID and a higher
        // SEQUENCE (this event's index), so calendars move the entry sent first.
        let calendar = prompt_text(game, &to.seat).map(|p| {
            report::ics::deadline_event(
                &rich::calendar_uid(game, to, domain),
                index,
                *deadline,
                &to.private.time_zone,
                &format!("Orders due: {}, step {} ({})", book.id, book.step, to.seat),
                &p,
                ctx.now,
            )
        });
        let text = match &calendar {
            Some(ics) => {
                body.push_str(
                    "\nThe calendar entry attached replaces the one sent with the step.\n",
                );
                rich::seal_calendar(game, &body, ics)?
            }
            None => rich::seal(game, &body, None)?,
        };
        let mut d = event_draft(
            game,
            index,
            DraftKind::DeadlineChange,
            to,
            "deadline",
            format!(
                "New deadline: {}",
                report::fmt_short(*deadline, &to.private.time_zone)
            ),
            text,
        );
        d.calendar = calendar;
        out.push(d);
    }
    Ok(out)
}

/// A seat forfeits by silence: the others are told (v1 games: the game-over mail, if it ends).
pub(super) fn forfeit(
    game: &dyn Play,
    ev: &Event,
    index: u64,
    ctx: &MailCtx,
) -> Result<Vec<Draft>, ComposeError> {
    let Event::Forfeit { seat, .. } = ev else {
        return Ok(Vec::new());
    };
    let book = game.book();
    let mut out = Vec::new();
    let over = game.outcome();
    // v2: the game-over mail follows with the game-ended event.
    if over.is_some() && book.protocol == dice::Protocol::V2 {
        return Ok(out);
    }
    for to in ctx.recipients {
        let (kind, subject, body) = match &over {
            Some(o) => (
                DraftKind::GameOver,
                game_over_subject(game, o),
                format!(
                    "{seat} sent no orders by the deadline and forfeits the game.\n\n{}\n",
                    o.summary
                ),
            ),
            None => (
                DraftKind::GmNotice,
                format!("{seat} is out of the game"),
                format!(
                    "{seat} sent no orders by the deadline and forfeits: the seat is out of the game.\n"
                ),
            ),
        };
        let word = if over.is_some() { "over" } else { "forfeit" };
        out.push(event_draft(
            game,
            index,
            kind,
            to,
            word,
            subject,
            rich::seal(game, &body, None)?,
        ));
    }
    Ok(out)
}

/// The host committed a new chain of dice secrets: every seat gets the new anchor.
pub(super) fn onion_renewed(
    game: &dyn Play,
    ev: &Event,
    index: u64,
    ctx: &MailCtx,
) -> Result<Vec<Draft>, ComposeError> {
    let Event::OnionRenewed {
        from_step,
        anchor,
        onion_len,
        ..
    } = ev
    else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for to in ctx.recipients {
        let body = format!(
            "NEW DICE ANCHOR\nThe host's committed secrets for this game are nearly used up, so a new\n\
                 chain was committed before they ran out. From step {from_step} on, each v_k\n\
                 hashes back to this anchor instead:\n    Anchor A = {anchor}   (from step {from_step}, onion length {onion_len})\n"
        );
        out.push(event_draft(
            game,
            index,
            DraftKind::Anchor,
            to,
            "anchor",
            "New dice anchor".into(),
            rich::seal(game, &body, None)?,
        ));
    }
    Ok(out)
}
