//! Reaction Charges (p.6 steps 4–5, R29): the enemy cavalry whose Reaction Zone holds the
//! charger, the question or standing order, the roll, and the two stacks meeting midway
//! with the reactor becoming the attacker; Form Up and Stand for skirmishing cavalry.

use crate::rulesets::kit::roster::{Roster, TwoSides};

use super::*;

/// The hexes between a charger at `ch` and a reactor at `rh` in which the two can meet face to
/// face (p.6 step 4a.i): the straight line, else another shortest way, every hex empty and
/// open to a charge. `None` when there is no such way: the two cannot meet, so that stack
/// may not react (R29). Both ends ride only into these hexes, so they always end adjacent.
pub(super) fn meeting_way(st: &LbState, ch: Hex, rh: Hex) -> Option<Vec<Hex>> {
    let open = |h: Hex| st.at(h).is_empty() && field::charge_cost(st, h).is_some();
    let line = field::straight(st, ch, rh);
    if line.iter().all(|h| open(*h)) {
        return Some(line);
    }
    let gap = ch.distance(rh).saturating_sub(1);
    field::cheapest(
        st,
        ch,
        |h| h.distance(rh) == 1,
        |_, n| open(n).then_some(1),
        gap,
    )
    .map(|(p, _)| p)
}

/// Reacting cavalry stacks whose Reaction Zone holds the charger (R29): (hex, unit names,
/// skirmishing).
fn reactors(st: &LbState, c: &Charge, at: Hex) -> Vec<(Hex, Vec<String>, bool)> {
    let reach = st.data.rules.reaction_zone.int().max(0) as u32;
    let mut out: Vec<(Hex, Vec<String>, bool)> = Vec::new();
    for u in &st.units {
        if u.side == c.side || u.arm != Arm::Cavalry || !u.fighting() || u.charged {
            continue;
        }
        if out.iter().any(|(h, _, _)| *h == u.hex) || c.reactions_tried.contains(&st.label(u.hex)) {
            continue;
        }
        let skirmish = u.formation == Formation::Skirmish;
        let ok = if skirmish {
            true
        } else {
            u.cohesion == Cohesion::GoodOrder && u.fatigue != Fatigue::Exhausted
        };
        if !ok || u.hex.distance(at) > reach || !field::in_arc(st, u.hex, u.facing, at) {
            continue;
        }
        // A Reaction Charge needs a way to meet the charger (R29); Form Up and Stand does not.
        if !skirmish && meeting_way(st, at, u.hex).is_none() {
            continue;
        }
        let names: Vec<String> = st
            .at(u.hex)
            .iter()
            .filter(|x| x.arm == Arm::Cavalry && x.fighting())
            .map(|x| x.name.clone())
            .collect();
        out.push((u.hex, names, skirmish));
    }
    out
}

/// p.6 steps 4–5. `Ok(true)`: a Reaction Charge took the charge over.
pub(super) fn reactions(
    st: &mut LbState,
    r: &mut dyn Roller,
    c: &mut Charge,
) -> Result<bool, Flow> {
    let us = units_of(st, c);
    let at = us[0].hex;
    let cands = reactors(st, c, at);
    if cands.is_empty() {
        return Ok(false);
    }
    let chosen = reaction_chosen(st, c, &cands, at)?;
    for (h, _, _) in &cands {
        c.reactions_tried.push(st.label(*h));
    }
    let Some((name, form_up)) = chosen else {
        return Ok(false);
    };
    let Some((rh, rnames, skirmish)) = cands.iter().find(|x| x.1.contains(&name)).cloned() else {
        return Ok(false);
    };
    let rs: Vec<Unit> = rnames.iter().filter_map(|n| st.unit(n).cloned()).collect();
    let mods = reaction_mods(st, &rs, &us, form_up || skirmish);
    if form_up || skirmish {
        let label = format!("C{} Form Up and Stand of {}", c.id, join(&rnames));
        if combat::morale_check(st, r, label, &rnames, &mods).pass {
            for n in &rnames {
                if let Some(u) = st.unit_mut(n) {
                    u.formation = Formation::Line;
                }
            }
            st.say(format!("{} form up and stand.", join(&rnames)));
        } else {
            st.say(format!("{} fail to form up.", join(&rnames)));
        }
        return Ok(false);
    }
    let label = format!("C{} Reaction Charge of {}", c.id, join(&rnames));
    if !combat::morale_check(st, r, label, &rnames, &mods).pass {
        st.say(format!(
            "{} stay in place, not Disordered; the charge goes on.",
            join(&rnames)
        ));
        return Ok(false);
    }
    meet(st, c, &us, rh, &rnames);
    Ok(true)
}

