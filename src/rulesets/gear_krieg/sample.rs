//! Scripted players: a legal order email for any seat in any step, chosen deterministically
//! from `choice`. Candidates are run through `orders::parse` and rejected lines are dropped,
//! so the result always parses. It never changes the state.

use crate::board::tabletop::{Pt, bearing, dist};
use crate::rulesets::kit::pick::Pick;
use crate::rulesets::kit::roster::Roster;

use super::activation;
use super::orders;
use super::state::{GkState, Phase, Unit};
use super::stats;
use crate::rulesets::kit::grammar::num;

fn ok(state: &GkState, seat: &str, text: &str) -> bool {
    orders::parse(state, seat, text).is_ok()
}

/// Adds each candidate line only if the email still parses with it.
fn build(state: &GkState, seat: &str, base: &str, lines: &[String]) -> String {
    let mut text = base.to_string();
    for l in lines {
        let t = format!("{text}{l}\n");
        if ok(state, seat, &t) {
            text = t;
        }
    }
    text
}

fn nearest_enemy<'a>(state: &'a GkState, u: &Unit) -> Option<&'a Unit> {
    state
        .units
        .iter()
        .filter(|e| e.side != u.side && e.alive())
        .min_by(|a, b| dist(a.pos, u.pos).total_cmp(&dist(b.pos, u.pos)))
}

fn activation_text(state: &GkState, seat: &str, pick: &mut Pick) -> String {
    let units = state.unactivated(seat);
    if units.is_empty() {
        return "PASS\n".into();
    }
    let u = units[(pick.draw() % units.len() as u64) as usize];
    let head = format!("ACTIVATE {}\n", u.name);
    let mut acts: Vec<String> = Vec::new();
    if let Some(e) = nearest_enemy(state, u)
        && u.pinned == 0
        && !pick.one_in(4)
    {
        let b = bearing(u.pos, e.pos);
        let d = dist(u.pos, e.pos) - 2.0;
        let mp = stats::mp(&state.data, u, u.mode, u.top);
        for frac in [1.0, 0.75, 0.5, 0.25] {
            let step = (mp * frac).min(d.max(0.0));
            if step < 0.3 {
                continue;
            }
            let to = u.pos.offset(b, step);
            let to = Pt::new((to.x * 10.0).round() / 10.0, (to.y * 10.0).round() / 10.0);
            let line = format!("TO {},{}", num(to.x), num(to.y));
            if ok(state, seat, &format!("{head}{line}\n")) {
                acts.push(line);
                break;
            }
        }
        if u.top && acts.is_empty() {
            acts.push("HOLD".into());
        }
    }
    if let Some(e) = nearest_enemy(state, u) {
        for w in stats::weapons(&state.data, u) {
            let rof = (pick.draw() % (u64::from(stats::rof(&state.data, u, w)) + 1)) as u32;
            acts.push(format!("FIRE {} AT {} ROF {rof}", w.key, e.name));
            acts.push(format!("FIRE {} AT {}", w.key, e.name));
        }
        for m in ["PUNCH", "KICK", "ASSAULT"] {
            acts.push(format!("{m} {}", e.name));
        }
    }
    if u.pinned > 0 {
        acts.push("RALLY".into());
    }
    let text = build(state, seat, &head, &acts);
    if text == head {
        format!("{head}HOLD\n")
    } else {
        text
    }
}

pub fn sample_orders(state: &GkState, seat: &str, choice: u64) -> String {
    let mut pick = Pick(choice ^ 0x6765_6172);
    let text = match &state.phase {
        Phase::Declare => {
            let mut lines = Vec::new();
            for u in state.alive(seat) {
                if state.round == 1 {
                    let s = ["STATIONARY", "COMBAT", "COMBAT", "TOP"][(pick.draw() % 4) as usize];
                    lines.push(format!("SPEED {} {s}", u.name));
                }
                if pick.one_in(5) {
                    lines.push(format!("EXTRA {}", u.name));
                } else if pick.one_in(9) {
                    lines.push(format!("DEFEND {}", u.name));
                }
                if pick.one_in(6) {
                    lines.push(format!("OVERWATCH {} AT ANY ACTIONS 1", u.name));
                }
            }
            let t = build(state, seat, "", &lines);
            if t.is_empty() { "PASS\n".into() } else { t }
        }
        Phase::Activate { side } if side == seat => activation_text(state, seat, &mut pick),
        Phase::Interrupt { side, mover } if side == seat => {
            let mut lines = Vec::new();
            if let Some(m) = state.unit(mover) {
                for u in state.alive(seat) {
                    if let Some(w) = activation::usable_weapon(state, u, m, None, 0)
                        && !pick.one_in(3)
                    {
                        lines.push(format!("INTERRUPT {} FIRE {w}", u.name));
                    }
                }
            }
            let t = build(state, seat, "", &lines);
            if t.is_empty() {
                "NO INTERRUPT\n".into()
            } else {
                t
            }
        }
        _ => "PASS\n".into(),
    };
    if ok(state, seat, &text) {
        text
    } else {
        "PASS\n".into()
    }
}
