//! Infantry Assault and Old Guard Charge, before the fire (p.1–2 steps 1–3, p.4): Retreat
//! Before Assault and a new assault, unsupplied artillery, and the simultaneous morale checks
//! with the defenders' shift roll. It resolves only these steps; the turn order is `turn`'s.

use crate::rulesets::kit::roster::{Roster, TwoSides};

use super::*;

/// Advances attacking units adjacent to the vacated hex `h` into it, as many as stacking
/// allows, Disordered (p.1 step 1b and 2, which cite 15.8). Returns who advanced.
pub(super) fn advance_into_vacated(
    st: &mut LbState,
    r: &mut dyn Roller,
    a: &Assault,
    h: Hex,
) -> Vec<String> {
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

/// p.1 step 1 (R12): Retreat Before Assault. The defenders that may retreat are asked (or
/// their standing policy answers); if they go, the attackers advance into what they leave.
pub(super) fn retreat_before_assault(
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
    let eligible = eligible_to_retreat(st, &atk, &defs);
    if eligible.is_empty() {
        return Step::To(AStage::UnsuppliedArtillery);
    }
    let Some(go) = defenders_retreat(st, a, &atk, &eligible) else {
        return Step::Asked;
    };
    if !go {
        st.say(format!("A{}: the defenders stand.", a.id));
        return Step::To(AStage::UnsuppliedArtillery);
    }
    retreat_and_advance(st, r, a, run, &eligible)
}

/// The defending units that may retreat before the assault, stack by stack (R12).
fn eligible_to_retreat(
    st: &LbState,
    atk: &[(Hex, Vec<String>)],
    defs: &[(Hex, Vec<String>)],
) -> Vec<Vec<String>> {
    let atk_mp = all(atk)
        .iter()
        .filter_map(|n| st.unit(n))
        .map(|u| field::printed_mp(st, u))
        .max()
        .unwrap_or(0);
    // R12: eligible are skirmishers, light infantry, cavalry and faster units, not in square,
    // not unlimbered guns, with a way back.
    let mut eligible: Vec<Vec<String>> = Vec::new();
    for (_, names) in defs {
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
    eligible
}

/// Whether the defenders retreat: their RETREAT or STAND answer, else their standing policy
/// (always, never, at these odds); `None` once the question is asked.
fn defenders_retreat(
    st: &mut LbState,
    a: &Assault,
    atk: &[(Hex, Vec<String>)],
    eligible: &[Vec<String>],
) -> Option<bool> {
    let defender = st.enemy_of(&a.attacker).unwrap_or_default().to_string();
    Some(match decide::take(st) {
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
                    join(&all(atk)),
                    if all(atk).len() == 1 { "s" } else { "" },
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
                return None;
            }
        },
    })
}

/// The eligible units retreat (drawing opportunity fire where they stop); the attackers
/// advance into each hex left empty. No target left: a new assault; else on to the fire.
fn retreat_and_advance(
    st: &mut LbState,
    r: &mut dyn Roller,
    a: &Assault,
    run: &mut AssaultRun,
    eligible: &[Vec<String>],
) -> Step {
    let hexes = st.data.rules.retreat_before_assault_hexes.int().max(1) as u32;
    for names in eligible {
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
pub(super) fn new_assault(st: &mut LbState, a: &Assault, run: &mut AssaultRun) -> Step {
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
pub(super) fn unsupplied(
    st: &mut LbState,
    r: &mut dyn Roller,
    a: &Assault,
    run: &mut AssaultRun,
) -> Step {
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
pub(super) fn distance(st: &LbState, a: &Assault, names: &[String]) -> Option<u32> {
    names
        .iter()
        .filter_map(|n| st.unit(n))
        .filter(|u| !u.firefight || a.joined.contains(&u.name))
        .filter_map(|u| u.number)
        .max()
}

/// p.1–2 step 3: simultaneous morale checks, the shift roll of passing defenders.
pub(super) fn morale(
    st: &mut LbState,
    r: &mut dyn Roller,
    a: &Assault,
    run: &mut AssaultRun,
) -> Step {
    let atk = attacking(st, a);
    let defs = defending(st, a);
    let atk_units = units(st, &all(&atk));
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
pub(super) fn record_rout(st: &mut LbState, run: &mut AssaultRun, routed: &[String]) {
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
