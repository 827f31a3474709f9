//! Consent, pure: whether a mail from a spectator's address confirms (carries the code its
//! confirmation mail carried) or asks to stop (`STOP`, `UNSUBSCRIBE`, `SPECTATOR REMOVE me`),
//! and the words of the mails that ask and confirm (docs/watching.md W5–W7). Decides nothing
//! about games and touches no clock or disk: the daemon hands in what it read.

use chrono::{DateTime, Duration, Utc};

/// Days a spectator's confirmation may wait (ruling W5): long enough for a holiday weekend
/// and a slow reader, short enough that a forgotten request does not linger as a seat's
/// claim on the cap of 20.
pub const PENDING_DAYS: i64 = 7;

/// When a request made at `now` lapses.
pub fn pending_until(now: DateTime<Utc>) -> DateTime<Utc> {
    now + Duration::days(PENDING_DAYS)
}

/// The first line of the sender's own in `body` (not blank, not quoted), else what the
/// subject says once reply prefixes and bracket tags are taken off.
fn first_own(subject: &str, body: &str) -> String {
    if let Some(l) = body
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('>'))
    {
        return l.to_string();
    }
    bare(subject)
}

/// What a subject says after its last `]` or `:` (`Re: [g] STOP` → `STOP`).
fn bare(subject: &str) -> String {
    subject
        .rsplit([']', ':'])
        .next()
        .unwrap_or("")
        .trim()
        .to_string()
}

/// `STOP` or `UNSUBSCRIBE` alone (a closing `.` or `!` allowed): the one word both readers take.
fn is_stop_word(s: &str) -> bool {
    let s = s.trim().trim_end_matches(['.', '!']);
    s.eq_ignore_ascii_case("stop") || s.eq_ignore_ascii_case("unsubscribe")
}

/// Whether a mail from `own` asks to stop every mail (ruling W7): its first own line (or, over
/// an empty body, its subject) is `STOP` or `UNSUBSCRIBE`, or `SPECTATOR REMOVE` with `me` or
/// the sender's own address; or the subject alone is `STOP`/`UNSUBSCRIBE`, which is what a
/// mail client writes for a `List-Unsubscribe` mailto (RFC 2369), whatever body it adds.
pub fn asks_to_stop(subject: &str, body: &str, own: &str) -> bool {
    if is_stop_word(&bare(subject)) {
        return true;
    }
    let line = first_own(subject, body);
    if is_stop_word(&line) {
        return true;
    }
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        [a, b, who] if a.eq_ignore_ascii_case("spectator") && b.eq_ignore_ascii_case("remove") => {
            let who = who.trim_matches(['<', '>']);
            who.eq_ignore_ascii_case("me") || who.eq_ignore_ascii_case(own)
        }
        _ => false,
    }
}

/// Whether an authenticated seat's mail asks to STOP (docs/club-rules.md S1): its first own
/// line is `STOP` or `UNSUBSCRIBE` alone; or it has no line of its own before a signature
/// (`--`) and its subject is that word, as a `List-Unsubscribe` mailto sends it. A line with
/// more words (Lone Star's `… STOP` order) is never read so.
pub fn seat_asks_to_stop(subject: &str, body: &str) -> bool {
    match body
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('>'))
    {
        Some(l) if l.starts_with("--") => is_stop_word(&bare(subject)),
        Some(l) => is_stop_word(l),
        None => is_stop_word(&bare(subject)),
    }
}

/// Whether the subject or body carries `code` as a word of its own (compared in constant
/// time per word, so how much of a guess matched is not told by timing).
pub fn carries_code(subject: &str, body: &str, code: &str) -> bool {
    if code.is_empty() {
        return false;
    }
    let ct_eq = |a: &[u8], b: &[u8]| {
        a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
    };
    subject
        .split(|c: char| !c.is_ascii_alphanumeric())
        .chain(body.split(|c: char| !c.is_ascii_alphanumeric()))
        .any(|w| ct_eq(w.to_ascii_lowercase().as_bytes(), code.as_bytes()))
}

