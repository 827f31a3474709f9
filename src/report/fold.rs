//! Lines of 72 columns for what prose wrapping may not break (issue 30 point 8): a line wider
//! than [`TEXT_WIDTH`] that holds hashes (the footer's log head, `Parts`, the dice tables, the
//! seal itself) is *folded*: it ends in a backslash and goes on, after two spaces, on the next
//! line (docs/dice-protocol.md, "Lines of 72 columns"). [`unfold`] joins the lines again, so a
//! reader sees the line as it was before folding, byte for byte. [`restore`] undoes what a mail
//! client's re-wrapping did, with the seal as the only judge of the result. Pure text in, text
//! out: it computes no hash and decides nothing about a seal.

use std::borrow::Cow;

use super::wrap::TEXT_WIDTH;

/// The last character of a folded line.
pub const FOLD: char = '\\';
/// Where a folded line goes on: after two spaces, whatever the first line's indentation, so a
/// continuation of up to 64 hex digits is at most 66 columns (what a client wrapping at 66
/// leaves alone).
pub const CONTINUATION: &str = "  ";
/// A run of hex digits this long is a hash: a line may break where one starts.
const MIN_HEX: usize = 16;
/// Hex longer than this (a signature) is split into pieces of this many digits.
const HEX_PIECE: usize = 64;

fn is_hex(c: char) -> bool {
    c.is_ascii_digit() || ('a'..='f').contains(&c)
}

/// A board drawing's row (`|…|`, `+---+`): the map's own layout, not folded (a folded row
/// would no longer draw the board).
fn drawing(line: &str) -> bool {
    let t = line.trim();
    t.len() > 1
        && (t.starts_with('|') || t.starts_with('+'))
        && (t.ends_with('|') || t.ends_with('+'))
}

/// An order or an order example, set off by four spaces (its first word in capitals): a player
/// copies it as it is, so it stays one line, as `wrap_text` leaves it.
fn order(line: &str) -> bool {
    let body = line.trim_start();
    line.len() - body.len() >= 4
        && body
            .split(' ')
            .next()
            .is_some_and(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_uppercase()))
}

/// Folds every line of `text` wider than [`TEXT_WIDTH`] characters (board drawings and orders
/// aside).
pub fn fold_text(text: &str) -> String {
    text.split('\n')
        .map(fold_line)
        .collect::<Vec<_>>()
        .join("\n")
}

/// One line folded: broken after a space (after the first of several, the others starting
/// the next piece), where a hash starts, or between 64-digit pieces of a longer hash; a word
/// that fits nowhere is cut where the line is full. Every piece but the last ends in [`FOLD`];
/// every piece but the first starts with [`CONTINUATION`].
pub fn fold_line(line: &str) -> String {
    let chars: Vec<char> = line.chars().collect();
    if chars.len() <= TEXT_WIDTH || drawing(line) || order(line) {
        return line.to_string();
    }
    let mut breaks = Vec::new();
    let mut run_start: Option<usize> = None;
    for i in 0..=chars.len() {
        let hex = i < chars.len() && is_hex(chars[i]);
        match (hex, run_start) {
            (true, None) => run_start = Some(i),
            (false, Some(s)) => {
                if i - s >= MIN_HEX {
                    if s > 0 && chars[s - 1] != ' ' {
                        breaks.push(s);
                    }
                    breaks.extend((s + HEX_PIECE..i).step_by(HEX_PIECE));
                }
                run_start = None;
            }
            _ => {}
        }
        // After a space; after the first of a run of spaces, the rest going on the next line
        // (a client that breaks a line drops the whole run, so only one may end a line).
        if i > 0 && i < chars.len() && chars[i - 1] == ' ' && (i < 2 || chars[i - 2] != ' ') {
            breaks.push(i);
        }
    }
    let indent = chars.iter().take_while(|c| **c == ' ').count();
    breaks.retain(|b| *b > indent);
    breaks.sort_unstable();
    let mut out = String::new();
    let mut start = 0;
    loop {
        let prefix = if start == 0 { 0 } else { CONTINUATION.len() };
        if start > 0 {
            out.push('\n');
            out.push_str(CONTINUATION);
        }
        if prefix + chars.len() - start <= TEXT_WIDTH {
            out.extend(&chars[start..]);
            return out;
        }
        let room = TEXT_WIDTH - 1 - prefix;
        let end = match breaks
            .iter()
            .rev()
            .find(|b| **b > start && **b - start <= room)
        {
            Some(b) => *b,
            // A word wider than a line: cut where the line is full.
            None => start + room,
        };
        out.extend(&chars[start..end]);
        out.push(FOLD);
        start = end;
    }
}

