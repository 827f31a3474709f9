//! The sealed combat step, all at once (L13, L15, L21): ambushers placed, artillery first
//! (drift, blast, casualties off before small arms), grenades and gas in melee, then every
//! standard melee attack and every shot rolled on the figures as they stand, and all hits
//! landing together; prisoners taken. It moves no unit except what casualties remove.

use std::collections::BTreeMap;

use crate::board::tabletop::Pt;
use crate::dice::{Dice, Faces};
use crate::engine::Submitted;
use crate::rulesets::kit::grammar::tenths;

use super::combat;
use super::in_force::apply_standing;
use super::orders::{Aim, Order, Orders};
use super::state::{Fig, State};

mod artillery;
mod attacks;

use artillery::artillery;
use attacks::standard_attacks;

pub use super::aim::{band, may_shoot, nearest_target, shot_refusal};

fn at(p: Pt) -> String {
    format!("{},{}", tenths(p.x), tenths(p.y))
}

/// The combat step's choices for one unit.
#[derive(Default, Clone)]
struct Choice {
    aim: Option<Aim>,
    prisoners: Option<bool>,
    gas: bool,
    reveal: bool,
}

fn choices(state: &State, subs: &BTreeMap<String, Submitted<Orders>>) -> BTreeMap<String, Choice> {
    let mut out: BTreeMap<String, Choice> = BTreeMap::new();
    for (seat, sub) in subs {
        let Submitted::Orders(orders) = sub else {
            continue;
        };
        for o in orders {
            let Some(u) = state.unit(o.unit()) else {
                continue;
            };
            if u.seat != *seat {
                continue;
            }
            let c = out.entry(u.name.clone()).or_default();
            match o {
                Order::Fire { aim, .. } => c.aim = Some(aim.clone()),
                Order::Declare {
                    what: "PRISONERS", ..
                } => c.prisoners = Some(true),
                Order::Declare { what: "GAS", .. } => c.gas = true,
                Order::Declare {
                    what: "GRENADES", ..
                } => c.gas = false,
                Order::Declare { what: "REVEAL", .. } => c.reveal = true,
                _ => {}
            }
        }
    }
    out
}

/// The sealed combat step, all at once (L13, L15, L21).
pub fn resolve_combat(
    state: &mut State,
    subs: &BTreeMap<String, Submitted<Orders>>,
    dice: &mut Dice,
) {
    for (_, sub) in subs.iter() {
        if let Submitted::Orders(o) = sub {
            apply_standing(state, o);
        }
    }
    let picks = choices(state, subs);
    state.blasts.clear();
    for u in state.units.iter_mut() {
        u.in_combat = false;
        u.ambushed_by.clear();
    }
    // Hidden units that fire are placed now (L7).
    let hidden: Vec<String> = state
        .units
        .iter()
        .filter(|u| u.hidden && u.alive())
        .map(|u| u.name.clone())
        .collect();
    for h in hidden {
        let c = picks.get(&h).cloned().unwrap_or_default();
        if c.reveal || matches!(c.aim, Some(Aim::Unit(_)) | Some(Aim::Point(_))) {
            let turn = state.turn;
            let m = state.unit_mut(&h);
            m.hidden = false;
            m.ambush_turn = turn;
            let p = state.unit(&h).expect("unit").pos;
            state.say(format!("AMBUSH! {h} is placed at {}.", at(p)));
        }
    }
    artillery(state, &picks, dice);
    melee_specials(state, &picks, dice);
    standard_attacks(state, &picks, dice);
    for u in state.units.iter_mut() {
        if u.gone.is_none() && u.figures.is_empty() {
            u.gone = Some("destroyed".into());
        }
    }
    let gone: Vec<String> = state
        .units
        .iter()
        .filter(|u| u.gone.is_some())
        .map(|u| u.name.clone())
        .collect();
    for u in state.units.iter_mut() {
        u.melee.retain(|m| !gone.contains(m));
    }
}

/// Whether a melee goes on after combat: its end is then asked (R13, R19).
pub fn melee_goes_on(state: &State) -> bool {
    state.units.iter().any(|u| u.alive() && !u.melee.is_empty())
}

/// The melee groups: the enemies a unit fights.
fn melee_enemies(state: &State, name: &str) -> Vec<String> {
    state
        .unit(name)
        .map(|u| {
            u.melee
                .iter()
                .filter(|m| state.unit(m).is_some_and(|x| x.alive()))
                .cloned()
                .collect()
        })
        .unwrap_or_default()
}

