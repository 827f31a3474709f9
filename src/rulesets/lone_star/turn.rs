//! The turn of Lone Star as the README's rulings R1–R4 reconstruct it: turn-order cards, then
//! movement seat by seat in card order (morale, smoke, formation, move, charge, special
//! actions), ambushers placed, then the sealed combat step (artillery, grenades and gas,
//! standard melee and shooting all at once), stay-or-leave from melee, extra half moves in card
//! order and smoke clean-up. It reads parsed orders; it never parses text.

use std::collections::BTreeMap;

use crate::board::tabletop::{Pt, bearing, dist, heading_diff, normalize};
use crate::dice::{Dice, Faces};
use crate::engine::{Outcome, Submitted};
use crate::rulesets::kit::grammar::tenths;

use super::combat::{self, Band, Morale};
use super::data::Arm;
use super::movement::{self, allowance, walk};
use super::orders::{Aim, Leg, Order, Orders, Rule};
use super::state::{Fig, Form, Phase, Smoke, State, Unit};

fn at(p: Pt) -> String {
    format!("{},{}", tenths(p.x), tenths(p.y))
}

fn orders_of<'a>(subs: &'a BTreeMap<String, Submitted<Orders>>, seat: &str) -> &'a [Order] {
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

/// R1: the turn-order cards are drawn once per game, before turn 1, one die per card.
pub fn draw_cards(state: &mut State, dice: &mut Dice) {
    let mut pool: Vec<String> = state.seats.iter().map(|s| s.id.clone()).collect();
    let mut cards = Vec::new();
    while !pool.is_empty() {
        let k = pool.len() as u32;
        let pick = if k == 1 {
            1
        } else {
            dice.roll_one(
                format!(
                    "turn-order card {} (d{k} over the seats left)",
                    cards.len() + 1
                ),
                Faces::d(k),
            )
        };
        cards.push(pool.remove((pick - 1) as usize));
    }
    state.say(format!("Turn-order cards, face up: {}.", cards.join(", ")));
    state.cards = cards;
    next_mover(state, 0);
}

/// The next card from `from` whose seat has a unit that may move; else the combat step.
pub fn next_mover(state: &mut State, from: usize) {
    for i in from..state.cards.len() {
        let seat = &state.cards[i];
        if state.seat_units(seat).iter().any(|u| u.may_move()) {
            state.phase = Phase::Move { card: i };
            return;
        }
    }
    place_ambushers(state);
    state.phase = Phase::Combat;
}

/// L7: ambushers that will fire are placed at the end of movement, out of turn order: a hidden
/// unit with a standing ambush reveals when an enemy is within its distance (and in sight).
fn place_ambushers(state: &mut State) {
    let names: Vec<String> = state
        .units
        .iter()
        .filter(|u| u.alive() && u.hidden && u.standing.ambush.is_some())
        .map(|u| u.name.clone())
        .collect();
    for n in names {
        let u = state.unit(&n).expect("unit").clone();
        let reach = u.standing.ambush.unwrap_or(0.0);
        let victim = state
            .enemies_of(&u)
            .filter(|e| !e.hidden && state.gap(&u, e) <= reach && state.sight(u.pos, e.pos))
            .map(|e| e.name.clone())
            .next();
        if let Some(v) = victim {
            state.unit_mut(&n).hidden = false;
            state.say(format!(
                "AMBUSH! {n} is placed at {}, {v} within {}\".",
                at(u.pos),
                tenths(reach)
            ));
        }
    }
}

