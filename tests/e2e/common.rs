//! Helpers shared by the real-server tests and the mail benchmark: the players' IMAP and SMTP
//! clients and a Despatch host (config, daemon process) wired to the loopback servers.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use despatch::store::DataDir;
use mail_parser::MessageParser;

pub static SERIAL: Mutex<()> = Mutex::new(());
pub const DOMAIN: &str = "despatch.test";

/// Whether the real-server tier runs here: with the servers (DESPATCH_E2E=1), it runs; without
/// them on a developer's machine it says SKIPPED; without them in CI (CI set) it fails, so a CI
/// run can never pass while this tier silently did nothing.
#[derive(Debug, PartialEq, Eq)]
pub enum Tier {
    Run,
    Skip(String),
    Fail(String),
}

pub fn tier(e2e: Option<&str>, ci: Option<&str>) -> Tier {
    if e2e == Some("1") {
        return Tier::Run;
    }
    let why = "the real-server tests need Dovecot and Postfix: run `sudo tests/e2e/servers.sh setup` \
               and set DESPATCH_E2E=1 (tests/run.sh and .ci/run do both)";
    match ci.map(str::trim) {
        Some(v) if !v.is_empty() && v != "0" && !v.eq_ignore_ascii_case("false") => {
            Tier::Fail(format!("CI is set but the mail servers are not: {why}"))
        }
        _ => Tier::Skip(why.to_string()),
    }
}

pub fn enabled() -> bool {
    let e2e = std::env::var("DESPATCH_E2E").ok();
    let ci = std::env::var("CI").ok();
    match tier(e2e.as_deref(), ci.as_deref()) {
        Tier::Run => true,
        Tier::Skip(why) => {
            eprintln!("SKIPPED: {why}");
            false
        }
        Tier::Fail(why) => panic!("{why}"),
    }
}

pub fn root() -> PathBuf {
    PathBuf::from(
        std::env::var("DESPATCH_E2E_ROOT").unwrap_or_else(|_| "/var/lib/despatch-e2e".into()),
    )
}

pub fn ca() -> PathBuf {
    root().join("tls/ca.crt")
}

pub fn servers(cmd: &str) {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/e2e/servers.sh");
    let st = Command::new("bash")
        .arg(script)
        .arg(cmd)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(st.success(), "servers.sh {cmd} failed");
}

// ---------- players' side: IMAP reading, SMTP sending ----------

pub type Session = imap::Session<native_tls::TlsStream<std::net::TcpStream>>;

pub fn imap_login(user: &str) -> Session {
    let mut tls = native_tls::TlsConnector::builder();
    tls.add_root_certificate(
        native_tls::Certificate::from_pem(&std::fs::read(ca()).unwrap()).unwrap(),
    );
    let tls = tls.build().unwrap();
    let client = imap::connect(("127.0.0.1", 10993), "localhost", &tls).unwrap();
    client
        .login(user, format!("{user}-pass"))
        .map_err(|(e, _)| e)
        .unwrap()
}

/// Empties every folder of a user's mailbox.
pub fn clear(user: &str) {
    let mut s = imap_login(user);
    let folders: Vec<String> = s
        .list(None, Some("*"))
        .unwrap()
        .iter()
        .map(|n| n.name().to_string())
        .collect();
    for f in folders {
        if s.select(&f).is_ok_and(|m| m.exists > 0) {
            s.store("1:*", "+FLAGS.SILENT (\\Deleted)").unwrap();
            s.expunge().unwrap();
        }
    }
    let _ = s.logout();
}

#[derive(Debug, Clone)]
pub struct Received {
    pub message_id: String,
    pub subject: String,
    pub reply_to: String,
    pub text: String,
    pub raw: Vec<u8>,
}

pub fn mailbox(user: &str, folder: &str) -> Vec<Received> {
    let mut s = imap_login(user);
    let mut out = Vec::new();
    if s.select(folder).is_ok_and(|m| m.exists > 0) {
        let fetched = s.fetch("1:*", "BODY.PEEK[]").unwrap();
        for f in fetched.iter() {
            let raw = f.body().unwrap_or_default().to_vec();
            let m = MessageParser::default().parse(&raw).unwrap();
            out.push(Received {
                message_id: m.message_id().unwrap_or_default().to_string(),
                subject: m.subject().unwrap_or_default().to_string(),
                reply_to: m
                    .reply_to()
                    .and_then(|a| a.first())
                    .and_then(|a| a.address())
                    .unwrap_or_default()
                    .to_string(),
                text: m.body_text(0).map(|t| t.into_owned()).unwrap_or_default(),
                raw,
            });
        }
    }
    let _ = s.logout();
    out
}

/// A player's mail through swaks (a real SMTP client) into Postfix on the players' port.
pub fn swaks(from: &str, to: &str, message_id: &str, subject: &str, body: &str) {
    // The body goes through a file: a large one would not fit on a command line.
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), body).unwrap();
    let out = Command::new("swaks")
        .args(["--server", "127.0.0.1:10025", "--from", from, "--to", to])
        .args(["--header", &format!("Message-Id: <{message_id}>")])
        .args(["--header", &format!("Subject: {subject}")])
        .args(["--body", &format!("@{}", file.path().display())])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "swaks failed: {}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// Many mails quickly over one SMTP connection (lettre, another real client).
