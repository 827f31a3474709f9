//! Issue 31 point 2 through the mail pipeline: the live site is rewritten as the game goes (its
//! pages, each seat's private page, the site's index); a seat's page shows nothing its mails do
//! not, the public page nothing a spectator's mails do not; a seat's private link is in its own
//! mails and no one else's; a seat handed on loses its old page; a lapse in the rewrite is
//! logged and the game goes on; readers only ever read whole pages, and a write that fails
//! midway leaves the previous ones. Naval training game; its Russian minefields (genuine or
//! dummy, known to Russia alone) are the hidden facts.

use crate::naval_mail;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use chrono::{Duration, TimeZone, Utc};
use despatch::archive::seat_code;
use despatch::config::Config;
use despatch::engine::Silence;
use mail_parser::MessageParser;
use naval_mail::{Game, SEATS, start_configured};

const BASE: &str = "https://club.example.org/games";
const WATCHER: &str = "watcher@club.example";

fn game(delay: u32) -> Game {
    start_configured("training", |c: &mut Config| {
        c.games.policy.club.spectator_delay_steps = delay;
        c.games.policy.on_silence = Silence::Forfeit;
        c.site.base_url = Some(format!("{BASE}/"));
    })
}

fn token(seat: &str) -> &'static str {
    SEATS.iter().find(|s| s.0 == seat).unwrap().2
}

fn address(seat: &str) -> &'static str {
    SEATS.iter().find(|s| s.0 == seat).unwrap().1
}

/// The folder of `seat`'s private page.
fn seat_dir(g: &Game, seat: &str) -> std::path::PathBuf {
    g.d.archive_dir("g")
        .join("s")
        .join(seat_code("g", seat, token(seat)))
}

fn private_url(seat: &str) -> String {
    format!("{BASE}/g/s/{}/", seat_code("g", seat, token(seat)))
}

