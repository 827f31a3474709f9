//! Phase II, the Activation Phase (§6.0 II, §8.0): queued activations, the Platoon Activation
//! Cycle, the reaction loop answered by standing reactions where they cover the case (R18),
//! Marker Adjustment and the stacking choice. It reports what happened (a cycle began, a side
//! must be asked, a hex is over-stacked); which step follows is the sequence of play's alone
//! (`procedure`): nothing here sets the phase or calls into the next step. The rules of each
//! action live in `action` and `reaction`.

use std::collections::BTreeMap;

use crate::dice::{Dice, Faces};
use crate::engine::{SeatId, Silence, Submitted};
use crate::rulesets::kit::roster::{Roster, TwoSides};

use super::action;
use super::assault;
use super::concealment;
use super::data::Kind;
use super::orders::{self};
use super::reaction;
use super::stacking;
use super::state::{Action, Cycle, LhyState, Motion, Order, Orders, Place, Record, Status};

use super::checks::{check_activate, check_attach, check_block, members, waiting_platoons};
use super::turn::{blocks, settings, take_in};

// ---------------------------------------------------------------- Phase II

/// What an activation mail (or its silence) came to.
pub enum Activated {
    /// A Platoon Activation Cycle began (`false`: the block named no platoon, nothing began).
    Cycle(bool),
    /// The mail carried settings but no `ACTIVATE`: the next activation is sought again.
    NoBlock,
    /// Silence, and no platoon may activate: the Activation Phase is over.
    NoPlatoon,
}

/// What the calls for Reaction came to.
pub enum Calls {
    /// `side` is asked by mail.
    Mail(String),
    /// Two passes in a row: the cycle goes on to Marker Adjustment.
    Passed,
    /// No cycle is open (nothing to call).
    NoCycle,
}

/// The first of `side`'s queued activations that still fits the map; those that do not are
/// dropped, and the side is told it will be asked instead (`None`).
pub fn take_queued(s: &mut LhyState, side: &str) -> Option<Vec<Order>> {
    let side = side.to_string();
    while let Some(b) = s.side(&side).and_then(|x| x.queued.first().cloned()) {
        if let Some(sd) = s.side_mut(&side) {
            sd.queued.remove(0);
        }
        let lines: Vec<(usize, String, Order)> = b
            .iter()
            .map(|o| (0, orders::print_order(o), o.clone()))
            .collect();
        let errs = check_block(s, &side, &lines);
        if errs.is_empty() {
            return Some(b);
        }
        s.private(
            &side,
            format!(
                "Your queued activation `{}` no longer fits: {}. You are asked instead.",
                lines[0].1, errs[0].reason
            ),
        );
        if let Some(sd) = s.side_mut(&side) {
            sd.queued.clear();
        }
    }
    None
}

/// The active player's activation mail: the other seat's settings, then his; his first
/// `ACTIVATE` block plays and the rest queue. Silence activates the first platoon (R29).
pub fn resolve_activate(
    s: &mut LhyState,
    side: &str,
    subs: &BTreeMap<SeatId, Submitted<Orders>>,
    dice: &mut Dice,
) -> Activated {
    let side = side.to_string();
    for (seat, sub) in subs {
        if seat != &side
            && let Submitted::Orders(o) = sub
        {
            take_in(s, seat, o, usize::MAX);
        }
    }
    match subs.get(&side) {
        Some(Submitted::Orders(o)) => {
            s.turn.mails += 1;
            let (_, bl) = blocks(o);
            settings(s, &side, o);
            take_in(s, &side, o, 1);
            match bl.first() {
                Some(b) => Activated::Cycle(activate(s, &side, b, dice)),
                None => Activated::NoBlock,
            }
        }
        _ => {
            // R29: silence activates the first waiting platoon, its units holding (mandatory
            // actions still taken).
            let p = first_legal_platoon(s, &side);
            match p {
                Some(p) => {
                    s.public(format!(
                        "{} sent no orders: platoon {p} activates and holds.",
                        s.side_name(&side)
                    ));
                    Activated::Cycle(activate(
                        s,
                        &side,
                        &[Order::Activate {
                            platoon: p,
                            with: None,
                        }],
                        dice,
                    ))
                }
                None => Activated::NoPlatoon,
            }
        }
    }
}

pub fn first_legal_platoon(s: &LhyState, side: &str) -> Option<String> {
    waiting_platoons(s, side)
        .into_iter()
        .find(|p| check_activate(s, side, p, None).is_ok())
}

