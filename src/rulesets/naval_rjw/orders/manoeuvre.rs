//! Parsers of the manoeuvre orders (repairs, turns, moves, halts, formations, general orders,
//! mines, rescue and capture), each checked against the fleet as the email's earlier lines leave
//! it. They never change the state.

use crate::rulesets::kit::grammar::{Cursor, LineErr, num, refuse};
use crate::rulesets::naval_rjw::data::{Formation, ShipClass};
use crate::rulesets::naval_rjw::state::{Fate, Group, NavalState, Order, TurnBy};
use crate::rulesets::naval_rjw::stats;

use super::sim::{
    Sim, Whose, can_manoeuvre, group_of, no_general_orders, not_follower, own_afloat, ship,
    ship_of, shortest, stays_put,
};

/// `REPAIR Mikasa 2` (one marker when no number is given).
pub fn repair(state: &NavalState, sim: &mut Sim, c: &mut Cursor) -> Result<Order, LineErr> {
    let name = ship(state, sim, Whose::Own, c)?;
    let markers = if c.done() {
        1
    } else {
        let v = c.number("the number of markers")?;
        if v < 1.0 || v.fract() != 0.0 {
            return Err(c.wrong("repair a whole number of markers (1 or more)"));
        }
        v as u32
    };
    c.end()?;
    own_afloat(state, sim, &name)?;
    let have = sim.hit_markers.get(&name).copied().unwrap_or(0);
    if markers > have {
        return refuse(format!("{name} has {have} hit marker(s) to repair"));
    }
    sim.hit_markers.insert(name.clone(), have - markers);
    Ok(Order::Repair {
        ship: name,
        markers,
    })
}

/// `TURN Mikasa PORT 45`, `STARBOARD 90` or `TO 270`.
pub fn turn(state: &NavalState, sim: &mut Sim, c: &mut Cursor) -> Result<Order, LineErr> {
    let name = ship(state, sim, Whose::Own, c)?;
    let by = match c.next_word().map(str::to_ascii_uppercase).as_deref() {
        Some("PORT") => TurnBy::Port(c.number("the degrees")?),
        Some("STARBOARD") => TurnBy::Starboard(c.number("the degrees")?),
        Some("TO") => TurnBy::To(c.number("the heading")?),
        _ => return Err(c.wrong("say PORT n, STARBOARD n or TO heading")),
    };
    c.end()?;
    can_manoeuvre(state, sim, &name)?;
    stays_put(state, &name)?;
    not_follower(sim, &name, "turn")?;
    let ship = ship_of(state, &name);
    if sim.on_duty.contains(&name) {
        return refuse(format!("{name} steers herself on rescue or capture duty"));
    }
    if sim.turned.contains(&name) {
        return refuse(format!("{name} has already turned this turn"));
    }
    if sim.moved.contains(&name) {
        return refuse(format!("{name} must turn before she moves"));
    }
    let angle = match by {
        TurnBy::Port(d) | TurnBy::Starboard(d) => {
            if d < 0.0 {
                return Err(c.wrong("turn by a positive number of degrees"));
            }
            d
        }
        TurnBy::To(h) => {
            if !(0.0..360.0).contains(&h) {
                return Err(
                    LineErr::new("a heading is 0 to 359").hint("for example: TURN Mikasa TO 270")
                );
            }
            shortest(ship.hull.heading, h).abs()
        }
    };
    let max = state.data.classes[&ship.class].max_turn.get();
    if angle > max + 1e-9 {
        return refuse(format!(
            "a {} may turn at most {}° for 1 CP",
            ship.class.abbr(),
            num(max)
        ));
    }
    sim.turned.insert(name.clone());
    Ok(Order::Turn { ship: name, by })
}

/// `MOVE Mikasa` (full speed) or `MOVE Mikasa 4`.
pub fn move_ship(state: &NavalState, sim: &mut Sim, c: &mut Cursor) -> Result<Order, LineErr> {
    let name = ship(state, sim, Whose::Own, c)?;
    let distance = if c.done() {
        None
    } else {
        Some(c.number("the distance")?)
    };
    c.end()?;
    can_manoeuvre(state, sim, &name)?;
    stays_put(state, &name)?;
    not_follower(sim, &name, "move")?;
    if sim.moved.contains(&name) {
        return refuse(format!("{name} already has a move this turn"));
    }
    if sim.halted.contains(&name) {
        return refuse(format!("{name} is halted this turn"));
    }
    let max = stats::max_speed(state, ship_of(state, &name));
    if let Some(d) = distance {
        if d <= 0.0 {
            return Err(c.wrong("move a positive distance"));
        }
        if d > max + 1e-9 {
            return refuse(format!("{name}'s maximum speed is {}\"", num(max)));
        }
    }
    sim.moved.insert(name.clone());
    Ok(Order::Move {
        ship: name,
        distance,
    })
}

