//! `despatch league L`: a league's standings, read from the data folder (nothing is written).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use crate::store::DataDir;

/// Prints the standings of `league` as text or as the archive's HTML fragment.
pub(super) fn print(config: Option<PathBuf>, league: &str, format: &str) -> Result<ExitCode> {
    let cfg = super::run::load_config(config)?;
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
