//! `despatch league L`: a league's standings, read from the data folder (nothing is written);
//! with `--derive`, re-derived from archive folders alone and compared with what they and the
//! standings mails published (ruling K7; the data folder is not read, so anyone can run it).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use crate::store::DataDir;

/// Prints the standings of `league` as text or as the archive's HTML fragment.
pub(super) fn print(config: Option<PathBuf>, league: &str, format: &str) -> Result<ExitCode> {
    let cfg = super::setup::load_config(config)?;
    let data = DataDir::new(&cfg.data_dir);
    let standings = crate::daemon::league_standings(&data, &crate::rulesets::registry(), league)?;
    if standings.rows.is_empty() && standings.running.is_empty() {
        println!(
            "League `{league}` has no games in {} (add one with `despatch new … --league {league}`).",
            data.root.display()
        );
        return Ok(ExitCode::SUCCESS);
    }
    match format {
        "html" => print!("{}", crate::league::render_html(&standings)),
        _ => println!("{}", crate::league::render_text(&standings)),
    }
    Ok(ExitCode::SUCCESS)
}

/// Re-derives the table from `dirs` (and compares `mails`), prints it and every difference:
/// success only when every published table agrees.
pub(super) fn derive(
    league: &str,
    format: &str,
    dirs: &[PathBuf],
    mails: &[PathBuf],
) -> Result<ExitCode> {
    let d = crate::daemon::derive_from_files(&crate::rulesets::registry(), league, dirs, mails)?;
    match format {
        "html" => print!("{}", crate::league::render_html(&d.standings)),
        _ => println!("{}\n", crate::league::render_text(&d.standings)),
    }
    let n = d.compared;
    if d.differences.is_empty() {
        eprintln!(
            "Re-derived from {} archive(s): all {n} published table(s) agree.",
            dirs.len()
        );
        return Ok(ExitCode::SUCCESS);
    }
    for diff in &d.differences {
        eprintln!("DIFFERENT: {diff}");
    }
    eprintln!(
        "Re-derived from {} archive(s): {} difference(s) in {n} published table(s).",
        dirs.len(),
        d.differences.len()
    );
    Ok(ExitCode::from(1))
}
