//! One gunnery phase (p.6–7; rulings R4–R6, R10, R19, R20, R22, R24, R31, R32): legality of
//! targets and supports, attack modifiers, the opposed roll, and standing fire plans. Damage is
//! damage.rs's business; the order of phases and who fires when is the sequence of play's.

use std::collections::BTreeSet;

use crate::board::tabletop::{Hull, Pt, hull_nearest_points, hull_range, in_beam_arc, los_clear};
use crate::dice::{Dice, Faces};
use crate::engine::LogLine;
use crate::rulesets::kit::grammar::tenths;

use super::checks::striking_colours;
use super::damage::apply_hits;
use super::data::ShipClass;
use super::state::{Fate, FireOrder, NavalState, Ship, StandingFire};
use super::stats::{
    can_fire, extreme_range, find_ship, fleet, has_secondary, is_flagship, main_cf, range,
    secondary_cf, secondary_range,
};

/// Range band of a shot (R31).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Band {
    /// Under `close_range` by nearest points.
    Close,
    Normal,
    /// Beyond the range, up to the extreme range.
    Extreme,
}

/// A legal shot's geometry.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shot {
    /// Nearest points, inches.
    pub range: f64,
    pub band: Band,
}

/// The firer's score: die + CF + modifiers.
pub fn attack_total(die: u32, cf: i32, modifier: i32) -> i32 {
    die as i32 + cf + modifier
}

/// The defender's score: die + CF, never modified.
pub fn defence_total(die: u32, cf: i32) -> i32 {
    die as i32 + cf
}

/// p.6: the firer scoring more hits by the difference; equal or less does nothing.
pub fn resolve_attack(attacker_total: i32, defender_total: i32) -> u32 {
    (attacker_total - defender_total).max(0) as u32
}

fn inches(v: f64) -> String {
    format!("{}\"", tenths(v))
}

/// Is `firer` in the same destroyer flotilla as `other`?
fn same_flotilla(state: &NavalState, a: &str, b: &str) -> bool {
    state
        .groups
        .iter()
        .any(|g| g.flotilla && g.ships.iter().any(|s| s == a) && g.ships.iter().any(|s| s == b))
}

/// The hulls that block `firer`'s sight of `target` (R22): every hull on the table but theirs;
/// destroyers do not block capital ships unless laying smoke (R19), and destroyers see through
/// their own flotilla. Sunk and escaped ships are gone; struck ones are still there.
fn blockers(state: &NavalState, firer: &Ship, target: &Ship) -> Vec<Hull> {
    state
        .ships
        .iter()
        .filter(|s| s.name != firer.name && s.name != target.name)
        .filter(|s| matches!(s.fate, Fate::Afloat | Fate::Struck))
        .filter(|s| {
            if s.class != ShipClass::DD {
                return true;
            }
            if firer.class.is_capital() {
                s.smoke
            } else {
                !same_flotilla(state, &firer.name, &s.name)
            }
        })
        .map(|s| s.hull)
        .collect()
}

fn sight(state: &NavalState, firer: &Ship, target: &Ship, from: Pt, to: Pt) -> bool {
    los_clear(from, to, &blockers(state, firer, target))
}

/// LOS bow to bow (p.6).
pub fn has_los(state: &NavalState, firer: &Ship, target: &Ship) -> bool {
    sight(state, firer, target, firer.hull.bow(), target.hull.bow())
}

/// LOS stern to stern (needed as well for a broadside, R32).
pub fn has_stern_los(state: &NavalState, firer: &Ship, target: &Ship) -> bool {
    sight(
        state,
        firer,
        target,
        firer.hull.stern(),
        target.hull.stern(),
    )
}

/// Extreme range is forbidden with limited ammunition or a high sea (R31).
pub fn extreme_allowed(state: &NavalState) -> bool {
    !state.limited_ammunition && !state.high_sea_state
}

fn band_of(state: &NavalState, r: f64, normal: f64) -> Band {
    if r < state.data.rules.close_range.get() {
        Band::Close
    } else if r <= normal {
        Band::Normal
    } else {
        Band::Extreme
    }
}

/// The geometry of a shot if LOS and range allow it (not whether the target is a legal enemy).
/// `secondary`: the secondary battery, which has no extreme range. `allow_extreme`: false for
/// supporters (R5).
pub fn shot(
    state: &NavalState,
    firer: &Ship,
    target: &Ship,
    secondary: bool,
    allow_extreme: bool,
) -> Result<Shot, String> {
    if !has_los(state, firer, target) {
        return Err(format!(
            "{} has no line of sight to {}",
            firer.name, target.name
        ));
    }
    let r = hull_range(&firer.hull, &target.hull);
    let (normal, extreme) = if secondary {
        let s = secondary_range(state, firer);
        (s, s)
    } else {
        (range(state, firer), extreme_range(state, firer))
    };
    if r <= normal {
        return Ok(Shot {
            range: r,
            band: band_of(state, r, normal),
        });
    }
    if r <= extreme && allow_extreme {
        if !extreme_allowed(state) {
            return Err(format!(
                "{} is at extreme range ({}), which this scenario forbids",
                target.name,
                inches(r)
            ));
        }
        return Ok(Shot {
            range: r,
            band: Band::Extreme,
        });
    }
    Err(format!("{} is out of range ({})", target.name, inches(r)))
}

