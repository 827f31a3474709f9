//! Naval RJW through the conformance kit: random play by mail with replay and verify, the
//! canonical round trip, the leak test of hidden minefields and sealed fire plans (with its
//! positive control), and the ruling table.

use crate::kit;

use despatch::engine::Ruleset;
use despatch::rulesets::naval_rjw::NavalRjw;
use despatch::rulesets::naval_rjw::state::{NavalState, Order};
use kit::{Secret, Subject};

const SEATS: [(&str, &str); 2] = [
    ("japan", "togo@mikasa.example"),
    ("russia", "vitgeft@tsesarevich.example"),
];

/// What one side may not know: the nature of the other's minefields (until laid in play or
/// revealed), and the other's sealed fire plan.
pub fn secrets(st: &NavalState) -> Vec<Secret> {
    let mut out = Vec::new();
    for m in st
        .minefields
        .iter()
        .filter(|m| !m.laid_in_play && !m.revealed)
    {
        let nature = if m.genuine { ": genuine" } else { ": dummy" };
        out.push(Secret::new(
            &m.owner,
            &[&format!("field {} (", m.id), nature],
        ));
        let known = if m.genuine {
            "\"known\":\"genuine\""
        } else {
            "\"known\":\"dummy\""
        };
        out.push(Secret::new(
            &m.owner,
            &[&format!("\"label\":\"{}\"", m.id), known],
        ));
    }
    if let Some(plan) = &st.pending_fire {
        for f in plan {
            let line = NavalRjw::canonical(&vec![Order::Fire(f.clone())]);
            out.push(Secret::new(&st.active, &[line.trim()]));
        }
    }
    out
}

#[test]
fn naval_rjw_conforms() {
    kit::conforms(&Subject::<NavalRjw> {
        secrets,
        games: 4,
        test_sources: vec![
            include_str!("naval_golden.rs"),
            include_str!("naval_orders_golden.rs"),
            include_str!("naval_data.rs"),
            include_str!("naval_rulings.rs"),
            include_str!("naval_rulings_gunnery.rs"),
            include_str!("naval_rulings_sight.rs"),
            include_str!("naval_rulings_movement.rs"),
            include_str!("naval_rulings_lines.rs"),
            include_str!("naval_rulings_turn.rs"),
            include_str!("naval_rulings_losses.rs"),
            include_str!("campaign.rs"),
        ],
        // Rulings no `fn r<N>_…` test names yet.
        not_yet_covered: vec![],
        ..Subject::shipped("training", &SEATS)
    });
}
