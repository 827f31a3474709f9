//! Attacks: who may target whom (LOS, detection, arcs, range bands), attack and defence
//! modifiers, opposed rolls, damage against armor and infantry, Pinned, burst, walking and
//! saturation fire, and melee (punch, kick, ram, assault). Changes only the units involved.
//! Here: who may target what, and what one attack did; modifiers.rs the modifiers, defence.rs
//! the defender's roll and the damage taken, ranged.rs fire (aimed, burst, saturation zones),
//! melee.rs punches, kicks, rams and assaults.

use crate::board::tabletop::{Pt, dist};
use crate::rulesets::kit::grammar::tenths;

use super::data::WeaponData;
use super::ground;
use super::roll::SkillRoll;
use super::state::{GkState, Unit};
use super::stats::{self, Band, DamageResult};

mod defence;
mod melee;
mod modifiers;
mod ranged;

pub use defence::apply_hit;
pub use melee::{can_melee, melee_attack};
pub use modifiers::{attack_modifiers, defence_modifiers};
pub use ranged::{in_zone, ranged_attack, saturate, spend_ammo, zone_attack};

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

/// What one attack did (for tests and logs).
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    pub attack: SkillRoll,
    pub defence: SkillRoll,
    pub mos: i32,
    pub damage: i32,
    pub result: Option<DamageResult>,
}

impl Hit {
    /// The two rolls and their margin, before any damage is applied.
    fn rolled(attack: SkillRoll, defence: SkillRoll, mos: i32) -> Self {
        Hit {
            attack,
            defence,
            mos,
            damage: 0,
            result: None,
        }
    }
}
