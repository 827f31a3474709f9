//! "Did you mean …?" for keywords and names: one way to compare names and one rule for what
//! counts as a plausible typo. Pure; it knows no ruleset's words.

/// Names compare without case, spaces, `-` or `_`: `chin-yen`, `ChinYen` and `Chin Yen` are one.
pub fn normalise(s: &str) -> String {
    s.chars()
        .filter(|c| !matches!(c, ' ' | '-' | '_'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// Levenshtein distance between two strings, counted in characters.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut cur = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let sub = prev[j - 1] + usize::from(a[i - 1] != b[j - 1]);
            cur[j] = sub.min(prev[j] + 1).min(cur[j - 1] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The candidates nearest to `word` (at most three, best first, ties alphabetically).
/// Only a plausible typo earns one: at most max(2, len/2) edits, so "Regards" is not a
/// misspelt REPAIR and a sign-off stays a sign-off.
pub fn nearest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let w = normalise(word);
    let mut scored: Vec<(usize, &str)> = candidates
        .into_iter()
        .map(|c| (edit_distance(&w, &normalise(c)), c))
        .collect();
    scored.sort();
    let Some(best) = scored.first().map(|x| x.0) else {
        return Vec::new();
    };
    if best > (w.chars().count() / 2).max(2) {
        return Vec::new();
    }
    scored
        .into_iter()
        .take_while(|x| x.0 == best)
        .take(3)
        .map(|x| x.1)
        .collect()
}

/// `did you mean A or B?` for the nearest candidates, `None` when nothing is plausible.
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    let near = nearest(word, candidates);
    (!near.is_empty()).then(|| format!("did you mean {}?", near.join(" or ")))
}

/// Whether a line looks like an order gone wrong: one of its words is a piece's name (compared
/// as names are: without case, spaces, `-` or `_`), or its first word is one edit from a keyword
/// of four letters or more. Stricter than "did you mean" hints, so courtesy ("Regards",
/// "Many thanks") is never taken for an order.
pub fn looks_like_an_order<'a>(
    line: &str,
    keywords: &[&str],
    names: impl Iterator<Item = &'a str>,
) -> bool {
    let words: Vec<String> = line
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | '.' | ';' | ':' | '!'))
        .filter(|w| !w.is_empty())
        .map(normalise)
        .collect();
    let Some(first) = words.first() else {
        return false;
    };
    let near_keyword = keywords.iter().any(|k| {
        let k = k.to_ascii_lowercase();
        k.len() >= 4 && edit_distance(first, &k) <= 1
    });
    near_keyword || names.map(normalise).any(|n| words.contains(&n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance_counts_changes() {
        assert_eq!(edit_distance("mikasa", "mikasa"), 0);
        assert_eq!(edit_distance("mikassa", "mikasa"), 1);
        assert_eq!(edit_distance("fuji", "asahi"), 4);
        assert_eq!(edit_distance("", "abc"), 3);
    }

    #[test]
    fn names_compare_without_case_spaces_and_dashes() {
        assert_eq!(normalise("Chin Yen"), normalise("chin-yen"));
        assert_eq!(normalise("General_1"), "general1");
    }

    #[test]
    fn only_plausible_typos_are_suggested() {
        let words = ["REPAIR", "TURN", "MOVE", "FIRE"];
        assert_eq!(nearest("TRUN", words), vec!["TURN"]);
        assert_eq!(did_you_mean("Regards,", words), None);
        // Short words allow two edits, long ones half their length.
        assert_eq!(nearest("MO", words), vec!["MOVE"]);
        assert_eq!(nearest("XXXXXX", words), Vec::<&str>::new());
        assert_eq!(
            did_you_mean("Fire", ["FIRE", "HIRE"]).as_deref(),
            Some("did you mean FIRE?")
        );
    }

    #[test]
    fn ties_are_all_named_alphabetically_at_most_three() {
        let names = ["Burny", "Bystry", "Bunny", "Burly"];
        assert_eq!(nearest("Burmy", names), vec!["Burly", "Burny"]);
        assert_eq!(
            did_you_mean("Burmy", names).as_deref(),
            Some("did you mean Burly or Burny?")
        );
        assert_eq!(
            nearest("Cat", ["Rat", "Mat", "Hat", "Bat"]),
            vec!["Bat", "Hat", "Mat"]
        );
    }
}
