//! The toy third ruleset ("bids", tests/toy + tests/fixtures/games/bids) registers with one line
//! and passes the conformance kit, touching nothing outside its own files; its rulings, one
//! test each.

use crate::kit;
use crate::toy;

use std::path::PathBuf;

use despatch::engine::{Ruleset, Submitted, Viewer};
use kit::{Secret, Subject};
use toy::{Bids, State};

const SEATS: [(&str, &str); 3] = [
    ("red-1", "ann@red.example"),
    ("red-2", "bob@red.example"),
    ("blue-scout", "cy@blue.example"),
];

fn secrets(st: &State) -> Vec<Secret> {
    st.reserve
        .iter()
        .map(|(seat, r)| Secret::new(seat, &[&format!("reserve: {r}")]))
        .collect()
}

#[test]
fn the_toy_ruleset_conforms() {
    kit::conforms(&Subject::<Bids> {
        // The one line that registers a ruleset.
        registry: despatch::rulesets::registry().with::<Bids>(),
        games_dir: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/games"),
        secrets,
        games: 3,
        test_sources: vec![include_str!("conformance_toy.rs")],
        not_yet_covered: vec![],
        ..Subject::shipped("club", &SEATS)
    });
}

fn opening() -> State {
    Bids::setup(
        include_str!("fixtures/games/bids/ruleset.toml"),
        include_str!("fixtures/games/bids/scenarios/club.toml"),
        &SEATS.map(|(s, _)| s.to_string()),
    )
    .unwrap()
}

fn round(st: &State, bids: &[(&str, &str)], seed: u8) -> State {
    let subs = SEATS
        .iter()
        .map(|(seat, _)| {
            let sub = match bids.iter().find(|(s, _)| s == seat) {
                Some((_, text)) => Submitted::Orders(Bids::parse(st, seat, text).unwrap()),
                None => Submitted::Nmr(despatch::engine::Silence::StandingOrders),
            };
            (seat.to_string(), sub)
        })
        .collect();
    Bids::resolve(st, &subs, &mut despatch::dice::Dice::new([seed; 32]))
}

#[test]
fn r1_silence_bids_nothing_whatever_the_policy() {
    let st = round(&opening(), &[("red-1", "BID 3")], 1);
    assert!(
        st.log.iter().any(|l| l.starts_with("red-2 bid 0")),
        "{:?}",
        st.log
    );
    assert!(st.log.iter().any(|l| l.starts_with("blue-scout bid 0")));
}

#[test]
fn r2_a_reserve_is_seen_by_its_owner_alone() {
    let st = opening();
    let text = |v: &Viewer| format!("{:?}", Bids::view(&st, v).sections);
    assert!(text(&Viewer::Seat("red-1".into())).contains("reserve: 4"));
    assert!(!text(&Viewer::Seat("red-2".into())).contains("reserve: 4"));
    assert!(!text(&Viewer::Spectator).contains("reserve"));
}

#[test]
fn r3_equal_scores_go_to_the_larger_reserve() {
    let mut st = opening();
    st.round = st.rounds + 1;
    st.scores.insert("red".into(), 10);
    st.scores.insert("blue".into(), 10);
    // Red's reserves 4 + 2 = 6 < blue's 7.
    assert_eq!(Bids::outcome(&st).unwrap().winners, vec!["blue"]);
    st.reserve.insert("red-2".into(), 3);
    assert!(
        Bids::outcome(&st).unwrap().winners.is_empty(),
        "7 against 7 is a draw"
    );
}

/// A ruleset whose README has no Campaigns section carries nothing: `Ruleset::carry`'s
/// default refuses, whatever the terms (every shipped ruleset overrides it).
#[test]
fn a_ruleset_without_campaigns_refuses_to_carry() {
    let st = opening();
    let e = Bids::carry(&st, "", &toml::Table::new()).unwrap_err();
    assert_eq!(e, despatch::engine::CarryRefused::NotCarried("bids"));
    assert!(
        e.to_string()
            .starts_with("the bids ruleset does not carry forces from one game into the next (its README has no Campaigns section)"),
        "{e}"
    );
}
