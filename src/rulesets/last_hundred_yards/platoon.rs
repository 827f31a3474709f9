//! A platoon's counters (§10.3.2, R23, R40): the leader who helps a unit stacked with him,
//! the counters not in play, a squad deploying into two sections, and counters swapping in
//! and out of play (a section taking a squad's place when it loses a step). Maneuver and fire
//! resolution both ask here; it moves no unit on the map and resolves no fire.

use crate::dice::{Dice, Faces};
use crate::rulesets::kit::roster::Roster;

use super::data::Kind;
use super::state::{LhyState, Place, Unit};

/// The platoon leader stacked with `u` that helps it (undisrupted, same platoon).
pub fn leader_with<'a>(s: &'a LhyState, u: &Unit) -> Option<&'a Unit> {
    let p = u.platoon.as_deref()?;
    s.on_map().find(|l| {
        l.kind == Kind::Leader
            && l.platoon.as_deref() == Some(p)
            && l.at == u.at
            && !l.disrupted()
            && l.name != u.name
    })
}

/// §10.3.2: may this squad deploy now?
pub fn check_deploy(s: &LhyState, u: &Unit) -> Result<(), String> {
    if u.kind != Kind::Squad {
        return Err(format!("{} is not a squad", u.name));
    }
    if u.disrupted() {
        return Err(format!("{} is disrupted and may not deploy", u.name));
    }
    let p = u.platoon.as_deref().ok_or("a squad without a platoon")?;
    // R23: one deployed squad per platoon at a time.
    if s.on_map()
        .any(|x| x.kind == Kind::Section && x.platoon.as_deref() == Some(p))
    {
        return Err(format!(
            "platoon {p} already has sections in play: one squad per platoon deploys (§10.3.2)"
        ));
    }
    let pool = pool_of(s, p, Kind::Section);
    if pool.len() < 2 {
        return Err(format!(
            "platoon {p} has no two sections left to deploy into"
        ));
    }
    Ok(())
}

/// The platoon's counters of `kind` not in play.
pub fn pool_of<'a>(s: &'a LhyState, platoon: &str, kind: Kind) -> Vec<&'a Unit> {
    s.units
        .iter()
        .filter(|x| {
            x.place == Place::Pool && x.kind == kind && x.platoon.as_deref() == Some(platoon)
        })
        .collect()
}

/// Draws one of `from` at random (dice label in the game's words).
fn draw(dice: &mut Dice, label: String, from: &[String]) -> String {
    if from.len() == 1 {
        return from[0].clone();
    }
    let i = dice.roll_one(label, Faces::d(from.len() as u32)) as usize - 1;
    from[i].clone()
}

/// §10.3.2: the squad becomes two sections drawn at random (one of each kind when the
/// platoon's sections differ). Returns the sections.
pub fn do_deploy(s: &mut LhyState, squad: &str, dice: &mut Dice) -> Vec<String> {
    let Some(u) = s.unit(squad).cloned() else {
        return vec![];
    };
    let p = u.platoon.clone().unwrap_or_default();
    let pool: Vec<Unit> = pool_of(s, &p, Kind::Section).into_iter().cloned().collect();
    let mut kinds: Vec<i32> = pool.iter().map(|x| s.values(x).sav).collect();
    kinds.sort_unstable();
    kinds.dedup();
    kinds.reverse();
    let label = format!("{}: sections drawn", u.side);
    let chosen: Vec<String> = if kinds.len() >= 2 {
        kinds[..2]
            .iter()
            .map(|k| {
                let of: Vec<String> = pool
                    .iter()
                    .filter(|x| s.values(x).sav == *k)
                    .map(|x| x.name.clone())
                    .collect();
                draw(dice, label.clone(), &of)
            })
            .collect()
    } else {
        let mut names: Vec<String> = pool.iter().map(|x| x.name.clone()).collect();
        let a = draw(dice, label.clone(), &names);
        names.retain(|n| *n != a);
        let b = draw(dice, label, &names);
        vec![a, b]
    };
    replace(s, &[squad.to_string()], &chosen);
    s.private(
        &u.side,
        format!("{squad} deploys into {} and {}.", chosen[0], chosen[1]),
    );
    if !u.concealed || u.known {
        s.public(format!(
            "{}: {squad} deploys into two sections.",
            s.name_of(u.at)
        ));
    }
    chosen
}

/// `out` leave play for the pool and `incoming` take their place, status and concealment.
pub fn replace(s: &mut LhyState, out: &[String], incoming: &[String]) {
    let Some(first) = out.first().and_then(|n| s.unit(n)).cloned() else {
        return;
    };
    let concealed = out.iter().filter_map(|n| s.unit(n)).all(|u| u.concealed);
    let known = out.iter().filter_map(|n| s.unit(n)).any(|u| u.known);
    for n in out {
        if let Some(x) = s.unit_mut(n) {
            x.place = Place::Pool;
            // R40: a section that leaves play has given its step to the new counter.
            x.stands_for = None;
        }
    }
    // The markers the old counters carry ride on the new ones.
    for m in &mut s.markers {
        if m.targets.iter().any(|t| out.contains(t)) {
            m.targets.retain(|t| !out.contains(t));
            m.targets.extend(incoming.iter().cloned());
        }
    }
    for n in incoming {
        if let Some(x) = s.unit_mut(n) {
            x.place = Place::Map;
            x.at = first.at;
            x.status = first.status;
            x.heroic = false;
            x.concealed = concealed;
            x.hidden = false;
            x.known = known;
            x.done = first.done;
            x.arrived = first.arrived;
            x.steps = 1;
        }
    }
}
