//! Strict reveals bound to their lock (ruling S11 in docs/strict-dice.md): a seat's `j`-th
//! reveal for step `k` is `bound_reveal(e_j, L_k)`, so a lock mail shown early gets a value
//! useless for any other lock, and the seat's onion element `e_j` stays on its player's machine
//! until the game is over. Then the seat opens its onion (`OPEN J <e_J>`), and every reveal it
//! gave is checked against its anchor and the lock it answered. The opening's checks, its event
//! and its replay. Pure: no clock, disk or mail here.

use chrono::{DateTime, Utc};

use crate::dice::{self, Hash};

use super::books::{GivenReveal, Opened, StrictBook, StrictSeat};
use super::event::{Event, ReplayError, err};
use super::game::{Book, Game};
use super::ruleset::{Ruleset, SeatId};

/// The heading of the section a strict seat's tool answers with its opening.
pub const OPEN_HEADING: &str = "STRICT DICE OPEN";

/// Records a reveal the journal took (replay and live play alike).
pub(super) fn keep_given(st: &mut StrictBook, seat: &str, step: u64, lock: Hash, reveal: Hash) {
    if let Some(s) = st.seats.iter_mut().find(|s| s.seat == seat) {
        let index = s.given.len() as u64 + 1;
        s.given.push(GivenReveal {
            index,
            step,
            lock,
            reveal,
        });
    }
}

/// The reply a seat's tool prints to open its onion: `OPEN <J> <e_J>`, the hash on a line of its
/// own after two spaces, so that no line passes 72 columns whatever `J` (issue 30 point 8).
pub fn opening_line(through: u64, element: &Hash) -> String {
    format!("OPEN {through}\n  {}", dice::to_hex(element))
}

/// Finds an opening in a mail's text, on one line or on two (as [`opening_line`] lays it, or
/// as a client broke it): (`J`, `e_J`). On one line, nothing may follow the hash.
pub fn parse_opening(text: &str) -> Option<(u64, Hash)> {
    super::strict::reply_words(text, "OPEN", 3, |w| {
        (w.len() == 3).then_some(())?;
        Some((w[1].parse().ok()?, dice::from_hex(w[2])?))
    })
}

/// The section of the mail that asks a seat to open its onion: the game's record of every reveal
/// it took from the seat, which the seat's tool checks against its own before it opens.
pub fn open_section(book: &Book, seat: &str) -> Option<String> {
    let st = book.strict.as_ref().filter(|st| st.bound)?;
    let s = st.seat(seat)?;
    if s.given.is_empty() || s.opened.is_some() {
        return None;
    }
    let mut out = format!(
        "{OPEN_HEADING} (game {}, seat {seat}, reveals {})\n",
        book.id,
        s.given.len()
    );
    // Three lines a reveal, so that no line passes 72 columns (a phone, an 80-column client).
    for g in &s.given {
        out.push_str(&format!(
            "reveal {}: step {}\n  L_{} = {}\n  r = {}\n",
            g.index,
            g.step,
            g.step,
            dice::to_hex(&g.lock),
            dice::to_hex(&g.reveal)
        ));
    }
    Some(out)
}

/// What `open_section` lists, read back by the seat's tool.
#[derive(Debug, Clone, PartialEq)]
pub struct OpenAsk {
    pub game: String,
    pub seat: String,
    pub given: Vec<GivenReveal>,
}

/// Reads the open section of a mail's text (the first one); `None` when it is not whole.
pub fn read_open_section(text: &str) -> Option<OpenAsk> {
    let i = text.find(OPEN_HEADING)?;
    let mut lines = text[i..].lines();
    let inner = lines
        .next()?
        .split_once('(')?
        .1
        .trim_end()
        .trim_end_matches(')');
    let (mut game, mut seat, mut count) = (None, None, None);
    for part in inner.split(", ") {
        match part.split_once(' ')? {
            ("game", g) => game = Some(g.to_string()),
            ("seat", s) => seat = Some(s.to_string()),
            ("reveals", n) => count = Some(n.parse::<u64>().ok()?),
            _ => {}
        }
    }
    let count = count?;
    let mut given = Vec::new();
    for _ in 0..count.min(1_000_000) {
        // `reveal j: step k`, `  L_k = <hex>`, `  r = <hex>`
        let (j, k) = lines
            .next()?
            .trim()
            .strip_prefix("reveal ")?
            .split_once(": step ")?;
        let lock = lines
            .next()?
            .trim()
            .strip_prefix(&format!("L_{} = ", k.trim()))?
            .to_string();
        let r = lines.next()?.trim().strip_prefix("r = ")?.to_string();
        given.push(GivenReveal {
            index: j.parse().ok()?,
            step: k.trim().parse().ok()?,
            lock: dice::from_hex(&lock)?,
            reveal: dice::from_hex(&r)?,
        });
    }
    if given.len() as u64 != count {
        return None;
    }
    Some(OpenAsk {
        game: game?,
        seat: seat?,
        given,
    })
}

/// The reveal numbers of `given` that do not bind to the onion opened at `e_J` (`J` =
/// `given.len()`): linear, one walk down the onion from `e_J`.
pub fn unbound(
    proto: dice::Protocol,
    game: &str,
    seat: &str,
    given: &[GivenReveal],
    e_last: &Hash,
) -> Vec<u64> {
    let mut out = Vec::new();
    let mut e = *e_last;
    for g in given.iter().rev() {
        if dice::bound_reveal(proto, game, seat, g.index, &e, &g.lock) != g.reveal {
            out.push(g.index);
        }
        e = dice::onion_step(proto, game, seat, &e);
    }
    out.reverse();
    out
}

