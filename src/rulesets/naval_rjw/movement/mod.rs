//! Steps 2–4 of the active player's turn: repairs, formation changes, turns and full-speed moves,
//! battle lines following by path (R13), flotillas, compulsory moves, General Withdrawal/Chase
//! steering (R16), rescue and capture steering (R10, R28), collisions (R18), minefields crossed
//! (R8), mine laying (R26) and sweeping (R27). It never checks order syntax or CP (orders.rs did).

use std::collections::BTreeSet;

use crate::board::tabletop::{Pt, bearing, dist, heading_diff, hull_range};
use crate::dice::Dice;
use crate::engine::LogLine;

use super::command;
use super::data::Formation;
use super::state::{Fate, Group, NavalState, Order, TurnBy};
use super::stats;
use crate::rulesets::kit::grammar::{num, tenths};

mod in_line;
mod lines;
mod mines;
mod rescue;

use in_line::{move_flotilla, move_line};
use lines::{join, leave, reform, split, tidy_groups};
use mines::lay;
pub use mines::{field_rect, hull_to_field, next_field_id};
pub use rescue::{assign_rescue, rescue_countdown};
use rescue::{auto_rescue, steer_capture, steer_rescue};

fn log(state: &mut NavalState, text: impl Into<String>) {
    state.log.push(LogLine::public(text));
}

fn idx(state: &NavalState, name: &str) -> Option<usize> {
    state.ships.iter().position(|s| s.name == name)
}

/// What the active player ordered one ship to do (lead's orders stand for her line or flotilla).
#[derive(Default, Clone)]
struct Plan {
    turn: Option<TurnBy>,
    /// `Some(None)`: full-speed move at maximum; `Some(Some(d))`: `d` inches.
    full: Option<Option<f64>>,
    halted: bool,
}

fn delta_for(heading: f64, by: &TurnBy) -> f64 {
    match by {
        TurnBy::Port(d) => -d,
        TurnBy::Starboard(d) => *d,
        TurnBy::To(h) => heading_diff(heading, *h),
    }
}

/// Resolves the active side's manoeuvre orders (steps 2–4) and what follows from them.
pub fn resolve_manoeuvre(state: &mut NavalState, side: &str, orders: &[Order], dice: &mut Dice) {
    start_of_turn(state, side);
    // CP are charged at the costs the player saw when writing the orders (positions at the start).
    let costs: Vec<i32> = orders
        .iter()
        .map(|o| command::order_cost(state, side, o))
        .collect();
    let spent: i32 = costs.iter().sum();
    state.cp_left = (state.cp_left - spent).max(0);
    let mut o = Ordered::default();
    for order in orders {
        carry_out(state, side, order, &mut o);
    }
    auto_rescue(state, side);
    refund_overridden_turns(state, side, orders, &costs);
    tidy_groups(state);

    move_side(state, side, &o.plans, &mut o.done);
    mines::cross_fields(state, side, &o.sweeps, dice);
    for s in o.lays {
        lay(state, &s);
    }
    mines::sweep_fields(state, o.sweeps, dice);
}

/// What the side's orders leave for the moves: the ships already placed, each ship's plan,
/// the mines to lay and the fields to sweep.
#[derive(Default)]
struct Ordered {
    done: BTreeSet<String>,
    plans: std::collections::BTreeMap<String, Plan>,
    lays: Vec<String>,
    sweeps: Vec<(String, String)>,
}

/// The moving side's ships start the turn unmoved; smoke and paths are cleared for all.
fn start_of_turn(state: &mut NavalState, side: &str) {
    for s in &mut state.ships {
        // "Stationary" (DD +2) means the target did not move in her own last movement, so
        // only the active side's ships start this turn unmoved; the other side's keep the flag
        // from their own turn.
        if s.side == side {
            s.moved = false;
            s.halted = false;
        }
        s.smoke = false;
        s.path.clear();
    }
}

