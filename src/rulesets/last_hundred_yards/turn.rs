//! The sequence of play (§5.0): set-up, the Initiative Phase with its tie rule, random events
//! and forfeit, company selection (Heroic first), Coordination, ad hoc attachment, the Platoon
//! Activation Cycle and its reaction loop driven by standing reactions (R18), Marker
//! Adjustment and stacking, then Phases III–VII and victory (bridge rules). It decides when a
//! seat is asked; the rules of each action live in `action` and `reaction`.

use std::collections::BTreeMap;

use crate::dice::{Dice, Faces};
use crate::engine::{Outcome, Rejected, SeatId, Silence, Submitted};

use super::action;
use super::concealment;
use super::data::{Event, Kind};
use super::orders::{self, bad};
use super::reaction;
use super::setup;
use super::stacking;
use super::state::{
    Action, Cycle, LhyState, Motion, Order, Orders, Phase, Place, Record, Setting, Status,
};
use super::{assault, maneuver, resolution};

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

fn is_setting(o: &Order) -> bool {
    matches!(
        o,
        Order::Standing(_) | Order::StandingOff(_) | Order::Set(_)
    )
}

// ---------------------------------------------------------------- activation checks

/// Platoons of `side` that have not activated this game turn.
pub fn waiting_platoons(s: &LhyState, side: &str) -> Vec<String> {
    s.platoons
        .iter()
        .filter(|p| p.side == side && !s.turn.platoons_done.contains(&p.id))
        .filter(|p| {
            s.on_map()
                .any(|u| u.platoon.as_deref() == Some(p.id.as_str()) && !u.dummy())
        })
        .map(|p| p.id.clone())
        .collect()
}

fn company_has_heroic(s: &LhyState, c: &str) -> bool {
    s.on_map().any(|u| {
        u.heroic
            && u.platoon
                .as_deref()
                .and_then(|p| s.platoon(p))
                .is_some_and(|p| p.company == c)
    })
}

