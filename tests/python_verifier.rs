//! Issue 17.3: a second, independent verifier. `tests/verifier/verify_mails.py` (Python, standard
//! library only, written from docs/dice-protocol.md) re-derives a demo game's onion chain, locks,
//! seeds and every die from one player's mails; it must agree with the Rust verifier's counts,
//! pass the protocol's known-answer vectors, and fail, naming the step, on a forged die or reveal.
//! Issue 29: it checks every mail's Ed25519 signature (ed25519.py, from RFC 8032) and holds a
//! folder, and with `--compare` several seats' folders, to one game (points 1 and 2).

use std::path::Path;
use std::process::{Command, Output};

use despatch::verify;

use crate::demo_mails;
use crate::forgery::{copy_folder, host_mail_key, rerolled_results, resign, unsigned};
use demo_mails::*;

fn python_here() -> bool {
    let found = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    tool_present(
        found,
        "python3",
        "apt-get install python3, or any Python 3.11",
    )
}

/// Runs the script; (exit status, stdout).
fn script(args: &[&std::ffi::OsStr]) -> (Output, String) {
    let out = Command::new("python3")
        .arg(repo().join("tests/verifier/verify_mails.py"))
        .args(args)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    (out, stdout)
}

fn on(folder: &Path) -> (Output, String) {
    script(&[folder.as_os_str()])
}

/// A count from the summary line: `… 12 steps, … 40 rolls, 57 dice checked, …`.
fn count(stdout: &str, what: &str) -> u64 {
    let summary = stdout
        .lines()
        .find(|l| l.starts_with("OK: ") || l.starts_with("FAILED: "))
        .unwrap_or_else(|| panic!("no summary line in:\n{stdout}"));
    summary
        .split(", ")
        .find_map(|part| {
            part.strip_suffix(what)?
                .trim()
                .rsplit(' ')
                .next()?
                .parse()
                .ok()
        })
        .unwrap_or_else(|| panic!("no `{what}` count in {summary:?}"))
}

#[test]
fn the_script_reproduces_the_protocols_known_answer_vectors() {
    if !python_here() {
        return;
    }
    let (out, stdout) = script(&["--self-test".as_ref()]);
    assert!(out.status.success(), "{stdout}");
    // ChaCha20 (3), v2 (15) and v1 (13) vectors, as the protocol page lists them; RFC 8032's
    // TEST 1-3 (public key, signature: 6) and the page's mail signature (K, M, the signature,
    // and two forgeries of it that must fail: 5); the bound strict reveals' (e_1, e_2, three
    // r, L', S_1: 7); the folded worked example of "Lines of 72 columns" (width, digest,
    // unfolded footer and Parts entry, signature: 5).
    assert!(
        stdout.contains("OK: 54 known-answer vectors checked"),
        "{stdout}"
    );
    // Positive control: a page with one vector changed fails the self-test, naming it.
    let page = std::fs::read_to_string(repo().join("docs/dice-protocol.md")).unwrap();
    let bad = page.replacen(
        "stream 1, six d6:  3,4,4,2,6,6",
        "stream 1, six d6:  3,4,4,2,6,5",
        1,
    );
    assert_ne!(bad, page, "the v2 stream-1 vector is on the page");
    let tmp = tempfile::tempdir().unwrap();
    let doc = tmp.path().join("dice-protocol.md");
    std::fs::write(&doc, bad).unwrap();
    let (out, stdout) = script(&["--self-test".as_ref(), doc.as_os_str()]);
    assert!(!out.status.success(), "{stdout}");
    assert!(
        stdout.contains("MISMATCH: v2 stream 1, six d6: expected [3, 4, 4, 2, 6, 5]"),
        "{stdout}"
    );
    // And a page whose mail-signature vector lost one digit of its signature.
    let bad = page.replacen("1e9638a6e0c1cf8b", "1e9638a6e0c1cf8c", 1);
    assert_ne!(bad, page, "the mail-signature vector is on the page");
    std::fs::write(&doc, bad).unwrap();
    let (out, stdout) = script(&["--self-test".as_ref(), doc.as_os_str()]);
    assert!(!out.status.success(), "{stdout}");
    assert!(
        stdout.contains("MISMATCH: mail signature verifies: expected True, computed False"),
        "{stdout}"
    );
    // And a page whose bound-reveal vector (S11) lost one digit of r (j=2, L_1).
    let bad = page.replacen("e1621e8b6e1f1898", "e1621e8b6e1f1899", 1);
    assert_ne!(bad, page, "the bound-reveal vector is on the page");
    std::fs::write(&doc, bad).unwrap();
    let (out, stdout) = script(&["--self-test".as_ref(), doc.as_os_str()]);
    assert!(!out.status.success(), "{stdout}");
    assert!(
        stdout.contains("MISMATCH: bound r (j=2, L_1): expected e1621e8b6e1f1899"),
        "{stdout}"
    );
}