/// Can `firer` (of `side`) engage `target` now? Everything but the one-attack-per-target rule.
pub fn target_legal(
    state: &NavalState,
    side: &str,
    firer: &Ship,
    target: &Ship,
    secondary: bool,
) -> Result<Shot, String> {
    if target.side == side {
        return Err(format!("{} is one of your own ships", target.name));
    }
    match target.fate {
        Fate::Afloat => {}
        Fate::Sunk => return Err(format!("{} has sunk", target.name)),
        Fate::Struck => return Err(format!("{} has struck her colours", target.name)),
        Fate::Escaped => return Err(format!("{} has left the table", target.name)),
    }
    if secondary && target.class != ShipClass::DD {
        return Err(format!(
            "secondary batteries fire only at destroyers ({} is a {})",
            target.name,
            target.class.abbr()
        ));
    }
    shot(state, firer, target, secondary, !secondary)
}

/// Why a ship cannot fire or support now, if she cannot.
pub fn cannot_fire_reason(ship: &Ship) -> Option<String> {
    if can_fire(ship) {
        return None;
    }
    let n = &ship.name;
    Some(match ship.fate {
        Fate::Sunk => format!("{n} has sunk"),
        Fate::Struck => format!("{n} has struck her colours"),
        Fate::Escaped => format!("{n} has left the table"),
        Fate::Afloat if ship.hit_markers > 0 => format!("{n} has a hit marker and cannot fire"),
        Fate::Afloat if ship.rescue.is_some() => {
            format!("{n} is rescuing survivors and cannot fire")
        }
        Fate::Afloat => format!("{n} is taking possession of a prize and cannot fire"),
    })
}

/// A supporter's legality (R5): own ship, able to fire, LOS and the target within her normal
/// range. For a secondary-battery attack only DDs (main guns) and CA/BB (secondaries) may support.
/// Returns whether she supports with her secondary battery.
pub fn support_legal(
    state: &NavalState,
    supporter: &Ship,
    firer: &Ship,
    target: &Ship,
    secondary: bool,
) -> Result<bool, String> {
    if supporter.side != firer.side {
        return Err(format!("{} is not one of your ships", supporter.name));
    }
    if supporter.name == firer.name {
        return Err(format!("{} cannot support her own attack", supporter.name));
    }
    if let Some(why) = cannot_fire_reason(supporter) {
        return Err(why);
    }
    let uses_secondary = secondary && has_secondary(supporter);
    if secondary && supporter.class == ShipClass::CL {
        return Err(format!(
            "{} is a light cruiser: only secondary batteries and destroyers support a secondary battery",
            supporter.name
        ));
    }
    shot(state, supporter, target, uses_secondary, false)?;
    Ok(uses_secondary)
}

/// The attack modifiers (firer only) for `firer` on `target`, with `supporters` taken as legal
/// (only the first `max_supporters` count). Labels are in the game's words.
pub fn modifiers(
    state: &NavalState,
    firer: &Ship,
    target: &Ship,
    secondary: bool,
    supporters: &[&Ship],
) -> Vec<(String, i32)> {
    let r = &state.data.rules;
    let mut m = Vec::new();
    if firer.class.is_capital() {
        let bonus = fleet(state, &firer.side).map_or(0, |f| f.capital_gunnery_bonus);
        if bonus != 0 {
            m.push(("capital-ship gunnery".to_string(), bonus));
        }
    }
    let dist = hull_range(&firer.hull, &target.hull);
    let normal = if secondary {
        secondary_range(state, firer)
    } else {
        range(state, firer)
    };
    let band = band_of(state, dist, normal);
    match band {
        Band::Close => m.push(("close range".to_string(), r.close_modifier.int())),
        Band::Extreme => m.push(("extreme range".to_string(), r.extreme_modifier.int())),
        Band::Normal => {}
    }
    if !secondary && firer.class.is_capital() && broadside(state, firer, target) {
        m.push(("broadside".to_string(), r.broadside_modifier.int()));
    }
    if band != Band::Extreme {
        let max = r.max_supporters.int().max(0) as usize;
        for s in supporters.iter().take(max) {
            m.push((format!("support by {}", s.name), r.support_modifier.int()));
            if s.class == ShipClass::BB {
                m.push((
                    format!("BB support by {}", s.name),
                    r.bb_support_modifier.int(),
                ));
            }
        }
    }
    if firer.class == ShipClass::DD && !target.moved {
        m.push((
            "stationary target".to_string(),
            r.dd_stationary_modifier.int(),
        ));
    }
    m
}

/// The sum of `modifiers`.
pub fn attack_modifier(
    state: &NavalState,
    firer: &Ship,
    target: &Ship,
    secondary: bool,
    supporters: &[&Ship],
) -> i32 {
    modifiers(state, firer, target, secondary, supporters)
        .iter()
        .map(|(_, v)| v)
        .sum()
}

/// R32: the target's nearest point within the beam arc from the firer's midship, and LOS both
/// bow to bow and stern to stern. Capital ships only.
pub fn broadside(state: &NavalState, firer: &Ship, target: &Ship) -> bool {
    if !firer.class.is_capital() {
        return false;
    }
    let (_, nearest) = hull_nearest_points(&firer.hull, &target.hull);
    in_beam_arc(
        &firer.hull,
        nearest,
        state.data.rules.broadside_half_arc.get(),
    ) && has_los(state, firer, target)
        && has_stern_los(state, firer, target)
}

fn log(state: &mut NavalState, text: String) {
    state.log.push(LogLine::public(text));
}

/// Who has used what this phase.
#[derive(Default)]
struct Book {
    engaged: BTreeSet<String>,
    main_used: BTreeSet<String>,
    secondary_used: BTreeSet<String>,
}

/// Resolves `side`'s fire plan, order by order, judging each at the moment of firing, then
/// checks striking colours (R10). Bad or impossible orders are logged and skipped, never fatal.
pub fn resolve_fire_phase(state: &mut NavalState, side: &str, plan: &[FireOrder], dice: &mut Dice) {
    let mut book = Book::default();
    for o in plan {
        resolve_order(state, side, o, &mut book, dice);
    }
    striking_colours(state);
}

