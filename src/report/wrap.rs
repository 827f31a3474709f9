//! The layout of every mail's plain text (issue 14 point 5): hard-wrapped at 72 columns, with a
//! blank line before each heading. Applied at two choke points — `report::seal`, before the
//! digest is taken, and where an unsealed draft's text becomes the text part — so no composer
//! has to think about it.
//!
//! Why hard wrapping and not `format=flowed` (RFC 3676): the text of most mails is sealed, and
//! the seal and both independent verifiers read its bytes line by line (`label = hash` lines,
//! `j | die | results | label` rows, the receipt's orders). Flowed text marks its soft breaks
//! with trailing spaces, which the seal's normal form drops and transports may strip, and it
//! space-stuffs every line that starts with a space, which would change the very lines the
//! verifiers read. Hard-wrapped text reads the same in every client, flowed-aware or not.

/// The widest line of a mail's text part, in characters.
pub const TEXT_WIDTH: usize = 72;

/// Lays out a mail's text: each heading gets a blank line before it, and prose is broken at
/// spaces so that no line is wider than [`TEXT_WIDTH`].
///
/// Only prose is broken. A line stays whole, however long, when breaking it would change what
/// it says or how a program reads it: orders and code (indented by four spaces or more, and
/// not under an indented entry, whose details they would be), table rows and drawings (`|…|`, cells split by ` | `), lines holding a
/// hash, and headings. A single word longer than a line (an address) stands alone.
///
/// A broken line's last words go on at the start of the next line when that line continues
/// the same sentence — the templates' paragraphs are hard-wrapped already, and filling in a
/// value can push a line over — otherwise onto a line of their own. Continuation lines keep
/// the first line's indentation, or hang two further in under an indented line or a list
/// item, so that one entry of a list never runs into the next.
///
/// Idempotent (laid-out text lays out to itself), and what text starting after a blank line
/// and ending before one or before a heading lays out to does not depend on what surrounds
/// it: `verify` re-lays the story it expects and finds it in the mail.
pub fn wrap_text(text: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    // Words pushed off the end of the line before, with the indentation they continue at.
    let mut carry: Option<(usize, String)> = None;
    // Whether a line indented four or more here details an indented entry above it.
    let mut detail = false;
    for line in text.split('\n') {
        let mut line = line.to_string();
        detail = details(&line, detail);
        if let Some((hang, words)) = carry.take() {
            if continues(&line, hang) {
                line = format!("{}{words} {}", " ".repeat(hang), line.trim_start());
            } else {
                flush(&mut out, hang, &words);
            }
        }
        if is_heading(&line) && out.last().is_some_and(|l| !l.trim().is_empty()) {
            out.push(String::new());
        }
        if fits(&line) || verbatim(&line, detail) {
            out.push(line);
            continue;
        }
        let indent = indent_of(&line);
        let body = &line[indent..];
        let hang = if indent > 0 || body.starts_with("- ") || body.starts_with("* ") {
            indent + 2
        } else {
            0
        };
        let (first, rest) = split_at_width(&line);
        out.push(first.to_string());
        if !rest.is_empty() {
            carry = Some((hang, rest.to_string()));
        }
    }
    if let Some((hang, words)) = carry {
        flush(&mut out, hang, &words);
    }
    out.join("\n")
}

/// The opposite of [`wrap_text`] for an HTML part shown with `white-space: pre-wrap`: each line
/// that goes on with the sentence of the prose line above is joined to it, so the reader's
/// window wraps the prose instead of breaking 72-column lines a second time on a phone.
/// Orders, tables, hashes, headings and new entries keep their own lines.
pub fn unwrap_text(text: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    // The indentation a continuation of the last line would have, if that line is prose.
    let mut hang: Option<usize> = None;
    let mut detail = false;
    for line in text.split('\n') {
        detail = details(line, detail);
        if let (Some(h), Some(prev)) = (hang, out.last_mut())
            && continues(line, h)
        {
            prev.push(' ');
            prev.push_str(line.trim());
            continue;
        }
        let body = line.trim_start();
        hang = if body.is_empty() || verbatim(line, detail) {
            None
        } else if indent_of(line) > 0 || body.starts_with("- ") || body.starts_with("* ") {
            Some(indent_of(line) + 2)
        } else {
            Some(0)
        };
        out.push(line.to_string());
    }
    out.join("\n")
}

/// Whether lines indented four or more from `line` on detail an entry, given whether they
/// did before it: after a line indented one to three spaces they do (a unit's weapons under
/// the unit, a rejected line's reason under it); after an unindented line or a blank one they
/// are set off as orders or code.
fn details(line: &str, before: bool) -> bool {
    match indent_of(line) {
        _ if line.trim().is_empty() => false,
        0 => false,
        1..=3 => true,
        _ => before,
    }
}

