//! The turn (stand-in base game, R1): each game turn two player turns, each a Maneuver, a
//! Fire and a Mêlée Segment and a rally. The agenda runs the phasing player's orders, the
//! charges and their mêlées, fire, the assaults picked in turn, and stops wherever a seat must
//! answer. Standing orders and answers come in here; the procedures live in their modules.
//! It reports where the agenda stopped (`Stop`) and never decides which step follows: that is
//! the sequence of play's (`procedure`).

use std::collections::BTreeMap;

use crate::engine::{Outcome, SeatId, Submitted};
use crate::rulesets::kit::roster::TwoSides;

use super::combat::join;
use super::decide::{self, Flow};
use super::movement::{self, Moved};
use super::roll::Roller;
pub use super::segment::victory_points;
use super::segment::{fire_segment, rally_segment};
use super::state::{
    Answer, CStage, LbState, Order, Orders, Phase, Policy, QKind, Question, Segment, StandingOrder,
    TargetKind, Task,
};
use super::{assault, cavalry, charge, maneuver};

/// Applies a seat's standing orders (any mail may carry them).
pub fn apply_standing(st: &mut LbState, seat: &str, orders: &[Order]) {
    let Some(side) = st.side_mut(seat) else {
        return;
    };
    let s = &mut side.standing;
    for o in orders {
        let Order::Standing(x) = o else { continue };
        match x {
            StandingOrder::Pick(c) => s.pick = *c,
            StandingOrder::RetreatAssault(p) => s.retreat_assault = *p,
            StandingOrder::RetreatCharge(p) => s.retreat_charge = *p,
            StandingOrder::Reassault(p) => s.reassault = *p,
            StandingOrder::Huzzah(p) => s.huzzah = *p,
            StandingOrder::Square(p) => s.square = *p,
            StandingOrder::SquareUnit(u, p) => {
                s.square_units.retain(|(n, _)| n != u);
                if *p != Policy::Ask {
                    s.square_units.push((u.clone(), *p));
                }
            }
            StandingOrder::Recall(p) => s.recall = *p,
            StandingOrder::Reaction(p) => s.reaction = *p,
            StandingOrder::FormUp(p) => s.form_up = *p,
            StandingOrder::Displace(c) => s.displace = *c,
            StandingOrder::Impetus(c) => s.impetus = *c,
            StandingOrder::Pursue(c) => s.pursue = *c,
            StandingOrder::OpportunityFire(on) => s.no_opportunity_fire = !on,
        }
    }
}

fn orders_of<'a>(
    subs: &'a BTreeMap<SeatId, Submitted<Orders>>,
    seat: &str,
) -> Option<&'a Vec<Order>> {
    match subs.get(seat) {
        Some(Submitted::Orders(o)) => Some(&o.list),
        _ => None,
    }
}

/// Every seat's standing orders in its mail, applied before the step's own orders or answer,
/// whatever the step (any mail may carry them).
pub fn take_standing(st: &mut LbState, subs: &BTreeMap<SeatId, Submitted<Orders>>) {
    let seats = st.seat_order.clone();
    for seat in &seats {
        if let Some(o) = orders_of(subs, seat) {
            let o = o.clone();
            apply_standing(st, seat, &o);
        }
    }
}

/// The Maneuver Segment (R1): the phasing player's orders, in the order written, then the
/// charges, their mêlées, the Fire Segment, the Mêlée Segment and the rally, as the agenda.
pub fn take_orders(st: &mut LbState, side: &str, subs: &BTreeMap<SeatId, Submitted<Orders>>) {
    let orders: Vec<Order> = orders_of(subs, side)
        .map(|o| {
            o.iter()
                .filter(|x| !matches!(x, Order::Standing(_) | Order::Answer(_) | Order::Pass))
                .cloned()
                .collect()
        })
        .unwrap_or_default();
    if orders_of(subs, side).is_none() {
        st.say(format!(
            "The {} player sent no orders in time: nothing moves.",
            st.side_name(side)
        ));
    }
    st.agenda = vec![
        Task::Orders { orders, next: 0 },
        Task::ExecuteCharges,
        Task::ChargeMelees,
        Task::FireSegment,
        Task::MeleeSegment,
        Task::EndPlayerTurn,
    ];
}

