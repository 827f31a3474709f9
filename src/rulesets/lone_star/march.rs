//! One seat's movement on its card: for each unit disengaging, the morale test, smoke,
//! formation, then a move, a charge or a special action (entrench, square, occupy, vacate,
//! mount, dismount). It reads parsed orders and never resolves combat.

use std::collections::BTreeMap;

use crate::board::tabletop::{Pt, dist};
use crate::dice::Dice;
use crate::engine::Submitted;
use crate::rulesets::kit::grammar::tenths;

use super::combat::{self, Morale};
use super::data::Arm;
use super::in_force::{apply_standing, orders_of};
use super::movement::{self, allowance, walk};
use super::orders::{Leg, Order, Orders};
use super::state::{Form, Smoke, State, Unit};

fn at(p: Pt) -> String {
    format!("{},{}", tenths(p.x), tenths(p.y))
}

/// The movement of the seat holding card `card` (the sequence of play then asks the next card).
pub fn resolve_move(
    state: &mut State,
    card: usize,
    subs: &BTreeMap<String, Submitted<Orders>>,
    dice: &mut Dice,
) {
    let seat = state.cards[card].clone();
    let orders = orders_of(subs, &seat).to_vec();
    apply_standing(state, &orders);
    // Carriers move before the seat's other units, so troops may get out of a wagon that
    // has just made its halting third (R36).
    let mut names: Vec<(bool, String)> = state
        .seat_units(&seat)
        .iter()
        .map(|u| (!super::wagons::is_carrier(u), u.name.clone()))
        .collect();
    names.sort_by_key(|n| n.0);
    for (_, name) in names {
        let mine: Vec<&Order> = orders.iter().filter(|o| o.unit() == name).collect();
        move_unit(state, &name, &mine, dice);
    }
}

fn has_act(orders: &[&Order], word: &str) -> bool {
    orders
        .iter()
        .any(|o| matches!(o, Order::Act { act, .. } if *act == word))
}

/// One unit's movement: disengage, morale, smoke, formation, then move, charge or act.
fn move_unit(state: &mut State, name: &str, orders: &[&Order], dice: &mut Dice) {
    let u = state.unit(name).expect("unit").clone();
    if !u.alive() || !u.may_move() {
        return;
    }
    if u.arm.is_machine() {
        super::machines::move_machine(state, name, orders, dice);
        return;
    }
    if u.aboard.is_some() {
        // R35: a passenger rides; it acts only to get out (R36).
        if let Some(Order::Disembark { to, .. }) =
            orders.iter().find(|o| matches!(o, Order::Disembark { .. }))
        {
            super::wagons::disembark(state, name, *to);
        }
        return;
    }
    if u.arm == Arm::Windwagon {
        windwagon(state, &u, orders, dice);
        return;
    }
    if has_act(orders, "DISENGAGE") {
        disengage(state, &u);
        return;
    }
    if !u.melee.is_empty() {
        state.say(format!("{name} is in melee and may not move."));
        return;
    }
    march_on(state, &u, orders, dice);
}

