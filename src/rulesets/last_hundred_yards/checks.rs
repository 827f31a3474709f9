//! Whether a mail's lines are legal now (§6.0 I, §7.1–7.2): which platoons may activate,
//! with which support and attachments, and the checks on activation blocks and reactions.
//! Reads the state only; never changes it.

use crate::board::hex::Hex;
use crate::engine::Rejected;
use crate::rulesets::kit::roster::{Roster, TwoSides};

use super::action;
use super::data::Kind;
use super::orders::{ACTIVATE_WORDS, REACT_WORDS, SETUP_WORDS, STACKING_WORDS, bad, takes};
use super::reaction;
use super::setup;
use super::stacking;
use super::state::{Action, LhyState, Order, Phase, Target};

use super::turn::is_setting;

// ---------------------------------------------------------------- declarations

/// R33/R34: a `FEINT` needs an Assault Arrow of the side into that hex (already on the map, or
/// placed by an `ASSAULT` line of the same mail, `arrows_in_mail`); `ASSAULT ORDER` is the
/// active player's. `None`: the line is not a declaration.
pub fn check_declaration(
    s: &LhyState,
    side: &str,
    o: &Order,
    arrows_in_mail: &[crate::board::hex::Hex],
) -> Option<Result<(), String>> {
    match o {
        Order::Feint { hex, .. } => Some(
            if arrows_in_mail.contains(hex)
                || s.arrows.iter().any(|a| a.side == side && a.to == *hex)
            {
                Ok(())
            } else {
                Err(format!(
                    "you have no Assault Arrow into {}: FEINT names the hex of an arrow placed this cycle, e.g. `ASSAULT A1-1 AT {} FEINT`",
                    s.name_of(*hex),
                    s.name_of(*hex)
                ))
            },
        ),
        Order::AssaultOrder { .. } => Some(if s.turn.active == side {
            Ok(())
        } else {
            Err("only the active player orders the Assault Resolution (§13.5)".into())
        }),
        _ => None,
    }
}

fn assault_hexes(lines: &[(usize, String, Order)]) -> Vec<crate::board::hex::Hex> {
    lines
        .iter()
        .filter_map(|(_, _, o)| match o {
            Order::Act(Action::Assault { hex, .. }) => Some(*hex),
            _ => None,
        })
        .collect()
}

// ---------------------------------------------------------------- activation checks

/// The refusals of a line the step does not take (README "Activation", "Reactions").
const NOT_ACTIVATION: &str = "not an activation order";
const NOT_REACTION: &str =
    "at a call for Reaction: actions of your units, PASS, or your next ACTIVATE";

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

