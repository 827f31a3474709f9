//! A mail is applied only to the step it answers (issue 18.1): every Despatch mail names the
//! step it asks about in its reply address (`….s4@`), its subject tag (`[g #4]`) and its
//! Message-ID; a reply naming a step that has closed is refused and changes nothing, whichever
//! of the three carries the reference. Driven by raw mails in Naval order syntax.

use chrono::{DateTime, Duration, TimeZone, Utc};
use despatch::config::{Config, DEFAULT_CONFIG};
use despatch::daemon::{Daemon, Intake};
use despatch::dice::GameSecrets;
use mail_parser::MessageParser;

const SEATS: [(&str, &str, &str); 2] = [
    ("japan", "togo@fleet.example", "japantokenxxxxxxxxxxxxxx"),
    ("russia", "rozh@fleet.example", "russiatokenxxxxxxxxxxxxx"),
];

struct Mail {
    message_id: String,
    in_reply_to: String,
    reply_to: String,
    subject: String,
    text: String,
}

struct Game {
    _tmp: tempfile::TempDir,
    d: Daemon,
    n: i64,
}

fn start() -> Game {
    let tmp = tempfile::tempdir().unwrap();
    let mut cfg = Config::parse(DEFAULT_CONFIG, &tmp.path().join("config.toml")).unwrap();
    cfg.games.games_dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("games");
    let d = Daemon::new(cfg).unwrap();
    d.create_game_with(
        "g",
        "naval-rjw",
        "training",
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
    fn step(&self) -> u64 {
        self.d.open_game("g").unwrap().game.book().step
    }

    fn waiting(&self) -> Vec<String> {
        self.d.open_game("g").unwrap().game.waiting_for()
    }

    fn journal(&self) -> Vec<u8> {
        let g = self.d.open_game("g").unwrap();
        std::fs::read(g.store.journal_path()).unwrap()
    }

    fn orders(&self, seat: &str) -> String {
        let g = self.d.open_game("g").unwrap();
        g.game.sample_orders(seat, 0)
    }

    /// Every mail to `seat`'s player, oldest first (queue names follow the journal).
    fn inbox(&self, seat: &str) -> Vec<Mail> {
        let address = SEATS.iter().find(|s| s.0 == seat).unwrap().1;
        let mut files: Vec<_> = ["new", "cur"]
            .iter()
            .flat_map(|sub| std::fs::read_dir(self.d.cfg.mail.outbox.join(sub)).unwrap())
            .map(|e| e.unwrap().path())
            .collect();
        files.sort_by_key(|p| p.file_name().unwrap().to_os_string());
        let mut out = Vec::new();
        for p in files {
            let bytes = std::fs::read(&p).unwrap();
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
    fn send(
        &mut self,
        seat: &str,
        to: &str,
        subject: &str,
        in_reply_to: Option<&str>,
        body: &str,
    ) -> (Intake, String) {
        self.n += 1;
        let from = SEATS.iter().find(|s| s.0 == seat).unwrap().1;
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
        let answer = self
            .inbox(seat)
            .into_iter()
            .rev()
            .find(|m| m.in_reply_to == format!("m{}@player.example", self.n))
            .map(|m| m.text)
            .unwrap_or_default();
        (out, answer)
    }

    /// Every waiting seat replies to its newest mail with sample orders until step `k` opens.
    fn play_until(&mut self, k: u64) {
        let mut guard = 0;
        while self.step() < k {
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

fn plain_address(seat: &str) -> String {
    let token = SEATS.iter().find(|s| s.0 == seat).unwrap().2;
    format!("despatch+g.{seat}.{token}@localhost")
}

#[test]
fn every_mail_names_the_step_it_asks_about_in_address_subject_and_message_id() {
    let mut g = start();
    let welcome = g.inbox("japan").remove(0);
    let k = g.step();
    assert!(
        welcome.reply_to.ends_with(&format!(".s{k}@localhost")),
        "{}",
        welcome.reply_to
    );
    assert!(
        welcome.subject.starts_with(&format!("[g #{k}] ")),
        "{}",
        welcome.subject
    );
    g.play_until(k + 1);
    let last = g.inbox("japan").pop().unwrap();
    let k = g.step();
    assert!(last.reply_to.ends_with(&format!(".s{k}@localhost")));
    assert!(last.subject.starts_with(&format!("[g #{k}] ")));
    assert!(last.message_id.ends_with(&format!(".s{k}@localhost")));
}

/// The play-test's case: a revised plan for a step that has closed, read later, must not
/// become the player's orders for the open step — whether the reference is in the address,
/// only in In-Reply-To, or only in the subject tag.
#[test]
fn a_reply_for_a_resolved_step_is_refused_and_changes_nothing() {
    let mut g = start();
    let first = g.step();
    let welcome = g.inbox("japan").remove(0);
    g.play_until(first + 2);
    // Keep to a step where Japan is asked, so a step-less mail would have been accepted.
    let mut guard = 0;
    while !g.waiting().contains(&"japan".to_string()) {
        guard += 1;
        assert!(guard < 20);
        let k = g.step();
        g.play_until(k + 1);
    }
    let open = g.step();
    let orders = g.orders("japan");
    let stale_results = g
        .inbox("japan")
        .into_iter()
        .find(|m| {
            m.message_id
                .ends_with(&format!(".s{}@localhost", first + 1))
        })
        .expect("a mail that asked about the second step");
    let cases = [
        (
            "address",
            welcome.reply_to.clone(),
            "Re: my plan".to_string(),
            None,
        ),
        (
            "in-reply-to",
            plain_address("japan"),
            "Re: my plan".to_string(),
            Some(stale_results.message_id.clone()),
        ),
        (
            "subject",
            plain_address("japan"),
            format!("Re: [g #{first}] Turn 1"),
            None,
        ),
    ];
    for (via, to, subject, in_reply_to) in cases {
        let before = g.journal();
        let (out, answer) = g.send("japan", &to, &subject, in_reply_to.as_deref(), &orders);
        assert!(matches!(out, Intake::Rejected { .. }), "via {via}: {out:?}");
        assert!(
            answer.contains("has already been resolved")
                && answer.contains(&format!("the open step is {open}")),
            "via {via}: {answer}"
        );
        assert_eq!(g.journal(), before, "via {via}: the journal changed");
        assert_eq!(g.step(), open);
    }
    // Positive control: the same orders, answering the open step's own mail, are taken.
    let last = g
        .inbox("japan")
        .into_iter()
        .rev()
        .find(|m| m.message_id.ends_with(&format!(".s{open}@localhost")));
    let last = last.expect("a mail asking about the open step");
    let (out, answer) = g.send(
        "japan",
        &last.reply_to,
        &format!("Re: {}", last.subject),
        Some(&last.message_id),
        &orders,
    );
    assert!(matches!(out, Intake::Accepted { .. }), "{out:?}: {answer}");
    // And a mail with no step reference at all still goes to the open step.
    let k = g.step();
    if g.waiting().contains(&"japan".to_string()) {
        let orders = g.orders("japan");
        let (out, _) = g.send("japan", &plain_address("japan"), "orders", None, &orders);
        assert!(
            matches!(out, Intake::Accepted { step, .. } if step == k),
            "{out:?}"
        );
    }
}

#[test]
fn a_reference_to_a_step_not_yet_open_is_refused() {
    let mut g = start();
    let k = g.step();
    let orders = g.orders("japan");
    let to = plain_address("japan").replace("@", &format!(".s{}@", k + 5));
    let before = g.journal();
    let (out, answer) = g.send("japan", &to, "orders", None, &orders);
    assert!(matches!(out, Intake::Rejected { .. }), "{out:?}");
    assert!(answer.contains("has not opened yet"), "{answer}");
    assert_eq!(g.journal(), before);
}

#[test]
fn a_mail_with_no_step_reference_goes_to_the_open_step_only_if_the_seat_is_asked_there() {
    let mut g = start();
    let mut guard = 0;
    while g.d.open_game("g").unwrap().game.is_prompted("japan") {
        guard += 1;
        assert!(guard < 20, "no step within reach leaves Japan unasked");
        let k = g.step();
        g.play_until(k + 1);
    }
    let before = g.journal();
    let orders = g.orders("russia");
    let (out, answer) = g.send("japan", &plain_address("japan"), "orders", None, &orders);
    assert!(matches!(out, Intake::Rejected { .. }), "{out:?}");
    assert!(answer.contains("no orders are asked of japan"), "{answer}");
    assert_eq!(g.journal(), before);
}