#[test]
fn a_demo_games_mails_verify_in_python_with_the_rust_verifiers_counts() {
    if !python_here() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let folder = finished_demo(tmp.path());
    let (checked, findings) = verify::verify_mails(&folder, None);
    assert!(findings.is_empty(), "{findings:?}");
    let (out, stdout) = on(&folder);
    assert!(out.status.success(), "{stdout}");
    assert_eq!(count(&stdout, "steps"), checked.steps, "{stdout}");
    assert_eq!(count(&stdout, "locks"), checked.steps, "{stdout}");
    assert_eq!(count(&stdout, "rolls"), checked.rolls, "{stdout}");
    assert_eq!(count(&stdout, "mails"), checked.mails, "{stdout}");
    // Every die the host's journal recorded was re-derived from the mails.
    let (steps, dice) = journal_dice(tmp.path());
    assert_eq!(count(&stdout, "steps"), steps, "{stdout}");
    assert_eq!(count(&stdout, "dice checked"), dice, "{stdout}");
    assert!(dice > 20 && checked.rolls > 5, "a game with dice: {stdout}");
    assert_eq!(
        count(&stdout, "reveals chained to the anchor"),
        steps,
        "{stdout}"
    );
    assert!(count(&stdout, "receipts opened") > 0, "{stdout}");
    // The journal the game-over mail attaches, replayed for its dice: the same counts again,
    // every orders digest opened with the published salt key, every mail's log head matched.
    assert_eq!(count(&stdout, "journal events"), checked.events, "{stdout}");
    assert_eq!(count(&stdout, "journal steps"), steps, "{stdout}");
    assert_eq!(count(&stdout, "journal dice"), dice, "{stdout}");
    assert_eq!(
        count(&stdout, "log heads matched"),
        checked.mails,
        "{stdout}"
    );
    assert!(
        count(&stdout, "digests opened") >= checked.digests,
        "{stdout}"
    );
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with("step ")).count() as u64,
        steps,
        "one line per step: {stdout}"
    );
}

#[test]
fn a_forged_die_fails_the_script_naming_its_step_and_roll() {
    if !python_here() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let folder = finished_demo(tmp.path());
    let (step, file, text) = results_mails(&folder)
        .into_iter()
        .find(|(_, _, t)| first_plain_roll(t).is_some())
        .expect("a results mail that rolled a plain die");
    let (row, j, sides, first) = first_plain_roll(&text).unwrap();
    let forged = with_first_die_changed(&row, sides, first);
    forge(&file, |t| t.replacen(&row, &forged, 1));
    let (out, stdout) = on(&folder);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let name = file.file_name().unwrap().to_string_lossy();
    let want = format!("MISMATCH: mail {name} (step {step}), die 1 of roll {j} (");
    let line = stdout
        .lines()
        .find(|l| l.starts_with(&want))
        .unwrap_or_else(|| panic!("no line {want:?} in:\n{stdout}"));
    assert!(
        line.ends_with(&format!(": expected {first}, found {}", first % sides + 1)),
        "{line}"
    );
    // The forger re-sealed: the seal holds, and nothing but that die and the mail's signature
    // (made over the old digest, issue 29) is reported.
    let found: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("MISMATCH"))
        .collect();
    assert_eq!(found.len(), 2, "{stdout}");
    assert!(
        found.iter().any(|l| l.starts_with(&format!(
            "MISMATCH: mail {name} (step {step}), Mail-Signature: "
        ))),
        "{stdout}"
    );
    // The Rust verifier agrees that this step is wrong.
    let (_, findings) = verify::verify_mails(&folder, None);
    assert!(
        findings.iter().any(|f| f.field == format!("rolls[{j}]")),
        "{findings:?}"
    );
}

