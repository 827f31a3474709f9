//! Panjandrums, zeppelins and aeroplanes as far as the seed gives them (L16, L18–L20; rulings
//! R41–R45): a panjandrum's run (speed by turn, the 3D6 table, what stops it, the men who
//! dodge, the explosion and the dud) and what its blast does to buildings, walls, woods, men
//! and vehicles; a zeppelin's and an aeroplane's flight, a zeppelin's stop and descent, and
//! the troops it carries. Air combat is not played (R45). It parses nothing.

use crate::board::tabletop::{Pt, normalize, segments_intersect};
use crate::board::terrain::Area;
use crate::dice::{Dice, Faces};
use crate::rulesets::kit::grammar::tenths;

use super::data::{Arm, Rules};
use super::orders::{FlyLeg, Order};
use super::state::{Blast, Ground, State, gap_between};
use super::wagons;

pub use super::state::Machine;

fn at(p: Pt) -> String {
    format!("{},{}", tenths(p.x), tenths(p.y))
}

/// One movement of a machine on its seat's card.
pub fn move_machine(state: &mut State, name: &str, orders: &[&Order], dice: &mut Dice) {
    let arm = state.unit(name).expect("unit").arm;
    match arm {
        Arm::Panjandrum => panjandrum(state, name, orders, dice),
        _ => flight(state, name, orders),
    }
}

/// What a row of the panjandrum's 3D6 table does (L20): turn 45° before moving, explode after
/// moving, turn 45° after moving. Rows 3–4 are lost (R42: read as `panjandrum_lost_rows_as`).
pub fn panjandrum_row(state: &State, roll: u32) -> (bool, bool, bool) {
    let roll = if roll <= 4 {
        state.data.rules.panjandrum_lost_rows_as.get() as u32
    } else {
        roll
    };
    match roll {
        5 => (true, true, false),
        6 => (false, true, false),
        7 => (true, false, false),
        8 => (false, false, true),
        _ => (false, false, false),
    }
}

/// L19: inches rolled in the `run`th turn of rolling (1–6); nothing after.
pub fn panjandrum_speed(state: &State, run: u32) -> f64 {
    let r = &state.data.rules;
    match run {
        1 => r.panjandrum_move_1.get(),
        2 => r.panjandrum_move_2.get(),
        3 => r.panjandrum_move_3.get(),
        4 => r.panjandrum_move_4.get(),
        5 => r.panjandrum_move_5.get(),
        6 => r.panjandrum_move_6.get(),
        _ => 0.0,
    }
}

fn side_roll(state: &State, name: &str, dice: &mut Dice, when: &str) -> f64 {
    let r = dice.roll_one(
        format!(
            "turn {} {name} turns 45 degrees {when}: left (1-3) or right (4-6)",
            state.turn
        ),
        Faces::d(6),
    );
    if r <= 3 { -45.0 } else { 45.0 }
}

/// What a rolling panjandrum ran into.
enum Struck {
    Nothing,
    /// A wall, a building, woods: it stops (L20).
    Ground(String),
    /// A windwagon (a vehicle): it stops against it.
    Vehicle(String),
    /// It exploded among a unit of men it rolled through (a 6, L20).
    Men,
}

