//! The guard in front of every command that writes the data folder (new, run, ingest, gm,
//! archive): it needs a real config file (never the built-in default, which would make `var/`
//! wherever it is typed), and it runs only as the data folder's owner (see `doctor::owner`).
//! Read-only commands (status, show, verify, league, doctor) do not pass through here.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use anyhow::{Result, bail};

use crate::config::Config;
use crate::doctor::{facts, owner};

/// The config of a command that writes, and the file it came from: `--config`, or
/// `./config.toml`; without either the command is refused rather than run on the built-in
/// default in whatever folder it was typed in.
pub(super) fn writing_config(path: Option<PathBuf>, command: &str) -> Result<(Config, PathBuf)> {
    let path = match path {
        Some(p) => p,
        None => {
            let here = PathBuf::from("config.toml");
            if !here.exists() {
                bail!(
                    "no configuration: no --config was given and there is no config.toml in {}. \
                     `despatch {command}` writes the service's data folder, so it needs the \
                     service's configuration: run it as the service user with --config, e.g. \
                     runuser -u despatch -- despatch --config /srv/despatch/config.toml {command} …",
                    facts::absolute(Path::new(".")).display()
                );
            }
            here
        }
    };
    let cfg = Config::load(&path)?;
    Ok((cfg, facts::absolute(&path)))
}

/// Refuses, before anything is written, to run as another user than the data folder's owner.
pub(super) fn service_user_only(cfg: &Config, config_path: &Path) -> Result<()> {
    let data = facts::absolute(&cfg.data_dir);
    let holder = facts::holder(&data)
        .map_err(|e| anyhow::anyhow!("the data folder {}: {e}", data.display()))?;
    let rerun = rerun_line(std::env::args_os().collect(), config_path);
    owner::may_write(&data, &holder, &facts::me(), &rerun).map_err(|e| anyhow::anyhow!(e))
}

/// The command line as typed, with `--config <absolute path>` in front of the command (and any
/// `--config` the user gave taken out), each word quoted for a shell where it needs it.
pub(super) fn rerun_line(args: Vec<OsString>, config_path: &Path) -> String {
    let mut words: Vec<String> = Vec::new();
    let mut it = args.into_iter().map(|a| a.to_string_lossy().into_owned());
    words.push(it.next().unwrap_or_else(|| "despatch".into()));
    words.push("--config".into());
    words.push(config_path.display().to_string());
    let mut skip_next = false;
    for a in it {
        if skip_next {
            skip_next = false;
            continue;
        }
        if a == "--config" {
            skip_next = true;
            continue;
        }
        if a.starts_with("--config=") {
            continue;
        }
        words.push(a);
    }
    words
        .iter()
        .map(|w| shell_quote(w))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `w` as one shell word: as is when it holds only safe characters, else in single quotes.
pub(super) fn shell_quote(w: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "@%+=:,./_-".contains(c);
    if !w.is_empty() && w.chars().all(safe) {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rerun_line_names_the_config_and_keeps_the_rest_pasteable() {
        let args = [
            "despatch",
            "gm",
            "extend",
            "g1",
            "--hours",
            "24",
            "--reason",
            "Togo's ill",
        ]
        .map(OsString::from)
        .to_vec();
        assert_eq!(
            rerun_line(args, Path::new("/srv/despatch/config.toml")),
            "despatch --config /srv/despatch/config.toml gm extend g1 --hours 24 --reason 'Togo'\\''s ill'"
        );
        let given = ["despatch", "--config", "c.toml", "new", "g", "--config=x"]
            .map(OsString::from)
            .to_vec();
        assert_eq!(
            rerun_line(given, Path::new("/abs/c.toml")),
            "despatch --config /abs/c.toml new g"
        );
    }
}
