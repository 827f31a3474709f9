//! Infantry Assault and Old Guard Charge, after the result (p.2–3 steps 8–9, p.5 step 10):
//! Advance after Mêlée with displacement, the impetus along the retreat path, and the Old
//! Guard's exploitation. It decides no result; it carries one out.

use crate::rulesets::kit::roster::Roster;

use super::*;

/// After units advanced into `h`, displaces enough of them back where they came from (p.2
/// step 8, 10.1.4): the player's choice, or AUTO (the last to come in, R24).
pub fn displace(
    st: &mut LbState,
    side: &str,
    h: Hex,
    advanced: &[String],
    label: &str,
) -> Result<(), Flow> {
    let here: Vec<Unit> = st.at(h).into_iter().cloned().collect();
    let refs: Vec<&Unit> = here.iter().collect();
    if field::room_for(st, h, &refs) {
        return Ok(());
    }
    let options: Vec<String> = advanced
        .iter()
        .filter(|n| here.iter().any(|u| &u.name == *n))
        .cloned()
        .collect();
    // The fewest units to send back: the units that stay must make a legal stack by
    // themselves (`room_for` would count the ones sent back too, as they still stand in `h`).
    let mut excess = 0;
    while excess < options.len() {
        excess += 1;
        let keep: Vec<&Unit> = here
            .iter()
            .filter(|u| !options[options.len() - excess..].contains(&u.name))
            .collect();
        if field::legal_stack(st, &keep) {
            break;
        }
    }
    let chosen: Vec<String> = match decide::take(st) {
        Some(Answer::Displace(v)) if v.len() == excess && v.iter().all(|n| options.contains(n)) => {
            v
        }
        Some(Answer::Displace(_)) | Some(Answer::Auto) => {
            options[options.len() - excess..].to_vec()
        }
        _ if decide::auto(st.standing(side).displace) => options[options.len() - excess..].to_vec(),
        _ => {
            let text = format!(
                "{label}: {} is overstacked. Displace {excess} of {} back to where {} came from: answer DISPLACE unit ….",
                st.label(h),
                join(&options),
                if excess == 1 { "it" } else { "they" }
            );
            let mut q = decide::question(side, QKind::Displace, text, options.clone());
            q.count = excess as u32;
            return Err(decide::ask(st, q));
        }
    };
    for n in &chosen {
        let back = st.unit(n).and_then(|u| u.came_from);
        if let Some(b) = back {
            movement::place(st, std::slice::from_ref(n), b);
        }
    }
    st.say(format!(
        "{} displaced back from {}.",
        join(&chosen),
        st.label(h)
    ));
    Ok(())
}

/// p.2 step 8: Advance after Mêlée into every vacated target hex, Disordered.
pub(super) fn advance(
    st: &mut LbState,
    r: &mut dyn Roller,
    a: &Assault,
    run: &mut AssaultRun,
) -> Step {
    let a = st.assault(a.id).cloned().expect("running");
    if !run.advance_done {
        let mut taken: Vec<String> = Vec::new();
        for t in a.targets.clone() {
            if st.at(t).iter().any(|u| u.side != a.attacker) {
                continue;
            }
            let movers: Vec<String> = all(&attacking(st, &a))
                .into_iter()
                .filter(|n| {
                    !taken.contains(n) && st.unit(n).is_some_and(|u| u.hex.distance(t) == 1)
                })
                .collect();
            if movers.is_empty() {
                continue;
            }
            movement::place(st, &movers, t);
            for n in &movers {
                if let Some(u) = st.unit_mut(n)
                    && u.cohesion == Cohesion::GoodOrder
                {
                    u.cohesion = Cohesion::Disordered;
                }
            }
            st.say(format!(
                "A{}: {} advance into {} and {} Disordered.",
                a.id,
                join(&movers),
                st.label(t),
                if movers.len() == 1 { "is" } else { "are" }
            ));
            taken.extend(movers);
        }
        run.advanced = taken;
        run.advance_done = true;
    }
    for t in a.targets.clone() {
        let here: Vec<String> = run
            .advanced
            .iter()
            .filter(|n| st.unit(n).is_some_and(|u| u.hex == t))
            .cloned()
            .collect();
        if here.is_empty() {
            continue;
        }
        if displace(st, &a.attacker, t, &here, &format!("A{}", a.id)).is_err() {
            return Step::Asked;
        }
    }
    // Opportunity reactions come after the first hex of advance and the Disorder (p.2).
    let mut done_hexes = Vec::new();
    for n in run.advanced.clone() {
        let Some(h) = st.unit(&n).map(|u| u.hex) else {
            continue;
        };
        if a.targets.contains(&h) && !done_hexes.contains(&h) {
            done_hexes.push(h);
            let movers: Vec<String> = run
                .advanced
                .iter()
                .filter(|m| st.unit(m).is_some_and(|u| u.hex == h))
                .cloned()
                .collect();
            movement::opportunity(st, r, &movers, h);
        }
    }
    run.advanced.retain(|n| {
        st.unit(n)
            .is_some_and(|u| u.fighting() && a.targets.contains(&u.hex))
    });
    if run.impetus > 0 && !run.advanced.is_empty() {
        Step::To(AStage::Impetus)
    } else {
        end(&a)
    }
}