/// The movement of the seat holding card `card`.
pub fn resolve_move(
    state: &mut State,
    card: usize,
    subs: &BTreeMap<String, Submitted<Orders>>,
    dice: &mut Dice,
) {
    let seat = state.cards[card].clone();
    let orders = orders_of(subs, &seat).to_vec();
    apply_standing(state, &orders);
    let names: Vec<String> = state
        .seat_units(&seat)
        .iter()
        .map(|u| u.name.clone())
        .collect();
    for name in names {
        let mine: Vec<&Order> = orders.iter().filter(|o| o.unit() == name).collect();
        move_unit(state, &name, &mine, dice);
    }
    next_mover(state, card + 1);
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
    if u.arm == Arm::Windwagon {
        let heading = orders.iter().find_map(|o| match o {
            Order::Sail { bearing, .. } => Some(*bearing),
            _ => None,
        });
        let stopping = has_act(orders, "STOP");
        movement::sail(state, name, heading.unwrap_or(u.facing), stopping, dice);
        return;
    }
    if has_act(orders, "DISENGAGE") {
        // L6: once per game, no morale test, a set distance away in column (R12).
        let d = state.data.rules.disengage_distance.get();
        let (to, heading) = movement::away_from_enemy(state, &u, d);
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
        state.say(format!(
            "{name} disengages: {}\" away, now at {}.",
            tenths(w.moved),
            at(state.unit(name).expect("unit").pos)
        ));
        return;
    }
    if !u.melee.is_empty() {
        state.say(format!("{name} is in melee and may not move."));
        return;
    }
    let explicit = !orders.is_empty();
    let advance = u.standing.advance.flatten();
    if u.hidden && !explicit && advance.is_none() {
        // A hidden unit that does not move stays hidden, and tests nothing in public.
        return;
    }
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
                return;
            }
        }
    }
    // L12: smoke after the morale roll and before moving, even after a failed test.
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
    if has_act(orders, "ENTRENCH") && may_move {
        half_then(state, name, orders, Form::Entrenched, "entrenches");
        return;
    }
    if !may_move {
        return;
    }
    if u.hidden && (explicit || advance.is_some()) {
        state.unit_mut(name).hidden = false;
        state.say(format!("{name} leaves hiding at {}.", at(u.pos)));
    }
    for o in orders {
        match o {
            Order::Form { form, .. } => {
                let full = *form == Form::Square;
                state.unit_mut(name).form = *form;
                state.say(format!("{name} forms {}.", form.word()));
                if full {
                    return;
                }
            }
            Order::Face { bearing, .. } => state.unit_mut(name).facing = *bearing,
            _ => {}
        }
    }
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
            return;
        }
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
    if !explicit && let Some(p) = advance {
        let u = state.unit(name).expect("unit").clone();
        let budget = allowance(state, &u, false);
        go(state, name, &[Leg::To(p)], None, budget);
    }
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
    // L6: a sidestep or backstep (travel more than 45° off the kept facing) at half rate.
    let sidestep = facing.is_some_and(|f| {
        path.first()
            .is_some_and(|p| heading_diff(f, bearing(u.pos, *p)).abs() > 45.0)
    });
    let w = walk(state, name, &path, budget, sidestep, None, facing);
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

/// The combat step's choices for one unit.
#[derive(Default, Clone)]
struct Choice {
    aim: Option<Aim>,
    prisoners: Option<bool>,
    gas: bool,
    reveal: bool,
}

fn choices(state: &State, subs: &BTreeMap<String, Submitted<Orders>>) -> BTreeMap<String, Choice> {
    let mut out: BTreeMap<String, Choice> = BTreeMap::new();
    for (seat, sub) in subs {
        let Submitted::Orders(orders) = sub else {
            continue;
        };
        for o in orders {
            let Some(u) = state.unit(o.unit()) else {
                continue;
            };
            if u.seat != *seat {
                continue;
            }
            let c = out.entry(u.name.clone()).or_default();
            match o {
                Order::Fire { aim, .. } => c.aim = Some(aim.clone()),
                Order::Declare {
                    what: "PRISONERS", ..
                } => c.prisoners = Some(true),
                Order::Declare { what: "GAS", .. } => c.gas = true,
                Order::Declare {
                    what: "GRENADES", ..
                } => c.gas = false,
                Order::Declare { what: "REVEAL", .. } => c.reveal = true,
                _ => {}
            }
        }
    }
    out
}

/// The band a firer reaches a target in, if any (L6: melee 0–2", short, long).
pub fn band(state: &State, u: &Unit, t: &Unit) -> Option<Band> {
    let gap = state.gap(u, t);
    if u.melee.contains(&t.name) {
        Some(Band::Melee)
    } else if gap <= u.short {
        Some(Band::Short)
    } else if gap <= u.long {
        Some(Band::Long)
    } else {
        None
    }
}

/// May `u` shoot at `t`: seen, in sight and arc, in range, not in a melee (R16).
pub fn may_shoot(state: &State, u: &Unit, t: &Unit) -> bool {
    t.alive()
        && t.side != u.side
        && !t.hidden
        && t.melee.is_empty()
        && u.melee.is_empty()
        && state.sight(u.pos, t.pos)
        && state.in_front(u, t.pos)
        && band(state, u, t).is_some()
}

