//! Lone Star's worked examples (inventory §8) and rulings as golden tests, written in the
//! players' own order syntax where orders are involved, with dice from fixed seeds.

use std::collections::BTreeMap;

use despatch::dice::Dice;
use despatch::engine::{Ruleset, Silence, Submitted, Viewer};
use despatch::rulesets::lone_star::LoneStar;
use despatch::rulesets::lone_star::state::{Phase, State};

fn teaching() -> State {
    LoneStar::setup(
        include_str!("../games/lone-star/ruleset.toml"),
        include_str!("../games/lone-star/scenarios/teaching.toml"),
        &["hays".to_string(), "von-arnim".to_string()],
    )
    .unwrap()
}

/// Resolves the open step with these mails (others silent), on dice from `seed`.
fn step(st: &State, mails: &[(&str, &str)], seed: u8) -> State {
    let spec = LoneStar::step(st);
    let subs: BTreeMap<String, Submitted<_>> = spec
        .prompts
        .iter()
        .map(|p| {
            let sub = match mails.iter().find(|(s, _)| *s == p.seat) {
                Some((s, text)) => Submitted::Orders(LoneStar::parse(st, s, text).unwrap()),
                None => Submitted::Nmr(Silence::StandingOrders),
            };
            (p.seat.clone(), sub)
        })
        .collect();
    LoneStar::resolve(st, &subs, &mut Dice::new([seed; 32]))
}

#[test]
fn a_whole_teaching_turn_runs() {
    let mut st = teaching();
    st = step(&st, &[], 1);
    assert!(matches!(st.phase, Phase::Move { .. }), "{:?}", st.phase);
    assert_eq!(st.cards.len(), 2);
    for _ in 0..8 {
        if st.turn > 1 {
            break;
        }
        let seat = match &st.phase {
            Phase::Move { card } => st.cards[*card].clone(),
            _ => String::new(),
        };
        let text = if seat == "hays" {
            "MOVE Rangers 5 ON 90"
        } else {
            "MOVE Grenzer 4 ON 270"
        };
        let mails: Vec<(&str, &str)> = if seat.is_empty() {
            vec![]
        } else {
            vec![(seat.as_str(), text)]
        };
        st = step(&st, &mails, 2);
        let v = LoneStar::view(&st, &Viewer::Seat("hays".into()));
        eprintln!("{:?}\n{:?}", v.turn, v.log);
    }
    assert_eq!(st.turn, 2);
}
