//! IMAP intake: reads the game mailbox over TLS (implicit or STARTTLS, certificates verified),
//! files each message into the processed, held or quarantine folder only after the daemon has stored
//! its effects, and waits with IDLE where the server offers it. It decides nothing about games;
//! on any connection error it drops the session and the next call reconnects.

use std::collections::BTreeSet;
use std::net::{TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

use native_tls::{Certificate, TlsConnector, TlsStream};

use crate::config::{ImapConfig, Security};

#[derive(Debug, thiserror::Error)]
pub enum ImapError {
    #[error("IMAP {host}:{port}: {detail}")]
    Connect {
        host: String,
        port: u16,
        detail: String,
    },
    #[error("IMAP: {0}")]
    Protocol(String),
    #[error("IMAP configuration: {0}")]
    Config(String),
}

impl From<imap::Error> for ImapError {
    fn from(e: imap::Error) -> Self {
        ImapError::Protocol(e.to_string())
    }
}

type Stream = TlsStream<TcpStream>;

/// One message waiting in the folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Waiting {
    pub uid: u32,
    pub size: u32,
    /// `None` when the message is larger than the limit and was not downloaded.
    pub bytes: Option<Vec<u8>>,
}

/// Where a message goes once the daemon is done with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Filing {
    Processed,
    /// Held by the daemon, which keeps its own copy and reads that one later.
    Held,
    Quarantine,
    /// A copy of Despatch's own outgoing mail.
    Sent,
}

/// How a wait for new mail ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Woke {
    /// The folder held mail when looked at before IDLE (or the server told of it during the pass).
    Waiting,
    /// The server announced a change during IDLE.
    Announced,
    /// Nothing came within the time given.
    TimedOut,
}

pub struct ImapInbox {
    cfg: ImapConfig,
    password: String,
    tls: TlsConnector,
    session: Option<imap::Session<Stream>>,
    /// The session's socket, to restore its read timeout after IDLE: the `imap` crate's IDLE
    /// clears it on the way out, which would leave every later read without a timeout.
    socket: Option<TcpStream>,
    /// (UIDVALIDITY, capabilities) of the current session's folder.
    uid_validity: Option<u32>,
    can_move: bool,
    can_idle: bool,
    can_uidplus: bool,
    /// The server told of mail (an `EXISTS`) that the last folder read did not see: in the
    /// answer to a later command of the pass, or to the look before IDLE. Mail that arrives
    /// during a pass is read at once, not left for the next announcement.
    news: bool,
    /// The session's view of the folder was brought up to date by the command that ended the
    /// last wait (NOOP, or an IDLE announcement), so the next folder read needs no NOOP first.
    synced: bool,
}

impl ImapInbox {
    pub fn new(cfg: ImapConfig, password: String) -> Result<Self, ImapError> {
        let mut b = TlsConnector::builder();
        if let Some(ca) = &cfg.ca_file {
            let pem = std::fs::read(ca)
                .map_err(|e| ImapError::Config(format!("{}: {e}", ca.display())))?;
            let cert = Certificate::from_pem(&pem)
                .map_err(|e| ImapError::Config(format!("{}: {e}", ca.display())))?;
            b.add_root_certificate(cert);
        }
        if cfg.security == Security::None {
            return Err(ImapError::Config(
                "IMAP without TLS is not supported: use security = \"tls\" or \"starttls\"".into(),
            ));
        }
        let tls = b.build().map_err(|e| ImapError::Config(e.to_string()))?;
        Ok(Self {
            cfg,
            password,
            tls,
            session: None,
            socket: None,
            uid_validity: None,
            can_move: false,
            can_idle: false,
            can_uidplus: false,
            news: false,
            synced: false,
        })
    }

    pub fn is_connected(&self) -> bool {
        self.session.is_some()
    }

    fn tcp(&self) -> Result<TcpStream, ImapError> {
        let err = |detail: String| ImapError::Connect {
            host: self.cfg.host.clone(),
            port: self.cfg.port,
            detail,
        };
        let timeout = Duration::from_secs(self.cfg.timeout_seconds.max(1));
        let addr = (self.cfg.host.as_str(), self.cfg.port)
            .to_socket_addrs()
            .map_err(|e| err(e.to_string()))?
            .next()
            .ok_or_else(|| err("no address".into()))?;
        let tcp = TcpStream::connect_timeout(&addr, timeout).map_err(|e| err(e.to_string()))?;
        tcp.set_read_timeout(Some(timeout))
            .map_err(|e| err(e.to_string()))?;
        tcp.set_write_timeout(Some(timeout))
            .map_err(|e| err(e.to_string()))?;
        Ok(tcp)
    }

