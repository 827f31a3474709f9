//! Step 3 of the round: running one activation act by act, centimetre by centimetre, with
//! terrain costs, turns, modes, roads, treacherous ground, saturation zones, overwatch and the
//! "interrupt now?" pause. The same code checks orders (no dice) and resolves them (dice).

use crate::board::tabletop::{Pt, bearing, dist, heading_diff, normalize};
use crate::dice::Dice;
use crate::engine::LogLine;
use crate::rulesets::kit::roster::{Roster, TwoSides};

use super::combat;
use super::data::{MoveMode, TerrainKind};
use super::ground;
use super::roll;
use super::state::{
    Act, Block, Filter, FireMode, GkState, Melee, Paused, Progress, Shift, TurnBy, Unit,
};
use super::stats::{self, Task};
use crate::rulesets::kit::grammar::tenths;

const EPS: f64 = 1e-6;

/// How running a block ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    Done,
    /// Stopped for an interrupt question to the enemy.
    Paused,
}

/// Checking (no dice: tests pass, no interrupts) or resolving.
pub struct Ctx<'d> {
    pub dice: Option<&'d mut Dice>,
    /// When checking: also check targets (false for activations queued for later).
    pub targets: bool,
    /// When resolving: may stop for an interrupt question.
    pub ask: bool,
    /// When checking: (act index, reason) for each bad act.
    pub errors: Vec<(usize, String)>,
}

impl Ctx<'_> {
    pub fn check(targets: bool) -> Ctx<'static> {
        Ctx {
            dice: None,
            targets,
            ask: false,
            errors: Vec::new(),
        }
    }

    fn live(&self) -> bool {
        self.dice.is_some()
    }
}

fn unit_of(state: &GkState, name: &str) -> Unit {
    state.unit(name).cloned().expect("the block's unit exists")
}

/// Planned length of the block's movement, for defence rolls ("full movement", R23).
pub fn planned_distance(state: &GkState, block: &Block) -> f64 {
    let Some(u) = state.unit(&block.unit) else {
        return 0.0;
    };
    let contact = state.data.rules.contact_distance.get();
    let mut pos = u.pos;
    let mut heading = u.heading;
    let mut total = 0.0;
    for a in &block.acts {
        match a {
            Act::Move(d) => {
                pos = pos.offset(heading, *d);
                total += d;
            }
            Act::Reverse(d) => {
                pos = pos.offset(heading, -d);
                total += d;
            }
            Act::Turn(by) => heading = turned(heading, *by),
            Act::To(p) => {
                total += dist(pos, *p);
                if dist(pos, *p) > EPS {
                    heading = bearing(pos, *p);
                }
                pos = *p;
            }
            Act::Melee(Melee::Ram, t) => {
                if let Some(t) = state.unit(t) {
                    let d = (dist(pos, t.pos) - contact).max(0.0);
                    total += d;
                    heading = bearing(pos, t.pos);
                    pos = pos.offset(heading, d);
                }
            }
            _ => {}
        }
    }
    total
}

pub fn turned(heading: f64, by: TurnBy) -> f64 {
    match by {
        TurnBy::Left(d) => normalize(heading - d),
        TurnBy::Right(d) => normalize(heading + d),
        TurnBy::To(h) => normalize(h),
    }
}

/// Prepares a block's bookkeeping and marks the unit as moving (its planned movement counts for
/// its attacks and its defence from now on).
pub fn start(state: &mut GkState, block: &Block) -> Paused {
    let planned = planned_distance(state, block);
    let data = state.data.clone();
    let u = unit_of(state, &block.unit);
    let mp = stats::mp(&data, &u, u.mode, u.top);
    let road = if !u.is_infantry() && u.mode == MoveMode::Ground {
        (mp / 2.0).floor()
    } else {
        0.0
    };
    let terrain = Some(ground::resides_in(state, u.pos));
    let moves = block.acts.iter().any(|a| {
        matches!(
            a,
            Act::Move(_) | Act::Reverse(_) | Act::To(_) | Act::Melee(Melee::Ram, _)
        )
    });
    if moves && let Some(u) = state.unit_mut(&block.unit) {
        u.moved = Some(planned);
        u.last_move = planned;
    }
    Paused {
        block: block.clone(),
        next: 0,
        done: 0.0,
        progress: Progress {
            mp,
            road,
            planned,
            terrain,
            started_top: u.top,
            ..Progress::default()
        },
    }
}

fn fail(state: &mut GkState, ctx: &mut Ctx, idx: usize, unit: &str, why: String) {
    if ctx.live() {
        state.log.push(LogLine::public(format!(
            "{unit}: {why}; that order is lost."
        )));
    } else {
        ctx.errors.push((idx, why));
    }
}

