//! The binary edge: parse the arguments, run the command, map an error to exit code 2.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    match despatch::cli::run(despatch::cli::Cli::parse()) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("despatch: {e:#}");
            ExitCode::from(2)
        }
    }
}
