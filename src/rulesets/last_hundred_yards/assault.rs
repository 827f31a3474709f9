//! Assaults (§13 lost; bridge rules R17): the ASSAULT order places an Assault Arrow, Marker
//! Adjustment moves the units in (unless a Feint) under an Assault marker, and Phase IV
//! resolves each assault hex: d10 plus assault values, leaders and cover per side, casualties
//! to the loser, the survivors retreat disrupted, everyone involved loses concealment (§4.3.1d).

use crate::board::hex::Hex;
use crate::dice::{Dice, Faces};
use crate::rulesets::kit::roster::{Roster, TwoSides};

use super::concealment;
use super::data::Kind;
use super::maneuver;
use super::resolution;
use super::sight;
use super::state::{Arrow, Done, LhyState, Order, Status, Unit};
use super::withdraw;

/// May these units assault `hex`?
pub fn check(s: &LhyState, units: &[&Unit], hex: Hex) -> Result<(), String> {
    let first = units.first().ok_or("no unit")?;
    let label = s.name_of(hex);
    if !first.at.is_adjacent(hex) {
        return Err(format!("{label} is not adjacent to {}", first.name));
    }
    for u in units {
        if u.at != first.at {
            return Err("the assaulting units must start in one hex".into());
        }
        if u.dummy() || u.kind == Kind::Fp || u.kind == Kind::Gun || u.kind == Kind::Mortar {
            return Err(format!("{} cannot assault", u.name));
        }
        if u.aboard.is_some() {
            return Err(format!("{} is aboard a vehicle", u.name));
        }
        // R13: disrupted, shocked and regrouping units do not assault.
        if u.status != Status::Good {
            return Err(format!(
                "{} is {} and cannot assault",
                u.name,
                u.status.word()
            ));
        }
        if s.map.enter_cost(&s.data, u.at, hex, u.vehicle()).is_none() {
            return Err(format!("{} may not enter {label}", u.name));
        }
    }
    if !sight::enemy_known_at(s, &first.side, hex) {
        return Err(format!("you know of no enemy unit in {label}"));
    }
    Ok(())
}

/// Places the Assault Arrow (the units' action).
pub fn arrow(s: &mut LhyState, side: &str, names: &[String], hex: Hex, feint: bool) {
    for n in names {
        if let Some(x) = s.unit_mut(n) {
            x.done = Some(Done::Assault);
        }
    }
    s.arrows.push(Arrow {
        units: names.to_vec(),
        side: side.to_string(),
        to: hex,
        feint,
    });
    let from = names
        .first()
        .and_then(|n| s.unit(n))
        .map(|u| u.at)
        .unwrap_or(hex);
    let seen: Vec<String> = names
        .iter()
        .filter(|n| s.unit(n).is_some_and(|u| !u.concealed && !u.hidden))
        .cloned()
        .collect();
    let who = if seen.is_empty() {
        "concealed units".to_string()
    } else {
        seen.join(", ")
    };
    s.public(format!(
        "Assault Arrow from {} into {}: {who}.",
        s.name_of(from),
        s.name_of(hex)
    ));
    if feint {
        // R33: the owner alone knows it is a feint until Marker Adjustment.
        s.private(
            side,
            format!(
                "Feint on {} declared: the units stay at Marker Adjustment (the enemy sees only the arrow).",
                s.name_of(hex)
            ),
        );
    }
}

/// R33: a side's `FEINT` lines (and `ASSAULT ORDER`, R34) taken in from any of its mails.
/// A feint is kept on the arrow, told to its owner only, and acted on at Marker Adjustment.
/// Idempotent: called when a mail is taken in and again after the mail's actions placed arrows.
pub fn declare(s: &mut LhyState, side: &str, orders: &[Order]) {
    for o in orders {
        match o {
            Order::Feint { hex, off } => {
                let mut changed = false;
                for a in s
                    .arrows
                    .iter_mut()
                    .filter(|a| a.side == side && a.to == *hex && a.feint == *off)
                {
                    a.feint = !off;
                    changed = true;
                }
                if changed {
                    let label = s.name_of(*hex);
                    s.private(
                        side,
                        if *off {
                            format!("Feint on {label} taken back: the units go in at Marker Adjustment.")
                        } else {
                            format!("Feint on {label} declared: the units stay at Marker Adjustment (the enemy sees only the arrow).")
                        },
                    );
                }
            }
            Order::AssaultOrder { hexes } if s.turn.active == side => {
                s.turn.assault_order = hexes.clone();
                let list: Vec<String> = hexes.iter().map(|h| s.name_of(*h)).collect();
                s.private(
                    side,
                    format!("Assault Resolution order noted: {}.", list.join(", ")),
                );
            }
            _ => {}
        }
    }
}

