//! How the battle ends (R28–R30): a side with no unit left loses at once; at the round limit
//! victory points decide, by the scenario's margin. Also the figures the game-over mail prints.

use crate::board::tabletop::Pt;
use crate::engine::{LogLine, Outcome};
use crate::rulesets::kit::roster::TwoSides;

use super::super::state::{GkState, Phase};

/// The battle ends: said in the log both sides read, recorded, and no move left paused.
pub fn game_over(state: &mut GkState, o: Outcome) {
    state
        .log
        .push(LogLine::public(format!("The battle ends. {}", o.summary)));
    state.outcome = Some(o);
    state.phase = Phase::GameOver;
    state.paused = None;
}

/// A side with no unit left loses at once (R28): the outcome, if one has none.
pub(super) fn outcome_now(state: &GkState) -> Option<Outcome> {
    let seats = &state.seat_order;
    let gone: Vec<&String> = seats.iter().filter(|s| state.alive(s).is_empty()).collect();
    if gone.is_empty() {
        return None;
    }
    let o = if gone.len() == 2 {
        Outcome {
            winners: vec![],
            summary: "Both forces are destroyed: a draw.".into(),
        }
    } else {
        let w = state.enemy_of(gone[0]).unwrap_or_default().to_string();
        Outcome {
            summary: format!(
                "{} has no unit left: {} wins.",
                state.side_name(gone[0]),
                state.side_name(&w)
            ),
            winners: vec![w],
        }
    };
    Some(o)
}

/// Victory points (R29): the Threat Value of every destroyed enemy unit, half of it for an
/// enemy vehicle with Heavy Damage, and each objective held by one side alone.
pub fn victory_points(state: &GkState, side: &str) -> u32 {
    let mut vp = 0;
    for u in state.units.iter().filter(|u| u.side != side) {
        if u.destroyed {
            vp += u.threat;
        } else if u.heavy > 0 {
            vp += u.threat / 2;
        }
    }
    for o in &state.objectives {
        let near = |s: &str| {
            state.units.iter().any(|u| {
                u.side == s
                    && u.alive()
                    && crate::board::tabletop::dist(u.pos, Pt::new(o.x, o.y)) <= o.radius + 1e-9
            })
        };
        if near(side) && !near(state.enemy_of(side).unwrap_or_default()) {
            vp += o.points;
        }
    }
    vp
}

/// R28's figures for the game-over mail: each side's victory points and units still fighting.
pub fn victory_figures(state: &GkState) -> Vec<String> {
    let mut out: Vec<String> = state
        .seat_order
        .iter()
        .map(|seat| {
            let units = state.units.iter().filter(|u| &u.side == seat);
            let (alive, all) = units.fold((0, 0), |(a, n), u| (a + u.alive() as u32, n + 1));
            format!(
                "{}: {} VP; {alive} of {all} units still fighting.",
                state.side_name(seat),
                victory_points(state, seat)
            )
        })
        .collect();
    out.push(format!(
        "A side with no unit left loses at once; at the round limit ({} rounds) the side ahead \
         by at least {} VP wins, else a draw (R28).",
        state.max_rounds,
        state.winning_margin.max(1)
    ));
    out
}

pub(super) fn round_limit_outcome(state: &mut GkState) -> Outcome {
    let seats = state.seat_order.clone();
    let a = victory_points(state, &seats[0]);
    let b = victory_points(state, &seats[1]);
    for (s, v) in [(&seats[0], a), (&seats[1], b)] {
        if let Some(side) = state.side_mut(s) {
            side.vp = v;
        }
    }
    let margin = state.winning_margin;
    let (na, nb) = (state.side_name(&seats[0]), state.side_name(&seats[1]));
    let score = format!("{na} {a} VP, {nb} {b} VP");
    if a >= b + margin.max(1) {
        Outcome {
            winners: vec![seats[0].clone()],
            summary: format!("Round limit: {score}: {na} wins."),
        }
    } else if b >= a + margin.max(1) {
        Outcome {
            winners: vec![seats[1].clone()],
            summary: format!("Round limit: {score}: {nb} wins."),
        }
    } else {
        Outcome {
            winners: vec![],
            summary: format!("Round limit: {score}: a draw."),
        }
    }
}