fn mp_cost(state: &GkState, u: &Unit, kind: TerrainKind) -> f64 {
    let Some(t) = state.data.terrain(kind) else {
        return 1.0;
    };
    if u.is_infantry() || u.mode == MoveMode::Walker {
        t.walker_mp.get()
    } else {
        t.ground_mp.get()
    }
}

fn treacherous(state: &GkState, u: &Unit, kind: TerrainKind) -> bool {
    let Some(t) = state.data.terrain(kind) else {
        return false;
    };
    let flag = if u.is_infantry() || u.mode == MoveMode::Walker {
        t.walker_treacherous.get()
    } else {
        t.ground_treacherous.get()
    };
    flag != 0.0 && !u.is_infantry()
}

/// Moves the unit one sub-step to `to`; MP, road bonus, reverse and map-edge rules.
fn advance(
    state: &mut GkState,
    name: &str,
    p: &mut Progress,
    to: Pt,
    reverse: bool,
) -> Result<(), String> {
    let u = unit_of(state, name);
    if u.pinned > 0 {
        return Err("Pinned units cannot move".into());
    }
    if p.stopped {
        return Err("it has stopped for this round".into());
    }
    if to.x < -EPS || to.y < -EPS || to.x > state.width + EPS || to.y > state.height + EPS {
        return Err("that would leave the map".into());
    }
    let step = dist(u.pos, to);
    let mid = Pt::new((u.pos.x + to.x) / 2.0, (u.pos.y + to.y) / 2.0);
    let kind = ground::terrain_at(state, mid);
    let mut cost = step * mp_cost(state, &u, kind);
    let mut from_road = 0.0;
    if !u.is_infantry() && u.mode == MoveMode::Ground && kind == TerrainKind::Road {
        from_road = p.road.min(cost);
        cost -= from_road;
    }
    let half = stats::combat_mp(&state.data, &u) / 2.0;
    if reverse {
        if u.top {
            return Err("no reverse at Top Speed".into());
        }
        if p.distance + step > half + EPS {
            return Err(format!(
                "reverse only while moving at most half Combat Speed ({} cm in all)",
                tenths(half)
            ));
        }
    } else if p.reversed > 0.0 && p.distance + step > half + EPS {
        return Err(format!(
            "after reversing the whole move must stay within half Combat Speed ({} cm)",
            tenths(half)
        ));
    }
    let min_move = state.data.rules.infantry_min_move.get();
    if p.spent + cost > p.mp + EPS {
        if u.is_infantry() && p.distance + step <= min_move + EPS {
            cost = (p.mp - p.spent).max(0.0);
        } else {
            return Err(format!(
                "not enough MP: {} cm moved, {} of {} MP spent, the next cm of {} costs {}",
                tenths(p.distance),
                tenths(p.spent),
                tenths(p.mp),
                kind.word(),
                tenths(mp_cost(state, &u, kind))
            ));
        }
    }
    p.spent += cost;
    p.road -= from_road;
    p.road_used += from_road;
    p.distance += step;
    if reverse {
        p.reversed += step;
    } else if let Some(s) = p.since_turn.as_mut() {
        *s += step;
    }
    p.volley.clear();
    p.acted = true;
    if let Some(m) = state.unit_mut(name) {
        m.pos = to;
    }
    Ok(())
}

/// Turns the unit (p.3–4): ≤60° free, more costs 1 MP; 1 cm forward between turns; ≤120° at Top.
fn turn(state: &mut GkState, name: &str, p: &mut Progress, to: f64) -> Result<(), String> {
    let u = unit_of(state, name);
    let angle = heading_diff(u.heading, to).abs();
    if angle < EPS {
        return Ok(());
    }
    if u.is_infantry() {
        if let Some(m) = state.unit_mut(name) {
            m.heading = normalize(to);
        }
        return Ok(());
    }
    if u.pinned > 0 {
        return Err("Pinned units cannot move".into());
    }
    let d = &state.data;
    if let Some(s) = p.since_turn
        && s < d.rules.turn_spacing.get() - EPS
    {
        return Err(format!(
            "each turn must follow at least {} cm of forward movement after the last one",
            d.rules.turn_spacing.get()
        ));
    }
    if u.top && angle > d.rules.top_max_turn.get() + EPS {
        return Err(format!(
            "no turn over {} degrees at Top Speed",
            d.rules.top_max_turn.get()
        ));
    }
    let cost = if angle > d.rules.turn_free_angle.get() + EPS {
        d.rules.turn_cost.get()
    } else {
        0.0
    };
    if p.stopped {
        return Err("it has stopped for this round".into());
    }
    if p.spent + cost > p.mp + EPS {
        return Err(format!(
            "not enough MP to turn {} degrees ({} of {} MP spent)",
            tenths(angle),
            tenths(p.spent),
            tenths(p.mp)
        ));
    }
    p.spent += cost;
    p.since_turn = Some(0.0);
    p.acted = true;
    if let Some(m) = state.unit_mut(name) {
        m.heading = normalize(to);
    }
    Ok(())
}

