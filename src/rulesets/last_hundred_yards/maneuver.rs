//! Maneuver actions (§10): maneuver allowances for activation and reaction (the MPs or the
//! hexes a unit may always move), the road bonus, vehicle motion (§10.4.1), reverse, river exits
//! (§4.1.10), exiting the map (§10.2), deploying squads (§10.3.2) and mounting (R22). `check_*`
//! never changes the state; `do_*` carries a checked move out with the dice it needs.

use crate::board::hex::{Hex, Hexside};
use crate::dice::{Dice, Faces};
use crate::rulesets::kit::roster::{Roster, TwoSides};

use super::concealment;
use super::data::{Ground, Kind};
use super::platoon;
use super::sight;
use super::state::{Done, LhyState, Motion, Place, Record, Unit};

/// What one unit may spend on a maneuver.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Allowance {
    pub mp: f64,
    /// Hexes it may always enter whatever they cost (§10.1).
    pub hexes: usize,
}

/// Does the unit's platoon have its leader in play? (Otherwise its units are restricted, R26.)
pub fn has_leader(s: &LhyState, u: &Unit) -> bool {
    match &u.platoon {
        None => true,
        Some(p) => s
            .on_map()
            .any(|l| l.kind == Kind::Leader && l.platoon.as_deref() == Some(p)),
    }
}

/// §10.1: activation or reaction allowance, Reverse limited (R26: a leaderless platoon's
/// activated units move as if reacting).
pub fn allowance(s: &LhyState, u: &Unit, reacting: bool, reverse: bool) -> Allowance {
    let r = &s.data.rules;
    let reacting = reacting || (u.kind.foot() && !has_leader(s, u));
    let (mp, hexes) = match (u.vehicle(), reacting) {
        (false, false) => (r.activation_mp_foot.get(), r.activation_hexes_foot.int()),
        (false, true) => (r.reaction_mp_foot.get(), r.reaction_hexes_foot.int()),
        (true, true) => (r.reaction_mp_vehicle.get(), 0),
        (true, false) if u.kind == Kind::Truck => (r.activation_mp_truck.get(), 0),
        (true, false) => (r.activation_mp_tracked.get(), 0),
    };
    let mp = if reverse {
        mp.min(r.reverse_mp.get())
    } else {
        mp
    };
    Allowance {
        mp,
        hexes: hexes.max(0) as usize,
    }
}

/// A checked move's plan for one unit: cost of each hex entered.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub costs: Vec<f64>,
    pub start_motion: bool,
}

/// The move's legality for one unit (§10.0–10.1, §10.4.1, §4.1): whether it may maneuver,
/// its motion, each hex of its path, its MP, and its exit from the map.
#[allow(clippy::too_many_arguments)]
pub fn plan(
    s: &LhyState,
    u: &Unit,
    path: &[Hex],
    reverse: bool,
    stop: bool,
    exit: bool,
    overrun: Option<Hex>,
    reacting: bool,
) -> Result<Plan, String> {
    let name = &u.name;
    may_maneuver(u, reverse, stop)?;
    let (start_motion, spent) = motion(s, u, path, stop, exit)?;
    let allow = allowance(s, u, reacting, reverse);
    let (costs, all_road) = path_costs(s, u, path, overrun)?;
    let from = path.last().copied().unwrap_or(u.at);
    let bonus = if all_road && !path.is_empty() && s.map.road(from) {
        s.data.rules.road_bonus_mp.get()
    } else {
        0.0
    };
    let total: f64 = spent + costs.iter().sum::<f64>();
    let limit = allow.mp + bonus;
    let free = !u.vehicle() && path.len() <= allow.hexes;
    if total > limit + 1e-9 && !free {
        return Err(format!(
            "{name} needs {} MP for that and has {} (§10.1)",
            crate::rulesets::kit::grammar::num(total),
            crate::rulesets::kit::grammar::num(limit)
        ));
    }
    if exit {
        check_exit(s, u, path)?;
    }
    Ok(Plan {
        costs,
        start_motion,
    })
}

/// Whether the unit may maneuver at all: not a dummy reversing or stopping, not a gun
/// (§10.0c), not aboard, not disrupted (R13); only vehicles reverse.
fn may_maneuver(u: &Unit, reverse: bool, stop: bool) -> Result<(), String> {
    let name = &u.name;
    if u.dummy() && (reverse || stop) {
        return Err(format!("{name} is a dummy"));
    }
    if u.kind == Kind::Gun || u.kind == Kind::Fp {
        return Err(format!(
            "{name} cannot maneuver (a towed gun moves only when carried, §10.0c)"
        ));
    }
    if u.aboard.is_some() {
        return Err(format!("{name} is aboard a vehicle: DISMOUNT it first"));
    }
    // R13: disrupted and shocked units only withdraw or recover.
    if u.disrupted() {
        return Err(format!(
            "{name} is {}: it may only WITHDRAW or RECOVER",
            u.status.word()
        ));
    }
    if reverse && !u.vehicle() {
        return Err("only vehicles maneuver in Reverse".into());
    }
    Ok(())
}

