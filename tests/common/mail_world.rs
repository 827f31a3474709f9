//! A game of any shipped ruleset on local Maildirs, with pinned secrets and seats that reply
//! from their tokened reply addresses, driven by raw mails through `Daemon::ingest`. Shared by
//! the rulesets' pipeline tests; each adds its own `game()` accessor for its state type.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use chrono::{DateTime, Duration, Utc};
use despatch::config::{Config, DEFAULT_CONFIG};
use despatch::daemon::{Daemon, Intake};
use despatch::dice::GameSecrets;
use mail_parser::MessageParser;

/// (seat, player's address, seat secret).
pub type SeatLine = (&'static str, &'static str, &'static str);

pub struct World {
    pub _tmp: tempfile::TempDir,
    pub daemon: Daemon,
    pub now: DateTime<Utc>,
    /// Mails sent so far (also numbers their Message-IDs).
    pub n: u32,
    pub game: &'static str,
    seats: Vec<SeatLine>,
}

/// Creates game `game` of `ruleset` on `scenario` at `t0`, with onion and salt key pinned by
/// `pins` (onion length 1,000), and delivers the welcome mails.
pub fn world(
    game: &'static str,
    ruleset: &str,
    scenario: &str,
    seats: &[SeatLine],
    t0: DateTime<Utc>,
    pins: ([u8; 32], [u8; 32]),
) -> World {
    let tmp = tempfile::tempdir().unwrap();
    let mut cfg = Config::parse(DEFAULT_CONFIG, &tmp.path().join("config.toml")).unwrap();
    cfg.games.games_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("games");
    cfg.games.onion_len = 1000;
    // Every mail kind on its own, as these tests read them (one mail a step: one_mail_a_step.rs).
    cfg.games.notify = despatch::store::Notify::all();
    let daemon = Daemon::new(cfg).unwrap();
    let pairs: Vec<(String, String)> = seats
        .iter()
        .map(|(s, a, _)| (s.to_string(), a.to_string()))
        .collect();
    let tokens: Vec<String> = seats.iter().map(|(_, _, t)| t.to_string()).collect();
    daemon
        .create_game_with(
            game,
            ruleset,
            scenario,
            &pairs,
            t0,
            GameSecrets::pinned(game, pins.0, pins.1, 1000),
            &tokens,
        )
        .unwrap();
    daemon.deliver().unwrap();
    World {
        _tmp: tmp,
        daemon,
        now: t0,
        n: 0,
        game,
        seats: seats.to_vec(),
    }
}

/// Lone Star's patrol: four seats, two a side (hays and bowie against von-arnim and enver).
pub const LONE_STAR_PATROL: [SeatLine; 4] = [
    ("hays", "hays@example.org", "hays0000000000000000token"),
    ("bowie", "bowie@example.org", "bowie000000000000000token"),
    (
        "von-arnim",
        "arnim@example.org",
        "arnim000000000000000token",
    ),
    ("enver", "enver@example.org", "enver000000000000000token"),
];

/// Lone Star's patrol as game `game`, created 2 November 2026 at 09:00 with pinned secrets.
pub fn lone_star_patrol(game: &'static str) -> World {
    world(
        game,
        "lone-star",
        "patrol",
        &LONE_STAR_PATROL,
        chrono::TimeZone::with_ymd_and_hms(&chrono::Utc, 2026, 11, 2, 9, 0, 0).unwrap(),
        ([7; 32], [8; 32]),
    )
}

impl World {
    fn seat(&self, seat: &str) -> SeatLine {
        *self
            .seats
            .iter()
            .find(|s| s.0 == seat)
            .unwrap_or_else(|| panic!("no seat {seat}"))
    }

    /// The seat's step-less reply address: its mails go to the open step.
    pub fn reply_to(&self, seat: &str) -> String {
        let (_, _, token) = self.seat(seat);
        format!("despatch+{}.{seat}.{token}@localhost", self.game)
    }

    /// `seat`'s player writes `body`, ten minutes after the last mail.
    pub fn send(&mut self, seat: &str, body: &str) -> Intake {
        let subject = format!("Re: [{}] orders", self.game);
        self.send_with_subject(seat, &subject, body)
    }

    /// `seat`'s player answers the mail of step `k` (its subject's tag names the step).
    pub fn send_answering(&mut self, seat: &str, k: u64, body: &str) -> Intake {
        let subject = format!("Re: [{} #{k}] orders", self.game);
        self.send_with_subject(seat, &subject, body)
    }

    fn send_with_subject(&mut self, seat: &str, subject: &str, body: &str) -> Intake {
        self.n += 1;
        self.now += Duration::minutes(10);
        let (_, from, _) = self.seat(seat);
        let raw = format!(
            "From: Player <{from}>\r\nTo: {}\r\nSubject: {subject}\r\nMessage-ID: <{}{}@player.example>\r\nDate: {}\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}\r\n",
            self.reply_to(seat),
            self.game,
            self.n,
            self.now.to_rfc2822(),
            body.replace('\n', "\r\n")
        );
        self.daemon.ingest(raw.as_bytes(), self.now).unwrap()
    }

    pub fn outbox(&self) -> &Path {
        &self.daemon.cfg.mail.outbox
    }
}

/// The text of every delivered mail whose file name contains `part`.
pub fn delivered(dir: &Path, part: &str) -> Vec<String> {
    let mut out = Vec::new();
    for sub in ["new", "cur"] {
        let Ok(rd) = std::fs::read_dir(dir.join(sub)) else {
            continue;
        };
        for e in rd.flatten() {
            if !e.file_name().to_string_lossy().contains(part) {
                continue;
            }
            let bytes = std::fs::read(e.path()).unwrap();
            let m = MessageParser::default().parse(&bytes).unwrap();
            out.push(m.body_text(0).map(|t| t.into_owned()).unwrap_or_default());
        }
    }
    out
}