/// Spends an Action (infantry: one Action covers one FIRE per weapon type, p.5).
fn take_action(
    state: &mut GkState,
    name: &str,
    p: &mut Progress,
    fire_key: Option<&str>,
) -> Result<(), String> {
    let u = unit_of(state, name);
    if u.defensive {
        return Err("Defensive Maneuvers: no actions this round".into());
    }
    if u.is_infantry()
        && let Some(k) = fire_key
        && !p.volley.is_empty()
        && !p.volley.iter().any(|v| v.eq_ignore_ascii_case(k))
    {
        p.volley.push(k.to_string());
        return Ok(());
    }
    if u.actions_left() == 0 {
        return Err(format!(
            "no Action left ({} used of {})",
            u.actions_used, u.actions
        ));
    }
    if let Some(m) = state.unit_mut(name) {
        m.actions_used += 1;
    }
    p.volley = fire_key.map(|k| vec![k.to_string()]).unwrap_or_default();
    p.acted = true;
    Ok(())
}

/// Checks a FIRE order from the unit's present position; returns the ammunition it needs.
pub fn check_fire(
    state: &GkState,
    u: &Unit,
    fire: &super::state::Fire,
    targets: bool,
) -> Result<u32, String> {
    let data = &state.data;
    let Some(w) = stats::weapon(data, u, &fire.weapon) else {
        let keys: Vec<&str> = stats::weapons(data, u)
            .iter()
            .map(|w| w.key.as_str())
            .collect();
        return Err(format!(
            "{} has no weapon `{}` (it has {})",
            u.name,
            fire.weapon,
            keys.join(", ")
        ));
    };
    let max_rof = stats::rof(data, u, w);
    if fire.rof > max_rof {
        return Err(format!("the {} has ROF {max_rof}", w.key));
    }
    let enemy = |t: &str| -> Result<Unit, String> {
        match state.unit(t) {
            None => Err(format!("no unit `{t}`")),
            Some(t) if t.side == u.side => Err(format!("{} is on your side", t.name)),
            Some(t) if !t.alive() => Err(format!("{} is destroyed", t.name)),
            Some(t) => Ok(t.clone()),
        }
    };
    let ammo_left = u.ammo_left(&w.key);
    match &fire.mode {
        FireMode::At(t) => {
            let t = enemy(t)?;
            if targets {
                combat::can_fire_at(state, u, u.pos, t.pos, w)?;
            }
            let need = stats::burst_ammo(data, w, fire.rof);
            if let Some(left) = ammo_left
                && left < need
            {
                return Err(format!(
                    "the {} has {left} rounds left, needs {need}",
                    w.key
                ));
            }
            Ok(need)
        }
        FireMode::Walk(ts) => {
            if fire.rof == 0 {
                return Err("walking fire needs ROF 1 or more (add ROF n)".into());
            }
            if ts.len() as u32 > fire.rof + 1 {
                return Err(format!(
                    "walking fire at ROF {} reaches at most {} targets",
                    fire.rof,
                    fire.rof + 1
                ));
            }
            for (i, a) in ts.iter().enumerate() {
                if ts[..i].contains(a) {
                    return Err(format!("{a} is named twice"));
                }
                let t = enemy(a)?;
                if u.walked
                    .iter()
                    .any(|(k, n)| k.eq_ignore_ascii_case(&w.key) && *n == t.name)
                {
                    return Err(format!(
                        "the {} already walked fire over {} this round",
                        w.key, t.name
                    ));
                }
                if targets {
                    combat::can_fire_at(state, u, u.pos, t.pos, w)
                        .map_err(|e| format!("{a}: {e}"))?;
                }
            }
            let need = stats::burst_ammo(data, w, fire.rof);
            if let Some(left) = ammo_left
                && left < need
            {
                return Err(format!(
                    "the {} has {left} rounds left, needs {need}",
                    w.key
                ));
            }
            Ok(need)
        }
        FireMode::Saturate(at) => {
            if fire.rof == 0 {
                return Err("saturation fire needs ROF 1 or more (add ROF n)".into());
            }
            let d = dist(u.pos, *at);
            if d > 2.0 * w.base_range.get() + EPS {
                return Err(format!(
                    "the zone must lie within Medium range ({} cm); it is {} cm away",
                    2.0 * w.base_range.get(),
                    tenths(d)
                ));
            }
            if let Some(left) = ammo_left
                && left < stats::saturation_min(data, w)
            {
                return Err(format!(
                    "saturation needs at least {} rounds; {left} left",
                    stats::saturation_min(data, w)
                ));
            }
            if targets {
                combat::can_fire_at(state, u, u.pos, *at, w)?;
            }
            Ok(0)
        }
    }
}

