//! Headless Chromium for the tests that look at pages as a reader would (mail HTML, the
//! browser verifier, the archive): whether it is here (a failure under CI, never a silent
//! skip) and one way to run it. Include it beside `verifier/demo_mails.rs` (as `demo_mails`),
//! whose `tool_present` rule it uses.
#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, Output};

use super::demo_mails::tool_present;

pub const CHROMIUM: &str = "/usr/bin/chromium";

pub fn chromium_here() -> bool {
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

/// Chromium on `file` with its own profile in `profile` (tests run in parallel), no sandbox
/// (CI runs as root), and `budget_ms` of virtual time so the page's scripts finish before a
/// dump or screenshot; `extra` adds the window size, `--dump-dom`, `--screenshot=…`.
pub fn headless(profile: &Path, budget_ms: u32, extra: &[String], file: &Path) -> Output {
    let out = Command::new(CHROMIUM)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            // A container's small /dev/shm must not crash the renderer.
            "--disable-dev-shm-usage",
            "--hide-scrollbars",
        ])
        .arg(format!("--virtual-time-budget={budget_ms}"))
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(format!("file://{}", file.display()))
        .output()
        .expect("chromium runs");
    assert!(
        out.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// A page looked at as a reader would: a screenshot beside `file` (checked to be a PNG), then
/// the DOM the page's scripts leave, both with `args` (window size, file-access flags).
pub fn look(file: &Path, args: &[String]) -> String {
    let profile = tempfile::tempdir().unwrap();
    let run = |extra: &str| {
        let mut all = args.to_vec();
        all.push(extra.to_string());
        headless(profile.path(), 10_000, &all, file)
    };
    let png = file.with_extension("png");
    run(&format!("--screenshot={}", png.display()));
    let bytes = std::fs::read(&png).unwrap();
    assert!(bytes.starts_with(b"\x89PNG"), "{png:?} is a PNG");
    String::from_utf8_lossy(&run("--dump-dom").stdout).into_owned()
}

/// A probe's `data-<key>` value in a dumped DOM (the `<div id="probe">` the page's script
/// filled in).
pub fn probe<'a>(dom: &'a str, key: &str) -> &'a str {
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
