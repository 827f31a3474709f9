//! Windwagon passengers and the windwagon's place in combat (seed L12, L17–L18; rulings
//! R35–R39): boarding and leaving a halted wagon, where a wagon may halt near the enemy, the
//! cover a wagon gives inside and outside, and artillery against a wagon (only the passengers
//! unless the shell lands on the wagon's body, then the 1D6 table). Zeppelins carry troops the
//! same way (R44). It parses nothing; the rolls go through the dice handle.

use crate::board::tabletop::{Pt, dist, normalize};
use crate::dice::{Dice, Faces};
use crate::rulesets::kit::grammar::tenths;

use super::data::Arm;
use super::movement::{allowance, walk};
use super::state::{Form, State, Unit};

fn at(p: Pt) -> String {
    format!("{},{}", tenths(p.x), tenths(p.y))
}

/// May small arms or a gun's choice of target pick `t`? Not a machine, nor troops up in a
/// zeppelin (R45); troops in a windwagon may be shot at, with cover (R38).
pub fn targetable(state: &State, t: &Unit) -> bool {
    t.fights()
        && t.aboard
            .as_deref()
            .and_then(|c| state.unit(c))
            .is_none_or(|c| c.arm == Arm::Windwagon)
}

/// A machine that carries a unit (R35, R44).
pub fn is_carrier(u: &Unit) -> bool {
    matches!(u.arm, Arm::Windwagon | Arm::Zeppelin)
}

/// The unit riding in `carrier`, if any (one unit a carrier, R35).
pub fn passenger<'a>(state: &'a State, carrier: &str) -> Option<&'a Unit> {
    state
        .units
        .iter()
        .find(|u| u.alive() && u.aboard.as_deref() == Some(carrier))
}

/// May a carrier take on or set down troops now? A windwagon halted (R36); a zeppelin hovering
/// (troops rappel) or landed (R44).
pub fn open_for_troops(u: &Unit) -> bool {
    u.alive() && is_carrier(u) && (u.halted || u.machine.as_ref().is_some_and(|m| m.landed))
}

/// Why `u` may not board `carrier` now, if it may not (R35). The parser and the movement
/// step ask the same question, so an order accepted in the morning still means the same.
pub fn embark_refusal(state: &State, u: &Unit, carrier: &Unit) -> Option<String> {
    boarding_refusal(state, u, carrier, false)
}

/// As `embark_refusal`, but with the carrier's state left to the whole mail when `own`: a
/// STOP of the same mail halts the seat's own wagon, a DESCEND lands its own zeppelin, before
/// its troops move (carriers move first), so the parser asks this and then reads the whole
/// mail for those lines (`orders::ride::unready_carriers`).
pub fn boarding_refusal(state: &State, u: &Unit, carrier: &Unit, own: bool) -> Option<String> {
    if !is_carrier(carrier) {
        return Some(format!("{} is not a windwagon or zeppelin", carrier.name));
    }
    if carrier.side != u.side {
        return Some(format!("{} is the enemy's", carrier.name));
    }
    if !u.on_foot() || u.aboard.is_some() || !u.melee.is_empty() {
        return Some(format!(
            "{} may not board: only a unit on foot, out of melee and not already aboard (R35)",
            u.name
        ));
    }
    if let Some(p) = passenger(state, &carrier.name) {
        return Some(format!("{} already carries {} (R35)", carrier.name, p.name));
    }
    let landed = carrier.machine.as_ref().is_some_and(|m| m.landed);
    if carrier.arm == Arm::Zeppelin && !landed && !own {
        return Some(format!(
            "{} must be landed to take troops on (R44)",
            carrier.name
        ));
    }
    if carrier.arm == Arm::Windwagon && !carrier.halted && !own {
        return Some(format!("{} is not halted (R36)", carrier.name));
    }
    let reach = allowance(state, u, false) / 2.0;
    let gap = state.gap(u, carrier);
    if gap > reach + 1e-9 {
        return Some(format!(
            "{} is {}\" away; a unit boards within half its move, {}\" (R35)",
            carrier.name,
            tenths(gap),
            tenths(reach)
        ));
    }
    None
}