/// One order, in the order written: what it changes at once, or what it plans for the moves.
fn carry_out(state: &mut NavalState, side: &str, o: &Order, ordered: &mut Ordered) {
    let Ordered {
        done,
        plans,
        lays,
        sweeps,
    } = ordered;
    match o {
        Order::Standing(s) => {
            if let Some(f) = stats::fleet_mut(state, side) {
                f.standing_fire = *s;
            }
        }
        Order::Repair { ship, markers } => {
            if let Some(i) = idx(state, ship) {
                let s = &mut state.ships[i];
                let n = (*markers).min(s.hit_markers);
                s.hit_markers -= n;
                // The player removes the marker that came with a critical first.
                if n > 0 {
                    s.critical_marker = false;
                }
                let left = s.hit_markers;
                log(
                    state,
                    format!("{ship} repairs {n} hit marker(s); {left} left."),
                );
            }
        }
        Order::Withdraw => {
            if let Some(f) = stats::fleet_mut(state, side) {
                f.withdrawal = true;
                let name = f.name.clone();
                log(state, format!("{name} orders a General Withdrawal."));
            }
        }
        Order::Chase => {
            if let Some(f) = stats::fleet_mut(state, side) {
                f.chase = true;
                let name = f.name.clone();
                log(state, format!("{name} orders a General Chase."));
            }
        }
        Order::Leave(ship) => {
            leave(state, ship);
            log(state, format!("{ship} leaves her line."));
        }
        Order::Split { at } => {
            split(state, at);
            log(state, format!("The line splits ahead of {at}."));
        }
        Order::Join { ship, group_of } => {
            join(state, ship, group_of);
            log(state, format!("{ship} joins the end of {group_of}'s line."));
        }
        Order::FormAbreast(lead) | Order::FormAstern(lead) => {
            let abreast = matches!(o, Order::FormAbreast(_));
            for n in reform(state, lead, abreast) {
                done.insert(n);
            }
            log(
                state,
                format!(
                    "{lead}'s line forms line {}.",
                    if abreast { "abreast" } else { "astern" }
                ),
            );
        }
        Order::Rescue { wreck, with } => assign_rescue(state, side, wreck, with, false),
        Order::Capture { prize, with } => {
            if let Some(i) = idx(state, with) {
                leave(state, with);
                state.ships[i].capturing = Some(prize.clone());
                log(
                    state,
                    format!("{with} is sent to take possession of {prize}."),
                );
            }
        }
        Order::Smoke(s) => {
            if let Some(i) = idx(state, s) {
                state.ships[i].smoke = true;
                log(state, format!("{s} lays smoke."));
            }
        }
        Order::Halt(s) => plans.entry(s.clone()).or_default().halted = true,
        Order::Turn { ship, by } => plans.entry(ship.clone()).or_default().turn = Some(*by),
        Order::Move { ship, distance } => {
            plans.entry(ship.clone()).or_default().full = Some(*distance)
        }
        Order::Lay(s) => lays.push(s.clone()),
        Order::Sweep { ship, field } => sweeps.push((ship.clone(), field.clone())),
        _ => {}
    }
}

/// Groups first (lead's plan), then every other ship of the side; under a General Withdrawal
/// or Chase every ship steers alone (R16).
fn move_side(
    state: &mut NavalState,
    side: &str,
    plans: &std::collections::BTreeMap<String, Plan>,
    done: &mut BTreeSet<String>,
) {
    let general = stats::fleet(state, side).is_some_and(|f| f.withdrawal || f.chase);
    // Groups first (lead's plan), then every other ship of the side.
    if !general {
        let mut work: Vec<Group> = state
            .groups
            .iter()
            .filter(|g| g.side == side && (g.flotilla || g.formation == Formation::Astern))
            .cloned()
            .collect();
        while let Some(g) = work.pop() {
            let extra = if g.flotilla {
                move_flotilla(state, &g, plans, done)
            } else {
                move_line(state, &g, plans, done)
            };
            work.extend(extra);
        }
    }
    let names: Vec<String> = state
        .ships
        .iter()
        .filter(|s| s.side == side)
        .map(|s| s.name.clone())
        .collect();
    for n in names {
        if done.contains(&n) {
            continue;
        }
        done.insert(n.clone());
        let plan = plans.get(&n).cloned().unwrap_or_default();
        move_single(state, &n, &plan, general);
    }
}

fn clamp_pt(p: Pt, w: f64, h: f64) -> Pt {
    Pt::new(p.x.clamp(0.0, w), p.y.clamp(0.0, h))
}

/// A ship that cannot move under way at all this turn.
fn immobile(state: &NavalState, i: usize) -> bool {
    let s = &state.ships[i];
    s.fate != Fate::Afloat
        || s.critical_marker
        || s.anchored
        || s.rescue.is_some()
        || s.capturing.is_some()
}