/// Marker Adjustment step b: arrows become assaults (§6.0 II.3b).
pub fn adjust(s: &mut LhyState) {
    let arrows = std::mem::take(&mut s.arrows);
    for a in arrows {
        let names: Vec<String> = a
            .units
            .iter()
            .filter(|n| s.unit(n).is_some_and(|u| u.on_map()))
            .cloned()
            .collect();
        if names.is_empty() {
            continue;
        }
        let label = s.name_of(a.to);
        if a.feint {
            // R33: the feint is told now; the units stay and their action is spent.
            s.public(format!(
                "The Assault Arrow into {label} was a feint: the units stay where they are."
            ));
            continue;
        }
        maneuver::step_into(s, &names, a.to);
        let enemy = s.enemy_of(&a.side).unwrap_or_default().to_string();
        for d in s
            .on_map()
            .filter(|u| u.side == enemy && u.at == a.to && u.dummy())
            .map(|u| u.name.clone())
            .collect::<Vec<_>>()
        {
            concealment::reveal(s, &d);
        }
        let defended = s.occupied_by(a.to, &enemy);
        if defended {
            // §4.3.1: units entering an enemy hex always lose concealment.
            for n in &names {
                concealment::reveal(s, n);
            }
            for d in s
                .on_map()
                .filter(|u| u.side == enemy && u.at == a.to && u.hidden)
                .map(|u| u.name.clone())
                .collect::<Vec<_>>()
            {
                concealment::unhide(s, &d);
            }
            if !s.assaults.iter().any(|(h, _)| *h == a.to) {
                s.assaults.push((a.to, a.side.clone()));
            }
            s.public(format!(
                "{label}: the assaulting units go in; an assault follows."
            ));
        } else {
            s.public(format!(
                "{label}: the assaulting units go in and find it empty."
            ));
        }
    }
}

/// A side's assault total in the hex (R17).
fn total(s: &LhyState, units: &[&Unit], defending: bool, hex: Hex, attacker: &str) -> i32 {
    let r = &s.data.rules;
    let mut t: i32 = units
        .iter()
        .filter(|u| !u.disrupted())
        .map(|u| s.values(u).assault)
        .sum();
    if units
        .iter()
        .any(|u| u.kind == Kind::Leader && !u.disrupted())
    {
        t += r.assault_leader.int();
    }
    if defending {
        // The defender's cover counts for him (the TEM's size).
        t -= super::fire::tem(s, hex, hex, attacker).min(0);
    }
    t
}

/// Phase IV (§5.0 IV, §13.5): the active player orders the assaults (`ASSAULT ORDER`, R34);
/// hexes he did not name follow in the order their assaults began.
pub fn phase(s: &mut LhyState, dice: &mut Dice) {
    let hexes = ordered(&s.assaults, &s.turn.assault_order);
    if s.turn
        .assault_order
        .iter()
        .any(|h| s.assaults.iter().any(|(x, _)| x == h))
    {
        let list: Vec<String> = hexes.iter().map(|(h, _)| s.name_of(*h)).collect();
        s.public(format!(
            "Assaults are resolved in the order {} gave: {}.",
            s.side_name(&s.turn.active),
            list.join(", ")
        ));
    }
    for (hex, attacker) in hexes {
        resolve(s, hex, &attacker, dice);
    }
}

/// R34: the named hexes first, in the order named; the rest in the order they began.
pub fn ordered(assaults: &[(Hex, String)], order: &[Hex]) -> Vec<(Hex, String)> {
    let mut out: Vec<(Hex, String)> = Vec::new();
    for a in order
        .iter()
        .filter_map(|h| assaults.iter().find(|(x, _)| x == h))
        .chain(assaults)
    {
        if !out.contains(a) {
            out.push(a.clone());
        }
    }
    out
}

