//! Parsers of the fire orders (FIRE, SMOKE, STANDING FIRE) and of PASS, checked against what
//! the email's earlier lines already fire or support. They never change the state.

use std::collections::BTreeSet;

use crate::rulesets::kit::grammar::{Cursor, LineErr, refuse};
use crate::rulesets::naval_rjw::data::ShipClass;
use crate::rulesets::naval_rjw::gunnery;
use crate::rulesets::naval_rjw::state::{Fate, FireOrder, NavalState, Order, StandingFire};

use super::sim::{Sim, Whose, own_afloat, ship, ship_of};

/// `SMOKE Akatsuki`: a destroyer lays smoke this turn.
pub fn smoke(state: &NavalState, sim: &mut Sim, c: &mut Cursor) -> Result<Order, LineErr> {
    let name = ship(state, sim, Whose::Own, c)?;
    c.end()?;
    own_afloat(state, sim, &name)?;
    if ship_of(state, &name).class != ShipClass::DD {
        return refuse("only destroyers lay smoke");
    }
    if !sim.smoke.insert(name.clone()) {
        return refuse(format!("{name} already lays smoke"));
    }
    Ok(Order::Smoke(name))
}

/// `STANDING FIRE NEAREST`, `FLAGSHIP` or `OFF`.
pub fn standing(_: &NavalState, sim: &mut Sim, c: &mut Cursor) -> Result<Order, LineErr> {
    c.expect("FIRE")?;
    let what = c.next_word().map(str::to_ascii_uppercase);
    c.end()?;
    if sim.standing {
        return refuse("STANDING FIRE given twice");
    }
    sim.standing = true;
    match what.as_deref() {
        Some("NEAREST") => Ok(Order::Standing(Some(StandingFire::Nearest))),
        Some("FLAGSHIP") => Ok(Order::Standing(Some(StandingFire::Flagship))),
        Some("OFF") => Ok(Order::Standing(None)),
        _ => Err(c.wrong("say NEAREST, FLAGSHIP or OFF")),
    }
}

/// `PASS`: nothing (more) ordered; reading stops.
pub fn pass(_: &NavalState, _: &mut Sim, c: &mut Cursor) -> Result<Order, LineErr> {
    c.end()?;
    Ok(Order::Pass)
}

/// `FIRE Mikasa [SECONDARY] AT Tsesarevich [ELSE Retvizan…] [SUPPORT Asahi Fuji]`.
pub fn fire(state: &NavalState, sim: &mut Sim, c: &mut Cursor) -> Result<Order, LineErr> {
    let ship_name = ship(state, sim, Whose::Own, c)?;
    let secondary = c.eat("SECONDARY");
    c.expect("AT")?;
    let mut targets = vec![ship(state, sim, Whose::Enemy, c)?];
    while c.eat("ELSE") {
        targets.push(ship(state, sim, Whose::Enemy, c)?);
    }
    let mut support = Vec::new();
    if c.eat("SUPPORT") {
        while !c.done() {
            support.push(ship(state, sim, Whose::Own, c)?);
        }
        if support.is_empty() {
            return Err(c.wrong("name the supporting ships after SUPPORT"));
        }
    }
    c.end()?;
    own_afloat(state, sim, &ship_name)?;
    for s in std::iter::once(&ship_name).chain(support.iter()) {
        if sim.hit_markers.get(s).copied().unwrap_or(0) > 0 {
            return Err(LineErr::new(format!(
                "{s} has a hit marker and can neither fire nor support"
            ))
            .hint(format!("REPAIR {s} in your manoeuvre orders")));
        }
    }
    let me = ship_of(state, &ship_name);
    if secondary && !matches!(me.class, ShipClass::CA | ShipClass::BB) {
        return refuse("only armoured cruisers and battleships have secondary batteries");
    }
    let mut seen = BTreeSet::new();
    for t in &targets {
        let s = ship_of(state, t);
        if s.side == sim.side {
            return refuse(format!("{t} is one of your own ships"));
        }
        if s.fate != Fate::Afloat {
            return refuse(format!("{t} is no longer a target (sunk, struck or gone)"));
        }
        if secondary && s.class != ShipClass::DD {
            return Err(LineErr::new("secondary batteries fire only at destroyers")
                .hint(format!("FIRE {ship_name} AT {t}")));
        }
        if !seen.insert(t.clone()) {
            return refuse(format!("{t} is named twice"));
        }
    }
    let max = state.data.rules.max_supporters.get().round() as usize;
    if support.len() > max {
        return refuse(format!("at most {max} ships may support an attack"));
    }
    for s in &support {
        own_afloat(state, sim, s)?;
        if *s == ship_name {
            return refuse("a ship cannot support her own attack");
        }
    }
    let used = if secondary {
        &mut sim.secondary_used
    } else {
        &mut sim.main_used
    };
    if !used.insert(ship_name.clone()) {
        return refuse(format!("{ship_name} already fires or supports this phase"));
    }
    for s in &support {
        // Secondary support comes from secondaries or destroyers (R5); those roles are tracked apart.
        let pool = if secondary && ship_of(state, s).class != ShipClass::DD {
            &mut sim.secondary_used
        } else {
            &mut sim.main_used
        };
        if !pool.insert(s.clone()) {
            return refuse(format!("{s} already fires or supports this phase"));
        }
    }
    let order = FireOrder {
        ship: ship_name,
        secondary,
        targets,
        support,
    };
    gunnery::check_fire_order(state, &sim.side, &order).map_err(|e| c.wrong(e))?;
    Ok(Order::Fire(order))
}
