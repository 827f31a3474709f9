//! Issue 31, "how it will be checked": a club's month replayed by mail through the real intake
//! with Naval's Gunnery School. Four members open and join two league games through the
//! lobby, play steps by mail, the organiser pauses one from the desk and broadcasts to the
//! league, a player's out-of-office is answered with a proposed absence that the player's own
//! reply records, a player asks for the calendar, and the games end by concession: the league
//! standings mail carries the ratings, which move the winner up and the loser down. In the
//! middle of the month the club's site is read in Chromium at 1000 and 400 px: the index with
//! both games in play, a game's page and a player's private page (browser suite: under `CI=1`
//! a missing Chromium fails).

use std::collections::HashSet;
use std::path::PathBuf;

use chrono::{DateTime, Duration, TimeZone, Utc};
use despatch::config::{Config, DEFAULT_CONFIG};
use despatch::daemon::{Daemon, Intake};
use despatch::engine::lobby::Who;
use mail_parser::MessageParser;

const ANN: &str = "ann@club.example";
const BOB: &str = "bob@club.example";
const CY: &str = "cy@club.example";
const DEE: &str = "dee@club.example";
const GM: &str = "sec@club.example";
const HOUSE: &str = "despatch@localhost";

#[derive(Debug, Clone)]
struct Sent {
    to: String,
    subject: String,
    text: String,
    reply_to: String,
}

struct Month {
    _tmp: tempfile::TempDir,
    d: Daemon,
    now: DateTime<Utc>,
    n: u32,
    known: HashSet<PathBuf>,
    history: Vec<Sent>,
}

fn flat(t: &str) -> String {
    t.split_whitespace().collect::<Vec<_>>().join(" ")
}

impl Month {
    fn new() -> Self {
        let tmp = tempfile::tempdir().unwrap();
        let mut cfg = Config::parse(DEFAULT_CONFIG, &tmp.path().join("config.toml")).unwrap();
        cfg.games.games_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
        cfg.games.games_dir_set = true;
        cfg.games.onion_len = 400;
        // As a club writes it: with a display name (the desk and the lobby compare addresses).
        cfg.mail.gm_address = Some(format!("Club Secretary <{GM}>"));
        cfg.lobby.open = Who::Members;
        cfg.lobby.members = [ANN, BOB, CY, DEE].map(String::from).to_vec();
        cfg.site.base_url = Some("https://club.example/games".into());
        let d = Daemon::new(cfg).unwrap();
        // The organiser makes the season's league: its points rule file.
        let leagues = d.data.root.join("leagues");
        std::fs::create_dir_all(&leagues).unwrap();
        std::fs::write(leagues.join("winter.toml"), "win = 3\ndraw = 1\nloss = 0\n").unwrap();
        Month {
            _tmp: tmp,
            d,
            now: Utc.with_ymd_and_hms(2026, 12, 1, 18, 0, 0).unwrap(),
            n: 0,
            known: HashSet::new(),
            history: vec![],
        }
    }

    fn later(&mut self, hours: i64) {
        self.now += Duration::hours(hours);
        self.d.run_once(self.now).unwrap();
        self.collect();
    }

    fn send(&mut self, from: &str, to: &str, headers: &str, subject: &str, body: &str) -> Intake {
        self.n += 1;
        self.now += Duration::minutes(3);
        let raw = format!(
            "From: <{from}>\r\nTo: {to}\r\n{headers}Subject: {subject}\r\nMessage-ID: <m{}@club.example>\r\n\r\n{}\r\n",
            self.n,
            body.replace('\n', "\r\n")
        );
        let out = self.d.ingest(raw.as_bytes(), self.now).unwrap();
        self.d.deliver().unwrap();
        self.collect();
        out
    }

