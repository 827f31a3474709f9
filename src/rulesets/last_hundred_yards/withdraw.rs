//! §10.3.1 Withdrawal: non-vehicular units disengage one to four hexes at no MP cost, each hex
//! chosen by the priority list for the map's orientation (toward the FBE and clear of enemy
//! combat units first; laterally when hexsides are not parallel to the FBE; along the FBE
//! last), never into an enemy hex or a primary impact hex; the end-of-withdrawal disruption
//! check; and withdrawing from under assault (§13.3.2, R17). Priorities use what the owner can
//! see (R21); the check uses the units really there.

use crate::board::hex::Hex;
use crate::dice::{Dice, Faces};
use crate::rulesets::kit::roster::{Roster, TwoSides};

use super::concealment;
use super::data::Kind;
use super::maneuver;
use super::map::Map;
use super::platoon;
use super::sight;
use super::state::{FireKind, LhyState, Unit};

/// Is `h` a primary impact hex (an MDRM marker that is not a secondary one)?
pub fn primary_impact(s: &LhyState, h: Hex) -> bool {
    s.markers
        .iter()
        .any(|m| m.kind == FireKind::Mortar && m.hex == h && !m.secondary)
}

/// Next to an enemy combat unit, as `side` sees the map (a Concealment marker may be one).
fn near_enemy(s: &LhyState, side: &str, h: Hex) -> bool {
    s.on_map().any(|e| {
        e.side != side && !e.hidden && e.at.distance(h) == 1 && (e.concealed || e.kind.combat())
    })
}

/// The priority classes of the hexes a withdrawal may enter from `from`, best first
/// (§10.3.1a/b). Off the FBE counts as toward it.
pub fn classes(s: &LhyState, side: &str, from: Hex, visited: &[Hex]) -> Vec<Vec<Option<Hex>>> {
    let Some(sd) = s.side(side) else {
        return vec![];
    };
    let fbe = sd.fbe;
    let depth = |h: Hex| s.map.depth(h, fbe);
    let mut toward_clear = Vec::new();
    let mut toward_near = Vec::new();
    let mut lateral_clear = Vec::new();
    let mut along = Vec::new();
    if s.map.on_edge(from, fbe) {
        toward_clear.push(None);
    }
    for h in s.map.grid().neighbours(from) {
        if !s.map.on_map(h)
            || visited.contains(&h)
            || sight::enemy_known_at(s, side, h)
            || primary_impact(s, h)
        {
            continue;
        }
        let near = near_enemy(s, side, h);
        if depth(h) < depth(from) {
            if near {
                toward_near.push(Some(h));
            } else {
                toward_clear.push(Some(h));
            }
        } else if depth(h) == depth(from) {
            if !near && !Map::sides_parallel(fbe) {
                lateral_clear.push(Some(h));
            }
            if s.map.on_edge(from, fbe) && s.map.on_edge(h, fbe) {
                along.push(Some(h));
            }
        }
    }
    if Map::sides_parallel(fbe) {
        vec![toward_clear, toward_near, along]
    } else {
        vec![toward_clear, lateral_clear, toward_near, along]
    }
}

/// The best class that has a hex in it.
fn best(s: &LhyState, side: &str, from: Hex, visited: &[Hex]) -> Vec<Option<Hex>> {
    classes(s, side, from, visited)
        .into_iter()
        .find(|c| !c.is_empty())
        .unwrap_or_default()
}

/// Checks a withdrawal path (`exit`: off the FBE after the last hex).
pub fn check(
    s: &LhyState,
    side: &str,
    units: &[&Unit],
    path: &[Hex],
    exit: bool,
) -> Result<(), String> {
    let first = units.first().ok_or("no unit")?;
    for u in units {
        if u.vehicle() || u.kind == super::data::Kind::Gun || u.kind == super::data::Kind::Fp {
            return Err(format!(
                "{} cannot withdraw (non-vehicular units only)",
                u.name
            ));
        }
        if u.aboard.is_some() {
            return Err(format!("{} is aboard a vehicle", u.name));
        }
        if s.assaults.iter().any(|(h, _)| *h == u.at) {
            return Err(format!(
                "{} is in an assault hex and cannot withdraw (§13.3.1)",
                u.name
            ));
        }
    }
    let max = s.data.rules.withdraw_hexes.int().max(1) as usize;
    // `WITHDRAW unit` (no hexes): Despatch picks the path (R24); it must lead somewhere.
    if path.is_empty() && !exit {
        let (auto, off) = auto_path(s, side, first.at);
        if auto.is_empty() && !off {
            return Err(format!(
                "{} has no hex to withdraw into by the §10.3.1 priorities",
                first.name
            ));
        }
        return Ok(());
    }
    if path.len() > max {
        return Err(format!("a withdrawal is one to {max} hexes (§10.3.1)"));
    }
    let mut from = first.at;
    let mut visited = vec![from];
    for &h in path {
        let ok = best(s, side, from, &visited);
        if !ok.contains(&Some(h)) {
            let list: Vec<String> = ok
                .iter()
                .map(|x| x.map_or("off the FBE".to_string(), |h| s.name_of(h)))
                .collect();
            return Err(format!(
                "{} is not a hex of the best withdrawal priority from {} (allowed: {})",
                s.name_of(h),
                s.name_of(from),
                if list.is_empty() {
                    "none".into()
                } else {
                    list.join(", ")
                }
            ));
        }
        visited.push(h);
        from = h;
    }
    if exit && !best(s, side, from, &visited).contains(&None) {
        return Err(format!(
            "leaving the map from {} is not the best withdrawal priority",
            s.name_of(from)
        ));
    }
    Ok(())
}

