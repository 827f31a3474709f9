//! Issue 14 point 10: a welcome and a results mail's HTML part, opened in headless Chromium at a
//! desktop (900 px) and a phone (400 px) width. A probe script in the page measures what a
//! reader sees — the order syntax, the map (loaded, inside the window, not hidden) and the
//! page's own width — and writes it into the DOM, which `--dump-dom` hands back to be asserted
//! on. Screenshots and the pages land in target/mail-in-browser/ to be looked at.

use std::path::Path;

use despatch::daemon::Intake;
use despatch::engine::{Play, Ruleset};
use despatch::render;
use despatch::rulesets::naval_rjw::NavalRjw;
use mail_parser::{MessageParser, MimeHeaders, PartType};

use crate::world;
use world::*;

use crate::browser;
use crate::demo_mails;
use browser::{chromium_here, look, probe};
use demo_mails::repo;

/// The window's height: tall enough for a whole welcome mail in one screenshot.
const HEIGHT: u32 = 4000;

/// The page that shows a mail: the mail's HTML in an iframe exactly `width` px wide (headless
/// Chromium will not make a window narrower than 500 px, but an iframe is a viewport of its
/// own), and a probe that, once the mail and its images have loaded, measures what a reader
/// sees and writes it as `data-*` attributes of a `<div id="probe">`: the block `target` (a
/// CSS selector) that must be readable, the map (the mail's first `<img>`), and how wide the
/// mail's page is.
pub(crate) fn frame(mail_html: &str, width: u32, target: &str) -> String {
    let srcdoc = mail_html.replace('&', "&amp;").replace('"', "&quot;");
    format!(
        r#"<!DOCTYPE html>
<html><head><meta charset="utf-8"></head>
<body style="margin:0">
<iframe id="mail" style="border:0;display:block;width:{width}px;height:{HEIGHT}px" srcdoc="{srcdoc}"></iframe>
<script>
document.getElementById('mail').addEventListener('load', (ev) => {{
  const win = ev.target.contentWindow, doc = ev.target.contentDocument;
  const vw = doc.documentElement.clientWidth;
  const shown = (el) => {{
    if (!el) return 'missing';
    const s = win.getComputedStyle(el), r = el.getBoundingClientRect();
    if (s.display === 'none' || s.visibility === 'hidden' || Number(s.opacity) === 0) return 'hidden';
    if (r.width < 1 || r.height < 1) return 'empty';
    if (r.left < -1 || r.right > vw + 1) return 'overflows ' + Math.round(r.left) + '..' + Math.round(r.right);
    return 'yes';
  }};
  const target = doc.querySelector('{target}');
  const img = doc.querySelector('img');
  const probe = document.createElement('div');
  probe.id = 'probe';
  probe.dataset.viewport = vw;
  probe.dataset.scrollWidth = doc.documentElement.scrollWidth;
  probe.dataset.target = shown(target);
  probe.dataset.targetText = target ? target.innerText : '';
  probe.dataset.map = shown(img);
  probe.dataset.mapNatural = img ? img.naturalWidth : 0;
  probe.dataset.mapWidth = img ? Math.round(img.getBoundingClientRect().width) : 0;
  // The innermost elements that stick out of the mail's window, or whose content does, to
  // name a layout fault.
  const out = [];
  for (const el of doc.body.querySelectorAll('*')) {{
    const content = el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1;
    if (el.getBoundingClientRect().right > vw + 1 || content) out.push(el);
  }}
  const innermost = out.filter((el) => !out.some((o) => o !== el && el.contains(o)));
  const names = innermost.map((el) => el.tagName + ': ' + (el.innerText || '').slice(0, 50));
  probe.dataset.overflowing = names.join(' / ');
  document.body.appendChild(probe);
}});
</script>
</body></html>
"#
    )
}

