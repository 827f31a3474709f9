//! The Cavalry Charge Summary (p.6) up to the mêlée: the Charge marker, square attempts and
//! Recall, charge execution with 5 MP and the target declaration within two hexes, the charge
//! falling short, Reaction Charges meeting midway, Form Up and Stand, and the light cavalry's
//! Recall (Reaction Charges in `reaction`). The mêlées themselves are in `cavalry`. Resumable
//! at every question.

use std::ops::ControlFlow::{self, Break, Continue};

use crate::board::hex::Hex;
use crate::rulesets::kit::roster::{Roster, TwoSides};

use super::combat::{self, join};
use super::data::Arm;
use super::decide::{self, Flow};
use super::field;
use super::movement;
use super::roll::Roller;
use super::state::{Answer, CStage, Charge, Cohesion, Fatigue, Formation, LbState, QKind, Unit};

mod reaction;

pub fn units_of(st: &LbState, c: &Charge) -> Vec<Unit> {
    c.units
        .iter()
        .filter_map(|n| st.unit(n).cloned())
        .filter(|u| u.fighting())
        .collect()
}

/// Why these units may not charge now (R26), if they may not.
pub fn check_charge(st: &LbState, names: &[String]) -> Result<Hex, String> {
    let mut hex = None;
    for n in names {
        let u = st.unit(n).ok_or_else(|| format!("no unit {n}"))?;
        if u.arm != Arm::Cavalry {
            return Err(format!("{n} is not cavalry"));
        }
        if !u.fighting() {
            return Err(format!("{n} is routed (PGD)"));
        }
        if u.cohesion != Cohesion::GoodOrder {
            return Err(format!("{n} is Disordered and cannot charge"));
        }
        if u.fatigue == Fatigue::Exhausted {
            return Err(format!("{n} is Exhausted and cannot charge"));
        }
        if u.charged {
            return Err(format!("{n} has charged this turn"));
        }
        if st
            .charges
            .iter()
            .any(|c| c.stage != CStage::Over && c.units.contains(n))
        {
            return Err(format!("{n} is already charging"));
        }
        match hex {
            None => hex = Some(u.hex),
            Some(h) if h != u.hex => {
                return Err("the units of one charge must stand in one hex".into());
            }
            _ => {}
        }
    }
    hex.ok_or_else(|| "no unit named".to_string())
}

/// The cheapest charge path from `from` to a hex adjacent to `target`: through hexes a charge
/// may enter that hold no other unit, within the charge MP.
pub fn auto_path(st: &LbState, from: Hex, target: Hex, mp: u32) -> Option<(Vec<Hex>, u32)> {
    field::cheapest(
        st,
        from,
        |h| h.distance(target) == 1,
        |_, n| {
            if !st.at(n).is_empty() {
                return None;
            }
            field::charge_cost(st, n)
        },
        mp,
    )
}

/// Checks an ordered charge path: adjacent hexes a charge may enter, empty, within 5 MP, ending
/// next to the target (or able to reach it by the cheapest way). Returns the MP it costs.
pub fn check_path(st: &LbState, from: Hex, via: &[Hex], target: Hex) -> Result<u32, String> {
    let limit = st.data.rules.charge_mp.int().max(0) as u32;
    let mut at = from;
    let mut mp = 0;
    for h in via {
        if at.distance(*h) != 1 {
            return Err(format!("{} is not next to {}", st.label(*h), st.label(at)));
        }
        if !st.at(*h).is_empty() {
            return Err(format!(
                "the charge path may not enter the occupied hex {}",
                st.label(*h)
            ));
        }
        let c = field::charge_cost(st, *h).ok_or_else(|| {
            format!(
                "cavalry may not charge into {} ({})",
                st.label(*h),
                st.terrain_at(*h)
            )
        })?;
        mp += c;
        at = *h;
    }
    if mp > limit {
        return Err(format!(
            "the charge path costs {mp} MP; a charge has {limit}"
        ));
    }
    if at.distance(target) == 1 {
        return Ok(mp);
    }
    match auto_path(st, at, target, limit - mp) {
        Some((_, more)) => Ok(mp + more),
        None => Err(format!(
            "{} cannot be reached with the charge's {limit} MP",
            st.label(target)
        )),
    }
}

/// The enemy may know the charge's target: it is declared, or the chargers stand within the
/// declaration distance of it (p.6 step 3: "when within two hexes … must declare").
pub fn open_target(st: &LbState, c: &Charge) -> bool {
    let reach = st.data.rules.target_declaration.int().max(0) as u32;
    c.declared
        || c.units
            .iter()
            .filter_map(|n| st.unit(n))
            .any(|u| u.hex.distance(c.target) <= reach)
}