/// The nearest enemy `u` may shoot at (the default target rule).
pub fn nearest_target(state: &State, u: &Unit) -> Option<String> {
    state
        .enemies_of(u)
        .filter(|t| may_shoot(state, u, t))
        .min_by(|a, b| state.gap(u, a).total_cmp(&state.gap(u, b)))
        .map(|t| t.name.clone())
}

/// The sealed combat step, all at once (L13, L15, L21).
pub fn resolve_combat(
    state: &mut State,
    subs: &BTreeMap<String, Submitted<Orders>>,
    dice: &mut Dice,
) {
    for (_, sub) in subs.iter() {
        if let Submitted::Orders(o) = sub {
            apply_standing(state, o);
        }
    }
    let picks = choices(state, subs);
    state.blasts.clear();
    for u in state.units.iter_mut() {
        u.in_combat = false;
        u.ambushed_by.clear();
    }
    // Hidden units that fire are placed now (L7).
    let hidden: Vec<String> = state
        .units
        .iter()
        .filter(|u| u.hidden && u.alive())
        .map(|u| u.name.clone())
        .collect();
    for h in hidden {
        let c = picks.get(&h).cloned().unwrap_or_default();
        if c.reveal || matches!(c.aim, Some(Aim::Unit(_)) | Some(Aim::Point(_))) {
            state.unit_mut(&h).hidden = false;
            let p = state.unit(&h).expect("unit").pos;
            state.say(format!("AMBUSH! {h} is placed at {}.", at(p)));
        }
    }
    artillery(state, &picks, dice);
    melee_specials(state, &picks, dice);
    standard_attacks(state, &picks, dice);
    for u in state.units.iter_mut() {
        if u.gone.is_none() && u.figures.is_empty() {
            u.gone = Some("destroyed".into());
        }
    }
    let gone: Vec<String> = state
        .units
        .iter()
        .filter(|u| u.gone.is_some())
        .map(|u| u.name.clone())
        .collect();
    for u in state.units.iter_mut() {
        u.melee.retain(|m| !gone.contains(m));
    }
    if state.units.iter().any(|u| u.alive() && !u.melee.is_empty()) {
        state.phase = Phase::MeleeEnd;
    } else {
        begin_extra(state);
    }
}

fn artillery(state: &mut State, picks: &BTreeMap<String, Choice>, dice: &mut Dice) {
    let guns: Vec<String> = state
        .units
        .iter()
        .filter(|u| u.alive() && u.gun.is_some())
        .map(|u| u.name.clone())
        .collect();
    let turn = state.turn;
    let mut shots = Vec::new();
    for g in guns {
        let u = state.unit(&g).expect("unit").clone();
        let card = u.gun.clone().expect("gun");
        if card.ammo == 0 {
            continue;
        }
        let aim = match picks.get(&g).and_then(|c| c.aim.clone()) {
            Some(Aim::Point(p)) => Some(p),
            Some(_) => None,
            None if u.standing.target_nearest != Some(false) => state
                .enemies_of(&u)
                .filter(|e| {
                    !e.hidden
                        && e.melee.is_empty()
                        && (card.range_min..=card.range_max).contains(&dist(u.pos, e.pos))
                        && state.in_front(&u, e.pos)
                })
                .min_by(|a, b| dist(a.pos, u.pos).total_cmp(&dist(b.pos, u.pos)))
                .map(|e| e.pos),
            None => None,
        };
        if let Some(p) = aim {
            shots.push((g, p, card));
        }
    }
    // All guns fire at once, before other combat; casualties come off before small arms.
    for (g, aim, card) in shots {
        state.unit_mut(&g).gun.as_mut().expect("gun").ammo -= 1;
        let roll = dice.roll_one(
            format!("turn {turn} {g} drift (d10 read 0-9)"),
            Faces::ZeroBased { sides: 10 },
        );
        let drift = roll.saturating_sub(card.drift_drm);
        let landed = if drift == 0 {
            aim
        } else {
            // R17: the numeral's orientation on the table is a second d10: bearing = 36° × it.
            let dir = dice.roll_one(
                format!("turn {turn} {g} drift direction (d10 read 0-9, ×36°)"),
                Faces::ZeroBased { sides: 10 },
            );
            aim.offset(36.0 * dir as f64, drift as f64 * card.drift_per)
        };
        let radius = card.blast / 2.0;
        state.blasts.push(super::state::Blast {
            at: landed,
            radius,
            gun: g.clone(),
        });
        state.say(format!(
            "{g} fires at {}: drift {roll}{} lands at {}.",
            at(aim),
            if drift == 0 {
                " (on target)".to_string()
            } else {
                format!(" = {}\"", tenths(drift as f64 * card.drift_per))
            },
            at(landed)
        ));
        let hit: Vec<String> = state
            .units
            .iter()
            .filter(|u| u.alive() && state.stands(u).iter().any(|s| dist(*s, landed) <= radius))
            .map(|u| u.name.clone())
            .collect();
        for t in hit {
            let tu = state.unit(&t).expect("unit").clone();
            let cover = state.area_cover(&tu)
                || state.wall_between(&tu, landed)
                || tu.form == Form::Occupying
                || tu.form == Form::Entrenched;
            let n = card.dice as i32 - cover as i32 - (tu.mounted as i32);
            if tu.hidden {
                state.unit_mut(&t).hidden = false;
            }
            if n <= 0 {
                continue;
            }
            let pips = dice.roll(
                format!("turn {turn} {g} blast on {t} ({n}d6, every pip a hit)"),
                Faces::d(6),
                n as usize,
            );
            let hits: u32 = pips.iter().sum();
            state.say(format!(
                "{g}'s blast catches {t}: {pips:?} = {hits} hits{}.",
                if cover { " (cover: one die fewer)" } else { "" }
            ));
            state.unit_mut(&t).in_combat = true;
            combat::take_hits(state, &t, hits, false, dice);
        }
    }
}

