//! Campaigns for Lone Star (rulings R53–R58, README "Campaigns"): what a finished battle leaves
//! each side for the next scenario of a running war on Tidal — figures lost, walking wounded,
//! routed units shaken, prisoners held, ammunition, fresh levies. The seed has no campaign
//! rules, so each is a written stand-in. Pure: state and TOML in, TOML out; it plays nothing
//! and never changes a game under way.

use std::collections::BTreeMap;

use toml::{Table, Value};

use crate::engine::campaign::{self, CarryRefused};

use super::data::{Arm, SideCard};
use super::state::{Carried, Fig, State, Unit};
use super::wagons;

/// The `[carry]` terms Lone Star knows, with their defaults (README "Campaigns").
const TERMS: [&str; 4] = ["walking_wounded", "routed", "resupply", "levies"];

#[derive(Debug, Clone, Copy)]
struct Terms {
    /// R54: a share of the losses to hits comes back (default false).
    walking_wounded: bool,
    /// R55: `routed = "rallied"` (true) or `"shaken"` (false, the default).
    rallied: bool,
    /// R57: every battle starts with its cards' ammunition (default true).
    resupply: bool,
    /// R58: a side with nothing left fields fresh levies (default true).
    levies: bool,
}

fn read_terms(t: &Table) -> Result<Terms, CarryRefused> {
    campaign::known_terms(t, &TERMS)?;
    let flag = |k: &str, default: bool| match t.get(k) {
        None => Ok(default),
        Some(Value::Boolean(b)) => Ok(*b),
        Some(v) => Err(CarryRefused::TermValue(format!(
            "carry term `{k}` is true or false, not {v}"
        ))),
    };
    let rallied = match t.get("routed") {
        None => false,
        Some(Value::String(s)) if s == "shaken" => false,
        Some(Value::String(s)) if s == "rallied" => true,
        Some(v) => {
            return Err(CarryRefused::TermValue(format!(
                "carry term `routed` is \"shaken\" or \"rallied\", not {v}"
            )));
        }
    };
    Ok(Terms {
        walking_wounded: flag("walking_wounded", false)?,
        rallied,
        resupply: flag("resupply", true)?,
        levies: flag("levies", true)?,
    })
}

/// What the side cards bring from earlier battles (R53, R56), for the opening state.
pub fn read_sides(sides: &[SideCard]) -> BTreeMap<String, Carried> {
    sides
        .iter()
        .filter(|s| s.prisoners_held > 0 || !s.lost_units.is_empty())
        .map(|s| {
            (
                s.id.clone(),
                Carried {
                    prisoners_held: s.prisoners_held,
                    lost_units: s.lost_units.clone(),
                },
            )
        })
        .collect()
}

/// R53: a unit that cannot come back: all its figures lost, its windwagon or zeppelin
/// wrecked (gone, and not by flying off the table), or a panjandrum once launched (spent).
pub fn struck(u: &Unit) -> bool {
    let wrecked = wagons::is_carrier(u)
        && u.gone
            .as_deref()
            .is_some_and(|g| !g.starts_with("flown off the table"));
    let spent = u.arm == Arm::Panjandrum
        && (u.gone.is_some() || u.machine.as_ref().is_some_and(|m| m.run > 0));
    u.figures.is_empty() || wrecked || spent
}

/// A guard escort (R40) is not a unit of the order of battle: its guards rejoin their unit.
fn escort(u: &Unit) -> bool {
    u.escorting > 0
}