    fn collect(&mut self) {
        let mut files: Vec<PathBuf> = ["new", "cur"]
            .iter()
            .flat_map(|s| std::fs::read_dir(self.d.cfg.mail.outbox.join(s)).unwrap())
            .map(|e| e.unwrap().path())
            .filter(|p| !self.known.contains(p))
            .collect();
        files.sort();
        for p in files {
            let bytes = std::fs::read(&p).unwrap();
            let m = MessageParser::default().parse(&bytes).unwrap();
            let first = |a: Option<&mail_parser::Address>| {
                a.and_then(|a| a.first())
                    .and_then(|a| a.address())
                    .unwrap_or("")
                    .to_string()
            };
            self.history.push(Sent {
                to: first(m.to()),
                subject: m.subject().unwrap_or("").to_string(),
                text: m.body_text(0).map(|t| t.into_owned()).unwrap_or_default(),
                reply_to: first(m.reply_to()),
            });
            self.known.insert(p);
        }
    }

    fn last(&self, to: &str, subject_has: &str) -> Sent {
        self.history
            .iter()
            .rev()
            .find(|s| s.to == to && s.subject.contains(subject_has))
            .unwrap_or_else(|| panic!("no mail to {to} about {subject_has:?}"))
            .clone()
    }

    /// A member's lobby line, carried out through the confirmation reply on first contact.
    fn lobby(&mut self, who: &str, line: &str) {
        let known = self
            .history
            .iter()
            .rev()
            .find(|s| s.to == who && s.reply_to.starts_with("despatch+lobby."))
            .map(|s| s.reply_to.clone());
        match known {
            Some(addr) => {
                let got = self.send(who, &addr, "", "lobby", line);
                assert_eq!(got.word(), "acted", "{line}");
            }
            None if line == "GAMES" => {
                // The list needs no proof: it is answered at once.
                assert_eq!(self.send(who, HOUSE, "", "lobby", line).word(), "games");
            }
            None => {
                assert_eq!(self.send(who, HOUSE, "", "lobby", line).word(), "confirm");
                let addr = self.last(who, "Lobby:").reply_to;
                assert_eq!(self.send(who, &addr, "", "Re: lobby", "").word(), "acted");
            }
        }
    }

    fn seat_address(&self, game: &str, seat: &str) -> String {
        let s = self.d.data.game(game).seats().unwrap();
        format!("despatch+{game}.{seat}.{}@localhost", s.seats[seat].token)
    }

    fn player(&self, game: &str, seat: &str) -> String {
        self.d.data.game(game).seats().unwrap().seats[seat]
            .address
            .clone()
    }

    /// Every awaited seat of `game` sends legal orders (the ruleset's own sample) by mail.
    fn play_step(&mut self, game: &str) {
        let g = self.d.open_game(game).unwrap();
        for seat in g.game.waiting_for() {
            let orders = g.game.sample_orders(&seat, u64::from(self.n) * 7919);
            let (from, to) = (self.player(game, &seat), self.seat_address(game, &seat));
            let got = self.send(&from, &to, "", "orders", &orders);
            assert!(matches!(got, Intake::Accepted { .. }), "{got:?}\n{orders}");
        }
    }

    fn step(&self, game: &str) -> u64 {
        self.d.open_game(game).unwrap().game.book().step
    }
}