/// The melee groups: the enemies a unit fights.
fn melee_enemies(state: &State, name: &str) -> Vec<String> {
    state
        .unit(name)
        .map(|u| {
            u.melee
                .iter()
                .filter(|m| state.unit(m).is_some_and(|x| x.alive()))
                .cloned()
                .collect()
        })
        .unwrap_or_default()
}

/// Picks the one enemy an attack's hits fall on (L12, multi-unit melee: at random).
fn pick_enemy(state: &State, enemies: &[String], label: String, dice: &mut Dice) -> Option<String> {
    let _ = state;
    match enemies.len() {
        0 => None,
        1 => Some(enemies[0].clone()),
        n => Some(enemies[(dice.roll_one(label, Faces::d(n as u32)) - 1) as usize].clone()),
    }
}

/// Grenades, then gas, in every melee (L6, L12); casualties come off at once.
fn melee_specials(state: &mut State, picks: &BTreeMap<String, Choice>, dice: &mut Dice) {
    let turn = state.turn;
    let in_melee: Vec<String> = state
        .units
        .iter()
        .filter(|u| u.alive() && !u.melee.is_empty() && u.count(Fig::Grenadier) > 0)
        .map(|u| u.name.clone())
        .collect();
    let mut gassers = Vec::new();
    // Grenades of both sides are simultaneous: roll all, then apply.
    let mut volleys = Vec::new();
    for g in &in_melee {
        let u = state.unit(g).expect("unit").clone();
        let wants_gas = picks.get(g).is_some_and(|c| c.gas) && u.gas > 0 && u.gas_masks;
        if wants_gas {
            gassers.push(g.clone());
            continue;
        }
        let n = u.count(Fig::Grenadier);
        let enemies = melee_enemies(state, g);
        let Some(t) = pick_enemy(
            state,
            &enemies,
            format!("turn {turn} {g} grenades fall on (d{})", enemies.len()),
            dice,
        ) else {
            continue;
        };
        let pips = dice.roll(
            format!("turn {turn} {g} grenades ({n}d6, every pip a hit)"),
            Faces::d(6),
            n,
        );
        volleys.push((g.clone(), t, pips));
    }
    for (g, t, pips) in volleys {
        let tu = state.unit(&t).expect("unit").clone();
        let mut hits: i32 = pips.iter().sum::<u32>() as i32;
        let mut notes = Vec::new();
        if tu.armored {
            hits -= pips.len() as i32;
            notes.push(format!("armoured −{}", pips.len()));
        }
        if tu.count(Fig::RedCross) > 0 {
            // R18: the whole volley is one attack for the Red Cross man.
            hits -= 1;
            notes.push("Red Cross −1".to_string());
        }
        let hits = hits.max(0) as u32;
        state.say(format!(
            "{g} throws grenades at {t}: {pips:?} = {hits} hits{}.",
            if notes.is_empty() {
                String::new()
            } else {
                format!(" ({})", notes.join(", "))
            }
        ));
        combat::take_hits(state, &t, hits, true, dice);
    }
    let r = state.data.rules.clone();
    for g in gassers {
        let u = state.unit(&g).expect("unit").clone();
        let n = u.count(Fig::Grenadier).min(u.gas as usize);
        state.unit_mut(&g).gas -= n as u32;
        // In melee gas reaches every unit of the melee, friend and foe (L12).
        let mut everyone: Vec<String> = melee_enemies(state, &g);
        for e in everyone.clone() {
            for f in melee_enemies(state, &e) {
                if !everyone.contains(&f) {
                    everyone.push(f);
                }
            }
        }
        state.say(format!("{g} throws {n} gas grenade(s)."));
        for _ in 0..n {
            for v in &everyone {
                let vu = state.unit(v).expect("unit").clone();
                if !vu.alive() {
                    continue;
                }
                if vu.gas_masks {
                    let roll =
                        dice.roll_one(format!("turn {turn} gas on masked {v} (d6)"), Faces::d(6));
                    if roll <= r.gas_attacker_loss_on.get() as u32 {
                        state.say(format!("{v}: a mask fails ({roll})."));
                        combat::lose_without_hits(state, v, 1, dice);
                    }
                } else {
                    let roll = dice.roll_one(format!("turn {turn} gas on {v} (d6)"), Faces::d(6));
                    if roll >= r.gas_target_loss_from.get() as u32 {
                        state.say(format!("{v} is gassed ({roll}): a figure is lost."));
                        combat::lose_without_hits(state, v, 1, dice);
                    } else {
                        state.say(format!("{v} escapes the gas ({roll})."));
                    }
                }
            }
        }
    }
}

