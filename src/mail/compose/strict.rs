//! The mails of strict dice (docs/strict-dice.md): the strict anchors copied to every seat at
//! game start, the lock mail that asks each strict seat for its reveal (quoting `L_k` and naming
//! the reveal's index), the notices of a split lock and of a reveal overdue at the reveal
//! deadline (the silent seat gets its lock section again), and the missed-reveal notice of
//! older games. It decides nothing: the events say what happened.

use crate::dice;
use crate::engine::{Event, Play, Rejected, StrictAnchor};

use super::rich::{self, EventMails, deadline_text};
use super::{ComposeError, Draft, DraftKind, MailCtx};

/// The heading a lock mail carries; `despatch player reveal` looks for it.
pub const LOCK_HEADING: &str = "STRICT DICE LOCK";

/// The mail a refused reveal or opening should have answered (docs/strict-dice.md, S11).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RevealAnswers {
    /// A reveal answers the lock mail.
    LockMail,
    /// An opening of a bound seat's onion answers the "open your onion" mail.
    OnionMail,
}

/// A reveal or opening refused for `reason` (the engine's words), as the seat's rejection
/// lists it: with the mail to answer instead.
pub fn reveal_refused(reason: String, answer: RevealAnswers) -> Rejected {
    let answer = match answer {
        RevealAnswers::LockMail => "the lock mail",
        RevealAnswers::OnionMail => "the \"open your onion\" mail",
    };
    Rejected {
        line: 0,
        text: String::new(),
        reason,
        hint: Some(format!(
            "reply to {answer} with the line `despatch player reveal` prints"
        )),
    }
}

/// The drafts a strict event (or a lock of a strict game) sends.
pub(super) fn drafts(
    game: &dyn Play,
    ev: &Event,
    index: u64,
    ctx: &MailCtx,
) -> Result<Vec<Draft>, ComposeError> {
    let at = EventMails { game, index, ctx };
    match ev {
        Event::StrictMode {
            seats,
            reveal_hours,
            onion_index,
            ..
        } => at.anchors(seats, *reveal_hours, onion_index.as_deref()),
        Event::Lock { step, lock, .. } => at.lock_asks(*step, lock),
        Event::SplitLock {
            step,
            seat,
            quoted,
            lock,
            ..
        } => at.split_lock(*step, seat, quoted, lock),
        Event::RevealMissed { step, seats, .. } => at.reveal_missed(*step, seats),
        Event::RevealOverdue { step, seats, .. } => at.reveal_overdue(*step, seats),
        Event::StrictOpened { seat, reveal, .. } => {
            let body = opened_text(game.book(), seat, *reveal);
            let subject = format!("Strict dice: {seat} opened its onion");
            ctx.recipients
                .iter()
                .map(|to| at.draft(DraftKind::GmNotice, to, "opened", subject.clone(), &body))
                .collect()
        }
        _ => Ok(vec![]),
    }
}

