//! Phase III Fire Resolution (bridge rules R12): each DRM marker in play is one attack, one d10
//! plus the marker's DRM read on the stand-in Small Arms, Mortar or Anti-Tank table; results
//! take effect on the units the marker rides on (mortars: the units in the hex). Also casualties
//! (steps, sections replacing squads, the Casualty track), status changes, the concealment a
//! hit strips (§4.3.1c), and recovery actions (§14 bridge, R13–R14).

use crate::dice::{Dice, Faces};
use crate::rulesets::kit::roster::{Roster, TwoSides};

use super::concealment;
use super::data::{FireResult, Kind, RulesetData};
use super::fire::signed;
use super::platoon;
use super::state::{FireKind, FireMarker, LhyState, Place, Status};

/// Phase III: every marker in the order it was placed (R12), SA and AT markers then removed;
/// MDRM markers stay until Phase V.
pub fn phase(s: &mut LhyState, dice: &mut Dice) {
    let ids: Vec<u32> = s.markers.iter().map(|m| m.id).collect();
    if ids.is_empty() {
        s.public("Fire Resolution: no fire attacks.");
    }
    // Fetched afresh each time: a squad reduced to a section passes its markers on.
    for id in ids {
        if let Some(m) = s.markers.iter().find(|m| m.id == id).cloned() {
            resolve(s, &m, None, dice);
        }
    }
    s.markers.retain(|m| m.kind == FireKind::Mortar);
}

/// Resolves one marker, against one unit only (`only`) or all it hits.
fn resolve(s: &mut LhyState, m: &FireMarker, only: Option<&str>, dice: &mut Dice) {
    let label = s.name_of(m.hex);
    let targets: Vec<String> = match m.kind {
        FireKind::Mortar => s
            .on_map()
            .filter(|u| u.at == m.hex && u.side != m.side && !u.kind.hard() && !u.vehicle())
            .map(|u| u.name.clone())
            .collect(),
        _ => m
            .targets
            .iter()
            .filter(|n| s.unit(n).is_some_and(|u| u.on_map()))
            .cloned()
            .collect(),
    };
    let targets: Vec<String> = match only {
        Some(n) => targets.into_iter().filter(|t| t == n).collect(),
        None => targets,
    };
    let roll = dice.roll_one(
        format!(
            "fire resolution: {} {} at {label}",
            m.kind.marker(),
            signed(m.drm)
        ),
        Faces::d(10),
    ) as i32;
    let total = roll + m.drm;
    // The side fired on: "no visible effect" is its enemy's version of the result, which
    // spectators read too (what every seat may see; the owner reads each unit's own line).
    let target_side = s.enemy_of(&m.side).unwrap_or_default().to_string();
    let head = format!(
        "{} {} at {label} (by {}): d10 {roll} {:+} = {total}",
        m.kind.marker(),
        signed(m.drm),
        shown_firer(s, m),
        m.drm
    );
    // A marker on dummies reads, to the enemy, exactly as one on real units without effect.
    if targets.iter().all(|t| s.unit(t).is_some_and(|u| u.dummy())) {
        s.public(format!("{head}."));
        s.to_enemies(&target_side, format!("  {label}: no visible effect."));
        return;
    }
    s.public(format!("{head}."));
    let table = match m.kind {
        FireKind::SmallArms => s.data.tables.small_arms.get(),
        FireKind::Mortar => s.data.tables.mortar.get(),
        FireKind::AntiTank => s.data.tables.anti_tank.get(),
    };
    for t in targets {
        let Some(u) = s.unit(&t).cloned() else {
            continue;
        };
        if u.dummy() {
            continue;
        }
        let coh = s.cohesion(&u);
        let result = match m.kind {
            // R12: a small arms or mortar result strikes only at or above the unit's Cohesion.
            FireKind::SmallArms | FireKind::Mortar if total < coh => FireResult::None,
            _ => RulesetData::result(&table, total),
        };
        // §4.3.1c: a Final Fire Resolution die roll at or above Cohesion strips concealment.
        let reveal = match m.kind {
            FireKind::AntiTank => result != FireResult::None,
            _ => total >= coh,
        };
        if reveal {
            concealment::reveal(s, &t);
        }
        let shown = s.unit(&t).is_some_and(|x| !x.concealed && !x.hidden);
        let what = apply(s, &t, result, dice);
        let line = format!("{t}: {what}.");
        if shown {
            s.public(format!("  {line}"));
        } else {
            s.private(&u.side, format!("  {line}"));
        }
    }
    if only.is_none() && targets_all_concealed(s, m) {
        s.to_enemies(&target_side, format!("  {label}: no visible effect."));
    }
}

