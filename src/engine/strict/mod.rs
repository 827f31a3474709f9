//! Strict dice (dice-protocol.md, "Strict mode"; rulings S1–S7 in docs/strict-dice.md): each
//! strict seat's own onion element joins the seed of every step that rolls, so a host who also
//! plays cannot predict a roll, and a step never resolves without every strict reveal, so he
//! cannot choose between two seeds either. The book's strict record, the checks a journal line
//! must pass, and the decisions (who is awaited, the reveal deadline, a reveal's event). Pure:
//! no clock, disk or mail here.

mod replay;

use chrono::{DateTime, Duration, Utc};

use crate::dice::{self, Dice, Hash};

use super::books::StrictSeat;
use super::event::{Event, LockEntry, StrictAnchor};
use super::game::{Book, Game};
use super::ruleset::{Ruleset, SeatId};

/// Hours a strict seat has to reveal after a lock, unless the game sets its own.
pub const DEFAULT_REVEAL_HOURS: u32 = 24;

/// The `onion_index` of games whose strict onions are indexed by reveal count: a seat's `j`-th
/// reveal is `c_{N-j}`, so a reveal tells nothing about a later one, whatever step a lock mail
/// names (ruling S8).
pub const BY_REVEAL: &str = "reveal";

/// The `onion_index` of games whose strict reveals are also bound to the lock they answer
/// (ruling S11, `strict_bound.rs`): indexed by reveal count, and each reveal is
/// `bound_reveal(e_j, L_k)`, its element kept on the player's machine until the game is over.
pub const BOUND: &str = "bound";

impl Book {
    /// Strict seats whose reveal the locked step still waits for (none when the step rolls no
    /// die, or the game is not strict). A forfeited seat is never awaited (ruling S4).
    pub fn awaited_reveals(&self) -> Vec<SeatId> {
        let Some(st) = &self.strict else {
            return vec![];
        };
        if self.locked.is_none() || !st.needs_dice {
            return vec![];
        }
        st.seats
            .iter()
            .map(|s| &s.seat)
            .filter(|s| {
                !st.reveals.contains_key(*s)
                    && !st.missed.contains(s)
                    && !self.forfeited.contains(s)
            })
            .cloned()
            .collect()
    }

    /// When the locked step stops waiting for reveals.
    pub fn reveal_deadline(&self) -> Option<DateTime<Utc>> {
        let st = self.strict.as_ref()?;
        st.locked_at?
            .checked_add_signed(Duration::hours(st.reveal_hours as i64))
    }

    /// The strict part of `S_k`: every strict seat in seat order, with its reveal or empty.
    pub fn strict_seed_inputs(&self) -> Vec<(String, Option<Hash>)> {
        match &self.strict {
            None => vec![],
            Some(st) => st
                .seats
                .iter()
                .map(|s| (s.seat.clone(), st.reveals.get(&s.seat).copied()))
                .collect(),
        }
    }
}

/// The event that makes a game strict; `seats` are (seat, anchor, onion length). New games
/// index their onions by reveal count and bind each reveal to its lock (S8, S11).
pub fn strict_mode_event(
    seats: &[(SeatId, Hash, u64)],
    reveal_hours: u32,
    now: DateTime<Utc>,
) -> Event {
    Event::StrictMode {
        seats: seats
            .iter()
            .map(|(seat, a, len)| StrictAnchor {
                seat: seat.clone(),
                anchor: dice::to_hex(a),
                onion_len: *len,
            })
            .collect(),
        reveal_hours,
        at: now,
        onion_index: Some(BOUND.to_string()),
    }
}

/// The line `despatch player init` prints and a player sends when joining:
/// `STRICT <seat> <anchor> <onion length>`.
pub fn anchor_line(seat: &str, anchor: &Hash, len: u64) -> String {
    format!("STRICT {seat} {} {len}", dice::to_hex(anchor))
}

/// Reads an anchor line (or `seat=anchor[:len]` as `despatch new --strict-seat` takes it).
pub fn parse_anchor(text: &str) -> Option<(SeatId, Hash, u64)> {
    let t = text.trim();
    let (seat, anchor, len) = if let Some(rest) = t.strip_prefix("STRICT ") {
        let mut w = rest.split_whitespace();
        (w.next()?, w.next()?, w.next())
    } else {
        let (seat, rest) = t.split_once('=')?;
        match rest.split_once(':') {
            Some((a, l)) => (seat, a, Some(l)),
            None => (seat, rest, None),
        }
    };
    let len = match len {
        Some(l) => l.trim().parse().ok()?,
        None => dice::DEFAULT_ONION_LEN,
    };
    Some((seat.trim().to_string(), dice::from_hex(anchor)?, len))
}

