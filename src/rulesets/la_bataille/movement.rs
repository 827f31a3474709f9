//! Units moving in the stand-in base game: ordered moves (resumable, because infantry may try
//! to form square while cavalry moves, p.6), changes of formation and facing, opportunity
//! fire, rout and retreat movement and square attempts. Rolls only through the
//! `Roller`; every choice a player makes comes through `decide`.

use crate::board::hex::{Hex, HexDir};
use crate::rulesets::kit::roster::{Roster, TwoSides};

use super::combat::{self, join};
use super::data::Arm;
use super::decide::Flow;
use super::field;
use super::roll::Roller;
pub use super::square::{square_attempt, square_triggers};
use super::state::{AssaultDecl, Cohesion, Formation, LbState, MoveRun, Unit};

/// Why a move may not be made now, or its MP cost. `assault`: the approach of an assault,
/// which may step from one enemy Zone of Influence into another (R5).
pub fn check_move(st: &LbState, name: &str, path: &[Hex], assault: bool) -> Result<u32, String> {
    let u = st.unit(name).ok_or_else(|| format!("no unit {name}"))?;
    if !u.alive() {
        return Err(format!("{name} has been eliminated"));
    }
    if u.routed() {
        return Err(format!("{name} is routed (PGD) and cannot be ordered"));
    }
    if u.firefight {
        return Err(format!("{name} is locked in a firefight"));
    }
    if u.formation.is_square() {
        return Err(format!(
            "{name} is in square: FORM it into line or column first"
        ));
    }
    if u.formation == Formation::Unlimbered {
        return Err(format!("{name} is unlimbered: FORM it LIMBERED first"));
    }
    let mut at = u.hex;
    let mut cost = 0;
    let mut in_zoi = field::enemy_zoi(st, &u.side, at);
    for (i, h) in path.iter().enumerate() {
        if at.distance(*h) != 1 {
            // Newcomers write only the last hex; say how a path is written.
            return Err(format!(
                "{} is not next to {}: name every hex in turn, starting next to {name} in {}",
                st.label(*h),
                st.label(at),
                st.label(u.hex)
            ));
        }
        let c = field::move_cost(st, u, *h)
            .ok_or_else(|| format!("{name} may not enter {}", st.label(*h)))?;
        cost += c;
        let zoi = field::enemy_zoi(st, &u.side, *h);
        if zoi && in_zoi && !assault {
            return Err(format!(
                "{name} may not move from one enemy Zone of Influence into another ({})",
                st.label(*h)
            ));
        }
        if zoi && i + 1 < path.len() {
            return Err(format!(
                "{} is in an enemy Zone of Influence: the move must stop there",
                st.label(*h)
            ));
        }
        in_zoi = zoi;
        at = *h;
    }
    let left = field::mp_left(st, u);
    if cost > left {
        return Err(format!("{name} needs {cost} MP and has {left} left"));
    }
    Ok(cost)
}

/// Does the move end in a hex the unit may stand in (friendly skirmishers displaced by the
/// Pas de Charge aside)?
pub fn check_end(st: &LbState, name: &str, end: Hex, pas_de_charge: bool) -> Result<(), String> {
    let u = st.unit(name).ok_or_else(|| format!("no unit {name}"))?;
    let mut probe = st.clone();
    if pas_de_charge {
        for s in probe.units.iter_mut() {
            if s.hex == end && s.side == u.side && s.formation == Formation::Skirmish {
                s.eliminated = true;
            }
        }
    }
    let me = probe.unit(name).cloned().expect("exists");
    if !field::room_for(&probe, end, &[&me]) {
        return Err(format!(
            "{} has no room for {name} (stacking: {} units, cavalry apart)",
            st.label(end),
            st.data.rules.stack_limit.int()
        ));
    }
    Ok(())
}