fn panjandrum(state: &mut State, name: &str, orders: &[&Order], dice: &mut Dice) {
    let turn = state.turn;
    let mut m = state
        .unit(name)
        .expect("unit")
        .machine
        .clone()
        .unwrap_or_default();
    if let Some(f) = m.fuse {
        if turn >= f {
            explode(state, name, dice);
        }
        return;
    }
    if m.run == 0 {
        let Some(b) = orders.iter().find_map(|o| match o {
            Order::Launch { bearing, .. } => Some(*bearing),
            _ => None,
        }) else {
            return;
        };
        state.unit_mut(name).facing = b;
        state.say(format!("{name} is launched on {}.", tenths(b)));
    }
    m.run += 1;
    let pips = dice.roll(format!("turn {turn} {name} table (3d6)"), Faces::d(6), 3);
    let roll: u32 = pips.iter().sum();
    let (turn_before, blow_after, turn_after) = panjandrum_row(state, roll);
    state.say(format!(
        "{name} rolls {roll} {pips:?} on the panjandrum table."
    ));
    if turn_before {
        let d = side_roll(state, name, dice, "before moving");
        let f = normalize(state.unit(name).expect("unit").facing + d);
        state.unit_mut(name).facing = f;
    }
    let inches = panjandrum_speed(state, m.run);
    let struck = roll_on(state, name, inches, dice);
    if turn_after {
        let d = side_roll(state, name, dice, "after moving");
        let f = normalize(state.unit(name).expect("unit").facing + d);
        state.unit_mut(name).facing = f;
    }
    state.unit_mut(name).machine = Some(m.clone());
    if state.unit(name).expect("unit").gone.is_some() {
        return;
    }
    match struck {
        Struck::Men => explode(state, name, dice),
        _ if blow_after => explode(state, name, dice),
        Struck::Ground(what) | Struck::Vehicle(what) => {
            m.fuse = Some(turn + 1);
            state.say(format!(
                "{name} stops against {what}; its charge goes off next turn (R42)."
            ));
        }
        Struck::Nothing if m.run >= 6 => {
            m.fuse = Some(turn + 1);
            state.say(format!(
                "{name}'s rockets are spent: it coasts to a stop; its charge goes off next turn."
            ));
        }
        Struck::Nothing => {}
    }
    if let Some(u) = state
        .units
        .iter_mut()
        .find(|u| u.name == name && u.gone.is_none())
    {
        u.machine = Some(m);
    }
}

/// Rolls `inches` straight on, a quarter inch at a time, stopping at what stops it (L20).
fn roll_on(state: &mut State, name: &str, inches: f64, dice: &mut Dice) -> Struck {
    let turn = state.turn;
    let size = state.data.rules.stand_size.get();
    let explode_on = state.data.rules.panjandrum_men_explode_on.get() as u32;
    let u = state.unit(name).expect("unit").clone();
    let (mut pos, h) = (u.pos, u.facing);
    let mut moved = 0.0;
    let mut dodged: Vec<String> = Vec::new();
    let mut struck = Struck::Nothing;
    while moved + 1e-9 < inches {
        let step = (inches - moved).min(0.25);
        let next = pos.offset(h, step);
        if next.x < 0.0 || next.y < 0.0 || next.x > state.width || next.y > state.height {
            state.unit_mut(name).gone = Some("rolled off the table".into());
            state.say(format!("{name} rolls off the table at {}.", at(pos)));
            return Struck::Nothing;
        }
        let wall = state.ground.iter().filter(|g| g.is("wall")).any(|g| {
            g.line()
                .windows(2)
                .any(|w| segments_intersect(w[0], w[1], pos, next))
        }) && !state.in_area("crater", next);
        let area = ["farm", "woods"]
            .into_iter()
            .find(|k| state.in_area(k, next));
        if wall || area.is_some() {
            struck = Struck::Ground(match area {
                Some("farm") => "a building".to_string(),
                Some(k) => k.to_string(),
                None => "a wall".to_string(),
            });
            break;
        }
        let here = [next];
        let vehicle = state.units.iter().find(|o| {
            o.alive()
                && o.name != name
                && o.arm == Arm::Windwagon
                && gap_between(&here, &state.stands(o), size) <= 0.0
        });
        if let Some(v) = vehicle {
            struck = Struck::Vehicle(v.name.clone());
            break;
        }
        pos = next;
        moved += step;
        state.unit_mut(name).pos = pos;
        let men: Vec<String> = state
            .units
            .iter()
            .filter(|o| {
                o.alive()
                    && o.on_ground()
                    && o.arm != Arm::Windwagon
                    && !dodged.contains(&o.name)
                    && gap_between(&here, &state.stands(o), size) <= 0.0
            })
            .map(|o| o.name.clone())
            .collect();
        for n in men {
            dodged.push(n.clone());
            let r = dice.roll_one(
                format!("turn {turn} {name} rolls through {n}: explodes on {explode_on} (d6)"),
                Faces::d(6),
            );
            if r >= explode_on {
                state.say(format!("{name} explodes among {n} ({r})!"));
                struck = Struck::Men;
                break;
            }
            state.say(format!("{n} dodge {name} ({r})."));
        }
        if matches!(struck, Struck::Men) {
            break;
        }
    }
    state.say(format!("{name} rolls {}\" to {}.", tenths(moved), at(pos)));
    struck
}