fn battery(name: &str, secondary: bool) -> String {
    if secondary {
        format!("{name}'s secondary battery")
    } else {
        name.to_string()
    }
}

fn resolve_order(
    state: &mut NavalState,
    side: &str,
    o: &FireOrder,
    book: &mut Book,
    dice: &mut Dice,
) {
    let Some(firer) = find_ship(state, &o.ship).cloned() else {
        log(state, format!("No ship named {} fires.", o.ship));
        return;
    };
    let who = battery(&firer.name, o.secondary);
    if firer.side != side {
        log(
            state,
            format!(
                "{} is not a ship of this side and does not fire.",
                firer.name
            ),
        );
        return;
    }
    if let Some(why) = cannot_fire_reason(&firer) {
        log(state, format!("{why}."));
        return;
    }
    if o.secondary {
        if !has_secondary(&firer) {
            log(state, format!("{} has no secondary battery.", firer.name));
            return;
        }
        if book.secondary_used.contains(&firer.name) {
            log(
                state,
                format!("{who} has already fired or supported this phase."),
            );
            return;
        }
    } else if book.main_used.contains(&firer.name) {
        log(
            state,
            format!("{} has already fired or supported this phase.", firer.name),
        );
        return;
    }

    // First legal target in the ELSE list (R24).
    let mut reasons = Vec::new();
    let mut chosen = None;
    for t in &o.targets {
        let Some(target) = find_ship(state, t) else {
            reasons.push(format!("no ship named {t}"));
            continue;
        };
        if book.engaged.contains(&target.name) {
            reasons.push(format!(
                "{} has already been fired on this phase",
                target.name
            ));
            continue;
        }
        match target_legal(state, side, &firer, target, o.secondary) {
            Ok(s) => {
                chosen = Some((target.clone(), s));
                break;
            }
            Err(e) => reasons.push(e),
        }
    }
    let Some((target, shot)) = chosen else {
        log(state, format!("{who} holds fire: {}.", reasons.join("; ")));
        return;
    };
    if !reasons.is_empty() {
        log(
            state,
            format!(
                "{who} shifts fire to {} ({}).",
                target.name,
                reasons.join("; ")
            ),
        );
    }

    // Supports (R4, R5): up to `max_supporters` legal ones, none at extreme range.
    let max = state.data.rules.max_supporters.get().round().max(0.0) as usize;
    let mut supporters: Vec<(Ship, bool)> = Vec::new();
    for s in &o.support {
        let Some(sup) = find_ship(state, s).cloned() else {
            log(state, format!("No ship named {s} can support."));
            continue;
        };
        if shot.band == Band::Extreme {
            log(
                state,
                format!("{} cannot support at extreme range.", sup.name),
            );
            continue;
        }
        if supporters.len() >= max {
            log(
                state,
                format!(
                    "{} cannot support: at most {max} ships may support.",
                    sup.name
                ),
            );
            continue;
        }
        if supporters.iter().any(|(x, _)| x.name == sup.name) {
            continue;
        }
        match support_legal(state, &sup, &firer, &target, o.secondary) {
            Ok(uses_secondary) => {
                let used = if uses_secondary {
                    &book.secondary_used
                } else {
                    &book.main_used
                };
                if used.contains(&sup.name) {
                    log(
                        state,
                        format!(
                            "{} has already fired or supported this phase.",
                            battery(&sup.name, uses_secondary)
                        ),
                    );
                } else {
                    supporters.push((sup, uses_secondary));
                }
            }
            Err(e) => log(state, format!("{} cannot support: {e}.", sup.name)),
        }
    }

    book.engaged.insert(target.name.clone());
    if o.secondary {
        book.secondary_used.insert(firer.name.clone());
    } else {
        book.main_used.insert(firer.name.clone());
    }
    for (s, sec) in &supporters {
        if *sec {
            book.secondary_used.insert(s.name.clone());
        } else {
            book.main_used.insert(s.name.clone());
        }
    }

    let sup_refs: Vec<&Ship> = supporters.iter().map(|(s, _)| s).collect();
    let mods = modifiers(state, &firer, &target, o.secondary, &sup_refs);
    let modifier: i32 = mods.iter().map(|(_, v)| v).sum();
    let att_cf = if o.secondary {
        secondary_cf(state, &firer).unwrap_or(0)
    } else {
        main_cf(state, &firer)
    };
    let def_cf = main_cf(state, &target);
    let faces = Faces::d(state.data.gunnery_die);
    let ad = dice.roll_one(
        format!("gunnery {}->{} attacker", firer.name, target.name),
        faces.clone(),
    );
    let dd = dice.roll_one(
        format!("gunnery {}->{} defender", firer.name, target.name),
        faces,
    );
    let at = attack_total(ad, att_cf, modifier);
    let dt = defence_total(dd, def_cf);
    let hits = resolve_attack(at, dt);
    let att_sum = match modifier {
        0 => format!("{ad}+{att_cf}={at}"),
        m if m > 0 => format!("{ad}+{att_cf}+{m}={at}"),
        m => format!("{ad}+{att_cf}{m}={at}"),
    };
    let result = match hits {
        0 => "no hits".to_string(),
        1 => "1 hit".to_string(),
        n => format!("{n} hits"),
    };
    let detail = if mods.is_empty() {
        String::new()
    } else {
        let parts: Vec<String> = mods.iter().map(|(l, v)| format!("{l} {v:+}")).collect();
        format!(" [{}]", parts.join(", "))
    };
    let extreme = if shot.band == Band::Extreme {
        ", extreme range"
    } else {
        ""
    };
    log(
        state,
        format!(
            "{who} ({att_sum}) fires on {} ({dd}+{def_cf}={dt}) at {}{extreme}: {result}.{detail}",
            target.name,
            inches(shot.range),
        ),
    );
    if hits > 0 {
        apply_hits(state, &target.name, hits, dice);
    }
}

