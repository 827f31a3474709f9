//! Derived numbers of units and weapons (MP, DM after Heavy Damage, range bands, arcs) and the
//! Damage vs Armor table. Pure lookups and arithmetic; no dice and no state changes beyond
//! `apply_vehicle_damage` / `apply_infantry_damage`, which only touch the unit given.

use serde::{Deserialize, Serialize};

use crate::board::tabletop::{bearing, heading_diff};

use super::data::{Arc, InfantryClass, MoveMode, RulesetData, VehicleClass, WeaponData};
use super::state::{Unit, UnitKind};

pub fn vehicle<'a>(data: &'a RulesetData, u: &Unit) -> Option<&'a VehicleClass> {
    (u.kind == UnitKind::Vehicle)
        .then(|| data.vehicles.get(&u.class))
        .flatten()
}

pub fn infantry<'a>(data: &'a RulesetData, u: &Unit) -> Option<&'a InfantryClass> {
    (u.kind == UnitKind::Infantry)
        .then(|| data.infantry.get(&u.class))
        .flatten()
}

pub fn weapons<'a>(data: &'a RulesetData, u: &Unit) -> &'a [WeaponData] {
    match u.kind {
        UnitKind::Vehicle => vehicle(data, u).map_or(&[], |v| &v.weapons),
        UnitKind::Infantry => infantry(data, u).map_or(&[], |i| &i.weapons),
    }
}

/// The weapon a unit carries under `key` (case-insensitive).
pub fn weapon<'a>(data: &'a RulesetData, u: &Unit, key: &str) -> Option<&'a WeaponData> {
    weapons(data, u)
        .iter()
        .find(|w| w.key.eq_ignore_ascii_case(key))
}

/// Halved, rounding up (Heavy Damage, p.4).
pub fn halve_up(v: i32) -> i32 {
    (v + 1).div_euclid(2)
}

/// MP allowance for a mode and speed, after Heavy Damage.
pub fn mp(data: &RulesetData, u: &Unit, mode: MoveMode, top: bool) -> f64 {
    let base = match u.kind {
        UnitKind::Infantry => infantry(data, u).map_or(0, |i| i.combat_mp.int()),
        UnitKind::Vehicle => vehicle(data, u).map_or(0, |v| match (mode, top) {
            (MoveMode::Walker, false) => v.walker_combat.int(),
            (MoveMode::Walker, true) => v.walker_top.int(),
            (MoveMode::Ground, false) => v.ground_combat.int(),
            (MoveMode::Ground, true) => v.ground_top.int(),
        }),
    };
    let v = if u.heavy > 0 { halve_up(base) } else { base };
    f64::from(v)
}

pub fn combat_mp(data: &RulesetData, u: &Unit) -> f64 {
    mp(data, u, u.mode, false)
}

/// A weapon's DM for this unit now (halved after Heavy Damage, R17).
pub fn weapon_dm(u: &Unit, w: &WeaponData) -> i32 {
    let dm = w.dm.int();
    if u.heavy > 0 { halve_up(dm) } else { dm }
}

/// Melee DM: punch (Manipulator Arms), kick (Size), ram (impact), infantry assault.
pub fn melee_dm(data: &RulesetData, u: &Unit, kind: &super::state::Melee) -> i32 {
    use super::state::Melee;
    let dm = match (kind, vehicle(data, u)) {
        (Melee::Punch, Some(v)) => v.punch_dm.int(),
        (Melee::Kick, Some(v)) => v.size.int(),
        (Melee::Ram, Some(v)) => v.impact_dm.int(),
        (Melee::Assault, _) => data.rules.infantry_melee_dm.int(),
        _ => 0,
    };
    if u.heavy > 0 { halve_up(dm) } else { dm }
}

/// Skill dice of a unit for a task.
pub fn skill(data: &RulesetData, u: &Unit, task: Task) -> u32 {
    let v = match (vehicle(data, u), infantry(data, u)) {
        (Some(v), _) => match task {
            Task::Gunnery => v.gunnery.int(),
            Task::Piloting => v.piloting.int(),
            Task::Driving => v.driving.int(),
        },
        (_, Some(i)) => i.skill.int(),
        _ => data.rules.skill_dice.int(),
    };
    v.max(1) as u32
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Task {
    Gunnery,
    Piloting,
    Driving,
}

/// Range bands (p.4): Short = BR, Medium 2×, Long 4×, Extreme 8× (upper limits inclusive, R18).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Band {
    PointBlank,
    Short,
    Medium,
    Long,
    Extreme,
}

impl Band {
    pub fn word(self) -> &'static str {
        match self {
            Band::PointBlank => "point blank",
            Band::Short => "short",
            Band::Medium => "medium",
            Band::Long => "long",
            Band::Extreme => "extreme",
        }
    }

    pub fn modifier(self, data: &RulesetData) -> i32 {
        let r = &data.rules;
        match self {
            Band::PointBlank => &r.point_blank,
            Band::Short => &r.short,
            Band::Medium => &r.medium,
            Band::Long => &r.long,
            Band::Extreme => &r.extreme,
        }
        .int()
    }
}