/// p.3 step 9: the impetus along the defenders' retreat path, or any path if they were
/// removed, stopping on entering an enemy Zone of Influence (R25).
pub(super) fn impetus(
    st: &mut LbState,
    r: &mut dyn Roller,
    a: &Assault,
    run: &mut AssaultRun,
) -> Step {
    loop {
        let Some(owed) = next_owed(st, run) else {
            return end(a);
        };
        let Some(path) = impetus_path(st, a, run.impetus, &owed) else {
            return Step::Asked;
        };
        run.impetus_done.push(owed.from);
        walk_impetus(st, r, a, &owed.names, owed.from, &path, owed.n);
        // The stack has made its impetus wherever it stopped: never a second one.
        for u in owed.names.iter().filter_map(|x| st.unit(x)) {
            if !run.impetus_done.contains(&u.hex) {
                run.impetus_done.push(u.hex);
            }
        }
    }
}

/// A stack of advanced attackers still owed its impetus: its hex and units, the defenders'
/// retreat paths it may follow on (one per first hex), whether any path will do, and how far.
struct Owed {
    from: Hex,
    names: Vec<String>,
    paths: Vec<Vec<Hex>>,
    any: bool,
    n: usize,
}

/// The first stack of advanced attackers, still fighting, that has not made its impetus.
fn next_owed(st: &LbState, run: &AssaultRun) -> Option<Owed> {
    let stacks: Vec<(Hex, Vec<String>)> = {
        let mut v: Vec<(Hex, Vec<String>)> = Vec::new();
        for n in &run.advanced {
            let Some(u) = st.unit(n) else { continue };
            if !u.fighting() || run.impetus_done.contains(&u.hex) {
                continue;
            }
            match v.iter_mut().find(|(h, _)| *h == u.hex) {
                Some((_, x)) => x.push(n.clone()),
                None => v.push((u.hex, vec![n.clone()])),
            }
        }
        v
    };
    let (from, names) = stacks.into_iter().next()?;
    let paths: Vec<Vec<Hex>> = run
        .retreat_paths
        .iter()
        .filter(|p| p.first() == Some(&from) && p.len() > 1)
        .map(|p| p[1..].to_vec())
        .collect();
    let mut distinct: Vec<Vec<Hex>> = Vec::new();
    for p in paths {
        if !distinct.iter().any(|d| d.first() == p.first()) {
            distinct.push(p);
        }
    }
    Some(Owed {
        from,
        names,
        any: run.any_path || distinct.is_empty(),
        paths: distinct,
        n: run.impetus as usize,
    })
}

/// The path the stack follows: the attacker's IMPETUS answer, else the automatic one (AUTO
/// standing, or a single retreat path); `None` once the question is asked.
fn impetus_path(st: &mut LbState, a: &Assault, count: u32, o: &Owed) -> Option<Vec<Hex>> {
    let (from, names, distinct, any, n) = (o.from, &o.names, &o.paths, o.any, o.n);
    Some(match decide::take(st) {
        Some(Answer::Impetus(p)) if !p.is_empty() => {
            if any {
                // The attackers "must advance" the number (p.3): a shorter path is
                // carried on from its end as AUTO would (R25).
                let mut path: Vec<Hex> = p.into_iter().take(n).collect();
                if path.len() < n
                    && let Some(last) = path.last().copied()
                {
                    let more = auto_impetus(st, names, last, &[], true, n - path.len());
                    path.extend(more.into_iter().filter(|h| *h != from));
                }
                path
            } else {
                distinct
                    .iter()
                    .find(|d| d.first() == p.first())
                    .cloned()
                    .unwrap_or_else(|| distinct[0].clone())
            }
        }
        Some(_) => auto_impetus(st, names, from, distinct, any, n),
        None if decide::auto(st.standing(&a.attacker).impetus) || (!any && distinct.len() == 1) => {
            auto_impetus(st, names, from, distinct, any, n)
        }
        None => {
            ask_impetus(st, a, count, o);
            return None;
        }
    })
}

