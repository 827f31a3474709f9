//! `config.toml`: where the data lives, which mail transport to use, and game defaults.
//! Unknown keys are rejected with the key's name; secrets are never read from this file.

pub mod address;
mod check;
mod transport;

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::engine::Policy;

pub use transport::{ImapConfig, MailConfig, PasswordSource, Security, SmtpConfig};

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// Live games, the inbound record and the daemon lock. Relative paths are from the config's
    /// folder; `var` beside the config when not given.
    #[serde(default = "default_data_dir")]
    pub data_dir: PathBuf,
    pub mail: MailConfig,
    #[serde(default)]
    pub daemon: DaemonConfig,
    #[serde(default)]
    pub games: GameDefaults,
    /// Required when `mail.inbound = "imap"`.
    pub imap: Option<ImapConfig>,
    /// Required when `mail.outbound = "smtp"`.
    pub smtp: Option<SmtpConfig>,
    #[serde(default)]
    pub web: WebConfig,
    #[serde(default)]
    pub lobby: LobbyConfig,
    #[serde(default)]
    pub site: SiteConfig,
}

/// The live site (issue 31 point 2; docs/site.md): static pages of every game, rewritten
/// after every step, which any web server serves.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SiteConfig {
    /// The public https URL of the site's root, as readers reach it
    /// (`https://club.example.org/games`). Unset: mails carry no links; the pages are still
    /// written.
    pub base_url: Option<String>,
    /// The folder the site is written into (relative paths are from the config's folder).
    /// Unset: `<data_dir>/archive`, where game archives have always been.
    pub root: Option<PathBuf>,
}

/// Games opened and joined by mail (issue 31 point 1; docs/club-rules.md, the lobby).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LobbyConfig {
    /// Who may open and join games by mail.
    #[serde(default)]
    pub open: crate::engine::lobby::Who,
    /// The club's members (addresses), for `open = "members"`; the organiser always is one.
    #[serde(default)]
    pub members: Vec<String>,
    /// Hours an open game waits for its seats to be taken before it lapses.
    #[serde(default = "default_expire_hours")]
    pub expire_hours: u32,
    /// The fewest and most hours a step may be given with `PACE`.
    #[serde(default = "default_pace_hours")]
    pub pace_hours: [u32; 2],
    /// Open games one member may have waiting at once.
    #[serde(default = "default_open_per_member")]
    pub open_per_member: u32,
}

fn default_expire_hours() -> u32 {
    336
}

fn default_pace_hours() -> [u32; 2] {
    [12, 336]
}

fn default_open_per_member() -> u32 {
    3
}

impl Default for LobbyConfig {
    fn default() -> Self {
        Self {
            open: Default::default(),
            members: vec![],
            expire_hours: default_expire_hours(),
            pace_hours: default_pace_hours(),
            open_per_member: default_open_per_member(),
        }
    }
}

/// What Despatch says about the web (docs/club-rules.md L1).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WebConfig {
    /// RFC 8058 one-click unsubscription: the public https URL under which the club's
    /// reverse proxy passes `<URL>/<code>` to `despatch listen`. Unset: mails carry only the
    /// `mailto:` List-Unsubscribe, and `despatch doctor` says so.
    pub unsubscribe_url: Option<String>,
}

