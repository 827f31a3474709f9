//! One player turn's steps as the sequence of play runs them (the printed steps 1–7, R23): the
//! active side's manoeuvre mail, the sealed fire plans and both sides' firing, step 7, the victory
//! test and the next side's Command Points. The rules of each act are in `movement`,
//! `gunnery` and `checks`; this module never sets the phase (the table, `procedure`, does).

use std::collections::BTreeMap;

use crate::dice::Dice;
use crate::engine::{LogLine, Outcome, SeatId, Silence, Submitted};
use crate::rulesets::kit::roster::TwoSides;

use super::state::{FireOrder, NavalState, Order, Orders, Phase};
use super::{checks, command, gunnery, movement, stats};

/// The fleet's name as the log and the questions say it (the side's id if it has none).
/// The side has standing fire orders (R23: it is not required to answer the Fire step).
pub(super) fn has_standing(state: &NavalState, side: &str) -> bool {
    stats::fleet(state, side).is_some_and(|f| f.standing_fire.is_some())
}

/// The fire plan a side follows this phase (R23, R24): explicit FIRE lines, else the plan given
/// with the manoeuvre orders, else standing orders (on silence or when set in this email).
fn fire_plan(
    state: &NavalState,
    side: &str,
    sub: Option<&Submitted<Orders>>,
    pending: Option<&Vec<FireOrder>>,
) -> (Vec<FireOrder>, &'static str) {
    let standing = |state: &NavalState| {
        stats::fleet(state, side)
            .and_then(|f| f.standing_fire)
            .map(|m| gunnery::standing_plan(state, side, m))
    };
    match sub {
        Some(Submitted::Orders(o)) => {
            let fires: Vec<FireOrder> = o
                .iter()
                .filter_map(|x| match x {
                    Order::Fire(f) => Some(f.clone()),
                    _ => None,
                })
                .collect();
            if !fires.is_empty() {
                return (fires, "fire plan");
            }
            if let Some(p) = pending {
                return (p.clone(), "fire plan given with the manoeuvre orders");
            }
            if o.iter().any(|x| matches!(x, Order::Standing(Some(_)))) {
                return (standing(state).unwrap_or_default(), "standing fire orders");
            }
            (vec![], "holds fire")
        }
        Some(Submitted::Nmr(Silence::StandingOrders)) | None => {
            if let Some(p) = pending {
                return (p.clone(), "fire plan given with the manoeuvre orders");
            }
            match standing(state) {
                Some(p) => (p, "standing fire orders"),
                None => (vec![], "no orders: holds fire"),
            }
        }
        Some(Submitted::Nmr(_)) => match pending {
            Some(p) => (p.clone(), "fire plan given with the manoeuvre orders"),
            None => (vec![], "no orders: holds fire"),
        },
    }
}

/// Steps 2–4 (R23 a): the active side's repairs, manoeuvres and halts, the compulsory moves and
/// minefield attacks; a fire plan sent with them is sealed until the Fire step.
pub fn manoeuvre(
    state: &mut NavalState,
    subs: &BTreeMap<SeatId, Submitted<Orders>>,
    dice: &mut Dice,
) {
    let side = state.active.clone();
    let name = state.side_name(&side);
    // A silent non-active seat may still have sent standing orders.
    for (seat, sub) in subs {
        if *seat != side
            && let Submitted::Orders(o) = sub
        {
            for x in o {
                if let Order::Standing(s) = x
                    && let Some(f) = stats::fleet_mut(state, seat)
                {
                    f.standing_fire = *s;
                }
            }
        }
    }
    let orders: Orders = match subs.get(&side) {
        Some(Submitted::Orders(o)) => o.clone(),
        _ => {
            state.log.push(LogLine::public(format!(
                "{name} sent no orders: compulsory moves only."
            )));
            vec![]
        }
    };
    state.log.push(LogLine::public(format!(
        "Turn {}: {name} manoeuvres with {} CP.",
        state.turn, state.cp_left
    )));
    movement::resolve_manoeuvre(state, &side, &orders, dice);
    let fires: Vec<FireOrder> = orders
        .iter()
        .filter_map(|o| match o {
            Order::Fire(f) => Some(f.clone()),
            _ => None,
        })
        .collect();
    if !fires.is_empty() {
        state.log.push(LogLine::private(
            &side,
            format!(
                "Your fire plan ({} order(s)) is sealed until the fire step.",
                fires.len()
            ),
        ));
    }
    state.pending_fire = if fires.is_empty() { None } else { Some(fires) };
}

