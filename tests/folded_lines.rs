//! Issue 30 point 8: every line of every mail the demo and a strict game send is at most 72
//! columns (docs/dice-protocol.md, "Lines of 72 columns"), and the Rust and Python verifiers
//! read (a) such mails, (b) mails in the layout before folding (a fixture taken from the code
//! before it), (c) mails a client re-wrapped (Python's textwrap at 66 columns, or quoted), and
//! still catch (d) a forged die in the folded layout. A re-wrapping that cannot be undone is
//! named as such, never taken for a folder without dice. The browser half is in
//! tests/browser_verifier.rs.

use std::path::Path;
use std::process::Command;

use despatch::{report, verify};

use crate::demo_mails::{self, *};
use crate::strict_mails;

const WIDTH: usize = 72;

fn python_here() -> bool {
    let found = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    tool_present(found, "python3", "apt-get install python3")
}

/// The Python verifier on `folder`: (exit code, stdout).
fn python(folder: &Path) -> (Option<i32>, String) {
    let out = Command::new("python3")
        .arg(repo().join("tests/verifier/verify_mails.py"))
        .arg(folder)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// A board drawing's row: the map's own layout, which folding leaves alone.
fn drawing(line: &str) -> bool {
    let t = line.trim();
    (t.starts_with('|') || t.starts_with('+')) && (t.ends_with('|') || t.ends_with('+'))
}

/// Each line over 72 columns of the text parts under `folder`: (mails, folded lines, (file,
/// line)). Prints the census of lines that would be over 72 unfolded (as before folding), by
/// kind, for the record.
fn too_wide(folder: &Path) -> (usize, usize, Vec<(String, String)>) {
    let (mut mails, mut folded, mut wide) = (0, 0, Vec::new());
    let mut before = std::collections::BTreeMap::<String, usize>::new();
    for sub in ["", "new", "cur"] {
        let Ok(dir) = std::fs::read_dir(folder.join(sub)) else {
            continue;
        };
        for e in dir.flatten().filter(|e| e.path().is_file()) {
            let bytes = std::fs::read(e.path()).unwrap();
            // The mails that waited for this one come attached: their lines count too.
            let texts: Vec<String> = std::iter::once(raw_text_of(&bytes))
                .chain(
                    despatch::verify::attached_mails(&bytes)
                        .iter()
                        .map(|(_, inner)| raw_text_of(inner)),
                )
                .collect();
            for text in texts {
                mails += 1;
                folded += text.lines().filter(|l| l.ends_with(report::FOLD)).count();
                for l in report::unfold(&text).lines() {
                    if l.chars().count() > WIDTH {
                        let kind = if drawing(l) {
                            "board drawing row".to_string()
                        } else {
                            let words: Vec<&str> = l.split_whitespace().take(2).collect();
                            words.join(" ")
                        };
                        *before.entry(kind).or_default() += 1;
                    }
                }
                for l in text.lines() {
                    if l.chars().count() > WIDTH && !drawing(l) {
                        wide.push((e.file_name().to_string_lossy().into_owned(), l.into()));
                    }
                }
            }
        }
    }
    eprintln!(
        "{}: {mails} mails; over 72 columns unfolded: {before:?}; folded lines: {folded}; \
         over 72 as sent: {} (board rows aside)",
        folder.display(),
        wide.len()
    );
    (mails, folded, wide)
}

#[test]
fn every_line_the_demo_and_a_strict_game_send_is_at_most_72_columns() {
    let tmp = tempfile::tempdir().unwrap();
    finished_demo(tmp.path());
    let outbox = despatch::demo::demo_config(&tmp.path().join("demo").canonicalize().unwrap())
        .unwrap()
        .mail
        .outbox;
    let (mails, folded, wide) = too_wide(&outbox);
    assert!(mails > 15, "every mail the demo sent: {mails}");
    assert!(
        folded > mails,
        "the footer, digest and signature lines fold: {folded}"
    );
    assert!(wide.is_empty(), "{wide:#?}");
    let strict = tempfile::tempdir().unwrap();
    let (folder, _, _) = strict_mails::strict_game_mails(strict.path());
    let (mails, folded, wide) = too_wide(&folder);
    assert!(
        mails > 10 && folded > mails,
        "{mails} mails, {folded} folded"
    );
    assert!(wide.is_empty(), "{wide:#?}");
    // Control: the fixture of the layout before folding breaks the rule on every mail.
    let (_, folded, wide) = too_wide(&long_line_fixture());
    assert_eq!(folded, 0);
    assert!(wide.len() >= 9, "{wide:#?}");
}

/// The Rust verifier on `folder`: its counts, with no finding.
fn rust_clean(folder: &Path) -> verify::Checked {
    let (checked, findings) = verify::verify_mails(folder, None);
    assert!(findings.is_empty(), "{}: {findings:#?}", folder.display());
    checked
}

#[test]
fn the_rust_verifier_reads_folded_old_and_rewrapped_mails_and_catches_a_forged_die() {
    let tmp = tempfile::tempdir().unwrap();
    // (a) Folded mails.
    let folder = finished_demo(tmp.path());
    let new = rust_clean(&folder);
    assert!(new.steps > 0 && new.signatures == new.mails, "{new:?}");
    // (b) The layout before folding.
    let old = rust_clean(&long_line_fixture());
    assert_eq!((old.mails, old.steps, old.signatures), (3, 1, 3), "{old:?}");
    assert_eq!(old.digests, 1, "the receipt opened: {old:?}");
    if !python_here() {
        return;
    }
    // (c) Re-wrapped at 66 columns, and quoted after a re-wrap at 70: read back whole.
    let at66 = rewrapped(&folder, 66, false, &tmp.path().join("at66"));
    let changed = std::fs::read_dir(&at66)
        .unwrap()
        .flatten()
        .filter(|e| {
            std::fs::read(e.path()).unwrap() != std::fs::read(folder.join(e.file_name())).unwrap()
        })
        .count();
    assert!(changed > 3, "the client changed the mails: {changed}");
    let back = rust_clean(&at66);
    assert_eq!(
        (back.mails, back.steps, back.rolls, back.signatures),
        (new.mails, new.steps, new.rolls, new.signatures)
    );
    let quoted = rewrapped(&folder, 70, true, &tmp.path().join("quoted"));
    let back = rust_clean(&quoted);
    assert_eq!((back.steps, back.signatures), (new.steps, new.signatures));
    // A re-wrapping that cannot be undone (the old layout's 330-column lines at 66): named,
    // mail by mail.
    let lost = rewrapped(&long_line_fixture(), 66, false, &tmp.path().join("lost"));
    let (_, findings) = verify::verify_mails(&lost, None);
    assert_eq!(findings.len(), 3, "{findings:#?}");
    for f in &findings {
        assert!(f.place.starts_with("mail yellow-sea-"), "{f:?}");
        assert!(
            f.detail
                .contains("re-wrapped by the mail client: use the saved .eml"),
            "{f:?}"
        );
    }
    // (d) A forged die in the folded layout (re-folded and re-sealed): caught at its step.
    let (step, file, text) = results_mails(&folder)
        .into_iter()
        .find(|(_, _, t)| first_plain_roll(t).is_some())
        .unwrap();
    let (row, j, sides, first) = first_plain_roll(&text).unwrap();
    forge(&file, |t| {
        t.replacen(&row, &with_first_die_changed(&row, sides, first), 1)
    });
    let wide = too_wide(&folder).2;
    assert!(wide.is_empty(), "the forgery keeps the layout: {wide:#?}");
    let (_, findings) = verify::verify_mails(&folder, None);
    let name = file.file_name().unwrap().to_string_lossy().into_owned();
    assert!(
        findings
            .iter()
            .any(|f| f.place == format!("mail {name} (step {step})")
                && f.field == format!("rolls[{j}]")),
        "{findings:#?}"
    );
}

#[test]
fn the_python_verifier_reads_folded_old_and_rewrapped_mails_and_catches_a_forged_die() {
    if !python_here() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let folder = finished_demo(tmp.path());
    let summary = |stdout: &str| {
        stdout
            .lines()
            .find(|l| l.starts_with("OK: ") || l.starts_with("FAILED: "))
            .unwrap_or_default()
            .to_string()
    };
    // (a) Folded mails.
    let (code, stdout) = python(&folder);
    assert_eq!(code, Some(0), "{stdout}");
    let steps = summary(&stdout);
    let steps = steps
        .split(", ")
        .find(|p| p.ends_with(" steps"))
        .unwrap()
        .to_string();
    // (b) The layout before folding.
    let (code, stdout) = python(&long_line_fixture());
    assert_eq!(code, Some(0), "{stdout}");
    assert!(
        summary(&stdout).contains("3 mails, 3 seals, 3 signatures checked, 1 steps"),
        "{stdout}"
    );
    assert!(summary(&stdout).contains("1 receipts opened"), "{stdout}");
    // (c) Re-wrapped at 66 and quoted: the same steps, every seal and signature.
    for (width, quote) in [(66, false), (70, true)] {
        let to = rewrapped(&folder, width, quote, &tmp.path().join(format!("w{width}")));
        let (code, stdout) = python(&to);
        assert_eq!(code, Some(0), "{width} {quote}: {stdout}");
        assert!(summary(&stdout).contains(&steps), "{steps}: {stdout}");
        assert!(summary(&stdout).contains(" 0 mismatch(es)"), "{stdout}");
    }
    let lost = rewrapped(&long_line_fixture(), 66, false, &tmp.path().join("lost"));
    let (code, stdout) = python(&lost);
    assert_eq!(code, Some(1), "{stdout}");
    assert_eq!(
        stdout
            .lines()
            .filter(|l| l.starts_with("MISMATCH: mail yellow-sea-")
                && l.contains("re-wrapped by the mail client: use the saved .eml"))
            .count(),
        3,
        "{stdout}"
    );
    assert!(!stdout.contains("nothing to check"), "{stdout}");
    // (d) A forged die in the folded layout: caught, naming the mail and the step.
    let (step, file, text) = results_mails(&folder)
        .into_iter()
        .find(|(_, _, t)| first_plain_roll(t).is_some())
        .unwrap();
    let (row, _, sides, first) = first_plain_roll(&text).unwrap();
    demo_mails::forge(&file, |t| {
        t.replacen(&row, &with_first_die_changed(&row, sides, first), 1)
    });
    let (code, stdout) = python(&folder);
    assert_eq!(code, Some(1), "{stdout}");
    let name = file.file_name().unwrap().to_string_lossy().into_owned();
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with(&format!("MISMATCH: mail {name} (step {step}), die "))),
        "{stdout}"
    );
}