fn targets_all_concealed(s: &LhyState, m: &FireMarker) -> bool {
    m.kind != FireKind::Mortar
        && m.targets
            .iter()
            .filter_map(|n| s.unit(n))
            .all(|u| u.concealed || u.hidden)
}

/// The firer as the enemy may name it.
fn shown_firer(s: &LhyState, m: &FireMarker) -> String {
    match s.unit(&m.by) {
        Some(u) if !u.concealed && !u.hidden => m.by.clone(),
        Some(u) if u.hidden => "an unseen unit".into(),
        _ => "a concealed unit".into(),
    }
}

/// Applies a result to a unit; returns what happened, in words.
pub fn apply(s: &mut LhyState, name: &str, r: FireResult, dice: &mut Dice) -> String {
    let Some(u) = s.unit(name).cloned() else {
        return "gone".into();
    };
    let fp = u.kind == Kind::Fp;
    match r {
        FireResult::None => "no effect".into(),
        // §4.1.14b: FPs are immune to suppression and shock.
        FireResult::Disrupt | FireResult::Shock if fp => "no effect (FP)".into(),
        FireResult::Disrupt => match u.status {
            Status::Good | Status::Regrouping => {
                set_status(s, name, Status::Disrupted);
                "disrupted".into()
            }
            Status::Disrupted => {
                set_status(s, name, Status::Shocked);
                "shocked".into()
            }
            Status::Shocked => casualty(s, name, dice),
        },
        FireResult::Shock => {
            if u.status == Status::Shocked {
                casualty(s, name, dice)
            } else {
                set_status(s, name, Status::Shocked);
                "shocked".into()
            }
        }
        FireResult::Casualty => casualty(s, name, dice),
        FireResult::Destroyed => {
            let mut out = String::new();
            for _ in 0..u.steps.max(1) {
                out = casualty(s, name, dice);
            }
            out
        }
    }
}

fn set_status(s: &mut LhyState, name: &str, st: Status) {
    if let Some(x) = s.unit_mut(name) {
        x.status = st;
        x.heroic = false;
    }
}

/// One step lost (§2.2, R12): a squad gives way to a section of its platoon drawn at random
/// (disrupted), anything else is eliminated, a platoon leader too (killed: he never returns).
/// Riders and passengers of an eliminated vehicle go with it.
pub fn casualty(s: &mut LhyState, name: &str, dice: &mut Dice) -> String {
    let Some(u) = s.unit(name).cloned() else {
        return "gone".into();
    };
    if let Some(sd) = s.side_mut(&u.side) {
        sd.casualties += 1;
    }
    if u.kind == Kind::Squad {
        let pool: Vec<String> = u
            .platoon
            .as_deref()
            .map(|p| {
                platoon::pool_of(s, p, Kind::Section)
                    .into_iter()
                    .map(|x| x.name.clone())
                    .collect()
            })
            .unwrap_or_default();
        if !pool.is_empty() {
            let i = if pool.len() == 1 {
                0
            } else {
                dice.roll_one(
                    format!("{}: section drawn", u.side),
                    Faces::d(pool.len() as u32),
                ) as usize
                    - 1
            };
            let sec = pool[i].clone();
            platoon::replace(s, &[name.to_string()], std::slice::from_ref(&sec));
            if let Some(x) = s.unit_mut(&sec) {
                x.status = Status::Disrupted;
            }
            if let Some(x) = s.unit_mut(name) {
                x.place = Place::Eliminated;
            }
            return format!("a casualty: reduced to section {sec}, disrupted");
        }
    }
    // A leader hit is killed, not called away: only leaders a random event called away come
    // back at Clean Up, so a side can lose its last leader and §5.0 I's forfeit can happen.
    if let Some(x) = s.unit_mut(name) {
        x.place = Place::Eliminated;
        x.aboard = None;
    }
    let riders: Vec<String> = s
        .units
        .iter()
        .filter(|x| x.aboard.as_deref() == Some(name) && x.on_map())
        .map(|x| x.name.clone())
        .collect();
    for r in riders {
        casualty(s, &r, dice);
    }
    if u.kind == Kind::Leader {
        "a casualty: the platoon leader is killed".into()
    } else if u.vehicle() || u.kind.hard() {
        "destroyed".into()
    } else {
        "a casualty: eliminated".into()
    }
}

