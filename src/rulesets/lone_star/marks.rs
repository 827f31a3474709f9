//! What the map says of riders, machines and escorts (R35, R40–R45): troops aboard are drawn
//! inside their carrier (the carrier names them), machines and escorts carry a badge for what
//! they are. It only reads the state.

use crate::engine::scene::{Marker, Tone};

use super::data::Arm;
use super::state::{State, Unit};

/// Is the unit drawn as a base of its own? Troops aboard are inside their carrier, and a unit
/// that has left the table (routed, marched off with prisoners, flown or rolled off) is not
/// on it; a destroyed one stays, drawn as a wreck.
pub fn drawn(u: &Unit) -> bool {
    u.aboard.is_none()
        && !u
            .gone
            .as_deref()
            .is_some_and(|g| g.contains("off the table"))
}

/// The badges of a unit beyond the common ones (hidden, routing, melee…).
pub fn markers(state: &State, u: &Unit) -> Vec<Marker> {
    let mut out = Vec::new();
    if let Some(p) = super::wagons::passenger(state, &u.name) {
        out.push(Marker::status(format!("carrying {}", p.name), Tone::Info));
    }
    if u.arm == Arm::Windwagon && u.halted {
        out.push(Marker::status("halted", Tone::Info));
    }
    let m = u.machine.clone().unwrap_or_default();
    match u.arm {
        Arm::Panjandrum if m.fuse.is_some() => {
            out.push(Marker::status("panjandrum: charge set", Tone::Danger))
        }
        Arm::Panjandrum if m.run > 0 => out.push(Marker::status(
            format!("panjandrum: rolling, turn {}", m.run),
            Tone::Warning,
        )),
        Arm::Panjandrum => out.push(Marker::status("panjandrum", Tone::Info)),
        Arm::Zeppelin if m.landed => out.push(Marker::status("landed", Tone::Info)),
        Arm::Zeppelin | Arm::Aeroplane => out.push(Marker::status("airborne", Tone::Info)),
        _ => {}
    }
    if u.escorting > 0 {
        out.push(Marker::status(
            format!("{} prisoners", u.escorting),
            Tone::Spent,
        ));
    }
    out
}
