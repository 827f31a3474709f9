//! The mail's shape and the turn's opening (§5.0): activation blocks, taking in settings and
//! queued activations, the set-up's orders, and Phase I (the Initiative with its tie rule,
//! random events and forfeit). The checks are in `checks`, Phase II in `cycle`, Phases III–VII
//! and victory in `phases`; which step follows which is the sequence of play's alone
//! (`procedure`): nothing here calls into another step or sets the phase.

use std::collections::BTreeMap;

use crate::dice::{Dice, Faces};
use crate::engine::{SeatId, Submitted};
use crate::rulesets::kit::roster::{Roster, TwoSides};

use super::action;
use super::data::{Event, Kind};
use super::resolution;
use super::setup;
use super::state::{LhyState, Order, Orders, Place, Setting, Status};

/// One activation as a mail gives it: the ACTIVATE line and what follows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    pub platoon: String,
    pub with: Option<String>,
    pub orders: Vec<Order>,
}

/// Splits orders into the lines before the first ACTIVATE and the activation blocks.
pub fn blocks(orders: &[Order]) -> (Vec<Order>, Vec<Vec<Order>>) {
    let mut head = Vec::new();
    let mut out: Vec<Vec<Order>> = Vec::new();
    for o in orders {
        match o {
            Order::Activate { .. } => out.push(vec![o.clone()]),
            _ if out.is_empty() => head.push(o.clone()),
            _ => out.last_mut().expect("a block").push(o.clone()),
        }
    }
    (head, out)
}

pub(super) fn is_setting(o: &Order) -> bool {
    matches!(
        o,
        Order::Standing(_) | Order::StandingOff(_) | Order::Set(_)
    )
}

// ---------------------------------------------------------------- applying

pub(super) fn settings(s: &mut LhyState, side: &str, orders: &[Order]) {
    standing_and_settings(s, side, orders);
    super::assault::declare(s, side, orders);
}

/// The standing reactions and SET lines of a mail (any step's, ruling SO1).
pub(super) fn standing_and_settings(s: &mut LhyState, side: &str, orders: &[Order]) {
    for o in orders {
        let Some(sd) = s.side_mut(side) else { return };
        match o {
            Order::Standing(st) => {
                sd.standing
                    .retain(|x| x.who != st.who || x.rule.if_assaulted() != st.rule.if_assaulted());
                sd.standing.push(st.clone());
            }
            Order::StandingOff(w) => sd.standing.retain(|x| &x.who != w),
            Order::Set(Setting::Reactions(a)) => sd.ask = *a,
            Order::Set(Setting::CloseDefence(on)) => sd.close_defence = *on,
            Order::Set(Setting::Recombine(on)) => sd.recombine = *on,
            _ => {}
        }
    }
}

/// Takes in a mail's settings and queued activations (the lines after each ACTIVATE beyond
/// what the current step uses).
pub(super) fn take_in(s: &mut LhyState, side: &str, orders: &[Order], queue_from: usize) {
    settings(s, side, orders);
    let (_, bl) = blocks(orders);
    if bl.len() > queue_from {
        let q: Vec<Vec<Order>> = bl[queue_from..].to_vec();
        if let Some(sd) = s.side_mut(side) {
            sd.queued = q;
        }
    }
}

/// The sealed set-up mails (R20): settings, then placement, hiding, dummies and facings.
pub fn resolve_setup(s: &mut LhyState, subs: &BTreeMap<SeatId, Submitted<Orders>>) {
    for (seat, sub) in subs {
        if let Submitted::Orders(o) = sub {
            settings(s, seat, o);
            setup::apply(s, seat, o);
        }
        if let Some(sd) = s.side_mut(seat) {
            sd.set_up = true;
        }
    }
    s.public("Both sides have set up.");
}

// ---------------------------------------------------------------- Phase I

fn has_command(s: &LhyState, side: &str) -> bool {
    s.on_map().any(|u| u.side == side && u.kind == Kind::Leader)
        || s.platoons.iter().any(|p| {
            p.side == side
                && p.armour
                && s.on_map()
                    .any(|u| u.platoon.as_deref() == Some(p.id.as_str()))
        })
}

/// §5.0 I: who wins the Initiative from two modified rolls (ties: odd Axis, even Allied).
pub fn initiative_winner(s: &LhyState, rolls: &[(String, i32)]) -> String {
    let (a, b) = (&rolls[0], &rolls[1]);
    if a.1 != b.1 {
        return if a.1 > b.1 { a.0.clone() } else { b.0.clone() };
    }
    let axis_wins = a.1.rem_euclid(2) == 1;
    s.sides
        .iter()
        .find(|x| x.allied != axis_wins)
        .map(|x| x.id.clone())
        .unwrap_or_default()
}

