//! The Last Hundred Yards order reference (HELP) against the code: every reason the order
//! checks (`checks.rs`), the parser (`orders/mod.rs`), the actions' own checks (`action::check`
//! and its helpers) and the set-up and reaction checks can refuse a line with is written in
//! the README, beside the order it restricts (issue 28 point 6), so a player can look it up.

const README: &str = include_str!("../games/last-hundred-yards/README.md");
const CHECKS: &str = include_str!("../src/rulesets/last_hundred_yards/checks.rs");
const ORDERS: &str = include_str!("../src/rulesets/last_hundred_yards/orders/mod.rs");
/// `action::check` and the helpers it calls (each action's own rules), the reaction limits
/// (`reaction.rs`) and the set-up orders' check (`setup::check`, not the mission's own
/// positions, which a player cannot send).
const ACTION_FILES: [(&str, &str); 9] = [
    (
        "action.rs",
        include_str!("../src/rulesets/last_hundred_yards/action.rs"),
    ),
    (
        "maneuver.rs",
        include_str!("../src/rulesets/last_hundred_yards/maneuver.rs"),
    ),
    (
        "platoon.rs",
        include_str!("../src/rulesets/last_hundred_yards/platoon.rs"),
    ),
    (
        "vehicle.rs",
        include_str!("../src/rulesets/last_hundred_yards/vehicle.rs"),
    ),
    (
        "withdraw.rs",
        include_str!("../src/rulesets/last_hundred_yards/withdraw.rs"),
    ),
    (
        "fire.rs",
        include_str!("../src/rulesets/last_hundred_yards/fire.rs"),
    ),
    (
        "assault.rs",
        include_str!("../src/rulesets/last_hundred_yards/assault.rs"),
    ),
    (
        "reaction.rs",
        include_str!("../src/rulesets/last_hundred_yards/reaction.rs"),
    ),
    (
        "setup.rs",
        include_str!("../src/rulesets/last_hundred_yards/setup.rs"),
    ),
];

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

/// The refusals of one action file: the literals that open an `Err(…)` or the `format!` of an
/// `ok_or_else(|| …)`. (`ok_or("…")` texts are for states no order reaches: "no unit", "no
/// side", "a squad without a platoon".) In `setup.rs`, only `check`'s, the orders' check.
fn action_reasons(file: &str, src: &str) -> Vec<String> {
    let src = match file {
        "setup.rs" => &src[src.find("pub fn check(").expect("setup::check")..],
        _ => src,
    };
    literals(src)
        .into_iter()
        .filter(|(code, _)| {
            let c = squeeze(code);
            ["Err(", "Err(format!(", "|| format!(", "|| { format!("]
                .iter()
                .any(|k| c.ends_with(k))
        })
        .map(|(_, lit)| lit)
        .collect()
}

/// The reasons a player can be given: every literal of the checks (not `expect` texts, not
/// the `", "` joiners), the parser's `wrong`/`LineErr::new` texts and the actions' refusals.
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
    for (file, src) in ACTION_FILES {
        out.extend(action_reasons(file, src));
    }
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