/// The asked seat's answer, kept for the procedure that asked (it takes it when the agenda
/// runs on); silence gets R30's answer, a standing order sent since decides when it asks again.
pub fn take_answer(
    st: &mut LbState,
    question: &Question,
    subs: &BTreeMap<SeatId, Submitted<Orders>>,
) {
    let exploit: Option<Vec<Order>> = (question.kind == QKind::Exploit)
        .then(|| orders_of(subs, &question.seat))
        .flatten()
        .map(|o| {
            o.iter()
                .filter(|x| {
                    matches!(
                        x,
                        Order::Move { .. }
                            | Order::Face { .. }
                            | Order::Form { .. }
                            | Order::Assault { .. }
                    )
                })
                .cloned()
                .collect()
        });
    let answer = exploit
        .filter(|v| !v.is_empty())
        .map(Answer::Exploit)
        .or_else(|| {
            orders_of(subs, &question.seat).and_then(|o| {
                o.iter().find_map(|x| match x {
                    Order::Answer(a) => Some(a.clone()),
                    _ => None,
                })
            })
        });
    st.answer = match answer {
        Some(a) => Some(a),
        // Orders without an answer, or a standing order sent after the question was
        // put (SO1): the procedure asks again and its standing order decides.
        None if orders_of(subs, &question.seat).is_some() => None,
        None if question.standing_answers => {
            st.say(format!(
                "The {} player's standing order answers.",
                st.side_name(&question.seat)
            ));
            None
        }
        None => {
            st.say(format!(
                "The {} player stayed silent.",
                st.side_name(&question.seat)
            ));
            Some(decide::silent_answer(question))
        }
    };
}

/// Where the agenda stopped; the sequence of play says what comes next from it.
#[derive(Debug, Clone, PartialEq)]
pub enum Stop {
    /// A seat must answer this question (the procedure that asked waits on the agenda).
    Asked(Question),
    /// The Rally is over: the player turn ends (`segment::end_player_turn`).
    TurnEnds,
    /// The rules ended the game on the way.
    GameOver(Outcome),
    /// Nothing left to run and nobody asked (a cut-short turn): the phasing player's turn.
    Halted,
}

/// Runs the agenda until a question is asked, the player turn ends, or the game ends.
pub fn run(st: &mut LbState, r: &mut dyn Roller) -> Stop {
    // While the agenda runs the phase is the phasing player's turn: a procedure that must ask
    // puts its question there (`decide::ask`), which is how the agenda knows to stop.
    st.phase = Phase::Maneuver {
        side: st.phasing.clone(),
    };
    for _ in 0..100_000 {
        if let Phase::Question { question } = &st.phase {
            return Stop::Asked(question.clone());
        }
        if let Some(o) = &st.outcome {
            return Stop::GameOver(o.clone());
        }
        if st.agenda.is_empty() {
            st.segment = Segment::Maneuver;
            st.answer = None;
            return Stop::Halted;
        }
        let task = st.agenda.remove(0);
        if task == Task::EndPlayerTurn {
            // The Maneuver Segment's agenda ends with it (tasks are only put in front): the
            // Rally closes the player turn (R20) and rolls; the rest is the turn's end.
            rally_segment(st, r);
            return Stop::TurnEnds;
        }
        if exec(st, r, task) == Flow::Asked {
            return match &st.phase {
                Phase::Question { question } => Stop::Asked(question.clone()),
                _ => Stop::Halted,
            };
        }
    }
    // A procedure that never ends would be a bug; the turn ends rather than loop forever.
    st.say("The turn is cut short.");
    st.agenda.clear();
    Stop::Halted
}

fn exec(st: &mut LbState, r: &mut dyn Roller, task: Task) -> Flow {
    match task {
        Task::Orders { orders, next } => next_order(st, orders, next),
        Task::Move(mut mv) => match movement::run_move(st, r, &mut mv) {
            Moved::Asked => {
                st.agenda.insert(0, Task::Move(mv));
                Flow::Asked
            }
            Moved::Over => Flow::Done,
            Moved::Approached(decl) => {
                assault::declare(st, r, &mv.unit, &decl);
                Flow::Done
            }
        },
        Task::StartTrigger { unit, event } => {
            let id: u32 = event.trim_start_matches('C').parse().unwrap_or(0);
            let f = charge::marker_trigger(st, r, id);
            if f == Flow::Asked {
                st.agenda.insert(0, Task::StartTrigger { unit, event });
            }
            f
        }
        Task::Assault(id) => {
            let f = assault::run(st, r, id);
            again(st, Task::Assault(id), f)
        }
        Task::ExecuteCharges => execute_charges(st),
        Task::ChargeMove(id) => {
            let f = charge::run(st, r, id);
            again(st, Task::ChargeMove(id), f)
        }
        Task::ChargeMelees => charge_melees(st),
        Task::ChargeMelee(id) => {
            let f = cavalry::run(st, r, id);
            again(st, Task::ChargeMelee(id), f)
        }
        Task::PickCavalryMelee => pick_cavalry_melee(st),
        Task::FireSegment => {
            st.segment = Segment::Fire;
            fire_segment(st, r);
            Flow::Done
        }
        Task::MeleeSegment => melee_segment(st),
        Task::PickAssault => pick_assault(st),
        // `run` ends the player turn itself: the Rally there, the rest at the turn's end.
        Task::EndPlayerTurn => Flow::Done,
    }
}

