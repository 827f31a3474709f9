//! The numbers a Last Hundred Yards player orders with (issue 30 point 6): each own unit's
//! printed values as they count now — Cohesion, small-arms and anti-tank values with their
//! ranges, Assault Value, AV/AEV, mortar value, movement points — read from the counter
//! classes and rules of `ruleset.toml` (never retyped), for the `UNITS` answer and the
//! welcome. Players learnt ranges from refusals before. Names no enemy unit, and no dummy.

use crate::rulesets::kit::grammar::num;

use super::maneuver::allowance;
use super::state::{LhyState, Place, Unit};

/// One section, one line per unit of `seat` on the map or in a platoon pool.
pub fn unit_numbers(s: &LhyState, seat: &str) -> Vec<(String, Vec<String>)> {
    let lines: Vec<String> = s
        .units
        .iter()
        .filter(|u| u.side == seat && !u.dummy() && matches!(u.place, Place::Map | Place::Pool))
        .map(|u| unit_line(s, u))
        .collect();
    if lines.is_empty() {
        return Vec::new();
    }
    vec![("Your units' values".to_string(), lines)]
}

fn unit_line(s: &LhyState, u: &Unit) -> String {
    let v = s.values(u);
    let class = s
        .data
        .class(&u.class)
        .map_or(u.class.clone(), |c| c.name.clone());
    let mut bits = Vec::new();
    if v.cohesion > 0 {
        bits.push(format!("Cohesion {}", s.cohesion(u)));
    }
    if u.steps > 1 {
        bits.push(format!("{} steps", u.steps));
    }
    if v.sav > 0 {
        bits.push(format!(
            "small arms {} up to {} hexes{}",
            v.sav,
            v.sav_range,
            if v.sav_flat { " (no range DRM)" } else { "" }
        ));
    }
    if v.atv > 0 {
        bits.push(format!("anti-tank {} up to {} hexes", v.atv, v.atv_range));
    }
    if v.mv > 0 {
        bits.push(format!("mortar {} up to {} hexes", v.mv, v.mv_range));
    }
    if v.assault > 0 {
        bits.push(format!("Assault Value {}", v.assault));
    }
    if v.av > 0 || v.aev > 0 {
        bits.push(format!("AV {} front, AEV {} rear", v.av, v.aev));
    }
    if v.capacity > 0 {
        bits.push(format!("carries {}", v.capacity));
    }
    let act = allowance(s, u, false, false);
    let react = allowance(s, u, true, false);
    bits.push(format!(
        "{} MPs activated, {} reacting",
        num(act.mp),
        num(react.mp)
    ));
    let place = match u.place {
        Place::Map => format!("at {}", s.name_of(u.at)),
        _ => "in the pool".to_string(),
    };
    format!("{} ({class}) {place}: {}", u.name, bits.join(", "))
}