/// The strict-dice mails, made where the event is.
impl EventMails<'_> {
    /// The strict seats' anchors, to every seat at the game's start.
    fn anchors(
        &self,
        seats: &[StrictAnchor],
        reveal_hours: u32,
        onion_index: Option<&str>,
    ) -> Result<Vec<Draft>, ComposeError> {
        let indexing = match onion_index {
            Some(crate::engine::strict::BY_REVEAL) => {
                "A seat's j-th reveal is its onion element c_(N-j): it is indexed by reveal\n\
                 count, not by step, and each lock mail names the reveal number it asks for.\n"
            }
            Some(crate::engine::strict::BOUND) => BOUND_WORDS,
            _ => "",
        };
        let list: String = seats
            .iter()
            .map(|a| {
                format!(
                    "    Strict anchor {} = {}   (onion length {})\n",
                    a.seat, a.anchor, a.onion_len
                )
            })
            .collect();
        let mut out = Vec::new();
        for to in self.ctx.recipients {
            let body = format!(
                "STRICT DICE\nThis game uses strict dice: after each lock that rolls, every strict seat\n\
                 reveals its own secret for the step, and the seed S_k includes it, so nobody,\n\
                 not even a host who also plays, can predict a roll. The strict seats and the\n\
                 anchors they committed to when joining:\n{list}\
                 A strict seat has {reveal_hours} h after each lock to reveal.\n{indexing}\
                 Strict players: run, once, on this game's welcome mail\n\n    \
                 despatch player trust --dir <your strict folder> <the welcome mail>\n\n\
                 so that your tool answers only lock mails this game signed with its key K.\n"
            );
            out.push(self.draft(
                DraftKind::Anchor,
                to,
                "strict",
                "Strict dice: the seats' anchors".into(),
                &body,
            )?);
        }
        Ok(out)
    }

    /// The lock mail: each strict seat whose reveal the step awaits is asked for it.
    fn lock_asks(&self, step: u64, lock: &str) -> Result<Vec<Draft>, ComposeError> {
        let book = self.game.book();
        let mut out = Vec::new();
        for seat in book.awaited_reveals() {
            let Some(to) = self.ctx.recipient(&seat) else {
                continue;
            };
            let due = book
                .reveal_deadline()
                .map(|d| crate::report::fmt_time(d, &to.private.time_zone))
                .unwrap_or_default();
            let body = format!(
                "{}\n\
                 Every seat's orders for step {step} are locked, and this step rolls dice. It\n\
                 waits for your reveal. Run\n\n    despatch player reveal --dir <your strict folder> <this mail>\n\n\
                 and send the line it prints as your reply. Check that L_{step} above is the\n\
                 one your fellow players were shown: a reveal quoting another L_{step} is kept\n\
                 as proof of a split lock. Reveal due by: {due}.\n",
                lock_section(book, step, &seat, lock)
            );
            out.push(self.draft(
                DraftKind::GmNotice,
                to,
                "lock",
                format!("Step {step} is locked: your reveal, please"),
                &body,
            )?);
        }
        Ok(out)
    }

    /// A seat's reveal quoted another lock than the journal's: every seat is told.
    fn split_lock(
        &self,
        step: u64,
        seat: &str,
        quoted: &str,
        lock: &str,
    ) -> Result<Vec<Draft>, ComposeError> {
        let mut out = Vec::new();
        for to in self.ctx.recipients {
            let body = format!(
                "SPLIT LOCK REPORTED\n{seat}'s reveal for step {step} quoted\n    L_{step} = {quoted}\n\
                 but the game's journal holds\n    L_{step} = {lock}\n\
                 This is recorded in the log as proof that {seat} was shown another lock. The\n\
                 reveal was not used; {seat} may reveal again quoting the journal's L_{step}.\n"
            );
            out.push(self.draft(
                DraftKind::GmNotice,
                to,
                "split",
                format!("Split lock reported by {seat} (step {step})"),
                &body,
            )?);
        }
        Ok(out)
    }

    /// An older game's missed reveal: the step went on without it.
    fn reveal_missed(&self, step: u64, seats: &[String]) -> Result<Vec<Draft>, ComposeError> {
        let book = self.game.book();
        let mut out = Vec::new();
        for to in self.ctx.recipients {
            let who = seats.join(", ");
            let body = format!(
                "MISSING REVEAL\nNo reveal came from {who} for step {step} by the reveal deadline. The dice\n\
                 are not re-rolled: the seed S_{step} takes an empty r for {who}, and the\n\
                 game's silence policy applies ({}).\n",
                policy_words(book.policy.on_silence),
            );
            let mut d = self.draft(
                DraftKind::GmNotice,
                to,
                "missed",
                format!("Step {step}: no reveal from {who}"),
                &body,
            )?;
            if let Some(text) = deadline_text(self.game, to) {
                d.text = rich::seal(self.game, &format!("{body}\nOrders due: {text}\n"), None)?;
            }
            out.push(d);
        }
        Ok(out)
    }

    /// A reveal overdue at the reveal deadline: every seat is told the step waits; the silent
    /// seat gets the lock section its tool reads again.
    fn reveal_overdue(&self, step: u64, seats: &[String]) -> Result<Vec<Draft>, ComposeError> {
        let book = self.game.book();
        let who = seats.join(", ");
        let lock = book
            .locked
            .as_ref()
            .map(|l| dice::to_hex(&l.lock))
            .unwrap_or_default();
        let mut out = Vec::new();
        for to in self.ctx.recipients {
            let since = book
                .reveal_deadline()
                .map(|d| crate::report::fmt_time(d, &to.private.time_zone))
                .unwrap_or_default();
            let mut body = format!(
                "REVEAL OVERDUE\nWaiting for {who}'s reveal for step {step} since {since}.\n\
                 The step does not resolve without it: a missing reveal never re-seeds a step\n\
                 (ruling S2), whatever the silence policy, so nobody can choose its dice. The\n\
                 orders stay locked; the step resolves as soon as the reveal comes.\n"
            );
            if seats.iter().any(|s| s == &to.seat) {
                // The reminder: the silent seat gets the lock section its tool reads.
                body.push_str(&format!(
                    "\nYour reveal, please: run `despatch player reveal` on this mail and reply\n\
                     with the line it prints.\n\n{}",
                    lock_section(book, step, &to.seat, &lock)
                ));
            }
            out.push(self.draft(
                DraftKind::GmNotice,
                to,
                "overdue",
                format!("Step {step}: waiting for {who}'s reveal"),
                &body,
            )?);
        }
        Ok(out)
    }
}