/// §10.4.1 vehicle motion: whether the move starts it in motion, and the MP that costs; for
/// other units, that the path is given and STOP is not.
fn motion(
    s: &LhyState,
    u: &Unit,
    path: &[Hex],
    stop: bool,
    exit: bool,
) -> Result<(bool, f64), String> {
    let name = &u.name;
    let mut start_motion = false;
    let mut spent = 0.0;
    if u.vehicle() {
        match u.motion {
            Motion::Stationary => {
                if u.stopped {
                    return Err(format!(
                        "{name} stopped this turn and may not go into motion again (§10.4.1)"
                    ));
                }
                if stop {
                    return Err(format!(
                        "{name} is stationary: going into motion and stopping in one turn is not allowed (§10.4.1)"
                    ));
                }
                start_motion = true;
                spent += s.data.rules.motion_start_mp.get();
            }
            Motion::Green => {
                if stop && u.started {
                    return Err(format!(
                        "{name} went into motion this turn and may not stop (§10.4.1)"
                    ));
                }
                if path.is_empty() && !stop {
                    return Err(format!("{name} is in motion: give hexes, or STOP"));
                }
            }
            Motion::Red => return Err(format!("{name} has stopped this turn")),
        }
    } else if path.is_empty() && !exit {
        return Err("give the hexes entered, one by one".into());
    } else if stop {
        return Err("STOP is for vehicles".into());
    }
    Ok((start_motion, spent))
}

/// Each hex of the path checked (on the map, adjacent, entered once, enterable, no known
/// enemy but the overrun's, urban roads along the road) with its MP cost; and whether the
/// whole move runs along roads.
fn path_costs(
    s: &LhyState,
    u: &Unit,
    path: &[Hex],
    overrun: Option<Hex>,
) -> Result<(Vec<f64>, bool), String> {
    let name = &u.name;
    let mut costs = Vec::new();
    let mut from = u.at;
    let on_road = s.map.road(u.at);
    let mut all_road = on_road && s.map.ground(u.at) != Ground::UrbanRoad;
    for (i, &h) in path.iter().enumerate() {
        let label = s.name_of(h);
        if !s.map.on_map(h) {
            return Err(format!("{label} is off the map"));
        }
        if !from.is_adjacent(h) {
            return Err(format!(
                "{label} is not next to {}: list every hex entered",
                s.name_of(from)
            ));
        }
        if path[..i].contains(&h) || h == u.at {
            return Err(format!("{label} is entered twice"));
        }
        let c = s
            .map
            .enter_cost(&s.data, from, h, u.vehicle())
            .ok_or_else(|| {
                format!(
                    "{name} may not enter {label} ({}) from {}",
                    s.data.fx(s.map.ground(h)).name,
                    s.name_of(from)
                )
            })?;
        if sight::enemy_known_at(s, &u.side, h) && Some(h) != overrun {
            return Err(format!(
                "{label} holds the enemy: ASSAULT it (or OVERRUN with a vehicle)"
            ));
        }
        if u.vehicle() && s.map.ground(h) == Ground::UrbanRoad && !s.map.road_link(from, h) {
            return Err(format!(
                "{name} enters the urban road {label} only along the road"
            ));
        }
        all_road &= s.map.road_link(from, h) && s.map.ground(h) != Ground::UrbanRoad;
        costs.push(c);
        from = h;
    }
    Ok((costs, all_road))
}

/// §10.2: a unit exits by a board edge, never the enemy's.
fn check_exit(s: &LhyState, u: &Unit, path: &[Hex]) -> Result<(), String> {
    let last = path.last().copied().unwrap_or(u.at);
    let side = s.side(&u.side).ok_or("no side")?;
    if s.map.on_edge(last, side.ebe) {
        return Err("units may not exit by the enemy board edge (§10.2)".into());
    }
    let edges = [
        super::map::Edge::North,
        super::map::Edge::South,
        super::map::Edge::East,
        super::map::Edge::West,
    ];
    if !edges.iter().any(|e| s.map.on_edge(last, *e)) {
        return Err(format!("{} is not on a board edge", s.name_of(last)));
    }
    Ok(())
}

