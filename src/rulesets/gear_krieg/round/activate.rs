//! Step 3 (p.3; R24, R25): a side activates a unit — from its email, else a block queued
//! before, else HOLD — a CP activation out of sequence first; a move paused where the enemy is
//! asked "interrupt now?", and the answer (interrupt fire, a CP activation) before it goes on.

use std::collections::BTreeMap;

use crate::board::tabletop::Pt;
use crate::dice::Dice;
use crate::engine::procedure::Next;
use crate::engine::{LogLine, SeatId, Submitted};
use crate::rulesets::kit::grammar::tenths;
use crate::rulesets::kit::roster::{Roster, TwoSides};

use super::super::activation::{self, Ctx, Flow};
use super::super::in_force::orders_of;
use super::super::orders::{self, blocks};
use super::super::state::{Block, GkState, Order, Orders, Phase, Unit};
use super::victory::outcome_now;
use super::{apply_standing, next_activation, pass_turn};

/// How a block ran: to its end, or to a point of its move where the enemy is asked
/// "interrupt now?" (the step that asks it).
enum Ran {
    Done,
    Asks(Phase),
}

/// Runs a block to the end or to an interrupt pause; finishing it when done.
fn run_block(state: &mut GkState, block: &Block, dice: &mut Dice, ask: bool) -> Ran {
    let mut p = activation::start(state, block);
    state.log.push(LogLine::public(format!(
        "{} activates {}{}.",
        state.side_name(
            &state
                .unit(&block.unit)
                .map(|u| u.side.clone())
                .unwrap_or_default()
        ),
        block.unit,
        if block.cp {
            " out of sequence (1 CP)"
        } else {
            ""
        }
    )));
    if block.cp
        && let Err(e) = activation::spend_cp_activation(state, &block.unit)
    {
        state.log.push(LogLine::public(format!(
            "{}: {e}; no activation.",
            block.unit
        )));
        return Ran::Done;
    }
    continue_block(state, &mut p, dice, ask)
}

fn continue_block(
    state: &mut GkState,
    p: &mut super::super::state::Paused,
    dice: &mut Dice,
    ask: bool,
) -> Ran {
    let mut ctx = Ctx {
        dice: Some(dice),
        targets: true,
        ask,
        errors: vec![],
    };
    match activation::run(state, p, &mut ctx) {
        Flow::Paused => {
            let mover = p.block.unit.clone();
            let side = state
                .unit(&mover)
                .map(|u| u.side.clone())
                .unwrap_or_default();
            let enemy = state.enemy_of(&side).unwrap_or_default().to_string();
            let at = state.unit(&mover).map_or(Pt::new(0.0, 0.0), |u| u.pos);
            state.log.push(LogLine::public(format!(
                "{mover} is at {},{}: {} may interrupt.",
                tenths(at.x),
                tenths(at.y),
                state.side_name(&enemy)
            )));
            state.paused = Some(p.clone());
            Ran::Asks(Phase::Interrupt { side: enemy, mover })
        }
        Flow::Done => {
            activation::finish(state, p);
            Ran::Done
        }
    }
}

