//! The `despatch player` subcommands as the command line runs them: read the arguments' files,
//! call the player's tool (this folder's other modules) and print what it gave.

use std::io::Read;
use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, Result};
use chrono::Utc;

use crate::cli::PlayerCommand;

/// A mail named on the command line: a saved file, or `-` for standard input.
fn read_mail_arg(mail: &Path) -> Result<Vec<u8>> {
    if mail.as_os_str() == "-" {
        let mut b = Vec::new();
        std::io::stdin().read_to_end(&mut b)?;
        Ok(b)
    } else {
        std::fs::read(mail).with_context(|| format!("reading {}", mail.display()))
    }
}

/// Runs one `despatch player` subcommand.
pub fn run(action: PlayerCommand) -> Result<ExitCode> {
    match action {
        PlayerCommand::Init {
            game,
            seat,
            dir,
            len,
        } => {
            let line = super::init(&dir, &game, &seat, len)?;
            println!(
                "Your secret is in {} (keep it; never send it). Send this line to the \
                 organiser when joining {game}:\n{line}",
                dir.display()
            );
        }
        PlayerCommand::Trust { dir, mail } => {
            let bytes = read_mail_arg(&mail)?;
            println!("{}", super::trust(&dir, &bytes, Utc::now())?);
        }
        PlayerCommand::Check { dir, mails } => {
            let r = super::check(&dir, &mails)?;
            if !r.problems.is_empty() {
                println!("FAILED: the game's results do not match your record of reveals");
                for p in &r.problems {
                    println!("  {p}");
                }
                return Ok(ExitCode::from(1));
            }
            println!(
                "OK: {} results mail(s) read; each of the {} reveal(s) of yours they \
                 show is the one your tool gave.",
                r.mails, r.matched
            );
        }
        PlayerCommand::Reveal { dir, mail } => {
            let bytes = read_mail_arg(&mail)?;
            let (line, note) = super::reveal_at(&dir, &bytes, Utc::now())?;
            if let Some(note) = note {
                eprintln!("{note}");
            }
            println!("{line}");
        }
    }
    Ok(ExitCode::SUCCESS)
}
