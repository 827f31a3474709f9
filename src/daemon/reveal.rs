//! A strict seat's reveal by mail (docs/strict-dice.md): authenticated like any seat mail by
//! intake, then turned into a `Reveal` event, a `SplitLock` event (reported to the seat, every
//! seat and the organiser), or a refusal that tells the seat why and journals nothing; and, in a
//! game with bound reveals, a seat's opening of its onion once the game is over.

use anyhow::Result;
use chrono::{DateTime, Utc};

use crate::dice::Hash;
use crate::engine::guard::Activity;
use crate::engine::{Event, strict, strict_bound};
use crate::mail::compose::{OrganiserReport, RevealAnswers, reveal_refused};
use crate::mail::inbound::Inbound;

use super::super::Daemon;
use super::super::decision::Decision;
use super::super::open_game::OpenGame;

/// What a reveal mail does.
#[allow(clippy::too_many_arguments)]
pub(super) fn decide(
    g: OpenGame,
    seat: String,
    mut activity: Activity,
    inb: &Inbound,
    step: u64,
    quoted: &Hash,
    r: &Hash,
    now: DateTime<Utc>,
) -> Result<Decision> {
    activity.outcome(now, None);
    match strict::reveal_event(g.game.book(), &seat, step, quoted, r, &inb.message_id, now) {
        Ok(event) => Ok(Decision::accepted(g, &seat, activity, step, event)),
        Err(reason) => refused(
            g,
            &seat,
            activity,
            inb,
            reason.to_string(),
            RevealAnswers::LockMail,
        ),
    }
}

/// A reveal or opening refused: the seat is told why, with the mail to answer instead.
fn refused(
    g: OpenGame,
    seat: &str,
    activity: Activity,
    inb: &Inbound,
    reason: String,
    answer: RevealAnswers,
) -> Result<Decision> {
    let problems = vec![reveal_refused(reason, answer)];
    Decision::rejected(g, seat, activity, inb, &problems, 1)
}

/// What an opening mail does (bound reveals, ruling S11): a `StrictOpened` event, or a refusal
/// that says why and journals nothing.
pub(super) fn decide_opening(
    g: OpenGame,
    seat: String,
    mut activity: Activity,
    inb: &Inbound,
    through: u64,
    element: &Hash,
    now: DateTime<Utc>,
) -> Result<Decision> {
    let step = g.game.book().step;
    activity.outcome(now, None);
    match strict_bound::opening_event(g.game.book(), &seat, through, element, &inb.message_id, now)
    {
        Ok(event) => Ok(Decision::accepted(g, &seat, activity, step, event)),
        Err(reason) => refused(
            g,
            &seat,
            activity,
            inb,
            reason.to_string(),
            RevealAnswers::OnionMail,
        ),
    }
}

/// The organiser hears of every split lock at once (the seats are mailed by the event itself).
pub(super) fn tell_gm_of_splits(
    daemon: &Daemon,
    g: &OpenGame,
    events: &[Event],
    now: DateTime<Utc>,
) -> Result<()> {
    for ev in events {
        if let Event::SplitLock {
            step,
            seat,
            quoted,
            lock,
            ..
        } = ev
        {
            daemon.tell_gm(
                &g.store,
                g.seats.gm.clone(),
                &format!("split-lock-{step}-{seat}"),
                &OrganiserReport::SplitLock {
                    seat,
                    step: *step,
                    quoted,
                    lock,
                },
                now,
            )?;
        }
    }
    Ok(())
}