/// §9.1.1: units of the activation that must act.
pub fn mandatory_active(s: &LhyState, members: &[String]) -> Vec<String> {
    members
        .iter()
        .filter_map(|n| s.unit(n))
        .filter(|u| u.on_map() && !u.acted() && !u.dummy())
        .filter(|u| {
            u.heroic
                || u.status == Status::Shocked
                || (matches!(u.status, Status::Disrupted | Status::Regrouping)
                    && super::sight::in_los_of_known_enemy(s, u))
                || (u.vehicle() && u.motion != Motion::Stationary)
                || (u.vehicle() && super::sight::threatened_by_at(s, u))
        })
        .map(|u| u.name.clone())
        .collect()
}

/// What a mandatory unit does when its orders name none (R29).
fn mandatory_default(s: &LhyState, name: &str) -> Option<Action> {
    let u = s.unit(name)?;
    let tries = if u.vehicle() && u.motion == Motion::Green && !u.started {
        vec![Action::Move {
            units: vec![name.into()],
            path: vec![],
            reverse: false,
            deploy: false,
            overrun: None,
            stop: true,
            exit: false,
        }]
    } else if u.vehicle() && u.motion == Motion::Stationary {
        vec![Action::Move {
            units: vec![name.into()],
            path: vec![],
            reverse: false,
            deploy: false,
            overrun: None,
            stop: false,
            exit: false,
        }]
    } else {
        vec![Action::Recover { unit: name.into() }]
    };
    let side = u.side.clone();
    tries
        .into_iter()
        .find(|a| action::check(s, &side, a, false).is_ok())
}

/// Platoon Activation Cycle step 1 (§6.0 II): the platoons activate and their units act;
/// `false` when the block names no platoon (nothing began). The reaction loop comes next.
pub fn activate(s: &mut LhyState, side: &str, block: &[Order], dice: &mut Dice) -> bool {
    let Some(Order::Activate { platoon, with }) = block.first().cloned() else {
        return false;
    };
    let p = s.platoon(&platoon).cloned().expect("checked platoon");
    if s.turn.company.as_deref() != Some(p.company.as_str())
        && !(s.turn.coordinated == Some(false) && p.armour && s.turn.company.is_some())
    {
        s.turn.company = Some(p.company.clone());
        s.turn.coordinated = None;
    }
    let mut platoons = vec![platoon.clone()];
    if let Some(w) = &with
        && coordinate(s, side, &p.company, w, dice)
    {
        platoons.push(w.clone());
    }
    let mut attached = Vec::new();
    let mut afv = None;
    for o in &block[1..] {
        if let Order::Attach { unit } = o
            && check_attach(s, side, &platoons, unit, &mut afv).is_ok()
        {
            attached.push(unit.clone());
        }
    }
    if let Some(a) = &afv {
        platoons.push(a.clone());
    }
    for u in &attached {
        if s.unit(u)
            .and_then(|x| x.platoon.as_deref())
            .and_then(|p| s.platoon(p))
            .is_some_and(|p| !p.armour)
        {
            s.turn.ad_hoc.push(p.company.clone());
        }
    }
    let members = members(s, side, &platoons, &attached);
    s.turn.cycles += 1;
    s.turn.cycle = Some(Cycle {
        platoons: platoons.clone(),
        members: members.clone(),
        afv_platoon: afv,
        caller: side.to_string(),
        ..Cycle::default()
    });
    s.public(format!(
        "{} activates platoon {}.",
        s.side_name(side),
        platoons.join(" and ")
    ));
    answer_queries(s, side, block);
    let records = carry_out(s, side, block, &members, dice);
    for p in &platoons {
        if !s.turn.platoons_done.contains(p) {
            s.turn.platoons_done.push(p.clone());
        }
    }
    if let Some(c) = s.turn.cycle.as_mut() {
        c.last = records;
        c.caller = side.to_string();
    }
    true
}

/// The Coordination roll for a second platoon `w` of `company` activating with the first:
/// whether it succeeds (and `w` activates too).
fn coordinate(s: &mut LhyState, side: &str, company: &str, w: &str, dice: &mut Dice) -> bool {
    let drm = s.side(side).map_or(0, |x| x.coordination_drm);
    let roll = dice.roll_one(format!("{side}: Coordination"), Faces::d(10)) as i32;
    let ok = roll + drm >= s.data.rules.coordination_at_least.int();
    s.turn.coordinated = Some(ok);
    s.public(format!(
        "Coordination for company {}: {roll}{} — {}.",
        company,
        if drm != 0 {
            super::fire::signed(drm)
        } else {
            String::new()
        },
        if ok {
            format!("success, {w} activates too")
        } else {
            format!("failure, {w} waits")
        }
    ));
    ok
}