/// The subject of the one mail that asks an address to confirm.
pub fn confirm_subject(game_id: &str, code: &str) -> String {
    format!("[{game_id}] Please confirm you want to watch (code {code})")
}

/// The text of that mail: who asked, how to say yes, that silence means no.
pub fn confirm_text(game_id: &str, by: &str, code: &str, until: DateTime<Utc>) -> String {
    let who = if by == "gm" {
        "The organiser of the game".to_string()
    } else {
        format!("The player of seat {by}")
    };
    format!(
        "{who} asked that this address watch game {game_id} by mail, as a spectator\n\
         (the results of each step as any onlooker may see them; no orders).\n\n\
         Nothing more will be sent here unless you agree. To agree, reply to this mail\n\
         and keep this code in it (it is in the subject too):\n\n    WATCH {code}\n\n\
         If you did not ask for this, ignore this mail: the request lapses on\n\
         {} UTC and nothing more comes. To refuse now, reply STOP.\n",
        until.format("%Y-%m-%d %H:%M")
    )
}

/// The subject of the one mail that answers a spectator's STOP.
pub fn stopped_subject(game_id: &str) -> String {
    format!("[{game_id}] You will get no more mail about this game")
}

/// The one mail that confirms a STOP.
pub fn stopped_text(game_id: &str, was_watching: bool) -> String {
    let what = if was_watching {
        "You no longer watch"
    } else {
        "The request that you watch was withdrawn, at your word, for"
    };
    format!(
        "{what} game {game_id}. Despatch will send this address nothing more about\n\
         it. This is the last mail (a player or the organiser may ask again, and then\n\
         you would again have to agree before anything is sent).\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_words_are_read_from_the_first_own_line_or_the_subject() {
        let me = "w@x.example";
        assert!(asks_to_stop("Re: [g] Results", "STOP\n> quoted", me));
        assert!(asks_to_stop("Re: x", "  unsubscribe.\n", me));
        assert!(asks_to_stop("STOP", "-- \nSent from my phone", me));
        assert!(asks_to_stop("Re: [g] whatever", "SPECTATOR REMOVE me", me));
        assert!(asks_to_stop("x", "spectator remove <W@x.example>", me));
        assert!(!asks_to_stop("x", "SPECTATOR REMOVE other@x.example", me));
        assert!(!asks_to_stop(
            "Re: [g] Results",
            "> STOP\nthanks, keep them coming",
            me
        ));
        assert!(!asks_to_stop(
            "Re: stop the guns",
            "please stop the guns",
            me
        ));
        assert!(!asks_to_stop("Re: [g] Results", "", me));
    }

    #[test]
    fn a_seat_stops_only_with_the_word_alone() {
        assert!(seat_asks_to_stop(
            "Re: [g #3] Results",
            "STOP\n> your orders"
        ));
        assert!(seat_asks_to_stop("STOP", ""));
        assert!(seat_asks_to_stop("STOP", "-- \nsent from my phone"));
        assert!(
            !seat_asks_to_stop("STOP", "A1 MOVE B2"),
            "the body decides (M1)"
        );
        assert!(!seat_asks_to_stop("x", "3/1 Cav STOP"), "an order line");
        assert!(!seat_asks_to_stop("x", "STOP the guns"));
    }

    #[test]
    fn the_code_counts_only_as_a_whole_word() {
        let code = "abc123def456ghi789jkl012";
        assert!(carries_code(&confirm_subject("g", code), "", code));
        assert!(carries_code("Re: hi", &format!("> WATCH {code}\n"), code));
        assert!(carries_code(
            "Re: hi",
            &format!("watch {}", code.to_uppercase()),
            code
        ));
        assert!(!carries_code("Re: hi", &code[..23], code));
        assert!(!carries_code("Re: hi", &format!("{code}x"), code));
        assert!(!carries_code("", "", ""));
    }
}