/// Moves one ship: turn on the hull's centre (R13), then `distance` straight ahead, stopping at
/// the table edge (or escaping under General Withdrawal, R16). Records the path and collisions.
fn steam(state: &mut NavalState, i: usize, delta: f64, distance: f64) {
    let withdrawing = stats::fleet(state, &state.ships[i].side).is_some_and(|f| f.withdrawal);
    let (w, h) = (state.width, state.height);
    let start = state.ships[i].hull;
    let turned = start.turned(delta);
    let mut d = distance.max(0.0);
    let mut end = turned.advanced(d);
    let off = |p: Pt| p.x < 0.0 || p.y < 0.0 || p.x > w || p.y > h;
    let name = state.ships[i].name.clone();
    if off(end.centre) {
        if withdrawing {
            let ship = &mut state.ships[i];
            ship.hull = end;
            ship.path = vec![start.centre, end.centre];
            ship.moved = true;
            ship.fate = Fate::Escaped;
            log(state, format!("{name} leaves the table and escapes."));
            for g in &mut state.groups {
                g.ships.retain(|s| *s != name);
            }
            // An escaped flagship is not lost: the flag passes without the CP penalty (R59).
            let side = state.ships[i].side.clone();
            super::damage::pass_flag(state, &side, &name, false);
            return;
        }
        // Largest distance that keeps the centre on the table.
        let (lo, mut hi) = (0.0_f64, d);
        let mut lo = lo;
        for _ in 0..40 {
            let mid = (lo + hi) / 2.0;
            if off(turned.advanced(mid).centre) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        d = lo;
        end = turned.advanced(d);
        log(state, format!("{name} stops at the table edge."));
    }
    let ship = &mut state.ships[i];
    ship.hull = end;
    if ship.path.is_empty() {
        ship.path.push(start.centre);
    }
    ship.path.push(end.centre);
    ship.moved = ship.moved || d > 1e-9;
    collide(state, i);
}

/// R18: a hull ending within `collision_touch` of another afloat hull slides to starboard until
/// `collision_clear` of every hull.
fn collide(state: &mut NavalState, i: usize) {
    let touch = state.data.rules.collision_touch.get();
    let clear = state.data.rules.collision_clear.get();
    let near = |state: &NavalState, limit: f64| {
        state.ships.iter().enumerate().any(|(j, o)| {
            j != i && o.fate == Fate::Afloat && hull_range(&o.hull, &state.ships[i].hull) < limit
        })
    };
    if state.ships[i].fate != Fate::Afloat || !near(state, touch) {
        return;
    }
    let side = state.ships[i].hull.heading + 90.0;
    for _ in 0..400 {
        if !near(state, clear) {
            break;
        }
        let c = state.ships[i].hull.centre.offset(side, 0.05);
        state.ships[i].hull.centre = clamp_pt(c, state.width, state.height);
    }
    let name = state.ships[i].name.clone();
    let c = state.ships[i].hull.centre;
    if let Some(p) = state.ships[i].path.last_mut() {
        *p = c;
    }
    log(
        state,
        format!("{name} passes to starboard to avoid a collision."),
    );
}

/// A single ship's move this turn: dead in the water, duties, General Withdrawal/Chase, orders,
/// or the compulsory cruise move.
fn move_single(state: &mut NavalState, name: &str, plan: &Plan, general: bool) {
    let Some(i) = idx(state, name) else { return };
    let s = &state.ships[i];
    if s.fate != Fate::Afloat {
        return;
    }
    if s.critical_marker {
        log(state, format!("{name} is dead in the water."));
        return;
    }
    if s.anchored {
        return;
    }
    let side = s.side.clone();
    let cruise = stats::cruise(state, &side);
    let max = stats::max_speed(state, s);
    let speed = match plan.full {
        Some(Some(d)) => d.min(max),
        Some(None) => max,
        None if plan.halted => 0.0,
        None => cruise.min(max),
    };
    if let Some(prize) = s.capturing.clone() {
        steer_capture(state, i, &prize, speed);
        return;
    }
    if let Some(duty) = s.rescue.clone() {
        steer_rescue(state, i, &duty, speed);
        return;
    }
    let hit = s.hit_markers > 0;
    if general && !hit {
        let f = stats::fleet(state, &side).cloned();
        let Some(f) = f else { return };
        let heading = s.hull.heading;
        let want = if f.withdrawal {
            Some(f.withdrawal_heading)
        } else {
            nearest_enemy(state, i).map(|p| bearing(state.ships[i].hull.centre, p))
        };
        let class_turn = stats::class_data(state, state.ships[i].class)
            .max_turn
            .get();
        match want {
            Some(h) if heading_diff(heading, h).abs() > 0.5 => {
                let delta = heading_diff(heading, h).clamp(-class_turn, class_turn);
                steam(state, i, delta, cruise.min(max));
                log(
                    state,
                    format!(
                        "{name} turns {} to {} and cruises.",
                        dir_word(delta),
                        tenths(state.ships[i].hull.heading)
                    ),
                );
            }
            _ => {
                steam(state, i, 0.0, max);
                log(
                    state,
                    format!("{name} steams at full speed ({}\").", num(max)),
                );
            }
        }
        return;
    }
    let delta = if hit {
        0.0
    } else {
        plan.turn
            .as_ref()
            .map(|b| delta_for(s.hull.heading, b))
            .unwrap_or(0.0)
    };
    if plan.halted && plan.full.is_none() {
        state.ships[i].halted = true;
        if delta != 0.0 {
            steam(state, i, delta, 0.0);
            log(
                state,
                format!(
                    "{name} turns {} {}° and stops.",
                    dir_word(delta),
                    tenths(delta.abs())
                ),
            );
        } else {
            log(state, format!("{name} is halted."));
        }
        return;
    }
    steam(state, i, delta, speed);
    describe(state, name, delta, speed, plan.full.is_some());
}

fn dir_word(delta: f64) -> &'static str {
    if delta < 0.0 {
        "to port"
    } else {
        "to starboard"
    }
}

