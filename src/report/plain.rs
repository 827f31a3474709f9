//! The order references are Markdown; mails are plain text (and HTML made from it). This turns
//! the Markdown the references use into text a mail client shows as intended: headings as
//! capitals with a blank line before them, emphasis and code marks dropped, code blocks
//! indented, links as "text <address>". Line by line, so linear in the input; no rendering
//! of anything the references do not use.

/// The reference's Markdown as plain text.
pub fn markdown_to_plain(md: &str) -> String {
    let mut out = String::with_capacity(md.len());
    let mut in_code = false;
    for line in md.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            out.push_str("    ");
            out.push_str(line);
            out.push('\n');
            continue;
        }
        if let Some(title) = heading(trimmed) {
            if !out.is_empty() && !out.ends_with("\n\n") {
                out.push('\n');
            }
            out.push_str(&inline(title).to_uppercase());
            out.push('\n');
            continue;
        }
        // A table's |---|---| rule says nothing in plain text.
        if trimmed.starts_with('|') && trimmed.chars().all(|c| matches!(c, '|' | '-' | ':' | ' ')) {
            continue;
        }
        out.push_str(&inline(line));
        out.push('\n');
    }
    out
}

/// Words written for a log or a developer (`unknown order `AD``) as a mail shows them: each
/// pair of code marks becomes a pair of double quotes, so no Markdown mark reaches a player's
/// rejection or settings answer (issue 30). A lone mark stays. One pass, linear.
pub fn code_marks_to_quotes(s: &str) -> String {
    if s.matches('`').count() < 2 {
        return s.to_string();
    }
    let pairs = s.matches('`').count() / 2;
    let mut out = String::with_capacity(s.len());
    let mut seen = 0;
    for c in s.chars() {
        if c == '`' && seen < pairs * 2 {
            seen += 1;
            out.push('"');
        } else {
            out.push(c);
        }
    }
    out
}

/// The reference's Markdown as plain text with each paragraph and list item on one line, for
/// an HTML part shown with `white-space: pre-wrap`: the Markdown's own line breaks are soft,
/// and kept as hard breaks they would fight the reader's window, ragged on a phone.
pub fn markdown_to_paragraphs(md: &str) -> String {
    let mut joined: Vec<String> = Vec::new();
    let mut in_code = false;
    for line in md.lines() {
        let trimmed = line.trim_start();
        let fence = trimmed.starts_with("```");
        let soft = !in_code
            && !fence
            && !trimmed.is_empty()
            && !starts_block(trimmed)
            && line.len() - trimmed.len() < 4
            && joined
                .last()
                .is_some_and(|prev| !prev.trim().is_empty() && !ends_block(prev));
        match joined.last_mut() {
            Some(prev) if soft => {
                prev.push(' ');
                prev.push_str(trimmed);
            }
            _ => joined.push(line.to_string()),
        }
        if fence {
            in_code = !in_code;
        }
    }
    markdown_to_plain(&(joined.join("\n") + "\n"))
}

/// A Markdown line that starts a block of its own rather than going on with the line above.
fn starts_block(trimmed: &str) -> bool {
    trimmed.starts_with(['-', '*', '+', '#', '|', '>'])
        || trimmed
            .split_once(". ")
            .is_some_and(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
}

/// A Markdown line after which nothing joins it: a heading, a table row or a code line.
fn ends_block(line: &str) -> bool {
    let trimmed = line.trim_start();
    trimmed.starts_with(['#', '|']) || trimmed.starts_with("```") || line.starts_with("    ")
}

/// `## Title` → `Title` (levels 1 to 6).
fn heading(line: &str) -> Option<&str> {
    let hashes = line.chars().take_while(|c| *c == '#').count();
    if (1..=6).contains(&hashes) && line[hashes..].starts_with(' ') {
        Some(line[hashes..].trim())
    } else {
        None
    }
}

/// Drops `code` and **strong** marks; `[text](address)` becomes `text <address>`.
fn inline(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(i) = rest.find(['`', '*', '[']) {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        if let Some(t) = tail.strip_prefix("**") {
            rest = t;
        } else if let Some(t) = tail.strip_prefix('`') {
            rest = t;
        } else if let Some(link) = link(tail) {
            out.push_str(link.0);
            out.push_str(" <");
            out.push_str(link.1);
            out.push('>');
            rest = &tail[link.2..];
        } else {
            // A lone '*' (a list bullet, a multiplication) or '[' stays.
            out.push_str(&tail[..1]);
            rest = &tail[1..];
        }
    }
    out.push_str(rest);
    out
}

/// `[text](address)` at the start of `s`: (text, address, bytes used). Looks only a short way
/// ahead, so a line of many '[' costs linear time.
fn link(s: &str) -> Option<(&str, &str, usize)> {
    const REACH: usize = 400;
    let near = &s[..s.floor_char_boundary(REACH)];
    let close = near.find("](")?;
    let text = &s[1..close];
    if text.contains(['[', ']', '\n']) {
        return None;
    }
    let after = &near[close + 2..];
    let end = after.find(')')?;
    let address = &after[..end];
    if address.contains(' ') {
        return None;
    }
    Some((text, address, close + 2 + end + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_emphasis_code_and_links_become_plain_text() {
        let md = "# Naval\nIntro with `MOVE ship` and **all** of it.\n\n## Sending orders\n\
                  - one per line, see [the protocol](docs/dice-protocol.md)\n\
                  | order | cost |\n|---|:---:|\n| MOVE | 1 CP |\n\
                  ```\nFIRE Mikasa AT Retvizan\n```\n2 * 3 = 6 [sic]\n";
        assert_eq!(
            markdown_to_plain(md),
            "NAVAL\nIntro with MOVE ship and all of it.\n\nSENDING ORDERS\n\
             - one per line, see the protocol <docs/dice-protocol.md>\n\
             | order | cost |\n| MOVE | 1 CP |\n    FIRE Mikasa AT Retvizan\n2 * 3 = 6 [sic]\n"
        );
    }

    #[test]
    fn paragraphs_and_list_items_become_one_line_each_for_html() {
        let md = "## Glance\nEvery step and what you send;\nthe reference has more.\n\n\
                  - **Set-up**: `FLAGSHIP Mikasa`,\n  `SECOND Asahi`.\n- **Fire**:\n  `FIRE A AT B`\n\
                  1. first\n| a | b |\n|---|---|\n```\nMOVE x\nMOVE y\n```\n";
        assert_eq!(
            markdown_to_paragraphs(md),
            "GLANCE\nEvery step and what you send; the reference has more.\n\n\
             - Set-up: FLAGSHIP Mikasa, SECOND Asahi.\n- Fire: FIRE A AT B\n1. first\n\
             | a | b |\n    MOVE x\n    MOVE y\n"
        );
    }

    #[test]
    fn a_heading_gets_a_blank_line_before_it() {
        assert_eq!(
            markdown_to_plain("text\n## Next\nmore\n"),
            "text\n\nNEXT\nmore\n"
        );
        assert_eq!(markdown_to_plain("#hashtag\n"), "#hashtag\n");
    }

    #[test]
    fn unbalanced_marks_and_odd_brackets_cost_linear_time_and_lose_no_text() {
        let hostile = "[".repeat(20_000) + &"](".repeat(20_000) + &"`*".repeat(20_000);
        let plain = markdown_to_plain(&hostile);
        assert!(plain.starts_with("[[[["), "{}", &plain[..20]);
        assert!(plain.len() > 60_000);
    }
}
