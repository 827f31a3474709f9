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
    /// The folder held mail when looked at (before IDLE, or while polling).
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

    /// Every message in the folder, oldest UID first; messages over `max_bytes` are not downloaded.
    pub fn waiting(&mut self, max_bytes: usize) -> Result<Vec<Waiting>, ImapError> {
        let result = self.waiting_inner(max_bytes);
        if result.is_err() {
            self.disconnect();
        }
        result
    }

    fn waiting_inner(&mut self, max_bytes: usize) -> Result<Vec<Waiting>, ImapError> {
        let session = self.session()?;
        // A fresh SELECT/NOOP makes the server report messages that arrived meanwhile.
        session.noop()?;
        let mut uids: Vec<u32> = session.uid_search("ALL")?.into_iter().collect();
        drain_unsolicited(session);
        uids.sort_unstable();
        let mut out = Vec::new();
        for uid in uids {
            let meta = session.uid_fetch(uid.to_string(), "(UID RFC822.SIZE)")?;
            let size = meta.iter().find_map(|f| f.size).unwrap_or(0);
            drop(meta);
            if size as usize > max_bytes {
                out.push(Waiting {
                    uid,
                    size,
                    bytes: None,
                });
                continue;
            }
            let fetched = session.uid_fetch(uid.to_string(), "BODY.PEEK[]")?;
            let bytes = fetched.iter().find_map(|f| f.body().map(<[u8]>::to_vec));
            drop(fetched);
            if let Some(bytes) = bytes {
                out.push(Waiting {
                    uid,
                    size,
                    bytes: Some(bytes),
                });
            }
        }
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
        let (can_move, can_uidplus) = (self.can_move, self.can_uidplus);
        let session = self.session()?;
        if can_move {
            session.uid_mv(set, &folder)?;
        } else {
            session.uid_copy(set, &folder)?;
            session.uid_store(set, "+FLAGS.SILENT (\\Deleted)")?;
            if can_uidplus {
                session.uid_expunge(set)?;
            } else {
                session.expunge()?;
            }
        }
        drain_unsolicited(session);
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
        session.select(&main)?;
        Ok(found)
    }

    /// Whether the folder holds any message now (processed mail leaves the folder, so what is
    /// in it is work to do). NOOP first: the server reports what arrived since the last command.
    fn holds_mail(&mut self) -> Result<bool, ImapError> {
        let session = self
            .session
            .as_mut()
            .ok_or_else(|| ImapError::Protocol("not connected".into()))?;
        let found = session
            .noop()
            .and_then(|_| session.uid_search("ALL"))
            .map(|uids| !uids.is_empty());
        drain_unsolicited(session);
        Ok(found?)
    }

    /// Waits up to `max` for new mail: while `poll` says so, by looking at the folder every
    /// `poll.every`; after it, IDLE when offered and enabled, otherwise a plain sleep.
    ///
    /// Why poll at all: a server may hold back IDLE announcements to group changes (Dovecot
    /// waits 500 ms after a change before it tells an idling client), so mail that comes right
    /// after other mail (our own copies, the next orders of a busy game) would wait that long.
    /// The caller polls only for a short while after mail was handled; a quiet daemon idles.
    pub fn wait(&mut self, max: Duration, poll: Option<&Poll>) -> Result<Woke, ImapError> {
        let result = self.wait_inner(max, poll);
        if result.is_err() {
            self.disconnect();
        }
        result
    }

    fn wait_inner(&mut self, max: Duration, poll: Option<&Poll>) -> Result<Woke, ImapError> {
        let end = Instant::now() + max;
        if self.session.is_none() {
            std::thread::sleep(max);
            return Ok(Woke::TimedOut);
        }
        // Mail that arrived after the last look is in the folder already: no need to wait.
        loop {
            let now = Instant::now();
            let polling = poll.filter(|p| now < p.until && now + p.every < end);
            if self.holds_mail()? {
                return Ok(Woke::Waiting);
            }
            match polling {
                Some(p) => std::thread::sleep(p.every),
                None => break,
            }
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
            imap::extensions::idle::WaitOutcome::MailboxChanged => Ok(Woke::Announced),
            imap::extensions::idle::WaitOutcome::TimedOut => Ok(Woke::TimedOut),
        }
    }
}

/// How `ImapInbox::wait` polls before it idles.
#[derive(Debug, Clone)]
pub struct Poll {
    /// Until when the folder is looked at rather than idled on.
    pub until: Instant,
    pub every: Duration,
}

/// Empties the channel where the `imap` crate keeps the server's unsolicited responses: nothing
/// here reads them, and unread they would pile up for the life of the session.
fn drain_unsolicited(session: &mut imap::Session<Stream>) {
    while session.unsolicited_responses.try_recv().is_ok() {}
}