/// Places a Charge marker (p.6 step 1). The square attempts it triggers come next.
pub fn declare(
    st: &mut LbState,
    names: &[String],
    target: Hex,
    via: Vec<Hex>,
    recall_at: Option<Hex>,
) -> Option<u32> {
    let start = match check_charge(st, names) {
        Ok(h) => h,
        Err(e) => {
            st.say(format!("{}: no charge: {e}.", join(names)));
            return None;
        }
    };
    let side = st
        .unit(&names[0])
        .map(|u| u.side.clone())
        .unwrap_or_default();
    let id = st.fresh_id();
    st.charges.push(Charge {
        id,
        side: side.clone(),
        units: names.to_vec(),
        start,
        via,
        target,
        recall_at,
        path: vec![start],
        mp: 0,
        declared: false,
        squares_tried: vec![],
        marker_square: false,
        reactions_tried: vec![],
        stage: CStage::Declared,
        melee: false,
        reactor_of: None,
        retreated: vec![],
        left: 0,
        doubled: false,
        drm: 0,
        kind: None,
    });
    st.say(format!(
        "{} ({}) {} marked to charge: Charge marker C{id} in {}.",
        join(names),
        st.side_name(&side),
        if names.len() == 1 { "is" } else { "are" },
        st.label(start)
    ));
    Some(id)
}

/// Square attempts of infantry within reach when a Charge marker is placed (p.6 step 2).
pub fn marker_trigger(st: &mut LbState, r: &mut dyn Roller, id: u32) -> Flow {
    let Some(c) = st.charge(id).cloned() else {
        return Flow::Done;
    };
    let lead = c.units[0].clone();
    let mut tried = c.squares_tried.clone();
    let res = movement::square_triggers(st, r, &lead, false, &mut tried);
    if let Some(x) = st.charge_mut(id) {
        x.squares_tried = tried;
        // "If Square is successfully formed the cavalry may attempt to Recall" (p.6 step 2)
        // holds for a square formed at the marker too: asked when the charge sets off.
        if matches!(&res, Ok(formed) if formed.contains(&x.target)) {
            x.marker_square = true;
        }
    }
    if !st.started.contains(&lead) {
        st.started.push(lead);
    }
    match res {
        Err(f) => f,
        Ok(_) => Flow::Done,
    }
}

/// The end of a charge without a mêlée: Tired (R27), and the inverted Charge marker.
pub fn no_melee(st: &mut LbState, c: &Charge, why: &str) {
    for n in &c.units {
        if let Some(u) = st.unit_mut(n) {
            if u.fatigue == Fatigue::Fresh {
                u.fatigue = Fatigue::Tired;
            }
            u.charged = true;
        }
    }
    st.say(format!("C{}: {why}; {} Tired.", c.id, join(&c.units)));
    if let Some(x) = st.charge_mut(c.id) {
        x.stage = CStage::Over;
    }
}

/// A Recall roll of the charging units (R28).
pub fn recall_roll(st: &mut LbState, r: &mut dyn Roller, c: &Charge, square: bool) -> bool {
    let us = units_of(st, c);
    let refs: Vec<&Unit> = us.iter().collect();
    let k = st.data.recall.clone();
    let mut mods: Vec<(i32, String)> = Vec::new();
    let mut add = |v: i32, w: &str| {
        if v != 0 {
            mods.push((v, w.to_string()));
        }
    };
    if us
        .iter()
        .all(|u| st.data.class(&u.class).is_some_and(|x| x.light))
    {
        add(k.light.int(), "light cavalry");
    }
    if us.iter().any(|u| u.fatigue == Fatigue::Tired) {
        add(k.tired.int(), "tired");
    }
    if us.iter().any(|u| u.fatigue == Fatigue::Exhausted) {
        add(k.exhausted.int(), "exhausted");
    }
    if us
        .iter()
        .any(|u| st.data.class(&u.class).is_some_and(|x| x.old_guard))
    {
        add(k.old_guard.int(), "Guard");
    }
    if let Some((v, why)) = combat::leader_morale(st, &refs, k.leader.int()) {
        add(v, &why);
    }
    if square {
        add(k.target_in_square.int(), "the target formed square");
    }
    let names: Vec<String> = us.iter().map(|u| u.name.clone()).collect();
    let label = format!("C{} Recall of {}", c.id, join(&names));
    let chk = combat::morale_check(st, r, label, &names, &mods);
    chk.pass
}

pub(super) fn save(st: &mut LbState, c: Charge) {
    if let Some(x) = st.charge_mut(c.id) {
        *x = c;
    }
}

