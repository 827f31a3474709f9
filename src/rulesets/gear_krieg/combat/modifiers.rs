//! The modifiers of an attack (p.1 Attack Roll, Defense Roll; R1 arcs, R22): the attacker's,
//! which do not depend on the dice, and the defender's, with whether a CP is spent on them.
//! Each comes with its words as the results mail prints them.

use crate::rulesets::kit::roster::TwoSides;

use super::super::data::{MoveMode, RulesetData, WeaponData};
use super::super::state::{GkState, Unit};
use super::super::stats::{self, AttackArc, Band};
use super::attacker_move;

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
