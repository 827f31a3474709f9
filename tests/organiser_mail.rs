//! Issue 27 point 4 (and the unreadable game of point 3) through the pipeline: RESIGN, `PRESS TO
//! gm` and a game the daemon cannot read each reach the organiser that `despatch new --gm` set
//! (`NewGame::gm`), or `mail.gm_address` when the game has none; and without any organiser the
//! player is told so instead of being promised one. Naval's training game by raw mails through
//! `Daemon::ingest`; the mails are read from the outbox Maildir.

use std::path::PathBuf;

use chrono::{DateTime, Duration, TimeZone, Utc};
use despatch::config::{Config, DEFAULT_CONFIG};
use despatch::daemon::{Daemon, Intake, NewGame};
use despatch::dice::GameSecrets;
use mail_parser::MessageParser;

const SEATS: [(&str, &str, &str); 2] = [
    ("japan", "togo@fleet.example", "japantokenxxxxxxxxxxxxxx"),
    ("russia", "rozh@fleet.example", "russiatokenxxxxxxxxxxxxx"),
];
/// The game's own organiser (`--gm`) and the club's (`mail.gm_address`).
const OWN_GM: &str = "umpire@club.example";
const CLUB_GM: &str = "secretary@club.example";

struct Club {
    _tmp: tempfile::TempDir,
    d: Daemon,
    cfg: Config,
    now: DateTime<Utc>,
    n: u32,
}

/// A Naval training game `g` whose organiser is `own` (as `--gm` gives it), under a config
/// whose `mail.gm_address` is `club`.
fn club(own: Option<&str>, club: Option<&str>) -> Club {
    let tmp = tempfile::tempdir().unwrap();
    let mut cfg = Config::parse(DEFAULT_CONFIG, &tmp.path().join("config.toml")).unwrap();
    cfg.games.games_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("games");
    cfg.mail.gm_address = club.map(str::to_string);
    let d = Daemon::new(cfg.clone()).unwrap();
    let now = Utc.with_ymd_and_hms(2026, 6, 1, 9, 0, 0).unwrap();
    d.create_game_full(
        "g",
        "naval-rjw",
        "training",
        &SEATS.map(|(s, a, _)| (s.to_string(), a.to_string())),
        now,
        GameSecrets::pinned("g", [1; 32], [2; 32], 100),
        &SEATS.map(|(_, _, t)| t.to_string()),
        &NewGame {
            gm: own.map(str::to_string),
            ..NewGame::default()
        },
    )
    .unwrap();
    d.deliver().unwrap();
    Club {
        _tmp: tmp,
        d,
        cfg,
        now,
        n: 0,
    }
}

struct Mail {
    to: String,
    subject: String,
    text: String,
}

fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

impl Club {
    fn send(&mut self, seat: &str, body: &str) -> Intake {
        self.n += 1;
        self.now += Duration::minutes(10);
        let (_, from, token) = SEATS.iter().find(|s| s.0 == seat).unwrap();
        let raw = format!(
            "From: <{from}>\r\nTo: despatch+g.{seat}.{token}@localhost\r\nSubject: a word\r\nMessage-ID: <o{}@fleet.example>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}\r\n",
            self.n,
            body.replace('\n', "\r\n")
        );
        let out = self.d.ingest(raw.as_bytes(), self.now).unwrap();
        self.d.deliver().unwrap();
        out
    }

    fn mails(&self) -> Vec<Mail> {
        let mut out = Vec::new();
        for sub in ["new", "cur"] {
            let Ok(rd) = std::fs::read_dir(self.cfg.mail.outbox.join(sub)) else {
                continue;
            };
            for e in rd.flatten() {
                let bytes = std::fs::read(e.path()).unwrap();
                let m = MessageParser::default().parse(&bytes).unwrap();
                out.push(Mail {
                    to: m
                        .to()
                        .and_then(|a| a.first())
                        .and_then(|a| a.address())
                        .unwrap_or("")
                        .to_string(),
                    subject: m.subject().unwrap_or("").to_string(),
                    text: m.body_text(0).map(|t| t.into_owned()).unwrap_or_default(),
                });
            }
        }
        out
    }

    fn mails_to(&self, to: &str) -> Vec<Mail> {
        self.mails().into_iter().filter(|m| m.to == to).collect()
    }

    fn last_to(&self, to: &str, subject: &str) -> String {
        let hits: Vec<Mail> = self
            .mails_to(to)
            .into_iter()
            .filter(|m| m.subject.contains(subject))
            .collect();
        assert_eq!(hits.len(), 1, "one mail to {to} titled {subject:?}");
        flat(&hits[0].text)
    }
}