fn describe(state: &mut NavalState, name: &str, delta: f64, speed: f64, full: bool) {
    let mut t = String::new();
    if delta.abs() > 1e-9 {
        t.push_str(&format!(
            "turns {} {}°, then ",
            dir_word(delta),
            tenths(delta.abs())
        ));
    }
    if full {
        t.push_str(&format!("moves {}\" at full speed", tenths(speed)));
    } else if speed <= 1e-9 {
        t.push_str("stays halted");
    } else {
        t.push_str(&format!("cruises {}\"", tenths(speed)));
    }
    if let Some(i) = idx(state, name) {
        let h = state.ships[i].hull;
        t.push_str(&format!(
            " {} {},{} heading {}.",
            if speed <= 1e-9 && !full { "at" } else { "to" },
            tenths(h.centre.x),
            tenths(h.centre.y),
            tenths(h.heading)
        ));
    }
    log(state, format!("{name} {t}"));
}

fn nearest_enemy(state: &NavalState, i: usize) -> Option<Pt> {
    let me = &state.ships[i];
    state
        .ships
        .iter()
        .filter(|o| o.side != me.side && o.fate == Fate::Afloat)
        .min_by(|a, b| hull_range(&a.hull, &me.hull).total_cmp(&hull_range(&b.hull, &me.hull)))
        .map(|o| o.hull.centre)
}

/// Turns (free) toward `to` and closes by up to `speed`, stopping `within` of it.
fn steer_to(state: &mut NavalState, i: usize, to: Pt, speed: f64, within: f64) -> bool {
    let h = state.ships[i].hull;
    let gap = dist(h.centre, to);
    if gap <= within {
        return true;
    }
    let delta = heading_diff(h.heading, bearing(h.centre, to));
    let go = speed.min(gap - within * 0.9).max(0.0);
    steam(state, i, delta, go);
    dist(state.ships[i].hull.centre, to) <= within + 1e-6
}

/// A rescuer or prize crew steers herself (R28, R10), so a paid TURN for a ship sent on such
/// a duty in this same turn (by the automatic rescue, or by a RESCUE/CAPTURE line after the
/// TURN) is never carried out: its CP come back, and the log says why (issue 10).
fn refund_overridden_turns(state: &mut NavalState, side: &str, orders: &[Order], costs: &[i32]) {
    for (o, cost) in orders.iter().zip(costs) {
        let Order::Turn { ship, .. } = o else {
            continue;
        };
        let Some(i) = idx(state, ship) else { continue };
        let duty = match (&state.ships[i].rescue, &state.ships[i].capturing) {
            (Some(r), _) => format!("rescue the survivors of {}", r.wreck),
            (None, Some(prize)) => format!("take possession of {prize}"),
            (None, None) => continue,
        };
        if *cost <= 0 {
            continue;
        }
        state.cp_left += cost;
        let name = stats::fleet(state, side).map_or(String::new(), |f| f.name.clone());
        log(
            state,
            format!(
                "{ship}'s TURN is not carried out: she steers herself to {duty}. {name} gets its {cost} CP back."
            ),
        );
    }
}
