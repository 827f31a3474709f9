//! A unit moving in an activation (GK Step 3): distances planned, turns, movement points by
//! terrain, treacherous ground and bogging down, mode switches and shifts, one leg of a move
//! centimetre by centimetre. Fire, melee and overwatch are acts.rs's.

use crate::board::tabletop::{Pt, bearing, dist, heading_diff, normalize};
use crate::engine::LogLine;
use crate::rulesets::kit::grammar::tenths;
use crate::rulesets::kit::roster::Roster;

use super::super::data::{MoveMode, TerrainKind};
use super::super::ground;
use super::super::roll;
use super::super::state::{Act, Block, GkState, Melee, Paused, Progress, Shift, TurnBy, Unit};
use super::super::stats::{self, Task};
use super::{Ctx, EPS, Flow, after_step, fail, unit_of};

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

pub(super) fn mp_cost(state: &GkState, u: &Unit, kind: TerrainKind) -> f64 {
    let Some(t) = state.data.terrain(kind) else {
        return 1.0;
    };
    if u.is_infantry() || u.mode == MoveMode::Walker {
        t.walker_mp.get()
    } else {
        t.ground_mp.get()
    }
}

pub(super) fn treacherous(state: &GkState, u: &Unit, kind: TerrainKind) -> bool {
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
pub(super) fn advance(
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
pub(super) fn turn(
    state: &mut GkState,
    name: &str,
    p: &mut Progress,
    to: f64,
) -> Result<(), String> {
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

pub(super) fn mode_word(m: MoveMode) -> &'static str {
    match m {
        MoveMode::Walker => "Walker",
        MoveMode::Ground => "Ground",
    }
}

pub(super) fn switch_mode(
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

pub(super) fn shift(state: &mut GkState, name: &str, p: &Progress, s: Shift) -> Result<(), String> {
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
pub(super) fn leg(state: &mut GkState, p: &mut Paused, ctx: &mut Ctx, act: &Act) -> Flow {
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
pub(super) fn bog_test(
    state: &mut GkState,
    p: &mut Paused,
    ctx: &mut Ctx,
    at: Pt,
    starting: bool,
) -> bool {
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
