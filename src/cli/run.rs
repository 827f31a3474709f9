//! Each command of the command line, handed to the function that carries it out (one a
//! command, in this folder). Errors go back to `main` as `anyhow` errors; the exit code says
//! what happened (0 fine, 1 a finding or an unreadable message, 2 an error).

use std::process::ExitCode;

use anyhow::Result;

use super::args::{Cli, Command};

/// Runs one command line.
pub fn run(cli: Cli) -> Result<ExitCode> {
    let config = cli.config;
    match cli.command {
        Command::Demo {
            scenario,
            dir,
            max_steps,
        } => super::serve::demo(&dir, &scenario, max_steps),
        Command::Run { once } => super::serve::run_daemon(config, once),
        Command::Listen { addr } => super::serve::listen(config, &addr),
        Command::Ingest { files } => super::serve::ingest(config, files),
        Command::Archive { game, out } => super::serve::archive(config, &game, out.as_deref()),
        Command::New(args) => super::new::new_game(config, args),
        Command::Campaign { action } => super::campaign::campaign(config, action),
        Command::Doctor => super::doctor::doctor(config),
        Command::League {
            league,
            format,
            derive,
            mailed,
        } => match derive.is_empty() {
            true => super::league::print(config, &league, &format),
            false => super::league::derive(&league, &format, &derive, &mailed),
        },
        Command::Status { game } => super::look::status(config, game),
        Command::Held { retry, drop } => super::held::run(config, retry, drop),
        Command::Show {
            game,
            seat,
            format,
            out,
        } => super::look::show(config, &game, &seat, &format, out),
        Command::Gm { action } => super::gm::gm(config, action),
        Command::Player { action } => super::player::run(action),
        Command::Verify { compare, .. } if !compare.is_empty() => super::verify::compare(&compare),
        Command::Verify { target, .. } => super::verify::verify(config, target),
    }
}
