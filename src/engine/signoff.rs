//! The sign-off rule: which closing lines of a mail are courtesy, not orders. A trailing block
//! is a sign-off only if it sits after a blank line, has at most four lines, and none of its
//! lines starts with one of the ruleset's order keywords or reads as an order on its own (or as
//! a plausible typo of one). So a bad last order is always reported, never silently dropped, and
//! "Thanks, / George" never sinks a mail. Pure.

/// Most lines a hand-written closing has ("Best regards," / "George" / "2nd Fleet").
const MAX_LINES: usize = 4;

/// The first word of a line as a keyword would be written: upper-case, closing punctuation cut.
fn first_word(line: &str) -> String {
    line.split_whitespace()
        .next()
        .unwrap_or("")
        .trim_end_matches([',', '.', ':', ';', '!'])
        .to_ascii_uppercase()
}

/// `Some((text with the sign-off's lines blanked, the sign-off's lines))` when the mail ends in a
/// sign-off. Line numbers are kept, so rejections still point at the player's own lines.
/// `order_like(line)` says whether a line alone reads as an order or a mistyped one.
pub fn sign_off(
    text: &str,
    keywords: &[&str],
    order_like: impl Fn(&str) -> bool,
) -> Option<(String, Vec<String>)> {
    let lines: Vec<&str> = text.lines().collect();
    let last = lines.iter().rposition(|l| !l.trim().is_empty())?;
    let first = (0..=last)
        .rev()
        .take_while(|i| !lines[*i].trim().is_empty())
        .last()?;
    // After a blank line, with orders above it, and short.
    let has_orders_above = lines[..first].iter().any(|l| !l.trim().is_empty());
    if first == 0 || !has_orders_above || last + 1 - first > MAX_LINES {
        return None;
    }
    let block = &lines[first..=last];
    let keywords: Vec<String> = keywords.iter().map(|k| k.to_ascii_uppercase()).collect();
    if block
        .iter()
        .any(|l| keywords.contains(&first_word(l)) || order_like(l))
    {
        return None;
    }
    let cleaned: Vec<&str> = lines
        .iter()
        .enumerate()
        .map(|(i, l)| if (first..=last).contains(&i) { "" } else { *l })
        .collect();
    Some((
        cleaned.join("\n"),
        block.iter().map(|l| l.trim().to_string()).collect(),
    ))
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
}
