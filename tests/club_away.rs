//! Issue 31 point 5, ruling A10: an out-of-office auto-reply from a player is answered once,
//! per game it plays, with the absence it suggests and the line to send, through the seat's
//! own reply address; nothing moves until the player replies `ABSENT …`. A bounce, a stranger's
//! auto-reply and a second copy of the same one are answered with nothing.

use chrono::{DateTime, Duration, TimeZone, Utc};
use despatch::config::{Config, DEFAULT_CONFIG};
use despatch::daemon::{Daemon, Intake};
use mail_parser::MessageParser;

const ANN: &str = "ann@club.example";
const BOB: &str = "bob@club.example";

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 12, 10, 9, 0, 0).unwrap()
}

struct Club {
    _tmp: tempfile::TempDir,
    d: Daemon,
    n: u32,
}

fn club() -> Club {
    let tmp = tempfile::tempdir().unwrap();
    let mut cfg = Config::parse(DEFAULT_CONFIG, &tmp.path().join("config.toml")).unwrap();
    cfg.games.games_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    cfg.games.games_dir_set = true;
    cfg.games.onion_len = 200;
    let d = Daemon::new(cfg).unwrap();
    for id in ["g1", "g2"] {
        let seats = [("japan", ANN), ("russia", BOB)].map(|(s, a)| (s.to_string(), a.to_string()));
        d.create_game_as(
            id,
            "naval-rjw",
            "training",
            &seats,
            t0(),
            &Default::default(),
        )
        .unwrap();
    }
    d.deliver().unwrap();
    Club { _tmp: tmp, d, n: 0 }
}

impl Club {
    fn auto(
        &mut self,
        from: &str,
        headers: &str,
        subject: &str,
        body: &str,
        at: DateTime<Utc>,
    ) -> Intake {
        self.n += 1;
        let raw = format!(
            "From: <{from}>\r\nTo: despatch@localhost\r\n{headers}Subject: {subject}\r\nMessage-ID: <o{}@club.example>\r\n\r\n{body}\r\n",
            self.n
        );
        let out = self.d.ingest(raw.as_bytes(), at).unwrap();
        self.d.deliver().unwrap();
        out
    }

    /// (subject, text, reply-to) of every mail to `to` whose subject holds `like`.
    fn mails(&self, to: &str, like: &str) -> Vec<(String, String, String)> {
        let mut out = vec![];
        for sub in ["new", "cur"] {
            for e in std::fs::read_dir(self.d.cfg.mail.outbox.join(sub)).unwrap() {
                let bytes = std::fs::read(e.unwrap().path()).unwrap();
                let m = MessageParser::default().parse(&bytes).unwrap();
                let addr = |a: Option<&mail_parser::Address>| {
                    a.and_then(|a| a.first())
                        .and_then(|a| a.address())
                        .unwrap_or("")
                        .to_string()
                };
                let subject = m.subject().unwrap_or("").to_string();
                if addr(m.to()) == to && subject.contains(like) {
                    out.push((
                        subject,
                        m.body_text(0).map(|t| t.into_owned()).unwrap_or_default(),
                        addr(m.reply_to()),
                    ));
                }
            }
        }
        out
    }

    fn journal_len(&self, id: &str) -> usize {
        self.d.data.game(id).read_journal().unwrap().lines.len()
    }
}

const OOO: &str = "Auto-Submitted: auto-replied\r\n";
const AWAY: &str = "I am away from 20 December 2026 until 3 January 2027 without mail.";

