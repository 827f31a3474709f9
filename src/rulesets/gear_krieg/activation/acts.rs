//! What a unit does besides moving in an activation: fire (and the checks a FIRE order is
//! held to), melee, rally, and the enemy's overwatch and interrupts while it moves.

use crate::board::tabletop::{bearing, dist};
use crate::dice::Dice;
use crate::engine::LogLine;
use crate::rulesets::kit::grammar::tenths;
use crate::rulesets::kit::roster::{Roster, TwoSides};

use super::super::combat;
use super::super::data::{RulesetData, WeaponData};
use super::super::roll;
use super::super::state::{Act, Filter, FireMode, GkState, Melee, Paused, Progress, Unit};
use super::super::stats::{self, Task};
use super::moving::{leg, turn};
use super::{Ctx, EPS, Flow, fail, unit_of};

/// Spends an Action (infantry: one Action covers one FIRE per weapon type, p.5).
pub(super) fn take_action(
    state: &mut GkState,
    name: &str,
    p: &mut Progress,
    fire_key: Option<&str>,
) -> Result<(), String> {
    let u = unit_of(state, name);
    if u.defensive {
        return Err("Defensive Maneuvers: no actions this round".into());
    }
    if u.is_infantry()
        && let Some(k) = fire_key
        && !p.volley.is_empty()
        && !p.volley.iter().any(|v| v.eq_ignore_ascii_case(k))
    {
        p.volley.push(k.to_string());
        return Ok(());
    }
    if u.actions_left() == 0 {
        return Err(format!(
            "no Action left ({} used of {})",
            u.actions_used, u.actions
        ));
    }
    if let Some(m) = state.unit_mut(name) {
        m.actions_used += 1;
    }
    p.volley = fire_key.map(|k| vec![k.to_string()]).unwrap_or_default();
    p.acted = true;
    Ok(())
}

/// Checks a FIRE order from the unit's present position; returns the ammunition it needs.
pub fn check_fire(
    state: &GkState,
    u: &Unit,
    fire: &super::super::state::Fire,
    targets: bool,
) -> Result<u32, String> {
    let data = &state.data;
    let Some(w) = stats::weapon(data, u, &fire.weapon) else {
        let keys: Vec<&str> = stats::weapons(data, u)
            .iter()
            .map(|w| w.key.as_str())
            .collect();
        return Err(format!(
            "{} has no weapon `{}` (it has {})",
            u.name,
            fire.weapon,
            keys.join(", ")
        ));
    };
    let max_rof = stats::rof(data, u, w);
    if fire.rof > max_rof {
        return Err(format!("the {} has ROF {max_rof}", w.key));
    }
    let enemy = |t: &str| -> Result<Unit, String> {
        match state.unit(t) {
            None => Err(format!("no unit `{t}`")),
            Some(t) if t.side == u.side => Err(format!("{} is on your side", t.name)),
            Some(t) if !t.alive() => Err(format!("{} is destroyed", t.name)),
            Some(t) => Ok(t.clone()),
        }
    };
    let ammo_left = u.ammo_left(&w.key);
    match &fire.mode {
        FireMode::At(t) => {
            let t = enemy(t)?;
            if targets {
                combat::can_fire_at(state, u, u.pos, t.pos, w)?;
            }
            burst(data, w, fire.rof, ammo_left)
        }
        FireMode::Walk(ts) => {
            if fire.rof == 0 {
                return Err("walking fire needs ROF 1 or more (add ROF n)".into());
            }
            if ts.len() as u32 > fire.rof + 1 {
                return Err(format!(
                    "walking fire at ROF {} reaches at most {} targets",
                    fire.rof,
                    fire.rof + 1
                ));
            }
            for (i, a) in ts.iter().enumerate() {
                walked_over(state, u, w, &ts[..i], a, targets, &enemy)?;
            }
            burst(data, w, fire.rof, ammo_left)
        }
        FireMode::Saturate(at) => {
            if fire.rof == 0 {
                return Err("saturation fire needs ROF 1 or more (add ROF n)".into());
            }
            let d = dist(u.pos, *at);
            if d > 2.0 * w.base_range.get() + EPS {
                return Err(format!(
                    "the zone must lie within Medium range ({} cm); it is {} cm away",
                    2.0 * w.base_range.get(),
                    tenths(d)
                ));
            }
            if let Some(left) = ammo_left
                && left < stats::saturation_min(data, w)
            {
                return Err(format!(
                    "saturation needs at least {} rounds; {left} left",
                    stats::saturation_min(data, w)
                ));
            }
            if targets {
                combat::can_fire_at(state, u, u.pos, *at, w)?;
            }
            Ok(0)
        }
    }
}