/// The reply `despatch player reveal` prints: `REVEAL <k> <L_k> <r_seat_k>`, laid out on three
/// lines (the word and step, then each hash after two spaces) so that no line passes 72
/// columns (issue 30 point 8): a phone client re-wrapping a 140-column line would break it
/// where it chose. [`parse_reveal`] reads it on one line or on several.
pub fn reveal_line(step: u64, lock: &Hash, r: &Hash) -> String {
    format!(
        "REVEAL {step}\n  {}\n  {}",
        dice::to_hex(lock),
        dice::to_hex(r)
    )
}

/// The first `want` words of a reply line that starts with `keyword`, read on from the lines
/// after it when the line holds fewer (as [`reveal_line`] lays it out, or as a mail client
/// broke it): for each line whose first word is `keyword`, its words and the next lines'
/// until `want` or a blank line; a fold mark (`\`) or a quote mark (`>`) at a break is not a
/// word. `read` judges each candidate's words (all of them, at least `want`); the first it
/// accepts wins. Each candidate reads at most
/// `want` lines past its own, so the whole text costs linear time.
pub(crate) fn reply_words<T>(
    text: &str,
    keyword: &str,
    want: usize,
    read: impl Fn(&[&str]) -> Option<T>,
) -> Option<T> {
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        if !line
            .split_whitespace()
            .next()
            .is_some_and(|w| w.eq_ignore_ascii_case(keyword))
        {
            continue;
        }
        let mut words: Vec<&str> = Vec::new();
        for (n, l) in lines[i..].iter().enumerate() {
            if n > 0 && (l.trim().is_empty() || n > want) {
                break;
            }
            words.extend(
                l.split_whitespace()
                    .map(|w| w.trim_start_matches('>').trim_end_matches('\\'))
                    .filter(|w| !w.is_empty()),
            );
            if words.len() >= want {
                break;
            }
        }
        if words.len() >= want
            && let Some(found) = read(&words)
        {
            return Some(found);
        }
    }
    None
}

/// Finds a reveal in a mail's text, on one line or laid out as [`reveal_line`] lays it (or as
/// a client broke it): (step, quoted `L_k`, `r`).
pub fn parse_reveal(text: &str) -> Option<(u64, Hash, Hash)> {
    reply_words(text, "REVEAL", 4, |w| {
        Some((
            w[1].parse().ok()?,
            dice::from_hex(w[2])?,
            dice::from_hex(w[3])?,
        ))
    })
}

/// Why a reveal mail is refused: told to the seat, word for word, and nothing is journaled.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RevealRefused {
    /// Nothing is resolved after the end: a reveal would only put a value in the host's hands
    /// for nothing (ruling S10).
    #[error("the game is over, so no reveal is asked for any more")]
    GameOver,
    #[error("this game does not use strict dice, so no reveal is asked for")]
    NotStrict,
    #[error("{0} is not a strict seat of this game")]
    NotStrictSeat(SeatId),
    /// The mail answers another step than the locked one; `open` is the step now, `locked`
    /// whether it is.
    #[error(
        "no reveal is asked for step {step}: step {open} is {}",
        if *.locked { "locked" } else { "open for orders" }
    )]
    NotAsked { step: u64, open: u64, locked: bool },
    #[error(
        "no reveal from {seat} is awaited for step {step} (already given, recorded as missed, or no dice in this step)"
    )]
    NotAwaited { seat: SeatId, step: u64 },
    /// Bound games: every element of the seat's onion has served a reveal.
    #[error("{seat}'s onion has {len} elements, all of them revealed already")]
    OnionSpent { seat: SeatId, len: u64 },
    /// `which`: "reveal number 3", or "step 3" in a game indexed by step.
    #[error("r does not hash back to {seat}'s anchor: it is not your onion's element for {which}")]
    NotTheElement { seat: SeatId, which: String },
}

