//! Games created before a change keep verifying after it: journals and mails written by an
//! earlier build (despatch-dice/v1) are replayed here. A change to a ruleset's state layout,
//! its roll labels, its canonical orders or the journal's event format fails these tests.
//!
//! The fixtures were made by `despatch demo` (Naval, Yellow Sea) and by random legal play of
//! Gear Krieg's crossroads scenario through the daemon, both with the build of commit e4bf488.

use std::path::PathBuf;

use despatch::store::GameStore;
use despatch::verify;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/legacy-v1")
        .join(name)
}

fn store(name: &str) -> GameStore {
    GameStore {
        dir: fixture(name),
        id: name.to_string(),
    }
}

#[test]
fn a_v1_naval_game_store_still_verifies() {
    let (checked, findings) =
        verify::verify_store(&store("yellow-sea"), &despatch::rulesets::registry());
    assert!(findings.is_empty(), "{findings:?}");
    assert!(checked.steps > 10 && checked.rolls > 100, "{checked:?}");
}

#[test]
fn a_v1_gear_krieg_game_store_still_verifies() {
    let (checked, findings) =
        verify::verify_store(&store("crossroads-legacy"), &despatch::rulesets::registry());
    assert!(findings.is_empty(), "{findings:?}");
    assert!(checked.steps > 50, "{checked:?}");
}

#[test]
fn v1_mails_still_verify_and_a_changed_byte_is_caught() {
    let dir = fixture("yellow-sea-mails-russia");
    let (checked, findings) = verify::verify_mails(&dir, None);
    assert!(findings.is_empty(), "{findings:?}");
    assert_eq!(checked.mails, 4);
    // Positive control: the same folder with one digit of a roll changed must fail.
    let tmp = tempfile::tempdir().unwrap();
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        let mut bytes = std::fs::read(&p).unwrap();
        if p.file_name()
            .unwrap()
            .to_string_lossy()
            .contains("000004-results")
        {
            let text = String::from_utf8_lossy(&bytes).into_owned();
            // The text part is quoted-printable: `L_1 =3D 5077…`; flip the lock's first digit.
            let i = text.find("\nL_1 =3D ").expect("a dice section") + "\nL_1 =3D ".len();
            bytes[i] = if bytes[i] == b'0' { b'1' } else { b'0' };
        }
        std::fs::write(tmp.path().join(p.file_name().unwrap()), bytes).unwrap();
    }
    let (_, findings) = verify::verify_mails(tmp.path(), None);
    assert!(!findings.is_empty(), "a changed lock must be reported");
}
