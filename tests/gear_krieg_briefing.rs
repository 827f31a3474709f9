//! Gear Krieg players are told what they play for and with (issue 10): the scenario's victory
//! conditions and each of their units' datacard values, in the welcome (text and HTML) and in
//! the HELP reply — and only their own units' cards.

use crate::table;

use despatch::daemon::Intake;
use table::table;

#[test]
fn the_welcome_and_help_carry_victory_conditions_and_the_seats_datacards() {
    let mut t = table(
        "gear-krieg",
        "crossroads",
        [
            ("us", "patton@third-army.example"),
            ("germany", "rommel@afrika.example"),
        ],
    );
    let welcome = t
        .received()
        .into_iter()
        .find(|m| m.0.contains("Welcome"))
        .unwrap();
    let (help_out, help) = t.send("HELP\n");
    assert!(matches!(help_out, Intake::Help { .. }));
    let (mine, theirs) = if t.seat == "us" {
        ("General-1", "Valkurie-1")
    } else {
        ("Valkurie-1", "General-1")
    };
    for (what, text) in [
        ("welcome text", &welcome.1),
        ("welcome HTML", &welcome.2),
        ("HELP", &help),
    ] {
        for needle in [
            "WHAT YOU PLAY FOR",
            "rounds",
            "victory points",
            "Objective:",
            "Armor",
            "accuracy",
            "base range",
            "ROF",
            "ammunition",
            mine,
        ] {
            let needle_html = needle.to_lowercase();
            assert!(
                text.contains(needle) || text.to_lowercase().contains(&needle_html),
                "{what} lacks {needle:?}"
            );
        }
        assert!(
            !text
                .lines()
                .any(|l| l.contains(theirs) && l.contains("Armor ")),
            "{what} shows the other side's datacard"
        );
        assert!(
            text.lines()
                .any(|l| l.contains(mine) && l.contains("Armor ")),
            "{what}: own card"
        );
    }
}
