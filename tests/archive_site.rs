//! Issue 16 points 6 and 8: `despatch archive` writes a static site of a game — index, one page
//! per step with its map and dice, the verify page — showing during play only what a spectator
//! may see (delay included) and after the end everything; bad input leaves a good site alone.
//! Naval training game played by mail; its Russian minefields are the hidden facts.

use crate::naval_mail;

use std::collections::BTreeMap;
use std::path::Path;

use chrono::{Duration, TimeZone, Utc};
use despatch::archive::{LeagueSection, esc};
use despatch::config::Config;
use despatch::engine::Silence;
use naval_mail::{Game, start_configured};

fn game(delay: u32) -> Game {
    start_configured("training", |c: &mut Config| {
        c.games.policy.club.spectator_delay_steps = delay;
        c.games.policy.on_silence = Silence::Forfeit;
    })
}

/// Every file of a written site: relative path → text (SVG and HTML are text).
fn site(dir: &Path) -> BTreeMap<String, String> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, String>) {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                let rel = p.strip_prefix(root).unwrap().to_string_lossy().into_owned();
                out.insert(
                    rel,
                    String::from_utf8_lossy(&std::fs::read(&p).unwrap()).into(),
                );
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// A line showing a Russian field's nature (`field M1 (russia) …: genuine`), in any file.
fn hidden_fact(files: &BTreeMap<String, String>) -> Option<(String, String)> {
    for (name, text) in files {
        for line in text.lines() {
            if line.contains("field M") && (line.contains(": genuine") || line.contains(": dummy"))
            {
                return Some((name.clone(), line.to_string()));
            }
        }
    }
    None
}

/// Every `href="…"` and `src="…"` of the site's pages.
fn links(files: &BTreeMap<String, String>) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (name, text) in files.iter().filter(|(n, _)| n.ends_with(".html")) {
        for attr in ["href=\"", "src=\""] {
            for part in text.split(attr).skip(1) {
                let target = part.split('"').next().unwrap_or("");
                out.push((name.clone(), target.to_string()));
            }
        }
    }
    out
}

fn end_by_forfeit(g: &mut Game) {
    let late = Utc.with_ymd_and_hms(2026, 6, 1, 9, 0, 0).unwrap() + Duration::days(60);
    g.d.tick("g", late).unwrap();
    assert!(g.d.open_game("g").unwrap().game.is_over());
}

#[test]
fn a_mid_game_archive_shows_the_spectator_view_only_and_the_end_shows_everything() {
    let mut g = game(0);
    // Steps 1 (set-up) and 2 (manoeuvre) resolve; step 3 (gunnery) is open.
    g.play_until(3);
    assert!(!g.d.open_game("g").unwrap().game.is_over());
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("site");
    let (written, n) = g.d.write_archive("g", Some(&dir), None).unwrap();
    assert_eq!(written, dir);
    let files = site(&dir);
    assert_eq!(files.len(), n);
    let index = &files["index.html"];
    for want in [
        "Game g",
        "naval-rjw",
        "scenario training",
        "<td>japan</td>",
        "<td>russia</td>",
        "Anchor A = ",
        "step 3",
        "only what a spectator may see",
    ] {
        assert!(index.contains(want), "index lacks {want:?}:\n{index}");
    }
    for k in 1..=2 {
        let page = &files[&format!("step-{k:03}.html")];
        assert!(page.contains(&format!("S_{k} (seed)")), "{page}");
        assert!(files.contains_key(&format!("maps/step-{k:03}.svg")));
    }
    assert!(
        !files.contains_key("step-003.html"),
        "step 3 is not resolved"
    );
    assert!(
        !files.contains_key("journal.jsonl"),
        "the journal holds every order"
    );
    assert!(
        !files
            .keys()
            .any(|f| f.contains("japan") || f.contains("russia")),
        "no seat's own map mid-game"
    );
    assert_eq!(hidden_fact(&files), None, "a mid-game archive leaks");
    assert!(!files.values().any(|t| t.contains("<h2>Orders</h2>")));

    // Positive control: once the game is over, the archive (written by the daemon itself)
    // shows what was hidden, the orders, the result and the journal.
    end_by_forfeit(&mut g);
    let auto = g.d.archive_dir("g");
    let files = site(&auto);
    let leak = hidden_fact(&files);
    assert!(leak.is_some(), "the after-the-end archive hides the fields");
    assert!(
        files["index.html"].contains("forfeited"),
        "{}",
        files["index.html"]
    );
    assert!(files.contains_key("journal.jsonl"));
    assert!(files["step-001.html"].contains("<h2>Orders</h2>"));
    assert!(files["step-001.html"].contains("As russia saw it"));
    assert!(files.contains_key("maps/step-001-russia.svg"));
    assert!(files["index.html"].contains("Salt key z (published at the end)"));
}