/// Waiting platoons of `side` that may activate now (§6.0 I, §7.1): those of the selected
/// company while it has any left, Heroic companies first. The prompt lists only these (issue
/// 30 point 6): a platoon listed but refused was a mail wasted.
pub fn may_activate_now(s: &LhyState, side: &str) -> Vec<String> {
    waiting_platoons(s, side)
        .into_iter()
        .filter(|p| check_activate(s, side, p, None).is_ok())
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
pub(super) fn check_attach(
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
    let arrows = assault_hexes(block);
    for (line, text, o) in &block[1..] {
        // The step's own words (the sequence of play's) first; then what each line says.
        if !takes(ACTIVATE_WORDS, text) {
            errs.push(bad(*line, text, NOT_ACTIVATION));
            continue;
        }
        let checked = match o {
            Order::Attach { unit } => check_attach(s, side, &platoons, unit, &mut afv)
                .map(|()| attached.push(unit.clone())),
            Order::Act(a) => check_act(s, side, &platoons, &attached, &acted, a).map(|()| {
                if let Action::Fire { target, .. } = a {
                    fired_at.push(target_hex(s, target));
                }
                acted.extend(a.units());
            }),
            Order::Hold { unit } => {
                if members(s, side, &platoons, &attached).contains(unit) {
                    Ok(())
                } else {
                    Err(format!("{unit} is not in this activation"))
                }
            }
            Order::Query { hex } => {
                if super::sight::marker_at(s, side, *hex) {
                    queried.push((*line, text.clone(), *hex));
                    Ok(())
                } else {
                    Err(format!(
                        "there is no enemy Concealment marker in {}",
                        s.name_of(*hex)
                    ))
                }
            }
            o if is_setting(o) => Ok(()),
            Order::Pass => Ok(()),
            o => check_declaration(s, side, o, &arrows)
                .unwrap_or_else(|| Err(NOT_ACTIVATION.to_string())),
        };
        if let Err(e) = checked {
            errs.push(bad(*line, text, e));
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

/// One action line of an activation: every unit in it is a member of the activation, has
/// no other action in the mail (§9.0), and the action itself is legal.
fn check_act(
    s: &LhyState,
    side: &str,
    platoons: &[String],
    attached: &[String],
    acted: &[String],
    a: &Action,
) -> Result<(), String> {
    let m = members(s, side, platoons, attached);
    let units = a.units();
    if let Some(n) = units.iter().find(|n| !m.contains(n)) {
        return Err(format!(
            "{n} is not in this activation (platoon {}; ATTACH it first if it may join)",
            platoons.join(" and ")
        ));
    }
    if let Some(n) = units.iter().find(|n| acted.contains(n)) {
        return Err(format!("{n} already has an action in this mail (§9.0)"));
    }
    action::check(s, side, a, false)
}

/// The hex a fire target names, if it is on the map.
fn target_hex(s: &LhyState, target: &Target) -> Option<Hex> {
    match target {
        Target::Hex(h) | Target::Hidden(h, _) => Some(*h),
        Target::Unit(n) => s.unit(n).map(|u| u.at),
    }
}

/// Checks the reaction lines of a mail.
pub fn check_reaction(s: &LhyState, side: &str, lines: &[(usize, String, Order)]) -> Vec<Rejected> {
    let mut errs = Vec::new();
    let mut acted: Vec<String> = Vec::new();
    let arrows = assault_hexes(lines);
    for (line, text, o) in lines {
        if !takes(REACT_WORDS, text) {
            errs.push(bad(*line, text, NOT_REACTION));
            continue;
        }
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
            o if check_declaration(s, side, o, &arrows).is_some() => {
                if let Some(Err(e)) = check_declaration(s, side, o, &arrows) {
                    errs.push(bad(*line, text, e));
                }
            }
            // ATTACH and QUERY belong to the ACTIVATE block the mail may carry, not here.
            _ => errs.push(bad(*line, text, NOT_REACTION)),
        }
    }
    errs
}

/// The legality of one seat's mail for the current step: what the step asks of this seat
/// (set-up, its activation, its reaction, its stacking choice), or what it may send unasked.
pub fn check_mail(s: &LhyState, seat: &str, lines: &[(usize, String, Order)]) -> Vec<Rejected> {
    let (head, blocks) = split_blocks(lines);
    let active = s.turn.active == seat;
    match &s.phase {
        Phase::Setup => check_setup_mail(s, seat, lines),
        Phase::Activate { side } if side == seat => {
            let begin = "begin your activation with ACTIVATE platoon";
            let mut errs = check_head(s, seat, &head, true, begin);
            if let Some(b) = blocks.first() {
                errs.extend(check_block(s, seat, b));
            }
            errs
        }
        Phase::React { side } if side == seat => {
            let mut errs = check_reaction(s, seat, &head);
            errs.extend(only_active(&blocks, active));
            errs
        }
        Phase::Stacking { side } if side == seat => check_stacking_mail(s, seat, lines),
        Phase::GameOver => lines
            .first()
            .map(|(l, t, _)| bad(*l, t, "the game is over"))
            .into_iter()
            .collect(),
        _ => {
            // Not asked: standing reactions, settings, and (active) the next activations.
            let unasked = "you are not asked for orders now: only STANDING, SET, FEINT, ASSAULT ORDER, or your next ACTIVATE";
            let mut errs = check_head(s, seat, &head, false, unasked);
            errs.extend(only_active(&blocks, active));
            errs
        }
    }
}

type Lines = Vec<(usize, String, Order)>;

/// A mail split into its head and its activation blocks (each from an ACTIVATE line),
/// keeping line numbers.
fn split_blocks(lines: &[(usize, String, Order)]) -> (Lines, Vec<Lines>) {
    let mut head = Vec::new();
    let mut blocks: Vec<Lines> = Vec::new();
    for l in lines {
        match &l.2 {
            Order::Activate { .. } => blocks.push(vec![l.clone()]),
            _ if blocks.is_empty() => head.push(l.clone()),
            _ => blocks.last_mut().expect("a block").push(l.clone()),
        }
    }
    (head, blocks)
}

/// The set-up lines, within the seat's dummies; settings and PASS aside.
fn check_setup_mail(s: &LhyState, seat: &str, lines: &[(usize, String, Order)]) -> Vec<Rejected> {
    let mut errs = Vec::new();
    let mut dummies = setup::dummies_left(s, seat);
    for (line, text, o) in lines {
        if is_setting(o) || *o == Order::Pass {
            continue;
        }
        if !takes(SETUP_WORDS, text) {
            errs.push(bad(*line, text, setup::NOT_SET_UP));
            continue;
        }
        if let Err(e) = setup::check(s, seat, o, &mut dummies) {
            errs.push(bad(*line, text, e));
        }
    }
    errs
}

/// The head of a mail before any ACTIVATE: declarations checked, settings let be, and any
/// other line refused with `other` (PASS too, unless `pass_ok`: the seat's own activation).
fn check_head(
    s: &LhyState,
    seat: &str,
    head: &[(usize, String, Order)],
    pass_ok: bool,
    other: &str,
) -> Vec<Rejected> {
    let mut errs = Vec::new();
    for (line, text, o) in head {
        if let Some(r) = check_declaration(s, seat, o, &[]) {
            if let Err(e) = r {
                errs.push(bad(*line, text, e));
            }
        } else if !is_setting(o) && (!pass_ok || *o != Order::Pass) {
            errs.push(bad(*line, text, other));
        }
    }
    errs
}

/// Activations from a player who is not the active one this game turn.
fn only_active(blocks: &[Lines], active: bool) -> Option<Rejected> {
    (!blocks.is_empty() && !active).then(|| {
        bad(
            blocks[0][0].0,
            &blocks[0][0].1,
            "only the active player activates this game turn",
        )
    })
}

/// The stacking step's lines: each ELIMINATE names a unit in an over-stacked hex.
fn check_stacking_mail(
    s: &LhyState,
    seat: &str,
    lines: &[(usize, String, Order)],
) -> Vec<Rejected> {
    let mut errs = Vec::new();
    for (line, text, o) in lines {
        if !takes(STACKING_WORDS, text) {
            errs.push(bad(
                *line,
                text,
                "name the units to eliminate: ELIMINATE unit, or PASS for the default choice",
            ));
            continue;
        }
        if let Order::Eliminate { unit } = o {
            let ok = s
                .unit(unit)
                .is_some_and(|u| u.on_map() && stacking::over(s, seat).contains(&u.at));
            if !ok {
                errs.push(bad(
                    *line,
                    text,
                    format!("{unit} is not in an over-stacked hex"),
                ));
            }
        }
    }
    errs
}