/// Standard melee attacks and all shooting, simultaneous: every attack is rolled on the
/// figures as they stand, then all hits land.
fn standard_attacks(state: &mut State, picks: &BTreeMap<String, Choice>, dice: &mut Dice) {
    let turn = state.turn;
    let div = state.data.rules.combat_divisor.int();
    let mut landed: Vec<(String, String, u32, bool, bool)> = Vec::new();
    let names: Vec<String> = state
        .units
        .iter()
        .filter(|u| u.alive() && !u.hidden && u.gun.is_none())
        .map(|u| u.name.clone())
        .collect();
    for name in names {
        let u = state.unit(&name).expect("unit").clone();
        let c = picks.get(&name).cloned().unwrap_or_default();
        let (target, band) = if !u.melee.is_empty() {
            let enemies = melee_enemies(state, &name);
            let Some(t) = pick_enemy(
                state,
                &enemies,
                format!(
                    "turn {turn} {name}'s melee attack falls on (d{})",
                    enemies.len()
                ),
                dice,
            ) else {
                continue;
            };
            (t, Band::Melee)
        } else {
            if u.routing || u.arm == Arm::Windwagon {
                continue;
            }
            let t = match &c.aim {
                Some(Aim::Unit(t)) => Some(t.clone()),
                Some(_) => None,
                None if u.standing.target_nearest == Some(false) => None,
                None => nearest_target(state, &u),
            };
            let Some(t) = t else { continue };
            let tu = state.unit(&t).expect("unit");
            if !may_shoot(state, &u, tu) {
                state.tell(
                    &u.seat,
                    format!("{name} cannot fire at {t} (out of sight, arc or range, or in melee)."),
                );
                continue;
            }
            let b = band(state, &u, tu).expect("in range");
            (t, b)
        };
        let tu = state.unit(&target).expect("unit").clone();
        let base = combat::strength(state, &u, band);
        let mods = combat::modifiers(state, &u, &tu, band);
        let total = base + mods.iter().map(|m| m.1).sum::<i32>();
        let n = combat::dice_for(total, div);
        let (pips, mut hits) = combat::roll_standard(
            dice,
            format!("turn {turn} {name} at {target}, {} ({n}d6)", band.word()),
            n,
        );
        let red_cross = band == Band::Melee && tu.count(Fig::RedCross) > 0 && hits > 0;
        if red_cross {
            hits -= 1;
        }
        if u.heavy() == Some(super::data::Heavy::Flamethrower)
            && u.flame_shots > 0
            && band != Band::Long
        {
            state.unit_mut(&name).flame_shots -= 1;
        }
        let mods_text: Vec<String> = mods.iter().map(|(w, v)| format!("{w} {v:+}")).collect();
        state.say(format!(
            "{name} {} {target} ({}): strength {base}{} = {total} → {n}d6 {pips:?} = {hits} hits{}.",
            if band == Band::Melee { "fights" } else { "fires at" },
            band.word(),
            if mods_text.is_empty() { String::new() } else { format!(" {}", mods_text.join(" ")) },
            if red_cross { " (Red Cross −1)" } else { "" }
        ));
        let prisoners =
            band == Band::Melee && c.prisoners.or(u.standing.prisoners).unwrap_or(false);
        landed.push((
            name.clone(),
            target.clone(),
            hits,
            band == Band::Melee,
            prisoners,
        ));
        state.unit_mut(&name).in_combat = true;
        state.unit_mut(&target).in_combat = true;
    }
    let per = state.data.rules.prisoners_per_guard.get() as u32;
    for (by, target, hits, melee, prisoners) in landed {
        let lost = combat::take_hits(state, &target, hits, melee, dice);
        if prisoners && !lost.is_empty() {
            let p = lost.len() as u32;
            let guards = p.div_ceil(per);
            let u = state.unit_mut(&by);
            u.prisoners += p;
            let mut g = 0;
            while g < guards
                && u.figures.len() > 1
                && let Some(i) = u.figures.iter().position(|f| *f == Fig::Trooper)
            {
                u.figures.remove(i);
                u.guards += 1;
                g += 1;
            }
            state.say(format!(
                "{by} takes {p} prisoner(s); {g} guard(s) march them 4\" to the rear."
            ));
        }
    }
}

