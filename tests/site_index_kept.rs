//! The site's index kept, not rebuilt (issue 32 point 4; docs/site.md): a change to one game
//! rewrites its entry in `games.json` and the index page from that list, reading no other
//! game's summary; a missing or damaged list is rebuilt from every game's `game.json`;
//! `despatch archive` rebuilds it on purpose; two writers keep each other's entries.

use crate::naval_mail;

use chrono::{TimeZone, Utc};
use despatch::archive::GameSummary;
use despatch::config::Config;
use despatch::daemon::Daemon;
use naval_mail::{Game, SEATS, start};

/// Other players than g's, so that g's players' mails stay g's alone.
fn seats() -> Vec<(String, String)> {
    SEATS
        .iter()
        .map(|(s, _, _)| (s.to_string(), format!("{s}-player@other.example")))
        .collect()
}

fn make(d: &Daemon, id: &str) {
    let when = Utc.with_ymd_and_hms(2026, 6, 1, 9, 5, 0).unwrap();
    d.create_game(id, "naval-rjw", "training", &seats(), when)
        .unwrap();
}

fn kept(g: &Game) -> Vec<GameSummary> {
    let bytes = std::fs::read(g.d.site_root().join("games.json")).expect("the kept list");
    serde_json::from_slice(&bytes).expect("a list of summaries")
}

fn ids(v: &[GameSummary]) -> Vec<String> {
    v.iter().map(|s| s.id.clone()).collect()
}

fn index(g: &Game) -> String {
    std::fs::read_to_string(g.d.site_root().join("index.html")).unwrap()
}

fn listed(index: &str, id: &str) -> bool {
    index.contains(&format!("<a href=\"{id}/index.html\">{id}</a>"))
}

#[test]
fn making_a_game_reads_no_other_games_summary() {
    let g = start();
    assert_eq!(
        ids(&kept(&g)),
        ["g"],
        "the first game's pages put it in the list"
    );
    // g's own summary made unreadable: only a rewrite that reads every game would notice.
    let summary = g.d.archive_dir("g").join("game.json");
    std::fs::write(&summary, b"not json").unwrap();
    make(&g.d, "g2");
    assert_eq!(ids(&kept(&g)), ["g", "g2"]);
    let page = index(&g);
    assert!(listed(&page, "g") && listed(&page, "g2"), "{page}");
    // Control: `despatch archive` reads every game's summary again, and so leaves g off.
    g.d.write_archive("g2", None, None).unwrap();
    assert_eq!(ids(&kept(&g)), ["g2"], "rebuilt from the game.json files");
    assert!(!listed(&index(&g), "g"));
}

#[test]
fn each_change_rewrites_its_games_entry_and_no_other() {
    let mut g = start();
    make(&g.d, "g2");
    let before = kept(&g);
    g.play_until(3);
    let after = kept(&g);
    let of = |v: &[GameSummary], id: &str| v.iter().find(|s| s.id == id).unwrap().clone();
    assert_eq!(of(&before, "g").step, 1);
    assert_eq!(of(&after, "g").step, 3, "the entry follows the game");
    assert_eq!(
        of(&after, "g2"),
        of(&before, "g2"),
        "the other entry is kept"
    );
    // The kept entry is what the game's own summary says.
    let own: GameSummary =
        serde_json::from_slice(&std::fs::read(g.d.archive_dir("g").join("game.json")).unwrap())
            .unwrap();
    assert_eq!(of(&after, "g"), own);
    assert!(index(&g).contains("step 3"));
}

#[test]
fn a_damaged_or_missing_list_is_rebuilt_from_every_game() {
    let mut g = start();
    make(&g.d, "g2");
    let root = g.d.site_root();
    for damage in [&b"[{\"id\":"[..], b""] {
        std::fs::write(root.join("games.json"), damage).unwrap();
        g.play_until(g.step() + 1);
        assert_eq!(ids(&kept(&g)), ["g", "g2"], "after {damage:?}");
        let page = index(&g);
        assert!(listed(&page, "g") && listed(&page, "g2"), "{page}");
    }
    std::fs::remove_file(root.join("games.json")).unwrap();
    make(&g.d, "g3");
    assert_eq!(ids(&kept(&g)), ["g", "g2", "g3"]);
}

#[test]
fn an_archive_command_beside_the_daemon_loses_no_games_entry() {
    let g = start();
    // A second process on the same data directory: `despatch archive` takes no data lock.
    let mut cfg: Config = g.d.cfg.clone();
    cfg.games.notify = despatch::store::Notify::all();
    let other = Daemon::new(cfg).unwrap();
    let made: Vec<String> = (1..=8).map(|i| format!("h{i}")).collect();
    std::thread::scope(|s| {
        s.spawn(|| {
            for _ in 0..12 {
                other.write_archive("g", None, None).unwrap();
            }
        });
        for id in &made {
            make(&g.d, id);
        }
    });
    let mut want = vec!["g".to_string()];
    want.extend(made.iter().cloned());
    assert_eq!(ids(&kept(&g)), want);
    let page = index(&g);
    for id in &want {
        assert!(listed(&page, id), "{id}: {page}");
    }
}
