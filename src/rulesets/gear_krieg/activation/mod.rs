//! Step 3 of the round: running one activation act by act, centimetre by centimetre, with
//! terrain costs, turns, modes, roads, treacherous ground, saturation zones, overwatch and the
//! "interrupt now?" pause. The same code checks orders (no dice) and resolves them (dice).

use crate::board::tabletop::{bearing, dist, heading_diff};
use crate::dice::Dice;
use crate::engine::LogLine;
use crate::rulesets::kit::roster::{Roster, TwoSides};

use super::combat;
use super::data::MoveMode;
use super::ground;
use super::state::{Act, Block, GkState, Melee, Paused, Progress, Shift, TurnBy, Unit};
use super::stats;
use crate::rulesets::kit::grammar::tenths;

mod acts;
mod moving;

pub use acts::{check_fire, uncovered_shooter, usable_weapon};
use acts::{fire, melee, overwatch, rally};
use moving::{leg, mode_word, shift, switch_mode, turn};
pub use moving::{planned_distance, turned};

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
    take_cp(state, &u, name)
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
    take_cp(state, &u, name)?;
    if let Some(m) = state.unit_mut(name) {
        m.heading = to;
    }
    Ok(())
}

/// The unit's one Command Point of the round, from its side's (p.3): refused when the unit
/// has used its own or the side has none left.
fn take_cp(state: &mut GkState, u: &Unit, name: &str) -> Result<(), String> {
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
