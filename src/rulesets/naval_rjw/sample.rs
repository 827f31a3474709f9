//! Scripted players: a legal, sensible order email for any seat in any step, chosen
//! deterministically from `choice`. Every candidate is run through `orders::parse` and the lines
//! it rejects are dropped, so the result always parses. It never changes the state.

use crate::board::tabletop::{Pt, bearing, dist, heading_diff, hull_range};
use crate::rulesets::kit::pick::Pick;

use super::data::Formation;
use super::orders;
use super::state::{Fate, NavalState, Phase, Ship, StandingFire};
use super::{gunnery, stats};
use crate::rulesets::kit::grammar::num;

fn nearest_enemy<'a>(state: &'a NavalState, me: &Ship) -> Option<&'a Ship> {
    state
        .ships
        .iter()
        .filter(|o| o.side != me.side && o.fate == Fate::Afloat)
        .min_by(|a, b| hull_range(&a.hull, &me.hull).total_cmp(&hull_range(&b.hull, &me.hull)))
}

/// The ships that take orders individually: group leads and ships in no astern line/flotilla.
fn commanders<'a>(state: &'a NavalState, side: &str) -> Vec<&'a Ship> {
    state
        .ships
        .iter()
        .filter(|s| s.side == side && s.fate == Fate::Afloat)
        .filter(
            |s| match state.groups.iter().find(|g| g.ships.contains(&s.name)) {
                None => true,
                Some(g) => {
                    g.ships.first() == Some(&s.name)
                        || (!g.flotilla && g.formation == Formation::Abreast)
                }
            },
        )
        .collect()
}

/// A turn order toward the enemy (or back toward the table when the bow nears an edge).
fn steer(state: &NavalState, s: &Ship) -> Option<String> {
    let ahead = s.hull.centre.offset(s.hull.heading, 8.0);
    let off = ahead.x < 2.0
        || ahead.y < 2.0
        || ahead.x > state.width - 2.0
        || ahead.y > state.height - 2.0;
    let want = if off {
        bearing(
            s.hull.centre,
            Pt::new(state.width / 2.0, state.height / 2.0),
        )
    } else {
        bearing(s.hull.centre, nearest_enemy(state, s)?.hull.centre)
    };
    let max = stats::class_data(state, s.class).max_turn.get();
    let d = heading_diff(s.hull.heading, want).clamp(-max, max).round();
    if d.abs() < 5.0 {
        return None;
    }
    Some(if d < 0.0 {
        format!("TURN {} PORT {}", s.name, num(-d))
    } else {
        format!("TURN {} STARBOARD {}", s.name, num(d))
    })
}

fn fire_lines(state: &NavalState, side: &str, p: &mut Pick) -> Vec<String> {
    let mode = if p.one_in(3) {
        StandingFire::Flagship
    } else {
        StandingFire::Nearest
    };
    let plan = gunnery::standing_plan(state, side, mode);
    let mut used: Vec<String> = plan
        .iter()
        .filter(|f| !f.secondary)
        .map(|f| f.ship.clone())
        .collect();
    let mut out = Vec::new();
    for f in &plan {
        let mut line = format!("FIRE {}", f.ship);
        if f.secondary {
            line.push_str(" SECONDARY");
        }
        line.push_str(" AT ");
        let targets: Vec<&str> = f.targets.iter().take(3).map(String::as_str).collect();
        line.push_str(&targets.join(" ELSE "));
        out.push((f.ship.clone(), f.secondary, line));
    }
    // Sometimes the last main-battery shooter supports the first instead of firing.
    if p.one_in(2) && out.iter().filter(|o| !o.1).count() >= 2 {
        let supporter = out.iter().rev().find(|o| !o.1).map(|o| o.0.clone());
        if let Some(sup) = supporter {
            out.retain(|o| o.0 != sup || o.1);
            used.retain(|u| *u != sup);
            if let Some(first) = out.iter_mut().find(|o| !o.1) {
                first.2.push_str(&format!(" SUPPORT {sup}"));
            }
        }
    }
    out.into_iter().map(|o| o.2).collect()
}

