//! A strict-dice game of the toy ruleset (tests/toy) on local Maildirs, for the strict_* test
//! files: pinned host secrets, seats that reply from their tokened addresses through
//! `Daemon::ingest`, and strict seats whose players run `despatch player init/reveal` (the
//! library functions behind them) in their own folders.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use chrono::{DateTime, Duration, TimeZone, Utc};
use despatch::cli::player;
use despatch::config::{Config, DEFAULT_CONFIG};
use despatch::daemon::{Daemon, Intake};
use despatch::dice::GameSecrets;
use despatch::engine::{Event, Play, Silence};
use despatch::store::GameStore;
use mail_parser::MessageParser;

use crate::toy;

pub const GAME: &str = "strict-1";
/// (seat, player's address, seat secret).
pub const SEATS: [(&str, &str, &str); 3] = [
    ("red-1", "ann@red.example", "tokred1aaaaaaaaaaaaaaaa"),
    ("red-2", "bob@red.example", "tokred2bbbbbbbbbbbbbbbb"),
    ("blue-scout", "cy@blue.example", "tokbluecccccccccccccccc"),
];
/// The strict seats: two of the three (red-2 plays in default mode).
pub const STRICT: [&str; 2] = ["red-1", "blue-scout"];
pub const REVEAL_HOURS: u32 = 12;

pub fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 5, 1, 9, 0, 0).unwrap()
}

pub struct World {
    pub tmp: tempfile::TempDir,
    pub daemon: Daemon,
    pub now: DateTime<Utc>,
    /// Mails the players sent (also numbers their Message-IDs).
    pub sent: u32,
    /// Each strict player's own folder (`despatch player init --dir`).
    pub player_dirs: Vec<(String, PathBuf)>,
}

/// Creates the game; `strict` makes the STRICT seats strict with anchors from `player init`.
pub fn world(strict: bool) -> World {
    world_with(strict, None)
}

/// `world`, with the game's silence policy set to `silence` when given.
pub fn world_with(strict: bool, silence: Option<Silence>) -> World {
    world_as(strict, silence, despatch::engine::strict::BOUND)
}

/// A game made before strict reveals were bound to their lock (ruling S11): onions indexed by
/// reveal count, each reveal the onion element itself (S8). The players' secret files are
/// marked as an older `player init` made them.
pub fn world_by_reveal(strict: bool) -> World {
    world_as(strict, None, despatch::engine::strict::BY_REVEAL)
}

