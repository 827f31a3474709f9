//! What one order mail costs at step 10 and at step 1,000 of the same game (printed figures,
//! no assertions): a game loads from its snapshot plus the journal's tail, so the cost should
//! not grow with the game's length. The yardstick, printed beside it in the same run, is what
//! loading by replaying the whole journal costs at those two points (how games loaded before).
//! The game is the tests' toy ruleset (sealed bids, tests/toy) with 1,200 rounds, played
//! through the real daemon on Maildirs. Run with `cargo bench --bench game_length`.

#[path = "../tests/toy/mod.rs"]
mod toy;
#[path = "common/toy_daemon.rs"]
mod toy_daemon;

use std::time::{Duration, Instant};

use chrono::{TimeZone, Utc};
use despatch::daemon::{Daemon, Intake};
use toy_daemon::{SEATS, TOKENS, create_toy_game, toy_daemon};

struct Run {
    daemon: Daemon,
    now: chrono::DateTime<Utc>,
    n: u64,
}

impl Run {
    /// One order mail from a red seat; returns how long its ingest took (parse to queued mail
    /// and delivery into the outbound Maildir).
    fn mail(&mut self, seat: usize) -> Duration {
        self.n += 1;
        self.now += chrono::Duration::minutes(1);
        let (s, a) = SEATS[seat];
        let raw = format!(
            "From: <{a}>\r\nTo: despatch+long.{s}.{}@localhost\r\nSubject: orders\r\nMessage-ID: <b{}@x>\r\n\r\nBID {}\r\n",
            TOKENS[seat],
            self.n,
            self.n % 4
        );
        let t = Instant::now();
        let out = self.daemon.ingest(raw.as_bytes(), self.now).unwrap();
        let took = t.elapsed();
        assert!(matches!(out, Intake::Accepted { .. }), "{out:?}");
        took
    }

    /// Plays whole rounds (both red seats write; the scout's bid is optional).
    fn rounds(&mut self, k: u64) -> Vec<Duration> {
        (0..k).flat_map(|_| [self.mail(0), self.mail(1)]).collect()
    }

    fn step(&self) -> u64 {
        self.daemon.open_game("long").unwrap().game.book().step
    }

    fn full_replay(&self) -> Duration {
        let store = self.daemon.data.game("long");
        let t = Instant::now();
        store.replay(&self.daemon.registry).unwrap();
        t.elapsed()
    }
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn main() {
    let tmp = tempfile::tempdir().unwrap();
    let daemon = toy_daemon(tmp.path());
    let now = Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap();
    create_toy_game(&daemon, "long", now, 5000);
    let mut run = Run { daemon, now, n: 0 };
    run.rounds(9);
    let early_step = run.step();
    let early = median(run.rounds(30));
    let early_replay = median((0..5).map(|_| run.full_replay()).collect());
    let t = Instant::now();
    run.rounds(1000 - 9 - 30);
    let filled = t.elapsed();
    let late_step = run.step();
    let late = median(run.rounds(30));
    let late_replay = median((0..5).map(|_| run.full_replay()).collect());
    println!(
        "One order mail (median of 60, ingest to delivered reply; every second mail resolves a step):"
    );
    println!("  at step {early_step:>5}: {:8.2} ms", ms(early));
    println!(
        "  at step {late_step:>5}: {:8.2} ms   ({:.2}x the cost at step {early_step})",
        ms(late),
        ms(late) / ms(early)
    );
    println!("Yardstick, loading by a whole-journal replay (median of 5):");
    println!("  at step {early_step:>5}: {:8.2} ms", ms(early_replay));
    println!(
        "  at step {late_step:>5}: {:8.2} ms   ({:.1}x)",
        ms(late_replay),
        ms(late_replay) / ms(early_replay)
    );
    println!(
        "(Filling the game from step {} to {late_step} took {:.1} s.)",
        early_step + 30,
        filled.as_secs_f64()
    );
}