/// `HALT Askold`: no compulsory move.
pub fn halt(state: &NavalState, sim: &mut Sim, c: &mut Cursor) -> Result<Order, LineErr> {
    let name = ship(state, sim, Whose::Own, c)?;
    c.end()?;
    own_afloat(state, sim, &name)?;
    no_general_orders(sim)?;
    stays_put(state, &name)?;
    not_follower(sim, &name, "halt")?;
    if sim.moved.contains(&name) {
        return refuse(format!("{name} has a full-speed move this turn"));
    }
    if !sim.halted.insert(name.clone()) {
        return refuse(format!("{name} is already halted"));
    }
    Ok(Order::Halt(name))
}

/// `LEAVE Fuji`: she leaves her line or flotilla.
pub fn leave(state: &NavalState, sim: &mut Sim, c: &mut Cursor) -> Result<Order, LineErr> {
    let (name, gi, pos) = in_group(state, sim, c)?;
    sim.groups[gi].ships.remove(pos);
    Ok(Order::Leave(name))
}

/// `SPLIT Fuji`: the line splits ahead of her; she leads the ships astern.
pub fn split(state: &NavalState, sim: &mut Sim, c: &mut Cursor) -> Result<Order, LineErr> {
    let (name, gi, pos) = in_group(state, sim, c)?;
    if pos == 0 {
        return refuse(format!(
            "{name} leads her line: nothing ahead to split from"
        ));
    }
    let ng = sim.groups[gi].split_astern(pos);
    sim.groups.push(ng);
    Ok(Order::Split { at: name })
}

/// The named ship, her group's index and her place in it.
fn in_group(
    state: &NavalState,
    sim: &Sim,
    c: &mut Cursor,
) -> Result<(String, usize, usize), LineErr> {
    let name = ship(state, sim, Whose::Own, c)?;
    c.end()?;
    own_afloat(state, sim, &name)?;
    let Some(gi) = sim.groups.iter().position(|g| g.ships.contains(&name)) else {
        return refuse(format!("{name} is not in a line or flotilla"));
    };
    let pos = sim.groups[gi]
        .ships
        .iter()
        .position(|s| *s == name)
        .unwrap_or(0);
    Ok((name, gi, pos))
}

/// `JOIN Nisshin TO Mikasa`: she joins the end of Mikasa's line.
pub fn join(state: &NavalState, sim: &mut Sim, c: &mut Cursor) -> Result<Order, LineErr> {
    let name = ship(state, sim, Whose::Own, c)?;
    c.expect("TO")?;
    let other = ship(state, sim, Whose::Own, c)?;
    c.end()?;
    can_manoeuvre(state, sim, &name)?;
    own_afloat(state, sim, &other)?;
    if name == other {
        return refuse("a ship cannot join herself");
    }
    if group_of(&sim.groups, &name).is_some_and(|g| g.ships.len() > 1) {
        return Err(LineErr::new(format!("{name} is in a line or flotilla"))
            .hint(format!("LEAVE {name} first")));
    }
    let me = ship_of(state, &name);
    let last = group_of(&sim.groups, &other)
        .and_then(|g| g.ships.last().cloned())
        .unwrap_or(other.clone());
    let last_ship = ship_of(state, &last);
    if me.class.is_capital() != last_ship.class.is_capital() {
        return refuse("destroyers form flotillas, capital ships battle lines");
    }
    let rules = &state.data.rules;
    let reach = rules.join_reach.get();
    let gap = crate::board::tabletop::dist(me.hull.centre, last_ship.hull.stern());
    if gap > reach + me.hull.length / 2.0 + 1e-9 {
        return refuse(format!(
            "{name} is {}\" from {last}'s stern; she must be within {}\"",
            num((gap * 10.0).round() / 10.0),
            num(reach)
        ));
    }
    if shortest(me.hull.heading, last_ship.hull.heading).abs() > rules.join_heading.get() {
        return refuse(format!(
            "{name} must steer within {}° of {last}'s heading to join",
            num(rules.join_heading.get())
        ));
    }
    sim.groups
        .retain(|g| !(g.ships.len() == 1 && g.ships[0] == name));
    match sim.groups.iter_mut().find(|g| g.ships.contains(&other)) {
        Some(g) => g.ships.push(name.clone()),
        None => sim.groups.push(Group {
            name: format!("{other}'s line"),
            side: sim.side.clone(),
            ships: vec![other.clone(), name.clone()],
            formation: Formation::Astern,
            flotilla: !me.class.is_capital(),
        }),
    }
    Ok(Order::Join {
        ship: name,
        group_of: other,
    })
}

