//! The Infantry Assault and Old Guard Charge procedures (p.1–5), step by step in the seed's
//! order: declaration with Number Marker and Pas de Charge, Retreat Before Assault and a new
//! assault, unsupplied artillery, simultaneous morale checks with the shift roll, offensive
//! and defensive fire, the British Huzzah, odds and resolution, Advance after Mêlée, impetus,
//! firefights, and the Old Guard's exploitation. Each step may stop for a player's answer and
//! resume where it stopped; nothing else lives here.

mod after;
mod before;
mod melee;

use after::*;
use before::*;
use melee::*;

pub use after::displace;

use crate::board::hex::Hex;
use crate::rulesets::kit::roster::{Roster, TwoSides};

use super::combat::{self, join};
use super::data::{Arm, MeleeResult};
use super::decide::{self, Flow};
use super::field;
use super::movement;
use super::roll::Roller;
use super::state::{
    AStage, Answer, Assault, AssaultDecl, AssaultRun, Cohesion, Formation, LbState, QKind,
    RetreatPolicy, Task, Unit,
};

/// Units of the assault's attacking side that still fight, grouped by hex.
pub fn attacking(st: &LbState, a: &Assault) -> Vec<(Hex, Vec<String>)> {
    let mut out: Vec<(Hex, Vec<String>)> = Vec::new();
    for n in &a.units {
        let Some(u) = st.unit(n) else { continue };
        if !u.fighting() || u.side != a.attacker {
            continue;
        }
        match out.iter_mut().find(|(h, _)| *h == u.hex) {
            Some((_, v)) => v.push(n.clone()),
            None => out.push((u.hex, vec![n.clone()])),
        }
    }
    out
}

/// The defending stacks: fighting enemy units in the target hexes.
pub fn defending(st: &LbState, a: &Assault) -> Vec<(Hex, Vec<String>)> {
    a.targets
        .iter()
        .map(|h| {
            (
                *h,
                st.at(*h)
                    .into_iter()
                    .filter(|u| u.side != a.attacker && u.fighting())
                    .map(|u| u.name.clone())
                    .collect::<Vec<_>>(),
            )
        })
        .filter(|(_, v)| !v.is_empty())
        .collect()
}

fn units(st: &LbState, names: &[String]) -> Vec<Unit> {
    names.iter().filter_map(|n| st.unit(n).cloned()).collect()
}

fn all(stacks: &[(Hex, Vec<String>)]) -> Vec<String> {
    stacks.iter().flat_map(|s| s.1.clone()).collect()
}

/// Checks an ASSAULT or GUARD CHARGE order now; returns its Number (R9: the distance from the
/// unit's hex to the nearest target when the order is carried out).
pub fn check_assault(
    st: &LbState,
    unit: &str,
    targets: &[crate::board::hex::Hex],
    via: &[crate::board::hex::Hex],
    pas_de_charge: bool,
    guard: bool,
) -> Result<u32, String> {
    let u = st.unit(unit).ok_or_else(|| format!("no unit {unit}"))?;
    if u.arm != Arm::Infantry {
        return Err(format!("{unit} is not infantry (cavalry CHARGE)"));
    }
    if u.formation.is_square() || u.formation == super::state::Formation::Skirmish {
        return Err(format!("{unit} cannot assault in {}", u.formation.word()));
    }
    if u.cohesion != super::state::Cohesion::GoodOrder && !u.exploiting {
        return Err(format!("{unit} is not in good order"));
    }
    let guard_class = st.data.class(&u.class).is_some_and(|c| c.old_guard);
    if guard && !guard_class {
        return Err(format!("{unit} is not of the Old Guard"));
    }
    if guard && u.firefight {
        return Err(format!(
            "{unit} is locked in a firefight and may not make an Old Guard Charge"
        ));
    }
    if pas_de_charge && via.is_empty() {
        // p.1: the skirmishers go back into the hex the assaulting unit came from; a unit
        // that does not move this order came from no hex.
        return Err(format!(
            "PAS DE CHARGE sends your skirmishers back into the hex {unit} comes from: give its approach with VIA"
        ));
    }
    movement::check_move(st, unit, via, true)?;
    let end = via.last().copied().unwrap_or(u.hex);
    if let Some(t) = targets.iter().find(|t| t.distance(end) != 1) {
        return Err(format!(
            "{} is not adjacent to {}",
            st.label(end),
            st.label(*t)
        ));
    }
    for t in targets {
        if !st.at(*t).iter().any(|x| x.side != u.side && x.fighting()) {
            return Err(format!("no enemy in {} to assault", st.label(*t)));
        }
    }
    if !via.is_empty() {
        movement::check_end(st, unit, end, pas_de_charge)?;
    }
    Ok(targets.iter().map(|t| t.distance(u.hex)).min().unwrap_or(1))
}

