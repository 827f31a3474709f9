//! Standing orders and this turn's extra-move plans taking effect, from any mail a step
//! resolves with (and from a mail that answers no step). It decides nothing about the turn.

use std::collections::BTreeMap;

use crate::engine::Submitted;

use super::orders::{Order, Orders, Rule};
use super::state::State;

/// The orders `seat` sent for the step (none when it was silent).
pub(super) fn orders_of<'a>(
    subs: &'a BTreeMap<String, Submitted<Orders>>,
    seat: &str,
) -> &'a [Order] {
    match subs.get(seat) {
        Some(Submitted::Orders(o)) => o,
        _ => &[],
    }
}

/// Standing orders and this turn's extra-move plans take effect as soon as they are read.
pub fn apply_standing(state: &mut State, orders: &[Order]) {
    for o in orders {
        match o {
            Order::Standing { unit, rule } => {
                let s = &mut state.unit_mut(unit).standing;
                match rule {
                    Rule::Target(v) => s.target_nearest = Some(*v),
                    Rule::Melee(v) => s.stay = *v,
                    Rule::Prisoners(v) => s.prisoners = *v,
                    Rule::Ambush(v) => s.ambush = *v,
                    Rule::Extra(v) => s.extra = *v,
                    Rule::Advance(v) => s.advance = *v,
                }
            }
            Order::Extra { unit, to } => state.unit_mut(unit).extra_plan = Some(*to),
            _ => {}
        }
    }
}
