//! Press between players (`PRESS TO <seat|side|all|gm>`, issue 16 point 2): whom a message may
//! go to under the game's club policy, the canonical form of its text, its digest, and who may
//! read a journaled press event. Pure: the salt comes in as a value, nothing is read or sent.
//!
//! **The digest.** `P = SHA-256("despatch-press/v1", game, step, sender, salt, text)`, each
//! field length-prefixed (u64 big-endian) so no two field lists hash alike, over the canonical
//! text ([`canonical`]). The journal keeps `P` for every message; the `salt` is 32 random bytes
//! drawn by the host for that one message and sent only with the text (to its readers and the
//! sender). Why a fresh salt and not the game's orders salt key: that key is published when the
//! game ends, and a short message ("yes", "I attack Vienna") could then be guessed from its
//! digest by anyone holding the journal. With a per-message salt that nobody outside the
//! message's readers ever sees, the digest says nothing about the text, yet any reader can show
//! a third party the text and salt that open it, and the sender cannot deny what was relayed.
//! Under `press_record = "text"` the journal keeps the text and its salt too (for an auditor,
//! and the archive after the game), and replay checks that they open the digest.

use sha2::{Digest, Sha256};

use crate::dice::{self, Hash};

use super::club::{Club, Press, PressRecord};
use super::event::{Event, ReplayError, err};
use super::game::Book;
use super::ruleset::{SeatId, Viewer};

/// Longest press message, in bytes of its canonical text: a letter, not a file.
pub const MAX_PRESS_BYTES: usize = 8 * 1024;

/// Widest line of a relayed message: it is shown indented by two in a 72-column mail.
pub const PRESS_WIDTH: usize = 70;

/// Whom a press message goes to, resolved against the game's seats.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Addressed {
    /// Seats to relay it to, in seat order, never the sender.
    pub seats: Vec<SeatId>,
    /// The game's organiser too.
    pub gm: bool,
}

/// Why a press message is refused, and what to write instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PressRefused {
    pub why: String,
    pub hint: String,
}

fn refused(why: impl Into<String>, hint: impl Into<String>) -> PressRefused {
    PressRefused {
        why: why.into(),
        hint: hint.into(),
    }
}

/// Resolves the words after `PRESS TO` for `from`: seat ids, side ids, `all` (every other
/// seat), `gm` (the organiser; `gm_known` says whether the game has an address for one). The
/// reserved words come first, so `gm` always means the organiser. Checks the club's press
/// policy: `none` lets only the organiser be written to, `side` only the sender's own side.
pub fn resolve(
    book: &Book,
    club: &Club,
    from: &str,
    words: &[String],
    gm_known: bool,
) -> Result<Addressed, PressRefused> {
    if words.is_empty() {
        return Err(refused("PRESS TO names nobody", seats_hint(book)));
    }
    let named = named(book, from, words)?;
    // In seat order, once each, never the sender.
    let seats: Vec<SeatId> = book
        .seats
        .iter()
        .filter(|s| s.seat != from && named.picked.contains(&s.seat.as_str()))
        .map(|s| s.seat.clone())
        .collect();
    policy_allows(book, club, from, &seats, named.everyone, gm_known)?;
    if named.gm && !gm_known {
        return Err(refused(
            "this game has no organiser address set, so press to the organiser cannot be relayed",
            "write to whoever runs the game directly; they can set an address with \
             `despatch new … --gm` or mail.gm_address",
        ));
    }
    if seats.is_empty() && !named.gm {
        return Err(refused("nobody else is on that side", seats_hint(book)));
    }
    Ok(Addressed {
        seats,
        gm: named.gm,
    })
}

/// What to write after `PRESS TO` in this game: its seats, its sides, all or gm.
fn seats_hint(book: &Book) -> String {
    let seats: Vec<&str> = book.seats.iter().map(|s| s.seat.as_str()).collect();
    let mut sides: Vec<&str> = book.seats.iter().map(|s| s.side.as_str()).collect();
    sides.dedup();
    format!(
        "write PRESS TO and seats ({}), sides ({}), all or gm",
        seats.join(", "),
        sides.join(", ")
    )
}

/// The words after `PRESS TO` as read: the seats they pick (a side picks its seats, `all`
/// every seat), whether they name the organiser, and whether they said `all`.
struct Named<'b> {
    picked: Vec<&'b str>,
    gm: bool,
    everyone: bool,
}