/// A line that is never broken (see [`wrap_text`]), whatever its length. `detail`: a line
/// indented four or more details an entry above it (see [`details`]), which makes it prose.
fn verbatim(line: &str, detail: bool) -> bool {
    let body = line.trim();
    (indent_of(line) >= 4 && !detail)
        || line.starts_with('\t')
        || body.starts_with('|')
        || body.starts_with('+')
        || body.contains(" | ")
        || holds_hash(body)
        || is_heading(line)
}

/// A heading as the templates write them: not indented, in capitals, at least three letters,
/// perhaps followed by a parenthesis that ends the line: `DICE YOU CAN CHECK`,
/// `WHAT HAPPENED (step 3: Manoeuvre)`. (`END (or PASS) ends your orders` is not one.)
pub fn is_heading(line: &str) -> bool {
    let line = line.trim_end();
    if line.starts_with([' ', '\t']) {
        return false;
    }
    let words = match line.split_once(" (") {
        Some((words, _)) if line.ends_with(')') => words,
        Some(_) => return false,
        None => line,
    };
    words.chars().filter(|c| c.is_alphabetic()).count() >= 3
        && words.chars().all(|c| {
            c.is_uppercase()
                || c.is_ascii_digit()
                || matches!(c, ' ' | '-' | ',' | ':' | '\'' | '/' | '&')
        })
}

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

fn fits(line: &str) -> bool {
    line.chars().count() <= TEXT_WIDTH
}

/// Whether `line` goes on with the sentence of the line before, whose overflow would sit at
/// indentation `hang`: prose at that indentation, not a new list item, and starting in
/// lower case (or with an opening bracket or quote mark), as a sentence's middle does.
fn continues(line: &str, hang: usize) -> bool {
    let body = line.trim_start();
    indent_of(line) == hang
        && hang < 4
        && !body.is_empty()
        && !verbatim(line, false)
        && !body.starts_with("- ")
        && !body.starts_with("* ")
        && body
            .chars()
            .next()
            .is_some_and(|c| c.is_lowercase() || matches!(c, '(' | '`'))
}

/// `words` on lines of their own at indentation `hang`, broken as often as needed.
fn flush(out: &mut Vec<String>, hang: usize, words: &str) {
    let mut line = format!("{}{words}", " ".repeat(hang));
    while !fits(&line) {
        let (first, rest) = split_at_width(&line);
        if rest.is_empty() {
            break;
        }
        out.push(first.to_string());
        line = format!("{}{rest}", " ".repeat(hang));
    }
    out.push(line);
}

/// The longest head of `line` that fits, cut at a space, and the rest (without the spaces
/// at the cut). A word too long for a line is kept whole, on a line of its own. Spaces inside the head stay
/// as they are: they may align columns.
fn split_at_width(line: &str) -> (&str, &str) {
    let indent = indent_of(line);
    let mut cut = None;
    let mut col = 0;
    for (i, c) in line.char_indices() {
        if c == ' ' && i > indent && !line[..i].ends_with(' ') {
            if col > TEXT_WIDTH {
                // A first word longer than a line ends its own line.
                cut = cut.or(Some(i));
                break;
            }
            cut = Some(i);
        }
        col += 1;
    }
    if col <= TEXT_WIDTH {
        return (line, "");
    }
    // The line is one word after its indentation: it stays as it is.
    let Some(cut) = cut else {
        return (line, "");
    };
    (&line[..cut], line[cut..].trim_start_matches(' '))
}