/// What the anchors mail of a game with bound reveals says about them; its first line is the
/// mark the verifiers read (a bound `strict r` is not an onion element: it is checked when the
/// seat opens its onion).
const BOUND_WORDS: &str = "Strict reveals are bound to their lock: a seat's j-th reveal for step k is\n\
     r = H(strict-bind, game, seat, j, e_j, L_k), e_j its onion element c_(N-j), so a\n\
     reveal answers one lock and no other. Each seat keeps e_j on its own machine until\n\
     the game is over, then opens its onion (one reply), and every reveal it gave is\n\
     checked against its anchor and the lock it answered (ruling S11).\n";

/// The mails a game's end sends the strict seats of a bound game that gave reveals: the game's
/// record of their reveals, which their tool checks before it opens the seat's onion (S11).
pub(super) fn open_requests(
    game: &dyn Play,
    index: u64,
    ctx: &MailCtx,
) -> Result<Vec<Draft>, ComposeError> {
    let book = game.book();
    let mut out = Vec::new();
    let Some(st) = book.strict.as_ref().filter(|st| st.bound) else {
        return Ok(out);
    };
    for s in &st.seats {
        let (Some(section), Some(to)) = (
            crate::engine::strict_bound::open_section(book, &s.seat),
            ctx.recipient(&s.seat),
        ) else {
            continue;
        };
        let body = format!(
            "This game has ended. Your reveals were bound to their locks, so nobody could use\n\
             one for another lock; now open your onion so that every player can check each of\n\
             them against your anchor. Run\n\n    despatch player reveal --dir <your strict folder> <this mail>\n\n\
             and send the line it prints as your reply. Your tool first checks the game's record\n\
             below against its own: it opens nothing if the game used a reveal you never gave.\n\n\
             {section}"
        );
        out.push(super::toolkit::event_draft(
            game,
            index,
            DraftKind::GmNotice,
            to,
            "open",
            "Strict dice: open your onion, please".into(),
            rich::seal(game, &body, None)?,
        ));
    }
    Ok(out)
}

/// An opening as the observers get it: the same text as the seats' (a spectator, or an auditor
/// watching, checks the reveals the same way; nothing in it is secret once the game is over).
pub fn spectator_opened(
    game: &dyn Play,
    ev: &Event,
    index: u64,
) -> Result<Option<Draft>, ComposeError> {
    let Event::StrictOpened { seat, reveal, .. } = ev else {
        return Ok(None);
    };
    let to = super::spectator::observer_recipient("");
    let body = opened_text(game.book(), seat, *reveal);
    Ok(Some(super::toolkit::event_draft(
        game,
        index,
        DraftKind::GmNotice,
        &to,
        "opened",
        format!("Strict dice: {seat} opened its onion"),
        rich::seal(game, &body, None)?,
    )))
}

