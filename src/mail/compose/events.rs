//! The mails each journal event sends, to whom, and what they say. Every mail is built from the
//! receiving seat's View and the event's public data; a seat's receipt is the only mail that
//! carries its orders, and only to that seat.

use crate::dice;
use crate::engine::{Event, GmKind, Play, Viewer};
use crate::report;

use super::results::results_or_over;
use super::rich::{self, deadline_text};
use super::step_mail;
use super::toolkit::{event_draft, prompt_text};
use super::{ComposeError, Draft, DraftKind, MailCtx, Recipient};

/// The drafts journal event `ev` (line `index`) sends, from the game as it stands right after it.
pub fn drafts_for_event(
    game: &dyn Play,
    ev: &Event,
    index: u64,
    ctx: &MailCtx,
) -> Result<Vec<Draft>, ComposeError> {
    let book = game.book();
    match ev {
        Event::GameCreated { .. } => welcomes(game, ev, index, ctx),
        Event::Submission { .. } => step_mail::submission(game, ev, index, ctx),
        Event::Standing { .. } => step_mail::standing(game, ev, index, ctx),
        Event::Results { .. } => results(game, ev, index, ctx),
        // v2: the game-over mail, which says why, follows with the game-ended event.
        Event::GameAbandoned { .. } if book.protocol != dice::Protocol::V1 => Ok(Vec::new()),
        // The game-over mail: at the game's end, or at once when a v1 game (which has no
        // game-ended event) is abandoned.
        Event::GameAbandoned { step, .. } | Event::GameEnded { step, .. } => {
            let mut out = Vec::new();
            for to in ctx.recipients {
                out.push(results_or_over(
                    game,
                    to,
                    step.saturating_sub(1),
                    index,
                    ctx,
                    true,
                )?);
            }
            if matches!(ev, Event::GameEnded { .. }) {
                // Bound strict reveals are checked once the seats open their onions (S11).
                out.extend(super::strict::open_requests(game, index, ctx)?);
            }
            Ok(out)
        }
        Event::Reminder { .. } => step_mail::reminder(game, ev, index, ctx),
        Event::DeadlineChanged { .. } => step_mail::deadline_changed(game, ev, index, ctx),
        Event::Forfeit { .. } => step_mail::forfeit(game, ev, index, ctx),
        Event::OnionRenewed { .. } => step_mail::onion_renewed(game, ev, index, ctx),
        Event::GmAction { .. } => gm_action(game, ev, index, ctx),
        // Press (issue 16): relayed to its readers, a receipt to its sender.
        Event::Press { .. } => Ok(super::press::drafts(game, ev, index, ctx)),
        // Observers joining or leaving: the seats are told (compose/spectator.rs).
        Event::SpectatorJoined { .. } | Event::SpectatorLeft { .. } => {
            super::spectator::seat_notices(game, ev, index, ctx)
        }
        // Strict dice mail apart (a lock mails only the strict seats asked to reveal).
        Event::Lock { .. }
        | Event::StrictMode { .. }
        | Event::Reveal { .. }
        | Event::SplitLock { .. }
        | Event::RevealMissed { .. }
        | Event::RevealOverdue { .. }
        | Event::StrictOpened { .. } => super::strict::drafts(game, ev, index, ctx),
        Event::Absent { .. }
        | Event::AbsenceCancelled { .. }
        | Event::Conceded { .. }
        | Event::Resigned { .. }
        | Event::DrawAgreed { .. } => super::seat_acts::drafts(game, ev, index, ctx),
        // The organiser's desk: a pause, a resume, a message (compose/desk.rs).
        Event::GamePaused { .. } | Event::GameResumed { .. } | Event::GmBroadcast { .. } => {
            super::desk::drafts(game, ev, index, ctx)
        }
    }
}

/// The game starts: every seat's welcome.
fn welcomes(
    game: &dyn Play,
    ev: &Event,
    index: u64,
    ctx: &MailCtx,
) -> Result<Vec<Draft>, ComposeError> {
    let Event::GameCreated { .. } = ev else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for to in ctx.recipients {
        let (body, rich) = welcome(game, to, false, ctx)?;
        let text = rich::seal(game, &body, Some(&rich))?;
        let mut d = event_draft(
            game,
            index,
            DraftKind::Welcome,
            to,
            "welcome",
            format!("Welcome: you play {}", to.seat),
            text,
        );
        d.rich = Some(rich);
        out.push(d);
    }
    Ok(out)
}