/// `ABREAST Mikasa`: her line forms line abreast.
pub fn abreast(state: &NavalState, sim: &mut Sim, c: &mut Cursor) -> Result<Order, LineErr> {
    formation(state, sim, c, Formation::Abreast).map(Order::FormAbreast)
}

/// `ASTERN Mikasa`: back to line astern.
pub fn astern(state: &NavalState, sim: &mut Sim, c: &mut Cursor) -> Result<Order, LineErr> {
    formation(state, sim, c, Formation::Astern).map(Order::FormAstern)
}

fn formation(
    state: &NavalState,
    sim: &mut Sim,
    c: &mut Cursor,
    want: Formation,
) -> Result<String, LineErr> {
    let name = ship(state, sim, Whose::Own, c)?;
    c.end()?;
    can_manoeuvre(state, sim, &name)?;
    let Some(g) = sim
        .groups
        .iter_mut()
        .find(|g| g.ships.first() == Some(&name))
    else {
        return refuse(format!("{name} does not lead a battle line"));
    };
    if g.flotilla {
        return refuse("destroyer flotillas do not form lines");
    }
    if g.formation == want {
        let word = match want {
            Formation::Abreast => "abreast",
            Formation::Astern => "astern",
        };
        return refuse(format!("the line is already in line {word}"));
    }
    g.formation = want;
    for s in g.ships.clone() {
        sim.moved.insert(s);
    }
    Ok(name)
}

/// `WITHDRAW`: General Withdrawal.
pub fn withdraw(_: &NavalState, sim: &mut Sim, c: &mut Cursor) -> Result<Order, LineErr> {
    c.end()?;
    one_general_order(sim)?;
    sim.withdrawal = true;
    sim.general = true;
    Ok(Order::Withdraw)
}

/// `CHASE`: General Chase, only while the enemy withdraws.
pub fn chase(state: &NavalState, sim: &mut Sim, c: &mut Cursor) -> Result<Order, LineErr> {
    c.end()?;
    one_general_order(sim)?;
    if !state
        .fleets
        .iter()
        .any(|f| f.side != sim.side && f.withdrawal)
    {
        return refuse("General Chase is legal only while the enemy is in General Withdrawal");
    }
    sim.chase = true;
    sim.general = true;
    Ok(Order::Chase)
}

fn one_general_order(sim: &Sim) -> Result<(), LineErr> {
    if sim.withdrawal || sim.chase {
        return refuse("a General Withdrawal or Chase is already ordered");
    }
    Ok(())
}

/// `LAY Amur`: a minelayer drops a belt astern.
pub fn lay(state: &NavalState, sim: &mut Sim, c: &mut Cursor) -> Result<Order, LineErr> {
    let name = ship(state, sim, Whose::Own, c)?;
    c.end()?;
    can_manoeuvre(state, sim, &name)?;
    if !ship_of(state, &name).minelayer {
        return refuse(format!("{name} is not a minelayer"));
    }
    if !sim.laid.insert(name.clone()) {
        return refuse(format!("{name} lays one belt per turn"));
    }
    Ok(Order::Lay(name))
}