/// A unit out of melee on its own feet or horses: its morale test, smoke, leaving hiding,
/// then the one thing its card does.
fn march_on(state: &mut State, u: &Unit, orders: &[&Order], dice: &mut Dice) {
    let name = u.name.as_str();
    // What the mail orders this unit to do on the card. A STANDING line is for later cases
    // and an EXTRA line for the extra move step, so neither counts; HOLD counts (no standing
    // advance then) but does not move it. A hidden unit given only these stays hidden (R28):
    // counting them revealed it ("leaves hiding") on its own card.
    let explicit = orders
        .iter()
        .any(|o| !matches!(o, Order::Standing { .. } | Order::Extra { .. }));
    let moving = orders.iter().any(|o| {
        !matches!(
            o,
            Order::Standing { .. } | Order::Extra { .. } | Order::Act { act: "HOLD", .. }
        )
    });
    let advance = u.standing.advance.flatten();
    let advances = !explicit && advance.is_some();
    if u.hidden && !moving && !advances {
        // A hidden unit that does not move stays hidden, and tests nothing in public.
        return;
    }
    let Some(may_move) = morale(state, u, dice) else {
        return;
    };
    // L12: smoke after the morale roll and before moving, even after a failed test.
    lay_smoke(state, name, orders);
    if has_act(orders, "ENTRENCH") && may_move {
        half_then(state, name, orders, Form::Entrenched, "entrenches");
        return;
    }
    if !may_move {
        return;
    }
    if u.hidden {
        state.unit_mut(name).hidden = false;
        state.say(format!("{name} leaves hiding at {}.", at(u.pos)));
    }
    let standing_advance = if explicit { None } else { advance };
    card_action(state, name, orders, standing_advance);
}

/// The first of the card's actions that applies: formation and facing, a change of state,
/// occupying, embarking, a charge, a move; with no order at all, its standing advance.
fn card_action(state: &mut State, name: &str, orders: &[&Order], standing_advance: Option<Pt>) {
    if form_and_face(state, name, orders) {
        return;
    }
    if change_state(state, name, orders) {
        return;
    }
    if has_act(orders, "OCCUPY") {
        half_then(
            state,
            name,
            orders,
            Form::Occupying,
            "occupies the building",
        );
        return;
    }
    if let Some(Order::Embark { carrier, .. }) =
        orders.iter().find(|o| matches!(o, Order::Embark { .. }))
    {
        super::wagons::embark(state, name, carrier);
        return;
    }
    if let Some(Order::Charge { target, .. }) =
        orders.iter().find(|o| matches!(o, Order::Charge { .. }))
    {
        charge(state, name, target);
        return;
    }
    if let Some(Order::Move { legs, facing, .. }) =
        orders.iter().find(|o| matches!(o, Order::Move { .. }))
    {
        let budget = allowance(state, &state.unit(name).expect("unit").clone(), false);
        go(state, name, legs, *facing, budget);
        return;
    }
    if let Some(p) = standing_advance {
        let u = state.unit(name).expect("unit").clone();
        let budget = allowance(state, &u, false);
        go(state, name, &[Leg::To(p)], None, budget);
    }
}

/// A windwagon sails (R36) on its SAIL bearing or its facing; halted, it stays so until a
/// SAIL moves it.
fn windwagon(state: &mut State, u: &Unit, orders: &[&Order], dice: &mut Dice) {
    let name = u.name.as_str();
    let heading = orders.iter().find_map(|o| match o {
        Order::Sail { bearing, .. } => Some(*bearing),
        _ => None,
    });
    let stopping = has_act(orders, "STOP");
    if u.halted && heading.is_none() && !stopping {
        // R36: a halted wagon stays halted until a SAIL moves it; HOLD or silence keeps
        // it (it sailed on its facing, so troops could never board it again).
        state.say(format!("{name} stays halted."));
        return;
    }
    super::sailing::sail(state, name, heading.unwrap_or(u.facing), stopping, dice);
}

/// DISENGAGE (L6).
fn disengage(state: &mut State, u: &Unit) {
    let name = u.name.as_str();
    // L6: once per game, no morale test, a set distance away in column (R12).
    let d = state.data.rules.disengage_distance.get();
    let (to, heading) = movement::away_from_enemy(state, u, d);
    for e in u.melee.clone() {
        if let Some(x) = state.units.iter_mut().find(|x| x.name == e) {
            x.melee.retain(|m| m != name);
        }
    }
    {
        let m = state.unit_mut(name);
        m.disengage = false;
        m.melee.clear();
        m.form = Form::Column;
        m.routing = false;
    }
    let w = walk(state, name, &[to], d * 2.0, false, None, Some(heading));
    // Short of the full distance, the player is told why (it ended 1.8" out unsaid).
    let short = if w.moved < d - 0.05 {
        format!(
            " (short of {}\": {})",
            tenths(d),
            w.stopped
                .clone()
                .unwrap_or_else(|| "rough ground costs double".to_string())
        )
    } else {
        String::new()
    };
    state.say(format!(
        "{name} disengages: {}\" away, now at {}{short}.",
        tenths(w.moved),
        at(state.unit(name).expect("unit").pos)
    ));
}