/// R53–R58: the next scenario as the finished battle `st` leaves the sides.
pub fn carry(st: &State, next: &str, terms: &Table) -> Result<String, CarryRefused> {
    let terms = read_terms(terms)?;
    let nums = st
        .data
        .campaign
        .as_ref()
        .ok_or(CarryRefused::NoCampaignNumbers(
            "this battle was set up from a ruleset.toml without [campaign] numbers (it began \
         before Lone Star had campaigns), so it cannot be carried into another",
        ))?;
    let mut t: Table = next
        .parse()
        .map_err(|e: toml::de::Error| CarryRefused::NextScenario(e.to_string()))?;
    let ours = same_sides(st, &t)?;
    let mut record = side_records(st, &ours);
    let seat_side: BTreeMap<String, String> = tables(&t, "seat")
        .iter()
        .filter_map(|s| Some((text(s, "id")?, text(s, "side")?)))
        .collect();
    let Some(Value::Array(cards)) = t.get_mut("unit") else {
        return Err(CarryRefused::NextScenario("no [[unit]]".into()));
    };
    let mut fate = carry_cards(st, cards, &seat_side, &mut record, terms);
    field_levies(
        next,
        cards,
        &seat_side,
        &ours,
        &mut fate,
        &mut record,
        terms,
    )?;
    if terms.walking_wounded {
        let one_in = nums.wounded_one_in.int().max(1) as u32;
        rejoin_wounded(st, cards, &ours, &fate, one_in);
    }
    let mut i = 0;
    cards.retain(|_| {
        i += 1;
        fate.keep[i - 1]
    });
    dismount_stranded(cards);
    write_records(&mut t, &record);
    campaign::to_text(&t)
}

/// The sides of the finished battle, which must be the next scenario's (sorted).
fn same_sides(st: &State, t: &Table) -> Result<Vec<String>, CarryRefused> {
    let mut ours: Vec<String> = st.sides.iter().map(|s| s.0.clone()).collect();
    let mut theirs = ids(t, "side");
    ours.sort();
    theirs.sort();
    if ours != theirs {
        return Err(CarryRefused::Ruling(format!(
            "the sides do not match: the finished battle has {}, the next scenario {}",
            ours.join(", "),
            theirs.join(", ")
        )));
    }
    Ok(ours)
}

/// What each side brings on: its earlier record, this battle's lost units and prisoners.
fn side_records(st: &State, ours: &[String]) -> BTreeMap<String, Carried> {
    let mut record: BTreeMap<String, Carried> = ours
        .iter()
        .map(|s| (s.clone(), st.carried.get(s).cloned().unwrap_or_default()))
        .collect();
    for u in st.units.iter().filter(|u| !escort(u)) {
        let r = record.entry(u.side.clone()).or_default();
        if struck(u) && !r.lost_units.contains(&u.name) {
            r.lost_units.push(u.name.clone());
        }
        r.prisoners_held += u.prisoners;
    }
    record
}

/// What became of each card of the next scenario, by its index.
struct Fate<'a> {
    /// Whether the card stays in the order of battle.
    keep: Vec<bool>,
    /// The finished unit it was carried from, if any.
    carried_from: Vec<Option<&'a Unit>>,
    /// Its troopers as the next scenario wrote them (the ceiling for R54).
    first_troopers: Vec<i64>,
}

/// Each card: struck, carried from the finished unit of its name and side, or fresh.
fn carry_cards<'a>(
    st: &'a State,
    cards: &mut [Value],
    seat_side: &BTreeMap<String, String>,
    record: &mut BTreeMap<String, Carried>,
    terms: Terms,
) -> Fate<'a> {
    let mut fate = Fate {
        keep: vec![true; cards.len()],
        carried_from: vec![None; cards.len()],
        first_troopers: vec![0i64; cards.len()],
    };
    for (i, card) in cards.iter_mut().enumerate() {
        let Some(card) = card.as_table_mut() else {
            continue;
        };
        let (Some(name), Some(side)) = (
            text(card, "name"),
            text(card, "seat").and_then(|s| seat_side.get(&s).cloned()),
        ) else {
            continue;
        };
        fate.first_troopers[i] = int(card, "troopers").unwrap_or(0);
        if record
            .get(&side)
            .is_some_and(|r| r.lost_units.contains(&name))
        {
            fate.keep[i] = false;
            continue;
        }
        let Some(u) = st
            .units
            .iter()
            .find(|u| u.name == name && u.side == side && !escort(u))
        else {
            continue;
        };
        carry_unit(card, u, terms);
        if figures(card) == 0 {
            fate.keep[i] = false;
            record.entry(side).or_default().lost_units.push(name);
            continue;
        }
        fate.carried_from[i] = Some(u);
    }
    fate
}

