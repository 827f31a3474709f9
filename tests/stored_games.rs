//! Games stored by an earlier build replay and verify unchanged: one game of each ruleset,
//! played by mail through the daemon with random legal orders and silent seats, recorded in
//! `tests/fixtures/stored-games/<ruleset>-<seed>/` (journal, heads, host secret) by the build
//! of commit de64565, before the sequence of play moved onto the procedure table (issue 33
//! point 1). A change to a ruleset's rolls (labels, order, count), its state (every step's
//! digest is in the journal) or its canonical orders fails these tests.
//!
//! To record again (only when a change of state layout is meant, and said in the commit):
//! `cargo test --test kit stored_games::record -- --ignored` writes the folders afresh.

use std::path::PathBuf;

use despatch::rulesets::gear_krieg::GearKrieg;
use despatch::rulesets::la_bataille::LaBataille;
use despatch::rulesets::last_hundred_yards::LastHundredYards;
use despatch::rulesets::lone_star::LoneStar;
use despatch::rulesets::naval_rjw::NavalRjw;
use despatch::store::GameStore;
use despatch::verify;

use crate::kit::{self, Subject, Watch};

fn folder() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/stored-games")
}

/// Each ruleset's stored game: folder name, and the fewest steps it must hold.
const STORED: [(&str, u64); 5] = [
    ("naval-rjw-27", 20),
    ("gear-krieg-3", 40),
    ("la-bataille-4", 10),
    ("last-hundred-yards-3", 30),
    ("lone-star-3", 20),
];

fn store(name: &str) -> GameStore {
    GameStore {
        dir: folder().join(name),
        id: "rnd".to_string(),
    }
}

#[test]
fn every_rulesets_stored_game_replays_and_verifies() {
    for (name, fewest) in STORED {
        let (checked, findings) =
            verify::verify_store(&store(name), &despatch::rulesets::registry());
        assert!(findings.is_empty(), "{name}: {findings:?}");
        assert!(checked.steps >= fewest, "{name}: {checked:?}");
    }
}

/// Positive control: one roll's label changed in a stored journal is caught, so the test above
/// would see a ruleset that rolls differently.
#[test]
fn a_stored_journal_with_one_roll_relabelled_fails() {
    let tmp = tempfile::tempdir().unwrap();
    let from = folder().join("lone-star-3");
    for f in ["journal.jsonl", "heads.log", "host.secret"] {
        std::fs::copy(from.join(f), tmp.path().join(f)).unwrap();
    }
    let journal = std::fs::read_to_string(tmp.path().join("journal.jsonl")).unwrap();
    let changed = journal.replacen("turn-order card 1", "turn-order card 9", 1);
    assert_ne!(changed, journal, "the journal names the first card's roll");
    std::fs::write(tmp.path().join("journal.jsonl"), changed).unwrap();
    let store = GameStore {
        dir: tmp.path().to_path_buf(),
        id: "rnd".to_string(),
    };
    let (_, findings) = verify::verify_store(&store, &despatch::rulesets::registry());
    assert!(!findings.is_empty(), "a relabelled roll must be reported");
}

fn record_one<R: despatch::engine::Ruleset>(
    scenario: &'static str,
    seats: &[(&'static str, &'static str)],
    fewest: u64,
) {
    let recorded = std::fs::read_dir(folder())
        .into_iter()
        .flatten()
        .flatten()
        .any(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with(&format!("{}-", R::NAME))
        });
    if recorded {
        return; // kept from an earlier run: remove its folder to record it again
    }
    let s = Subject::<R> {
        keep: Some(folder()),
        ..Subject::shipped(scenario, seats)
    };
    let mut watch = Watch::default();
    // The first seed from 3 whose game lasts `fewest` steps or more; shorter ones are not kept.
    for seed in 3..40 {
        let played = kit::play::<R>(&s, seed, 4, 400, &mut watch);
        if played.steps >= fewest {
            eprintln!(
                "{}: seed {seed}, {} steps, over: {}",
                R::NAME,
                played.steps,
                played.over
            );
            return;
        }
        std::fs::remove_dir_all(folder().join(format!("{}-{seed}", R::NAME))).unwrap();
    }
    panic!("{}: no seed gave a game of {fewest} steps", R::NAME);
}

/// Records the stored games (see the module's head); not run by default.
#[test]
#[ignore = "records fixtures: run by hand, with the build the fixtures are to come from"]
fn record() {
    record_one::<NavalRjw>(
        "yellow-sea-1904",
        &[
            ("japan", "togo@mikasa.example"),
            ("russia", "vitgeft@tsesarevich.example"),
        ],
        20,
    );
    record_one::<GearKrieg>(
        "crossroads",
        &[
            ("us", "patton@third-army.example"),
            ("germany", "rommel@afrika.example"),
        ],
        40,
    );
    record_one::<LaBataille>(
        "teaching",
        &[
            ("france", "ney@grande-armee.example"),
            ("allies", "wellington@peninsula.example"),
        ],
        12,
    );
    record_one::<LastHundredYards>(
        "bridgehead",
        &[
            ("us", "able6@company-a.example"),
            ("germany", "kompanie@erste.example"),
        ],
        15,
    );
    record_one::<LoneStar>(
        "patrol",
        &[
            ("hays", "hays@rangers.example"),
            ("bowie", "bowie@navy.example"),
            ("von-arnim", "arnim@grenzer.example"),
            ("enver", "enver@sipahi.example"),
        ],
        20,
    );
}
