//! Issue 31 point 3 (ratings; docs/club-rules.md K1–K7): league games played through the
//! real daemon and mail pipeline (the test-only Parley ruleset, as club_league.rs) are rated
//! with Glicko-2, the ratings are mailed, printed and shown on the archive; each ended game's
//! archive publishes its journal and `league.json`, from which alone the table is re-derived
//! and compared with what the archives and the mails published. Controls: an altered outcome,
//! an altered roster and an altered mail each make the comparison fail.

use crate::parley;

use std::path::{Path, PathBuf};

use chrono::{DateTime, Duration, TimeZone, Utc};
use despatch::config::{Config, DEFAULT_CONFIG};
use despatch::daemon::{Daemon, Intake, NewGame, derive_from_files, league_standings};
use despatch::dice::GameSecrets;
use despatch::engine::Registry;
use despatch::league::derive::{PublishedRow, Roster};
use mail_parser::MessageParser;
use parley::Parley;

const ANN: &str = "Ann Arbor <ann@club.example>";
const BOB: &str = "Bob Blake <bob@club.example>";
const CY: &str = "Cy Cole <cy@club.example>";

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

fn registry() -> Registry {
    Registry::new().with::<Parley>()
}

/// A club whose league file, if given, is written before the first game.
fn club(league_file: Option<&str>) -> Club {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games-data");
    parley::write_games_dir(&games);
    let mut cfg = Config::parse(DEFAULT_CONFIG, &tmp.path().join("config.toml")).unwrap();
    cfg.games.games_dir = games;
    cfg.games.games_dir_set = true;
    let d = Daemon::with_registry(cfg, registry()).unwrap();
    if let Some(text) = league_file {
        let p = d.data.root.join("leagues/autumn.toml");
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    Club { _tmp: tmp, d, n: 0 }
}

impl Club {
    fn new_game(&self, id: &str, north: &str, south: &str) {
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
                    league: Some("autumn".into()),
                    carry_from: None,
                    gm: None,
                    campaign: None,
                },
            )
            .unwrap();
        self.d.deliver().unwrap();
    }

    fn say(&mut self, game: &str, seat: &str, from: &str, word: &str) {
        self.n += 1;
        let address = from
            .rsplit_once('<')
            .map(|(_, a)| a.trim_end_matches('>'))
            .unwrap_or(from);
        let raw = format!(
            "From: <{address}>\r\nTo: despatch+{game}.{seat}.{}@localhost\r\nSubject: terms\r\nMessage-ID: <r{}@club.example>\r\n\r\n{word}\r\n",
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

    /// (subject, text, raw) of every standings mail to `address`, in name order.
    fn standings_mails(&self, address: &str) -> Vec<(String, String, Vec<u8>)> {
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
                let subject = m.subject().unwrap_or("").to_string();
                (to == address && subject.starts_with("[league autumn]")).then(|| {
                    let text = m.body_text(0).map(|t| t.into_owned()).unwrap_or_default();
                    (subject, text, bytes.clone())
                })
            })
            .collect()
    }

    /// Copies each game's archive folder and Ann's standings mails into a folder of their
    /// own, away from the data folder: all a member has.
    fn published(&self, games: &[&str]) -> (tempfile::TempDir, Vec<PathBuf>, Vec<PathBuf>) {
        let out = tempfile::tempdir().unwrap();
        let mut dirs = Vec::new();
        for g in games {
            let to = out.path().join(g);
            copy_dir(&self.d.archive_dir(g), &to);
            dirs.push(to);
        }
        let mut mails = Vec::new();
        for (i, (_, _, raw)) in self.standings_mails("ann@club.example").iter().enumerate() {
            let p = out.path().join(format!("standings-{i}.eml"));
            std::fs::write(&p, raw).unwrap();
            mails.push(p);
        }
        (out, dirs, mails)
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// g1: Ann beats Bob. g2: Bob and Cy draw. g3: Ann beats Cy. g4: Bob holds, Cy never
/// answers, and the organiser abandons it (not rated, K5).
fn season() -> Club {
    let mut c = club(None);
    for (g, n, s) in [
        ("g1", ANN, BOB),
        ("g2", BOB, CY),
        ("g3", CY, ANN),
        ("g4", BOB, CY),
    ] {
        c.new_game(g, n, s);
    }
    c.say("g1", "north", ANN, "HOLD");
    c.say("g1", "south", BOB, "YIELD");
    c.say("g2", "north", BOB, "HOLD");
    c.say("g2", "south", CY, "HOLD");
    c.say("g3", "north", CY, "YIELD");
    c.say("g3", "south", ANN, "HOLD");
    c.say("g4", "north", BOB, "HOLD");
    c.n += 1;
    c.d.gm_abandon("g4", "Cy cannot be reached", t0() + Duration::minutes(c.n))
        .unwrap();
    c
}

/// K1, K4: after g1 two newcomers at 1500 ±350 are 1662 ±290 and 1338 ±290 (the textbook
/// first Glicko-2 game); the mails after g1 and g3 carry each row's rating, within 72 columns,
/// and `despatch league` (render_text) and the archive's table show the same.
#[test]
fn the_standings_mail_the_command_and_the_archive_show_each_players_rating() {
    let c = season();
    let mails = c.standings_mails("bob@club.example");
    let subjects: Vec<_> = mails.iter().map(|(s, _, _)| s.as_str()).collect();
    assert_eq!(
        subjects,
        [
            "[league autumn] Standings after g1",
            "[league autumn] Standings after g2",
            "[league autumn] Standings after g3",
            "[league autumn] Standings after g4",
        ]
    );
    let after_g1 = flat(&mails[0].1);
    assert!(
        after_g1.contains("1 Ann Arbor 1 1 0 0 3 1662 ±290"),
        "{after_g1}"
    );
    assert!(
        after_g1.contains("2 Bob Blake 1 0 0 1 0 1338 ±290"),
        "{after_g1}"
    );
    assert!(after_g1.contains("Ratings: Glicko-2"), "{after_g1}");
    let s = league_standings(&c.d.data, &c.d.registry, "autumn").unwrap();
    let last = &mails[3].1;
    for r in &s.rows {
        assert!(
            flat(last).contains(&format!("{} {}", r.points, r.rating_text())),
            "{last}"
        );
    }
    for (_, text, _) in &mails {
        assert!(text.lines().all(|l| l.chars().count() <= 72), "{text}");
    }
    // g4 was abandoned: the table after it is the table after g3 (K5).
    let table = |t: &str| {
        t.lines()
            .skip_while(|l| !l.contains(" Player "))
            .take_while(|l| !l.trim().is_empty())
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(table(&mails[3].1), table(&mails[2].1));
    assert_ne!(
        table(&mails[2].1),
        table(&mails[1].1),
        "control: g3 moved it"
    );
    let printed = despatch::league::render_text(&s);
    assert_eq!(table(&printed), table(&mails[3].1), "despatch league");
    let index = std::fs::read_to_string(c.d.archive_dir("g3").join("index.html")).unwrap();
    assert!(index.contains("<th>Rating</th>"), "{index}");
    let ann = s.rows.iter().find(|r| r.name == "Ann Arbor").unwrap();
    assert!(
        index.contains("<td>Ann Arbor</td>") && index.contains(&ann.rating_text()),
        "{index}"
    );
}

/// K7: from the archives and the mails alone (copied away from the data folder), the table
/// is re-derived and every published table agrees; the numbers are the house's.
#[test]
fn the_table_re_derived_from_the_archives_alone_is_the_one_mailed() {
    let c = season();
    let (_keep, dirs, mails) = c.published(&["g1", "g2", "g3", "g4"]);
    for d in &dirs {
        let roster = std::fs::read_to_string(d.join("league.json")).unwrap();
        assert!(!roster.contains("@club.example"), "no address: {roster}");
        assert!(d.join("journal.jsonl").exists());
    }
    // Given in another order than they ended: the order is the journals' (K3).
    let mut shuffled = dirs.clone();
    shuffled.reverse();
    let derived = derive_from_files(&registry(), "autumn", &shuffled, &mails).unwrap();
    assert!(derived.differences.is_empty(), "{:#?}", derived.differences);
    assert_eq!(derived.compared, 4 + 4, "four archives, four mails");
    let house = league_standings(&c.d.data, &c.d.registry, "autumn").unwrap();
    let rows = |s: &despatch::league::Standings| -> Vec<PublishedRow> {
        s.rows.iter().map(PublishedRow::of).collect()
    };
    assert_eq!(rows(&derived.standings), rows(&house));
    assert_eq!(
        derived
            .standings
            .abandoned
            .iter()
            .map(|g| g.game.as_str())
            .collect::<Vec<_>>(),
        ["g4"]
    );
    // The same player is one pseudonym in every game of the league.
    let roster = |g: usize| -> Roster {
        serde_json::from_str(&std::fs::read_to_string(dirs[g].join("league.json")).unwrap())
            .unwrap()
    };
    let seat = |r: &Roster, s: &str| r.seats.iter().find(|x| x.seat == s).unwrap().player.clone();
    assert_eq!(seat(&roster(0), "north"), seat(&roster(2), "south"), "Ann");
    assert_ne!(
        seat(&roster(0), "north"),
        seat(&roster(0), "south"),
        "Ann is not Bob"
    );
}

/// K7's controls: one outcome altered in a published journal (refused: the journal's hash
/// chain no longer holds, so no table is derived from it), one published rating changed,
/// one roster swapped, one mailed rating changed: each is found.
#[test]
fn an_altered_outcome_roster_or_mail_makes_the_check_fail() {
    let c = season();
    // Bob yielded in g1; the altered journal says he held, so g1 is a draw.
    let (_keep, dirs, mails) = c.published(&["g1", "g2", "g3", "g4"]);
    let journal = dirs[0].join("journal.jsonl");
    let text = std::fs::read_to_string(&journal).unwrap();
    let altered = text.replacen(r#""orders":"YIELD\n""#, r#""orders":"HOLD\n""#, 1);
    assert_ne!(altered, text, "the test alters something");
    std::fs::write(&journal, altered).unwrap();
    let err = derive_from_files(&registry(), "autumn", &dirs, &[]).unwrap_err();
    let err = format!("{err:#}");
    assert!(err.contains("g1: the journal does not replay"), "{err}");
    std::fs::write(&journal, text).unwrap();
    let d = derive_from_files(&registry(), "autumn", &dirs, &mails).unwrap();
    assert!(d.differences.is_empty(), "restored: {:#?}", d.differences);

    // g2's published table with Bob's rating a point higher than the outcomes give.
    let path = dirs[1].join("league.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut r: Roster = serde_json::from_str(&text).unwrap();
    let bob = r.after.iter_mut().find(|x| x.name == "Bob Blake").unwrap();
    bob.rating += 1.0;
    std::fs::write(&path, serde_json::to_string(&r).unwrap()).unwrap();
    let d = derive_from_files(&registry(), "autumn", &dirs, &[]).unwrap();
    assert_eq!(d.differences.len(), 1, "{:#?}", d.differences);
    assert!(
        d.differences[0].contains("g2") && d.differences[0].contains("Bob Blake"),
        "{}",
        d.differences[0]
    );
    std::fs::write(&path, text).unwrap();

    // g3's roster with its two seats swapped: Cy would have won.
    let path = dirs[2].join("league.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut r: Roster = serde_json::from_str(&text).unwrap();
    let (a, b) = (r.seats[0].clone(), r.seats[1].clone());
    r.seats[0].player = b.player;
    r.seats[1].player = a.player;
    std::fs::write(&path, serde_json::to_string(&r).unwrap()).unwrap();
    let d = derive_from_files(&registry(), "autumn", &dirs, &[]).unwrap();
    assert!(!d.differences.is_empty());
    std::fs::write(&path, text).unwrap();

    // The mail after g3, as Ann read it, with her rating one point higher.
    let (subject, text, _) = c.standings_mails("ann@club.example")[2].clone();
    let line = text.lines().find(|l| l.contains("Ann Arbor")).unwrap();
    let rating = line.split_whitespace().rev().nth(1).unwrap();
    let bumped = (rating.parse::<i64>().unwrap() + 1).to_string();
    let changed = text.replacen(&format!("{rating} ±"), &format!("{bumped} ±"), 1);
    assert_ne!(changed, text, "the test alters something");
    let eml = |body: &str| {
        format!(
            "From: despatch@localhost\r\nTo: ann@club.example\r\nSubject: {subject}\r\n\
             MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}",
            body.replace('\n', "\r\n")
        )
    };
    let m = &mails[2];
    // Control: the same mail rewritten without the change agrees.
    std::fs::write(m, eml(&text)).unwrap();
    let d = derive_from_files(&registry(), "autumn", &dirs, &mails).unwrap();
    assert!(d.differences.is_empty(), "{:#?}", d.differences);
    std::fs::write(m, eml(&changed)).unwrap();
    let d = derive_from_files(&registry(), "autumn", &dirs, &mails).unwrap();
    assert_eq!(d.differences.len(), 1, "{:#?}", d.differences);
    assert!(
        d.differences[0].contains("standings-2.eml"),
        "{}",
        d.differences[0]
    );
}

/// K6: the league file's start and deviation are the pipeline's; without them, the crate's.
#[test]
fn the_league_files_rating_rule_is_the_one_used_and_published() {
    let mut c = club(Some(
        "win = 3\ndraw = 1\nloss = 0\nrating_start = 1200.0\nrating_deviation = 200.0\n",
    ));
    c.new_game("g1", ANN, BOB);
    c.say("g1", "north", ANN, "HOLD");
    c.say("g1", "south", BOB, "HOLD");
    let s = league_standings(&c.d.data, &c.d.registry, "autumn").unwrap();
    let shown: Vec<_> = s.rows.iter().map(|r| r.rating_text()).collect();
    // A draw between equals: both stay at the league's start; the deviation shrinks.
    assert!(shown.iter().all(|r| r.starts_with("1200 ±")), "{shown:?}");
    assert!(s.rows.iter().all(|r| r.rating.deviation < 200.0));
    let mail = flat(&c.standings_mails("ann@club.example")[0].1);
    assert!(mail.contains("a new member starts at 1200 ±200"), "{mail}");
    let roster: Roster = serde_json::from_str(
        &std::fs::read_to_string(c.d.archive_dir("g1").join("league.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(roster.rating.start, 1200.0);
    // The file written back keeps the rule (and says what it is).
    let text = std::fs::read_to_string(c.d.data.root.join("leagues/autumn.toml")).unwrap();
    assert!(text.contains("rating_start = 1200.0"), "{text}");
    // Control: the default club starts at 1500.
    let mut d = club(None);
    d.new_game("g1", ANN, BOB);
    d.say("g1", "north", ANN, "HOLD");
    d.say("g1", "south", BOB, "HOLD");
    let s = league_standings(&d.d.data, &d.d.registry, "autumn").unwrap();
    assert!(s.rows.iter().all(|r| r.rating_text().starts_with("1500 ±")));
}

/// `despatch league L --derive` is the command line of the same check: it needs no data
/// folder, and a folder that is not an ended league game's archive is said so.
#[test]
fn the_derive_command_reads_archive_folders_not_the_data_folder() {
    let empty = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_despatch"))
        .args(["league", "autumn", "--derive"])
        .arg(empty.path())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("journal.jsonl"), "{err}");
}