/// Reads each word: a reserved word first, then the sender's own seat (refused), a seat, a
/// side; anything else is refused.
fn named<'b>(book: &'b Book, from: &str, words: &[String]) -> Result<Named<'b>, PressRefused> {
    let mut out = Named {
        picked: Vec::new(),
        gm: false,
        everyone: false,
    };
    for w in words {
        let w = w.to_ascii_lowercase();
        match w.as_str() {
            "gm" | "organiser" | "organizer" | "umpire" => out.gm = true,
            "all" | "everyone" | "everybody" => {
                out.everyone = true;
                out.picked
                    .extend(book.seats.iter().map(|s| s.seat.as_str()));
            }
            _ if w == from => {
                return Err(refused(
                    format!("{from} is your own seat: press goes to other players"),
                    seats_hint(book),
                ));
            }
            _ => {
                if let Some(s) = book.seats.iter().find(|s| s.seat == w) {
                    out.picked.push(&s.seat);
                } else if book.seats.iter().any(|s| s.side == w) {
                    out.picked.extend(
                        book.seats
                            .iter()
                            .filter(|s| s.side == w)
                            .map(|s| s.seat.as_str()),
                    );
                } else {
                    let shown: String = w.chars().take(40).collect();
                    return Err(refused(
                        format!("`{shown}` is no seat or side of this game"),
                        seats_hint(book),
                    ));
                }
            }
        }
    }
    Ok(out)
}

/// The club's press policy for `seats`: `none` lets no seat be written to, `side` only the
/// sender's own side (and never `all`); the organiser may always be.
fn policy_allows(
    book: &Book,
    club: &Club,
    from: &str,
    seats: &[SeatId],
    everyone: bool,
    gm_known: bool,
) -> Result<(), PressRefused> {
    match club.press {
        Press::None if !seats.is_empty() => Err(refused(
            "this game allows no press between players (its policy: press = none)",
            if gm_known {
                "the organiser can still be reached: write PRESS TO gm"
            } else {
                "this game has no organiser address either: write to whoever runs it directly"
            },
        )),
        Press::Side => within_side(book, from, seats, everyone, gm_known),
        _ => Ok(()),
    }
}

/// Press under the `side` policy: only to seats of the sender's own side.
fn within_side(
    book: &Book,
    from: &str,
    seats: &[SeatId],
    everyone: bool,
    gm_known: bool,
) -> Result<(), PressRefused> {
    let my_side = book.side_of(from).unwrap_or_default().to_string();
    let outside: Vec<&str> = seats
        .iter()
        .filter(|s| book.side_of(s) != Some(my_side.as_str()))
        .map(String::as_str)
        .collect();
    if !everyone && outside.is_empty() {
        return Ok(());
    }
    let mates: Vec<&str> = book
        .seats
        .iter()
        .filter(|s| s.side == my_side && s.seat != from)
        .map(|s| s.seat.as_str())
        .collect();
    let whom = if everyone {
        "all".to_string()
    } else {
        outside.join(", ")
    };
    Err(refused(
        format!(
            "in this game press goes only within your side ({my_side}) and to \
             the organiser, not to {whom}"
        ),
        match (mates.is_empty(), gm_known) {
            (true, true) => "write PRESS TO gm".to_string(),
            (true, false) => "nobody else is on your side, and this game has no \
                              organiser address"
                .to_string(),
            (false, true) => format!("write PRESS TO {} (or gm)", mates.join(", ")),
            (false, false) => format!("write PRESS TO {}", mates.join(", ")),
        },
    ))
}

/// Characters that change how text around them is shown without being seen themselves
/// (zero-width marks, bidirectional overrides, the byte-order mark): dropped from press.
fn invisible(c: char) -> bool {
    matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{FEFF}')
}