/// Why an opening mail is refused: told to the seat, word for word, and nothing is journaled.
/// Replay refuses a journaled opening for the same reasons.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OpeningRefused {
    #[error("this game's reveals are not bound to their lock, so no opening is asked for")]
    NotBound,
    #[error("{0} is not a strict seat of this game")]
    NotStrictSeat(SeatId),
    /// Before the end, `e_J` would let the host compute the seat's reveal for any lock of a
    /// step still to resolve: the one thing binding keeps from him (S11).
    #[error("the game is not over: keep your onion closed until its game-over mail")]
    NotOver,
    #[error("{0} has opened its onion already")]
    Opened(SeatId),
    #[error("the game took {given} reveal(s) from {seat}: open through reveal {given}")]
    Through { seat: SeatId, given: u64 },
    #[error(
        "this element does not hash to {seat}'s anchor in {through} steps: it is not e_{through} \
         of its onion"
    )]
    NotTheElement { seat: SeatId, through: u64 },
}

/// What an opening mail does: the `StrictOpened` event (whatever its reveals show: a reveal that
/// does not bind is the finding the opening exists for), or why it is refused (nothing
/// journaled): not a bound game, not over yet, already opened, or an element that is not the
/// seat's.
pub fn opening_event(
    book: &Book,
    seat: &str,
    through: u64,
    element: &Hash,
    message_id: &str,
    now: DateTime<Utc>,
) -> Result<Event, OpeningRefused> {
    let st = book
        .strict
        .as_ref()
        .filter(|st| st.bound)
        .ok_or(OpeningRefused::NotBound)?;
    let s = st
        .seat(seat)
        .ok_or_else(|| OpeningRefused::NotStrictSeat(seat.to_string()))?;
    check_opening(book, s, through, element)?;
    Ok(Event::StrictOpened {
        seat: seat.to_string(),
        reveal: through,
        element: dice::to_hex(element),
        message_id: message_id.to_string(),
        at: now,
    })
}

fn check_opening(
    book: &Book,
    s: &StrictSeat,
    through: u64,
    element: &Hash,
) -> Result<(), OpeningRefused> {
    if !book.ended {
        return Err(OpeningRefused::NotOver);
    }
    if s.opened.is_some() {
        return Err(OpeningRefused::Opened(s.seat.clone()));
    }
    let given = s.given.len() as u64;
    if through != given || given == 0 {
        return Err(OpeningRefused::Through {
            seat: s.seat.clone(),
            given,
        });
    }
    if dice::onion_walk(book.protocol, &book.id, &s.seat, element, through) != s.anchor {
        return Err(OpeningRefused::NotTheElement {
            seat: s.seat.clone(),
            through,
        });
    }
    Ok(())
}

impl<R: Ruleset> Game<R> {
    /// Replays an opening: the checks `opening_event` made, then which reveals do not bind.
    pub(crate) fn apply_opened(&mut self, event: &Event, index: u64) -> Result<(), ReplayError> {
        let Event::StrictOpened {
            seat,
            reveal,
            element,
            message_id,
            ..
        } = event
        else {
            unreachable!("apply_opened is called for strict_opened only")
        };
        let kind = event.kind();
        let e = dice::from_hex(element)
            .ok_or_else(|| err(index, kind, "element", "not 32 bytes of hex"))?;
        let s = self
            .strict
            .as_ref()
            .filter(|st| st.bound)
            .and_then(|st| st.seat(seat))
            .ok_or_else(|| {
                err(
                    index,
                    kind,
                    "seat",
                    format!("{seat} is not a strict seat of a game with bound reveals"),
                )
            })?;
        check_opening(&self.book, s, *reveal, &e)
            .map_err(|d| err(index, kind, "element", d.to_string()))?;
        let unbound = unbound(self.protocol, &self.id, seat, &s.given, &e);
        self.book.message_ids.insert(message_id.clone());
        let st = self.book.strict.as_mut().expect("checked above");
        let s = st
            .seats
            .iter_mut()
            .find(|s| &s.seat == seat)
            .expect("checked above");
        s.opened = Some(Opened {
            through: *reveal,
            element: e,
            unbound,
        });
        Ok(())
    }
}

/// Every reveal of an opened seat that does not bind, as (seat, reveal number, step): what
/// `despatch verify` reports.
pub fn unbound_reveals(book: &Book) -> Vec<(String, u64, u64)> {
    let Some(st) = &book.strict else {
        return vec![];
    };
    st.seats
        .iter()
        .flat_map(|s| {
            let bad = s
                .opened
                .as_ref()
                .map(|o| o.unbound.clone())
                .unwrap_or_default();
            bad.into_iter().map(move |j| {
                let step = s.given.iter().find(|g| g.index == j).map_or(0, |g| g.step);
                (s.seat.clone(), j, step)
            })
        })
        .collect()
}

/// Strict seats of a bound game that gave reveals and have not opened their onion (yet).
pub fn unopened(book: &Book) -> Vec<String> {
    match &book.strict {
        Some(st) if st.bound => st
            .seats
            .iter()
            .filter(|s| !s.given.is_empty() && s.opened.is_none())
            .map(|s| s.seat.clone())
            .collect(),
        _ => vec![],
    }
}
