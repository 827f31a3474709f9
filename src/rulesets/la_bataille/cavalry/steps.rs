//! The steps of the cavalry mêlées against infantry, artillery and cavalry (p.7–8), in the
//! order `run` calls them: Retreat Before Charge, Recall and the pursuit it may force,
//! unsupplied artillery, the Roll to Stand, Defensive Fire and the resolution.

use crate::rulesets::kit::roster::{Roster, TwoSides};

use super::*;

/// p.7 step 1 / p.8 step 1: Retreat Before Charge of eligible target units (R12).
pub(super) fn retreat(
    st: &mut LbState,
    r: &mut dyn Roller,
    c: &mut Charge,
) -> Result<CStage, Flow> {
    let after = if c.kind == Some(TargetKind::Cavalry) {
        CStage::Resolve
    } else {
        CStage::UnsuppliedArtillery
    };
    let (fighting, _) = targets(st, c);
    let eligible: Vec<&Unit> = fighting
        .iter()
        .filter(|u| {
            let light = st.data.class(&u.class).is_some_and(|k| k.light);
            !u.formation.is_square()
                && match u.arm {
                    Arm::Infantry => u.formation == Formation::Skirmish,
                    Arm::Cavalry => (light || u.formation == Formation::Skirmish) && !u.charged,
                    Arm::Artillery => false,
                }
        })
        .collect();
    if eligible.is_empty() || !movement::can_retreat(st, &eligible) {
        return Ok(after);
    }
    let names: Vec<String> = eligible.iter().map(|u| u.name.clone()).collect();
    let defender = st.enemy_of(&c.side).unwrap_or_default().to_string();
    let go = match decide::take(st) {
        Some(Answer::Retreat(b)) => b,
        Some(_) => false,
        None => match decide::policy(st.standing(&defender).retreat_charge) {
            Some(b) => b,
            None => {
                let text = format!(
                    "C{}: {} charge {}. {} may Retreat Before Charge. Answer RETREAT or STAND.",
                    c.id,
                    join(&c.units),
                    st.label(c.target),
                    join(&names)
                );
                return Err(decide::ask(
                    st,
                    decide::question(&defender, QKind::RetreatBeforeCharge, text, vec![]),
                ));
            }
        },
    };
    if !go {
        return Ok(after);
    }
    let hexes = st.data.rules.retreat_before_charge_hexes.int().max(1) as u32;
    let path = movement::retreat(st, &names, hexes);
    if let Some(end) = path.last() {
        movement::opportunity(st, r, &names, *end);
    }
    c.retreated = path;
    if st
        .at(c.target)
        .iter()
        .any(|u| u.side != c.side && u.fighting())
    {
        Ok(after)
    } else {
        Ok(CStage::Recall)
    }
}

/// p.7 step 1b: the charger may try to Recall; success: a new target or the end; failure:
/// pursue and charge a unit the retreating units went into or through.
pub(super) fn recall(
    st: &mut LbState,
    r: &mut dyn Roller,
    c: &mut Charge,
) -> Result<Option<CStage>, Flow> {
    let choice = match decide::take(st) {
        Some(Answer::Recall(x)) => x,
        Some(_) => None,
        None => match decide::recall(st.standing(&c.side).recall, false) {
            Some(true) => Some(None),
            Some(false) => None,
            None => {
                let text = format!(
                    "C{}: the target retreated before the charge. Answer RECALL (end the charge), RECALL AT hex (a new target) or NO RECALL (pursue and charge a unit it retreated into or through).",
                    c.id
                );
                return Err(decide::ask(
                    st,
                    decide::question(&c.side, QKind::Recall, text, vec![]),
                ));
            }
        },
    };
    if let Some(new_target) = choice {
        if charge::recall_roll(st, r, c, false) {
            match new_target {
                Some(t) => {
                    st.say(format!(
                        "C{}: recalled; the new target is {}.",
                        c.id,
                        st.label(t)
                    ));
                    c.target = t;
                    c.declared = false;
                    c.kind = None;
                    return Ok(Some(CStage::Moving));
                }
                None => {
                    save(st, c.clone());
                    charge::no_melee(st, c, "the charge is recalled");
                    *c = st.charge(c.id).cloned().expect("exists");
                    return Ok(None);
                }
            }
        }
        st.say(format!("C{}: the Recall fails.", c.id));
    }
    Ok(Some(CStage::Pursue))
}