/// Every file under `dir`: relative path → text.
fn files(dir: &Path) -> BTreeMap<String, String> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, String>) {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                let rel = p.strip_prefix(root).unwrap().to_string_lossy().into_owned();
                out.insert(rel, std::fs::read_to_string(&p).unwrap_or_default());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// Every line of every `<pre>` block of a page (logs, boards, sections, orders, the prompt),
/// as text.
fn pre_lines(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    for block in html.split("<pre").skip(1) {
        let body = &block[block.find('>').unwrap() + 1..];
        let body = &body[..body.find("</pre>").unwrap()];
        out.extend(
            unescape(body)
                .lines()
                .map(|l| l.trim().to_string())
                .filter(|l| !l.is_empty()),
        );
    }
    out
}

fn flat(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Every delivered mail to `to`, parsed: (text parts, HTML parts, text attachments).
fn mails_to(g: &Game, to: &str) -> Vec<(String, String, Vec<String>)> {
    let mut out = Vec::new();
    for sub in ["new", "cur"] {
        for e in std::fs::read_dir(g.d.cfg.mail.outbox.join(sub))
            .unwrap()
            .flatten()
        {
            let bytes = std::fs::read(e.path()).unwrap();
            let m = MessageParser::default().parse(&bytes).unwrap();
            if m.to().and_then(|a| a.first()).and_then(|a| a.address()) != Some(to) {
                continue;
            }
            let text = (0..3).filter_map(|i| m.body_text(i)).collect::<Vec<_>>();
            // As a browser reads it (the templates escape `/` in attribute values).
            let html = (0..3)
                .filter_map(|i| m.body_html(i))
                .map(|h| unescape(&h.replace("&#x2f;", "/")))
                .collect::<Vec<_>>();
            let attached = m
                .attachments()
                .filter_map(|a| std::str::from_utf8(a.contents()).ok().map(str::to_string))
                .collect();
            out.push((text.join("\n"), html.join("\n"), attached));
        }
    }
    out
}

/// What `to`'s mails show, whitespace folded (a mail wraps long lines at 72 columns).
fn corpus(g: &Game, to: &str) -> String {
    flat(
        &mails_to(g, to)
            .into_iter()
            .map(|(t, _, a)| format!("{t}\n{}", a.join("\n")))
            .collect::<Vec<_>>()
            .join("\n"),
    )
}

/// A Russian field's nature (`field M1 (russia) …: genuine`), in any of `texts`.
fn hidden_fact<'a>(texts: impl IntoIterator<Item = &'a String>) -> Option<String> {
    texts.into_iter().find_map(|t| {
        t.lines()
            .find(|l| l.contains("field M") && (l.contains(": genuine") || l.contains(": dummy")))
            .map(str::to_string)
    })
}

/// Every line of `page`'s `<pre>` blocks is in `mails` (folded), and every map the page shows
/// is one a mail carried whole.
fn shown_by_mails(what: &str, page: &str, maps: &[&String], mails: &str, svgs: &[String]) {
    let lines = pre_lines(page);
    assert!(lines.len() > 10, "{what}: too little to compare: {lines:?}");
    for l in &lines {
        assert!(
            mails.contains(&flat(l)),
            "{what} shows a line no mail showed: {l:?}"
        );
    }
    for m in maps {
        assert!(svgs.contains(m), "{what} shows a map no mail carried");
    }
}

fn end_by_forfeit(g: &mut Game) {
    let late = Utc.with_ymd_and_hms(2026, 6, 1, 9, 0, 0).unwrap() + Duration::days(60);
    g.d.tick("g", late).unwrap();
    assert!(g.d.open_game("g").unwrap().game.is_over());
}

#[test]
fn every_step_rewrites_the_game_pages_the_seats_pages_and_the_index() {
    let mut g = game(0);
    let root = g.d.site_root();
    assert_eq!(root, g.d.cfg.data_dir.join("archive"), "the default root");
    // At the start: the game's page, each seat's, the place-holder that hides the codes,
    // and the site's index listing the game.
    let game_dir = g.d.archive_dir("g");
    assert!(game_dir.join("index.html").exists());
    assert!(
        game_dir.join("s/index.html").exists(),
        "no listing of codes"
    );
    for (seat, _, _) in SEATS {
        let page = std::fs::read_to_string(seat_dir(&g, seat).join("index.html")).unwrap();
        assert!(page.contains("noindex"), "{seat}: {page}");
        assert!(page.contains(&format!("your seat, {seat}")), "{page}");
        assert!(page.contains("Deadline: "), "{page}");
        assert!(!page.contains("http"), "no third-party resource: {page}");
    }
    let index = std::fs::read_to_string(root.join("index.html")).unwrap();
    assert!(index.contains("<a href=\"g/index.html\">g</a>"), "{index}");
    assert!(index.contains("step 1"), "{index}");

    g.play_until(3);
    let site = files(&game_dir);
    for k in 1..=2 {
        assert!(site.contains_key(&format!("step-{k:03}.html")), "step {k}");
        assert!(
            site.contains_key(&format!("maps/step-{k:03}.svg")),
            "map {k}"
        );
    }
    let japan = std::fs::read_to_string(seat_dir(&g, "japan").join("index.html")).unwrap();
    assert!(japan.contains("<h2>Step 2: "), "{japan}");
    assert!(japan.contains("maps/step-002.svg"), "{japan}");
    assert!(seat_dir(&g, "japan").join("maps/step-002.svg").exists());
    assert!(japan.contains("Your orders (as your receipt gave them)"));
    let index = std::fs::read_to_string(root.join("index.html")).unwrap();
    assert!(
        index.contains("step 3"),
        "the index follows the game: {index}"
    );
    // Maps as SVG with a viewport line: a phone zooms into them.
    assert!(site["step-002.html"].contains("name=\"viewport\""));
    assert!(
        site["maps/step-002.svg"].starts_with("<svg") || site["maps/step-002.svg"].contains("<svg")
    );

    end_by_forfeit(&mut g);
    let index = std::fs::read_to_string(root.join("index.html")).unwrap();
    let over = &index[index.find("<h2>Over</h2>").unwrap()..];
    assert!(
        over.contains("g/index.html"),
        "the game is listed as over: {index}"
    );
    let japan = std::fs::read_to_string(seat_dir(&g, "japan").join("index.html")).unwrap();
    assert!(japan.contains("The game is over"), "{japan}");
}

#[test]
fn a_seats_page_shows_nothing_its_mails_do_not() {
    let mut g = game(0);
    g.play_until(4);
    let mut shown = BTreeMap::new();
    for (seat, to, _) in SEATS {
        let dir = seat_dir(&g, seat);
        let all = files(&dir);
        let page = &all["index.html"];
        let maps: Vec<&String> = all
            .iter()
            .filter(|(n, _)| n.ends_with(".svg"))
            .map(|(_, t)| t)
            .collect();
        assert!(!maps.is_empty(), "{seat}: maps");
        let svgs: Vec<String> = mails_to(&g, to).into_iter().flat_map(|m| m.2).collect();
        shown_by_mails(
            &format!("{seat}'s page"),
            page,
            &maps,
            &corpus(&g, to),
            &svgs,
        );
        shown.insert(seat, all);
    }
    // Control for the method: Russia's page holds lines Japan's mails never showed.
    let japan_mails = corpus(&g, address("japan"));
    assert!(
        pre_lines(&shown["russia"]["index.html"])
            .iter()
            .any(|l| !japan_mails.contains(&flat(l))),
        "the comparison cannot tell one seat's page from another's"
    );
    // Japan's page never shows what Russia alone knows; Russia's own page does (the control:
    // the scan finds a field's nature where it is).
    assert_eq!(
        hidden_fact(shown["japan"].values()),
        None,
        "japan's page leaks"
    );
    assert!(
        hidden_fact(shown["russia"].values()).is_some(),
        "russia's page does not show its own fields"
    );
    // And each seat's page shows its own orders, never the other seat's.
    let orders = |seat: &str| {
        let p = &shown[seat]["index.html"];
        let at = p.find("Your orders (as your receipt gave them)").unwrap();
        pre_lines(&p[at..])[0].clone()
    };
    assert!(
        !shown["russia"]["index.html"].contains(&orders("japan")),
        "russia's page shows japan's orders: {}",
        orders("japan")
    );
}

#[test]
fn the_public_page_shows_nothing_a_spectators_mails_do_not() {
    // The spectator's journal id is random and the dice commit to the journal, so the battle
    // differs from run to run, and Gunnery School can be over by step 3 (Russia defeated: one
    // run in five). This test needs a game still in play after four steps: one that ended is
    // played again.
    let mut g = game(1);
    for _ in 0..10 {
        g = game(1);
        let when = Utc.with_ymd_and_hms(2026, 6, 1, 9, 30, 0).unwrap();
        g.d.gm_spectator("g", true, WATCHER, when).unwrap();
        crate::club_spectators::confirm(&mut g, WATCHER);
        g.play_until(5);
        if !g.d.open_game("g").unwrap().game.is_over() {
            break;
        }
    }
    assert!(
        !g.d.open_game("g").unwrap().game.is_over(),
        "ten games over by step 5"
    );
    let dir = g.d.archive_dir("g");
    let public: BTreeMap<String, String> = files(&dir)
        .into_iter()
        .filter(|(n, _)| !n.starts_with("s/"))
        .collect();
    // One step behind: four resolved, three shown, as the spectator's mails.
    let steps: Vec<&String> = public.keys().filter(|n| n.starts_with("step-")).collect();
    assert_eq!(steps.len(), 3, "{steps:?}");
    let mails = corpus(&g, WATCHER);
    for k in 1..=3 {
        assert!(
            mails.contains(&format!("WHAT HAPPENED (step {k}")),
            "step {k}: the spectator's mails tell of {:?}; the game is at step {}, outcome {:?}",
            mails
                .match_indices("WHAT HAPPENED (step ")
                .map(|(i, _)| &mails[i + 20..(i + 23).min(mails.len())])
                .collect::<Vec<_>>(),
            g.d.open_game("g").unwrap().game.book().step,
            g.d.open_game("g").unwrap().game.outcome(),
        );
    }
    assert!(!mails.contains("WHAT HAPPENED (step 4"), "held back");
    let svgs: Vec<String> = mails_to(&g, WATCHER)
        .into_iter()
        .flat_map(|m| m.2)
        .collect();
    for (name, page) in public.iter().filter(|(n, _)| n.starts_with("step-")) {
        let k: u64 = name[5..8].parse().unwrap();
        let map = &public[&format!("maps/step-{k:03}.svg")];
        shown_by_mails(&format!("public {name}"), page, &[map], &mails, &svgs);
    }
    assert_eq!(hidden_fact(public.values()), None, "the public page leaks");
    // Controls: the fields' nature is on Russia's page now, and on the public pages once the
    // game is over and nothing is hidden.
    assert!(hidden_fact(files(&seat_dir(&g, "russia")).values()).is_some());
    end_by_forfeit(&mut g);
    assert!(hidden_fact(files(&dir).values().filter(|t| !t.is_empty())).is_some());
}

#[test]
fn a_seats_private_link_is_in_its_own_mails_and_no_one_elses() {
    let mut g = game(0);
    let when = Utc.with_ymd_and_hms(2026, 6, 1, 9, 30, 0).unwrap();
    g.d.gm_spectator("g", true, WATCHER, when).unwrap();
    crate::club_spectators::confirm(&mut g, WATCHER);
    g.play_until(3);
    let public = format!("{BASE}/g/");
    for (seat, to, _) in SEATS {
        let mine = private_url(seat);
        let own = mails_to(&g, to);
        assert!(own.len() > 3);
        // Positive control: every game mail of the seat carries its link, text and HTML.
        for (text, html, _) in &own {
            assert!(
                text.contains(&mine),
                "{seat}: a mail without its page:\n{text}"
            );
            assert!(text.contains(&public), "{seat}: {text}");
            if !html.is_empty() {
                assert!(html.contains(&mine), "{seat}: the HTML lacks its page");
            }
        }
        for other in SEATS
            .iter()
            .map(|s| s.1)
            .filter(|a| *a != to)
            .chain([WATCHER])
        {
            for (text, html, att) in mails_to(&g, other) {
                for part in std::iter::once(&text).chain([&html]).chain(&att) {
                    assert!(
                        !part.contains(&mine),
                        "{seat}'s page is in a mail to {other}"
                    );
                    if other == WATCHER {
                        assert!(
                            !part.contains("/g/s/"),
                            "a seat's page in a mail to {other}"
                        );
                    }
                }
            }
        }
    }
    // The spectator's game mails (all but the request to confirm, a house letter).
    let watcher: Vec<_> = mails_to(&g, WATCHER)
        .into_iter()
        .filter(|(t, _, _)| t.starts_with("SPECTATOR VIEW"))
        .collect();
    assert!(watcher.len() > 2);
    assert!(
        watcher.iter().all(|(t, _, _)| t.contains(&public)),
        "the spectator's game mails link to the game's page"
    );
    // The link is written after the seal: `despatch verify` holds the mails as before.
    let folder = tempfile::tempdir().unwrap();
    for sub in ["new", "cur"] {
        for e in std::fs::read_dir(g.d.cfg.mail.outbox.join(sub))
            .unwrap()
            .flatten()
        {
            let bytes = std::fs::read(e.path()).unwrap();
            if String::from_utf8_lossy(&bytes).contains(address("japan")) {
                std::fs::write(folder.path().join(e.file_name()), bytes).unwrap();
            }
        }
    }
    let (checked, findings) = despatch::verify::verify_mails(folder.path(), Some("g"));
    assert!(findings.is_empty(), "{findings:?}");
    assert!(checked.mails > 3, "{} mails checked", checked.mails);
}

#[test]
fn a_seat_handed_on_gets_a_new_page_and_the_old_one_is_removed() {
    let mut g = game(0);
    g.play_until(2);
    let old = seat_dir(&g, "japan");
    assert!(old.join("index.html").exists());
    let when = Utc.with_ymd_and_hms(2026, 6, 1, 11, 0, 0).unwrap();
    g.d.gm_replace("g", "japan", "kamimura@fleet.example", "moved", when)
        .unwrap();
    assert!(!old.exists(), "the old page stays readable");
    let seats = g.d.data.game("g").seats().unwrap();
    let new_token = &seats.seats["japan"].token;
    let new =
        g.d.archive_dir("g")
            .join("s")
            .join(seat_code("g", "japan", new_token));
    assert!(new.join("index.html").exists(), "the new player's page");
    let url = format!("{BASE}/g/s/{}/", seat_code("g", "japan", new_token));
    let takeover = mails_to(&g, "kamimura@fleet.example");
    assert!(!takeover.is_empty() && takeover.iter().all(|m| m.0.contains(&url)));
    assert!(
        takeover
            .iter()
            .all(|m| !m.0.contains(&private_url("japan")))
    );
}

#[derive(Clone, Default)]
struct Logs(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Logs {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_lapse_in_the_rewrite_is_logged_and_the_game_goes_on() {
    let logs = Logs::default();
    let sink = logs.clone();
    let sub = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::WARN)
        .with_ansi(false)
        .with_writer(move || sink.clone())
        .finish();
    let (g, before) = tracing::subscriber::with_default(sub, || {
        tracing::callsite::rebuild_interest_cache();
        let mut g = game(0);
        // The site's folder cannot be written: a plain file stands where it should be.
        let root = g.d.site_root();
        std::fs::remove_dir_all(&root).unwrap();
        std::fs::write(&root, "not a folder").unwrap();
        let before = g.inbox("japan").len();
        g.play_until(3);
        (g, before)
    });
    let logs = String::from_utf8(logs.0.lock().unwrap().clone()).unwrap();
    assert!(
        logs.contains("the live pages were not rewritten"),
        "the lapse is not logged: {logs}"
    );
    // The game went on: two steps resolved and their mails went out.
    assert_eq!(g.step(), 3);
    assert!(g.inbox("japan").len() > before + 2);
    // And the next change writes everything again once the folder can be written.
    let root = g.d.site_root();
    std::fs::remove_file(&root).unwrap();
    g.d.write_archive("g", None, None).unwrap();
    assert!(g.d.archive_dir("g").join("step-002.html").exists());
}

#[test]
fn readers_only_ever_read_whole_pages_while_steps_resolve() {
    let mut g = game(0);
    let pages = [
        g.d.site_root().join("index.html"),
        g.d.archive_dir("g").join("index.html"),
        seat_dir(&g, "japan").join("index.html"),
    ];
    let stop = Arc::new(AtomicBool::new(false));
    let reader = {
        let stop = stop.clone();
        let pages = pages.clone();
        std::thread::spawn(move || {
            let mut reads = 0u64;
            let mut versions = std::collections::BTreeSet::new();
            while !stop.load(Ordering::Relaxed) {
                for p in &pages {
                    let text = std::fs::read_to_string(p).expect("the page is always there");
                    assert!(
                        text.starts_with("<!doctype html>") && text.ends_with("</html>\n"),
                        "half a page at {}: {} bytes",
                        p.display(),
                        text.len()
                    );
                    versions.insert(text.len());
                    reads += 1;
                }
            }
            (reads, versions.len())
        })
    };
    g.play_until(5);
    stop.store(true, Ordering::Relaxed);
    let (reads, versions) = reader.join().unwrap();
    assert!(reads > 30, "the reader read {reads} pages");
    // Control: the reader did see the pages change under it.
    assert!(versions > 3, "only {versions} versions seen");
}

#[test]
fn a_write_that_fails_midway_leaves_the_previous_pages_whole() {
    let mut g = game(0);
    g.play_until(2);
    let dir = g.d.archive_dir("g");
    let index_before = std::fs::read(dir.join("index.html")).unwrap();
    let japan_before = std::fs::read(seat_dir(&g, "japan").join("index.html")).unwrap();
    // Step 2's map cannot be put in place (a folder holds its name): the rewrite fails after
    // every new file was written under its temporary name.
    std::fs::create_dir_all(dir.join("maps/step-002.svg/x")).unwrap();
    g.play_until(3);
    assert_eq!(g.step(), 3, "the game went on");
    assert_eq!(std::fs::read(dir.join("index.html")).unwrap(), index_before);
    assert_eq!(
        std::fs::read(seat_dir(&g, "japan").join("index.html")).unwrap(),
        japan_before
    );
    assert!(
        !dir.join("step-002.html").exists() || {
            // Pages before their index may have been put in place; each is whole.
            let t = std::fs::read_to_string(dir.join("step-002.html")).unwrap();
            t.ends_with("</html>\n")
        }
    );
    let left: Vec<String> = files(&dir)
        .keys()
        .filter(|n| n.contains(".tmp."))
        .cloned()
        .collect();
    assert!(left.is_empty(), "temporaries left: {left:?}");
    // Control: with the obstacle gone, the next write brings every page up to date.
    std::fs::remove_dir_all(dir.join("maps/step-002.svg")).unwrap();
    g.d.write_archive("g", None, None).unwrap();
    let index = std::fs::read_to_string(dir.join("index.html")).unwrap();
    assert!(index.contains("step-002.html"), "{index}");
    assert_ne!(index.as_bytes(), index_before.as_slice());
}

/// The calendar feed a private page links to, as a path under the site's root.
fn feed_of(page: &str) -> String {
    let at = page.find("../../../cal/").expect("a calendar link") + "../../../".len();
    page[at..at + page[at..].find('"').unwrap()].to_string()
}

#[test]
fn each_player_has_one_calendar_feed_linked_from_their_pages_in_every_game() {
    let g = game(0);
    let when = Utc.with_ymd_and_hms(2026, 6, 1, 9, 10, 0).unwrap();
    g.d.create_game(
        "g2",
        "naval-rjw",
        "training",
        &SEATS.map(|(s, a, _)| (s.to_string(), a.to_string())),
        when,
    )
    .unwrap();
    let root = g.d.site_root();
    assert!(root.join("cal/index.html").exists(), "no listing of feeds");
    let page = |game: &str, seat: &str| {
        let token = g.d.data.game(game).seats().unwrap().seats[seat]
            .token
            .clone();
        let dir = root
            .join(game)
            .join("s")
            .join(seat_code(game, seat, &token));
        std::fs::read_to_string(dir.join("index.html")).unwrap()
    };
    // Japan's player: one feed, linked from both games' pages, with both games' deadlines.
    let feed = feed_of(&page("g2", "japan"));
    assert_eq!(feed_of(&page("g", "japan")), feed);
    let ics = std::fs::read_to_string(root.join(&feed)).unwrap();
    assert!(ics.starts_with("BEGIN:VCALENDAR"), "{ics}");
    assert!(ics.contains("Orders due: g\\, step 1 (japan)"), "{ics}");
    assert!(ics.contains("Orders due: g2\\, step 1 (japan)"), "{ics}");
    assert!(
        !ics.contains("(russia)"),
        "another player's deadline: {ics}"
    );
    // Control: Russia's player has a feed of their own, with their seats.
    let theirs = feed_of(&page("g", "russia"));
    assert_ne!(theirs, feed);
    let ics = std::fs::read_to_string(root.join(&theirs)).unwrap();
    assert!(ics.contains("Orders due: g2\\, step 1 (russia)"), "{ics}");
    // No address and no token in a feed's name: 32 hex digits.
    let name = feed.trim_start_matches("cal/").trim_end_matches(".ics");
    assert!(name.len() == 32 && name.bytes().all(|b| b.is_ascii_hexdigit()));
}

/// Issue 32 point 2: a step draws only its own maps. A past step's map is kept as it is (a
/// stand-in put in its place stays), a missing one — a lapse's — is drawn by the next step,
/// and apart from the stand-ins the pages the steps left are byte for byte those `despatch
/// archive` draws whole; a folder without its mark has every map drawn again.
#[test]
fn a_step_draws_its_own_maps_keeps_past_ones_and_heals_a_missing_one() {
    let mut g = game(0);
    g.play_until(2);
    let dir = g.d.archive_dir("g");
    let japan = seat_dir(&g, "japan");
    assert!(dir.join(".drawn").exists(), "no mark");
    let stand_in = "<svg>a stand-in</svg>";
    let past = [
        dir.join("maps/step-001.svg"),
        japan.join("maps/step-001.svg"),
    ];
    for p in &past {
        std::fs::write(p, stand_in).unwrap();
    }
    g.play_until(3);
    for p in &past {
        let now = std::fs::read_to_string(p).unwrap();
        assert_eq!(now, stand_in, "{} was drawn again", p.display());
    }
    assert!(dir.join("maps/step-002.svg").exists() && japan.join("maps/step-002.svg").exists());
    // A lapse left step 2's maps out: the next step draws them.
    let lapsed = [
        dir.join("maps/step-002.svg"),
        japan.join("maps/step-002.svg"),
    ];
    for p in &lapsed {
        std::fs::remove_file(p).unwrap();
    }
    g.play_until(4);
    for p in &lapsed {
        assert!(p.exists(), "{} missing after the next step", p.display());
    }
    let rel = |p: &Path| p.strip_prefix(&dir).unwrap().to_string_lossy().into_owned();
    let mut left = files(&dir);
    for p in &past {
        assert_eq!(left.remove(&rel(p)).unwrap(), stand_in);
    }
    g.d.write_archive("g", None, None).unwrap();
    let mut whole = files(&dir);
    for p in &past {
        assert_ne!(
            whole.remove(&rel(p)).unwrap(),
            stand_in,
            "archive drew no map again"
        );
    }
    assert!(left.keys().any(|k| k.ends_with("step-003.svg")));
    assert_eq!(
        left, whole,
        "the steps' pages are not what a whole drawing gives"
    );
    // Without the mark (a folder from before it, another game's), every map is drawn.
    for p in &past {
        std::fs::write(p, stand_in).unwrap();
    }
    std::fs::remove_file(dir.join(".drawn")).unwrap();
    g.play_until(5);
    for p in &past {
        let now = std::fs::read_to_string(p).unwrap();
        assert_ne!(now, stand_in, "{} kept without the mark", p.display());
    }
    assert!(dir.join(".drawn").exists(), "the mark is written again");
}
