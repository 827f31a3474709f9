//! SMTP delivery with lettre: submission over STARTTLS or implicit TLS (certificates verified),
//! optional login, timeouts, and every failure sorted into transient (retry later) or
//! permanent (give up and report). It keeps no queue: the store's outbox is the queue.

use std::time::Duration;

use lettre::address::Envelope;
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters};
use lettre::{Address, SmtpTransport, Transport};

use crate::config::{Security, SmtpConfig};

/// Why a mail did not go.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SendError {
    /// Worth trying again later (server down, 4xx, timeout, connection lost).
    #[error("transient: {0}")]
    Transient(String),
    /// The server refused for good (5xx: unknown recipient, message refused) or the mail is bad.
    #[error("permanent: {0}")]
    Permanent(String),
}

#[derive(Debug, thiserror::Error)]
#[error("SMTP configuration: {0}")]
pub struct SmtpConfigError(String);

pub struct SmtpOutbox {
    transport: SmtpTransport,
    host: String,
    port: u16,
}

impl SmtpOutbox {
    pub fn new(cfg: &SmtpConfig, password: Option<String>) -> Result<Self, SmtpConfigError> {
        let bad = |e: String| SmtpConfigError(e);
        let mut params = TlsParameters::builder(cfg.host.clone());
        if let Some(ca) = &cfg.ca_file {
            let pem = std::fs::read(ca).map_err(|e| bad(format!("{}: {e}", ca.display())))?;
            let cert =
                Certificate::from_pem(&pem).map_err(|e| bad(format!("{}: {e}", ca.display())))?;
            params = params.add_root_certificate(cert);
        }
        let params = params.build().map_err(|e| bad(e.to_string()))?;
        let tls = match cfg.security {
            Security::Tls => Tls::Wrapper(params),
            // Required, never opportunistic: a stripped STARTTLS must not downgrade us to plain.
            Security::Starttls => Tls::Required(params),
            Security::None => Tls::None,
        };
        let mut b = SmtpTransport::builder_dangerous(cfg.host.clone())
            .port(cfg.port)
            .tls(tls)
            .timeout(Some(Duration::from_secs(cfg.timeout_seconds.max(1))));
        match (&cfg.user, password) {
            (Some(user), Some(pw)) => b = b.credentials(Credentials::new(user.clone(), pw)),
            (Some(user), None) => {
                return Err(bad(format!(
                    "smtp.user = \"{user}\" but no password_env or password_file"
                )));
            }
            _ => {}
        }
        Ok(Self {
            transport: b.build(),
            host: cfg.host.clone(),
            port: cfg.port,
        })
    }

    /// Connects, EHLO, STARTTLS or TLS and AUTH exactly as a delivery would, then NOOP: what
    /// `despatch doctor` checks. `Ok(false)` when the server did not answer the NOOP.
    pub fn test_connection(&self) -> Result<bool, lettre::transport::smtp::Error> {
        self.transport.test_connection()
    }

    /// Submits one message. `from` is the envelope sender (bounces come back to the game address,
    /// where intake recognises them), `to` the recipient.
    /// `copy_to`, when given, is a second envelope recipient in the same transaction: the
    /// server accepts the mail for both or for neither, so the copy proves acceptance.
    pub fn send(
        &self,
        from: &str,
        to: &str,
        copy_to: Option<&str>,
        bytes: &[u8],
    ) -> Result<(), SendError> {
        let parse = |a: &str| {
            a.parse::<Address>()
                .map_err(|e| SendError::Permanent(format!("address {a}: {e}")))
        };
        let mut rcpt = vec![parse(to)?];
        if let Some(c) = copy_to {
            rcpt.push(parse(c)?);
        }
        let envelope = Envelope::new(Some(parse(from)?), rcpt)
            .map_err(|e| SendError::Permanent(e.to_string()))?;
        match self.transport.send_raw(&envelope, bytes) {
            Ok(_) => Ok(()),
            Err(e) if e.is_permanent() => Err(SendError::Permanent(format!(
                "{}:{} refused it: {e}",
                self.host, self.port
            ))),
            Err(e) => Err(SendError::Transient(format!(
                "{}:{}: {e}",
                self.host, self.port
            ))),
        }
    }
}