#[test]
fn a_clubs_month_by_mail() {
    let mut m = Month::new();
    // Week 1: two league games opened and joined through the lobby.
    m.lobby(
        ANN,
        "OPEN naval-rjw training AS japan PACE 48 LEAGUE winter",
    );
    m.lobby(BOB, "GAMES");
    assert!(flat(&m.last(BOB, "Lobby:").text).contains("training-1: Gunnery School"));
    m.lobby(BOB, "JOIN training-1");
    m.lobby(CY, "OPEN naval-rjw training AS russia LEAGUE winter");
    m.lobby(DEE, "JOIN training-2");
    for g in ["training-1", "training-2"] {
        let book = m.d.open_game(g).unwrap().game.book().clone();
        assert_eq!(book.policy.club.league.as_deref(), Some("winter"), "{g}");
    }
    assert_eq!(m.player("training-2", "japan"), DEE);
    // Both games play their set-up by mail. Only the set-up: the dice are the house's own
    // (fresh secrets, as a game opened by mail has), and Gunnery School played on by sample
    // orders can end by chance within three steps (Russia defeated at step 4 in one run in
    // twenty), before the organiser's pause.
    for g in ["training-1", "training-2"] {
        let before = m.step(g);
        m.play_step(g);
        m.later(1);
        assert!(m.step(g) > before, "{g} moved on");
    }

    // Week 2: the organiser pauses training-2 for the club night and tells the league.
    let page =
        |m: &Month| std::fs::read_to_string(m.d.site_root().join("training-2/index.html")).unwrap();
    assert!(
        !page(&m).contains("Paused by the organiser"),
        "not before the pause"
    );
    let desk = m.d.desk_address(GM).unwrap();
    let got = m.send(GM, &desk, "", "desk", "PAUSE training-2 club night");
    let answer = m.history.last().map(|s| s.text.clone()).unwrap_or_default();
    let answer = format!(
        "{answer}\nstep {} outcome {:?}\njournal:\n{}",
        m.step("training-2"),
        m.d.open_game("training-2").unwrap().game.outcome(),
        m.d.data
            .game("training-2")
            .read_journal()
            .unwrap()
            .lines
            .iter()
            .map(|l| l.chars().take(160).collect::<String>())
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(
        m.d.open_game("training-2")
            .unwrap()
            .game
            .book()
            .club
            .paused
            .is_some(),
        "{got:?}: {answer}"
    );
    m.send(
        GM,
        &desk,
        "",
        "desk",
        "BROADCAST LEAGUE winter\nThe club meets on Friday at eight.\nEND",
    );
    for who in [ANN, BOB, CY, DEE] {
        let got = m
            .history
            .iter()
            .rev()
            .find(|s| s.to == who && s.text.contains("The club meets on Friday at eight."));
        assert!(got.is_some(), "{who} got the broadcast");
    }
    // Bob concedes training-1: the league standings carry the ratings.
    let bob = m.seat_address("training-1", "russia");
    let got = m.send(BOB, &bob, "", "I give up", "CONCEDE training-1");
    assert!(
        matches!(got, Intake::SeatAct { .. }),
        "{got:?}\n{}",
        m.history.last().unwrap().text
    );
    m.later(1);
    let table = m.last(ANN, "[league winter]").text;
    let row = |who: &str| -> String {
        table
            .lines()
            .find(|l| l.contains(who))
            .unwrap_or_else(|| panic!("no row of {who} in\n{table}"))
            .to_string()
    };
    let rating = |row: &str| -> i64 {
        let at = row
            .find('±')
            .unwrap_or_else(|| panic!("a rating with its deviation in {row:?} of\n{table}"));
        row[..at]
            .split_whitespace()
            .last()
            .unwrap()
            .parse()
            .unwrap()
    };
    // Rows are by name when one is known, else by the seat first held: find Ann's by seat.
    let (ann_row, bob_row) = (row("japan of training-1"), row("russia of training-1"));
    assert!(rating(&ann_row) > 1500, "{ann_row}");
    assert!(rating(&bob_row) < 1500, "{bob_row}");
    // A long quiet spell changes nothing in the paused game.
    let paused_step = m.step("training-2");
    m.later(24 * 5);
    assert_eq!(
        m.step("training-2"),
        paused_step,
        "no deadline passes while paused"
    );
    // The game's page says so, and lists the organiser's acts (never the message's words).
    let paused = page(&m);
    assert!(paused.contains("Paused by the organiser"), "{paused}");
    assert!(paused.contains("club night"));
    assert!(paused.contains("the organiser wrote to every seat"));
    assert!(!paused.contains("The club meets on Friday"));
    m.send(GM, &desk, "", "desk", "RESUME training-2");
    let resumed = page(&m);
    assert!(
        !resumed.contains("Paused by the organiser"),
        "the banner goes"
    );
    assert!(resumed.contains("Step 2: resumed on"), "{resumed}");
    assert!(
        m.d.open_game("training-2")
            .unwrap()
            .game
            .book()
            .club
            .paused
            .is_none()
    );

    // Mid-month, the club's site as a member reads it on a desk and on a phone.
    read_the_site(&m);

    // Dee is away: the out-of-office is answered with the absence it names, and Dee's reply
    // records it.
    m.send(
        DEE,
        HOUSE,
        "Auto-Submitted: auto-replied\r\n",
        "Out of Office",
        "Away from 20 December 2026 to 28 December 2026.",
    );
    let ask = m.last(DEE, "Away?");
    assert!(flat(&ask.text).contains("ABSENT 2026-12-20 TO 2026-12-28"));
    let got = m.send(
        DEE,
        &ask.reply_to,
        "",
        "Re: Away?",
        "ABSENT 2026-12-20 TO 2026-12-28",
    );
    assert!(matches!(got, Intake::SeatAct { .. }), "{got:?}");

    // Cy asks for the calendar: both of Cy's games? Cy plays one: training-2.
    let cy = m.seat_address("training-2", "russia");
    let got = m.send(CY, &cy, "", "cal", "CALENDAR");
    assert!(
        matches!(
            got,
            Intake::Talk {
                command: "calendar",
                ..
            }
        ),
        "{got:?}"
    );
    assert!(flat(&m.last(CY, "calendar").text).contains("training-2 (russia)"));

    // Week 3: Dee concedes training-2; every player of the league is now rated.
    let dee = m.seat_address("training-2", "japan");
    m.send(DEE, &dee, "", "over", "CONCEDE training-2");
    m.later(1);
    assert!(m.d.open_game("training-1").unwrap().game.is_over());
    assert!(m.d.open_game("training-2").unwrap().game.is_over());
    let table = m.last(CY, "[league winter]").text;
    let rated = table
        .lines()
        .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()) && l.contains('±'))
        .count();
    assert_eq!(rated, 4, "four rated players:\n{table}");
    let cy_row = table
        .lines()
        .find(|l| l.contains("russia of training-2"))
        .unwrap();
    assert!(rating(cy_row) > 1500, "{cy_row}");
}

