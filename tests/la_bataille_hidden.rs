//! Hidden information of the cavalry charge (issue 28): a charge's target is the charger's own
//! until it is declared within two hexes of it (seed p.6 step 3). The test plays the same charge
//! at two different targets and compares everything the enemy seat is shown, mail view and
//! map alike: before the declaration the two games must look the same to it. The controls show
//! the comparison can see a target: the charging seat's own views differ, and so do the
//! enemy's once the target is declared.

use crate::lbt;

use despatch::engine::{Ruleset, Viewer};
use despatch::rulesets::la_bataille::LaBataille;
use lbt::*;

/// Cuir (French heavy cavalry) at 0509 faces two Prussian stacks, North at 0505 (of `class`)
/// and East infantry at 0705; the same charge is ordered at either.
fn table(class: &str) -> Table {
    Table::new(&field(
        &[
            (
                "france",
                "Cuir",
                "heavy_cavalry",
                "French",
                "0509",
                "N",
                "line",
                3,
                9,
            ),
            (
                "allies", "North", class, "Prussian", "0505", "S", "line", 3, 8,
            ),
            (
                "allies",
                "East",
                "line_infantry",
                "Prussian",
                "0705",
                "S",
                "line",
                3,
                8,
            ),
        ],
        "",
    ))
}

/// Everything `seat` is shown, as one text (the view, its log, sections and map).
fn seen(t: &Table, seat: &str) -> String {
    let v = LaBataille::view(&t.st, &Viewer::Seat(seat.to_string()));
    serde_json::to_string(&v).expect("a view serialises")
}

#[test]
fn r37_the_defender_cannot_tell_an_undeclared_charge_target_at_the_charge_marker() {
    // The Charge marker 4 hexes from North: the Prussians are asked about squares (p.6
    // step 2) while the target is not yet declared.
    let mut games = Vec::new();
    for target in ["0505", "0705"] {
        let mut t = table("line_infantry");
        t.play_on(
            &[
                ("france", &format!("CHARGE Cuir AT {target}\n")),
                ("allies", "OPPORTUNITY FIRE OFF\nREACTION NEVER\n"),
            ],
            &[],
        );
        let (seat, text) = t.asked().expect("the square question is asked");
        assert_eq!(seat, "allies", "{text}");
        assert!(!text.contains(target), "{text}");
        games.push(t);
    }
    assert_eq!(
        seen(&games[0], "allies"),
        seen(&games[1], "allies"),
        "the Prussians' view tells the two charges apart"
    );
    // Control: the French seat sees its own target, so the comparison does see a difference.
    assert_ne!(seen(&games[0], "france"), seen(&games[1], "france"));
    assert!(seen(&games[0], "france").contains("Cuir on 0505"));
}

#[test]
fn r37_the_defender_cannot_tell_an_undeclared_target_when_asked_about_a_reaction_charge() {
    let mut games = Vec::new();
    for target in ["0505", "0705"] {
        // North is light cavalry facing S: at 0508, 3 hexes from it, the charge is in its
        // Reaction Zone and not yet within 2 hexes of either target.
        let mut t = table("light_cavalry");
        t.play_on(
            &[
                ("france", &format!("CHARGE Cuir AT {target} VIA 0508\n")),
                ("allies", "OPPORTUNITY FIRE OFF\nSQUARE NEVER\n"),
            ],
            &[],
        );
        games.push(t);
    }
    let (seat, text) = games[0].asked().expect("a reaction is asked");
    assert_eq!(seat, "allies", "{text}");
    assert!(text.contains("Reaction Zone of North"), "{text}");
    assert!(text.contains("(target not yet declared)"), "{text}");
    assert_eq!(games[1].asked().map(|x| x.1), Some(text));
    assert_eq!(
        seen(&games[0], "allies"),
        seen(&games[1], "allies"),
        "the Prussians' view tells the two charges apart"
    );
    assert_ne!(seen(&games[0], "france"), seen(&games[1], "france"));
    // Once the charge comes within two hexes the target is declared, and the Prussians see it.
    let log = games[0].play_on(&[("allies", "NO REACTION\nREACTION NEVER\n")], &[]);
    assert_has(&log, "C1: within 2 hexes, Cuir declare 0505 the target");
    assert!(seen(&games[0], "allies").contains("declare 0505 the target"));
}
