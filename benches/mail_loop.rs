//! End-to-end mail benchmark (prints figures; asserts nothing about time). Needs the loopback
//! Dovecot and Postfix of `tests/e2e/servers.sh setup` and DESPATCH_E2E=1.
//!
//! Measured side by side in one run, with the same SMTP client (lettre, one connection) and the
//! same IMAP polling:
//! - bare loop: a mail sent through Postfix into a Dovecot mailbox, until it is visible over IMAP;
//! - Despatch: an order mail sent to the game address, until Despatch's receipt is visible in
//!   the player's mailbox (Postfix → Dovecot → `despatch run` over IMAP → SMTP → Postfix → Dovecot).

#[path = "../tests/e2e/common.rs"]
mod common;

use std::time::{Duration, Instant};

use common::*;

const LATENCY_SAMPLES: usize = 15;
const BURST: usize = 100;

/// Mailbox size over IMAP, polled on one session.
struct Watch(Session);

impl Watch {
    fn new(user: &str) -> Self {
        Watch(imap_login(user))
    }
    fn count(&mut self) -> u32 {
        self.0.examine("INBOX").map(|m| m.exists).unwrap_or(0)
    }
    fn until(&mut self, n: u32, limit: Duration) -> Duration {
        let start = Instant::now();
        while self.count() < n {
            assert!(start.elapsed() < limit, "waited {limit:?} for {n} mails");
            std::thread::sleep(Duration::from_millis(2));
        }
        start.elapsed()
    }
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    if std::env::var("DESPATCH_E2E").ok().as_deref() != Some("1") {
        eprintln!(
            "mail_loop: set DESPATCH_E2E=1 after `sudo tests/e2e/servers.sh setup`; nothing measured"
        );
        return;
    }
    for u in ["despatch", "togo", "vitgeft", "gm", "bench"] {
        clear(u);
    }
    let from = format!("togo@{DOMAIN}");

    // Bare loop: Postfix → Dovecot, no Despatch.
    let mut bench = Watch::new("bench");
    let mut bare = Vec::new();
    for i in 0..LATENCY_SAMPLES {
        let before = bench.count();
        let t = Instant::now();
        bulk_send(&[(
            from.clone(),
            format!("bench@{DOMAIN}"),
            format!("bare-{i}@{DOMAIN}"),
            "FLAGSHIP Mikasa\n".into(),
        )]);
        bench.until(before + 1, Duration::from_secs(30));
        bare.push(t.elapsed());
    }
    let before = bench.count();
    let t = Instant::now();
    let burst: Vec<_> = (0..BURST)
        .map(|i| {
            (
                from.clone(),
                format!("bench@{DOMAIN}"),
                format!("bare-burst-{i}@{DOMAIN}"),
                "FLAGSHIP Mikasa\n".to_string(),
            )
        })
        .collect();
    bulk_send(&burst);
    bench.until(before + BURST as u32, Duration::from_secs(120));
    let bare_burst = t.elapsed();

    // Despatch: the same mails as orders to a game, answered by receipts.
    let mut h = host(
        "max_per_sender_per_hour = 100000",
        10143,
        "starttls",
        10587,
        "starttls",
    );
    h.despatch(&[
        "new",
        "bench",
        "--ruleset",
        "naval-rjw",
        "--scenario",
        "training",
        "--seat",
        &format!("japan=togo@{DOMAIN}"),
        "--seat",
        &format!("russia=vitgeft@{DOMAIN}"),
    ]);
    let token = h.data().game("bench").seats().unwrap().seats["japan"]
        .token
        .clone();
    let to = format!("despatch+bench.japan.{token}@{DOMAIN}");
    h.start();
    let mut togo = Watch::new("togo");
    togo.until(1, Duration::from_secs(30)); // the welcome
    let mut loop_lat = Vec::new();
    for i in 0..LATENCY_SAMPLES {
        let before = togo.count();
        let t = Instant::now();
        bulk_send(&[(
            from.clone(),
            to.clone(),
            format!("lat-{i}@{DOMAIN}"),
            "FLAGSHIP Mikasa\n".into(),
        )]);
        togo.until(before + 1, Duration::from_secs(60));
        loop_lat.push(t.elapsed());
    }
    let before = togo.count();
    let t = Instant::now();
    let burst: Vec<_> = (0..BURST)
        .map(|i| {
            (
                from.clone(),
                to.clone(),
                format!("burst-{i}@{DOMAIN}"),
                "FLAGSHIP Mikasa\n".to_string(),
            )
        })
        .collect();
    bulk_send(&burst);
    togo.until(before + BURST as u32, Duration::from_secs(600));
    let loop_burst = t.elapsed();
    h.kill();
    if let Ok(to) = std::env::var("DESPATCH_BENCH_LOG") {
        std::fs::copy(&h.log, to).expect("copy the daemon's log");
    }

    let bare_med = median(bare);
    let loop_med = median(loop_lat);
    let tput = |d: Duration| BURST as f64 / d.as_secs_f64();
    println!(
        "mail_loop ({LATENCY_SAMPLES} latency samples, burst of {BURST}; loopback Postfix + Dovecot)"
    );
    println!("                          bare loop     Despatch      ratio");
    println!(
        "  latency (median)     {:>9.1} ms  {:>9.1} ms  {:>8.1}x",
        bare_med.as_secs_f64() * 1e3,
        loop_med.as_secs_f64() * 1e3,
        loop_med.as_secs_f64() / bare_med.as_secs_f64()
    );
    println!(
        "  throughput           {:>7.1} /s    {:>7.1} /s    {:>8.2}x",
        tput(bare_burst),
        tput(loop_burst),
        tput(loop_burst) / tput(bare_burst)
    );
}
