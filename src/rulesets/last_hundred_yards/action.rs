//! One unit's (or one stack's) action, checked and carried out: maneuver, withdrawal, fire,
//! mortar fire, Shoot & Scoot, Halt & Fire, assault, recovery, deploy, mount and dismount.
//! Whether the unit may act *now* (activation membership, reaction eligibility) is decided by
//! `turn` and `reaction`; this file knows only what the action itself requires (§9–10, §11
//! bridge). It returns the records the enemy may react to and never changes the phase.

use crate::board::hex::Hex;
use crate::dice::Dice;
use crate::engine::LogLine;
use crate::rulesets::kit::roster::Roster;

use super::concealment;
use super::data::Kind;
use super::state::{Action, Done, LhyState, Motion, Record, Target, Unit};
use super::{assault, fire, maneuver, platoon, resolution, vehicle, withdraw};

fn own<'a>(s: &'a LhyState, side: &str, name: &str) -> Result<&'a Unit, String> {
    let u = s
        .unit(name)
        .filter(|u| u.side == side)
        .ok_or_else(|| format!("{name} is not one of your units"))?;
    if !u.on_map() {
        return Err(format!("{name} is not on the map"));
    }
    // §9.0: one action per unit per game turn.
    if u.acted() {
        return Err(format!("{name} has already acted this game turn (§9.0)"));
    }
    Ok(u)
}

/// Checks an action against the map as it stands (every unit named is `side`'s, on the map,
/// and has not acted).
pub fn check(s: &LhyState, side: &str, a: &Action, reacting: bool) -> Result<(), String> {
    let units: Vec<&Unit> = a
        .units()
        .iter()
        .map(|n| own(s, side, n))
        .collect::<Result<_, _>>()?;
    let first = units[0];
    match a {
        Action::Move {
            path,
            reverse,
            stop,
            exit,
            overrun,
            ..
        } => {
            if units.iter().any(|u| u.at != first.at) {
                return Err("units moving together start in one hex".into());
            }
            if units.iter().any(|u| u.dummy()) && units.iter().any(|u| !u.dummy()) {
                return Err("a dummy moves alone".into());
            }
            for u in &units {
                maneuver::plan(s, u, path, *reverse, *stop, *exit, *overrun, reacting)?;
                if let Some(h) = overrun {
                    vehicle::check_overrun(s, u, *h, path)?;
                }
            }
            Ok(())
        }
        Action::Withdraw { path, exit, .. } => withdraw::check(s, side, &units, path, *exit),
        Action::Fire {
            target, mode, from, ..
        } => {
            let at = match from.as_slice() {
                [] => first.at,
                hexes => {
                    // §8.3e/§11.5.2 (R12): a LATW may maneuver a little, then fire.
                    if first.kind != Kind::Latw {
                        return Err("only LATW sections maneuver before they fire (FROM)".into());
                    }
                    let max = s.data.rules.latw_hexes.int().max(0) as usize;
                    if hexes.len() > max {
                        return Err(format!(
                            "a LATW moves at most {max} hex(es) before it fires"
                        ));
                    }
                    maneuver::plan(s, first, hexes, false, false, false, None, reacting)?;
                    *hexes.last().expect("not empty")
                }
            };
            fire::can_fire(s, first, at, false)?;
            vehicle::shot(s, first, at, target, *mode, 0)?;
            Ok(())
        }
        Action::Mortar { hex, .. } => {
            fire::can_fire(s, first, first.at, false)?;
            if first.kind != Kind::Mortar {
                return Err(format!("{} is not a mortar", first.name));
            }
            fire::mortar(s, first, *hex).map(|_| ())
        }
        Action::Scoot { target, to, .. } => vehicle::check_scoot(s, first, target, *to),
        Action::Halt { to, target, .. } => vehicle::check_halt(s, first, *to, target, reacting),
        Action::Assault { hex, .. } => assault::check(s, &units, *hex),
        Action::Recover { .. } => {
            if first.dummy() {
                return Err(format!("{} is a dummy", first.name));
            }
            Ok(())
        }
        Action::Deploy { .. } => platoon::check_deploy(s, first),
        Action::Mount { vehicle: v, .. } => {
            let veh = s
                .unit(v)
                .filter(|x| x.side == side && x.on_map())
                .ok_or_else(|| format!("{v} is not one of your vehicles"))?;
            if veh.at != first.at {
                return Err(format!("{} and {v} are not in one hex", first.name));
            }
            maneuver::check_mount(s, first, veh)
        }
        Action::Dismount { .. } => {
            if first.aboard.is_none() {
                return Err(format!("{} is not aboard a vehicle", first.name));
            }
            Ok(())
        }
    }
}

