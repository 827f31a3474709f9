//! The three cavalry mêlée procedures (p.6–8): against PGD (pursuit and regroup), against
//! infantry and artillery (Retreat Before Charge and Recall, unsupplied artillery, Roll to
//! Stand, Defensive Fire, odds, resolution, advance, pursuit, regroup), and against cavalry
//! (bounce both ways, no pursuit). Resumable at every question; charge movement is `charge`.

use crate::board::hex::Hex;
use crate::rulesets::kit::roster::Roster;

use super::charge::{self, units_of};
use super::combat::{self, join};
use super::data::{Arm, MeleeResult};
use super::decide::{self, Flow};
use super::field;
use super::movement;
use super::roll::Roller;
use super::state::{
    Answer, CStage, Charge, Cohesion, Fatigue, Formation, LbState, QKind, TargetKind, Task, Unit,
};

mod steps;

use steps::*;

/// Fighting enemy units in the charge's target hex, and routed ones (PGD).
pub(super) fn targets(st: &LbState, c: &Charge) -> (Vec<Unit>, Vec<Unit>) {
    let here: Vec<Unit> = st
        .at(c.target)
        .into_iter()
        .filter(|u| u.side != c.side)
        .cloned()
        .collect();
    here.into_iter().partition(|u| u.fighting())
}

/// What the charge meets (p.6 step 6), or `None` when nothing is there.
pub fn kind(st: &LbState, c: &Charge) -> Option<TargetKind> {
    let (fighting, routed) = targets(st, c);
    if fighting.is_empty() {
        return (!routed.is_empty()).then_some(TargetKind::Pgd);
    }
    if fighting.iter().all(|u| u.arm == Arm::Cavalry) {
        Some(TargetKind::Cavalry)
    } else {
        Some(TargetKind::InfantryArtillery)
    }
}

pub(super) fn save(st: &mut LbState, c: Charge) {
    if let Some(x) = st.charge_mut(c.id) {
        *x = c;
    }
}

/// p.7: pursuit loss = (printed MP of the fastest charger − charge MP spent) / 3, rounded down.
/// A charge spends at least what riding into its target hex costs (R33): one from the next
/// hex is still a charge, not a free pursuit at full printed MP.
pub fn pursuit_loss(st: &LbState, c: &Charge) -> u32 {
    let best = c
        .units
        .iter()
        .filter_map(|n| st.unit(n))
        .map(|u| field::printed_mp(st, u))
        .max()
        .unwrap_or(0);
    let d = st.data.rules.pursuit_divisor.int().max(1) as u32;
    let into = field::charge_cost(st, c.target).unwrap_or(1);
    best.saturating_sub(c.mp.max(into)) / d
}

pub(super) fn pursue(st: &mut LbState, c: &Charge, stack: &[String]) {
    let loss = pursuit_loss(st, c);
    st.say(format!(
        "C{}: pursuit: {} lose {loss} increment{}.",
        c.id,
        join(stack),
        if loss == 1 { "" } else { "s" }
    ));
    combat::take_losses(st, stack, loss);
}