/// §7.0's Random Event Table for `side`. What it does to a unit the enemy sees as itself is
/// told to the enemy (and spectators) too; a hidden or concealed unit's stays with its owner.
pub fn random_event(s: &mut LhyState, side: &str, dice: &mut Dice) {
    let roll = dice.roll_one(format!("{side}: Random Event Table"), Faces::d(10));
    let event = s
        .data
        .tables
        .random_events
        .get()
        .iter()
        .find(|r| roll <= r.up_to)
        .map_or(Event::Quiet, |r| r.event);
    let name = s.side_name(side);
    match event {
        Event::Quiet => s.public(format!("Random event for {name} ({roll}): all quiet.")),
        Event::TimePasses => {
            let m = s.data.tables.time_passes_minutes.int().max(0) as u32;
            s.elapsed += m;
            s.public(format!(
                "Random event for {name} ({roll}): time passes, {m} minutes."
            ));
        }
        Event::SecondWind => {
            let who = s
                .on_map()
                .filter(|u| u.side == side && u.status != Status::Good)
                .map(|u| u.name.clone())
                .next();
            s.public(format!("Random event for {name} ({roll}): second wind."));
            if let Some(n) = who {
                let seen = action::seen_as_itself(s, &n);
                if let Some(u) = s.unit_mut(&n) {
                    u.status = resolution::better(u.status);
                }
                let line = format!("{n} recovers one step of its condition.");
                s.private(side, line.clone());
                if seen {
                    s.to_enemies(side, line);
                }
            }
        }
        Event::Confusion => {
            if let Some(sd) = s.side_mut(side) {
                sd.confused = true;
            }
            s.public(format!(
                "Random event for {name} ({roll}): confusion, no Coordination this turn."
            ));
        }
        Event::LeaderDown => {
            let who = s
                .on_map()
                .filter(|u| u.side == side && u.kind == Kind::Leader)
                .map(|u| u.name.clone())
                .next();
            s.public(format!(
                "Random event for {name} ({roll}): a platoon leader is called away."
            ));
            if let Some(n) = who {
                // Seen before he goes: once away he is on nobody's map.
                let seen = action::seen_as_itself(s, &n);
                if let Some(u) = s.unit_mut(&n) {
                    u.place = Place::Away;
                }
                let line = format!("{n} leaves the map until the Clean Up Phase.");
                s.private(side, line.clone());
                if seen {
                    s.to_enemies(side, line);
                }
            }
        }
    }
}

/// A new game turn and its Initiative Phase (§5.0 I): who holds the Initiative and is active.
pub fn start_turn(s: &mut LhyState, dice: &mut Dice) {
    s.turn.number += 1;
    s.turn.company = None;
    s.turn.companies_done.clear();
    s.turn.platoons_done.clear();
    s.turn.ad_hoc.clear();
    s.turn.cycle = None;
    s.turn.coordinated = None;
    s.turn.mails = 0;
    s.turn.cycles = 0;
    s.turn.assault_order.clear();
    for sd in &mut s.sides {
        sd.confused = false;
        sd.queued.clear();
    }
    s.public(format!("Game turn {} — Initiative Phase.", s.turn.number));
    let holder = s.turn.holder.clone();
    let mut rolls = Vec::new();
    let mut raw = Vec::new();
    for seat in s.seat_order.clone() {
        let roll = dice.roll_one(format!("{seat}: Initiative"), Faces::d(10));
        let drm = if seat == holder {
            s.side(&seat).map_or(0, |x| x.initiative_drm)
        } else {
            0
        };
        s.public(format!(
            "{} rolls {roll}{} for the Initiative.",
            s.side_name(&seat),
            if drm != 0 {
                format!(" {} = {}", super::fire::signed(drm), roll as i32 + drm)
            } else {
                String::new()
            }
        ));
        rolls.push((seat.clone(), roll as i32 + drm));
        raw.push((seat, roll));
    }
    s.turn.rolls = raw
        .iter()
        .zip(&rolls)
        .map(|((n, r), (_, m))| (n.clone(), *r, *m))
        .collect();
    let mut winner = initiative_winner(s, &rolls);
    // §5.0 I: an unmodified 1 or 10 calls for the Random Event Table.
    let low = s.data.rules.random_event_low.int() as u32;
    let high = s.data.rules.random_event_high.int() as u32;
    for (seat, roll) in &raw {
        if *roll == low || *roll == high {
            random_event(s, seat, dice);
        }
    }
    if !has_command(s, &winner) {
        let other = s.enemy_of(&winner).unwrap_or_default().to_string();
        s.public(format!(
            "{} has no platoon leader and no AFV platoon in play and loses the Initiative.",
            s.side_name(&winner)
        ));
        winner = other;
    }
    s.turn.holder = winner.clone();
    s.turn.active = winner.clone();
    s.public(format!(
        "{} holds the Initiative and is the active player.",
        s.side_name(&winner)
    ));
}
