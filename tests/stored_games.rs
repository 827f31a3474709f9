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
    ("naval-rjw-3", 20),
    ("gear-krieg-3", 40),
    ("la-bataille-3", 20),
    ("last-hundred-yards-3", 40),
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
        let (checked, findings) = verify::verify_store(&store(name), &despatch::rulesets::registry());
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
) {
    let s = Subject::<R> {
        keep: Some(folder()),
        ..Subject::shipped(scenario, seats)
    };
    let mut watch = Watch::default();
    let played = kit::play::<R>(&s, 3, 4, 400, &mut watch);
    assert!(played.steps > 10, "{}: {} steps", R::NAME, played.steps);
}

/// Records the stored games (see the module's head); not run by default.
#[test]
#[ignore = "records fixtures: run by hand, with the build the fixtures are to come from"]
fn record() {
    record_one::<NavalRjw>(
        "training",
        &[
            ("japan", "togo@mikasa.example"),
            ("russia", "vitgeft@tsesarevich.example"),
        ],
    );
    record_one::<GearKrieg>(
        "crossroads",
        &[
            ("us", "patton@third-army.example"),
            ("germany", "rommel@afrika.example"),
        ],
    );
    record_one::<LaBataille>(
        "teaching",
        &[
            ("france", "ney@grande-armee.example"),
            ("allies", "wellington@peninsula.example"),
        ],
    );
    record_one::<LastHundredYards>(
        "patrol",
        &[
            ("us", "able6@company-a.example"),
            ("germany", "kompanie@erste.example"),
        ],
    );
    record_one::<LoneStar>(
        "patrol",
        &[
            ("hays", "hays@rangers.example"),
            ("bowie", "bowie@navy.example"),
            ("von-arnim", "arnim@grenzer.example"),
            ("enver", "enver@sipahi.example"),
        ],
    );
}
