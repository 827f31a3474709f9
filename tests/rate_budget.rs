//! Issue 27.3: the default `max_per_sender_per_hour` fits a live evening of the busiest
//! ruleset. Each shipped ruleset is played by mail through the real pipeline as fast as a
//! live table could: every seat answers every prompt as soon as it is asked, each answer after
//! 30 seconds of thought (a refused answer is corrected and sent again, 30 seconds later),
//! games back to back for an hour. The clock is simulated, so the figure does not depend on
//! the machine: the most mails one seat sends in that hour. It is printed, and the shipped
//! default must be at least three times the worst. The hour takes minutes of machine time,
//! so by default the evening lasts 20 minutes and its count is scaled to the hour;
//! DESPATCH_SOAK=1 plays the whole hour (the figure config.toml quotes).

use std::collections::BTreeMap;
use std::path::PathBuf;

use chrono::{DateTime, Duration, TimeZone, Utc};
use despatch::config::{Config, DEFAULT_CONFIG};
use despatch::daemon::Intake;

use crate::mail_world::{self, LONE_STAR_PATROL, SeatLine, World};

/// The margin the default keeps over the busiest seat measured.
const MARGIN: usize = 3;
/// How long each answer takes to write.
const THINK_SECONDS: i64 = 30;

/// How long the evening lasts, in minutes (games back to back).
fn evening_minutes() -> i64 {
    if std::env::var("DESPATCH_SOAK").is_ok() {
        60
    } else {
        20
    }
}

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 27, 19, 0, 0).unwrap()
}

/// The most of `times` (sorted) within any 60 minutes.
fn busiest_hour(times: &[DateTime<Utc>]) -> usize {
    let mut best = 0;
    let mut start = 0;
    for end in 0..times.len() {
        while times[end] - times[start] >= Duration::hours(1) {
            start += 1;
        }
        best = best.max(end - start + 1);
    }
    best
}

/// `seat` sends `body` at `at`.
fn send_at(w: &mut World, seats: &[SeatLine], seat: &str, body: &str, at: DateTime<Utc>) -> Intake {
    w.n += 1;
    let from = seats.iter().find(|s| s.0 == seat).unwrap().1;
    let raw = format!(
        "From: Player <{from}>\r\nTo: {}\r\nSubject: Re: [{}] orders\r\nMessage-ID: <m{}@player.example>\r\nDate: {}\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}\r\n",
        w.reply_to(seat),
        w.game,
        w.n,
        at.to_rfc2822(),
        body.replace('\n', "\r\n")
    );
    w.daemon.ingest(raw.as_bytes(), at).unwrap()
}

/// What an evening of a ruleset came to.
struct Evening {
    /// Each seat's mail times, over every game of the evening.
    sent: BTreeMap<String, Vec<DateTime<Utc>>>,
    steps: u64,
    /// How each game ended (the last one may still be going when the evening ends).
    outcomes: Vec<String>,
}

/// An evening of `ruleset`: games played back to back (each a new game, its dice from
/// other seeds) until `minutes` have passed. The hourly limit counts each game on
/// its own, so counting a seat's mails across games over-counts: the safe side to err on.
fn evening(ruleset: &str, scenario: &str, seats: &[SeatLine], minutes: i64) -> Evening {
    let registry = despatch::rulesets::registry();
    let end = t0() + Duration::minutes(minutes);
    let mut now = t0();
    let mut e = Evening {
        sent: BTreeMap::new(),
        steps: 0,
        outcomes: vec![],
    };
    for k in 1u8.. {
        if now >= end {
            break;
        }
        let pins = ([k; 32], [k ^ 0x5a; 32]);
        let mut w = mail_world::world("evening", ruleset, scenario, seats, now, pins);
        // Measured without the limit itself in the way.
        w.daemon.cfg.mail.max_per_sender_per_hour = 1_000_000;
        loop {
            let g = w.daemon.data.game("evening").open(&registry).unwrap();
            if let Some(o) = g.outcome() {
                e.outcomes.push(o.summary);
                break;
            }
            if now >= end {
                break;
            }
            let waiting = g.waiting_for();
            let step = g.book().step;
            assert!(!waiting.is_empty(), "{ruleset}: dead end at step {step}");
            let asked = now;
            let mut last = asked;
            for seat in waiting {
                // Each awaited seat answers on its own, 30 s after the prompt; a refused
                // answer is corrected and sent again 30 s later.
                let mut at = asked;
                let mut done = false;
                for attempt in 0..6u64 {
                    at += Duration::seconds(THINK_SECONDS);
                    let text = match attempt {
                        5 => String::new(),
                        _ => g.sample_orders(&seat, step * 31 + attempt + u64::from(w.n)),
                    };
                    let text = if text.trim().is_empty() {
                        "PASS\n".to_string()
                    } else {
                        text
                    };
                    let out = send_at(&mut w, seats, &seat, &text, at);
                    e.sent.entry(seat.clone()).or_default().push(at);
                    if matches!(out, Intake::Accepted { .. }) {
                        done = true;
                        break;
                    }
                }
                assert!(
                    done,
                    "{ruleset}: {seat} found no accepted answer at step {step}"
                );
                last = last.max(at);
            }
            now = last;
            e.steps += 1;
        }
    }
    e
}