/// Formation changes: MP, and what each arm may take up.
pub fn form(st: &mut LbState, name: &str, f: Formation) -> Result<(), String> {
    let u = st
        .unit(name)
        .ok_or_else(|| format!("no unit {name}"))?
        .clone();
    if !u.fighting() {
        return Err(format!("{name} is routed (PGD)"));
    }
    if u.firefight {
        return Err(format!("{name} is locked in a firefight"));
    }
    if u.formation == f {
        return Err(format!("{name} is already in {}", f.word()));
    }
    let ok = match u.arm {
        Arm::Infantry => !matches!(f, Formation::Limbered | Formation::Unlimbered),
        Arm::Cavalry => match f {
            Formation::Line | Formation::Column => true,
            Formation::Skirmish => st.data.class(&u.class).is_some_and(|c| c.light),
            _ => false,
        },
        Arm::Artillery => matches!(f, Formation::Limbered | Formation::Unlimbered),
    };
    if !ok {
        return Err(format!("{} cannot take up {}", name, f.word()));
    }
    if f == Formation::RallyingSquare {
        return Err("a rallying square is only formed against cavalry".into());
    }
    if f == Formation::Line && u.cohesion == Cohesion::Disordered {
        return Err(format!("{name} is Disordered and cannot form line"));
    }
    let cost = st.data.rules.form_cost.int().max(0) as u32;
    let left = field::mp_left(st, &u);
    if cost > left {
        return Err(format!(
            "{name} needs {cost} MP to change formation and has {left}"
        ));
    }
    let u = st.unit_mut(name).expect("exists");
    u.formation = f;
    u.mp_spent += cost;
    Ok(())
}

/// MP a change of facing by `turns` hexsides costs `u` (free in column, skirmish and square).
pub fn face_cost(st: &LbState, u: &Unit, turns: u32) -> u32 {
    match u.formation {
        Formation::Line | Formation::Unlimbered | Formation::Limbered => {
            turns * st.data.rules.face_cost.int().max(0) as u32
        }
        _ => 0,
    }
}

fn turns_between(a: HexDir, b: HexDir) -> u32 {
    let d = (b.index() as i32 - a.index() as i32).rem_euclid(6);
    d.min(6 - d) as u32
}

pub fn face(st: &mut LbState, name: &str, d: HexDir) -> Result<(), String> {
    let u = st
        .unit(name)
        .ok_or_else(|| format!("no unit {name}"))?
        .clone();
    if !u.fighting() {
        return Err(format!("{name} is routed (PGD)"));
    }
    if u.firefight {
        return Err(format!("{name} is locked in a firefight"));
    }
    let cost = face_cost(st, &u, turns_between(u.facing, d));
    if cost > field::mp_left(st, &u) {
        return Err(format!("{name} needs {cost} MP to change facing"));
    }
    let u = st.unit_mut(name).expect("exists");
    u.facing = d;
    u.mp_spent += cost;
    Ok(())
}

/// Units of `side` engaged in an assault now (attacking, or in a target hex).
pub fn engaged(st: &LbState, u: &Unit) -> bool {
    st.assaults
        .iter()
        .any(|a| a.units.contains(&u.name) || a.targets.contains(&u.hex))
}

/// Can `u` fire at `target` now (range, front, sight, formation, ammunition)?
pub fn may_fire(st: &LbState, u: &Unit, target: Hex, reach: Option<u32>) -> bool {
    let Some(class) = st.data.class(&u.class) else {
        return false;
    };
    let range = reach
        .unwrap_or(u32::MAX)
        .min(class.range.int().max(0) as u32);
    u.fighting()
        && u.arm != Arm::Cavalry
        && class.fire.get() > 0.0
        && u.formation != Formation::Limbered
        && u.ammo != Some(0)
        && !u.fired
        && !u.firefight
        && u.hex.distance(target) <= range
        && field::faces(st, u, target)
        && field::sight(st, u.hex, target)
}

/// Spends a round of ammunition of each artillery unit among `firers`.
pub fn spend_ammo(st: &mut LbState, firers: &[String]) {
    for n in firers {
        if let Some(u) = st.unit_mut(n) {
            u.fired = true;
            if let Some(a) = u.ammo.as_mut() {
                *a = a.saturating_sub(1);
            }
        }
    }
}