/// The next of a player's maneuver orders, the rest put back on the agenda after it.
fn next_order(st: &mut LbState, orders: Vec<Order>, next: usize) -> Flow {
    // Old Guard exploitation orders run inside the Mêlée Segment.
    if st.segment != Segment::Melee {
        st.segment = Segment::Maneuver;
    }
    if next >= orders.len() {
        return Flow::Done;
    }
    let o = orders[next].clone();
    st.agenda.insert(
        0,
        Task::Orders {
            orders,
            next: next + 1,
        },
    );
    maneuver::order(st, &o);
    Flow::Done
}

/// The phasing side's declared charges move, in the order they were declared.
fn execute_charges(st: &mut LbState) -> Flow {
    let ids: Vec<u32> = st
        .charges
        .iter()
        .filter(|c| c.stage == CStage::Declared && c.side == st.phasing)
        .map(|c| c.id)
        .collect();
    for id in ids.into_iter().rev() {
        st.agenda.insert(0, Task::ChargeMove(id));
    }
    Flow::Done
}

/// The charges that arrived fight: those not against cavalry first, in order; then the
/// cavalry mêlées, in the order the phasing player picks.
fn charge_melees(st: &mut LbState) -> Flow {
    let mut first = Vec::new();
    let mut cav = false;
    for c in st.charges.iter().filter(|c| c.stage == CStage::Arrived) {
        match cavalry::kind(st, c) {
            Some(TargetKind::Cavalry) => cav = true,
            _ => first.push(c.id),
        }
    }
    if cav {
        st.picker = Some(st.phasing.clone());
        st.agenda.insert(0, Task::PickCavalryMelee);
    }
    for id in first.into_iter().rev() {
        st.agenda.insert(0, Task::ChargeMelee(id));
    }
    Flow::Done
}

/// The picker's choice of the next cavalry mêlée, then the pick again.
fn pick_cavalry_melee(st: &mut LbState) -> Flow {
    let pending: Vec<u32> = st
        .charges
        .iter()
        .filter(|c| c.stage == CStage::Arrived)
        .map(|c| c.id)
        .collect();
    let labels: Vec<String> = pending.iter().map(|i| format!("C{i}")).collect();
    pick(st, Task::PickCavalryMelee, &labels, "cavalry mêlée").map_or(Flow::Asked, |i| {
        if let Some(id) = i.and_then(|k| pending.get(k).copied()) {
            st.agenda.insert(0, Task::PickCavalryMelee);
            st.agenda.insert(0, Task::ChargeMelee(id));
        }
        Flow::Done
    })
}

/// The Mêlée Segment: firefights are due again; the player with more assaults due picks the
/// order (R21).
fn melee_segment(st: &mut LbState) -> Flow {
    st.segment = Segment::Melee;
    for a in st.assaults.iter_mut() {
        if a.firefight {
            a.due = true;
        }
    }
    let due: Vec<&super::state::Assault> = st.assaults.iter().filter(|a| a.due).collect();
    if due.is_empty() {
        return Flow::Done;
    }
    let mine = due.iter().filter(|a| a.attacker == st.phasing).count();
    let theirs = due.len() - mine;
    // The player with the most assaults picks first; equal: the phasing player (R21).
    st.picker = Some(if theirs > mine {
        st.enemy_of(&st.phasing).unwrap_or_default().to_string()
    } else {
        st.phasing.clone()
    });
    st.agenda.insert(0, Task::PickAssault);
    Flow::Done
}

