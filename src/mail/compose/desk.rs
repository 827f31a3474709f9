//! The seats' mails of the organiser's desk (issue 31 point 4): a pause, a resume and a
//! message from the organiser. Built from the event and the game as it stands right after it;
//! the organiser's own address and desk secret are never in them.

use chrono::{DateTime, Utc};

use crate::engine::{Event, Play};
use crate::report;

use super::rich::{self, EventMails};
use super::toolkit::{event_draft, prompt_text, time_left_words};
use super::{ComposeError, Draft, DraftKind, MailCtx};

/// The drafts of `game_paused`, `game_resumed` and `gm_broadcast` (line `index`).
pub(super) fn drafts(
    game: &dyn Play,
    ev: &Event,
    index: u64,
    ctx: &MailCtx,
) -> Result<Vec<Draft>, ComposeError> {
    let at = EventMails { game, index, ctx };
    match ev {
        Event::GamePaused {
            step,
            reason,
            at: when,
        } => at.paused(*step, reason, *when),
        Event::GameResumed {
            step,
            deadline,
            at: when,
        } => at.resumed(*step, *deadline, *when),
        // A league's message goes from the house, one mail per player (daemon/desk_acts.rs).
        Event::GmBroadcast {
            league: Some(_), ..
        } => Ok(vec![]),
        Event::GmBroadcast { digest, .. } => at.broadcast(digest),
        _ => Ok(vec![]),
    }
}

/// The organiser's acts' mails, made where the event is.
impl EventMails<'_> {
    /// The game paused: every seat is told why, and how long its step had left.
    fn paused(
        &self,
        step: u64,
        reason: &str,
        at: DateTime<Utc>,
    ) -> Result<Vec<Draft>, ComposeError> {
        let book = self.game.book();
        let title = self.game.spec().title;
        let left = book
            .deadline
            .map(|d| time_left_words(d - at))
            .filter(|_| book.deadline.is_some_and(|d| d > at));
        let mut out = Vec::new();
        for to in self.ctx.recipients {
            let body = report::render(
                "paused",
                serde_json::json!({
                    "step": step, "step_title": title, "reason": reason, "left": left,
                }),
            )?;
            out.push(self.draft(
                DraftKind::GmNotice,
                to,
                "paused",
                "The organiser paused the game".into(),
                &body,
            )?);
        }
        Ok(out)
    }

    /// The game resumed: every seat is told the new deadline, and the seats asked for orders
    /// get the step's calendar entry again, moved.
    fn resumed(
        &self,
        step: u64,
        deadline: Option<DateTime<Utc>>,
        at: DateTime<Utc>,
    ) -> Result<Vec<Draft>, ComposeError> {
        let (game, ctx, index) = (self.game, self.ctx, self.index);
        let book = game.book();
        let title = game.spec().title;
        let (_, domain) = ctx.address_parts();
        let raised = deadline.is_some_and(|d| d - at <= crate::engine::pause::MIN_LEFT);
        let mut out = Vec::new();
        for to in ctx.recipients {
            let when = deadline.map(|d| report::fmt_time(d, &to.private.time_zone));
            let prompt = prompt_text(game, &to.seat);
            let body = report::render(
                "resumed",
                serde_json::json!({
                    "step": step, "step_title": title, "deadline": when,
                    "left": deadline.map(|d| time_left_words(d - at)),
                    "raised": raised, "prompt": prompt,
                }),
            )?;
            let calendar = match (deadline, &prompt) {
                (Some(d), Some(p)) => Some(report::ics::deadline_event(
                    &rich::calendar_uid(game, to, domain),
                    index,
                    d,
                    &to.private.time_zone,
                    &format!("Orders due: {}, step {} ({})", book.id, book.step, to.seat),
                    p,
                    ctx.now,
                )),
                _ => None,
            };
            let text = match &calendar {
                Some(ics) => rich::seal_calendar(game, &body, ics)?,
                None => rich::seal(game, &body, None)?,
            };
            let subject = match deadline {
                Some(d) => format!(
                    "The game goes on: new deadline {}",
                    report::fmt_short(d, &to.private.time_zone)
                ),
                None => "The game goes on".into(),
            };
            let mut d = event_draft(
                game,
                index,
                DraftKind::DeadlineChange,
                to,
                "resumed",
                subject,
                text,
            );
            d.calendar = calendar;
            out.push(d);
        }
        Ok(out)
    }

    /// The organiser's message to every seat: one mail per player address, however many
    /// seats it holds. The text is the organiser's, kept privately beside the game (as press
    /// is).
    fn broadcast(&self, digest: &str) -> Result<Vec<Draft>, ComposeError> {
        let Some(copy) = self.ctx.press else {
            return Ok(vec![]);
        };
        let book = self.game.book();
        let mut told: Vec<String> = Vec::new();
        let mut out = Vec::new();
        for to in self.ctx.recipients {
            let address = to.private.address.to_ascii_lowercase();
            if told.contains(&address) {
                continue;
            }
            told.push(address);
            let body = broadcast_text(&book.id, &book.id, &copy.text, digest, &copy.salt)?;
            out.push(self.draft(
                DraftKind::GmNotice,
                to,
                "broadcast",
                "A message from the organiser".into(),
                &body,
            )?);
        }
        Ok(out)
    }
}

/// A message from the organiser as every player reads it: `about` the game or league, the
/// text as written, and (for one game) the digest its journal keeps.
pub fn broadcast_text(
    about: &str,
    game: &str,
    text: &str,
    digest: &str,
    salt: &str,
) -> Result<String, ComposeError> {
    Ok(report::render(
        "broadcast",
        serde_json::json!({
            "about": about, "game": game, "text": text, "digest": digest, "salt": salt,
        }),
    )?)
}