/// The charge goes off where the panjandrum stands, unless it is a dud (L20, R42, R43).
pub fn explode(state: &mut State, name: &str, dice: &mut Dice) {
    let r = state.data.rules.clone();
    let turn = state.turn;
    let p = state.unit(name).expect("unit").pos;
    let dud = dice.roll_one(
        format!(
            "turn {turn} {name} charge: a dud on {} (d6)",
            r.panjandrum_dud_on.get()
        ),
        Faces::d(6),
    );
    if dud <= r.panjandrum_dud_on.get() as u32 {
        state.unit_mut(name).gone = Some("a dud".into());
        state.say(format!("{name} is a dud ({dud}): it will never go off."));
        return;
    }
    state.unit_mut(name).gone = Some("exploded".into());
    state.blasts.push(Blast {
        at: p,
        radius: r.panjandrum_reach.get(),
        gun: name.to_string(),
    });
    state.say(format!("{name} EXPLODES at {} ({dud}).", at(p)));
    blast_buildings(state, name, p, &r, dice);
    blast_walls_and_woods(state, p, &r);
    blast_men(state, name, p, &r, dice);
}

/// Buildings: destroyed on 1-2, the occupants losing 1d6 figures either way (R43).
fn blast_buildings(state: &mut State, name: &str, p: Pt, r: &Rules, dice: &mut Dice) {
    let turn = state.turn;
    let size = r.stand_size.get();
    let farms: Vec<usize> = (0..state.ground.len())
        .filter(|i| {
            let g = &state.ground[*i];
            g.is("farm") && g.area.distance_to(p) <= size
        })
        .collect();
    for i in farms {
        let label = state.ground[i]
            .name
            .clone()
            .unwrap_or_else(|| "the building".into());
        let roll = dice.roll_one(
            format!(
                "turn {turn} {name} blast on {label}: destroyed on 1-{} (d6)",
                r.panjandrum_building_on.get()
            ),
            Faces::d(6),
        );
        if roll <= r.panjandrum_building_on.get() as u32 {
            state.ground[i].kind = "rough".into();
            state.say(format!(
                "{label} is destroyed ({roll}): rough ground remains."
            ));
        } else {
            state.say(format!("{label} stands ({roll})."));
        }
    }
}

/// A 4" section of wall and a 3" square of woods are blasted away (L20): craters.
fn blast_walls_and_woods(state: &mut State, p: Pt, r: &Rules) {
    let size = r.stand_size.get();
    let mut craters: Vec<Area> = Vec::new();
    let wall_near = state
        .ground
        .iter()
        .any(|g| g.is("wall") && g.area.distance_to(p) <= size);
    if wall_near {
        craters.push(Area::Circle {
            centre: p,
            radius: r.panjandrum_wall_section.get() / 2.0,
        });
        state.say(format!(
            "{}\" of wall at {} are blown down.",
            tenths(r.panjandrum_wall_section.get()),
            at(p)
        ));
    }
    if state.in_area("woods", p)
        || state
            .ground
            .iter()
            .any(|g| g.is("woods") && g.area.distance_to(p) <= size)
    {
        let h = r.panjandrum_woods_square.get() / 2.0;
        craters.push(Area::Polygon {
            points: vec![
                Pt::new(p.x - h, p.y - h),
                Pt::new(p.x + h, p.y - h),
                Pt::new(p.x + h, p.y + h),
                Pt::new(p.x - h, p.y + h),
            ],
        });
        state.say(format!(
            "A {}\" square of woods at {} is blasted to rough ground.",
            tenths(r.panjandrum_woods_square.get()),
            at(p)
        ));
    }
    for area in craters {
        state.ground.push(Ground {
            kind: "crater".into(),
            name: None,
            area,
        });
    }
}