/// Asks the attacker where the stack goes: any path (the neighbouring hexes) or one of the
/// defenders' retreat paths (their first hexes).
fn ask_impetus(st: &mut LbState, a: &Assault, count: u32, o: &Owed) {
    let (from, names, distinct, any, n) = (o.from, &o.names, &o.paths, o.any, o.n);
    let options: Vec<String> = if any {
        st.grid
            .neighbours(from)
            .iter()
            .filter(|h| st.grid.on_map(**h))
            .map(|h| st.label(*h))
            .collect()
    } else {
        distinct.iter().map(|d| st.label(d[0])).collect()
    };
    let text = if any {
        format!(
            "A{}: {} in {} must advance {n} more hex(es) by any path, stopping on entering an enemy Zone of Influence. Answer IMPETUS hex hex ….",
            a.id,
            join(names),
            st.label(from)
        )
    } else {
        format!(
            "A{}: {} in {} must follow one of the defenders' retreat paths (starting {}) for {n} hex(es). Answer IMPETUS hex.",
            a.id,
            join(names),
            st.label(from),
            options.join(" or ")
        )
    };
    let mut q = decide::question(&a.attacker, QKind::Impetus, text, options);
    q.count = count;
    decide::ask(st, q);
}

pub(super) fn auto_impetus(
    st: &LbState,
    names: &[String],
    from: Hex,
    distinct: &[Vec<Hex>],
    any: bool,
    n: usize,
) -> Vec<Hex> {
    if !any {
        return distinct[0].clone();
    }
    let side = names
        .first()
        .and_then(|x| st.unit(x))
        .map(|u| u.side.clone())
        .unwrap_or_default();
    let goal = st
        .units
        .iter()
        .filter(|u| u.side != side && u.fighting())
        .min_by_key(|u| (u.hex.distance(from), u.name.clone()))
        .map(|u| u.hex);
    match goal {
        Some(g) => field::straight(st, from, g).into_iter().take(n).collect(),
        None => vec![],
    }
}

pub(super) fn walk_impetus(
    st: &mut LbState,
    r: &mut dyn Roller,
    a: &Assault,
    names: &[String],
    from: Hex,
    path: &[Hex],
    n: usize,
) {
    let mut at = from;
    let mut went = Vec::new();
    for h in path.iter().take(n) {
        let live: Vec<Unit> = units(st, names)
            .into_iter()
            .filter(|u| u.fighting())
            .collect();
        let refs: Vec<&Unit> = live.iter().collect();
        if h.distance(at) != 1
            || refs.is_empty()
            || !field::room_for(st, *h, &refs)
            || field::move_cost(st, refs[0], *h).is_none()
        {
            break;
        }
        let movers: Vec<String> = live.iter().map(|u| u.name.clone()).collect();
        movement::place(st, &movers, *h);
        went.push(*h);
        at = *h;
        let routed = movement::opportunity(st, r, &movers, *h);
        if !routed.is_empty() || field::enemy_zoi(st, &a.attacker, *h) {
            break;
        }
    }
    if went.is_empty() {
        st.say(format!("A{}: {} cannot follow up.", a.id, join(names)));
    } else {
        st.say(format!(
            "A{}: impetus: {} advance to {}.",
            a.id,
            join(names),
            went.iter()
                .map(|h| st.label(*h))
                .collect::<Vec<_>>()
                .join(" ")
        ));
    }
}

/// p.5 step 10: Old Guard that advanced into or beyond the target may go on with their
/// remaining MPs and assault again even if Disordered (R10: by the lines after the charge).
pub(super) fn exploitation(st: &mut LbState, a: &Assault, run: &AssaultRun) -> Step {
    let side = a.attacker.clone();
    let mut who = Vec::new();
    for n in &run.advanced {
        let Some(u) = st.unit(n).cloned() else {
            continue;
        };
        let guard = st.data.class(&u.class).is_some_and(|c| c.old_guard);
        if guard
            && u.fighting()
            && !field::enemy_zoi(st, &side, u.hex)
            && field::mp_left(st, &u) > 0
        {
            who.push(n.clone());
        }
    }
    if who.is_empty() {
        return Step::End;
    }
    match decide::take(st) {
        // The orders run right after this assault, in this Mêlée Segment; a new assault they
        // declare is resolved in it too (p.5: "including the next one", R10).
        Some(Answer::Exploit(orders)) => {
            if !orders.is_empty() {
                st.say(format!("A{}: the Old Guard exploits.", a.id));
                st.agenda.insert(0, Task::Orders { orders, next: 0 });
            }
        }
        Some(_) => {}
        None => {
            for n in &who {
                if let Some(x) = st.unit_mut(n) {
                    x.exploiting = true;
                }
            }
            let text = format!(
                "A{}: Old Guard Charge Exploitation: {} may move on with their remaining MPs and assault again, even Disordered. Send MOVE, FORM, FACE, ASSAULT or GUARD CHARGE orders for them, or NO EXPLOITATION.",
                a.id,
                join(&who)
            );
            let q = decide::question(&side, QKind::Exploit, text, who);
            decide::ask(st, q);
            return Step::Asked;
        }
    }
    Step::End
}