/// A step resolved: each seat's results mail, now or waiting for its next mail that asks.
fn results(
    game: &dyn Play,
    ev: &Event,
    index: u64,
    ctx: &MailCtx,
) -> Result<Vec<Draft>, ComposeError> {
    let Event::Results { step, .. } = ev else {
        return Ok(Vec::new());
    };
    let book = game.book();
    let mut out = Vec::new();
    // v2 games end with their own event (which publishes the salt key): the game-over
    // mail goes out then. v1 games had no such event and end here.
    if game.is_over() && book.protocol == dice::Protocol::V2 {
        return Ok(out);
    }
    for to in ctx.recipients {
        // Results that ask nothing of the seat wait for its next mail that does
        // (`gather`): composed as text alone, which the mail bringing them attaches.
        match super::gather::results_wait(game, to, *step, ctx) {
            Some(note) => {
                let mut d = results_or_over(game, to, *step, index, ctx, false)?;
                d.waits = Some(note);
                out.push(d);
            }
            None => out.push(results_or_over(game, to, *step, index, ctx, true)?),
        }
    }
    Ok(out)
}

/// The organiser closed a step or handed a seat on: a notice to each seat, a welcome to the new player.
fn gm_action(
    game: &dyn Play,
    ev: &Event,
    index: u64,
    ctx: &MailCtx,
) -> Result<Vec<Draft>, ComposeError> {
    let Event::GmAction { action, reason, .. } = ev else {
        return Ok(Vec::new());
    };
    let book = game.book();
    let title = game.spec().title;
    let mut out = Vec::new();
    for to in ctx.recipients {
        let d = match action {
            GmKind::CloseStep => event_draft(
                game,
                index,
                DraftKind::GmNotice,
                to,
                "gm",
                "The organiser closed the step".into(),
                rich::seal(
                    game,
                    &format!(
                        "The organiser closed step {} ({title}) without waiting further.\n\
                             Seats that had not sent orders are recorded as no move received.\nReason: {reason}\n",
                        book.step
                    ),
                    None,
                )?,
            ),
            GmKind::ReplaceSeat { seat } if seat == &to.seat => {
                let (body, rich) = welcome(game, to, true, ctx)?;
                let mut d = event_draft(
                    game,
                    index,
                    DraftKind::Takeover,
                    to,
                    "gm",
                    format!("You take over seat {seat} in {}", book.id),
                    rich::seal(game, &body, Some(&rich))?,
                );
                d.rich = Some(rich);
                d
            }
            GmKind::ReplaceSeat { seat } => event_draft(
                game,
                index,
                DraftKind::GmNotice,
                to,
                "gm",
                format!("Seat {seat} has a new player"),
                rich::seal(
                    game,
                    &format!(
                        "Seat {seat} has been handed to a new player by the organiser.\nReason: {reason}\n"
                    ),
                    None,
                )?,
            ),
        };
        out.push(d);
    }
    Ok(out)
}

/// What the welcome's NOW says when nothing is asked of this seat. Before the first step
/// (Lone Star's turn-order cards, a set-up the host rolls) nobody at all may be awaited.
fn now_waiting(waiting: &[String]) -> String {
    if waiting.is_empty() {
        "Nothing is asked of anyone yet: Despatch resolves the first step by itself and mails \
         you what it brings."
            .to_string()
    } else {
        format!("Waiting for {}.", waiting.join(", "))
    }
}

/// The seat's side-mates and its opponents, in the scenario's seat order. In a game of
/// several players a side (Lone Star) a side-mate is not an opponent.
fn side_and_opponents(
    seats: &[crate::engine::event::SeatEntry],
    me: &str,
) -> (Vec<String>, Vec<String>) {
    let side = seats.iter().find(|s| s.seat == me).map(|s| s.side.as_str());
    let (mates, opponents): (Vec<_>, Vec<_>) = seats
        .iter()
        .filter(|s| s.seat != me)
        .partition(|s| Some(s.side.as_str()) == side);
    let names =
        |v: Vec<&crate::engine::event::SeatEntry>| v.into_iter().map(|s| s.seat.clone()).collect();
    (names(mates), names(opponents))
}

/// The briefing's sections less those the view beside it in the same mail already shows under
/// the same title (Lone Star's "Your units" was printed twice): the view's is the current one.
fn briefing_beside(
    briefing: Vec<(String, Vec<String>)>,
    view: &[(String, Vec<String>)],
) -> Vec<(String, Vec<String>)> {
    briefing
        .into_iter()
        .filter(|(title, _)| !view.iter().any(|(t, _)| t.eq_ignore_ascii_case(title)))
        .collect()
}