fn mark(s: &mut LhyState, names: &[String], done: Done) {
    for n in names {
        if let Some(x) = s.unit_mut(n) {
            x.done.get_or_insert(done);
        }
    }
}

fn fired(
    s: &mut LhyState,
    name: &str,
    target: &Target,
    from: Hex,
    mode: Option<super::state::Mode>,
    extra: i32,
) {
    let Some(u) = s.unit(name).cloned() else {
        return;
    };
    match vehicle::shot(s, &u, from, target, mode, extra) {
        Ok(Some(shot)) => {
            let drm = shot.drm;
            let kind = shot.kind;
            let hex = shot.hex;
            fire::place(s, shot, name, &u.side, false);
            let shown = !u.concealed && !u.hidden;
            let who = if shown {
                name.to_string()
            } else {
                format!("a unit concealed in {}", s.name_of(from))
            };
            s.public(format!(
                "{who} fires: {} {} on {}.",
                kind.marker(),
                fire::signed(drm),
                s.name_of(hex)
            ));
        }
        Ok(None) => {
            s.public(format!(
                "Fire at the Concealment marker in {} finds no such unit there.",
                match target {
                    Target::Hidden(h, _) | Target::Hex(h) => s.name_of(*h),
                    Target::Unit(n) => n.clone(),
                }
            ));
        }
        Err(e) => s.private(&u.side, format!("{name} could not fire: {e}")),
    }
    concealment::after_action(s, name);
}

/// Does every enemy see unit `n` as itself (on the map, neither hidden nor concealed), so
/// that a line about it is everyone's?
pub fn seen_as_itself(s: &LhyState, n: &str) -> bool {
    s.unit(n)
        .is_some_and(|x| x.on_map() && !x.hidden && !x.concealed)
}

/// What a maneuver showed: the enemy reads the units it now sees by name and a Concealment
/// marker for concealed ones (hidden ones, nothing: R20); the owner reads every name. So a
/// call for Reaction says what the player is asked to answer.
fn tell_move(
    s: &mut LhyState,
    side: &str,
    names: &[String],
    from: Option<Hex>,
    entered: &[Hex],
    verb: &str,
) {
    let (Some(from), false) = (from, entered.is_empty()) else {
        return;
    };
    let all: Vec<String> = entered.iter().map(|h| s.name_of(*h)).collect();
    s.private(
        side,
        format!(
            "(Yours: {} {verb} from {} to {}.)",
            names.join(", "),
            s.name_of(from),
            all.join(" ")
        ),
    );
    let units: Vec<&super::state::Unit> = names
        .iter()
        .filter_map(|n| s.unit(n))
        .filter(|u| !u.dummy())
        .collect();
    let seen: Vec<String> = units
        .iter()
        .filter(|u| !u.hidden && !u.concealed)
        .map(|u| u.name.clone())
        .collect();
    let marker = units.iter().any(|u| !u.hidden && u.concealed);
    // Each enemy is told the move as his own map shows it: hexes none of his units sees are
    // "out of sight", and a move wholly out of his sight is not told at all.
    let enemies: Vec<String> = s
        .sides
        .iter()
        .filter(|x| x.id != side)
        .map(|x| x.id.clone())
        .collect();
    // A spectator sees what every seat may see: with one enemy that is the enemy's telling
    // (the owner sees it all); with more, what each saw differs, so spectators get none of it.
    let spectators = enemies.len() == 1;
    for enemy in enemies {
        let Some(route) = route_as_seen(s, &enemy, from, entered) else {
            continue;
        };
        let mut lines = Vec::new();
        if !seen.is_empty() {
            lines.push(format!("{} {verb} {route}.", seen.join(", ")));
        }
        if marker {
            lines.push(format!("A Concealment marker {verb} {route}."));
        }
        for text in lines {
            let line = LogLine::private(&enemy, text);
            s.push(if spectators {
                line.and_spectators()
            } else {
                line
            });
        }
    }
}

/// `from 0603 to 0604 0605`, with every hex `side` does not see written "(out of sight)"
/// (runs of them once); `None` when it sees none of them.
fn route_as_seen(s: &LhyState, side: &str, from: Hex, entered: &[Hex]) -> Option<String> {
    let unseen = super::sight::unseen_by(s, side);
    let word = |h: Hex| (!unseen.contains(&h)).then(|| s.name_of(h));
    if word(from).is_none() && entered.iter().all(|h| word(*h).is_none()) {
        return None;
    }
    let mut to: Vec<String> = Vec::new();
    for h in entered {
        let w = word(*h).unwrap_or_else(|| "(out of sight)".into());
        if !(w.starts_with('(') && to.last() == Some(&w)) {
            to.push(w);
        }
    }
    Some(format!(
        "from {} to {}",
        word(from).unwrap_or_else(|| "(out of sight)".into()),
        to.join(" ")
    ))
}

