//! End-to-end mail benchmark (prints figures; asserts nothing about time). Needs the loopback
//! Dovecot and Postfix of `tests/e2e/servers.sh setup` and DESPATCH_E2E=1.
//!
//! Two responders over the same servers, each answering every order mail, measured in
//! interleaved rounds (which goes first alternates), so a change in the machine's load falls
//! on both:
//! - Despatch: an order mail to the game address (Postfix → Dovecot), read by `despatch run`
//!   over IMAP, answered by its receipt over SMTP (with its copy to itself, as configured),
//!   until the receipt is visible in the player's mailbox;
//! - the yardstick, a bare responder doing the same mail work and nothing else: a fresh look
//!   at its mailbox (NOOP, UID SEARCH), IDLE when it is empty, fetch, file the mail away, send
//!   as many mails of the receipt's size as Despatch sends per order (the receipt to the
//!   player, the others' notices elsewhere) with the same self-copy over the same submission
//!   port (lettre, one connection, TCP_NODELAY as Despatch's own lettre), until the reply is
//!   visible in the player's mailbox. It stands for any IDLE client of the same server: no
//!   polling client is a fair yardstick for a daemon that must not poll.
//!
//! Each round measures, for each side: cold latency (an order after a quiet spell longer than
//! the server's IDLE notification delay: the path every real order takes), hot latency (orders
//! back to back, each sent when the last answer is seen), burst throughput; for Despatch, the
//! IMAP commands it sends per order mail (Dovecot's rawlog of its sessions) and its CPU per
//! isolated order (its debug log: CPU of its passes, the order's own work, and of its waits),
//! beside the bare responder's. Printed: the median over rounds and the min–max spread.
//!
//! Disk pressure (issue 32 point 5): every `despatch` process runs with an LD_PRELOAD shim
//! (`common/fsync_shim.c`, built with the machine's `cc`) that counts its fsyncs (printed per
//! order mail) and, with MAIL_LOOP_FSYNC_MS=5, sleeps 5 ms before each; each round then
//! measures hot latency and burst throughput again with it on, on both sides (the bare
//! responder stores nothing, so the sleep never touches it: that is the yardstick's point).
//! A dm-delay device would slow Dovecot's and Postfix's fsyncs too, for both sides alike, and
//! needs a spare block device and root; the shim slows only what Despatch itself asks for.
//!
//! `cargo bench --bench mail_loop` runs 5 rounds (MAIL_LOOP_ROUNDS to change); without
//! `--bench` (`cargo test --benches`) one short round, to show the bench still runs.

#[path = "common/bare.rs"]
mod bare;
#[path = "../tests/e2e/common.rs"]
mod common;
#[path = "common/pressure.rs"]
mod pressure;

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use bare::{BareCounts, bare_responder, now_epoch};
use common::*;
use pressure::Pressure;

/// How much one round measures on each side.
struct Plan {
    rounds: usize,
    cold: usize,
    hot: usize,
    burst: usize,
}

/// Longer than Dovecot's IDLE notification delay (500 ms), the copies' round trip, and the
/// 3 s of polling after mail that Despatch did before issue 32 (so a before/after with an
/// older binary measures its cold path too).
const QUIET: Duration = Duration::from_secs(4);

/// Mailbox size over IMAP, polled on one session (the observer, on the player's side).
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

/// One side of the loop: where orders go and where its answers are seen.
struct Side {
    from: String,
    to: String,
    watch: Watch,
    tag: &'static str,
    sent: usize,
}

impl Side {
    fn order(&mut self) -> (String, String, String, String) {
        self.sent += 1;
        (
            self.from.clone(),
            self.to.clone(),
            format!("{}-{}-{}@{DOMAIN}", self.tag, std::process::id(), self.sent),
            "FLAGSHIP Mikasa\n".into(),
        )
    }
    /// One order, timed until its answer is seen.
    fn one(&mut self) -> Duration {
        let before = self.watch.count();
        let t = Instant::now();
        bulk_send(&[self.order()]);
        self.watch.until(before + 1, Duration::from_secs(60));
        t.elapsed()
    }
    /// `n` orders at once; orders per second until every answer is seen.
    fn burst(&mut self, n: usize) -> f64 {
        let before = self.watch.count();
        let t = Instant::now();
        let orders: Vec<_> = (0..n).map(|_| self.order()).collect();
        bulk_send(&orders);
        self.watch
            .until(before + n as u32, Duration::from_secs(600));
        n as f64 / t.elapsed().as_secs_f64()
    }
}