/// The welcome mail of a seat: at game start, or for a player taking over a seat. It names
/// the newest onion's anchor (the game's own at the start; a renewed one later).
fn welcome(
    game: &dyn Play,
    to: &Recipient,
    takeover: bool,
    ctx: &MailCtx,
) -> Result<(String, super::Rich), ComposeError> {
    let book = game.book();
    let view = game.view(&Viewer::Seat(to.seat.clone()));
    let prompt = prompt_text(game, &to.seat);
    let onion = *book.onions.last().expect("the game's own onion");
    let now_text = prompt
        .clone()
        .unwrap_or_else(|| now_waiting(&game.waiting_for()));
    let (partners, opponents) = side_and_opponents(&book.seats, &to.seat);
    let briefing = briefing_beside(game.briefing(&to.seat), &view.sections);
    // The game's particulars, one row each: a column in the text, a table in the HTML.
    let mut header = vec![
        ("Game", format!("{} ({})", book.id, book.scenario)),
        ("Ruleset", game.ruleset().to_string()),
        ("Your seat", to.seat.clone()),
    ];
    if !partners.is_empty() {
        header.push((
            "Your side",
            format!(
                "{}, with {}",
                book.side_of(&to.seat).unwrap_or_default(),
                partners.join(", ")
            ),
        ));
    }
    header.push(("Opponents", opponents.join(", ")));
    let header_lines: Vec<String> = header
        .iter()
        .map(|(label, value)| format!("{label:<9} {value}"))
        .collect();
    // The log the seat can see at this moment: the scenario's opening words at the start; the
    // last step's log for a player taking over.
    let log_title = if takeover {
        "What happened in the last step"
    } else {
        "The scenario"
    };
    // A scenario's description keeps its own line breaks: one entry per paragraph, so the
    // text's layout wraps and indents it as any other log line.
    let log: Vec<String> = view
        .log
        .iter()
        .flat_map(|line| line.split("\n\n"))
        .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|p| !p.is_empty())
        .collect();
    let values = serde_json::json!({
        "log": log,
        "greeting": if to.private.name.is_empty() { "Hello".to_string() } else { format!("Dear {}", to.private.name) },
        "takeover": takeover,
        "game": book.id, "scenario": book.scenario, "ruleset": game.ruleset(),
        "seat": to.seat, "view": view,
        "side": book.side_of(&to.seat), "partners": partners, "others": opponents,
        "game_address": ctx.game_address,
        "reference_summary": reference_summary(ctx.reference, report::markdown_to_plain),
        "protocol": book.protocol.name(),
        "anchor": dice::to_hex(&onion.anchor), "anchor_from": onion.from_step, "onion_len": onion.len,
        "mail_key": book.mail_key.as_ref().map(dice::to_hex),
        "salt_commitment": book.salt_commitment.as_ref().map(dice::to_hex),
        "briefing": &briefing,
        "prompt": now_text,
        "deadline": deadline_text(game, to),
        "header_lines": header_lines,
        "log_title": log_title,
    });
    let body = report::render("welcome", &values)?;
    // The HTML's how-to and dice paragraphs are the text's own (issue 30 point 7), unwrapped
    // for the reader's window.
    let how = report::unwrap_text(&report::render("welcome_how", &values)?);
    let commitment = report::unwrap_text(&report::render("welcome_dice", &values)?);
    let intro = report::unwrap_text(&report::render("welcome_intro", &values)?);
    let rich = rich::build(
        game,
        to,
        &view,
        prompt.as_deref(),
        serde_json::json!({
            "intro": intro.trim_end(),
            "header": header,
            "log_title": log_title,
            // One line per paragraph or item: the reader's window wraps them.
            "glance": reference_summary(ctx.reference, report::markdown_to_paragraphs),
            "how": how,
            "commitment": commitment,
            "briefing": &briefing,
            "prompt": prompt,
            "deadline": deadline_text(game, to),
        }),
        ctx,
    )?;
    Ok((body, rich))
}

/// The heading of the order reference's section that lists every step's orders in brief.
const GLANCE: &str = "## Orders at a glance";

/// For the welcome mail: the reference's "Orders at a glance" section (every step's orders),
/// or, for a reference without one, its first sections (up to its second heading).
/// `plain` turns the Markdown into text: hard-wrapped for the text part, or one line per
/// paragraph for the HTML part.
fn reference_summary(reference: Option<&str>, plain: fn(&str) -> String) -> String {
    let Some(reference) = reference else {
        return "(The order reference could not be read; send HELP, or ask the organiser.)"
            .to_string();
    };
    if let Some(at) = reference.find(GLANCE) {
        let rest = &reference[at + GLANCE.len()..];
        let end = rest.find("\n## ").unwrap_or(rest.len());
        let glance = plain(rest[..rest.floor_char_boundary(end.min(4000))].trim());
        return format!(
            "{}\n\nSend HELP for the whole reference.",
            glance.trim_end()
        );
    }
    let mut out = Vec::new();
    let mut headings = 0;
    for line in reference.lines() {
        if line.starts_with("## ") {
            headings += 1;
            if headings > 2 {
                break;
            }
        }
        out.push(line);
    }
    let mut s = plain(&out.join("\n"));
    if s.len() > 4000 {
        let cut = s.floor_char_boundary(4000);
        s.truncate(s[..cut].rfind('\n').unwrap_or(cut));
        s.push_str("\n…(send HELP for the rest)");
    }
    s
}
