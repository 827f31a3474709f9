//! Issue 30 point 1: a counter never hides its own hex number. Every shipped scenario of every
//! ruleset, at its opening and after two rounds of scripted orders, as a spectator and as each
//! seat sees it: on a hex map no hex number's box (the font's whole ascent and descent) meets
//! the box of a counter (body and facing wedge) standing in the same hex. The boxes are the
//! layout the drawing itself uses (`render::hex_numbers_and_counters`).

use despatch::engine::Viewer;
use despatch::render;

use crate::phone_map_in_browser::{LARGEST, play_round, start};

/// The scenarios not in `LARGEST`, with their seats.
const OTHERS: &[(&str, &str, &[&str])] = &[
    ("naval-rjw", "training", &["japan", "russia"]),
    (
        "lone-star",
        "patrol",
        &["hays", "bowie", "von-arnim", "enver"],
    ),
    ("lone-star", "teaching", &["hays", "von-arnim"]),
    ("la-bataille", "teaching", &["france", "allies"]),
    ("last-hundred-yards", "patrol", &["us", "germany"]),
];

fn overlap(a: &[f64; 4], b: &[f64; 4]) -> bool {
    a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]
}

#[test]
fn no_counter_covers_its_own_hex_number_in_any_scenario() {
    let shipped = |r: &str| {
        std::fs::read_dir(format!(
            "{}/games/{r}/scenarios",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
        .count()
    };
    let mut hexes_with_counters = 0;
    for (i, (ruleset, scenario, seats)) in LARGEST.iter().chain(OTHERS).enumerate() {
        let listed = LARGEST
            .iter()
            .chain(OTHERS)
            .filter(|l| l.0 == *ruleset)
            .count();
        assert_eq!(
            listed,
            shipped(ruleset),
            "{ruleset}: every scenario is listed"
        );
        let game: &'static str = Box::leak(format!("hexes{i}").into_boxed_str());
        let mut w = start(game, ruleset, scenario, seats);
        for round in 0..3 {
            if round > 0 {
                play_round(&mut w);
            }
            let g = w.daemon.open_game(game).unwrap().game;
            let viewers = std::iter::once(Viewer::Spectator)
                .chain(seats.iter().map(|s| Viewer::Seat(s.to_string())));
            for v in viewers {
                let Some(scene) = g.view(&v).map else {
                    continue;
                };
                for (number, bx, counters) in render::hex_numbers_and_counters(&scene) {
                    for c in &counters {
                        assert!(
                            !overlap(&bx, c),
                            "{ruleset} {scenario} round {round} {v:?}: hex {number} at {bx:?} \
                             is under a counter at {c:?}"
                        );
                    }
                    hexes_with_counters += usize::from(!counters.is_empty());
                }
            }
        }
    }
    // The check met counters (on La Bataille's and Last Hundred Yards' hex maps).
    assert!(hexes_with_counters > 20, "{hexes_with_counters}");
}
