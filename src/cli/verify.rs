//! `despatch verify`: a game store, a folder of one player's mails, or (`--compare`) several
//! seats' folders held against each other. The checks are `crate::verify`'s; this file picks
//! what was named and prints what they found (exit 1 on any finding).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Result, bail};

use crate::store::{DataDir, GameStore};
use crate::verify::{self, Checked};

use super::setup::load_config;

/// `despatch verify --compare A B …`: the folders must show one game.
pub(super) fn compare(folders: &[PathBuf]) -> Result<ExitCode> {
    let (checked, findings) = verify::compare_folders(folders);
    if !findings.is_empty() {
        return failed("the folders do not show one game", &findings);
    }
    println!(
        "OK: {} folders show one game: every anchor line, result and log head they \
         share is the same.",
        folders.len()
    );
    for (d, c) in folders.iter().zip(&checked) {
        println!(
            "  {}: {} mails, {} signatures, {} steps, {} rolls re-derived.",
            d.display(),
            c.mails,
            c.signatures,
            c.steps,
            c.rolls
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// `despatch verify TARGET`: a game store folder, a folder of mails, or a game id.
pub(super) fn verify(config: Option<PathBuf>, target: Option<String>) -> Result<ExitCode> {
    let target = target.unwrap_or_default();
    let path = PathBuf::from(&target);
    let registry = crate::rulesets::registry();
    let (label, checked, findings) = if path.join("journal.jsonl").exists() {
        let store = GameStore {
            id: path
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned(),
            dir: path.clone(),
        };
        let (c, f) = verify::verify_store(&store, &registry);
        (format!("game store {}", path.display()), c, f)
    } else if path.is_dir() {
        let (c, f) = verify::verify_mails(&path, None);
        if c.mails == 0 {
            bail!(
                "{}: no journal.jsonl and no Despatch mails in it",
                path.display()
            );
        }
        (format!("mails in {}", path.display()), c, f)
    } else {
        let cfg = load_config(config)?;
        let store = DataDir::new(&cfg.data_dir).game(&target);
        if !store.exists() {
            bail!(
                "`{target}` is neither a game in {} nor a folder",
                cfg.data_dir.display()
            );
        }
        let (c, f) = verify::verify_store(&store, &registry);
        (format!("game `{target}`"), c, f)
    };
    if !findings.is_empty() {
        return failed(&label, &findings);
    }
    print_checked(&label, &checked);
    Ok(ExitCode::SUCCESS)
}

fn failed(what: &str, findings: &[impl std::fmt::Display]) -> Result<ExitCode> {
    println!("FAILED: {what}");
    for f in findings {
        println!("  {f}");
    }
    Ok(ExitCode::from(1))
}

/// What a clean verification checked, one line a kind of check that ran.
fn print_checked(label: &str, checked: &Checked) {
    println!(
        "OK: {label}: {} events, {} steps, {} rolls re-derived, {} mails checked.",
        checked.events, checked.steps, checked.rolls, checked.mails
    );
    if checked.digests > 0 {
        println!(
            "  {} receipt(s) opened their own orders digest with their salt.",
            checked.digests
        );
    }
    if checked.signatures > 0 {
        println!(
            "  {} mail signature(s) verified under the game's key K from the welcome.",
            checked.signatures
        );
    }
    if checked.bound_reveals > 0 {
        println!(
            "  {} strict reveal(s) bound to their lock checked against the seats' \
             opened onions.",
            checked.bound_reveals
        );
    }
    if !checked.unopened.is_empty() {
        println!(
            "  NOTE: {} did not open (yet) the onion behind their bound strict \
             reveals: those reveals are not checked (ruling S11).",
            checked.unopened.join(", ")
        );
    }
    if checked.replayed_mails > 0 {
        println!(
            "  The game-over mail's journal replayed the whole game; {} mail(s) \
             matched it (log head, subject, log and positions).",
            checked.replayed_mails
        );
    } else if checked.mails > 0 && label.starts_with("mails") {
        println!(
            "  No game-over mail with the journal in the folder: the mails' dice \
             and seals were checked, not their story (that needs the game's end)."
        );
    }
}
