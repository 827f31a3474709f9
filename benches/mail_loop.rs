//! End-to-end mail benchmark (prints figures; asserts nothing about time). Needs the loopback
//! Dovecot and Postfix of `tests/e2e/servers.sh setup` and DESPATCH_E2E=1.
//!
//! Two loops over the same servers in one run, each answering every order mail:
//! - Despatch: an order mail to the game address (Postfix → Dovecot), read by `despatch run`
//!   over IMAP, answered by its receipt over SMTP (with its copy to itself, as configured),
//!   until the receipt is visible in the player's mailbox;
//! - the yardstick, a bare responder doing the same mail work and nothing else: its own
//!   mailbox polled over IMAP every 2 ms (no slower than Despatch's IDLE), fetch, file the
//!   mail away, send as many mails of the receipt's size as Despatch sends per order (the
//!   receipt to the player, the others' notices elsewhere) with the same self-copy over the
//!   same submission port (lettre, one connection, TCP_NODELAY as Despatch's own lettre),
//!   until the reply is visible in the player's mailbox.
//!
//! The responder is measured after Despatch, with the reply size and the number of mails per
//! order that Despatch was seen to send. Printed: p50 and p99 latency, burst throughput, and the
//! ratios (goals of issue 15: throughput ≥ 0.8×, p50 ≤ 1.25× the yardstick's).

#[path = "../tests/e2e/common.rs"]
mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use common::*;
use lettre::Transport;

const LATENCY_SAMPLES: usize = 60;
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

/// What one loop measured.
struct Figures {
    latencies: Vec<Duration>,
    burst: Duration,
}

impl Figures {
    fn pct(&self, p: f64) -> Duration {
        let mut v = self.latencies.clone();
        v.sort();
        v[((v.len() - 1) as f64 * p).round() as usize]
    }
    fn per_second(&self) -> f64 {
        BURST as f64 / self.burst.as_secs_f64()
    }
}

/// Sends `samples` orders one at a time, then a burst, each time until the player's mailbox
/// holds the answers.
fn measure(from: &str, to: &str, player: &str, tag: &str, answers_per_order: u32) -> Figures {
    let mut watch = Watch::new(player);
    let mut latencies = Vec::new();
    for i in 0..LATENCY_SAMPLES {
        let before = watch.count();
        let t = Instant::now();
        bulk_send(&[(
            from.to_string(),
            to.to_string(),
            format!("{tag}-{i}@{DOMAIN}"),
            "FLAGSHIP Mikasa\n".into(),
        )]);
        watch.until(before + answers_per_order, Duration::from_secs(60));
        latencies.push(t.elapsed());
    }
    let before = watch.count();
    let t = Instant::now();
    let burst: Vec<_> = (0..BURST)
        .map(|i| {
            (
                from.to_string(),
                to.to_string(),
                format!("{tag}-burst-{i}@{DOMAIN}"),
                "FLAGSHIP Mikasa\n".to_string(),
            )
        })
        .collect();
    bulk_send(&burst);
    watch.until(
        before + BURST as u32 * answers_per_order,
        Duration::from_secs(600),
    );
    Figures {
        latencies,
        burst: t.elapsed(),
    }
}

/// The yardstick's responder: the mail work Despatch does per order, and nothing else.
/// The first reply of each order goes to the player, the others (Despatch's notices to the
/// other seats) to `others`.
fn bare_responder(
    stop: Arc<AtomicBool>,
    reply_size: usize,
    replies: u32,
    player: String,
    others: String,
) {
    use lettre::transport::smtp::authentication::Credentials;
    use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters};
    let pem = std::fs::read(ca()).unwrap();
    let params = TlsParameters::builder("localhost".into())
        .add_root_certificate(Certificate::from_pem(&pem).unwrap())
        .build()
        .unwrap();
    let smtp = lettre::SmtpTransport::builder_dangerous("localhost")
        .port(10587)
        .tls(Tls::Required(params))
        .credentials(Credentials::new("bench".into(), "bench-pass".into()))
        .build();
    let own = format!("bench@{DOMAIN}");
    let envelope = |to: &str| {
        lettre::address::Envelope::new(
            Some(own.parse().unwrap()),
            vec![to.parse().unwrap(), own.parse().unwrap()],
        )
        .unwrap()
    };
    let mut s = imap_login("bench");
    let _ = s.create("Done");
    let mut n = 0u64;
    while !stop.load(Ordering::Relaxed) {
        s.select("INBOX").unwrap();
        let uids = s.uid_search("ALL").unwrap();
        if uids.is_empty() {
            // Polled every 2 ms rather than IDLE: a yardstick at least as quick as IDLE.
            std::thread::sleep(Duration::from_millis(2));
            continue;
        }
        for uid in uids {
            let fetched = s.uid_fetch(uid.to_string(), "BODY.PEEK[]").unwrap();
            let raw = fetched
                .iter()
                .next()
                .and_then(|f| f.body())
                .unwrap_or_default();
            // Its own copies are filed, as Despatch files its copies in Sent.
            let is_copy = raw.windows(9).any(|w| w == b"X-Bare: 1");
            s.uid_mv(uid.to_string(), "Done").unwrap();
            if is_copy {
                continue;
            }
            for r in 0..replies {
                n += 1;
                let to = if r == 0 { &player } else { &others };
                let mut mail = format!(
                    "From: <{own}>\r\nTo: <{to}>\r\nSubject: Re: orders\r\nMessage-ID: <bare-reply-{n}@{DOMAIN}>\r\nX-Bare: 1\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
                )
                .into_bytes();
                // Pad to the receipt's size with plain lines.
                while mail.len() + 2 < reply_size {
                    mail.extend_from_slice(b"x".repeat(70).as_slice());
                    mail.extend_from_slice(b"\r\n");
                }
                smtp.send_raw(&envelope(to), &mail).unwrap();
            }
        }
    }
    let _ = s.logout();
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Where Despatch's time went, from the timings its debug log gives for each step of a pass
/// (`name_ms=` fields; a wait is split by how it ended): (step, count, median ms, total ms).
fn breakdown(log: &str) -> Vec<(String, usize, f64, f64)> {
    let mut steps: std::collections::BTreeMap<String, Vec<f64>> = Default::default();
    for line in log.lines() {
        let woke = line
            .split_whitespace()
            .find_map(|w| w.strip_prefix("woke="))
            .map(|w| format!(" ({w})"))
            .unwrap_or_default();
        for word in line.split_whitespace() {
            let Some((key, value)) = word.split_once('=') else {
                continue;
            };
            let (Some(name), Ok(v)) = (key.strip_suffix("_ms"), value.parse::<f64>()) else {
                continue;
            };
            let name = if name == "waited" {
                format!("wait{woke}")
            } else {
                name.to_string()
            };
            steps.entry(name).or_default().push(v);
        }
    }
    steps
        .into_iter()
        .map(|(name, mut v)| {
            v.sort_by(f64::total_cmp);
            (name, v.len(), v[v.len() / 2], v.iter().sum())
        })
        .collect()
}

