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

/// Increments lost, by the side that inflicted them and how: `(side, cause) -> increments`.
type Causes = BTreeMap<(String, String), u32>;

/// Reads who caused which losses from one resolution's log: fire of every kind (the firer's
/// side), rout losses leaving enemy zones and pursuit (the other side). Losses the log does not
/// name (mêlée results, surrenders) are the rest of `increments_taken`.
fn tally(st: &LbState, lines: &[String], causes: &mut Causes) {
    let side_of = |names: &str| {
        let first = names.split(", ").next().unwrap_or("").trim();
        st.unit(first).map(|u| u.side.clone())
    };
    for l in lines {
        if let (Some(at), Some(end)) = (l.find(": strength "), l.find(" casualt")) {
            let label = &l[..at];
            let n: u32 = l[..end]
                .rsplit(' ')
                .next()
                .and_then(|x| x.parse().ok())
                .unwrap_or(0);
            let (kind, rest) = match (label.find(" of "), label.find(" by ")) {
                (Some(i), _) => (&label[..i], &label[i + 4..]),
                (None, Some(i)) => (&label[..i], &label[i + 4..]),
                _ => continue,
            };
            let kind =
                kind.trim_start_matches(|c: char| c == 'A' || c == 'C' || c.is_ascii_digit());
            let firers = rest.split(" at ").next().unwrap_or("");
            if let Some(side) = side_of(firers) {
                *causes.entry((side, kind.trim().to_string())).or_default() += n;
            }
        } else if let (Some(r), Some(k)) = (l.find(" routs "), l.find(", losing ")) {
            let n: u32 = l[k + 9..]
                .split(' ')
                .next()
                .and_then(|x| x.parse().ok())
                .unwrap_or(0);
            if let Some(side) = side_of(&l[..r]) {
                *causes
                    .entry((st.enemy_of(&side), "rout through zones".into()))
                    .or_default() += n;
            }
        } else if let Some(p) = l.find("pursuit: ") {
            let rest = &l[p + 9..];
            if let (Some(k), Some(side)) = (rest.find(" lose "), side_of(&l[p + 9..])) {
                let n: u32 = rest[k + 6..]
                    .split(' ')
                    .next()
                    .and_then(|x| x.parse().ok())
                    .unwrap_or(0);
                *causes
                    .entry((st.enemy_of(&side), "pursuit".into()))
                    .or_default() += n;
            }
        }
    }
}

/// One random game of `scenario` on seed `game`, to its end (or `steps`).
fn play(scenario: &str, game: u64, steps: u64, causes: &mut Causes) -> LbState {
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
        let lines: Vec<String> = st.log.iter().map(|l| l.text.clone()).collect();
        tally(&st, &lines, causes);
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
        let mut causes = Causes::new();
        for g in 0..GAMES {
            let st = play(scenario, g, 600, &mut causes);
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
        for ((side, cause), n) in &causes {
            eprintln!(
                "   {side} inflicted {:.2} increments a game by {cause}",
                *n as f64 / GAMES as f64
            );
        }
    }
}