/// Opportunity fire at `movers`, which have just entered `h` (R17): every enemy stack that
/// may fire at the hex within the opportunity range does, once a player turn. Casualties cost
/// a morale check. Returns the movers that routed.
pub fn opportunity(st: &mut LbState, r: &mut dyn Roller, movers: &[String], h: Hex) -> Vec<String> {
    let Some(side) = movers
        .first()
        .and_then(|m| st.unit(m))
        .map(|u| u.side.clone())
    else {
        return vec![];
    };
    let enemy = st.enemy_of(&side).unwrap_or_default().to_string();
    if st.standing(&enemy).no_opportunity_fire {
        return vec![];
    }
    let reach = st.data.rules.opportunity_range.int().max(0) as u32;
    let mut hexes: Vec<Hex> = st
        .units
        .iter()
        .filter(|u| u.side == enemy && !engaged(st, u) && may_fire(st, u, h, Some(reach)))
        .map(|u| u.hex)
        .collect();
    hexes.dedup();
    let mut routed = Vec::new();
    for from in hexes {
        let live: Vec<String> = movers
            .iter()
            .filter(|m| st.unit(m).is_some_and(|u| u.fighting() && u.hex == h))
            .cloned()
            .collect();
        if live.is_empty() {
            break;
        }
        let firers: Vec<String> = st
            .at(from)
            .into_iter()
            .filter(|u| u.side == enemy && !engaged(st, u) && may_fire(st, u, h, Some(reach)))
            .map(|u| u.name.clone())
            .collect();
        if firers.is_empty() {
            continue;
        }
        let canister = from.distance(h) == 1
            && firers
                .iter()
                .any(|f| st.unit(f).is_some_and(|u| u.arm == Arm::Artillery));
        let label = format!(
            "Opportunity fire by {} at {} in {}",
            join(&firers),
            join(&live),
            st.label(h)
        );
        let n = combat::fire(st, r, label, &firers, h, 1, canister);
        spend_ammo(st, &firers);
        if n == 0 {
            continue;
        }
        combat::take_losses(st, &live, n);
        routed.extend(fire_morale(st, r, &live));
    }
    routed
}

/// The morale check of a stack that took casualties from fire outside an assault (R18);
/// a rout is moved at once.
pub fn fire_morale(st: &mut LbState, r: &mut dyn Roller, stack: &[String]) -> Vec<String> {
    let live: Vec<String> = stack
        .iter()
        .filter(|n| st.unit(n).is_some_and(Unit::fighting))
        .cloned()
        .collect();
    if live.is_empty() {
        return vec![];
    }
    let units: Vec<Unit> = live.iter().filter_map(|n| st.unit(n).cloned()).collect();
    let refs: Vec<&Unit> = units.iter().collect();
    let mods = combat::defender_mods(st, &refs, &[]);
    let label = format!("Morale check of {} after fire", join(&live));
    let c = combat::morale_check(st, r, label, &live, &mods);
    if c.pass {
        return vec![];
    }
    let routed = combat::fail(st, &live);
    rout(st, &routed);
    routed
}