/// The band of a shot at `d` cm with base range `br`; `None` beyond Extreme.
pub fn band(d: f64, br: f64, contact: f64) -> Option<Band> {
    const E: f64 = 1e-9;
    if d <= contact + E {
        Some(Band::PointBlank)
    } else if d <= br + E {
        Some(Band::Short)
    } else if d <= 2.0 * br + E {
        Some(Band::Medium)
    } else if d <= 4.0 * br + E {
        Some(Band::Long)
    } else if d <= 8.0 * br + E {
        Some(Band::Extreme)
    } else {
        None
    }
}

/// Is a target at bearing difference `rel` (target bearing − facing, in (−180, 180]) inside arc?
pub fn in_arc(arc: Arc, rel: f64) -> bool {
    const E: f64 = 1e-9;
    match arc {
        Arc::T => true,
        Arc::F => rel.abs() <= 90.0 + E,
        Arc::Rr => rel.abs() >= 90.0 - E,
        // Side arcs include straight ahead and straight back (p.4).
        Arc::Rt => (0.0 - E..=180.0 + E).contains(&rel),
        Arc::L => rel <= E || rel >= 180.0 - E,
        Arc::FF => rel.abs() <= 60.0 + E,
    }
}

/// Arc of a weapon from a firer to a point (infantry: 360°).
pub fn weapon_covers(u: &Unit, w: &WeaponData, to: crate::board::tabletop::Pt) -> bool {
    if u.is_infantry() {
        return true;
    }
    let rel = heading_diff(u.heading, bearing(u.pos, to));
    in_arc(w.arc.get(), rel)
}

/// Arc of attack on the defender (R1): Front, Flank or Rear.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum AttackArc {
    Front,
    Flank,
    Rear,
}

pub fn attack_arc(
    data: &RulesetData,
    target: &Unit,
    from: crate::board::tabletop::Pt,
) -> AttackArc {
    if target.is_infantry() {
        return AttackArc::Front;
    }
    let rel = heading_diff(target.heading, bearing(target.pos, from)).abs();
    if rel <= data.rules.front_half_angle.get() + 1e-9 {
        AttackArc::Front
    } else if rel >= 180.0 - data.rules.rear_half_angle.get() - 1e-9 {
        AttackArc::Rear
    } else {
        AttackArc::Flank
    }
}

/// Damage vs Armor (p.1), the most severe result only (p.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum DamageResult {
    NoEffect,
    Light,
    Heavy,
    Overkill,
}

/// Compares damage to armor with the ≥ operators the chart lost (R2).
pub fn damage_vs_armor(data: &RulesetData, damage: i32, armor: i32) -> DamageResult {
    let a = armor.max(1);
    if damage >= a * data.rules.overkill_factor.int() {
        DamageResult::Overkill
    } else if damage >= a * data.rules.heavy_factor.int() {
        DamageResult::Heavy
    } else if damage >= a * data.rules.light_factor.int() {
        DamageResult::Light
    } else {
        DamageResult::NoEffect
    }
}

/// The target's Armor against an attack from `arc` (Reinforced Armor on the Front).
pub fn armor(data: &RulesetData, target: &Unit, arc: AttackArc) -> i32 {
    vehicle(data, target).map_or(0, |v| {
        v.armor.int()
            + if arc == AttackArc::Front {
                v.front_armor.int()
            } else {
                0
            }
    })
}

/// Applies one Damage vs Armor result: two Lights become a Heavy, two Heavies destroy.
/// Returns a short description of what happened.
pub fn apply_vehicle_damage(u: &mut Unit, r: DamageResult) -> String {
    match r {
        DamageResult::NoEffect => "no effect".into(),
        DamageResult::Light => {
            if u.light >= 1 {
                u.light = 0;
                u.heavy += 1;
                if u.heavy >= 2 {
                    u.destroyed = true;
                    "Light Damage; with the earlier Light it becomes a second Heavy: destroyed"
                        .into()
                } else {
                    "Light Damage; with the earlier Light it becomes Heavy Damage".into()
                }
            } else {
                u.light = 1;
                "Light Damage".into()
            }
        }
        DamageResult::Heavy => {
            u.heavy += 1;
            if u.heavy >= 2 {
                u.destroyed = true;
                "Heavy Damage, the second: destroyed".into()
            } else {
                "Heavy Damage".into()
            }
        }
        DamageResult::Overkill => {
            u.destroyed = true;
            "Overkill: destroyed".into()
        }
    }
}

