//! Standard melee attacks and all shooting of the combat step (L6, L7, L12, R29, R50–R52),
//! simultaneous: each attacker's target, its strength, modifiers and dice on the figures as
//! they stand, then all hits landing together and prisoners taken. Guns, grenades and gas
//! are not here; it moves no unit except the guards marching prisoners off.

use std::collections::BTreeMap;

use crate::dice::Dice;

use super::super::combat::{self, Band};
use super::super::data::{Arm, Heavy};
use super::super::orders::Aim;
use super::super::state::{Fig, State, Unit};
use super::{Choice, band, may_shoot, melee_enemies, nearest_target, pick_enemy, shot_refusal};

/// One attack rolled, its hits still to land.
struct Attack {
    by: String,
    target: String,
    hits: u32,
    melee: bool,
    /// Its side takes prisoners of the figures the hits remove (melee only).
    prisoners: bool,
}

/// Standard melee attacks and all shooting, simultaneous: every attack is rolled on the
/// figures as they stand, then all hits land.
pub(super) fn standard_attacks(
    state: &mut State,
    picks: &BTreeMap<String, Choice>,
    dice: &mut Dice,
) {
    let mut landed: Vec<Attack> = Vec::new();
    let names: Vec<String> = state
        .units
        .iter()
        .filter(|u| u.alive() && !u.hidden && u.gun.is_none() && u.on_ground())
        .map(|u| u.name.clone())
        .collect();
    mark_ambushed(state, picks, &names);
    for name in names {
        let u = state.unit(&name).expect("unit").clone();
        let c = picks.get(&name).cloned().unwrap_or_default();
        let target = if u.melee.is_empty() {
            fire_target(state, &u, &c)
        } else {
            melee_target(state, &u, dice)
        };
        let Some((target, band)) = target else {
            continue;
        };
        landed.push(attack(state, &u, &c, target, band, dice));
    }
    for a in landed {
        let lost = combat::take_hits(state, &a.target, a.hits, a.melee, dice);
        if a.prisoners && !lost.is_empty() {
            take_prisoners(state, &a.by, lost.len() as u32);
        }
    }
}

/// Whom a shooter's fire falls on this turn, if anyone: its order, else (unless its standing
/// order holds fire) the nearest enemy (R29). `None` if it may not shoot that target now.
fn shot_target(state: &State, u: &Unit, c: &Choice) -> Option<String> {
    let t = match &c.aim {
        Some(Aim::Unit(t)) => Some(t.clone()),
        Some(_) => None,
        None if u.standing.target_nearest == Some(false) => None,
        None => nearest_target(state, u),
    }?;
    state
        .unit(&t)
        .is_some_and(|tu| may_shoot(state, u, tu))
        .then_some(t)
}

/// L7: "returned fire has the 'ambushed' negative modifier". A unit placed from hiding this
/// turn (standing ambush or a fire order from hiding) ambushes the unit it shoots at; that
/// unit's fire back at it this turn is ambushed. Fire at the ambusher from anyone it did not
/// shoot at returns nothing and has no such modifier (ruling R47).
fn mark_ambushed(state: &mut State, picks: &BTreeMap<String, Choice>, shooters: &[String]) {
    let turn = state.turn;
    let mut marks = Vec::new();
    for name in shooters {
        let u = state.unit(name).expect("unit");
        if u.ambush_turn != turn || !u.melee.is_empty() || u.routing {
            continue;
        }
        let c = picks.get(name).cloned().unwrap_or_default();
        if let Some(t) = shot_target(state, u, &c) {
            marks.push((t, name.clone()));
        }
    }
    for (t, by) in marks {
        state.unit_mut(&t).ambushed_by.push(by);
    }
}

/// In a melee, the one enemy of its group the attack falls on (L12: at random).
fn melee_target(state: &State, u: &Unit, dice: &mut Dice) -> Option<(String, Band)> {
    let turn = state.turn;
    let name = &u.name;
    let enemies = melee_enemies(state, name);
    let t = pick_enemy(
        &enemies,
        format!(
            "turn {turn} {name}'s melee attack falls on (d{})",
            enemies.len()
        ),
        dice,
    )?;
    Some((t, Band::Melee))
}

/// Out of melee, whom the unit shoots at and in which band; routing units and windwagons
/// do not shoot. An ordered target no longer lawful is refused aloud, and the nearest enemy
/// taken instead (R29) unless the standing order holds fire.
fn fire_target(state: &mut State, u: &Unit, c: &Choice) -> Option<(String, Band)> {
    if u.routing || u.arm == Arm::Windwagon {
        return None;
    }
    let name = &u.name;
    let mut t = shot_target(state, u, c);
    if let Some(Aim::Unit(ordered)) = &c.aim
        && t.is_none()
    {
        // Legal when the mail was read; what changed since is only resolution's
        // (shells and grenades land first): say why, then the silent seat's rule
        // applies (R29) unless the unit's standing order holds its fire.
        let why = state
            .unit(ordered)
            .and_then(|tu| shot_refusal(state, u, tu))
            .unwrap_or_else(|| format!("{ordered} is no target"));
        let fallback = if u.standing.target_nearest == Some(false) {
            None
        } else {
            nearest_target(state, u)
        };
        state.tell(
            &u.seat,
            format!(
                "{name} cannot fire at {ordered}: {why}; {}.",
                match &fallback {
                    Some(n) => format!("it fires at the nearest enemy, {n} (R29)"),
                    None => "it fires at no one".to_string(),
                }
            ),
        );
        t = fallback;
    }
    let t = t?;
    let tu = state.unit(&t).expect("unit");
    let b = band(state, u, tu)?;
    Some((t, b))
}

