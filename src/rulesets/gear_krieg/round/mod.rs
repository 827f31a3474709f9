//! The round's sequence (p.3): set-up, Step 1 declarations, Step 2 initiative and Command
//! Points, the alternation of Step 3 with interrupts, Step 4 clean-up, and victory (R28–R30).
//! Every state change of the sequence lives here; the acts themselves are in `activation`.
//! It never sets the phase: each step says what comes next as a `Next`, and only the sequence
//! of play (`procedure`) enters it. Here: Steps 1, 2 and 4 and whose turn it is; opening.rs the
//! opening state, activate.rs Step 3 (activations, queues, interrupts), victory.rs the end.

use std::collections::BTreeMap;

use crate::dice::Dice;
use crate::engine::procedure::Next;
use crate::engine::{LogLine, SeatId, Submitted};
use crate::rulesets::kit::roster::{Roster, TwoSides};

use super::data::InitialSpeed;
use super::in_force::orders_of;
use super::roll;
use super::state::{GkState, Order, Orders, Phase};
use super::stats;

mod activate;
mod opening;
mod victory;

pub use activate::{resolve_activate, resolve_interrupt};
pub use opening::new_state;
pub use victory::{game_over, victory_figures, victory_points};
use victory::{outcome_now, round_limit_outcome};

// Where it always was for the tests and tools that apply standing orders to a state.
pub use super::in_force::apply_standing;

/// Step 1 declarations (sealed), then Step 2 initiative and the choice of who starts.
pub fn resolve_declare(
    state: &mut GkState,
    subs: &BTreeMap<SeatId, Submitted<Orders>>,
    dice: &mut Dice,
) -> Next<Phase> {
    let seats = state.seat_order.clone();
    for seat in &seats {
        let o = orders_of(subs, seat).to_vec();
        apply_standing(state, seat, &o);
        let mut said = Vec::new();
        for x in &o {
            match x {
                Order::Speed { unit, speed } => {
                    let data = state.data.clone();
                    if let Some(u) = state.unit_mut(unit) {
                        u.initial = *speed;
                        u.top = *speed == InitialSpeed::Top;
                        // Attacked before moving in round 1: the maximum of its speed (p.3).
                        u.last_move = match speed {
                            InitialSpeed::Stationary => 0.0,
                            InitialSpeed::Combat => stats::mp(&data, u, u.mode, false),
                            InitialSpeed::Top => stats::mp(&data, u, u.mode, true),
                        };
                    }
                    said.push(format!("{unit} {}", format!("{speed:?}").to_lowercase()));
                }
                Order::Extra { unit, n } => {
                    if let Some(u) = state.unit_mut(unit) {
                        u.extra_declared = *n;
                        u.actions = 1 + n;
                    }
                    said.push(format!("{unit} +{n} action(s)"));
                }
                Order::Defend(unit) => {
                    if let Some(u) = state.unit_mut(unit)
                        && !u.top
                    {
                        u.defensive = true;
                        u.actions = 0;
                        u.extra_declared = 0;
                    }
                    said.push(format!("{unit} defensive maneuvers"));
                }
                _ => {}
            }
        }
        let name = state.side_name(seat);
        state.log.push(LogLine::public(if said.is_empty() {
            format!("{name} declares nothing.")
        } else {
            format!("{name} declares: {}.", said.join("; "))
        }));
    }
    initiative(state, dice)
}

