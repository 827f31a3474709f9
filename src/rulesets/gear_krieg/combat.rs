//! Attacks: who may target whom (LOS, detection, arcs, range bands), attack and defence
//! modifiers, opposed rolls, damage against armor and infantry, Pinned, burst, walking and
//! saturation fire, and melee (punch, kick, ram, assault). Changes only the units involved.

use crate::board::tabletop::{Pt, dist};
use crate::dice::Dice;
use crate::engine::LogLine;
use crate::rulesets::kit::grammar::tenths;
use crate::rulesets::kit::roster::{Roster, TwoSides};

use super::data::{MoveMode, RulesetData, WeaponData};
use super::ground;
use super::roll::{self, SkillRoll};
use super::state::{GkState, Melee, Unit, Zone};
use super::stats::{self, AttackArc, Band, DamageResult, Task};

/// Why a shot is possible, with what it needs to know.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shot {
    pub band: Band,
    pub concealment: i32,
    pub distance: f64,
}

pub fn detection(state: &GkState) -> i32 {
    if state.night {
        state.data.rules.detection_night.int()
    } else {
        state.data.rules.detection_day.int()
    }
}

/// May `attacker` (standing at `from`, facing its heading) fire `w` at a point `at`?
pub fn can_fire_at(
    state: &GkState,
    attacker: &Unit,
    from: Pt,
    at: Pt,
    w: &WeaponData,
) -> Result<Shot, String> {
    let d = dist(from, at);
    let contact = state.data.rules.contact_distance.get();
    let mut probe = attacker.clone();
    probe.pos = from;
    if !stats::weapon_covers(&probe, w, at) {
        return Err(format!("outside the {}'s firing arc", w.key));
    }
    if w.thrown && d > state.data.rules.thrown_range.get().max(contact) + 1e-9 {
        return Err(format!(
            "{} can only be thrown {} cm or in contact ({} cm away)",
            w.key,
            state.data.rules.thrown_range.get(),
            tenths(d)
        ));
    }
    let Some(band) = stats::band(d, w.base_range.get(), contact) else {
        return Err(format!(
            "out of range: {} cm, the {}'s Extreme range is {} cm",
            tenths(d),
            w.key,
            8.0 * w.base_range.get()
        ));
    };
    let concealment = ground::concealment(state, from, at);
    let det = detection(state);
    if concealment > det {
        return Err(format!(
            "cannot be targeted: Concealment {concealment} is above Detection {det}"
        ));
    }
    Ok(Shot {
        band,
        concealment,
        distance: d,
    })
}

/// The attacker's movement this round as far as attack modifiers go (R22).
pub fn attacker_move(u: &Unit) -> f64 {
    u.moved.unwrap_or(0.0)
}

/// Every attack modifier that does not depend on the dice (p.1 Attack Roll).
pub fn attack_modifiers(
    data: &RulesetData,
    attacker: &Unit,
    target_is_infantry: bool,
    w: Option<&WeaponData>,
    band: Band,
    concealment: i32,
    melee: bool,
) -> (i32, Vec<String>) {
    let mut m = 0;
    let mut why = Vec::new();
    let mut add = |v: i32, what: &str| {
        if v != 0 {
            m += v;
            why.push(format!("{what} {v:+}"));
        }
    };
    if !melee {
        let p = if attacker.is_infantry() {
            data.rules.infantry_perception.int()
        } else {
            data.rules.perception.int()
        };
        add(p, "perception");
        if let Some(v) = stats::vehicle(data, attacker) {
            add(v.fire_control.int(), "fire control");
        }
        if let Some(w) = w {
            add(w.accuracy.int(), "accuracy");
        }
        add(-concealment, "obscurement");
    }
    add(band.modifier(data), band.word());
    add(
        stats::attacker_movement(data, attacker, attacker_move(attacker)),
        "movement",
    );
    add(
        attacker.extra_declared as i32 * data.rules.extra_action_penalty.int(),
        "extra actions",
    );
    if target_is_infantry && !attacker.is_infantry() && !w.is_some_and(|w| w.anti_infantry) {
        add(
            data.rules.infantry_target_penalty.int(),
            "not AI vs infantry",
        );
    }
    if attacker.is_infantry() {
        add(
            attacker.pinned as i32 * data.rules.pinned_penalty.int(),
            "pinned",
        );
    }
    (m, why)
}

/// Defence modifiers (p.1 Defense Roll, R1 arcs) and whether a CP is spent on it.
pub fn defence_modifiers(
    state: &GkState,
    target: &Unit,
    arc: AttackArc,
) -> (i32, Vec<String>, bool) {
    let data = &state.data;
    let mut m = 0;
    let mut why = Vec::new();
    let mut add = |v: i32, what: &str| {
        if v != 0 {
            m += v;
            why.push(format!("{what} {v:+}"));
        }
    };
    if let Some(v) = stats::vehicle(data, target) {
        add(v.maneuver.int(), "maneuver");
        if target.mode == MoveMode::Ground {
            add(v.ground_maneuver.int(), "ground mode");
        }
        add(data.defender_modifier(target.last_move), "movement");
        add(
            match arc {
                AttackArc::Front => data.rules.arc_front.int(),
                AttackArc::Flank => data.rules.arc_flank.int(),
                AttackArc::Rear => data.rules.arc_rear.int(),
            },
            match arc {
                AttackArc::Front => "front",
                AttackArc::Flank => "flank",
                AttackArc::Rear => "rear",
            },
        );
    }
    if target.defensive {
        add(data.rules.defensive_maneuver.int(), "defensive maneuvers");
    }
    let cp =
        target.cp_defend && !target.cp_used && state.side(&target.side).is_some_and(|s| s.cp > 0);
    if cp {
        add(data.rules.cp_defense.int(), "CP");
    }
    (m, why, cp)
}

