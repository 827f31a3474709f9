//! The points where a test makes the daemon abort on purpose (`DESPATCH_CRASH_AT`), to show
//! that a crash there loses and duplicates nothing. Only tests set it; it decides nothing else.

use tracing::error;

/// A crash on purpose, for the tests of what a crash at each point of delivery leaves
/// (`DESPATCH_CRASH_AT=<point>`): the process aborts there at once, as under SIGKILL, with
/// no unwinding and nothing tidied. Unset (always, outside those tests) it does nothing.
pub(super) fn crash_point(point: &str) {
    static AT: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    if AT
        .get_or_init(|| std::env::var("DESPATCH_CRASH_AT").ok())
        .as_deref()
        == Some(point)
    {
        error!(point, "crashing on purpose (DESPATCH_CRASH_AT)");
        std::process::abort();
    }
}
