//! Fire: one aimed attack (the burst's ROF adding to damage), the ammunition a burst spends,
//! and saturation fire (p.4), which rolls once and leaves a zone every unit in it defends
//! against.

use crate::board::tabletop::Pt;
use crate::dice::Dice;
use crate::engine::LogLine;
use crate::rulesets::kit::grammar::tenths;
use crate::rulesets::kit::roster::Roster;

use super::super::roll;
use super::super::state::{GkState, Zone};
use super::super::stats::{self, Task};
use super::defence::{apply_hit, defence_roll, missed};
use super::modifiers::attack_modifiers;
use super::{Hit, can_fire_at};

/// One ranged attack by `attacker` (at its current position) on `target` (at its current
/// position) with `w`, `rof_damage` ROF points adding to damage. Ammunition is the caller's.
pub fn ranged_attack(
    state: &mut GkState,
    dice: &mut Dice,
    attacker: &str,
    target: &str,
    weapon_key: &str,
    rof_damage: u32,
    context: &str,
) -> Option<Hit> {
    let a = state.unit(attacker)?.clone();
    let t = state.unit(target)?.clone();
    let w = stats::weapon(&state.data, &a, weapon_key)?.clone();
    let shot = match can_fire_at(state, &a, a.pos, t.pos, &w) {
        Ok(s) => s,
        Err(why) => {
            state.log.push(LogLine::public(format!(
                "{attacker} cannot fire its {} at {target}: {why}.",
                w.key
            )));
            return None;
        }
    };
    let label = format!("attack {attacker}->{target}");
    let (m, why) = attack_modifiers(
        &state.data,
        &a,
        t.is_infantry(),
        Some(&w),
        shot.band,
        shot.concealment,
        false,
    );
    let n = stats::skill(&state.data, &a, Task::Gunnery);
    let ar = roll::roll(dice, format!("{label} attacker"), n, m);
    let (dr, arc, dwhy) = defence_roll(state, dice, &label, target, a.pos, Task::Piloting);
    let o = roll::opposed(&ar, &dr);
    let mut line = format!(
        "{context}{attacker} fires {} at {target} ({}, {} cm): attack {} ({}) vs defence {} ({})",
        w.key,
        shot.band.word(),
        tenths(shot.distance),
        roll::show(&ar),
        why.join(", "),
        roll::show(&dr),
        dwhy.join(", ")
    );
    let dm = stats::weapon_dm(&a, &w);
    let mut hit = Hit::rolled(ar, dr, o.mos);
    if o.success {
        let (dmg, r, text) = apply_hit(
            state,
            target,
            o.mos,
            dm,
            rof_damage,
            w.is_area_effect() && w.anti_infantry,
            arc,
        );
        hit.damage = dmg;
        hit.result = r;
        line.push_str(&format!(": hit, MoS {}, {text}.", o.mos));
    } else {
        missed(state, target, "miss", &mut line);
    }
    state.log.push(LogLine::public(line));
    Some(hit)
}

/// Spends ammunition for a burst; `false` if there is not enough.
pub fn spend_ammo(state: &mut GkState, unit: &str, weapon_key: &str, n: u32) -> bool {
    let Some(u) = state.unit_mut(unit) else {
        return false;
    };
    match u
        .ammo
        .iter_mut()
        .find(|(w, _)| w.eq_ignore_ascii_case(weapon_key))
    {
        None => true,
        Some((_, left)) => {
            if *left >= n {
                *left -= n;
                true
            } else {
                false
            }
        }
    }
}

/// Saturation fire (p.4): rolls once, records the zone, attacks every unit already in it.
pub fn saturate(
    state: &mut GkState,
    dice: &mut Dice,
    attacker: &str,
    weapon_key: &str,
    at: Pt,
    rof: u32,
) {
    let Some(a) = state.unit(attacker).cloned() else {
        return;
    };
    let Some(w) = stats::weapon(&state.data, &a, weapon_key).cloned() else {
        return;
    };
    let shot = match can_fire_at(state, &a, a.pos, at, &w) {
        Ok(s) => s,
        Err(why) => {
            state.log.push(LogLine::public(format!(
                "{attacker} cannot saturate {},{}: {why}.",
                tenths(at.x),
                tenths(at.y)
            )));
            return;
        }
    };
    let (m, why) = attack_modifiers(
        &state.data,
        &a,
        false,
        Some(&w),
        shot.band,
        shot.concealment,
        false,
    );
    let bonus = (rof / 2) as i32;
    let n = stats::skill(&state.data, &a, Task::Gunnery);
    let r = roll::roll(
        dice,
        format!(
            "saturation {attacker}->{},{} attacker",
            tenths(at.x),
            tenths(at.y)
        ),
        n,
        m + bonus,
    );
    let need = stats::saturation_ammo(&state.data, &w, rof);
    if let Some(u) = state.unit_mut(attacker)
        && let Some((_, left)) = u
            .ammo
            .iter_mut()
            .find(|(k, _)| k.eq_ignore_ascii_case(weapon_key))
    {
        *left = left.saturating_sub(need);
    }
    let total = if r.fumble { 0 } else { r.total };
    state.log.push(LogLine::public(format!(
        "{attacker} saturates the square at {},{} with its {} (ROF {rof}): {} ({}{}) — recorded {total}.",
        tenths(at.x),
        tenths(at.y),
        w.key,
        roll::show(&r),
        why.join(", "),
        if bonus > 0 { format!(", +{bonus} half ROF") } else { String::new() }
    )));
    state.zones.push(Zone {
        centre: at,
        total,
        dm: stats::weapon_dm(&a, &w),
        by: attacker.to_string(),
        weapon: w.key.clone(),
        struck: vec![],
    });
    let idx = state.zones.len() - 1;
    let inside: Vec<String> = state
        .units
        .iter()
        .filter(|u| u.alive() && u.name != attacker && in_zone(state, idx, u.pos))
        .map(|u| u.name.clone())
        .collect();
    for name in inside {
        zone_attack(state, dice, idx, &name);
    }
}

pub fn in_zone(state: &GkState, idx: usize, p: Pt) -> bool {
    let half = state.data.rules.saturation_size.get() / 2.0;
    state.zones.get(idx).is_some_and(|z| {
        (p.x - z.centre.x).abs() <= half + 1e-9 && (p.y - z.centre.y).abs() <= half + 1e-9
    })
}

/// A unit in (or entering) a saturation zone defends against the recorded total (p.4).
pub fn zone_attack(state: &mut GkState, dice: &mut Dice, idx: usize, unit: &str) {
    let Some(z) = state.zones.get(idx).cloned() else {
        return;
    };
    if z.struck.iter().any(|s| s == unit) {
        return;
    }
    state.zones[idx].struck.push(unit.to_string());
    let from = state.unit(&z.by).map_or(z.centre, |u| u.pos);
    let (dr, arc, dwhy) = defence_roll(
        state,
        dice,
        &format!("saturation {}->{unit}", z.by),
        unit,
        from,
        Task::Piloting,
    );
    let def = if dr.fumble { 0 } else { dr.total };
    let mut line = format!(
        "{unit} is in {}'s saturation zone: defence {} ({}) vs {}",
        z.by,
        roll::show(&dr),
        dwhy.join(", "),
        z.total
    );
    if def < z.total {
        let mof = z.total - def;
        let (_, _, text) = apply_hit(state, unit, mof, z.dm, 0, false, arc);
        line.push_str(&format!(": MoF {mof}, {text}."));
    } else {
        missed(state, unit, "unharmed", &mut line);
    }
    state.log.push(LogLine::public(line));
}