/// The actions' own refusals (`action::check` and its helpers) are scanned too: each file
/// gives some, and the README without the paragraphs from `MOVE` to `DISMOUNT` lacks a
/// refusal of every one of them (so a refusal missing from the README fails the test above).
#[test]
fn the_actions_own_refusals_are_scanned_and_a_missing_one_is_found() {
    for (file, src) in ACTION_FILES {
        let found = action_reasons(file, src);
        assert!(!found.is_empty(), "{file}: no refusal found");
        assert!(
            found.iter().all(|r| reasons().contains(r)),
            "{file}'s refusals are among the reasons checked"
        );
    }
    let all = reasons();
    for r in [
        "only vehicles maneuver in Reverse",
        "only AFVs and halftracks overrun",
        "a withdrawal is one to {max} hexes (§10.3.1)",
        "an FP is fired on only through its frontal hexsides",
        "the assaulting units must start in one hex",
        "a dummy moves alone",
        "{why}; a LATW fires at a vehicle (§8.3e)",
    ] {
        assert!(all.iter().any(|x| x == r), "the scan finds {r:?}");
    }
    assert!(
        !all.iter().any(|x| x == "a squad without a platoon"),
        "internal `ok_or` texts are not refusals"
    );
    let start = README
        .find("- **`MOVE A1-1 A1-L")
        .expect("the MOVE refusals");
    let end = README.find("- **`HOLD A1-3`**").expect("the HOLD refusals");
    let cut = format!("{}{}", &README[..start], &README[end..]);
    let gone = missing(&cut);
    for (file, src) in ACTION_FILES.iter().take(6) {
        assert!(
            action_reasons(file, src).iter().any(|r| gone.contains(r)),
            "without its paragraphs a refusal of {file} is missing: {gone:#?}"
        );
    }
}

/// The README's example order lines: every line of its order blocks (indented four spaces;
/// the comment column after two spaces dropped; `A|B` read as each alternative) and every
/// backticked order of "Orders at a glance".
fn example_lines() -> Vec<String> {
    let start = README.find("## Orders at a glance").expect("the glance");
    let glance_end = README.find("## Sending orders").expect("sending orders");
    let blocks_start = README.find("## Set-up orders").expect("set-up orders");
    let blocks_end = README.find("## What you see").expect("what you see");
    let mut out = Vec::new();
    for span in README[start..glance_end].split('`').skip(1).step_by(2) {
        // An order, not a word of the prose (`ACTIVATE` block, `HELP`, `END`).
        if (span.contains(' ') || span == "PASS")
            && span.starts_with(|c: char| c.is_ascii_uppercase())
        {
            out.push(span.to_string());
        }
    }
    for line in README[blocks_start..blocks_end].lines() {
        let Some(order) = line.strip_prefix("    ") else {
            continue;
        };
        if order.starts_with(' ') {
            continue; // a comment's second line
        }
        let order = order.split("  ").next().unwrap_or("").trim();
        out.push(order.to_string());
    }
    // `ON|OFF`, `ASK|NEVER|ALWAYS`: one line per alternative.
    let mut expanded = Vec::new();
    for line in out {
        match line.split(' ').find(|w| w.contains('|')) {
            Some(alts) => {
                for a in alts.split('|') {
                    expanded.push(line.replace(alts, a));
                }
            }
            None => expanded.push(line),
        }
    }
    expanded
}

/// Issue 28 point 6: every example of the order reference parses on a shipped mission (for
/// the side whose units it names), the enemy's counters revealed so that a named target is
/// seen. Orders' legality in a given position is the other tests' business.
#[test]
fn every_example_of_the_order_reference_parses_on_a_mission() {
    use despatch::rulesets::last_hundred_yards::orders;
    let games: Vec<_> = [crate::lhy::BRIDGEHEAD, crate::lhy::PATROL]
        .into_iter()
        .map(|m| {
            let mut st = crate::lhy::game(m);
            for u in st.units.iter_mut() {
                u.concealed = false;
                u.hidden = false;
            }
            st
        })
        .collect();
    let lines = example_lines();
    assert!(lines.len() > 40, "{lines:#?}");
    let mut failed = Vec::new();
    for line in &lines {
        let mut why = Vec::new();
        let ok = games.iter().any(|st| {
            ["us", "germany"]
                .iter()
                .any(|seat| match orders::read(st, seat, line) {
                    Ok(o) => !o.is_empty(),
                    Err(e) => {
                        why.push(format!("{seat}: {}", e[0].reason));
                        false
                    }
                })
        });
        if !ok {
            failed.push(format!("{line}: {}", why.join("; ")));
        }
    }
    assert!(failed.is_empty(), "examples that do not parse: {failed:#?}");
}
