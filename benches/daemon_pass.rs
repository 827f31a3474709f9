//! What a daemon pass costs with many games stored (printed figures, no assertions): a pass with
//! no mail and nothing due, and one order mail, each with 1 game and with many idle games beside
//! it. A pass should cost what is due, not what is stored. The yardstick printed beside it in
//! the same run: opening every game once (what a pass cost when it read every game), and reading
//! the data directory's game list alone (the floor any pass pays).
//! The first pass of a fresh process (issue 32 point 4): a new `Daemon` over the same data
//! folder (its registry and Maildirs made, as `despatch run` does) and its first `run_once`,
//! with 1 game and with many, in interleaved rounds, beside the same yardsticks (also
//! interleaved). In-process rather than `despatch run --once` as a subprocess: the toy ruleset
//! is built into this bench, not into the `despatch` binary, and leaving out exec and config
//! reading makes the 1-game figure smaller, so the ratio is the stricter one.
//! Games are the tests' toy ruleset (sealed bids, tests/toy) on Maildirs; the idle games each
//! have their own players (see `create`).
//! Run with `cargo bench --bench daemon_pass` (DESPATCH_BENCH_GAMES sets the many, default
//! 10000; DESPATCH_BENCH_ROUNDS the first-pass rounds, default 7). Under `cargo test --benches`
//! (no `--bench`) one short round with 100 games, so the figures there mean nothing.

#[path = "../tests/toy/mod.rs"]
mod toy;
#[path = "common/toy_daemon.rs"]
mod toy_daemon;

use std::time::{Duration, Instant};

use chrono::{DateTime, TimeZone, Utc};
use despatch::config::Config;
use despatch::daemon::{Daemon, Intake};
use toy_daemon::{
    SEATS, TOKENS, create_toy_game, create_toy_game_played_by, toy_config, toy_daemon_from,
};