fn spend_defence_cp(state: &mut GkState, target: &str) {
    let side = state
        .unit(target)
        .map(|u| u.side.clone())
        .unwrap_or_default();
    if let Some(s) = state.side_mut(&side) {
        s.cp = s.cp.saturating_sub(1);
    }
    if let Some(u) = state.unit_mut(target) {
        u.cp_used = true;
        u.cp_defend = false;
    }
}

fn defence_roll(
    state: &mut GkState,
    dice: &mut Dice,
    label: &str,
    target: &str,
    from: Pt,
    task: Task,
) -> (SkillRoll, AttackArc, Vec<String>) {
    let Some(t) = state.unit(target).cloned() else {
        return (roll::read(&[], 0), AttackArc::Front, vec![]);
    };
    let arc = stats::attack_arc(&state.data, &t, from);
    let (m, why, cp) = defence_modifiers(state, &t, arc);
    if cp {
        spend_defence_cp(state, target);
    }
    let n = stats::skill(&state.data, &t, task);
    let r = roll::roll(dice, format!("{label} defender"), n, m);
    (r, arc, why)
}

/// What one attack did (for tests and logs).
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    pub attack: SkillRoll,
    pub defence: SkillRoll,
    pub mos: i32,
    pub damage: i32,
    pub result: Option<DamageResult>,
}

/// Damage from a hit: vehicles against armor; infantry circles (burst ROF adds to MoS, p.5).
/// Applies it and the Pinned counters; returns the damage and the vehicle result.
pub fn apply_hit(
    state: &mut GkState,
    target: &str,
    mos: i32,
    dm: i32,
    rof_damage: u32,
    area_each: bool,
    arc: AttackArc,
) -> (i32, Option<DamageResult>, String) {
    let data = state.data.clone();
    let Some(t) = state.unit_mut(target) else {
        return (0, None, String::new());
    };
    if t.is_infantry() {
        let dmg = if mos > 0 {
            dm * (mos + rof_damage as i32)
        } else {
            0
        };
        let (crossed, dead) = stats::apply_infantry_damage(t, dmg.max(0) as u32, area_each);
        let pins = if crossed > 0 {
            data.rules.pinned_on_wound.int()
        } else {
            data.rules.pinned_on_miss.int()
        };
        t.pinned += pins.max(0) as u32;
        let mut text = format!(
            "{dmg} damage: {crossed} circle(s) crossed, {dead} casualt{}",
            if dead == 1 { "y" } else { "ies" }
        );
        if t.destroyed {
            text.push_str("; the squad is wiped out");
        } else {
            text.push_str(&format!("; Pinned {}", t.pinned));
        }
        (dmg, None, text)
    } else {
        let dmg = (dm + rof_damage as i32) * mos;
        let armor = stats::armor(&data, t, arc);
        let r = stats::damage_vs_armor(&data, dmg, armor);
        let what = stats::apply_vehicle_damage(t, r);
        (
            dmg,
            Some(r),
            format!("{dmg} damage vs Armor {armor}: {what}"),
        )
    }
}

/// Pins an infantry target that was attacked and missed (p.5, R5).
fn pin_on_miss(state: &mut GkState, target: &str) -> Option<u32> {
    let n = state.data.rules.pinned_on_miss.int().max(0) as u32;
    let t = state.unit_mut(target)?;
    if t.is_infantry() && t.alive() {
        t.pinned += n;
        Some(t.pinned)
    } else {
        None
    }
}

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
    let mut hit = Hit {
        attack: ar,
        defence: dr,
        mos: o.mos,
        damage: 0,
        result: None,
    };
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
        line.push_str(": miss");
        if let Some(p) = pin_on_miss(state, target) {
            line.push_str(&format!("; Pinned {p}"));
        }
        line.push('.');
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
        line.push_str(": unharmed");
        if let Some(p) = pin_on_miss(state, unit) {
            line.push_str(&format!("; Pinned {p}"));
        }
        line.push('.');
    }
    state.log.push(LogLine::public(line));
}

