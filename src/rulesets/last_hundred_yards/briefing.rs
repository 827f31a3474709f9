//! What a seat plays for and with, for the welcome and HELP mails: the mission, its objectives,
//! limits and victory levels, and the seat's own companies, platoons and units. It names no
//! enemy unit: the enemy's order of battle is as hidden as its map.

use crate::rulesets::kit::roster::TwoSides;

use super::state::{LhyState, Place};

/// A seat's briefing: its mission (side and edge, set-up zone, limits, objectives, victory
/// levels), then its forces.
pub fn briefing(s: &LhyState, seat: &str) -> Vec<(String, Vec<String>)> {
    let Some(side) = s.side(seat) else {
        return vec![];
    };
    let mut mission = vec![s.description.clone()];
    mission.push(format!(
        "You are the {} ({}); your friendly board edge is the {} edge.",
        if side.attacker {
            "attacker"
        } else {
            "defender"
        },
        side.name,
        side.fbe.word()
    ));
    mission.extend(setup_zone(s, seat));
    mission.push(format!(
        "{} game turns at most, {} minutes on the Time Lapse track; Casualty Differential Limit {}.",
        s.max_turns, s.minutes, s.cdl
    ));
    for o in &s.objectives {
        mission.push(format!(
            "Objective {} at {}: {} points{}.",
            o.name,
            s.name_of(o.hex),
            o.points,
            o.held_by
                .as_deref()
                .map_or(String::new(), |h| format!(", held by {}", s.side_name(h)))
        ));
    }
    mission.extend(victory_levels(s));
    vec![
        (format!("Your mission: {}", s.scenario), mission),
        ("Your forces".into(), forces(s, seat)),
    ]
}

/// R20: where PLACE and DUMMY may put counters (the play-through found it unsaid), and how
/// many dummies; nothing for a seat without a set-up zone.
fn setup_zone(s: &LhyState, seat: &str) -> Option<String> {
    let (_, hexes) = s.zones.iter().find(|(z, _)| z == seat)?;
    let g = s.map.grid();
    let rows: Vec<_> = hexes
        .iter()
        .filter_map(|h| g.address(*h))
        .map(|a| a.row)
        .collect();
    let (Some(lo), Some(hi)) = (rows.iter().min(), rows.iter().max()) else {
        return None;
    };
    let dummies = s
        .dummies_allowed
        .iter()
        .find(|(x, _)| x == seat)
        .map_or(0, |d| d.1);
    Some(format!(
        "Your set-up zone (PLACE, DUMMY): printed rows {lo:02} to {hi:02}; {}.",
        match dummies {
            0 => "no dummies".to_string(),
            1 => "1 dummy allowed".to_string(),
            n => format!("{n} dummies allowed"),
        }
    ))
}

/// The victory levels with the attacker's scores each covers and who wins by it. Levels run
/// best first; the last one is whatever is left below the one above it.
fn victory_levels(s: &LhyState) -> Vec<String> {
    let mut lines = Vec::new();
    for (i, l) in s.levels.iter().enumerate() {
        let above = i.checked_sub(1).and_then(|j| s.levels.get(j));
        let last = i + 1 == s.levels.len();
        let range = match (above, last) {
            (None, true) => "Any attacker's score".to_string(),
            (None, false) => format!("Attacker's score {} or more", l.at_least),
            (Some(a), true) => format!("Attacker's score below {}", a.at_least),
            (Some(a), false) if a.at_least - 1 == l.at_least => {
                format!("Attacker's score {}", l.at_least)
            }
            (Some(a), false) => {
                format!("Attacker's score {} to {}", l.at_least, a.at_least - 1)
            }
        };
        let who = match l.winner.as_str() {
            "draw" => "a draw".to_string(),
            w => format!("{} wins", s.side_name(w)),
        };
        lines.push(format!("{range}: {} ({who}).", l.name));
    }
    lines
}

/// The seat's companies with their platoons' units, then its support units.
fn forces(s: &LhyState, seat: &str) -> Vec<String> {
    let mut forces = Vec::new();
    for c in s.companies.iter().filter(|c| c.side == seat) {
        forces.push(format!(
            "Company {} ({}): platoons {}",
            c.id,
            if c.armour { "armour" } else { "infantry" },
            c.platoons.join(", ")
        ));
        for p in &c.platoons {
            let units: Vec<String> = s
                .units
                .iter()
                .filter(|u| u.side == seat && u.platoon.as_deref() == Some(p.as_str()))
                .map(|u| unit_text(s, u))
                .collect();
            forces.push(format!("  {p}: {}", units.join("; ")));
        }
    }
    let support: Vec<String> = s
        .units
        .iter()
        .filter(|u| u.side == seat && u.platoon.is_none() && !u.dummy())
        .map(|u| unit_text(s, u))
        .collect();
    if !support.is_empty() {
        forces.push(format!("  support units: {}", support.join("; ")));
    }
    forces
}

fn unit_text(s: &LhyState, u: &super::state::Unit) -> String {
    let class = s
        .data
        .class(&u.class)
        .map_or(u.class.clone(), |c| c.name.clone());
    match u.place {
        Place::Pool => format!("{} ({class}, in the pool)", u.name),
        Place::Map => format!("{} ({class}) at {}", u.name, s.name_of(u.at)),
        _ => format!("{} ({class}, out of play)", u.name),
    }
}