/// Which candidate reacts, and whether by Form Up and Stand: the enemy's REACT or FORM UP
/// answer, else the first its standing orders send; the question asked when they say ask.
fn reaction_chosen(
    st: &mut LbState,
    c: &Charge,
    cands: &[(Hex, Vec<String>, bool)],
    at: Hex,
) -> Result<Option<(String, bool)>, Flow> {
    let side = st.enemy_of(&c.side).unwrap_or_default().to_string();
    let standing = st.standing(&side);
    Ok(match decide::take(st) {
        Some(Answer::React(x)) => x,
        Some(_) => None,
        None => {
            let mut pick = None;
            let mut ask = false;
            for (_, names, skirmish) in cands {
                let p = if *skirmish {
                    standing.form_up
                } else {
                    standing.reaction
                };
                match decide::policy(p) {
                    Some(true) if pick.is_none() => pick = Some((names[0].clone(), *skirmish)),
                    None => ask = true,
                    _ => {}
                }
            }
            if pick.is_none() && ask {
                let opts: Vec<String> = cands.iter().map(|x| x.1[0].clone()).collect();
                // The reacting side is the enemy: the target only once declared (p.6 step 3).
                let text = format!(
                    "C{}: {} charging {} are at {}, in the Reaction Zone of {}. Answer REACT unit (Reaction Charge), FORM UP unit (skirmishers: Form Up and Stand) or NO REACTION.",
                    c.id,
                    join(&c.units),
                    if open_target(st, c) {
                        st.label(c.target)
                    } else {
                        "(target not yet declared)".to_string()
                    },
                    st.label(at),
                    opts.join(", ")
                );
                return Err(decide::ask(
                    st,
                    decide::question(&side, QKind::Reaction, text, opts),
                ));
            }
            pick
        }
    })
}

/// The reaction morale check's modifiers (R29): light or heavy reactors, tired, their
/// leader, charged by heavy cavalry, and skirmish order for a Form Up and Stand.
fn reaction_mods(st: &LbState, rs: &[Unit], us: &[Unit], skirmish: bool) -> Vec<(i32, String)> {
    let k = st.data.reaction.clone();
    let mut mods: Vec<(i32, String)> = Vec::new();
    let mut add = |v: i32, w: &str| {
        if v != 0 {
            mods.push((v, w.to_string()));
        }
    };
    if rs
        .iter()
        .all(|u| st.data.class(&u.class).is_some_and(|x| x.light))
    {
        add(k.light.int(), "light cavalry");
    }
    if rs
        .iter()
        .any(|u| st.data.class(&u.class).is_some_and(|x| x.heavy))
    {
        add(k.heavy.int(), "heavy cavalry");
    }
    if rs.iter().any(|u| u.fatigue == Fatigue::Tired) {
        add(k.tired.int(), "tired");
    }
    let refs: Vec<&Unit> = rs.iter().collect();
    if let Some((v, why)) = combat::leader_morale(st, &refs, k.leader.int()) {
        add(v, &why);
    }
    if us
        .iter()
        .any(|u| st.data.class(&u.class).is_some_and(|x| x.heavy))
    {
        add(k.charger_heavy.int(), "charged by heavy cavalry");
    }
    if skirmish {
        add(k.skirmish.int(), "in skirmish order");
    }
    mods
}

/// p.6 step 4a.i: both stacks meet face to face midway; the charger moves one hex more when
/// the hexes between them are odd; the reactor becomes the attacker (R29).
fn meet(st: &mut LbState, c: &mut Charge, chargers: &[Unit], rh: Hex, rnames: &[String]) {
    let ch = chargers[0].hex;
    // `reactors` offered only stacks with a way to meet; nothing moved since.
    let between = meeting_way(st, ch, rh).unwrap_or_default();
    let h = between.len();
    let charger_steps = h.div_ceil(2);
    let cnames: Vec<String> = chargers.iter().map(|u| u.name.clone()).collect();
    let mut cat = ch;
    for x in between.iter().take(charger_steps) {
        movement::place(st, &cnames, *x);
        c.path.push(*x);
        cat = *x;
    }
    let mut rat = rh;
    let mut rpath = vec![rh];
    for x in between.iter().rev().take(h - charger_steps) {
        movement::place(st, rnames, *x);
        rpath.push(*x);
        rat = *x;
    }
    let (to_r, to_c) = (st.grid.direction(cat, rat), st.grid.direction(rat, cat));
    for n in &cnames {
        if let (Some(u), Some(d)) = (st.unit_mut(n), to_r) {
            u.facing = d;
        }
    }
    for n in rnames {
        if let (Some(u), Some(d)) = (st.unit_mut(n), to_c) {
            u.facing = d;
        }
    }
    c.stage = CStage::Over;
    c.melee = true;
    let id = st.fresh_id();
    let side = st
        .unit(&rnames[0])
        .map(|u| u.side.clone())
        .unwrap_or_default();
    let mp = (rpath.len() - 1) as u32;
    st.charges.push(Charge {
        id,
        side: side.clone(),
        units: rnames.to_vec(),
        start: rh,
        via: vec![],
        target: cat,
        recall_at: None,
        path: rpath,
        mp,
        declared: true,
        squares_tried: vec![],
        marker_square: false,
        reactions_tried: vec![],
        stage: CStage::Arrived,
        melee: false,
        reactor_of: Some(c.id),
        retreated: vec![],
        left: 0,
        doubled: false,
        drm: 0,
        kind: None,
    });
    st.say(format!(
        "C{}: Reaction Charge! {} and {} meet face to face at {} and {}; {} ({}) become the attacker: Charge marker C{id}.",
        c.id,
        join(rnames),
        join(&cnames),
        st.label(rat),
        st.label(cat),
        join(rnames),
        st.side_name(&side)
    ));
}