/// Drops every line `parse` rejects until the text parses (at worst: `PASS`).
fn legalise(state: &NavalState, seat: &str, mut lines: Vec<String>) -> String {
    for _ in 0..12 {
        let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
        match orders::parse(state, seat, &text) {
            // A mail with nothing in it is not a submission: an empty plan is sent as PASS.
            Ok(o) if o.is_empty() => return "PASS\n".to_string(),
            Ok(o) => return orders::print(&o),
            Err(bad) => {
                let drop: Vec<usize> = bad.iter().map(|r| r.line).collect();
                lines = lines
                    .into_iter()
                    .enumerate()
                    .filter(|(i, _)| !drop.contains(&(i + 1)))
                    .map(|x| x.1)
                    .collect();
            }
        }
    }
    "PASS\n".to_string()
}

/// A legal, sensible order email for `seat` now, chosen by `choice`.
pub fn sample_orders(state: &NavalState, seat: &str, choice: u64) -> String {
    let mut p = Pick(choice ^ (state.turn as u64).wrapping_mul(0x1000_0001));
    let lines = match state.phase {
        Phase::GameOver => return "PASS\n".to_string(),
        Phase::Setup => setup_lines(state, seat, &mut p),
        Phase::Manoeuvre if seat != state.active => {
            return if p.one_in(2) {
                "STANDING FIRE NEAREST\n".into()
            } else {
                "PASS\n".into()
            };
        }
        Phase::Manoeuvre => manoeuvre_lines(state, seat, &mut p),
        Phase::Fire => match p.draw() % 5 {
            0 => vec!["STANDING FIRE NEAREST".to_string()],
            1 => vec!["PASS".to_string()],
            _ => fire_lines(state, seat, &mut p),
        },
    };
    legalise(state, seat, lines)
}

/// The set-up step: sometimes new nominations, a genuine and a dummy minefield, standing fire.
fn setup_lines(state: &NavalState, seat: &str, p: &mut Pick) -> Vec<String> {
    let mut lines = Vec::new();
    if p.one_in(3) {
        let caps: Vec<&Ship> = state
            .ships
            .iter()
            .filter(|s| s.side == seat && s.class.is_capital())
            .collect();
        if caps.len() >= 2 {
            let k = (p.draw() % caps.len() as u64) as usize;
            let j = (k + 1) % caps.len();
            lines.push(format!("FLAGSHIP {}", caps[k].name));
            lines.push(format!("SECOND {}", caps[j].name));
        }
    }
    if p.one_in(2) {
        // A genuine field and a dummy in the middle band of the table.
        let x = state.width * (0.3 + 0.4 * (p.draw() % 100) as f64 / 100.0);
        let y = state.height * (0.3 + 0.4 * (p.draw() % 100) as f64 / 100.0);
        lines.push(format!(
            "MINEFIELD GENUINE AT {},{} HEADING {}",
            num(x.round()),
            num(y.round()),
            (p.draw() % 4) * 90
        ));
        let x2 = (state.width - x).round().clamp(0.0, state.width);
        lines.push(format!(
            "MINEFIELD DUMMY AT {},{} HEADING 0",
            num(x2),
            num(y.round())
        ));
    }
    if p.one_in(2) {
        lines.push("STANDING FIRE NEAREST".to_string());
    }
    lines
}

/// The active side's manoeuvre step: rescues owed, repairs, then (unless a general withdrawal
/// or chase holds the fleet) helm orders, mine work, captures and a general order; then fire.
fn manoeuvre_lines(state: &NavalState, seat: &str, p: &mut Pick) -> Vec<String> {
    let mut lines = rescue_lines(state, seat);
    let general = stats::fleet(state, seat).is_some_and(|f| f.withdrawal || f.chase);
    for s in state
        .ships
        .iter()
        .filter(|s| s.side == seat && s.fate == Fate::Afloat && s.hit_markers > 0)
    {
        if p.one_in(2) {
            lines.push(format!("REPAIR {}", s.name));
        }
    }
    if !general {
        lines.extend(helm_lines(state, seat, p));
        lines.extend(mine_lines(state, seat, p));
        lines.extend(capture_lines(state, seat));
        lines.extend(general_order_lines(state, seat, p));
    }
    match p.draw() % 4 {
        0 | 1 => lines.extend(fire_lines(state, seat, p)),
        2 => lines.push("STANDING FIRE NEAREST".to_string()),
        _ => {}
    }
    lines
}

/// A free ship of `seat` that may take on other work: afloat, neither rescuing nor taking a prize.
fn free(s: &Ship, seat: &str) -> bool {
    s.side == seat && s.fate == Fate::Afloat && s.rescue.is_none() && s.capturing.is_none()
}

