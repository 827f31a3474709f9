//! The Infantry Assault and Old Guard Charge procedures (p.1–5), step by step in the seed's
//! order: declaration with Number Marker and Pas de Charge, Retreat Before Assault and a new
//! assault, unsupplied artillery, simultaneous morale checks with the shift roll, offensive
//! and defensive fire, the British Huzzah, odds and resolution, Advance after Mêlée, impetus,
//! firefights, and the Old Guard's exploitation. Each step may stop for a player's answer and
//! resume where it stopped; nothing else lives here.

use crate::board::hex::Hex;

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
    let facing = st.grid.direction(u.hex, decl.targets[0]);
    if let Some(x) = st.unit_mut(unit) {
        x.number = Some(decl.number);
        if let Some(f) = facing {
            x.facing = f;
        }
        x.exploiting = false;
    }
    let targets_txt: Vec<String> = decl.targets.iter().map(|t| st.label(*t)).collect();
    let what = if decl.guard {
        "an Old Guard Charge"
    } else {
        "an assault"
    };
    // Join an assault of the same side on these targets, or a firefight from either side.
    let mut joined = None;
    for a in &st.assaults {
        let atk_hexes: Vec<Hex> = attacking(st, a).iter().map(|s| s.0).collect();
        if a.attacker == u.side && decl.targets.iter().any(|t| a.targets.contains(t)) {
            joined = Some((a.id, false));
            break;
        }
        if a.firefight && a.attacker != u.side && decl.targets.iter().any(|t| atk_hexes.contains(t))
        {
            joined = Some((a.id, true));
            break;
        }
    }
    let id = match joined {
        Some((id, swap)) => {
            let st2 = st.clone();
            let a = st.assault_mut(id).expect("found");
            if swap {
                // New units join on the defending side only: the roles change (p.3).
                let old_def: Vec<String> =
                    defending(&st2, a).into_iter().flat_map(|s| s.1).collect();
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
        None => {
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
    };
    if decl.guard {
        // p.4: resolved immediately, before any more units move.
        if let Some(a) = st.assault_mut(id) {
            a.due = false;
        }
        st.agenda.insert(0, Task::Assault(id));
    }
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
    if a.firefight {
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

/// Advances attacking units adjacent to the vacated hex `h` into it, as many as stacking
/// allows, Disordered (p.1 step 1b and 2, which cite 15.8). Returns who advanced.
fn advance_into_vacated(st: &mut LbState, r: &mut dyn Roller, a: &Assault, h: Hex) -> Vec<String> {
    let mut moved = Vec::new();
    for n in all(&attacking(st, a)) {
        let Some(u) = st.unit(&n).cloned() else {
            continue;
        };
        if u.hex.distance(h) != 1 {
            continue;
        }
        let mut probe = u.clone();
        probe.hex = h;
        let others: Vec<Unit> = st.at(h).into_iter().cloned().collect();
        let mut all_refs: Vec<&Unit> = others.iter().collect();
        all_refs.push(&probe);
        if !field::room_for(st, h, &all_refs) {
            continue;
        }
        movement::place(st, std::slice::from_ref(&n), h);
        if let Some(x) = st.unit_mut(&n)
            && x.cohesion == Cohesion::GoodOrder
        {
            x.cohesion = Cohesion::Disordered;
        }
        moved.push(n);
    }
    if !moved.is_empty() {
        st.say(format!(
            "{} must advance into {} and {} Disordered.",
            join(&moved),
            st.label(h),
            if moved.len() == 1 { "is" } else { "are" }
        ));
        movement::opportunity(st, r, &moved, h);
    }
    moved
}

fn retreat_before_assault(
    st: &mut LbState,
    r: &mut dyn Roller,
    a: &Assault,
    run: &mut AssaultRun,
) -> Step {
    let atk = attacking(st, a);
    if atk.is_empty() {
        st.say(format!("A{}: no attacker is left.", a.id));
        return Step::End;
    }
    let defs = defending(st, a);
    if defs.is_empty() {
        st.say(format!(
            "A{}: the targets are gone; the assault lapses.",
            a.id
        ));
        return Step::End;
    }
    let atk_mp = all(&atk)
        .iter()
        .filter_map(|n| st.unit(n))
        .map(|u| field::printed_mp(st, u))
        .max()
        .unwrap_or(0);
    // R12: eligible are skirmishers, light infantry, cavalry and faster units, not in square,
    // not unlimbered guns, with a way back.
    let mut eligible: Vec<Vec<String>> = Vec::new();
    for (_, names) in &defs {
        let us = units(st, names);
        let ok: Vec<&Unit> = us
            .iter()
            .filter(|u| {
                let light = st.data.class(&u.class).is_some_and(|c| c.light);
                !u.formation.is_square()
                    && u.formation != Formation::Unlimbered
                    && (u.formation == Formation::Skirmish
                        || light
                        || u.arm == Arm::Cavalry
                        || field::printed_mp(st, u) > atk_mp)
            })
            .collect();
        if !ok.is_empty() && movement::can_retreat(st, &ok) {
            eligible.push(ok.iter().map(|u| u.name.clone()).collect());
        }
    }
    if eligible.is_empty() {
        return Step::To(AStage::UnsuppliedArtillery);
    }
    let defender = st.enemy_of(&a.attacker);
    let go = match decide::take(st) {
        Some(Answer::Retreat(b)) => b,
        Some(Answer::Auto) => false,
        _ => match st.standing(&defender).retreat_assault {
            RetreatPolicy::Always => true,
            RetreatPolicy::Never => false,
            RetreatPolicy::IfOdds(n) => ratio(st, a) >= f64::from(n) - 1e-9,
            RetreatPolicy::Ask => {
                let names: Vec<String> = eligible.concat();
                let text = format!(
                    "A{}: {} assault{} {}. {} may Retreat Before Assault (odds now {}). Answer RETREAT or STAND.",
                    a.id,
                    join(&all(&atk)),
                    if all(&atk).len() == 1 { "s" } else { "" },
                    a.targets
                        .iter()
                        .map(|t| st.label(*t))
                        .collect::<Vec<_>>()
                        .join(" "),
                    join(&names),
                    combat::column_label(
                        &st.data,
                        Some(combat::odds_column(
                            &st.data,
                            values(st, a).0,
                            values(st, a).1
                        ))
                    )
                );
                decide::ask(
                    st,
                    decide::question(&defender, QKind::RetreatBeforeAssault, text, vec![]),
                );
                return Step::Asked;
            }
        },
    };
    if !go {
        st.say(format!("A{}: the defenders stand.", a.id));
        return Step::To(AStage::UnsuppliedArtillery);
    }
    let hexes = st.data.rules.retreat_before_assault_hexes.int().max(1) as u32;
    for names in &eligible {
        let path = movement::retreat(st, names, hexes);
        if let Some(end) = path.last() {
            movement::opportunity(st, r, names, *end);
        }
    }
    let mut remaining = Vec::new();
    let mut advanced = Vec::new();
    for t in &a.targets {
        if st.at(*t).iter().any(|u| u.side != a.attacker) {
            remaining.push(*t);
        } else {
            advanced.extend(advance_into_vacated(st, r, a, *t));
        }
    }
    if let Some(x) = st.assault_mut(a.id) {
        x.targets = remaining.clone();
    }
    run.advanced = advanced;
    if remaining.is_empty() {
        Step::To(AStage::NewAssault)
    } else {
        Step::To(AStage::UnsuppliedArtillery)
    }
}

/// p.1 step 1b: the units that advanced may assault a unit in their front (R9).
fn new_assault(st: &mut LbState, a: &Assault, run: &mut AssaultRun) -> Step {
    let movers: Vec<Unit> = units(st, &run.advanced)
        .into_iter()
        .filter(|u| u.fighting())
        .collect();
    let mut options: Vec<Hex> = Vec::new();
    for u in &movers {
        for h in field::front_hexes(st, u) {
            if st.at(h).iter().any(|x| x.side != u.side && x.fighting()) && !options.contains(&h) {
                options.push(h);
            }
        }
    }
    if options.is_empty() {
        st.say(format!(
            "A{}: no enemy in front; the assault is finished.",
            a.id
        ));
        return end(a);
    }
    let choice = match decide::take(st) {
        Some(Answer::NewAssault(h)) => h.filter(|h| options.contains(h)),
        Some(Answer::Auto) => None,
        _ => match decide::policy(st.standing(&a.attacker).reassault) {
            Some(true) => options
                .iter()
                .min_by_key(|h| st.at(**h).iter().map(|u| u.increments).sum::<u32>())
                .copied(),
            Some(false) => None,
            None => {
                let labels: Vec<String> = options.iter().map(|h| st.label(*h)).collect();
                let text = format!(
                    "A{}: {} advanced into the vacated hex. Declare a new assault on {}? Answer REASSAULT hex or NO REASSAULT.",
                    a.id,
                    join(&run.advanced),
                    labels.join(", ")
                );
                decide::ask(
                    st,
                    decide::question(&a.attacker, QKind::NewAssault, text, labels),
                );
                return Step::Asked;
            }
        },
    };
    let Some(target) = choice else {
        st.say(format!(
            "A{}: no new assault; the assault is finished.",
            a.id
        ));
        return end(a);
    };
    let number = st.data.rules.reassault_number.int().max(0) as u32;
    let names: Vec<String> = movers.iter().map(|u| u.name.clone()).collect();
    for n in &a.units {
        if let Some(u) = st.unit_mut(n) {
            u.number = if names.contains(n) {
                Some(number)
            } else {
                None
            };
        }
    }
    if let Some(x) = st.assault_mut(a.id) {
        x.units = names.clone();
        x.targets = vec![target];
    }
    st.say(format!(
        "A{}: {} declare a new assault on {} (Number {number}).",
        a.id,
        join(&names),
        st.label(target)
    ));
    *run = AssaultRun::new();
    Step::To(AStage::RetreatBeforeAssault)
}

/// p.1 step 2: artillery out of ammunition and alone routs (R22).
fn unsupplied(st: &mut LbState, r: &mut dyn Roller, a: &Assault, run: &mut AssaultRun) -> Step {
    let mut routed = Vec::new();
    for (h, names) in defending(st, a) {
        let here = units(st, &names);
        let covered = here
            .iter()
            .any(|u| u.arm == Arm::Infantry || (u.arm == Arm::Artillery && u.ammo != Some(0)));
        if covered {
            continue;
        }
        let guns: Vec<String> = here
            .iter()
            .filter(|u| u.arm == Arm::Artillery && u.ammo == Some(0))
            .map(|u| u.name.clone())
            .collect();
        if !guns.is_empty() {
            st.say(format!(
                "A{}: {} in {} has no ammunition and routs.",
                a.id,
                join(&guns),
                st.label(h)
            ));
            routed.extend(guns);
        }
    }
    if routed.is_empty() {
        return Step::To(AStage::MoraleChecks);
    }
    movement::rout(st, &routed);
    let mut advanced = Vec::new();
    let mut remaining = Vec::new();
    for t in &a.targets {
        if st.at(*t).iter().any(|u| u.side != a.attacker) {
            remaining.push(*t);
        } else {
            advanced.extend(advance_into_vacated(st, r, a, *t));
        }
    }
    run.advanced.extend(advanced);
    if let Some(x) = st.assault_mut(a.id) {
        x.targets = remaining.clone();
    }
    if remaining.is_empty() {
        st.say(format!("A{}: the assault is finished.", a.id));
        return end(a);
    }
    Step::To(AStage::MoraleChecks)
}

/// The Number Marker that counts for a stack: new participants' (p.2 NOTE), none for units
/// locked in a firefight.
fn distance(st: &LbState, a: &Assault, names: &[String]) -> Option<u32> {
    names
        .iter()
        .filter_map(|n| st.unit(n))
        .filter(|u| !u.firefight || a.joined.contains(&u.name))
        .filter_map(|u| u.number)
        .max()
}

/// p.1–2 step 3: simultaneous morale checks, the shift roll of passing defenders.
fn morale(st: &mut LbState, r: &mut dyn Roller, a: &Assault, run: &mut AssaultRun) -> Step {
    let atk = attacking(st, a);
    let defs = defending(st, a);
    let atk_units = units(st, &all(&atk));
    let def_units = units(st, &all(&defs));
    let mut failed: Vec<String> = Vec::new();
    let mut def_failed: Vec<String> = Vec::new();
    for (h, names) in &atk {
        let us = units(st, names);
        let refs: Vec<&Unit> = us.iter().collect();
        let targets: Vec<Hex> = a
            .targets
            .iter()
            .copied()
            .filter(|t| t.distance(*h) == 1)
            .collect();
        let mods = combat::attacker_mods(st, &refs, distance(st, a, names), &targets);
        let label = format!(
            "A{} attacker morale check of {} in {}",
            a.id,
            join(names),
            st.label(*h)
        );
        if combat::morale_check(st, r, label, names, &mods).pass {
            run.doubled.push(*h);
        } else {
            failed.extend(names.clone());
        }
    }
    let refs_atk: Vec<&Unit> = atk_units.iter().collect();
    for (h, names) in &defs {
        let us = units(st, names);
        let refs: Vec<&Unit> = us.iter().collect();
        let near: Vec<&Unit> = refs_atk
            .iter()
            .copied()
            .filter(|u| u.hex.distance(*h) == 1)
            .collect();
        let mods = combat::defender_mods(st, &refs, &near);
        let label = format!(
            "A{} defender morale check of {} in {}",
            a.id,
            join(names),
            st.label(*h)
        );
        if combat::morale_check(st, r, label, names, &mods).pass {
            run.doubled.push(*h);
            let die = r.roll(
                format!(
                    "A{} shift roll of {} in {}",
                    a.id,
                    join(names),
                    st.label(*h)
                ),
                6,
                1,
            )[0];
            let shifts = st.data.shift_roll[(die - 1) as usize];
            run.left += shifts;
            st.say(format!(
                "{} pass: Defensive Fire doubled; shift roll {die}: {shifts} left column shift{}.",
                join(names),
                if shifts == 1 { "" } else { "s" }
            ));
            if us
                .iter()
                .all(|u| st.data.huzzah_nations.contains(&u.nation))
            {
                run.huzzah_hexes.push(*h);
                run.huzzah_shifts += shifts;
            }
        } else {
            def_failed.extend(names.clone());
        }
    }
    let _ = def_units;
    let atk_routed = combat::fail(st, &failed);
    let def_routed = combat::fail(st, &def_failed);
    movement::rout(st, &atk_routed);
    record_rout(st, run, &def_routed);
    if attacking(st, a).is_empty() {
        st.say(format!(
            "A{}: every assaulting unit routed; the assault is finished.",
            a.id
        ));
        return Step::End;
    }
    if defending(st, a).is_empty() {
        st.say(format!(
            "A{}: every target routed; the attackers advance.",
            a.id
        ));
        run.impetus = 0;
        return Step::To(AStage::AdvanceAfterMelee);
    }
    Step::To(AStage::Fire)
}

/// Routs defenders hex by hex, keeping each stack's path for the impetus.
fn record_rout(st: &mut LbState, run: &mut AssaultRun, routed: &[String]) {
    let mut by_hex: Vec<(Hex, Vec<String>)> = Vec::new();
    for n in routed {
        let Some(u) = st.unit(n) else { continue };
        match by_hex.iter_mut().find(|(h, _)| *h == u.hex) {
            Some((_, v)) => v.push(n.clone()),
            None => by_hex.push((u.hex, vec![n.clone()])),
        }
    }
    for (h, names) in by_hex {
        let path = movement::rout(st, &names);
        if !path.is_empty() {
            let mut p = vec![h];
            p.extend(path);
            run.retreat_paths.push(p);
        }
    }
}

/// p.2 step 4: Offensive and Defensive Fire at once; ±3 per casualty on the mêlée roll; no
/// morale checks for the casualties.
fn fire(st: &mut LbState, r: &mut dyn Roller, a: &Assault, run: &mut AssaultRun) -> Step {
    let atk = attacking(st, a);
    let defs = defending(st, a);
    let mut shots: Vec<(Vec<String>, Vec<String>, bool)> = Vec::new();
    let mut rolls: Vec<(u32, bool)> = Vec::new();
    for (h, names) in &atk {
        let Some((th, target)) = defs
            .iter()
            .filter(|(t, _)| t.distance(*h) == 1)
            .max_by_key(|(_, v)| units(st, v).iter().map(|u| u.increments).sum::<u32>())
        else {
            continue;
        };
        let mult = if run.doubled.contains(h) {
            st.data.rules.pass_fire_multiplier.int().max(1) as u32
        } else {
            1
        };
        let label = format!(
            "A{} Offensive Fire of {} at {}",
            a.id,
            join(names),
            st.label(*th)
        );
        let n = combat::fire(st, r, label, names, *th, mult, false);
        rolls.push((n, true));
        shots.push((names.clone(), target.clone(), true));
    }
    for (h, names) in &defs {
        let here = units(st, names);
        let front: Vec<&(Hex, Vec<String>)> = atk
            .iter()
            .filter(|(x, _)| x.distance(*h) == 1 && here.iter().any(|u| field::faces(st, u, *x)))
            .collect();
        let Some((th, target)) = front
            .first()
            .copied()
            .or_else(|| atk.iter().find(|(x, _)| x.distance(*h) == 1))
        else {
            continue;
        };
        let guns = here.iter().any(|u| {
            u.arm == Arm::Artillery
                && u.formation == Formation::Unlimbered
                && u.ammo != Some(0)
                && field::faces(st, u, *th)
        });
        let mult = if run.doubled.contains(h) {
            st.data.rules.pass_fire_multiplier.int().max(1) as u32
        } else {
            1
        };
        let label = format!(
            "A{} Defensive Fire of {} at {}",
            a.id,
            join(names),
            st.label(*th)
        );
        let n = combat::fire(st, r, label, names, *th, mult, guns);
        rolls.push((n, false));
        shots.push((names.clone(), target.clone(), false));
    }
    let per = st.data.rules.casualty_drm.int();
    for ((firers, target, by_attacker), (n, _)) in shots.iter().zip(&rolls) {
        movement::spend_ammo(st, firers);
        if *n > 0 {
            combat::take_losses(st, target, *n);
            run.drm += if *by_attacker {
                per * *n as i32
            } else {
                -per * *n as i32
            };
        }
    }
    if run.drm != 0 {
        st.say(format!("A{}: mêlée DRM from fire {:+}.", a.id, run.drm));
    }
    if attacking(st, a).is_empty() {
        st.say(format!("A{}: no attacker is left.", a.id));
        return Step::End;
    }
    if defending(st, a).is_empty() {
        run.any_path = true;
        return Step::To(AStage::AdvanceAfterMelee);
    }
    if !a.firefight && !run.huzzah_hexes.is_empty() && !run.huzzah_done {
        Step::To(AStage::Huzzah)
    } else {
        Step::To(AStage::Odds)
    }
}

/// p.2 step 5: the British Huzzah (R23).
fn huzzah(st: &mut LbState, r: &mut dyn Roller, a: &Assault, run: &mut AssaultRun) -> Step {
    let defender = st.enemy_of(&a.attacker);
    let british: Vec<Unit> = run
        .huzzah_hexes
        .iter()
        .flat_map(|h| st.at(*h))
        .filter(|u| u.fighting() && u.side == defender)
        .cloned()
        .collect();
    let targeted: Vec<(Hex, Vec<String>)> = attacking(st, a)
        .into_iter()
        .filter(|(h, _)| {
            british
                .iter()
                .any(|b| b.hex.distance(*h) == 1 && field::faces(st, b, *h))
        })
        .collect();
    if british.is_empty() || targeted.is_empty() {
        return Step::To(AStage::Odds);
    }
    let go = match decide::take(st) {
        Some(Answer::Huzzah(b)) => b,
        Some(Answer::Auto) => false,
        _ => match decide::policy(st.standing(&defender).huzzah) {
            Some(b) => b,
            None => {
                let names: Vec<String> = british.iter().map(|u| u.name.clone()).collect();
                let text = format!(
                    "A{}: {} passed and may Huzzah against {}. Answer HUZZAH or NO HUZZAH.",
                    a.id,
                    join(&names),
                    join(&all(&targeted))
                );
                decide::ask(st, decide::question(&defender, QKind::Huzzah, text, vec![]));
                return Step::Asked;
            }
        },
    };
    run.huzzah_done = true;
    if !go {
        return Step::To(AStage::Odds);
    }
    let bnames: Vec<String> = british.iter().map(|u| u.name.clone()).collect();
    st.say(format!(
        "A{}: Huzzah! {} turn on their assailants.",
        a.id,
        join(&bnames)
    ));
    let brefs: Vec<&Unit> = british.iter().collect();
    let mut failed_stacks = 0;
    let mut failed = Vec::new();
    for (h, names) in &targeted {
        let us = units(st, names);
        let refs: Vec<&Unit> = us.iter().collect();
        let mods = combat::defender_mods(st, &refs, &brefs);
        let label = format!(
            "A{} Huzzah morale check of {} in {}",
            a.id,
            join(names),
            st.label(*h)
        );
        if !combat::morale_check(st, r, label, names, &mods).pass {
            failed_stacks += 1;
            failed.extend(names.clone());
        }
    }
    let routed = combat::fail(st, &failed);
    movement::rout(st, &routed);
    if failed_stacks < targeted.len() {
        st.say(format!("A{}: the Huzzah does not turn the tables.", a.id));
        return Step::To(AStage::Odds);
    }
    // Every targeted stack failed: the British become the attacker; their shifts turn right.
    let old_atk_hexes: Vec<Hex> = attacking(st, a).iter().map(|s| s.0).collect();
    let new_units: Vec<String> = all(&defending(st, a));
    let routed_hexes: Vec<Hex> = targeted
        .iter()
        .map(|t| t.0)
        .filter(|h| !old_atk_hexes.contains(h))
        .collect();
    if let Some(x) = st.assault_mut(a.id) {
        x.attacker = defender.clone();
        x.units = new_units;
        x.targets = old_atk_hexes
            .iter()
            .chain(routed_hexes.iter())
            .copied()
            .collect();
    }
    run.right = run.huzzah_shifts;
    run.left = 0;
    run.drm = -run.drm;
    st.say(format!(
        "A{}: the British become the attacker; their {} shift{} now count right.",
        a.id,
        run.right,
        if run.right == 1 { "" } else { "s" }
    ));
    let a2 = st.assault(a.id).cloned().expect("exists");
    if defending(st, &a2).is_empty() {
        run.any_path = false;
        return Step::To(AStage::AdvanceAfterMelee);
    }
    Step::To(AStage::Odds)
}

/// p.2 steps 6–7: odds with the Mêlée Modifiers, shifts, the roll and its result.
fn odds(st: &mut LbState, r: &mut dyn Roller, a: &Assault, run: &mut AssaultRun) -> Step {
    let (atk, def) = values(st, a);
    let col = if run.firefight_column {
        None
    } else {
        let base = combat::odds_column(&st.data, atk, def);
        Some(combat::shifted(&st.data, base, run.left, run.right))
    };
    let atk_units = units(st, &all(&attacking(st, a)));
    let def_units = units(st, &all(&defending(st, a)));
    let ar: Vec<&Unit> = atk_units.iter().collect();
    let dr: Vec<&Unit> = def_units.iter().collect();
    let lead = combat::leader_drm(st, &ar) - combat::leader_drm(st, &dr);
    let n = st.data.rules.melee_dice.int().max(1) as usize;
    let dice = r.roll(format!("A{} mêlée resolution", a.id), 6, n);
    let total = dice.iter().sum::<u32>() as i32 + run.drm + lead;
    let result = combat::melee_result(&st.data, col, total);
    run.result = Some(result);
    st.say(format!(
        "A{}: mêlée values {} to {}, column {}{}; rolled {} {:+} fire {:+} leaders = {total}: {}.",
        a.id,
        crate::rulesets::kit::grammar::tenths(atk),
        crate::rulesets::kit::grammar::tenths(def),
        combat::column_label(&st.data, col),
        if col.is_some() && (run.left > 0 || run.right > 0) {
            format!(" after {} left and {} right shift(s)", run.left, run.right)
        } else {
            String::new()
        },
        dice.iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join("+"),
        run.drm,
        lead,
        result.code()
    ));
    let atk_names: Vec<String> = atk_units.iter().map(|u| u.name.clone()).collect();
    match result {
        MeleeResult::AttackerSurrenders => {
            st.say(format!("A{}: the attackers surrender.", a.id));
            combat::surrender(st, &atk_names);
            Step::End
        }
        MeleeResult::AttackerRouts => {
            for u in &atk_names {
                if let Some(x) = st.unit_mut(u) {
                    x.cohesion = Cohesion::Routed;
                }
            }
            movement::rout(st, &atk_names);
            Step::End
        }
        MeleeResult::Blank => {
            let everyone: Vec<String> = atk_units
                .iter()
                .chain(def_units.iter())
                .map(|u| u.name.clone())
                .collect();
            for n in &everyone {
                if let Some(u) = st.unit_mut(n) {
                    u.firefight = true;
                    u.number = None;
                }
            }
            let in_maneuver = st.segment == super::state::Segment::Maneuver;
            if let Some(x) = st.assault_mut(a.id) {
                x.firefight = true;
                x.joined.clear();
                // p.5: an Old Guard firefight is fought again in the coming Mêlée Segment too.
                x.due = x.guard && in_maneuver;
            }
            st.say(format!(
                "A{}: a firefight. Firefight markers on {}.",
                a.id,
                join(&everyone)
            ));
            Step::End
        }
        MeleeResult::DefenderRouts(k) => {
            let names: Vec<String> = def_units.iter().map(|u| u.name.clone()).collect();
            for u in &names {
                if let Some(x) = st.unit_mut(u) {
                    x.cohesion = Cohesion::Routed;
                }
            }
            record_rout(st, run, &names);
            run.impetus = k;
            Step::To(AStage::AdvanceAfterMelee)
        }
        MeleeResult::DefenderSurrenders(k) => {
            let names: Vec<String> = def_units.iter().map(|u| u.name.clone()).collect();
            st.say(format!("A{}: the defenders surrender.", a.id));
            combat::surrender(st, &names);
            run.impetus = k;
            run.any_path = true;
            Step::To(AStage::AdvanceAfterMelee)
        }
    }
}

/// After units advanced into `h`, displaces enough of them back where they came from (p.2
/// step 8, 10.1.4): the player's choice, or AUTO (the last to come in, R24).
pub fn displace(
    st: &mut LbState,
    side: &str,
    h: Hex,
    advanced: &[String],
    label: &str,
) -> Result<(), Flow> {
    let here: Vec<Unit> = st.at(h).into_iter().cloned().collect();
    let refs: Vec<&Unit> = here.iter().collect();
    if field::room_for(st, h, &refs) {
        return Ok(());
    }
    let options: Vec<String> = advanced
        .iter()
        .filter(|n| here.iter().any(|u| &u.name == *n))
        .cloned()
        .collect();
    let mut excess = 0;
    while excess < options.len() {
        excess += 1;
        let keep: Vec<&Unit> = here
            .iter()
            .filter(|u| !options[options.len() - excess..].contains(&u.name))
            .collect();
        if field::room_for(st, h, &keep) {
            break;
        }
    }
    let chosen: Vec<String> = match decide::take(st) {
        Some(Answer::Displace(v)) if v.len() == excess && v.iter().all(|n| options.contains(n)) => {
            v
        }
        Some(Answer::Displace(_)) | Some(Answer::Auto) => {
            options[options.len() - excess..].to_vec()
        }
        _ if decide::auto(st.standing(side).displace) => options[options.len() - excess..].to_vec(),
        _ => {
            let text = format!(
                "{label}: {} is overstacked. Displace {excess} of {} back to where {} came from: answer DISPLACE unit ….",
                st.label(h),
                join(&options),
                if excess == 1 { "it" } else { "they" }
            );
            let mut q = decide::question(side, QKind::Displace, text, options.clone());
            q.count = excess as u32;
            return Err(decide::ask(st, q));
        }
    };
    for n in &chosen {
        let back = st.unit(n).and_then(|u| u.came_from);
        if let Some(b) = back {
            movement::place(st, std::slice::from_ref(n), b);
        }
    }
    st.say(format!(
        "{} displaced back from {}.",
        join(&chosen),
        st.label(h)
    ));
    Ok(())
}

/// p.2 step 8: Advance after Mêlée into every vacated target hex, Disordered.
fn advance(st: &mut LbState, r: &mut dyn Roller, a: &Assault, run: &mut AssaultRun) -> Step {
    let a = st.assault(a.id).cloned().expect("running");
    if !run.advance_done {
        let mut taken: Vec<String> = Vec::new();
        for t in a.targets.clone() {
            if st.at(t).iter().any(|u| u.side != a.attacker) {
                continue;
            }
            let movers: Vec<String> = all(&attacking(st, &a))
                .into_iter()
                .filter(|n| {
                    !taken.contains(n) && st.unit(n).is_some_and(|u| u.hex.distance(t) == 1)
                })
                .collect();
            if movers.is_empty() {
                continue;
            }
            movement::place(st, &movers, t);
            for n in &movers {
                if let Some(u) = st.unit_mut(n)
                    && u.cohesion == Cohesion::GoodOrder
                {
                    u.cohesion = Cohesion::Disordered;
                }
            }
            st.say(format!(
                "A{}: {} advance into {} and {} Disordered.",
                a.id,
                join(&movers),
                st.label(t),
                if movers.len() == 1 { "is" } else { "are" }
            ));
            taken.extend(movers);
        }
        run.advanced = taken;
        run.advance_done = true;
    }
    for t in a.targets.clone() {
        let here: Vec<String> = run
            .advanced
            .iter()
            .filter(|n| st.unit(n).is_some_and(|u| u.hex == t))
            .cloned()
            .collect();
        if here.is_empty() {
            continue;
        }
        if let Err(f) = displace(st, &a.attacker, t, &here, &format!("A{}", a.id)) {
            let _ = f;
            return Step::Asked;
        }
    }
    // Opportunity reactions come after the first hex of advance and the Disorder (p.2).
    let mut done_hexes = Vec::new();
    for n in run.advanced.clone() {
        let Some(h) = st.unit(&n).map(|u| u.hex) else {
            continue;
        };
        if a.targets.contains(&h) && !done_hexes.contains(&h) {
            done_hexes.push(h);
            let movers: Vec<String> = run
                .advanced
                .iter()
                .filter(|m| st.unit(m).is_some_and(|u| u.hex == h))
                .cloned()
                .collect();
            movement::opportunity(st, r, &movers, h);
        }
    }
    run.advanced.retain(|n| {
        st.unit(n)
            .is_some_and(|u| u.fighting() && a.targets.contains(&u.hex))
    });
    if run.impetus > 0 && !run.advanced.is_empty() {
        Step::To(AStage::Impetus)
    } else {
        end(&a)
    }
}

/// p.3 step 9: the impetus along the defenders' retreat path, or any path if they were
/// removed, stopping on entering an enemy Zone of Influence (R25).
fn impetus(st: &mut LbState, r: &mut dyn Roller, a: &Assault, run: &mut AssaultRun) -> Step {
    loop {
        let stacks: Vec<(Hex, Vec<String>)> = {
            let mut v: Vec<(Hex, Vec<String>)> = Vec::new();
            for n in &run.advanced {
                let Some(u) = st.unit(n) else { continue };
                if !u.fighting() || run.impetus_done.contains(&u.hex) {
                    continue;
                }
                match v.iter_mut().find(|(h, _)| *h == u.hex) {
                    Some((_, x)) => x.push(n.clone()),
                    None => v.push((u.hex, vec![n.clone()])),
                }
            }
            v
        };
        let Some((from, names)) = stacks.into_iter().next() else {
            return end(a);
        };
        let paths: Vec<Vec<Hex>> = run
            .retreat_paths
            .iter()
            .filter(|p| p.first() == Some(&from) && p.len() > 1)
            .map(|p| p[1..].to_vec())
            .collect();
        let mut distinct: Vec<Vec<Hex>> = Vec::new();
        for p in paths {
            if !distinct.iter().any(|d| d.first() == p.first()) {
                distinct.push(p);
            }
        }
        let any = run.any_path || distinct.is_empty();
        let n = run.impetus as usize;
        let path: Vec<Hex> = match decide::take(st) {
            Some(Answer::Impetus(p)) if !p.is_empty() => {
                if any {
                    p.into_iter().take(n).collect()
                } else {
                    distinct
                        .iter()
                        .find(|d| d.first() == p.first())
                        .cloned()
                        .unwrap_or_else(|| distinct[0].clone())
                }
            }
            Some(_) => auto_impetus(st, &names, from, &distinct, any, n),
            None if decide::auto(st.standing(&a.attacker).impetus)
                || (!any && distinct.len() == 1) =>
            {
                auto_impetus(st, &names, from, &distinct, any, n)
            }
            None => {
                let options: Vec<String> = if any {
                    st.grid
                        .neighbours(from)
                        .iter()
                        .filter(|h| st.grid.on_map(**h))
                        .map(|h| st.label(*h))
                        .collect()
                } else {
                    distinct.iter().map(|d| st.label(d[0])).collect()
                };
                let text = if any {
                    format!(
                        "A{}: {} in {} must advance {n} more hex(es) by any path, stopping on entering an enemy Zone of Influence. Answer IMPETUS hex hex ….",
                        a.id,
                        join(&names),
                        st.label(from)
                    )
                } else {
                    format!(
                        "A{}: {} in {} must follow one of the defenders' retreat paths (starting {}) for {n} hex(es). Answer IMPETUS hex.",
                        a.id,
                        join(&names),
                        st.label(from),
                        options.join(" or ")
                    )
                };
                let mut q = decide::question(&a.attacker, QKind::Impetus, text, options);
                q.count = run.impetus;
                decide::ask(st, q);
                return Step::Asked;
            }
        };
        run.impetus_done.push(from);
        walk_impetus(st, r, a, &names, from, &path, n);
        // The stack has made its impetus wherever it stopped: never a second one.
        for u in names.iter().filter_map(|x| st.unit(x)) {
            if !run.impetus_done.contains(&u.hex) {
                run.impetus_done.push(u.hex);
            }
        }
    }
}

fn auto_impetus(
    st: &LbState,
    names: &[String],
    from: Hex,
    distinct: &[Vec<Hex>],
    any: bool,
    n: usize,
) -> Vec<Hex> {
    if !any {
        return distinct[0].clone();
    }
    let side = names
        .first()
        .and_then(|x| st.unit(x))
        .map(|u| u.side.clone())
        .unwrap_or_default();
    let goal = st
        .units
        .iter()
        .filter(|u| u.side != side && u.fighting())
        .min_by_key(|u| (u.hex.distance(from), u.name.clone()))
        .map(|u| u.hex);
    match goal {
        Some(g) => field::straight(st, from, g).into_iter().take(n).collect(),
        None => vec![],
    }
}

fn walk_impetus(
    st: &mut LbState,
    r: &mut dyn Roller,
    a: &Assault,
    names: &[String],
    from: Hex,
    path: &[Hex],
    n: usize,
) {
    let mut at = from;
    let mut went = Vec::new();
    for h in path.iter().take(n) {
        let live: Vec<Unit> = units(st, names)
            .into_iter()
            .filter(|u| u.fighting())
            .collect();
        let refs: Vec<&Unit> = live.iter().collect();
        if h.distance(at) != 1
            || refs.is_empty()
            || !field::room_for(st, *h, &refs)
            || field::move_cost(st, refs[0], *h).is_none()
        {
            break;
        }
        let movers: Vec<String> = live.iter().map(|u| u.name.clone()).collect();
        movement::place(st, &movers, *h);
        went.push(*h);
        at = *h;
        let routed = movement::opportunity(st, r, &movers, *h);
        if !routed.is_empty() || field::enemy_zoi(st, &a.attacker, *h) {
            break;
        }
    }
    if went.is_empty() {
        st.say(format!("A{}: {} cannot follow up.", a.id, join(names)));
    } else {
        st.say(format!(
            "A{}: impetus: {} advance to {}.",
            a.id,
            join(names),
            went.iter()
                .map(|h| st.label(*h))
                .collect::<Vec<_>>()
                .join(" ")
        ));
    }
}

/// p.5 step 10: Old Guard that advanced into or beyond the target may go on with their
/// remaining MPs and assault again even if Disordered (R10: by the lines after the charge).
fn exploitation(st: &mut LbState, a: &Assault, run: &AssaultRun) -> Step {
    let side = a.attacker.clone();
    let mut who = Vec::new();
    for n in &run.advanced {
        let Some(u) = st.unit(n).cloned() else {
            continue;
        };
        let guard = st.data.class(&u.class).is_some_and(|c| c.old_guard);
        if guard && u.fighting() && !field::enemy_zoi(st, &side, u.hex) {
            if let Some(x) = st.unit_mut(n) {
                x.exploiting = true;
            }
            who.push(n.clone());
        }
    }
    if !who.is_empty() {
        st.say(format!(
            "A{}: Old Guard Charge Exploitation: {} may move on with their remaining MPs and assault again, even Disordered.",
            a.id,
            join(&who)
        ));
    }
    Step::End
}