/// What a reveal mail does: a `Reveal` event, a `SplitLock` event when it quotes another `L_k`,
/// or the reason it is refused (told to the seat; nothing is journaled).
pub fn reveal_event(
    book: &Book,
    seat: &str,
    step: u64,
    quoted: &Hash,
    r: &Hash,
    message_id: &str,
    now: DateTime<Utc>,
) -> Result<Event, RevealRefused> {
    if book.ended || book.club.abandoned.is_some() {
        return Err(RevealRefused::GameOver);
    }
    let st = book.strict.as_ref().ok_or(RevealRefused::NotStrict)?;
    let s = st
        .seat(seat)
        .ok_or_else(|| RevealRefused::NotStrictSeat(seat.to_string()))?;
    let locked =
        book.locked
            .as_ref()
            .filter(|_| step == book.step)
            .ok_or(RevealRefused::NotAsked {
                step,
                open: book.step,
                locked: book.locked.is_some(),
            })?;
    if &locked.lock != quoted {
        // The seat was shown another lock than the journal's: its proof is kept (ruling S3).
        return Ok(Event::SplitLock {
            step,
            seat: seat.to_string(),
            quoted: dice::to_hex(quoted),
            lock: dice::to_hex(&locked.lock),
            message_id: message_id.to_string(),
            at: now,
        });
    }
    if !book.awaited_reveals().iter().any(|x| x == seat) {
        return Err(RevealRefused::NotAwaited {
            seat: seat.to_string(),
            step,
        });
    }
    if !reveal_fits(book, s, step, r) {
        if st.bound {
            return Err(RevealRefused::OnionSpent {
                seat: seat.to_string(),
                len: s.len,
            });
        }
        let which = match st.by_reveal {
            true => format!("reveal number {}", s.revealed + 1),
            false => format!("step {step}"),
        };
        return Err(RevealRefused::NotTheElement {
            seat: seat.to_string(),
            which,
        });
    }
    Ok(Event::Reveal {
        step,
        seat: seat.to_string(),
        lock: dice::to_hex(quoted),
        reveal: dice::to_hex(r),
        message_id: message_id.to_string(),
        at: now,
    })
}

/// Whether `r` is the seat's next onion element: one hash from its last reveal (or anchor) in
/// a game indexed by reveal; `step - last_step` hashes in an older game indexed by step.
fn reveal_fits(book: &Book, s: &StrictSeat, step: u64, r: &Hash) -> bool {
    let by_reveal = book.strict.as_ref().is_some_and(|st| st.by_reveal);
    if book.strict.as_ref().is_some_and(|st| st.bound) {
        // A bound reveal is checked when the seat opens its onion, at the end (S11): here it
        // can only be within the onion.
        return s.revealed < s.len;
    }
    let (fits, gap) = match by_reveal {
        true => (s.revealed < s.len, 1),
        false => (
            step > s.last_step && step <= s.len,
            step.saturating_sub(s.last_step),
        ),
    };
    fits && dice::check_party_reveal(book.protocol, &book.id, &s.seat, &s.last, gap, r)
}

/// The reveal deadline's event, once, when it has passed with reveals still missing: every
/// seat is told who is awaited, and the step goes on waiting (ruling S2). Under every silence
/// policy: none of them may resolve the step without every strict reveal.
pub fn due_reveal_overdue(book: &Book, now: DateTime<Utc>) -> Option<Event> {
    let awaited = book.awaited_reveals();
    let deadline = book.reveal_deadline()?;
    let told = book
        .strict
        .as_ref()
        .is_some_and(|st| !st.overdue.is_empty());
    (!awaited.is_empty() && now >= deadline && !told).then_some(Event::RevealOverdue {
        step: book.step,
        seats: awaited,
        at: now,
    })
}

/// Why the organiser may not close (or move the deadline of) a step that waits for strict
/// reveals: any way to resolve it without them gives a host who holds a reveal in his mailbox
/// a second seed, computable beforehand, to choose from (ruling S2).
pub fn gm_refusal(book: &Book) -> Option<String> {
    let awaited = book.awaited_reveals();
    (!awaited.is_empty()).then(|| {
        format!(
            "step {} is locked and waits for the strict reveal of {}: it resolves only with every \
             strict seat's reveal, never with an empty one (ruling S2 in docs/strict-dice.md), so \
             that nobody holding a reveal can choose between two seeds. The seat has been sent \
             its lock mail{}; its own resignation or concession is the only other way on",
            book.step,
            awaited.join(", "),
            match book.reveal_deadline() {
                Some(d) => format!(" (reveal due {})", d.format("%Y-%m-%d %H:%M UTC")),
                None => String::new(),
            }
        )
    })
}

impl<R: Ruleset> Game<R> {
    /// Whether the locked step rolls any die: a dry run of the resolution. The first roll
    /// request cannot depend on a die's value, so any seed gives the same answer.
    fn locked_step_rolls(&self) -> bool {
        let Some(l) = &self.locked else {
            return false;
        };
        let Ok(subs) = self.submissions(&l.nmr) else {
            return false;
        };
        let mut dice = Dice::new([0; 32]);
        let _ = R::resolve(&self.state, &subs, &mut dice);
        !dice.table().is_empty()
    }

    /// After a lock is applied: the reveal clock starts, if the step rolls.
    pub(crate) fn strict_on_lock(&mut self, at: DateTime<Utc>) {
        let rolls = self.locked_step_rolls();
        let Some(st) = self.book.strict.as_mut() else {
            return;
        };
        st.locked_at = Some(at);
        st.needs_dice = rolls;
        st.reveals.clear();
        st.missed.clear();
        st.overdue.clear();
        // A close-step that forced the lock must not also skip the reveals.
        self.book.closed_by_gm = false;
    }