/// Moves the chargers back `hexes` along their exact charge path; anyone in the way is pushed
/// one hex further along it until an empty hex (p.7 Regroup; also the Bounce, R31).
pub fn fall_back(st: &mut LbState, c: &Charge, hexes: u32) {
    let names: Vec<String> = units_of(st, c).iter().map(|u| u.name.clone()).collect();
    let Some(here) = names.first().and_then(|n| st.unit(n)).map(|u| u.hex) else {
        return;
    };
    let Some(pos) = c.path.iter().rposition(|h| *h == here) else {
        return;
    };
    let back = pos.saturating_sub(hexes as usize);
    let dest = c.path[back];
    if dest == here {
        // A charge from next to its target has only its start hex for a path (R31).
        if hexes > 0 {
            st.say(format!(
                "C{}: {} stay in {}: the charge path has no hex behind it.",
                c.id,
                join(&names),
                st.label(here)
            ));
        }
        return;
    }
    let blockers: Vec<String> = st
        .at(dest)
        .into_iter()
        .filter(|u| !names.contains(&u.name))
        .map(|u| u.name.clone())
        .collect();
    if !blockers.is_empty() {
        let mut k = back;
        let mut spot = None;
        while k > 0 {
            k -= 1;
            if st.at(c.path[k]).is_empty() {
                spot = Some(c.path[k]);
                break;
            }
        }
        let spot = spot.or_else(|| {
            let us: Vec<Unit> = blockers
                .iter()
                .filter_map(|n| st.unit(n).cloned())
                .collect();
            let refs: Vec<&Unit> = us.iter().collect();
            field::away_step(st, &refs, dest, &[here])
        });
        match spot {
            Some(s) => {
                movement::place(st, &blockers, s);
                st.say(format!("{} displaced to {}.", join(&blockers), st.label(s)));
            }
            None => {
                // Nowhere to push them: the chargers join them if the stack is legal (R7),
                // else they stay where they are rather than share a hex they may not (R31).
                let us: Vec<Unit> = names.iter().filter_map(|n| st.unit(n).cloned()).collect();
                let refs: Vec<&Unit> = us.iter().collect();
                if !field::room_for(st, dest, &refs) {
                    st.say(format!(
                        "C{}: {} cannot fall back to {} ({} there cannot be pushed on) and stay in {}.",
                        c.id,
                        join(&names),
                        st.label(dest),
                        join(&blockers),
                        st.label(here)
                    ));
                    return;
                }
            }
        }
    }
    for n in &names {
        if let Some(u) = st.unit_mut(n) {
            u.hex = dest;
        }
    }
    st.say(format!(
        "C{}: {} fall back to {}.",
        c.id,
        join(&names),
        st.label(dest)
    ));
}

pub(super) fn mark(st: &mut LbState, c: &Charge, exhausted: bool) {
    for n in &c.units {
        if let Some(u) = st.unit_mut(n) {
            u.charged = true;
            u.fatigue = if exhausted || u.fatigue != Fatigue::Fresh {
                Fatigue::Exhausted
            } else {
                Fatigue::Tired
            };
        }
    }
    let f = if exhausted { "Exhausted" } else { "Tired" };
    st.say(format!(
        "C{}: {} marked {f}, with an inverted Charge marker.",
        c.id,
        join(&c.units)
    ));
}

/// The original charger of a Reaction Charge fought its mêlée as the defender (R29).
pub(super) fn mark_original(st: &mut LbState, c: &Charge) {
    let Some(o) = c.reactor_of.and_then(|id| st.charge(id).cloned()) else {
        return;
    };
    for n in &o.units {
        if let Some(u) = st.unit_mut(n)
            && u.alive()
        {
            u.charged = true;
            u.fatigue = Fatigue::Exhausted;
        }
    }
}