#[test]
fn the_delay_holds_in_the_archive_too() {
    let mut g = game(2);
    g.play_until(5);
    let out = tempfile::tempdir().unwrap();
    let (dir, _) =
        g.d.write_archive("g", Some(&out.path().join("a")), None)
            .unwrap();
    let files = site(&dir);
    let steps: Vec<&String> = files.keys().filter(|f| f.starts_with("step-")).collect();
    assert_eq!(
        steps,
        ["step-001.html", "step-002.html"],
        "4 resolved, 2 behind"
    );
    assert!(files["index.html"].contains("2 step(s) behind the game"));
}

/// `target` as linked from page `page` (both relative to the site's root): `..` taken off the
/// page's folder, a `#fragment` dropped.
fn resolve(page: &str, target: &str) -> String {
    let target = target.split('#').next().unwrap_or("");
    let mut parts: Vec<&str> = page.split('/').collect();
    parts.pop();
    for p in target.split('/') {
        match p {
            ".." => {
                parts.pop();
            }
            "." | "" => {}
            p => parts.push(p),
        }
    }
    parts.join("/")
}

#[test]
fn every_link_resolves_to_a_file_of_the_site_and_nothing_is_fetched() {
    let mut g = game(0);
    g.play_until(3);
    end_by_forfeit(&mut g);
    // The whole live site: the game's pages, its seats' pages and the site's own index.
    let root = g.d.site_root();
    let files = site(&root);
    assert!(files.contains_key("index.html") && files.contains_key("g/index.html"));
    assert!(files.keys().any(|f| f.starts_with("g/s/")), "seat pages");
    let all = links(&files);
    assert!(all.len() > 6, "{all:?}");
    for (page, target) in &all {
        assert!(
            !target.contains("://") && !target.starts_with('/'),
            "{page}: {target} is not relative"
        );
        let to = resolve(page, target);
        assert!(
            files.contains_key(to.as_str()),
            "{page} links to {target} ({to}), which is missing"
        );
    }
    for (name, text) in files.iter().filter(|(n, _)| n.ends_with(".html")) {
        assert!(text.starts_with("<!doctype html>"), "{name}");
        assert!(text.contains("<meta charset=\"utf-8\">"), "{name}");
        assert!(text.contains("<title>"), "{name}");
    }
}

#[test]
fn what_others_hand_in_is_escaped() {
    assert_eq!(
        esc("<b a=\"x\">'&'"),
        "&lt;b a=&quot;x&quot;&gt;&#39;&amp;&#39;"
    );
    let mut g = game(0);
    g.play_until(2);
    let league = LeagueSection {
        title: "Club <league>".into(),
        header: vec!["Player".into(), "Points".into()],
        rows: vec![vec!["<script>alert(1)</script>".into(), "3".into()]],
    };
    let out = tempfile::tempdir().unwrap();
    let (dir, _) =
        g.d.write_archive("g", Some(&out.path().join("s")), Some(&league))
            .unwrap();
    let index = std::fs::read_to_string(dir.join("index.html")).unwrap();
    assert!(
        index.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
        "{index}"
    );
    assert!(index.contains("Club &lt;league&gt;"), "{index}");
    assert!(!index.contains("<script"), "{index}");
}

#[test]
fn bad_input_is_refused_and_a_good_site_stays_in_place() {
    let mut g = game(0);
    g.play_until(3);
    let err = g.d.write_archive("nosuch", None, None).unwrap_err();
    assert!(err.to_string().contains("no game `nosuch`"), "{err}");
    let err = g.d.write_archive("../g", None, None).unwrap_err();
    assert!(err.to_string().contains("no game"), "{err}");

    let out = tempfile::tempdir().unwrap();
    // A --out whose parent is a file cannot be written: a clear error, nothing left behind.
    let file = out.path().join("plain-file");
    std::fs::write(&file, "x").unwrap();
    let err =
        g.d.write_archive("g", Some(&file.join("site")), None)
            .unwrap_err();
    assert!(format!("{err:#}").contains("plain-file"), "{err:#}");

    let dir = out.path().join("site");
    g.d.write_archive("g", Some(&dir), None).unwrap();
    let good = site(&dir);
    // A damaged journal (one seed's digit changed): the replay fails, the good site stays.
    let store = g.d.data.game("g");
    let journal = std::fs::read_to_string(store.journal_path()).unwrap();
    let at = journal.find("\"seed\":\"").unwrap() + 8;
    let digit = if &journal[at..at + 1] == "0" {
        "1"
    } else {
        "0"
    };
    let damaged = format!("{}{digit}{}", &journal[..at], &journal[at + 1..]);
    std::fs::write(store.journal_path(), damaged).unwrap();
    let err = g.d.write_archive("g", Some(&dir), None).unwrap_err();
    assert!(format!("{err:#}").contains("no archive written"), "{err:#}");
    assert_eq!(site(&dir), good, "the good site was touched");
    let left: Vec<String> = std::fs::read_dir(out.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left.len(), 2, "no temporary folder left: {left:?}");
}
