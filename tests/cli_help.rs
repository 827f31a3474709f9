//! Issue 14.9: `--help` describes every argument of every command.

use clap::CommandFactory;
use despatch::cli::Cli;

fn undocumented(cmd: &clap::Command, path: &str, out: &mut Vec<String>) {
    for arg in cmd.get_arguments() {
        let id = arg.get_id().as_str();
        if id == "help" || id == "version" {
            continue;
        }
        if arg
            .get_help()
            .is_none_or(|h| h.to_string().trim().is_empty())
        {
            out.push(format!("{path} <{id}>"));
        }
    }
    for sub in cmd.get_subcommands() {
        if sub.get_name() == "help" {
            continue;
        }
        if sub.get_about().is_none() {
            out.push(format!("{path} {} (no description)", sub.get_name()));
        }
        undocumented(sub, &format!("{path} {}", sub.get_name()), out);
    }
}

#[test]
fn every_argument_of_every_command_is_described() {
    let mut missing = Vec::new();
    undocumented(&Cli::command(), "despatch", &mut missing);
    assert!(missing.is_empty(), "undocumented: {missing:#?}");
}

#[test]
fn the_check_sees_an_undocumented_argument() {
    // Positive control: a command with a bare argument is reported.
    let cmd = clap::Command::new("x").arg(clap::Arg::new("bare"));
    let mut missing = Vec::new();
    undocumented(&cmd, "x", &mut missing);
    assert_eq!(missing, vec!["x <bare>".to_string()]);
}
