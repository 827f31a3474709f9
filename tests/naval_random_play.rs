//! Long random legal play of Naval RJW through the real daemon, store and journal (the
//! conformance kit's loop): no panic, no dead end, no leak, replay and `verify` pass — for
//! hundreds of player turns over many games and seeds. Cases are bounded to keep the suite
//! fast; set DESPATCH_SOAK=1 for a long run. (Every ruleset's own shorter run is its
//! `conformance_*` test.) The leak watch looks for the conformance test's hidden facts
//! (unrevealed minefields, the sealed fire plan) in every seat's views and mails, and its
//! controls run: the hidden facts were met and showed to their owners, and a fact planted where
//! a seat can see it fails the watch.

use crate::conformance_naval::secrets;
use crate::kit;

use despatch::rulesets::naval_rjw::NavalRjw;
use kit::{Secret, Subject};
use proptest::prelude::*;

const NAVAL: [(&str, &str); 2] = [
    ("japan", "togo@mikasa.example"),
    ("russia", "vitgeft@tsesarevich.example"),
];

/// One naval game, watched for leaks; returns the player turns it lasted.
fn play_game(
    scenario: &'static str,
    seed: u64,
    silent_every: u64,
    max_steps: u64,
    watch: &mut kit::Watch,
) -> u64 {
    let s = Subject::<NavalRjw> {
        secrets,
        ..Subject::shipped(scenario, &NAVAL)
    };
    let played = kit::play(&s, seed, silent_every, max_steps, watch);
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
    let mut watch = kit::Watch::default();
    while steps < target_steps() {
        let scenario = if seed % 3 == 0 {
            "yellow-sea-1904"
        } else {
            "training"
        };
        steps += play_game(scenario, seed, 5, 400, &mut watch);
        games += 1;
        seed += 1;
    }
    eprintln!("played {games} games, {steps} steps");
    // Hidden facts were met, each showed in its owner's view, and mails were read.
    watch.finish::<NavalRjw>();
}

/// The control: a "hidden fact" that is in fact public (the flagship's name, which both seats
/// see) owned by one seat fails the watch at the first look.
#[test]
fn a_fact_shown_to_a_seat_that_may_not_know_it_fails_the_leak_watch() {
    let s = Subject::<NavalRjw> {
        secrets: |_| vec![Secret::new("russia", &["Mikasa"])],
        ..Subject::shipped("training", &NAVAL)
    };
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        kit::play(&s, 1, 0, 2, &mut kit::Watch::default());
    }));
    let why = caught.expect_err("the planted leak is caught");
    let why = why
        .downcast_ref::<String>()
        .cloned()
        .unwrap_or_else(|| why.downcast_ref::<&str>().unwrap_or(&"").to_string());
    assert!(
        why.contains("japan's view") && why.contains("only russia"),
        "{why}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, failure_persistence: None, .. ProptestConfig::default() })]
    #[test]
    fn any_seed_plays_to_an_end_that_verifies(seed in 1000u64..1_000_000, silent in prop_oneof![Just(0u64), Just(3u64), Just(7u64)]) {
        play_game(if seed % 2 == 0 { "training" } else { "yellow-sea-1904" }, seed, silent, 400, &mut kit::Watch::default());
    }
}