/// Executes charge `id` (p.6 step 3) up to its mêlée, or until it ends.
pub fn run(st: &mut LbState, r: &mut dyn Roller, id: u32) -> Flow {
    loop {
        let Some(mut c) = st.charge(id).cloned() else {
            return Flow::Done;
        };
        let us = units_of(st, &c);
        if us.is_empty() && c.stage != CStage::Over {
            c.stage = CStage::Over;
            save(st, c);
            return Flow::Done;
        }
        let step = match c.stage {
            CStage::Declared => announce(st, id, c),
            CStage::Moving => ride(st, r, id, c, &us),
            CStage::Squares => squares(st, r, c, &us),
            CStage::SquareRecall => square_recall(st, r, id, c),
            CStage::Reactions => react(st, r, c),
            CStage::LightRecall => light_recall(st, r, id, c, &us),
            _ => Break(Flow::Done),
        };
        if let Break(f) = step {
            return f;
        }
    }
}

/// p.6 steps 1–3: the charge is announced; its target only to the charging side until it
/// is within the declaration distance.
fn announce(st: &mut LbState, id: u32, mut c: Charge) -> ControlFlow<Flow> {
    let s = if c.units.len() == 1 { "s" } else { "" };
    let full = format!(
        "C{id}: {} charge{s} from {} at {}.",
        join(&c.units),
        st.label(c.start),
        st.label(c.target)
    );
    if open_target(st, &c) {
        st.say(full);
    } else {
        // p.6 step 3: the target is declared only within two hexes of it; until
        // then the enemy sees a charge, not where it goes.
        st.say(format!(
            "C{id}: {} charge{s} from {}; the target is declared within {} hexes of it.",
            join(&c.units),
            st.label(c.start),
            st.data.rules.target_declaration.int().max(0)
        ));
        st.say_to(&c.side, full);
    }
    c.stage = if c.marker_square {
        CStage::SquareRecall
    } else {
        CStage::Moving
    };
    save(st, c);
    Continue(())
}

/// One hex of the charge's move (R27: 5 MP; the target declared within reach), then its
/// square triggers; adjacent to the target, it has arrived.
fn ride(
    st: &mut LbState,
    r: &mut dyn Roller,
    id: u32,
    mut c: Charge,
    us: &[Unit],
) -> ControlFlow<Flow> {
    let here = us[0].hex;
    if here.distance(c.target) == 1 {
        c.stage = CStage::Arrived;
        st.say(format!(
            "C{id}: {} reach {}.",
            join(&c.units),
            st.label(c.target)
        ));
        save(st, c);
        return Break(Flow::Done);
    }
    let limit = st.data.rules.charge_mp.int().max(0) as u32;
    let k = c.path.len() - 1;
    let next = if k < c.via.len() {
        Some(c.via[k])
    } else {
        auto_path(st, here, c.target, limit.saturating_sub(c.mp))
            .and_then(|(p, _)| p.first().copied())
    };
    let cost = next.and_then(|n| {
        if st.at(n).is_empty() && n.distance(here) == 1 {
            field::charge_cost(st, n)
        } else {
            None
        }
    });
    let (Some(next), Some(cost)) = (next, cost) else {
        return Break(short(st, c));
    };
    if c.mp + cost > limit {
        return Break(short(st, c));
    }
    let names: Vec<String> = us.iter().map(|u| u.name.clone()).collect();
    movement::place(st, &names, next);
    c.mp += cost;
    c.path.push(next);
    let reach = st.data.rules.target_declaration.int().max(0) as u32;
    if !c.declared && next.distance(c.target) <= reach {
        c.declared = true;
        let others: Vec<String> = st
            .units
            .iter()
            .filter(|u| {
                u.side != c.side
                    && u.fighting()
                    && u.hex != c.target
                    && u.hex.distance(next) <= reach
            })
            .map(|u| u.name.clone())
            .collect();
        st.say(format!(
            "C{id}: within {reach} hexes, {} declare {} the target{}.",
            join(&c.units),
            st.label(c.target),
            if others.is_empty() {
                String::new()
            } else {
                format!(" ({} not)", join(&others))
            }
        ));
    }
    c.stage = CStage::Squares;
    save(st, c);
    let routed = movement::opportunity(st, r, &names, next);
    if !routed.is_empty() || units_of(st, st.charge(id).expect("exists")).is_empty() {
        if let Some(x) = st.charge_mut(id) {
            x.stage = CStage::Over;
        }
        return Break(Flow::Done);
    }
    Continue(())
}

/// The squares the charge's hex triggers (p.6); a square at the target asks about a Recall.
fn squares(st: &mut LbState, r: &mut dyn Roller, mut c: Charge, us: &[Unit]) -> ControlFlow<Flow> {
    let mut tried = c.squares_tried.clone();
    match movement::square_triggers(st, r, &us[0].name, true, &mut tried) {
        Err(f) => return Break(f),
        Ok(formed) => {
            c.squares_tried = tried;
            c.stage = if formed.contains(&c.target) {
                CStage::SquareRecall
            } else {
                CStage::Reactions
            };
            save(st, c);
        }
    }
    Continue(())
}