/// The unit a charge that did not recall must pursue and charge (R32).
pub(super) fn pursue_choice(st: &mut LbState, c: &mut Charge) -> Result<Option<CStage>, Flow> {
    let options: Vec<Hex> = c
        .retreated
        .iter()
        .copied()
        .filter(|h| st.at(*h).iter().any(|u| u.side != c.side && u.fighting()))
        .collect();
    if options.is_empty() {
        st.say(format!(
            "C{}: nobody to pursue; the cavalry takes the empty hex.",
            c.id
        ));
        c.melee = false;
        return Ok(Some(CStage::Advance));
    }
    let pick = match decide::take(st) {
        Some(Answer::Pursue(h)) if options.contains(&h) => h,
        Some(_) => options[0],
        None if options.len() == 1 || decide::auto(st.standing(&c.side).pursue) => options[0],
        None => {
            let labels: Vec<String> = options.iter().map(|h| st.label(*h)).collect();
            let text = format!(
                "C{}: the cavalry must pursue and charge a unit the retreating units went into or through: {}. Answer PURSUE hex.",
                c.id,
                labels.join(" or ")
            );
            return Err(decide::ask(
                st,
                decide::question(&c.side, QKind::Pursue, text, labels),
            ));
        }
    };
    st.say(format!(
        "C{}: the cavalry pursues and charges {}.",
        c.id,
        st.label(pick)
    ));
    c.target = pick;
    c.declared = true;
    c.kind = None;
    Ok(Some(CStage::Moving))
}

/// p.7 step 2: artillery without ammunition and alone routs; the cavalry takes the hex and
/// pursues (the garbled "Proceed to Step" read as Step 8, R10).
pub(super) fn unsupplied(st: &mut LbState, c: &mut Charge) -> CStage {
    let (fighting, _) = targets(st, c);
    let covered = fighting
        .iter()
        .any(|u| u.arm == Arm::Infantry || (u.arm == Arm::Artillery && u.ammo != Some(0)));
    let guns: Vec<String> = fighting
        .iter()
        .filter(|u| u.arm == Arm::Artillery && u.ammo == Some(0))
        .map(|u| u.name.clone())
        .collect();
    if covered || guns.is_empty() {
        return CStage::RollToStand;
    }
    st.say(format!(
        "C{}: {} has no ammunition and routs.",
        c.id,
        join(&guns)
    ));
    for g in &guns {
        if let Some(u) = st.unit_mut(g) {
            u.cohesion = Cohesion::Routed;
        }
    }
    pursue(st, c, &guns);
    movement::rout(st, &guns);
    CStage::Advance
}

/// p.7 step 3: each target stack Rolls to Stand.
pub(super) fn roll_to_stand(st: &mut LbState, r: &mut dyn Roller, c: &mut Charge) -> CStage {
    c.melee = true;
    let (fighting, _) = targets(st, c);
    let names: Vec<String> = fighting.iter().map(|u| u.name.clone()).collect();
    let chargers = units_of(st, c);
    let crefs: Vec<&Unit> = chargers.iter().collect();
    let frefs: Vec<&Unit> = fighting.iter().collect();
    let mods = combat::stand_mods(st, &frefs, &crefs);
    let label = format!(
        "C{} Roll to Stand of {} in {}",
        c.id,
        join(&names),
        st.label(c.target)
    );
    if combat::morale_check(st, r, label, &names, &mods).pass {
        c.doubled = true;
        let die = r.roll(format!("C{} shift roll of {}", c.id, join(&names)), 6, 1)[0];
        let s = st.data.shift_roll[(die - 1) as usize];
        c.left += s;
        st.say(format!(
            "{} stand: Defensive Fire doubled; shift roll {die}: {s} left column shift{}.",
            join(&names),
            if s == 1 { "" } else { "s" }
        ));
        return CStage::Fire;
    }
    let routed = combat::fail(st, &names);
    if st
        .at(c.target)
        .iter()
        .any(|u| u.side != c.side && u.fighting())
    {
        movement::rout(st, &routed);
        return CStage::Fire;
    }
    st.say(format!("C{}: every target routs.", c.id));
    pursue(st, c, &routed);
    movement::rout(st, &routed);
    CStage::Advance
}

