//! Lone Star through the conformance kit: random multi-player play by mail on the club-night
//! scenario (four seats, two sides) with replay and verify, the canonical round trip, the
//! leak test of hidden units and standing orders (with its positive control), and the ruling
//! table; behind the soak flag, the eight-player convention game played by mail to its end.

use crate::kit;

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

/// The Lone Star test files, where the ruling table looks for a test of every ruling.
const TESTS: [&str; 12] = [
    include_str!("lone_star_examples.rs"),
    include_str!("lone_star_rulings_move.rs"),
    include_str!("lone_star_rulings_fire.rs"),
    include_str!("lone_star_rulings_turn.rs"),
    include_str!("lone_star_pipeline.rs"),
    include_str!("lone_star_wagons.rs"),
    include_str!("lone_star_machines.rs"),
    include_str!("lone_star_gaps.rs"),
    include_str!("lone_star_legality.rs"),
    include_str!("lone_star_leftovers.rs"),
    include_str!("lone_star_zeppelins_mortars.rs"),
    include_str!("lone_star_campaign.rs"),
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
        test_sources: TESTS.to_vec(),
        not_yet_covered: vec![],
        ..Subject::shipped("patrol", &SEATS)
    });
}

/// Brazos Crossing, eight players, windwagon, machines and all, played by mail to its end
/// with replay and verify. It takes minutes, so it runs only behind the soak flag:
/// `DESPATCH_SOAK_GAMES=1 cargo test --test lone_star conformance_lone_star`.
#[test]
fn lone_star_convention_game_by_mail_soak() {
    if std::env::var("DESPATCH_SOAK_GAMES").is_err() {
        eprintln!("skipped: set DESPATCH_SOAK_GAMES=1 to play the eight-player game by mail");
        return;
    }
    let started = std::time::Instant::now();
    kit::conforms(&Subject::<LoneStar> {
        secrets,
        games: 1,
        max_steps: 400,
        test_sources: TESTS.to_vec(),
        not_yet_covered: vec![],
        ..Subject::shipped("tidal", &kit::LONE_STAR_TIDAL)
    });
    eprintln!(
        "Lone Star convention game by mail (8 players): {:.0} s",
        started.elapsed().as_secs_f64()
    );
}
