//! Mission set-up (§17 lost; bridge rules R20): checks that the opening positions are on the
//! map and within stacking, and carries out the sealed set-up orders (PLACE in the side's zone,
//! HIDE, DUMMY, FACE). It places counters only; what the enemy learns is decided by `view`.

use crate::board::hex::Hex;
use crate::engine::SetupRefused;
use crate::rulesets::kit::roster::Roster;

use super::data::Kind;
use super::stacking;
use super::state::{LhyState, Order, Place, Status, Unit};

/// The scenario's own positions must be on the map and within the stacking limits (§2.4).
pub fn check_positions(s: &LhyState) -> Result<(), SetupRefused> {
    for u in s.on_map() {
        if !s.map.on_map(u.at) {
            return Err(SetupRefused::Scenario(format!(
                "unit {}: its hex is off the map",
                u.name
            )));
        }
    }
    for side in &s.seat_order {
        if let Some(h) = stacking::over(s, side).first() {
            return Err(SetupRefused::Scenario(format!(
                "{side}: the units set up in {} break the stacking limits (§2.4)",
                s.name_of(*h)
            )));
        }
    }
    Ok(())
}

/// The refusal of a line set-up does not take (README "Set-up orders").
pub const NOT_SET_UP: &str = "at set-up give PLACE, HIDE, DUMMY, FACE or standing reactions";

/// Is `h` in `side`'s set-up zone?
pub fn in_zone(s: &LhyState, side: &str, h: Hex) -> bool {
    s.zones
        .iter()
        .any(|(z, hexes)| z == side && hexes.contains(&h))
}

/// Dummies `side` may still place.
pub fn dummies_left(s: &LhyState, side: &str) -> u32 {
    let allowed = s
        .dummies_allowed
        .iter()
        .find(|(z, _)| z == side)
        .map_or(0, |(_, n)| *n);
    let placed = s
        .units
        .iter()
        .filter(|u| u.side == side && u.dummy())
        .count() as u32;
    allowed.saturating_sub(placed)
}

/// Checks one set-up order for `side`; `Ok` changes nothing.
pub fn check(s: &LhyState, side: &str, o: &Order, dummies: &mut u32) -> Result<(), String> {
    match o {
        Order::Place { unit, hex } => {
            let u = own(s, side, unit)?;
            if u.place != Place::Map {
                return Err(format!(
                    "{unit} is not on the map (it waits in its platoon's pool)"
                ));
            }
            if !in_zone(s, side, *hex) {
                return Err(format!("{} is outside your set-up zone", s.name_of(*hex)));
            }
            if s.map.enter_cost(&s.data, *hex, *hex, u.vehicle()).is_none() && u.vehicle() {
                return Err(format!("{} may not set up in {}", unit, s.name_of(*hex)));
            }
            Ok(())
        }
        Order::Hide { unit } => {
            let u = own(s, side, unit)?;
            if u.vehicle() {
                return Err("R20: vehicles are not placed hidden".into());
            }
            Ok(())
        }
        Order::Dummy { hex } => {
            if *dummies == 0 {
                return Err("you have no dummies left to place".into());
            }
            if !in_zone(s, side, *hex) {
                return Err(format!("{} is outside your set-up zone", s.name_of(*hex)));
            }
            *dummies -= 1;
            Ok(())
        }
        Order::Face { unit, .. } => {
            let u = own(s, side, unit)?;
            if !(u.vehicle() || u.kind == Kind::Fp || u.kind == Kind::Gun) {
                return Err(format!("{unit} has no facing (vehicles, guns and FPs do)"));
            }
            Ok(())
        }
        _ => Err(NOT_SET_UP.into()),
    }
}

fn own<'a>(s: &'a LhyState, side: &str, name: &str) -> Result<&'a Unit, String> {
    s.units
        .iter()
        .find(|u| u.name == name && u.side == side)
        .ok_or_else(|| format!("{name} is not one of your units"))
}

/// Carries out `side`'s checked set-up orders.
pub fn apply(s: &mut LhyState, side: &str, orders: &[Order]) {
    for o in orders {
        match o {
            Order::Place { unit, hex } => {
                let serial = s.next_serial();
                if let Some(u) = s.unit_mut(unit) {
                    u.at = *hex;
                    u.arrived = serial;
                }
            }
            Order::Hide { unit } => {
                if let Some(u) = s.unit_mut(unit) {
                    u.hidden = true;
                }
            }
            Order::Dummy { hex } => {
                let n = s
                    .units
                    .iter()
                    .filter(|u| u.side == side && u.dummy())
                    .count()
                    + 1;
                let serial = s.next_serial();
                let class = s
                    .data
                    .classes
                    .iter()
                    .find(|(_, c)| c.kind == Kind::Dummy)
                    .map(|(k, _)| k.clone())
                    .unwrap_or_else(|| "dummy".into());
                s.units.push(Unit {
                    name: format!("{}-D{n}", side.to_uppercase()),
                    side: side.to_string(),
                    class,
                    kind: Kind::Dummy,
                    platoon: None,
                    place: Place::Map,
                    at: *hex,
                    steps: 1,
                    status: Status::Good,
                    heroic: false,
                    concealed: true,
                    hidden: false,
                    known: false,
                    done: None,
                    motion: Default::default(),
                    started: false,
                    stopped: false,
                    facing: None,
                    overran: false,
                    aboard: None,
                    under_bridge: false,
                    arrived: serial,
                    heroic_acted: false,
                    quality: None,
                    lost: false,
                    stands_for: None,
                });
            }
            Order::Face { unit, dir } => {
                if let Some(u) = s.unit_mut(unit) {
                    u.facing = Some(*dir);
                }
            }
            _ => {}
        }
    }
}
