//! Helpers every ruleset's grammar and scripted players share: name matching and a small
//! deterministic mixer. Pure; no game rules here.

/// Names compare without case, spaces, `-` or `_`.
pub fn normalise(s: &str) -> String {
    s.chars()
        .filter(|c| !matches!(c, ' ' | '-' | '_'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// Levenshtein distance, for "did you mean ...?" hints.
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

/// A small deterministic mixer (splitmix64) so different `choice` values pick different options
/// in `sample_orders`; not for dice, which come only from the protocol.
pub struct Pick(pub u64);

impl Pick {
    pub fn draw(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn one_in(&mut self, n: u64) -> bool {
        self.draw().is_multiple_of(n.max(1))
    }
}
