//! Sign-offs never decide what is an order (issue 10): a hand-written closing after a blank
//! line is set aside and shown in the receipt, in every ruleset; a bad last order — a line
//! starting with an order keyword, a unit's name, a plausible typo — is always reported and
//! nothing in the mail is applied.

use chrono::{Duration, TimeZone, Utc};
use despatch::config::{Config, DEFAULT_CONFIG};
use despatch::daemon::{Daemon, Intake};
use despatch::dice::GameSecrets;
use mail_parser::MessageParser;

struct Table {
    _tmp: tempfile::TempDir,
    d: Daemon,
    n: u32,
    seat: String,
    token: String,
    address: String,
}

fn table(ruleset: &str, scenario: &str, seats: [(&str, &str); 2]) -> Table {
    let tmp = tempfile::tempdir().unwrap();
    let mut cfg = Config::parse(DEFAULT_CONFIG, &tmp.path().join("config.toml")).unwrap();
    cfg.games.games_dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("games");
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
    fn orders(&self, choice: u64) -> String {
        let g = self.d.open_game("g").unwrap();
        let o = g.game.sample_orders(&self.seat, choice);
        assert!(!o.trim().is_empty());
        o
    }

    /// Sends `body`; returns the outcome and the text of the answer.
    fn send(&mut self, body: &str) -> (Intake, String) {
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

const SIGN_OFFS: &[&str] = &[
    "Thanks,\nGeorge",
    "Regards,",
    "Cheers",
    "Best wishes,\nGeorge Patton\nThird Army",
    "Yours aye,\nW.",
    "Many thanks!",
];

fn signoffs_are_skipped_and_bad_last_orders_reported(mut t: Table, bad_last_lines: &[&str]) {
    for (i, s) in SIGN_OFFS.iter().enumerate() {
        let orders = t.orders(i as u64);
        let (out, answer) = t.send(&format!("{}\n\n{s}\n", orders.trim_end()));
        assert!(
            matches!(out, Intake::Accepted { .. }),
            "{s:?}: {out:?}\n{answer}"
        );
        assert!(answer.contains("Not read as orders"), "{answer}");
        assert!(
            answer.contains(s.lines().next().unwrap()),
            "the receipt shows the sign-off"
        );
    }
    for bad in bad_last_lines {
        let orders = t.orders(7);
        let (out, answer) = t.send(&format!("{}\n\n{bad}\n", orders.trim_end()));
        assert!(
            matches!(out, Intake::Rejected { .. }),
            "{bad:?} was not reported: {out:?}"
        );
        assert!(
            answer.contains(bad.lines().last().unwrap().trim()),
            "{answer}"
        );
    }
}

#[test]
fn naval_sign_offs() {
    let t = table(
        "naval-rjw",
        "training",
        [
            ("japan", "togo@mikasa.example"),
            ("russia", "vitgeft@tsesarevich.example"),
        ],
    );
    signoffs_are_skipped_and_bad_last_orders_reported(
        t,
        &["MOVE", "Mikasa", "Thanks\nFLAGSHP Mikasa"],
    );
}

#[test]
fn gear_krieg_sign_offs() {
    let t = table(
        "gear-krieg",
        "crossroads",
        [
            ("us", "patton@third-army.example"),
            ("germany", "rommel@afrika.example"),
        ],
    );
    signoffs_are_skipped_and_bad_last_orders_reported(
        t,
        &["SPEED", "General-1", "SPED General-1 TOP"],
    );
}