/// `SWEEP Amur M3`: a minesweeper attacks a field.
pub fn sweep(state: &NavalState, sim: &mut Sim, c: &mut Cursor) -> Result<Order, LineErr> {
    let name = ship(state, sim, Whose::Own, c)?;
    let f = c.word("the minefield")?;
    c.end()?;
    can_manoeuvre(state, sim, &name)?;
    if !ship_of(state, &name).minesweeper {
        return refuse(format!("{name} is not a minesweeper"));
    }
    let Some(field) = state
        .minefields
        .iter()
        .find(|m| m.id.eq_ignore_ascii_case(f))
    else {
        let ids: Vec<&str> = state.minefields.iter().map(|m| m.id.as_str()).collect();
        return Err(
            LineErr::new(format!("no minefield `{f}`")).hint(if ids.is_empty() {
                "there are no minefields".to_string()
            } else {
                format!("fields: {}", ids.join(", "))
            }),
        );
    };
    if !sim.swept.insert(name.clone()) {
        return refuse(format!("{name} sweeps once per turn"));
    }
    Ok(Order::Sweep {
        ship: name,
        field: field.id.clone(),
    })
}

/// `RESCUE Retvizan WITH Askold`: one ship, or two destroyers for a capital ship's crew.
pub fn rescue(state: &NavalState, sim: &mut Sim, c: &mut Cursor) -> Result<Order, LineErr> {
    let wreck = ship(state, sim, Whose::Own, c)?;
    c.expect("WITH")?;
    let mut with = Vec::new();
    while !c.done() {
        with.push(ship(state, sim, Whose::Own, c)?);
    }
    let owed = state
        .fleets
        .iter()
        .find(|f| f.side == sim.side)
        .is_some_and(|f| f.rescue_owed.contains(&wreck));
    if !owed {
        return refuse(format!("no survivors of {wreck} wait for rescue"));
    }
    if !sim.rescue_sent.insert(wreck.clone()) {
        return refuse(format!("a rescue for {wreck} is already ordered"));
    }
    if with.is_empty() {
        return Err(c.wrong("name the rescue ship(s)"));
    }
    for s in &with {
        own_afloat(state, sim, s)?;
        if sim.on_duty.contains(s) {
            return refuse(format!("{s} is already on rescue or capture duty"));
        }
        paid_turn_above(sim, s)?;
    }
    let capital_wreck = ship_of(state, &wreck).class.is_capital();
    let dds = with
        .iter()
        .filter(|s| !ship_of(state, s).class.is_capital())
        .count();
    let ok = match (capital_wreck, with.len()) {
        (_, 1) => !capital_wreck || ship_of(state, &with[0]).class.is_capital(),
        (true, 2) => dds == 2,
        _ => false,
    };
    if !ok {
        return Err(c.wrong("send one ship, or two destroyers for a capital ship's crew"));
    }
    for s in &with {
        sim.on_duty.insert(s.clone());
    }
    Ok(Order::Rescue { wreck, with })
}

/// A ship sent on rescue or capture duty steers herself: a TURN paid for her above in the same
/// email would never be carried out, so it is refused here rather than charged (issue 10).
fn paid_turn_above(sim: &Sim, ship: &str) -> Result<(), LineErr> {
    if sim.turned.contains(ship) {
        return refuse(format!(
            "{ship} has a TURN above, but she would steer herself on this duty (R28, R10): drop the TURN"
        ));
    }
    Ok(())
}

/// `CAPTURE Novik WITH Chitose`: take an enemy ship that struck her colours.
pub fn capture(state: &NavalState, sim: &mut Sim, c: &mut Cursor) -> Result<Order, LineErr> {
    let prize = ship(state, sim, Whose::Enemy, c)?;
    c.expect("WITH")?;
    let with = ship(state, sim, Whose::Own, c)?;
    c.end()?;
    let p = ship_of(state, &prize);
    if p.side == sim.side || p.fate != Fate::Struck || p.captured_by.is_some() {
        return refuse(format!(
            "{prize} is not an enemy ship that has struck her colours"
        ));
    }
    let taken = state
        .ships
        .iter()
        .any(|s| s.capturing.as_deref() == Some(prize.as_str()));
    if taken || !sim.capture_sent.insert(prize.clone()) {
        return refuse(format!("a ship is already sent to take {prize}"));
    }
    own_afloat(state, sim, &with)?;
    if sim.on_duty.contains(&with) {
        return refuse(format!("{with} is already on rescue or capture duty"));
    }
    paid_turn_above(sim, &with)?;
    if ship_of(state, &with).class == ShipClass::DD && p.class != ShipClass::DD {
        return refuse("a destroyer may capture only a destroyer");
    }
    sim.on_duty.insert(with.clone());
    Ok(Order::Capture { prize, with })
}
