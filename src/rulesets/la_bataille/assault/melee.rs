//! Infantry Assault and Old Guard Charge, the fight (p.2 steps 4–7, p.4–5): Offensive and
//! Defensive Fire with ±3 per casualty and canister, the British Huzzah, odds and the
//! Assaut et Mêlée Chart with the Firefight column. It moves no unit except by a result.

use crate::rulesets::kit::roster::{Roster, TwoSides};

use super::*;

/// p.2 step 4: Offensive and Defensive Fire at once; ±3 per casualty on the mêlée roll; no
/// morale checks for the casualties.
pub(super) fn fire(
    st: &mut LbState,
    r: &mut dyn Roller,
    a: &Assault,
    run: &mut AssaultRun,
) -> Step {
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
pub(super) fn huzzah(
    st: &mut LbState,
    r: &mut dyn Roller,
    a: &Assault,
    run: &mut AssaultRun,
) -> Step {
    let defender = st.enemy_of(&a.attacker).unwrap_or_default().to_string();
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
    if !huzzah_morale(st, r, a, &british, &targeted) {
        st.say(format!("A{}: the Huzzah does not turn the tables.", a.id));
        return Step::To(AStage::Odds);
    }
    british_attack(st, a, run, &defender, &targeted)
}

/// The Huzzah's morale checks: each targeted stack checks with the British as its defender's
/// modifiers; the failed rout. True if every targeted stack failed.
fn huzzah_morale(
    st: &mut LbState,
    r: &mut dyn Roller,
    a: &Assault,
    british: &[Unit],
    targeted: &[(Hex, Vec<String>)],
) -> bool {
    let brefs: Vec<&Unit> = british.iter().collect();
    let mut failed_stacks = 0;
    let mut failed = Vec::new();
    for (h, names) in targeted {
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
    failed_stacks == targeted.len()
}

/// Every targeted stack failed: the British become the attacker, the old attackers' hexes and
/// those they routed from the targets; their shifts turn right and the fire DRM changes sides.
fn british_attack(
    st: &mut LbState,
    a: &Assault,
    run: &mut AssaultRun,
    defender: &str,
    targeted: &[(Hex, Vec<String>)],
) -> Step {
    let old_atk_hexes: Vec<Hex> = attacking(st, a).iter().map(|s| s.0).collect();
    let new_units: Vec<String> = all(&defending(st, a));
    let routed_hexes: Vec<Hex> = targeted
        .iter()
        .map(|t| t.0)
        .filter(|h| !old_atk_hexes.contains(h))
        .collect();
    if let Some(x) = st.assault_mut(a.id) {
        x.attacker = defender.to_string();
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
pub(super) fn odds(
    st: &mut LbState,
    r: &mut dyn Roller,
    a: &Assault,
    run: &mut AssaultRun,
) -> Step {
    let atk_units = units(st, &all(&attacking(st, a)));
    let def_units = units(st, &all(&defending(st, a)));
    let result = melee_roll(st, r, a, run, &atk_units, &def_units);
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
        MeleeResult::Blank => into_firefight(st, a, &atk_units, &def_units),
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

/// The mêlée resolution (p.2 step 7): the odds column (shifted, or the Firefight column), the
/// dice with the fire DRM and the leaders' difference, and the Chart's result, said and kept.
fn melee_roll(
    st: &mut LbState,
    r: &mut dyn Roller,
    a: &Assault,
    run: &mut AssaultRun,
    atk_units: &[Unit],
    def_units: &[Unit],
) -> MeleeResult {
    let (atk, def) = values(st, a);
    let col = if run.firefight_column {
        None
    } else {
        let base = combat::odds_column(&st.data, atk, def);
        Some(combat::shifted(&st.data, base, run.left, run.right))
    };
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
    result
}

/// A blank result: a firefight. Everyone in the assault gets a Firefight marker; an Old
/// Guard firefight in the Manoeuvre Segment is fought again in the coming Mêlée Segment.
fn into_firefight(st: &mut LbState, a: &Assault, atk_units: &[Unit], def_units: &[Unit]) -> Step {
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
    let in_maneuver = st.segment == super::super::state::Segment::Maneuver;
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