/// §4.3: the block's QUERY lines answered in public, each Concealment marker's truth told.
fn answer_queries(s: &mut LhyState, side: &str, block: &[Order]) {
    for o in block {
        if let Order::Query { hex } = o {
            let q = concealment::answer(s, side, *hex);
            let t = concealment::answer_text(s, &q);
            s.public(format!("Concealment query: {t}."));
            s.queries.push(q);
        }
    }
}

/// The block's actions by its members, then its declarations, then the mandatory actions
/// not ordered; what the enemy may react to.
fn carry_out(
    s: &mut LhyState,
    side: &str,
    block: &[Order],
    members: &[String],
    dice: &mut Dice,
) -> Vec<Record> {
    let mut records: Vec<Record> = Vec::new();
    let mut ordered: Vec<String> = Vec::new();
    for o in &block[1..] {
        if let Order::Act(a) = o {
            // Checked against the map when the mail came; the map may have changed since
            // (earlier actions of the same mail), so check again and log a refusal.
            if a.units().iter().any(|n| !members.contains(n)) {
                continue;
            }
            ordered.extend(a.units());
            match action::check(s, side, a, false) {
                Ok(()) => records.extend(action::perform(s, side, a, dice)),
                Err(e) => s.private(
                    side,
                    format!("`{}` is not carried out: {e}", orders::print_action(a)),
                ),
            }
        }
    }
    // R33: a FEINT line of this block applies to the arrow its ASSAULT line just placed.
    assault::declare(s, side, block);
    // §9.1.1: mandatory actions not ordered are taken by default (R29).
    for n in mandatory_active(s, members) {
        if ordered.contains(&n) {
            continue;
        }
        if let Some(a) = mandatory_default(s, &n) {
            s.private(
                side,
                format!("{n} must act (§9.1.1): `{}`.", orders::print_action(&a)),
            );
            records.extend(action::perform(s, side, &a, dice));
        }
    }
    records
}

/// The reaction loop (§8.0): calls for Reaction back and forth until two passes in a row,
/// answered by standing reactions where they cover the case; stops at a side to be asked by
/// mail.
pub fn call_loop(s: &mut LhyState, dice: &mut Dice) -> Calls {
    loop {
        let Some(c) = s.turn.cycle.as_mut() else {
            return Calls::NoCycle;
        };
        if c.passes >= 2 {
            break;
        }
        let reactor = {
            let caller = c.caller.clone();
            c.calls += 1;
            s.enemy_of(&caller).unwrap_or_default().to_string()
        };
        if reaction::ask_by_mail(s, &reactor) {
            return Calls::Mail(reactor);
        }
        let acts = reaction::by_default(s, &reactor);
        react(s, &reactor, &acts, dice);
    }
    Calls::Passed
}

/// Carries out a side's reaction (possibly none: a pass).
fn react(s: &mut LhyState, side: &str, acts: &[Action], dice: &mut Dice) {
    let mut records = Vec::new();
    for a in acts {
        let Some(u) = a.units().first().and_then(|n| s.unit(n)).cloned() else {
            continue;
        };
        if action::check(s, side, a, true).is_err() || reaction::eligible(s, &u, a).is_err() {
            continue;
        }
        if u.kind == Kind::Leader
            && let Some(c) = s.turn.cycle.as_mut()
            && !c.leaders.iter().any(|(_, l)| *l == u.name)
        {
            c.leaders.push((side.to_string(), u.name.clone()));
        }
        records.extend(action::perform(s, side, a, dice));
    }
    let name = s.side_name(side);
    if records.is_empty() && acts.is_empty() {
        s.public(format!("{name} passes."));
    }
    let Some(c) = s.turn.cycle.as_mut() else {
        return;
    };
    if records.is_empty() {
        c.passes += 1;
    } else {
        c.passes = 0;
    }
    c.last = records;
    c.caller = side.to_string();
}