/// §10.2b: the markers an exiting unit carries hit it now.
pub fn resolve_carried(s: &mut LhyState, name: &str, dice: &mut Dice) {
    let carried: Vec<FireMarker> = s
        .markers
        .iter()
        .filter(|m| m.kind != FireKind::Mortar && m.targets.iter().any(|t| t == name))
        .cloned()
        .collect();
    for m in carried {
        resolve(s, &m, Some(name), dice);
        if let Some(x) = s.markers.iter_mut().find(|x| x.id == m.id) {
            x.targets.retain(|t| t != name);
        }
    }
}

/// One marker against one unit now (a unit withdrawing out of an impact hex, R19).
pub fn resolve_marker_on(s: &mut LhyState, id: u32, name: &str, dice: &mut Dice) {
    if let Some(m) = s.markers.iter().find(|m| m.id == id).cloned() {
        resolve(s, &m, Some(name), dice);
    }
}

/// A unit's status one level better (recovery, R13).
pub fn better(st: Status) -> Status {
    match st {
        Status::Shocked => Status::Disrupted,
        Status::Disrupted => Status::Regrouping,
        Status::Regrouping | Status::Good => Status::Good,
    }
}

/// A recovery action (§14 bridge, R13): d10, less the platoon leader's help, at most the
/// Cohesion improves the status one step; an unmodified roll of `heroic_roll` makes the unit
/// Heroic (R14). A platoon leader's recovery also rallies the units of his platoon stacked
/// with him that have not acted (their action too).
pub fn recover(s: &mut LhyState, name: &str, dice: &mut Dice) -> Vec<String> {
    let Some(u) = s.unit(name).cloned() else {
        return vec![];
    };
    let mut who = vec![name.to_string()];
    if u.kind == Kind::Leader {
        who.extend(
            s.on_map()
                .filter(|x| {
                    x.at == u.at
                        && x.name != u.name
                        && x.platoon.is_some()
                        && x.platoon == u.platoon
                        && x.done.is_none()
                        && (x.status != Status::Good)
                })
                .map(|x| x.name.clone()),
        );
    }
    for n in &who {
        let Some(x) = s.unit(n).cloned() else {
            continue;
        };
        if x.status == Status::Good && n != name {
            continue;
        }
        let roll = dice.roll_one(format!("{}: recovery", x.side), Faces::d(10)) as i32;
        let help = platoon::leader_with(s, &x).is_some() || (n != name && u.kind == Kind::Leader);
        let drm = if help {
            s.data.rules.recovery_leader_drm.int()
        } else {
            0
        };
        let coh = s.cohesion(&x);
        let heroic = roll == s.data.rules.heroic_roll.int();
        let before = x.status;
        // R13: recovery improves the condition one step, a Heroic roll too (a shocked unit
        // becomes disrupted, not good).
        let after = if heroic || roll + drm <= coh {
            better(before)
        } else {
            before
        };
        if let Some(y) = s.unit_mut(n) {
            y.status = after;
            if heroic && y.kind != Kind::Fp {
                y.heroic = true;
                y.heroic_acted = false;
            }
            if y.done.is_none() {
                y.done = Some(super::state::Done::Recover);
            }
        }
        let text = format!(
            "{n} recovers: {roll}{} vs Cohesion {coh}: {}{}.",
            if drm != 0 { signed(drm) } else { String::new() },
            after.word(),
            if heroic { ", and is Heroic" } else { "" }
        );
        let shown = s.unit(n).is_some_and(|y| !y.concealed && !y.hidden);
        if shown {
            s.public(text);
        } else {
            s.private(&x.side, text);
        }
    }
    who
}