/// Whether `line` holds a hash (a run of [`MIN_HEX`] hex digits or more).
fn holds_hash(line: &str) -> bool {
    let mut run = 0;
    for c in line.chars() {
        run = if is_hex(c) { run + 1 } else { 0 };
        if run >= MIN_HEX {
            return true;
        }
    }
    false
}

/// An unsealed answer's text within [`TEXT_WIDTH`] columns (issue 30 point 8), after
/// `wrap_text`: a line holding a hash is folded as a sealed line is (so a digest it quotes
/// unfolds whole); any other line `wrap_text` kept whole because it is indented four or more
/// (a rejection's `    why:  …` and `    hint: …`) is broken at spaces, going on under the
/// words after its label (`why:`), or two further in. Board drawings, table rows and orders
/// stay as they are. Never used on sealed text: its layout is part of what the seal covers.
pub fn fit_text(text: &str) -> String {
    text.split('\n')
        .map(|line| {
            // A table row (cells split by ` | `, as `wrap_text` reads one) keeps its columns.
            if line.chars().count() <= TEXT_WIDTH
                || drawing(line)
                || order(line)
                || line.contains(" | ")
            {
                line.to_string()
            } else if holds_hash(line) {
                fold_line(line)
            } else {
                hang(line)
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A prose line broken at spaces, each piece within [`TEXT_WIDTH`] (a word wider than a line
/// stands alone), the pieces after the first indented to the text after the line's label (a
/// first word ending in `:`), else two past the line's own indentation.
fn hang(line: &str) -> String {
    let indent = line.len() - line.trim_start().len();
    let body = &line[indent..];
    let label_end = body
        .split_once(' ')
        .filter(|(first, _)| first.ends_with(':'))
        .map(|(first, rest)| indent + first.len() + 1 + (rest.len() - rest.trim_start().len()));
    let (head, words) = match label_end {
        Some(end) if end < TEXT_WIDTH / 2 => (&line[..end], &line[end..]),
        _ => (&line[..indent], body),
    };
    let hang = label_end
        .filter(|e| *e < TEXT_WIDTH / 2)
        .unwrap_or(indent + 2);
    let mut out = head.to_string();
    let mut width = head.chars().count();
    let mut first = true;
    for word in words.split_whitespace() {
        let w = word.chars().count();
        if !first && width + 1 + w > TEXT_WIDTH {
            out.push('\n');
            out.push_str(&" ".repeat(hang));
            width = hang;
            first = true;
        }
        if !first {
            out.push(' ');
            width += 1;
        }
        out.push_str(word);
        width += w;
        first = false;
    }
    out
}

/// The text with every folded line joined again: a line ending in [`FOLD`] (trailing blanks
/// aside) loses it and takes the next line, less the [`CONTINUATION`] it starts with (or one
/// space, or none, where a client took it). Text with no folded line comes back as it is, so
/// mails older than folding read the same.
pub fn unfold(text: &str) -> String {
    let mut lines: Vec<String> = Vec::new();
    let mut joining = false;
    for raw in text.split('\n') {
        let t = raw.trim_end();
        let more = t.ends_with(FOLD);
        let body = if more { &t[..t.len() - 1] } else { raw };
        match lines.last_mut() {
            Some(last) if joining => {
                let body = body
                    .strip_prefix(CONTINUATION)
                    .unwrap_or_else(|| body.strip_prefix(' ').unwrap_or(body));
                last.push_str(body)
            }
            _ => lines.push(body.to_string()),
        }
        joining = more;
    }
    lines.join("\n")
}

/// What became of a sealed text that does not match its digest as it stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rewrap {
    /// A mail client re-wrapped or quoted it, and undoing that gives a text the seal accepts.
    Restored(String),
    /// It bears a client's re-wrapping or quoting, but no undoing of it that the seal accepts
    /// could be found: only the saved mail (.eml) can be checked.
    Unreadable,
    /// Nothing a client does to lines explains the mismatch: the text itself was changed.
    NotRewrapped,
}

/// Every break is joined in the first try; only the first this many are then weighed one by
/// one (each at most three more digests), so the work stays linear in the mail.
const MAX_BREAKS: usize = 64;
/// The narrowest re-wrapping looked for.
const MIN_CLIENT_WIDTH: usize = 40;

/// Undoes a mail client's re-wrapping of a sealed text, if `sealed` (the seal's check) accepts
/// the result. What a client does: quote every line (`> `), and break lines wider than its
/// width `w` at a space (dropping the space and the next piece's indentation) or, for a word
/// wider than `w`, inside it. Two lines `a`, `b` are taken for one the client broke when the
/// greedy filling at `w` would have broken there (`b`'s first word did not fit after `a`) and
/// the line they make is no wider than the mail's own 72 columns (or is a board drawing's
/// row); the join most likely right (none inside a word too wide for the client's line or
/// after a hyphen, two after a line that sets its items two apart, else one space) is tried
/// first, then each single change of it (left broken, or joined by one of the others). The seal is the judge: a restored text is
/// one that hashes to the digest the mail carries, so guessing cannot make a changed text pass.
pub fn restore(text: &str, sealed: impl Fn(&str) -> bool) -> Rewrap {
    let norm = text.replace("\r\n", "\n");
    let mut lines: Vec<&str> = norm.split('\n').collect();
    while lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
    let (quoted, lines) = unquote(lines);
    // The client's width is that of its widest line as it came (before any re-indenting).
    let width = lines.iter().map(|l| len(l)).max().unwrap_or(0);
    let (reindented, lines) = reindent(&lines);
    let breaks = likely_breaks(&lines, width);
    if !quoted && !reindented && breaks.is_empty() {
        return Rewrap::NotRewrapped;
    }
    let mut tries = vec![(None, None)];
    for (n, (_, joiner)) in breaks.iter().enumerate().take(MAX_BREAKS) {
        tries.push((Some(n), None));
        for j in [" ", "  ", ""].into_iter().filter(|j| j != joiner) {
            tries.push((None, Some((n, j))));
        }
    }
    for (skip, other) in tries {
        let candidate = join(&lines, &breaks, skip, other);
        if sealed(&candidate) {
            return Rewrap::Restored(candidate);
        }
    }
    Rewrap::Unreadable
}

fn len(s: &str) -> usize {
    s.chars().count()
}

/// A mail quoted whole (every line that is not blank starts with `>`) loses its quoting.
fn unquote(lines: Vec<&str>) -> (bool, Vec<&str>) {
    let quoted = lines.iter().filter(|l| !l.trim().is_empty()).count() > 0
        && lines
            .iter()
            .filter(|l| !l.trim().is_empty())
            .all(|l| l.starts_with('>'));
    if !quoted {
        return (false, lines);
    }
    let lines = lines
        .iter()
        .map(|l| {
            l.strip_prefix("> ")
                .or_else(|| l.strip_prefix('>'))
                .unwrap_or(l)
        })
        .collect();
    (true, lines)
}

/// Every line after a folded one starts with CONTINUATION; a client that moved a piece too
/// wide for it onto a line of its own dropped that indentation: it goes back, as it was.
fn reindent<'a>(lines: &[&'a str]) -> (bool, Vec<Cow<'a, str>>) {
    let mut reindented = false;
    let lines = lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let after_fold = i > 0 && lines[i - 1].trim_end().ends_with(FOLD);
            if after_fold && !l.starts_with(' ') && !l.trim().is_empty() {
                reindented = true;
                Cow::Owned(format!("{CONTINUATION}{l}"))
            } else {
                Cow::Borrowed(*l)
            }
        })
        .collect();
    (reindented, lines)
}

