//! The orders of riding and of machines (R35–R44): `EMBARK`, `DISEMBARK`, `LAUNCH`, `FLY`,
//! `DESCEND`, and what a charge may aim at now that some units ride or fly. Each parser
//! checks what it can know from the table now; the movement step checks the rest again.

use crate::engine::Rejected;
use crate::rulesets::kit::grammar::{Cursor, LineErr, Parsed, num, refuse};

use super::super::data::Arm;
use super::super::state::{State, Unit};
use super::super::wagons;
use super::{Email, Order, own};

/// One leg of a flight: a turn (−1 left, +1 right, 0 none) and then inches straight on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FlyLeg {
    pub turn: i8,
    pub inches: f64,
}

/// A charge may not aim at a machine, nor at troops riding in one, nor at a windwagon under
/// way (L12: a unit may melee a windwagon that has stopped, R38).
pub fn charge_target(t: &Unit) -> Result<(), LineErr> {
    if t.arm.is_machine() {
        return refuse(format!("{} cannot be charged (R45)", t.name));
    }
    if let Some(c) = &t.aboard {
        return refuse(format!("{} rides in {c}: charge the wagon (R38)", t.name));
    }
    if t.arm == Arm::Windwagon && !t.halted {
        return refuse(format!(
            "{} is under way; only a halted windwagon may be meleed (R38)",
            t.name
        ));
    }
    Ok(())
}

/// L12: figures in a windwagon (crew or passengers) may not shoot; machines do not fight
/// (R45).
pub fn may_fire(u: &Unit) -> Result<(), LineErr> {
    if let Some(c) = &u.aboard {
        return refuse(format!(
            "{} rides in {c}: figures aboard may not shoot (L12)",
            u.name
        ));
    }
    if u.arm.is_machine() {
        return refuse(format!(
            "{} does not fight: air combat is not played (R45)",
            u.name
        ));
    }
    // The combat step never lets a windwagon shoot; a FIRE for one would be dropped unsaid.
    if u.arm == Arm::Windwagon {
        return refuse(format!(
            "{}'s crew does not shoot: figures in a windwagon may not (L12, R38)",
            u.name
        ));
    }
    Ok(())
}

/// Small arms never aim at a machine or at troops up in a zeppelin (R45).
pub fn fire_target(state: &State, t: &Unit) -> Result<(), LineErr> {
    if let Some(c) = t.aboard.as_deref().and_then(|c| state.unit(c))
        && c.arm == Arm::Zeppelin
    {
        return refuse(format!(
            "{} is aboard {}: troops aboard a zeppelin cannot be shot at, \
             air combat is not played (R45); once out of it they are infantry",
            t.name, c.name
        ));
    }
    if !wagons::targetable(state, t) {
        return refuse(format!(
            "{} cannot be shot at: air combat is not played (R45)",
            t.name
        ));
    }
    Ok(())
}

fn carrier_named<'s>(state: &'s State, cx: &Email, c: &mut Cursor) -> Result<&'s Unit, LineErr> {
    let names = crate::rulesets::kit::grammar::Names {
        all: state
            .units
            .iter()
            .filter(|u| u.alive() && wagons::is_carrier(u))
            .map(|u| (u.name.as_str(), u.side == cx.side))
            .collect(),
        what: "windwagon or zeppelin of your side",
        stop: super::STOP_WORDS,
        max_words: 4,
    };
    let n = c.name(&names)?;
    Ok(state.unit(&n).expect("named"))
}

pub fn embark(state: &State, cx: &mut Email, c: &mut Cursor) -> Result<Order, LineErr> {
    let u = own(state, cx, c)?;
    let w = carrier_named(state, cx, c)?;
    // The seat's own wagon under way may be halted by a STOP of this same mail, its own
    // zeppelin landed by a DESCEND, before the unit boards (carriers move first); `parse`
    // reads the whole mail for those lines (`unready_carriers`).
    let own_carrier = w.seat == u.seat;
    if let Some(why) = wagons::boarding_refusal(state, u, w, own_carrier) {
        return refuse(why);
    }
    Ok(Order::Embark {
        unit: u.name.clone(),
        carrier: w.name.clone(),
    })
}