#[test]
fn the_default_hourly_limit_fits_a_live_evening_of_every_ruleset() {
    let two = |a: &'static str, b: &'static str| -> Vec<SeatLine> {
        vec![
            (a, "first@players.example", "firsttoken0000000000000a"),
            (b, "second@players.example", "secondtoken000000000000b"),
        ]
    };
    let games: Vec<(&str, &str, Vec<SeatLine>)> = vec![
        ("naval-rjw", "yellow-sea-1904", two("japan", "russia")),
        ("gear-krieg", "crossroads", two("us", "germany")),
        ("lone-star", "patrol", LONE_STAR_PATROL.to_vec()),
        ("la-bataille", "teaching", two("france", "allies")),
        ("last-hundred-yards", "patrol", two("us", "germany")),
    ];
    let minutes = evening_minutes();
    let mut worst = (0, String::new());
    for (ruleset, scenario, seats) in &games {
        let e = evening(ruleset, scenario, seats, minutes);
        eprintln!(
            "MEASURED {ruleset} ({scenario}): {} steps in {minutes} min, {} game(s) over",
            e.steps,
            e.outcomes.len()
        );
        for (seat, times) in &e.sent {
            let busiest = busiest_hour(times);
            // Over a shorter evening, its count at that pace for an hour.
            let hour = (busiest as i64 * 60).div_euclid(minutes) as usize
                + usize::from((busiest as i64 * 60).rem_euclid(minutes) > 0);
            eprintln!(
                "MEASURED   seat {seat}: {busiest} mails in {minutes} min: {hour} in an hour"
            );
            if hour > worst.0 {
                worst = (hour, format!("{ruleset} seat {seat}"));
            }
        }
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let shipped = Config::parse(DEFAULT_CONFIG, &root.join("config.toml"))
        .unwrap()
        .mail
        .max_per_sender_per_hour as usize;
    let bare = Config::parse(
        "[mail]\naddress = \"pbem@club.example\"\n",
        &root.join("c.toml"),
    )
    .unwrap()
    .mail
    .max_per_sender_per_hour as usize;
    eprintln!(
        "MEASURED busiest: {} mails in one hour ({}); default {shipped} = {:.1}x",
        worst.0,
        worst.1,
        shipped as f64 / worst.0 as f64
    );
    assert!(worst.0 > 0);
    assert_eq!(bare, shipped, "config.toml documents the built-in default");
    assert!(
        shipped >= MARGIN * worst.0,
        "max_per_sender_per_hour = {shipped} is under {MARGIN} x {} ({})",
        worst.0,
        worst.1
    );
}

#[test]
fn the_busiest_hour_counts_a_sliding_window() {
    let t = |m: i64| t0() + Duration::minutes(m);
    assert_eq!(busiest_hour(&[]), 0);
    assert_eq!(busiest_hour(&[t(0), t(59), t(60), t(61)]), 3);
    assert_eq!(busiest_hour(&[t(0), t(30), t(90), t(100), t(110)]), 3);
}
