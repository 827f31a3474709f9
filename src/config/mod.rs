//! `config.toml`: where the data lives, which mail transport to use, and game defaults.
//! Unknown keys are rejected with the key's name; secrets are never read from this file.

pub mod address;

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::engine::Policy;

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

/// How to connect: implicit TLS from the first byte, or plain then STARTTLS.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Security {
    Tls,
    Starttls,
    /// No TLS at all: only accepted for a server on the loopback address (a local MTA).
    None,
}

/// Where a password comes from: never from this file.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PasswordSource {
    /// Name of an environment variable holding the password.
    pub password_env: Option<String>,
    /// A file holding the password (first line), readable by the daemon only.
    pub password_file: Option<PathBuf>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImapConfig {
    pub host: String,
    #[serde(default = "default_imap_port")]
    pub port: u16,
    #[serde(default = "default_tls")]
    pub security: Security,
    pub user: String,
    #[serde(flatten)]
    pub password: PasswordSource,
    /// Extra CA certificate (PEM) trusted besides the system's, e.g. a club's own CA.
    pub ca_file: Option<PathBuf>,
    #[serde(default = "default_folder")]
    pub folder: String,
    /// Where processed mail is moved (created if missing).
    #[serde(default = "default_processed")]
    pub processed_folder: String,
    /// Where mail held for later is moved (created if missing): over a seat's hourly limit,
    /// or whose processing failed. Despatch keeps its own copy and reads that one later; this
    /// folder is an archive it never reads.
    #[serde(default = "default_held")]
    pub held_folder: String,
    /// Where mail that cannot be read is moved (created if missing).
    #[serde(default = "default_quarantine")]
    pub quarantine_folder: String,
    /// Where the copies of Despatch's own outgoing mail are kept (see `smtp.self_copy`).
    #[serde(default = "default_sent")]
    pub sent_folder: String,
    /// Use IDLE when the server offers it; otherwise poll every `daemon.poll_seconds`.
    #[serde(default = "yes")]
    pub idle: bool,
    #[serde(default = "default_timeout")]
    pub timeout_seconds: u64,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SmtpConfig {
    pub host: String,
    #[serde(default = "default_smtp_port")]
    pub port: u16,
    #[serde(default = "default_starttls")]
    pub security: Security,
    /// Login for submission; leave out for a local MTA that needs none.
    pub user: Option<String>,
    #[serde(flatten)]
    pub password: PasswordSource,
    pub ca_file: Option<PathBuf>,
    #[serde(default = "default_timeout")]
    pub timeout_seconds: u64,
    /// First retry after a transient failure; each further one waits twice as long…
    #[serde(default = "default_retry_first")]
    pub retry_first_seconds: u64,
    /// …up to this.
    #[serde(default = "default_retry_max")]
    pub retry_max_seconds: u64,
    /// After this many hours of transient failures a mail counts as undeliverable.
    #[serde(default = "default_give_up")]
    pub give_up_hours: u64,
    /// Send each mail with a copy to the game address (same transaction). With IMAP intake the
    /// copy is the proof, after a crash mid-send, that the server took the mail: so nothing is
    /// sent twice. The copies are filed in `imap.sent_folder`.
    #[serde(default = "yes")]
    pub self_copy: bool,
    /// After a crash mid-send, how long to look for the copy before sending again.
    #[serde(default = "default_grace")]
    pub in_flight_grace_seconds: u64,
}

fn default_grace() -> u64 {
    60
}

fn default_imap_port() -> u16 {
    993
}
fn default_smtp_port() -> u16 {
    587
}
fn default_tls() -> Security {
    Security::Tls
}
fn default_starttls() -> Security {
    Security::Starttls
}
fn default_folder() -> String {
    "INBOX".into()
}
fn default_processed() -> String {
    "Despatch/Processed".into()
}
fn default_held() -> String {
    "Despatch/Held".into()
}
fn default_quarantine() -> String {
    "Despatch/Quarantine".into()
}
fn default_sent() -> String {
    "Despatch/Sent".into()
}
fn yes() -> bool {
    true
}
fn default_timeout() -> u64 {
    30
}
fn default_retry_first() -> u64 {
    30
}
fn default_retry_max() -> u64 {
    3600
}
fn default_give_up() -> u64 {
    72
}

impl PasswordSource {
    /// Reads the password from the environment or the file; `None` if neither is set.
    pub fn resolve(&self, what: &str) -> Result<Option<String>, ConfigError> {
        if let Some(var) = &self.password_env {
            return std::env::var(var)
                .map(Some)
                .map_err(|_| ConfigError::Invalid {
                    path: PathBuf::from(format!("${var}")),
                    message: format!("{what}: the environment variable {var} is not set"),
                });
        }
        if let Some(file) = &self.password_file {
            // A password readable by others is a password already given away.
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                let meta = std::fs::metadata(file).map_err(|source| ConfigError::Read {
                    path: file.clone(),
                    source,
                })?;
                if meta.permissions().mode() & 0o077 != 0 {
                    return Err(ConfigError::Invalid {
                        path: file.clone(),
                        message: format!(
                            "{what}.password_file is readable by others (mode {:o}): `chmod 600` it",
                            meta.permissions().mode() & 0o777
                        ),
                    });
                }
            }
            let text = std::fs::read_to_string(file).map_err(|source| ConfigError::Read {
                path: file.clone(),
                source,
            })?;
            return Ok(Some(text.lines().next().unwrap_or("").to_string()));
        }
        Ok(None)
    }
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MailConfig {
    /// Where players' mail is read: `maildir` (the embedded default) or `imap` (see `[imap]`).
    #[serde(default = "default_maildir")]
    pub inbound: String,
    /// How replies leave: `maildir` (the embedded default) or `smtp` (see `[smtp]`).
    #[serde(default = "default_maildir")]
    pub outbound: String,
    /// The organiser, unless a game names its own (`despatch new --gm`): hears of RESIGN, held
    /// and quarantined mail, unreadable games, `PRESS TO gm` and undeliverable mail.
    pub gm_address: Option<String>,
    /// Mails read per hour from one seat (more are held and read when its hour has room,
    /// see `daemon::held`) and from one sender without a seat's secret (more are set aside
    /// unanswered). 300 is over three times the busiest seat measured in an hour of live
    /// play of any shipped ruleset, 80 mails (tests/rate_budget.rs).
    #[serde(default = "default_rate")]
    pub max_per_sender_per_hour: u32,
    /// The game address players write to; replies go to `<local>+<game>.<seat>.<secret>@<domain>`.
    pub address: String,
    /// Display name on mail not about one game (league, consent); a game's own mails show
    /// the game's id (`compose::from_display_name`).
    #[serde(default = "default_from_name")]
    pub from_name: String,
    /// Maildir that receives players' mail (read only by the `maildir` inbound transport, so
    /// an IMAP set-up need not name it).
    #[serde(default = "default_inbox")]
    pub inbox: PathBuf,
    /// Maildir into which outgoing mail is delivered (`maildir` outbound transport only).
    #[serde(default = "default_outbox")]
    pub outbox: PathBuf,
    /// Largest message accepted, in bytes; larger ones are set aside unread.
    #[serde(default = "default_max_bytes")]
    pub max_message_bytes: usize,
}

fn default_maildir() -> String {
    "maildir".into()
}

fn default_data_dir() -> PathBuf {
    "var".into()
}

fn default_inbox() -> PathBuf {
    "var/mail/inbox".into()
}

fn default_outbox() -> PathBuf {
    "var/mail/outbox".into()
}

fn default_rate() -> u32 {
    300
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

/// A log filter of levels and `module=level` directives: `tracing`'s own parser takes any word
/// as a module name, so a typo such as `verbose!!` would silently log nothing.
fn valid_log_filter(filter: &str) -> bool {
    const LEVELS: &[&str] = &["off", "error", "warn", "info", "debug", "trace"];
    let level = |l: &str| LEVELS.contains(&l.trim().to_ascii_lowercase().as_str());
    let target = |t: &str| {
        !t.is_empty()
            && t.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | ':' | '-'))
    };
    !filter.trim().is_empty()
        && filter.split(',').all(|d| match d.trim().split_once('=') {
            Some((t, l)) => target(t.trim()) && level(l),
            None => level(d),
        })
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
        let bad = |message: String| ConfigError::Invalid {
            path: origin.to_path_buf(),
            message,
        };
        match cfg.mail.inbound.as_str() {
            "maildir" => {}
            "imap" if cfg.imap.is_some() => {}
            "imap" => return Err(bad("mail.inbound = \"imap\" needs an [imap] section".into())),
            other => {
                return Err(bad(format!(
                    "mail.inbound = \"{other}\": use \"maildir\" or \"imap\""
                )));
            }
        }
        match cfg.mail.outbound.as_str() {
            "maildir" => {}
            "smtp" if cfg.smtp.is_some() => {}
            "smtp" => {
                return Err(bad(
                    "mail.outbound = \"smtp\" needs an [smtp] section".into()
                ));
            }
            other => {
                return Err(bad(format!(
                    "mail.outbound = \"{other}\": use \"maildir\" or \"smtp\""
                )));
            }
        }
        for (what, host, sec) in [
            (
                "imap",
                cfg.imap.as_ref().map(|c| c.host.clone()),
                cfg.imap.as_ref().map(|c| c.security),
            ),
            (
                "smtp",
                cfg.smtp.as_ref().map(|c| c.host.clone()),
                cfg.smtp.as_ref().map(|c| c.security),
            ),
        ] {
            if let (Some(host), Some(Security::None)) = (host, sec)
                && !matches!(host.as_str(), "localhost" | "127.0.0.1" | "::1")
            {
                return Err(bad(format!(
                    "{what}.security = \"none\" is only allowed for a server on this machine, not {host}"
                )));
            }
        }
        cfg.check().map_err(bad)?;
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

    /// Every number and name in range, each refusal one line naming the key.
    fn check(&self) -> Result<(), String> {
        fn range(key: &str, v: u64, lo: u64, hi: u64) -> Result<(), String> {
            if v < lo || v > hi {
                return Err(format!("{key} = {v}: use {lo} to {hi}"));
            }
            Ok(())
        }
        self.games
            .policy
            .check()
            .map_err(|e| format!("games.policy.{e}"))?;
        if self.games.policy.club.league.is_some() {
            return Err(
                "games.policy.club.league: a league is chosen per game, with \
                        `despatch new … --league L`"
                    .into(),
            );
        }
        range("games.onion_len", self.games.onion_len, 1, 10_000_000)?;
        range("daemon.poll_seconds", self.daemon.poll_seconds, 1, 86_400)?;
        range(
            "mail.max_message_bytes",
            self.mail.max_message_bytes as u64,
            1024,
            1 << 30,
        )?;
        range(
            "mail.max_per_sender_per_hour",
            self.mail.max_per_sender_per_hour as u64,
            1,
            1_000_000,
        )?;
        if !valid_log_filter(&self.daemon.log) {
            return Err(format!(
                "daemon.log = {:?}: use error, warn, info, debug or trace (or per module, despatch=debug)",
                self.daemon.log
            ));
        }
        for (what, pw) in [
            ("imap", self.imap.as_ref().map(|c| &c.password)),
            ("smtp", self.smtp.as_ref().map(|c| &c.password)),
        ] {
            if let Some(pw) = pw
                && pw.password_env.is_some()
                && pw.password_file.is_some()
            {
                return Err(format!(
                    "{what}: give password_env or password_file, not both"
                ));
            }
        }
        if let Some(i) = &self.imap {
            range("imap.port", i.port as u64, 1, 65_535)?;
            range("imap.timeout_seconds", i.timeout_seconds, 1, 3600)?;
        }
        if let Some(c) = &self.smtp {
            range("smtp.port", c.port as u64, 1, 65_535)?;
            range("smtp.timeout_seconds", c.timeout_seconds, 1, 3600)?;
            range("smtp.retry_first_seconds", c.retry_first_seconds, 1, 86_400)?;
            range(
                "smtp.retry_max_seconds",
                c.retry_max_seconds,
                c.retry_first_seconds,
                7 * 86_400,
            )?;
            range("smtp.give_up_hours", c.give_up_hours, 1, 24 * 60)?;
            range(
                "smtp.in_flight_grace_seconds",
                c.in_flight_grace_seconds,
                1,
                86_400,
            )?;
        }
        if let Some(gm) = &self.mail.gm_address {
            gm.parse::<crate::config::address::Mailbox>()
                .map_err(|e| format!("mail.gm_address: {e}"))?;
        }
        for m in &self.lobby.members {
            m.parse::<crate::config::address::Mailbox>()
                .map_err(|e| format!("lobby.members: {m:?}: {e}"))?;
        }
        range(
            "lobby.expire_hours",
            self.lobby.expire_hours as u64,
            1,
            24 * 90,
        )?;
        let [lo, hi] = self.lobby.pace_hours;
        range("lobby.pace_hours[0]", lo as u64, 1, 24 * 30)?;
        range("lobby.pace_hours[1]", hi as u64, lo as u64, 24 * 30)?;
        range(
            "lobby.open_per_member",
            self.lobby.open_per_member as u64,
            1,
            100,
        )?;
        if let Some(u) = &self.site.base_url
            && (!u.starts_with("https://")
                || u.len() <= "https://".len()
                || u.len() > 300
                || u.contains(['?', '#', '<', '>', ',', '"', '\''])
                || u.chars().any(|c| c.is_whitespace() || c.is_control()))
        {
            return Err(format!(
                "site.base_url = {u:?}: use the https:// URL of the site's root, without a \
                 query, spaces, quotes or angle brackets (a game's page is <base_url>/<game>/)"
            ));
        }
        if let Some(u) = &self.web.unsubscribe_url
            && (!u.starts_with("https://")
                || u.len() <= "https://".len()
                || u.len() > 500
                || u.contains(['?', '#', '<', '>', ',', '"'])
                || u.chars().any(|c| c.is_whitespace() || c.is_control()))
        {
            return Err(format!(
                "web.unsubscribe_url = {u:?}: use an https:// URL without a query, spaces, \
                 commas or angle brackets (RFC 8058 needs https; `/<code>` is appended)"
            ));
        }
        Ok(())
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