pub fn bulk_send(mails: &[(String, String, String, String)]) {
    use lettre::Transport;
    let t = lettre::SmtpTransport::builder_dangerous("127.0.0.1")
        .port(10025)
        .build();
    for (from, to, id, body) in mails {
        let raw = format!(
            "From: <{from}>\r\nTo: <{to}>\r\nSubject: orders\r\nMessage-ID: <{id}>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}\r\n",
            body.replace('\n', "\r\n")
        );
        let env =
            lettre::address::Envelope::new(Some(from.parse().unwrap()), vec![to.parse().unwrap()])
                .unwrap();
        t.send_raw(&env, raw.as_bytes()).unwrap();
    }
}

// ---------- Despatch's side ----------

pub struct Host {
    pub dir: tempfile::TempDir,
    pub config: PathBuf,
    pub daemon: Option<Child>,
    pub log: PathBuf,
}

pub fn host(
    extra_mail: &str,
    imap_port: u16,
    imap_sec: &str,
    smtp_port: u16,
    smtp_sec: &str,
) -> Host {
    let dir = tempfile::tempdir().unwrap();
    let games = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("games");
    let ca = ca();
    let config = dir.path().join("config.toml");
    std::fs::write(
        &config,
        format!(
            r#"data_dir = "var"
[mail]
inbound = "imap"
outbound = "smtp"
address = "despatch@{DOMAIN}"
inbox = "in"
outbox = "out"
gm_address = "gm@{DOMAIN}"
{extra_mail}
[daemon]
poll_seconds = 2
log = "info"
[games]
games_dir = "{games}"
onion_len = 1000
# Every mail on its own: these tests watch each answer cross the real servers (one mail a
# step, the shipped default, crosses them in deployment.rs).
[games.notify]
receipts = true
orders = true
results = true
optional = true
[imap]
host = "localhost"
port = {imap_port}
security = "{imap_sec}"
user = "despatch"
password_env = "DESPATCH_E2E_IMAP_PW"
ca_file = "{ca}"
timeout_seconds = 10
[smtp]
host = "localhost"
port = {smtp_port}
security = "{smtp_sec}"
user = "despatch"
password_env = "DESPATCH_E2E_SMTP_PW"
ca_file = "{ca}"
timeout_seconds = 10
retry_first_seconds = 1
retry_max_seconds = 3
in_flight_grace_seconds = 5
"#,
            games = games.display(),
            ca = ca.display()
        ),
    )
    .unwrap();
    let log = dir.path().join("daemon.log");
    Host {
        dir,
        config,
        daemon: None,
        log,
    }
}

impl Host {
    pub fn cmd(&self) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_despatch"));
        c.arg("--config")
            .arg(&self.config)
            .env("DESPATCH_E2E_IMAP_PW", "despatch-pass")
            .env("DESPATCH_E2E_SMTP_PW", "despatch-pass")
            .stdin(Stdio::null());
        c
    }

    pub fn despatch(&self, args: &[&str]) -> String {
        let out = self.cmd().args(args).output().unwrap();
        assert!(
            out.status.success(),
            "despatch {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    pub fn start(&mut self) {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.log)
            .unwrap();
        self.daemon = Some(
            self.cmd()
                .arg("run")
                .stdout(Stdio::null())
                .stderr(log)
                .spawn()
                .unwrap(),
        );
    }

    /// SIGKILL: no chance to tidy up.
    pub fn kill(&mut self) {
        if let Some(mut c) = self.daemon.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    pub fn data(&self) -> DataDir {
        DataDir::new(self.dir.path().join("var"))
    }

    pub fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for Host {
    fn drop(&mut self) {
        self.kill();
    }
}

pub fn wait_until(what: &str, limit: Duration, mut f: impl FnMut() -> bool) {
    let start = Instant::now();
    while !f() {
        assert!(start.elapsed() < limit, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

pub fn outboxes_empty(h: &Host) -> bool {
    h.data()
        .game_ids()
        .unwrap()
        .iter()
        .all(|g| h.data().game(g).outbox().unwrap().is_empty())
}

/// Every mail Despatch recorded as sent appears exactly once in the recipients' mailboxes.
pub fn assert_each_sent_mail_arrived_once(h: &Host, users: &[&str]) {
    let mut received: BTreeMap<String, usize> = BTreeMap::new();
    for u in users {
        for m in mailbox(u, "INBOX") {
            *received.entry(m.message_id).or_default() += 1;
        }
    }
    let dupes: Vec<_> = received.iter().filter(|(_, n)| **n > 1).collect();
    assert!(dupes.is_empty(), "delivered twice: {dupes:?}");
    let mut missing = Vec::new();
    for g in h.data().game_ids().unwrap() {
        for p in h.data().game(&g).sent().unwrap() {
            let b = std::fs::read(&p).unwrap();
            let id = MessageParser::default()
                .parse(&b)
                .unwrap()
                .message_id()
                .unwrap()
                .to_string();
            if !received.contains_key(&id) {
                missing.push(p.display().to_string());
            }
        }
    }
    assert!(
        missing.is_empty(),
        "recorded as sent but never arrived: {missing:?}"
    );
}
