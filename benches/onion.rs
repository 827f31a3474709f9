//! The host onion's cost (printed figures, no assertions): revealing `v_k` from the stored
//! √N checkpoints, for N = 100,000 and 1,000,000, beside the yardstick of one onion hash and of
//! hashing forward from `c_0` (how a reveal cost before checkpoints: up to N hashes). Also the
//! one-off cost of computing the checkpoints when a game is created.
//! Run with `cargo bench --bench onion`.

use std::time::{Duration, Instant};

use despatch::dice::{HostOnion, Protocol, onion_step};

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn main() {
    let c0 = [7u8; 32];
    let one_hash = {
        let t = Instant::now();
        let mut c = c0;
        for _ in 0..100_000 {
            c = onion_step(Protocol::V2, "bench", "host", &c);
        }
        std::hint::black_box(c);
        t.elapsed() / 100_000
    };
    println!("onion: one onion hash {:.2} µs", us(one_hash));
    println!(
        "       N   creation      reveal (median, k spread over the game)   from c_0 (the old reveal, mean)"
    );
    for n in [100_000u64, 1_000_000] {
        let t = Instant::now();
        let onion = HostOnion::from_secret(Protocol::V2, "bench", c0, n);
        let made = t.elapsed();
        // Steps spread over the whole onion, not aligned with the checkpoints' stride.
        let ks: Vec<u64> = (1..=200u64).map(|i| (i * 2_654_435_761) % n + 1).collect();
        let reveals = median(
            ks.iter()
                .map(|k| {
                    let t = Instant::now();
                    std::hint::black_box(onion.reveal(*k).unwrap());
                    t.elapsed()
                })
                .collect(),
        );
        // Hashing forward from c_0 to c_{N-k} costs N-k hashes: N/2 on average over a game.
        let old = one_hash * (n / 2) as u32;
        println!(
            "{n:>8} {:>8.1} ms   {:>10.1} µs (~{:.0} hashes)          {:>10.1} µs ({:.0}x)",
            made.as_secs_f64() * 1e3,
            us(reveals),
            us(reveals) / us(one_hash),
            us(old),
            us(old) / us(reveals)
        );
    }
}
