//! Reply cutting: from the text of a mail, keeps the lines the player wrote and drops quotes,
//! attributions, signatures, quoted originals, PGP armour and inline-image placeholders. Works
//! on lines only; which part is the text and how it was decoded is `body`'s business.

use std::borrow::Cow;

/// What is left of a mail's text once everything the player did not write is gone.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Cut {
    /// The player's own lines, numbered as the module doc of `inbound` says.
    pub body: String,
    /// A quote, an attribution or a quoted original was removed.
    pub quoted: bool,
    /// A signature (`-- `, "Sent from my…", a PGP signature block) was cut.
    pub signature: bool,
    /// An armoured `-----BEGIN PGP MESSAGE-----` stood where the player's text goes.
    pub pgp_message: bool,
}

/// Keeps what the player wrote. Quoted (`>`) lines and attribution lines followed by quotes are
/// removed where they stand; everything from a signature, an unquoted quoted-mail header
/// (Outlook, "-----Original Message-----") or an attribution not followed by `>` lines is cut.
/// One pass: the only look-aheads are over the blank lines after an attribution or a rule (each
/// run scanned once, from the line just above it) and four lines after a `From:`.
pub(super) fn cut_reply(text: &str) -> Cut {
    let lines: Vec<Cow<'_, str>> = text.lines().map(clean_line).collect();
    // `None` marks a removed line, so the framing blank lines around it can go too.
    let mut kept: Vec<Option<&str>> = Vec::with_capacity(lines.len());
    let mut cut = Cut::default();
    let mut in_armour_header = false;
    let mut clearsigned = false;
    let mut i = 0;
    while i < lines.len() {
        let mut line: &str = &lines[i];
        if clearsigned && let Some(unescaped) = line.strip_prefix("- ") {
            // RFC 4880 §7.1: a signed text line starting with `-` is sent as `- -…`.
            line = unescaped;
        }
        let t = line.trim_start();
        if in_armour_header {
            // "Hash: SHA256" and such, up to the blank line before the signed text.
            in_armour_header = !t.is_empty();
            kept.push(None);
            i += 1;
            continue;
        }
        if t.is_empty() {
            // Most lines of a long mail; none of the markers below is blank.
            kept.push(Some(""));
            i += 1;
            continue;
        }
        if t.starts_with('>') {
            cut.quoted = true;
            kept.push(None);
            i += 1;
            continue;
        }
        match t {
            "-----BEGIN PGP SIGNED MESSAGE-----" => {
                in_armour_header = true;
                clearsigned = true;
                kept.push(None);
                i += 1;
                continue;
            }
            "-----BEGIN PGP MESSAGE-----" => {
                cut.pgp_message = true;
                break;
            }
            "-----BEGIN PGP SIGNATURE-----" => {
                cut.signature = true;
                break;
            }
            _ => {}
        }
        if t == "--" || is_client_signature(t) {
            cut.signature = true;
            // Gmail and Outlook put the signature above the quote: say whether one follows.
            cut.quoted = cut.quoted
                || (i + 1..lines.len()).any(|k| {
                    let l = lines[k].trim_start();
                    l.starts_with('>') || is_separator(l) || outlook_block_at(&lines, k)
                });
            break;
        }
        if is_separator(t) || outlook_block_at(&lines, i) {
            cut.quoted = true;
            break;
        }
        if is_rule(t) && next_non_blank(&lines, i + 1).is_some_and(|n| outlook_block_at(&lines, n))
        {
            cut.quoted = true;
            break;
        }
        if is_placeholder(t) {
            kept.push(None);
            i += 1;
            continue;
        }
        if let Some((span, starts_known)) = attribution_at(&lines, i) {
            let next = next_non_blank(&lines, i + span);
            if next.is_some_and(|n| lines[n].trim_start().starts_with('>')) {
                cut.quoted = true;
                kept.extend(std::iter::repeat_n(None, span));
                i += span;
                continue;
            }
            if starts_known || next.is_none() {
                cut.quoted = true;
                break;
            }
        }
        kept.push(Some(line));
        i += 1;
    }
    cut.body = own_lines(&kept);
    cut
}

/// Joins the kept lines: leading and trailing blank lines go, and so does a run of blank lines
/// next to a removed line (it framed the quote, the player did not type it as a line of theirs).
fn own_lines(kept: &[Option<&str>]) -> String {
    let mut out: Vec<&str> = Vec::new();
    let mut blanks = 0usize;
    let mut after_own_text = false;
    for line in kept {
        match line {
            None => {
                blanks = 0;
                after_own_text = false;
            }
            Some("") => blanks += 1,
            Some(l) => {
                if after_own_text {
                    out.extend(std::iter::repeat_n("", blanks));
                }
                blanks = 0;
                out.push(l);
                after_own_text = true;
            }
        }
    }
    out.join("\n")
}