/// The canonical text of a press message: line ends as `\n`, control and invisible
/// characters dropped (a tab is a space), trailing spaces and blank lines at either end cut,
/// and lines longer than [`PRESS_WIDTH`] broken (at the last space that fits, else hard), so
/// the text reads the same in every client and is exactly what the digest covers. One pass;
/// idempotent. Refused when empty or longer than [`MAX_PRESS_BYTES`] (counted before breaking,
/// each line with its line end; reading stops at the limit).
pub fn canonical(text: &str) -> Result<String, PressRefused> {
    let mut out: Vec<String> = Vec::new();
    let mut size = 0;
    for raw in text.split('\n') {
        let line: String = raw
            .chars()
            .filter_map(|c| match c {
                '\t' => Some(' '),
                c if c.is_control() || invisible(c) => None,
                c => Some(c),
            })
            .collect();
        let mut rest = line.trim_end();
        size += rest.len() + 1;
        if size > MAX_PRESS_BYTES + 1 {
            break;
        }
        // `nth` looks at most one line ahead: breaking a line costs its length.
        while let Some((cut, _)) = rest.char_indices().nth(PRESS_WIDTH) {
            let at = rest[..cut].rfind(' ').filter(|&i| i > 0).unwrap_or(cut);
            out.push(rest[..at].trim_end().to_string());
            rest = rest[at..].trim_start();
        }
        out.push(rest.to_string());
    }
    if size > MAX_PRESS_BYTES + 1 {
        return Err(refused(
            format!("the message is over {MAX_PRESS_BYTES} bytes long, the most press relays"),
            "shorten it, or send it as several messages",
        ));
    }
    // Blank lines at either end go last, so that breaking a line never leaves one behind.
    let first = out.iter().position(|l| !l.is_empty());
    let last = out.iter().rposition(|l| !l.is_empty());
    let (Some(first), Some(last)) = (first, last) else {
        return Err(refused(
            "the message is empty",
            "write PRESS TO <whom> on the first line and the message on the lines below it",
        ));
    };
    let kept = &out[first..=last];
    if kept.iter().any(|l| l.contains(crate::dice::DIGEST_PREFIX)) {
        // Mail checkers (`despatch verify`) take a mail holding this line for a sealed game
        // mail; relayed, it would make a reader's folder fail to verify.
        return Err(refused(
            "the message holds a Despatch seal line (Mail-Digest: …)",
            "leave out the seal line; quote a game mail in your own words",
        ));
    }
    Ok(kept.join("\n"))
}

/// `P`, the digest the journal keeps of a press message (see the module doc).
pub fn digest(game: &str, step: u64, from: &str, salt: &Hash, text: &str) -> Hash {
    let mut h = Sha256::new();
    for part in [
        b"despatch-press/v1".as_slice(),
        game.as_bytes(),
        step.to_string().as_bytes(),
        from.as_bytes(),
        salt.as_slice(),
        text.as_bytes(),
    ] {
        h.update((part.len() as u64).to_be_bytes());
        h.update(part);
    }
    h.finalize().into()
}

/// The press event for a message already checked by [`resolve`] and [`canonical`]. The text
/// and salt go into the journal only under `press_record = "text"`.
#[allow(clippy::too_many_arguments)]
pub fn event(
    book: &Book,
    from: &str,
    to: &Addressed,
    text: &str,
    salt: &Hash,
    message_id: &str,
    at: chrono::DateTime<chrono::Utc>,
) -> Event {
    let keep = book.policy.club.press_record == PressRecord::Text;
    Event::Press {
        step: book.step,
        from: from.to_string(),
        to: to.seats.clone(),
        gm: to.gm,
        digest: dice::to_hex(&digest(&book.id, book.step, from, salt, text)),
        salt: keep.then(|| dice::to_hex(salt)),
        text: keep.then(|| text.to_string()),
        message_id: message_id.to_string(),
        at,
    }
}

/// Whether `viewer` may read the text of press event `ev` (when the text is at hand: the
/// journal holds it only under `press_record = "text"`). Its sender and the seats it was sent
/// to may; a spectator (and the archive's public pages) only once the game is over, since a
/// message between players was never addressed to the audience. Not a press event: false.
pub fn may_read(ev: &Event, viewer: &Viewer, game_over: bool) -> bool {
    let Event::Press { from, to, .. } = ev else {
        return false;
    };
    match viewer {
        Viewer::Seat(s) => s == from || to.contains(s),
        Viewer::Spectator => game_over,
    }
}

/// What a press event's readers are told besides its text: the text and salt as the host kept
/// them privately (the journal has them only under `press_record = "text"`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PressCopy {
    pub text: String,
    /// Hex of the message's 32-byte salt.
    pub salt: String,
}