    /// Connects, logs in, selects the folder and makes sure the target folders exist.
    pub fn connect(&mut self) -> Result<(), ImapError> {
        let host = self.cfg.host.clone();
        let err = |detail: String| ImapError::Connect {
            host: host.clone(),
            port: self.cfg.port,
            detail,
        };
        let tcp = self.tcp()?;
        let socket = tcp.try_clone().map_err(|e| err(e.to_string()))?;
        let client = match self.cfg.security {
            Security::Tls => {
                let tls = self
                    .tls
                    .connect(&self.cfg.host, tcp)
                    .map_err(|e| err(format!("TLS: {e}")))?;
                let mut c = imap::Client::new(tls);
                c.read_greeting().map_err(|e| err(e.to_string()))?;
                c
            }
            Security::Starttls => {
                let mut c = imap::Client::new(tcp);
                c.read_greeting().map_err(|e| err(e.to_string()))?;
                // Capabilities read before TLS are not trusted: they are asked again after login.
                c.secure(&self.cfg.host, &self.tls)
                    .map_err(|e| err(format!("STARTTLS: {e}")))?
            }
            Security::None => unreachable!("refused in new()"),
        };
        let mut session = client
            .login(&self.cfg.user, &self.password)
            .map_err(|(e, _)| err(format!("login as {}: {e}", self.cfg.user)))?;
        let caps = session.capabilities()?;
        self.can_move = caps.has_str("MOVE");
        self.can_idle = caps.has_str("IDLE");
        self.can_uidplus = caps.has_str("UIDPLUS");
        drop(caps);
        let existing: BTreeSet<String> = session
            .list(None, Some("*"))?
            .iter()
            .map(|n| n.name().to_string())
            .collect();
        for folder in [
            &self.cfg.processed_folder,
            &self.cfg.held_folder,
            &self.cfg.quarantine_folder,
            &self.cfg.sent_folder,
        ] {
            if !existing.contains(folder.as_str()) {
                session.create(folder)?;
            }
        }
        let mailbox = session.select(&self.cfg.folder)?;
        self.uid_validity = mailbox.uid_validity;
        // A fresh SELECT: what it counts is still to be read.
        self.news = mailbox.exists > 0;
        self.synced = true;
        self.session = Some(session);
        self.socket = Some(socket);
        Ok(())
    }

    /// Drops the session after an error so the next call reconnects.
    pub fn disconnect(&mut self) {
        if let Some(mut s) = self.session.take() {
            let _ = s.logout();
        }
        self.socket = None;
    }

    fn session(&mut self) -> Result<&mut imap::Session<Stream>, ImapError> {
        if self.session.is_none() {
            self.connect()?;
        }
        Ok(self.session.as_mut().expect("connected above"))
    }

    pub fn uid_validity(&self) -> Option<u32> {
        self.uid_validity
    }

    /// Every message in the folder, oldest UID first; of a message over `max_bytes` only its
    /// size is kept (at most `max_bytes` of it cross the wire, never the whole of it).
    pub fn waiting(&mut self, max_bytes: usize) -> Result<Vec<Waiting>, ImapError> {
        let result = self.waiting_inner(max_bytes);
        if result.is_err() {
            self.disconnect();
        }
        result
    }

