//! Balance by random play for every two-sided ruleset besides La Bataille (issue 28 point 4):
//! each shipped scenario of naval-rjw, gear-krieg, lone-star and last-hundred-yards played by
//! the rulesets' own sample players (`Ruleset::sample_orders`) with real dice on fixed seeds,
//! one table of games, wins per side, draws, games stopped at the step cap and mean steps, and
//! how the games ended (the outcome's summary, numbers blurred). It measures and asserts no
//! balance: only that every game ends or reaches the cap and that the counts add up. The
//! default run is a smoke of 2 games a scenario; `DESPATCH_BALANCE_FULL=1` plays 40 (run with
//! `--nocapture` to read the table the READMEs quote); `DESPATCH_BALANCE_LOG=<dir>` also writes
//! every game's final state, log included, there. Otherwise it reads only the games' data.

use std::collections::BTreeMap;

use despatch::dice::Dice;
use despatch::engine::{Ruleset, Silence, Submitted};
use despatch::rulesets::gear_krieg::GearKrieg;
use despatch::rulesets::last_hundred_yards::LastHundredYards;
use despatch::rulesets::lone_star::LoneStar;
use despatch::rulesets::naval_rjw::NavalRjw;

/// Steps after which a game is stopped and counted as capped, not as a draw.
const CAP: u64 = 1500;

/// One scenario's figures.
#[derive(Default)]
struct Row {
    ruleset: &'static str,
    scenario: &'static str,
    games: u64,
    /// Side ids in seat order, and their wins.
    sides: Vec<(String, u64)>,
    draws: u64,
    capped: u64,
    steps: u64,
    /// Sample mails the ruleset's own parser refused (played as silence instead).
    refused: u64,
    /// How the games ended: the outcome summaries with their figures blurred, and how often.
    endings: BTreeMap<String, u64>,
}

/// An outcome summary with every run of digits as `#`, so like endings count together.
fn blur(summary: &str) -> String {
    let mut out = String::new();
    let mut digits = false;
    for c in summary.chars() {
        if c.is_ascii_digit() {
            if !digits {
                out.push('#');
            }
            digits = true;
        } else {
            out.push(c);
            digits = false;
        }
    }
    out.chars().take(240).collect()
}

/// Plays `games` random games of one shipped scenario of `R` with these seats.
fn measure<R: Ruleset>(scenario: &'static str, seats: &[&str], games: u64) -> Row {
    let dir = format!("{}/games/{}", env!("CARGO_MANIFEST_DIR"), R::NAME);
    let rules = std::fs::read_to_string(format!("{dir}/ruleset.toml")).unwrap();
    let text = std::fs::read_to_string(format!("{dir}/scenarios/{scenario}.toml")).unwrap();
    let seats: Vec<String> = seats.iter().map(|s| s.to_string()).collect();
    let opening = R::setup(&rules, &text, &seats)
        .unwrap_or_else(|e| panic!("{} {scenario}: setup: {e}", R::NAME));
    let mut sides: Vec<(String, u64)> = Vec::new();
    for (_, side) in R::seats(&opening) {
        if !sides.iter().any(|(s, _)| *s == side) {
            sides.push((side, 0));
        }
    }
    assert_eq!(sides.len(), 2, "{} {scenario}: two sides", R::NAME);
    let mut row = Row {
        ruleset: R::NAME,
        scenario,
        sides,
        ..Row::default()
    };
    for game in 0..games {
        let mut st = opening.clone();
        let mut k = 0u64;
        while k < CAP && R::outcome(&st).is_none() {
            k += 1;
            let spec = R::step(&st);
            let mut subs = BTreeMap::new();
            for (i, p) in spec.prompts.iter().enumerate() {
                // Optional mails (standing orders) now and then, as players send them.
                if !p.required && !(k + game).is_multiple_of(4) {
                    continue;
                }
                let choice = game * 1_000_003 + k * 17 + i as u64;
                let text = R::sample_orders(&st, &p.seat, choice);
                match R::parse(&st, &p.seat, &text) {
                    Ok(o) => {
                        subs.insert(p.seat.clone(), Submitted::Orders(o));
                    }
                    Err(e) => {
                        row.refused += 1;
                        eprintln!(
                            "{} {scenario} game {game} step {k}: sample for {} refused: {e:?}",
                            R::NAME,
                            p.seat
                        );
                    }
                }
            }
            for p in &spec.prompts {
                subs.entry(p.seat.clone())
                    .or_insert(Submitted::Nmr(Silence::StandingOrders));
            }
            let mut seed = [0u8; 32];
            seed[..8].copy_from_slice(&k.to_be_bytes());
            seed[8..16].copy_from_slice(&game.to_be_bytes());
            seed[16] = 0xb4;
            st = R::resolve(&st, &subs, &mut Dice::new(seed));
        }
        // To read why a side wins (the READMEs' reasons): the final states, log included.
        if let Ok(dir) = std::env::var("DESPATCH_BALANCE_LOG") {
            let path = format!("{dir}/{}-{scenario}-{game}.json", R::NAME);
            let json = serde_json::to_string_pretty(&st).unwrap();
            std::fs::write(&path, json).unwrap_or_else(|e| panic!("{path}: {e}"));
        }
        row.games += 1;
        row.steps += k;
        match R::outcome(&st) {
            None => {
                row.capped += 1;
                *row.endings.entry("(step cap)".into()).or_default() += 1;
            }
            Some(out) => {
                match out.winners.as_slice() {
                    [] => row.draws += 1,
                    [w, ..] => {
                        let side = row.sides.iter_mut().find(|(s, _)| s == w);
                        side.unwrap_or_else(|| panic!("{} {scenario}: winner {w}", R::NAME))
                            .1 += 1;
                    }
                }
                *row.endings.entry(blur(&out.summary)).or_default() += 1;
            }
        }
    }
    row
}

