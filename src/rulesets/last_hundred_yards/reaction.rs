//! The call for Reaction (§8): which units may react to the action immediately before the call
//! (triggered, §8.1; optional, §8.3 a–f; mandatory after the first call, §9.1.2), the standing
//! reactions that answer a call without a mail (R18), and whether the engine must ask by mail.
//! It proposes actions; `turn` carries them out.

use crate::board::hex::Hex;
use crate::rulesets::kit::roster::{Roster, TwoSides};

use super::action;
use super::data::Kind;
use super::sight;
use super::state::{Action, Ask, Done, LhyState, Motion, Record, Rule, Status, Target, Unit, Who};

/// The action the last call answers (empty: the caller passed).
fn last(s: &LhyState) -> &[Record] {
    s.turn.cycle.as_ref().map_or(&[], |c| c.last.as_slice())
}

fn first_call(s: &LhyState) -> bool {
    s.turn.cycle.as_ref().is_some_and(|c| c.calls <= 1)
}

/// Units of `side` that may still act this game turn.
fn fresh<'a>(s: &'a LhyState, side: &'a str) -> impl Iterator<Item = &'a Unit> + 'a {
    s.on_map()
        .filter(move |u| u.side == side && !u.acted() && !u.dummy() && u.aboard.is_none())
}

/// §8.1: did `u` see the enemy action `r` (a hex entered, fired from or recovered in)?
pub fn saw(s: &LhyState, u: &Unit, r: &Record) -> bool {
    r.side != u.side && r.hexes.iter().any(|h| sight::sees(s, u, *h))
}

/// The enemy actions before this call that `side`'s units saw, as that side may name them
/// (a unit it sees by name, else "a concealed unit"), for the call's mail.
pub fn seen_actions(s: &LhyState, side: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for r in last(s) {
        if !fresh(s, side).any(|u| saw(s, u, r)) {
            continue;
        }
        let what = match r.done {
            Done::Maneuver => "moved to",
            Done::Fire => "fired from",
            Done::Recover => "recovered in",
            Done::Assault => "placed an Assault Arrow into",
        };
        let who = s
            .unit(&r.unit)
            .filter(|u| sight::shown(u, side) && !u.dummy())
            .map_or("a concealed unit".to_string(), |u| u.name.clone());
        let at = r.hexes.last().map(|h| s.name_of(*h)).unwrap_or_default();
        let line = format!("{who} {what} {at}");
        if !out.contains(&line) {
            out.push(line);
        }
    }
    out
}

/// Triggered units: they saw an action of the one immediately before this call.
pub fn triggered(s: &LhyState, side: &str) -> Vec<String> {
    fresh(s, side)
        .filter(|u| last(s).iter().any(|r| saw(s, u, r)))
        .map(|u| u.name.clone())
        .collect()
}

/// §9.1.2: after the first call for Reaction of a cycle (R28), the non-active player's
/// disrupted or regrouping units in LOS of a unit of the activated platoon, and Heroic or
/// Shocked units, must react.
pub fn mandatory(s: &LhyState, side: &str) -> Vec<String> {
    if side == s.turn.active || !first_call(s) {
        return vec![];
    }
    let members: Vec<&Unit> = s
        .turn
        .cycle
        .iter()
        .flat_map(|c| c.members.iter())
        .filter_map(|n| s.unit(n))
        .filter(|u| u.on_map())
        .collect();
    fresh(s, side)
        .filter(|u| {
            u.heroic
                || u.status == Status::Shocked
                || (matches!(u.status, Status::Disrupted | Status::Regrouping)
                    && members.iter().any(|m| sight::sees_unit(s, m, u)))
        })
        .map(|u| u.name.clone())
        .collect()
}

