//! Intake timings (printed figures, no assertions): `inbound::parse` + `route` per MB for every
//! hostile case of `tests/common/hostile_mail.rs` at 1 MB and 5 MB, and for the real-client
//! fixtures, each beside `mail_parser` alone parsing the same bytes (the yardstick: Despatch
//! cannot be faster than the MIME parser under it). Linear work shows as equal ms/MB at both
//! sizes. Run with `cargo bench --bench intake`.

#[path = "../tests/common/hostile_mail.rs"]
mod hostile_mail;

use std::path::Path;
use std::time::{Duration, Instant};

use despatch::mail::inbound;
use mail_parser::MessageParser;

const MB: usize = 1 << 20;

/// Median of `runs` timings of `f` (one warm-up first).
fn time(runs: usize, mut f: impl FnMut()) -> Duration {
    f();
    let mut all: Vec<Duration> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    all.sort();
    all[all.len() / 2]
}

fn per_mb(d: Duration, bytes: usize) -> f64 {
    d.as_secs_f64() * 1000.0 / (bytes as f64 / MB as f64)
}

fn yardstick(raw: &[u8]) {
    std::hint::black_box(MessageParser::default().parse(raw));
}

fn intake(raw: &[u8]) {
    if let Ok(inb) = inbound::parse(raw) {
        std::hint::black_box(inbound::route(&inb, "despatch"));
    }
}

fn main() {
    let runs = 3;
    // INTAKE_BENCH_KB="100,500" measures other sizes (e.g. to see a quadratic case at all).
    let sizes: Vec<usize> = std::env::var("INTAKE_BENCH_KB")
        .ok()
        .map(|s| {
            s.split(',')
                .filter_map(|k| k.trim().parse::<usize>().ok())
                .map(|k| k << 10)
                .collect()
        })
        .filter(|v: &Vec<usize>| v.len() == 2)
        .unwrap_or_else(|| vec![MB, 5 * MB]);
    println!(
        "{:<38} {:>10} {:>12} {:>12}   (ms per MB, median of {runs})",
        "case", "size", "mail_parser", "intake"
    );
    // INTAKE_BENCH_ONLY="mime:" measures only the cases whose name contains it.
    let only = std::env::var("INTAKE_BENCH_ONLY").unwrap_or_default();
    for (name, make) in hostile_mail::recipes() {
        if !name.contains(only.as_str()) {
            continue;
        }
        for raw in [make(sizes[0]), make(sizes[1])] {
            let raw = &raw;
            let base = time(runs, || yardstick(raw));
            let ours = time(runs, || intake(raw));
            println!(
                "{name:<38} {:>8.1}MB {:>12.1} {:>12.1}",
                raw.len() as f64 / MB as f64,
                per_mb(base, raw.len()),
                per_mb(ours, raw.len())
            );
        }
    }

    // Real mails: each fixture parsed repeatedly; the figure is per MB of mail handled.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/mail");
    let mut fixtures: Vec<_> = std::fs::read_dir(&dir)
        .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    fixtures.retain(|p: &std::path::PathBuf| p.extension().is_some_and(|x| x == "eml"));
    fixtures.sort();
    let mails: Vec<Vec<u8>> = fixtures
        .iter()
        .filter_map(|p| std::fs::read(p).ok())
        .collect();
    let total: usize = mails.iter().map(Vec::len).sum();
    let rounds = (5 * MB / total.max(1)).max(1);
    let base = time(runs, || {
        for _ in 0..rounds {
            mails.iter().for_each(|m| yardstick(m));
        }
    });
    let ours = time(runs, || {
        for _ in 0..rounds {
            mails.iter().for_each(|m| intake(m));
        }
    });
    println!(
        "{:<38} {:>8.1}MB {:>12.1} {:>12.1}   ({} real-client mails × {rounds})",
        "fixtures (real clients)",
        (total * rounds) as f64 / MB as f64,
        per_mb(base, total * rounds),
        per_mb(ours, total * rounds),
        mails.len()
    );
}