/// Runs the block from where it stands. Returns `Paused` when an interrupt question is due.
pub fn run(state: &mut GkState, p: &mut Paused, ctx: &mut Ctx) -> Flow {
    let name = p.block.unit.clone();
    while p.next < p.block.acts.len() {
        if !state.unit(&name).is_some_and(Unit::alive) {
            return Flow::Done;
        }
        let idx = p.next;
        let act = p.block.acts[idx].clone();
        match &act {
            Act::Move(_) | Act::Reverse(_) | Act::To(_) => {
                if let Act::To(pt) = &act
                    && p.done == 0.0
                {
                    let u = unit_of(state, &name);
                    if dist(u.pos, *pt) > EPS {
                        let b = bearing(u.pos, *pt);
                        if let Err(e) = turn(state, &name, &mut p.progress, b) {
                            fail(state, ctx, idx, &name, e);
                            p.next += 1;
                            continue;
                        }
                    }
                }
                if leg(state, p, ctx, &act) == Flow::Paused {
                    return Flow::Paused;
                }
            }
            Act::Turn(by) => {
                let h = turned(unit_of(state, &name).heading, *by);
                if let Err(e) = turn(state, &name, &mut p.progress, h) {
                    fail(state, ctx, idx, &name, e);
                }
            }
            Act::Mode(m) => {
                if let Err(e) = switch_mode(state, &name, &mut p.progress, *m) {
                    fail(state, ctx, idx, &name, e);
                } else if ctx.live() {
                    state.log.push(LogLine::public(format!(
                        "{name} switches to {} mode.",
                        mode_word(*m)
                    )));
                }
            }
            Act::Speed(s) => {
                if let Err(e) = shift(state, &name, &p.progress, *s) {
                    fail(state, ctx, idx, &name, e);
                } else if ctx.live() {
                    state.log.push(LogLine::public(format!(
                        "{name} {}.",
                        if *s == Shift::Top {
                            "shifts to Top Speed"
                        } else {
                            "returns to Combat Speed"
                        }
                    )));
                }
            }
            Act::Fire(f) => fire(state, p, ctx, idx, f),
            Act::Melee(kind, target) => {
                if melee(state, p, ctx, idx, kind, target) == Flow::Paused {
                    return Flow::Paused;
                }
            }
            Act::Rally => rally(state, p, ctx, idx),
            Act::CpExtra => {
                if let Err(e) = cp_extra(state, &name) {
                    fail(state, ctx, idx, &name, e);
                } else {
                    p.progress.acted = true;
                    if ctx.live() {
                        state.log.push(LogLine::public(format!(
                            "{name} spends a Command Point on an extra Action."
                        )));
                    }
                }
            }
            Act::Hold => {}
        }
        p.next += 1;
        p.done = 0.0;
    }
    Flow::Done
}

fn mode_word(m: MoveMode) -> &'static str {
    match m {
        MoveMode::Walker => "Walker",
        MoveMode::Ground => "Ground",
    }
}

/// Spends a CP for an extra Action without penalty (one CP per unit per round).
pub fn cp_extra(state: &mut GkState, name: &str) -> Result<(), String> {
    let u = unit_of(state, name);
    if u.cp_used {
        return Err("this unit has already used its Command Point this round".into());
    }
    if u.defensive {
        return Err("Defensive Maneuvers: no actions this round".into());
    }
    if state.side(&u.side).is_none_or(|s| s.cp == 0) {
        return Err("no Command Point left".into());
    }
    if let Some(s) = state.side_mut(&u.side) {
        s.cp -= 1;
    }
    if let Some(m) = state.unit_mut(name) {
        m.cp_used = true;
        m.actions += 1;
    }
    Ok(())
}

fn switch_mode(
    state: &mut GkState,
    name: &str,
    p: &mut Progress,
    m: MoveMode,
) -> Result<(), String> {
    let u = unit_of(state, name);
    if u.is_infantry() {
        return Err("infantry have one movement system".into());
    }
    if u.mode == m {
        return Err(format!("already in {} mode", mode_word(m)));
    }
    if u.top {
        return Err("modes switch only at Combat Speed".into());
    }
    if u.mode_switched {
        return Err("modes switch only once per round".into());
    }
    let mut after = u.clone();
    after.mode = m;
    let allowance = stats::mp(&state.data, &after, m, false);
    if let Some(x) = state.unit_mut(name) {
        x.mode = m;
        x.mode_switched = true;
    }
    if p.spent > allowance + EPS {
        p.stopped = true;
    }
    p.road = if m == MoveMode::Ground {
        (p.mp / 2.0).floor() - p.road_used
    } else {
        0.0
    }
    .max(0.0);
    p.acted = true;
    Ok(())
}