/// The rounds a burst at `rof` takes, when the weapon has them left.
fn burst(
    data: &RulesetData,
    w: &WeaponData,
    rof: u32,
    ammo_left: Option<u32>,
) -> Result<u32, String> {
    let need = stats::burst_ammo(data, w, rof);
    if let Some(left) = ammo_left
        && left < need
    {
        return Err(format!(
            "the {} has {left} rounds left, needs {need}",
            w.key
        ));
    }
    Ok(need)
}

/// One target of walking fire: named once, an enemy, not walked over by this weapon this
/// round, and (when targets are checked) one the weapon can fire at.
fn walked_over(
    state: &GkState,
    u: &Unit,
    w: &WeaponData,
    before: &[String],
    a: &String,
    targets: bool,
    enemy: &dyn Fn(&str) -> Result<Unit, String>,
) -> Result<(), String> {
    if before.contains(a) {
        return Err(format!("{a} is named twice"));
    }
    let t = enemy(a)?;
    if u.walked
        .iter()
        .any(|(k, n)| k.eq_ignore_ascii_case(&w.key) && *n == t.name)
    {
        return Err(format!(
            "the {} already walked fire over {} this round",
            w.key, t.name
        ));
    }
    if targets {
        combat::can_fire_at(state, u, u.pos, t.pos, w).map_err(|e| format!("{a}: {e}"))?;
    }
    Ok(())
}

pub(super) fn fire(
    state: &mut GkState,
    p: &mut Paused,
    ctx: &mut Ctx,
    idx: usize,
    f: &super::super::state::Fire,
) {
    let name = p.block.unit.clone();
    let u = unit_of(state, &name);
    let need = match check_fire(state, &u, f, ctx.targets || ctx.live()) {
        Ok(n) => n,
        Err(e) => return fail(state, ctx, idx, &name, e),
    };
    if let Err(e) = take_action(state, &name, &mut p.progress, Some(&f.weapon)) {
        return fail(state, ctx, idx, &name, e);
    }
    let key = stats::weapon(&state.data, &u, &f.weapon)
        .map(|w| w.key.clone())
        .unwrap_or_default();
    let Some(dice) = ctx.dice.as_deref_mut() else {
        // Checking: account for the ammunition so later bursts are checked against it.
        combat::spend_ammo(state, &name, &key, need);
        return;
    };
    match &f.mode {
        FireMode::At(t) => {
            combat::spend_ammo(state, &name, &key, need);
            combat::ranged_attack(state, dice, &name, t, &key, f.rof, "");
        }
        FireMode::Walk(ts) => {
            combat::spend_ammo(state, &name, &key, need);
            let rof_damage = f.rof.saturating_sub(ts.len() as u32 - 1);
            state.log.push(LogLine::public(format!(
                "{name} walks {} fire (ROF {}) over {}: ROF {rof_damage} for damage on each.",
                key,
                f.rof,
                ts.join(", ")
            )));
            for t in ts {
                if let Some(x) = state.unit_mut(&name) {
                    x.walked.push((key.clone(), t.clone()));
                }
                combat::ranged_attack(state, dice, &name, t, &key, rof_damage, "");
            }
        }
        FireMode::Saturate(at) => combat::saturate(state, dice, &name, &key, *at, f.rof),
    }
}

