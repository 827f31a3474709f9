//! Lone Star through the conformance kit: random multi-player play by mail on the club-night
//! scenario (four seats, two sides) with replay and verify, the canonical round trip, the
//! leak test of hidden units and standing orders (with its positive control), and the ruling
//! table.

mod kit;

use despatch::rulesets::lone_star::LoneStar;
use despatch::rulesets::lone_star::state::State;
use despatch::rulesets::lone_star::view::standing_lines;
use kit::{Secret, Subject};

/// The club-night scenario: four players, two a side (the eight-player convention game is
/// played to its end on the ruleset alone in `lone_star_pipeline.rs`, to keep this under budget).
const SEATS: [(&str, &str); 4] = [
    ("hays", "hays@rangers.example"),
    ("bowie", "bowie@navy.example"),
    ("von-arnim", "arnim@grenzer.example"),
    ("enver", "enver@sipahi.example"),
];

/// What only one seat may know: where its hidden units are, and its standing orders.
fn secrets(st: &State) -> Vec<Secret> {
    let mut out = Vec::new();
    for u in st.units.iter().filter(|u| u.alive()) {
        if u.hidden {
            out.push(Secret::new(&u.seat, &[&u.name, "HIDDEN at"]));
        }
        for line in standing_lines(u) {
            out.push(Secret::new(&u.seat, &[&line]));
        }
    }
    out
}

#[test]
fn lone_star_conforms() {
    kit::conforms(&Subject::<LoneStar> {
        secrets,
        games: 2,
        max_steps: 120,
        test_sources: vec![
            include_str!("lone_star_golden.rs"),
            include_str!("lone_star_pipeline.rs"),
        ],
        not_yet_covered: vec![],
        ..Subject::shipped("patrol", &SEATS)
    });
}