fn shift(state: &mut GkState, name: &str, p: &Progress, s: Shift) -> Result<(), String> {
    let u = unit_of(state, name);
    if u.is_infantry() {
        return Err("infantry have no Top Speed".into());
    }
    match s {
        Shift::Top => {
            if u.top {
                return Err("already at Top Speed".into());
            }
            if p.spent + p.road_used + EPS < p.mp {
                return Err(format!(
                    "Top Speed needs the full Combat Speed spent first ({} of {} MP)",
                    tenths(p.spent + p.road_used),
                    tenths(p.mp)
                ));
            }
            if let Some(m) = state.unit_mut(name) {
                m.top = true;
            }
        }
        Shift::Combat => {
            if !u.top {
                return Err("not at Top Speed".into());
            }
            if let Some(m) = state.unit_mut(name) {
                m.top = false;
            }
        }
    }
    Ok(())
}

/// Moves along one leg in sub-steps of at most 1 cm, checking the world at each point.
fn leg(state: &mut GkState, p: &mut Paused, ctx: &mut Ctx, act: &Act) -> Flow {
    let name = p.block.unit.clone();
    let idx = p.next;
    loop {
        let u = unit_of(state, &name);
        let (remaining, dir, reverse) = match act {
            Act::Move(d) => (d - p.done, u.heading, false),
            Act::Reverse(d) => (d - p.done, normalize(u.heading + 180.0), true),
            Act::To(pt) => (dist(u.pos, *pt), bearing(u.pos, *pt), false),
            _ => (0.0, 0.0, false),
        };
        if remaining <= EPS {
            return Flow::Done;
        }
        let step = remaining.min(1.0);
        let to = match act {
            Act::To(pt) if remaining <= 1.0 => *pt,
            _ => u.pos.offset(dir, step),
        };
        if p.progress.distance == 0.0 && ctx.live() && !bog_test(state, p, ctx, u.pos, true) {
            return Flow::Done;
        }
        if let Err(e) = advance(state, &name, &mut p.progress, to, reverse) {
            fail(state, ctx, idx, &name, e);
            return Flow::Done;
        }
        p.done += step;
        if ctx.live() {
            if !bog_test(state, p, ctx, to, false) {
                return Flow::Done;
            }
            if after_step(state, p, ctx) == Flow::Paused {
                return Flow::Paused;
            }
            if !state.unit(&name).is_some_and(Unit::alive) {
                return Flow::Done;
            }
        }
    }
}

/// Treacherous terrain (p.4): Driving test against the MP cost on entering or starting in it.
/// Returns false when the unit bogs down.
fn bog_test(state: &mut GkState, p: &mut Paused, ctx: &mut Ctx, at: Pt, starting: bool) -> bool {
    let name = p.block.unit.clone();
    let u = unit_of(state, &name);
    let kind = if starting {
        ground::resides_in(state, at)
    } else {
        ground::terrain_at(state, at)
    };
    let entering = starting || p.progress.terrain != Some(kind);
    p.progress.terrain = Some(kind);
    if !entering || !treacherous(state, &u, kind) {
        return true;
    }
    let Some(dice) = ctx.dice.as_deref_mut() else {
        return true;
    };
    let threshold = mp_cost(state, &u, kind).round() as i32;
    let n = stats::skill(&state.data, &u, Task::Driving);
    let r = roll::roll(dice, format!("driving {name} {}", kind.word()), n, 0);
    let ok = roll::passes(&r, threshold);
    state.log.push(LogLine::public(format!(
        "{name} {} {}: Driving {} vs {threshold}: {}.",
        if starting { "starts in" } else { "enters" },
        kind.word(),
        roll::show(&r),
        if ok {
            "through"
        } else {
            "bogged down, it stops for the round"
        }
    )));
    if !ok {
        p.progress.stopped = true;
    }
    ok
}