/// End of the turn in melee: stay or leave, the roll-off, and who retreats (L6–L7).
pub fn resolve_melee_end(
    state: &mut State,
    subs: &BTreeMap<String, Submitted<Orders>>,
    dice: &mut Dice,
) {
    let mut wish: BTreeMap<String, bool> = BTreeMap::new();
    for (seat, sub) in subs {
        if let Submitted::Orders(o) = sub {
            apply_standing(state, o);
            for ord in o {
                if let Order::Declare { unit, what } = ord
                    && state.unit(unit).is_some_and(|u| u.seat == *seat)
                {
                    match *what {
                        "STAY" => {
                            wish.insert(unit.clone(), true);
                        }
                        "LEAVE" => {
                            wish.insert(unit.clone(), false);
                        }
                        _ => {}
                    }
                }
            }
        }
    }
    let turn = state.turn;
    let mut pairs = Vec::new();
    for u in state.units.iter().filter(|u| u.alive()) {
        for e in &u.melee {
            if u.name < *e {
                pairs.push((u.name.clone(), e.clone()));
            }
        }
    }
    for (a, b) in pairs {
        let (ua, ub) = (
            state.unit(&a).expect("unit").clone(),
            state.unit(&b).expect("unit").clone(),
        );
        if !ua.alive() || !ub.alive() || !ua.melee.contains(&b) {
            continue;
        }
        // R19: silence, with no standing order, stays.
        let stay = |u: &Unit| {
            wish.get(&u.name)
                .copied()
                .or(u.standing.stay)
                .unwrap_or(true)
        };
        let (sa, sb) = (stay(&ua), stay(&ub));
        if sa && sb {
            state.say(format!("{a} and {b} stay locked in melee."));
            continue;
        }
        if sa != sb {
            let (stayer, leaver) = if sa { (&ua, &ub) } else { (&ub, &ua) };
            let rs = dice.roll_one(
                format!("turn {turn} {} stays in melee (d6)", stayer.name),
                Faces::d(6),
            );
            let rl = dice.roll_one(
                format!("turn {turn} {} leaves melee (d6)", leaver.name),
                Faces::d(6),
            );
            let bonus = state.data.rules.retreat_fewer_stands_bonus.get() as u32;
            let (fs, fl) = (stayer.figures.len(), leaver.figures.len());
            let (s, l) = (
                rs + if fs < fl { bonus } else { 0 },
                rl + if fl < fs { bonus } else { 0 },
            );
            state.say(format!(
                "Roll-off: {} (stays) {s} against {} (leaves) {l}.",
                stayer.name, leaver.name
            ));
            if s > l {
                state.say(format!(
                    "{} holds {} in the melee.",
                    stayer.name, leaver.name
                ));
                continue;
            }
        }
        let loser = who_retreats(&ua, &ub);
        let other = if loser == a { &b } else { &a };
        state.say(format!(
            "{loser} must retreat from {other} ({}).",
            retreat_reason(&ua, &ub)
        ));
        for x in [&a, &b] {
            let other = if *x == a { &b } else { &a };
            state.unit_mut(x).melee.retain(|m| m != other);
        }
        if state.unit(&loser).expect("unit").melee.is_empty() {
            retreat(state, &loser, other);
        }
    }
    for u in state.units.iter_mut() {
        u.melee_new = false;
        if u.melee.is_empty() {
            u.charged = false;
        }
    }
    begin_extra(state);
}