/// Can `attacker` (at `from`) make this melee attack on `target`?
pub fn can_melee(
    state: &GkState,
    attacker: &Unit,
    from: Pt,
    target: &Unit,
    kind: &Melee,
) -> Result<(), String> {
    let contact = state.data.rules.contact_distance.get();
    match kind {
        Melee::Punch | Melee::Kick => {
            if attacker.is_infantry() {
                return Err("infantry assault with ASSAULT, not punches or kicks".into());
            }
            if *kind == Melee::Kick && attacker.mode == MoveMode::Ground {
                return Err("a walker cannot kick in Ground mode (R19)".into());
            }
        }
        Melee::Ram => {
            if attacker.is_infantry() || target.is_infantry() {
                return Err("infantry can neither ram nor be rammed".into());
            }
            return Ok(());
        }
        Melee::Assault => {
            if !attacker.is_infantry() {
                return Err("only infantry assault; vehicles PUNCH, KICK or RAM".into());
            }
        }
    }
    let d = dist(from, target.pos);
    if d > contact + 1e-9 {
        return Err(format!(
            "not in contact ({} cm apart; contact is {} cm)",
            tenths(d),
            tenths(contact)
        ));
    }
    Ok(())
}

fn melee_word(kind: &Melee) -> &'static str {
    match kind {
        Melee::Punch => "punches",
        Melee::Kick => "kicks",
        Melee::Ram => "rams",
        Melee::Assault => "assaults",
    }
}

/// Punch, kick or assault (p.4): Driving/Infantry Skill, Point Blank, no Perception (R18).
pub fn melee_attack(
    state: &mut GkState,
    dice: &mut Dice,
    attacker: &str,
    target: &str,
    kind: &Melee,
) -> Option<Hit> {
    let a = state.unit(attacker)?.clone();
    let t = state.unit(target)?.clone();
    if let Err(why) = can_melee(state, &a, a.pos, &t, kind) {
        state.log.push(LogLine::public(format!(
            "{attacker} cannot attack {target} in melee: {why}."
        )));
        return None;
    }
    if *kind == Melee::Ram {
        return Some(ram(state, dice, attacker, target));
    }
    let label = format!("melee {attacker}->{target}");
    let (m, why) = attack_modifiers(
        &state.data,
        &a,
        t.is_infantry(),
        None,
        Band::PointBlank,
        0,
        true,
    );
    let n = stats::skill(&state.data, &a, Task::Driving);
    let ar = roll::roll(dice, format!("{label} attacker"), n, m);
    let (dr, arc, dwhy) = defence_roll(state, dice, &label, target, a.pos, Task::Piloting);
    let o = roll::opposed(&ar, &dr);
    let dm = stats::melee_dm(&state.data, &a, kind);
    let mut line = format!(
        "{attacker} {} {target}: attack {} ({}) vs defence {} ({})",
        melee_word(kind),
        roll::show(&ar),
        why.join(", "),
        roll::show(&dr),
        dwhy.join(", ")
    );
    let mut hit = Hit {
        attack: ar,
        defence: dr,
        mos: o.mos,
        damage: 0,
        result: None,
    };
    if o.success {
        let (dmg, r, text) = apply_hit(state, target, o.mos, dm, 0, false, arc);
        hit.damage = dmg;
        hit.result = r;
        line.push_str(&format!(": hit, MoS {}, {text}.", o.mos));
    } else {
        line.push_str(": miss");
        if let Some(p) = pin_on_miss(state, target) {
            line.push_str(&format!("; Pinned {p}"));
        }
        line.push('.');
    }
    state.log.push(LogLine::public(line));
    Some(hit)
}

/// Ramming (p.4): opposed Driving; on success each vehicle takes MoS × the other's Impact DM.
fn ram(state: &mut GkState, dice: &mut Dice, attacker: &str, target: &str) -> Hit {
    let a = state
        .unit(attacker)
        .cloned()
        .expect("checked by the caller");
    let label = format!("ram {attacker}->{target}");
    let (m, why) = attack_modifiers(&state.data, &a, false, None, Band::PointBlank, 0, true);
    let n = stats::skill(&state.data, &a, Task::Driving);
    let ar = roll::roll(dice, format!("{label} attacker"), n, m);
    let (dr, arc, dwhy) = defence_roll(state, dice, &label, target, a.pos, Task::Driving);
    let o = roll::opposed(&ar, &dr);
    let mut line = format!(
        "{attacker} rams {target}: Driving {} ({}) vs {} ({})",
        roll::show(&ar),
        why.join(", "),
        roll::show(&dr),
        dwhy.join(", ")
    );
    let mut hit = Hit {
        attack: ar,
        defence: dr,
        mos: o.mos,
        damage: 0,
        result: None,
    };
    if o.success {
        let t = state.unit(target).cloned().expect("exists");
        let a_dm = stats::melee_dm(&state.data, &a, &Melee::Ram);
        let t_dm = stats::melee_dm(&state.data, &t, &Melee::Ram);
        let (dmg, r, text) = apply_hit(state, target, o.mos, a_dm, 0, false, arc);
        let (_, _, self_text) = apply_hit(state, attacker, o.mos, t_dm, 0, false, AttackArc::Front);
        hit.damage = dmg;
        hit.result = r;
        line.push_str(&format!(
            ": collision, MoS {}; {target}: {text}; {attacker}: {self_text}.",
            o.mos
        ));
    } else {
        line.push_str(": the ram misses.");
    }
    state.log.push(LogLine::public(line));
    hit
}