/// Declares an assault (or an Old Guard Charge) by `unit`, which has finished its approach:
/// the Number Marker, the Pas de Charge, the Assaut marker, and joining a firefight (R11).
pub fn declare(st: &mut LbState, _r: &mut dyn Roller, unit: &str, decl: &AssaultDecl) {
    let Some(u) = st.unit(unit).cloned() else {
        return;
    };
    if !u.fighting() {
        return;
    }
    if let Some(t) = decl.targets.iter().find(|t| t.distance(u.hex) != 1) {
        st.say(format!(
            "{unit} is not adjacent to {}: no assault.",
            st.label(*t)
        ));
        return;
    }
    if !decl
        .targets
        .iter()
        .any(|t| st.at(*t).iter().any(|x| x.side != u.side))
    {
        st.say(format!("{unit} finds no enemy to assault."));
        return;
    }
    if decl.pas_de_charge {
        pas_de_charge(st, &u, unit);
    }
    let facing = st.grid.direction(u.hex, decl.targets[0]);
    if let Some(x) = st.unit_mut(unit) {
        x.number = Some(decl.number);
        if let Some(f) = facing {
            x.facing = f;
        }
        x.exploiting = false;
    }
    let id = match assault_to_join(st, &u, decl) {
        Some((id, swap)) => join_assault(st, &u, decl, id, swap),
        None => declare_new_assault(st, &u, decl),
    };
    if decl.guard {
        // p.4: resolved immediately, before any more units move.
        if let Some(a) = st.assault_mut(id) {
            a.due = false;
        }
        st.agenda.insert(0, Task::Assault(id));
    }
}

/// The Pas de Charge: own skirmishers in the assaulting unit's hex are displaced to the hex it
/// came from, Disordered.
fn pas_de_charge(st: &mut LbState, u: &Unit, unit: &str) {
    let skirmishers: Vec<String> = st
        .at(u.hex)
        .iter()
        .filter(|s| s.side == u.side && s.formation == Formation::Skirmish && s.name != unit)
        .map(|s| s.name.clone())
        .collect();
    if let Some(back) = u.came_from
        && !skirmishers.is_empty()
    {
        for s in &skirmishers {
            if let Some(x) = st.unit_mut(s) {
                x.hex = back;
                x.cohesion = Cohesion::Disordered.max(x.cohesion);
            }
        }
        st.say(format!(
            "Pas de Charge: {} displaced to {} and Disordered (no opportunity reactions).",
            join(&skirmishers),
            st.label(back)
        ));
    }
}

/// The assault the unit joins, if any: one of its own side on these targets, or a firefight
/// of the other side from these hexes (then the roles swap: `true`).
fn assault_to_join(st: &LbState, u: &Unit, decl: &AssaultDecl) -> Option<(u32, bool)> {
    // Join an assault of the same side on these targets, or a firefight from either side.
    for a in &st.assaults {
        let atk_hexes: Vec<Hex> = attacking(st, a).iter().map(|s| s.0).collect();
        if a.attacker == u.side && decl.targets.iter().any(|t| a.targets.contains(t)) {
            return Some((a.id, false));
        }
        if a.firefight && a.attacker != u.side && decl.targets.iter().any(|t| atk_hexes.contains(t))
        {
            return Some((a.id, true));
        }
    }
    None
}

/// The unit joins assault `id`: on the defending side of a firefight the roles change (p.3),
/// the former defenders attacking the former attackers' hexes.
fn join_assault(st: &mut LbState, u: &Unit, decl: &AssaultDecl, id: u32, swap: bool) -> u32 {
    let unit = u.name.as_str();
    let st2 = st.clone();
    let a = st.assault_mut(id).expect("found");
    if swap {
        // New units join on the defending side only: the roles change (p.3).
        let old_def: Vec<String> = defending(&st2, a).into_iter().flat_map(|s| s.1).collect();
        let old_atk_hexes: Vec<Hex> = attacking(&st2, a).iter().map(|s| s.0).collect();
        a.attacker = u.side.clone();
        a.units = old_def;
        a.targets = old_atk_hexes;
    }
    if !a.units.contains(&unit.to_string()) {
        a.units.push(unit.to_string());
    }
    for t in &decl.targets {
        if !a.targets.contains(t) && !swap {
            a.targets.push(*t);
        }
    }
    if a.firefight {
        a.joined.push(unit.to_string());
    }
    a.guard |= decl.guard;
    a.due = true;
    let ff = a.firefight;
    st.say(format!(
        "{unit} ({}, Number {}) joins {} A{id}{}{}.",
        st.side_name(&u.side),
        decl.number,
        if ff { "the firefight" } else { "assault" },
        if swap {
            ": the roles change, the Assaut marker moves to the former defenders"
        } else {
            ""
        },
        if decl.guard {
            " with an Old Guard Charge"
        } else {
            ""
        }
    ));
    id
}

/// A new assault (or Old Guard Charge) with its Assaut marker, due this segment.
fn declare_new_assault(st: &mut LbState, u: &Unit, decl: &AssaultDecl) -> u32 {
    let unit = u.name.as_str();
    let targets_txt: Vec<String> = decl.targets.iter().map(|t| st.label(*t)).collect();
    let what = if decl.guard {
        "an Old Guard Charge"
    } else {
        "an assault"
    };
    let id = st.fresh_id();
    st.assaults.push(Assault {
        id,
        attacker: u.side.clone(),
        units: vec![unit.to_string()],
        targets: decl.targets.clone(),
        guard: decl.guard,
        firefight: false,
        joined: vec![],
        due: true,
        run: None,
    });
    st.say(format!(
        "{unit} ({}) declares {what} A{id} on {} from {} (Number {}).",
        st.side_name(&u.side),
        targets_txt.join(" "),
        st.label(u.hex),
        decl.number
    ));
    id
}

