//! Steps 2–4 of the active player's turn: repairs, formation changes, turns and full-speed moves,
//! battle lines following by path (R13), flotillas, compulsory moves, General Withdrawal/Chase
//! steering (R16), rescue and capture steering (R10, R28), collisions (R18), minefields crossed
//! (R8), mine laying (R26) and sweeping (R27). It never checks order syntax or CP (orders.rs did).

use std::collections::BTreeSet;

use crate::board::tabletop::{
    Hull, Pt, Rect, bearing, dist, heading_diff, hull_range, hull_touches_rect,
    nearest_point_on_hull, segment_distance, segment_touches_rect,
};
use crate::dice::Dice;
use crate::engine::LogLine;

use super::command;
use super::damage;
use super::data::Formation;
use super::state::{Fate, Group, Minefield, NavalState, Order, RescueDuty, TurnBy};
use super::stats;
use crate::rulesets::kit::grammar::{num, tenths};

fn log(state: &mut NavalState, text: impl Into<String>) {
    state.log.push(LogLine::public(text));
}

fn idx(state: &NavalState, name: &str) -> Option<usize> {
    state.ships.iter().position(|s| s.name == name)
}

/// The rectangle a minefield covers: its heading is the course of the ship that laid it, and the
/// long side lies across that course (R26).
pub fn field_rect(state: &NavalState, m: &Minefield) -> Rect {
    Rect {
        centre: m.centre,
        heading: m.heading + 90.0,
        length: state.data.rules.minefield_length.get(),
        width: state.data.rules.minefield_width.get(),
    }
}

