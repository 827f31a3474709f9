//! The Last Hundred Yards order reference (HELP) against the code: every reason the order
//! checks (`checks.rs`) and the parser (`orders.rs`) can refuse a line with is written in
//! the README, beside the order it restricts (issue 28 point 6), so a player can look it up.

const README: &str = include_str!("../games/last-hundred-yards/README.md");
const CHECKS: &str = include_str!("../src/rulesets/last_hundred_yards/checks.rs");
const ORDERS: &str = include_str!("../src/rulesets/last_hundred_yards/orders.rs");

/// Every string literal of `src` (line comments skipped) with the code since the one before.
fn literals(src: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut code = String::new();
    for line in src.lines() {
        code.push('\n');
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            if c == '/' && chars.peek() == Some(&'/') {
                break;
            }
            if c != '"' {
                code.push(c);
                continue;
            }
            let mut lit = String::new();
            while let Some(d) = chars.next() {
                match d {
                    '\\' => lit.extend(chars.next()),
                    '"' => break,
                    _ => lit.push(d),
                }
            }
            out.push((code.clone(), lit));
            code.clear();
        }
    }
    out
}

fn squeeze(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The words of a reason between its `{}` placeholders (those with a letter in them).
fn fragments(reason: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = reason;
    while !rest.is_empty() {
        let (text, after) = match rest.find('{') {
            Some(i) => (
                &rest[..i],
                rest[i..].find('}').map_or("", |j| &rest[i + j + 1..]),
            ),
            None => (rest, ""),
        };
        let t = squeeze(text);
        if t.chars().any(char::is_alphabetic) {
            out.push(t);
        }
        rest = after;
    }
    out
}

/// The reasons a player can be given: every literal of the checks (not `expect` texts, not
/// the `", "` joiners) and the parser's `wrong`/`LineErr::new` texts.
fn reasons() -> Vec<String> {
    let mut out: Vec<String> = literals(CHECKS)
        .into_iter()
        .filter(|(code, lit)| !code.trim_end().ends_with(".expect(") && lit.contains(' '))
        .map(|(_, lit)| lit)
        .filter(|lit| lit.trim() != "and")
        .collect();
    out.extend(
        literals(ORDERS)
            .into_iter()
            .filter(|(code, _)| {
                let c = code.trim_end();
                ["wrong(", "wrong(format!(", "LineErr::new(format!("]
                    .iter()
                    .any(|k| c.ends_with(k))
            })
            .map(|(_, lit)| lit),
    );
    out
}

fn missing(readme: &str) -> Vec<String> {
    let text = squeeze(readme);
    reasons()
        .into_iter()
        .filter(|r| fragments(r).iter().any(|f| !text.contains(f.as_str())))
        .collect()
}

#[test]
fn every_refusal_of_the_checks_and_the_parser_is_in_the_readme() {
    let all = reasons();
    assert!(all.len() > 30, "the scan found the reasons: {all:#?}");
    let gone = missing(README);
    assert!(gone.is_empty(), "not in the README: {gone:#?}");
    // Control: the README without its Activation refusals lacks them.
    let cut = README
        .split("- **`ATTACH A2-3`**")
        .next()
        .expect("the Activation refusals")
        .to_string()
        + README
            .split("- **Every action")
            .nth(1)
            .expect("the list goes on");
    assert!(
        missing(&cut).iter().any(|r| r.contains("attach per cycle")),
        "the check finds a missing reason"
    );
}
