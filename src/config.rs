//! `config.toml`: where the data lives, which mail transport to use, and game defaults.
//! Unknown keys are rejected with the key's name; secrets are never read from this file.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::engine::Policy;

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// Live games, the inbound record and the daemon lock. Relative paths are from the config's folder.
    pub data_dir: PathBuf,
    pub mail: MailConfig,
    #[serde(default)]
    pub daemon: DaemonConfig,
    #[serde(default)]
    pub games: GameDefaults,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MailConfig {
    /// `maildir` (the embedded default). IMAP/SMTP come with their own keys later.
    pub transport: String,
    /// The game address players write to; replies go to `<local>+<game>.<seat>.<secret>@<domain>`.
    pub address: String,
    /// Display name on outgoing mail.
    #[serde(default = "default_from_name")]
    pub from_name: String,
    /// Maildir that receives players' mail.
    pub inbox: PathBuf,
    /// Maildir into which outgoing mail is delivered.
    pub outbox: PathBuf,
    /// Largest message accepted, in bytes; larger ones are set aside unread.
    #[serde(default = "default_max_bytes")]
    pub max_message_bytes: usize,
}

fn default_from_name() -> String {
    "Despatch".into()
}

fn default_max_bytes() -> usize {
    2 * 1024 * 1024
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DaemonConfig {
    /// Seconds between looks at the inbox and the clock.
    #[serde(default = "default_poll")]
    pub poll_seconds: u64,
    /// `tracing` filter, e.g. `info` or `despatch=debug`.
    #[serde(default = "default_log")]
    pub log: String,
}

fn default_poll() -> u64 {
    10
}

fn default_log() -> String {
    "info".into()
}

impl Default for DaemonConfig {
    fn default() -> Self {
        Self {
            poll_seconds: default_poll(),
            log: default_log(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameDefaults {
    /// Where `despatch new` looks for rulesets (`<games_dir>/<ruleset>/`).
    #[serde(default = "default_games_dir")]
    pub games_dir: PathBuf,
    /// Deadlines and silence for new games.
    #[serde(default)]
    pub policy: Policy,
    /// Length of each new game's host onion (steps before a new anchor is needed).
    #[serde(default = "default_onion")]
    pub onion_len: u64,
    /// Time zone for deadlines when a seat has none.
    #[serde(default = "default_tz")]
    pub time_zone: String,
}

fn default_games_dir() -> PathBuf {
    PathBuf::from("games")
}

fn default_onion() -> u64 {
    crate::dice::DEFAULT_ONION_LEN
}

fn default_tz() -> String {
    "UTC".into()
}

impl Default for GameDefaults {
    fn default() -> Self {
        Self {
            games_dir: default_games_dir(),
            policy: Policy::default(),
            onion_len: default_onion(),
            time_zone: default_tz(),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: {message}")]
    Invalid { path: PathBuf, message: String },
}

/// The documented default configuration, shipped at the top of the repository.
pub const DEFAULT_CONFIG: &str = include_str!("../config.toml");

impl Config {
    pub fn parse(text: &str, origin: &Path) -> Result<Self, ConfigError> {
        let mut cfg: Config = toml::from_str(text).map_err(|e| ConfigError::Invalid {
            path: origin.to_path_buf(),
            message: e.to_string(),
        })?;
        if cfg.mail.transport != "maildir" {
            return Err(ConfigError::Invalid {
                path: origin.to_path_buf(),
                message: format!(
                    "mail.transport = \"{}\": only \"maildir\" is available in this version",
                    cfg.mail.transport
                ),
            });
        }
        if !cfg.mail.address.contains('@') {
            return Err(ConfigError::Invalid {
                path: origin.to_path_buf(),
                message: format!("mail.address = \"{}\" is not an address", cfg.mail.address),
            });
        }
        if let Err(e) = cfg.games.time_zone.parse::<chrono_tz::Tz>() {
            return Err(ConfigError::Invalid {
                path: origin.to_path_buf(),
                message: format!("games.time_zone: {e}"),
            });
        }
        let base = origin.parent().unwrap_or(Path::new("."));
        for p in [
            &mut cfg.data_dir,
            &mut cfg.mail.inbox,
            &mut cfg.mail.outbox,
            &mut cfg.games.games_dir,
        ] {
            if p.is_relative() {
                *p = base.join(&*p);
            }
        }
        Ok(cfg)
    }

    pub fn load(path: &Path) -> Result<Self, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        Self::parse(&text, path)
    }

    /// Local part and domain of the game address.
    pub fn address_parts(&self) -> (String, String) {
        let (l, d) = self
            .mail
            .address
            .split_once('@')
            .unwrap_or(("despatch", "localhost"));
        (l.to_string(), d.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_config_parses() {
        let c = Config::parse(DEFAULT_CONFIG, Path::new("/x/config.toml")).unwrap();
        assert_eq!(c.mail.transport, "maildir");
        assert_eq!(c.data_dir, PathBuf::from("/x/var"));
    }

    #[test]
    fn unknown_keys_are_named() {
        let text = DEFAULT_CONFIG.replace("[mail]", "[mail]\nsmpt_host = \"x\"");
        let e = Config::parse(&text, Path::new("c.toml"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("smpt_host"), "{e}");
    }

    #[test]
    fn unknown_transport_is_refused() {
        let text = DEFAULT_CONFIG.replace("transport = \"maildir\"", "transport = \"pigeon\"");
        let e = Config::parse(&text, Path::new("c.toml"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("pigeon"), "{e}");
    }
}