pub fn world_as(strict: bool, silence: Option<Silence>, layout: &str) -> World {
    let tmp = tempfile::tempdir().unwrap();
    let mut cfg = Config::parse(DEFAULT_CONFIG, &tmp.path().join("config.toml")).unwrap();
    if let Some(s) = silence {
        cfg.games.policy.on_silence = s;
    }
    cfg.games.games_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/games");
    cfg.games.onion_len = 1000;
    // Every mail kind on its own, as these tests read them (one mail a step: one_mail_a_step.rs).
    cfg.games.notify = despatch::store::Notify::all();
    cfg.mail.gm_address = Some("gm@club.example".into());
    let daemon =
        Daemon::with_registry(cfg, despatch::rulesets::registry().with::<toy::Bids>()).unwrap();
    let pairs: Vec<(String, String)> = SEATS
        .iter()
        .map(|(s, a, _)| (s.to_string(), a.to_string()))
        .collect();
    let tokens: Vec<String> = SEATS.iter().map(|(_, _, t)| t.to_string()).collect();
    daemon
        .create_game_with(
            GAME,
            "bids",
            "club",
            &pairs,
            t0(),
            GameSecrets::pinned(GAME, [0x41; 32], [0x42; 32], 1000),
            &tokens,
        )
        .unwrap();
    let mut player_dirs = Vec::new();
    if strict {
        let mut anchors = Vec::new();
        for seat in STRICT {
            let dir = tmp.path().join(format!("player-{seat}"));
            // What the player runs at home: the line printed is what they send when joining.
            let line = player::init(&dir, GAME, seat, 50).unwrap();
            assert!(line.starts_with(&format!("STRICT {seat} ")), "{line}");
            if layout != despatch::engine::strict::BOUND {
                let f = dir.join(format!("{GAME}.{seat}.strict.json"));
                let text = std::fs::read_to_string(&f).unwrap();
                let older = text.replace("\"bound\"", &format!("\"{layout}\""));
                assert_ne!(text, older, "{text}");
                std::fs::write(&f, older).unwrap();
            }
            anchors.push(despatch::engine::strict::parse_anchor(&line).unwrap());
            player_dirs.push((seat.to_string(), dir));
        }
        daemon
            .make_strict_as(GAME, &anchors, REVEAL_HOURS, t0(), layout)
            .unwrap();
    }
    daemon.deliver().unwrap();
    let w = World {
        tmp,
        daemon,
        now: t0(),
        sent: 0,
        player_dirs,
    };
    // What each strict player runs once, on the welcome: the game's key, kept beside the
    // secret, which every lock mail must be signed with.
    for (seat, dir) in &w.player_dirs {
        let welcome = w.raw(&format!("-welcome-{seat}"));
        assert_eq!(welcome.len(), 1, "one welcome to {seat}");
        let said = player::trust(dir, &welcome[0].1, t0()).unwrap();
        assert!(said.contains("mail key K = "), "{said}");
    }
    w
}

impl World {
    pub fn player_dir(&self, seat: &str) -> &Path {
        &self
            .player_dirs
            .iter()
            .find(|(s, _)| s == seat)
            .unwrap_or_else(|| panic!("{seat} is not strict"))
            .1
    }

    /// `seat`'s player writes `body`, ten minutes after the last mail.
    pub fn send(&mut self, seat: &str, body: &str) -> Intake {
        self.sent += 1;
        self.now += Duration::minutes(10);
        let (_, from, token) = SEATS.iter().find(|s| s.0 == seat).unwrap();
        let raw = format!(
            "From: Player <{from}>\r\nTo: despatch+{GAME}.{seat}.{token}@localhost\r\nSubject: Re: [{GAME}] step\r\nMessage-ID: <{GAME}-{}@player.example>\r\nDate: {}\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}\r\n",
            self.sent,
            self.now.to_rfc2822(),
            body.replace('\n', "\r\n")
        );
        let out = self.daemon.ingest(raw.as_bytes(), self.now).unwrap();
        self.daemon.deliver().unwrap();
        out
    }

    pub fn tick(&mut self, at: DateTime<Utc>) {
        self.now = at;
        self.daemon.tick(GAME, at).unwrap();
        self.daemon.deliver().unwrap();
    }

    pub fn game(&self) -> Box<dyn Play> {
        self.daemon.open_game(GAME).unwrap().game
    }

    pub fn store(&self) -> GameStore {
        self.daemon.data.game(GAME)
    }