/// Step 2 (p.3): two dice each, draws re-rolled; winner's CP = MoS, loser's 1.
pub fn initiative(state: &mut GkState, dice: &mut Dice) -> Next<Phase> {
    let seats = state.seat_order.clone();
    let n = state.data.rules.initiative_dice.int().max(1) as u32;
    let mut attempt = 0;
    let (a, b) = loop {
        attempt += 1;
        let suffix = if attempt == 1 {
            String::new()
        } else {
            format!(" re-roll {}", attempt - 1)
        };
        let ra = roll::roll(
            dice,
            format!("initiative round {} {}{suffix}", state.round, seats[0]),
            n,
            0,
        );
        let rb = roll::roll(
            dice,
            format!("initiative round {} {}{suffix}", state.round, seats[1]),
            n,
            0,
        );
        state.log.push(LogLine::public(format!(
            "Initiative: {} {}, {} {}.",
            state.side_name(&seats[0]),
            roll::show(&ra),
            state.side_name(&seats[1]),
            roll::show(&rb)
        )));
        // A run of draws this long is (1/6)^20-rare; the first seat then wins by 1 (R26).
        if ra.total != rb.total || attempt >= 20 {
            break (ra.total, rb.total);
        }
    };
    let (winner, loser, mos) = if a >= b {
        (&seats[0], &seats[1], (a - b).max(1))
    } else {
        (&seats[1], &seats[0], b - a)
    };
    let loser_cp = state.data.rules.loser_cp.int().max(0) as u32;
    for s in &seats {
        let cp = if s == winner { mos as u32 } else { loser_cp };
        let total = if s == winner { a.max(b) } else { a.min(b) };
        if let Some(side) = state.side_mut(s) {
            side.cp = cp;
            side.initiative = Some(total);
        }
    }
    let (w, l) = (state.side_name(winner), state.side_name(loser));
    state.log.push(LogLine::public(format!(
        "{w} wins the initiative by {mos}: {w} {mos} CP, {l} {loser_cp} CP."
    )));
    // The side with fewer units chooses; equal numbers: the winner (p.3; choice given in advance, R25).
    let na = state.alive(&seats[0]).len();
    let nb = state.alive(&seats[1]).len();
    let chooser = if na < nb {
        seats[0].clone()
    } else if nb < na {
        seats[1].clone()
    } else {
        winner.clone()
    };
    let first = if state.side(&chooser).is_some_and(|s| s.choose_first) {
        chooser.clone()
    } else {
        state.enemy_of(&chooser).unwrap_or_default().to_string()
    };
    state.log.push(LogLine::public(format!(
        "{} chooses: {} activates first.",
        state.side_name(&chooser),
        state.side_name(&first)
    )));
    state.to_play = first;
    next_activation(state)
}

/// After an activation (or at the round's start): whose turn, or Step 4 (the round's end).
pub fn next_activation(state: &mut GkState) -> Next<Phase> {
    let me = state.to_play.clone();
    let other = state.enemy_of(&me).unwrap_or_default().to_string();
    if !state.unactivated(&me).is_empty() {
        Next::To(Phase::Activate { side: me })
    } else if !state.unactivated(&other).is_empty() {
        state.to_play = other.clone();
        Next::To(Phase::Activate { side: other })
    } else {
        Next::EndOfTurn
    }
}

/// The side has just played: the turn passes to the other side if it has units left to
/// activate (p.3), else stays.
fn pass_turn(state: &mut GkState, played: &str) -> Next<Phase> {
    let other = state.enemy_of(played).unwrap_or_default().to_string();
    state.to_play = if state.unactivated(&other).is_empty() {
        played.to_string()
    } else {
        other
    };
    next_activation(state)
}

/// Step 4 (p.3): CP back to zero, unspent Actions lost, zones gone; victory or the next round.
pub fn end_round(state: &mut GkState) -> Next<Phase> {
    state
        .log
        .push(LogLine::public(format!("End of round {}.", state.round)));
    for s in &mut state.sides {
        s.cp = 0;
        s.initiative = None;
    }
    state.zones.clear();
    for u in &mut state.units {
        u.activated = false;
        u.actions = 1;
        u.actions_used = 0;
        u.extra_declared = 0;
        u.defensive = false;
        u.cp_used = false;
        u.cp_defend = false;
        u.mode_switched = false;
        u.walked.clear();
        u.overwatch_fired = 0;
        u.moved = None;
    }
    if let Some(o) = outcome_now(state) {
        return Next::GameOver(o);
    }
    if state.round >= state.max_rounds {
        return Next::GameOver(round_limit_outcome(state));
    }
    state.round += 1;
    Next::To(Phase::Declare)
}