/// `side`'s answer to a call for Reaction (R18, R28), the other seat's settings first.
pub fn resolve_react(
    s: &mut LhyState,
    side: &str,
    subs: &BTreeMap<SeatId, Submitted<Orders>>,
    dice: &mut Dice,
) {
    let side = side.to_string();
    for (seat, sub) in subs {
        if seat != &side
            && let Submitted::Orders(o) = sub
        {
            take_in(s, seat, o, 0);
        }
    }
    let mut feints = Vec::new();
    let acts: Vec<Action> = match subs.get(&side) {
        Some(Submitted::Orders(o)) => {
            s.turn.mails += 1;
            take_in(s, &side, o, 0);
            let (head, _) = blocks(o);
            feints = head.clone();
            let mut acts: Vec<Action> = head
                .iter()
                .filter_map(|x| {
                    if let Order::Act(a) = x {
                        Some(a.clone())
                    } else {
                        None
                    }
                })
                .collect();
            let mut named: Vec<String> = acts.iter().flat_map(Action::units).collect();
            named.extend(head.iter().filter_map(|x| match x {
                Order::Hold { unit } => Some(unit.clone()),
                _ => None,
            }));
            // R18: units the mail neither names nor holds follow their standing reactions.
            let (standing, _) = reaction::standing(s, &side);
            for a in standing {
                if !a.units().iter().any(|n| named.contains(n)) {
                    named.extend(a.units());
                    acts.push(a);
                }
            }
            // Mandatory reactions not in the mail are taken by default (R28).
            for n in reaction::mandatory(s, &side) {
                if !named.contains(&n) {
                    acts.push(Action::Recover { unit: n });
                }
            }
            acts
        }
        Some(Submitted::Nmr(Silence::Pass)) => vec![],
        _ => reaction::by_default(s, &side),
    };
    react(s, &side, &acts, dice);
    // R33: a FEINT in the reaction mail may name the arrow an ASSAULT reaction just placed.
    assault::declare(s, &side, &feints);
}

/// Marker Adjustment (§6.0 II.3) steps a–c; the stacking check (d) is `over_stacked`.
pub fn marker_adjustment(s: &mut LhyState) {
    // a: Red Motion markers come off (the vehicle is stationary).
    for u in s.units.iter_mut().filter(|u| u.motion == Motion::Red) {
        u.motion = Motion::Stationary;
    }
    // b: Assault Arrows become assaults.
    assault::adjust(s);
    // c: hidden units that acted are revealed (R20).
    for n in s
        .on_map()
        .filter(|u| u.hidden && u.acted())
        .map(|u| u.name.clone())
        .collect::<Vec<_>>()
    {
        concealment::unhide(s, &n);
    }
}

/// Marker Adjustment d: the first side, in seat order, with a hex over the stacking limits;
/// its owner picks, by mail.
pub fn over_stacked(s: &LhyState) -> Option<String> {
    s.seat_order
        .iter()
        .find(|side| !stacking::over(s, side).is_empty())
        .cloned()
}

/// The Platoon Activation Cycle is over.
pub fn close_cycle(s: &mut LhyState) {
    s.turn.cycle = None;
}

/// `side`'s stacking choice (§2.4): the units it names, then the default order (R30).
pub fn resolve_stacking(s: &mut LhyState, side: &str, subs: &BTreeMap<SeatId, Submitted<Orders>>) {
    let side = side.to_string();
    let mut chosen: Vec<String> = match subs.get(&side) {
        Some(Submitted::Orders(o)) => {
            settings(s, &side, o);
            o.iter()
                .filter_map(|x| {
                    if let Order::Eliminate { unit } = x {
                        Some(unit.clone())
                    } else {
                        None
                    }
                })
                .collect()
        }
        _ => vec![],
    };
    for n in &chosen {
        if let Some(u) = s.unit_mut(n) {
            u.place = Place::Eliminated;
        }
    }
    // Whatever still breaks the limits goes by the default order (§2.4, R30).
    let rest = stacking::default_eliminations(s, &side);
    for n in &rest {
        if let Some(u) = s.unit_mut(n) {
            u.place = Place::Eliminated;
        }
    }
    chosen.extend(rest);
    for n in &chosen {
        let steps = s.unit(n).map_or(1, |u| u.steps);
        if let Some(sd) = s.side_mut(&side) {
            sd.casualties += steps;
        }
    }
    s.private(
        &side,
        format!("Stacking (§2.4): you eliminate {}.", chosen.join(", ")),
    );
    // The enemy learns only what his map shows: units he saw by name, a unit under a
    // Concealment marker by its hex, a hidden unit not at all.
    let told: Vec<String> = chosen
        .iter()
        .filter_map(|n| s.unit(n))
        .filter(|u| !u.hidden)
        .map(|u| {
            if u.concealed {
                format!("a concealed unit at {}", s.name_of(u.at))
            } else {
                u.name.clone()
            }
        })
        .collect();
    if !told.is_empty() {
        let text = format!(
            "Stacking (§2.4): {} eliminates {}.",
            s.side_name(&side),
            told.join(", ")
        );
        s.to_enemies(&side, text);
    }
}