/// Carries out a checked action; returns what the enemy may react to (§8.1). Each kind of
/// action is its own step; those that move say where each unit went, the rest where it
/// stands.
pub fn perform(s: &mut LhyState, side: &str, a: &Action, dice: &mut Dice) -> Vec<Record> {
    let names = a.units();
    let start: Vec<Hex> = names
        .iter()
        .filter_map(|n| s.unit(n))
        .map(|u| u.at)
        .collect();
    let done = match a {
        Action::Move {
            path,
            reverse,
            stop,
            exit,
            overrun,
            ..
        } => {
            mark(s, &names, Done::Maneuver);
            let entered = maneuver::do_move(
                s, side, &names, path, *reverse, *stop, *exit, *overrun, dice,
            );
            tell_move(s, side, &names, start.first().copied(), &entered, "moves");
            if overrun.is_some() {
                mark_overran(s, &names);
            }
            return moved_records(s, &names, &entered);
        }
        Action::Withdraw { path, exit, .. } => {
            return withdrawal(s, side, &names, &start, path, *exit, dice);
        }
        Action::Fire {
            unit,
            target,
            mode,
            from,
        } => {
            mark(s, &names, Done::Fire);
            let at = fire_from(s, side, &names, start[0], from, dice);
            fired(s, unit, target, at, *mode, 0);
            Done::Fire
        }
        Action::Mortar { unit, hex, smoke } => {
            mark(s, &names, Done::Fire);
            mortar_fire(s, side, unit, *hex, *smoke);
            Done::Fire
        }
        Action::Scoot { unit, target, to } => {
            mark(s, &names, Done::Maneuver);
            shoot_and_scoot(s, unit, &names, target, *to, start[0]);
            Done::Maneuver
        }
        Action::Halt { unit, to, target } => {
            mark(s, &names, Done::Maneuver);
            halt_and_fire(s, unit, &names, target, *to, start[0]);
            Done::Maneuver
        }
        Action::Assault { hex, feint, .. } => {
            assault::arrow(s, side, &names, *hex, *feint);
            return names
                .iter()
                .map(|n| maneuver::record(s, n, Done::Assault, vec![start[0], *hex]))
                .collect();
        }
        Action::Recover { unit } => {
            resolution::recover(s, unit, dice);
            mark(s, &names, Done::Recover);
            Done::Recover
        }
        Action::Deploy { unit } => return deploy(s, unit, start[0], dice),
        Action::Mount { unit, vehicle: v } => {
            mount(s, side, unit, v);
            Done::Maneuver
        }
        Action::Dismount { unit } => {
            dismount(s, side, unit);
            Done::Maneuver
        }
    };
    names
        .iter()
        .map(|n| {
            let at = s.unit(n).map_or(start[0], |u| u.at);
            maneuver::record(s, n, done, vec![at])
        })
        .collect()
}

/// A maneuver's records: every unit entered the same hexes.
fn moved_records(s: &LhyState, names: &[String], entered: &[Hex]) -> Vec<Record> {
    names
        .iter()
        .map(|n| maneuver::record(s, n, Done::Maneuver, entered.to_vec()))
        .collect()
}

/// The units of an overrun are marked as having overrun this turn (§10.4.5c: once a turn).
fn mark_overran(s: &mut LhyState, names: &[String]) {
    for n in names {
        if let Some(x) = s.unit_mut(n) {
            x.overran = true;
        }
    }
}

/// A platoon deploys into its sections, each marked as having maneuvered where the platoon
/// stood.
fn deploy(s: &mut LhyState, unit: &str, at: Hex, dice: &mut Dice) -> Vec<Record> {
    let sections = platoon::do_deploy(s, unit, dice);
    mark(s, &sections, Done::Maneuver);
    sections
        .iter()
        .map(|n| maneuver::record(s, n, Done::Maneuver, vec![at]))
        .collect()
}