    /// One command when the last wait ended on a fresh look or an announcement, two otherwise
    /// (NOOP: the server reports what arrived since the last command): sizes and bodies come
    /// in one `UID FETCH 1:*`, the body cut at `max_bytes` so an oversized message costs no
    /// more than the limit.
    fn waiting_inner(&mut self, max_bytes: usize) -> Result<Vec<Waiting>, ImapError> {
        self.session()?;
        let synced = std::mem::take(&mut self.synced);
        let session = self.session.as_mut().expect("connected above");
        if !synced {
            session.noop()?;
        }
        drain_unsolicited(session);
        self.news = false;
        let session = self.session.as_mut().expect("connected above");
        let items = format!("(UID RFC822.SIZE BODY.PEEK[]<0.{}>)", max_bytes.max(1));
        let fetched = match session.uid_fetch("1:*", &items) {
            Ok(f) => f,
            // A server that refuses `1:*` on an empty folder: ask for the UIDs first.
            Err(imap::Error::Bad(_) | imap::Error::No(_)) => {
                let uids: Vec<String> = session
                    .uid_search("ALL")?
                    .iter()
                    .map(u32::to_string)
                    .collect();
                if uids.is_empty() {
                    return Ok(vec![]);
                }
                session.uid_fetch(uids.join(","), &items)?
            }
            Err(e) => return Err(e.into()),
        };
        let mut out: Vec<Waiting> = fetched
            .iter()
            .filter_map(|f| {
                let (uid, size) = (f.uid?, f.size.unwrap_or(0));
                let bytes = if size as usize > max_bytes {
                    None
                } else {
                    // A message without its body in the answer is left for the next read.
                    Some(f.body()?.to_vec())
                };
                Some(Waiting { uid, size, bytes })
            })
            .collect();
        drop(fetched);
        // An EXISTS in the FETCH's answer is mail that arrived after the view it read.
        self.news |= drain_unsolicited(session);
        out.sort_unstable_by_key(|w| w.uid);
        Ok(out)
    }

    /// Moves messages out of the folder (MOVE, or COPY + \Deleted + expunge), in one command.
    pub fn file(&mut self, uids: &[u32], to: Filing) -> Result<(), ImapError> {
        if uids.is_empty() {
            return Ok(());
        }
        let set = uids
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(",");
        let result = self.file_inner(&set, to);
        if result.is_err() {
            self.disconnect();
        }
        result
    }

    fn file_inner(&mut self, set: &str, to: Filing) -> Result<(), ImapError> {
        let folder = match to {
            Filing::Processed => self.cfg.processed_folder.clone(),
            Filing::Held => self.cfg.held_folder.clone(),
            Filing::Quarantine => self.cfg.quarantine_folder.clone(),
            Filing::Sent => self.cfg.sent_folder.clone(),
        };
        if folder.contains(['\r', '\n']) {
            return Err(ImapError::Config(format!("folder name {folder:?}")));
        }
        let quoted = format!("\"{}\"", folder.replace('\\', "\\\\").replace('"', "\\\""));
        let (can_move, can_uidplus) = (self.can_move, self.can_uidplus);
        let session = self.session()?;
        // MOVE and COPY through the raw command: the crate's own drop the answer's untagged
        // lines, where the server tells of mail that arrived meanwhile.
        let verb = if can_move { "MOVE" } else { "COPY" };
        let answer = session.run_command_and_read_response(format!("UID {verb} {set} {quoted}"))?;
        let mut news = tells_of_new_mail(&answer);
        if !can_move {
            session.uid_store(set, "+FLAGS.SILENT (\\Deleted)")?;
            if can_uidplus {
                session.uid_expunge(set)?;
            } else {
                session.expunge()?;
            }
        }
        news |= drain_unsolicited(session);
        self.news |= news;
        Ok(())
    }

    /// Whether a message with this Message-ID (without `<>`) is in the folder or the sent folder.
    pub fn holds(&mut self, message_id: &str) -> Result<bool, ImapError> {
        let result = self.holds_inner(message_id);
        if result.is_err() {
            self.disconnect();
        }
        result
    }

    fn holds_inner(&mut self, message_id: &str) -> Result<bool, ImapError> {
        let folders = [self.cfg.sent_folder.clone(), self.cfg.folder.clone()];
        let main = self.cfg.folder.clone();
        let session = self.session()?;
        let quoted = message_id.replace(['"', '\\', '\r', '\n'], "");
        let mut found = false;
        for f in &folders {
            session.select(f)?;
            if !session
                .uid_search(format!("HEADER Message-ID \"{quoted}\""))?
                .is_empty()
            {
                found = true;
                break;
            }
        }
        // A new SELECT starts a new view: what it counts is read again, to be sure.
        let mailbox = session.select(&main)?;
        self.news |= mailbox.exists > 0;
        Ok(found)
    }

    /// The fresh look before IDLE, one NOOP: the server answers it with an EXISTS for mail
    /// that arrived since its last report, and reports made during the pass were kept in `news`.
    fn holds_mail(&mut self) -> Result<bool, ImapError> {
        let session = self
            .session
            .as_mut()
            .ok_or_else(|| ImapError::Protocol("not connected".into()))?;
        session.noop()?;
        self.news |= drain_unsolicited(session);
        // The NOOP brought the view up to date: the read that follows needs none.
        self.synced = self.news;
        Ok(self.news)
    }

