//! A Naval game on local Maildirs with two known seats (pinned secrets), driven by raw mails
//! through `Daemon::ingest`: each seat's inbox with reply addresses and Message-IDs, and a
//! player who answers the mail asking about the open step.
#![allow(dead_code)]

use chrono::{DateTime, Duration, TimeZone, Utc};
use despatch::config::{Config, DEFAULT_CONFIG};
use despatch::daemon::{Daemon, Intake};
use despatch::dice::GameSecrets;
use mail_parser::MessageParser;

pub const SEATS: [(&str, &str, &str); 2] = [
    ("japan", "togo@fleet.example", "japantokenxxxxxxxxxxxxxx"),
    ("russia", "rozh@fleet.example", "russiatokenxxxxxxxxxxxxx"),
];

pub struct Mail {
    pub message_id: String,
    pub in_reply_to: String,
    pub reply_to: String,
    pub subject: String,
    pub text: String,
}

pub struct Game {
    _tmp: tempfile::TempDir,
    pub d: Daemon,
    pub n: i64,
}

pub fn start() -> Game {
    start_with("training")
}

pub fn start_with(scenario: &str) -> Game {
    start_configured(scenario, |_| {})
}

/// `start_with`, the configuration changed first (a game's policy is fixed at creation).
pub fn start_configured(scenario: &str, change: impl FnOnce(&mut Config)) -> Game {
    let tmp = tempfile::tempdir().unwrap();
    let mut cfg = Config::parse(DEFAULT_CONFIG, &tmp.path().join("config.toml")).unwrap();
    cfg.games.games_dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("games");
    // Every mail kind on its own, as these tests read them (one mail a step: one_mail_a_step.rs).
    cfg.games.notify = despatch::store::Notify::all();
    change(&mut cfg);
    let d = Daemon::new(cfg).unwrap();
    d.create_game_with(
        "g",
        "naval-rjw",
        scenario,
        &SEATS.map(|(s, a, _)| (s.to_string(), a.to_string())),
        Utc.with_ymd_and_hms(2026, 6, 1, 9, 0, 0).unwrap(),
        GameSecrets::pinned("g", [1; 32], [2; 32], 100),
        &SEATS.map(|(_, _, t)| t.to_string()),
    )
    .unwrap();
    d.deliver().unwrap();
    Game { _tmp: tmp, d, n: 0 }
}

impl Game {
    pub fn step(&self) -> u64 {
        self.d.open_game("g").unwrap().game.book().step
    }

    pub fn waiting(&self) -> Vec<String> {
        self.d.open_game("g").unwrap().game.waiting_for()
    }

    pub fn journal(&self) -> Vec<u8> {
        let g = self.d.open_game("g").unwrap();
        std::fs::read(g.store.journal_path()).unwrap()
    }

    pub fn orders(&self, seat: &str) -> String {
        let g = self.d.open_game("g").unwrap();
        g.game.sample_orders(seat, 0)
    }

    /// Every mail to `seat`'s player, oldest first.
    pub fn inbox(&self, seat: &str) -> Vec<Mail> {
        let address = SEATS.iter().find(|s| s.0 == seat).unwrap().1;
        self.mails_to(address)
    }

    /// Every mail to `address`, oldest first.
    pub fn mails_to(&self, address: &str) -> Vec<Mail> {
        let mut files: Vec<_> = ["new", "cur"]
            .iter()
            .flat_map(|sub| std::fs::read_dir(self.d.cfg.mail.outbox.join(sub)).unwrap())
            .map(|e| e.unwrap().path())
            .collect();
        // In the order they were delivered (answers to a mail are named after it, not after
        // the journal, so names alone do not say which came last).
        files.sort_by_key(|p| {
            let when = std::fs::metadata(p).and_then(|m| m.modified()).unwrap();
            (when, p.file_name().unwrap().to_os_string())
        });
        let mut out = Vec::new();
        for p in files {
            let bytes = std::fs::read(&p).unwrap();
            // Maildir files carry local (LF) line endings, as mail tools expect.
            assert!(
                !bytes.windows(2).any(|w| w == b"\r\n"),
                "{} has CRLF line ends",
                p.display()
            );
            let m = MessageParser::default().parse(&bytes).unwrap();
            let first = |a: Option<&mail_parser::Address>| {
                a.and_then(|a| a.first())
                    .and_then(|a| a.address())
                    .unwrap_or("")
                    .to_string()
            };
            if first(m.to()) == address {
                out.push(Mail {
                    message_id: m.message_id().unwrap_or("").to_string(),
                    in_reply_to: m.in_reply_to().as_text().unwrap_or("").to_string(),
                    reply_to: first(m.reply_to()),
                    subject: m.subject().unwrap_or("").to_string(),
                    text: m.body_text(0).map(|t| t.into_owned()).unwrap_or_default(),
                });
            }
        }
        out
    }

    /// Sends a mail from `seat`'s player; returns the outcome and the text of the answer.
    pub fn send(
        &mut self,
        seat: &str,
        to: &str,
        subject: &str,
        in_reply_to: Option<&str>,
        body: &str,
    ) -> (Intake, String) {
        let from = SEATS.iter().find(|s| s.0 == seat).unwrap().1;
        let out = self.send_from(from, to, subject, in_reply_to, body);
        let answer = self
            .inbox(seat)
            .into_iter()
            .rev()
            .find(|m| m.in_reply_to == format!("m{}@player.example", self.n))
            .map(|m| m.text)
            .unwrap_or_default();
        (out, answer)
    }

    /// Sends a mail from any address (a player's second address, a stranger); returns the
    /// outcome. Whatever it caused is delivered to the outbox.
    pub fn send_from(
        &mut self,
        from: &str,
        to: &str,
        subject: &str,
        in_reply_to: Option<&str>,
        body: &str,
    ) -> Intake {
        self.n += 1;
        let threading = in_reply_to
            .map(|id| format!("In-Reply-To: <{id}>\r\nReferences: <{id}>\r\n"))
            .unwrap_or_default();
        let raw = format!(
            "From: Player <{from}>\r\nTo: {to}\r\nSubject: {subject}\r\n{threading}Message-ID: <m{}@player.example>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}\r\n",
            self.n,
            body.replace('\n', "\r\n")
        );
        let now: DateTime<Utc> =
            Utc.with_ymd_and_hms(2026, 6, 1, 10, 0, 0).unwrap() + Duration::minutes(self.n);
        let out = self.d.ingest(raw.as_bytes(), now).unwrap();
        self.d.deliver().unwrap();
        out
    }

    /// Every waiting seat replies to its newest mail with sample orders until step `k` opens
    /// (or the game ends).
    pub fn play_until(&mut self, k: u64) {
        let mut guard = 0;
        while self.step() < k && !self.d.open_game("g").unwrap().game.is_over() {
            guard += 1;
            assert!(guard < 50, "the game did not reach step {k}");
            for seat in self.waiting() {
                let last = self.inbox(&seat).pop().unwrap();
                let orders = self.orders(&seat);
                let (out, answer) = self.send(
                    &seat,
                    &last.reply_to,
                    &format!("Re: {}", last.subject),
                    Some(&last.message_id),
                    &orders,
                );
                assert!(matches!(out, Intake::Accepted { .. }), "{out:?}: {answer}");
            }
        }
    }
}

pub fn plain_address(seat: &str) -> String {
    let token = SEATS.iter().find(|s| s.0 == seat).unwrap().2;
    format!("despatch+g.{seat}.{token}@localhost")
}
