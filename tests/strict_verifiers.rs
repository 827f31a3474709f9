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