/// Crosses out `points` circles through the squad (R6: finish a wounded trooper first, then in
/// card order), or, with `each`, `points` on every living trooper (AI + Area Effect).
/// Returns (circles crossed, casualties).
pub fn apply_infantry_damage(u: &mut Unit, points: u32, each: bool) -> (u32, u32) {
    let before = u.living_troopers();
    let mut crossed = 0;
    if each {
        for t in u.troopers.iter_mut().filter(|t| t.alive()) {
            let n = points.min(t.circles - t.hits);
            t.hits += n;
            crossed += n;
        }
    } else {
        let mut left = points;
        while left > 0 {
            let idx = u
                .troopers
                .iter()
                .position(|t| t.alive() && t.hits > 0)
                .or_else(|| u.troopers.iter().position(Trooper::alive));
            let Some(i) = idx else { break };
            let t = &mut u.troopers[i];
            let n = left.min(t.circles - t.hits);
            t.hits += n;
            left -= n;
            crossed += n;
        }
    }
    let after = u.living_troopers();
    if after == 0 {
        u.destroyed = true;
    }
    (crossed, (before - after) as u32)
}

use super::state::Trooper;

/// Living troopers carrying `weapon`.
pub fn carriers(u: &Unit, weapon: &str) -> u32 {
    u.troopers
        .iter()
        .filter(|t| t.alive() && t.weapon.eq_ignore_ascii_case(weapon))
        .count() as u32
}

/// Effective ROF of a weapon for this unit: massed fire adds the Infantry ROF Bonus (p.5).
pub fn rof(data: &RulesetData, u: &Unit, w: &WeaponData) -> u32 {
    let base = w.rof.int().max(0);
    let bonus = if u.is_infantry() {
        data.massed_bonus(carriers(u, &w.key))
    } else {
        0
    };
    (base + bonus).max(0) as u32
}

/// Missiles for a rocket burst of `rof` points: 2, 4, 8, 16 (p.4).
pub fn missiles(rof: u32) -> u32 {
    if rof == 0 { 1 } else { 1u32 << rof.min(16) }
}

/// Ammunition one attack uses: a single shot, 10 rounds per ROF point, or doubling rockets.
pub fn burst_ammo(data: &RulesetData, w: &WeaponData, rof: u32) -> u32 {
    if w.rockets {
        missiles(rof)
    } else if rof == 0 {
        data.rules.single_shot_rounds.int().max(0) as u32
    } else {
        rof * data.rules.burst_rounds.int().max(0) as u32
    }
}

/// Ammunition a saturation attack uses (may exceed what is left: the magazine empties).
pub fn saturation_ammo(data: &RulesetData, w: &WeaponData, rof: u32) -> u32 {
    let per = if w.rockets {
        data.rules.saturation_rockets.int()
    } else {
        data.rules.saturation_rounds.int()
    };
    rof * per.max(0) as u32
}

/// The least ammunition needed to saturate at all.
pub fn saturation_min(data: &RulesetData, w: &WeaponData) -> u32 {
    let v = if w.rockets {
        data.rules.saturation_min_rockets.int()
    } else {
        data.rules.saturation_min_rounds.int()
    };
    v.max(0) as u32
}

/// The attacker's movement modifier (p.1) for a move of `cm` this round at Top or not.
pub fn attacker_movement(data: &RulesetData, u: &Unit, cm: f64) -> i32 {
    if u.top {
        return data.rules.top.int();
    }
    if cm <= 1e-9 {
        data.rules.stationary.int()
    } else if !u.is_infantry() && cm <= combat_mp(data, u) / 2.0 + 1e-9 {
        data.rules.half_combat.int()
    } else {
        data.rules.combat.int()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_by_base_range() {
        let c = 1.0;
        assert_eq!(band(8.0, 8.0, c), Some(Band::Short));
        assert_eq!(band(9.0, 8.0, c), Some(Band::Medium));
        assert_eq!(band(16.0, 8.0, c), Some(Band::Medium));
        assert_eq!(band(17.0, 8.0, c), Some(Band::Long));
        assert_eq!(band(33.0, 8.0, c), Some(Band::Extreme));
        assert_eq!(band(65.0, 8.0, c), None);
        assert_eq!(band(0.5, 8.0, c), Some(Band::PointBlank));
    }

    #[test]
    fn arcs() {
        assert!(in_arc(Arc::F, 90.0));
        assert!(!in_arc(Arc::F, 91.0));
        assert!(in_arc(Arc::Rt, 0.0) && in_arc(Arc::Rt, 180.0) && !in_arc(Arc::Rt, -10.0));
        assert!(in_arc(Arc::L, 0.0) && in_arc(Arc::L, -90.0) && !in_arc(Arc::L, 10.0));
        assert!(in_arc(Arc::FF, 60.0) && !in_arc(Arc::FF, 61.0));
        assert!(in_arc(Arc::Rr, 180.0) && !in_arc(Arc::Rr, 0.0));
        assert!(in_arc(Arc::T, 123.0));
    }

    #[test]
    fn missiles_double() {
        assert_eq!(
            [1, 2, 3, 4].map(missiles),
            [2, 4, 8, 16],
            "EX-1: ROF +1..+4 = 2, 4, 8, 16 missiles"
        );
    }

    #[test]
    fn halving_rounds_up() {
        assert_eq!(halve_up(3), 2);
        assert_eq!(halve_up(5), 3);
        assert_eq!(halve_up(4), 2);
    }
}