/// The text of an opening, for every seat: each element of the seat's onion it opens, with the
/// step it served, in the `strict open` lines the verifiers read, and whether each reveal binds.
fn opened_text(book: &crate::engine::Book, seat: &str, through: u64) -> String {
    let Some(s) = book.strict.as_ref().and_then(|st| st.seat(seat)) else {
        return String::new();
    };
    let Some(opened) = &s.opened else {
        return String::new();
    };
    let mut text = format!(
        "STRICT DICE OPENED\n\
         {seat} opened its onion through reveal {through}. Each element below\n\
         hashes to the one before it, and the first to {seat}'s strict\n\
         anchor. Each `strict r {seat}` of a results mail must be\n\
         H(strict-bind, game, seat, j, e_j, L_k) of its element and lock.\n\n"
    );
    // The elements from e_J (the opened one) down the onion towards the anchor, then in order.
    let mut lines = Vec::new();
    let mut e = opened.element;
    for g in s.given.iter().rev() {
        lines.push(format!(
            "strict open {seat} reveal {} step {} = {}",
            g.index,
            g.step,
            dice::to_hex(&e)
        ));
        e = dice::onion_step(book.protocol, &book.id, seat, &e);
    }
    for l in lines.iter().rev() {
        text.push_str(l);
        text.push('\n');
    }
    if opened.unbound.is_empty() {
        text.push_str(&format!(
            "All {through} of {seat}'s reveals check against its anchor and locks.\n"
        ));
    } else {
        let list: Vec<String> = opened
            .unbound
            .iter()
            .map(|j| {
                let step = s.given.iter().find(|g| g.index == *j).map_or(0, |g| g.step);
                format!("reveal {j} (step {step})")
            })
            .collect();
        text.push_str(&format!(
            "DOES NOT CHECK: {}.\n\
             The seed of each such step took a value that is not\n\
             H(strict-bind, …) of {seat}'s opened element and the step's lock:\n\
             {seat} sent something else, or the game used what {seat} never\n\
             sent. Keep this mail.\n",
            list.join(", "),
        ));
    }
    text
}

/// The part of a lock mail `despatch player reveal` reads: the game, the step, the seat, the
/// reveal number asked for (games indexed by reveal only), and `L_k`.
fn lock_section(book: &crate::engine::Book, step: u64, seat: &str, lock: &str) -> String {
    let index = match book.strict.as_ref() {
        Some(st) if st.by_reveal => st
            .next_index(seat, step)
            .map(|j| format!(", reveal {j}"))
            .unwrap_or_default(),
        _ => String::new(),
    };
    let bound = match book.strict.as_ref() {
        Some(st) if st.bound => ", bound",
        _ => "",
    };
    format!(
        "{LOCK_HEADING} (game {}, step {step}, seat {seat}{index}{bound})\nL_{step} = {lock}\n",
        book.id
    )
}

fn policy_words(s: crate::engine::Silence) -> &'static str {
    use crate::engine::Silence;
    match s {
        Silence::Forfeit => "forfeit: the silent seat is out of the game from the next step",
        Silence::WaitForGm => "the organiser closed the step",
        Silence::StandingOrders | Silence::Pass => "the step resolves without that seat's secret",
    }
}

/// What a lock mail asks: what `player reveal` needs.
#[derive(Debug, Clone, PartialEq)]
pub struct LockAsk {
    pub game: String,
    pub step: u64,
    pub seat: String,
    /// The reveal number asked for; absent in games indexed by step.
    pub index: Option<u64>,
    pub lock: dice::Hash,
    /// The game binds each reveal to its lock (ruling S11).
    pub bound: bool,
}

/// Reads the lock section of a mail's text (the first one).
pub fn read_lock_mail(text: &str) -> Option<LockAsk> {
    let i = text.find(LOCK_HEADING)?;
    let first = text[i..].lines().next()?;
    let inner = first.split_once('(')?.1.trim_end().trim_end_matches(')');
    let mut game = None;
    let mut step = None;
    let mut seat = None;
    let mut index = None;
    let mut bound = false;
    for part in inner.split(", ") {
        if part == "bound" {
            bound = true;
            continue;
        }
        match part.split_once(' ')? {
            ("game", g) => game = Some(g.to_string()),
            ("step", k) => step = Some(k.parse().ok()?),
            ("seat", s) => seat = Some(s.to_string()),
            ("reveal", j) => index = Some(j.parse().ok()?),
            _ => {}
        }
    }
    let step = step?;
    let key = format!("L_{step} = ");
    let lock = text[i..]
        .lines()
        .find_map(|l| l.trim().strip_prefix(&key))
        .and_then(dice::from_hex)?;
    Some(LockAsk {
        game: game?,
        step,
        seat: seat?,
        index,
        lock,
        bound,
    })
}
