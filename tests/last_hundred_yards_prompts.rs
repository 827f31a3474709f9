//! Issue 30 points 5 and 6 in Last Hundred Yards: the activation prompt lists only the
//! platoons that may go now (the testers were offered platoons the rules held back).

use crate::lhy;

use despatch::engine::Ruleset;
use despatch::rulesets::last_hundred_yards::LastHundredYards as Lhy;
use despatch::rulesets::last_hundred_yards::checks;
use despatch::rulesets::last_hundred_yards::state::{LhyState, Phase};
use lhy::*;

fn question(st: &LhyState, seat: &str) -> String {
    Lhy::step(st)
        .prompts
        .iter()
        .find(|p| p.seat == seat)
        .map(|p| p.question.clone())
        .unwrap_or_default()
}

/// The platoons an activation prompt lists.
fn listed(q: &str) -> Vec<String> {
    let rest = q.split_once("may go now: ").expect(q).1;
    rest.split_once('.')
        .unwrap()
        .0
        .split(", ")
        .map(String::from)
        .collect()
}

#[test]
fn the_activation_prompt_lists_only_the_platoons_that_may_go_now() {
    let mut st = game(BRIDGEHEAD);
    // Company Able is selected and its 1st platoon has gone: its 2nd must go before the tanks.
    st.phase = Phase::Activate { side: "us".into() };
    st.turn.active = "us".into();
    st.turn.company = Some("Able".into());
    st.turn.platoons_done = vec!["1PLT".into()];
    let q = question(&st, "us");
    let waiting = checks::waiting_platoons(&st, "us");
    assert!(
        waiting.contains(&"TPLT".to_string()),
        "control: {waiting:?}"
    );
    assert!(
        checks::check_activate(&st, "us", "TPLT", None).is_err(),
        "control: the tanks may not go yet"
    );
    assert_eq!(listed(&q), ["2PLT"], "{q}");
    for p in listed(&q) {
        assert_eq!(checks::check_activate(&st, "us", &p, None), Ok(()), "{p}");
    }
}