pub fn disembark(state: &State, cx: &mut Email, c: &mut Cursor) -> Result<Order, LineErr> {
    let u = own(state, cx, c)?;
    let Some(carrier) = u.aboard.as_deref().and_then(|n| state.unit(n)) else {
        return refuse(format!("{} rides in nothing", u.name));
    };
    // Another seat's carrier has moved already this turn or moves after this seat: if it is
    // not halted (a wagon) or hovering or landed (a zeppelin) now, it will not be when this
    // unit moves. The seat's own carrier may yet be stopped by a line of this same mail: for
    // a windwagon `parse` looks for that STOP over the whole mail, for a zeppelin at its
    // FLY line (`unready_carriers`).
    if carrier.seat != u.seat && !wagons::open_for_troops(carrier) {
        return refuse(format!(
            "{} is {}: troops get out only of a halted windwagon or a hovering or landed \
             zeppelin (R36, R44)",
            carrier.name,
            if carrier.arm == Arm::Windwagon {
                "not halted (it is under way)"
            } else {
                "flying (neither hovering nor landed)"
            }
        ));
    }
    let to = if c.done() {
        None
    } else {
        let p = c.point(&[])?;
        Some(super::on_table(state, p, c)?)
    };
    Ok(Order::Disembark {
        unit: u.name.clone(),
        to,
    })
}

pub fn launch(state: &State, cx: &mut Email, c: &mut Cursor) -> Result<Order, LineErr> {
    let u = own(state, cx, c)?;
    if u.arm != Arm::Panjandrum {
        return refuse(format!("{} is not a panjandrum", u.name));
    }
    if u.machine.as_ref().is_some_and(|m| m.run > 0) {
        return refuse(format!("{} is rolling already (R41)", u.name));
    }
    Ok(Order::Launch {
        unit: u.name.clone(),
        bearing: c.bearing("the bearing")?,
    })
}

pub fn descend(state: &State, cx: &mut Email, c: &mut Cursor) -> Result<Order, LineErr> {
    let u = own(state, cx, c)?;
    if u.arm != Arm::Zeppelin {
        return refuse(format!("{} is not a zeppelin", u.name));
    }
    if u.machine.as_ref().is_some_and(|m| m.landed) {
        return refuse(format!("{} is on the ground already", u.name));
    }
    if !u.halted {
        return refuse(
            "a zeppelin must stop (HOLD) for a turn before it takes a turn to descend (R44)",
        );
    }
    Ok(Order::Act {
        unit: u.name.clone(),
        act: "DESCEND",
    })
}

/// `FLY Adler 8 RIGHT 6`: inches straight on, then any number of `LEFT|RIGHT inches`.
pub fn fly(state: &State, cx: &mut Email, c: &mut Cursor) -> Result<Order, LineErr> {
    let u = own(state, cx, c)?;
    let mut legs = vec![FlyLeg {
        turn: 0,
        inches: c.number("the inches to fly straight on")?,
    }];
    while !c.done() {
        let turn = c.one_of(&[("LEFT", -1i8), ("RIGHT", 1i8)])?;
        legs.push(FlyLeg {
            turn,
            inches: c.number("the inches after the turn")?,
        });
    }
    if legs.iter().any(|l| l.inches < 0.0) {
        return refuse("inches are never negative");
    }
    if let Some(why) = flight_refusal(state, u, &legs) {
        return refuse(why);
    }
    Ok(Order::Fly {
        unit: u.name.clone(),
        legs,
    })
}

/// R44: the limits of a flight. A zeppelin flies up to 18", with one 45° turn only after 6"
/// straight and then up to 6" more; an aeroplane up to 30", 22.5° a turn, each turn after at
/// least 2" straight and costing an inch.
pub fn flight_refusal(state: &State, u: &Unit, legs: &[FlyLeg]) -> Option<String> {
    let r = &state.data.rules;
    let flown: f64 = legs.iter().map(|l| l.inches).sum();
    let turns = legs.iter().filter(|l| l.turn != 0).count();
    match u.arm {
        Arm::Zeppelin => {
            let max = r.zeppelin_move.get();
            if flown > max + 1e-9 {
                return Some(format!("a zeppelin flies at most {}\" a turn", num(max)));
            }
            if turns > 1 {
                return Some("a zeppelin turns once a turn, 45 degrees".into());
            }
            if turns == 1 {
                let before = r.zeppelin_straight_before_turn.get();
                let after = r.zeppelin_after_turn.get();
                if legs[0].inches < before - 1e-9 {
                    return Some(format!(
                        "a zeppelin turns only after {}\" straight",
                        num(before)
                    ));
                }
                if legs[1].inches > after + 1e-9 {
                    return Some(format!(
                        "after its turn a zeppelin flies at most {}\"",
                        num(after)
                    ));
                }
            }
            None
        }
        Arm::Aeroplane => {
            let max = r.aeroplane_move.get();
            let cost = flown + turns as f64 * r.aeroplane_turn_cost.get();
            if cost > max + 1e-9 {
                return Some(format!(
                    "an aeroplane flies at most {}\" a turn, each turn costing {}\" (this is {}\")",
                    num(max),
                    num(r.aeroplane_turn_cost.get()),
                    num(cost)
                ));
            }
            let every = r.aeroplane_turn_every.get();
            if legs
                .windows(2)
                .any(|w| w[1].turn != 0 && w[0].inches < every - 1e-9)
            {
                return Some(format!(
                    "an aeroplane turns only after {}\" straight",
                    num(every)
                ));
            }
            None
        }
        _ => Some(format!("{} does not fly", u.name)),
    }
}