/// p.7 step 4: Defensive Fire, −3 on the mêlée roll per casualty; no offensive fire.
pub(super) fn defensive_fire(st: &mut LbState, r: &mut dyn Roller, c: &mut Charge) -> CStage {
    let (fighting, _) = targets(st, c);
    let names: Vec<String> = fighting.iter().map(|u| u.name.clone()).collect();
    let chargers: Vec<String> = units_of(st, c).iter().map(|u| u.name.clone()).collect();
    let Some(at) = chargers.first().and_then(|n| st.unit(n)).map(|u| u.hex) else {
        return CStage::Over;
    };
    let guns = fighting.iter().any(|u| {
        u.arm == Arm::Artillery
            && u.formation == Formation::Unlimbered
            && u.ammo != Some(0)
            && field::faces(st, u, at)
    });
    let mult = if c.doubled {
        st.data.rules.pass_fire_multiplier.int().max(1) as u32
    } else {
        1
    };
    let label = format!(
        "C{} Defensive Fire of {} at {}",
        c.id,
        join(&names),
        join(&chargers)
    );
    let n = combat::fire(st, r, label, &names, at, mult, guns);
    movement::spend_ammo(st, &names);
    if n > 0 {
        combat::take_losses(st, &chargers, n);
        c.drm -= st.data.rules.casualty_drm.int() * n as i32;
        st.say(format!("C{}: mêlée DRM from fire {:+}.", c.id, c.drm));
    }
    if units_of(st, c).is_empty() {
        CStage::Over
    } else {
        CStage::Resolve
    }
}

/// p.7 steps 5–6, p.8 steps 2–3: odds with the Mêlée Modifiers for Cavalry, the roll.
pub(super) fn resolve(st: &mut LbState, r: &mut dyn Roller, c: &mut Charge) -> CStage {
    c.melee = true;
    let (fighting, _) = targets(st, c);
    let chargers = units_of(st, c);
    let frefs: Vec<&Unit> = fighting.iter().collect();
    let crefs: Vec<&Unit> = chargers.iter().collect();
    let atk: f64 = chargers
        .iter()
        .map(|u| combat::cavalry_melee_value(st, u, &frefs))
        .sum();
    let def: f64 = fighting.iter().map(|u| combat::charged_value(st, u)).sum();
    let base = combat::odds_column(&st.data, atk, def);
    let col = combat::shifted(&st.data, base, c.left, 0);
    let lead = combat::leader_drm(st, &crefs) - combat::leader_drm(st, &frefs);
    let n = st.data.rules.melee_dice.int().max(1) as usize;
    let dice = r.roll(format!("C{} mêlée resolution", c.id), 6, n);
    let total = dice.iter().sum::<u32>() as i32 + c.drm + lead;
    let result = combat::charge_result(&st.data, col, total);
    st.say(format!(
        "C{}: mêlée values {} to {}, column {}{}; rolled {} {:+} fire {:+} leaders = {total}: {}.",
        c.id,
        crate::rulesets::kit::grammar::tenths(atk),
        crate::rulesets::kit::grammar::tenths(def),
        combat::column_label(&st.data, Some(col)),
        if c.left > 0 {
            format!(" after {} left shift(s)", c.left)
        } else {
            String::new()
        },
        dice.iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join("+"),
        c.drm,
        lead,
        result.code()
    ));
    let cnames: Vec<String> = chargers.iter().map(|u| u.name.clone()).collect();
    let fnames: Vec<String> = fighting.iter().map(|u| u.name.clone()).collect();
    match result {
        MeleeResult::AttackerSurrenders => {
            combat::surrender(st, &cnames);
            mark_original(st, c);
            CStage::Over
        }
        MeleeResult::AttackerRouts => {
            for n in &cnames {
                if let Some(u) = st.unit_mut(n) {
                    u.cohesion = Cohesion::Routed;
                    u.charged = true;
                }
            }
            movement::rout(st, &cnames);
            mark_original(st, c);
            CStage::Over
        }
        MeleeResult::Blank => bounce(st, c, &chargers, &cnames, &fnames),
        MeleeResult::DefenderRouts(_) => {
            for n in &fnames {
                if let Some(u) = st.unit_mut(n) {
                    u.cohesion = Cohesion::Routed;
                }
            }
            if c.kind == Some(TargetKind::InfantryArtillery) {
                // Pursuit losses before the rout is executed (p.7 step 6d, R33).
                pursue(st, c, &fnames);
            }
            movement::rout(st, &fnames);
            CStage::Advance
        }
        MeleeResult::DefenderSurrenders(_) => {
            st.say(format!("C{}: the defenders surrender.", c.id));
            combat::surrender(st, &fnames);
            CStage::Advance
        }
    }
}