/// §4.1.10: a unit leaving a river hex (or from under a bridge) for the bank rolls; the
/// roll, less 1 with its platoon leader, at most its Cohesion lets it go on. Returns whether
/// it may go on; on failure it and the helping leader are marked as having acted.
fn river_exit(s: &mut LhyState, name: &str, to: Hex, dice: &mut Dice) -> bool {
    let Some(u) = s.unit(name).cloned() else {
        return false;
    };
    let here = s.map.ground(u.at);
    let in_river = here == Ground::River || (here == Ground::Bridge && u.under_bridge);
    let onto = s.map.ground(to);
    let stays_wet = matches!(onto, Ground::River | Ford)
        || (onto == Ground::Bridge && !s.map.road_link(u.at, to));
    use Ground::Ford;
    if !in_river || stays_wet || here == Ford || u.heroic || u.vehicle() || u.dummy() {
        return true;
    }
    let leader = platoon::leader_with(s, &u).map(|l| l.name.clone());
    let roll = dice.roll_one(format!("{}: river exit", u.side), Faces::d(10)) as i32;
    let drm = if leader.is_some() {
        s.data.rules.river_leader_drm.int()
    } else {
        0
    };
    let coh = s.cohesion(&u);
    let ok = roll + drm <= coh;
    s.private(
        &u.side,
        format!(
            "{name} tries to leave the river at {}: {roll}{} vs Cohesion {coh}: {}",
            s.name_of(u.at),
            if drm != 0 {
                super::fire::signed(drm)
            } else {
                String::new()
            },
            if ok { "across" } else { "stuck in the river" }
        ),
    );
    // The enemy sees a unit it sees as itself cross or stick (and so may a spectator); not
    // the roll's terms, whose leader modifier would tell of a concealed leader beside it.
    // A concealed or hidden unit's attempt stays its owner's.
    if !u.hidden && !u.concealed {
        let text = format!(
            "{name} tries to leave the river at {}: {}.",
            s.name_of(u.at),
            if ok { "across" } else { "stuck in the river" }
        );
        s.to_enemies(&u.side, text);
    }
    if !ok
        && let Some(l) = leader
        && let Some(x) = s.unit_mut(&l)
        && x.done.is_none()
    {
        x.done = Some(Done::Maneuver);
    }
    ok
}

/// Moves units (and their passengers) into `h`.
pub fn step_into(s: &mut LhyState, names: &[String], h: Hex) {
    let serial = s.next_serial();
    let from: Vec<(String, Hex)> = names
        .iter()
        .filter_map(|n| s.unit(n).map(|u| (n.clone(), u.at)))
        .collect();
    for (n, f) in from {
        let under = s.map.ground(h) == Ground::Bridge && !s.map.road_link(f, h);
        let vehicle = s.unit(&n).is_some_and(|u| u.vehicle());
        let riders: Vec<String> = s
            .units
            .iter()
            .filter(|x| x.aboard.as_deref() == Some(n.as_str()))
            .map(|x| x.name.clone())
            .collect();
        if let Some(u) = s.unit_mut(&n) {
            u.at = h;
            u.arrived = serial;
            u.under_bridge = under && !vehicle;
        }
        for r in riders {
            if let Some(x) = s.unit_mut(&r) {
                x.at = h;
                x.arrived = serial;
            }
        }
    }
}

/// Hidden enemy units in `h` meet the mover: they are revealed, the mover stops, and the hex
/// is under assault (§10.0b, §4.3.1, R20).
fn bump(s: &mut LhyState, side: &str, h: Hex) -> bool {
    let hidden: Vec<String> = s
        .on_map()
        .filter(|e| e.side != side && e.at == h && !e.dummy())
        .map(|e| e.name.clone())
        .collect();
    if hidden.is_empty() {
        return false;
    }
    for n in &hidden {
        concealment::reveal(s, n);
    }
    if !s.assaults.iter().any(|(x, _)| *x == h) {
        s.assaults.push((h, side.to_string()));
    }
    s.public(format!(
        "{}: the maneuver runs into enemy units there and stops; an assault follows.",
        s.name_of(h)
    ));
    true
}

/// Carries out a checked MOVE. Returns the hexes entered.
#[allow(clippy::too_many_arguments)]
pub fn do_move(
    s: &mut LhyState,
    side: &str,
    units: &[String],
    path: &[Hex],
    reverse: bool,
    stop: bool,
    exit: bool,
    overrun: Option<Hex>,
    dice: &mut Dice,
) -> Vec<Hex> {
    let mut names: Vec<String> = units.to_vec();
    let mut entered = Vec::new();
    for n in &names {
        let Some(u) = s.unit(n).cloned() else {
            continue;
        };
        if u.vehicle()
            && let Some(x) = s.unit_mut(n)
            && x.motion == Motion::Stationary
        {
            x.motion = Motion::Green;
            x.started = true;
        }
    }
    for &h in path {
        // River exits, one roll per unit (§4.1.10).
        names.retain(|n| river_exit(s, n, h, dice));
        if names.is_empty() {
            break;
        }
        let from = s.unit(&names[0]).map(|u| u.at).unwrap_or(h);
        step_into(s, &names, h);
        entered.push(h);
        for n in names.clone() {
            if let Some(u) = s.unit_mut(&n)
                && u.vehicle()
                && let Some(d) = s.map.grid().direction(from, h)
            {
                let d = if reverse { d.opposite() } else { d };
                if let Some(x) = s.unit_mut(&n) {
                    x.facing = Some(d);
                }
            }
            concealment::after_action(s, &n);
            concealment::after_enemy_move(s, &n);
        }
        if Some(h) == overrun {
            super::vehicle::overrun(s, side, &names, h, from);
            continue;
        }
        if bump(s, side, h) {
            for n in &names {
                concealment::reveal(s, n);
            }
            break;
        }
    }
    if stop {
        for n in &names {
            if let Some(x) = s.unit_mut(n)
                && x.vehicle()
            {
                x.motion = Motion::Red;
                x.stopped = true;
            }
        }
    }
    if exit && entered.len() == path.len() {
        for n in &names {
            exit_map(s, n, dice);
        }
    }
    entered
}