impl Book {
    /// Replays a press event: the sender and every reader are seats of the game, the message
    /// keeps the press policy the game was created with, and a kept text is canonical and opens
    /// the digest with its salt (a journal that keeps a text its policy says it does not is
    /// refused, so a digest-only game's journal never carries a message).
    pub(crate) fn apply_press(&mut self, ev: &Event, index: u64) -> Result<(), ReplayError> {
        let Event::Press {
            step,
            from,
            to,
            gm,
            digest: d,
            salt,
            text,
            message_id,
            ..
        } = ev
        else {
            return Ok(());
        };
        let kind = "press";
        self.expect_step(index, kind, *step)?;
        if self.ended {
            return Err(err(index, kind, "type", "press after the game ended"));
        }
        let bad = |field: &str, why: String| err(index, kind, field, why);
        if self.side_of(from).is_none() {
            return Err(bad("from", format!("unknown seat `{from}`")));
        }
        for (i, s) in to.iter().enumerate() {
            if self.side_of(s).is_none() || s == from || to[..i].contains(s) {
                return Err(bad("to", format!("`{s}` is not another seat named once")));
            }
        }
        if to.is_empty() && !gm {
            return Err(bad("to", "names nobody".into()));
        }
        let club = &self.policy.club;
        match club.press {
            Press::None if !to.is_empty() => {
                return Err(bad(
                    "to",
                    "the game's policy allows press to the GM only".into(),
                ));
            }
            Press::Side if to.iter().any(|s| self.side_of(s) != self.side_of(from)) => {
                return Err(bad(
                    "to",
                    "the game's policy keeps press within a side".into(),
                ));
            }
            _ => {}
        }
        dice::from_hex(d).ok_or_else(|| bad("digest", "not 32 bytes of hex".into()))?;
        match (club.press_record, salt, text) {
            (PressRecord::Digest, None, None) => {}
            (PressRecord::Text, Some(salt), Some(text)) => {
                let salt = dice::from_hex(salt)
                    .ok_or_else(|| bad("salt", "not 32 bytes of hex".into()))?;
                if canonical(text).as_deref() != Ok(text.as_str()) {
                    return Err(bad("text", "is not a canonical press text".into()));
                }
                if dice::to_hex(&digest(&self.id, *step, from, &salt, text)) != *d {
                    return Err(bad("digest", "the text and salt do not open it".into()));
                }
            }
            (PressRecord::Digest, ..) => {
                return Err(bad(
                    "text",
                    "the game's policy keeps press digests only".into(),
                ));
            }
            (PressRecord::Text, ..) => {
                return Err(bad(
                    "text",
                    "the game's policy keeps the text and its salt".into(),
                ));
            }
        }
        self.message_ids.insert(message_id.clone());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_text_is_clean_bounded_and_idempotent() {
        let t = canonical("\r\n\n  Dear Austria,\r\n\tLet us\u{202E} talk.\u{7}  \n\n\n").unwrap();
        assert_eq!(t, "  Dear Austria,\n Let us talk.");
        assert_eq!(canonical(&t).unwrap(), t);
        let long = "word ".repeat(40);
        let c = canonical(&long).unwrap();
        assert!(c.lines().all(|l| l.chars().count() <= PRESS_WIDTH), "{c}");
        assert_eq!(canonical(&c).unwrap(), c);
        let one = "x".repeat(200);
        assert_eq!(canonical(&one).unwrap().lines().count(), 3);
        assert!(canonical(" \n\t\n").unwrap_err().why.contains("empty"));
        let big = "y".repeat(MAX_PRESS_BYTES + 1);
        assert!(canonical(&big).unwrap_err().why.contains("bytes long"));
        // A line broken after leading spaces leaves no blank line for a second pass to cut.
        let odd = format!("   {}", "x".repeat(80));
        let c = canonical(&odd).unwrap();
        assert_eq!(canonical(&c).unwrap(), c);
        assert!(canonical(&"y".repeat(MAX_PRESS_BYTES - 1)).is_ok());
    }

    #[test]
    fn digests_depend_on_every_field() {
        let s = [7u8; 32];
        let base = digest("g", 3, "hays", &s, "hi");
        assert_ne!(base, digest("g", 3, "hays", &s, "hi!"));
        assert_ne!(base, digest("g", 4, "hays", &s, "hi"));
        assert_ne!(base, digest("g", 3, "bowie", &s, "hi"));
        assert_ne!(base, digest("g", 3, "hays", &[8u8; 32], "hi"));
        assert_eq!(base, digest("g", 3, "hays", &s, "hi"));
    }
}
