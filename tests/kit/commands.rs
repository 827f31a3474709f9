//! The mail layer's command words against a ruleset's orders (docs/club-rules.md M3–M4): a line
//! a player writes as an order must never be read as a mail command (the command table of
//! `mail::inbound`, the GAME / TOKEN / HELP control lines, a strict reveal), and no command
//! word may be an order keyword. Helpers only: the tests are in `tests/kit_commands.rs` (kit
//! suite), and the conformance kit's random play checks every sample it sends.

use despatch::engine::strict;
use despatch::mail::inbound;

/// What the mail layer would take `line` for instead of an order, or None when it is read as
/// orders: a seat command (any parse, a mistaken one too: it would be answered as one), a
/// control line, or a strict reveal.
pub fn read_as_command(line: &str) -> Option<String> {
    if inbound::is_control_line(line) {
        return Some("a GAME, TOKEN or HELP control line".into());
    }
    if strict::parse_reveal(line).is_some() {
        return Some("a strict reveal".into());
    }
    inbound::command_of(line).map(|c| format!("the seat command {c:?}"))
}

/// Panics when any line of `orders` (a ruleset's sample orders, say) is read as a command.
pub fn assert_no_command_line(ruleset: &str, orders: &str) {
    for line in orders.lines() {
        if let Some(what) = read_as_command(line) {
            panic!("{ruleset}: the order line {line:?} would be read as {what}");
        }
    }
}

/// The first word of a strict reveal line, as the engine writes one.
pub fn reveal_word() -> String {
    strict::reveal_line(1, &[0; 32], &[0; 32])
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_string()
}

/// Every word that starts a mail command: the command parser's table, the control lines'
/// words, and the strict reveal's. Taken from the code, not copied.
pub fn command_words() -> Vec<String> {
    let mut words: Vec<String> = inbound::command_words()
        .into_iter()
        .chain(inbound::CONTROL_WORDS)
        .map(str::to_string)
        .collect();
    words.push(reveal_word());
    words
}

/// The command words that are also order keywords in `keywords` (compared in upper case).
pub fn collisions(keywords: &[&str]) -> Vec<String> {
    let upper: Vec<String> = keywords.iter().map(|k| k.to_ascii_uppercase()).collect();
    command_words()
        .into_iter()
        .filter(|w| upper.contains(w))
        .collect()
}

/// The example order lines of a ruleset's README: indented (four spaces) and fenced code
/// lines, and inline code spans, whose first word is one of the ruleset's `keywords`; a
/// comment column (two or more spaces after the order) is cut. Placeholders stay as written
/// (`RESCUE wreck WITH ship`): they are what a player copies.
pub fn readme_order_lines(readme: &str, keywords: &[&str]) -> Vec<String> {
    let mut candidates: Vec<&str> = Vec::new();
    let mut fenced = false;
    for line in readme.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced || line.starts_with("    ") || line.starts_with('\t') {
            candidates.push(line.trim());
        }
        // Inline code spans: every other piece between backticks.
        candidates.extend(line.split('`').skip(1).step_by(2));
    }
    let mut out: Vec<String> = Vec::new();
    for c in candidates {
        let order = c.split("  ").next().unwrap_or("").trim();
        let first = order.split_whitespace().next().unwrap_or("");
        if keywords.iter().any(|k| k.eq_ignore_ascii_case(first)) && !out.iter().any(|o| o == order)
        {
            out.push(order.to_string());
        }
    }
    out
}