/// After each sub-step: saturation zones, overwatch, and the interrupt question.
fn after_step(state: &mut GkState, p: &mut Paused, ctx: &mut Ctx) -> Flow {
    let name = p.block.unit.clone();
    let Some(dice) = ctx.dice.as_deref_mut() else {
        return Flow::Done;
    };
    let pos = unit_of(state, &name).pos;
    for i in 0..state.zones.len() {
        if combat::in_zone(state, i, pos) && state.zones[i].by != name {
            combat::zone_attack(state, dice, i, &name);
        }
    }
    overwatch(state, p, dice);
    if !state.unit(&name).is_some_and(Unit::alive) {
        return Flow::Done;
    }
    if ctx.ask && !p.progress.asked && uncovered_shooter(state, &name).is_some() {
        p.progress.asked = true;
        return Flow::Paused;
    }
    Flow::Done
}

/// The first weapon (in card order, or the one named) of `e` that can fire at `target` now.
pub fn usable_weapon(
    state: &GkState,
    e: &Unit,
    target: &Unit,
    only: Option<&str>,
    rof: u32,
) -> Option<String> {
    stats::weapons(&state.data, e)
        .iter()
        .filter(|w| only.is_none_or(|k| w.key.eq_ignore_ascii_case(k)))
        .find(|w| {
            let f = super::state::Fire {
                weapon: w.key.clone(),
                mode: FireMode::At(target.name.clone()),
                rof: rof.min(stats::rof(&state.data, e, w)),
            };
            check_fire(state, e, &f, true).is_ok()
        })
        .map(|w| w.key.clone())
}

/// Can this enemy unit interrupt now (it has an Action and is not on Defensive Maneuvers)?
fn may_interrupt(e: &Unit) -> bool {
    e.alive() && !e.defensive && e.actions_left() > 0
}

/// An enemy unit not covered by an overwatch order that could fire at the mover now.
pub fn uncovered_shooter(state: &GkState, mover: &str) -> Option<String> {
    let m = state.unit(mover)?;
    let enemy = state.enemy_of(&m.side).unwrap_or_default().to_string();
    if !state.side(&enemy).is_some_and(|s| s.ask_interrupts) {
        return None;
    }
    state
        .units
        .iter()
        .filter(|e| e.side == enemy && may_interrupt(e) && e.overwatch.is_none())
        .find(|e| usable_weapon(state, e, m, None, 0).is_some())
        .map(|e| e.name.clone())
}

fn matches(filter: &Filter, t: &Unit) -> bool {
    match filter {
        Filter::Any => true,
        Filter::Vehicles => !t.is_infantry(),
        Filter::Infantry => t.is_infantry(),
        Filter::Unit(n) => *n == t.name,
    }
}

/// Standing reactive fire (R27): each overwatching enemy fires once per activation at the
/// first point where its conditions hold.
fn overwatch(state: &mut GkState, p: &mut Paused, dice: &mut Dice) {
    let mover = p.block.unit.clone();
    let Some(m) = state.unit(&mover).cloned() else {
        return;
    };
    let enemy = state.enemy_of(&m.side).unwrap_or_default().to_string();
    let names: Vec<String> = state
        .units
        .iter()
        .filter(|e| e.side == enemy && e.overwatch.is_some())
        .map(|e| e.name.clone())
        .collect();
    for n in names {
        if !state.unit(&mover).is_some_and(Unit::alive) {
            return;
        }
        if p.progress.overwatched.contains(&n) {
            continue;
        }
        let Some(e) = state.unit(&n).cloned() else {
            continue;
        };
        let Some(ow) = e.overwatch.clone() else {
            continue;
        };
        let target = unit_of(state, &mover);
        if !may_interrupt(&e)
            || e.overwatch_fired >= ow.actions
            || !matches(&ow.filter, &target)
            || ow.within.is_some_and(|r| dist(e.pos, target.pos) > r + EPS)
        {
            continue;
        }
        let Some(key) = usable_weapon(state, &e, &target, ow.weapon.as_deref(), ow.rof) else {
            continue;
        };
        let w = stats::weapon(&state.data, &e, &key)
            .cloned()
            .expect("found above");
        let rof = ow.rof.min(stats::rof(&state.data, &e, &w));
        p.progress.overwatched.push(n.clone());
        if let Some(x) = state.unit_mut(&n) {
            x.actions_used += 1;
            x.overwatch_fired += 1;
        }
        let need = stats::burst_ammo(&state.data, &w, rof);
        combat::spend_ammo(state, &n, &key, need);
        combat::ranged_attack(state, dice, &n, &mover, &key, rof, "Overwatch: ");
    }
}