fn main() {
    if std::env::var("DESPATCH_E2E").ok().as_deref() != Some("1") {
        eprintln!(
            "mail_loop: set DESPATCH_E2E=1 after `sudo tests/e2e/servers.sh setup`; nothing measured"
        );
        return;
    }
    if std::env::var_os("DESPATCH_LOG").is_none() {
        // SAFETY: set before any thread is started; the daemon inherits it and logs the
        // timings of each step of its passes, which the breakdown below reads.
        unsafe { std::env::set_var("DESPATCH_LOG", "info,despatch=debug") };
    }
    for u in ["despatch", "togo", "vitgeft", "gm", "bench", "makarov"] {
        clear(u);
    }
    let from = format!("togo@{DOMAIN}");

    // Despatch: orders to a game, answered by receipts.
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
    Watch::new("togo").until(1, Duration::from_secs(30)); // the welcome
    // Counted in the game's own record of what the SMTP server accepted: the copies in its
    // Sent folder lag behind (the last ones are filed by a pass that may not have run yet).
    let sent_count = |h: &Host| h.data().game("bench").sent().unwrap().len();
    let sent_before = sent_count(&h);
    let despatch = measure(&from, &to, "togo", "lat", 1);
    std::thread::sleep(Duration::from_secs(2));
    h.kill();
    if let Ok(to) = std::env::var("DESPATCH_BENCH_LOG") {
        std::fs::copy(&h.log, to).expect("copy the daemon's log");
    }
    let steps = breakdown(&h.log_text());
    // What Despatch sent per order, and how big a receipt is.
    let orders = (LATENCY_SAMPLES + BURST) as f64;
    let sent = sent_count(&h) - sent_before;
    let per_order = (sent as f64 / orders).round().max(1.0) as u32;
    let receipts: Vec<Received> = mailbox("togo", "INBOX")
        .into_iter()
        .filter(|m| m.text.contains("Orders received for"))
        .collect();
    let mut sizes: Vec<usize> = receipts.iter().map(|m| m.raw.len()).collect();
    sizes.sort();
    let receipt_size = sizes.get(sizes.len() / 2).copied().unwrap_or(2000);

    // The yardstick.
    let stop = Arc::new(AtomicBool::new(false));
    let responder = {
        let stop = stop.clone();
        let player = format!("makarov@{DOMAIN}");
        let others = format!("gm@{DOMAIN}");
        std::thread::spawn(move || bare_responder(stop, receipt_size, per_order, player, others))
    };
    let bare = measure(&from, &format!("bench@{DOMAIN}"), "makarov", "bare", 1);
    stop.store(true, Ordering::Relaxed);
    responder.join().unwrap();

    println!(
        "mail_loop ({LATENCY_SAMPLES} latency samples, burst of {BURST}; loopback Postfix + Dovecot; \
         {sent} mails sent by Despatch for {orders} orders, {per_order} per order; receipt {receipt_size} bytes)"
    );
    println!("                          bare loop     Despatch      ratio");
    for (label, p) in [("latency p50", 0.5), ("latency p99", 0.99)] {
        println!(
            "  {label:<18} {:>9.1} ms  {:>9.1} ms  {:>8.2}x",
            ms(bare.pct(p)),
            ms(despatch.pct(p)),
            ms(despatch.pct(p)) / ms(bare.pct(p))
        );
    }
    println!(
        "  throughput         {:>9.1} /s  {:>9.1} /s  {:>8.2}x",
        bare.per_second(),
        despatch.per_second(),
        despatch.per_second() / bare.per_second()
    );
    println!("  (goals: throughput ratio >= 0.8, p50 latency ratio <= 1.25)");
    println!("Despatch's passes, step by step (from its debug log, whole run):");
    println!("  step                       count     median       total");
    for (name, n, median, total) in steps {
        println!("  {name:<24} {n:>7} {median:>9.2} ms {total:>9.0} ms");
    }
}
