//! La Bataille through the conformance kit: random play by mail with replay and verify, the
//! canonical round trip, the leak test of standing orders (with its positive control), and
//! the ruling table.

use crate::kit;

use despatch::rulesets::la_bataille::LaBataille;
use despatch::rulesets::la_bataille::state::LbState;
use despatch::rulesets::la_bataille::view::standing_lines;
use kit::{Secret, Subject};

const SEATS: [(&str, &str); 2] = [
    ("france", "ney@grande-armee.example"),
    ("allies", "wellington@peninsula.example"),
];

/// The only hidden facts of La Bataille (inventory §6: every marker is public): each side's
/// standing orders that differ from the defaults.
fn secrets(st: &LbState) -> Vec<Secret> {
    let mut out = Vec::new();
    for side in &st.sides {
        for line in standing_lines(st, &side.id, true) {
            out.push(Secret::new(&side.id, &[&line]));
        }
    }
    out
}

#[test]
fn la_bataille_conforms() {
    kit::conforms(&Subject::<LaBataille> {
        secrets,
        games: 2,
        max_steps: 300,
        test_sources: vec![
            include_str!("la_bataille_golden.rs"),
            include_str!("la_bataille_rulings.rs"),
            include_str!("la_bataille_cavalry.rs"),
            include_str!("la_bataille_pipeline.rs"),
        ],
        not_yet_covered: vec![],
        ..Subject::shipped("teaching", &SEATS)
    });
}