pub(super) fn melee(
    state: &mut GkState,
    p: &mut Paused,
    ctx: &mut Ctx,
    idx: usize,
    kind: &Melee,
    target: &str,
) -> Flow {
    let name = p.block.unit.clone();
    let Some(t) = state.unit(target).cloned() else {
        fail(state, ctx, idx, &name, format!("no unit `{target}`"));
        return Flow::Done;
    };
    let u = unit_of(state, &name);
    if t.side == u.side || !t.alive() {
        fail(
            state,
            ctx,
            idx,
            &name,
            format!("{target} is not an enemy in the fight"),
        );
        return Flow::Done;
    }
    if *kind == Melee::Ram {
        if let Err(e) = combat::can_melee(state, &u, u.pos, &t, kind) {
            fail(state, ctx, idx, &name, e);
            return Flow::Done;
        }
        if u.actions_left() == 0 || u.defensive {
            fail(state, ctx, idx, &name, "no Action left to ram".into());
            return Flow::Done;
        }
        // Close in: turn to face the target, then drive into contact.
        let contact = state.data.rules.contact_distance.get();
        let d = (dist(u.pos, t.pos) - contact).max(0.0);
        if p.done == 0.0
            && let Err(e) = turn(state, &name, &mut p.progress, bearing(u.pos, t.pos))
        {
            fail(state, ctx, idx, &name, e);
            return Flow::Done;
        }
        let before = p.done;
        if d > EPS {
            let remaining_leg = Act::Move(d + before);
            if leg(state, p, ctx, &remaining_leg) == Flow::Paused {
                return Flow::Paused;
            }
        }
        let u = unit_of(state, &name);
        if !u.alive() || p.progress.stopped || dist(u.pos, t.pos) > contact + 1e-3 {
            if !ctx.live() && dist(u.pos, t.pos) > contact + 1e-3 && p.progress.stopped {
                fail(state, ctx, idx, &name, "cannot reach the target".into());
            }
            return Flow::Done;
        }
        if let Err(e) = take_action(state, &name, &mut p.progress, None) {
            fail(state, ctx, idx, &name, e);
            return Flow::Done;
        }
        if let Some(dice) = ctx.dice.as_deref_mut() {
            combat::melee_attack(state, dice, &name, target, kind);
        }
        p.progress.stopped = true;
        return Flow::Done;
    }
    if (ctx.targets || ctx.live())
        && let Err(e) = combat::can_melee(state, &u, u.pos, &t, kind)
    {
        fail(state, ctx, idx, &name, e);
        return Flow::Done;
    }
    if let Err(e) = take_action(state, &name, &mut p.progress, None) {
        fail(state, ctx, idx, &name, e);
        return Flow::Done;
    }
    if let Some(dice) = ctx.dice.as_deref_mut() {
        combat::melee_attack(state, dice, &name, target, kind);
    }
    Flow::Done
}

pub(super) fn rally(state: &mut GkState, p: &mut Paused, ctx: &mut Ctx, idx: usize) {
    let name = p.block.unit.clone();
    let u = unit_of(state, &name);
    if !u.is_infantry() || u.pinned == 0 {
        return fail(
            state,
            ctx,
            idx,
            &name,
            "RALLY removes a Pinned counter from pinned infantry".into(),
        );
    }
    if let Err(e) = take_action(state, &name, &mut p.progress, None) {
        return fail(state, ctx, idx, &name, e);
    }
    let Some(dice) = ctx.dice.as_deref_mut() else {
        return;
    };
    let threshold = state.data.rules.rally_threshold.int();
    let m = u.pinned as i32 * state.data.rules.pinned_penalty.int();
    let n = stats::skill(&state.data, &u, Task::Gunnery);
    let r = roll::roll(dice, format!("rally {name}"), n, m);
    let ok = roll::passes(&r, threshold);
    if ok && let Some(x) = state.unit_mut(&name) {
        x.pinned -= 1;
    }
    let left = unit_of(state, &name).pinned;
    state.log.push(LogLine::public(format!(
        "{name} tries to rally: {} vs {threshold}: {} (Pinned {left}).",
        roll::show(&r),
        if ok { "one counter removed" } else { "fails" }
    )));
}