#[test]
fn an_out_of_office_is_answered_once_per_game_and_applied_only_by_the_reply() {
    let mut c = club();
    let before = (c.journal_len("g1"), c.journal_len("g2"));
    let got = c.auto(ANN, OOO, "Out of Office: [g1] step 1", AWAY, t0());
    assert!(matches!(got, Intake::Automated(_)), "{got:?}");
    let asked = c.mails(ANN, "Away?");
    assert_eq!(asked.len(), 2, "one per game Ann plays");
    for (subject, text, reply_to) in &asked {
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(flat.contains("ABSENT 2026-12-20 TO 2027-01-03"), "{text}");
        assert!(flat.contains("Nothing has changed yet"), "{text}");
        let game = if subject.contains("[g1]") { "g1" } else { "g2" };
        assert!(
            reply_to.starts_with(&format!("despatch+{game}.japan.")),
            "{reply_to}"
        );
        for line in text.lines() {
            assert!(line.chars().count() <= 72, "{line:?}");
        }
    }
    // Nothing applied: no journal moved, Bob told nothing.
    assert_eq!((c.journal_len("g1"), c.journal_len("g2")), before);
    assert!(c.mails(BOB, "absence").is_empty());
    // The same out-of-office again (the next mail of the game) is not answered again.
    c.auto(
        ANN,
        OOO,
        "Out of Office: [g2] step 1",
        AWAY,
        t0() + Duration::hours(1),
    );
    assert_eq!(c.mails(ANN, "Away?").len(), 2);
    // Other days are asked about again.
    let later = "Away from 2027-02-01 to 2027-02-05.";
    c.auto(
        ANN,
        OOO,
        "Automatic reply: [g1]",
        later,
        t0() + Duration::hours(2),
    );
    assert_eq!(c.mails(ANN, "Away?").len(), 4);

    // The reply with the line is what records the absence (in g1 only: its own address).
    let reply_to = asked
        .iter()
        .find(|(s, _, _)| s.contains("[g1]"))
        .map(|(_, _, r)| r.clone())
        .unwrap();
    c.n += 1;
    let raw = format!(
        "From: <{ANN}>\r\nTo: {reply_to}\r\nSubject: Re: Away?\r\nMessage-ID: <r{}@club.example>\r\n\r\nABSENT 2026-12-20 TO 2027-01-03\r\n",
        c.n
    );
    let got =
        c.d.ingest(raw.as_bytes(), t0() + Duration::hours(3))
            .unwrap();
    assert!(matches!(got, Intake::SeatAct { .. }), "{got:?}");
    let g1 = c.d.open_game("g1").unwrap();
    assert_eq!(g1.game.book().club.absences.len(), 1);
    let g2 = c.d.open_game("g2").unwrap();
    assert!(g2.game.book().club.absences.is_empty());
}

#[test]
fn bounces_strangers_and_plain_auto_mail_get_nothing() {
    let mut c = club();
    // A bounce with an out-of-office-free subject: not one.
    c.auto(
        ANN,
        "Auto-Submitted: auto-generated\r\n",
        "Undelivered Mail Returned to Sender",
        AWAY,
        t0(),
    );
    // A stranger's out-of-office: no seat, nothing.
    c.auto("eve@elsewhere.example", OOO, "Out of Office", AWAY, t0());
    // A list mail saying "vacation": never an out-of-office.
    c.auto(
        ANN,
        "List-Id: <club.example>\r\n",
        "Vacation plans",
        AWAY,
        t0(),
    );
    assert!(c.mails(ANN, "Away?").is_empty());
    assert!(c.mails("eve@elsewhere.example", "").is_empty());
    // Positive control: the same mail marked as an auto-reply is answered.
    c.auto(ANN, OOO, "Out of Office", AWAY, t0());
    assert_eq!(c.mails(ANN, "Away?").len(), 2);
}

#[test]
fn an_out_of_office_without_dates_asks_for_them() {
    let mut c = club();
    c.auto(
        BOB,
        "X-Autoreply: yes\r\n",
        "Re: [g1]",
        "I am travelling.",
        t0(),
    );
    let asked = c.mails(BOB, "Away?");
    assert_eq!(asked.len(), 2);
    let flat = asked[0].1.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("names no dates"), "{flat}");
    assert!(
        flat.contains("ABSENT <first day away> TO <last day away>"),
        "{flat}"
    );
}

#[test]
fn a_player_in_more_games_than_the_hourly_cap_is_asked_about_the_rest_later() {
    let mut c = club();
    for id in ["g3", "g4"] {
        let seats = [("japan", ANN), ("russia", BOB)].map(|(s, a)| (s.to_string(), a.to_string()));
        c.d.create_game_as(
            id,
            "naval-rjw",
            "training",
            &seats,
            t0(),
            &Default::default(),
        )
        .unwrap();
    }
    c.d.deliver().unwrap();
    c.auto(ANN, OOO, "Out of Office", AWAY, t0());
    assert_eq!(c.mails(ANN, "Away?").len(), 3, "three an hour (F1)");
    // The same out-of-office an hour later asks about the fourth game only.
    c.auto(
        ANN,
        OOO,
        "Out of Office",
        AWAY,
        t0() + Duration::minutes(61),
    );
    let asked = c.mails(ANN, "Away?");
    assert_eq!(
        asked.len(),
        4,
        "{:?}",
        asked.iter().map(|m| &m.0).collect::<Vec<_>>()
    );
    for g in ["[g1]", "[g2]", "[g3]", "[g4]"] {
        assert_eq!(
            asked.iter().filter(|m| m.0.contains(g)).count(),
            1,
            "{g} once"
        );
    }
}