/// The path Despatch picks (R24): up to the limit, each hex of the best class farthest from
/// known enemies, then lowest number; off the FBE when that is best.
pub fn auto_path(s: &LhyState, side: &str, from: Hex) -> (Vec<Hex>, bool) {
    let max = s.data.rules.withdraw_hexes.int().max(1) as usize;
    let mut path = Vec::new();
    let mut at = from;
    let mut visited = vec![from];
    while path.len() < max {
        let c = best(s, side, at, &visited);
        if c.contains(&None) {
            return (path, true);
        }
        let score = |h: Hex| {
            s.on_map()
                .filter(|e| e.side != side && !e.hidden)
                .map(|e| e.at.distance(h))
                .min()
                .unwrap_or(99)
        };
        let Some(h) = c.iter().flatten().copied().max_by(|a, b| {
            score(*a)
                .cmp(&score(*b))
                .then(s.name_of(*b).cmp(&s.name_of(*a)))
        }) else {
            break;
        };
        path.push(h);
        visited.push(h);
        at = h;
    }
    (path, false)
}

/// Carries out a checked withdrawal; returns the hexes entered. Under assault it is first an
/// attempt (R17).
pub fn run(
    s: &mut LhyState,
    side: &str,
    names: &[String],
    path: &[Hex],
    exit: bool,
    dice: &mut Dice,
) -> Vec<Hex> {
    let Some(start) = names.first().and_then(|n| s.unit(n)).map(|u| u.at) else {
        return vec![];
    };
    if s.arrows.iter().any(|a| a.to == start && a.side != side) {
        let best = names
            .iter()
            .filter_map(|n| s.unit(n))
            .map(|u| s.cohesion(u))
            .max()
            .unwrap_or(0);
        let roll = dice.roll_one(format!("{side}: withdrawal under assault"), Faces::d(10)) as i32;
        let need = best + s.data.rules.assault_withdraw_drm.int();
        if roll > need {
            s.public(format!(
                "{}: an attempt to withdraw from under assault fails ({roll} > {need}).",
                s.name_of(start)
            ));
            return vec![];
        }
    }
    // §10.3.1b, §11.4.8e (R19): leaving an impact hex, the mortar attack there is suffered.
    for m in s
        .markers
        .iter()
        .filter(|m| m.kind == FireKind::Mortar && m.hex == start)
        .map(|m| m.id)
        .collect::<Vec<_>>()
    {
        for n in names {
            super::resolution::resolve_marker_on(s, m, n, dice);
        }
    }
    let names: Vec<String> = names
        .iter()
        .filter(|n| s.unit(n).is_some_and(|u| u.on_map()))
        .cloned()
        .collect();
    if names.is_empty() {
        return vec![];
    }
    let mut check = false;
    let mut entered = Vec::new();
    for &h in path {
        maneuver::step_into(s, &names, h);
        entered.push(h);
        for n in &names {
            concealment::after_action(s, n);
            concealment::after_enemy_move(s, n);
        }
        let undisrupted = names
            .iter()
            .filter_map(|n| s.unit(n))
            .any(|u| !u.disrupted());
        if undisrupted && triggers_check(s, side, h, &names) {
            check = true;
        }
    }
    if check {
        disruption_check(s, side, &names, dice);
    }
    if exit {
        for n in &names {
            maneuver::exit_map(s, n, dice);
        }
    }
    entered
}

/// The §10.3.1 condition for the end-of-withdrawal roll on entering `h`.
fn triggers_check(s: &LhyState, side: &str, h: Hex, withdrawing: &[String]) -> bool {
    let friend_here = s.on_map().any(|f| {
        f.side == side
            && f.at == h
            && f.kind.combat()
            && !f.disrupted()
            && !withdrawing.contains(&f.name)
    });
    if friend_here {
        return false;
    }
    s.on_map().any(|e| {
        e.side != side
            && !e.hidden
            && !e.dummy()
            && e.kind.combat()
            && e.status != super::state::Status::Disrupted
            && e.status != super::state::Status::Shocked
            && e.at.distance(h) == 1
            && !primary_impact(s, e.at)
            && !s.arrows.iter().any(|a| a.to == e.at)
            && !s.assaults.iter().any(|(x, _)| *x == e.at)
    })
}

/// The roll by the best Cohesion, less the leader's help: above it, all disrupt.
fn disruption_check(s: &mut LhyState, side: &str, names: &[String], dice: &mut Dice) {
    let units: Vec<Unit> = names.iter().filter_map(|n| s.unit(n)).cloned().collect();
    let Some(best) = units.iter().max_by_key(|u| s.cohesion(u)) else {
        return;
    };
    let coh = s.cohesion(best);
    let leader = units.iter().any(|u| {
        u.kind == Kind::Leader
            && !u.disrupted()
            && best.platoon.is_some()
            && u.platoon == best.platoon
    }) || platoon::leader_with(s, best).is_some();
    let drm = if leader {
        s.data.rules.withdraw_leader_drm.int()
    } else {
        0
    };
    let roll = dice.roll_one(format!("{side}: withdrawal check"), Faces::d(10)) as i32;
    let at = s.name_of(best.at);
    if roll + drm > coh {
        for n in names {
            if let Some(x) = s.unit_mut(n)
                && !x.disrupted()
            {
                x.status = super::state::Status::Disrupted;
            }
        }
        s.public(format!(
            "{at}: withdrawing next to the enemy, check {roll}{} > Cohesion {coh}: the withdrawing units are disrupted.",
            if drm != 0 { super::fire::signed(drm) } else { String::new() }
        ));
    } else {
        s.public(format!(
            "{at}: withdrawing next to the enemy, check {roll}{} against Cohesion {coh}: no effect.",
            if drm != 0 { super::fire::signed(drm) } else { String::new() }
        ));
    }
}