/// Runs the mêlée of charge `id` from where it stands.
pub fn run(st: &mut LbState, r: &mut dyn Roller, id: u32) -> Flow {
    loop {
        let Some(mut c) = st.charge(id).cloned() else {
            return Flow::Done;
        };
        if c.stage != CStage::Over && units_of(st, &c).is_empty() {
            c.stage = CStage::Over;
            save(st, c);
            return Flow::Done;
        }
        let next = match c.stage {
            CStage::Arrived => Some(arrived(st, &mut c)),
            CStage::RetreatBeforeCharge => match retreat(st, r, &mut c) {
                Err(f) => {
                    save(st, c);
                    return f;
                }
                Ok(s) => Some(s),
            },
            CStage::Recall => match recall(st, r, &mut c) {
                Err(f) => {
                    save(st, c);
                    return f;
                }
                Ok(s) => s,
            },
            CStage::Pursue => match pursue_choice(st, &mut c) {
                Err(f) => {
                    save(st, c);
                    return f;
                }
                Ok(s) => s,
            },
            CStage::UnsuppliedArtillery => Some(unsupplied(st, &mut c)),
            CStage::RollToStand => Some(roll_to_stand(st, r, &mut c)),
            CStage::Fire => Some(defensive_fire(st, r, &mut c)),
            CStage::Resolve => Some(resolve(st, r, &mut c)),
            CStage::Advance => Some(advance_after(st, r, &mut c)),
            CStage::Regroup => Some(regroup(st, &c)),
            _ => return Flow::Done,
        };
        if let Some(s) = next {
            c.stage = s;
        }
        let over = c.stage == CStage::Over;
        save(st, c);
        if over {
            return Flow::Done;
        }
        if st.charge(id).is_some_and(|x| x.stage == CStage::Moving) {
            // A new target or a pursuit: the charge moves again, then fights.
            st.agenda.insert(0, Task::ChargeMelee(id));
            st.agenda.insert(0, Task::ChargeMove(id));
            return Flow::Done;
        }
    }
}

/// The charge has arrived: what it fights decides the procedure — against PGD a pursuit and
/// regroup at once, else the cavalry or the infantry-and-artillery mêlée (a reaction charge
/// goes straight to resolution).
fn arrived(st: &mut LbState, c: &mut Charge) -> CStage {
    let id = c.id;
    c.kind = kind(st, c);
    match c.kind {
        None => {
            st.say(format!("C{id}: nothing is left in {}.", st.label(c.target)));
            CStage::Advance
        }
        Some(TargetKind::Pgd) => {
            let (_, routed) = targets(st, c);
            let names: Vec<String> = routed.iter().map(|u| u.name.clone()).collect();
            st.say(format!(
                "C{id}: Cavalry Charge vs. PGD against {}.",
                join(&names)
            ));
            pursue(st, c, &names);
            movement::rout(st, &names);
            CStage::Regroup
        }
        Some(k) => {
            st.say(format!(
                "C{id}: Cavalry Charge vs. {} Mêlée Procedure.",
                if k == TargetKind::Cavalry {
                    "Cavalry"
                } else {
                    "Infantry and Artillery"
                }
            ));
            if c.reactor_of.is_some() {
                CStage::Resolve
            } else {
                CStage::RetreatBeforeCharge
            }
        }
    }
}

/// The chargers advance into the target hex if no enemy is left fighting there, Disordered,
/// drawing opportunity fire; then they regroup.
fn advance_after(st: &mut LbState, r: &mut dyn Roller, c: &mut Charge) -> CStage {
    let id = c.id;
    let (fighting, _) = targets(st, c);
    if fighting.is_empty() && st.at(c.target).iter().all(|u| u.side == c.side) {
        let names: Vec<String> = units_of(st, c).iter().map(|u| u.name.clone()).collect();
        movement::place(st, &names, c.target);
        for n in &names {
            if let Some(u) = st.unit_mut(n)
                && u.cohesion == Cohesion::GoodOrder
            {
                u.cohesion = Cohesion::Disordered;
            }
        }
        c.path.push(c.target);
        st.say(format!(
            "C{id}: {} advance into {} and {} Disordered.",
            join(&names),
            st.label(c.target),
            if names.len() == 1 { "is" } else { "are" }
        ));
        save(st, c.clone());
        movement::opportunity(st, r, &names, c.target);
        *c = st.charge(id).cloned().expect("exists");
    }
    CStage::Regroup
}

/// The regroup: the chargers fall back, Exhausted after a mêlée other than against PGD.
fn regroup(st: &mut LbState, c: &Charge) -> CStage {
    let n = st.data.rules.regroup_hexes.int().max(0) as u32;
    save(st, c.clone());
    fall_back(st, c, n);
    let exhausted = c.melee && c.kind != Some(TargetKind::Pgd);
    mark(st, c, exhausted);
    mark_original(st, c);
    CStage::Over
}
