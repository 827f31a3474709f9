//! Standing orders, settings and the Command Point lines any mail may carry taking effect, from
//! a mail a step resolves with or from one that answers no step (ruling SO1). It decides
//! nothing about the round: which step follows is the sequence's (`round`, `procedure`).

use std::collections::BTreeMap;

use crate::engine::{LogLine, SeatId, Submitted};
use crate::rulesets::kit::grammar::{num, round_to};
use crate::rulesets::kit::roster::{Roster, TwoSides};

use super::activation;
use super::state::{GkState, Order, Orders, Setting};

/// The orders `seat` sent for the step (none when it was silent).
pub(super) fn orders_of<'a>(
    subs: &'a BTreeMap<SeatId, Submitted<Orders>>,
    seat: &str,
) -> &'a [Order] {
    match subs.get(seat) {
        Some(Submitted::Orders(o)) => o,
        _ => &[],
    }
}

/// Standing orders and CP lines any email may carry, applied before the step's own orders.
pub fn apply_standing(state: &mut GkState, seat: &str, orders: &[Order]) {
    for o in orders {
        match o {
            Order::Overwatch(ow) => {
                if let Some(u) = state.unit_mut(&ow.unit) {
                    u.overwatch = Some(ow.clone());
                }
            }
            Order::OverwatchOff(n) => {
                if let Some(u) = state.unit_mut(n) {
                    u.overwatch = None;
                }
            }
            Order::Set(s) => {
                if let Some(side) = state.side_mut(seat) {
                    match s {
                        Setting::InterruptsAsk => side.ask_interrupts = true,
                        Setting::InterruptsNever => side.ask_interrupts = false,
                        Setting::DeclarationsAsk => side.ask_declarations = true,
                        Setting::DeclarationsSkip => side.ask_declarations = false,
                        Setting::ChooseFirst => side.choose_first = true,
                        Setting::ChooseSecond => side.choose_first = false,
                    }
                }
            }
            Order::CpDefend(n) => {
                if let Some(u) = state.unit_mut(n) {
                    u.cp_defend = true;
                }
            }
            Order::CpAboutFace { unit, by } => match activation::about_face(state, unit, *by) {
                Ok(()) => state.log.push(LogLine::public(format!(
                    "{unit} spends a Command Point to turn about (now facing {}).",
                    // Headings after a turn are computed: shown to the thousandth, as always.
                    num(round_to(state.unit(unit).map_or(0.0, |u| u.heading), 3))
                ))),
                Err(e) => state
                    .log
                    .push(LogLine::public(format!("{unit} cannot turn about: {e}."))),
            },
            _ => {}
        }
    }
}