/// A blank result: the charge bounces, Disordered, and the chargers are Exhausted; against
/// cavalry the defenders bounce too (p.8 step 3c).
fn bounce(
    st: &mut LbState,
    c: &mut Charge,
    chargers: &[Unit],
    cnames: &[String],
    fnames: &[String],
) -> CStage {
    st.say(format!("C{}: the charge bounces.", c.id));
    // Where the attackers fought from, before their own bounce moves them.
    let fought_from = chargers.first().map(|u| u.hex);
    let n = st.data.rules.bounce_hexes.int().max(0) as u32;
    save(st, c.clone());
    fall_back(st, c, n);
    for x in cnames {
        if let Some(u) = st.unit_mut(x)
            && u.cohesion == Cohesion::GoodOrder
        {
            u.cohesion = Cohesion::Disordered;
        }
    }
    if c.kind == Some(TargetKind::Cavalry) {
        // Both sides bounce (p.8 step 3c): the defenders one hex straight away from
        // the attackers (R31), not away from whichever enemy is nearest.
        if let Some(from) = fought_from {
            bounce_away(st, fnames, from);
        }
        for x in fnames {
            if let Some(u) = st.unit_mut(x)
                && u.cohesion == Cohesion::GoodOrder
            {
                u.cohesion = Cohesion::Disordered;
            }
        }
    }
    mark(st, c, true);
    mark_original(st, c);
    CStage::Over
}

/// A bounced cavalry defender (R31): one hex away from the hex the attackers fought from, the
/// hex straight behind it first, then the other hex that is farther from them; a hex it may
/// stand in. It keeps its facing, towards the attackers. No such hex: it stays.
pub(super) fn bounce_away(st: &mut LbState, names: &[String], from: Hex) {
    let us: Vec<Unit> = names.iter().filter_map(|n| st.unit(n).cloned()).collect();
    let Some(here) = us.first().map(|u| u.hex) else {
        return;
    };
    let refs: Vec<&Unit> = us.iter().collect();
    let origin = st.grid.centre(from, 1.0);
    let away = |h: Hex| {
        let p = st.grid.centre(h, 1.0);
        (p.x - origin.x).hypot(p.y - origin.y)
    };
    let best = st
        .grid
        .neighbours(here)
        .into_iter()
        .filter(|n| n.distance(from) > here.distance(from))
        .filter(|n| field::charge_cost(st, *n).is_some() && field::room_for(st, *n, &refs))
        .max_by(|a, b| away(*a).total_cmp(&away(*b)));
    match best {
        Some(to) => {
            for n in names {
                if let Some(u) = st.unit_mut(n) {
                    u.came_from = Some(here);
                    u.hex = to;
                }
            }
            st.say(format!("{} bounce back to {}.", join(names), st.label(to)));
        }
        None => st.say(format!(
            "{} stay in {}: no hex behind them is open.",
            join(names),
            st.label(here)
        )),
    }
}