/// A withdrawal along its written path, or (none written) the way back the rules find.
fn withdrawal(
    s: &mut LhyState,
    side: &str,
    names: &[String],
    start: &[Hex],
    path: &[Hex],
    exit: bool,
    dice: &mut Dice,
) -> Vec<Record> {
    mark(s, names, Done::Maneuver);
    let (path, exit) = if path.is_empty() {
        withdraw::auto_path(s, side, start[0])
    } else {
        (path.to_vec(), exit)
    };
    let entered = withdraw::run(s, side, names, &path, exit, dice);
    tell_move(
        s,
        side,
        names,
        start.first().copied(),
        &entered,
        "withdraws",
    );
    moved_records(s, names, &entered)
}

/// §8.3e: where the unit fires from, a LATW maneuvering along `from` first.
fn fire_from(
    s: &mut LhyState,
    side: &str,
    names: &[String],
    start: Hex,
    from: &[Hex],
    dice: &mut Dice,
) -> Hex {
    if from.is_empty() {
        start
    } else {
        maneuver::do_move(s, side, names, from, false, false, false, None, dice);
        s.unit(&names[0]).map_or(start, |u| u.at)
    }
}

/// Mortar fire on a hex: MDRM markers, or with SMOKE a Smoke marker and no attack (R35).
fn mortar_fire(s: &mut LhyState, side: &str, unit: &str, hex: Hex, smoke: bool) {
    if let Some(u) = s.unit(unit).cloned()
        && let Ok(shots) = fire::mortar(s, &u, hex)
    {
        if smoke {
            // R35: a Smoke marker on the impact hex, no attack (§4.2.4 hindrance).
            if !s.smoke.iter().any(|(h, _)| *h == hex) {
                s.smoke.push((hex, side.to_string()));
            }
            s.public(format!(
                "Mortar smoke lands on {} (Smoke marker).",
                s.name_of(hex)
            ));
        } else {
            for (i, shot) in shots.into_iter().enumerate() {
                fire::place(s, shot, unit, side, i > 0);
            }
            s.public(format!(
                "Mortar fire lands on {} (MDRM markers).",
                s.name_of(hex)
            ));
        }
    }
    concealment::after_action(s, unit);
}

/// §10.4.2 Shoot & Scoot: fire from where it stands at the moving-fire DRM, motion green,
/// then a step into the next hex if ordered.
fn shoot_and_scoot(
    s: &mut LhyState,
    unit: &str,
    names: &[String],
    target: &Target,
    to: Option<Hex>,
    start: Hex,
) {
    let extra = s.data.rules.moving_fire_drm.int();
    fired(s, unit, target, start, None, extra);
    if let Some(x) = s.unit_mut(unit) {
        x.motion = Motion::Green;
        x.started = true;
    }
    if let Some(h) = to {
        maneuver::step_into(s, names, h);
        concealment::after_action(s, unit);
        concealment::after_enemy_move(s, unit);
    }
}

/// §10.4.3 Halt & Fire: its DRM judged before moving, a step into the next hex if ordered,
/// motion red and stopped, then fire from where it halted.
fn halt_and_fire(
    s: &mut LhyState,
    unit: &str,
    names: &[String],
    target: &Target,
    to: Option<Hex>,
    start: Hex,
) {
    let reacting = s.turn.cycle.as_ref().is_some_and(|c| c.calls > 0);
    let extra = s
        .unit(unit)
        .cloned()
        .map_or(0, |u| vehicle::halt_drm(s, &u, target, reacting));
    if let Some(h) = to {
        maneuver::step_into(s, names, h);
        concealment::after_action(s, unit);
        concealment::after_enemy_move(s, unit);
    }
    if let Some(x) = s.unit_mut(unit) {
        x.motion = Motion::Red;
        x.stopped = true;
    }
    let at = s.unit(unit).map_or(start, |u| u.at);
    fired(s, unit, target, at, None, extra);
}

/// A unit climbs into a vehicle. The enemy watches a unit it sees climb into a vehicle it
/// sees (and so may a spectator); either one concealed, the line is the owner's alone.
fn mount(s: &mut LhyState, side: &str, unit: &str, v: &str) {
    if let Some(x) = s.unit_mut(unit) {
        x.aboard = Some(v.to_string());
        x.done = Some(Done::Maneuver);
    }
    let text = format!("{unit} mounts {v}.");
    if seen_as_itself(s, unit) && seen_as_itself(s, v) {
        s.public(text);
    } else {
        s.private(side, text);
    }
}

/// A unit climbs out, told to all only if it is seen as itself.
fn dismount(s: &mut LhyState, side: &str, unit: &str) {
    if let Some(x) = s.unit_mut(unit) {
        x.aboard = None;
        x.done = Some(Done::Maneuver);
    }
    let text = format!("{unit} dismounts.");
    if seen_as_itself(s, unit) {
        s.public(text);
    } else {
        s.private(side, text);
    }
}
