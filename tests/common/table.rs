//! A game of any shipped ruleset on local Maildirs with pinned secrets, and the first seat it
//! asks for orders, driven by raw mails through `Daemon::ingest`.
#![allow(dead_code)]

use chrono::{Duration, TimeZone, Utc};
use despatch::config::{Config, DEFAULT_CONFIG};
use despatch::daemon::{Daemon, Intake};
use despatch::dice::GameSecrets;
use mail_parser::MessageParser;

pub struct Table {
    pub _tmp: tempfile::TempDir,
    pub d: Daemon,
    pub n: u32,
    pub seat: String,
    pub token: String,
    pub address: String,
}

pub fn table(ruleset: &str, scenario: &str, seats: [(&str, &str); 2]) -> Table {
    let tmp = tempfile::tempdir().unwrap();
    let mut cfg = Config::parse(DEFAULT_CONFIG, &tmp.path().join("config.toml")).unwrap();
    cfg.games.games_dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("games");
    // The answer to each mail read at once (one mail a step keeps receipts for the seat's next
    // mail: one_mail_a_step.rs).
    cfg.games.notify = despatch::store::Notify::all();
    let d = Daemon::new(cfg).unwrap();
    let tokens = ["firsttokenxxxxxxxxxxxxxx", "secondtokenxxxxxxxxxxxxx"];
    d.create_game_with(
        "g",
        ruleset,
        scenario,
        &seats.map(|(s, a)| (s.to_string(), a.to_string())),
        Utc.with_ymd_and_hms(2026, 6, 1, 9, 0, 0).unwrap(),
        GameSecrets::pinned("g", [1; 32], [2; 32], 100),
        &tokens.map(String::from),
    )
    .unwrap();
    d.deliver().unwrap();
    let g = d.open_game("g").unwrap();
    let waiting = g.game.waiting_for();
    let i = seats.iter().position(|(s, _)| *s == waiting[0]).unwrap();
    Table {
        _tmp: tmp,
        seat: seats[i].0.to_string(),
        address: seats[i].1.to_string(),
        token: tokens[i].to_string(),
        d,
        n: 0,
    }
}

impl Table {
    pub fn orders(&self, choice: u64) -> String {
        let g = self.d.open_game("g").unwrap();
        let o = g.game.sample_orders(&self.seat, choice);
        assert!(!o.trim().is_empty());
        o
    }

    /// Every mail the seat received: (subject, text, HTML).
    pub fn received(&self) -> Vec<(String, String, String)> {
        let mut out = Vec::new();
        for sub in ["new", "cur"] {
            for e in std::fs::read_dir(self.d.cfg.mail.outbox.join(sub))
                .unwrap()
                .flatten()
            {
                let bytes = std::fs::read(e.path()).unwrap();
                let m = MessageParser::default().parse(&bytes).unwrap();
                let to = m
                    .to()
                    .and_then(|a| a.first())
                    .and_then(|a| a.address())
                    .unwrap_or("");
                if to == self.address {
                    out.push((
                        m.subject().unwrap_or("").to_string(),
                        m.body_text(0).map(|t| t.into_owned()).unwrap_or_default(),
                        m.body_html(0).map(|t| t.into_owned()).unwrap_or_default(),
                    ));
                }
            }
        }
        out
    }

    /// Sends `body`; returns the outcome and the text of the answer.
    pub fn send(&mut self, body: &str) -> (Intake, String) {
        self.n += 1;
        let raw = format!(
            "From: George <{}>\r\nTo: despatch+g.{}.{}@localhost\r\nSubject: Re: orders\r\nMessage-ID: <s{}@x>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}\r\n",
            self.address,
            self.seat,
            self.token,
            self.n,
            body.replace('\n', "\r\n")
        );
        let now =
            Utc.with_ymd_and_hms(2026, 6, 1, 10, 0, 0).unwrap() + Duration::minutes(self.n as i64);
        let out = self.d.ingest(raw.as_bytes(), now).unwrap();
        let mut answer = String::new();
        for sub in ["new", "cur"] {
            for e in std::fs::read_dir(self.d.cfg.mail.outbox.join(sub))
                .unwrap()
                .flatten()
            {
                let bytes = std::fs::read(e.path()).unwrap();
                let m = MessageParser::default().parse(&bytes).unwrap();
                if m.in_reply_to().as_text() == Some(&format!("s{}@x", self.n)) {
                    answer = m.body_text(0).unwrap().into_owned();
                }
            }
        }
        (out, answer)
    }
}
