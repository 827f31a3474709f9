//! Issue 31 point 2 in a real headless Chromium: the live site's pages — its index, a game's
//! page, a step's page and a seat's private page — read at 1000 px and at a phone's 400 px
//! (no sideways scrolling, the map shown and loaded), and what a reader sees on them (the
//! rendered text of every `<pre>` block) is held against the mails: a seat's page against that
//! seat's, the public step page against a spectator's. A probe page beside the site loads each
//! page in an iframe that wide and writes what it measured into the DOM, which `--dump-dom`
//! hands back. Screenshots land in target/site-in-browser/. Under `CI=1` a missing Chromium
//! fails.

use std::path::Path;

use chrono::{TimeZone, Utc};
use despatch::archive::seat_code;
use despatch::config::Config;
use mail_parser::MessageParser;

use crate::browser;
use crate::demo_mails;
use crate::naval_mail::{self, Game, SEATS};
use browser::{chromium_here, look, probe};
use demo_mails::repo;

const HEIGHT: u32 = 2400;
const WATCHER: &str = "watcher@club.example";

/// The probe page: `page` in an iframe `width` px wide; once loaded, the window's and the
/// page's widths, the first image (the map), broken images, and what the page's `<pre>` blocks
/// show as rendered text (inside the probe, one line each).
fn frame(page: &str, width: u32) -> String {
    format!(
        r#"<!DOCTYPE html>
<html><head><meta charset="utf-8"></head>
<body style="margin:0">
<iframe id="page" style="border:0;display:block;width:{width}px;height:{HEIGHT}px" src="{page}"></iframe>
<script>
document.getElementById('page').addEventListener('load', (ev) => {{
  const win = ev.target.contentWindow, doc = ev.target.contentDocument;
  const vw = doc.documentElement.clientWidth;
  const shown = (el) => {{
    if (!el) return 'missing';
    const s = win.getComputedStyle(el), r = el.getBoundingClientRect();
    if (s.display === 'none' || s.visibility === 'hidden') return 'hidden';
    if (r.width < 1 || r.height < 1) return 'empty';
    if (r.left < -1 || r.right > vw + 1) return 'overflows';
    return 'yes';
  }};
  const imgs = [...doc.images];
  const probe = document.createElement('div');
  probe.id = 'probe';
  probe.dataset.viewport = vw;
  probe.dataset.scrollWidth = doc.documentElement.scrollWidth;
  probe.dataset.map = shown(imgs[0]);
  probe.dataset.mapNatural = imgs[0] ? imgs[0].naturalWidth : 0;
  probe.dataset.broken = imgs.filter((i) => !i.complete || i.naturalWidth === 0).length;
  probe.dataset.title = doc.title;
  const cut = [];
  for (const el of doc.body.querySelectorAll('*')) {{
    const hides = el.tagName === 'PRE' && !el.classList.contains('board')
      && el.scrollWidth > el.clientWidth + 1;
    if (el.getBoundingClientRect().right > vw + 1 || hides)
      cut.push(el.tagName + ': ' + (el.innerText || '').slice(0, 40));
  }}
  probe.dataset.cut = cut.join(' / ');
  probe.textContent = [...doc.querySelectorAll('pre')].map((p) => p.innerText).join('\n');
  document.body.appendChild(probe);
}});
</script>
</body></html>
"#
    )
}

pub(crate) fn number(dom: &str, key: &str) -> i64 {
    probe(dom, key).parse().unwrap()
}

