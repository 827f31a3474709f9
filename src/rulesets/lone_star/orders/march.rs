//! The movement step's orders (the card holder's mail): `MOVE`, `FORM`, `FACE`, `CHARGE`,
//! the acts (`ENTRENCH` … `STOP`), `SMOKE` and `SAIL`. Each parser checks what it can know
//! from the table now; the movement step checks the rest again as the unit goes.

use crate::board::tabletop::Pt;
use crate::rulesets::kit::grammar::{Cursor, LineErr, refuse};

use super::super::data::Arm;
use super::super::state::{Fig, Form, State, Unit};
use super::{Email, Leg, Order, enemy, on_table, own, ride};

const ACTS: &[&str] = &[
    "ENTRENCH",
    "DISENTRENCH",
    "OCCUPY",
    "VACATE",
    "MOUNT",
    "DISMOUNT",
    "DISENGAGE",
    "HOLD",
    "STOP",
];

/// R35: a unit aboard a carrier rides; on its card it may only get out (`DISEMBARK`) or
/// `HOLD` (ride on). Accepting other orders dropped them unsaid at the move.
pub(super) fn not_aboard(u: &Unit, word: &str) -> Result<(), LineErr> {
    match &u.aboard {
        Some(c) => refuse(format!(
            "{} is aboard {c}: a passenger takes no {word} order; DISEMBARK it first (R35)",
            u.name
        )),
        None => Ok(()),
    }
}

pub(super) fn mv(state: &State, cx: &mut Email, c: &mut Cursor) -> Result<Order, LineErr> {
    let u = own(state, cx, c)?;
    not_aboard(u, "MOVE")?;
    if !u.may_move() {
        return refuse(format!("{} does not move (artillery)", u.name));
    }
    let mut legs = Vec::new();
    let mut facing = None;
    while !c.done() {
        // A newcomer writes `MOVE Rangers TO 26,16`: the word adds nothing, so it is read past
        // (it was glued into the point, `to,26,16`, and refused as no position).
        if c.eat("TO") {
            continue;
        }
        if c.eat("FACING") {
            facing = Some(c.bearing("the facing")?);
            continue;
        }
        // `5 ON 90`, or a point.
        let save = c.clone();
        if let Ok(inches) = c.number("the distance")
            && c.eat("ON")
        {
            let bearing = c.bearing("the bearing")?;
            legs.push(Leg::On { inches, bearing });
            continue;
        }
        *c = save;
        // A word `x,y` is one point of the path: the cursor's own point reader would run on
        // into the next point (`20,14 24,18` read as one bad position).
        if let Some((x, y)) = c.peek().and_then(|w| w.split_once(','))
            && let (Ok(x), Ok(y)) = (x.parse::<f64>(), y.parse::<f64>())
        {
            c.word("a point")?;
            legs.push(Leg::To(on_table(state, Pt::new(x, y), c)?));
            continue;
        }
        let p = c.point(&["FACING", "ON"])?;
        legs.push(Leg::To(on_table(state, p, c)?));
    }
    if legs.is_empty() {
        return Err(c.wrong("where to? give points x,y or a distance ON a bearing"));
    }
    Ok(Order::Move {
        unit: u.name.clone(),
        legs,
        facing,
    })
}

pub(super) fn form(state: &State, cx: &mut Email, c: &mut Cursor) -> Result<Order, LineErr> {
    let u = own(state, cx, c)?;
    not_aboard(u, "FORM")?;
    let form = c.one_of(&[
        ("LINE", Form::Line),
        ("COLUMN", Form::Column),
        ("SQUARE", Form::Square),
    ])?;
    if form == Form::Square {
        if !u.regulars {
            return refuse("only British and Texas regulars form square (L12)");
        }
        if u.figures.len() < 4 {
            return refuse("a square needs at least 4 figures (L12)");
        }
        if u.mounted {
            return refuse("mounted cavalry cannot form square (L12)");
        }
    }
    Ok(Order::Form {
        unit: u.name.clone(),
        form,
    })
}

pub(super) fn face(state: &State, cx: &mut Email, c: &mut Cursor) -> Result<Order, LineErr> {
    let u = own(state, cx, c)?;
    not_aboard(u, "FACE")?;
    Ok(Order::Face {
        unit: u.name.clone(),
        bearing: c.bearing("the facing")?,
    })
}

