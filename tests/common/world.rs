//! A Naval game on local Maildirs with pinned secrets, driven by raw mails through
//! `Daemon::ingest`: the pipeline tests' world.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use chrono::{DateTime, Duration, TimeZone, Utc};
use despatch::config::{Config, DEFAULT_CONFIG};
use despatch::daemon::{Daemon, Intake};
use despatch::dice::GameSecrets;
use despatch::engine::Game;
use despatch::rulesets::naval_rjw::NavalRjw;
use mail_parser::MessageParser;

pub const GAME: &str = "school";
pub const JAPAN: &str = "togo@mikasa.example";
pub const RUSSIA: &str = "vitgeft@tsesarevich.example";
pub const TOKEN_J: &str = "japantoken0123456789abcd";
pub const TOKEN_R: &str = "russiatoken0123456789abc";

pub struct World {
    pub _tmp: tempfile::TempDir,
    pub daemon: Daemon,
    pub now: DateTime<Utc>,
    pub n: u32,
}

pub fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 22, 9, 0, 0).unwrap()
}

pub fn world(scenario: &str) -> World {
    world_with(scenario, 1000, |_| {})
}

pub fn world_with(scenario: &str, onion_len: u64, tune: impl FnOnce(&mut Config)) -> World {
    let tmp = tempfile::tempdir().unwrap();
    let mut cfg = Config::parse(DEFAULT_CONFIG, &tmp.path().join("config.toml")).unwrap();
    cfg.games.games_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("games");
    cfg.games.onion_len = onion_len;
    // These tests look at every mail kind on its own; one mail a step (the shipped default) is
    // tested in one_mail_a_step.rs, which tunes it back.
    cfg.games.notify = despatch::store::Notify::all();
    tune(&mut cfg);
    let daemon = Daemon::new(cfg).unwrap();
    daemon
        .create_game_with(
            GAME,
            "naval-rjw",
            scenario,
            &[
                ("japan".into(), JAPAN.into()),
                ("russia".into(), RUSSIA.into()),
            ],
            t0(),
            GameSecrets::pinned(GAME, [0x11; 32], [0x5a; 32], onion_len),
            &[TOKEN_J.into(), TOKEN_R.into()],
        )
        .unwrap();
    daemon.deliver().unwrap();
    World {
        _tmp: tmp,
        daemon,
        now: t0(),
        n: 0,
    }
}

pub fn reply_to(seat: &str) -> String {
    let token = if seat == "japan" { TOKEN_J } else { TOKEN_R };
    format!("despatch+{GAME}.{seat}.{token}@localhost")
}

pub fn mail(from: &str, to: &str, id: &str, extra_headers: &str, body: &str) -> Vec<u8> {
    format!(
        "From: Player <{from}>\r\nTo: {to}\r\nSubject: Re: [{GAME}] orders\r\nMessage-ID: <{id}>\r\nDate: Sun, 22 Nov 2026 10:00:00 +0000\r\n{extra_headers}MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}\r\n",
        body.replace('\n', "\r\n")
    )
    .into_bytes()
}

impl World {
    pub fn send(&mut self, seat: &str, body: &str) -> Intake {
        self.n += 1;
        self.now += Duration::minutes(10);
        let from = if seat == "japan" { JAPAN } else { RUSSIA };
        let raw = mail(
            from,
            &reply_to(seat),
            &format!("m{}@player.example", self.n),
            "",
            body,
        );
        self.daemon.ingest(&raw, self.now).unwrap()
    }

    /// Japan's set-up orders accepted and a bad line from Russia rejected: one mail of
    /// each answer kind (receipt, notice, rejection), for tests of what mails look like.
    pub fn one_receipt_and_one_rejection(&mut self) {
        use despatch::engine::Ruleset;
        let orders = NavalRjw::sample_orders(&self.game().state, "japan", 1);
        assert!(matches!(
            self.send("japan", &orders),
            Intake::Accepted { .. }
        ));
        assert!(matches!(
            self.send("russia", "FLAGSHIP Nobody"),
            Intake::Rejected { .. }
        ));
    }

    /// Every delivered mail's file name and raw bytes, sorted by name.
    pub fn raw_delivered(&self) -> Vec<(String, Vec<u8>)> {
        let mut out = Vec::new();
        for sub in ["new", "cur"] {
            let Ok(rd) = std::fs::read_dir(self.daemon.cfg.mail.outbox.join(sub)) else {
                continue;
            };
            for e in rd.flatten() {
                out.push((
                    e.file_name().to_string_lossy().into_owned(),
                    std::fs::read(e.path()).unwrap(),
                ));
            }
        }
        out.sort();
        out
    }

    pub fn game(&self) -> Game<NavalRjw> {
        self.daemon.data.game(GAME).load().unwrap()
    }

    pub fn journal_len(&self) -> usize {
        self.daemon
            .data
            .game(GAME)
            .read_journal()
            .unwrap()
            .lines
            .len()
    }

    /// Every delivered mail: (file name, To, Subject, decoded text).
    pub fn delivered(&self) -> Vec<(String, String, String, String)> {
        delivered_in(&self.daemon.cfg.mail.outbox)
    }
}

pub fn delivered_in(dir: &Path) -> Vec<(String, String, String, String)> {
    let mut out = Vec::new();
    for sub in ["new", "cur"] {
        let Ok(rd) = std::fs::read_dir(dir.join(sub)) else {
            continue;
        };
        for e in rd.flatten() {
            let bytes = std::fs::read(e.path()).unwrap();
            let m = MessageParser::default().parse(&bytes).unwrap();
            let to = m
                .to()
                .and_then(|a| a.first())
                .and_then(|a| a.address())
                .unwrap_or("")
                .to_string();
            out.push((
                e.file_name().to_string_lossy().into_owned(),
                to,
                m.subject().unwrap_or("").to_string(),
                m.body_text(0).map(|t| t.into_owned()).unwrap_or_default(),
            ));
        }
    }
    out.sort();
    out
}

pub fn body_of(w: &World, name_part: &str) -> String {
    let hits: Vec<_> = w
        .delivered()
        .into_iter()
        .filter(|d| d.0.contains(name_part))
        .collect();
    assert_eq!(
        hits.len(),
        1,
        "one mail named *{name_part}*, found {:?}",
        hits.iter().map(|h| &h.0).collect::<Vec<_>>()
    );
    hits[0].3.replace("\r\n", "\n")
}
