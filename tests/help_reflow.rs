//! The HELP mail's prose is filled to the 72 columns of every mail, whatever the width of the
//! README lines it comes from: found by the La Bataille and Lone Star play-throughs (a README
//! line of ~80 columns was broken alone, "…Infantry Assault, Old / Guard Charge…"), and true
//! of every ruleset's reference, so checked on all five.

use crate::mail_world;

use chrono::{TimeZone, Utc};
use despatch::daemon::Intake;
use mail_world::{SeatLine, delivered, world};

/// A line that goes on with the sentence above it rather than starting a block of its own.
fn continues(line: &str) -> bool {
    let t = line.trim_start();
    let indent = line.len() - t.len();
    !t.is_empty()
        && indent < 4
        && !t.starts_with(['-', '*', '|', '#'])
        && !t
            .split_once(". ")
            .is_some_and(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
        && !t.chars().all(|c| !c.is_lowercase())
}

/// Every pair of prose lines where the second goes on with the first, and the first was broken
/// although the second's first word would have fitted on it: a ragged break.
fn ragged(text: &str) -> Vec<(String, String)> {
    let lines: Vec<&str> = text.lines().collect();
    lines
        .windows(2)
        .filter(|w| {
            let (a, b) = (w[0], w[1]);
            let prose = |l: &str| {
                let t = l.trim_start();
                !t.is_empty() && l.len() - t.len() < 4 && !t.starts_with('|') && !l.contains(" = ")
            };
            let word = b.split_whitespace().next().unwrap_or("");
            // A break after a full stop or a colon may be the end of an item, not a stub.
            // Headings (capitals) and the signature's "-- " end their line by themselves.
            prose(a)
                && a.chars().any(|c| c.is_lowercase())
                && !a.trim_end().ends_with(['.', ':', '!', '?'])
                && prose(b)
                && continues(b)
                && a.chars().count() + 1 + word.chars().count() <= 72
        })
        .map(|w| (w[0].to_string(), w[1].to_string()))
        .collect()
}

fn help_of(game: &'static str, ruleset: &str, scenario: &str, seats: &[SeatLine]) -> String {
    let mut w = world(
        game,
        ruleset,
        scenario,
        seats,
        Utc.with_ymd_and_hms(2026, 11, 2, 9, 0, 0).unwrap(),
        ([7; 32], [8; 32]),
    );
    let out = w.send(seats[0].0, "HELP");
    assert!(matches!(out, Intake::Help { .. }), "{out:?}");
    let help = delivered(w.outbox(), "help-");
    assert_eq!(help.len(), 1, "one HELP answer");
    help[0].clone()
}

const TWO: [(&str, &str); 2] = [("a", "a@example.org"), ("b", "b@example.org")];

fn seats(names: [&'static str; 2]) -> [SeatLine; 2] {
    [
        (names[0], TWO[0].1, "aaaa0000000000000000token"),
        (names[1], TWO[1].1, "bbbb0000000000000000token"),
    ]
}

#[test]
fn every_rulesets_help_is_filled_to_72_columns_without_ragged_breaks() {
    let games: [(&str, &str, [SeatLine; 2]); 4] = [
        ("naval-rjw", "training", seats(["japan", "russia"])),
        ("gear-krieg", "crossroads", seats(["us", "germany"])),
        ("la-bataille", "teaching", seats(["france", "allies"])),
        ("last-hundred-yards", "patrol", seats(["us", "germany"])),
    ];
    for (ruleset, scenario, seats) in games {
        let help = help_of("helpme", ruleset, scenario, &seats);
        assert!(help.lines().count() > 40, "{ruleset}: {help}");
        let bad = ragged(&help);
        assert!(bad.is_empty(), "{ruleset}: ragged breaks {bad:#?}");
        let wide: Vec<&str> = help
            .lines()
            .filter(|l| l.chars().count() > 72 && !l.starts_with("    ") && !l.contains('|'))
            .collect();
        assert!(
            wide.is_empty(),
            "{ruleset}: lines over 72 columns {wide:#?}"
        );
    }
}

#[test]
fn the_ragged_check_catches_a_stub_left_by_a_long_source_line() {
    // The positive control: what the old layout made of an 80-column README line.
    let old = "A long README line that was wrapped alone at the edge of the mail, Old\n\
               Guard Charge and the rest of the sentence on the next source line.\n";
    assert_eq!(ragged(old).len(), 0, "a full first line is no stub");
    let stub = "A long README line that was wrapped alone at the edge of the mail\n\
                Old\nGuard Charge and the rest of the sentence.\n";
    assert_eq!(ragged(stub).len(), 2, "{:?}", ragged(stub));
}
