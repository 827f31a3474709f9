//! Issue 16 point 6: the archive site opened in a real headless Chromium, at a desktop (900 px)
//! and a phone (400 px) width. A probe page beside the site loads each page in an iframe that
//! wide, measures what a reader sees — the map loaded and inside the window, every image
//! loaded, the page's own width, no text block cut at the right edge (issue 30) — and writes
//! it into the DOM, which `--dump-dom` hands back.
//! Screenshots land in target/archive-in-browser/. Under `CI=1` a missing Chromium fails.

use std::path::Path;

use chrono::{Duration, TimeZone, Utc};
use despatch::config::Config;
use despatch::engine::Silence;

use crate::naval_mail;

use crate::browser;
use crate::demo_mails;
use browser::{chromium_here, look, probe};
use demo_mails::repo;

const HEIGHT: u32 = 3000;

/// The probe page: `page` of the site in an iframe `width` px wide; once loaded, the map (the
/// page's first `<img>`), every image and the page's scroll width go into `<div id="probe">`.
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
  // What a phone reader cannot see without scrolling sideways: anything out of the window,
  // and a text block (but the board, kept in its columns) whose lines run past its box.
  const cut = [];
  for (const el of doc.body.querySelectorAll('*')) {{
    const hides = el.tagName === 'PRE' && !el.classList.contains('board')
      && el.scrollWidth > el.clientWidth + 1;
    if (el.getBoundingClientRect().right > vw + 1 || hides)
      cut.push(el.tagName + ': ' + (el.innerText || '').slice(0, 40));
  }}
  probe.dataset.cut = cut.join(' / ');
  document.body.appendChild(probe);
}});
</script>
</body></html>
"#
    )
}

/// Chromium on `file`, `width` px wide: the DOM it leaves, and a screenshot beside it.
fn open(file: &Path, width: u32) -> String {
    look(
        file,
        &[
            // The probe reads the framed page, a file beside it.
            "--allow-file-access-from-files".to_string(),
            "--disable-web-security".to_string(),
            format!("--window-size={width},{HEIGHT}"),
        ],
    )
}

fn number(dom: &str, key: &str) -> i64 {
    probe(dom, key).parse().unwrap()
}

#[test]
fn the_archive_reads_at_desktop_and_phone_widths_with_its_maps() {
    if !chromium_here() {
        return;
    }
    let mut g = naval_mail::start_configured("training", |c: &mut Config| {
        c.games.policy.on_silence = Silence::Forfeit;
    });
    g.play_until(3);
    let late = Utc.with_ymd_and_hms(2026, 6, 1, 9, 0, 0).unwrap() + Duration::days(60);
    g.d.tick("g", late).unwrap();
    let dir = repo().join("target/archive-in-browser");
    let _ = std::fs::remove_dir_all(&dir);
    let (site, _) =
        g.d.write_archive("g", Some(&dir.join("site")), None)
            .unwrap();
    for (page, has_map) in [
        ("index.html", false),
        ("step-001.html", true),
        ("verify.html", false),
    ] {
        assert!(site.join(page).exists(), "{page}");
        for width in [900, 400] {
            let stem = page.trim_end_matches(".html");
            let file = site.join(format!("probe-{stem}-{width}px.html"));
            std::fs::write(&file, frame(page, width)).unwrap();
            let dom = open(&file, width);
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
}