/// Rout movement of `units` (R13): each hex's routers move together up to the rout distance
/// away from the enemy, losing increments for every enemy Zone of Influence they leave (p.2);
/// trapped at the start, they surrender. Returns the path of the first stack.
pub fn rout(st: &mut LbState, units: &[String]) -> Vec<Hex> {
    let mut first_path = Vec::new();
    let mut by_hex: Vec<(Hex, Vec<String>)> = Vec::new();
    for n in units {
        let Some(u) = st.unit(n) else { continue };
        if !u.alive() {
            continue;
        }
        match by_hex.iter_mut().find(|(h, _)| *h == u.hex) {
            Some((_, v)) => v.push(n.clone()),
            None => by_hex.push((u.hex, vec![n.clone()])),
        }
    }
    for (i, (start, names)) in by_hex.into_iter().enumerate() {
        for n in &names {
            if let Some(u) = st.unit_mut(n) {
                u.cohesion = Cohesion::Routed;
                u.firefight = false;
                u.number = None;
                if u.formation.is_square() || u.formation == Formation::Unlimbered {
                    u.formation = if u.arm == Arm::Artillery {
                        Formation::Limbered
                    } else {
                        Formation::Column
                    };
                }
            }
        }
        let side = st
            .unit(&names[0])
            .map(|u| u.side.clone())
            .unwrap_or_default();
        let steps = st.data.rules.rout_hexes.int().max(1) as u32;
        let mut at = start;
        let mut path = Vec::new();
        let mut zoi_left = 0;
        for _ in 0..steps {
            let movers: Vec<Unit> = names.iter().filter_map(|n| st.unit(n).cloned()).collect();
            let refs: Vec<&Unit> = movers.iter().collect();
            let Some(next) = field::away_step(st, &refs, at, &path) else {
                break;
            };
            if field::enemy_zoi(st, &side, at) {
                zoi_left += 1;
            }
            for n in &names {
                let grid = st.grid;
                if let Some(u) = st.unit_mut(n) {
                    u.facing = grid.direction(at, next).unwrap_or(u.facing);
                    u.came_from = Some(at);
                    u.hex = next;
                }
            }
            path.push(next);
            at = next;
        }
        if path.is_empty() {
            st.say(format!(
                "{} cannot rout from {}: surrounded, {} surrender{}.",
                join(&names),
                st.label(start),
                if names.len() == 1 { "it" } else { "they" },
                if names.len() == 1 { "s" } else { "" }
            ));
            combat::surrender(st, &names);
            continue;
        }
        let loss = zoi_left * st.data.rules.zoi_loss.int().max(0) as u32;
        st.say(format!(
            "{} rout{} {} to {}{}.",
            join(&names),
            if names.len() == 1 { "s" } else { "" },
            path.iter()
                .map(|h| st.label(*h))
                .collect::<Vec<_>>()
                .join(" "),
            st.label(at),
            if loss > 0 {
                format!(", losing {loss} increment(s) leaving enemy Zones of Influence")
            } else {
                String::new()
            }
        ));
        for n in &names {
            combat::take_losses(st, std::slice::from_ref(n), loss);
        }
        if i == 0 {
            first_path = path;
        }
    }
    first_path
}

/// Can these units (one stack) retreat at all?
pub fn can_retreat(st: &LbState, units: &[&Unit]) -> bool {
    units
        .first()
        .is_some_and(|u| field::away_step(st, units, u.hex, &[]).is_some())
}

/// A Retreat Before Assault or Before Charge (R12): the stack steps away from the enemy up to
/// `hexes`, keeping its order, never into an enemy Zone of Influence, and turns to face the
/// way it came. Returns the hexes it passed.
pub fn retreat(st: &mut LbState, names: &[String], hexes: u32) -> Vec<Hex> {
    let mut path = Vec::new();
    let Some(start) = names.first().and_then(|n| st.unit(n)).map(|u| u.hex) else {
        return path;
    };
    let side = st
        .unit(&names[0])
        .map(|u| u.side.clone())
        .unwrap_or_default();
    let mut at = start;
    for _ in 0..hexes {
        let movers: Vec<Unit> = names.iter().filter_map(|n| st.unit(n).cloned()).collect();
        let refs: Vec<&Unit> = movers.iter().collect();
        let Some(next) = field::away_step(st, &refs, at, &path) else {
            break;
        };
        if field::enemy_zoi(st, &side, next) && !path.is_empty() {
            break;
        }
        for n in names {
            let grid = st.grid;
            if let Some(u) = st.unit_mut(n) {
                u.facing = grid.direction(next, at).unwrap_or(u.facing);
                u.came_from = Some(at);
                u.hex = next;
            }
        }
        path.push(next);
        at = next;
    }
    if !path.is_empty() {
        st.say(format!(
            "{} retreat{} to {}.",
            join(names),
            if names.len() == 1 { "s" } else { "" },
            st.label(at)
        ));
    }
    path
}