/// Distance from a hull to a minefield (0 when touching).
pub fn hull_to_field(state: &NavalState, hull: &Hull, m: &Minefield) -> f64 {
    let r = field_rect(state, m);
    if hull_touches_rect(hull, &r) {
        return 0.0;
    }
    let c = r.corners();
    (0..4)
        .map(|i| segment_distance(hull.stern(), hull.bow(), c[i], c[(i + 1) % 4]))
        .fold(f64::INFINITY, f64::min)
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
    // CP are charged at the costs the player saw when writing the orders (positions at the start).
    let costs: Vec<i32> = orders
        .iter()
        .map(|o| command::order_cost(state, side, o))
        .collect();
    let spent: i32 = costs.iter().sum();
    state.cp_left = (state.cp_left - spent).max(0);
    let mut done: BTreeSet<String> = BTreeSet::new();
    let mut plans: std::collections::BTreeMap<String, Plan> = Default::default();
    let mut lays = Vec::new();
    let mut sweeps = Vec::new();

    for o in orders {
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
    auto_rescue(state, side);
    refund_overridden_turns(state, side, orders, &costs);
    tidy_groups(state);

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
                move_flotilla(state, &g, &plans, &mut done)
            } else {
                move_line(state, &g, &plans, &mut done)
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

    // Minefields crossed, once movement has ended (R8).
    let movers: Vec<String> = state
        .ships
        .iter()
        .filter(|s| s.side == side && s.fate == Fate::Afloat && s.path.len() >= 2)
        .map(|s| s.name.clone())
        .collect();
    for n in movers {
        let fields: Vec<String> = state.minefields.iter().map(|m| m.id.clone()).collect();
        for f in fields {
            let (Some(i), Some(m)) = (idx(state, &n), state.minefields.iter().find(|m| m.id == f))
            else {
                continue;
            };
            let ship = &state.ships[i];
            if ship.fate != Fate::Afloat {
                break;
            }
            let r = field_rect(state, m);
            let crossed = ship
                .path
                .windows(2)
                .any(|w| segment_touches_rect(w[0], w[1], &r))
                || hull_touches_rect(&ship.hull, &r);
            // A minesweeper that sweeps this field attacks the mines "instead" and "first"
            // (p.9, R27): her sweep below settles it, so crossing it is no second attack.
            let sweeping = sweeps.iter().any(|(s, x)| *s == n && *x == f)
                && hull_to_field(state, &ship.hull, m) <= state.data.rules.sweep_reach.get() + 1e-9;
            if crossed && !sweeping {
                damage::mine_attack(state, &n, &f, dice);
            }
        }
    }
    for s in lays {
        lay(state, &s);
    }
    for (s, f) in sweeps {
        let reach = state.data.rules.sweep_reach.get();
        let (Some(i), Some(m)) = (idx(state, &s), state.minefields.iter().find(|m| m.id == f))
        else {
            log(
                state,
                format!("{s}: minefield {f} is gone; nothing to sweep."),
            );
            continue;
        };
        if state.ships[i].fate != Fate::Afloat {
            continue;
        }
        let d = hull_to_field(state, &state.ships[i].hull, m);
        if d > reach + 1e-9 {
            log(
                state,
                format!(
                    "{s} is {}\" from minefield {f}, beyond {}\": no sweep.",
                    tenths(d),
                    num(reach)
                ),
            );
            continue;
        }
        damage::sweep(state, &s, &f, dice);
    }
}

fn leave(state: &mut NavalState, ship: &str) {
    for g in &mut state.groups {
        g.ships.retain(|s| s != ship);
    }
}

fn split(state: &mut NavalState, at: &str) {
    let Some(gi) = state
        .groups
        .iter()
        .position(|g| g.ships.iter().any(|s| s == at))
    else {
        return;
    };
    let pos = state.groups[gi]
        .ships
        .iter()
        .position(|s| s == at)
        .unwrap_or(0);
    if pos == 0 {
        return;
    }
    let ng = state.groups[gi].split_astern(pos);
    state.groups.push(ng);
}

fn join(state: &mut NavalState, ship: &str, other: &str) {
    leave(state, ship);
    let flotilla = idx(state, ship).is_some_and(|i| !state.ships[i].class.is_capital());
    let side = idx(state, ship)
        .map(|i| state.ships[i].side.clone())
        .unwrap_or_default();
    match state
        .groups
        .iter_mut()
        .find(|g| g.ships.iter().any(|s| s == other))
    {
        Some(g) => g.ships.push(ship.to_string()),
        None => state.groups.push(Group {
            name: format!("{other}'s line"),
            side,
            ships: vec![other.to_string(), ship.to_string()],
            formation: Formation::Astern,
            flotilla,
        }),
    }
}

fn tidy_groups(state: &mut NavalState) {
    let afloat: BTreeSet<String> = state
        .ships
        .iter()
        .filter(|s| s.fate == Fate::Afloat && s.rescue.is_none() && s.capturing.is_none())
        .map(|s| s.name.clone())
        .collect();
    for g in &mut state.groups {
        g.ships.retain(|s| afloat.contains(s));
    }
    state.groups.retain(|g| g.ships.len() >= 2);
}

/// Astern ↔ abreast: the followers take station on the lead (R25 pays for it; no further move).
fn reform(state: &mut NavalState, lead: &str, abreast: bool) -> Vec<String> {
    let Some(g) = state
        .groups
        .iter_mut()
        .find(|g| g.ships.first().map(String::as_str) == Some(lead))
    else {
        return vec![];
    };
    g.formation = if abreast {
        Formation::Abreast
    } else {
        Formation::Astern
    };
    let members = g.ships.clone();
    let Some(li) = idx(state, lead) else {
        return vec![];
    };
    let lead_hull = state.ships[li].hull;
    let gap = state.data.rules.collision_clear.get();
    let spacing = state.data.rules.flotilla_spacing.get();
    let mut prev = lead_hull;
    for (k, n) in members.iter().enumerate().skip(1) {
        let Some(i) = idx(state, n) else { continue };
        let len = state.ships[i].hull.length;
        let centre = if abreast {
            lead_hull
                .centre
                .offset(lead_hull.heading + 90.0, spacing * k as f64)
        } else {
            prev.centre
                .offset(lead_hull.heading, -(prev.length / 2.0 + gap + len / 2.0))
        };
        let start = state.ships[i].hull.centre;
        let ship = &mut state.ships[i];
        ship.hull.centre = clamp_pt(centre, state.width, state.height);
        ship.hull.heading = lead_hull.heading;
        ship.path = vec![start, ship.hull.centre];
        ship.moved = true;
        prev = ship.hull;
    }
    members
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

fn steer_rescue(state: &mut NavalState, i: usize, duty: &RescueDuty, speed: f64) {
    let name = state.ships[i].name.clone();
    if duty.turns_left.is_some() {
        log(
            state,
            format!(
                "{name} stays by the wreck of {}, picking up survivors.",
                duty.wreck
            ),
        );
        return;
    }
    let within = state.data.rules.rescue_proximity.get();
    let turns = state.data.rules.rescue_turns.get().round() as u32;
    if steer_to(state, i, duty.wreck_at, speed, within) {
        if let Some(r) = state.ships[i].rescue.as_mut() {
            r.turns_left = Some(turns);
        }
        log(
            state,
            format!(
                "{name} reaches the wreck of {} and picks up survivors.",
                duty.wreck
            ),
        );
    } else {
        log(
            state,
            format!("{name} steers for the wreck of {}.", duty.wreck),
        );
    }
}

fn steer_capture(state: &mut NavalState, i: usize, prize: &str, speed: f64) {
    let name = state.ships[i].name.clone();
    let Some(p) = idx(state, prize) else { return };
    if state.ships[p].captured_by.as_deref() == Some(name.as_str()) {
        return;
    }
    if state.ships[p].fate != Fate::Struck {
        state.ships[i].capturing = None;
        return;
    }
    let within = state.data.rules.alongside.get();
    let target = nearest_point_on_hull(&state.ships[p].hull, state.ships[i].hull.centre);
    if steer_to(state, i, target, speed, within)
        || hull_range(&state.ships[i].hull, &state.ships[p].hull) <= within
    {
        state.ships[p].captured_by = Some(name.clone());
        log(
            state,
            format!("{name} comes alongside {prize} and takes possession of her."),
        );
    } else {
        log(state, format!("{name} steers for the prize {prize}."));
    }
}

/// Sends rescuers (R28): by order, or the nearest eligible ship(s) when the owner did not.
pub fn assign_rescue(state: &mut NavalState, side: &str, wreck: &str, with: &[String], auto: bool) {
    let Some(w) = idx(state, wreck) else { return };
    let at = state.ships[w].hull.centre;
    for r in with {
        if let Some(i) = idx(state, r) {
            leave(state, r);
            state.ships[i].rescue = Some(RescueDuty {
                wreck: wreck.to_string(),
                wreck_at: at,
                turns_left: None,
            });
        }
    }
    if let Some(f) = stats::fleet_mut(state, side) {
        f.rescue_owed.retain(|x| x != wreck);
    }
    let how = if auto {
        "is sent automatically"
    } else {
        "is sent"
    };
    let how = if with.len() > 1 {
        how.replace("is sent", "are sent")
    } else {
        how.to_string()
    };
    log(
        state,
        format!(
            "{} {how} to rescue the survivors of {wreck}.",
            with.join(" and ")
        ),
    );
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

fn auto_rescue(state: &mut NavalState, side: &str) {
    let owed = stats::fleet(state, side)
        .map(|f| f.rescue_owed.clone())
        .unwrap_or_default();
    let radius = state.data.rules.rescue_radius.get();
    for wreck in owed {
        let Some(w) = idx(state, &wreck) else {
            continue;
        };
        let wreck_hull = state.ships[w].hull;
        let capital_wreck = state.ships[w].class.is_capital();
        let mut cands: Vec<(f64, String, bool)> = state
            .ships
            .iter()
            .filter(|s| {
                s.side == side
                    && s.fate == Fate::Afloat
                    && s.rescue.is_none()
                    && s.capturing.is_none()
                    && !s.critical_marker
                    && !s.anchored
            })
            .map(|s| {
                (
                    hull_range(&s.hull, &wreck_hull),
                    s.name.clone(),
                    s.class.is_capital(),
                )
            })
            .filter(|c| c.0 <= radius)
            .collect();
        cands.sort_by(|a, b| a.0.total_cmp(&b.0));
        let pick: Vec<String> = if !capital_wreck {
            cands.iter().take(1).map(|c| c.1.clone()).collect()
        } else if let Some(c) = cands.iter().find(|c| c.2) {
            vec![c.1.clone()]
        } else {
            cands.iter().take(2).map(|c| c.1.clone()).collect()
        };
        if pick.is_empty() {
            if let Some(f) = stats::fleet_mut(state, side) {
                f.rescue_owed.retain(|x| *x != wreck);
            }
            log(
                state,
                format!("No ship can reach the survivors of {wreck}."),
            );
            continue;
        }
        assign_rescue(state, side, &wreck, &pick, true);
    }
}

/// Moves one battle line in line astern; returns lines split off for ships that could not copy.
fn move_line(
    state: &mut NavalState,
    g: &Group,
    plans: &std::collections::BTreeMap<String, Plan>,
    done: &mut BTreeSet<String>,
) -> Vec<Group> {
    let mut ships: Vec<String> = g
        .ships
        .iter()
        .filter(|s| !done.contains(*s))
        .cloned()
        .collect();
    // A lead that cannot move hands the line to the next ship.
    while let Some(first) = ships.first() {
        match idx(state, first) {
            Some(i) if !immobile(state, i) => break,
            _ => {
                let n = ships.remove(0);
                leave(state, &n);
            }
        }
    }
    if ships.is_empty() {
        return vec![];
    }
    let lead = ships[0].clone();
    let Some(li) = idx(state, &lead) else {
        return vec![];
    };
    let plan = plans.get(&lead).cloned().unwrap_or_default();
    let start = state.ships[li].hull;
    let side = state.ships[li].side.clone();
    let cruise = stats::cruise(state, &side);
    let lead_max = stats::max_speed(state, &state.ships[li]);
    let hit = state.ships[li].hit_markers > 0;
    let delta = if hit {
        0.0
    } else {
        plan.turn
            .as_ref()
            .map(|b| delta_for(start.heading, b))
            .unwrap_or(0.0)
    };
    let distance = match plan.full {
        Some(Some(d)) => d.min(lead_max),
        Some(None) => lead_max,
        None if plan.halted => 0.0,
        None => cruise.min(lead_max),
    };
    done.insert(lead.clone());
    if plan.halted && plan.full.is_none() {
        state.ships[li].halted = true;
    }
    steam(state, li, delta, distance);
    describe(state, &lead, delta, distance, plan.full.is_some());
    let manoeuvred = delta.abs() > 1e-9 || plan.full.is_some();
    let mut ahead_track: Vec<Pt> = vec![start.centre];
    ahead_track.extend(state.ships[li].path.iter().skip(1).copied());
    let mut prev_start = start.centre;
    let mut split_off = Vec::new();
    for k in 1..ships.len() {
        let n = ships[k].clone();
        let Some(i) = idx(state, &n) else { continue };
        let s = &state.ships[i];
        let max_turn = stats::class_data(state, s.class).max_turn.get();
        let slow = plan.full.is_some() && stats::max_speed(state, s) + 1e-9 < distance;
        let cannot = immobile(state, i)
            || (manoeuvred && s.hit_markers > 0)
            || slow
            || delta.abs() > max_turn + 1e-9;
        if cannot {
            let rest: Vec<String> = ships[k..].to_vec();
            log(state, format!("{n} cannot follow the line and leaves it."));
            for g2 in &mut state.groups {
                g2.ships.retain(|x| !rest.contains(x));
            }
            let ng = Group {
                name: format!("{n}'s line"),
                side: side.clone(),
                ships: rest.clone(),
                formation: Formation::Astern,
                flotilla: false,
            };
            if rest.len() >= 2 {
                state.groups.push(ng.clone());
                // The ship that could not copy makes her own compulsory move (R13) at the head.
                split_off.push(ng);
            }
            break;
        }
        let my_start = s.hull.centre;
        let mut track = vec![my_start, prev_start];
        track.extend(ahead_track.iter().skip(1).copied());
        follow(state, i, &track, distance);
        done.insert(n.clone());
        if distance > 1e-9 {
            let h = state.ships[i].hull;
            let ahead = &ships[k - 1];
            log(
                state,
                format!(
                    "{n} follows in {ahead}'s wake to {},{} heading {}.",
                    tenths(h.centre.x),
                    tenths(h.centre.y),
                    tenths(h.heading)
                ),
            );
        }
        prev_start = my_start;
        ahead_track = vec![my_start];
        ahead_track.extend(state.ships[i].path.iter().skip(1).copied());
    }
    split_off
}

/// Moves a follower `distance` along `track` (R13), turning where the track turns.
fn follow(state: &mut NavalState, i: usize, track: &[Pt], distance: f64) {
    let mut pts: Vec<Pt> = Vec::new();
    for p in track {
        if pts.last().is_none_or(|q| dist(*q, *p) > 1e-6) {
            pts.push(*p);
        }
    }
    let start = state.ships[i].hull;
    let mut path = vec![start.centre];
    let mut left = distance;
    let mut pos = start.centre;
    let mut heading = start.heading;
    for w in pts.windows(2) {
        if left <= 1e-9 {
            break;
        }
        let seg = dist(w[0], w[1]);
        if seg <= 1e-9 {
            continue;
        }
        heading = bearing(w[0], w[1]);
        if seg >= left {
            pos = Pt::new(
                w[0].x + (w[1].x - w[0].x) * left / seg,
                w[0].y + (w[1].y - w[0].y) * left / seg,
            );
            left = 0.0;
        } else {
            pos = w[1];
            left -= seg;
        }
        path.push(pos);
    }
    if left > 1e-9 {
        pos = pos.offset(heading, left);
        path.push(pos);
    }
    let (w, h) = (state.width, state.height);
    let ship = &mut state.ships[i];
    ship.hull.centre = clamp_pt(pos, w, h);
    ship.hull.heading = if distance > 1e-9 {
        heading
    } else {
        start.heading
    };
    if let Some(p) = path.last_mut() {
        *p = ship.hull.centre;
    }
    ship.path = path;
    ship.moved = distance > 1e-9;
    collide(state, i);
}

/// Moves a destroyer flotilla: every DD copies the lead's turn and distance; one that cannot
/// leaves the flotilla and moves alone.
fn move_flotilla(
    state: &mut NavalState,
    g: &Group,
    plans: &std::collections::BTreeMap<String, Plan>,
    done: &mut BTreeSet<String>,
) -> Vec<Group> {
    let Some(lead) = g.ships.first().cloned() else {
        return vec![];
    };
    let Some(li) = idx(state, &lead) else {
        return vec![];
    };
    if immobile(state, li) {
        return vec![];
    }
    let plan = plans.get(&lead).cloned().unwrap_or_default();
    let side = state.ships[li].side.clone();
    let cruise = stats::cruise(state, &side);
    let lead_max = stats::max_speed(state, &state.ships[li]);
    let distance = match plan.full {
        Some(Some(d)) => d.min(lead_max),
        Some(None) => lead_max,
        None if plan.halted => 0.0,
        None => cruise.min(lead_max),
    };
    let manoeuvred = plan.turn.is_some() || plan.full.is_some();
    for n in g.ships.clone() {
        let Some(i) = idx(state, &n) else { continue };
        if done.contains(&n) {
            continue;
        }
        let s = &state.ships[i];
        let slow = plan.full.is_some() && stats::max_speed(state, s) + 1e-9 < distance;
        if n != lead && (immobile(state, i) || (manoeuvred && s.hit_markers > 0) || slow) {
            leave(state, &n);
            log(
                state,
                format!("{n} cannot keep with the flotilla and leaves it."),
            );
            continue;
        }
        let hit = s.hit_markers > 0;
        let max_turn = stats::class_data(state, s.class).max_turn.get();
        let delta = if hit {
            0.0
        } else {
            plan.turn
                .as_ref()
                .map(|b| delta_for(s.hull.heading, b))
                .unwrap_or(0.0)
                .clamp(-max_turn, max_turn)
        };
        done.insert(n.clone());
        if plan.halted && plan.full.is_none() {
            state.ships[i].halted = true;
        }
        steam(state, i, delta, distance);
        describe(state, &n, delta, distance, plan.full.is_some());
    }
    vec![]
}

/// R26: a 1"×4" belt centred `lay_astern` behind the minelayer, long side across her track.
fn lay(state: &mut NavalState, name: &str) {
    let Some(i) = idx(state, name) else { return };
    if state.ships[i].fate != Fate::Afloat {
        return;
    }
    let h = state.ships[i].hull;
    let centre = h
        .centre
        .offset(h.heading, -state.data.rules.lay_astern.get());
    let id = next_field_id(state);
    let owner = state.ships[i].side.clone();
    state.minefields.push(Minefield {
        id: id.clone(),
        owner,
        centre: clamp_pt(centre, state.width, state.height),
        heading: h.heading,
        genuine: true,
        laid_in_play: true,
        revealed: true,
    });
    log(state, format!("{name} lays minefield {id} astern."));
}

/// The next unused field id (`M<n>`).
pub fn next_field_id(state: &NavalState) -> String {
    let n = state
        .minefields
        .iter()
        .filter_map(|m| m.id.strip_prefix('M').and_then(|d| d.parse::<u32>().ok()))
        .max()
        .unwrap_or(0);
    format!("M{}", n + 1)
}

/// Step 7 companion: rescuers already alongside count down their owner's turns (R28).
pub fn rescue_countdown(state: &mut NavalState, side: &str) {
    let mut freed = Vec::new();
    for s in state
        .ships
        .iter_mut()
        .filter(|s| s.side == side && s.fate == Fate::Afloat)
    {
        let arrived_now = s.moved;
        if let Some(r) = s.rescue.as_mut()
            && let Some(k) = r.turns_left
            && !arrived_now
        {
            if k <= 1 {
                freed.push((s.name.clone(), r.wreck.clone()));
                s.rescue = None;
            } else {
                r.turns_left = Some(k - 1);
            }
        }
    }
    for (n, w) in freed {
        log(
            state,
            format!("{n} has picked up the survivors of {w} and resumes normal operations."),
        );
    }
}
