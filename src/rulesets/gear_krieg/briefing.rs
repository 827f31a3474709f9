//! What a Gear Krieg player plays for and with, for the welcome and HELP mails: the scenario's
//! victory conditions and each of the seat's units' datacard values (armor, perks and flaws,
//! weapons with accuracy, base range, damage, ROF and ammunition, movement points). Pure; from
//! the state only.

use crate::rulesets::kit::grammar::num;

use super::data::MoveMode;
use super::data::WeaponData;
use super::state::{GkState, UnitKind};
use super::stats;

/// (heading, lines) sections.
pub fn briefing(state: &GkState, seat: &str) -> Vec<(String, Vec<String>)> {
    let mut win = vec![state.description.clone()];
    win.push(format!(
        "The battle lasts {} rounds. A side with no unit left loses at once (R28).",
        state.max_rounds
    ));
    win.push(format!(
        "At the round limit the side with more victory points wins{}: each destroyed enemy \
         unit scores its Threat Value, an enemy vehicle with Heavy Damage half of it (R29).",
        if state.winning_margin > 0 {
            format!(" by at least {} VP", state.winning_margin)
        } else {
            String::new()
        }
    ));
    for o in &state.objectives {
        win.push(format!(
            "Objective: {} at {},{} — {} VP to the side that alone has a unit within {} cm at the end.",
            o.name,
            num(o.x),
            num(o.y),
            o.points,
            num(o.radius)
        ));
    }
    let mut out = vec![("What you play for".to_string(), win)];
    out.extend(unit_numbers(state, seat));
    out
}

/// Each of the seat's units' datacard values as they stand (ammunition left included): the
/// numbers its orders are written with, for the welcome, HELP and `UNITS` (issue 30 point 6).
pub fn unit_numbers(state: &GkState, seat: &str) -> Vec<(String, Vec<String>)> {
    let mut cards = Vec::new();
    for u in state.units.iter().filter(|u| u.side == seat) {
        // A destroyed unit is ordered no more: its card would only crowd the list.
        if !u.alive() {
            cards.push(format!("{}: destroyed", u.name));
            continue;
        }
        match u.kind {
            UnitKind::Vehicle => {
                let Some(v) = stats::vehicle(&state.data, u) else {
                    continue;
                };
                cards.push(format!(
                    "{} ({}): Armor {}, MP walker {}/{} (combat/top), ground {}/{}, Threat Value {}",
                    u.name,
                    v.name,
                    v.armor.int(),
                    v.walker_combat.int(),
                    v.walker_top.int(),
                    v.ground_combat.int(),
                    v.ground_top.int(),
                    v.threat_value.int()
                ));
                // R14: the card's perks and flaws are shown, also those without effect here.
                if !v.perks.is_empty() {
                    cards.push(format!("  Perks and flaws: {}", v.perks.join(", ")));
                }
                cards.extend(v.weapons.iter().map(|w| weapon_line(w, u)));
            }
            UnitKind::Infantry => {
                let Some(i) = stats::infantry(&state.data, u) else {
                    continue;
                };
                cards.push(format!(
                    "{} ({}): {} troopers, MP {}, Skill {}, Threat Value {}",
                    u.name,
                    i.name,
                    u.troopers.len(),
                    stats::mp(&state.data, u, MoveMode::Walker, false),
                    i.skill.int(),
                    i.threat_value.int()
                ));
                cards.extend(i.weapons.iter().map(|w| weapon_line(w, u)));
            }
        }
    }
    vec![("Your datacards".to_string(), cards)]
}

fn weapon_line(w: &WeaponData, u: &super::state::Unit) -> String {
    let ammo = u
        .ammo
        .iter()
        .find(|(k, _)| *k == w.key)
        .map(|(_, n)| format!(", ammunition {n}"))
        .unwrap_or_default();
    format!(
        "  {} (order word {}): accuracy {}, base range {} cm, damage x{}, ROF {}{ammo}",
        w.name,
        w.key,
        w.accuracy.int(),
        num(w.base_range.get()),
        w.dm.int(),
        w.rof.int()
    )
}