/// What one side measured in one round.
#[derive(Default)]
struct Round {
    cold: Vec<Duration>,
    hot: Vec<Duration>,
    per_second: f64,
    /// IMAP commands per order mail, over the cold orders and over the whole round.
    commands_cold: f64,
    commands_all: f64,
    /// CPU per isolated order: (all of it, the passes' own work), ms.
    cpu: (f64, f64),
    /// The same from the process's own count (/proc, 10 ms ticks), ms.
    cpu_proc: f64,
    /// fsyncs per order mail over the burst (the shim's count; 0 for the bare responder,
    /// which stores nothing).
    fsyncs: f64,
    /// Hot latencies and burst throughput again, with every fsync slowed by the shim.
    hot_disk: Vec<Duration>,
    per_second_disk: f64,
}

fn median(v: &mut [Duration]) -> f64 {
    v.sort();
    ms(v[v.len() / 2])
}

/// A responder's hooks: where to read its commands and CPU so far.
trait Meter {
    fn commands(&self, since: f64) -> usize;
    /// (all, work) CPU so far, ms.
    fn cpu(&self) -> (f64, f64);
    /// All CPU so far as the system counts it, ms.
    fn proc_cpu(&self) -> f64 {
        self.cpu().0
    }
    /// fsyncs so far (the shim's count).
    fn fsyncs(&self) -> u64 {
        0
    }
}

/// One round of one side: cold orders, hot orders, a burst; then, when there is disk pressure
/// to apply, hot orders and a burst again with it.
fn round(side: &mut Side, plan: &Plan, meter: &dyn Meter, disk: Option<&Pressure>) -> Round {
    let mut r = Round::default();
    let settle = || std::thread::sleep(QUIET);
    settle();
    let (t0, cpu0, proc0) = (now_epoch(), meter.cpu(), meter.proc_cpu());
    for _ in 0..plan.cold {
        r.cold.push(side.one());
        settle();
    }
    let cpu1 = meter.cpu();
    r.cpu_proc = (meter.proc_cpu() - proc0) / plan.cold as f64;
    r.commands_cold = meter.commands(t0) as f64 / plan.cold as f64;
    r.cpu = (
        (cpu1.0 - cpu0.0) / plan.cold as f64,
        (cpu1.1 - cpu0.1) / plan.cold as f64,
    );
    for _ in 0..plan.hot {
        r.hot.push(side.one());
    }
    let f0 = meter.fsyncs();
    r.per_second = side.burst(plan.burst);
    settle();
    r.fsyncs = (meter.fsyncs() - f0) as f64 / plan.burst as f64;
    r.commands_all = meter.commands(t0) as f64 / (plan.cold + plan.hot + plan.burst) as f64;
    if let Some(p) = disk.filter(|p| p.ms > 0) {
        p.set(true);
        for _ in 0..plan.hot {
            r.hot_disk.push(side.one());
        }
        r.per_second_disk = side.burst(plan.burst);
        settle();
        p.set(false);
    }
    r
}

/// Despatch's meter: Dovecot's rawlog of its sessions, its debug log's CPU lines.
struct DespatchMeter<'a> {
    rawlog: PathBuf,
    log: PathBuf,
    pid: u32,
    disk: Option<&'a Pressure>,
}

impl Meter for DespatchMeter<'_> {
    fn fsyncs(&self) -> u64 {
        self.disk.map_or(0, Pressure::fsyncs)
    }
    fn commands(&self, since: f64) -> usize {
        let mut n = 0;
        for e in std::fs::read_dir(&self.rawlog).unwrap().flatten() {
            if e.path().extension().is_none_or(|x| x != "in") {
                continue;
            }
            let text = std::fs::read_to_string(e.path()).unwrap_or_default();
            n += text
                .lines()
                .filter_map(|l| l.split_once(' '))
                .filter(|(t, cmd)| {
                    t.parse::<f64>().is_ok_and(|t| t >= since) && !cmd.starts_with("DONE")
                })
                .count();
        }
        n
    }
    fn cpu(&self) -> (f64, f64) {
        let log = std::fs::read_to_string(&self.log).unwrap_or_default();
        let field = |name: &str| -> f64 {
            log.lines()
                .flat_map(|l| l.split_whitespace())
                .filter_map(|w| w.strip_prefix(name)?.parse::<f64>().ok())
                .sum()
        };
        let work = field("pass_cpu_ms=");
        (work + field("wait_cpu_ms="), work)
    }
    fn proc_cpu(&self) -> f64 {
        // utime and stime, the 14th and 15th fields, after the command's closing parenthesis.
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.pid)).unwrap_or_default();
        let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
        let ticks: f64 = rest
            .split_whitespace()
            .skip(11)
            .take(2)
            .filter_map(|t| t.parse::<f64>().ok())
            .sum();
        ticks * 10.0 // USER_HZ is 100 on Linux
    }
}