fn print(rows: &[Row], games: u64) {
    eprintln!("== balance by random play: {games} games a scenario, step cap {CAP}");
    eprintln!(
        "| ruleset | scenario | games | wins (side A) | wins (side B) | draws | capped | mean steps | samples refused |"
    );
    eprintln!("|---|---|---|---|---|---|---|---|---|");
    for r in rows {
        eprintln!(
            "| {} | {} | {} | {} {} | {} {} | {} | {} | {:.1} | {} |",
            r.ruleset,
            r.scenario,
            r.games,
            r.sides[0].0,
            r.sides[0].1,
            r.sides[1].0,
            r.sides[1].1,
            r.draws,
            r.capped,
            r.steps as f64 / r.games.max(1) as f64,
            r.refused
        );
    }
    for r in rows {
        eprintln!("-- how {} {} ended:", r.ruleset, r.scenario);
        let mut endings: Vec<_> = r.endings.iter().collect();
        endings.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        for (e, n) in endings {
            eprintln!("   {n:>3} × {e}");
        }
    }
}

#[test]
fn random_games_of_every_two_sided_scenario_print_one_balance_table() {
    let games = if std::env::var("DESPATCH_BALANCE_FULL").is_ok_and(|v| v == "1") {
        40
    } else {
        2
    };
    let two = ["us", "germany"];
    let rows = vec![
        measure::<NavalRjw>("training", &["japan", "russia"], games),
        measure::<NavalRjw>("yellow-sea-1904", &["japan", "russia"], games),
        measure::<GearKrieg>("crossroads", &two, games),
        measure::<LoneStar>("teaching", &["hays", "von-arnim"], games),
        measure::<LoneStar>("patrol", &["hays", "bowie", "von-arnim", "enver"], games),
        measure::<LoneStar>(
            "tidal",
            &[
                "hays",
                "travis",
                "smythe",
                "bowie",
                "von-arnim",
                "von-moltke",
                "enver",
                "krupp",
            ],
            games,
        ),
        measure::<LastHundredYards>("patrol", &two, games),
        measure::<LastHundredYards>("bridgehead", &two, games),
    ];
    print(&rows, games);
    for r in &rows {
        let wins: u64 = r.sides.iter().map(|s| s.1).sum();
        assert_eq!(r.games, games, "{} {}", r.ruleset, r.scenario);
        assert_eq!(
            wins + r.draws + r.capped,
            r.games,
            "{} {}: every game is a win, a draw or capped",
            r.ruleset,
            r.scenario
        );
        assert_eq!(r.endings.values().sum::<u64>(), r.games);
        assert!(r.steps <= r.games * CAP);
    }
}

#[test]
fn blur_counts_like_endings_together() {
    assert_eq!(blur("Japan wins 12 to 3."), "Japan wins # to #.");
    assert_ne!(blur("Japan wins"), blur("Russia wins"));
}
