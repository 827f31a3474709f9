//! Last Hundred Yards through the conformance kit: random play by mail with replay and verify,
//! the canonical round trip, the leak test of concealed and hidden units, dummies, standing
//! reactions, queued activations, feints and the assault order (with its positive control),
//! and the ruling table.

use crate::kit;

use despatch::rulesets::last_hundred_yards::LastHundredYards;
use despatch::rulesets::last_hundred_yards::orders::print_order;
use despatch::rulesets::last_hundred_yards::state::{LhyState, Order};
use kit::{Secret, Subject};

const SEATS: [(&str, &str); 2] = [
    ("us", "able6@company-a.example"),
    ("germany", "kompanie@erste.example"),
];

/// What one side may not know of the other's: the names of its concealed and hidden units
/// (and so where they are and what they are), which markers are dummies, its standing
/// reactions and its queued activations.
fn secrets(st: &LhyState) -> Vec<Secret> {
    let mut out = Vec::new();
    // A unit the enemy has once seen unconcealed (`known`, set when it loses concealment) is
    // no secret by name any more: a mail of an earlier step of the same look may name it.
    for u in st
        .units
        .iter()
        .filter(|u| u.on_map() && (u.concealed || u.hidden) && !u.known)
    {
        out.push(Secret::new(&u.side, &[&format!("{} (", u.name)]));
    }
    for side in &st.sides {
        for s in &side.standing {
            out.push(Secret::new(
                &side.id,
                &[&print_order(&Order::Standing(s.clone()))],
            ));
        }
        // R33/R34: a declared feint and the order of the assaults are the owner's.
        for a in st.arrows.iter().filter(|a| a.side == side.id && a.feint) {
            out.push(Secret::new(&side.id, &["Feint on ", &st.name_of(a.to)]));
        }
        if st.turn.active == side.id && !st.turn.assault_order.is_empty() {
            out.push(Secret::new(&side.id, &["Assault Resolution order noted"]));
        }
        for b in &side.queued {
            if let Some(first) = b.first() {
                out.push(Secret::new(&side.id, &["queued: ", &print_order(first)]));
            }
        }
    }
    out
}

#[test]
fn last_hundred_yards_conforms() {
    kit::conforms(&Subject::<LastHundredYards> {
        secrets,
        games: 2,
        max_steps: 500,
        test_sources: vec![
            include_str!("last_hundred_yards_golden.rs"),
            include_str!("last_hundred_yards_rulings.rs"),
            include_str!("last_hundred_yards_rulings_play.rs"),
            include_str!("last_hundred_yards_markers.rs"),
            include_str!("last_hundred_yards_figures.rs"),
            include_str!("last_hundred_yards_fixes.rs"),
            include_str!("last_hundred_yards_campaign.rs"),
        ],
        unreached_steps: vec![(
            "stacking",
            "the patrol's forces cannot over-stack (3 squads, 1 MG, 1 leader, no vehicles) and \
             200 random bridgehead games never did; last_hundred_yards_fixes::\
             over_stacking_never_names_a_concealed_unit_to_the_enemy resolves the step",
        )],
        ..Subject::shipped("patrol", &SEATS)
    });
}