/// A delivered mail's HTML, with its inline map written into `dir` as a file and the `cid:`
/// link pointed at it.
pub(crate) fn mail_html(raw: &[u8], dir: &Path, name: &str) -> String {
    let m = MessageParser::default().parse(raw).unwrap();
    let mut html = m.body_html(0).expect("an HTML part").into_owned();
    let mut images = 0;
    for part in &m.parts {
        if let (Some(cid), PartType::InlineBinary(bytes) | PartType::Binary(bytes)) =
            (part.content_id(), &part.body)
        {
            let link = format!("cid:{cid}");
            if html.contains(&link) {
                images += 1;
                let file = format!("{name}-map.png");
                std::fs::write(dir.join(&file), bytes.as_ref()).unwrap();
                html = html.replace(&link, &file);
            }
        }
    }
    assert_eq!(
        images, 1,
        "{name}: the map is inline, linked by its Content-ID"
    );
    std::fs::write(dir.join(format!("{name}.html")), &html).unwrap();
    html
}

/// Chromium on the page `file`, in a window `width` px wide: the DOM it leaves, and a
/// screenshot beside the page.
pub(crate) fn open(file: &Path, width: u32) -> String {
    look(file, &[format!("--window-size={width},{HEIGHT}")])
}

pub(crate) fn number(dom: &str, key: &str) -> i64 {
    probe(dom, key).parse().unwrap()
}

/// The welcome mail to Japan and Japan's results mail for step 1.
fn two_mails() -> (Vec<u8>, Vec<u8>) {
    let mut w = world("training");
    let g = w.game();
    for seat in g.waiting_for() {
        let orders = NavalRjw::sample_orders(&g.state, &seat, 7);
        assert!(matches!(w.send(&seat, &orders), Intake::Accepted { .. }));
    }
    assert!(w.game().step > 1, "step 1 resolved");
    let mails = w.raw_delivered();
    let find = |part: &str| {
        mails
            .iter()
            .find(|(n, _)| n.contains(part))
            .unwrap_or_else(|| panic!("no *{part}* mail"))
            .1
            .clone()
    };
    (find("welcome-japan"), find("results-japan"))
}

#[test]
fn a_welcome_and_a_results_mail_show_their_orders_and_map_at_desktop_and_phone_widths() {
    if !chromium_here() {
        return;
    }
    let dir = repo().join("target/mail-in-browser");
    std::fs::create_dir_all(&dir).unwrap();
    let (welcome, results) = two_mails();
    // The order syntax: the welcome's "Orders at a glance"; the results' "Your orders now".
    let pages = [
        (&welcome, "welcome", "#glance", "FIRE Mikasa AT Tsesarevich"),
        (&results, "results", "#prompt", "Reply to this mail"),
    ];
    for (raw, name, target, must_read) in pages {
        let html = mail_html(raw, &dir, name);
        for width in [900, 400] {
            let file = dir.join(format!("{name}-{width}px.html"));
            std::fs::write(&file, frame(&html, width, target)).unwrap();
            let dom = open(&file, width);
            let at = format!("{name} at {width} px");
            let vw = number(&dom, "viewport");
            assert_eq!(vw, width as i64, "{at}: the mail's window");
            assert_eq!(probe(&dom, "target"), "yes", "{at}: the order syntax");
            assert!(
                probe(&dom, "target-text").contains(must_read),
                "{at}: {:?}",
                probe(&dom, "target-text")
            );
            assert_eq!(probe(&dom, "map"), "yes", "{at}: the map");
            assert!(number(&dom, "map-natural") >= 400, "{at}: the map loaded");
            // The inline map is shown at most INLINE_CSS_PX wide (its PNG is twice that).
            let column = (vw * 2 / 3).min(i64::from(render::INLINE_CSS_PX));
            assert!(
                number(&dom, "map-width") >= column,
                "{at}: the map fills the column ({} of {vw} px)",
                number(&dom, "map-width")
            );
            assert!(
                number(&dom, "scroll-width") <= vw,
                "{at}: the page is {} px wide in a {vw} px window; first element out: {}",
                number(&dom, "scroll-width"),
                probe(&dom, "overflowing")
            );
        }
    }
}
