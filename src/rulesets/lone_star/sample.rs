//! Legal orders for the demo's scripted players and random-play tests: for the step in hand, a
//! deterministic pick (from `choice`) of what a sensible player might write. Everything it
//! writes must parse; it never changes the state.

use crate::board::tabletop::{bearing, dist};
use crate::rulesets::kit::grammar::tenths;
use crate::rulesets::kit::pick::Pick;

use super::data::Arm;
use super::movement::allowance;
use super::state::{Fig, Form, Phase, State, Unit};
use super::turn::{nearest_target, needs_extra};

fn nearest_enemy<'a>(state: &'a State, u: &'a Unit) -> Option<&'a Unit> {
    state
        .enemies_of(u)
        // Only what small arms and charges may aim at (R38, R45).
        .filter(|e| !e.hidden && super::wagons::targetable(state, e) && e.aboard.is_none())
        .filter(|e| e.arm != Arm::Windwagon || e.halted)
        .min_by(|a, b| dist(a.pos, u.pos).total_cmp(&dist(b.pos, u.pos)))
}

pub fn sample_orders(state: &State, seat: &str, choice: u64) -> String {
    let mut p = Pick(choice.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x5bd1);
    let mut out = Vec::new();
    // Escorts are out of the battle: no order names them (R40).
    let units: Vec<&Unit> = state
        .seat_units(seat)
        .into_iter()
        .filter(|u| u.escorting == 0)
        .collect();
    for u in &units {
        if p.one_in(6) {
            let line = match p.draw() % 4 {
                0 => format!("STANDING {} TARGET NEAREST", u.name),
                1 => format!(
                    "STANDING {} MELEE {}",
                    u.name,
                    if p.one_in(2) { "STAY" } else { "LEAVE" }
                ),
                2 if u.hidden => format!("STANDING {} AMBUSH {}", u.name, tenths(u.short)),
                2 => format!(
                    "STANDING {} PRISONERS {}",
                    u.name,
                    if p.one_in(2) { "YES" } else { "NO" }
                ),
                _ if u.on_foot() => format!("STANDING {} EXTRA NONE", u.name),
                _ => format!("STANDING {} TARGET NONE", u.name),
            };
            out.push(line);
        }
        match &state.phase {
            Phase::Move { .. } => out.extend(move_line(state, u, &mut p)),
            Phase::Combat => out.extend(combat_line(state, u, &mut p)),
            Phase::MeleeEnd if !u.melee.is_empty() => {
                out.push(format!(
                    "{} {}",
                    if p.one_in(3) { "LEAVE" } else { "STAY" },
                    u.name
                ));
            }
            Phase::Extra if needs_extra(u) => {
                if p.one_in(3) {
                    out.push(format!("EXTRA {} NONE", u.name));
                } else if let Some(e) = nearest_enemy(state, u) {
                    let h = bearing(u.pos, e.pos);
                    let to = u.pos.offset(h, 3.0);
                    if (0.0..=state.width).contains(&to.x) && (0.0..=state.height).contains(&to.y) {
                        out.push(format!(
                            "EXTRA {} {},{}",
                            u.name,
                            tenths(to.x),
                            tenths(to.y)
                        ));
                    }
                }
            }
            _ => {}
        }
    }
    // R36: getting out of the seat's own wagon under way needs this mail's STOP for it; out
    // of its own zeppelin in the air, no FLY for it in this mail (R44).
    let stops: Vec<String> = out
        .iter()
        .filter_map(|l| l.strip_prefix("STOP ").map(str::to_string))
        .collect();
    let flies: Vec<String> = state
        .units
        .iter()
        .filter(|z| {
            z.arm == Arm::Zeppelin
                && out
                    .iter()
                    .any(|l| l.starts_with(&format!("FLY {} ", z.name)))
        })
        .map(|z| z.name.clone())
        .collect();
    out.retain(|l| {
        let Some(n) = l.strip_prefix("DISEMBARK ") else {
            return true;
        };
        state
            .unit(n)
            .and_then(|u| u.aboard.as_deref())
            .and_then(|c| state.unit(c))
            .is_none_or(|c| match c.arm {
                Arm::Windwagon => c.halted || stops.contains(&c.name),
                Arm::Zeppelin => {
                    c.machine.as_ref().is_some_and(|m| m.landed) || !flies.contains(&c.name)
                }
                _ => true,
            })
    });
    if out.is_empty()
        && let Some(u) = units.first()
    {
        out.push(format!("STANDING {} TARGET NEAREST", u.name));
    }
    out.join("\n") + "\n"
}