/// (line index, joiner): where a line and the one after it may be one line the client broke,
/// judged by the client's `width` and by what fits the mail's own width.
fn likely_breaks(lines: &[Cow<str>], width: usize) -> Vec<(usize, &'static str)> {
    let mut breaks = Vec::new();
    // A client wrapping narrower than this is not one a player reads mail in.
    if width < MIN_CLIENT_WIDTH {
        return breaks;
    }
    // The width of the line `a` belongs to once the breaks before it are joined.
    let mut joined = lines.first().map_or(0, |l| len(l));
    for i in 0..lines.len().saturating_sub(1) {
        let (a, b) = (&*lines[i], &*lines[i + 1]);
        let before = joined - len(a);
        joined = len(b);
        if a.trim().is_empty() || b.trim().is_empty() || b.starts_with(' ') {
            continue;
        }
        let first = b.split(' ').next().unwrap_or("");
        let last = a.rsplit(' ').next().unwrap_or("");
        // A board drawing is the one kind of line wider than 72 (a client cuts it mid-row).
        let fits = |joiner: &str| {
            before + len(a) + len(joiner) + len(b) <= TEXT_WIDTH
                || drawing(&format!("{a}{joiner}{b}"))
        };
        let joiner = if len(a) == width && len(last) + len(first) > width {
            // A word wider than the client's line, cut where the line was full.
            Some("")
        } else if len(a) + 1 + len(first) > width {
            let mut end = a.chars().rev();
            Some(
                if end.next() == Some('-') && end.next().is_some_and(|c| c != ' ') {
                    "" // broken after a word's hyphen
                } else if a.trim_start().contains("  ") {
                    "  " // a line that sets its items two apart (a legend)
                } else {
                    " "
                },
            )
        } else {
            None
        };
        if let Some(j) = joiner.filter(|j| fits(j)) {
            breaks.push((i, j));
            joined = before + len(a) + len(j) + len(b);
        }
    }
    breaks
}