/// The picker's choice of the next assault due, then the pick again.
fn pick_assault(st: &mut LbState) -> Flow {
    let due: Vec<u32> = st.assaults.iter().filter(|a| a.due).map(|a| a.id).collect();
    let labels: Vec<String> = due.iter().map(|i| format!("A{i}")).collect();
    pick(st, Task::PickAssault, &labels, "assault").map_or(Flow::Asked, |i| {
        if let Some(id) = i.and_then(|k| due.get(k).copied()) {
            if let Some(a) = st.assault_mut(id) {
                a.due = false;
            }
            st.agenda.insert(0, Task::PickAssault);
            st.agenda.insert(0, Task::Assault(id));
        }
        Flow::Done
    })
}

fn again(st: &mut LbState, t: Task, f: Flow) -> Flow {
    if f == Flow::Asked {
        st.agenda.insert(0, t);
    }
    f
}

/// Who picks the next mêlée, and which: `Ok(Some(index))`, `Ok(None)` when none is left,
/// `Err` when the picker was asked. Players alternate (p.1, p.8).
fn pick(st: &mut LbState, task: Task, labels: &[String], what: &str) -> Result<Option<usize>, ()> {
    if labels.is_empty() {
        st.picker = None;
        return Ok(None);
    }
    let picker = st.picker.clone().unwrap_or_else(|| st.phasing.clone());
    let choice = if labels.len() == 1 {
        0
    } else {
        match decide::take(st) {
            Some(super::state::Answer::Pick(l)) => labels.iter().position(|x| *x == l).unwrap_or(0),
            Some(_) => auto_pick(st, &picker, labels),
            None if decide::auto(st.standing(&picker).pick) => auto_pick(st, &picker, labels),
            None => {
                let text = format!(
                    "Choose the next {what} to resolve: {}. Answer PICK label.",
                    labels
                        .iter()
                        .map(|l| describe(st, l))
                        .collect::<Vec<_>>()
                        .join("; ")
                );
                st.agenda.insert(0, task);
                decide::ask(
                    st,
                    decide::question(&picker, QKind::Pick, text, labels.to_vec()),
                );
                return Err(());
            }
        }
    };
    st.say(format!(
        "The {} player picks {}.",
        st.side_name(&picker),
        labels[choice]
    ));
    st.picker = Some(st.enemy_of(&picker).unwrap_or_default().to_string());
    Ok(Some(choice))
}

/// `PICK AUTO`: the picker's own mêlées first, in the order declared (R21).
fn auto_pick(st: &LbState, picker: &str, labels: &[String]) -> usize {
    labels
        .iter()
        .position(|l| owner(st, l).as_deref() == Some(picker))
        .unwrap_or(0)
}

fn owner(st: &LbState, label: &str) -> Option<String> {
    let id: u32 = label[1..].parse().ok()?;
    if label.starts_with('A') {
        st.assault(id).map(|a| a.attacker.clone())
    } else {
        st.charge(id).map(|c| c.side.clone())
    }
}

/// `A3: 1/45e on 0610`, for the question.
pub fn describe(st: &LbState, label: &str) -> String {
    let Ok(id) = label[1..].parse::<u32>() else {
        return label.to_string();
    };
    if label.starts_with('A') {
        let Some(a) = st.assault(id) else {
            return label.to_string();
        };
        format!(
            "{label} ({}: {} on {}{})",
            st.side_name(&a.attacker),
            join(&a.units),
            a.targets
                .iter()
                .map(|t| st.label(*t))
                .collect::<Vec<_>>()
                .join(" "),
            if a.firefight { ", firefight" } else { "" }
        )
    } else {
        let Some(c) = st.charge(id) else {
            return label.to_string();
        };
        format!(
            "{label} ({}: {} {})",
            st.side_name(&c.side),
            join(&c.units),
            charge_target_words(st, c, None)
        )
    }
}

/// `on 0804`, or, before the target is declared within two hexes (p.6 step 3), `target not
/// yet declared` to everybody but the charging side (`me`).
pub fn charge_target_words(st: &LbState, c: &super::state::Charge, me: Option<&str>) -> String {
    if charge::open_target(st, c) || me == Some(c.side.as_str()) {
        format!("on {}", st.label(c.target))
    } else {
        "(target not yet declared)".to_string()
    }
}

/// `describe` as `me` may read it: the charging side also sees its undeclared target.
pub fn describe_for(st: &LbState, label: &str, me: Option<&str>) -> String {
    match label[1..].parse::<u32>().ok().and_then(|id| st.charge(id)) {
        Some(c) if label.starts_with('C') => format!(
            "{label} ({}: {} {})",
            st.side_name(&c.side),
            join(&c.units),
            charge_target_words(st, c, me)
        ),
        _ => describe(st, label),
    }
}
