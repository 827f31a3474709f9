//! Issue 16 point 7 (leagues): games created in a league end in a win, a loss and a draw
//! through the real engine and daemon (the test-only Parley ruleset, orders in its own
//! syntax), and the standings are counted from those outcomes, printed, mailed to every
//! member at each game's end (never their addresses), and checked by `verify`. Also: the
//! league file is the points rule, and a half-made or foreign entry never counts.

use crate::parley;

use chrono::{DateTime, Duration, TimeZone, Utc};
use despatch::config::{Config, DEFAULT_CONFIG};
use despatch::daemon::{Daemon, Intake, NewGame, league_standings};
use despatch::dice::GameSecrets;
use despatch::engine::Registry;
use mail_parser::MessageParser;
use parley::Parley;

const ANN: &str = "Ann Arbor <ann@club.example>";
const BOB: &str = "Bob Blake <bob@club.example>";
const CY: &str = "Cy Cole <cy@club.example>";
/// Registered without a name: printed by the seat it first held, never by its address.
const DEE: &str = "dee@club.example";
/// Plays only outside the league: gets no standings.
const EVE: &str = "Eve <eve@club.example>";

struct Club {
    _tmp: tempfile::TempDir,
    d: Daemon,
    n: i64,
}

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 9, 1, 9, 0, 0).unwrap()
}

fn token(game: &str, seat: &str) -> String {
    format!("{game}{seat}tokenxxxxxxxxxxxxxxxxxx")[..24].to_string()
}

fn club() -> Club {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games-data");
    parley::write_games_dir(&games);
    let mut cfg = Config::parse(DEFAULT_CONFIG, &tmp.path().join("config.toml")).unwrap();
    cfg.games.games_dir = games;
    cfg.games.games_dir_set = true;
    let d = Daemon::with_registry(cfg, Registry::new().with::<Parley>()).unwrap();
    Club { _tmp: tmp, d, n: 0 }
}

impl Club {
    fn new_game(&self, id: &str, north: &str, south: &str, league: Option<&str>) {
        let seats =
            [("north", north), ("south", south)].map(|(s, a)| (s.to_string(), a.to_string()));
        self.d
            .create_game_full(
                id,
                "parley",
                "duel",
                &seats,
                t0(),
                GameSecrets::pinned(id, [3; 32], [4; 32], 50),
                &[token(id, "north"), token(id, "south")],
                &NewGame {
                    league: league.map(str::to_string),
                    carry_from: None,
                    gm: None,
                    campaign: None,
                },
            )
            .unwrap();
        self.d.deliver().unwrap();
    }

    /// The seat's player sends `word` to the game, as a reply to nothing (a fresh mail).
    fn say(&mut self, game: &str, seat: &str, from: &str, word: &str) {
        self.n += 1;
        let address = from
            .rsplit_once('<')
            .map(|(_, a)| a.trim_end_matches('>'))
            .unwrap_or(from);
        let raw = format!(
            "From: <{address}>\r\nTo: despatch+{game}.{seat}.{}@localhost\r\nSubject: terms\r\nMessage-ID: <p{}@club.example>\r\n\r\n{word}\r\n",
            token(game, seat),
            self.n
        );
        let out = self
            .d
            .ingest(raw.as_bytes(), t0() + Duration::minutes(self.n))
            .unwrap();
        assert!(matches!(out, Intake::Accepted { .. }), "{out:?}");
        self.d.deliver().unwrap();
    }

    fn over(&self, game: &str) -> bool {
        self.d.open_game(game).unwrap().game.is_over()
    }

    /// (subject, text, raw bytes) of every mail delivered to `address`, in name order.
    fn mails_to(&self, address: &str) -> Vec<(String, String, Vec<u8>)> {
        let mut files: Vec<_> = ["new", "cur"]
            .iter()
            .flat_map(|sub| std::fs::read_dir(self.d.cfg.mail.outbox.join(sub)).unwrap())
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        files
            .into_iter()
            .filter_map(|p| {
                let bytes = std::fs::read(&p).unwrap();
                let m = MessageParser::default().parse(&bytes).unwrap();
                let to = m.to()?.first()?.address()?.to_string();
                (to == address).then(|| {
                    (
                        m.subject().unwrap_or("").to_string(),
                        m.body_text(0).map(|t| t.into_owned()).unwrap_or_default(),
                        bytes.clone(),
                    )
                })
            })
            .collect()
    }

    fn standings_mails(&self, address: &str) -> Vec<(String, String)> {
        self.mails_to(address)
            .into_iter()
            .filter(|(s, _, _)| s.starts_with("[league autumn]"))
            .map(|(s, t, _)| (s, t))
            .collect()
    }
}

fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Three finished league games (a win for Ann over Bob, a draw between Bob and Cy, a win for
/// Ann over Cy), one still running (Ann and Dee), one game outside the league (Eve).
fn season() -> Club {
    let mut c = club();
    c.new_game("g1", ANN, BOB, Some("autumn"));
    c.new_game("g2", BOB, CY, Some("autumn"));
    c.new_game("g3", CY, ANN, Some("autumn"));
    c.new_game("g4", ANN, DEE, Some("autumn"));
    c.new_game("friendly", EVE, BOB, None);
    c.say("g1", "north", ANN, "HOLD");
    c.say("g1", "south", BOB, "YIELD");
    assert!(c.over("g1"));
    c.say("g2", "north", BOB, "HOLD");
    c.say("g2", "south", CY, "HOLD");
    assert!(c.over("g2"));
    c.say("g3", "north", CY, "YIELD");
    c.say("g3", "south", ANN, "HOLD");
    assert!(c.over("g3"));
    c.say("friendly", "north", EVE, "HOLD");
    c.say("friendly", "south", BOB, "YIELD");
    assert!(c.over("friendly"));
    c
}

#[test]
fn a_win_a_loss_and_a_draw_make_the_standings_in_points_then_wins_order() {
    let c = season();
    let s = league_standings(&c.d.data, &c.d.registry, "autumn").unwrap();
    let rows: Vec<_> = s
        .rows
        .iter()
        .map(|r| {
            (
                r.place.as_str(),
                r.name.as_str(),
                r.played,
                r.won,
                r.drawn,
                r.lost,
                r.points,
            )
        })
        .collect();
    // Ann: two wins (3 each). Bob and Cy: a draw (1) and a loss (0) each, level on every
    // count, so they share second place and are listed by name.
    assert_eq!(
        rows,
        [
            ("1", "Ann Arbor", 2, 2, 0, 0, 6),
            ("2=", "Bob Blake", 2, 0, 1, 1, 1),
            ("2=", "Cy Cole", 2, 0, 1, 1, 1),
        ]
    );
    let finished: Vec<_> = s.finished.iter().map(|g| g.game.as_str()).collect();
    assert_eq!(finished, ["g1", "g2", "g3"], "the friendly is in no league");
    let running: Vec<_> = s.running.iter().map(|g| g.game.as_str()).collect();
    assert_eq!(
        running,
        ["g4"],
        "a running game is listed apart, not counted"
    );
    let text = despatch::league::render_text(&s);
    assert!(text.lines().all(|l| l.chars().count() <= 72), "{text}");
    let html = despatch::league::render_html(&s);
    assert!(
        html.contains(
            "<tr><td>1</td><td>Ann Arbor</td><td>2</td><td>2</td><td>0</td><td>0</td><td>6</td><td>"
        ),
        "{html}"
    );
}

#[test]
fn every_member_gets_the_standings_at_each_league_games_end_and_no_address() {
    let c = season();
    for member in [
        "ann@club.example",
        "bob@club.example",
        "cy@club.example",
        "dee@club.example",
    ] {
        let got = c.standings_mails(member);
        let subjects: Vec<_> = got.iter().map(|(s, _)| s.as_str()).collect();
        assert_eq!(
            subjects,
            [
                "[league autumn] Standings after g1",
                "[league autumn] Standings after g2",
                "[league autumn] Standings after g3",
            ],
            "{member}: one mail per league game ended, none for the friendly"
        );
        let last = flat(&got[2].1);
        assert!(
            last.contains("Game g3 (parley) of league autumn has ended: south held firm and wins."),
            "{last}"
        );
        assert!(last.contains("1 Ann Arbor 2 2 0 0 6"), "{last}");
        assert!(last.contains("2= Bob Blake 2 0 1 1 1"), "{last}");
        assert!(
            last.contains("STILL RUNNING - g4 (parley): step 1: Terms"),
            "{last}"
        );
        for (_, text) in &got {
            assert!(!text.contains("@club.example"), "no address: {text}");
            assert!(text.lines().all(|l| l.chars().count() <= 72), "{text}");
        }
        // The standings after g1 count g1 alone: mailed from the values at that game's end.
        assert!(
            flat(&got[0].1).contains("1 Ann Arbor 1 1 0 0 3"),
            "{}",
            got[0].1
        );
    }
    assert!(
        c.standings_mails("eve@club.example").is_empty(),
        "a player outside the league gets no standings"
    );
    // Positive control for the address check: the welcome mails do carry the address they
    // are sent to, so the check above can see one.
    let ann_all = c.mails_to("ann@club.example");
    assert!(
        ann_all.iter().any(|(s, _, raw)| !s.starts_with("[league")
            && String::from_utf8_lossy(raw).contains("ann@club.example")),
        "the address check can fail"
    );
}

#[test]
fn a_member_without_a_name_is_shown_by_the_seat_first_held() {
    let mut c = season();
    c.say("g4", "north", ANN, "YIELD");
    c.say("g4", "south", DEE, "HOLD");
    let s = league_standings(&c.d.data, &c.d.registry, "autumn").unwrap();
    let dee = s.rows.iter().find(|r| r.won == 1 && r.played == 1).unwrap();
    assert_eq!(dee.name, "south of g4");
    let mail = flat(&c.standings_mails("dee@club.example").pop().unwrap().1);
    assert!(mail.contains("south of g4 1 1 0 0 3"), "{mail}");
    assert!(!mail.contains("dee@"), "{mail}");
}

#[test]
fn the_league_file_is_the_points_rule_and_only_the_journal_says_who_is_in() {
    let c = season();
    let path = c.d.data.root.join("leagues/autumn.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("win = 3\ndraw = 1\nloss = 0\n"), "{text}");
    assert!(
        text.contains(r#"games = ["g1", "g2", "g3", "g4"]"#),
        "{text}"
    );
    // The organiser changes the rule and lists a game that is in no league and one that was
    // never made (what a crash between the file and the journal leaves): neither counts.
    std::fs::write(
        &path,
        "win = 2\ndraw = 1\nloss = -1\ngames = [\"g1\", \"g2\", \"g3\", \"g4\", \"friendly\", \"ghost\"]\n",
    )
    .unwrap();
    let s = league_standings(&c.d.data, &c.d.registry, "autumn").unwrap();
    let points: Vec<_> = s.rows.iter().map(|r| (r.name.as_str(), r.points)).collect();
    assert_eq!(points, [("Ann Arbor", 4), ("Bob Blake", 0), ("Cy Cole", 0)]);
    assert_eq!(s.finished.len(), 3);
    // A bad league name is refused before anything is made.
    let err =
        c.d.create_game_full(
            "g9",
            "parley",
            "duel",
            &[("north".into(), ANN.into()), ("south".into(), BOB.into())],
            t0(),
            GameSecrets::pinned("g9", [3; 32], [4; 32], 50),
            &[token("g9", "north"), token("g9", "south")],
            &NewGame {
                league: Some("Autumn_2026".into()),
                carry_from: None,
                gm: None,
                campaign: None,
            },
        )
        .unwrap_err();
    let err = format!("{err:#}");
    assert!(
        err.contains(r#"league = "Autumn_2026": use 1–40 characters a–z"#),
        "{err}"
    );
    assert!(!c.d.data.game("g9").exists());
}

#[test]
fn a_players_folder_with_the_standings_mails_still_verifies() {
    let c = season();
    let dir = tempfile::tempdir().unwrap();
    let mut standings = 0;
    for (i, (subject, _, raw)) in c.mails_to("bob@club.example").into_iter().enumerate() {
        standings += subject.starts_with("[league autumn]") as usize;
        std::fs::write(dir.path().join(format!("{i:03}.eml")), raw).unwrap();
    }
    assert_eq!(standings, 3);
    let (checked, findings) = despatch::verify::verify_mails_with(dir.path(), None, &c.d.registry);
    assert!(findings.is_empty(), "{findings:?}");
    assert!(checked.mails > 0);
}

/// Issue 16 point 7, "shown in the archive": the site written at a league game's end carries
/// the league's table as it stood then; a game in no league has no table.
#[test]
fn a_league_games_archive_shows_the_standings_and_a_friendlys_does_not() {
    let c = season();
    let index = |game: &str| {
        std::fs::read_to_string(c.d.archive_dir(game).join("index.html"))
            .unwrap_or_else(|e| panic!("{game}'s archive at its end: {e}"))
    };
    let g3 = index("g3");
    assert!(g3.contains("League autumn: standings"), "{g3}");
    assert!(g3.contains("Ann Arbor"), "the table's leader by name");
    assert!(!g3.contains("ann@club.example"), "never a player's address");
    let friendly = index("friendly");
    assert!(!friendly.contains("standings"), "{friendly}");
}

/// Docs/club-rules.md L2: the standings carry the house's STOP mailto, and a member who wrote
/// STOP to the house gets no more of them (the other members still do).
#[test]
fn standings_carry_the_house_stop_and_a_member_who_wrote_it_gets_none() {
    let mut c = club();
    c.new_game("g1", ANN, BOB, Some("autumn"));
    c.new_game("g2", BOB, CY, Some("autumn"));
    let raw = "From: Cy <cy@club.example>\r\nTo: despatch@localhost\r\nSubject: STOP\r\nMessage-ID: <stop1@club.example>\r\n\r\n-- \r\nCy\r\n";
    let out = c.d.ingest(raw.as_bytes(), t0()).unwrap();
    assert!(matches!(out, Intake::Unknown(_)), "{out:?}");
    c.say("g1", "north", ANN, "HOLD");
    c.say("g1", "south", BOB, "YIELD");
    assert!(c.over("g1"));
    assert_eq!(c.standings_mails("bob@club.example").len(), 1, "control");
    assert!(
        c.standings_mails("cy@club.example").is_empty(),
        "Cy wrote STOP"
    );
    let (_, _, raw) = c
        .mails_to("bob@club.example")
        .into_iter()
        .rfind(|(s, _, _)| s.starts_with("[league autumn]"))
        .unwrap();
    let raw = String::from_utf8_lossy(&raw);
    assert!(
        raw.contains("List-Unsubscribe: <mailto:despatch@localhost?subject=STOP>"),
        "{raw}"
    );
}