fn move_line(state: &State, u: &Unit, p: &mut Pick) -> Option<String> {
    if !u.may_move() || !u.melee.is_empty() {
        return None;
    }
    if let Some(c) = u.aboard.as_deref().and_then(|c| state.unit(c)) {
        let open = c.seat == u.seat || super::wagons::open_for_troops(c);
        return (open && p.one_in(3)).then(|| format!("DISEMBARK {}", u.name));
    }
    match u.arm {
        Arm::Panjandrum => {
            let e = nearest_enemy(state, u)?;
            let run = u.machine.as_ref().map_or(0, |m| m.run);
            return (run == 0 && p.one_in(2)).then(|| {
                format!(
                    "LAUNCH {} {}",
                    u.name,
                    tenths(bearing(u.pos, e.pos).round() % 360.0)
                )
            });
        }
        Arm::Zeppelin => {
            return Some(match p.draw() % 3 {
                0 => format!("HOLD {}", u.name),
                _ => format!("FLY {} {}", u.name, 2 + p.draw() % 5),
            });
        }
        Arm::Aeroplane => return Some(format!("FLY {} {}", u.name, 4 + p.draw() % 8)),
        _ => {}
    }
    if u.arm == Arm::Windwagon {
        return Some(match p.draw() % 3 {
            // A halted wagon is already stopped (R36): it holds or sails.
            0 if u.halted => format!("HOLD {}", u.name),
            0 => format!("STOP {}", u.name),
            _ => format!("SAIL {} {}", u.name, (p.draw() % 8) * 45),
        });
    }
    let enemy = nearest_enemy(state, u);
    match p.draw() % 8 {
        0 => Some(format!("HOLD {}", u.name)),
        1 if matches!(u.form, Form::Line | Form::Column) => Some(format!(
            "FORM {} {}",
            u.name,
            if u.form == Form::Line {
                "COLUMN"
            } else {
                "LINE"
            }
        )),
        2 if u.smoke > 0 && u.count(Fig::Grenadier) > 0 => Some(format!("SMOKE {}", u.name)),
        3 if matches!(u.form, Form::Line | Form::Column) && u.arm != Arm::Artillery => {
            let e = enemy?;
            (dist(e.pos, u.pos) < allowance(state, u, true) + 3.0)
                .then(|| format!("CHARGE {} {}", u.name, e.name))
        }
        _ => {
            let e = enemy?;
            let h = bearing(u.pos, e.pos);
            let inches = 2.0 + (p.draw() % 5) as f64;
            Some(format!(
                "MOVE {} {} ON {}",
                u.name,
                tenths(inches),
                tenths(h.round() % 360.0)
            ))
        }
    }
}

fn combat_line(state: &State, u: &Unit, p: &mut Pick) -> Option<String> {
    if !u.on_ground() {
        return None;
    }
    if u.hidden {
        return p.one_in(3).then(|| format!("REVEAL {}", u.name));
    }
    if let Some(g) = &u.gun {
        let e = state.enemies_of(u).find(|e| {
            !e.hidden
                && (g.range_min..=g.range_max).contains(&dist(u.pos, e.pos))
                && state.in_front(u, e.pos)
                && (0.0..=state.width).contains(&e.pos.x)
                && (0.0..=state.height).contains(&e.pos.y)
        })?;
        return Some(format!(
            "FIRE {} AT {},{}",
            u.name,
            tenths(e.pos.x),
            tenths(e.pos.y)
        ));
    }
    if !u.melee.is_empty() {
        return match p.draw() % 3 {
            0 => Some(format!("PRISONERS {}", u.name)),
            1 if u.gas > 0 && u.gas_masks && u.count(Fig::Grenadier) > 0 => {
                Some(format!("GAS {}", u.name))
            }
            _ => None,
        };
    }
    // A windwagon's crew does not shoot (R38): no FIRE line for it.
    if u.arm == Arm::Windwagon {
        return None;
    }
    match p.draw() % 4 {
        // A routing unit does not shoot: FIRE AT is refused for it.
        _ if u.routing => Some(format!("FIRE {} NONE", u.name)),
        0 => Some(format!("FIRE {} NONE", u.name)),
        _ => nearest_target(state, u).map(|t| format!("FIRE {} AT {t}", u.name)),
    }
}