/// The bare responder's meter: counters it keeps itself.
impl Meter for BareCounts {
    fn commands(&self, since: f64) -> usize {
        self.commands
            .lock()
            .unwrap()
            .iter()
            .filter(|t| **t >= since)
            .count()
    }
    fn cpu(&self) -> (f64, f64) {
        let c = self.cpu_us.load(Ordering::Relaxed) as f64 / 1e3;
        (c, c)
    }
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

/// Median and spread (min–max) over rounds.
fn spread(mut v: Vec<f64>) -> String {
    v.sort_by(f64::total_cmp);
    let m = v[v.len() / 2];
    format!("{m:>8.2} [{:.2}–{:.2}]", v[0], v[v.len() - 1])
}

/// Dovecot's rawlog folder for Despatch's sessions, made for this run (and removed after it,
/// so no other run pays for it); `None` when it cannot be made (commands are not counted).
fn rawlog_folder() -> Option<PathBuf> {
    let dir = root().join("rawlog/despatch");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).ok()?;
    let owned = std::process::Command::new("chown")
        .args(["despatchmail:despatchmail"])
        .arg(&dir)
        .status()
        .is_ok_and(|s| s.success());
    owned.then_some(dir)
}

fn main() {
    if std::env::var("DESPATCH_E2E").ok().as_deref() != Some("1") {
        eprintln!(
            "mail_loop: set DESPATCH_E2E=1 after `sudo tests/e2e/servers.sh setup`; nothing measured"
        );
        return;
    }
    let full = std::env::args().any(|a| a == "--bench");
    let plan = if full {
        Plan {
            rounds: std::env::var("MAIL_LOOP_ROUNDS")
                .ok()
                .and_then(|r| r.parse().ok())
                .unwrap_or(5),
            cold: 3,
            hot: 10,
            burst: 50,
        }
    } else {
        Plan {
            rounds: 1,
            cold: 1,
            hot: 2,
            burst: 5,
        }
    };
    if std::env::var_os("DESPATCH_LOG").is_none() {
        // SAFETY: set before any thread is started; the daemon inherits it and logs the
        // timings and CPU of each step of its passes, which the figures below read.
        #[allow(unsafe_code)]
        unsafe {
            std::env::set_var("DESPATCH_LOG", "info,despatch=debug")
        };
    }
    // Before any thread: every `despatch` process from here on runs with the fsync shim.
    let disk = Pressure::install();
    for u in ["despatch", "togo", "vitgeft", "gm", "bench", "makarov"] {
        clear(u);
    }
    let rawlog = rawlog_folder();
    let from = format!("togo@{DOMAIN}");

    // Despatch: orders to a game, answered by receipts.
    let mut h = host(
        "max_per_sender_per_hour = 100000",
        10143,
        "starttls",
        10587,
        "starttls",
    );
    // The shipped default clock tick (the tests' 2 s would wake the daemon five times as often).
    let config = std::fs::read_to_string(&h.config).unwrap();
    std::fs::write(
        &h.config,
        config.replace("poll_seconds = 2", "poll_seconds = 10"),
    )
    .unwrap();
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
    h.start();
    let mut despatch = Side {
        from: from.clone(),
        to: format!("despatch+bench.japan.{token}@{DOMAIN}"),
        watch: Watch::new("togo"),
        tag: "d",
        sent: 0,
    };
    despatch.watch.until(1, Duration::from_secs(30)); // the welcome
    // What Despatch sends per order and how big a receipt is, from a few orders first
    // (counted in the game's record of what the SMTP server accepted).
    let sent_count = |h: &Host| h.data().game("bench").sent().unwrap().len();
    let sent_before = sent_count(&h);
    const WARM: usize = 3;
    for _ in 0..WARM {
        despatch.one();
    }
    std::thread::sleep(QUIET);
    let per_order = ((sent_count(&h) - sent_before) as f64 / WARM as f64)
        .round()
        .max(1.0) as u32;
    let mut sizes: Vec<usize> = mailbox("togo", "INBOX")
        .into_iter()
        .filter(|m| m.text.contains("Orders received for"))
        .map(|m| m.raw.len())
        .collect();
    sizes.sort();
    let receipt_size = sizes.get(sizes.len() / 2).copied().unwrap_or(2000);

    // The yardstick, running beside it from now on.
    let stop = Arc::new(AtomicBool::new(false));
    let bare_meter = BareCounts {
        commands: Default::default(),
        cpu_us: Default::default(),
    };
    let responder = {
        let stop = stop.clone();
        let meter = BareCounts {
            commands: bare_meter.commands.clone(),
            cpu_us: bare_meter.cpu_us.clone(),
        };
        std::thread::spawn(move || bare_responder(stop, receipt_size, per_order, meter))
    };
    let mut bare = Side {
        from,
        to: format!("bench@{DOMAIN}"),
        watch: Watch::new("makarov"),
        tag: "b",
        sent: 0,
    };
    let despatch_meter = DespatchMeter {
        rawlog: rawlog.clone().unwrap_or_default(),
        log: h.log.clone(),
        pid: h.daemon.as_ref().expect("started").id(),
        disk: disk.as_ref(),
    };
    let mut rounds: Vec<(Round, Round)> = Vec::new();
    for r in 0..plan.rounds {
        // Who goes first alternates: neither side always meets a fresher machine.
        if r % 2 == 0 {
            let d = round(&mut despatch, &plan, &despatch_meter, disk.as_ref());
            let b = round(&mut bare, &plan, &bare_meter, disk.as_ref());
            rounds.push((d, b));
        } else {
            let b = round(&mut bare, &plan, &bare_meter, disk.as_ref());
            let d = round(&mut despatch, &plan, &despatch_meter, disk.as_ref());
            rounds.push((d, b));
        }
        eprintln!("mail_loop: round {} of {} done", r + 1, plan.rounds);
    }
    // The responder idles up to 2 minutes: it is not waited for (it ends with the process).
    stop.store(true, Ordering::Relaxed);
    drop(responder);
    h.kill();
    if let Some(dir) = &rawlog {
        let _ = std::fs::remove_dir_all(dir);
    }
    if let Ok(to) = std::env::var("DESPATCH_BENCH_LOG") {
        std::fs::copy(&h.log, to).expect("copy the daemon's log");
    }

    println!(
        "mail_loop: {} interleaved rounds, each side per round {} cold orders (after {} ms quiet), \
         {} hot, a burst of {}; loopback Postfix + Dovecot; Despatch sends {per_order} mails per \
         order (each with its self-copy); receipt {receipt_size} bytes",
        plan.rounds,
        plan.cold,
        QUIET.as_millis(),
        plan.hot,
        plan.burst
    );
    println!(
        "median over rounds [min–max]       bare responder          Despatch             ratio"
    );
    let mut row = |label: &str, f: &dyn Fn(&mut Round) -> f64, unit: &str| {
        let (mut ds, mut bs, mut rs) = (vec![], vec![], vec![]);
        for (d, b) in rounds.iter_mut() {
            let (x, y) = (f(d), f(b));
            ds.push(x);
            bs.push(y);
            rs.push(x / y);
        }
        println!(
            "  {label:<22} {} {unit:<3} {} {unit:<3} {}x",
            spread(bs),
            spread(ds),
            spread(rs)
        );
    };
    row("cold latency p50", &|r| median(&mut r.cold), "ms");
    row("hot latency p50", &|r| median(&mut r.hot), "ms");
    row("burst throughput", &|r| r.per_second, "/s");
    let ms_disk = disk.as_ref().map_or(0, |p| p.ms);
    if ms_disk > 0 {
        println!(
            "  with every fsync of Despatch slowed by {ms_disk} ms (MAIL_LOOP_FSYNC_MS, LD_PRELOAD shim):"
        );
        row("hot latency p50, disk", &|r| median(&mut r.hot_disk), "ms");
        row("burst throughput, disk", &|r| r.per_second_disk, "/s");
    }
    row("IMAP cmds/order, cold", &|r| r.commands_cold, "");
    row("IMAP cmds/order, all", &|r| r.commands_all, "");
    row("CPU/isolated order", &|r| r.cpu.0, "ms");
    row("  the same, /proc", &|r| r.cpu_proc, "ms");
    if disk.is_some() {
        let f: Vec<f64> = rounds.iter().map(|(d, _)| d.fsyncs).collect();
        println!(
            "  Despatch's fsyncs per order mail (burst, the shim's count): {} (the bare \
             responder stores nothing: 0)",
            spread(f)
        );
    }
    let own: Vec<f64> = rounds.iter().map(|(d, _)| d.cpu.1).collect();
    let over: Vec<f64> = rounds.iter().map(|(d, _)| d.cpu.0 / d.cpu.1).collect();
    println!(
        "  Despatch's CPU per isolated order against its passes' own work: {} ms of work, \
         all / work {}x",
        spread(own),
        spread(over)
    );
    if rawlog.is_none() {
        println!("  (Despatch's IMAP commands not counted: no rawlog folder; run as root)");
    }
    println!(
        "  (goals of issue 32: commands per order mail <= 10, CPU per isolated order <= 2x its \
         own work, cold latency ratio <= 1.1)"
    );
    println!("Despatch's passes, step by step (from its debug log, whole run):");
    println!("  step                       count     median       total");
    for (name, n, median, total) in breakdown(&h.log_text()) {
        println!("  {name:<24} {n:>7} {median:>9.2} ms {total:>9.0} ms");
    }
}
