//! The guns of the combat step (L17, R17, R39, R45), first of all fire: each gun's aim, the
//! drift of its shell, the blast ring and what it catches. Casualties come off here, before
//! small arms; it moves no unit.

use std::collections::BTreeMap;

use crate::board::tabletop::{Pt, dist};
use crate::dice::{Dice, Faces};
use crate::rulesets::kit::grammar::tenths;

use super::super::combat;
use super::super::data::{Arm, GunCard};
use super::super::orders::Aim;
use super::super::state::{Blast, Form, State, Unit};
use super::super::wagons;
use super::{Choice, at};

/// Every gun with ammunition fires where it aims, all at once, before other combat.
pub(super) fn artillery(state: &mut State, picks: &BTreeMap<String, Choice>, dice: &mut Dice) {
    let shots = gun_aims(state, picks);
    // All guns fire at once, before other combat; casualties come off before small arms.
    for (g, aim, card) in shots {
        fire_gun(state, &g, aim, &card, dice);
    }
}

/// Where each gun fires: its ordered point, else (unless its standing order holds fire) the
/// nearest enemy in its range and front that a shell may be aimed at. Guns out of
/// ammunition or aiming nowhere do not fire.
fn gun_aims(state: &State, picks: &BTreeMap<String, Choice>) -> Vec<(String, Pt, GunCard)> {
    let guns: Vec<String> = state
        .units
        .iter()
        .filter(|u| u.alive() && u.gun.is_some())
        .map(|u| u.name.clone())
        .collect();
    let mut shots = Vec::new();
    for g in guns {
        let u = state.unit(&g).expect("unit").clone();
        let card = u.gun.clone().expect("gun");
        if card.ammo == 0 {
            continue;
        }
        let aim = match picks.get(&g).and_then(|c| c.aim.clone()) {
            Some(Aim::Point(p)) => Some(p),
            Some(_) => None,
            None if u.standing.target_nearest != Some(false) => state
                .enemies_of(&u)
                .filter(|e| {
                    !e.hidden
                        && wagons::targetable(state, e)
                        && e.melee.is_empty()
                        && (card.range_min..=card.range_max).contains(&dist(u.pos, e.pos))
                        && state.in_front(&u, e.pos)
                })
                .min_by(|a, b| dist(a.pos, u.pos).total_cmp(&dist(b.pos, u.pos)))
                .map(|e| e.pos),
            None => None,
        };
        if let Some(p) = aim {
            shots.push((g, p, card));
        }
    }
    shots
}

/// One shell: a round spent, its drift (R17), the blast ring placed and told, then what the
/// ring catches and any windwagon hit square on its body.
fn fire_gun(state: &mut State, g: &str, aim: Pt, card: &GunCard, dice: &mut Dice) {
    let turn = state.turn;
    state.unit_mut(g).gun.as_mut().expect("gun").ammo -= 1;
    let roll = dice.roll_one(
        format!("turn {turn} {g} drift (d10 read 0-9)"),
        Faces::ZeroBased { sides: 10 },
    );
    let drift = roll.saturating_sub(card.drift_drm);
    let landed = if drift == 0 {
        aim
    } else {
        // R17: the numeral's orientation on the table is a second d10: bearing = 36° × it.
        let dir = dice.roll_one(
            format!("turn {turn} {g} drift direction (d10 read 0-9, ×36°)"),
            Faces::ZeroBased { sides: 10 },
        );
        aim.offset(36.0 * dir as f64, drift as f64 * card.drift_per)
    };
    let radius = card.blast / 2.0;
    state.blasts.push(Blast {
        at: landed,
        radius,
        gun: g.to_string(),
    });
    state.say(format!(
        "{g} fires at {}: drift {roll}{} lands at {}.",
        at(aim),
        if drift == 0 {
            " (on target)".to_string()
        } else {
            format!(" = {}\"", tenths(drift as f64 * card.drift_per))
        },
        at(landed)
    ));
    let (hit, direct) = under_the_blast(state, landed, radius);
    for t in hit {
        blast_on(state, g, &t, landed, card, dice);
    }
    for w in direct {
        wagons::direct_hit(state, g, &w, dice);
    }
}

/// The units the ring catches, and the windwagons hit square on the body. L17, R39: a
/// windwagon's crew only on a direct hit on its body; its passengers when the ring covers
/// the wagon; nothing up in the air (R45).
fn under_the_blast(state: &State, landed: Pt, radius: f64) -> (Vec<String>, Vec<String>) {
    let caught = |u: &Unit| -> bool {
        let under = |w: &Unit| state.stands(w).iter().any(|s| dist(*s, landed) <= radius);
        match u.aboard.as_deref().and_then(|c| state.unit(c)) {
            _ if !u.fights() || u.arm == Arm::Windwagon => false,
            Some(c) => c.arm == Arm::Windwagon && under(c),
            None => under(u),
        }
    };
    let hit: Vec<String> = state
        .units
        .iter()
        .filter(|u| u.alive() && caught(u))
        .map(|u| u.name.clone())
        .collect();
    let direct: Vec<String> = state
        .units
        .iter()
        .filter(|u| u.alive() && u.arm == Arm::Windwagon && wagons::body_hit(state, u, landed))
        .map(|u| u.name.clone())
        .collect();
    (hit, direct)
}

/// The blast on one unit it caught: it is placed if hidden, and rolls the gun's dice less
/// one for cover and one if mounted, every pip a hit.
fn blast_on(state: &mut State, g: &str, t: &str, landed: Pt, card: &GunCard, dice: &mut Dice) {
    let turn = state.turn;
    let tu = state.unit(t).expect("unit").clone();
    let cover = state.area_cover(&tu)
        || tu.aboard.is_some()
        || state.wall_between(&tu, landed)
        || tu.form == Form::Occupying
        || tu.form == Form::Entrenched;
    let n = card.dice as i32 - cover as i32 - (tu.mounted as i32);
    if tu.hidden {
        state.unit_mut(t).hidden = false;
    }
    if n <= 0 {
        return;
    }
    let pips = dice.roll(
        format!("turn {turn} {g} blast on {t} ({n}d6, every pip a hit)"),
        Faces::d(6),
        n as usize,
    );
    let hits: u32 = pips.iter().sum();
    state.say(format!(
        "{g}'s blast catches {t}: {pips:?} = {hits} hits{}.",
        if cover { " (cover: one die fewer)" } else { "" }
    ));
    state.unit_mut(t).in_combat = true;
    combat::take_hits(state, t, hits, false, dice);
}