/// Who retreats (L7 criteria; R20 stands in for the lost criterion 1).
pub fn who_retreats(a: &Unit, b: &Unit) -> String {
    retreat_rule(a, b).0
}

fn retreat_reason(a: &Unit, b: &Unit) -> &'static str {
    retreat_rule(a, b).1
}

fn retreat_rule(a: &Unit, b: &Unit) -> (String, &'static str) {
    if a.routing != b.routing {
        let r = if a.routing { a } else { b };
        return (r.name.clone(), "criterion 1: it is routing");
    }
    let (na, nb) = (a.figures.len(), b.figures.len());
    if na * 2 <= nb {
        return (a.name.clone(), "criterion 2: half the stands or fewer");
    }
    if nb * 2 <= na {
        return (b.name.clone(), "criterion 2: half the stands or fewer");
    }
    if a.lost_this_turn != b.lost_this_turn {
        let r = if a.lost_this_turn > b.lost_this_turn {
            a
        } else {
            b
        };
        return (r.name.clone(), "criterion 3: it lost more figures");
    }
    // Criterion 4: the original holder of the position (the one charged) gives way.
    // Neither (or both) charged: the first by name, so the rule never depends on seat order.
    let r = match (a.charged, b.charged) {
        (true, false) => b,
        (false, true) => a,
        _ if a.name < b.name => a,
        _ => b,
    };
    (
        r.name.clone(),
        "criterion 4: the holder of the position gives way",
    )
}

/// A full column move away, ending in line facing the enemy (L7).
fn retreat(state: &mut State, name: &str, from: &str) {
    let u = state.unit(name).expect("unit").clone();
    let inches = allowance(state, &u, true);
    let enemy = state.unit(from).map(|e| e.pos).unwrap_or(u.pos);
    let heading = bearing(enemy, u.pos);
    let to = u.pos.offset(heading, inches);
    state.unit_mut(name).form = Form::Column;
    walk(state, name, &[to], inches, false, None, Some(heading));
    let m = state.unit_mut(name);
    m.form = Form::Line;
    m.facing = normalize(heading + 180.0);
    let p = m.pos;
    state.say(format!(
        "{name} retreats to {}, in line facing the enemy.",
        at(p)
    ));
}

fn eligible_extra(u: &Unit) -> bool {
    u.alive()
        && u.on_foot()
        && !u.in_combat
        && u.melee.is_empty()
        && !u.routing
        && !u.hidden
        && u.form != Form::Square
        && u.form != Form::Entrenched
        && u.form != Form::Occupying
}

pub fn needs_extra(u: &Unit) -> bool {
    eligible_extra(u)
}

fn begin_extra(state: &mut State) {
    if state.units.iter().any(eligible_extra) {
        state.phase = Phase::Extra;
    } else {
        end_turn(state);
    }
}

/// Extra half moves in card order (L6, R4), never into melee.
pub fn resolve_extra(state: &mut State, subs: &BTreeMap<String, Submitted<Orders>>) {
    for (_, sub) in subs.iter() {
        if let Submitted::Orders(o) = sub {
            apply_standing(state, o);
        }
    }
    let melee = state.data.rules.melee_range.get();
    let frac = state.data.rules.extra_move_fraction.get();
    for seat in state.cards.clone() {
        let names: Vec<String> = state
            .seat_units(&seat)
            .iter()
            .filter(|u| eligible_extra(u))
            .map(|u| u.name.clone())
            .collect();
        for n in names {
            let u = state.unit(&n).expect("unit").clone();
            let to = u.extra_plan.or(u.standing.extra).flatten();
            let Some(to) = to else { continue };
            let budget = allowance(state, &u, false) * frac;
            let before = u.pos;
            walk(state, &n, &[to], budget, false, None, None);
            // Not into melee: give back ground until clear of every enemy by the melee range.
            for _ in 0..80 {
                let me = state.unit(&n).expect("unit").clone();
                if !state
                    .enemies_of(&me)
                    .any(|e| !e.hidden && state.gap(&me, e) <= melee)
                    || dist(me.pos, before) < 0.01
                {
                    break;
                }
                let back = bearing(me.pos, before);
                state.unit_mut(&n).pos = me.pos.offset(back, 0.25_f64.min(dist(me.pos, before)));
            }
            let p = state.unit(&n).expect("unit").pos;
            state.say(format!("{n} makes its extra half move to {}.", at(p)));
        }
    }
    end_turn(state);
}