/// Trailing blanks trimmed, no-break spaces made spaces, invisible format characters (and the
/// object replacement character some clients leave for an inline image) dropped. Borrows when
/// there is nothing to change, which is nearly always.
fn clean_line(line: &str) -> Cow<'_, str> {
    let special = |c: char| {
        matches!(
            c,
            '\u{200b}'
                | '\u{200c}'
                | '\u{200d}'
                | '\u{feff}'
                | '\u{fffc}'
                | '\r'
                | '\u{a0}'
                | '\u{202f}'
        )
    };
    if !line.contains(special) {
        return Cow::Borrowed(line.trim_end());
    }
    let mut out: String = line
        .chars()
        .filter(|c| {
            !matches!(
                c,
                '\u{200b}' | '\u{200c}' | '\u{200d}' | '\u{feff}' | '\u{fffc}' | '\r'
            )
        })
        .map(|c| {
            if matches!(c, '\u{a0}' | '\u{202f}') {
                ' '
            } else {
                c
            }
        })
        .collect();
    out.truncate(out.trim_end().len());
    Cow::Owned(out)
}

fn next_non_blank(lines: &[Cow<'_, str>], from: usize) -> Option<usize> {
    (from..lines.len()).find(|&k| !lines[k].trim().is_empty())
}

/// The one-line signatures mobile clients append without a `-- ` marker; left in, they would
/// be read as a bad order and the whole mail refused.
fn is_client_signature(t: &str) -> bool {
    const STARTS: [&str; 8] = [
        "Sent from my ",
        "Sent from Outlook",
        "Sent from Mail for Windows",
        "Sent from Yahoo Mail",
        "Get Outlook for ",
        "Envoyé de mon ",
        "Enviado desde mi ",
        "Von meinem ",
    ];
    STARTS.iter().any(|s| t.starts_with(s))
}

/// What clients write in the text part where an inline picture sits in the HTML one: Gmail's
/// `[image: map.png]`, Outlook's `[cid:image001.png@01DAB5C3.2E4F1A90]`.
fn is_placeholder(t: &str) -> bool {
    let lower = |n: usize| t.get(..n).map(str::to_ascii_lowercase);
    t.ends_with(']')
        && (lower(7).as_deref() == Some("[image:") || lower(5).as_deref() == Some("[cid:"))
}

/// "-----Original Message-----", "-------- Forwarded Message --------" and their translations.
fn is_separator(t: &str) -> bool {
    t.starts_with("-----") && t.ends_with("-----") && t.chars().any(|c| c.is_alphabetic())
}

/// The rule Outlook draws above the header block of the mail it quotes.
fn is_rule(t: &str) -> bool {
    t.len() >= 10 && t.bytes().all(|b| b == b'_')
}

/// An Outlook-style header block of a quoted mail: `From:` then `Sent:`/`Date:` within 4 lines.
/// Only the first few characters of each line are looked at, so the cost per line is constant.
fn outlook_block_at(lines: &[Cow<'_, str>], i: usize) -> bool {
    let starts_any = |line: &str, keys: &[&str]| {
        let head = line.trim_start().trim_start_matches('*').trim_start();
        keys.iter().any(|k| starts_with_lowercase(head, k))
    };
    if !starts_any(&lines[i], &["from:", "de :", "de:", "von:"]) {
        return false;
    }
    lines
        .iter()
        .skip(i + 1)
        .take(4)
        .any(|l| starts_any(l, &["sent:", "date:", "envoyé :", "envoyé:", "gesendet:"]))
}

/// Whether `s` starts with `key` (lower-case) ignoring case; looks at `key`'s length only.
fn starts_with_lowercase(s: &str, key: &str) -> bool {
    if key.is_ascii() {
        return s
            .as_bytes()
            .get(..key.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(key.as_bytes()));
    }
    let mut chars = s.chars().flat_map(char::to_lowercase);
    key.chars().all(|k| chars.next() == Some(k))
}

/// An attribution line ("On … wrote:", "Le … a écrit :", "Am … schrieb …:"), possibly wrapped
/// over two lines. Returns its span and whether it opens with a known word (On/Le/Am), which
/// makes it safe to cut at even when the quote below it has no `>` marks.
fn attribution_at(lines: &[Cow<'_, str>], i: usize) -> Option<(usize, bool)> {
    let ends = |s: &str| {
        let s = s.trim_end();
        s.ends_with("wrote:")
            || s.ends_with("a écrit :")
            || s.ends_with("a écrit:")
            || (s.ends_with(':') && s.contains("schrieb"))
    };
    let known_start = |s: &str| {
        let s = s.trim_start();
        s.starts_with("On ") || s.starts_with("Le ") || s.starts_with("Am ")
    };
    let first: &str = &lines[i];
    if ends(first) {
        return Some((1, known_start(first)));
    }
    if known_start(first)
        && let Some(second) = lines.get(i + 1)
        && !second.trim_start().starts_with('>')
        && ends(second)
        && first.len() + second.len() < 300
    {
        return Some((2, true));
    }
    None
}

#[cfg(test)]
#[path = "reply_tests.rs"]
mod tests;