/// A standing fire plan (R24): every ship able to fire engages the nearest legal target (capital
/// ships' main batteries prefer capital targets, leaving destroyers to the secondaries), with the
/// other legal targets as ELSE; FLAGSHIP puts the enemy flagship first. CA/BB secondaries then
/// engage the nearest destroyers. No supports.
pub fn standing_plan(state: &NavalState, side: &str, mode: StandingFire) -> Vec<FireOrder> {
    let mut mains = Vec::new();
    let mut secondaries = Vec::new();
    for firer in state.ships.iter().filter(|s| s.side == side && can_fire(s)) {
        let mut cands: Vec<(bool, bool, f64, &Ship)> = state
            .ships
            .iter()
            .filter_map(|t| {
                let s = target_legal(state, side, firer, t, false).ok()?;
                let flag_first = mode == StandingFire::Flagship && is_flagship(state, t);
                let small = has_secondary(firer) && t.class == ShipClass::DD;
                Some((!flag_first, small, s.range, t))
            })
            .collect();
        cands.sort_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)).then(a.2.total_cmp(&b.2)));
        if !cands.is_empty() {
            mains.push(FireOrder {
                ship: firer.name.clone(),
                secondary: false,
                targets: cands.iter().map(|c| c.3.name.clone()).collect(),
                support: vec![],
            });
        }
        if has_secondary(firer) {
            let mut dds: Vec<(f64, &Ship)> = state
                .ships
                .iter()
                .filter_map(|t| Some((target_legal(state, side, firer, t, true).ok()?.range, t)))
                .collect();
            dds.sort_by(|a, b| a.0.total_cmp(&b.0));
            if !dds.is_empty() {
                secondaries.push(FireOrder {
                    ship: firer.name.clone(),
                    secondary: true,
                    targets: dds.iter().map(|d| d.1.name.clone()).collect(),
                    support: vec![],
                });
            }
        }
    }
    mains.extend(secondaries);
    mains
}

/// Static check of one FIRE order when it is given (LOS, range and hit markers are judged when
/// she fires): own firer afloat, enemy targets not sunk, no self-support, at most
/// `max_supporters`, secondary batteries only on CA/BB and only at destroyers.
pub fn check_fire_order(state: &NavalState, side: &str, o: &FireOrder) -> Result<(), String> {
    let firer =
        find_ship(state, &o.ship).ok_or_else(|| format!("there is no ship named {}", o.ship))?;
    if firer.side != side {
        return Err(format!("{} is not one of your ships", firer.name));
    }
    match firer.fate {
        Fate::Afloat => {}
        Fate::Sunk => return Err(format!("{} has sunk", firer.name)),
        Fate::Struck => return Err(format!("{} has struck her colours", firer.name)),
        Fate::Escaped => return Err(format!("{} has left the table", firer.name)),
    }
    if o.secondary && !has_secondary(firer) {
        return Err(format!(
            "{} is a {}: only armoured cruisers and battleships have secondary batteries",
            firer.name,
            firer.class.abbr()
        ));
    }
    if o.targets.is_empty() {
        return Err(format!("{} has no target", firer.name));
    }
    for t in &o.targets {
        let target = find_ship(state, t).ok_or_else(|| format!("there is no ship named {t}"))?;
        if target.side == side {
            return Err(format!("{} is one of your own ships", target.name));
        }
        match target.fate {
            Fate::Afloat => {}
            Fate::Sunk => return Err(format!("{} has already sunk", target.name)),
            Fate::Struck => return Err(format!("{} has struck her colours", target.name)),
            Fate::Escaped => return Err(format!("{} has left the table", target.name)),
        }
        if o.secondary && target.class != ShipClass::DD {
            return Err(format!(
                "secondary batteries may fire only at destroyers, and {} is a {}",
                target.name,
                target.class.abbr()
            ));
        }
    }
    let max = state.data.rules.max_supporters.get().round().max(0.0) as usize;
    if o.support.len() > max {
        return Err(format!("at most {max} ships may support one attack"));
    }
    let mut seen = BTreeSet::new();
    for s in &o.support {
        let sup = find_ship(state, s).ok_or_else(|| format!("there is no ship named {s}"))?;
        if sup.name == firer.name {
            return Err(format!("{} cannot support her own attack", sup.name));
        }
        if sup.side != side {
            return Err(format!("{} is not one of your ships", sup.name));
        }
        if sup.fate != Fate::Afloat {
            return Err(format!(
                "{} is out of the fight and cannot support",
                sup.name
            ));
        }
        if !seen.insert(sup.name.clone()) {
            return Err(format!("{} is named twice as a supporter", sup.name));
        }
        if o.secondary && sup.class == ShipClass::CL {
            return Err(format!(
                "{} is a light cruiser: only secondary batteries and destroyers support a secondary battery",
                sup.name
            ));
        }
    }
    Ok(())
}

