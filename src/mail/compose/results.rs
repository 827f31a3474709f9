//! The results mail of a resolved step, and the game-over mail once the game is over: one
//! seat's text (the results as its View shows them, or the outcome and how to check the whole
//! game), the HTML beside it, and the mails waiting for the seat it brings. Pure: built from
//! the game and the mails' context.

use crate::dice;
use crate::engine::{LockInfo, Outcome, Play, View, Viewer};
use crate::report::{self, ResultsCtx};

use super::gather::Gathered;
use super::rich::{self, deadline_text};
use super::toolkit::{dice_section, last_lock, prompt_text, results_subject, standing_note};
use super::{ComposeError, Draft, DraftKind, MailCtx, Recipient};

/// A results mail, or the game-over mail once the game is over. `goes`: the mail goes now, with
/// its HTML and map, and brings the mails waiting for the seat (`gather`); otherwise it is the
/// text alone, to wait for the seat's next mail that asks something of it.
pub(super) fn results_or_over(
    game: &dyn Play,
    to: &Recipient,
    step: u64,
    index: u64,
    ctx: &MailCtx,
    goes: bool,
) -> Result<Draft, ComposeError> {
    let book = game.book();
    let info = last_lock(game, step);
    let view = game.view(&Viewer::Seat(to.seat.clone()));
    let prompt = prompt_text(game, &to.seat);
    let outcome = game.outcome();
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
                rich_fields(
                    game,
                    to,
                    step,
                    &info,
                    &prompt,
                    outcome.as_ref(),
                    &brought,
                    audit,
                ),
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
    let (kind, word, subject, body) = match outcome {
        Some(outcome) => (
            DraftKind::GameOver,
            "over",
            results_subject(game, &to.seat, None),
            game_over_text(game, step, &info, &view, &outcome, salt_key, ctx, &since)?,
        ),
        None => {
            let due = book
                .deadline
                .map(|d| report::fmt_short(d, &to.private.time_zone));
            (
                DraftKind::Results,
                "results",
                results_subject(game, &to.seat, due.as_deref()),
                results_text(game, to, step, &info, &view, prompt, &since)?,
            )
        }
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

/// What the HTML part of a results or game-over mail shows beside the map. An abandoned game
/// was decided by nothing on the board, and its last step rolled no dice: neither the victory
/// figures nor a DICE section (whose lock would have no seed) are shown; the last resolved
/// step's dice went out in its own results mail.
#[allow(clippy::too_many_arguments)]
fn rich_fields(
    game: &dyn Play,
    to: &Recipient,
    step: u64,
    info: &LockInfo,
    prompt: &Option<String>,
    outcome: Option<&Outcome>,
    brought: &[&Gathered],
    audit: String,
) -> serde_json::Value {
    let book = game.book();
    let abandoned = book.club.abandoned.is_some();
    serde_json::json!({
        "since": super::gather::since_lines(brought),
        "since_intro": super::gather::since_intro(brought.len()),
        "step": step,
        "step_title": book.last_step_title,
        "prompt": prompt,
        "standing": standing_note(game, &to.seat),
        "deadline": prompt.as_ref().and_then(|_| deadline_text(game, to)),
        // Nobody is waited for once the game is over (the game-over text says nothing of
        // it; some rulesets still name the seats of the last step).
        "waiting": if outcome.is_some() { Vec::new() } else { game.waiting_for() },
        "outcome": outcome.map(|o| o.summary.clone()),
        "figures": outcome.and_then(|_| (!abandoned).then(|| game.victory_figures())),
        "audit": audit,
        "dice": (!abandoned).then(|| dice_section(info, &book.last_rolls)),
    })
}

/// The game-over mail's text: the outcome, the salt key and how to check the whole game,
/// the mails it brings (`since`), then the final step's dice.
#[allow(clippy::too_many_arguments)]
fn game_over_text(
    game: &dyn Play,
    step: u64,
    info: &LockInfo,
    view: &View,
    outcome: &Outcome,
    salt_key: Option<String>,
    ctx: &MailCtx,
    since: &str,
) -> Result<String, ComposeError> {
    let book = game.book();
    let abandoned = book.club.abandoned.is_some();
    let figures = (!abandoned).then(|| game.victory_figures());
    let body = report::render(
        "game_over",
        serde_json::json!({
            "outcome": outcome.summary, "view": view, "salt_key": salt_key,
            "journal": ctx.journal.is_some(), "figures": figures.unwrap_or_default(),
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
                "dice": dice_section(info, &book.last_rolls),
            }),
        )?,
        None => String::new(),
    };
    Ok(format!("{body}\n{since}{dice}"))
}

/// A results mail's text: the mails it brings (`since`), then the step's results as the
/// seat sees them, what is asked of it next and the dice.
fn results_text(
    game: &dyn Play,
    to: &Recipient,
    step: u64,
    info: &LockInfo,
    view: &View,
    prompt: Option<String>,
    since: &str,
) -> Result<String, ComposeError> {
    let book = game.book();
    let ctx_r = ResultsCtx {
        game: &book.id,
        step,
        step_title: &book.last_step_title,
        view,
        deadline: prompt.as_ref().and_then(|_| deadline_text(game, to)),
        prompt,
        standing: standing_note(game, &to.seat),
        waiting: game.waiting_for(),
        dice: dice_section(info, &book.last_rolls),
        protocol: book.protocol.name(),
    };
    Ok(format!("{since}{}", report::render("results", &ctx_r)?))
}