fn fire(state: &mut GkState, p: &mut Paused, ctx: &mut Ctx, idx: usize, f: &super::state::Fire) {
    let name = p.block.unit.clone();
    let u = unit_of(state, &name);
    let need = match check_fire(state, &u, f, ctx.targets || ctx.live()) {
        Ok(n) => n,
        Err(e) => return fail(state, ctx, idx, &name, e),
    };
    if let Err(e) = take_action(state, &name, &mut p.progress, Some(&f.weapon)) {
        return fail(state, ctx, idx, &name, e);
    }
    let key = stats::weapon(&state.data, &u, &f.weapon)
        .map(|w| w.key.clone())
        .unwrap_or_default();
    let Some(dice) = ctx.dice.as_deref_mut() else {
        // Checking: account for the ammunition so later bursts are checked against it.
        combat::spend_ammo(state, &name, &key, need);
        return;
    };
    match &f.mode {
        FireMode::At(t) => {
            combat::spend_ammo(state, &name, &key, need);
            combat::ranged_attack(state, dice, &name, t, &key, f.rof, "");
        }
        FireMode::Walk(ts) => {
            combat::spend_ammo(state, &name, &key, need);
            let rof_damage = f.rof.saturating_sub(ts.len() as u32 - 1);
            state.log.push(LogLine::public(format!(
                "{name} walks {} fire (ROF {}) over {}: ROF {rof_damage} for damage on each.",
                key,
                f.rof,
                ts.join(", ")
            )));
            for t in ts {
                if let Some(x) = state.unit_mut(&name) {
                    x.walked.push((key.clone(), t.clone()));
                }
                combat::ranged_attack(state, dice, &name, t, &key, rof_damage, "");
            }
        }
        FireMode::Saturate(at) => combat::saturate(state, dice, &name, &key, *at, f.rof),
    }
}

fn melee(
    state: &mut GkState,
    p: &mut Paused,
    ctx: &mut Ctx,
    idx: usize,
    kind: &Melee,
    target: &str,
) -> Flow {
    let name = p.block.unit.clone();
    let Some(t) = state.unit(target).cloned() else {
        fail(state, ctx, idx, &name, format!("no unit `{target}`"));
        return Flow::Done;
    };
    let u = unit_of(state, &name);
    if t.side == u.side || !t.alive() {
        fail(
            state,
            ctx,
            idx,
            &name,
            format!("{target} is not an enemy in the fight"),
        );
        return Flow::Done;
    }
    if *kind == Melee::Ram {
        if let Err(e) = combat::can_melee(state, &u, u.pos, &t, kind) {
            fail(state, ctx, idx, &name, e);
            return Flow::Done;
        }
        if u.actions_left() == 0 || u.defensive {
            fail(state, ctx, idx, &name, "no Action left to ram".into());
            return Flow::Done;
        }
        // Close in: turn to face the target, then drive into contact.
        let contact = state.data.rules.contact_distance.get();
        let d = (dist(u.pos, t.pos) - contact).max(0.0);
        if p.done == 0.0
            && let Err(e) = turn(state, &name, &mut p.progress, bearing(u.pos, t.pos))
        {
            fail(state, ctx, idx, &name, e);
            return Flow::Done;
        }
        let before = p.done;
        if d > EPS {
            let remaining_leg = Act::Move(d + before);
            if leg(state, p, ctx, &remaining_leg) == Flow::Paused {
                return Flow::Paused;
            }
        }
        let u = unit_of(state, &name);
        if !u.alive() || p.progress.stopped || dist(u.pos, t.pos) > contact + 1e-3 {
            if !ctx.live() && dist(u.pos, t.pos) > contact + 1e-3 && p.progress.stopped {
                fail(state, ctx, idx, &name, "cannot reach the target".into());
            }
            return Flow::Done;
        }
        if let Err(e) = take_action(state, &name, &mut p.progress, None) {
            fail(state, ctx, idx, &name, e);
            return Flow::Done;
        }
        if let Some(dice) = ctx.dice.as_deref_mut() {
            combat::melee_attack(state, dice, &name, target, kind);
        }
        p.progress.stopped = true;
        return Flow::Done;
    }
    if (ctx.targets || ctx.live())
        && let Err(e) = combat::can_melee(state, &u, u.pos, &t, kind)
    {
        fail(state, ctx, idx, &name, e);
        return Flow::Done;
    }
    if let Err(e) = take_action(state, &name, &mut p.progress, None) {
        fail(state, ctx, idx, &name, e);
        return Flow::Done;
    }
    if let Some(dice) = ctx.dice.as_deref_mut() {
        combat::melee_attack(state, dice, &name, target, kind);
    }
    Flow::Done
}

