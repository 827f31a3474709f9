//! Random play of Last Hundred Yards with the sample players: every sample parses, its
//! canonical form parses back to the same orders, every step replays to the same state, and
//! games end. Bounded for the debug profile; DESPATCH_SOAK=1 plays more.

use crate::lhy;

use std::collections::BTreeMap;

use despatch::dice::Dice;
use despatch::engine::{Ruleset, Silence, Submitted};
use despatch::rulesets::last_hundred_yards::LastHundredYards as Lhy;
use despatch::rulesets::last_hundred_yards::state::LhyState;

fn random_play(scenario: &str, game: u64, steps: u64) -> (LhyState, u64) {
    let mut st = lhy::game(scenario);
    let mut k = 0;
    while k < steps && Lhy::outcome(&st).is_none() {
        k += 1;
        let spec = Lhy::step(&st);
        assert!(!spec.prompts.is_empty(), "dead end at step {k}: {spec:?}");
        let mut subs = BTreeMap::new();
        for p in &spec.prompts {
            if !p.required || (k + game).is_multiple_of(5) {
                continue;
            }
            let text = Lhy::sample_orders(&st, &p.seat, game * 1000 + k);
            let o = Lhy::parse(&st, &p.seat, &text)
                .unwrap_or_else(|e| panic!("sample rejected at step {k}: {text}\n{e:?}"));
            let canon = Lhy::canonical(&o);
            let again = Lhy::parse(&st, &p.seat, &canon).expect("canonical parses");
            assert_eq!(again, o, "canonical round trip of {text}");
            subs.insert(p.seat.clone(), Submitted::Orders(o));
        }
        for p in &spec.prompts {
            subs.entry(p.seat.clone())
                .or_insert(Submitted::Nmr(Silence::StandingOrders));
        }
        let mut dice = Dice::new(lhy::seed(k, game));
        let next = Lhy::resolve(&st, &subs, &mut dice);
        let mut dice2 = Dice::new(lhy::seed(k, game));
        assert_eq!(
            next,
            Lhy::resolve(&st, &subs, &mut dice2),
            "replay differs at step {k}"
        );
        let json = serde_json::to_string(&next).unwrap();
        let back: LhyState = serde_json::from_str(&json).unwrap();
        assert_eq!(back, next, "state round trip at step {k}");
        st = next;
    }
    (st, k)
}

#[test]
fn random_games_end_and_replay() {
    let games = if std::env::var("DESPATCH_SOAK").is_ok() {
        20
    } else {
        2
    };
    for g in 0..games {
        for sc in [lhy::PATROL, lhy::BRIDGEHEAD] {
            let (st, k) = random_play(sc, g, 400);
            assert!(
                Lhy::outcome(&st).is_some(),
                "game {g} did not end in {k} steps: {:?}",
                st.phase
            );
        }
    }
}
