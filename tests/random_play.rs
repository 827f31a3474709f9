//! Random legal play through the real daemon, store and journal: no panic, no dead end, the
//! journal replays to the snapshot's state, and `verify` passes — for hundreds of player turns.
//! Some prompted seats stay silent and the clock is moved past the deadline, so the silence
//! policy is exercised too. Cases are bounded to keep the suite fast; set
//! DESPATCH_SOAK=1 for a long run.

use std::path::PathBuf;

use chrono::{Duration, TimeZone, Utc};
use despatch::config::{Config, DEFAULT_CONFIG};
use despatch::daemon::{Daemon, Intake};
use despatch::dice::HostOnion;
use despatch::engine::{Game, Ruleset};
use despatch::rulesets::gear_krieg::GearKrieg;
use despatch::rulesets::naval_rjw::NavalRjw;
use despatch::verify;
use proptest::prelude::*;

const NAVAL: [(&str, &str); 2] = [
    ("japan", "togo@mikasa.example"),
    ("russia", "vitgeft@tsesarevich.example"),
];
const GEAR_KRIEG: [(&str, &str); 2] = [
    ("us", "patton@third-army.example"),
    ("germany", "rommel@afrika.example"),
];

/// Plays one game of ruleset `R` by mail to its end (or `max_steps`), with some seats silent
/// past their deadlines, then checks replay, snapshot and verify; returns the final game.
fn play<R: Ruleset>(
    ruleset: &str,
    scenario: &str,
    seats: &[(&str, &str)],
    seed: u64,
    silent_every: u64,
    max_steps: u64,
) -> Game<R> {
    let tmp = tempfile::tempdir().unwrap();
    let mut cfg = Config::parse(DEFAULT_CONFIG, &tmp.path().join("config.toml")).unwrap();
    cfg.games.games_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("games");
    let d = Daemon::new(cfg).unwrap();
    let id = "rnd";
    let mut now =
        Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap() + Duration::days(seed as i64 % 300);
    let mut c0 = [0u8; 32];
    c0[..8].copy_from_slice(&seed.to_be_bytes());
    let toks: Vec<String> = (0..seats.len())
        .map(|i| format!("s{i}{seed:022}"))
        .collect();
    d.create_game_with(
        id,
        ruleset,
        scenario,
        &seats
            .iter()
            .map(|(s, a)| (s.to_string(), a.to_string()))
            .collect::<Vec<_>>(),
        now,
        HostOnion::from_secret(id, c0, 2000),
        &toks,
    )
    .unwrap();
    let store = d.data.game(id);
    let mut n = 0u64;
    loop {
        let g: Game<R> = store.load().unwrap();
        if g.is_over() || g.step > max_steps {
            break;
        }
        let waiting = g.waiting_for();
        assert!(
            !waiting.is_empty(),
            "dead end at step {} (seed {seed})",
            g.step
        );
        let mut sent = false;
        for (i, (seat, address)) in seats.iter().enumerate() {
            if !waiting.iter().any(|w| w == seat) {
                continue;
            }
            n += 1;
            if silent_every > 0 && (seed + n).is_multiple_of(silent_every) {
                continue; // this seat stays silent: the deadline decides
            }
            let orders = R::sample_orders(&g.state, seat, seed.wrapping_mul(7919).wrapping_add(n));
            let raw = format!(
                "From: <{address}>\r\nTo: despatch+{id}.{seat}.{}@localhost\r\nSubject: orders\r\nMessage-ID: <r{n}.{seed}@x>\r\n\r\n{}\r\n",
                toks[i],
                orders.replace('\n', "\r\n")
            );
            now += Duration::minutes(7);
            let out = d.ingest(raw.as_bytes(), now).unwrap();
            assert!(
                matches!(out, Intake::Accepted { .. }),
                "seed {seed} step {}: {out:?}\n{orders}",
                g.step
            );
            sent = true;
        }
        if !sent || !store.load::<R>().unwrap().waiting_for().is_empty() {
            // Nobody (more) will write: jump past the deadline and let silence apply.
            let g: Game<R> = store.load().unwrap();
            if let Some(deadline) = g.deadline {
                now = deadline + Duration::minutes(1);
            }
            d.run_once(now).unwrap();
        }
    }
    let g: Game<R> = store.load().unwrap();
    // The journal replays to the snapshot, and verify re-derives everything.
    let (_, findings) = verify::verify_store::<R>(&store);
    assert!(findings.is_empty(), "seed {seed}: {findings:?}");
    let (_, mail_findings) = verify::verify_mails(&d.cfg.mail.outbox, Some(id));
    assert!(mail_findings.is_empty(), "seed {seed}: {mail_findings:?}");
    let snap = store.read_snapshot().unwrap().unwrap();
    assert_eq!(snap["state"], serde_json::to_value(&g.state).unwrap());
    g
}

/// One naval game; returns the player turns it lasted.
fn play_game(scenario: &str, seed: u64, silent_every: u64, max_steps: u64) -> u32 {
    let g = play::<NavalRjw>("naval-rjw", scenario, &NAVAL, seed, silent_every, max_steps);
    // Every view of the final state is free of hidden minefields' nature.
    for seat in ["japan", "russia"] {
        let v = NavalRjw::view(&g.state, &despatch::engine::Viewer::Seat(seat.into()));
        let text = format!("{:?}{:?}{}", v.sections, v.log, v.data);
        for f in g
            .state
            .minefields
            .iter()
            .filter(|f| f.owner != seat && !f.laid_in_play && !f.revealed)
        {
            assert!(
                !text.contains(&format!("{} (genuine", f.id))
                    && !text.contains(&format!("{} (dummy", f.id)),
                "{seat} sees the nature of {}",
                f.id
            );
        }
    }
    g.state.turn
}

#[test]
fn gear_krieg_random_play_by_mail_to_the_round_limit_verifies() {
    for (seed, silent) in [(11u64, 0u64), (12, 4)] {
        let g = play::<GearKrieg>("gear-krieg", "crossroads", &GEAR_KRIEG, seed, silent, 600);
        assert!(
            g.is_over(),
            "seed {seed}: the round limit ends the game within 600 steps"
        );
    }
}

fn target_turns() -> u32 {
    if std::env::var("DESPATCH_SOAK").is_ok() {
        5000
    } else {
        250
    }
}

#[test]
fn hundreds_of_player_turns_of_random_legal_play() {
    let mut turns = 0;
    let mut seed = 1;
    let mut games = 0;
    while turns < target_turns() {
        let scenario = if seed % 3 == 0 {
            "yellow-sea-1904"
        } else {
            "training"
        };
        turns += play_game(scenario, seed, 5, 400);
        games += 1;
        seed += 1;
    }
    eprintln!("played {games} games, {turns} player turns");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, failure_persistence: None, .. ProptestConfig::default() })]
    #[test]
    fn any_seed_plays_to_an_end_that_verifies(seed in 1000u64..1_000_000, silent in prop_oneof![Just(0u64), Just(3u64), Just(7u64)]) {
        play_game(if seed % 2 == 0 { "training" } else { "yellow-sea-1904" }, seed, silent, 400);
    }
}