#[test]
fn resign_reaches_the_organiser_set_by_gm_or_the_clubs_and_nobody_is_promised_one_without() {
    for (own, club_gm, told) in [
        (Some(OWN_GM), None, Some(OWN_GM)),
        // The game's own organiser comes first; the club's hears nothing of it.
        (Some(OWN_GM), Some(CLUB_GM), Some(OWN_GM)),
        (None, Some(CLUB_GM), Some(CLUB_GM)),
        (None, None, None),
    ] {
        let mut c = club(own, club_gm);
        let out = c.send("japan", "RESIGN g");
        assert!(matches!(out, Intake::SeatAct { .. }), "{out:?}");
        let bye = c.last_to(SEATS[0].1, "You have resigned");
        let notice = c.last_to(SEATS[1].1, "japan's player resigned");
        for gm in [OWN_GM, CLUB_GM] {
            let n = c
                .mails_to(gm)
                .iter()
                .filter(|m| m.subject.contains("Seat japan wants a new player"))
                .count();
            assert_eq!(
                n,
                usize::from(told == Some(gm)),
                "{own:?} {club_gm:?}: {gm}"
            );
        }
        if told.is_some() {
            assert!(bye.contains("The organiser has been told"), "{bye}");
            assert!(notice.contains("the organiser has been told"), "{notice}");
            assert!(!notice.contains("no organiser address"), "{notice}");
        } else {
            // No promise that cannot be kept: both are told nobody was.
            assert!(!bye.contains("organiser has been told"), "{bye}");
            assert!(
                bye.contains("this game has no organiser address, so nobody has been told"),
                "{bye}"
            );
            assert!(
                notice.contains("this game has no organiser address, so nobody has been told"),
                "{notice}"
            );
        }
    }
}

#[test]
fn press_to_gm_reaches_the_organiser_set_by_gm_or_the_clubs_and_is_refused_honestly_without() {
    for (own, club_gm, told) in [
        (Some(OWN_GM), None, Some(OWN_GM)),
        (Some(OWN_GM), Some(CLUB_GM), Some(OWN_GM)),
        (None, Some(CLUB_GM), Some(CLUB_GM)),
        (None, None, None),
    ] {
        let mut c = club(own, club_gm);
        let out = c.send("russia", "PRESS TO gm\nMay I ask about the fog rule?");
        let press: Vec<Mail> = [OWN_GM, CLUB_GM]
            .iter()
            .flat_map(|gm| c.mails_to(gm))
            .filter(|m| m.subject.contains("Press from russia"))
            .collect();
        match told {
            Some(gm) => {
                assert!(
                    matches!(
                        out,
                        Intake::Talk {
                            command: "press",
                            ..
                        }
                    ),
                    "{out:?}"
                );
                assert_eq!(press.len(), 1, "{own:?} {club_gm:?}");
                assert_eq!(press[0].to, gm);
                assert!(press[0].text.contains("May I ask about the fog rule?"));
            }
            None => {
                assert!(
                    matches!(
                        out,
                        Intake::Talk {
                            command: "refused",
                            ..
                        }
                    ),
                    "{out:?}"
                );
                assert!(press.is_empty());
                let answer = c
                    .mails_to(SEATS[1].1)
                    .into_iter()
                    .map(|m| flat(&m.text))
                    .find(|t| t.contains("PRESS TO gm"))
                    .expect("the refusal quotes the line");
                assert!(
                    answer.contains("this game has no organiser address set"),
                    "{answer}"
                );
                assert!(!answer.contains("ask the organiser"), "{answer}");
            }
        }
    }
}

/// A pass by a fresh daemon (as after a restart): it opens every game whose journal changed.
fn pass(c: &Club, at: DateTime<Utc>) -> despatch::daemon::Pass {
    Daemon::new(c.cfg.clone()).unwrap().run_once(at).unwrap()
}

#[test]
fn an_unreadable_game_is_reported_once_with_its_cause_to_its_organiser_or_the_clubs() {
    for (own, club_gm, told) in [
        (Some(OWN_GM), None, Some(OWN_GM)),
        (None, Some(CLUB_GM), Some(CLUB_GM)),
        (None, None, None),
    ] {
        let c = club(own, club_gm);
        // A journal broken by hand (not a permission: see organiser_cli for that cause).
        let journal = c.d.data.game("g").journal_path();
        let mut text = std::fs::read_to_string(&journal).unwrap();
        text.push_str("{\"type\":\"nonsense\"}\n");
        std::fs::write(&journal, text).unwrap();
        let first = pass(&c, c.now + Duration::minutes(1));
        assert_eq!(first.failed_games, vec!["g".to_string()]);
        let again = pass(&c, c.now + Duration::minutes(2));
        assert_eq!(again.failed_games, vec!["g".to_string()], "still set aside");
        let reports: Vec<Mail> = [OWN_GM, CLUB_GM]
            .iter()
            .flat_map(|gm| c.mails_to(gm))
            .filter(|m| m.subject.contains("Game g is set aside"))
            .collect();
        match told {
            Some(gm) => {
                assert_eq!(
                    reports.len(),
                    1,
                    "once, however many passes: {own:?} {club_gm:?}"
                );
                assert_eq!(reports[0].to, gm);
                let t = flat(&reports[0].text);
                assert!(t.contains("Cause:") && t.contains("nonsense"), "{t}");
                assert!(t.contains("despatch verify g"), "what to check: {t}");
                assert!(!t.contains("chown"), "not a permission problem: {t}");
            }
            None => assert!(reports.is_empty()),
        }
    }
}
