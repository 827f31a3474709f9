//! The defender's side of an attack: the defence roll (a CP spent on it if declared), the
//! damage a hit does against armor or infantry circles, and the Pinned counters (p.5, R5).

use crate::board::tabletop::Pt;
use crate::dice::Dice;
use crate::rulesets::kit::roster::{Roster, TwoSides};

use super::super::roll::{self, SkillRoll};
use super::super::state::GkState;
use super::super::stats::{self, AttackArc, DamageResult, Task};
use super::modifiers::defence_modifiers;

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

pub(super) fn defence_roll(
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

/// An attack that did not harm `target`: the log line says so (`word`: "miss", "unharmed")
/// and, for infantry, how pinned it now is (p.5, R5).
pub(super) fn missed(state: &mut GkState, target: &str, word: &str, line: &mut String) {
    line.push_str(&format!(": {word}"));
    if let Some(p) = pin_on_miss(state, target) {
        line.push_str(&format!("; Pinned {p}"));
    }
    line.push('.');
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
