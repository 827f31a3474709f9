//! For every registered ruleset: no command word of the mail layer is an order keyword, and
//! no sample order line (its README's order reference, the orders it plays in its first
//! steps) is read as a mail command (docs/club-rules.md M3), with the one documented
//! exception of Lone Star's `REVEAL` order against the strict reveal (M4). Each check with a
//! positive control that shows it can fail.

use std::path::PathBuf;
use std::sync::OnceLock;

use chrono::{Duration, TimeZone, Utc};
use despatch::config::{Config, DEFAULT_CONFIG};
use despatch::daemon::{Daemon, Intake};
use despatch::dice::GameSecrets;

use crate::kit::commands::{
    assert_no_command_line, collisions, command_words, read_as_command, readme_order_lines,
    reveal_word,
};

/// Every shipped ruleset: a scenario and its seats. Must list exactly the registry's rulesets
/// (a new ruleset fails `every_registered_ruleset_is_checked` until it is added here).
const RULESETS: &[(&str, &str, &[&str])] = &[
    ("naval-rjw", "training", &["japan", "russia"]),
    ("gear-krieg", "crossroads", &["us", "germany"]),
    (
        "lone-star",
        "patrol",
        &["hays", "bowie", "von-arnim", "enver"],
    ),
    ("la-bataille", "teaching", &["france", "allies"]),
    ("last-hundred-yards", "patrol", &["us", "germany"]),
];

/// The command words that may also be order keywords, and of which ruleset: Lone Star's
/// `REVEAL <unit>` (a strict reveal is only the exact `REVEAL <step> <hex> <hex>` line).
const EXCEPTIONS: &[(&str, &str)] = &[("lone-star", "REVEAL")];

/// What one ruleset gives the checks: its order keywords, its README's order lines, and the
/// lines of the sample orders of its first steps (several choices per waiting seat).
struct Sampled {
    keywords: Vec<&'static str>,
    readme: Vec<String>,
    samples: Vec<String>,
}

fn sample(ruleset: &str, scenario: &str, seats: &[&str]) -> Sampled {
    let tmp = tempfile::tempdir().unwrap();
    let games = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("games");
    let mut cfg = Config::parse(DEFAULT_CONFIG, &tmp.path().join("config.toml")).unwrap();
    cfg.games.games_dir = games.clone();
    let d = Daemon::new(cfg).unwrap();
    let pairs: Vec<(String, String)> = seats
        .iter()
        .map(|s| (s.to_string(), format!("{s}@players.example")))
        .collect();
    let tokens: Vec<String> = (0..seats.len())
        .map(|i| format!("tok{i}abcdefghijklmnopq"))
        .collect();
    let mut now = Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, 0).unwrap();
    d.create_game_with(
        "k",
        ruleset,
        scenario,
        &pairs,
        now,
        GameSecrets::pinned("k", [3; 32], [4; 32], 200),
        &tokens,
    )
    .unwrap_or_else(|e| panic!("{ruleset}: {e:#}"));
    let keywords = d.open_game("k").unwrap().game.order_keywords();
    let readme = std::fs::read_to_string(games.join(ruleset).join("README.md")).unwrap();
    let readme = readme_order_lines(&readme, &keywords);
    let mut samples = Vec::new();
    // A few steps of play by mail, every waiting seat sending its first sample.
    for _ in 0..6 {
        let g = d.open_game("k").unwrap();
        if g.game.is_over() {
            break;
        }
        let waiting = g.game.waiting_for();
        let mut sent = false;
        for seat in &waiting {
            for choice in 0..6 {
                samples.extend(
                    g.game
                        .sample_orders(seat, choice)
                        .lines()
                        .map(str::to_string),
                );
            }
            let i = seats.iter().position(|s| s == seat).unwrap();
            now += Duration::minutes(5);
            let raw = format!(
                "From: <{seat}@players.example>\r\nTo: despatch+k.{seat}.{}@localhost\r\nSubject: orders\r\nMessage-ID: <k{i}.{}@x>\r\n\r\n{}\r\n",
                tokens[i],
                now.timestamp(),
                g.game.sample_orders(seat, 0).replace('\n', "\r\n")
            );
            let out = d.ingest(raw.as_bytes(), now).unwrap();
            assert!(matches!(out, Intake::Accepted { .. }), "{ruleset}: {out:?}");
            sent = true;
        }
        if !sent {
            break;
        }
    }
    samples.retain(|l| !l.trim().is_empty());
    samples.sort();
    samples.dedup();
    Sampled {
        keywords,
        readme,
        samples,
    }
}

