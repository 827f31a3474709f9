//! The order reference (games/la-bataille/README.md, sent by `HELP`) holds copyable examples:
//! every line of its maneuver and standing-order blocks must be accepted, as written, by a
//! seat of one of the shipped scenarios at its start, so a player who copies one gets no
//! refusal for a name or hex that exists nowhere.

use despatch::engine::Ruleset;
use despatch::rulesets::la_bataille::LaBataille;
use despatch::rulesets::la_bataille::orders;
use despatch::rulesets::la_bataille::state::LbState;

const RULESET: &str = include_str!("../games/la-bataille/ruleset.toml");
const README: &str = include_str!("../games/la-bataille/README.md");

/// The lines of the first fenced block after `heading`.
fn block(heading: &str) -> Vec<&'static str> {
    let at = README
        .find(heading)
        .unwrap_or_else(|| panic!("no `{heading}` in the README"));
    let rest = &README[at..];
    let open = rest.find("```\n").expect("a fenced block") + 4;
    let close = rest[open..].find("```").expect("the block ends") + open;
    rest[open..close]
        .lines()
        .filter(|l| !l.trim().is_empty())
        .collect()
}

fn starts() -> Vec<(String, LbState)> {
    let seats = vec!["france".to_string(), "allies".to_string()];
    ["teaching", "waterloo-1815"]
        .iter()
        .flat_map(|sc| {
            let text = std::fs::read_to_string(format!(
                "{}/games/la-bataille/scenarios/{sc}.toml",
                env!("CARGO_MANIFEST_DIR")
            ))
            .unwrap();
            let mut st = LaBataille::setup(RULESET, &text, &seats).unwrap();
            // Each side's Maneuver Segment is its own: try the Allies' examples in theirs.
            let mut allies = st.clone();
            allies.phasing = "allies".into();
            allies.phase = despatch::rulesets::la_bataille::state::Phase::Maneuver {
                side: "allies".into(),
            };
            st.phasing = "france".into();
            vec![
                (format!("{sc} (French turn)"), st),
                (format!("{sc} (Allied turn)"), allies),
            ]
        })
        .collect()
}

/// Where `line` is accepted, or every refusal.
fn accepted_somewhere(line: &str, starts: &[(String, LbState)]) -> Result<String, Vec<String>> {
    let mut why = Vec::new();
    for (name, st) in starts {
        for seat in ["france", "allies"] {
            match orders::parse(st, seat, &format!("{line}\n")) {
                Ok(_) => return Ok(format!("{name}, {seat}")),
                Err(e) => why.push(format!("{name}, {seat}: {e:?}")),
            }
        }
    }
    Err(why)
}

#[test]
fn every_maneuver_and_standing_order_example_of_the_reference_is_accepted_as_written() {
    let starts = starts();
    let maneuver = block("## Maneuver orders");
    let standing = block("## Standing orders");
    assert!(maneuver.len() >= 8, "{maneuver:?}");
    assert!(standing.len() >= 10, "{standing:?}");
    let mut refused = Vec::new();
    for line in maneuver.iter().chain(standing.iter()) {
        match accepted_somewhere(line, &starts) {
            Ok(where_) => eprintln!("{line:60} accepted in {where_}"),
            Err(why) => refused.push(format!("{line}:\n  {}", why.join("\n  "))),
        }
    }
    assert!(refused.is_empty(), "refused:\n{}", refused.join("\n"));
    // A positive control: a hex off every map is refused, so the check can fail.
    assert!(accepted_somewhere("MOVE 1/45e 9999", &starts).is_err());
}