fn default_data_dir() -> PathBuf {
    "var".into()
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
    /// Where rulesets are read at run time (`<games_dir>/<ruleset>/`: order reference, data,
    /// scenarios). Left out: `games` beside the config, then the installed copies in
    /// `/usr/local/share/despatch/games` and `/usr/share/despatch/games`.
    #[serde(default = "default_games_dir")]
    pub games_dir: PathBuf,
    /// Whether `games_dir` was written in the config (then only it is searched).
    #[serde(skip)]
    pub games_dir_set: bool,
    /// Deadlines and silence for new games.
    #[serde(default)]
    pub policy: Policy,
    /// Length of each new game's host onion (steps before a new anchor is needed).
    #[serde(default = "default_onion")]
    pub onion_len: u64,
    /// Time zone for deadlines when a seat has none.
    #[serde(default = "default_tz")]
    pub time_zone: String,
    /// Which mails that ask nothing each seat of a new game is sent, until it says otherwise
    /// with `NOTIFY` (`orders`: "X has sent orders" notices; `optional`: results of steps that
    /// only invite the seat).
    #[serde(default)]
    pub notify: crate::store::Notify,
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
            games_dir_set: false,
            policy: Policy::default(),
            onion_len: default_onion(),
            time_zone: default_tz(),
            notify: crate::store::Notify::default(),
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
pub const DEFAULT_CONFIG: &str = include_str!("../../config.toml");

impl Config {
    pub fn parse(text: &str, origin: &Path) -> Result<Self, ConfigError> {
        let games_dir_set = toml::from_str::<toml::Table>(text)
            .ok()
            .and_then(|t| t.get("games")?.as_table()?.get("games_dir").cloned())
            .is_some();
        let mut cfg: Config = toml::from_str(text).map_err(|e| ConfigError::Invalid {
            path: origin.to_path_buf(),
            message: e.to_string(),
        })?;
        check::check(&cfg).map_err(|message| ConfigError::Invalid {
            path: origin.to_path_buf(),
            message,
        })?;
        cfg.games.games_dir_set = games_dir_set;
        let base = origin.parent().unwrap_or(Path::new("."));
        let mut paths = vec![
            &mut cfg.data_dir,
            &mut cfg.mail.inbox,
            &mut cfg.mail.outbox,
            &mut cfg.games.games_dir,
        ];
        if let Some(i) = cfg.imap.as_mut() {
            paths.extend(i.ca_file.as_mut());
            paths.extend(i.password.password_file.as_mut());
        }
        paths.extend(cfg.site.root.as_mut());
        if let Some(s) = cfg.smtp.as_mut() {
            paths.extend(s.ca_file.as_mut());
            paths.extend(s.password.password_file.as_mut());
        }
        for p in paths {
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

    /// Where the live site is written: `site.root`, or `<data_dir>/archive`.
    pub fn site_root(&self) -> PathBuf {
        self.site
            .root
            .clone()
            .unwrap_or_else(|| self.data_dir.join("archive"))
    }

    /// `site.base_url` without a trailing slash, when set.
    pub fn site_url(&self) -> Option<&str> {
        self.site
            .base_url
            .as_deref()
            .map(|u| u.trim_end_matches('/'))
    }

    /// The folders searched for rulesets, in order.
    pub fn games_dirs(&self) -> Vec<PathBuf> {
        let mut dirs = vec![self.games.games_dir.clone()];
        if !self.games.games_dir_set {
            dirs.push(PathBuf::from("/usr/local/share/despatch/games"));
            dirs.push(PathBuf::from("/usr/share/despatch/games"));
        }
        dirs
    }

    /// The folder of ruleset `name` (`<games_dir>/<name>`, holding its `ruleset.toml`), or an
    /// error naming every folder searched.
    pub fn ruleset_dir(&self, name: &str) -> Result<PathBuf, String> {
        let dirs = self.games_dirs();
        dirs.iter()
            .map(|d| d.join(name))
            .find(|d| d.join("ruleset.toml").is_file())
            .ok_or_else(|| {
                format!(
                    "ruleset `{name}`: no {name}/ruleset.toml in {}",
                    dirs.iter()
                        .map(|d| d.display().to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })
    }

    /// The ruleset's order reference (its README) as the games folder has it now, so a club's
    /// edit takes effect without a rebuild.
    pub fn order_reference(&self, name: &str) -> Option<String> {
        let dir = self.ruleset_dir(name).ok()?;
        std::fs::read_to_string(dir.join("README.md")).ok()
    }

    /// Whether `mail.address` is still a placeholder no player can write to: the shipped
    /// `despatch@localhost`, or an address at `localhost` or at a domain kept for examples
    /// (RFC 2606: example.org/.com/.net, `.example`, `.invalid`). `.test` stays allowed, for
    /// test set-ups with their own servers.
    pub fn address_is_placeholder(&self) -> bool {
        let (_, domain) = self.address_parts();
        let d = domain.trim_end_matches('.').to_ascii_lowercase();
        matches!(
            d.as_str(),
            "localhost" | "example.org" | "example.com" | "example.net"
        ) || d.ends_with(".localhost")
            || d.ends_with(".example")
            || d.ends_with(".invalid")
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
        assert_eq!(
            (c.mail.inbound.as_str(), c.mail.outbound.as_str()),
            ("maildir", "maildir")
        );
        assert_eq!(c.data_dir, PathBuf::from("/x/var"));
    }

    #[test]
    fn the_shipped_address_is_a_placeholder_and_a_real_one_is_not() {
        let c = Config::parse(DEFAULT_CONFIG, Path::new("/x/config.toml")).unwrap();
        assert!(c.address_is_placeholder(), "{}", c.mail.address);
        for (address, placeholder) in [
            ("despatch@club.org", false),
            ("despatch@despatch.test", false),
            ("despatch@example.org", true),
            ("games@pbem.example", true),
            ("d@LOCALHOST", true),
        ] {
            let text = DEFAULT_CONFIG.replace("despatch@localhost", address);
            let c = Config::parse(&text, Path::new("c.toml")).unwrap();
            assert_eq!(c.address_is_placeholder(), placeholder, "{address}");
        }
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
        let text = DEFAULT_CONFIG.replace("inbound = \"maildir\"", "inbound = \"pigeon\"");
        let e = Config::parse(&text, Path::new("c.toml"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("pigeon"), "{e}");
    }

    #[test]
    fn imap_and_smtp_sections_parse_and_are_checked() {
        let text = DEFAULT_CONFIG
            .replace("inbound = \"maildir\"", "inbound = \"imap\"")
            .replace("outbound = \"maildir\"", "outbound = \"smtp\"")
            + "\n[imap]\nhost = \"imap.test.example\"\nuser = \"d@example.org\"\npassword_env = \"X\"\n\n[smtp]\nhost = \"smtp.test.example\"\nuser = \"d@example.org\"\npassword_file = \"secret/smtp\"\n";
        let c = Config::parse(&text, Path::new("/etc/despatch/config.toml")).unwrap();
        let imap = c.imap.unwrap();
        assert_eq!((imap.port, imap.security), (993, Security::Tls));
        let smtp = c.smtp.unwrap();
        assert_eq!((smtp.port, smtp.security), (587, Security::Starttls));
        assert_eq!(
            smtp.password.password_file,
            Some(PathBuf::from("/etc/despatch/secret/smtp"))
        );
        let plain = text.replace(
            "host = \"smtp.test.example\"",
            "host = \"smtp.test.example\"\nsecurity = \"none\"",
        );
        let e = Config::parse(&plain, Path::new("c.toml"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("only allowed for a server on this machine"),
            "{e}"
        );
        let no_section = DEFAULT_CONFIG.replace("outbound = \"maildir\"", "outbound = \"smtp\"");
        assert!(Config::parse(&no_section, Path::new("c.toml")).is_err());
        let typo = text.replace("password_env", "pasword_env");
        let e = Config::parse(&typo, Path::new("c.toml"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("pasword_env"), "{e}");
    }
}