/// The site's index (both games in play, no address), training-2's page and Ann's private page
/// in training-1, in Chromium at 1000 and 400 px: the whole window, no image broken, nothing
/// wider than the window or cut at its edge.
fn read_the_site(m: &Month) {
    let root = m.d.site_root();
    let index = std::fs::read_to_string(root.join("index.html")).unwrap();
    for g in ["training-1", "training-2"] {
        assert!(index.contains(g), "{g} on the index");
    }
    for who in [ANN, BOB, CY, DEE] {
        assert!(!index.contains(who), "an address on the index");
    }
    if !crate::browser::chromium_here() {
        return;
    }
    let token = m.d.data.game("training-1").seats().unwrap().seats["japan"]
        .token
        .clone();
    let ann = format!(
        "training-1/s/{}/index.html",
        despatch::archive::seat_code("training-1", "japan", &token)
    );
    assert!(root.join(&ann).exists(), "Ann's private page");
    for page in ["index.html", "training-2/index.html", ann.as_str()] {
        for width in [1000, 400] {
            let dom = crate::site_in_browser::open(&root, page, width);
            let at = format!("{page} at {width} px");
            let n = |k: &str| crate::site_in_browser::number(&dom, k);
            assert_eq!(n("viewport"), width as i64, "{at}: the window");
            assert_eq!(n("broken"), 0, "{at}: an image did not load");
            assert!(
                n("scroll-width") <= n("viewport"),
                "{at}: wider than the window"
            );
            assert_eq!(
                crate::browser::probe(&dom, "cut"),
                "",
                "{at}: cut at the edge"
            );
        }
    }
}
