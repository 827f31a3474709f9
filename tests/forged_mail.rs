//! Issue 29, points 1 and 2, in `despatch verify` (the CLI's verifier): the attack run's forged
//! results mail — dice re-derived from another lock-input `log_head`, `L_k`, `S_k`, the table
//! and the seal recomputed — fails mid-game on its signature; a host who signs two results for
//! one step is caught in one folder (both copies) and across seats' folders (`--compare`).
//! Every test starts from its control: the genuine folder verifies.

use std::path::Path;

use despatch::verify::{Finding, compare_folders, verify_mails};

use crate::demo_mails::{
    RUSSIA, demo_store, drop_game_over, finished_demo, forge, results_mails, seat_folder,
};
use crate::forgery::{host_mail_key, reroll, resign};

fn fields(f: &[Finding]) -> Vec<&str> {
    f.iter().map(|x| x.field.as_str()).collect()
}

/// A results mail of `folder` whose forged dice differ from the genuine ones: (step, file,
/// the forged text with the old signature line kept).
fn forged_results(folder: &Path) -> (u64, std::path::PathBuf, String) {
    for (step, file, text) in results_mails(folder) {
        for attempt in 0..20 {
            let (forged, changed) = reroll(&text, attempt);
            if changed {
                return (step, file, forged);
            }
        }
    }
    panic!("no results mail whose dice a forger could change");
}

#[test]
fn a_results_mail_with_rerolled_dice_and_a_new_seal_fails_mid_game_on_its_signature() {
    let dir = tempfile::tempdir().unwrap();
    let japan = finished_demo(dir.path());
    drop_game_over(&japan);
    let (checked, found) = verify_mails(&japan, None);
    assert!(
        found.is_empty(),
        "control: the genuine folder verifies: {found:?}"
    );
    assert_eq!(
        checked.signatures, checked.mails,
        "every sealed mail of the game is signed and checked"
    );

    let (_, file, forged) = forged_results(&japan);
    forge(&file, |_| forged.clone());
    let (_, found) = verify_mails(&japan, None);
    // Every dice check holds (the forger re-derived them); only the signature fails.
    assert_eq!(fields(&found), ["Mail-Signature"], "{found:?}");
    let name = file.file_name().unwrap().to_string_lossy().into_owned();
    assert!(found[0].place.contains(&name), "names the mail: {found:?}");
    assert!(found[0].detail.contains("does not verify"), "{found:?}");

    // Without its signature line, the forgery is missing one.
    forge(&file, |t| {
        t.lines()
            .filter(|l| !l.starts_with(despatch::dice::SIGNATURE_PREFIX))
            .collect::<Vec<_>>()
            .join("\n")
            + "\n"
    });
    let (_, found) = verify_mails(&japan, None);
    assert_eq!(fields(&found), ["Mail-Signature"], "{found:?}");
    assert!(found[0].detail.starts_with("missing"), "{found:?}");
}

#[test]
fn two_signed_results_for_one_step_in_one_folder_fail_naming_the_step() {
    let dir = tempfile::tempdir().unwrap();
    let japan = finished_demo(dir.path());
    drop_game_over(&japan);
    let key = host_mail_key(&demo_store(dir.path()));
    let (step, file, forged) = forged_results(&japan);
    // The host equivocates: the other result is signed with the game's own key.
    let other = japan.join("other-result.eml");
    std::fs::copy(&file, &other).unwrap();
    forge(&other, |_| resign(&forged, "yellow-sea", &key));

    // Control: the host's other result alone passes every check one folder can make.
    let alone = dir.path().join("alone");
    std::fs::create_dir(&alone).unwrap();
    for e in std::fs::read_dir(&japan).unwrap().flatten() {
        if e.path() != file {
            std::fs::copy(e.path(), alone.join(e.file_name())).unwrap();
        }
    }
    let (_, found) = verify_mails(&alone, None);
    assert!(found.is_empty(), "one consistent forgery alone: {found:?}");

    let (_, found) = verify_mails(&japan, None);
    assert!(
        found
            .iter()
            .any(|f| f.field == "equivocation" && f.place == format!("game yellow-sea step {step}")),
        "two results for step {step}: {found:?}"
    );
}

#[test]
fn compare_holds_seats_folders_against_each_other_and_finds_a_split_view() {
    let dir = tempfile::tempdir().unwrap();
    let japan = finished_demo(dir.path());
    let russia = seat_folder(dir.path(), RUSSIA, "russia");
    drop_game_over(&japan);
    drop_game_over(&russia);
    let (checked, found) = compare_folders(&[japan.clone(), russia.clone()]);
    assert!(
        found.is_empty(),
        "control: two seats of one game agree: {found:?}"
    );
    assert!(checked.iter().all(|c| c.steps > 0 && c.signatures > 0));

    // The host shows Japan another result of one step, signed: Japan's folder alone passes.
    let key = host_mail_key(&demo_store(dir.path()));
    let (step, file, forged) = forged_results(&japan);
    forge(&file, |_| resign(&forged, "yellow-sea", &key));
    let (_, alone) = verify_mails(&japan, None);
    assert!(alone.is_empty(), "one seat alone cannot tell: {alone:?}");
    let (_, found) = compare_folders(&[japan.clone(), russia.clone()]);
    assert!(
        found
            .iter()
            .any(|f| f.field == "split view" && f.place == format!("game yellow-sea step {step}")),
        "compare names the step: {found:?}"
    );

    // Folders of two different games share nothing: the comparison says it proved nothing.
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let (_, found) = compare_folders(&[russia, empty]);
    assert!(fields(&found).contains(&"compare"), "{found:?}");
}
