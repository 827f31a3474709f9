//! The sealed combat step, all at once (L13, L15, L21): ambushers placed, artillery first
//! (drift, blast, casualties off before small arms), grenades and gas in melee, then every
//! standard melee attack and every shot rolled on the figures as they stand, and all hits
//! landing together; prisoners taken. It moves no unit except what casualties remove.

use std::collections::BTreeMap;

use crate::board::tabletop::{Pt, dist};
use crate::dice::{Dice, Faces};
use crate::engine::Submitted;
use crate::rulesets::kit::grammar::tenths;

use super::combat::{self, Band};
use super::data::Arm;
use super::in_force::apply_standing;
use super::orders::{Aim, Order, Orders};
use super::state::{Fig, Form, State, Unit};

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

fn artillery(state: &mut State, picks: &BTreeMap<String, Choice>, dice: &mut Dice) {
    let guns: Vec<String> = state
        .units
        .iter()
        .filter(|u| u.alive() && u.gun.is_some())
        .map(|u| u.name.clone())
        .collect();
    let turn = state.turn;
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
                        && super::wagons::targetable(state, e)
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
    // All guns fire at once, before other combat; casualties come off before small arms.
    for (g, aim, card) in shots {
        state.unit_mut(&g).gun.as_mut().expect("gun").ammo -= 1;
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
        state.blasts.push(super::state::Blast {
            at: landed,
            radius,
            gun: g.clone(),
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
        // L17, R39: a windwagon's crew only on a direct hit on its body; its passengers
        // when the ring covers the wagon; nothing up in the air (R45).
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
            .filter(|u| {
                u.alive() && u.arm == Arm::Windwagon && super::wagons::body_hit(state, u, landed)
            })
            .map(|u| u.name.clone())
            .collect();
        for t in hit {
            let tu = state.unit(&t).expect("unit").clone();
            let cover = state.area_cover(&tu)
                || tu.aboard.is_some()
                || state.wall_between(&tu, landed)
                || tu.form == Form::Occupying
                || tu.form == Form::Entrenched;
            let n = card.dice as i32 - cover as i32 - (tu.mounted as i32);
            if tu.hidden {
                state.unit_mut(&t).hidden = false;
            }
            if n <= 0 {
                continue;
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
            state.unit_mut(&t).in_combat = true;
            combat::take_hits(state, &t, hits, false, dice);
        }
        for w in direct {
            super::wagons::direct_hit(state, &g, &w, dice);
        }
    }
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

/// Standard melee attacks and all shooting, simultaneous: every attack is rolled on the
/// figures as they stand, then all hits land.
fn standard_attacks(state: &mut State, picks: &BTreeMap<String, Choice>, dice: &mut Dice) {
    let turn = state.turn;
    let div = state.data.rules.combat_divisor.int();
    let mut landed: Vec<(String, String, u32, bool, bool)> = Vec::new();
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
        let (target, band) = if !u.melee.is_empty() {
            let enemies = melee_enemies(state, &name);
            let Some(t) = pick_enemy(
                &enemies,
                format!(
                    "turn {turn} {name}'s melee attack falls on (d{})",
                    enemies.len()
                ),
                dice,
            ) else {
                continue;
            };
            (t, Band::Melee)
        } else {
            if u.routing || u.arm == Arm::Windwagon {
                continue;
            }
            let mut t = shot_target(state, &u, &c);
            if let Some(Aim::Unit(ordered)) = &c.aim
                && t.is_none()
            {
                // Legal when the mail was read; what changed since is only resolution's
                // (shells and grenades land first): say why, then the silent seat's rule
                // applies (R29) unless the unit's standing order holds its fire.
                let why = state
                    .unit(ordered)
                    .and_then(|tu| shot_refusal(state, &u, tu))
                    .unwrap_or_else(|| format!("{ordered} is no target"));
                let fallback = if u.standing.target_nearest == Some(false) {
                    None
                } else {
                    nearest_target(state, &u)
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
            let Some(t) = t else { continue };
            let tu = state.unit(&t).expect("unit");
            let Some(b) = band(state, &u, tu) else {
                continue;
            };
            (t, b)
        };
        let tu = state.unit(&target).expect("unit").clone();
        // R51: over an enemy unit in the line of fire, the mortar alone shoots.
        let over = (band != Band::Melee)
            .then(|| super::aim::screen(state, &u, &tu).map(|s| s.name.clone()))
            .flatten();
        // R52: through a friendly unit the rest fires, the flamethrower does not.
        let held = (band != Band::Melee && over.is_none())
            .then(|| super::aim::flame_held(state, &u, &tu).map(|s| s.name.clone()))
            .flatten();
        let base = match (&over, &held) {
            (Some(_), _) => combat::over_strength(state, &u, band),
            (None, Some(_)) => {
                combat::strength(state, &u, band) - combat::flame_strength(state, &u, band)
            }
            (None, None) => combat::strength(state, &u, band),
        };
        let mods = combat::modifiers(state, &u, &tu, band);
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
        if u.heavy() == Some(super::data::Heavy::Flamethrower)
            && u.flame_shots > 0
            && band != Band::Long
            && held.is_none()
        {
            state.unit_mut(&name).flame_shots -= 1;
        }
        // R50: each shot with the mortar team alive spends a round; melee spends none, and
        // mounted troops' heavy weapons do not shoot (L12).
        let mortar = u.heavy() == Some(super::data::Heavy::Mortar)
            && u.mortar_rounds > 0
            && band != Band::Melee
            && !u.mounted;
        if mortar {
            state.unit_mut(&name).mortar_rounds -= 1;
        }
        let mortar_out = mortar && u.mortar_rounds == 1;
        let mods_text: Vec<String> = mods.iter().map(|(w, v)| format!("{w} {v:+}")).collect();
        state.say(format!(
            "{name} {} {target} ({}): strength {base}{}{} = {total} → {n}d6 {pips:?} = {hits} hits{}.",
            if band == Band::Melee { "fights" } else { "fires at" },
            band.word(),
            match (&over, &held) {
                (Some(s), _) => format!(" (the mortar alone, over {s}, R51)"),
                (None, Some(s)) => format!(" (without the flamethrower, through {s}, R52)"),
                (None, None) => String::new(),
            },
            if mods_text.is_empty() { String::new() } else { format!(" {}", mods_text.join(" ")) },
            if red_cross { " (Red Cross −1)" } else { "" }
        ));
        if mortar_out {
            state.say(format!(
                "{name}'s mortar has fired its last round: the team abandons the tube (R50)."
            ));
        }
        let prisoners =
            band == Band::Melee && c.prisoners.or(u.standing.prisoners).unwrap_or(false);
        landed.push((
            name.clone(),
            target.clone(),
            hits,
            band == Band::Melee,
            prisoners,
        ));
        state.unit_mut(&name).in_combat = true;
        state.unit_mut(&target).in_combat = true;
    }
    let per = state.data.rules.prisoners_per_guard.get() as u32;
    for (by, target, hits, melee, prisoners) in landed {
        let lost = combat::take_hits(state, &target, hits, melee, dice);
        if prisoners && !lost.is_empty() {
            let p = lost.len() as u32;
            let guards = p.div_ceil(per);
            let u = state.unit_mut(&by);
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
                super::escort::set_out(state, &by, g, p);
            }
        }
    }
}