    /// After results: each revealed element becomes the seat's newest checked one; under the
    /// `forfeit` policy a seat that let its reveal lapse is out (ruling S2).
    pub(crate) fn strict_after_results(&mut self) -> Vec<LockEntry> {
        let forfeit = self.policy.on_silence == super::ruleset::Silence::Forfeit;
        let step = self.step;
        let inputs = self.strict_seed_inputs();
        let Some(st) = self.book.strict.as_mut() else {
            return vec![];
        };
        for s in st.seats.iter_mut() {
            if let Some(r) = st.reveals.get(&s.seat) {
                s.last = *r;
                s.last_step = step;
                s.revealed += 1;
            }
        }
        st.overdue.clear();
        // Only games indexed by step (older) can have missed reveals: their replay stays.
        let missed = std::mem::take(&mut st.missed);
        st.reveals.clear();
        st.locked_at = None;
        st.needs_dice = false;
        if forfeit {
            for seat in missed {
                if !self.book.forfeited.contains(&seat) {
                    self.book.forfeited.push(seat);
                }
            }
        }
        inputs
            .into_iter()
            .map(|(seat, r)| LockEntry {
                seat,
                digest: r.map(|r| dice::to_hex(&r)).unwrap_or_default(),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::strict_bound::{opening_line, parse_opening};

    #[test]
    fn a_reveal_reply_fits_72_columns_and_reads_back_however_it_is_broken() {
        let (l, r) = ([0xab; 32], [0xcd; 32]);
        let reply = reveal_line(12, &l, &r);
        assert!(reply.lines().all(|x| x.chars().count() <= 72), "{reply}");
        assert_eq!(parse_reveal(&reply), Some((12, l, r)));
        // The one-line form of earlier tools, a client's break, fold marks, a quote mark.
        let (lh, rh) = (dice::to_hex(&l), dice::to_hex(&r));
        for text in [
            format!("REVEAL 12 {lh} {rh}"),
            format!("Hello,\n\nREVEAL 12 {lh}\n{rh}\n\n> quoted"),
            format!("reveal 12 \\\n  {lh} \\\n  {rh}"),
            format!("REVEAL 12\n> {lh}\n> {rh}"),
        ] {
            assert_eq!(parse_reveal(&text), Some((12, l, r)), "{text}");
        }
        // Not a reveal: a blank line inside it, a hash cut short, a Lone Star order.
        for text in [
            format!("REVEAL 12 {lh}\n\n{rh}"),
            format!("REVEAL 12 {lh} {}", &rh[..63]),
            "REVEAL Rangers\nMOVE Rangers 4".to_string(),
            "REVEAL".to_string(),
        ] {
            assert_eq!(parse_reveal(&text), None, "{text}");
        }
        // A line that is not a reveal does not hide a later one.
        assert_eq!(
            parse_reveal(&format!("REVEAL Rangers\n\n{reply}")),
            Some((12, l, r))
        );
    }

    #[test]
    fn a_refused_reveal_is_told_in_the_words_it_always_was() {
        // The seat reads these; the typed refusals must not change a word of them.
        let told = |r: RevealRefused| r.to_string();
        assert_eq!(
            told(RevealRefused::NotAsked {
                step: 3,
                open: 4,
                locked: false
            }),
            "no reveal is asked for step 3: step 4 is open for orders"
        );
        assert_eq!(
            told(RevealRefused::NotAsked {
                step: 3,
                open: 4,
                locked: true
            }),
            "no reveal is asked for step 3: step 4 is locked"
        );
        assert_eq!(
            told(RevealRefused::NotTheElement {
                seat: "japan".into(),
                which: "reveal number 2".into()
            }),
            "r does not hash back to japan's anchor: it is not your onion's element for reveal \
             number 2"
        );
        assert_eq!(
            crate::engine::strict_bound::OpeningRefused::NotTheElement {
                seat: "japan".into(),
                through: 5
            }
            .to_string(),
            "this element does not hash to japan's anchor in 5 steps: it is not e_5 of its onion"
        );
    }

    #[test]
    fn an_opening_reply_fits_72_columns_and_nothing_may_follow_its_hash() {
        let e = [0x5a; 32];
        let reply = opening_line(123, &e);
        assert!(reply.lines().all(|x| x.chars().count() <= 72), "{reply}");
        assert_eq!(parse_opening(&reply), Some((123, e)));
        let eh = dice::to_hex(&e);
        assert_eq!(parse_opening(&format!("OPEN 7 {eh}")), Some((7, e)));
        assert_eq!(parse_opening(&format!("OPEN 7\n  {eh}\\")), Some((7, e)));
        assert_eq!(parse_opening(&format!("OPEN 7 {eh} please")), None);
        assert_eq!(parse_opening(&format!("OPEN 7\n  {eh} please")), None);
        assert_eq!(parse_opening("OPEN lone-star tidal"), None);
    }
}