enum Step {
    To(AStage),
    Asked,
    /// The assault is over for this segment.
    End,
}

fn save(st: &mut LbState, id: u32, run: AssaultRun) {
    if let Some(a) = st.assault_mut(id) {
        a.run = Some(run);
    }
}

/// Runs assault `id` from where it stands until it ends or asks a question.
pub fn run(st: &mut LbState, r: &mut dyn Roller, id: u32) -> Flow {
    loop {
        let Some(a) = st.assault(id).cloned() else {
            return Flow::Done;
        };
        let mut run = match a.run.clone() {
            Some(run) => run,
            None => {
                let mut run = AssaultRun::new();
                run.firefight_column = a.firefight && a.joined.is_empty();
                let atk = all(&attacking(st, &a));
                let tg: Vec<String> = a.targets.iter().map(|t| st.label(*t)).collect();
                st.say(format!(
                    "{} A{id}: {} ({}) against {}{}.",
                    if a.guard {
                        "Old Guard Charge"
                    } else {
                        "Assault"
                    },
                    join(&atk),
                    st.side_name(&a.attacker),
                    tg.join(" "),
                    if run.firefight_column {
                        ", a firefight fought again on the Firefight column"
                    } else if a.firefight {
                        ", a firefight joined by new units: a new mêlée at the actual odds"
                    } else {
                        ""
                    }
                ));
                run
            }
        };
        let step = match run.stage {
            AStage::RetreatBeforeAssault => retreat_before_assault(st, r, &a, &mut run),
            AStage::NewAssault => new_assault(st, &a, &mut run),
            AStage::UnsuppliedArtillery => unsupplied(st, r, &a, &mut run),
            AStage::MoraleChecks => morale(st, r, &a, &mut run),
            AStage::Fire => fire(st, r, &a, &mut run),
            AStage::Huzzah => huzzah(st, r, &a, &mut run),
            AStage::Odds => odds(st, r, &a, &mut run),
            AStage::AdvanceAfterMelee => advance(st, r, &a, &mut run),
            AStage::Impetus => impetus(st, r, &a, &mut run),
            AStage::Exploitation => exploitation(st, &a, &run),
            AStage::Finished => Step::End,
        };
        match step {
            Step::To(next) => {
                run.stage = next;
                save(st, id, run);
            }
            Step::Asked => {
                save(st, id, run);
                return Flow::Asked;
            }
            Step::End => {
                finish(st, id);
                return Flow::Done;
            }
        }
    }
}

/// Where a finished step goes: Old Guard charges end in Step 10 (R10).
fn end(a: &Assault) -> Step {
    if a.guard {
        Step::To(AStage::Exploitation)
    } else {
        Step::End
    }
}

fn finish(st: &mut LbState, id: u32) {
    let Some(a) = st.assault(id).cloned() else {
        return;
    };
    // A firefight goes on while both sides still fight in it; a rout, a surrender or an
    // advance ends it, and its markers come off.
    let live = !attacking(st, &a).is_empty() && !defending(st, &a).is_empty();
    if a.firefight && live {
        if let Some(x) = st.assault_mut(id) {
            x.run = None;
        }
        return;
    }
    for n in &a.units {
        if let Some(u) = st.unit_mut(n) {
            u.number = None;
        }
    }
    st.assaults.retain(|x| x.id != id);
    let still: Vec<String> = st
        .assaults
        .iter()
        .filter(|x| x.firefight)
        .flat_map(|x| {
            let mut v = x.units.clone();
            for t in &x.targets {
                v.extend(st.names_at(*t));
            }
            v
        })
        .collect();
    for u in st.units.iter_mut() {
        if u.firefight && !still.contains(&u.name) {
            u.firefight = false;
        }
    }
}

/// The odds as a ratio (before shifts), for a standing order "retreat if odds ≥ n:1".
pub fn ratio(st: &LbState, a: &Assault) -> f64 {
    let (atk, def) = values(st, a);
    if def <= 0.0 { f64::INFINITY } else { atk / def }
}

fn values(st: &LbState, a: &Assault) -> (f64, f64) {
    let defs = defending(st, a);
    let def_units: Vec<Unit> = units(st, &all(&defs));
    let mut atk = 0.0;
    for (h, names) in attacking(st, a) {
        let adjacent: Vec<&Unit> = def_units
            .iter()
            .filter(|d| d.hex.distance(h) == 1)
            .collect();
        let flank = !adjacent.is_empty() && adjacent.iter().all(|d| field::flank_or_rear(st, d, h));
        for u in units(st, &names) {
            atk += combat::infantry_melee_value(st, &u, true, flank);
        }
    }
    let def: f64 = def_units
        .iter()
        .map(|u| combat::infantry_melee_value(st, u, false, false))
        .sum();
    (atk, def)
}