/// The survivors this fleet owes a rescue, each by its nearest free ship able to (capital
/// wrecks by capital ships only).
fn rescue_lines(state: &NavalState, seat: &str) -> Vec<String> {
    let mut lines = Vec::new();
    if let Some(f) = stats::fleet(state, seat) {
        for w in &f.rescue_owed {
            if let Some(wreck) = stats::find_ship(state, w) {
                let near = state
                    .ships
                    .iter()
                    .filter(|s| free(s, seat))
                    .filter(|s| !wreck.class.is_capital() || s.class.is_capital())
                    .min_by(|a, b| {
                        dist(a.hull.centre, wreck.hull.centre)
                            .total_cmp(&dist(b.hull.centre, wreck.hull.centre))
                    });
                if let Some(r) = near {
                    lines.push(format!("RESCUE {} WITH {}", w, r.name));
                }
            }
        }
    }
    lines
}

/// For each ship that takes orders: halt, steer and/or move, sometimes smoke for a destroyer.
fn helm_lines(state: &NavalState, seat: &str, p: &mut Pick) -> Vec<String> {
    let mut lines = Vec::new();
    for s in commanders(state, seat) {
        if s.rescue.is_some() || s.capturing.is_some() {
            continue;
        }
        match p.draw() % 8 {
            0 => lines.push(format!("HALT {}", s.name)),
            1..=4 => {
                if let Some(t) = steer(state, s) {
                    lines.push(t);
                }
                if p.one_in(2) {
                    lines.push(format!("MOVE {}", s.name));
                }
            }
            5 => lines.push(format!("MOVE {}", s.name)),
            _ => {}
        }
        if s.class == super::data::ShipClass::DD && p.one_in(6) {
            lines.push(format!("SMOKE {}", s.name));
        }
    }
    lines
}

/// Minelayers sometimes lay; minesweepers sweep the first enemy field in reach.
fn mine_lines(state: &NavalState, seat: &str, p: &mut Pick) -> Vec<String> {
    let mut lines = Vec::new();
    for s in state
        .ships
        .iter()
        .filter(|s| s.side == seat && s.fate == Fate::Afloat && s.hit_markers == 0)
    {
        if s.minelayer && p.one_in(3) {
            lines.push(format!("LAY {}", s.name));
        }
        if s.minesweeper {
            let reach = state.data.rules.sweep_reach.get();
            if let Some(m) = state.minefields.iter().find(|m| {
                m.owner != seat && super::movement::hull_to_field(state, &s.hull, m) <= reach
            }) {
                lines.push(format!("SWEEP {} {}", s.name, m.id));
            }
        }
    }
    lines
}

/// Each enemy ship that has struck and is nobody's prize yet, taken by the nearest free ship
/// able to (capital prizes by capital ships only).
fn capture_lines(state: &NavalState, seat: &str) -> Vec<String> {
    let mut lines = Vec::new();
    for prize in state
        .ships
        .iter()
        .filter(|s| s.side != seat && s.fate == Fate::Struck && s.captured_by.is_none())
    {
        let taker = state
            .ships
            .iter()
            .filter(|s| free(s, seat))
            .filter(|s| s.class.is_capital() || !prize.class.is_capital())
            .min_by(|a, b| {
                dist(a.hull.centre, prize.hull.centre)
                    .total_cmp(&dist(b.hull.centre, prize.hull.centre))
            });
        if let Some(t) = taker {
            lines.push(format!("CAPTURE {} WITH {}", prize.name, t.name));
        }
    }
    lines
}

/// Sometimes a general withdrawal once a ship is lost, or a chase of a withdrawing enemy.
fn general_order_lines(state: &NavalState, seat: &str, p: &mut Pick) -> Vec<String> {
    let mut lines = Vec::new();
    let lost = state
        .ships
        .iter()
        .filter(|s| s.side == seat && stats::is_lost(s))
        .count();
    if lost >= 1 && p.one_in(5) {
        lines.push("WITHDRAW".to_string());
    }
    let enemy_withdrawing = state.fleets.iter().any(|f| f.side != seat && f.withdrawal);
    if enemy_withdrawing && p.one_in(3) {
        lines.push("CHASE".to_string());
    }
    lines
}