/// Standing reactive fire (R27): each overwatching enemy fires once per activation at the
/// first point where its conditions hold.
pub(super) fn overwatch(state: &mut GkState, p: &mut Paused, dice: &mut Dice) {
    let mover = p.block.unit.clone();
    let Some(m) = state.unit(&mover).cloned() else {
        return;
    };
    let enemy = state.enemy_of(&m.side).unwrap_or_default().to_string();
    let names: Vec<String> = state
        .units
        .iter()
        .filter(|e| e.side == enemy && e.overwatch.is_some())
        .map(|e| e.name.clone())
        .collect();
    for n in names {
        if !state.unit(&mover).is_some_and(Unit::alive) {
            return;
        }
        if p.progress.overwatched.contains(&n) {
            continue;
        }
        let Some(e) = state.unit(&n).cloned() else {
            continue;
        };
        let Some(ow) = e.overwatch.clone() else {
            continue;
        };
        let target = unit_of(state, &mover);
        if !may_interrupt(&e)
            || e.overwatch_fired >= ow.actions
            || !matches(&ow.filter, &target)
            || ow.within.is_some_and(|r| dist(e.pos, target.pos) > r + EPS)
        {
            continue;
        }
        let Some(key) = usable_weapon(state, &e, &target, ow.weapon.as_deref(), ow.rof) else {
            continue;
        };
        let w = stats::weapon(&state.data, &e, &key)
            .cloned()
            .expect("found above");
        let rof = ow.rof.min(stats::rof(&state.data, &e, &w));
        p.progress.overwatched.push(n.clone());
        if let Some(x) = state.unit_mut(&n) {
            x.actions_used += 1;
            x.overwatch_fired += 1;
        }
        let need = stats::burst_ammo(&state.data, &w, rof);
        combat::spend_ammo(state, &n, &key, need);
        combat::ranged_attack(state, dice, &n, &mover, &key, rof, "Overwatch: ");
    }
}

/// The first weapon (in card order, or the one named) of `e` that can fire at `target` now.
pub fn usable_weapon(
    state: &GkState,
    e: &Unit,
    target: &Unit,
    only: Option<&str>,
    rof: u32,
) -> Option<String> {
    stats::weapons(&state.data, e)
        .iter()
        .filter(|w| only.is_none_or(|k| w.key.eq_ignore_ascii_case(k)))
        .find(|w| {
            let f = super::super::state::Fire {
                weapon: w.key.clone(),
                mode: FireMode::At(target.name.clone()),
                rof: rof.min(stats::rof(&state.data, e, w)),
            };
            check_fire(state, e, &f, true).is_ok()
        })
        .map(|w| w.key.clone())
}

/// Can this enemy unit interrupt now (it has an Action and is not on Defensive Maneuvers)?
pub(super) fn may_interrupt(e: &Unit) -> bool {
    e.alive() && !e.defensive && e.actions_left() > 0
}

/// An enemy unit not covered by an overwatch order that could fire at the mover now.
pub fn uncovered_shooter(state: &GkState, mover: &str) -> Option<String> {
    let m = state.unit(mover)?;
    let enemy = state.enemy_of(&m.side).unwrap_or_default().to_string();
    if !state.side(&enemy).is_some_and(|s| s.ask_interrupts) {
        return None;
    }
    state
        .units
        .iter()
        .filter(|e| e.side == enemy && may_interrupt(e) && e.overwatch.is_none())
        .find(|e| usable_weapon(state, e, m, None, 0).is_some())
        .map(|e| e.name.clone())
}

pub(super) fn matches(filter: &Filter, t: &Unit) -> bool {
    match filter {
        Filter::Any => true,
        Filter::Vehicles => !t.is_infantry(),
        Filter::Infantry => t.is_infantry(),
        Filter::Unit(n) => *n == t.name,
    }
}
