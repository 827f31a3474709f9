//! Long random legal play of Naval RJW through the real daemon, store and journal (the
//! conformance kit's loop): no panic, no dead end, no leak, replay and `verify` pass — for
//! hundreds of player turns over many games and seeds. Cases are bounded to keep the suite
//! fast; set DESPATCH_SOAK=1 for a long run. (Every ruleset's own shorter run is its
//! `conformance_*` test.)

use crate::kit;

use despatch::rulesets::naval_rjw::NavalRjw;
use kit::Subject;
use proptest::prelude::*;

const NAVAL: [(&str, &str); 2] = [
    ("japan", "togo@mikasa.example"),
    ("russia", "vitgeft@tsesarevich.example"),
];

/// One naval game; returns the player turns it lasted.
fn play_game(scenario: &'static str, seed: u64, silent_every: u64, max_steps: u64) -> u64 {
    let s = Subject::<NavalRjw>::shipped(scenario, &NAVAL);
    let mut watch = kit::Watch::default();
    let played = kit::play(&s, seed, silent_every, max_steps, &mut watch);
    assert!(
        played.over,
        "seed {seed}: the game ends within {max_steps} steps"
    );
    played.steps
}

fn target_steps() -> u64 {
    if std::env::var("DESPATCH_SOAK").is_ok() {
        10_000
    } else {
        500
    }
}

#[test]
fn hundreds_of_player_turns_of_random_legal_play() {
    let mut steps = 0;
    let mut seed = 1;
    let mut games = 0;
    while steps < target_steps() {
        let scenario = if seed % 3 == 0 {
            "yellow-sea-1904"
        } else {
            "training"
        };
        steps += play_game(scenario, seed, 5, 400);
        games += 1;
        seed += 1;
    }
    eprintln!("played {games} games, {steps} steps");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, failure_persistence: None, .. ProptestConfig::default() })]
    #[test]
    fn any_seed_plays_to_an_end_that_verifies(seed in 1000u64..1_000_000, silent in prop_oneof![Just(0u64), Just(3u64), Just(7u64)]) {
        play_game(if seed % 2 == 0 { "training" } else { "yellow-sea-1904" }, seed, silent, 400);
    }
}
