//! Square (Carré) attempts of infantry threatened by cavalry (p.6 step 2, R19): who may try
//! when cavalry comes within 4 hexes with a clear line of sight, the standing order or the
//! question by mail, and the roll on the Square Realization Chart. It moves no unit.

use crate::board::hex::Hex;
use crate::rulesets::kit::roster::{Roster, TwoSides};

use super::combat::{self, join};
use super::data::Arm;
use super::decide::{self, Flow};
use super::field;
use super::roll::{self, Roller};
use super::state::{Answer, Cohesion, Formation, LbState, Policy, QKind, Unit};

/// The infantry stacks of the side opposed to `mover` that its move lets try to form square:
/// within the trigger distance (and in sight, when `need_sight`), not yet tried in this
/// triggering event. Each is named by its first infantry unit.
fn square_candidates(
    st: &LbState,
    mover: &Unit,
    need_sight: bool,
    tried: &[String],
) -> Vec<(Hex, String)> {
    let reach = st.data.rules.square_trigger.int().max(0) as u32;
    let mut out: Vec<(Hex, String)> = Vec::new();
    for u in &st.units {
        if u.side == mover.side || !field::can_form_square(u) || u.firefight {
            continue;
        }
        if u.hex.distance(mover.hex) > reach || out.iter().any(|(h, _)| *h == u.hex) {
            continue;
        }
        if tried.contains(&st.label(u.hex)) || (need_sight && !field::sight(st, u.hex, mover.hex)) {
            continue;
        }
        out.push((u.hex, u.name.clone()));
    }
    out
}

fn square_policy(st: &LbState, side: &str, hex: Hex) -> Policy {
    let s = st.standing(side);
    st.at(hex)
        .iter()
        .find_map(|u| {
            s.square_units
                .iter()
                .find(|(n, _)| *n == u.name)
                .map(|x| x.1)
        })
        .unwrap_or(s.square)
}

/// Square attempts triggered by the cavalry `mover` where it stands (p.6 step 2). `tried`
/// holds the stacks that made their attempt in this triggering event (hex labels) and gets the
/// new ones. Returns the hexes that formed square, or `Asked`.
pub fn square_triggers(
    st: &mut LbState,
    r: &mut dyn Roller,
    mover: &str,
    need_sight: bool,
    tried: &mut Vec<String>,
) -> Result<Vec<Hex>, Flow> {
    let Some(m) = st.unit(mover).cloned() else {
        return Ok(vec![]);
    };
    if !m.fighting() || m.arm != Arm::Cavalry {
        return Ok(vec![]);
    }
    let cands = square_candidates(st, &m, need_sight, tried);
    if cands.is_empty() {
        return Ok(vec![]);
    }
    let side = st.enemy_of(&m.side).unwrap_or_default().to_string();
    let answer = match decide::take(st) {
        Some(Answer::Square(v)) => Some(v),
        Some(Answer::Auto) => Some(vec![]),
        Some(other) => {
            st.answer = Some(other);
            None
        }
        None => None,
    };
    let mut attempt: Vec<Hex> = Vec::new();
    let mut ask: Vec<String> = Vec::new();
    for (h, name) in &cands {
        match decide::policy(square_policy(st, &side, *h)) {
            Some(true) => attempt.push(*h),
            Some(false) => {}
            None => match &answer {
                Some(list) => {
                    if st.at(*h).iter().any(|u| list.contains(&u.name)) {
                        attempt.push(*h);
                    }
                }
                None => ask.push(name.clone()),
            },
        }
    }
    if !ask.is_empty() {
        let text = format!(
            "{} ({}) is at {}, within {} hexes of {}. Form square? Answer SQUARE unit … or NO SQUARE.",
            m.name,
            st.side_name(&m.side),
            st.label(m.hex),
            st.data.rules.square_trigger.int(),
            ask.join(", ")
        );
        return Err(decide::ask(
            st,
            decide::question(&side, QKind::Square, text, ask),
        ));
    }
    let mut formed = Vec::new();
    for (h, _) in &cands {
        tried.push(st.label(*h));
        if attempt.contains(h) && square_attempt(st, r, *h, m.hex) {
            formed.push(*h);
        }
    }
    Ok(formed)
}

/// One roll on the Square (Carré) Realization Chart for the infantry in `h`, cavalry at
/// `cavalry` (R19): Square from good order, Rallying Square from disorder or skirmish order.
pub fn square_attempt(st: &mut LbState, r: &mut dyn Roller, h: Hex, cavalry: Hex) -> bool {
    let units: Vec<Unit> = st
        .at(h)
        .into_iter()
        .filter(|u| field::can_form_square(u))
        .cloned()
        .collect();
    if units.is_empty() {
        return false;
    }
    let c = st.data.square.clone();
    let mut mods: Vec<(i32, String)> = Vec::new();
    let mut add = |v: i32, why: &str| {
        if v != 0 {
            mods.push((v, why.to_string()));
        }
    };
    match units[0].formation {
        Formation::Line => add(c.from_line.int(), "from line"),
        Formation::Column => add(c.from_column.int(), "from column"),
        Formation::Skirmish => add(c.from_skirmish.int(), "from skirmish order"),
        _ => {}
    }
    let rallying = units
        .iter()
        .any(|u| u.cohesion == Cohesion::Disordered || u.formation == Formation::Skirmish);
    if units.iter().any(|u| u.cohesion == Cohesion::Disordered) {
        add(c.disordered.int(), "disordered");
    }
    if units
        .iter()
        .all(|u| st.data.huzzah_nations.contains(&u.nation))
    {
        add(c.huzzah_nation.int(), "British drill");
    }
    if units
        .iter()
        .any(|u| st.data.class(&u.class).is_some_and(|k| k.old_guard))
    {
        add(c.old_guard.int(), "Old Guard");
    }
    let refs: Vec<&Unit> = units.iter().collect();
    if let Some((v, why)) = combat::leader_morale(st, &refs, c.leader.int()) {
        add(v, &why);
    }
    match h.distance(cavalry) {
        0 | 1 => add(c.cavalry_adjacent.int(), "cavalry adjacent"),
        2 => add(c.cavalry_2.int(), "cavalry 2 hexes away"),
        _ => add(c.cavalry_far.int(), "cavalry 3 or more hexes away"),
    }
    let rating = combat::stack_morale(&refs);
    let names: Vec<String> = units.iter().map(|u| u.name.clone()).collect();
    let label = format!("Square attempt of {} in {}", join(&names), st.label(h));
    let n = st.data.rules.morale_dice.int().max(1) as u32;
    let chk = roll::check(
        r,
        label.clone(),
        n,
        rating + c.formed_margin.int(),
        roll::sum(&mods),
    );
    let formed = chk.pass;
    let shaken = chk.total > rating + c.failed_margin.int();
    let what = if rallying {
        Formation::RallyingSquare
    } else {
        Formation::Square
    };
    st.say(format!(
        "{label} ({}): {} — {}.",
        roll::show_modifiers(&mods),
        chk.show(),
        if formed {
            format!("{} formed", what.word())
        } else if shaken {
            "no square, and Disordered".to_string()
        } else {
            "no square".to_string()
        }
    ));
    for n in &names {
        if let Some(u) = st.unit_mut(n) {
            if formed {
                u.formation = what;
            } else if shaken && u.cohesion == Cohesion::GoodOrder {
                u.cohesion = Cohesion::Disordered;
            }
        }
    }
    formed
}
