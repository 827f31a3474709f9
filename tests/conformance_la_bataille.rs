//! La Bataille through the conformance kit: random play by mail with replay and verify, the
//! canonical round trip, the leak test of standing orders (with its positive control), and
//! the ruling table.

use crate::kit;

use despatch::rulesets::kit::roster::{Roster, TwoSides};
use despatch::rulesets::la_bataille::LaBataille;
use despatch::rulesets::la_bataille::combat::join;
use despatch::rulesets::la_bataille::state::LbState;
use despatch::rulesets::la_bataille::view::standing_lines;
use kit::{Secret, Subject};

const SEATS: [(&str, &str); 2] = [
    ("france", "ney@grande-armee.example"),
    ("allies", "wellington@peninsula.example"),
];

/// The hidden facts of La Bataille: each side's standing orders that differ from the
/// defaults, and the target of a charge not yet declared within two hexes of it (seed p.6
/// step 3), as the charging side's marker list shows it.
fn secrets(st: &LbState) -> Vec<Secret> {
    let mut out = Vec::new();
    for side in &st.sides {
        for line in standing_lines(st, &side.id, true) {
            out.push(Secret::new(&side.id, &[&line]));
        }
    }
    // Not yet declared, and no charger within the 2 hexes that declare it.
    let hidden = |c: &&despatch::rulesets::la_bataille::state::Charge| {
        !c.declared
            && c.units
                .iter()
                .filter_map(|n| st.unit(n))
                .all(|u| u.hex.distance(c.target) > 2)
    };
    for c in st.charges.iter().filter(hidden) {
        let shown = format!(
            "C{} ({}: {} on {})",
            c.id,
            st.side_name(&c.side),
            join(&c.units),
            st.label(c.target)
        );
        out.push(Secret::new(&c.side, &[&shown]));
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
            include_str!("la_bataille_hidden.rs"),
            include_str!("la_bataille_leaders.rs"),
            include_str!("la_bataille_reaction_meeting.rs"),
            include_str!("la_bataille_chart.rs"),
            include_str!("la_bataille_cavalry_melee.rs"),
            include_str!("la_bataille_victory.rs"),
            include_str!("la_bataille_campaign.rs"),
        ],
        not_yet_covered: vec![],
        ..Subject::shipped("teaching", &SEATS)
    });
}
