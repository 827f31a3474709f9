//! Issue 17 with strict dice (point 1 meets points 2 and 3): the independent Python verifier
//! and the browser page take each strict seat's `r_seat_k` into `S_k`, agree with the Rust
//! verifier on a strict game's mails, and catch a forged `r` (re-sealed, so only the seed check
//! can) at its step. The browser half is in tests/browser_verifier.rs.

use crate::demo_mails;
use crate::strict_mails;

use std::path::Path;
use std::process::Command;

use strict_mails::{forged_r, mail_with_strict_r, strict_game_mails};

fn python_here() -> bool {
    let found = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    demo_mails::tool_present(found, "python3", "apt-get install python3")
}

fn script(folder: &Path) -> (Option<i32>, String) {
    let out = Command::new("python3")
        .arg(demo_mails::repo().join("tests/verifier/verify_mails.py"))
        .arg(folder)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn a_strict_games_mails_verify_in_python_and_a_forged_r_fails_its_seed() {
    if !python_here() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let (folder, steps, _) = strict_game_mails(tmp.path());
    let (code, stdout) = script(&folder);
    assert_eq!(code, Some(0), "{stdout}");
    let summary = stdout.lines().find(|l| l.starts_with("OK: ")).unwrap();
    assert!(summary.contains(&format!(" {steps} steps")), "{summary}");
    assert!(summary.contains(" 3 journal steps"), "{summary}");

    // A forged r, re-sealed: the seal holds, and S_k no longer comes out of the inputs.
    let (file, line) = mail_with_strict_r(&folder);
    demo_mails::forge(&file, |t| t.replacen(&line, &forged_r(&line), 1));
    let (code, stdout) = script(&folder);
    assert_eq!(code, Some(1), "{stdout}");
    let name = file.file_name().unwrap().to_string_lossy().into_owned();
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with(&format!("MISMATCH: mail {name} (step ")) && l.contains("S_")),
        "{stdout}"
    );
}

#[test]
fn a_lock_shown_to_a_seat_early_is_equivocation_in_rust_and_in_python() {
    let tmp = tempfile::tempdir().unwrap();
    let (folder, _, _) = strict_game_mails(tmp.path());
    let python = python_here();
    if python {
        let (code, stdout) = script(&folder);
        assert_eq!(code, Some(0), "the genuine mails alone: {stdout}");
    }
    let step = strict_mails::forged_early_lock(&folder);
    let registry = despatch::rulesets::registry().with::<crate::toy::Bids>();
    let (_, found) =
        despatch::verify::verify_mails_with(&folder, Some(crate::strict_world::GAME), &registry);
    let said = format!("{found:?}");
    assert!(
        said.contains(&format!("lock of step {step}")) && said.contains("equivocation"),
        "{said}"
    );
    assert!(
        !said.contains("Mail-Signature"),
        "both locks are signed: {said}"
    );
    if python {
        let (code, stdout) = script(&folder);
        assert_eq!(code, Some(1), "{stdout}");
        assert!(
            stdout
                .lines()
                .any(|l| l.contains(&format!("lock of step {step}, equivocation"))),
            "{stdout}"
        );
    }
}

/// The Rust verifier's findings for `folder` and its count of bound reveals checked.
fn rust_verify(folder: &Path) -> (despatch::verify::Checked, String) {
    let registry = despatch::rulesets::registry().with::<crate::toy::Bids>();
    let (checked, found) =
        despatch::verify::verify_mails_with(folder, Some(crate::strict_world::GAME), &registry);
    (checked, format!("{found:?}"))
}