#[test]
fn a_forged_onion_value_fails_the_script_naming_its_step() {
    if !python_here() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let folder = finished_demo(tmp.path());
    let mails = results_mails(&folder);
    let (step, file, text) = mails[mails.len() / 2].clone();
    let line = text
        .lines()
        .find(|l| l.starts_with(&format!("v_{step} = ")))
        .unwrap()
        .to_string();
    // One hex digit of the reveal changed.
    let last = line.chars().last().unwrap();
    let forged = format!(
        "{}{}",
        &line[..line.len() - 1],
        if last == '0' { '1' } else { '0' }
    );
    forge(&file, |t| t.replacen(&line, &forged, 1));
    let (out, stdout) = on(&folder);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let name = file.file_name().unwrap().to_string_lossy();
    for field in [format!("v_{step}"), format!("S_{step}")] {
        assert!(
            stdout
                .lines()
                .any(|l| l.starts_with(&format!("MISMATCH: mail {name} (step {step}), {field}: "))),
            "{field} of step {step} not named in:\n{stdout}"
        );
    }
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with(&format!("step {step} ")) && l.ends_with("MISMATCH")),
        "{stdout}"
    );
}

#[test]
fn a_legacy_v1_players_mails_verify_in_python_too() {
    if !python_here() {
        return;
    }
    let dir = repo().join("tests/fixtures/legacy-v1/yellow-sea-mails-russia");
    let (checked, findings) = verify::verify_mails(&dir, None);
    assert!(findings.is_empty(), "{findings:?}");
    let (out, stdout) = on(&dir);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("(yellow-sea, despatch-dice/v1)"),
        "{stdout}"
    );
    assert_eq!(count(&stdout, "steps"), checked.steps, "{stdout}");
    assert_eq!(count(&stdout, "rolls"), checked.rolls, "{stdout}");
    assert_eq!(count(&stdout, "mails"), checked.mails, "{stdout}");
    assert_eq!(
        count(&stdout, "dice checked"),
        1,
        "one Average Die: {stdout}"
    );
    // Positive control: the v1 lock of step 1 with one digit changed, re-sealed.
    let tmp = tempfile::tempdir().unwrap();
    for e in std::fs::read_dir(&dir).unwrap().flatten() {
        std::fs::copy(e.path(), tmp.path().join(e.file_name())).unwrap();
    }
    let file = tmp.path().join("yellow-sea-000004-results-russia");
    forge(&file, |t| t.replacen("\nL_1 = 5", "\nL_1 = 6", 1));
    let (out, stdout) = on(tmp.path());
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains(
            "MISMATCH: mail yellow-sea-000004-results-russia (step 1), L_1: expected 5077"
        ),
        "{stdout}"
    );
}

#[test]
fn legacy_v1_journals_replay_in_python_with_the_rust_verifiers_counts() {
    if !python_here() {
        return;
    }
    for name in ["yellow-sea", "crossroads-legacy"] {
        let dir = repo().join("tests/fixtures/legacy-v1").join(name);
        let store = despatch::store::GameStore {
            dir: dir.clone(),
            id: name.to_string(),
        };
        let (checked, findings) = verify::verify_store(&store, &despatch::rulesets::registry());
        assert!(findings.is_empty(), "{findings:?}");
        let (out, stdout) = on(&dir.join("journal.jsonl"));
        assert!(out.status.success(), "{name}: {stdout}");
        assert_eq!(count(&stdout, "journal events"), checked.events, "{stdout}");
        assert_eq!(count(&stdout, "journal steps"), checked.steps, "{stdout}");
        assert_eq!(count(&stdout, "journal rolls"), checked.rolls, "{stdout}");
        // v1 salts come from v_k: every submission's digest opens once its step resolved.
        assert!(count(&stdout, "digests opened") > 10, "{stdout}");
    }
    // Positive control: the Average Die of the first results event changed from 4 to 5.
    let journal =
        std::fs::read_to_string(repo().join("tests/fixtures/legacy-v1/yellow-sea/journal.jsonl"))
            .unwrap();
    let forged = journal.replacen("\"results\":[4]", "\"results\":[5]", 1);
    assert_ne!(forged, journal);
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("journal.jsonl");
    std::fs::write(&file, forged).unwrap();
    let (out, stdout) = on(&file);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains(
            "event 4 (results), die 1 of roll 0 (command points russia): expected 4, found 5"
        ),
        "{stdout}"
    );
}

