//! Command Points: the step-1 roll (R17) and what each action costs (R25, p.3).
//! Pure arithmetic over the state; it never moves a ship or spends CP itself.

use crate::board::tabletop::dist;
use crate::dice::{Dice, Faces};
use crate::engine::LogLine;

use super::data::{Crews, Leadership, RulesetData};
use super::state::{Critical, Fate, NavalState, Order};

/// CP from one Average Die result (p.3, R17): die − 1 (poor leadership − 2), +1 fresh crews,
/// −1 once the original flagship is lost, never below 0.
pub fn cp_from_die(
    data: &RulesetData,
    die: u32,
    leadership: Leadership,
    crews: Crews,
    flagship_lost: bool,
) -> i32 {
    let mut cp = die as i32;
    cp -= match leadership {
        Leadership::Normal => data.rules.cp_subtract.get().round() as i32,
        Leadership::Poor => data.rules.poor_cp_subtract.get().round() as i32,
    };
    if crews == Crews::Fresh {
        cp += data.rules.fresh_cp_bonus.get().round() as i32;
    }
    if flagship_lost {
        cp -= data.rules.flagship_lost_cp.get().round() as i32;
    }
    cp.max(0)
}

/// Step 1 for the active side: rolls the Average Die, sets `cp_rolled` and `cp_left`, logs it.
pub fn roll_cp(state: &mut NavalState, dice: &mut Dice) -> i32 {
    let side = state.active.clone();
    let Some(fleet) = state.fleets.iter().find(|f| f.side == side) else {
        return 0;
    };
    let (leadership, crews, lost, name) = (
        fleet.leadership,
        fleet.crews,
        fleet.flagship_lost,
        fleet.name.clone(),
    );
    let die = dice.roll_one(
        format!("command points {side}"),
        Faces::List {
            values: state.data.command_die.clone(),
        },
    );
    let cp = cp_from_die(&state.data, die, leadership, crews, lost);
    state.cp_rolled = cp;
    state.cp_left = cp;
    let mut why = Vec::new();
    if leadership == Leadership::Poor {
        why.push("poor leadership");
    }
    if crews == Crews::Fresh {
        why.push("fresh crews");
    }
    if lost {
        why.push("flagship lost");
    }
    let why = if why.is_empty() {
        String::new()
    } else {
        format!(" ({})", why.join(", "))
    };
    state.log.push(LogLine::public(format!(
        "Turn {}: {name} rolls {die} on the Average Die: {cp} CP{why}.",
        state.turn
    )));
    cp
}

fn has_control(state: &NavalState, ship: &str) -> bool {
    state
        .ships
        .iter()
        .find(|s| s.name == ship)
        .is_some_and(|s| s.criticals.contains(&Critical::Control))
}

/// The surcharge on one action by `ship` (R25): +1 beyond the command radius from the flagship
/// or with no flagship at all, +1 for the ship's own Control critical, +1 for the flagship's.
/// Distances are taken where the ships stand when the orders are written.
pub fn surcharge(state: &NavalState, side: &str, ship: &str) -> i32 {
    let extra = state.data.rules.command_surcharge.get().round() as i32;
    let radius = state.data.rules.command_radius.get();
    let flagship = state
        .fleets
        .iter()
        .find(|f| f.side == side)
        .and_then(|f| f.flagship.clone())
        .and_then(|n| {
            state
                .ships
                .iter()
                .find(|s| s.name == n && s.fate == Fate::Afloat)
        });
    let me = state.ships.iter().find(|s| s.name == ship);
    let mut cost = 0;
    match (flagship, me) {
        (None, _) => cost += extra,
        (Some(f), Some(m)) => {
            if dist(f.hull.centre, m.hull.centre) > radius {
                cost += extra;
            }
        }
        (Some(_), None) => {}
    }
    if has_control(state, ship) {
        cost += extra;
    }
    if let Some(f) = flagship
        && f.name != ship
        && f.criticals.contains(&Critical::Control)
    {
        cost += extra;
    }
    cost
}

/// The flagship's Control surcharge alone: fleet-wide orders pay it but not the radius (R25).
pub fn flagship_surcharge(state: &NavalState, side: &str) -> i32 {
    let extra = state.data.rules.command_surcharge.get().round() as i32;
    let flag = state
        .fleets
        .iter()
        .find(|f| f.side == side)
        .and_then(|f| f.flagship.clone());
    match flag {
        Some(n) if has_control(state, &n) => extra,
        _ => 0,
    }
}

/// One action (turn, full-speed move, halt, repair one marker, lay, sweep, join) by `ship`.
pub fn action_cost(state: &NavalState, side: &str, ship: &str) -> i32 {
    1 + surcharge(state, side, ship)
}

/// What one order line costs `side` (R25). Free declarations cost 0.
pub fn order_cost(state: &NavalState, side: &str, order: &Order) -> i32 {
    match order {
        Order::Repair { ship, markers } => *markers as i32 * action_cost(state, side, ship),
        Order::Turn { ship, .. }
        | Order::Move { ship, .. }
        | Order::Halt(ship)
        | Order::Lay(ship)
        | Order::Sweep { ship, .. }
        | Order::Join { ship, .. } => action_cost(state, side, ship),
        Order::FormAbreast(lead) | Order::FormAstern(lead) => {
            state.data.rules.formation_cost.get().round() as i32 + surcharge(state, side, lead)
        }
        Order::Withdraw => {
            state.data.rules.withdrawal_cost.get().round() as i32 + flagship_surcharge(state, side)
        }
        Order::Chase => {
            state.data.rules.chase_cost.get().round() as i32 + flagship_surcharge(state, side)
        }
        Order::Flagship(_)
        | Order::Second(_)
        | Order::Minefield { .. }
        | Order::Leave(_)
        | Order::Split { .. }
        | Order::Rescue { .. }
        | Order::Capture { .. }
        | Order::Smoke(_)
        | Order::Fire(_)
        | Order::Standing(_)
        | Order::Pass
        | Order::End => 0,
    }
}