/// The morale test before moving (small units and routers): `None` when the unit routs (it
/// has fled), else whether it may move.
fn morale(state: &mut State, u: &Unit, dice: &mut Dice) -> Option<bool> {
    let name = u.name.as_str();
    let mut may_move = true;
    if u.figures.len() as f64 <= state.data.rules.morale_max_figures.get() || u.routing {
        match combat::morale(state, name, dice) {
            Morale::Pass => {
                if u.routing {
                    state.unit_mut(name).routing = false;
                    state.say(format!("{name} rallies."));
                }
            }
            Morale::NoMove if !u.routing => may_move = false,
            _ => {
                state.unit_mut(name).routing = true;
                if u.hidden {
                    state.unit_mut(name).hidden = false;
                }
                movement::flee(state, name, "routs");
                return None;
            }
        }
    }
    Some(may_move)
}

/// L12: the smoke screens the unit lays.
fn lay_smoke(state: &mut State, name: &str, orders: &[&Order]) {
    for o in orders {
        if let Order::Smoke { at: p, .. } = o {
            let u = state.unit(name).expect("unit").clone();
            if u.smoke > 0 {
                let spot = p.unwrap_or_else(|| u.pos.offset(u.facing, 2.0));
                state.unit_mut(name).smoke -= 1;
                let side = u.side.clone();
                state.smoke.push(Smoke {
                    at: spot,
                    turn: state.turn,
                    side,
                });
                state.say(format!("{name} lays a smoke screen at {}.", at(spot)));
            }
        }
    }
}

/// FORM and FACE; `true` when it formed square, which is its whole move.
fn form_and_face(state: &mut State, name: &str, orders: &[&Order]) -> bool {
    for o in orders {
        match o {
            Order::Form { form, .. } => {
                let full = *form == Form::Square;
                state.unit_mut(name).form = *form;
                state.say(format!("{name} forms {}.", form.word()));
                if full {
                    return true;
                }
            }
            Order::Face { bearing, .. } => state.unit_mut(name).facing = *bearing,
            _ => {}
        }
    }
    false
}

/// MOUNT, DISMOUNT, DISENTRENCH or VACATE, with the half move after it; `true` when one was
/// ordered (it is the unit's move).
fn change_state(state: &mut State, name: &str, orders: &[&Order]) -> bool {
    for act in ["MOUNT", "DISMOUNT", "DISENTRENCH", "VACATE"] {
        if has_act(orders, act) {
            let m = state.unit_mut(name);
            match act {
                "MOUNT" => m.mounted = true,
                "DISMOUNT" => m.mounted = false,
                _ => m.form = Form::Line,
            }
            state.say(format!("{name}: {} (half its move).", act.to_lowercase()));
            // The half move after it, if one is ordered.
            if let Some(Order::Move { legs, facing, .. }) =
                orders.iter().find(|o| matches!(o, Order::Move { .. }))
            {
                let u = state.unit(name).expect("unit").clone();
                let mut budget = allowance(state, &u, false) / 2.0;
                if act == "VACATE" {
                    // R11: a unit may always clear the building it leaves.
                    budget = budget.max(3.0);
                }
                go(state, name, legs, *facing, budget);
            }
            return true;
        }
    }
    false
}

/// Resolves legs to points.
fn points(from: Pt, legs: &[Leg]) -> Vec<Pt> {
    let mut p = from;
    legs.iter()
        .map(|l| {
            p = match l {
                Leg::To(q) => *q,
                Leg::On { inches, bearing } => p.offset(*bearing, *inches),
            };
            p
        })
        .collect()
}

