//! `despatch gm …`: the organiser's acts from the command line. Each act is the daemon's (it
//! journals and mails); this file only calls it and says in one line what happened.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Result, anyhow, bail};
use chrono::Utc;

use crate::daemon::Daemon;
use crate::report;

use super::args::GmCommand;

/// Runs one `despatch gm` act.
pub(super) fn gm(config: Option<PathBuf>, action: GmCommand) -> Result<ExitCode> {
    let d = super::serve::daemon_for(config, "gm")?;
    let now = Utc::now();
    match action {
        GmCommand::Extend {
            game,
            hours,
            reason,
        } => {
            let deadline = d.gm_extend(&game, hours, reason.as_deref().unwrap_or(""), now)?;
            println!(
                "{game}: the deadline is now {}.",
                report::fmt_time(deadline, "UTC")
            );
        }
        GmCommand::Spectator {
            game,
            action,
            address,
        } => println!("{}", d.gm_spectator(&game, action == "add", &address, now)?),
        GmCommand::Unsubscribe { code } => println!("{}", d.unsubscribe(&code, now)?),
        GmCommand::CloseStep { game, reason } => {
            let n = d.gm_close_step(&game, &reason, now)?;
            println!("{game}: step closed; {n} step(s) resolved.");
        }
        GmCommand::Abandon { game, reason } => {
            let step = d.gm_abandon(&game, &reason, now)?;
            println!(
                "{game}: abandoned at step {step} with no result; nothing was resolved. \
                 Every seat and spectator is told."
            );
        }
        GmCommand::Replace {
            game,
            seat,
            address,
            reason,
        } => {
            d.gm_replace(&game, &seat, &address, &reason, now)?;
            println!("{game}: seat {seat} now belongs to {address}; a welcome mail is on its way.");
        }
        GmCommand::Pause { game, reason } => {
            let left = d.gm_pause(&game, &reason, now)?;
            println!("{game}: paused ({}); every seat is told.", time_left(left));
        }
        GmCommand::Resume { game } => resume(&d, &game)?,
        GmCommand::Broadcast {
            game,
            league,
            message,
        } => broadcast(&d, game.as_deref(), league.as_deref(), &message)?,
        GmCommand::Address { address } => desk_address(&d, address)?,
        GmCommand::RefuseAbsence { game, seat, reason } => {
            d.gm_refuse_absence(&game, &seat, &reason, now)?;
            println!("{game}: {seat}'s absence is refused; every seat is told.");
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// What a paused step had left of its time, in the organiser's words.
fn time_left(left: Option<chrono::Duration>) -> String {
    match left {
        Some(l) if l > chrono::Duration::zero() => format!("{} min were left", l.num_minutes()),
        Some(_) => "its deadline had passed".into(),
        None => "its step has no deadline".into(),
    }
}

fn resume(d: &Daemon, game: &str) -> Result<()> {
    let (deadline, n) = d.gm_resume(game, Utc::now())?;
    match deadline {
        Some(t) => println!(
            "{game}: resumed; the deadline is now {}; every seat is told.",
            report::fmt_time(t, "UTC")
        ),
        None => println!("{game}: resumed; every seat is told."),
    }
    if n > 0 {
        println!("{game}: {n} step(s) resolved at once.");
    }
    Ok(())
}

fn broadcast(d: &Daemon, game: Option<&str>, league: Option<&str>, message: &str) -> Result<()> {
    let b = d.gm_broadcast(game, league, message, Utc::now())?;
    println!(
        "The message went to {} player address(es) of {}.",
        b.players,
        b.games.join(", ")
    );
    if !b.skipped.is_empty() {
        println!("Not sent to: {}.", b.skipped.join("; "));
    }
    Ok(())
}

/// The organiser's private desk address (mail from that address alone is read there).
fn desk_address(d: &Daemon, address: Option<String>) -> Result<()> {
    let Some(a) = address.or_else(|| d.cfg.mail.gm_address.clone()) else {
        bail!(
            "no address given and no mail.gm_address in the config: name the organiser's address"
        );
    };
    let a: crate::config::address::Mailbox = a.parse().map_err(|e| anyhow!("`{a}`: {e}"))?;
    println!(
        "The desk of {} (keep it private; only mail from that address is read):\n{}",
        a.address,
        d.desk_address(&a.address)?
    );
    Ok(())
}
