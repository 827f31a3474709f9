//! A game store copied to a folder with another name still verifies (issue 15 point 8): the
//! game's id comes from its journal, not from the folder, through `despatch verify <folder>`
//! as an auditor would run it; a copy with one journal byte changed does not (the control).

use crate::world;

use std::path::Path;
use std::process::Command;

use world::*;

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}

fn verify(folder: &Path) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_despatch"))
        .arg("verify")
        .arg(folder)
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

#[test]
fn a_store_copied_under_another_name_verifies_and_a_changed_copy_does_not() {
    let mut w = world("training");
    w.send("japan", "FLAGSHIP Mikasa\n");
    w.send("russia", "FLAGSHIP Tsesarevich\n");
    let copies = tempfile::tempdir().unwrap();
    let copy = copies.path().join("archive-of-the-school-game");
    copy_dir(&w.daemon.data.game(GAME).dir, &copy);
    let (ok, text) = verify(&copy);
    assert!(ok && text.starts_with("OK: game store"), "{text}");
    assert!(text.contains("rolls re-derived"), "{text}");

    let tampered = copies.path().join("tampered");
    copy_dir(&copy, &tampered);
    let journal = tampered.join("journal.jsonl");
    let text = std::fs::read_to_string(&journal).unwrap();
    std::fs::write(&journal, text.replacen("Mikasa", "Asahi", 1)).unwrap();
    let (ok, text) = verify(&tampered);
    assert!(!ok, "a changed journal verified: {text}");
}