/// R58: a side with no card left fields its next scenario's cards as written.
fn field_levies(
    next: &str,
    cards: &mut [Value],
    seat_side: &BTreeMap<String, String>,
    ours: &[String],
    fate: &mut Fate,
    record: &mut BTreeMap<String, Carried>,
    terms: Terms,
) -> Result<(), CarryRefused> {
    let side_of = |c: &Value| text(c.as_table()?, "seat").and_then(|s| seat_side.get(&s).cloned());
    for side in ours {
        let mine: Vec<usize> = (0..cards.len())
            .filter(|i| side_of(&cards[*i]).as_ref() == Some(side))
            .collect();
        if mine.is_empty() || mine.iter().any(|i| fate.keep[*i]) {
            continue;
        }
        if !terms.levies {
            return Err(CarryRefused::Ruling(format!(
                "side {side} has no unit left to bring into the next battle (carry term \
                 levies = false, R58)"
            )));
        }
        let fresh: Table = next
            .parse()
            .map_err(|e: toml::de::Error| CarryRefused::NextScenario(e.to_string()))?;
        let originals = fresh.get("unit").and_then(Value::as_array);
        let r = record.entry(side.clone()).or_default();
        for i in mine {
            fate.keep[i] = true;
            fate.carried_from[i] = None;
            if let Some(o) = originals.and_then(|a| a.get(i)) {
                cards[i] = o.clone();
            }
            let name = cards[i].get("name").and_then(Value::as_str).unwrap_or("");
            r.lost_units.retain(|n| n != name);
        }
    }
    Ok(())
}

/// R54: the walking wounded of each side rejoin its surviving units as troopers, one a unit
/// in turn, none above its written troopers or its figures at the start.
fn rejoin_wounded(st: &State, cards: &mut [Value], ours: &[String], fate: &Fate, one_in: u32) {
    for side in ours {
        let mut pool = wounded(st, side) / one_in;
        while pool > 0 {
            let mut placed = false;
            for (i, card) in cards.iter_mut().enumerate() {
                let (Some(u), true) = (fate.carried_from[i], fate.keep[i]) else {
                    continue;
                };
                let Some(card) = card.as_table_mut() else {
                    continue;
                };
                let troopers = int(card, "troopers").unwrap_or(0);
                if pool == 0
                    || &u.side != side
                    || u.arm.is_machine()
                    || troopers >= fate.first_troopers[i]
                    || figures(card) >= u.start_figures as i64
                {
                    continue;
                }
                card.insert("troopers".into(), Value::Integer(troopers + 1));
                pool -= 1;
                placed = true;
            }
            if !placed {
                break;
            }
        }
    }
}

/// A passenger whose carrier is struck starts on foot at its own place (R53).
fn dismount_stranded(cards: &mut [Value]) {
    let names: Vec<String> = cards
        .iter()
        .filter_map(|c| c.get("name").and_then(Value::as_str).map(str::to_string))
        .collect();
    for c in cards.iter_mut().filter_map(Value::as_table_mut) {
        if text(c, "aboard").is_some_and(|a| !names.contains(&a)) {
            c.remove("aboard");
        }
    }
}

/// R53, R56: each side card carries its prisoners held and its units lost so far.
fn write_records(t: &mut Table, record: &BTreeMap<String, Carried>) {
    if let Some(Value::Array(sides)) = t.get_mut("side") {
        for s in sides.iter_mut().filter_map(Value::as_table_mut) {
            let r = text(s, "id")
                .and_then(|id| record.get(&id).cloned())
                .unwrap_or_default();
            s.remove("prisoners_held");
            s.remove("lost_units");
            if r.prisoners_held > 0 {
                s.insert(
                    "prisoners_held".into(),
                    Value::Integer(r.prisoners_held.into()),
                );
            }
            if !r.lost_units.is_empty() {
                let names = r.lost_units.into_iter().map(Value::String).collect();
                s.insert("lost_units".into(), Value::Array(names));
            }
        }
    }
}