fn rally(state: &mut GkState, p: &mut Paused, ctx: &mut Ctx, idx: usize) {
    let name = p.block.unit.clone();
    let u = unit_of(state, &name);
    if !u.is_infantry() || u.pinned == 0 {
        return fail(
            state,
            ctx,
            idx,
            &name,
            "RALLY removes a Pinned counter from pinned infantry".into(),
        );
    }
    if let Err(e) = take_action(state, &name, &mut p.progress, None) {
        return fail(state, ctx, idx, &name, e);
    }
    let Some(dice) = ctx.dice.as_deref_mut() else {
        return;
    };
    let threshold = state.data.rules.rally_threshold.int();
    let m = u.pinned as i32 * state.data.rules.pinned_penalty.int();
    let n = stats::skill(&state.data, &u, Task::Gunnery);
    let r = roll::roll(dice, format!("rally {name}"), n, m);
    let ok = roll::passes(&r, threshold);
    if ok && let Some(x) = state.unit_mut(&name) {
        x.pinned -= 1;
    }
    let left = unit_of(state, &name).pinned;
    state.log.push(LogLine::public(format!(
        "{name} tries to rally: {} vs {threshold}: {} (Pinned {left}).",
        roll::show(&r),
        if ok { "one counter removed" } else { "fails" }
    )));
}

/// Closes an activation: the unit is activated; its movement is recorded; a unit that neither
/// moved nor acted loses its Actions (p.3); a Top Speed unit that did not spend more than its
/// Combat Speed drops to Combat Speed (R21).
pub fn finish(state: &mut GkState, p: &Paused) {
    let data = state.data.clone();
    let Some(u) = state.unit_mut(&p.block.unit) else {
        return;
    };
    u.activated = true;
    u.moved = Some(p.progress.distance);
    u.last_move = p.progress.distance;
    if !p.progress.acted {
        u.actions_used = u.actions;
    }
    if p.progress.started_top && u.top {
        let combat = stats::mp(&data, u, u.mode, false);
        if p.progress.spent + p.progress.road_used <= combat + EPS {
            u.top = false;
        }
    }
}

/// Checks a whole block without dice on a copy of the state; returns (act index, reason).
pub fn check_block(state: &GkState, block: &Block, targets: bool) -> Vec<(usize, String)> {
    let mut s = state.clone();
    s.log.clear();
    let mut p = start(&mut s, block);
    let mut ctx = Ctx::check(targets);
    if block.cp
        && let Err(e) = spend_cp_activation(&mut s, &block.unit)
    {
        return vec![(usize::MAX, e)];
    }
    run(&mut s, &mut p, &mut ctx);
    let u = unit_of(&s, &block.unit);
    if p.progress.started_top
        && u.top
        && p.progress.acted
        && p.progress.spent + p.progress.road_used <= stats::mp(&s.data, &u, u.mode, false) + EPS
        && block
            .acts
            .iter()
            .any(|a| matches!(a, Act::Move(_) | Act::To(_) | Act::Reverse(_)))
    {
        ctx.errors.push((
            usize::MAX,
            format!(
                "at Top Speed {} must spend more than its Combat Speed ({} MP); it spends {} (R21)",
                u.name,
                stats::mp(&s.data, &u, u.mode, false),
                tenths(p.progress.spent + p.progress.road_used)
            ),
        ));
    }
    ctx.errors
}

/// Out-of-sequence activation (p.3): one CP, the unit must not have been activated.
pub fn spend_cp_activation(state: &mut GkState, name: &str) -> Result<(), String> {
    let u = unit_of(state, name);
    if u.activated {
        return Err(format!("{name} has already been activated this round"));
    }
    if u.cp_used {
        return Err(format!(
            "{name} has already used its Command Point this round"
        ));
    }
    if state.side(&u.side).is_none_or(|s| s.cp == 0) {
        return Err("no Command Point left".into());
    }
    if let Some(s) = state.side_mut(&u.side) {
        s.cp -= 1;
    }
    if let Some(m) = state.unit_mut(name) {
        m.cp_used = true;
    }
    Ok(())
}

/// About-face with a CP (p.3): turn up to 180°, even after activation; free of MP.
pub fn about_face(state: &mut GkState, name: &str, by: TurnBy) -> Result<(), String> {
    let u = unit_of(state, name);
    if u.is_infantry() {
        return Err("infantry have no facing".into());
    }
    let to = turned(u.heading, by);
    let angle = heading_diff(u.heading, to).abs();
    if angle > state.data.rules.cp_about_face.get() + EPS {
        return Err("an about-face turns at most 180 degrees".into());
    }
    if u.cp_used {
        return Err(format!(
            "{name} has already used its Command Point this round"
        ));
    }
    if state.side(&u.side).is_none_or(|s| s.cp == 0) {
        return Err("no Command Point left".into());
    }
    if let Some(s) = state.side_mut(&u.side) {
        s.cp -= 1;
    }
    if let Some(m) = state.unit_mut(name) {
        m.cp_used = true;
        m.heading = to;
    }
    Ok(())
}
