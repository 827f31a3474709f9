//! The mails of strict dice (docs/strict-dice.md): the strict anchors copied to every seat at
//! game start, the lock mail that asks each strict seat for its reveal (quoting `L_k`), and the
//! notices of a split lock and of reveals missed at the reveal deadline.

use crate::dice;
use crate::engine::{Event, Play};

use super::rich::{self, deadline_text};
use super::{ComposeError, Draft, DraftKind, MailCtx, Recipient};

/// The heading a lock mail carries; `despatch player reveal` looks for it.
pub const LOCK_HEADING: &str = "STRICT DICE LOCK";

/// The drafts a strict event (or a lock of a strict game) sends.
pub(super) fn drafts(
    game: &dyn Play,
    ev: &Event,
    index: u64,
    ctx: &MailCtx,
) -> Result<Vec<Draft>, ComposeError> {
    let book = game.book();
    let draft = |kind: DraftKind, to: &Recipient, word: &str, subject: String, text: String| {
        super::events::event_draft(game, index, kind, to, word, subject, text)
    };
    let mut out = Vec::new();
    match ev {
        Event::StrictMode {
            seats,
            reveal_hours,
            ..
        } => {
            let list: String = seats
                .iter()
                .map(|a| {
                    format!(
                        "    Strict anchor {} = {}   (onion length {})\n",
                        a.seat, a.anchor, a.onion_len
                    )
                })
                .collect();
            for to in ctx.recipients {
                let body = format!(
                    "STRICT DICE\nThis game uses strict dice: after each lock that rolls, every strict seat\n\
                     reveals its own secret for the step, and the seed S_k includes it, so nobody,\n\
                     not even a host who also plays, can predict a roll. The strict seats and the\n\
                     anchors they committed to when joining:\n{list}\
                     A strict seat has {reveal_hours} h after each lock to reveal.\n"
                );
                out.push(draft(
                    DraftKind::Anchor,
                    to,
                    "strict",
                    "Strict dice: the seats' anchors".into(),
                    rich::seal(game, &body, None)?,
                ));
            }
        }
        Event::Lock { step, lock, .. } => {
            for seat in book.awaited_reveals() {
                let Some(to) = ctx.recipient(&seat) else {
                    continue;
                };
                let due = book
                    .reveal_deadline()
                    .map(|d| crate::report::fmt_time(d, &to.private.time_zone))
                    .unwrap_or_default();
                let body = format!(
                    "{LOCK_HEADING} (game {}, step {step}, seat {seat})\n\
                     L_{step} = {lock}\n\n\
                     Every seat's orders for step {step} are locked, and this step rolls dice. It\n\
                     waits for your reveal. Run\n\n    despatch player reveal --dir <your strict folder> <this mail>\n\n\
                     and send the line it prints as your reply. Check that L_{step} above is the\n\
                     one your fellow players were shown: a reveal quoting another L_{step} is kept\n\
                     as proof of a split lock. Reveal due by: {due}.\n",
                    book.id
                );
                out.push(draft(
                    DraftKind::GmNotice,
                    to,
                    "lock",
                    format!("Step {step} is locked: your reveal, please"),
                    rich::seal(game, &body, None)?,
                ));
            }
        }
        Event::SplitLock {
            step,
            seat,
            quoted,
            lock,
            ..
        } => {
            for to in ctx.recipients {
                let body = format!(
                    "SPLIT LOCK REPORTED\n{seat}'s reveal for step {step} quoted\n    L_{step} = {quoted}\n\
                     but the game's journal holds\n    L_{step} = {lock}\n\
                     This is recorded in the log as proof that {seat} was shown another lock. The\n\
                     reveal was not used; {seat} may reveal again quoting the journal's L_{step}.\n"
                );
                out.push(draft(
                    DraftKind::GmNotice,
                    to,
                    "split",
                    format!("Split lock reported by {seat} (step {step})"),
                    rich::seal(game, &body, None)?,
                ));
            }
        }
        Event::RevealMissed { step, seats, .. } => {
            for to in ctx.recipients {
                let who = seats.join(", ");
                let body = format!(
                    "MISSING REVEAL\nNo reveal came from {who} for step {step} by the reveal deadline. The dice\n\
                     are not re-rolled: the seed S_{step} takes an empty r for {who}, and the\n\
                     game's silence policy applies ({}).\n",
                    policy_words(book.policy.on_silence),
                );
                let mut d = draft(
                    DraftKind::GmNotice,
                    to,
                    "missed",
                    format!("Step {step}: no reveal from {who}"),
                    rich::seal(game, &body, None)?,
                );
                if let Some(text) = deadline_text(game, to) {
                    d.text = rich::seal(game, &format!("{body}\nOrders due: {text}\n"), None)?;
                }
                out.push(d);
            }
        }
        Event::Reveal { .. } => {}
        _ => {}
    }
    Ok(out)
}

fn policy_words(s: crate::engine::Silence) -> &'static str {
    use crate::engine::Silence;
    match s {
        Silence::Forfeit => "forfeit: the silent seat is out of the game from the next step",
        Silence::WaitForGm => "the organiser closed the step",
        Silence::StandingOrders | Silence::Pass => "the step resolves without that seat's secret",
    }
}

/// `L_k` of a lock mail's text, with the game, step and seat: what `player reveal` needs.
pub fn read_lock_mail(text: &str) -> Option<(String, u64, String, dice::Hash)> {
    let i = text.find(LOCK_HEADING)?;
    let first = text[i..].lines().next()?;
    let inner = first.split_once('(')?.1.trim_end_matches(')');
    let mut game = None;
    let mut step = None;
    let mut seat = None;
    for part in inner.split(", ") {
        match part.split_once(' ')? {
            ("game", g) => game = Some(g.to_string()),
            ("step", k) => step = k.parse().ok(),
            ("seat", s) => seat = Some(s.to_string()),
            _ => {}
        }
    }
    let step = step?;
    let key = format!("L_{step} = ");
    let lock = text[i..]
        .lines()
        .find_map(|l| l.trim().strip_prefix(&key))
        .and_then(dice::from_hex)?;
    Some((game?, step, seat?, lock))
}