/// R35: boarding costs the unit's whole move; it then stands where its carrier stands.
pub fn embark(state: &mut State, name: &str, carrier: &str) {
    let u = state.unit(name).expect("unit").clone();
    let Some(c) = state.unit(carrier).cloned() else {
        return;
    };
    if let Some(why) = embark_refusal(state, &u, &c) {
        state.say(format!("{name} does not board: {why}."));
        return;
    }
    let m = state.unit_mut(name);
    m.aboard = Some(carrier.to_string());
    m.pos = c.pos;
    m.facing = c.facing;
    m.form = Form::Column;
    state.say(format!("{name} boards {carrier} at {}.", at(c.pos)));
}

/// R36: leaving a halted carrier. If the carrier stood still this turn the unit takes half a
/// move to get out and may walk the other half toward `to`; if it moved its third and halted
/// this turn, the unit gets out and goes no further.
pub fn disembark(state: &mut State, name: &str, to: Option<Pt>) {
    let u = state.unit(name).expect("unit").clone();
    let Some(cname) = u.aboard.clone() else {
        return;
    };
    let c = state.unit(&cname).expect("carrier").clone();
    if !open_for_troops(&c) {
        state.say(format!(
            "{name} cannot get out: {cname} is not halted (R36)."
        ));
        return;
    }
    // Out over the tail of the carrier, facing its way, its column clear of the carrier's.
    let rows = |n: usize| {
        let n = n.max(1);
        n.div_ceil(if n <= 4 { 1 } else { 2 }) as f64
    };
    let size = state.data.rules.stand_size.get();
    let back = (rows(c.figures.len()) + rows(u.figures.len())) / 2.0 * size + size / 2.0;
    let spot = c.pos.offset(normalize(c.facing + 180.0), back);
    let spot = Pt::new(
        spot.x.clamp(0.0, state.width),
        spot.y.clamp(0.0, state.height),
    );
    {
        let m = state.unit_mut(name);
        m.aboard = None;
        m.pos = spot;
        m.facing = c.facing;
        m.form = Form::Column;
    }
    let moved_now = c.moved_turn == state.turn;
    let half = allowance(state, &state.unit(name).expect("unit").clone(), false) / 2.0;
    let path: Vec<Pt> = match to {
        Some(p) if !moved_now => vec![p],
        _ => vec![],
    };
    let w = walk(state, name, &path, half, false, None, None);
    let p = state.unit(name).expect("unit").pos;
    state.say(format!(
        "{name} gets out of {cname}{}, now at {}.",
        if moved_now {
            " after its halting third (no move after, R36)".to_string()
        } else if path.is_empty() {
            String::new()
        } else {
            format!(" and moves {}\"", tenths(w.moved))
        },
        at(p)
    ));
}

/// Passengers ride where their carrier goes.
pub fn follow(state: &mut State, carrier: &str) {
    let Some(c) = state.unit(carrier).cloned() else {
        return;
    };
    for u in state.units.iter_mut() {
        if u.aboard.as_deref() == Some(carrier) {
            u.pos = c.pos;
            u.facing = c.facing;
        }
    }
}

/// R37: the nearest known enemy is too close for this wagon to halt (12", ramp-types 6").
pub fn too_close_to_halt(state: &State, w: &Unit) -> Option<(String, f64)> {
    let r = &state.data.rules;
    let limit = if w.ramp {
        r.wagon_stop_ramp.get()
    } else {
        r.wagon_stop_standard.get()
    };
    state
        .enemies_of(w)
        .filter(|e| !e.hidden && e.on_ground())
        .map(|e| (e.name.clone(), state.gap(w, e)))
        .filter(|(_, g)| *g < limit)
        .min_by(|a, b| a.1.total_cmp(&b.1))
}