/// May `u` react with `a` at this call? (§8.0–8.3; `None`: yes.)
pub fn eligible(s: &LhyState, u: &Unit, a: &Action) -> Result<(), String> {
    let saw_it = last(s).iter().any(|r| saw(s, u, r));
    let actors: Vec<&str> = last(s).iter().map(|r| r.unit.as_str()).collect();
    // §8.2: mortar fire may answer any call.
    if matches!(a, Action::Mortar { .. }) {
        return Ok(());
    }
    if saw_it || mandatory(s, &u.side).contains(&u.name) {
        // §8.0b: fire only at a unit that itself acted.
        let target_ok = |t: &Target| match t {
            Target::Unit(n) => actors.contains(&n.as_str()),
            Target::Hex(h) | Target::Hidden(h, _) => last(s)
                .iter()
                .any(|r| s.unit(&r.unit).is_some_and(|x| x.at == *h)),
        };
        return match a {
            Action::Fire { target, .. } | Action::Scoot { target, .. } | Action::Halt { target, .. }
                if !target_ok(target) =>
            {
                Err("a reacting unit fires only at an enemy unit that took the action it answers (§8.0b)".into())
            }
            _ => Ok(()),
        };
    }
    // §8.3 optional reactions: maneuver and recover only, with the exceptions c and e.
    let why = format!(
        "{} saw no enemy action before this call: it may only take an optional reaction (§8.3)",
        u.name
    );
    match a {
        Action::Withdraw { .. } if u.kind.foot() => Ok(()),
        Action::Mount { .. } | Action::Dismount { .. } => Ok(()),
        Action::Move { path, .. } if u.vehicle() && u.motion == Motion::Stationary => {
            if path.is_empty() {
                Ok(())
            } else {
                Err(format!(
                    "{why}; a stationary vehicle may go into motion in its hex (§8.3d)"
                ))
            }
        }
        Action::Move { .. } | Action::Halt { .. } if u.vehicle() && u.motion == Motion::Green => {
            Ok(())
        }
        Action::Fire { target, .. } if u.kind == Kind::Latw => {
            let vehicle = match target {
                Target::Unit(n) => s.unit(n).is_some_and(|x| x.vehicle()),
                Target::Hidden(_, k) => k.vehicle(),
                Target::Hex(_) => false,
            };
            if vehicle {
                Ok(())
            } else {
                Err(format!("{why}; a LATW fires at a vehicle (§8.3e)"))
            }
        }
        Action::Move { .. } | Action::Recover { .. } if with_leader(s, u) => Ok(()),
        _ => Err(why),
    }
}

/// §8.3b: a platoon leader (two a cycle) or a unit stacked with its leader, or next to him
/// with all of them in the open or on a road.
fn with_leader(s: &LhyState, u: &Unit) -> bool {
    let used = s.turn.cycle.as_ref().map_or(0, |c| {
        c.leaders.iter().filter(|(side, _)| *side == u.side).count()
    });
    let cap = s.data.rules.optional_leaders.int().max(0) as usize;
    if u.kind == Kind::Leader {
        return used < cap
            || s.turn
                .cycle
                .as_ref()
                .is_some_and(|c| c.leaders.iter().any(|(_, l)| *l == u.name));
    }
    let open = |h: Hex| s.map.road(h) || !s.map.cover(&s.data, h);
    s.on_map().any(|l| {
        l.kind == Kind::Leader
            && l.side == u.side
            && l.platoon.is_some()
            && l.platoon == u.platoon
            && (l.at == u.at || (l.at.is_adjacent(u.at) && open(l.at) && open(u.at)))
    })
}

/// The standing reaction that covers `u` (its own, its platoon's, or the side's), apart from
/// `WITHDRAW IF ASSAULTED`, which stands beside it (`withdraws_if_assaulted`).
pub fn rule_for(s: &LhyState, u: &Unit) -> Option<Rule> {
    find_rule(s, u, false)
}

/// Does a standing `WITHDRAW IF ASSAULTED` (its own, its platoon's or the side's) cover `u`?
pub fn withdraws_if_assaulted(s: &LhyState, u: &Unit) -> bool {
    find_rule(s, u, true).is_some()
}

fn find_rule(s: &LhyState, u: &Unit, if_assaulted: bool) -> Option<Rule> {
    let side = s.side(&u.side)?;
    let find = |w: &Who| {
        side.standing
            .iter()
            .find(|x| &x.who == w && x.rule.if_assaulted() == if_assaulted)
            .map(|x| x.rule.clone())
    };
    find(&Who::Unit(u.name.clone()))
        .or_else(|| {
            u.platoon
                .as_ref()
                .and_then(|p| find(&Who::Platoon(p.clone())))
        })
        .or_else(|| find(&Who::All))
}

fn nearest_action(s: &LhyState, u: &Unit) -> Option<u32> {
    last(s)
        .iter()
        .filter(|r| r.side != u.side)
        .flat_map(|r| r.hexes.iter())
        .map(|h| h.distance(u.at))
        .min()
}

