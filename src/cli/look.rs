//! `despatch status` and `despatch show`: read-only looks at the data folder. No `Daemon` is
//! made, so looking creates no Maildir, no data folder and takes no lock.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, anyhow, bail};

use crate::engine::{Play, Viewer};
use crate::render::Format;
use crate::report;
use crate::store::DataDir;

use super::setup::load_config;

/// `despatch status [GAME]`: one line a game, then the held mail.
pub(super) fn status(config: Option<PathBuf>, game: Option<String>) -> Result<ExitCode> {
    let cfg = load_config(config)?;
    let data = DataDir::new(&cfg.data_dir);
    let registry = crate::rulesets::registry();
    let ids = match &game {
        Some(g) => vec![g.clone()],
        None => data.game_ids()?,
    };
    if ids.is_empty() {
        println!(
            "No games in {}. Try `despatch demo` or `despatch new`.",
            data.root.display()
        );
    }
    for id in &ids {
        match data.game(id).open(&registry) {
            Ok(g) => println!("{}", status_line(g.as_ref())),
            Err(e) => println!("{id}  cannot be read: {e}"),
        }
    }
    let held = data.held_mail()?;
    for line in super::held::lines(&held, game.as_deref()) {
        println!("{line}");
    }
    Ok(ExitCode::SUCCESS)
}

/// `despatch show GAME --seat S [--format F] [--out FILE]`: what a seat (or a spectator) sees.
pub(super) fn show(
    config: Option<PathBuf>,
    game: &str,
    seat: &str,
    format: &str,
    out: Option<PathBuf>,
) -> Result<ExitCode> {
    let cfg = load_config(config)?;
    let data = DataDir::new(&cfg.data_dir);
    let format: Format = format.parse().map_err(|e| anyhow!("--format: {e}"))?;
    let store = data.game(game);
    if !store.exists() {
        bail!("no game `{game}` in {}", data.root.display());
    }
    let g = store.open(&crate::rulesets::registry())?;
    let bytes = show_bytes(g.as_ref(), seat, format)?;
    match out {
        Some(p) => std::fs::write(&p, bytes).with_context(|| p.display().to_string())?,
        None if matches!(format, Format::Png(_)) && std::io::stdout().is_terminal() => {
            bail!("a PNG is not for the terminal: add --out FILE.png")
        }
        None => std::io::Write::write_all(&mut std::io::stdout(), &bytes)?,
    }
    Ok(ExitCode::SUCCESS)
}

fn status_line(g: &dyn Play) -> String {
    let b = g.book();
    if let Some(o) = g.outcome() {
        return format!(
            "{}  [{}]  over after step {}: {}",
            b.id,
            g.ruleset(),
            b.step - 1,
            o.summary
        );
    }
    let waiting = g.waiting_for();
    format!(
        "{}  [{}]  step {}: {}  — waiting for {}{}",
        b.id,
        g.ruleset(),
        b.step,
        g.spec().title,
        if waiting.is_empty() {
            "nobody".into()
        } else {
            waiting.join(", ")
        },
        b.deadline
            .map(|d| format!("; deadline {}", report::fmt_time(d, "UTC")))
            .unwrap_or_default()
    )
}

fn show_bytes(g: &dyn Play, seat: &str, format: Format) -> Result<Vec<u8>> {
    let b = g.book();
    let viewer = if seat == "spectator" {
        Viewer::Spectator
    } else {
        if !b.seats.iter().any(|s| s.seat == seat) {
            bail!(
                "no seat `{seat}` in {} (seats: {}, or spectator)",
                b.id,
                b.seat_ids().join(", ")
            );
        }
        Viewer::Seat(seat.to_string())
    };
    Ok(crate::render::show(&g.view(&viewer), format)?)
}