/// R36 and R44 over the whole mail: boarding or leaving the seat's own carrier is judged on
/// the state its own lines of the same mail leave it in, since carriers move before the
/// seat's other units. A windwagon under way serves only if a `STOP` halts it; a zeppelin
/// takes troops on only if it is landed (and no `FLY` lifts it off) or hovering with a
/// `DESCEND`, and lets them out unless a `FLY` carries it on (silent, it hovers). Without
/// such a line the troops' line is refused with its reason. (Another seat's carrier was
/// judged line by line.)
pub fn unready_carriers(state: &State, read: &[Parsed<Order>]) -> Vec<Rejected> {
    let stopped = |w: &str| {
        read.iter()
            .any(|p| matches!(&p.order, Order::Act { unit, act: "STOP" } if unit == w))
    };
    let mut out = Vec::new();
    for p in read {
        let (rider, wagon, boarding) = match &p.order {
            Order::Embark { unit, carrier } => (state.unit(unit), state.unit(carrier), true),
            Order::Disembark { unit, .. } => (
                state.unit(unit),
                state
                    .unit(unit)
                    .and_then(|u| u.aboard.as_deref())
                    .and_then(|c| state.unit(c)),
                false,
            ),
            _ => continue,
        };
        let (Some(w), Some(r)) = (wagon, rider) else {
            continue;
        };
        if w.seat != r.seat {
            continue;
        }
        let verb = if boarding { "board" } else { "get out of" };
        let refusal = match w.arm {
            Arm::Windwagon if !w.halted && !stopped(&w.name) => Some((
                format!(
                    "{} is not halted (it is under way): troops {verb} only a halted windwagon, \
                     and no STOP in this mail halts it first (R36)",
                    w.name
                ),
                Some(format!("add the line STOP {}", w.name)),
            )),
            Arm::Zeppelin => zeppelin_refusal(w, read, boarding),
            _ => None,
        };
        if let Some((reason, hint)) = refusal {
            out.push(Rejected {
                line: p.line,
                text: p.text.clone(),
                reason,
                hint,
            });
        }
    }
    out
}

/// Why troops may not board (`boarding`) or leave zeppelin `z` after the zeppelin's own
/// lines of this mail, if they may not, with a hint. It mirrors `machines::flight`: a
/// `DESCEND` lands a hovering zeppelin; a `FLY` lifts a landed one off (then it hovers) or
/// carries a flying or hovering one on (any inches: flying); silent, it hovers or stays down.
fn zeppelin_refusal(
    z: &Unit,
    read: &[Parsed<Order>],
    boarding: bool,
) -> Option<(String, Option<String>)> {
    let name = &z.name;
    let landed = z.machine.as_ref().is_some_and(|m| m.landed);
    let flies = read.iter().find_map(|p| match &p.order {
        Order::Fly { unit, legs } if unit == name => {
            Some(legs.iter().map(|l| l.inches).sum::<f64>())
        }
        _ => None,
    });
    let descends = read
        .iter()
        .any(|p| matches!(&p.order, Order::Act { unit, act: "DESCEND" } if unit == name));
    let state = if landed {
        "landed"
    } else if z.halted {
        "hovering"
    } else {
        "flying"
    };
    if boarding {
        let down = (landed && flies.is_none()) || (!landed && z.halted && descends);
        return (!down).then(|| match (landed, z.halted) {
            (true, _) => (
                format!(
                    "{name} lifts off in this mail (FLY) before the troops board: troops board \
                     only a landed zeppelin (R35, R44)"
                ),
                Some(format!("leave out the line FLY {name}")),
            ),
            (false, true) => (
                format!(
                    "{name} is hovering, not landed: troops board only a landed zeppelin, and \
                     no DESCEND in this mail lands it first (R35, R44)"
                ),
                Some(format!("add the line DESCEND {name}")),
            ),
            (false, false) => (
                format!(
                    "{name} is {state}: troops board only a landed zeppelin, and it must hover \
                     a turn (HOLD) before it may DESCEND (R35, R44)"
                ),
                Some(format!("HOLD {name} this turn, DESCEND {name} the next")),
            ),
        });
    }
    let carried_on = !landed && flies.is_some_and(|inches| inches > 0.0);
    carried_on.then(|| {
        (
            format!(
                "{name} is {state} and flies on in this mail (FLY): troops get out only of a \
                 hovering or landed zeppelin (R36, R44)"
            ),
            Some(format!("leave out the line FLY {name} (silent, it hovers)")),
        )
    })
}