/// A wagon ends a STOP: it halts unless a known enemy is nearer than R37 allows.
pub fn end_stop(state: &mut State, name: &str) {
    let w = state.unit(name).expect("unit").clone();
    match too_close_to_halt(state, &w) {
        Some((e, gap)) => {
            state.unit_mut(name).halted = false;
            state.say(format!(
                "{name} may not halt {}\" from {e} ({} wagons keep {}\" off, R37): it does not halt.",
                tenths(gap),
                if w.ramp { "ramp-style" } else { "standard" },
                if w.ramp {
                    tenths(state.data.rules.wagon_stop_ramp.get())
                } else {
                    tenths(state.data.rules.wagon_stop_standard.get())
                }
            ));
        }
        None => state.unit_mut(name).halted = true,
    }
}

/// L17: the adjusted hit position lies on the wagon's body (within half a stand of a stand).
pub fn body_hit(state: &State, w: &Unit, p: Pt) -> bool {
    let half = state.data.rules.stand_size.get() / 2.0;
    state.stands(w).iter().any(|s| dist(*s, p) <= half + 1e-9)
}

/// R39: a direct hit on a wagon's body, the 1D6 table (row 1 lost: the stand-in). The casualty
/// falls on the passengers (the crew if none ride); a destroyed wagon sets them down.
pub fn direct_hit(state: &mut State, gun: &str, wagon: &str, dice: &mut Dice) {
    let r = state.data.rules.clone();
    let turn = state.turn;
    let row = dice.roll_one(
        format!("turn {turn} {gun} direct hit on {wagon} (1d6 table)"),
        Faces::d(6),
    );
    let (casualty_on, again) = match row {
        1 => (r.wagon_hit_1_casualty_on.get() as u32, true),
        2 | 3 => (r.wagon_hit_23_casualty_on.get() as u32, true),
        4 | 5 => (r.wagon_hit_45_casualty_on.get() as u32, true),
        _ => (6, false),
    };
    let casualty = if again && casualty_on > 0 {
        let roll = dice.roll_one(
            format!("turn {turn} {gun} direct hit on {wagon}: roll again (d6)"),
            Faces::d(6),
        );
        roll <= casualty_on
    } else {
        !again
    };
    let destroyed = row >= r.wagon_hit_destroyed_from.get() as u32;
    let victim = passenger(state, wagon)
        .map(|p| p.name.clone())
        .unwrap_or_else(|| wagon.to_string());
    state.say(format!(
        "{gun} scores a direct hit on {wagon}'s body: table {row}: {}{}.",
        if casualty {
            format!("one casualty to {victim}")
        } else {
            "no casualty".into()
        },
        if destroyed {
            "; the windwagon is destroyed"
        } else {
            ""
        }
    ));
    if casualty {
        super::combat::lose_without_hits(state, &victim, 1, dice);
    }
    if destroyed {
        wreck(state, wagon, "destroyed by a direct hit");
    }
}

/// A carrier is lost: its crew is gone and its passengers are set down where it stood.
pub fn wreck(state: &mut State, carrier: &str, why: &str) {
    let c = state.unit(carrier).expect("carrier").clone();
    state.unit_mut(carrier).gone = Some(why.to_string());
    let riders: Vec<String> = state
        .units
        .iter()
        .filter(|u| u.alive() && u.aboard.as_deref() == Some(carrier))
        .map(|u| u.name.clone())
        .collect();
    for n in riders {
        let m = state.unit_mut(&n);
        m.aboard = None;
        m.pos = c.pos;
        m.form = Form::Column;
        state.say(format!(
            "{n} is set down from the wreck of {carrier} at {}.",
            at(c.pos)
        ));
        walk(state, &n, &[], 0.0, false, None, None);
    }
}
