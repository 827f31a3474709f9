//! HTML to text for intake: one line per block, `<blockquote>` content replaced by one `>` line,
//! entities decoded. One pass; it never re-scans text it has passed and never builds a DOM.

use mail_parser::decoders::html::add_html_token;

/// Longest entity body between `&` and `;` that is looked for (`&CounterClockwiseContourIntegral;`
/// is 31). The bound is what keeps a body of 5 MB of `&` linear: each `&` looks 32 bytes ahead.
const ENTITY_MAX: usize = 32;

/// Longest tag name kept; longer names are no tag this module knows.
const NAME_MAX: usize = 16;

const BLOCKS: [&str; 20] = [
    "p", "div", "li", "ul", "ol", "tr", "table", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "pre",
    "section", "article", "header", "footer", "dl",
];
const SKIPPED: [&str; 5] = ["head", "style", "script", "title", "template"];

/// HTML to text with one line per block. Not mail-parser's `html_to_text`: that one breaks only
/// on `<br>` and `</p>`, which glues the `<div>` lines of Gmail and Outlook into one. Quoted
/// `<blockquote>` content becomes a single `>` line, so the reply cutter sees that a quote was
/// there (an attribution above it is then removed, not taken as the end of the player's text).
pub(super) fn html_to_text(html: &str) -> String {
    let bytes = html.as_bytes();
    let mut out = String::with_capacity(html.len().min(1 << 16));
    let mut quote_depth = 0usize;
    let mut skip_until: Option<&'static str> = None;
    let mut pending_space = false;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'<' && starts_tag(bytes, i) {
            if bytes[i..].starts_with(b"<!--") {
                i = find(bytes, i + 4, b"-->").map_or(bytes.len(), |e| e + 3);
                continue;
            }
            let end = tag_end(bytes, i + 1);
            let inner = &html[i + 1..end];
            i = (end + 1).min(bytes.len());
            let closing = inner.starts_with('/');
            let name: String = inner
                .trim_start_matches('/')
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric())
                .take(NAME_MAX + 1)
                .collect::<String>()
                .to_ascii_lowercase();
            let self_closing = inner.ends_with('/');
            if let Some(skip) = skip_until {
                if closing && name == skip {
                    skip_until = None;
                }
                continue;
            }
            if name == "blockquote" {
                if closing {
                    quote_depth = quote_depth.saturating_sub(1);
                } else if !self_closing {
                    if quote_depth == 0 {
                        soft_break(&mut out);
                        out.push_str(">\n");
                        pending_space = false;
                    }
                    quote_depth += 1;
                }
                continue;
            }
            if quote_depth > 0 {
                continue;
            }
            if !closing
                && !self_closing
                && let Some(skip) = SKIPPED.iter().find(|s| **s == name)
            {
                skip_until = Some(*skip);
                continue;
            }
            if name == "br" {
                out.push('\n');
                pending_space = false;
            } else if BLOCKS.contains(&name.as_str()) {
                soft_break(&mut out);
                pending_space = false;
            } else if matches!(name.as_str(), "td" | "th") && !closing {
                pending_space = true;
            }
            continue;
        }
        // Text up to the next `<` (a `<` that opens no tag is text and starts the run).
        let next = bytes[i + 1..]
            .iter()
            .position(|&b| b == b'<')
            .map_or(bytes.len(), |n| i + 1 + n);
        if skip_until.is_none() && quote_depth == 0 {
            add_text(&mut out, &html[i..next], &mut pending_space);
        }
        i = next;
    }
    out
}

/// A `<` opens a tag (or comment, doctype, processing instruction) only when a letter, `/`, `!`
/// or `?` follows, as in browsers; `FIRE < 3` keeps its `<` and the rest of the mail.
fn starts_tag(bytes: &[u8], at: usize) -> bool {
    bytes
        .get(at + 1)
        .is_some_and(|&b| b.is_ascii_alphabetic() || matches!(b, b'/' | b'!' | b'?'))
}

