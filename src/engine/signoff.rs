//! The courtesy rule: which opening and closing lines of a mail are courtesy, not orders. A
//! leading block (a greeting) or a trailing block (a sign-off) is courtesy only if a blank line
//! parts it from the orders, it has at most four lines, and none of its lines starts with one
//! of the ruleset's order keywords or reads as an order on its own (or as a plausible typo of
//! one). So a bad first or last order is always reported, never silently dropped, and
//! "Morning all," or "Thanks, / George" never sinks a mail. Pure.

use std::ops::RangeInclusive;

/// Most lines a hand-written greeting or closing has ("Best regards," / "George" / "2nd Fleet").
const MAX_LINES: usize = 4;

/// The first word of a line as a keyword would be written: upper-case, closing punctuation cut.
fn first_word(line: &str) -> String {
    line.split_whitespace()
        .next()
        .unwrap_or("")
        .trim_end_matches([',', '.', ':', ';', '!'])
        .to_ascii_uppercase()
}

/// `Some((text with the courtesy lines blanked, those lines in mail order))` when the mail
/// opens with a greeting or ends in a sign-off (or both). Line numbers are kept, so rejections
/// still point at the player's own lines. `order_like(line)` says whether a line alone reads as
/// an order or a mistyped one.
pub fn sign_off(
    text: &str,
    keywords: &[&str],
    order_like: impl Fn(&str) -> bool,
) -> Option<(String, Vec<String>)> {
    let lines: Vec<&str> = text.lines().collect();
    let keywords: Vec<String> = keywords.iter().map(|k| k.to_ascii_uppercase()).collect();
    let courtesy = |block: &[&str]| {
        block.len() <= MAX_LINES
            && !block
                .iter()
                .any(|l| keywords.contains(&first_word(l)) || order_like(l))
    };
    let filled = |i: usize| !lines[i].trim().is_empty();
    let mut blocks: Vec<RangeInclusive<usize>> = Vec::new();
    // A greeting: the first lines, a blank line after them, and something below.
    if let Some(first) = (0..lines.len()).find(|&i| filled(i)) {
        let last = (first..lines.len()).take_while(|&i| filled(i)).last()?;
        let below = (last + 1..lines.len()).any(filled);
        if below && courtesy(&lines[first..=last]) {
            blocks.push(first..=last);
        }
    }
    // A sign-off: the last lines, after a blank line, with something above that is not the
    // greeting itself.
    if let Some(last) = (0..lines.len()).rposition(&filled) {
        let first = (0..=last).rev().take_while(|&i| filled(i)).last()?;
        let above_end = blocks.first().map_or(0, |g| g.end() + 1);
        let above = (above_end..first).any(filled);
        if first > 0 && above && courtesy(&lines[first..=last]) {
            blocks.push(first..=last);
        }
    }
    if blocks.is_empty() {
        return None;
    }
    let set_aside = |i: usize| blocks.iter().any(|b| b.contains(&i));
    let cleaned: Vec<&str> = (0..lines.len())
        .map(|i| if set_aside(i) { "" } else { lines[i] })
        .collect();
    let skipped = (0..lines.len())
        .filter(|&i| set_aside(i))
        .map(|i| lines[i].trim().to_string())
        .collect();
    Some((cleaned.join("\n"), skipped))
}

#[cfg(test)]
mod tests {
    use super::*;

    const KW: &[&str] = &["MOVE", "FIRE", "SPEED", "PASS"];

    fn none(_: &str) -> bool {
        false
    }

    #[test]
    fn a_closing_after_a_blank_line_is_skipped_and_returned() {
        let (text, skipped) = sign_off("MOVE Mikasa 6\n\nThanks,\nGeorge\n", KW, none).unwrap();
        assert_eq!(text, "MOVE Mikasa 6\n\n\n");
        assert_eq!(skipped, vec!["Thanks,", "George"]);
    }

    #[test]
    fn a_last_line_starting_with_a_keyword_is_an_order_whatever_follows() {
        assert!(sign_off("MOVE Mikasa 6\n\nSPEED TOP\n", KW, none).is_none());
        assert!(sign_off("MOVE Mikasa 6\n\nThanks\nspeed top\n", KW, none).is_none());
    }

    #[test]
    fn without_a_blank_line_or_with_nothing_above_it_is_no_sign_off() {
        assert!(sign_off("MOVE Mikasa 6\nThanks\n", KW, none).is_none());
        assert!(sign_off("\n\nThanks\n", KW, none).is_none());
        assert!(sign_off("MOVE Mikasa 6\n\na\nb\nc\nd\ne\n", KW, none).is_none());
    }

    #[test]
    fn a_line_that_reads_as_an_order_or_its_typo_is_not_courtesy() {
        let like = |l: &str| l.trim() == "RALY";
        assert!(sign_off("MOVE Mikasa 6\n\nRALY\n", KW, like).is_none());
        assert!(sign_off("MOVE Mikasa 6\n\nRegards\n", KW, like).is_some());
    }

    #[test]
    fn a_greeting_before_a_blank_line_is_skipped_and_returned_with_the_sign_off() {
        let (text, skipped) = sign_off(
            "Morning all,\n\nMOVE Mikasa 6\n\nThanks,\nGeorge\n",
            KW,
            none,
        )
        .unwrap();
        assert_eq!(text, "\n\nMOVE Mikasa 6\n\n\n");
        assert_eq!(skipped, vec!["Morning all,", "Thanks,", "George"]);
        let (text, skipped) = sign_off("Hi\n\nMOVE Mikasa 6\n", KW, none).unwrap();
        assert_eq!(text, "\n\nMOVE Mikasa 6");
        assert_eq!(skipped, vec!["Hi"]);
    }

    #[test]
    fn a_greeting_is_courtesy_only_when_apart_from_orders_and_not_order_like() {
        // No blank line after it: the line is read (and refused) as an order.
        assert!(sign_off("Morning all,\nMOVE Mikasa 6\n", KW, none).is_none());
        // A first line that starts with a keyword or reads as an order is always an order.
        assert!(sign_off("move Mikasa 6\n\nMOVE Asahi 6\n", KW, none).is_none());
        let like = |l: &str| l.trim() == "RALY";
        assert!(sign_off("RALY\n\nMOVE Asahi 6\n", KW, like).is_none());
        // A lone block is the orders, neither greeting nor sign-off.
        assert!(sign_off("Morning all\n", KW, none).is_none());
        // Two courtesy-looking blocks and nothing else: the second is not a sign-off of the
        // first, so the mail keeps it and is refused for it.
        let (text, _) = sign_off("Hello\n\nRegards\n", KW, none).unwrap();
        assert_eq!(text, "\n\nRegards");
    }
}