fn resolve(s: &mut LhyState, hex: Hex, attacker: &str, dice: &mut Dice) {
    let defender = s.enemy_of(attacker).unwrap_or_default().to_string();
    let label = s.name_of(hex);
    let side_units = |s: &LhyState, side: &str| -> Vec<String> {
        s.on_map()
            .filter(|u| u.at == hex && u.side == side && !u.dummy())
            .map(|u| u.name.clone())
            .collect()
    };
    let (att, def) = (side_units(s, attacker), side_units(s, &defender));
    if att.is_empty() || def.is_empty() {
        s.assaults.retain(|(h, _)| *h != hex);
        return;
    }
    let au: Vec<Unit> = att.iter().filter_map(|n| s.unit(n)).cloned().collect();
    let du: Vec<Unit> = def.iter().filter_map(|n| s.unit(n)).cloned().collect();
    let ta = total(s, &au.iter().collect::<Vec<_>>(), false, hex, attacker);
    let td = total(s, &du.iter().collect::<Vec<_>>(), true, hex, attacker);
    let ra = dice.roll_one(format!("assault at {label}: {attacker}"), Faces::d(10)) as i32;
    let rd = dice.roll_one(format!("assault at {label}: {defender}"), Faces::d(10)) as i32;
    let (a, d) = (ra + ta, rd + td);
    s.public(format!(
        "Assault at {label}: {} {ra}+{ta} = {a} against {} {rd}+{td} = {d}.",
        s.side_name(attacker),
        s.side_name(&defender)
    ));
    for n in att.iter().chain(def.iter()) {
        concealment::reveal(s, n);
    }
    if a == d {
        for side_list in [&att, &def] {
            if let Some(n) = first_combat(s, side_list) {
                let what = resolution::casualty(s, &n, dice);
                s.public(format!("  {n}: {what}."));
            }
        }
        s.public(format!("  {label}: the assault goes on next turn."));
        return;
    }
    let (loser, winner_side) = if a > d {
        (defender.clone(), attacker.to_string())
    } else {
        (attacker.to_string(), defender.clone())
    };
    let step = s.data.rules.assault_casualty_step.int().max(1);
    let mut n = 1 + (a - d).abs() / step;
    while n > 0 {
        let here = side_units(s, &loser);
        let Some(victim) = first_combat(s, &here).or_else(|| here.first().cloned()) else {
            break;
        };
        let what = resolution::casualty(s, &victim, dice);
        s.public(format!("  {victim}: {what}."));
        n -= 1;
    }
    // Without a combat unit left, the rest are taken (leaders, LATWs).
    let left: Vec<String> = side_units(s, &loser);
    if first_combat(s, &left).is_none() {
        for x in &left {
            let what = resolution::casualty(s, x, dice);
            s.public(format!("  {x}: {what}."));
        }
    } else {
        retreat(s, &loser, &left, dice);
    }
    s.assaults.retain(|(h, _)| *h != hex);
    s.public(format!(
        "  {label}: {} holds the hex.",
        s.side_name(&winner_side)
    ));
}

/// The loser's units in order of the owner's stack: combat units first.
fn first_combat(s: &LhyState, names: &[String]) -> Option<String> {
    names
        .iter()
        .filter_map(|n| s.unit(n))
        .filter(|u| u.on_map() && u.kind.combat())
        .max_by_key(|u| u.arrived)
        .map(|u| u.name.clone())
}

/// The survivors retreat one hex by the withdrawal priorities, disrupted; with nowhere to go
/// (or an FP, §4.1.14c) they are eliminated.
fn retreat(s: &mut LhyState, side: &str, names: &[String], dice: &mut Dice) {
    let Some(from) = names.first().and_then(|n| s.unit(n)).map(|u| u.at) else {
        return;
    };
    let to = withdraw::classes(s, side, from, &[from])
        .into_iter()
        .find(|c| !c.is_empty())
        .and_then(|c| c.into_iter().flatten().next());
    for n in names {
        let Some(u) = s.unit(n).cloned() else {
            continue;
        };
        match to {
            Some(h)
                if u.kind != Kind::Fp
                    && s.map.enter_cost(&s.data, from, h, u.vehicle()).is_some() =>
            {
                maneuver::step_into(s, std::slice::from_ref(n), h);
                if let Some(x) = s.unit_mut(n)
                    && x.kind != Kind::Fp
                {
                    x.status = if x.status == Status::Shocked {
                        Status::Shocked
                    } else {
                        Status::Disrupted
                    };
                }
                s.public(format!("  {n} retreats to {}, disrupted.", s.name_of(h)));
            }
            _ => {
                let what = resolution::casualty(s, n, dice);
                s.public(format!("  {n} cannot retreat: {what}."));
            }
        }
    }
}