/// R53, R55, R57 on one card: at most the figures the unit had left, type by type (its guards
/// back as troopers), shaken if it ended routing, and its ammunition if not resupplied.
fn carry_unit(card: &mut Table, u: &Unit, terms: Terms) {
    let n = |f: Fig| u.count(f) as i64;
    at_most(card, "troopers", n(Fig::Trooper) + i64::from(u.guards));
    at_most(card, "leaders", n(Fig::Leader));
    at_most(card, "grenadiers", n(Fig::Grenadier));
    if u.heavy().is_none() {
        card.remove("heavy");
    }
    for (key, fig) in [("red_cross", Fig::RedCross), ("colors", Fig::Colors)] {
        if n(fig) == 0 {
            card.remove(key);
        }
    }
    if u.routing && !terms.rallied {
        card.insert("shaken".into(), Value::Boolean(true));
    } else {
        card.remove("shaken");
    }
    if !terms.resupply {
        at_most(card, "smoke", u.smoke.into());
        at_most(card, "gas", u.gas.into());
        at_most(card, "flame_shots", u.flame_shots.into());
        if u.heavy() == Some(super::data::Heavy::Mortar) {
            // A card without rounds would take the stand-in count (R50): write what is left.
            let left = i64::from(u.mortar_rounds);
            let rounds = int(card, "mortar_rounds").map_or(left, |c| c.min(left));
            card.insert("mortar_rounds".into(), Value::Integer(rounds));
        }
        if let (Some(Value::Table(gun)), Some(g)) = (card.get_mut("gun"), &u.gun) {
            at_most(gun, "ammo", g.ammo.into());
        }
    }
}

/// Lowers an integer field to `have` (a field that is not an integer is left for the set-up
/// to refuse; an absent one is zero already).
fn at_most(card: &mut Table, key: &str, have: i64) {
    if let Some(v) = int(card, key)
        && v > have
    {
        card.insert(key.into(), Value::Integer(have.max(0)));
    }
}

/// R54: figures `side` lost to hits in the battle — its losses less the guards who left with
/// prisoners (not lost) and the prisoners the enemy holds (never back); machines not counted.
fn wounded(st: &State, side: &str) -> u32 {
    let lost: u32 = st
        .units
        .iter()
        .filter(|u| u.side == side && !escort(u) && !u.arm.is_machine())
        .map(|u| {
            u.start_figures
                .saturating_sub(u.figures.len() as u32 + u.guards)
        })
        .sum();
    let taken: u32 = st
        .units
        .iter()
        .filter(|u| u.side != side)
        .map(|u| u.prisoners)
        .sum();
    lost.saturating_sub(taken)
}

/// The figures a card fields (as the set-up counts them).
fn figures(card: &Table) -> i64 {
    let flag = |k: &str| card.get(k).and_then(Value::as_bool).unwrap_or(false) as i64;
    int(card, "troopers").unwrap_or(0)
        + int(card, "leaders").unwrap_or(0)
        + int(card, "grenadiers").unwrap_or(0)
        + card.contains_key("heavy") as i64
        + flag("red_cross")
        + flag("colors")
}

fn int(t: &Table, key: &str) -> Option<i64> {
    t.get(key).and_then(Value::as_integer)
}

fn text(t: &Table, key: &str) -> Option<String> {
    t.get(key).and_then(Value::as_str).map(str::to_string)
}

fn tables(t: &Table, key: &str) -> Vec<Table> {
    t.get(key)
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_table).cloned().collect())
        .unwrap_or_default()
}

fn ids(t: &Table, key: &str) -> Vec<String> {
    tables(t, key)
        .iter()
        .filter_map(|s| text(s, "id"))
        .collect()
}

/// The briefing's campaign lines for `side` (R53, R56), empty outside a campaign.
pub fn briefing(st: &State, side: &str) -> Vec<String> {
    let Some(r) = st.carried.get(side) else {
        return vec![];
    };
    let mut out = Vec::new();
    if r.prisoners_held > 0 {
        out.push(format!(
            "Campaign: your side holds {} prisoner(s) taken in earlier battles (they score \
             nothing here; R56).",
            r.prisoners_held
        ));
    }
    if !r.lost_units.is_empty() {
        out.push(format!(
            "Campaign: lost in earlier battles and not here: {} (R53).",
            r.lost_units.join(", ")
        ));
    }
    out
}