fn go(state: &mut State, name: &str, legs: &[Leg], facing: Option<f64>, budget: f64) {
    let u = state.unit(name).expect("unit").clone();
    let path = points(u.pos, legs);
    // L6: a sidestep or backstep (travel more than 45° off the kept facing) at half rate;
    // `walk` judges every leg of the path against the kept facing (R46).
    let w = walk(state, name, &path, budget, facing.is_some(), None, facing);
    let pos = state.unit(name).expect("unit").pos;
    state.say(format!(
        "{name} moves {}\" to {}{}.",
        tenths(w.moved),
        at(pos),
        w.stopped.map(|s| format!(" ({s})")).unwrap_or_default()
    ));
}

/// Half a move, then the special action (ENTRENCH, OCCUPY: L12).
fn half_then(state: &mut State, name: &str, orders: &[&Order], form: Form, says: &str) {
    let u = state.unit(name).expect("unit").clone();
    let budget = allowance(state, &u, false) / 2.0;
    if let Some(Order::Move { legs, facing, .. }) =
        orders.iter().find(|o| matches!(o, Order::Move { .. }))
    {
        go(state, name, legs, *facing, budget);
    }
    if form == Form::Occupying {
        let u = state.unit(name).expect("unit").clone();
        let farm = state
            .ground
            .iter()
            .filter(|g| g.is("farm"))
            .min_by(|a, b| {
                a.area
                    .distance_to(u.pos)
                    .total_cmp(&b.area.distance_to(u.pos))
            })
            .cloned();
        match farm {
            Some(f) if f.area.contains(u.pos) || f.area.distance_to(u.pos) <= budget => {
                let c = match &f.area {
                    crate::board::terrain::Area::Polygon { points } => Pt::new(
                        points.iter().map(|p| p.x).sum::<f64>() / points.len() as f64,
                        points.iter().map(|p| p.y).sum::<f64>() / points.len() as f64,
                    ),
                    crate::board::terrain::Area::Circle { centre, .. } => *centre,
                    crate::board::terrain::Area::Band { points, .. } => points[0],
                };
                state.unit_mut(name).pos = c;
            }
            _ => {
                state.say(format!("{name} cannot reach a building to occupy."));
                return;
            }
        }
    }
    state.unit_mut(name).form = form;
    state.say(format!("{name} {says}."));
}

/// L6: a charge uses the full column allowance; within 2" it is melee, and the two close to
/// contact (R14).
fn charge(state: &mut State, name: &str, target: &str) {
    let u = state.unit(name).expect("unit").clone();
    let Some(t) = state.unit(target).filter(|t| t.alive()).cloned() else {
        state.say(format!("{name} has nothing to charge."));
        return;
    };
    let budget = allowance(state, &u, true);
    let aim = state
        .stands(&t)
        .into_iter()
        .min_by(|a, b| dist(*a, u.pos).total_cmp(&dist(*b, u.pos)))
        .unwrap_or(t.pos);
    let w = walk(state, name, &[aim], budget, false, Some(target), None);
    let me = state.unit(name).expect("unit").clone();
    let gap = state.gap(&me, &t);
    if gap <= state.data.rules.melee_range.get() + 1e-9 {
        let m = state.unit_mut(name);
        m.melee.push(target.to_string());
        m.melee_new = true;
        m.charged = true;
        let tm = state.unit_mut(target);
        tm.melee.push(name.to_string());
        tm.melee_new = true;
        state.say(format!(
            "{name} charges {target}: MELEE (moved {}\").",
            tenths(w.moved)
        ));
    } else {
        state.say(format!(
            "{name} charges {target} but falls short, {}\" away{}.",
            tenths(gap),
            w.stopped.map(|s| format!(" ({s})")).unwrap_or_default()
        ));
    }
}