/// Ruling S11 in the independent verifier: the seats' openings come after the game-over mail
/// (past its journal's end) and are checked against the anchors and the results mails, with the
/// Rust verifier's count; the store's journal checks its `strict_opened` events the same way.
#[test]
fn bound_reveals_check_in_python_against_the_openings_with_the_rust_count() {
    if !python_here() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let (folder, _, _) = strict_game_mails(tmp.path());
    let (checked, _) = rust_verify(&folder);
    let bound = checked.bound_reveals;
    assert_eq!(bound, 6, "3 steps of 2 strict seats: {checked:?}");
    let (code, stdout) = script(&folder);
    assert_eq!(code, Some(0), "{stdout}");
    let summary = stdout.lines().find(|l| l.starts_with("OK: ")).unwrap();
    assert!(
        summary.contains(&format!(", {bound} bound reveals checked")),
        "{summary}"
    );
    assert!(!stdout.contains("are not checked"), "{stdout}");
    // The store's journal, with its strict_opened events after game_ended, beside the mails.
    let out = Command::new("python3")
        .arg(demo_mails::repo().join("tests/verifier/verify_mails.py"))
        .arg(&folder)
        .arg(tmp.path().join("journal.jsonl"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains(&format!(", {bound} journal bound reveals checked")),
        "{stdout}"
    );
    // The journal alone: an opened element changed is caught by its own reveals and locks.
    let journal = std::fs::read_to_string(tmp.path().join("journal.jsonl")).unwrap();
    let opened = journal
        .lines()
        .find(|l| l.contains("strict_opened") && l.contains("\"red-1\""))
        .expect("red-1's strict_opened in the store's journal");
    let element = &opened.split("\"element\":\"").nth(1).unwrap()[..64];
    let forged = tmp.path().join("forged.jsonl");
    std::fs::write(&forged, journal.replacen(element, &forged_r(element), 1)).unwrap();
    let (code, stdout) = script(&forged);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(
        stdout.lines().any(|l| l.starts_with("MISMATCH: journal ")
            && l.contains(
                "(strict_opened), reveal 3 (step 3), strict r red-1: expected H(strict-bind"
            )),
        "{stdout}"
    );
    let (code, stdout) = script(&tmp.path().join("journal.jsonl"));
    assert_eq!(code, Some(0), "{stdout}");
    assert!(
        stdout.contains(&format!(", {bound} journal bound reveals checked")),
        "{stdout}"
    );
    // Without the opening mails, the reveals are unchecked: said, and no mismatch.
    let bare = tmp.path().join("bare");
    crate::forgery::copy_folder(&folder, &bare);
    for e in std::fs::read_dir(&bare).unwrap().flatten() {
        let text = demo_mails::text_of(&std::fs::read(e.path()).unwrap());
        if text.contains("STRICT DICE OPENED\n") {
            std::fs::remove_file(e.path()).unwrap();
        }
    }
    let (code, stdout) = script(&bare);
    assert_eq!(code, Some(0), "{stdout}");
    assert!(
        stdout.contains("game strict-1: red-1's bound strict reveals are not checked"),
        "{stdout}"
    );
    assert!(stdout.contains(", 0 bound reveals checked"), "{stdout}");
    let (checked, _) = rust_verify(&bare);
    assert!(
        checked.unopened.contains(&"red-1".to_string()),
        "{checked:?}"
    );
}

/// The host edits red-1's opening mail and signs it anew (seal and signature hold): Python and
/// Rust name the reveal whose element breaks the chain, the steps whose reveal does not bind
/// to its lock, and the step the opening no longer lists.
#[test]
fn an_edited_opening_fails_in_python_and_in_rust_naming_the_reveal_or_step() {
    use strict_mails::{OpeningEdit, forged_opening};
    let tmp = tempfile::tempdir().unwrap();
    let (genuine, _, _) = strict_game_mails(tmp.path());
    let python = python_here();
    for (n, edit) in [
        OpeningEdit::LastElement,
        OpeningEdit::SwapSteps,
        OpeningEdit::DropLast,
    ]
    .into_iter()
    .enumerate()
    {
        let folder = tmp.path().join(format!("edit-{n}"));
        crate::forgery::copy_folder(&genuine, &folder);
        let (file, last) = forged_opening(&folder, edit);
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let (_, rust) = rust_verify(&folder);
        assert!(!rust.contains("Mail-Signature"), "signed anew: {rust}");
        let (python_line, rust_words): (String, Vec<String>) = match edit {
            OpeningEdit::LastElement => (
                format!("MISMATCH: mail {name} (opening of red-1), reveal {last}: expected e_{last} hashing once to e_{}", last - 1),
                vec![format!("reveal {last}"), format!("e_{last} does not hash to e_{}", last - 1)],
            ),
            OpeningEdit::SwapSteps => (
                "(step 1), strict r red-1: expected H(strict-bind, …) of red-1's opened e_2 and L_1".into(),
                vec!["step 1".into(), "strict r red-1".into(), "opened e_2 and L_1".into()],
            ),
            OpeningEdit::DropLast => (
                format!("(step {last}), strict r red-1: expected a reveal red-1's opening lists"),
                vec![format!("opening lists no reveal for step {last}")],
            ),
        };
        for w in rust_words {
            assert!(rust.contains(&w), "{w}: {rust}");
        }
        if python {
            let (code, stdout) = script(&folder);
            assert_eq!(code, Some(1), "{stdout}");
            assert!(
                stdout
                    .lines()
                    .any(|l| l.starts_with("MISMATCH: ") && l.contains(&python_line)),
                "{python_line}: {stdout}"
            );
            assert!(!stdout.contains("Mail-Signature"), "{stdout}");
            assert!(!stdout.contains("Mail-Digest"), "{stdout}");
        }
    }
}