/// Moves `names` into `h` (an advance, impetus or displacement step).
pub fn place(st: &mut LbState, names: &[String], h: Hex) {
    for n in names {
        let grid = st.grid;
        if let Some(u) = st.unit_mut(n) {
            if u.hex != h {
                u.facing = grid.direction(u.hex, h).unwrap_or(u.facing);
                u.came_from = Some(u.hex);
            }
            u.hex = h;
        }
    }
}

/// Carries a move out hex by hex, stopping for square questions while cavalry moves.
/// Where a move run stands when it returns.
#[derive(Debug, PartialEq)]
pub enum Moved {
    /// A seat must answer first: the run goes back on the agenda.
    Asked,
    /// The move is over.
    Over,
    /// An assault's approach has reached its end: the assault is declared now (R11), by
    /// the turn that ordered it (movement only moves).
    Approached(AssaultDecl),
}

impl From<Flow> for Moved {
    fn from(f: Flow) -> Moved {
        match f {
            Flow::Asked => Moved::Asked,
            Flow::Done => Moved::Over,
        }
    }
}

pub fn run_move(st: &mut LbState, r: &mut dyn Roller, mv: &mut MoveRun) -> Moved {
    loop {
        let Some(u) = st.unit(&mv.unit).cloned() else {
            return Moved::Over;
        };
        if !u.fighting() {
            return Moved::Over;
        }
        if mv.triggers {
            // The first trigger of a cavalry unit that begins to move needs no sight (p.6).
            let need_sight = mv.at > 0;
            let mut tried = std::mem::take(&mut mv.squares_tried);
            let res = square_triggers(st, r, &mv.unit, need_sight, &mut tried);
            mv.squares_tried = tried;
            if let Err(f) = res {
                return f.into();
            }
            mv.triggers = false;
        }
        if mv.at == 0
            && u.arm == Arm::Cavalry
            && !st.started.contains(&u.name)
            && !mv.path.is_empty()
        {
            st.started.push(u.name.clone());
            mv.triggers = true;
            continue;
        }
        if mv.at >= mv.path.len() {
            finish_move(st, mv);
            return match &mv.then {
                Some(decl) => Moved::Approached(decl.clone()),
                None => Moved::Over,
            };
        }
        let next = mv.path[mv.at];
        let assault = mv.then.is_some();
        if let Err(e) = check_move(st, &mv.unit, &mv.path[mv.at..mv.at + 1], assault) {
            st.say(format!("{} stops in {}: {e}.", mv.unit, st.label(u.hex)));
            mv.at = mv.path.len();
            mv.then = None;
            continue;
        }
        let cost = field::move_cost(st, &u, next).unwrap_or(1);
        let grid = st.grid;
        if let Some(x) = st.unit_mut(&mv.unit) {
            x.facing = grid.direction(x.hex, next).unwrap_or(x.facing);
            x.came_from = Some(x.hex);
            x.hex = next;
            x.mp_spent += cost;
        }
        mv.at += 1;
        let routed = opportunity(st, r, std::slice::from_ref(&mv.unit), next);
        if !routed.is_empty() {
            return Moved::Over;
        }
        if u.arm == Arm::Cavalry {
            mv.triggers = true;
        }
    }
}

fn finish_move(st: &mut LbState, mv: &MoveRun) {
    let Some(u) = st.unit(&mv.unit).cloned() else {
        return;
    };
    if let Some(f) = mv.facing
        && let Some(x) = st.unit_mut(&mv.unit)
    {
        x.facing = f;
    }
    if !mv.path.is_empty() && mv.then.is_none() {
        st.say(format!(
            "{} moves to {}{}.",
            u.name,
            st.label(u.hex),
            mv.facing
                .map(|f| format!(", facing {}", st.grid.compass(f)))
                .unwrap_or_default()
        ));
    }
}