/// Whether the line holds a run of 32 or more hex digits (a hash, a secret, a digest).
fn holds_hash(line: &str) -> bool {
    let mut run = 0;
    for b in line.bytes() {
        if b.is_ascii_hexdigit() {
            run += 1;
            if run >= 32 {
                return true;
            }
        } else {
            run = 0;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn widest(text: &str) -> usize {
        text.lines().map(|l| l.chars().count()).max().unwrap_or(0)
    }

    #[test]
    fn prose_is_broken_at_72_columns_and_its_overflow_joins_the_next_line() {
        let text = "Every roll in this game comes from despatch-dice/v2. The host committed to\n\
                    all of its secrets before the game began; this is the commitment:\n";
        let wrapped = wrap_text(text);
        assert_eq!(
            wrapped,
            "Every roll in this game comes from despatch-dice/v2. The host committed\n\
             to all of its secrets before the game began; this is the commitment:\n"
        );
        // A next line that starts a new statement is not joined.
        let text = format!("{}\nDeadline: Friday", "word ".repeat(16).trim_end());
        assert_eq!(
            wrap_text(&text),
            format!(
                "{}\nword word\nDeadline: Friday",
                "word ".repeat(14).trim_end()
            )
        );
    }

    #[test]
    fn indented_entries_hang_and_never_run_into_the_next_entry() {
        let entry = format!("  {}", "Mikasa fires on Tsesarevich, ".repeat(4).trim_end());
        let text = format!("{entry}\n  next entry\n");
        let wrapped = wrap_text(&text);
        let lines: Vec<&str> = wrapped.lines().collect();
        assert_eq!(lines.len(), 3, "{wrapped}");
        assert!(lines[1].starts_with("    ") && !lines[1].starts_with("     "));
        assert_eq!(lines[2], "  next entry");
        assert!(widest(&wrapped) <= TEXT_WIDTH);
        let item = format!(
            "- {}\n  it goes on",
            "a list item that runs long, ".repeat(3)
        );
        let wrapped = wrap_text(&item);
        assert!(
            wrapped.lines().skip(1).all(|l| l.starts_with("  ")),
            "{wrapped}"
        );
        assert!(wrapped.ends_with(" it goes on"), "{wrapped}");
    }

    #[test]
    fn orders_tables_hashes_drawings_and_headings_stay_whole() {
        let long = "x ".repeat(40);
        for line in [
            format!("    FIRE Mikasa AT Tsesarevich {long}"),
            format!("  3 | d6 | 4 | {long}"),
            format!("lock input log_head = {} {long}", "ab".repeat(32)),
            format!("  |{}|", ".".repeat(72)),
            format!("  +{}+", "-".repeat(72)),
            format!("WHAT HAPPENED (step 3: {long})"),
        ] {
            assert_eq!(wrap_text(&line), line);
        }
        let address = format!("see {}@club.example for more", "z".repeat(80));
        assert_eq!(
            wrap_text(&address),
            format!("see\n{}@club.example\nfor more", "z".repeat(80))
        );
    }

    #[test]
    fn details_under_an_indented_entry_are_prose_but_orders_under_text_are_not() {
        let long = "accuracy 0, base range 8 cm, damage x5, ROF 1, ammunition 30, and more";
        let entry = format!("  [1] General-1 at 5,17\n    Cannon: {long}\n");
        let wrapped = wrap_text(&entry);
        assert!(wrapped.lines().all(fits), "{wrapped}");
        assert!(
            wrapped.lines().nth(2).unwrap().starts_with("      "),
            "{wrapped}"
        );
        let orders = format!("This is what Despatch understood:\n    FIRE Mikasa AT {long}\n");
        assert_eq!(wrap_text(&orders), orders);
        let code = format!("  an entry\n\n    FIRE Mikasa AT {long}\n");
        assert_eq!(wrap_text(&code), code);
    }

    #[test]
    fn headings_get_a_blank_line_and_the_signature_keeps_its_space() {
        assert_eq!(
            wrap_text("intro\nHOW TO SEND ORDERS\ntext\n\nNOW\nx\n-- \nfooter"),
            "intro\n\nHOW TO SEND ORDERS\ntext\n\nNOW\nx\n-- \nfooter"
        );
        assert!(is_heading("DICE (despatch-dice/v2, game club-1, step 3)"));
        assert!(!is_heading(
            "END (or PASS) alone on a line ends your orders"
        ));
        assert!(!is_heading("  INDENTED"));
        assert!(!is_heading("OK"));
    }

    #[test]
    fn unwrapping_for_html_joins_prose_and_keeps_everything_else() {
        let text = "Reply to this mail with your orders in\nthe body, one per line.\n\
                    Deadline: Friday\n    FLAGSHIP Mikasa\n    SECOND Asahi\n\
                    - an item\n  that goes on\n  (and on)\nNOW\nlower case after a heading\n";
        assert_eq!(
            unwrap_text(text),
            "Reply to this mail with your orders in the body, one per line.\n\
             Deadline: Friday\n    FLAGSHIP Mikasa\n    SECOND Asahi\n\
             - an item that goes on (and on)\nNOW\nlower case after a heading\n"
        );
    }

    #[test]
    fn laying_out_twice_changes_nothing() {
        let text = format!(
            "HEAD\n{p}\n{p}\n  {p}\n- {p}\n  and more {p}\nTAIL (x)\n    {p}\n",
            p = "some prose that keeps going and going, ".repeat(3)
        );
        let once = wrap_text(&text);
        assert_eq!(wrap_text(&once), once);
        assert!(once.lines().filter(|l| !l.starts_with("    ")).all(fits));
    }
}
