//! Issue 14 point 10: a welcome and a results mail's HTML part, opened in headless Chromium at a
//! desktop (900 px) and a phone (400 px) width. A probe script in the page measures what a
//! reader sees — the order syntax, the map (loaded, inside the window, not hidden) and the
//! page's own width — and writes it into the DOM, which `--dump-dom` hands back to be asserted
//! on. Screenshots and the pages land in target/mail-in-browser/ to be looked at.

use std::path::{Path, PathBuf};
use std::process::Command;

use despatch::daemon::Intake;
use despatch::engine::{Play, Ruleset};
use despatch::rulesets::naval_rjw::NavalRjw;
use mail_parser::{MessageParser, MimeHeaders, PartType};

#[path = "common/world.rs"]
mod world;
use world::*;

#[path = "verifier/demo_mails.rs"]
mod demo_mails;
use demo_mails::{repo, tool_present};

const CHROMIUM: &str = "/usr/bin/chromium";

fn chromium_here() -> bool {
    let found = Path::new(CHROMIUM).exists()
        && Command::new(CHROMIUM)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
    tool_present(
        found,
        "headless Chromium (/usr/bin/chromium)",
        "apt-get install chromium; tests/e2e/servers.sh setup does it",
    )
}

/// Measures, once every image has loaded, what a reader of the page sees, and writes it as
/// `data-*` attributes of a `<div id="probe">`. `data-target` is a CSS selector list, tried in
/// turn, for the block that must be readable; the map is the page's first `<img>`.
const PROBE: &str = r#"<script>
window.addEventListener('load', () => {
  const probe = document.createElement('div');
  probe.id = 'probe';
  const vw = document.documentElement.clientWidth;
  const shown = (el) => {
    if (!el) return 'missing';
    const s = getComputedStyle(el), r = el.getBoundingClientRect();
    if (s.display === 'none' || s.visibility === 'hidden' || Number(s.opacity) === 0) return 'hidden';
    if (r.width < 1 || r.height < 1) return 'empty';
    if (r.left < -1 || r.right > vw + 1) return 'overflows ' + Math.round(r.left) + '..' + Math.round(r.right);
    return 'yes';
  };
  const target = document.querySelector(document.body.dataset.target);
  const img = document.querySelector('img');
  probe.dataset.viewport = vw;
  probe.dataset.scrollWidth = document.documentElement.scrollWidth;
  probe.dataset.target = shown(target);
  probe.dataset.targetText = target ? target.innerText : '';
  probe.dataset.map = shown(img);
  probe.dataset.mapNatural = img ? img.naturalWidth : 0;
  probe.dataset.mapWidth = img ? Math.round(img.getBoundingClientRect().width) : 0;
  // The widest element that sticks out of the window, to name a layout fault precisely.
  let worst = '';
  for (const el of document.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.right > vw + 1 && !worst) worst = el.tagName + ' ' + (el.innerText || '').slice(0, 60);
  }
  probe.dataset.overflowing = worst;
  document.body.appendChild(probe);
});
</script>"#;

/// A delivered mail's HTML, with its inline map written beside it as a file (the `cid:` link
/// pointed at it) and the probe added; returns the page's path.
fn page(raw: &[u8], dir: &Path, name: &str, target: &str) -> PathBuf {
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
                let file = format!("{name}-{images}.png");
                std::fs::write(dir.join(&file), bytes.as_ref()).unwrap();
                html = html.replace(&link, &file);
            }
        }
    }
    assert_eq!(
        images, 1,
        "{name}: the map is inline, linked by its Content-ID"
    );
    let with = html
        .replacen("<body", &format!("<body data-target=\"{target}\""), 1)
        .replacen("</body>", &format!("{PROBE}</body>"), 1);
    assert!(with.contains("id = 'probe'"), "{name}: the page has a body");
    let file = dir.join(format!("{name}.html"));
    std::fs::write(&file, with).unwrap();
    file
}

/// Chromium at `width` px on `file`: the DOM it leaves, and a screenshot beside the page.
fn open(file: &Path, width: u32) -> String {
    let profile = tempfile::tempdir().unwrap();
    let run = |extra: &[String]| {
        let out = Command::new(CHROMIUM)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--hide-scrollbars",
                "--virtual-time-budget=10000",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg(format!("--window-size={width},1200"))
            .args(extra)
            .arg(format!("file://{}", file.display()))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "chromium failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out
    };
    let png = file.with_extension(format!("{width}px.png"));
    run(&[format!("--screenshot={}", png.display())]);
    let bytes = std::fs::read(&png).unwrap();
    assert!(bytes.starts_with(b"\x89PNG"), "{png:?} is a PNG");
    String::from_utf8_lossy(&run(&["--dump-dom".into()]).stdout).into_owned()
}

/// The probe's `data-<key>` value in the dumped DOM.
fn probe<'a>(dom: &'a str, key: &str) -> &'a str {
    let at = dom
        .find("id=\"probe\"")
        .unwrap_or_else(|| panic!("the probe did not run:\n{dom}"));
    let tag = &dom[at..at + dom[at..].find('>').unwrap()];
    let key = format!("data-{key}=\"");
    tag.split(&key)
        .nth(1)
        .and_then(|r| r.split('"').next())
        .unwrap_or_else(|| panic!("no {key} in {tag}"))
}

fn number(dom: &str, key: &str) -> i64 {
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
        let file = page(raw, &dir, name, target);
        for width in [900, 400] {
            let dom = open(&file, width);
            let at = format!("{name} at {width} px");
            let vw = number(&dom, "viewport");
            assert!(
                (width as i64 - 20..=width as i64).contains(&vw),
                "{at}: window {vw}"
            );
            assert_eq!(probe(&dom, "target"), "yes", "{at}: the order syntax");
            assert!(
                probe(&dom, "target-text").contains(must_read),
                "{at}: {:?}",
                probe(&dom, "target-text")
            );
            assert_eq!(probe(&dom, "map"), "yes", "{at}: the map");
            assert!(number(&dom, "map-natural") >= 400, "{at}: the map loaded");
            assert!(
                number(&dom, "map-width") >= vw * 2 / 3,
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
