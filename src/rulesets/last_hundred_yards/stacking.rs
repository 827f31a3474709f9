//! §2.4 Unit Stacking: the limits per player per hex (squads, MG sections, vehicles, towed
//! guns, FPs, non-combat units), checked at the end of each Platoon Activation Cycle, and the
//! excess the owner eliminates (by his choice, or by default the latest arrivals). Counts only;
//! it never moves a unit.

use std::collections::BTreeSet;

use crate::board::hex::Hex;

use super::data::{Ground, Kind};
use super::state::{LhyState, Place, Unit};

/// What a stack holds, in the units §2.4 counts.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Count {
    /// Half-squads: a squad is 2, a section 1, an FP 2 × `fp_squads`.
    pub halves: i32,
    pub mgs: i32,
    pub vehicles: i32,
    pub guns: i32,
    pub fps: i32,
    pub non_combat: i32,
}

pub fn count<'a>(s: &LhyState, units: impl IntoIterator<Item = &'a Unit>) -> Count {
    let mut c = Count::default();
    for u in units {
        match u.kind {
            Kind::Squad => c.halves += 2,
            Kind::Section => c.halves += 1,
            // R8: mortar sections count with the MG sections (both heavy weapons, §3.2).
            Kind::Mg | Kind::Mortar => c.mgs += 1,
            Kind::Afv | Kind::Halftrack | Kind::Truck => c.vehicles += 1,
            Kind::Gun => c.guns += 1,
            Kind::Fp => {
                c.fps += 1;
                c.halves += 2 * s.data.rules.fp_squads.int();
            }
            Kind::Leader | Kind::Latw => c.non_combat += 1,
            Kind::Dummy => {}
        }
    }
    c
}

/// Why a stack breaks §2.4, if it does.
pub fn breach(s: &LhyState, hex: Hex, c: Count) -> Option<String> {
    let r = &s.data.rules;
    let vehicles = if s.map.ground(hex) == Ground::UrbanRoad {
        r.stack_vehicles_urban_road.int()
    } else {
        r.stack_vehicles.int()
    };
    let checks = [
        (
            c.halves,
            2 * r.stack_squads.int(),
            "squads (two sections make a squad, an FP two)",
        ),
        (c.mgs, r.stack_mgs.int(), "MG and mortar sections"),
        (c.vehicles, vehicles, "vehicles"),
        (c.guns, r.stack_guns.int(), "towed guns"),
        (c.fps, r.stack_fps.int(), "fortified positions"),
        (
            c.non_combat,
            r.stack_non_combat.int(),
            "platoon leaders and LATW sections",
        ),
    ];
    checks
        .into_iter()
        .find(|(n, max, _)| n > max)
        .map(|(n, max, what)| {
            if what.starts_with("squads") {
                format!(
                    "{} squad-equivalents of {what}; at most {}",
                    f64::from(n) / 2.0,
                    max / 2
                )
            } else {
                format!("{n} {what}; at most {max}")
            }
        })
}

/// The side's units on the map in `hex` (dummies never count).
pub fn stack_in<'a>(s: &'a LhyState, side: &'a str, hex: Hex) -> Vec<&'a Unit> {
    s.units
        .iter()
        .filter(|u| u.place == Place::Map && u.side == side && u.at == hex && !u.dummy())
        .collect()
}

/// Hexes where `side` is over the limits now.
pub fn over(s: &LhyState, side: &str) -> Vec<Hex> {
    let hexes: BTreeSet<Hex> = s
        .on_map()
        .filter(|u| u.side == side && !u.dummy())
        .map(|u| u.at)
        .collect();
    hexes
        .into_iter()
        .filter(|h| breach(s, *h, count(s, stack_in(s, side, *h))).is_some())
        .collect()
}

/// The default choice (silence): the latest arrivals go first until the stack is legal.
pub fn default_eliminations(s: &LhyState, side: &str) -> Vec<String> {
    let mut out = Vec::new();
    for h in over(s, side) {
        let mut stack: Vec<&Unit> = stack_in(s, side, h);
        stack.sort_by_key(|u| u.arrived);
        while breach(s, h, count(s, stack.iter().copied())).is_some() {
            // Remove the latest unit whose removal helps; the latest overall otherwise.
            let before = count(s, stack.iter().copied());
            let idx = (0..stack.len())
                .rev()
                .find(|&i| {
                    let rest = stack
                        .iter()
                        .enumerate()
                        .filter(|(j, _)| *j != i)
                        .map(|(_, u)| *u);
                    count(s, rest) != before
                        && breach_kind(s, h, before) == breach_kind_of(s, stack[i])
                })
                .unwrap_or(stack.len() - 1);
            out.push(stack.remove(idx).name.clone());
        }
    }
    out
}

fn breach_kind(s: &LhyState, h: Hex, c: Count) -> Option<&'static str> {
    let msg = breach(s, h, c)?;
    Some(if msg.contains("squad-equivalents") {
        "squads"
    } else if msg.contains("MG") {
        "mgs"
    } else if msg.contains("vehicles") {
        "vehicles"
    } else if msg.contains("towed") {
        "guns"
    } else if msg.contains("fortified") {
        "fps"
    } else {
        "non_combat"
    })
}

fn breach_kind_of(_s: &LhyState, u: &Unit) -> Option<&'static str> {
    Some(match u.kind {
        Kind::Squad | Kind::Section => "squads",
        Kind::Mg | Kind::Mortar => "mgs",
        Kind::Afv | Kind::Halftrack | Kind::Truck => "vehicles",
        Kind::Gun => "guns",
        Kind::Fp => "fps",
        Kind::Leader | Kind::Latw => "non_combat",
        Kind::Dummy => return None,
    })
}