    pub fn journal(&self) -> Vec<Event> {
        self.store()
            .read_journal()
            .unwrap()
            .lines
            .iter()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    pub fn outbox(&self) -> &Path {
        &self.daemon.cfg.mail.outbox
    }

    /// Every delivered mail whose file name contains `part`: (file name, raw bytes).
    pub fn raw(&self, part: &str) -> Vec<(String, Vec<u8>)> {
        let mut out = Vec::new();
        for sub in ["new", "cur"] {
            let Ok(rd) = std::fs::read_dir(self.outbox().join(sub)) else {
                continue;
            };
            for e in rd.flatten() {
                let name = e.file_name().to_string_lossy().into_owned();
                if name.contains(part) {
                    out.push((name, std::fs::read(e.path()).unwrap()));
                }
            }
        }
        out.sort();
        out
    }

    /// The text of the one delivered mail whose name contains `part`.
    pub fn text(&self, part: &str) -> String {
        let all = self.raw(part);
        assert_eq!(all.len(), 1, "one mail named *{part}*: {:?}", names(&all));
        body(&all[0].1)
    }

    /// The number of mails delivered so far.
    pub fn delivered(&self) -> usize {
        self.raw("").len()
    }

    /// Every seat bids, the optional scout first (the step locks once both reds have bid).
    pub fn bid_all(&mut self, bids: [u32; 3]) {
        for ((seat, _, _), b) in SEATS.iter().zip(bids).rev() {
            let out = self.send(seat, &format!("BID {b}"));
            assert!(matches!(out, Intake::Accepted { .. }), "{seat}: {out:?}");
        }
    }

    /// The lock mail asking `seat` to reveal for `step` (raw bytes).
    pub fn lock_mail(&self, seat: &str, step: u64) -> Vec<u8> {
        let all: Vec<_> = self
            .raw(&format!("-lock-{seat}"))
            .into_iter()
            .filter(|(_, b)| {
                let t = body(b);
                t.contains(&format!(", step {step}, seat {seat})"))
                    || t.contains(&format!(", step {step}, seat {seat}, reveal "))
            })
            .collect();
        assert_eq!(all.len(), 1, "one lock mail to {seat} for step {step}");
        all[0].1.clone()
    }

    /// The game-over's request to `seat` to open its onion (bound reveals, S11; raw bytes).
    pub fn open_request(&self, seat: &str) -> Vec<u8> {
        let all = self.raw(&format!("-open-{seat}"));
        assert_eq!(
            all.len(),
            1,
            "one open request to {seat}: {:?}",
            names(&all)
        );
        all[0].1.clone()
    }

    /// `seat`'s player runs `despatch player reveal` on the open request and sends the line.
    pub fn open(&mut self, seat: &str) -> (String, Intake) {
        let line = player::reveal(self.player_dir(seat), &self.open_request(seat)).unwrap();
        assert!(line.starts_with("OPEN "), "{line}");
        let out = self.send(seat, &line);
        (line, out)
    }

    /// `seat`'s player runs `despatch player reveal` on the lock mail and sends the line.
    pub fn reveal(&mut self, seat: &str, step: u64) -> (String, Intake) {
        let line = player::reveal(self.player_dir(seat), &self.lock_mail(seat, step)).unwrap();
        let out = self.send(seat, &line);
        (line, out)
    }
}

/// A plain-text mail of `body` (a raw lock mail is quoted-printable; its decoded body carries
/// the same seal and signature).
pub fn as_mail(body: &str) -> String {
    format!("Subject: a lock mail\r\n\r\n{body}")
}

/// `edited` sealed and signed again with the game's own key: what only the host can make.
pub fn host_signed(w: &World, edited: &str) -> String {
    use crate::forgery::{host_mail_key, reseal, resign};
    as_mail(&resign(
        &reseal(edited),
        GAME,
        &host_mail_key(&w.store().dir),
    ))
}

/// The journal's `L_k` of `step` (hex).
pub fn journal_lock(w: &World, step: u64) -> String {
    w.journal()
        .iter()
        .find_map(|e| match e {
            Event::Lock { step: k, lock, .. } if *k == step => Some(lock.clone()),
            _ => None,
        })
        .unwrap()
}

pub fn body(raw: &[u8]) -> String {
    let m = MessageParser::default().parse(raw).unwrap();
    m.body_text(0).map(|t| t.into_owned()).unwrap_or_default()
}

pub fn names(all: &[(String, Vec<u8>)]) -> Vec<&str> {
    all.iter().map(|(n, _)| n.as_str()).collect()
}

/// Journal lines of one kind.
pub fn of_kind<'a>(events: &'a [Event], kind: &str) -> Vec<&'a Event> {
    events.iter().filter(|e| e.kind() == kind).collect()
}
