//! The mails each journal event sends, to whom, and what they say. Every mail is built from the
//! receiving seat's View and the event's public data; a seat's receipt is the only mail that
//! carries its orders, and only to that seat.

use crate::dice;
use crate::engine::{Event, GmKind, LockInfo, Play, Silence, Viewer};
use crate::report::{self, DiceSection, ResultsCtx, RollRow};

use super::rich::{self, deadline_text};
use super::{ComposeError, Draft, DraftKind, MailCtx, Recipient};

/// The drafts journal event `ev` (line `index`) sends, from the game as it stands right after it.
pub fn drafts_for_event(
    game: &dyn Play,
    ev: &Event,
    index: u64,
    ctx: &MailCtx,
) -> Result<Vec<Draft>, ComposeError> {
    let book = game.book();
    let title = game.spec().title;
    let mut out = Vec::new();
    let draft = |kind: DraftKind, to: &Recipient, word: &str, subject: String, text: String| {
        event_draft(game, index, kind, to, word, subject, text)
    };
    match ev {
        Event::GameCreated { .. } => {
            for to in ctx.recipients {
                let (body, rich) = welcome(game, to, false, ctx)?;
                let text = rich::seal(game, &body, Some(&rich))?;
                let mut d = draft(
                    DraftKind::Welcome,
                    to,
                    "welcome",
                    format!("Welcome: you play {}", to.seat),
                    text,
                );
                d.rich = Some(rich);
                out.push(d);
            }
        }
        Event::Submission {
            step,
            seat,
            digest,
            orders,
            ignored,
            message_id,
            ..
        } => {
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
                let mut d = draft(
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
        }
        Event::Standing {
            step,
            seat,
            digest,
            orders,
            message_id,
            answered,
            not_applied,
            ..
        } => {
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
                let mut d = draft(
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
        }
        Event::Results { step, .. } => {
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
        }
        // v2: the game-over mail, which says why, follows with the game-ended event.
        Event::GameAbandoned { .. } if book.protocol != dice::Protocol::V1 => {}
        // The game-over mail: at the game's end, or at once when a v1 game (which has no
        // game-ended event) is abandoned.
        Event::GameAbandoned { step, .. } | Event::GameEnded { step, .. } => {
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
        }
        Event::Reminder {
            step,
            seat,
            hours_left,
            at,
        } => {
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
                out.push(draft(
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
        }
        Event::DeadlineChanged {
            deadline, reason, ..
        } => {
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
                let mut d = draft(
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
        }
        Event::Forfeit { seat, .. } => {
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
                out.push(draft(
                    kind,
                    to,
                    word,
                    subject,
                    rich::seal(game, &body, None)?,
                ));
            }
        }
        Event::OnionRenewed {
            from_step,
            anchor,
            onion_len,
            ..
        } => {
            for to in ctx.recipients {
                let body = format!(
                    "NEW DICE ANCHOR\nThe host's committed secrets for this game are nearly used up, so a new\n\
                     chain was committed before they ran out. From step {from_step} on, each v_k\n\
                     hashes back to this anchor instead:\n    Anchor A = {anchor}   (from step {from_step}, onion length {onion_len})\n"
                );
                out.push(draft(
                    DraftKind::Anchor,
                    to,
                    "anchor",
                    "New dice anchor".into(),
                    rich::seal(game, &body, None)?,
                ));
            }
        }
        Event::GmAction { action, reason, .. } => {
            for to in ctx.recipients {
                let d = match action {
                    GmKind::CloseStep => draft(
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
                        let mut d = draft(
                            DraftKind::Takeover,
                            to,
                            "gm",
                            format!("You take over seat {seat} in {}", book.id),
                            rich::seal(game, &body, Some(&rich))?,
                        );
                        d.rich = Some(rich);
                        d
                    }
                    GmKind::ReplaceSeat { seat } => draft(
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
        }
        // Press (issue 16): relayed to its readers, a receipt to its sender.
        Event::Press { .. } => return Ok(super::press::drafts(game, ev, index, ctx)),
        // Observers joining or leaving: the seats are told (compose/spectator.rs).
        Event::SpectatorJoined { .. } | Event::SpectatorLeft { .. } => {
            return super::spectator::seat_notices(game, ev, index, ctx);
        }
        // Strict dice mail apart (a lock mails only the strict seats asked to reveal).
        Event::Lock { .. }
        | Event::StrictMode { .. }
        | Event::Reveal { .. }
        | Event::SplitLock { .. }
        | Event::RevealMissed { .. }
        | Event::RevealOverdue { .. }
        | Event::StrictOpened { .. } => return super::strict::drafts(game, ev, index, ctx),
        Event::Absent { .. }
        | Event::AbsenceCancelled { .. }
        | Event::Conceded { .. }
        | Event::Resigned { .. }
        | Event::DrawAgreed { .. } => return super::seat_acts::drafts(game, ev, index, ctx),
        // The organiser's desk: a pause, a resume, a message (compose/desk.rs).
        Event::GamePaused { .. } | Event::GameResumed { .. } | Event::GmBroadcast { .. } => {
            return super::desk::drafts(game, ev, index, ctx);
        }
    }
    Ok(out)
}

/// A plain mail journal event `index` sends `to`, named `<index>-<word>-<seat>` so that
/// re-deriving it after a crash gives the same queue name.
pub(super) fn event_draft(
    game: &dyn Play,
    index: u64,
    kind: DraftKind,
    to: &Recipient,
    word: &str,
    subject: String,
    text: String,
) -> Draft {
    Draft {
        waits: None,
        brings: Vec::new(),
        name: format!("{index:06}-{word}-{}", to.seat),
        kind,
        game: game.book().id.clone(),
        seat: to.seat.clone(),
        subject,
        text,
        rich: None,
        calendar: None,
        answers: None,
        step: super::asked_step(game),
    }
}

/// How long is left before a deadline, as a reminder says it: "2 h 49 min", "1 h", "35 min",
/// rounded down to the minute (a reminder never promises more time than there is).
pub(super) fn time_left_words(left: chrono::Duration) -> String {
    let minutes = left.num_minutes().max(0);
    match (minutes / 60, minutes % 60) {
        (0, m) => format!("{m} min"),
        (h, 0) => format!("{h} h"),
        (h, m) => format!("{h} h {m} min"),
    }
}

/// A results mail, or the game-over mail once the game is over. `goes`: the mail goes now, with
/// its HTML and map, and brings the mails waiting for the seat (`gather`); otherwise it is the
/// text alone, to wait for the seat's next mail that asks something of it.
fn results_or_over(
    game: &dyn Play,
    to: &Recipient,
    step: u64,
    index: u64,
    ctx: &MailCtx,
    goes: bool,
) -> Result<Draft, ComposeError> {
    let book = game.book();
    let info = book.last_lock.clone().unwrap_or(LockInfo {
        step,
        log_head: String::new(),
        log_head_index: None,
        seats: vec![],
        lock: String::new(),
        reveal: String::new(),
        seed: String::new(),
        strict: Vec::new(),
    });
    let view = game.view(&Viewer::Seat(to.seat.clone()));
    let prompt = prompt_text(game, &to.seat);
    let outcome = game.outcome();
    // An abandoned game was decided by nothing on the board, and its last step rolled no
    // dice: neither the victory figures nor a DICE section (whose lock would have no seed)
    // are shown; the last resolved step's dice went out in its own results mail.
    let abandoned = book.club.abandoned.is_some();
    let figures = || (!abandoned).then(|| game.victory_figures());
    let brought = if goes {
        super::gather::waiting_for(ctx, &to.seat)
    } else {
        Vec::new()
    };
    let since = super::gather::since_text(&brought);
    let salt_key = book
        .salt_key
        .or(ctx.salt_key.filter(|_| book.protocol == dice::Protocol::V2))
        .map(|z| dice::to_hex(&z));
    // The game-over mail's salt key and how to check the whole game: the HTML shows the text's
    // own words (rendered alone and unwrapped), so the two parts cannot drift apart.
    let audit = match &outcome {
        Some(_) => report::unwrap_text(&report::render(
            "game_over_audit",
            serde_json::json!({"salt_key": salt_key, "journal": ctx.journal.is_some()}),
        )?),
        None => String::new(),
    };
    // A mail that waits is the text alone: the mail bringing it has the map and the HTML.
    let mut rich = goes
        .then(|| {
            rich::build(
                game,
                to,
                &view,
                prompt.as_deref(),
                serde_json::json!({
                    "since": super::gather::since_lines(&brought),
                    "since_intro": super::gather::since_intro(brought.len()),
                    "step": step,
                    "step_title": book.last_step_title,
                    "prompt": prompt,
                    "standing": standing_note(game, &to.seat),
                    "deadline": prompt.as_ref().and_then(|_| deadline_text(game, to)),
                    // Nobody is waited for once the game is over (the game-over text says nothing of
                    // it; some rulesets still name the seats of the last step).
                    "waiting": if outcome.is_some() { Vec::new() } else { game.waiting_for() },
                    "outcome": outcome.as_ref().map(|o| o.summary.clone()),
                    "figures": outcome.as_ref().and_then(|_| figures()),
                    "audit": audit,
                    "dice": (!abandoned).then(|| dice_section(&info, &book.last_rolls)),
                }),
                ctx,
            )
        })
        .transpose()?;
    if let Some(rich) = rich.as_mut() {
        if outcome.is_some() {
            rich.journal = ctx
                .journal
                .map(|lines| lines.iter().map(|l| format!("{l}\n")).collect());
        }
        rich.gathered = brought
            .iter()
            .map(|g| (g.file_name(), g.digest.clone()))
            .collect();
    }
    let (kind, word, subject, body) = if let Some(outcome) = outcome {
        let body = report::render(
            "game_over",
            serde_json::json!({
                "outcome": outcome.summary, "view": view, "salt_key": salt_key,
                "journal": ctx.journal.is_some(), "figures": figures().unwrap_or_default(),
                "campaign": ctx.campaign,
            }),
        )?;
        // The dice of the final step still go out with the game-over mail, if a step was
        // ever locked: a game forfeited in its first step has no dice to show, and an empty
        // DICE section would read to every verifier as a step's values gone missing.
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
        (
            DraftKind::GameOver,
            "over",
            results_subject(game, &to.seat, None),
            format!("{body}\n{since}{dice}"),
        )
    } else {
        let ctx_r = ResultsCtx {
            game: &book.id,
            step,
            step_title: &book.last_step_title,
            view: &view,
            prompt: prompt.clone(),
            standing: standing_note(game, &to.seat),
            deadline: prompt.as_ref().and_then(|_| deadline_text(game, to)),
            waiting: game.waiting_for(),
            dice: dice_section(&info, &book.last_rolls),
            protocol: book.protocol.name(),
        };
        let due = book
            .deadline
            .map(|d| report::fmt_short(d, &to.private.time_zone));
        let subject = results_subject(game, &to.seat, due.as_deref());
        (
            DraftKind::Results,
            "results",
            subject,
            format!("{since}{}", report::render("results", &ctx_r)?),
        )
    };
    Ok(Draft {
        waits: None,
        brings: brought.iter().map(|g| g.name.clone()).collect(),
        name: format!("{index:06}-{word}-{}", to.seat),
        kind,
        game: book.id.clone(),
        seat: to.seat.clone(),
        subject,
        text: rich::seal(game, &body, rich.as_ref())?,
        rich,
        calendar: None,
        answers: None,
        step: super::asked_step(game),
    })
}

/// The subject (before its tag) of a receipt for a mail that had no subject to answer (one
/// with a subject is answered `Re: <it>`). Shared with `verify`, which checks a player's mails
/// against a replay of the game.
pub fn receipt_subject(step_title: &str) -> String {
    format!("Receipt: orders for {step_title}")
}

/// The subject of the receipt for standing orders sent outside a step (ruling SO1).
pub fn standing_subject(step_title: &str) -> String {
    format!("Receipt: standing orders (open step: {step_title})")
}

/// The subject (before its tag) of a results mail or of the game-over mail, what matters
/// first: "Your orders — due <when>" only when `seat` must answer (the step's long title is in
/// the body; the tag names the step); otherwise the results, then the step's title, which a
/// long tag may cut. `due`: the deadline as the seat reads it. Shared with `verify` (which has
/// no time zone, so no `due`).
pub fn results_subject(game: &dyn Play, seat: &str, due: Option<&str>) -> String {
    if let Some(o) = game.outcome() {
        return game_over_subject(game, &o);
    }
    let asked = prompt_text(game, seat).is_some();
    if asked && !only_invited(game, seat) {
        match due {
            Some(d) => format!("Your orders — due {d}"),
            None => "Your orders".to_string(),
        }
    } else if asked {
        format!("Results, orders optional: {}", game.book().last_step_title)
    } else {
        format!("Results: {}", game.book().last_step_title)
    }
}

/// Does the open step only invite `seat` (an optional prompt, its standing orders answering
/// for it) rather than ask it?
pub fn only_invited(game: &dyn Play, seat: &str) -> bool {
    game.spec()
        .prompts
        .iter()
        .find(|p| p.seat == seat)
        .is_some_and(|p| !p.required)
}

/// `Game over: Japan wins`, `Game over: a draw`; or, when the rules ended the game and the
/// ruleset words its result, `Game over: German victory: the village holds` — the words the
/// body carries, so subject and body (and the league points, from the same outcome) agree.
pub fn game_over_subject(game: &dyn Play, o: &crate::engine::Outcome) -> String {
    if game.book().club.abandoned.is_some() {
        return "Game over: abandoned by the organiser, no result".to_string();
    }
    if let Some(w) = game.result_words().filter(|w| !w.trim().is_empty()) {
        return format!("Game over: {}", w.trim());
    }
    let side = |id: &String| {
        // Short ids are abbreviations (`us`, `ussr`); longer ones are names (`japan`).
        if id.len() <= 4 {
            id.to_uppercase()
        } else {
            let words = id.replace(['-', '_'], " ");
            let mut c = words.chars();
            c.next()
                .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
                .unwrap_or_default()
        }
    };
    match o.winners.as_slice() {
        [] => "Game over: a draw".to_string(),
        [one] => format!("Game over: {} wins", side(one)),
        many => format!(
            "Game over: {} win",
            many.iter().map(side).collect::<Vec<_>>().join(" and ")
        ),
    }
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

/// `, mail key K = <hex>` inside the anchor line's brackets, in games whose mails are signed:
/// on the line players compare, so one comparison covers the onion and the key.
pub(super) fn mail_key_clause(book: &crate::engine::Book) -> String {
    book.mail_key
        .as_ref()
        .map(|k| format!(", mail key K = {}", dice::to_hex(k)))
        .unwrap_or_default()
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

/// What the open step asks of `seat`, in the game's words, with how sealed and how optional.
/// None when nothing is asked — including an optional prompt in a step that no required
/// prompt holds open: that step locks at once, so inviting orders for it would be a lie (see
/// [`standing_note`]).
pub fn prompt_text(game: &dyn Play, seat: &str) -> Option<String> {
    if game.is_over() {
        return None;
    }
    let spec = game.spec();
    let p = spec.prompts.iter().find(|p| p.seat == seat)?;
    let mut text = p.question.clone();
    if !p.required {
        let holders = game.waiting_for();
        if holders.is_empty() {
            return None;
        }
        text.push_str(&format!(
            "\n(Optional: the step resolves the moment {} {} answered, whatever the deadline; \
             send your orders before that if you want them used, otherwise your standing orders \
             apply.)",
            holders.join(" and "),
            if holders.len() == 1 { "has" } else { "have" }
        ));
    }
    if spec.sealed && spec.prompts.len() > 1 {
        text.push_str(
            "\nOrders in this step are sealed: nobody sees them before everyone has answered.",
        );
    }
    // One example that holds here and now, from the seat's own units (issue 30 point 5).
    if let Some(example) = game.example_orders(seat) {
        text.push_str("\nFor example:");
        for line in example.lines() {
            text.push_str(&format!("\n    {line}"));
        }
    }
    Some(text)
}

/// For a seat whose prompt is optional in a step nothing holds open: the step resolves at
/// once on its standing orders, and the mail says so instead of inviting orders.
pub(super) fn standing_note(game: &dyn Play, seat: &str) -> Option<String> {
    if game.is_over() || !game.waiting_for().is_empty() {
        return None;
    }
    let spec = game.spec();
    spec.prompts
        .iter()
        .find(|p| p.seat == seat && !p.required)?;
    Some(format!(
        "Nothing is asked of you in this step ({}): the orders you have already given \
         (standing or queued) are used, and it resolves at once.",
        spec.title
    ))
}

pub(super) fn dice_section(info: &LockInfo, rolls: &[dice::Roll]) -> DiceSection {
    DiceSection {
        lock: info.lock.clone(),
        reveal: info.reveal.clone(),
        seed: info.seed.clone(),
        log_head: info.log_head.clone(),
        log_head_index: info.log_head_index,
        seats: info.seats.clone(),
        rolls: rolls.iter().map(RollRow::from_roll).collect(),
        strict: info.strict.clone(),
    }
}

pub(super) fn silence_words(s: Silence) -> &'static str {
    match s {
        Silence::StandingOrders => {
            "your standing orders apply (or nothing is ordered), recorded as no move received"
        }
        Silence::Pass => "you pass this step",
        Silence::WaitForGm => "the game waits for the organiser",
        Silence::Forfeit => "you forfeit the game",
    }
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