#[test]
fn a_missing_python_fails_in_ci_and_is_skipped_elsewhere() {
    assert_eq!(tool_rule(true, Some("1")), Ok(true));
    assert_eq!(tool_rule(true, None), Ok(true));
    assert_eq!(tool_rule(false, None), Ok(false));
    assert_eq!(tool_rule(false, Some("false")), Ok(false));
    assert_eq!(tool_rule(false, Some("0")), Ok(false));
    assert_eq!(tool_rule(false, Some("true")), Err(()));
    assert_eq!(tool_rule(false, Some("1")), Err(()));
}

/// The MISMATCH lines of the script's output.
fn mismatches(stdout: &str) -> Vec<&str> {
    stdout
        .lines()
        .filter(|l| l.starts_with("MISMATCH: "))
        .collect()
}

#[test]
fn the_attack_runs_forgery_fails_the_script_mid_game_naming_the_mail() {
    if !python_here() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let folder = finished_demo(tmp.path());
    drop_game_over(&folder);
    // Control: the genuine folder mid-game passes, every sealed mail's signature checked.
    let (out, stdout) = on(&folder);
    assert!(out.status.success(), "{stdout}");
    assert_eq!(
        count(&stdout, "signatures checked"),
        count(&stdout, "mails"),
        "{stdout}"
    );
    // The demo's dice are fresh each run, so its length (and mail count) varies: a short game
    // left 8 signed mails in Japan's folder once. What matters is that every one is checked.
    assert!(count(&stdout, "signatures checked") > 0, "{stdout}");

    // The forger's results mail: dice re-derived from another log_head, seal recomputed, the
    // old signature line kept. Every dice check holds; only the signature fails.
    let (step, file, forged) = rerolled_results(&folder);
    forge(&file, |_| forged.clone());
    let (out, stdout) = on(&folder);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let name = file.file_name().unwrap().to_string_lossy().into_owned();
    assert_eq!(
        mismatches(&stdout),
        [format!(
            "MISMATCH: mail {name} (step {step}), Mail-Signature: expected a signature by the \
             mail key K = {}, found one that does not verify (the mail was changed, or signed \
             by another key)",
            key_of(&stdout)
        )],
        "{stdout}"
    );
    // Stripped of its signature line, it is missing one.
    forge(&file, unsigned);
    let (out, stdout) = on(&folder);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert_eq!(
        mismatches(&stdout),
        [format!(
            "MISMATCH: mail {name} (step {step}), Mail-Signature: expected a signature by the \
             game's mail key K on the line after Mail-Digest, found none (missing)"
        )],
        "{stdout}"
    );
}

/// The mail key K the script read (its `game …: n mails signed by its mail key K = …` line).
fn key_of(stdout: &str) -> String {
    stdout
        .lines()
        .find_map(|l| l.split("signed by its mail key K = ").nth(1))
        .unwrap_or_else(|| panic!("no mail key line in:\n{stdout}"))
        .to_string()
}