    /// Waits up to `max` for new mail: a fresh look first (mail that arrived during the last
    /// pass is read at once), then IDLE when offered and enabled, otherwise a plain sleep.
    ///
    /// It never polls: a server may hold back IDLE announcements to group changes (Dovecot by
    /// 500 ms), but an order arrives after a quiet spell and waits that long for a polling
    /// client's first look as much as for IDLE, and a provider may throttle or lock an account
    /// that sends a command every few milliseconds. A busy folder costs no wait at all: each
    /// pass's commands bring word of the mail that came meanwhile, and it is read at once.
    /// NOTIFY (RFC 5465) is not used: it adds news of other folders, which Despatch does not
    /// read; of the selected folder IDLE brings the same news.
    pub fn wait(&mut self, max: Duration) -> Result<Woke, ImapError> {
        let result = self.wait_inner(max);
        if result.is_err() {
            self.disconnect();
        }
        result
    }

    fn wait_inner(&mut self, max: Duration) -> Result<Woke, ImapError> {
        let end = Instant::now() + max;
        if self.session.is_none() {
            std::thread::sleep(max);
            return Ok(Woke::TimedOut);
        }
        if self.holds_mail()? {
            return Ok(Woke::Waiting);
        }
        let left = end.saturating_duration_since(Instant::now());
        if !(self.cfg.idle && self.can_idle) {
            std::thread::sleep(left);
            return Ok(Woke::TimedOut);
        }
        if left.is_zero() {
            return Ok(Woke::TimedOut);
        }
        // RFC 2177: re-issue IDLE at least every 29 minutes.
        let left = left.min(Duration::from_secs(29 * 60));
        let session = self.session.as_mut().expect("checked");
        let outcome = session
            .idle()
            .and_then(|handle| handle.wait_with_timeout(left));
        // The crate's IDLE leaves the socket without a read timeout: put the configured one back,
        // so a server that stops answering later cannot hang the daemon.
        if let Some(socket) = &self.socket {
            let timeout = Duration::from_secs(self.cfg.timeout_seconds.max(1));
            socket
                .set_read_timeout(Some(timeout))
                .map_err(|e| ImapError::Protocol(format!("restoring the read timeout: {e}")))?;
        }
        match outcome? {
            imap::extensions::idle::WaitOutcome::MailboxChanged => {
                // The server announces a change once its view of the folder holds it.
                self.synced = true;
                Ok(Woke::Announced)
            }
            imap::extensions::idle::WaitOutcome::TimedOut => Ok(Woke::TimedOut),
        }
    }
}

/// Empties the channel where the `imap` crate keeps the server's unsolicited responses (unread
/// they would pile up for the life of the session); true when one told of new mail.
fn drain_unsolicited(session: &mut imap::Session<Stream>) -> bool {
    let mut news = false;
    while let Ok(r) = session.unsolicited_responses.try_recv() {
        news |= matches!(r, imap::types::UnsolicitedResponse::Exists(n) if n > 0);
    }
    news
}

/// Whether a command's raw answer holds an untagged `* n EXISTS` (n > 0).
fn tells_of_new_mail(answer: &[u8]) -> bool {
    answer.split(|b| *b == b'\n').any(|line| {
        let line = String::from_utf8_lossy(line);
        let mut words = line.trim_end().split(' ');
        matches!(
            (words.next(), words.next().map(str::parse::<u32>), words.next(), words.next()),
            (Some("*"), Some(Ok(n)), Some(w), None) if n > 0 && w.eq_ignore_ascii_case("EXISTS")
        )
    })
}

#[cfg(test)]
mod tests {
    use super::tells_of_new_mail;

    #[test]
    fn an_exists_in_a_move_answer_is_news() {
        let moved = b"* OK [COPYUID 1 4 9] Moved UIDs.\r\n* 1 EXPUNGE\r\n";
        assert!(!tells_of_new_mail(moved));
        assert!(tells_of_new_mail(b"* 1 EXPUNGE\r\n* 2 EXISTS\r\n"));
        assert!(tells_of_new_mail(b"* 3 exists\r\n"));
        assert!(!tells_of_new_mail(b"* 0 EXISTS\r\n"));
        assert!(!tells_of_new_mail(b"* OK 2 EXISTS here\r\n"));
    }
}