/// May `side` activate `platoon` (with `with`) now? (§6.0 I, §7.1.)
pub fn check_activate(
    s: &LhyState,
    side: &str,
    platoon: &str,
    with: Option<&str>,
) -> Result<(), String> {
    let waiting = waiting_platoons(s, side);
    if !waiting.iter().any(|p| p == platoon) {
        return Err(format!(
            "platoon {platoon} has activated this turn, or has no unit in play"
        ));
    }
    let p = s.platoon(platoon).ok_or("no such platoon")?;
    let open_company = s.turn.company.as_deref().filter(|c| {
        waiting
            .iter()
            .any(|w| s.platoon(w).is_some_and(|x| x.company == *c))
    });
    match open_company {
        Some(c) if p.company != c => {
            let failed = s.turn.coordinated == Some(false);
            // §7.1 failure: one platoon of the company, or any single AFV platoon.
            if !(p.armour && failed && with.is_none()) {
                return Err(format!(
                    "company {c} is selected: activate its platoons first ({})",
                    waiting
                        .iter()
                        .filter(|w| s.platoon(w).is_some_and(|x| x.company == c))
                        .cloned()
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
        }
        Some(_) => {}
        None => {
            // §6.0 I: companies with Heroic units are selected first.
            let heroic: Vec<String> = s
                .companies
                .iter()
                .filter(|c| c.side == side && company_has_heroic(s, &c.id))
                .filter(|c| waiting.iter().any(|w| c.platoons.contains(w)))
                .map(|c| c.id.clone())
                .collect();
            if !heroic.is_empty() && !heroic.contains(&p.company) {
                return Err(format!(
                    "companies with Heroic units are selected first: {}",
                    heroic.join(", ")
                ));
            }
        }
    }
    if let Some(w) = with {
        if w == platoon || !waiting.iter().any(|x| x == w) {
            return Err(format!("platoon {w} cannot activate with it"));
        }
        if s.side(side).is_some_and(|x| x.confused) {
            return Err("Confusion (random event): no Coordination this game turn".into());
        }
        if s.turn.coordinated.is_some() && open_company.is_some() {
            return Err(
                "Coordination is attempted once, when the company is selected (§7.1)".into(),
            );
        }
        let q = s.platoon(w).ok_or("no such platoon")?;
        let company_armour = s.company(&p.company).is_some_and(|c| c.armour);
        // §7.1a/b: two of the company, or one and a platoon of the other arm.
        if q.company != p.company && q.armour == company_armour {
            return Err(format!(
                "with Coordination, {w} must be of company {} or of the other arm (§7.1)",
                p.company
            ));
        }
    }
    Ok(())
}

/// Support units that must activate with `platoon` (§7.2a): those whose nearest activating
/// infantry platoon it is.
fn support_for(s: &LhyState, side: &str, platoon: &str) -> Vec<String> {
    let waiting = waiting_platoons(s, side);
    let infantry: Vec<&String> = waiting
        .iter()
        .filter(|p| s.platoon(p).is_some_and(|x| !x.armour))
        .collect();
    if !infantry.iter().any(|p| *p == platoon) {
        return vec![];
    }
    let dist = |u: &super::state::Unit, p: &str| {
        s.on_map()
            .filter(|x| x.platoon.as_deref() == Some(p))
            .map(|x| x.at.distance(u.at))
            .min()
            .unwrap_or(u32::MAX)
    };
    s.on_map()
        .filter(|u| u.side == side && u.platoon.is_none() && !u.dummy() && !u.acted())
        .filter(|u| {
            let mine = dist(u, platoon);
            mine != u32::MAX && infantry.iter().all(|p| dist(u, p) >= mine)
        })
        .map(|u| u.name.clone())
        .collect()
}

/// The members of an activation: the platoons' units, support units, attached units.
pub fn members(s: &LhyState, side: &str, platoons: &[String], attached: &[String]) -> Vec<String> {
    let mut out: Vec<String> = s
        .on_map()
        .filter(|u| u.side == side && u.platoon.as_ref().is_some_and(|p| platoons.contains(p)))
        .map(|u| u.name.clone())
        .collect();
    for p in platoons {
        out.extend(support_for(s, side, p));
    }
    out.extend(attached.iter().cloned());
    out.sort();
    out.dedup();
    out
}

/// §7.2b/c: may `unit` join this activation of `platoons`?
fn check_attach(
    s: &LhyState,
    side: &str,
    platoons: &[String],
    unit: &str,
    afv: &mut Option<String>,
) -> Result<(), String> {
    let u = s
        .unit(unit)
        .filter(|u| u.side == side && u.on_map())
        .ok_or("not on the map")?;
    let stacked = s
        .on_map()
        .any(|x| x.at == u.at && x.platoon.as_ref().is_some_and(|p| platoons.contains(p)));
    let infantry_active = platoons
        .iter()
        .any(|p| s.platoon(p).is_some_and(|x| !x.armour));
    if !infantry_active {
        return Err("units attach only to an activated infantry platoon (§7.2)".into());
    }
    let Some(p) = u.platoon.as_deref().and_then(|p| s.platoon(p)) else {
        return Err(format!(
            "{unit} is a support unit: it activates with the platoon it is nearest (§7.2a)"
        ));
    };
    if s.turn.platoons_done.contains(&p.id) || platoons.contains(&p.id) {
        return Err(format!("{unit}'s platoon has activated already"));
    }
    if !stacked {
        return Err(format!(
            "{unit} is not stacked with a unit of the activated platoon"
        ));
    }
    if p.armour {
        // §7.2c: units of one AFV platoon per cycle.
        if afv.as_ref().is_some_and(|a| *a != p.id) {
            return Err("units of one AFV platoon may attach per cycle (§7.2c)".into());
        }
        *afv = Some(p.id.clone());
        return Ok(());
    }
    let company = platoons
        .iter()
        .find_map(|x| s.platoon(x))
        .map(|x| x.company.clone())
        .unwrap_or_default();
    if p.company != company {
        return Err(format!("{unit} is not of company {company} (§7.2b)"));
    }
    if !u.kind.combat() {
        return Err(format!("{unit} is not an infantry combat unit (§7.2b)"));
    }
    if s.turn.ad_hoc.contains(&company) {
        return Err(format!(
            "company {company} has used its one ad hoc unit this turn (§7.2b)"
        ));
    }
    if s.on_map().any(|l| {
        l.kind == Kind::Leader && l.platoon.as_deref() == Some(p.id.as_str()) && l.at == u.at
    }) {
        return Err(format!("{unit}'s own platoon leader is in its hex (§7.2b)"));
    }
    Ok(())
}

/// Checks an activation block (line numbers for the errors in `lines`).
pub fn check_block(s: &LhyState, side: &str, block: &[(usize, String, Order)]) -> Vec<Rejected> {
    let mut errs = Vec::new();
    let Some((l0, t0, Order::Activate { platoon, with })) = block.first() else {
        return errs;
    };
    if let Err(e) = check_activate(s, side, platoon, with.as_deref()) {
        errs.push(bad(*l0, t0, e));
        return errs;
    }
    let mut platoons = vec![platoon.clone()];
    platoons.extend(with.clone());
    let mut attached = Vec::new();
    let mut afv = None;
    let mut acted: Vec<String> = Vec::new();
    let mut queried = Vec::new();
    let mut fired_at = Vec::new();
    for (line, text, o) in &block[1..] {
        match o {
            Order::Attach { unit } => match check_attach(s, side, &platoons, unit, &mut afv) {
                Ok(()) => attached.push(unit.clone()),
                Err(e) => errs.push(bad(*line, text, e)),
            },
            Order::Act(a) => {
                let m = members(s, side, &platoons, &attached);
                let units = a.units();
                if let Some(n) = units.iter().find(|n| !m.contains(n)) {
                    errs.push(bad(*line, text, format!(
                        "{n} is not in this activation (platoon {}; ATTACH it first if it may join)",
                        platoons.join(" and ")
                    )));
                    continue;
                }
                if let Some(n) = units.iter().find(|n| acted.contains(n)) {
                    errs.push(bad(
                        *line,
                        text,
                        format!("{n} already has an action in this mail (§9.0)"),
                    ));
                    continue;
                }
                if let Err(e) = action::check(s, side, a, false) {
                    errs.push(bad(*line, text, e));
                    continue;
                }
                if let Action::Fire { target, .. } = a {
                    fired_at.push(match target {
                        super::state::Target::Hex(h) | super::state::Target::Hidden(h, _) => {
                            Some(*h)
                        }
                        super::state::Target::Unit(n) => s.unit(n).map(|u| u.at),
                    });
                }
                acted.extend(units);
            }
            Order::Hold { unit } => {
                if !members(s, side, &platoons, &attached).contains(unit) {
                    errs.push(bad(
                        *line,
                        text,
                        format!("{unit} is not in this activation"),
                    ));
                }
            }
            Order::Query { hex } => {
                if !super::sight::marker_at(s, side, *hex) {
                    errs.push(bad(
                        *line,
                        text,
                        format!(
                            "there is no enemy Concealment marker in {}",
                            s.name_of(*hex)
                        ),
                    ));
                } else {
                    queried.push((*line, text.clone(), *hex));
                }
            }
            o if is_setting(o) => {}
            Order::Pass => {}
            _ => errs.push(bad(*line, text, "not an activation order")),
        }
    }
    // §4.3 (R9): who queries must fire at least one attack at the hex.
    for (line, text, h) in queried {
        if !fired_at.contains(&Some(h)) {
            errs.push(bad(
                line,
                &text,
                format!(
                    "after a QUERY you must fire at least one attack at {} in the same mail (§4.3)",
                    s.name_of(h)
                ),
            ));
        }
    }
    errs
}

/// Checks the reaction lines of a mail.
pub fn check_reaction(s: &LhyState, side: &str, lines: &[(usize, String, Order)]) -> Vec<Rejected> {
    let mut errs = Vec::new();
    let mut acted: Vec<String> = Vec::new();
    for (line, text, o) in lines {
        match o {
            Order::Act(a) => {
                let units = a.units();
                if let Some(n) = units.iter().find(|n| acted.contains(n)) {
                    errs.push(bad(*line, text, format!("{n} already reacts in this mail")));
                    continue;
                }
                if let Err(e) = action::check(s, side, a, true) {
                    errs.push(bad(*line, text, e));
                    continue;
                }
                for n in &units {
                    if let Some(u) = s.unit(n)
                        && let Err(e) = reaction::eligible(s, u, a)
                    {
                        errs.push(bad(*line, text, e));
                    }
                }
                acted.extend(units);
            }
            Order::Pass | Order::Hold { .. } => {}
            o if is_setting(o) => {}
            _ => errs.push(bad(
                *line,
                text,
                "at a call for Reaction: actions of your units, PASS, or your next ACTIVATE",
            )),
        }
    }
    errs
}

/// The legality of one seat's mail for the current step.
pub fn check_mail(s: &LhyState, seat: &str, lines: &[(usize, String, Order)]) -> Vec<Rejected> {
    let mut errs = Vec::new();
    // Split into head and activation blocks, keeping line numbers.
    let mut head = Vec::new();
    let mut blocks_: Vec<Vec<(usize, String, Order)>> = Vec::new();
    for l in lines {
        match &l.2 {
            Order::Activate { .. } => blocks_.push(vec![l.clone()]),
            _ if blocks_.is_empty() => head.push(l.clone()),
            _ => blocks_.last_mut().expect("a block").push(l.clone()),
        }
    }
    let active = s.turn.active == seat;
    match &s.phase {
        Phase::Setup => {
            let mut dummies = setup::dummies_left(s, seat);
            for (line, text, o) in lines {
                if is_setting(o) || *o == Order::Pass {
                    continue;
                }
                if let Err(e) = setup::check(s, seat, o, &mut dummies) {
                    errs.push(bad(*line, text, e));
                }
            }
        }
        Phase::Activate { side } if side == seat => {
            for (line, text, o) in &head {
                if !is_setting(o) && *o != Order::Pass {
                    errs.push(bad(
                        *line,
                        text,
                        "begin your activation with ACTIVATE platoon",
                    ));
                }
            }
            if let Some(b) = blocks_.first() {
                errs.extend(check_block(s, seat, b));
            }
        }
        Phase::React { side } if side == seat => {
            errs.extend(check_reaction(s, seat, &head));
            if !blocks_.is_empty() && !active {
                errs.push(bad(
                    blocks_[0][0].0,
                    &blocks_[0][0].1,
                    "only the active player activates this game turn",
                ));
            }
        }
        Phase::Stacking { side } if side == seat => {
            for (line, text, o) in lines {
                match o {
                    Order::Eliminate { unit } => {
                        let ok = s.unit(unit).is_some_and(|u| u.on_map() && stacking::over(s, seat).contains(&u.at));
                        if !ok {
                            errs.push(bad(*line, text, format!("{unit} is not in an over-stacked hex")));
                        }
                    }
                    o if is_setting(o) || *o == Order::Pass => {}
                    _ => errs.push(bad(*line, text, "name the units to eliminate: ELIMINATE unit, or PASS for the default choice")),
                }
            }
        }
        Phase::Over => {
            if let Some((l, t, _)) = lines.first() {
                errs.push(bad(*l, t, "the game is over"));
            }
        }
        _ => {
            // Not asked: standing reactions, settings, and (active) the next activations.
            for (line, text, o) in &head {
                if !is_setting(o) {
                    errs.push(bad(*line, text, "you are not asked for orders now: only STANDING, SET, or your next ACTIVATE"));
                }
            }
            if !blocks_.is_empty() && !active {
                errs.push(bad(
                    blocks_[0][0].0,
                    &blocks_[0][0].1,
                    "only the active player activates this game turn",
                ));
            }
        }
    }
    errs
}

// ---------------------------------------------------------------- applying

fn settings(s: &mut LhyState, side: &str, orders: &[Order]) {
    for o in orders {
        let Some(sd) = s.side_mut(side) else { return };
        match o {
            Order::Standing(st) => {
                sd.standing.retain(|x| x.who != st.who);
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
fn take_in(s: &mut LhyState, side: &str, orders: &[Order], queue_from: usize) {
    settings(s, side, orders);
    let (_, bl) = blocks(orders);
    if bl.len() > queue_from {
        let q: Vec<Vec<Order>> = bl[queue_from..].to_vec();
        if let Some(sd) = s.side_mut(side) {
            sd.queued = q;
        }
    }
}

pub fn resolve_setup(
    s: &mut LhyState,
    subs: &BTreeMap<SeatId, Submitted<Orders>>,
    dice: &mut Dice,
) {
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
    start_turn(s, dice);
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

fn random_event(s: &mut LhyState, side: &str, dice: &mut Dice) {
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
                if let Some(u) = s.unit_mut(&n) {
                    u.status = maneuver::better(u.status);
                }
                s.private(side, format!("{n} recovers one step of its condition."));
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
                if let Some(u) = s.unit_mut(&n) {
                    u.place = Place::Away;
                }
                s.private(
                    side,
                    format!("{n} leaves the map until the Clean Up Phase."),
                );
            }
        }
    }
}

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
        let other = s.enemy_of(&winner);
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
    next_activation(s, dice);
}

// ---------------------------------------------------------------- Phase II

/// The next step of the Activation Phase: a queued activation, a mail, or Phases III–VII.
fn next_activation(s: &mut LhyState, dice: &mut Dice) {
    let side = s.turn.active.clone();
    if waiting_platoons(s, &side).is_empty() {
        end_turn(s, dice);
        return;
    }
    // A queued activation plays if it is still legal; otherwise it is dropped and asked for.
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
            activate(s, &side, &b, dice);
            return;
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
    s.phase = Phase::Activate { side };
}

pub fn resolve_activate(
    s: &mut LhyState,
    subs: &BTreeMap<SeatId, Submitted<Orders>>,
    dice: &mut Dice,
) {
    let Phase::Activate { side } = s.phase.clone() else {
        return;
    };
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
            if let Some(b) = bl.first() {
                activate(s, &side, b, dice);
                return;
            }
            next_activation(s, dice);
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
                    activate(
                        s,
                        &side,
                        &[Order::Activate {
                            platoon: p,
                            with: None,
                        }],
                        dice,
                    );
                }
                None => end_turn(s, dice),
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

/// Platoon Activation Cycle step 1 (§6.0 II), then the reaction loop.
fn activate(s: &mut LhyState, side: &str, block: &[Order], dice: &mut Dice) {
    let Some(Order::Activate { platoon, with }) = block.first().cloned() else {
        return;
    };
    let p = s.platoon(&platoon).cloned().expect("checked platoon");
    if s.turn.company.as_deref() != Some(p.company.as_str())
        && !(s.turn.coordinated == Some(false) && p.armour && s.turn.company.is_some())
    {
        s.turn.company = Some(p.company.clone());
        s.turn.coordinated = None;
    }
    let mut platoons = vec![platoon.clone()];
    if let Some(w) = &with {
        let drm = s.side(side).map_or(0, |x| x.coordination_drm);
        let roll = dice.roll_one(format!("{side}: Coordination"), Faces::d(10)) as i32;
        let ok = roll + drm >= s.data.rules.coordination_at_least.int();
        s.turn.coordinated = Some(ok);
        s.public(format!(
            "Coordination for company {}: {roll}{} — {}.",
            p.company,
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
        if ok {
            platoons.push(w.clone());
        }
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
    for (i, o) in block.iter().enumerate() {
        if let Order::Query { hex } = o {
            let q = concealment::answer(s, side, *hex);
            let t = concealment::answer_text(s, &q);
            s.public(format!("Concealment query: {t}."));
            s.queries.push(q);
            let _ = i;
        }
    }
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
    // §9.1.1: mandatory actions not ordered are taken by default (R29).
    for n in mandatory_active(s, &members) {
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
    for p in &platoons {
        if !s.turn.platoons_done.contains(p) {
            s.turn.platoons_done.push(p.clone());
        }
    }
    if let Some(c) = s.turn.cycle.as_mut() {
        c.last = records;
        c.caller = side.to_string();
    }
    call_loop(s, dice);
}

/// The reaction loop (§8.0): calls for Reaction back and forth until two passes in a row,
/// answered by standing reactions where they cover the case and by mail where not.
fn call_loop(s: &mut LhyState, dice: &mut Dice) {
    loop {
        let Some(c) = s.turn.cycle.as_mut() else {
            return;
        };
        if c.passes >= 2 {
            break;
        }
        let reactor = {
            let caller = c.caller.clone();
            c.calls += 1;
            s.enemy_of(&caller)
        };
        if reaction::ask_by_mail(s, &reactor) {
            s.phase = Phase::React { side: reactor };
            return;
        }
        let acts = reaction::by_default(s, &reactor);
        react(s, &reactor, &acts, dice);
    }
    end_cycle(s, dice);
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

pub fn resolve_react(
    s: &mut LhyState,
    subs: &BTreeMap<SeatId, Submitted<Orders>>,
    dice: &mut Dice,
) {
    let Phase::React { side } = s.phase.clone() else {
        return;
    };
    for (seat, sub) in subs {
        if seat != &side
            && let Submitted::Orders(o) = sub
        {
            take_in(s, seat, o, 0);
        }
    }
    let acts: Vec<Action> = match subs.get(&side) {
        Some(Submitted::Orders(o)) => {
            s.turn.mails += 1;
            take_in(s, &side, o, 0);
            let (head, _) = blocks(o);
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
            // Mandatory reactions not in the mail are taken by default (R28).
            let named: Vec<String> = acts.iter().flat_map(Action::units).collect();
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
    call_loop(s, dice);
}

/// Marker Adjustment (§6.0 II.3) and the stacking check, then the next activation.
fn end_cycle(s: &mut LhyState, dice: &mut Dice) {
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
    // d: stacking; the owner picks, by mail.
    for side in s.seat_order.clone() {
        if !stacking::over(s, &side).is_empty() {
            s.phase = Phase::Stacking { side };
            return;
        }
    }
    after_cycle(s, dice);
}

fn after_cycle(s: &mut LhyState, dice: &mut Dice) {
    s.turn.cycle = None;
    next_activation(s, dice);
}

pub fn resolve_stacking(
    s: &mut LhyState,
    subs: &BTreeMap<SeatId, Submitted<Orders>>,
    dice: &mut Dice,
) {
    let Phase::Stacking { side } = s.phase.clone() else {
        return;
    };
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
    s.public(format!(
        "Stacking (§2.4): {} eliminates {}.",
        s.side_name(&side),
        chosen.join(", ")
    ));
    for other in s.seat_order.clone() {
        if !stacking::over(s, &other).is_empty() {
            s.phase = Phase::Stacking { side: other };
            return;
        }
    }
    after_cycle(s, dice);
}

// ---------------------------------------------------------------- Phases III–VII

fn end_turn(s: &mut LhyState, dice: &mut Dice) {
    s.turn.cycle = None;
    s.public("Fire Resolution Phase.");
    resolution::phase(s, dice);
    if !s.assaults.is_empty() {
        s.public("Assault Resolution Phase.");
        assault::phase(s, dice);
    }
    // V: MDRM markers come off.
    s.markers.clear();
    // VI: Time Lapse, rolled by the active player.
    let active = s.turn.active.clone();
    let roll = dice.roll_one(format!("{active}: Time Lapse"), Faces::d(10));
    let minutes = s.data.tables.time_lapse.get()[(roll as usize - 1).min(9)];
    s.elapsed += minutes;
    s.public(format!(
        "Time Lapse: {roll}, {minutes} minutes pass ({} of {}).",
        s.elapsed, s.minutes
    ));
    clean_up(s);
    recombine(s, dice);
    victory(s);
    if s.outcome.is_some() {
        s.phase = Phase::Over;
    } else {
        start_turn(s, dice);
    }
}

fn clean_up(s: &mut LhyState) {
    for u in s.units.iter_mut() {
        // 1: vehicles that took no action lose their Motion marker (R15).
        if u.vehicle() && u.done.is_none() {
            u.motion = Motion::Stationary;
        }
        // 2: leaders called away return.
        if u.place == Place::Away {
            u.place = Place::Map;
        }
        // R14: a Heroic unit that acted loses the state.
        if u.heroic && u.done.is_some() {
            u.heroic = false;
        }
        // 5: counters are turned back.
        u.done = None;
        u.started = false;
        u.stopped = false;
        u.overran = false;
    }
    // 4: units out of enemy LOS may conceal.
    concealment::gain(s);
    s.queries.clear();
    // Objectives: held by the side that alone has real units there (R25).
    for i in 0..s.objectives.len() {
        let h = s.objectives[i].hex;
        let there: Vec<String> = s
            .seat_order
            .iter()
            .filter(|side| s.occupied_by(h, side))
            .cloned()
            .collect();
        if there.len() == 1 {
            s.objectives[i].held_by = Some(there[0].clone());
        }
    }
}

/// Clean Up step 3 (§10.3.3): two sections of a platoon in one hex, both disrupted or both
/// not, become a squad of that platoon drawn at random from those not in play, unless the
/// owner has sent `SET RECOMBINE OFF`.
fn recombine(s: &mut LhyState, dice: &mut Dice) {
    for side in s.seat_order.clone() {
        if !s.side(&side).is_some_and(|x| x.recombine) {
            continue;
        }
        let platoons: Vec<String> = s
            .platoons
            .iter()
            .filter(|p| p.side == side)
            .map(|p| p.id.clone())
            .collect();
        for p in platoons {
            loop {
                let secs: Vec<super::state::Unit> = s
                    .on_map()
                    .filter(|u| {
                        u.kind == Kind::Section
                            && u.aboard.is_none()
                            && u.platoon.as_deref() == Some(p.as_str())
                    })
                    .cloned()
                    .collect();
                let pair = secs.iter().enumerate().find_map(|(i, a)| {
                    secs[i + 1..]
                        .iter()
                        .find(|b| b.at == a.at && b.disrupted() == a.disrupted())
                        .map(|b| (a.name.clone(), b.name.clone(), a.at))
                });
                let Some((a, b, at)) = pair else { break };
                let pool: Vec<String> = maneuver::pool_of(s, &p, Kind::Squad)
                    .iter()
                    .map(|u| u.name.clone())
                    .collect();
                let squad = match pool.len() {
                    0 => break,
                    1 => pool[0].clone(),
                    n => {
                        let i = dice.roll_one(format!("{side}: squad drawn"), Faces::d(n as u32));
                        pool[(i as usize - 1).min(n - 1)].clone()
                    }
                };
                maneuver::replace(s, &[a.clone(), b.clone()], std::slice::from_ref(&squad));
                s.private(&side, format!("{a} and {b} recombine into {squad}."));
                if s.unit(&squad).is_some_and(|u| !u.concealed) {
                    s.public(format!(
                        "{}: two sections recombine into {squad}.",
                        s.name_of(at)
                    ));
                }
            }
        }
    }
}

/// The attacker's score: objective points held, plus the casualty differential (R25).
pub fn score(s: &LhyState) -> i32 {
    let Some(att) = s.sides.iter().find(|x| x.attacker) else {
        return 0;
    };
    let def = s.enemy_of(&att.id);
    let objectives: i32 = s
        .objectives
        .iter()
        .filter(|o| o.held_by.as_deref() == Some(att.id.as_str()))
        .map(|o| o.points)
        .sum();
    let theirs = s.side(&def).map_or(0, |x| x.casualties) as i32;
    objectives + theirs - att.casualties as i32
}

/// R25's figures for the game-over mail: objectives, casualties, the score and the CDL.
pub fn victory_figures(s: &LhyState) -> Vec<String> {
    let Some(att) = s.sides.iter().find(|x| x.attacker) else {
        return Vec::new();
    };
    let def = s.enemy_of(&att.id);
    let def_side = s.side(&def);
    let held: Vec<String> = s
        .objectives
        .iter()
        .filter(|o| o.held_by.as_deref() == Some(att.id.as_str()))
        .map(|o| format!("{} ({} pts)", o.name, o.points))
        .collect();
    vec![
        format!(
            "Objectives held by the attacker ({}): {}.",
            att.name,
            if held.is_empty() {
                "none".to_string()
            } else {
                held.join(", ")
            }
        ),
        format!(
            "Casualties: attacker {}, defender ({}) {}; the game ends early if the attacker's \
             exceed the defender's by the Casualty Differential Limit, {}.",
            att.casualties,
            def_side.map_or(def.clone(), |x| x.name.clone()),
            def_side.map_or(0, |x| x.casualties),
            s.cdl
        ),
        format!(
            "Attacker's score (objectives + defender's casualties - attacker's): {}; turn {} of \
             {}, {} of {} minutes elapsed.",
            score(s),
            s.turn.number,
            s.max_turns,
            s.elapsed,
            s.minutes
        ),
    ]
}

/// §18 bridge (R25): the game ends at the turn limit, when the Time Lapse track reaches the
/// mission's minutes, or when the attacker's losses pass the defender's by the CDL.
pub fn victory(s: &mut LhyState) {
    let Some(att) = s.sides.iter().find(|x| x.attacker).cloned() else {
        return;
    };
    let def = s.enemy_of(&att.id);
    let diff = att.casualties as i32 - s.side(&def).map_or(0, |x| x.casualties) as i32;
    let cdl = diff >= s.cdl as i32 && s.cdl > 0;
    let alive = |side: &str| {
        s.on_map()
            .any(|u| u.side == side && !u.dummy() && u.kind.combat())
    };
    let wiped = !alive(&att.id) || !alive(&def);
    if !(cdl || wiped || s.turn.number >= s.max_turns || s.elapsed >= s.minutes) {
        return;
    }
    let sc = score(s);
    let level = s
        .levels
        .iter()
        .find(|l| sc >= l.at_least)
        .or(s.levels.last())
        .map(|l| l.name.clone())
        .unwrap_or_default();
    let (winners, why) = if cdl {
        (
            vec![def.clone()],
            format!(
                "the attacker's losses passed the Casualty Differential Limit ({})",
                s.cdl
            ),
        )
    } else if sc > 0 {
        (vec![att.id.clone()], level.clone())
    } else if sc < 0 {
        (vec![def.clone()], level.clone())
    } else {
        (vec![], level.clone())
    };
    let summary = format!(
        "{} after game turn {}: attacker's score {sc} ({why}).",
        s.scenario, s.turn.number
    );
    s.public(summary.clone());
    s.outcome = Some(Outcome { winners, summary });
}