fn soft_break(out: &mut String) {
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
}

/// Appends a run of text: whitespace folded to one space, entities decoded.
fn add_text(out: &mut String, text: &str, pending_space: &mut bool) {
    let mut j = 0;
    while j < text.len() {
        let rest = &text[j..];
        let Some(c) = rest.chars().next() else { break };
        if c.is_whitespace() && c != '\u{a0}' {
            *pending_space = true;
            j += c.len_utf8();
            continue;
        }
        if *pending_space && !out.is_empty() && !out.ends_with('\n') {
            out.push(' ');
        }
        *pending_space = false;
        if c == '&'
            && let Some(len) = entity_len(rest.as_bytes())
        {
            add_html_token(out, &rest.as_bytes()[..len], false);
            j += len;
            continue;
        }
        out.push(c);
        j += c.len_utf8();
    }
}

/// Length of the entity `&name;` / `&#123;` / `&#x1F;` at the start of `s`, looking at most
/// [`ENTITY_MAX`] bytes ahead for the `;`.
fn entity_len(s: &[u8]) -> Option<usize> {
    let body = s.get(1..)?;
    let semi = body
        .iter()
        .take(ENTITY_MAX + 1)
        .position(|&b| !(b.is_ascii_alphanumeric() || b == b'#'))
        .filter(|&k| body[k] == b';')?;
    (semi > 0).then_some(semi + 2)
}

/// Index of the `>` closing a tag that starts at `from`, ignoring `>` inside quoted attributes;
/// the end of the text when there is none (the rest is the unfinished tag, as in browsers).
fn tag_end(bytes: &[u8], from: usize) -> usize {
    let mut quote: Option<u8> = None;
    for (k, &b) in bytes.iter().enumerate().skip(from) {
        match quote {
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None if b == b'"' || b == b'\'' => quote = Some(b),
            None if b == b'>' => return k,
            None => {}
        }
    }
    bytes.len()
}

/// First index at or after `from` where `needle` starts.
fn find(bytes: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    bytes
        .get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|k| from + k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_blocks_become_lines_and_quotes_vanish() {
        let html = "<html><head><style>p{}</style></head><body><div dir=\"ltr\">TURN Tsesarevich PORT 45<div>FIRE Mikasa&nbsp;AT Tsesarevich</div><div><br></div><div>Fuji &amp; Asahi</div></div><blockquote>TURN X</blockquote></body></html>";
        assert_eq!(
            html_to_text(html),
            "TURN Tsesarevich PORT 45\nFIRE Mikasa\u{a0}AT Tsesarevich\n\nFuji & Asahi\n>\n"
        );
    }

    #[test]
    fn entities_are_decoded_only_when_closed_within_reach() {
        assert_eq!(
            html_to_text("a &lt;b&gt; &#x41;&#66; &amp"),
            "a <b> AB &amp"
        );
        assert_eq!(html_to_text("&unknownentity; & ;"), "&unknownentity; & ;");
        let far = format!("&{};", "a".repeat(ENTITY_MAX + 1));
        assert_eq!(html_to_text(&far), far);
    }

    #[test]
    fn a_lone_angle_bracket_is_text() {
        assert_eq!(
            html_to_text("FIRE <3 guns> <b>now</b>"),
            "FIRE <3 guns> now"
        );
        assert_eq!(html_to_text("x <!-- never closed"), "x");
        assert_eq!(
            html_to_text("TURN <a href=\"x>y\">Mikasa</a>"),
            "TURN Mikasa"
        );
    }

    #[test]
    fn nested_quotes_leave_one_marker() {
        let html = "<div>TURN Fuji PORT 15</div><blockquote>a<blockquote>b</blockquote>c</blockquote><div>FIRE Fuji AT Pobeda</div>";
        assert_eq!(
            html_to_text(html),
            "TURN Fuji PORT 15\n>\nFIRE Fuji AT Pobeda\n"
        );
    }
}
