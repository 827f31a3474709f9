//! The network checks of `despatch doctor`: an IMAP login and folder, an SMTP EHLO, STARTTLS or
//! TLS and AUTH, each through the daemon's own transports (`mail::imap`, `mail::smtp`) and
//! within a short timeout. What failed is sorted into a `NetOutcome` by pure classifiers; no
//! mail is sent and nothing in a mailbox is read.

use std::time::Duration;

use crate::config::{ImapConfig, SmtpConfig};
use crate::mail::imap::{ImapError, ImapInbox};
use crate::mail::smtp::SmtpOutbox;

use super::checks::NetOutcome;

/// No check waits longer than this on a server, whatever the configured timeout.
pub const MAX_WAIT: Duration = Duration::from_secs(15);

fn capped(seconds: u64) -> u64 {
    seconds.clamp(1, MAX_WAIT.as_secs())
}

/// Connects, logs in and selects the folder, as the daemon does (it also makes the
/// processed, quarantine and sent folders if they are missing, as the daemon would).
pub fn imap(cfg: &ImapConfig, password: &str) -> NetOutcome {
    let mut cfg = cfg.clone();
    cfg.timeout_seconds = capped(cfg.timeout_seconds);
    let mut inbox = match ImapInbox::new(cfg.clone(), password.to_string()) {
        Ok(i) => i,
        Err(e) => return classify_imap(&e),
    };
    match inbox.connect() {
        Ok(()) => {
            inbox.disconnect();
            NetOutcome::Fine(format!(
                "TLS, login as {} and folder {} fine",
                cfg.user, cfg.folder
            ))
        }
        Err(e) => classify_imap(&e),
    }
}

/// Sorts an IMAP failure by the step it happened at (see `ImapInbox::connect`'s wording).
pub fn classify_imap(e: &ImapError) -> NetOutcome {
    match e {
        ImapError::Connect { detail, .. } if detail.starts_with("login as") => {
            NetOutcome::Auth(detail.clone())
        }
        ImapError::Connect { detail, .. }
            if detail.starts_with("TLS:") || detail.starts_with("STARTTLS:") =>
        {
            NetOutcome::Tls(detail.clone())
        }
        ImapError::Connect { detail, .. } => NetOutcome::Unreachable(detail.clone()),
        ImapError::Protocol(d) => NetOutcome::Folder(d.clone()),
        ImapError::Config(d) => NetOutcome::Config(d.clone()),
    }
}

/// Connects, EHLO, STARTTLS or TLS and AUTH as a delivery would, then NOOP and QUIT.
pub fn smtp(cfg: &SmtpConfig, password: Option<String>) -> NetOutcome {
    let mut cfg = cfg.clone();
    cfg.timeout_seconds = capped(cfg.timeout_seconds);
    let outbox = match SmtpOutbox::new(&cfg, password) {
        Ok(o) => o,
        Err(e) => return NetOutcome::Config(e.to_string()),
    };
    match outbox.test_connection() {
        Ok(true) => NetOutcome::Fine(format!(
            "EHLO{}{} fine",
            match cfg.security {
                crate::config::Security::Tls => ", TLS",
                crate::config::Security::Starttls => ", STARTTLS",
                crate::config::Security::None => " (no TLS: this machine only)",
            },
            match &cfg.user {
                Some(u) => format!(" and AUTH as {u}"),
                None => String::new(),
            }
        )),
        Ok(false) => NetOutcome::Unreachable("the server did not answer NOOP".into()),
        Err(e) => classify_smtp(&SmtpFailure {
            code: e.status().map(|c| c.to_string()),
            tls: e.is_tls(),
            timeout: e.is_timeout(),
            message: e.to_string(),
        }),
    }
}

/// An SMTP failure as values (lettre's error, taken apart).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SmtpFailure {
    /// The server's reply code, when the server answered.
    pub code: Option<String>,
    pub tls: bool,
    pub timeout: bool,
    pub message: String,
}

/// Sorts an SMTP failure: the reply codes of RFC 4954 for a refused login, TLS, or anything
/// else the server (or the way to it) said.
pub fn classify_smtp(f: &SmtpFailure) -> NetOutcome {
    const AUTH_CODES: &[&str] = &["454", "530", "534", "535", "538"];
    if f.code.as_deref().is_some_and(|c| AUTH_CODES.contains(&c))
        || f.message.to_ascii_lowercase().contains("authentication")
    {
        return NetOutcome::Auth(f.message.clone());
    }
    if f.tls {
        return NetOutcome::Tls(f.message.clone());
    }
    if f.timeout {
        return NetOutcome::Unreachable(format!("timed out: {}", f.message));
    }
    NetOutcome::Unreachable(f.message.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn imap_failures_are_sorted_by_step() {
        let at = |detail: &str| ImapError::Connect {
            host: "h".into(),
            port: 993,
            detail: detail.into(),
        };
        assert!(matches!(
            classify_imap(&at(
                "login as despatch: No Response: [AUTHENTICATIONFAILED]"
            )),
            NetOutcome::Auth(_)
        ));
        assert!(matches!(
            classify_imap(&at("TLS: certificate verify failed")),
            NetOutcome::Tls(_)
        ));
        assert!(matches!(
            classify_imap(&at("STARTTLS: unexpected EOF")),
            NetOutcome::Tls(_)
        ));
        assert!(matches!(
            classify_imap(&at("Connection refused (os error 111)")),
            NetOutcome::Unreachable(_)
        ));
        assert!(matches!(
            classify_imap(&ImapError::Protocol("Mailbox doesn't exist: Orders".into())),
            NetOutcome::Folder(_)
        ));
    }

    #[test]
    fn smtp_failures_are_sorted_by_reply_code() {
        let f = |code: Option<&str>, tls: bool, message: &str| SmtpFailure {
            code: code.map(str::to_string),
            tls,
            timeout: false,
            message: message.into(),
        };
        assert!(matches!(
            classify_smtp(&f(Some("535"), false, "permanent error (535): 5.7.8 bad")),
            NetOutcome::Auth(_)
        ));
        assert!(matches!(
            classify_smtp(&f(None, true, "tls error")),
            NetOutcome::Tls(_)
        ));
        // Control: another refusal is not called a login problem.
        assert!(matches!(
            classify_smtp(&f(Some("554"), false, "permanent error (554): go away")),
            NetOutcome::Unreachable(_)
        ));
    }
}