/// `g0`, the game the order mails play, has the seats' own addresses; every other game its
/// own three players (`ann+g7@red.example`…): on a host of many games the same two or three
/// people do not sit in all of them, and a player's calendar, rewritten when a game is made,
/// reads every game the address plays.
fn create(d: &Daemon, id: &str, now: DateTime<Utc>) {
    if id == "g0" {
        create_toy_game(d, id, now, 200);
        return;
    }
    let players = SEATS.map(|(seat, address)| {
        let (local, domain) = address.split_once('@').expect("an address");
        (seat.to_string(), format!("{local}+{id}@{domain}"))
    });
    create_toy_game_played_by(d, id, now, 200, &players);
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Median and [min–max] of a sample, in ms.
fn spread(v: &[Duration]) -> (f64, f64, f64) {
    let mut v = v.to_vec();
    v.sort();
    (ms(v[v.len() / 2]), ms(v[0]), ms(v[v.len() - 1]))
}

/// Median and [min–max] of the per-round ratios a/b.
fn ratios(a: &[Duration], b: &[Duration]) -> (f64, f64, f64) {
    let mut r: Vec<f64> = a.iter().zip(b).map(|(x, y)| ms(*x) / ms(*y)).collect();
    r.sort_by(f64::total_cmp);
    (r[r.len() / 2], r[0], r[r.len() - 1])
}

/// A world of `n` games: `g0` is played by the mails, the rest stay idle.
struct World {
    _tmp: tempfile::TempDir,
    cfg: Config,
    d: Daemon,
    now: DateTime<Utc>,
    mails: u64,
    /// fsyncs asked for by the order mails so far.
    fsyncs: u64,
}

impl World {
    fn new(n: usize) -> (Self, Duration) {
        let tmp = tempfile::tempdir().unwrap();
        let cfg = toy_config(tmp.path());
        let d = toy_daemon_from(cfg.clone());
        let now = Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap();
        let t = Instant::now();
        for i in 0..n {
            create(&d, &format!("g{i}"), now);
        }
        let took = t.elapsed();
        let mut w = World {
            _tmp: tmp,
            cfg,
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

    /// What a fresh process pays before and for its first pass: a new daemon over the same
    /// data folder (as `despatch run` builds it), then its first pass (nothing due, no mail).
    fn first_pass(&mut self) -> Duration {
        self.now += chrono::Duration::seconds(1);
        let t = Instant::now();
        let d = toy_daemon_from(self.cfg.clone());
        let p = d.run_once(self.now).unwrap();
        let took = t.elapsed();
        assert!(p.failed_games.is_empty() && p.delivered == 0, "{p:?}");
        took
    }

    /// The same with the stored index turned back into its earlier form (written when change
    /// marks were cleared before it): the process cannot trust it, so it does what every first
    /// pass did before issue 32 point 4 — a `stat` of every journal and a visit to every outbox
    /// — and writes the index anew. The yardstick of the old first pass, in the same run.
    fn first_pass_unchecked(&mut self) -> Duration {
        let path = self.d.data.root.join("due.index");
        let text = std::fs::read_to_string(&path).unwrap();
        let old: String = text
            .replacen("despatch due index 3", "despatch due index 1", 1)
            .lines()
            .filter(|l| !l.starts_with("end\t") && !l.starts_with("games-folder\t"))
            .map(|l| format!("{l}\n"))
            .collect();
        std::fs::write(&path, old).unwrap();
        self.first_pass()
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
        let n = std::fs::read_dir(self.d.data.games_dir()).unwrap().count();
        assert!(n > 0);
        t.elapsed()
    }
}

fn main() {
    let full = std::env::args().any(|a| a == "--bench");
    let env = |k: &str, full_default: usize, quick: usize| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(if full { full_default } else { quick })
    };
    let many = env("DESPATCH_BENCH_GAMES", 10_000, 100);
    let rounds = env("DESPATCH_BENCH_ROUNDS", 7, 1).max(1);
    let short = if full { 21 } else { 1 };
    let (mut one, _) = World::new(1);
    let (mut lots, made) = World::new(many);
    // The first passes first, while the many games' folders are as `World::new` left them;
    // after the games folder has settled (`STAMP_SETTLED`, 2 s): a host restarts long after
    // its last game was made, and its index then records the folder's stamp.
    std::thread::sleep(Duration::from_millis(2100));
    let (mut first_one, mut first_many, mut listed) = (vec![], vec![], vec![]);
    let (mut old_one, mut old_many) = (vec![], vec![]);
    for _ in 0..rounds {
        first_one.push(one.first_pass());
        first_many.push(lots.first_pass());
        listed.push(lots.list_games());
        old_one.push(one.first_pass_unchecked());
        old_many.push(lots.first_pass_unchecked());
    }
    let idle_one = median((0..short).map(|_| one.pass()).collect());
    let idle_many = median((0..short.min(5)).map(|_| lots.pass()).collect());
    let order_one = median((0..short).map(|_| one.order()).collect());
    let order_many = median((0..short).map(|_| lots.order()).collect());
    let open_all = median((0..short.min(3)).map(|_| lots.open_every_game()).collect());
    println!(
        "daemon_pass: 1 game vs {many} games (toy ruleset, Maildir; medians; making {many} games took {:.1} s)",
        made.as_secs_f64()
    );
    println!("                               1 game   {many:>6} games   ratio");
    let (f1, f1lo, f1hi) = spread(&first_one);
    let (fm, fmlo, fmhi) = spread(&first_many);
    let (fr, frlo, frhi) = ratios(&first_many, &first_one);
    println!(
        "  first pass of a fresh process    {f1:>8.2} ms {fm:>10.2} ms {fr:>8.1}x   \
         ({rounds} interleaved rounds, [min-max]: 1 game {f1lo:.2}-{f1hi:.2} ms, \
         {many} games {fmlo:.2}-{fmhi:.2} ms, ratio {frlo:.1}-{frhi:.1}x)"
    );
    let (o1, o1lo, o1hi) = spread(&old_one);
    let (om, omlo, omhi) = spread(&old_many);
    let (or, orlo, orhi) = ratios(&old_many, &old_one);
    println!(
        "  the same, index not trusted      {o1:>8.2} ms {om:>10.2} ms {or:>8.1}x   \
         (the old first pass: every journal stat'd, every outbox visited; \
         1 game {o1lo:.2}-{o1hi:.2} ms, {many} games {omlo:.2}-{omhi:.2} ms, ratio {orlo:.1}-{orhi:.1}x)"
    );
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
    let (l, llo, lhi) = spread(&listed);
    println!(
        "  listing the games folder only            {l:>10.2} ms [{llo:.2}-{lhi:.2}] \
         (interleaved with the first passes; a first pass lists it only when it changed)"
    );
}
