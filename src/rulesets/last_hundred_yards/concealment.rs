//! §4.3 Concealment: losing it (entering an enemy hex; the non-vehicular and vehicular cases
//! a–d with their distances; the hindrance and MDRM/Assault exceptions), regaining it in the
//! Clean Up Phase, hidden units coming onto the map, dummies unmasked, and the answer to a
//! concealment query. It changes concealment only; the log lines it writes say no more than
//! the enemy may learn.

use crate::board::hex::Hex;
use crate::rulesets::kit::roster::Roster;

use super::sight;
use super::state::{LhyState, Query, Unit};

/// Is an enemy unit able to strip concealment? Real units only (dummies never), hidden ones
/// too (§4.3.1b says so even for cover), not disrupted or shocked (R10), and not marked with
/// an MDRM or Assault marker.
fn observer(s: &LhyState, e: &Unit, of: &str) -> bool {
    e.side != of
        && !e.dummy()
        && !e.disrupted()
        && !s
            .markers
            .iter()
            .any(|m| m.kind == super::state::FireKind::Mortar && m.hex == e.at)
        && !s.assaults.iter().any(|(h, _)| *h == e.at)
}

/// An observer sees the hex without a hindrance on the line (the §4.3.1 exception).
fn watched(s: &LhyState, e: &Unit, h: Hex, within: Option<u32>) -> bool {
    within.is_none_or(|n| e.at.distance(h) <= n)
        && sight::sees(s, e, h)
        && sight::hindrances(s, e.at, h) == 0
}

/// §4.3.1: `name` maneuvered into, or fired from, its hex. Loses concealment if the rules say:
/// every case of §4.3.1 names maneuvering and firing together, so which it was does not matter.
pub fn after_action(s: &mut LhyState, name: &str) {
    let Some(u) = s.unit(name).cloned() else {
        return;
    };
    if !u.concealed || !u.on_map() {
        return;
    }
    let h = u.at;
    let r = &s.data.rules;
    let cover = s.map.cover(&s.data, h);
    let lost = if !u.vehicle() {
        let reach = if !cover {
            r.conceal_open_foot.int() as u32
        } else if u.kind == super::data::Kind::Latw {
            r.conceal_cover_latw.int() as u32
        } else {
            r.conceal_cover_foot.int() as u32
        };
        s.on_map()
            .any(|e| observer(s, e, &u.side) && watched(s, e, h, Some(reach)))
    } else {
        let moving = u.motion != super::state::Motion::Stationary;
        let any_range = !cover || moving;
        let reach = if any_range {
            None
        } else {
            Some(r.conceal_vehicle_cover.int() as u32)
        };
        s.on_map()
            .any(|e| observer_vehicle(e, &u.side) && watched(s, e, h, reach))
            || adjacent_enemy(s, &u)
    };
    if lost {
        reveal(s, name);
    }
}

/// The vehicular cases name any enemy unit (no disruption condition).
fn observer_vehicle(e: &Unit, of: &str) -> bool {
    e.side != of && !e.dummy()
}

fn adjacent_enemy(s: &LhyState, u: &Unit) -> bool {
    s.on_map()
        .any(|e| e.side != u.side && !e.dummy() && e.at.distance(u.at) <= 1)
}

/// §4.3.1 vehicular a and d: an enemy unit maneuvered into `h`.
pub fn after_enemy_move(s: &mut LhyState, mover: &str) {
    let Some(m) = s.unit(mover).cloned() else {
        return;
    };
    if m.dummy() || !m.on_map() {
        return;
    }
    let reach = s.data.rules.conceal_vehicle_enemy_moves.int() as u32;
    let lose: Vec<String> = s
        .on_map()
        .filter(|v| v.side != m.side && v.vehicle() && v.concealed)
        .filter(|v| {
            let open = !s.map.cover(&s.data, v.at);
            (open && m.at.distance(v.at) <= reach && sight::sees_unit(s, &m, v))
                || m.at.distance(v.at) <= 1
        })
        .map(|v| v.name.clone())
        .collect();
    for n in lose {
        reveal(s, &n);
    }
}

/// The unit loses concealment (and hidden status): the enemy now sees it. A dummy is unmasked
/// and removed.
pub fn reveal(s: &mut LhyState, name: &str) {
    let Some(u) = s.unit(name).cloned() else {
        return;
    };
    if !u.concealed && !u.hidden {
        return;
    }
    let at = s.name_of(u.at);
    if u.dummy() {
        if let Some(x) = s.unit_mut(name) {
            x.place = super::state::Place::Eliminated;
        }
        s.public(format!(
            "{at}: the Concealment marker was a dummy and is removed."
        ));
        return;
    }
    let class = s
        .data
        .class(&u.class)
        .map_or(String::new(), |c| c.name.clone());
    if let Some(x) = s.unit_mut(name) {
        x.concealed = false;
        x.hidden = false;
        x.known = true;
    }
    s.public(format!("{at}: {name} ({class}) loses concealment."));
}

/// A hidden unit comes onto the enemy's map (§17.9, R20): still concealed if it was.
pub fn unhide(s: &mut LhyState, name: &str) {
    let Some(u) = s.unit(name).cloned() else {
        return;
    };
    if !u.hidden {
        return;
    }
    if let Some(x) = s.unit_mut(name) {
        x.hidden = false;
    }
    let at = s.name_of(u.at);
    if u.concealed {
        s.public(format!("{at}: a Concealment marker comes into view."));
    } else {
        reveal(s, name);
    }
}

/// Clean Up step 4: units out of LOS of every enemy counter their owner can see may conceal,
/// unless disrupted, regrouping or Heroic (R21: hidden enemy units do not count).
pub fn gain(s: &mut LhyState) {
    let names: Vec<String> = s
        .on_map()
        .filter(|u| !u.concealed && !u.dummy())
        .filter(|u| !u.heroic && u.status == super::state::Status::Good)
        .filter(|u| !sight::in_los_of_known_enemy(s, u))
        .map(|u| u.name.clone())
        .collect();
    for n in names {
        let Some(u) = s.unit(&n).cloned() else {
            continue;
        };
        if let Some(x) = s.unit_mut(&n) {
            x.concealed = true;
        }
        s.private(&u.side, format!("{n} is concealed again."));
        let at = s.name_of(u.at);
        s.to_enemies(&u.side, format!("{at}: a Concealment marker is placed."));
    }
}

/// §4.3 query (R9): the units under the Concealment marker of `hex` that are AFVs, FPs,
/// carriers or towed guns, and how many of each; nothing about the others.
pub fn answer(s: &LhyState, side: &str, hex: Hex) -> Query {
    let mut q = Query {
        side: side.to_string(),
        hex,
        afv: 0,
        fp: 0,
        carrier: 0,
        gun: 0,
    };
    for u in s
        .on_map()
        .filter(|u| u.side != side && u.at == hex && u.concealed && !u.hidden)
    {
        match u.kind {
            super::data::Kind::Afv => q.afv += 1,
            super::data::Kind::Fp => q.fp += 1,
            super::data::Kind::Halftrack | super::data::Kind::Truck => q.carrier += 1,
            super::data::Kind::Gun => q.gun += 1,
            _ => {}
        }
    }
    q
}

/// The answer in words, as both players read it.
pub fn answer_text(s: &LhyState, q: &Query) -> String {
    format!(
        "{}: {} AFV(s), {} FP(s), {} carrier(s), {} towed gun(s)",
        s.name_of(q.hex),
        q.afv,
        q.fp,
        q.carrier,
        q.gun
    )
}
