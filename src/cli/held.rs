//! `despatch held` (list, `--retry [KEY]`, `--drop KEY`) and the held-mail lines of
//! `despatch status`. Listing only reads the data folder; retrying and dropping take its lock
//! and go through the daemon, which decides what the mail does.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use chrono::{DateTime, Utc};

use crate::daemon::{Daemon, Intake, held_why};
use crate::store::{DataDir, HeldCause, HeldMail};

use super::setup::{describe_intake, init_logging, load_config};

/// Runs `despatch held`.
pub(super) fn run(
    config: Option<PathBuf>,
    retry: Option<Option<String>>,
    drop: Option<String>,
) -> Result<ExitCode> {
    let cfg = load_config(config)?;
    if let Some(key) = drop {
        init_logging(&cfg.daemon.log);
        let d = Daemon::new(cfg)?;
        let key = d.drop_held(&key)?;
        println!(
            "{key}: set aside for good in {}/dropped/; it will not be read.",
            d.data.held_dir().display()
        );
        return Ok(ExitCode::SUCCESS);
    }
    let Some(key) = retry else {
        let held = DataDir::new(&cfg.data_dir).held_mail()?;
        for line in lines(&held, None) {
            println!("{line}");
        }
        return Ok(ExitCode::SUCCESS);
    };
    init_logging(&cfg.daemon.log);
    let d = Daemon::new(cfg)?;
    let out = d.retry_held_now(key.as_deref(), Utc::now())?;
    if out.is_empty() {
        println!("No held mail was read (`despatch held` lists it).");
    }
    let mut still = 0;
    for (key, intake) in &out {
        if matches!(intake, Intake::Held { .. } | Intake::Failed(_)) {
            still += 1;
        }
        println!("{key}: {}", describe_intake(intake));
    }
    // Exit 1 when something read is still held: a finding, as with `ingest`.
    Ok(if still > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The held mail, as `despatch held` and `despatch status` show it: a count line, then one
/// block per mail (of game `game` only, when given).
pub(super) fn lines(held: &[HeldMail], game: Option<&str>) -> Vec<String> {
    let held: Vec<&HeldMail> = held
        .iter()
        .filter(|m| game.is_none_or(|g| m.game.as_deref() == Some(g)))
        .collect();
    if held.is_empty() {
        return vec!["Held mail: none.".into()];
    }
    let mut out = vec![format!(
        "Held mail: {} (read again by itself when its cause is gone; \
         `despatch held --retry KEY` reads one now)",
        held.len()
    )];
    for m in held {
        let game = match (&m.game, &m.seat) {
            (Some(g), Some(s)) => format!("{g} ({s})"),
            (Some(g), None) => g.clone(),
            _ => "no game named".into(),
        };
        let from = if m.from.is_empty() {
            "unknown sender"
        } else {
            &m.from
        };
        out.push(format!(
            "  {}  came {}  from {from}  to {game}",
            m.key,
            when(m.arrived)
        ));
        out.push(format!("      why: {}", held_why(&m.cause)));
        out.push(format!("      next try: {}", next_try(m)));
    }
    out
}

fn when(t: DateTime<Utc>) -> String {
    t.format("%Y-%m-%d %H:%M UTC").to_string()
}

fn next_try(m: &HeldMail) -> String {
    let tries = match m.tries {
        0 => String::new(),
        1 => " (tried once)".into(),
        n => format!(" ({n} tries)"),
    };
    let next = match (&m.cause, m.next_try) {
        (HeldCause::Behind { .. }, _) => "right after the mail it waits behind".to_string(),
        (HeldCause::RateLimit { deadline, .. }, Some(t)) => match deadline {
            Some(d) if m.arrived < *d && *d < t => {
                format!("{} (before the step's deadline)", when(*d))
            }
            _ => when(t),
        },
        (_, Some(t)) if t <= DateTime::<Utc>::UNIX_EPOCH => "at the next pass".to_string(),
        (HeldCause::Failed { .. }, Some(t)) => {
            format!("{}, or at once when its game's folder changes", when(t))
        }
        (_, None) => "when its game's folder changes or the daemon restarts; or by hand".into(),
    };
    format!("{next}{tries}")
}
