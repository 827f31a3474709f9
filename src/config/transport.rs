//! The `[mail]`, `[imap]` and `[smtp]` sections of `config.toml`: how mail comes in and goes
//! out, and where a server's password comes from (never from the file itself). Parsing only;
//! the ranges are checked in `check.rs`.

use std::path::PathBuf;

use serde::Deserialize;

use super::ConfigError;

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