/// §10.2: the unit leaves the map; off a side edge a combat unit rolls, and any DRM markers it
/// carries are resolved at once.
pub fn exit_map(s: &mut LhyState, name: &str, dice: &mut Dice) {
    let Some(u) = s.unit(name).cloned() else {
        return;
    };
    super::resolution::resolve_carried(s, name, dice);
    let Some(u2) = s.unit(name).cloned() else {
        return;
    };
    if !u2.on_map() {
        return;
    }
    let side = s.side(&u.side).cloned();
    let by_fbe = side.as_ref().is_some_and(|x| s.map.on_edge(u.at, x.fbe));
    let label = s.name_of(u.at);
    if !by_fbe && u.kind.combat() {
        let roll = dice.roll_one(format!("{}: exit roll", u.side), Faces::d(10)) as i32;
        if roll > s.data.rules.exit_casualty_above.int() {
            let n = s.data.rules.exit_casualties.int().max(1) as u32;
            let lost = n.min(u.steps);
            if let Some(sd) = s.side_mut(&u.side) {
                sd.casualties += lost;
            }
            s.public(format!(
                "{name} exits the map at {label}: exit roll {roll}, {lost} casualty step(s)."
            ));
        } else {
            s.public(format!(
                "{name} exits the map at {label}: exit roll {roll}, no loss."
            ));
        }
    } else {
        s.public(format!("{name} exits the map at {label}."));
    }
    let riders: Vec<String> = s
        .units
        .iter()
        .filter(|x| x.aboard.as_deref() == Some(name))
        .map(|x| x.name.clone())
        .chain(std::iter::once(name.to_string()))
        .collect();
    for r in riders {
        if let Some(x) = s.unit_mut(&r) {
            x.place = Place::Exited;
        }
    }
}

/// R22: may `u` mount `v` now?
pub fn check_mount(s: &LhyState, u: &Unit, v: &Unit) -> Result<(), String> {
    if v.side != u.side || !v.vehicle() || v.at != u.at {
        return Err(format!(
            "{} is not a vehicle of yours in {}'s hex",
            v.name, u.name
        ));
    }
    if !u.kind.foot() || u.kind == Kind::Fp || u.dummy() {
        return Err(format!("{} cannot mount", u.name));
    }
    let vv = s.values(v);
    if vv.capacity <= 0 || (v.kind.carrier() && vv.atv == 0) {
        return Err(format!(
            "{} carries no one (§2.1: carriers with ATV 0 cannot transport)",
            v.name
        ));
    }
    if u.kind == Kind::Gun && !v.kind.carrier() {
        return Err("only halftracks and trucks tow guns".into());
    }
    if v.kind == Kind::Afv && !u.kind.infantry() && u.kind != Kind::Leader {
        return Err("AFVs carry only infantry riders".into());
    }
    let aboard = s
        .units
        .iter()
        .filter(|x| x.aboard.as_deref() == Some(v.name.as_str()) && x.on_map())
        .count() as i32;
    if aboard >= vv.capacity {
        return Err(format!("{} is full", v.name));
    }
    if u.disrupted() {
        return Err(format!("{} is disrupted", u.name));
    }
    Ok(())
}

/// The units entered in a maneuver, as the reacting side may answer it (§8.1).
pub fn record(s: &LhyState, name: &str, done: Done, hexes: Vec<Hex>) -> Record {
    let u = s.unit(name);
    Record {
        unit: name.to_string(),
        side: u.map(|u| u.side.clone()).unwrap_or_default(),
        done,
        hexes,
        concealed: u.is_some_and(|u| u.concealed),
    }
}

/// §4.1.7: is there a wall on the side between two hexes?
pub fn wall_between(s: &LhyState, a: Hex, b: Hex) -> bool {
    Hexside::between(a, b).is_some_and(|x| s.map.wall(x))
}
