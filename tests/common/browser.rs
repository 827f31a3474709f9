//! Headless Chromium for the tests that look at pages as a reader would (mail HTML, the
//! browser verifier, the archive): whether it is here (a failure under CI, never a silent
//! skip) and one way to run it. Include it beside `verifier/demo_mails.rs` (as `demo_mails`),
//! whose `tool_present` rule it uses.

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
