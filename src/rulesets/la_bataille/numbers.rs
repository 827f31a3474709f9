//! The numbers a La Bataille player orders with (issue 30 point 6): each own unit's strength
//! in increments, morale, Movement Potential, fire and mêlée values and fire range, read from
//! the counter classes of `ruleset.toml` (never retyped), for the `UNITS` answer and the
//! welcome, and the Maneuver Segment's order words the seat's units can take. Names no enemy
//! unit.

use crate::rulesets::kit::grammar::num;

use super::state::LbState;

/// One section, one line per unit of `seat`'s army still in the field.
pub fn unit_numbers(st: &LbState, seat: &str) -> Vec<(String, Vec<String>)> {
    let lines: Vec<String> = st
        .units
        .iter()
        .filter(|u| u.side == seat && !u.eliminated)
        .map(|u| {
            let Some(c) = st.data.class(&u.class) else {
                return format!("{}: morale {}", u.name, u.morale);
            };
            let fire = if c.fire.get() > 0.0 {
                let range = c.range.get();
                format!(
                    "fire {} an increment at up to {} {}",
                    num(c.fire.get()),
                    num(range),
                    if range == 1.0 { "hex" } else { "hexes" }
                )
            } else {
                "no fire".to_string()
            };
            let mut t = format!(
                "{} ({}): {} of {} increments, morale {}, MP {}, {fire}, mêlée {} an increment",
                u.name,
                c.name,
                u.increments,
                u.full,
                u.morale,
                num(c.mp.get()),
                num(c.melee.get()),
            );
            if let Some(a) = u.ammo {
                t.push_str(&format!(", {a} rounds"));
            }
            if c.light {
                t.push_str(", light");
            }
            if c.heavy {
                t.push_str(", heavy cavalry");
            }
            t
        })
        .collect();
    if lines.is_empty() {
        return Vec::new();
    }
    vec![("Your units' values".to_string(), lines)]
}

/// The Maneuver Segment's order words `seat`'s units can be given (issue 30 point 5): no
/// `GUARD CHARGE` without an Old Guard unit, no `CHARGE` without cavalry, no `ASSAULT` without
/// infantry, no `FIRE` without a unit that fires. The orders' own checks still judge each line.
pub fn maneuver_words(st: &LbState, seat: &str) -> Vec<&'static str> {
    use super::data::Arm;
    let units: Vec<_> = st
        .units
        .iter()
        .filter(|u| u.side == seat && u.alive())
        .collect();
    let class = |u: &&super::state::Unit| st.data.class(&u.class);
    let mut words = Vec::new();
    if !units.is_empty() {
        words.extend(["MOVE", "FORM", "FACE"]);
    }
    if units.iter().any(|u| u.arm == Arm::Infantry) {
        words.push("ASSAULT");
    }
    if units.iter().any(|u| class(u).is_some_and(|c| c.old_guard)) {
        words.push("GUARD CHARGE");
    }
    if units.iter().any(|u| u.arm == Arm::Cavalry) {
        words.push("CHARGE");
    }
    if units
        .iter()
        .any(|u| class(u).is_some_and(|c| c.fire.get() > 0.0))
    {
        words.push("FIRE");
    }
    words
}