/// The target has formed square: recall (a roll once declared), a new target, or charge it.
fn square_recall(
    st: &mut LbState,
    r: &mut dyn Roller,
    id: u32,
    mut c: Charge,
) -> ControlFlow<Flow> {
    let choice = match decide::take(st) {
        Some(Answer::Recall(x)) => x,
        Some(_) => None,
        None => match decide::recall(st.standing(&c.side).recall, true) {
            Some(true) => Some(None),
            Some(false) => None,
            None => {
                let text = format!(
                    "C{id}: your target {} has formed square. Answer RECALL (end the charge), RECALL AT hex (a new target) or NO RECALL (charge the square){}.",
                    st.label(c.target),
                    if c.declared {
                        "; a Recall needs a roll"
                    } else {
                        "; it is not yet declared, so no roll is needed"
                    }
                );
                return Break(decide::ask(
                    st,
                    decide::question(&c.side, QKind::Recall, text, vec![]),
                ));
            }
        },
    };
    // A square formed at the marker is answered before the first hex: the charge
    // then sets off (no reaction check at its own start hex).
    c.stage = if std::mem::take(&mut c.marker_square) {
        CStage::Moving
    } else {
        CStage::Reactions
    };
    if let Some(new_target) = choice {
        let ok = if c.declared {
            recall_roll(st, r, &c, true)
        } else {
            true
        };
        if ok {
            match new_target {
                Some(t) => {
                    st.say(format!("C{id}: recalled; a new target is chosen."));
                    st.say_to(
                        &c.side,
                        format!("C{id}: the new target is {}.", st.label(t)),
                    );
                    c.target = t;
                    c.declared = false;
                }
                None => {
                    save(st, c.clone());
                    no_melee(st, &c, "the charge is recalled");
                    return Break(Flow::Done);
                }
            }
        } else {
            st.say(format!(
                "C{id}: the Recall fails; the cavalry must charge the square."
            ));
        }
    } else if c.declared {
        st.say(format!("C{id}: the cavalry charges the square."));
    } else {
        // Not declared yet: which square it rides at stays the charger's (p.6).
        st.say_to(&c.side, format!("C{id}: the cavalry charges the square."));
    }
    save(st, c);
    Continue(())
}

/// The enemy's reactions to the charge (p.6 step 4); none that ends it: on to the Recall.
fn react(st: &mut LbState, r: &mut dyn Roller, mut c: Charge) -> ControlFlow<Flow> {
    match reaction::reactions(st, r, &mut c) {
        Err(f) => {
            save(st, c);
            Break(f)
        }
        Ok(true) => {
            save(st, c);
            Break(Flow::Done)
        }
        Ok(false) => {
            c.stage = CStage::LightRecall;
            save(st, c);
            Continue(())
        }
    }
}

/// Light cavalry reaching its RECALL AT hex rolls to be recalled (p.6); else it goes on.
fn light_recall(
    st: &mut LbState,
    r: &mut dyn Roller,
    id: u32,
    mut c: Charge,
    us: &[Unit],
) -> ControlFlow<Flow> {
    c.stage = CStage::Moving;
    if c.recall_at == Some(us[0].hex) {
        c.recall_at = None;
        save(st, c.clone());
        if recall_roll(st, r, &c, false) {
            no_melee(st, &c, "the light cavalry is recalled");
            return Break(Flow::Done);
        }
        st.say(format!("C{id}: the Recall fails; the charge goes on."));
    }
    save(st, c);
    Continue(())
}

/// p.6 step 3: not adjacent to the target when the 5 MP are spent: Disordered, over (R27).
fn short(st: &mut LbState, c: Charge) -> Flow {
    for n in &c.units {
        if let Some(u) = st.unit_mut(n)
            && u.cohesion == Cohesion::GoodOrder
        {
            u.cohesion = Cohesion::Disordered;
        }
    }
    let full = format!(
        "C{}: {} cannot reach {} with the charge's MP: Disordered, the charge is over.",
        c.id,
        join(&c.units),
        st.label(c.target)
    );
    if open_target(st, &c) {
        st.say(full);
    } else {
        st.say(format!(
            "C{}: {} cannot reach the target with the charge's MP: Disordered, the charge is over.",
            c.id,
            join(&c.units)
        ));
        st.say_to(&c.side, full);
    }
    save(st, c.clone());
    no_melee(st, &c, "no mêlée");
    Flow::Done
}