/// One attack on its target: its strength (R51, R52), modifiers and dice, the Red Cross in
/// melee, the flamethrower's and mortar's shots spent (R50), all told; its hits land later.
fn attack(
    state: &mut State,
    u: &Unit,
    c: &Choice,
    target: String,
    band: Band,
    dice: &mut Dice,
) -> Attack {
    let turn = state.turn;
    let div = state.data.rules.combat_divisor.int();
    let name = &u.name;
    let tu = state.unit(&target).expect("unit").clone();
    let (over, held) = screens(state, u, &tu, band);
    let base = match (&over, &held) {
        (Some(_), _) => combat::over_strength(state, u, band),
        (None, Some(_)) => {
            combat::strength(state, u, band) - combat::flame_strength(state, u, band)
        }
        (None, None) => combat::strength(state, u, band),
    };
    let mods = combat::modifiers(state, u, &tu, band);
    let total = base + mods.iter().map(|m| m.1).sum::<i32>();
    let n = combat::dice_for(total, div);
    let (pips, mut hits) = combat::roll_standard(
        dice,
        format!("turn {turn} {name} at {target}, {} ({n}d6)", band.word()),
        n,
    );
    let red_cross = band == Band::Melee && tu.count(Fig::RedCross) > 0 && hits > 0;
    if red_cross {
        hits -= 1;
    }
    let mortar_out = spend_heavy(state, u, band, held.is_some());
    let mods_text: Vec<String> = mods.iter().map(|(w, v)| format!("{w} {v:+}")).collect();
    state.say(format!(
        "{name} {} {target} ({}): strength {base}{}{} = {total} → {n}d6 {pips:?} = {hits} hits{}.",
        if band == Band::Melee {
            "fights"
        } else {
            "fires at"
        },
        band.word(),
        match (&over, &held) {
            (Some(s), _) => format!(" (the mortar alone, over {s}, R51)"),
            (None, Some(s)) => format!(" (without the flamethrower, through {s}, R52)"),
            (None, None) => String::new(),
        },
        if mods_text.is_empty() {
            String::new()
        } else {
            format!(" {}", mods_text.join(" "))
        },
        if red_cross { " (Red Cross −1)" } else { "" }
    ));
    if mortar_out {
        state.say(format!(
            "{name}'s mortar has fired its last round: the team abandons the tube (R50)."
        ));
    }
    let prisoners = band == Band::Melee && c.prisoners.or(u.standing.prisoners).unwrap_or(false);
    state.unit_mut(name).in_combat = true;
    state.unit_mut(&target).in_combat = true;
    Attack {
        by: name.clone(),
        target,
        hits,
        melee: band == Band::Melee,
        prisoners,
    }
}

/// The units in a shot's line: an enemy the mortar alone shoots over (R51), else a friend
/// the flamethrower does not shoot through (R52). Melee has neither.
fn screens(state: &State, u: &Unit, tu: &Unit, band: Band) -> (Option<String>, Option<String>) {
    // R51: over an enemy unit in the line of fire, the mortar alone shoots.
    let over = (band != Band::Melee)
        .then(|| super::super::aim::screen(state, u, tu).map(|s| s.name.clone()))
        .flatten();
    // R52: through a friendly unit the rest fires, the flamethrower does not.
    let held = (band != Band::Melee && over.is_none())
        .then(|| super::super::aim::flame_held(state, u, tu).map(|s| s.name.clone()))
        .flatten();
    (over, held)
}

/// The heavy weapon's shot spent: a flamethrower's at short range unless held (R52), a
/// mortar's round on any shot (R50). Whether that was the mortar's last round.
fn spend_heavy(state: &mut State, u: &Unit, band: Band, held: bool) -> bool {
    if u.heavy() == Some(Heavy::Flamethrower) && u.flame_shots > 0 && band != Band::Long && !held {
        state.unit_mut(&u.name).flame_shots -= 1;
    }
    // R50: each shot with the mortar team alive spends a round; melee spends none, and
    // mounted troops' heavy weapons do not shoot (L12).
    let mortar = u.heavy() == Some(Heavy::Mortar)
        && u.mortar_rounds > 0
        && band != Band::Melee
        && !u.mounted;
    if mortar {
        state.unit_mut(&u.name).mortar_rounds -= 1;
    }
    mortar && u.mortar_rounds == 1
}

/// Prisoners taken from the figures a melee attack removed: one guard per
/// `prisoners_per_guard` leaves the unit (never its last figure) and marches them off (R40).
fn take_prisoners(state: &mut State, by: &str, p: u32) {
    let per = state.data.rules.prisoners_per_guard.get() as u32;
    let guards = p.div_ceil(per);
    let u = state.unit_mut(by);
    u.prisoners += p;
    let mut g = 0;
    while g < guards
        && u.figures.len() > 1
        && let Some(i) = u.figures.iter().position(|f| *f == Fig::Trooper)
    {
        u.figures.remove(i);
        u.guards += 1;
        g += 1;
    }
    state.say(format!(
        "{by} takes {p} prisoner(s); {g} guard(s) march them 4\" to the rear."
    ));
    if g > 0 {
        super::super::escort::set_out(state, by, g, p);
    }
}