/// Smoke of the previous turn lifts; the turn ends; the game may end (R21).
pub fn end_turn(state: &mut State) {
    let t = state.turn;
    state.smoke.retain(|s| s.turn >= t);
    for u in state.units.iter_mut() {
        u.lost_this_turn = 0;
        u.extra_plan = None;
    }
    for u in state.units.iter().filter(|u| u.prisoners > 0 && u.alive()) {
        let _ = u;
    }
    state.turn += 1;
    if let Some(o) = judge(state) {
        state.say(format!("The battle is over: {}", o.summary));
        state.outcome = Some(o);
        state.phase = Phase::Over;
        return;
    }
    next_mover(state, 0);
}

/// Objectives held at the turn limit, or a side with nothing left (R21).
pub fn judge(state: &State) -> Option<Outcome> {
    let standing = |side: &str| {
        state
            .units
            .iter()
            .any(|u| u.side == side && u.alive() && !u.routing)
    };
    let sides: Vec<String> = state.sides.iter().map(|s| s.0.clone()).collect();
    let left: Vec<&String> = sides.iter().filter(|s| standing(s)).collect();
    if left.len() == 1 {
        return Some(Outcome {
            winners: vec![left[0].clone()],
            summary: format!("{} alone holds the field.", state.side_name(left[0])),
        });
    }
    if left.is_empty() {
        return Some(Outcome {
            winners: vec![],
            summary: "no side holds the field.".into(),
        });
    }
    if state.turn <= state.turns {
        return None;
    }
    let mut score: BTreeMap<String, u32> = sides.iter().map(|s| (s.clone(), 0)).collect();
    let mut held = Vec::new();
    for o in &state.objectives {
        let c = super::data::pt(o.at);
        let holders: Vec<&String> = sides
            .iter()
            .filter(|s| {
                state
                    .units
                    .iter()
                    .any(|u| u.side == **s && u.alive() && !u.routing && dist(u.pos, c) <= o.radius)
            })
            .collect();
        if holders.len() == 1 {
            *score.get_mut(holders[0]).expect("side") += o.points;
            held.push(format!("{} holds {}", state.side_name(holders[0]), o.name));
        }
    }
    for u in state.units.iter() {
        *score.get_mut(&u.side).expect("side") += u.prisoners;
    }
    let best = score.values().max().copied().unwrap_or(0);
    let winners: Vec<String> = score
        .iter()
        .filter(|(_, v)| **v == best)
        .map(|(k, _)| k.clone())
        .collect();
    let text: Vec<String> = score
        .iter()
        .map(|(k, v)| format!("{} {v}", state.side_name(k)))
        .collect();
    Some(Outcome {
        winners: if winners.len() == 1 { winners } else { vec![] },
        summary: format!(
            "turn limit reached; {}; points (objectives and prisoners): {}.",
            if held.is_empty() {
                "no objective held".into()
            } else {
                held.join(", ")
            },
            text.join(", ")
        ),
    })
}

/// Units a seat must be asked about in the combat step (no standing order covers them).
pub fn combat_questions(state: &State, seat: &str) -> Vec<String> {
    let mut out = Vec::new();
    for u in state.seat_units(seat) {
        if u.hidden {
            let near = state
                .enemies_of(u)
                .any(|e| !e.hidden && state.gap(u, e) <= u.long);
            if near && u.standing.ambush.is_none() {
                out.push(format!("{}: reveal and fire, or stay hidden?", u.name));
            }
            continue;
        }
        if let Some(g) = &u.gun {
            let any = state
                .enemies_of(u)
                .any(|e| !e.hidden && (g.range_min..=g.range_max).contains(&dist(u.pos, e.pos)));
            if any && g.ammo > 0 && u.standing.target_nearest.is_none() {
                out.push(format!("{}: aim point (FIRE {} AT x,y)?", u.name, u.name));
            }
            continue;
        }
        if !u.melee.is_empty() {
            if u.standing.prisoners.is_none() {
                out.push(format!("{}: take prisoners?", u.name));
            }
            continue;
        }
        if u.standing.target_nearest.is_none() && !u.routing && nearest_target(state, u).is_some() {
            out.push(format!("{}: target?", u.name));
        }
    }
    out
}
