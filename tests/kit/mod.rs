//! The conformance kit every ruleset's tests call with one line (`kit::conforms(...)`): random
//! legal play through the real mail pipeline (daemon, store, journal, Maildirs) with silent
//! seats and deadlines, replay and `verify` from the store and from the mails; the canonical
//! round trip `parse(canonical(o)) == o` on every sample; a leak test of the ruleset's hidden
//! facts in every seat's view, map and mail, with a positive control; and a DATC-style table:
//! every numbered ruling of the ruleset's README is named by a test or listed as not yet covered;
//! and the mutation run's survivors in the ruleset's sources, each an equivalent with its reason.
#![allow(dead_code, unused_imports)]

pub mod commands;
mod leaks;
pub mod mutants;
mod play;
pub mod procedure;
mod rulings;

use std::path::PathBuf;

use despatch::engine::{Registry, Ruleset};

pub use leaks::{Secret, Watch};
pub use play::{play, play_with};
pub use rulings::{rulings, uncovered};

/// Lone Star's convention game (`tidal`): its eight seats and players, in the scenario's order.
pub const LONE_STAR_TIDAL: [(&str, &str); 8] = [
    ("hays", "hays@rangers.example"),
    ("travis", "travis@regulars.example"),
    ("smythe", "smythe@highlanders.example"),
    ("bowie", "bowie@navy.example"),
    ("von-arnim", "arnim@grenzer.example"),
    ("von-moltke", "moltke@jaeger.example"),
    ("enver", "enver@sipahi.example"),
    ("krupp", "krupp@guns.example"),
];

/// A ruleset under test and how to play it.
pub struct Subject<R: Ruleset> {
    /// The rulesets the daemon plays (the shipped ones, plus a test's own).
    pub registry: Registry,
    /// The folder holding `<ruleset>/` (README, ruleset.toml, scenarios).
    pub games_dir: PathBuf,
    pub scenario: &'static str,
    /// Seats and their players' addresses, in the scenario's seat order.
    pub seats: Vec<(&'static str, &'static str)>,
    /// The hidden facts of a state: for each, the seat that may see it (the others may not).
    pub secrets: fn(&R::State) -> Vec<Secret>,
    /// Random games to play, and the steps after which one stops.
    pub games: u64,
    pub max_steps: u64,
    /// Test sources of the ruleset, searched for `fn r<N>_…` tests naming its rulings.
    pub test_sources: Vec<&'static str>,
    /// Rulings of the README no test names yet (the list must be exactly that).
    pub not_yet_covered: Vec<u32>,
    /// The sequence of play's walk on the ruleset alone: games, and steps at most in each.
    pub walk: (u64, u64),
    /// Steps random play on this scenario cannot reach, each with why and the test that plays
    /// it instead (the list must be exactly the steps the walk missed).
    pub unreached_steps: Vec<(&'static str, &'static str)>,
    /// Where to keep each game's store once played (journal, heads, host secret), in a folder
    /// named `<ruleset>-<seed>`: how `stored_games.rs` records games with one build for
    /// later builds to replay. `None`: nothing is kept.
    pub keep: Option<PathBuf>,
}

impl<R: Ruleset> Subject<R> {
    /// A shipped ruleset, played from the repository's `games/`.
    pub fn shipped(scenario: &'static str, seats: &[(&'static str, &'static str)]) -> Self {
        Subject {
            registry: despatch::rulesets::registry(),
            games_dir: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("games"),
            scenario,
            seats: seats.to_vec(),
            secrets: |_| vec![],
            games: 2,
            max_steps: 400,
            test_sources: vec![],
            not_yet_covered: vec![],
            walk: (8, 600),
            unreached_steps: vec![],
            keep: None,
        }
    }

    fn readme(&self) -> String {
        let p = self.games_dir.join(R::NAME).join("README.md");
        std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
    }
}

/// Everything the kit checks, for one ruleset. Panics with the first failure.
pub fn conforms<R: Ruleset>(s: &Subject<R>) {
    // The ruling table: every numbered ruling named by a test, or listed as not yet covered.
    let readme = s.readme();
    let all = rulings(&readme);
    assert!(
        !all.is_empty(),
        "{}: the README numbers no rulings",
        R::NAME
    );
    let missing = uncovered(&all, &s.test_sources);
    assert_eq!(
        missing,
        s.not_yet_covered,
        "{}: rulings not named by any `fn r<N>_…` test (left) must be exactly the list of \
         not-yet-covered ones (right)",
        R::NAME
    );
    // Mutants of its sources no test kills: equivalents only, each with its reason (issue 28.5).
    mutants::check(&R::NAME.replace('-', "_"));
    // The sequence of play as data: whole, reached, followed, and printed in the README.
    procedure::check(s, s.walk.0, s.walk.1);
    // Random play by mail, with the leak test and the round trip at every step.
    let mut watch = leaks::Watch::default();
    // Soak runs, behind a flag: DESPATCH_SOAK_GAMES plays more games, DESPATCH_SOAK_SEED
    // starts the seeds elsewhere (CI plays the pinned few).
    let env = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<u64>().ok());
    let games = env("DESPATCH_SOAK_GAMES").unwrap_or(s.games);
    let base = env("DESPATCH_SOAK_SEED").unwrap_or(1000);
    for seed in 0..games {
        let silent_every = [0, 4, 7][(seed % 3) as usize];
        let played = play::<R>(s, base + seed, silent_every, s.max_steps, &mut watch);
        assert!(
            played.steps > 1,
            "{}: seed {seed} resolved only {} step(s)",
            R::NAME,
            played.steps
        );
        assert!(
            played.over,
            "{}: seed {seed} did not end within {} steps",
            R::NAME,
            s.max_steps
        );
    }
    watch.finish::<R>();
}
