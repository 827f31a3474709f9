//! The sealed combat step's orders and the extra half move: `FIRE`, the declarations
//! (`PRISONERS`, `GAS`, `GRENADES`, `REVEAL`, `STAY`, `LEAVE`) and `EXTRA`.

use crate::rulesets::kit::grammar::{Cursor, LineErr, num, refuse};

use super::super::state::{Fig, Phase, State};
use super::{Aim, Email, Order, enemy, on_table, own, ride};

const DECLARES: &[&str] = &["PRISONERS", "GAS", "GRENADES", "REVEAL", "STAY", "LEAVE"];

by_word!(declare: prisoners => "PRISONERS", gas => "GAS", grenades => "GRENADES",
    reveal => "REVEAL", stay => "STAY", leave => "LEAVE");

pub(super) fn fire(state: &State, cx: &mut Email, c: &mut Cursor) -> Result<Order, LineErr> {
    let u = own(state, cx, c)?;
    ride::may_fire(u)?;
    if c.eat("NONE") {
        return Ok(Order::Fire {
            unit: u.name.clone(),
            aim: Aim::Nothing,
        });
    }
    c.expect("AT")?;
    if let Some(g) = &u.gun {
        let p = c.point(&[])?;
        let p = on_table(state, p, c)?;
        let r = crate::board::tabletop::dist(u.pos, p);
        if r < g.range_min || r > g.range_max {
            return refuse(format!(
                "{} fires from {}\" to {}\"; that point is {}\" away",
                u.name,
                num(g.range_min),
                num(g.range_max),
                num((r * 10.0).round() / 10.0)
            ));
        }
        if !state.in_front(u, p) {
            return refuse("a gun fires into its 180° front only (L15)");
        }
        return Ok(Order::Fire {
            unit: u.name.clone(),
            aim: Aim::Point(p),
        });
    }
    let t = enemy(state, cx, c)?;
    ride::fire_target(state, t)?;
    // Legality is decided when the mail is read: the moves are over, so sight, arc, range and
    // melee are known now (an order accepted here and "cannot fire" at resolution fired at
    // nobody).
    if u.routing {
        return refuse(format!("{} is routing and will not shoot (L5)", u.name));
    }
    if let Some(why) = crate::rulesets::lone_star::aim::shot_refusal(state, u, t) {
        return refuse(format!("{} cannot fire at {}: {why}", u.name, t.name));
    }
    Ok(Order::Fire {
        unit: u.name.clone(),
        aim: Aim::Unit(t.name.clone()),
    })
}

pub(super) fn declare(
    state: &State,
    cx: &mut Email,
    c: &mut Cursor,
    word: &str,
) -> Result<Order, LineErr> {
    let u = own(state, cx, c)?;
    let what = super::keyword(DECLARES, word)?;
    let why = match what {
        "GAS" if u.gas == 0 || !u.gas_masks => Some("gas needs gas masks and gas uses (L12)"),
        "GAS" | "GRENADES" if u.count(Fig::Grenadier) == 0 => Some("the unit has no grenadiers"),
        "REVEAL" if !u.hidden => Some("the unit is not hidden"),
        "STAY" | "LEAVE" if u.melee.is_empty() => Some("the unit is not in melee"),
        _ => None,
    };
    if let Some(why) = why {
        return refuse(why);
    }
    Ok(Order::Declare {
        unit: u.name.clone(),
        what,
    })
}

pub(super) fn extra(state: &State, cx: &mut Email, c: &mut Cursor) -> Result<Order, LineErr> {
    let u = own(state, cx, c)?;
    // On the card the unit may be getting out in this same mail; later steps know it rides.
    if !matches!(state.phase, Phase::Move { .. }) {
        super::march::not_aboard(u, "EXTRA")?;
    }
    if !u.on_foot() {
        return refuse("only infantry on foot takes the extra half move (L6)");
    }
    let to = if c.eat("NONE") {
        None
    } else {
        // `EXTRA Rangers TO 24,18` as a newcomer writes it, like MOVE.
        c.eat("TO");
        let p = c.point(&[])?;
        Some(on_table(state, p, c)?)
    };
    Ok(Order::Extra {
        unit: u.name.clone(),
        to,
    })
}