/// Steps 5–7 (R23 b): smoke and standing orders, the non-active side fires, then the active
/// side, then the active side's own hit markers come off and its rescuers count down. Whether
/// the battle is over and whose turn is next is the sequence's (`judge`, `next_turn`). `false`
/// when the active side has no enemy (nothing is fired).
pub fn fire(
    state: &mut NavalState,
    subs: &BTreeMap<SeatId, Submitted<Orders>>,
    dice: &mut Dice,
) -> bool {
    let a = state.active.clone();
    let Some(n) = state.enemy_of(&a).map(str::to_string) else {
        return false;
    };
    // Smoke and standing orders first: every declaration precedes any firing (R19, R23).
    for seat in [&n, &a] {
        if let Some(Submitted::Orders(o)) = subs.get(seat) {
            for x in o {
                match x {
                    Order::Smoke(s) => {
                        if let Some(ship) = stats::find_ship_mut(state, s) {
                            ship.smoke = true;
                        }
                        state.log.push(LogLine::public(format!("{s} lays smoke.")));
                    }
                    Order::Standing(sf) => {
                        if let Some(f) = stats::fleet_mut(state, seat) {
                            f.standing_fire = *sf;
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    let pending = state.pending_fire.take();
    let (plan_n, how_n) = fire_plan(state, &n, subs.get(&n), None);
    let (plan_a, how_a) = fire_plan(state, &a, subs.get(&a), pending.as_ref());
    let (nn, an) = (state.side_name(&n), state.side_name(&a));
    state
        .log
        .push(LogLine::public(format!("{nn} fires first ({how_n}).")));
    gunnery::resolve_fire_phase(state, &n, &plan_n, dice);
    state
        .log
        .push(LogLine::public(format!("{an} fires ({how_a}).")));
    gunnery::resolve_fire_phase(state, &a, &plan_a, dice);
    // Step 7: the active player's own hit markers come off, free (R12).
    let mut cleared = 0;
    for s in state.ships.iter_mut().filter(|s| s.side == a) {
        cleared += s.hit_markers;
        s.hit_markers = 0;
        s.critical_marker = false;
    }
    if cleared > 0 {
        state.log.push(LogLine::public(format!(
            "{an} removes {cleared} hit marker(s) from her own ships."
        )));
    }
    movement::rescue_countdown(state, &a);
    true
}

/// At the end of a player turn: a fleet defeated (R9), or the scenario's turn limit (R33).
pub fn judge(state: &NavalState) -> Option<Outcome> {
    if let Some(o) = checks::victory(state) {
        Some(o)
    } else if state.turn >= state.max_turns {
        Some(checks::turn_limit_outcome(state))
    } else {
        None
    }
}

/// The other side's turn: it becomes the active side and its Command Points are rolled (step 1,
/// reported before its Manoeuvre step asks).
pub fn next_turn(state: &mut NavalState, dice: &mut Dice) {
    if let Some(n) = state.enemy_of(&state.active).map(str::to_string) {
        state.active = n;
    }
    state.turn += 1;
    command::roll_cp(state, dice);
}

/// The battle ends: said in the log both sides read, recorded, and no fire plan left sealed.
pub fn game_over(state: &mut NavalState, o: Outcome) {
    state
        .log
        .push(LogLine::public(format!("The battle ends. {}", o.summary)));
    state.outcome = Some(o);
    state.phase = Phase::GameOver;
    state.pending_fire = None;
}