/// Whole-plan check: each ship may have one main-battery FIRE and (CA/BB) one SECONDARY FIRE.
/// Returns (index in the plan, reason) for every offending order.
pub fn check_fire_plan(state: &NavalState, side: &str, plan: &[FireOrder]) -> Vec<(usize, String)> {
    let mut bad = Vec::new();
    let mut seen = BTreeSet::new();
    for (i, o) in plan.iter().enumerate() {
        if let Err(e) = check_fire_order(state, side, o) {
            bad.push((i, e));
            continue;
        }
        let name = find_ship(state, &o.ship).map_or(o.ship.clone(), |s| s.name.clone());
        if !seen.insert((name.clone(), o.secondary)) {
            bad.push((
                i,
                format!("{} already has a fire order", battery(&name, o.secondary)),
            ));
        }
    }
    bad
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::naval_rjw::stats::ship_index;
    use crate::rulesets::naval_rjw::stats::test_support::{ship, two_sides};

    fn fire(ship: &str, targets: &[&str], support: &[&str]) -> FireOrder {
        FireOrder {
            ship: ship.into(),
            secondary: false,
            targets: targets.iter().map(|s| s.to_string()).collect(),
            support: support.iter().map(|s| s.to_string()).collect(),
        }
    }

    fn secondary(ship: &str, targets: &[&str]) -> FireOrder {
        FireOrder {
            secondary: true,
            ..fire(ship, targets, &[])
        }
    }

    fn get<'a>(s: &'a NavalState, n: &str) -> &'a Ship {
        find_ship(s, n).unwrap()
    }

    fn mods(s: &NavalState, f: &str, t: &str, sec: bool, sup: &[&str]) -> Vec<(String, i32)> {
        let sups: Vec<&Ship> = sup.iter().map(|n| get(s, n)).collect();
        modifiers(s, get(s, f), get(s, t), sec, &sups)
    }

    /// A seed whose first requests give these d6 values (one die each), then `no_double` 2d6
    /// requests without a double.
    fn seed_for(values: &[u32], no_double: usize) -> [u8; 32] {
        for k in 0u32..20_000 {
            let mut seed = [0u8; 32];
            seed[..4].copy_from_slice(&k.to_be_bytes());
            let ok = values.iter().enumerate().all(|(j, v)| {
                crate::dice::roll_stream(&seed, j as u64, &Faces::d(6), 1) == vec![*v]
            }) && (0..no_double).all(|i| {
                let r = crate::dice::roll_stream(&seed, (values.len() + i) as u64, &Faces::d(6), 2);
                r[0] != r[1]
            });
            if ok {
                return seed;
            }
        }
        panic!("no seed found");
    }

    #[test]
    fn ex1_worked_example() {
        // Pure: Russian BB (CF 4) rolls 4, Japanese CL (CF 2) rolls 3, no modifiers.
        let (a, d) = (attack_total(4, 4, 0), defence_total(3, 2));
        assert_eq!((a, d), (8, 5));
        assert_eq!(resolve_attack(a, d), 3);
        assert_eq!(resolve_attack(5, 5), 0);
        assert_eq!(resolve_attack(4, 6), 0);

        // Through the phase: Tsesarevich fires on Chitose ahead of her at 9.2".
        let j = ship("Chitose", "CL", 10.0, 20.0, 90.0);
        let r = ship("Tsesarevich", "BB", 10.0, 10.0, 0.0);
        let mut s = two_sides(&j, &r, "");
        assert!(mods(&s, "Tsesarevich", "Chitose", false, &[]).is_empty());
        let mut dice = Dice::new(seed_for(&[4, 3], 3));
        resolve_fire_phase(
            &mut s,
            "russia",
            &[fire("Tsesarevich", &["Chitose"], &[])],
            &mut dice,
        );
        let t = dice.table();
        assert_eq!(t[0].label, "gunnery Tsesarevich->Chitose attacker");
        assert_eq!(t[1].label, "gunnery Tsesarevich->Chitose defender");
        assert_eq!(t.len(), 5, "three critical rolls follow the three hits");
        assert_eq!(
            s.log[0].text,
            "Tsesarevich (4+4=8) fires on Chitose (3+2=5) at 9.2\": 3 hits."
        );
        assert_eq!(get(&s, "Chitose").hit_markers, 3);
    }

    /// DT-5: Mikasa broadside-on at 5" to Bayan, supported by Yakumo (CA) and Asahi (BB).
    fn dt5(extra: &str, bayan_x: f64) -> NavalState {
        let j = [
            ship("Mikasa", "BB", 10.0, 10.0, 0.0),
            ship("Yakumo", "CA", 10.0, 4.0, 0.0),
            ship("Asahi", "BB", 10.0, 16.0, 0.0),
        ]
        .concat();
        let r = ship("Bayan", "CA", bayan_x, 10.0, 0.0);
        two_sides(&j, &r, extra)
    }

    #[test]
    fn dt5_modifiers_total_six() {
        let s = dt5("", 15.0);
        let m = mods(&s, "Mikasa", "Bayan", false, &["Yakumo", "Asahi"]);
        let labels: Vec<&str> = m.iter().map(|(l, _)| l.as_str()).collect();
        assert_eq!(
            labels,
            [
                "capital-ship gunnery",
                "close range",
                "broadside",
                "support by Yakumo",
                "support by Asahi",
                "BB support by Asahi"
            ]
        );
        assert_eq!(m.iter().map(|x| x.1).sum::<i32>(), 6);
        // Both supporters are legal (LOS and within normal range).
        for sup in ["Yakumo", "Asahi"] {
            assert_eq!(
                support_legal(&s, get(&s, sup), get(&s, "Mikasa"), get(&s, "Bayan"), false),
                Ok(false)
            );
        }
        assert_eq!(
            target_legal(&s, "japan", get(&s, "Mikasa"), get(&s, "Bayan"), false)
                .unwrap()
                .band,
            Band::Close
        );
    }

    #[test]
    fn dt5_through_the_phase() {
        let mut s = dt5("", 15.0);
        let mut dice = Dice::new(seed_for(&[1, 6], 0));
        let plan = [fire("Mikasa", &["Bayan"], &["Yakumo", "Asahi"])];
        resolve_fire_phase(&mut s, "japan", &plan, &mut dice);
        // 1 + 4 + 6 = 11 against 6 + 3 = 9: 2 hits.
        assert_eq!(
            s.log[0].text,
            "Mikasa (1+4+6=11) fires on Bayan (6+3=9) at 5\": 2 hits. [capital-ship gunnery +1, \
             close range +1, broadside +1, support by Yakumo +1, support by Asahi +1, BB support by Asahi +1]"
        );
        assert_eq!(dice.table().len(), 4);
    }

    #[test]
    fn dt6_extreme_range() {
        // Bayan 20" off: beyond Mikasa's 18", inside her 30".
        let s = dt5("", 30.75);
        let sh = target_legal(&s, "japan", get(&s, "Mikasa"), get(&s, "Bayan"), false).unwrap();
        assert_eq!(sh.band, Band::Extreme);
        let m = mods(&s, "Mikasa", "Bayan", false, &["Yakumo", "Asahi"]);
        assert_eq!(
            m,
            vec![
                ("capital-ship gunnery".to_string(), 1),
                ("extreme range".to_string(), -2),
                ("broadside".to_string(), 1),
            ]
        );
        // Supporters may not support at extreme range (their own range is exceeded too).
        assert!(
            support_legal(
                &s,
                get(&s, "Asahi"),
                get(&s, "Mikasa"),
                get(&s, "Bayan"),
                false
            )
            .is_err()
        );
        for extra in ["limited_ammunition = true", "high_sea_state = true"] {
            let s = dt5(extra, 30.75);
            let e =
                target_legal(&s, "japan", get(&s, "Mikasa"), get(&s, "Bayan"), false).unwrap_err();
            assert!(e.contains("extreme range"), "{e}");
        }
        let s = dt5("", 45.0);
        assert!(
            target_legal(&s, "japan", get(&s, "Mikasa"), get(&s, "Bayan"), false)
                .unwrap_err()
                .contains("out of range")
        );
    }

    /// Mikasa at (10,10) heading north, Tsesarevich due north of her; a ship between them.
    fn los_state(between_class: &str, smoke: bool) -> NavalState {
        let j = [
            ship("Mikasa", "BB", 10.0, 10.0, 0.0),
            ship("Akatsuki", "DD", 10.0, 2.0, 0.0),
            ship("Ikazuchi", "DD", 10.0, 16.0, 90.0),
        ]
        .concat();
        let r = [
            ship("Tsesarevich", "BB", 10.0, 22.0, 0.0),
            ship("Between", between_class, 10.0, 16.0, 90.0),
        ]
        .concat();
        let mut s = two_sides(&j, &r, "");
        // Ikazuchi (own DD) sits exactly where the enemy ship lies: park her elsewhere.
        let i = ship_index(&s, "Ikazuchi").unwrap();
        s.ships[i].hull.centre = Pt::new(40.0, 40.0);
        let b = ship_index(&s, "Between").unwrap();
        s.ships[b].smoke = smoke;
        s
    }

    #[test]
    fn los_blocked_by_a_hull() {
        let s = los_state("CL", false);
        assert!(!has_los(&s, get(&s, "Mikasa"), get(&s, "Tsesarevich")));
        let e = target_legal(
            &s,
            "japan",
            get(&s, "Mikasa"),
            get(&s, "Tsesarevich"),
            false,
        )
        .unwrap_err();
        assert_eq!(e, "Mikasa has no line of sight to Tsesarevich");
        // Own line-mates block too (R22): an own BB across the line.
        let mut s = los_state("CL", false);
        let b = ship_index(&s, "Between").unwrap();
        s.ships[b].hull.centre = Pt::new(60.0, 40.0);
        assert!(has_los(&s, get(&s, "Mikasa"), get(&s, "Tsesarevich")));
        let i = ship_index(&s, "Ikazuchi").unwrap();
        s.ships[i].class = ShipClass::BB;
        s.ships[i].hull.centre = Pt::new(10.0, 16.0);
        assert!(!has_los(&s, get(&s, "Mikasa"), get(&s, "Tsesarevich")));
    }

    #[test]
    fn los_not_blocked_by_a_dd_unless_smoke() {
        let s = los_state("DD", false);
        assert!(has_los(&s, get(&s, "Mikasa"), get(&s, "Tsesarevich")));
        let s = los_state("DD", true);
        assert!(!has_los(&s, get(&s, "Mikasa"), get(&s, "Tsesarevich")));
        // A destroyer's own sight is blocked by any DD not of her flotilla.
        let mut s = los_state("DD", false);
        let a = ship_index(&s, "Akatsuki").unwrap();
        s.ships[a].hull.centre = Pt::new(10.0, 8.0);
        let m = ship_index(&s, "Mikasa").unwrap();
        s.ships[m].hull.centre = Pt::new(40.0, 8.0);
        assert!(!has_los(&s, get(&s, "Akatsuki"), get(&s, "Tsesarevich")));
    }

    #[test]
    fn flotilla_see_through() {
        let j = [
            ship("Akatsuki", "DD", 10.0, 10.0, 0.0),
            ship("Ikazuchi", "DD", 10.0, 12.0, 90.0),
            ship("Mikasa", "BB", 40.0, 40.0, 0.0),
        ]
        .concat();
        let r = ship("Burny", "DD", 10.0, 15.0, 0.0);
        let mut s = two_sides(&j, &r, "");
        assert!(!has_los(&s, get(&s, "Akatsuki"), get(&s, "Burny")));
        s.groups.push(super::super::state::Group {
            name: "1st Flotilla".into(),
            side: "japan".into(),
            ships: vec!["Akatsuki".into(), "Ikazuchi".into()],
            formation: Default::default(),
            flotilla: true,
        });
        assert!(has_los(&s, get(&s, "Akatsuki"), get(&s, "Burny")));
    }

    #[test]
    fn broadside_arc_in_and_out() {
        // Bayan abeam: broadside.
        let s = dt5("", 15.0);
        assert!(broadside(&s, get(&s, "Mikasa"), get(&s, "Bayan")));
        // Bayan dead ahead of Mikasa: no broadside.
        let j = ship("Mikasa", "BB", 10.0, 10.0, 0.0);
        let r = ship("Bayan", "CA", 10.0, 20.0, 90.0);
        let s = two_sides(&j, &r, "");
        assert!(!broadside(&s, get(&s, "Mikasa"), get(&s, "Bayan")));
        // Abeam but the stern-to-stern line is blocked by an own ship.
        let j = [
            ship("Mikasa", "BB", 10.0, 10.0, 0.0),
            ship("Fuji", "BB", 13.0, 9.0, 0.0),
        ]
        .concat();
        let r = ship("Bayan", "CA", 16.0, 10.0, 0.0);
        let s = two_sides(&j, &r, "");
        assert!(has_los(&s, get(&s, "Mikasa"), get(&s, "Bayan")));
        assert!(!broadside(&s, get(&s, "Mikasa"), get(&s, "Bayan")));
        // Destroyers never fire broadsides.
        let j = ship("Akatsuki", "DD", 10.0, 10.0, 0.0);
        let r = ship("Bayan", "CA", 14.0, 10.0, 0.0);
        let s = two_sides(&j, &r, "");
        assert!(!broadside(&s, get(&s, "Akatsuki"), get(&s, "Bayan")));
    }

    fn sec_state() -> NavalState {
        let j = [
            ship("Mikasa", "BB", 10.0, 10.0, 0.0),
            ship("Chitose", "CL", 20.0, 10.0, 0.0),
        ]
        .concat();
        let r = [
            ship("Burny", "DD", 10.0, 18.0, 90.0),
            ship("Tsesarevich", "BB", 30.0, 10.0, 0.0),
        ]
        .concat();
        two_sides(&j, &r, "")
    }

    #[test]
    fn secondary_battery_only_at_destroyers() {
        let s = sec_state();
        assert_eq!(
            check_fire_order(&s, "japan", &secondary("Mikasa", &["Burny"])),
            Ok(())
        );
        let e = check_fire_order(&s, "japan", &secondary("Mikasa", &["Tsesarevich"])).unwrap_err();
        assert_eq!(
            e,
            "secondary batteries may fire only at destroyers, and Tsesarevich is a BB"
        );
        let e = check_fire_order(&s, "japan", &secondary("Chitose", &["Burny"])).unwrap_err();
        assert!(e.contains("only armoured cruisers and battleships"), "{e}");
        // In addition to the main battery: main at Tsesarevich, secondary at Burny.
        let mut s = sec_state();
        let mut dice = Dice::new([9; 32]);
        resolve_fire_phase(
            &mut s,
            "japan",
            &[
                fire("Mikasa", &["Tsesarevich"], &[]),
                secondary("Mikasa", &["Burny"]),
            ],
            &mut dice,
        );
        let labels: Vec<&str> = dice.table().iter().map(|r| r.label.as_str()).collect();
        assert!(
            labels.contains(&"gunnery Mikasa->Tsesarevich attacker"),
            "{labels:?}"
        );
        assert!(
            labels.contains(&"gunnery Mikasa->Burny attacker"),
            "{labels:?}"
        );
        assert!(
            s.log
                .iter()
                .any(|l| l.text.starts_with("Mikasa's secondary battery ("))
        );
        // The secondary battery attacks with CF 2 and no broadside.
        let s = sec_state();
        assert!(
            mods(&s, "Mikasa", "Burny", true, &[])
                .iter()
                .all(|(l, _)| l != "broadside")
        );
    }

    #[test]
    fn one_attack_per_target_and_else_fall_through() {
        let j = [
            ship("Mikasa", "BB", 10.0, 10.0, 0.0),
            ship("Asahi", "BB", 10.0, 20.0, 0.0),
        ]
        .concat();
        let r = [
            ship("Tsesarevich", "BB", 25.0, 10.0, 0.0),
            ship("Retvizan", "BB", 25.0, 20.0, 0.0),
        ]
        .concat();
        let mut s = two_sides(&j, &r, "");
        let mut dice = Dice::new([5; 32]);
        resolve_fire_phase(
            &mut s,
            "japan",
            &[
                fire("Mikasa", &["Tsesarevich"], &[]),
                fire("Asahi", &["Tsesarevich", "Retvizan"], &[]),
            ],
            &mut dice,
        );
        let t = dice.table();
        assert_eq!(t[0].label, "gunnery Mikasa->Tsesarevich attacker");
        let asahi: Vec<&str> = t
            .iter()
            .map(|r| r.label.as_str())
            .filter(|l| l.starts_with("gunnery Asahi"))
            .collect();
        assert_eq!(
            asahi,
            [
                "gunnery Asahi->Retvizan attacker",
                "gunnery Asahi->Retvizan defender"
            ]
        );
        assert!(s.log.iter().any(|l| l.text
            == "Asahi shifts fire to Retvizan (Tsesarevich has already been fired on this phase)."));

        // Without an ELSE the second ship holds fire.
        let mut s = two_sides(&j, &r, "");
        let mut dice = Dice::new([5; 32]);
        resolve_fire_phase(
            &mut s,
            "japan",
            &[
                fire("Mikasa", &["Tsesarevich"], &[]),
                fire("Asahi", &["Tsesarevich"], &[]),
            ],
            &mut dice,
        );
        assert!(
            dice.table()
                .iter()
                .all(|r| !r.label.starts_with("gunnery Asahi"))
        );
        assert!(s.log.iter().any(
            |l| l.text == "Asahi holds fire: Tsesarevich has already been fired on this phase."
        ));
    }

    #[test]
    fn hit_marked_ship_cannot_fire_or_support() {
        let mut s = dt5("", 15.0);
        let m = ship_index(&s, "Mikasa").unwrap();
        s.ships[m].hit_markers = 1;
        let mut dice = Dice::new([2; 32]);
        resolve_fire_phase(
            &mut s,
            "japan",
            &[fire("Mikasa", &["Bayan"], &[])],
            &mut dice,
        );
        assert!(dice.table().is_empty());
        assert_eq!(s.log[0].text, "Mikasa has a hit marker and cannot fire.");
        // As a supporter she is refused and the attack goes on without her.
        let e = support_legal(
            &s,
            get(&s, "Mikasa"),
            get(&s, "Asahi"),
            get(&s, "Bayan"),
            false,
        )
        .unwrap_err();
        assert_eq!(e, "Mikasa has a hit marker and cannot fire");
        let mut dice = Dice::new([2; 32]);
        s.log.clear();
        resolve_fire_phase(
            &mut s,
            "japan",
            &[fire("Asahi", &["Bayan"], &["Mikasa"])],
            &mut dice,
        );
        assert_eq!(
            s.log[0].text,
            "Mikasa cannot support: Mikasa has a hit marker and cannot fire."
        );
        assert_eq!(dice.table()[0].label, "gunnery Asahi->Bayan attacker");
    }

    #[test]
    fn supporters_are_used_up() {
        let mut s = dt5("", 15.0);
        let mut dice = Dice::new([4; 32]);
        let plan = [
            fire("Mikasa", &["Bayan"], &["Asahi"]),
            fire("Asahi", &["Bayan"], &[]),
        ];
        resolve_fire_phase(&mut s, "japan", &plan, &mut dice);
        assert!(
            s.log
                .iter()
                .any(|l| l.text == "Asahi has already fired or supported this phase.")
        );
    }

    #[test]
    fn dd_against_a_stationary_target() {
        let j = ship("Akatsuki", "DD", 10.0, 10.0, 0.0);
        let r = ship("Bayan", "CA", 14.0, 10.0, 0.0);
        let mut s = two_sides(&j, &r, "");
        assert_eq!(
            mods(&s, "Akatsuki", "Bayan", false, &[]),
            vec![("close range".to_string(), 1)]
        );
        let b = ship_index(&s, "Bayan").unwrap();
        s.ships[b].moved = false;
        assert_eq!(
            attack_modifier(&s, get(&s, "Akatsuki"), get(&s, "Bayan"), false, &[]),
            3
        );
    }

    #[test]
    fn static_checks() {
        let s = dt5("", 15.0);
        let ok = fire("Mikasa", &["Bayan"], &["Asahi", "Yakumo"]);
        assert_eq!(check_fire_order(&s, "japan", &ok), Ok(()));
        let e = |o: FireOrder| check_fire_order(&s, "japan", &o).unwrap_err();
        assert_eq!(
            e(fire("Bayan", &["Mikasa"], &[])),
            "Bayan is not one of your ships"
        );
        assert_eq!(
            e(fire("Mikasa", &["Asahi"], &[])),
            "Asahi is one of your own ships"
        );
        assert_eq!(
            e(fire("Mikasa", &["Bayan"], &["Mikasa"])),
            "Mikasa cannot support her own attack"
        );
        assert_eq!(
            e(fire("Mikasa", &["Bayan"], &["Bayan"])),
            "Bayan is not one of your ships"
        );
        assert_eq!(
            e(fire("Mikasa", &["Bayan"], &["Asahi", "Yakumo", "Asahi"])),
            "at most 2 ships may support one attack"
        );
        assert_eq!(
            e(fire("Mikasa", &["Bayan"], &["Asahi", "Asahi"])),
            "Asahi is named twice as a supporter"
        );
        assert_eq!(e(fire("Mikasa", &[], &[])), "Mikasa has no target");
        let plan = [
            fire("Mikasa", &["Bayan"], &[]),
            fire("Mikasa", &["Bayan"], &[]),
        ];
        assert_eq!(
            check_fire_plan(&s, "japan", &plan),
            vec![(1, "Mikasa already has a fire order".to_string())]
        );
    }

    #[test]
    fn standing_plans() {
        let j = [
            ship("Mikasa", "BB", 10.0, 10.0, 0.0),
            ship("Akatsuki", "DD", 40.0, 30.0, 0.0),
        ]
        .concat();
        let r = [
            ship("Tsesarevich", "BB", 10.0, 26.0, 90.0),
            ship("Retvizan", "BB", 20.0, 10.0, 0.0),
            ship("Burny", "DD", 13.0, 12.0, 0.0),
        ]
        .concat();
        let s = two_sides(&j, &r, "");
        let p = standing_plan(&s, "japan", StandingFire::Nearest);
        assert_eq!(p.len(), 2, "{p:?}");
        assert_eq!(p[0].ship, "Mikasa");
        // Capital targets first (nearest first), then the DD.
        assert_eq!(p[0].targets, ["Retvizan", "Tsesarevich", "Burny"]);
        assert!(p[1].secondary && p[1].targets == ["Burny"]);
        let p = standing_plan(&s, "japan", StandingFire::Flagship);
        assert_eq!(p[0].targets, ["Tsesarevich", "Retvizan", "Burny"]);
        // Akatsuki has nothing within 9" and is given no order.
        assert!(p.iter().all(|o| o.ship != "Akatsuki"));
        for o in &p {
            assert_eq!(check_fire_order(&s, "japan", o), Ok(()));
        }
    }
}
