//! The command line: arguments (clap) and one function per command. `main.rs` only parses,
//! calls `run` and maps an error to exit code 2.

mod args;
mod campaign;
mod doctor;
mod gm;
mod guard;
mod held;
mod league;
mod look;
mod new;
pub mod player;
mod run;
mod serve;
mod setup;
mod verify;

pub use args::{Cli, Command, GmCommand, NewArgs, PlayerCommand};
pub use run::run;
