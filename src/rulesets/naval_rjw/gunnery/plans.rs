//! Fire plans before they are resolved: the standing plan a side without orders fires (R24),
//! and the static checks of FIRE orders when they are given. Nothing here rolls or logs.

use std::collections::BTreeSet;

use super::super::data::ShipClass;
use super::super::state::{Fate, FireOrder, NavalState, Ship, StandingFire};
use super::super::stats::{can_fire, find_ship, has_secondary, is_flagship};
use super::battery;
use super::legality::target_legal;

/// A standing fire plan (R24): every ship able to fire engages the nearest legal target (capital
/// ships' main batteries prefer capital targets, leaving destroyers to the secondaries), with the
/// other legal targets as ELSE; FLAGSHIP puts the enemy flagship first. CA/BB secondaries then
/// engage the nearest destroyers. No supports.
pub fn standing_plan(state: &NavalState, side: &str, mode: StandingFire) -> Vec<FireOrder> {
    let mut mains = Vec::new();
    let mut secondaries = Vec::new();
    for firer in state.ships.iter().filter(|s| s.side == side && can_fire(s)) {
        let mut cands: Vec<(bool, bool, f64, &Ship)> = state
            .ships
            .iter()
            .filter_map(|t| {
                let s = target_legal(state, side, firer, t, false).ok()?;
                let flag_first = mode == StandingFire::Flagship && is_flagship(state, t);
                let small = has_secondary(firer) && t.class == ShipClass::DD;
                Some((!flag_first, small, s.range, t))
            })
            .collect();
        cands.sort_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)).then(a.2.total_cmp(&b.2)));
        if !cands.is_empty() {
            mains.push(FireOrder {
                ship: firer.name.clone(),
                secondary: false,
                targets: cands.iter().map(|c| c.3.name.clone()).collect(),
                support: vec![],
            });
        }
        if has_secondary(firer) {
            let mut dds: Vec<(f64, &Ship)> = state
                .ships
                .iter()
                .filter_map(|t| Some((target_legal(state, side, firer, t, true).ok()?.range, t)))
                .collect();
            dds.sort_by(|a, b| a.0.total_cmp(&b.0));
            if !dds.is_empty() {
                secondaries.push(FireOrder {
                    ship: firer.name.clone(),
                    secondary: true,
                    targets: dds.iter().map(|d| d.1.name.clone()).collect(),
                    support: vec![],
                });
            }
        }
    }
    mains.extend(secondaries);
    mains
}

/// Static check of one FIRE order when it is given (LOS, range and hit markers are judged when
/// she fires): own firer afloat, enemy targets not sunk, no self-support, at most
/// `max_supporters`, secondary batteries only on CA/BB and only at destroyers.
pub fn check_fire_order(state: &NavalState, side: &str, o: &FireOrder) -> Result<(), String> {
    let firer =
        find_ship(state, &o.ship).ok_or_else(|| format!("there is no ship named {}", o.ship))?;
    if firer.side != side {
        return Err(format!("{} is not one of your ships", firer.name));
    }
    match firer.fate {
        Fate::Afloat => {}
        Fate::Sunk => return Err(format!("{} has sunk", firer.name)),
        Fate::Struck => return Err(format!("{} has struck her colours", firer.name)),
        Fate::Escaped => return Err(format!("{} has left the table", firer.name)),
    }
    if o.secondary && !has_secondary(firer) {
        return Err(format!(
            "{} is a {}: only armoured cruisers and battleships have secondary batteries",
            firer.name,
            firer.class.abbr()
        ));
    }
    if o.targets.is_empty() {
        return Err(format!("{} has no target", firer.name));
    }
    for t in &o.targets {
        let target = find_ship(state, t).ok_or_else(|| format!("there is no ship named {t}"))?;
        if target.side == side {
            return Err(format!("{} is one of your own ships", target.name));
        }
        match target.fate {
            Fate::Afloat => {}
            Fate::Sunk => return Err(format!("{} has already sunk", target.name)),
            Fate::Struck => return Err(format!("{} has struck her colours", target.name)),
            Fate::Escaped => return Err(format!("{} has left the table", target.name)),
        }
        if o.secondary && target.class != ShipClass::DD {
            return Err(format!(
                "secondary batteries may fire only at destroyers, and {} is a {}",
                target.name,
                target.class.abbr()
            ));
        }
    }
    let max = state.data.rules.max_supporters.get().round().max(0.0) as usize;
    if o.support.len() > max {
        return Err(format!("at most {max} ships may support one attack"));
    }
    let mut seen = BTreeSet::new();
    for s in &o.support {
        let sup = find_ship(state, s).ok_or_else(|| format!("there is no ship named {s}"))?;
        if sup.name == firer.name {
            return Err(format!("{} cannot support her own attack", sup.name));
        }
        if sup.side != side {
            return Err(format!("{} is not one of your ships", sup.name));
        }
        if sup.fate != Fate::Afloat {
            return Err(format!(
                "{} is out of the fight and cannot support",
                sup.name
            ));
        }
        if !seen.insert(sup.name.clone()) {
            return Err(format!("{} is named twice as a supporter", sup.name));
        }
        if o.secondary && sup.class == ShipClass::CL {
            return Err(format!(
                "{} is a light cruiser: only secondary batteries and destroyers support a secondary battery",
                sup.name
            ));
        }
    }
    Ok(())
}

/// Whole-plan check: each ship may have one main-battery FIRE and (CA/BB) one SECONDARY FIRE.
/// Returns (index in the plan, reason) for every offending order.
pub fn check_fire_plan(state: &NavalState, side: &str, plan: &[FireOrder]) -> Vec<(usize, String)> {
    let mut bad = Vec::new();
    let mut seen = BTreeSet::new();
    for (i, o) in plan.iter().enumerate() {
        if let Err(e) = check_fire_order(state, side, o) {
            bad.push((i, e));
            continue;
        }
        let name = find_ship(state, &o.ship).map_or(o.ship.clone(), |s| s.name.clone());
        if !seen.insert((name.clone(), o.secondary)) {
            bad.push((
                i,
                format!("{} already has a fire order", battery(&name, o.secondary)),
            ));
        }
    }
    bad
}
