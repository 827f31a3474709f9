//! The command line: arguments (clap) and one function per command. `main.rs` only parses,
//! calls `run` and maps an error to exit code 2.

mod args;
mod held;
mod league;
pub mod player;
mod run;

pub use args::{Cli, Command, GmCommand, PlayerCommand};
pub use run::run;
