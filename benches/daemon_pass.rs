//! What a daemon pass costs with many games stored (printed figures, no assertions): a pass with
//! no mail and nothing due, and one order mail, each with 1 game and with many idle games beside
//! it. A pass should cost what is due, not what is stored. The yardstick printed beside it in
//! the same run: opening every game once (what a pass cost when it read every game), and reading
//! the data directory's game list alone (the floor any pass pays).
//! Games are the tests' toy ruleset (sealed bids, tests/toy) on Maildirs.
//! Run with `cargo bench --bench daemon_pass` (DESPATCH_BENCH_GAMES sets the many, default 10000).

#[path = "../tests/toy/mod.rs"]
mod toy;
#[path = "common/toy_daemon.rs"]
mod toy_daemon;

use std::time::{Duration, Instant};

use chrono::{DateTime, TimeZone, Utc};
use despatch::daemon::{Daemon, Intake};
use toy_daemon::{SEATS, TOKENS, create_toy_game, toy_daemon};

fn create(d: &Daemon, id: &str, now: DateTime<Utc>) {
    create_toy_game(d, id, now, 200);
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// A world of `n` games: `g0` is played by the mails, the rest stay idle.
struct World {
    _tmp: tempfile::TempDir,
    d: Daemon,
    now: DateTime<Utc>,
    mails: u64,
    /// fsyncs asked for by the order mails so far.
    fsyncs: u64,
}

impl World {
    fn new(n: usize) -> (Self, Duration) {
        let tmp = tempfile::tempdir().unwrap();
        let d = toy_daemon(tmp.path());
        let now = Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap();
        let t = Instant::now();
        for i in 0..n {
            create(&d, &format!("g{i}"), now);
        }
        let took = t.elapsed();
        let mut w = World {
            _tmp: tmp,
            d,
            now,
            mails: 0,
            fsyncs: 0,
        };
        // Deliver the welcomes, so passes that follow have nothing to do.
        w.pass();
        (w, took)
    }

    fn pass(&mut self) -> Duration {
        self.now += chrono::Duration::seconds(1);
        let t = Instant::now();
        let p = self.d.run_once(self.now).unwrap();
        let took = t.elapsed();
        assert!(p.failed_games.is_empty(), "{p:?}");
        took
    }

    /// One order mail to `g0`, then the pass that delivers its receipt.
    fn order(&mut self) -> Duration {
        self.mails += 1;
        self.now += chrono::Duration::seconds(1);
        let seat = (self.mails % 2) as usize;
        let (s, a) = SEATS[seat];
        let raw = format!(
            "From: <{a}>\r\nTo: despatch+g0.{s}.{}@localhost\r\nSubject: orders\r\nMessage-ID: <p{}@x>\r\n\r\nBID {}\r\n",
            TOKENS[seat],
            self.mails,
            self.mails % 4
        );
        let syncs = despatch::store::fsyncs();
        let t = Instant::now();
        let out = self.d.ingest(raw.as_bytes(), self.now).unwrap();
        self.d.run_once(self.now).unwrap();
        let took = t.elapsed();
        self.fsyncs += despatch::store::fsyncs() - syncs;
        assert!(matches!(out, Intake::Accepted { .. }), "{out:?}");
        took
    }

    fn open_every_game(&self) -> Duration {
        let t = Instant::now();
        for id in self.d.data.game_ids().unwrap() {
            self.d.open_game(&id).unwrap();
        }
        t.elapsed()
    }

    fn list_games(&self) -> Duration {
        let t = Instant::now();
        assert!(!self.d.data.game_ids().unwrap().is_empty());
        t.elapsed()
    }
}

fn main() {
    let many: usize = std::env::var("DESPATCH_BENCH_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    let (mut one, _) = World::new(1);
    let (mut lots, made) = World::new(many);
    let idle_one = median((0..21).map(|_| one.pass()).collect());
    let idle_many = median((0..5).map(|_| lots.pass()).collect());
    let order_one = median((0..21).map(|_| one.order()).collect());
    let order_many = median((0..21).map(|_| lots.order()).collect());
    let open_all = median((0..3).map(|_| lots.open_every_game()).collect());
    let list = median((0..5).map(|_| lots.list_games()).collect());
    println!(
        "daemon_pass: 1 game vs {many} games (toy ruleset, Maildir; medians; making {many} games took {:.1} s)",
        made.as_secs_f64()
    );
    println!("                               1 game   {many:>6} games   ratio");
    println!(
        "  idle pass (no mail, nothing due) {:>8.2} ms {:>10.2} ms {:>8.1}x",
        ms(idle_one),
        ms(idle_many),
        ms(idle_many) / ms(idle_one)
    );
    println!(
        "  one order mail + its pass        {:>8.2} ms {:>10.2} ms {:>8.2}x",
        ms(order_one),
        ms(order_many),
        ms(order_many) / ms(order_one)
    );
    println!(
        "  fsyncs per order mail            {:>8.1}    {:>10.1}",
        one.fsyncs as f64 / one.mails as f64,
        lots.fsyncs as f64 / lots.mails as f64
    );
    println!("Yardsticks with {many} games:");
    println!(
        "  opening every game once (the old pass)   {:>10.2} ms",
        ms(open_all)
    );
    println!(
        "  listing the games folder only (floor)    {:>10.2} ms",
        ms(list)
    );
}