/// What a standing FIRE does: the nearest enemy unit that acted, that `u` sees and may hit.
fn standing_fire(s: &LhyState, u: &Unit, within: Option<u32>) -> Option<Action> {
    let mut actors: Vec<&Unit> = last(s)
        .iter()
        .filter_map(|r| s.unit(&r.unit))
        .filter(|x| x.on_map() && x.side != u.side && !x.hidden && !x.dummy())
        .collect();
    actors.sort_by_key(|x| (x.at.distance(u.at), x.name.clone()));
    actors.dedup_by_key(|x| x.name.clone());
    for x in actors {
        if within.is_some_and(|n| x.at.distance(u.at) > n) {
            continue;
        }
        let target = if sight::shown(x, &u.side) {
            Target::Unit(x.name.clone())
        } else if x.kind.hard() && !x.vehicle() {
            continue;
        } else if x.vehicle() {
            Target::Hidden(
                x.at,
                if x.kind == Kind::Afv {
                    Kind::Afv
                } else {
                    Kind::Halftrack
                },
            )
        } else {
            Target::Hex(x.at)
        };
        let a = Action::Fire {
            unit: u.name.clone(),
            target,
            mode: None,
            from: vec![],
        };
        if action::check(s, &u.side, &a, true).is_ok() && eligible(s, u, &a).is_ok() {
            return Some(a);
        }
    }
    None
}

/// What `side`'s standing reactions do at this call, and the units they leave uncovered
/// (triggered or mandatory units no rule answers).
pub fn standing(s: &LhyState, side: &str) -> (Vec<Action>, Vec<String>) {
    let trig = triggered(s, side);
    let must = mandatory(s, side);
    let mut acts = Vec::new();
    let mut open = Vec::new();
    for u in fresh(s, side) {
        let rule = rule_for(s, u);
        let is_trig = trig.contains(&u.name);
        let is_must = must.contains(&u.name);
        let assaulted = s.arrows.iter().any(|a| a.to == u.at && a.side != side);
        // Under an enemy Assault Arrow a standing withdrawal comes first; when it cannot be
        // made (no hex to go to), the unit's other rule answers, or its owner is asked.
        let withdrawal = (assaulted && u.kind.foot() && withdraws_if_assaulted(s, u))
            .then(|| Action::Withdraw {
                units: vec![u.name.clone()],
                path: vec![],
                exit: false,
            })
            .filter(|a| action::check(s, side, a, true).is_ok());
        let a = withdrawal.or_else(|| match &rule {
            Some(Rule::Fire { within }) if is_trig => standing_fire(s, u, *within),
            Some(Rule::Recover) if u.status != Status::Good => Some(Action::Recover {
                unit: u.name.clone(),
            }),
            _ => None,
        });
        // R18: a mandatory reaction no rule answers is a recovery when the mail is not asked.
        let a = a.or_else(|| {
            (is_must && rule.is_some()).then(|| Action::Recover {
                unit: u.name.clone(),
            })
        });
        if let Some(a) = a
            && action::check(s, side, &a, true).is_ok()
        {
            acts.push(a);
            continue;
        }
        let covered = match &rule {
            None => false,
            Some(Rule::Pass { unless: Some(n) }) => nearest_action(s, u).is_none_or(|d| d > *n),
            Some(_) => true,
        };
        if (is_trig || is_must) && !covered {
            open.push(u.name.clone());
        }
    }
    (acts, open)
}

/// Must `side` be asked by mail at this call (R18)?
pub fn ask_by_mail(s: &LhyState, side: &str) -> bool {
    match s.side(side).map(|x| x.ask).unwrap_or_default() {
        Ask::Never => false,
        Ask::Always => fresh(s, side).next().is_some(),
        Ask::Uncovered => !standing(s, side).1.is_empty(),
    }
}

/// What silence does at a call: the standing reactions, and mandatory units recover.
pub fn by_default(s: &LhyState, side: &str) -> Vec<Action> {
    let (mut acts, _) = standing(s, side);
    for n in mandatory(s, side) {
        if !acts.iter().any(|a| a.units().contains(&n)) {
            let a = Action::Recover { unit: n };
            if action::check(s, side, &a, true).is_ok() {
                acts.push(a);
            }
        }
    }
    acts
}
