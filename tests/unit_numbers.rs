//! Issue 30 point 6: every ruleset gives each seat the numbers its own units are ordered with
//! (`Ruleset::unit_numbers`, for `UNITS` and the welcome), one line per unit, and never a
//! unit of another seat; the numbers come from the ruleset's data tables (a changed table
//! changes the line).

use std::path::PathBuf;

use despatch::engine::Ruleset;
use despatch::rulesets::{
    gear_krieg::GearKrieg, la_bataille::LaBataille, last_hundred_yards::LastHundredYards,
    lone_star::LoneStar, naval_rjw::NavalRjw,
};

fn read(path: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("games")
        .join(path);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Each seat's unit-number lines at the start of `scenario`.
fn numbers<R: Ruleset>(scenario: &str, seats: &[&str]) -> Vec<(String, Vec<String>)> {
    let ids: Vec<String> = seats.iter().map(|s| s.to_string()).collect();
    let state = R::setup(
        &read(&format!("{}/ruleset.toml", R::NAME)),
        &read(&format!("{}/scenarios/{scenario}.toml", R::NAME)),
        &ids,
    )
    .unwrap();
    seats
        .iter()
        .map(|s| {
            let lines = R::unit_numbers(&state, s)
                .into_iter()
                .flat_map(|(_, l)| l)
                .collect();
            (s.to_string(), lines)
        })
        .collect()
}

/// The unit a line is about: its words before the first ` (` or `:`.
fn head(line: &str) -> &str {
    let end = line.find([' ', ':']).unwrap_or(line.len());
    &line[..end]
}

fn own_units_only(by_seat: &[(String, Vec<String>)]) {
    for (seat, lines) in by_seat {
        assert!(!lines.is_empty(), "{seat}: no unit numbers");
        for (other, theirs) in by_seat.iter().filter(|(o, _)| o != seat) {
            // Indented lines are a unit's details (a datacard's weapons), shared by classes.
            for t in theirs.iter().filter(|t| !t.starts_with(' ')) {
                let name = head(t);
                assert!(!name.is_empty(), "{other}: a line names no unit: {t:?}");
                assert!(
                    !lines.iter().any(|l| head(l) == name),
                    "{seat} is shown {other}'s {name}"
                );
            }
        }
    }
}

#[test]
fn every_ruleset_gives_each_seat_its_own_units_numbers() {
    own_units_only(&numbers::<NavalRjw>("training", &["japan", "russia"]));
    own_units_only(&numbers::<GearKrieg>("crossroads", &["us", "germany"]));
    own_units_only(&numbers::<LaBataille>("teaching", &["france", "allies"]));
    own_units_only(&numbers::<LastHundredYards>("patrol", &["us", "germany"]));
    own_units_only(&numbers::<LoneStar>(
        "patrol",
        &["hays", "bowie", "von-arnim", "enver"],
    ));
}

/// What the testers missed most: Last Hundred Yards ranges, Cohesion and firepower.
#[test]
fn last_hundred_yards_numbers_come_from_the_counter_table() {
    let lines = |ruleset: &str| {
        let state = LastHundredYards::setup(
            ruleset,
            &read("last-hundred-yards/scenarios/patrol.toml"),
            &["us".into(), "germany".into()],
        )
        .unwrap();
        LastHundredYards::unit_numbers(&state, "us")
            .into_iter()
            .flat_map(|(_, l)| l)
            .find(|l| l.starts_with("A1-1 "))
            .expect("A1-1's line")
    };
    let shipped = read("last-hundred-yards/ruleset.toml");
    let line = lines(&shipped);
    assert!(line.contains("Cohesion 5"), "{line}");
    assert!(line.contains("small arms 3 up to 6 hexes"), "{line}");
    assert!(line.contains("Assault Value 3"), "{line}");
    assert!(line.contains("MPs activated"), "{line}");
    // The US rifle squad's printed range changed in the table changes the line.
    let from = "name = \"US rifle squad\"\nnation = \"us\"\nkind = \"squad\"\nsteps = 2\n\
                values = { value = { cohesion = 5, sav = 3, sav_range = 6,";
    assert_eq!(shipped.matches(from).count(), 1, "the rifle squad's row");
    let changed = lines(&shipped.replace(from, &from.replace("sav_range = 6", "sav_range = 9")));
    assert!(changed.contains("small arms 3 up to 9 hexes"), "{changed}");
}