/// The rendered text of the page's `<pre>` blocks, as the probe wrote it.
fn rendered_lines(dom: &str) -> Vec<String> {
    let at = dom.find("id=\"probe\"").unwrap();
    let body = &dom[at + dom[at..].find('>').unwrap() + 1..];
    let body = &body[..body.find("</div>").unwrap()];
    body.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
        .lines()
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

fn flat(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The text parts of every delivered mail to `to`, whitespace folded.
fn mails(g: &Game, to: &str) -> String {
    let mut all = String::new();
    for sub in ["new", "cur"] {
        for e in std::fs::read_dir(g.d.cfg.mail.outbox.join(sub))
            .unwrap()
            .flatten()
        {
            let bytes = std::fs::read(e.path()).unwrap();
            let m = MessageParser::default().parse(&bytes).unwrap();
            if m.to().and_then(|a| a.first()).and_then(|a| a.address()) == Some(to) {
                for i in 0..3 {
                    if let Some(t) = m.body_text(i) {
                        all.push_str(&t);
                        all.push('\n');
                    }
                }
            }
        }
    }
    flat(&all)
}

fn field_nature(lines: &[String]) -> bool {
    lines
        .iter()
        .any(|l| l.contains("field M") && (l.contains(": genuine") || l.contains(": dummy")))
}

/// Chromium on `page` of the site at `root`, `width` px wide: the probe's DOM.
pub(crate) fn open(root: &Path, page: &str, width: u32) -> String {
    let stem = page.replace(['/', '.'], "-");
    let file = root.join(format!("probe-{stem}-{width}px.html"));
    std::fs::write(&file, frame(page, width)).unwrap();
    look(
        &file,
        &[
            "--allow-file-access-from-files".to_string(),
            "--disable-web-security".to_string(),
            format!("--window-size={width},{HEIGHT}"),
        ],
    )
}

/// A game with a confirmed spectator, played to step 4 (or to its end, when the dice end it).
fn watched_game(root: &std::path::Path) -> naval_mail::Game {
    let root_cfg = root.to_path_buf();
    let mut g = naval_mail::start_configured("training", move |c: &mut Config| {
        c.site.root = Some(root_cfg);
        c.site.base_url = Some("https://club.example.org/games".into());
    });
    // A spectator watching, confirmed by replying with the code of the one request (W5).
    let when = Utc.with_ymd_and_hms(2026, 6, 1, 9, 30, 0).unwrap();
    g.d.gm_spectator("g", true, WATCHER, when).unwrap();
    let ask = g
        .mails_to(WATCHER)
        .into_iter()
        .rfind(|m| m.subject.contains("Please confirm"))
        .unwrap();
    g.send_from(
        WATCHER,
        "despatch@localhost",
        &format!("Re: {}", ask.subject),
        Some(&ask.message_id),
        "Yes.",
    );
    g.play_until(4);
    g
}

#[test]
fn the_live_pages_read_at_1000_and_400_px_and_show_only_what_the_mails_show() {
    if !chromium_here() {
        return;
    }
    let out = repo().join("target/site-in-browser");
    let _ = std::fs::remove_dir_all(&out);
    let root = out.join("site");
    // The spectator's ids are random and go into the journal, so the dice (which hash the
    // log head) differ from run to run: now and then the shoot ends by step 4, and an ended
    // game's pages rightly show everything. Such a game is played again with new ids.
    let mut attempts = 0;
    let g = loop {
        attempts += 1;
        let _ = std::fs::remove_dir_all(&out);
        let g = watched_game(&root);
        if !g.d.open_game("g").unwrap().game.is_over() {
            break g;
        }
        assert!(
            attempts < 6,
            "the game ended before step 4 in {attempts} games"
        );
    };
    let code = |seat: &str| {
        let token = SEATS.iter().find(|s| s.0 == seat).unwrap().2;
        seat_code("g", seat, token)
    };
    let japan = format!("g/s/{}/index.html", code("japan"));
    let russia = format!("g/s/{}/index.html", code("russia"));
    for (page, has_map) in [
        ("index.html", false),
        ("g/index.html", false),
        ("g/step-002.html", true),
        (japan.as_str(), true),
    ] {
        for width in [1000, 400] {
            let dom = open(&root, page, width);
            let at = format!("{page} at {width} px");
            let vw = number(&dom, "viewport");
            assert_eq!(vw, width as i64, "{at}: the window");
            assert!(!probe(&dom, "title").is_empty(), "{at}: a title");
            assert_eq!(number(&dom, "broken"), 0, "{at}: an image did not load");
            if has_map {
                assert_eq!(probe(&dom, "map"), "yes", "{at}: the map");
                assert!(number(&dom, "map-natural") > 0, "{at}: the map loaded");
            }
            assert!(
                number(&dom, "scroll-width") <= vw,
                "{at}: the page is {} px wide in a {vw} px window",
                number(&dom, "scroll-width")
            );
            assert_eq!(probe(&dom, "cut"), "", "{at}: cut at the right edge");
        }
    }
    // What a reader sees on Japan's page, every line of it, Japan's mails showed; none of it
    // is what Russia alone knows. Controls: Russia's page shows its fields' nature, and holds
    // lines Japan's mails never showed.
    let japan_mails = mails(&g, SEATS[0].1);
    let seen = rendered_lines(&open(&root, &japan, 400));
    assert!(seen.len() > 10, "{seen:?}");
    for l in &seen {
        assert!(japan_mails.contains(&flat(l)), "japan's page shows {l:?}");
    }
    assert!(!field_nature(&seen), "japan's page shows a Russian field");
    let russia_seen = rendered_lines(&open(&root, &russia, 400));
    assert!(
        field_nature(&russia_seen),
        "russia's page hides its own fields"
    );
    assert!(
        russia_seen.iter().any(|l| !japan_mails.contains(&flat(l))),
        "the comparison cannot tell the pages apart"
    );
    // The public step page against the spectator's mails, the same way.
    let watcher = mails(&g, WATCHER);
    assert!(watcher.contains("SPECTATOR VIEW"));
    for k in 1..=3 {
        let seen = rendered_lines(&open(&root, &format!("g/step-{k:03}.html"), 1000));
        assert!(seen.len() > 5, "step {k}: {seen:?}");
        for l in &seen {
            assert!(
                watcher.contains(&flat(l)),
                "the public step {k} shows {l:?}"
            );
        }
        assert!(!field_nature(&seen), "the public step {k} shows a field");
    }
}