fn queue_blocks(state: &mut GkState, seat: &str, bs: Vec<Block>) {
    if bs.is_empty() {
        return;
    }
    let n = bs.len();
    let mut replaced = vec![];
    if let Some(s) = state.side_mut(seat) {
        replaced = std::mem::replace(&mut s.queued, bs);
    }
    // A new queue replaces the old one whole: say so, or the player believes both will play.
    let replacing = if replaced.is_empty() {
        String::new()
    } else {
        format!(
            ", replacing the activation(s) queued before ({})",
            replaced
                .iter()
                .map(|b| format!("ACTIVATE {}", b.unit))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    state.log.push(LogLine::private(
        seat,
        format!(
            "{n} activation(s) queued for your next turn(s){replacing}; they are hidden from the enemy."
        ),
    ));
}

/// Queued blocks that can no longer be played (their unit activated, destroyed, or the ground
/// changed) are dropped when their turn comes, each with the reason, in the owner's log only.
fn drop_illegal_queued(state: &mut GkState, seat: &str) {
    while let Some(Err((unit, why))) = state.side(seat).and_then(|s| orders::queued_head(state, s))
    {
        if let Some(s) = state.side_mut(seat) {
            s.queued.remove(0);
        }
        state.log.push(LogLine::private(
            seat,
            format!("Your queued activation of {unit} is dropped: {why}."),
        ));
    }
}

/// Step 3: `side` activates a unit (its email, else a queued block, else HOLD).
pub fn resolve_activate(
    state: &mut GkState,
    side: String,
    subs: &BTreeMap<SeatId, Submitted<Orders>>,
    dice: &mut Dice,
) -> Next<Phase> {
    let other = state.enemy_of(&side).unwrap_or_default().to_string();
    // The waiting side's email: standing orders and activations queued for later.
    let o_other = orders_of(subs, &other).to_vec();
    apply_standing(state, &other, &o_other);
    queue_blocks(state, &other, blocks(&o_other));
    let o = orders_of(subs, &side).to_vec();
    apply_standing(state, &side, &o);
    drop_illegal_queued(state, &side);
    let mut bs = blocks(&o);
    let cp_block = bs.iter().position(|b| b.cp).map(|i| bs.remove(i));
    let main = if bs.is_empty() {
        let q = state
            .side(&side)
            .and_then(|s| orders::valid_queued(state, s));
        if q.is_some()
            && let Some(s) = state.side_mut(&side)
        {
            s.queued.remove(0);
            state.log.push(LogLine::private(
                &side,
                format!(
                    "Your queued activation of {} is played.",
                    q.as_ref().map_or("", |b| b.unit.as_str())
                ),
            ));
        }
        q
    } else {
        let rest = bs.split_off(1);
        queue_blocks(state, &side, rest);
        bs.pop()
    };
    if let Some(b) = cp_block
        && let Ran::Asks(interrupt) = run_block(state, &b, dice, true)
    {
        // The CP activation was interrupted: the regular one waits in the queue.
        if let Some(m) = main
            && let Some(s) = state.side_mut(&side)
        {
            s.queued.insert(0, m);
        }
        state.to_play = side.clone();
        return Next::To(interrupt);
    }
    if let Some(o) = outcome_now(state) {
        return Next::GameOver(o);
    }
    let main = main.or_else(|| {
        let u = state.unactivated(&side).first().map(|u| u.name.clone())?;
        state.log.push(LogLine::public(format!(
            "{} sends no activation: {u} holds.",
            state.side_name(&side)
        )));
        Some(Block {
            unit: u,
            cp: false,
            acts: vec![super::super::state::Act::Hold],
        })
    });
    let Some(main) = main else {
        return next_activation(state);
    };
    if state
        .unit(&main.unit)
        .is_none_or(|u| u.activated || !u.alive())
    {
        return next_activation(state);
    }
    match run_block(state, &main, dice, true) {
        Ran::Done => after_activation(state, &side),
        Ran::Asks(interrupt) => {
            state.to_play = side;
            Next::To(interrupt)
        }
    }
}

/// A side wiped out ends the game (R28); else the turn passes.
fn after_activation(state: &mut GkState, side: &str) -> Next<Phase> {
    if let Some(o) = outcome_now(state) {
        return Next::GameOver(o);
    }
    pass_turn(state, side)
}

/// The "interrupt now?" answer: CP orders, an out-of-sequence activation, interrupt fire at the
/// present point, standing orders for the rest of the move; then the mover goes on (R24).
pub fn resolve_interrupt(
    state: &mut GkState,
    side: String,
    mover: String,
    subs: &BTreeMap<SeatId, Submitted<Orders>>,
    dice: &mut Dice,
) -> Next<Phase> {
    let o = orders_of(subs, &side).to_vec();
    apply_standing(state, &side, &o);
    let mut bs = blocks(&o);
    if let Some(i) = bs.iter().position(|b| b.cp) {
        let b = bs.remove(i);
        // No question is asked inside an answer: the mover's side relies on its overwatch
        // (a block run without asking never stops for one, so it always runs to its end).
        run_block(state, &b, dice, false);
    }
    queue_blocks(state, &side, bs);
    let mut fired = false;
    for x in &o {
        if let Order::Interrupt { unit, fire } = x {
            fired = true;
            interrupt_fire(state, dice, unit, &mover, fire);
        }
    }
    if !fired {
        state.log.push(LogLine::public(format!(
            "{} does not interrupt.",
            state.side_name(&side)
        )));
    }
    let Some(mut p) = state.paused.take() else {
        return next_activation(state);
    };
    let mover_side = state.enemy_of(&side).unwrap_or_default().to_string();
    if let Ran::Asks(interrupt) = continue_block(state, &mut p, dice, false) {
        return Next::To(interrupt);
    }
    // A queued regular activation behind an interrupted CP activation plays now.
    if p.block.cp {
        drop_illegal_queued(state, &mover_side);
        let q = state
            .side(&mover_side)
            .and_then(|s| orders::valid_queued(state, s));
        let Some(b) = q else {
            state.to_play = mover_side;
            return next_activation(state);
        };
        if let Some(s) = state.side_mut(&mover_side) {
            s.queued.remove(0);
        }
        if let Ran::Asks(interrupt) = run_block(state, &b, dice, true) {
            return Next::To(interrupt);
        }
    }
    after_activation(state, &mover_side)
}

fn interrupt_fire(
    state: &mut GkState,
    dice: &mut Dice,
    unit: &str,
    mover: &str,
    fire: &super::super::state::Fire,
) {
    let Some(u) = state.unit(unit).cloned() else {
        return;
    };
    if !state.unit(mover).is_some_and(Unit::alive) {
        return;
    }
    if u.defensive || u.actions_left() == 0 || !u.alive() {
        state.log.push(LogLine::public(format!(
            "{unit} has no Action left to interrupt with."
        )));
        return;
    }
    let need = match activation::check_fire(state, &u, fire, true) {
        Ok(n) => n,
        Err(e) => {
            state
                .log
                .push(LogLine::public(format!("{unit} cannot interrupt: {e}.")));
            return;
        }
    };
    if let Some(x) = state.unit_mut(unit) {
        x.actions_used += 1;
    }
    super::super::combat::spend_ammo(state, unit, &fire.weapon, need);
    super::super::combat::ranged_attack(
        state,
        dice,
        unit,
        mover,
        &fire.weapon,
        fire.rof,
        "Interrupt: ",
    );
}
