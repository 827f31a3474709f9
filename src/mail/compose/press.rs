//! The mails a press event sends (issue 16 point 2): the message relayed to each seat it was
//! addressed to, and the sender's receipt saying to whom it went; plus the organiser's copy as
//! text. Composed from the journaled event and the private copy the shell hands in
//! (`MailCtx::press`), so a crash between the journal's append and the queue re-derives them.
//!
//! These mails are not sealed: they carry a player's words, not the game's facts, and a sealed
//! text is what `despatch verify` reads line by line (anchors, dice, receipts) — a message
//! must never be able to pose as any of those. The journal's digest `P` and the salt printed
//! here are the proof of what was relayed. The text is shown indented by two, each line at most
//! 70 characters (`engine::press::canonical`), so it is never taken for a heading, re-flowed,
//! or wider than the 72 columns of every mail; the HTML part escapes it like any text.

use crate::engine::press::PressCopy;
use crate::engine::{Event, Play};

use super::replies::plain;
use super::toolkit::event_draft;
use super::{Draft, DraftKind, MailCtx};

/// `hays (alliance)`.
fn seat_and_side(game: &dyn Play, seat: &str) -> String {
    match game.book().side_of(seat) {
        Some(side) if side != seat => format!("{seat} ({side})"),
        _ => seat.to_string(),
    }
}

/// `bowie, enver and the organiser`.
fn readers(to: &[String], gm: bool) -> String {
    let mut names: Vec<String> = to.to_vec();
    if gm {
        names.push("the organiser".into());
    }
    match names.as_slice() {
        [] => "nobody".into(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// The message as the mails show it: each line indented by two.
fn shown(text: &str) -> String {
    text.lines()
        .map(|l| {
            if l.is_empty() {
                String::new()
            } else {
                format!("  {l}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The text and salt of a press event: the journal's (under `press_record = "text"`) or the
/// host's private copy.
fn copy_of<'a>(ev: &'a Event, ctx: &'a MailCtx) -> Option<(&'a str, &'a str)> {
    if let Event::Press {
        text: Some(t),
        salt: Some(s),
        ..
    } = ev
    {
        return Some((t, s));
    }
    ctx.press
        .map(|PressCopy { text, salt }| (text.as_str(), salt.as_str()))
}

/// The message, its digest and how to check it, as every copy of it says.
fn message_block(ev: &Event, ctx: &MailCtx) -> String {
    let Event::Press {
        digest, text: kept, ..
    } = ev
    else {
        return String::new();
    };
    let Some((text, salt)) = copy_of(ev, ctx) else {
        return format!(
            "(The text of this message is no longer kept on the host.)\n\nDigest P = {digest}\n"
        );
    };
    let record = if kept.is_some() {
        "This game's journal keeps the text of press messages, for an auditor. Once\n\
         the game is over the text is in its archive (its web pages and its journal),\n\
         which the organiser may publish: then anyone, not only the players, can read\n\
         it."
    } else {
        "The game's journal keeps only the digest P, never the text: the words stay\n\
         with the seats they were sent to."
    };
    format!(
        "{}\n\nDigest P = {digest}\nSalt     = {salt}\n{record} P is SHA-256 over the game,\n\
         step, sender, salt and text (see HELP), so with this text and salt anyone can\n\
         check that these are exactly the words that were sent.\n",
        shown(text)
    )
}

/// The drafts of press event `ev` (journal line `index`): one relay to each seat addressed
/// and the sender's receipt (answering the sender's mail).
pub(super) fn drafts(game: &dyn Play, ev: &Event, index: u64, ctx: &MailCtx) -> Vec<Draft> {
    let Event::Press {
        step,
        from,
        to,
        gm,
        message_id,
        ..
    } = ev
    else {
        return vec![];
    };
    let sender = seat_and_side(game, from);
    let block = message_block(ev, ctx);
    let mut out = Vec::new();
    for r in ctx.recipients.iter().filter(|r| to.contains(&r.seat)) {
        let body = format!(
            "A press message from seat {sender}, sent in step {step}, relayed by Despatch\n\
             to {}.\n\n{block}\n\
             To answer, reply with PRESS TO {from} as the first line and your message\n\
             below it. Your reply is relayed the same way; your orders are not touched.\n",
            readers(to, *gm),
        );
        out.push(event_draft(
            game,
            index,
            DraftKind::Notice,
            r,
            "press",
            format!("Press from {sender}"),
            plain(&game.book().id, &body),
        ));
    }
    if let Some(r) = ctx.recipient(from) {
        let body = format!(
            "Your press message went to {}. Nothing else changed: your orders, if\n\
             you sent any, stand.\n\n{block}",
            readers(to, *gm)
        );
        let mut d = event_draft(
            game,
            index,
            DraftKind::Receipt,
            r,
            "press-sent",
            format!("Press sent to {}", readers(to, *gm)),
            plain(&game.book().id, &body),
        );
        d.answers = Some(message_id.clone());
        out.push(d);
    }
    out
}

/// The subject of press from `seat` relayed to the organiser.
pub fn press_gm_subject(game_id: &str, seat: &str) -> String {
    format!("[{game_id}] Press from {seat}")
}

/// The organiser's copy of a press event addressed to them, as plain text (the organiser is
/// no seat: the shell mails it as a letter).
pub fn press_gm_text(game: &dyn Play, ev: &Event, ctx: &MailCtx) -> String {
    let Event::Press { step, from, to, .. } = ev else {
        return String::new();
    };
    let body = format!(
        "A press message to the organiser of game {} from seat {}, sent in step\n\
         {step}{}.\n\n{}",
        game.book().id,
        seat_and_side(game, from),
        if to.is_empty() {
            String::new()
        } else {
            format!(" (also to {})", readers(to, false))
        },
        message_block(ev, ctx)
    );
    crate::report::wrap_text(&plain(&game.book().id, &body))
}