#[test]
fn a_hosts_second_signed_result_for_a_step_fails_the_script_naming_the_step() {
    if !python_here() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let folder = finished_demo(tmp.path());
    drop_game_over(&folder);
    let key = host_mail_key(&demo_store(tmp.path()));
    let (step, file, forged) = rerolled_results(&folder);
    // The host's other result for the step, signed with the game's own key.
    let other = folder.join("other-result.eml");
    std::fs::copy(&file, &other).unwrap();
    forge(&other, |_| resign(&forged, "yellow-sea", &key));
    // Control: the other result alone (the genuine one removed) passes every check.
    let alone = tmp.path().join("alone");
    copy_folder(&folder, &alone);
    std::fs::remove_file(alone.join(file.file_name().unwrap())).unwrap();
    let (out, stdout) = on(&alone);
    assert!(
        out.status.success(),
        "one consistent forgery alone: {stdout}"
    );

    let (out, stdout) = on(&folder);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let want =
        format!("MISMATCH: game yellow-sea step {step}, equivocation: expected one dice section");
    assert!(
        mismatches(&stdout).iter().any(|l| l.starts_with(&want)),
        "{want:?} not in:\n{stdout}"
    );
    // Both copies are signed by the host: no signature is reported, only the two results.
    assert!(!stdout.contains("Mail-Signature"), "{stdout}");
}

#[test]
fn compare_holds_two_seats_folders_to_one_game_and_names_a_split_step() {
    if !python_here() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let japan = finished_demo(tmp.path());
    let russia = seat_folder(tmp.path(), RUSSIA, "russia");
    drop_game_over(&japan);
    drop_game_over(&russia);
    let compare =
        |a: &Path, b: &Path| script(&["--compare".as_ref(), a.as_os_str(), b.as_os_str()]);
    // Control: two seats of one game agree, and share values to compare.
    let (out, stdout) = compare(&japan, &russia);
    assert!(out.status.success(), "{stdout}");
    let summary = stdout
        .lines()
        .find(|l| l.starts_with("OK: compare of 2 folders, "))
        .unwrap_or_else(|| panic!("no compare summary in:\n{stdout}"));
    let common: u64 = summary
        .split(", ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(common > 5, "{summary}");

    // The host shows Japan another result of one step, signed: Japan's folder alone passes.
    let key = host_mail_key(&demo_store(tmp.path()));
    let (step, file, forged) = rerolled_results(&japan);
    forge(&file, |_| resign(&forged, "yellow-sea", &key));
    let (out, stdout) = on(&japan);
    assert!(out.status.success(), "one seat alone cannot tell: {stdout}");
    let (out, stdout) = compare(&japan, &russia);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let want = format!("MISMATCH: game yellow-sea step {step}, split view: ");
    assert!(
        mismatches(&stdout).iter().any(|l| l.starts_with(&want)),
        "{want:?} not in:\n{stdout}"
    );

    // Folders that share nothing: the comparison says it compared nothing, and fails.
    let empty = tmp.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let (out, stdout) = compare(&russia, &empty);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("found nothing in common (nothing compared)"),
        "{stdout}"
    );
}

#[test]
fn signed_mails_without_the_welcome_or_with_a_second_key_fail_the_script() {
    if !python_here() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let folder = finished_demo(tmp.path());
    drop_game_over(&folder);
    let welcome = std::fs::read_dir(&folder)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| text_of(&std::fs::read(p).unwrap()).contains("mail key K = "))
        .expect("a welcome naming the mail key");
    let (out, stdout) = on(&folder);
    assert!(out.status.success(), "control: {stdout}");
    let key = key_of(&stdout);

    // A second welcome whose anchor line names another key (re-sealed): two keys for one game.
    let other = folder.join("welcome-again.eml");
    std::fs::copy(&welcome, &other).unwrap();
    let flipped = if key.ends_with('0') { "1" } else { "0" };
    let other_key = format!("{}{flipped}", &key[..key.len() - 1]);
    forge(&other, |t| t.replacen(&key, &other_key, 1));
    let (out, stdout) = on(&folder);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        mismatches(&stdout)
            .iter()
            .any(|l| l.starts_with("MISMATCH: game yellow-sea mail key, equivocation: ")),
        "{stdout}"
    );

    // Without any welcome, a signed mail has no key to be checked against: never a pass.
    std::fs::remove_file(&other).unwrap();
    std::fs::remove_file(&welcome).unwrap();
    let (out, stdout) = on(&folder);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains(
            "Mail-Signature: expected the game's mail key K on the welcome's anchor line (or in \
             the journal), found a signed mail, and no key"
        ),
        "{stdout}"
    );
}
