//! What every command shares before and after its work: the configuration it reads, the
//! logging it starts, and the one line that tells what became of a mail. It carries out no
//! command itself.

use std::path::PathBuf;

use anyhow::Result;

use crate::config::{Config, DEFAULT_CONFIG};
use crate::daemon::Intake;
use crate::report;

/// The configuration named with `--config`, else `./config.toml`, else the embedded default
/// (the local Maildir) as if it were `./config.toml`.
pub(super) fn load_config(path: Option<PathBuf>) -> Result<Config> {
    match path {
        Some(p) => Ok(Config::load(&p)?),
        None => {
            let p = PathBuf::from("config.toml");
            if p.exists() {
                Ok(Config::load(&p)?)
            } else {
                Ok(Config::parse(
                    DEFAULT_CONFIG,
                    &std::env::current_dir()?.join("config.toml"),
                )?)
            }
        }
    }
}

/// Logging to standard error, filtered by `DESPATCH_LOG` or else `filter`.
pub(super) fn init_logging(filter: &str) {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_env("DESPATCH_LOG").unwrap_or_else(|_| EnvFilter::new(filter));
    // One line per event, no colour codes when journald (not a terminal) reads it.
    use std::io::IsTerminal;
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .with_target(false)
        .try_init();
}

/// What became of one mail, in one line.
pub(super) fn describe_intake(i: &Intake) -> String {
    match i {
        Intake::Accepted { game, seat, step } => format!("accepted: {game}, {seat}, step {step}"),
        Intake::Rejected { game, seat, lines } => {
            format!("rejected: {game}, {seat}, {lines} problem(s); the reply lists them")
        }
        Intake::Help { game, seat } => format!("help sent: {game}, {seat}"),
        Intake::Duplicate => "already processed; nothing done".into(),
        Intake::Automated(why) => format!("automated mail ignored ({why})"),
        Intake::Unknown(why) => format!("ignored, no reply ({why})"),
        Intake::Unauthenticated { game, seat } => {
            format!(
                "not applied: no valid secret for {game}/{seat}; the registered player was told"
            )
        }
        Intake::Unregistered { game, seat } => format!(
            "not applied: {game}/{seat}'s secret from an address not registered; the registered player was told"
        ),
        Intake::PassedOn { game, seat } => {
            format!(
                "not applied: a former player of {game}/{seat}, told once that the seat passed on"
            )
        }
        Intake::Settings { game, seat } => format!("settings answered: {game}, {seat}"),
        Intake::Talk {
            game,
            seat,
            command,
        } => format!("{command}: {game}, {seat}"),
        Intake::Observer { game } => {
            format!("from an observer of {game}: told (at most hourly) that observers cannot order")
        }
        Intake::SeatAct { game, seat } => format!("seat act carried out: {game}, {seat}"),
        Intake::Listed { games } => {
            format!("no game named: the sender's {games} game(s) listed to them")
        }
        Intake::Lobby(what) => format!("for the lobby: {what}"),
        Intake::Unreadable(why) => format!("set aside: {why}"),
        Intake::Failed(why) => format!("held, read again when its cause is gone: {why}"),
        Intake::Desk { commands } => {
            format!(
                "the organiser's desk: {commands} command line(s) carried out or refused, and answered"
            )
        }
        Intake::DeskRefused => {
            "not applied: a mail to the organiser's desk without the sender's own desk secret"
                .into()
        }
        Intake::RateLimited => {
            "set aside unanswered: the sender sent too many mails this hour".into()
        }
        Intake::Held {
            game, seat, until, ..
        } => format!(
            "held: {game}/{seat} sent too many mails this hour; read at {} (the seat is told)",
            report::fmt_time(*until, "UTC")
        ),
    }
}