/// Men and vehicles within reach: 1d6 figures each; a vehicle is destroyed with 1d6
/// casualties among its passengers (L20, R43).
fn blast_men(state: &mut State, name: &str, p: Pt, r: &Rules, dice: &mut Dice) {
    let turn = state.turn;
    let size = r.stand_size.get();
    let reach = r.panjandrum_reach.get();
    let here = [p];
    let caught: Vec<String> = state
        .units
        .iter()
        .filter(|o| {
            o.alive()
                && o.name != name
                && o.fights()
                && o.aboard.is_none()
                && (gap_between(&here, &state.stands(o), size) <= reach
                    || (o.form == super::state::Form::Occupying
                        && state.ground.iter().any(|g| {
                            (g.is("farm") || g.is("rough"))
                                && g.area.contains(o.pos)
                                && g.area.distance_to(p) <= size
                        })))
        })
        .map(|o| o.name.clone())
        .collect();
    for v in caught {
        let is_wagon = state.unit(&v).expect("unit").arm == Arm::Windwagon;
        let victim = if is_wagon {
            wagons::passenger(state, &v).map(|u| u.name.clone())
        } else {
            Some(v.clone())
        };
        if is_wagon {
            state.say(format!("{v} is blown apart."));
        }
        if let Some(t) = victim {
            let n = dice.roll_one(
                format!("turn {turn} {name} blast: casualties to {t} (d6)"),
                Faces::d(6),
            );
            state.say(format!("{t} loses {n} figure(s) to the blast."));
            super::combat::lose_without_hits(state, &t, n, dice);
        }
        if is_wagon {
            wagons::wreck(state, &v, "blown up by a panjandrum");
        }
    }
}

/// A zeppelin's or aeroplane's movement (R44). A silent zeppelin hovers; a silent aeroplane
/// flies straight on at its full rate.
fn flight(state: &mut State, name: &str, orders: &[&Order]) {
    let u = state.unit(name).expect("unit").clone();
    let mut m = u.machine.clone().unwrap_or_default();
    let turn = state.turn;
    let fly = orders.iter().find_map(|o| match o {
        Order::Fly { legs, .. } => Some(legs.clone()),
        _ => None,
    });
    let descend = orders
        .iter()
        .any(|o| matches!(o, Order::Act { act: "DESCEND", .. }));
    if u.arm == Arm::Zeppelin && descend && u.halted && !m.landed {
        m.landed = true;
        state.unit_mut(name).machine = Some(m);
        state.say(format!(
            "{name} descends and comes to ground at {}.",
            at(u.pos)
        ));
        return;
    }
    let legs = match (u.arm, fly) {
        (_, Some(l)) => l,
        (Arm::Aeroplane, None) => vec![FlyLeg {
            turn: 0,
            inches: state.data.rules.aeroplane_move.get(),
        }],
        _ => {
            state.unit_mut(name).halted = true;
            if !m.landed {
                state.say(format!("{name} hovers at {}.", at(u.pos)));
            }
            return;
        }
    };
    if m.landed {
        // R44: lifting off takes the turn, as coming down did.
        m.landed = false;
        let x = state.unit_mut(name);
        x.machine = Some(m);
        x.halted = true;
        state.say(format!("{name} lifts off at {}.", at(u.pos)));
        return;
    }
    let step = if u.arm == Arm::Zeppelin {
        state.data.rules.zeppelin_turn.get()
    } else {
        state.data.rules.aeroplane_turn.get()
    };
    let (mut pos, mut h) = (u.pos, u.facing);
    let mut flown = 0.0;
    for l in &legs {
        h = normalize(h + step * l.turn as f64);
        pos = pos.offset(h, l.inches);
        flown += l.inches;
    }
    if pos.x < 0.0 || pos.y < 0.0 || pos.x > state.width || pos.y > state.height {
        state.unit_mut(name).gone = Some("flown off the table".into());
        state.say(format!("{name} flies off the table."));
        let riders: Vec<String> = state
            .units
            .iter()
            .filter(|r| r.alive() && r.aboard.as_deref() == Some(name))
            .map(|r| r.name.clone())
            .collect();
        for r in riders {
            state.unit_mut(&r).gone = Some(format!("flown off the table in {name}"));
        }
        return;
    }
    let x = state.unit_mut(name);
    x.pos = pos;
    x.facing = h;
    x.halted = flown <= 0.0;
    if flown > 0.0 {
        x.moved_turn = turn;
    }
    state.say(format!(
        "{name} flies {}\" to {}, heading {}.",
        tenths(flown),
        at(pos),
        tenths(h)
    ));
    wagons::follow(state, name);
}