/// Every ruleset of `RULESETS` sampled once for all the tests (a game each, played by mail).
fn sampled() -> &'static [(&'static str, Sampled)] {
    static ALL: OnceLock<Vec<(&'static str, Sampled)>> = OnceLock::new();
    ALL.get_or_init(|| {
        RULESETS
            .iter()
            .map(|(r, scenario, seats)| (*r, sample(r, scenario, seats)))
            .collect()
    })
}

#[test]
fn every_registered_ruleset_is_checked() {
    let mut registered = despatch::rulesets::registry().names();
    let mut listed: Vec<&str> = RULESETS.iter().map(|r| r.0).collect();
    registered.sort();
    listed.sort();
    assert_eq!(listed, registered);
}

#[test]
fn no_command_word_is_an_order_keyword_of_any_ruleset() {
    let words = command_words();
    // The words come from the parser: the ones players know are there.
    for w in [
        "STATUS", "PRESS", "CONCEDE", "DECLINE", "ADDRESS", "GAME", "TOKEN", "HELP",
    ] {
        assert!(words.iter().any(|x| x == w), "{w} missing from {words:?}");
    }
    for (ruleset, s) in sampled() {
        let keywords = &s.keywords;
        assert!(!keywords.is_empty(), "{ruleset} has no order keywords");
        let allowed: Vec<String> = EXCEPTIONS
            .iter()
            .filter(|(r, _)| r == ruleset)
            .map(|(_, w)| w.to_string())
            .collect();
        assert_eq!(
            collisions(keywords),
            allowed,
            "{ruleset}: command words that are order keywords (only the documented exceptions may be)"
        );
    }
    // Positive control: a ruleset with a STATUS (or Press) order would be caught.
    assert_eq!(collisions(&["MOVE", "STATUS"]), ["STATUS"]);
    assert_eq!(collisions(&["press", "FIRE"]), ["PRESS"]);
    assert!(collisions(&["MOVE", "FIRE", "WITHDRAW"]).is_empty());
}

#[test]
fn no_sample_order_line_of_any_ruleset_is_a_command() {
    for (ruleset, s) in sampled() {
        assert!(
            s.readme.len() >= 3,
            "{ruleset}: the README's order reference gave only {:?}",
            s.readme
        );
        assert!(s.samples.len() >= 3, "{ruleset}: samples {:?}", s.samples);
        for line in s.readme.iter().chain(&s.samples) {
            assert_eq!(read_as_command(line), None, "{ruleset}: {line:?}");
        }
        assert_no_command_line(ruleset, &s.samples.join("\n"));
    }
    // Positive control: command lines among order lines are caught, each kind of them.
    for line in [
        "STATUS",
        "PRESS TO all",
        "CONCEDE k",
        "DECLINE DRAW",
        "ADDRESS nonsense",
        "GAME k",
        "help",
    ] {
        assert!(read_as_command(line).is_some(), "{line}");
    }
    let reveal = despatch::engine::strict::reveal_line(2, &[1; 32], &[2; 32]);
    assert!(read_as_command(&reveal).is_some());
    let caught = std::panic::catch_unwind(|| assert_no_command_line("fake", "MOVE a 1\nSTATUS"));
    assert!(
        caught.is_err(),
        "a STATUS line among orders fails the check"
    );
}

#[test]
fn lone_stars_reveal_orders_are_never_strict_reveals() {
    let (_, s) = sampled()
        .iter()
        .find(|(r, _)| *r == "lone-star")
        .expect("Lone Star is sampled");
    let word = reveal_word();
    assert!(
        s.keywords.contains(&word.as_str()),
        "Lone Star has a {word} order"
    );
    let reveals: Vec<&String> = s
        .readme
        .iter()
        .chain(&s.samples)
        .filter(|l| l.to_ascii_uppercase().starts_with(&word))
        .collect();
    assert!(!reveals.is_empty(), "the README shows a {word} order");
    for line in reveals {
        assert_eq!(
            despatch::engine::strict::parse_reveal(line),
            None,
            "{line:?} would be read as a strict reveal"
        );
    }
    // Control: the strict line itself is one.
    let strict = despatch::engine::strict::reveal_line(4, &[7; 32], &[8; 32]);
    assert!(despatch::engine::strict::parse_reveal(&strict).is_some());
}

#[test]
fn readme_lines_are_found_in_blocks_and_spans() {
    let readme = "Orders:\n\n    MOVE Mikasa 4        full speed\n    Class  CF\n\n\
                  Write `TURN Mikasa PORT 45` or `PASS`; not `STATUS`.\n```\nFIRE a AT b\n```\n";
    assert_eq!(
        readme_order_lines(readme, &["MOVE", "TURN", "FIRE", "PASS"]),
        [
            "MOVE Mikasa 4",
            "TURN Mikasa PORT 45",
            "PASS",
            "FIRE a AT b"
        ]
    );
}