/// Picks the one enemy an attack's hits fall on (L12, multi-unit melee: at random).
fn pick_enemy(enemies: &[String], label: String, dice: &mut Dice) -> Option<String> {
    match enemies.len() {
        0 => None,
        1 => Some(enemies[0].clone()),
        n => Some(enemies[(dice.roll_one(label, Faces::d(n as u32)) - 1) as usize].clone()),
    }
}

/// Grenades, then gas, in every melee (L6, L12); casualties come off at once.
fn melee_specials(state: &mut State, picks: &BTreeMap<String, Choice>, dice: &mut Dice) {
    let turn = state.turn;
    let in_melee: Vec<String> = state
        .units
        .iter()
        .filter(|u| u.alive() && !u.melee.is_empty() && u.count(Fig::Grenadier) > 0)
        .map(|u| u.name.clone())
        .collect();
    let mut gassers = Vec::new();
    // Grenades of both sides are simultaneous: roll all, then apply.
    let mut volleys = Vec::new();
    for g in &in_melee {
        let u = state.unit(g).expect("unit").clone();
        let wants_gas = picks.get(g).is_some_and(|c| c.gas) && u.gas > 0 && u.gas_masks;
        if wants_gas {
            gassers.push(g.clone());
            continue;
        }
        let n = u.count(Fig::Grenadier);
        let enemies = melee_enemies(state, g);
        let Some(t) = pick_enemy(
            &enemies,
            format!("turn {turn} {g} grenades fall on (d{})", enemies.len()),
            dice,
        ) else {
            continue;
        };
        let pips = dice.roll(
            format!("turn {turn} {g} grenades ({n}d6, every pip a hit)"),
            Faces::d(6),
            n,
        );
        volleys.push((g.clone(), t, pips));
    }
    for (g, t, pips) in volleys {
        let tu = state.unit(&t).expect("unit").clone();
        let mut hits: i32 = pips.iter().sum::<u32>() as i32;
        let mut notes = Vec::new();
        if tu.armored {
            hits -= pips.len() as i32;
            notes.push(format!("armoured −{}", pips.len()));
        }
        if tu.count(Fig::RedCross) > 0 {
            // R18: the whole volley is one attack for the Red Cross man.
            hits -= 1;
            notes.push("Red Cross −1".to_string());
        }
        let hits = hits.max(0) as u32;
        state.say(format!(
            "{g} throws grenades at {t}: {pips:?} = {hits} hits{}.",
            if notes.is_empty() {
                String::new()
            } else {
                format!(" ({})", notes.join(", "))
            }
        ));
        combat::take_hits(state, &t, hits, true, dice);
    }
    let r = state.data.rules.clone();
    for g in gassers {
        let u = state.unit(&g).expect("unit").clone();
        let n = u.count(Fig::Grenadier).min(u.gas as usize);
        state.unit_mut(&g).gas -= n as u32;
        // In melee gas reaches every unit of the melee, friend and foe (L12).
        let mut everyone: Vec<String> = melee_enemies(state, &g);
        for e in everyone.clone() {
            for f in melee_enemies(state, &e) {
                if !everyone.contains(&f) {
                    everyone.push(f);
                }
            }
        }
        state.say(format!("{g} throws {n} gas grenade(s)."));
        for _ in 0..n {
            for v in &everyone {
                let vu = state.unit(v).expect("unit").clone();
                if !vu.alive() {
                    continue;
                }
                if vu.gas_masks {
                    let roll =
                        dice.roll_one(format!("turn {turn} gas on masked {v} (d6)"), Faces::d(6));
                    if roll <= r.gas_attacker_loss_on.get() as u32 {
                        state.say(format!("{v}: a mask fails ({roll})."));
                        combat::lose_without_hits(state, v, 1, dice);
                    }
                } else {
                    let roll = dice.roll_one(format!("turn {turn} gas on {v} (d6)"), Faces::d(6));
                    if roll >= r.gas_target_loss_from.get() as u32 {
                        state.say(format!("{v} is gassed ({roll}): a figure is lost."));
                        combat::lose_without_hits(state, v, 1, dice);
                    } else {
                        state.say(format!("{v} escapes the gas ({roll})."));
                    }
                }
            }
        }
    }
}
