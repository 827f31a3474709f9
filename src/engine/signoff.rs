//! The sign-off rule: which closing lines of a mail are courtesy, not orders. Pure.

use super::ruleset::Rejected;

/// A sign-off written without the `-- ` separator ("Regards," / "Wilhelm") makes the trailing
/// lines bad orders. When the only bad lines are such a short closing block — at most 3 lines
/// of at most 5 words, no digits, and nothing the ruleset could suggest instead — they are
/// blanked (keeping line numbers) and returned, so the mail is not refused for its courtesy.
/// A mistyped last order still fails: it has digits, a hint, or good orders below it.
pub fn sign_off(text: &str, problems: &[Rejected]) -> Option<(String, Vec<String>)> {
    let lines: Vec<&str> = text.lines().collect();
    let non_empty: Vec<usize> = (0..lines.len())
        .filter(|i| !lines[*i].trim().is_empty())
        .collect();
    let bad: Vec<usize> = problems.iter().map(|p| p.line).collect();
    if bad.is_empty() || bad.contains(&0) || problems.iter().any(|p| p.hint.is_some()) {
        return None;
    }
    // The bad lines must be exactly the last non-empty lines.
    let tail: Vec<usize> = non_empty
        .iter()
        .rev()
        .take(bad.len())
        .map(|i| i + 1)
        .collect();
    let mut sorted = bad.clone();
    sorted.sort_unstable();
    sorted.dedup();
    let mut tail_sorted = tail.clone();
    tail_sorted.sort_unstable();
    if sorted != tail_sorted || sorted.len() > 3 || sorted.len() >= non_empty.len() {
        return None;
    }
    let closing: Vec<String> = sorted
        .iter()
        .map(|n| lines[n - 1].trim().to_string())
        .collect();
    if closing
        .iter()
        .any(|l| l.split_whitespace().count() > 5 || l.chars().any(|c| c.is_ascii_digit()))
    {
        return None;
    }
    let cleaned: Vec<&str> = lines
        .iter()
        .enumerate()
        .map(|(i, l)| if sorted.contains(&(i + 1)) { "" } else { *l })
        .collect();
    Some((cleaned.join("\n"), closing))
}