pub(super) fn charge(state: &State, cx: &mut Email, c: &mut Cursor) -> Result<Order, LineErr> {
    let u = own(state, cx, c)?;
    not_aboard(u, "CHARGE")?;
    if !matches!(u.form, Form::Line | Form::Column) {
        return refuse("only a unit in line or column may charge (L6)");
    }
    if u.arm == Arm::Artillery || u.arm == Arm::Windwagon {
        return refuse(format!("{} cannot charge", u.name));
    }
    let t = enemy(state, cx, c)?;
    ride::charge_target(t)?;
    Ok(Order::Charge {
        unit: u.name.clone(),
        target: t.name.clone(),
    })
}

by_word!(act: entrench => "ENTRENCH", disentrench => "DISENTRENCH", occupy => "OCCUPY",
    vacate => "VACATE", mount => "MOUNT", dismount => "DISMOUNT", disengage => "DISENGAGE",
    hold => "HOLD", stop => "STOP");

pub(super) fn act(
    state: &State,
    cx: &mut Email,
    c: &mut Cursor,
    word: &str,
) -> Result<Order, LineErr> {
    let u = own(state, cx, c)?;
    let act = super::keyword(ACTS, word)?;
    if act != "HOLD" {
        not_aboard(u, act)?;
    }
    let why = match act {
        "ENTRENCH" if u.mounted => Some("mounted cavalry cannot entrench".to_string()),
        "ENTRENCH" if u.british && u.figures.len() >= 4 => {
            Some("British units entrench only below 4 figures (L12)".into())
        }
        "DISENTRENCH" if u.form != Form::Entrenched => {
            Some(format!("{} is not entrenched", u.name))
        }
        "OCCUPY" if !state.in_area("farm", u.pos) && !near_farm(state, u) => {
            Some("no building within half a move (L12: it must reach the building)".into())
        }
        "VACATE" if u.form != Form::Occupying => Some(format!("{} occupies no building", u.name)),
        "MOUNT" | "DISMOUNT" if u.arm != Arm::Cavalry => Some(format!("{} is not cavalry", u.name)),
        "MOUNT" if u.mounted => Some(format!("{} is mounted already", u.name)),
        "DISMOUNT" if !u.mounted => Some(format!("{} is on foot already", u.name)),
        "DISENGAGE" if !u.disengage => Some(format!("{} has used its disengage", u.name)),
        "DISENGAGE" if u.routing => Some("a routing unit cannot disengage".into()),
        "STOP" if u.arm != Arm::Windwagon => Some(format!("{} is not a windwagon", u.name)),
        "STOP" if u.halted => Some(format!(
            "{} is halted already (R36): HOLD or silence keeps it halted; SAIL moves it",
            u.name
        )),
        "HOLD" if u.arm == Arm::Windwagon && !u.halted => Some(format!(
            "{} is under way and cannot stay put: STOP brings it to a halt (a third of a move), \
             or SAIL it on a bearing (R36)",
            u.name
        )),
        "HOLD" if u.arm == Arm::Aeroplane => Some("an aeroplane cannot hover (R44)".into()),
        _ => None,
    };
    if let Some(why) = why {
        return refuse(why);
    }
    Ok(Order::Act {
        unit: u.name.clone(),
        act,
    })
}

pub(super) fn near_farm(state: &State, u: &Unit) -> bool {
    state
        .ground
        .iter()
        .any(|g| g.is("farm") && g.area.distance_to(u.pos) <= u.move_rate / 2.0)
}

pub(super) fn smoke(state: &State, cx: &mut Email, c: &mut Cursor) -> Result<Order, LineErr> {
    let u = own(state, cx, c)?;
    not_aboard(u, "SMOKE")?;
    if u.smoke == 0 || u.count(Fig::Grenadier) == 0 {
        return refuse(format!(
            "{} has no smoke left (it needs grenadiers and smoke uses)",
            u.name
        ));
    }
    let at = if c.eat("AT") {
        let p = c.point(&[])?;
        let reach = state.data.rules.smoke_diameter.get() / 2.0 + 1.0;
        if crate::board::tabletop::dist(p, u.pos) > reach + u.figures.len() as f64 / 2.0 {
            return refuse("the screen must lie on or touch one of the unit's stands (L12)");
        }
        Some(p)
    } else {
        None
    };
    Ok(Order::Smoke {
        unit: u.name.clone(),
        at,
    })
}

pub(super) fn sail(state: &State, cx: &mut Email, c: &mut Cursor) -> Result<Order, LineErr> {
    let u = own(state, cx, c)?;
    if u.arm != Arm::Windwagon {
        return refuse(format!("{} is not a windwagon", u.name));
    }
    Ok(Order::Sail {
        unit: u.name.clone(),
        bearing: c.bearing("the bearing")?,
    })
}
