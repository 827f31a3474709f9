//! The balance figures of La Bataille's scenarios: many random games with the sample players
//! (the kit's random player) and real dice on fixed seeds, printed per side with where the
//! victory points came from. It measures; it does not assert a balance (run it with
//! `--nocapture` to read the table the README quotes).

use std::collections::BTreeMap;

use despatch::dice::Dice;
use despatch::engine::{Ruleset, Silence, Submitted};
use despatch::rulesets::la_bataille::LaBataille;
use despatch::rulesets::la_bataille::segment::victory_points;
use despatch::rulesets::la_bataille::state::LbState;

const RULESET: &str = include_str!("../games/la-bataille/ruleset.toml");

/// Games per scenario: enough that one side winning every game is not luck.
const GAMES: u64 = 50;

/// One random game of `scenario` on seed `game`, to its end (or `steps`).
fn play(scenario: &str, game: u64, steps: u64) -> LbState {
    let text = std::fs::read_to_string(format!(
        "{}/games/la-bataille/scenarios/{scenario}.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let seats = vec!["france".to_string(), "allies".to_string()];
    let mut st = LaBataille::setup(RULESET, &text, &seats).unwrap();
    let mut k = 0;
    while k < steps && LaBataille::outcome(&st).is_none() {
        k += 1;
        let spec = LaBataille::step(&st);
        let mut subs = BTreeMap::new();
        for p in &spec.prompts {
            // Optional mails (standing orders) now and then, as players send them.
            if !p.required && !(k + game).is_multiple_of(4) {
                continue;
            }
            let text = LaBataille::sample_orders(&st, &p.seat, game * 1000 + k);
            let o = LaBataille::parse(&st, &p.seat, &text).unwrap();
            subs.insert(p.seat.clone(), Submitted::Orders(o));
        }
        for p in &spec.prompts {
            subs.entry(p.seat.clone())
                .or_insert(Submitted::Nmr(Silence::StandingOrders));
        }
        let mut seed = [0u8; 32];
        seed[..8].copy_from_slice(&k.to_be_bytes());
        seed[8..16].copy_from_slice(&game.to_be_bytes());
        st = LaBataille::resolve(&st, &subs, &mut Dice::new(seed));
    }
    st
}

#[test]
fn random_games_per_scenario_print_wins_per_side_and_where_the_points_came_from() {
    for scenario in ["teaching", "waterloo-1815"] {
        let mut wins: BTreeMap<String, u32> = BTreeMap::new();
        let mut taken: BTreeMap<String, u32> = BTreeMap::new();
        let mut objective_vp: BTreeMap<String, u32> = BTreeMap::new();
        let mut wiped = 0;
        for g in 0..GAMES {
            let st = play(scenario, g, 600);
            let out = LaBataille::outcome(&st)
                .unwrap_or_else(|| panic!("{scenario} game {g} did not end"));
            let who = out.winners.first().cloned().unwrap_or("draw".into());
            *wins.entry(who).or_default() += 1;
            if out.summary.contains("no unit left") {
                wiped += 1;
            }
            let per = st.data.rules.vp_per_increment.int().max(0) as u32;
            for (side, vp) in victory_points(&st) {
                let s = st.sides.iter().find(|s| s.id == side).unwrap();
                *taken.entry(side.clone()).or_default() += s.increments_taken;
                *objective_vp.entry(side).or_default() +=
                    vp.saturating_sub(s.increments_taken * per);
            }
            eprintln!("{scenario} game {g}: {}", out.summary);
        }
        let played: u32 = wins.values().sum();
        assert_eq!(played as u64, GAMES, "every game ended and was counted");
        eprintln!("== {scenario}: {GAMES} games");
        for side in ["france", "allies", "draw"] {
            eprintln!("   {side}: {} wins", wins.get(side).copied().unwrap_or(0));
        }
        for side in ["france", "allies"] {
            eprintln!(
                "   {side}: {:.1} enemy increments eliminated and {:.1} VP from objectives a game",
                taken.get(side).copied().unwrap_or(0) as f64 / GAMES as f64,
                objective_vp.get(side).copied().unwrap_or(0) as f64 / GAMES as f64
            );
        }
        eprintln!("   games ended by a side with no unit left: {wiped}");
    }
}