/// The lines with every break joined, but the one `skip` names left as it is, or the one
/// `other` names joined otherwise.
fn join(
    lines: &[Cow<str>],
    breaks: &[(usize, &str)],
    skip: Option<usize>,
    other: Option<(usize, &str)>,
) -> String {
    let mut out = String::new();
    let mut k = 0;
    for (i, l) in lines.iter().enumerate() {
        out.push_str(l);
        if i + 1 == lines.len() {
            break;
        }
        match breaks.get(k) {
            Some((at, joiner)) if *at == i => {
                let n = k;
                k += 1;
                match other {
                    _ if skip == Some(n) => out.push('\n'),
                    Some((m, j)) if m == n => out.push_str(j),
                    _ => out.push_str(joiner),
                }
            }
            _ => out.push('\n'),
        }
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEX64: &str = "0a05c23222b8029b36807e910e9a81783a87c01eb63b485f043124a4c6ce4e1d";

    #[test]
    fn a_folded_line_unfolds_to_itself_and_every_piece_fits() {
        let sig = format!("{HEX64}{HEX64}");
        for line in [
            format!("Despatch · game yellow-sea · log head #4 {HEX64}"),
            format!("Mail-Digest: sha256:{HEX64}"),
            format!("Mail-Signature: ed25519:{sig}"),
            format!("  turn.html={HEX64}"),
            format!(
                "Anchor A = {HEX64}   (from step 1, onion length 100000, mail key K = {HEX64})"
            ),
            format!("lock input a-seat-with-a-long-name-of-the-club = {HEX64}"),
            format!(
                "  0 | d6 | 1,2,3 | {}",
                "gunnery Mikasa->Askold attacker ".repeat(4)
            ),
            "x".repeat(200),
        ] {
            let folded = fold_line(&line);
            assert_eq!(unfold(&folded), line, "{folded}");
            for l in folded.lines() {
                assert!(l.chars().count() <= TEXT_WIDTH, "{l:?} of {line}");
            }
        }
        assert_eq!(
            fold_line(&format!("Mail-Digest: sha256:{HEX64}")),
            format!("Mail-Digest: sha256:\\\n  {HEX64}")
        );
        assert_eq!(
            fold_line(&format!("Mail-Signature: ed25519:{sig}")),
            format!("Mail-Signature: ed25519:\\\n  {HEX64}\\\n  {HEX64}")
        );
    }

    #[test]
    fn an_answers_prose_hangs_under_its_label_and_its_hashes_fold() {
        let why = format!(
            "    why:  {}",
            "the subject asks for NOTIFY, but nothing that acts is taken from a subject ".repeat(2)
        );
        let out = fit_text(&why);
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines.len() > 2, "{out}");
        assert!(
            lines.iter().all(|l| l.chars().count() <= TEXT_WIDTH),
            "{out}"
        );
        assert!(lines[0].starts_with("    why:  the subject"), "{out}");
        assert!(
            lines[1..]
                .iter()
                .all(|l| l.starts_with("          ") && !l.starts_with("           ")),
            "{out}"
        );
        assert!(!out.contains(FOLD), "prose is not folded: {out}");
        assert_eq!(
            out.split_whitespace().collect::<Vec<_>>(),
            why.split_whitespace().collect::<Vec<_>>()
        );
        // A line holding a digest folds, and unfolds to itself.
        let digest = format!("               digest D = {}", "ab".repeat(32));
        let folded = fit_text(&digest);
        assert!(folded.contains(FOLD) && folded.lines().all(|l| l.chars().count() <= TEXT_WIDTH));
        assert_eq!(unfold(&folded), digest);
        // Within 72, an order, a drawing: as they were.
        let order = format!("    MOVE {}", "Mikasa 4 ".repeat(10));
        let row = format!("    {}", "a long player name | 12 | 3 | 1 ".repeat(3));
        for line in [
            "    why:  short".to_string(),
            order,
            row,
            format!("|{}|", ".".repeat(80)),
        ] {
            assert_eq!(fit_text(&line), line);
        }
        // A line with no label hangs two in.
        let plain = format!("    {}", "word ".repeat(20));
        assert!(
            fit_text(&plain)
                .lines()
                .nth(1)
                .unwrap()
                .starts_with("      word")
        );
    }

    #[test]
    fn short_lines_and_drawings_are_left_alone() {
        let board = format!("  |{}|", ".".repeat(74));
        assert_eq!(fold_line(&board), board);
        let text = "a\n  b = c\n\n-- \nend";
        assert_eq!(fold_text(text), text);
        assert_eq!(unfold(text), text);
    }

    #[test]
    fn a_client_rewrap_is_undone_only_when_the_judge_accepts() {
        let original = format!(
            "{}\nshort\nDespatch · game g · log head #4 \\\n  {HEX64}\n",
            "word ".repeat(14).trim_end()
        );
        // A client wrapping at 66: the 69-column prose line breaks at a space.
        let rewrapped = original.replacen("word word\nshort", "word\nword\nshort", 1);
        assert_ne!(rewrapped, original);
        assert_eq!(
            restore(&rewrapped, |t| t == original),
            Rewrap::Restored(original.clone())
        );
        let quoted: String = original.lines().map(|l| format!("> {l}\n")).collect();
        assert_eq!(
            restore(&quoted, |t| t == original),
            Rewrap::Restored(original.clone())
        );
        assert_eq!(restore(&rewrapped, |_| false), Rewrap::Unreadable);
        assert_eq!(restore("a\nb\n", |_| false), Rewrap::NotRewrapped);
    }
}
