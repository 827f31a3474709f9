//! The DATC-style ruling table: every numbered ruling in a ruleset's README (`R12 …` or
//! `- **R12 …**` at the start of a line) must be named by a test function `r12_…` (one test per
//! numbered case, as the `diplomacy` crate's DATC tests are), or be listed as not yet covered.

use std::collections::BTreeSet;

/// The ruling numbers a README defines, in order.
pub fn rulings(readme: &str) -> Vec<u32> {
    let mut out = BTreeSet::new();
    for line in readme.lines() {
        let t = line.trim_start();
        let t = t.strip_prefix("- ").unwrap_or(t);
        let t = t.trim_start_matches('*');
        let Some(rest) = t.strip_prefix('R') else {
            continue;
        };
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        let after = rest[digits.len()..].chars().next();
        if !digits.is_empty() && matches!(after, Some(' ' | '.' | ':' | '*' | ')')) {
            out.insert(digits.parse().expect("digits"));
        }
    }
    out.into_iter().collect()
}

/// The rulings no test in `sources` names (`fn r<N>_…`).
pub fn uncovered(all: &[u32], sources: &[&str]) -> Vec<u32> {
    all.iter()
        .copied()
        .filter(|n| {
            let name = format!("fn r{n}_");
            !sources.iter().any(|s| s.contains(&name))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_readme_styles_are_read_and_names_must_match() {
        let readme =
            "R1 Plain.\n- **R2 Bold.** text\n- **R3.** x\nR4: y\nRound 5\nR10)\n  R99x no\n";
        assert_eq!(rulings(readme), vec![1, 2, 3, 4, 10]);
        let src = "fn r1_plain() {}\nfn r10_x() {}\nfn r3() {}\n";
        assert_eq!(uncovered(&[1, 2, 3, 10], &[src]), vec![2, 3]);
    }
}
