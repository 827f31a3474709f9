//! Campaigns for La Bataille (rulings R39–R43): what a finished battle leaves each side for the
//! next day's scenario. Eliminated units are gone and increments lost stay lost, but for a
//! share of stragglers that come back overnight; fatigue carries, less a night's rest; routed
//! units rally overnight or not (`rally_routed`); lost leaders are gone. The numbers are the
//! stand-ins of `[campaign]` in ruleset.toml, read from the finished game's own data. Pure and
//! deterministic: state and TOML in, TOML out; no dice (the carry is re-run to check ledgers).

use toml::{Table, Value};

use crate::engine::campaign::{self, CarryRefused, Lost};
use crate::rulesets::kit::roster::TwoSides;

use super::state::{Fatigue, LbState, Unit};

/// The `[carry]` terms this ruleset knows (README, "Campaigns").
pub const TERMS: &[&str] = &["rally_routed", "stragglers_return"];

/// The organiser's choices, with their defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Terms {
    /// R42: routed units rally overnight (true) or start the next battle routed.
    pub rally_routed: bool,
    /// R40: a share of a day's lost increments comes back as stragglers.
    pub stragglers_return: bool,
}

impl Terms {
    /// Reads `[carry]`; an unknown term or one that is not true/false is refused by name.
    pub fn read(terms: &Table) -> Result<Terms, CarryRefused> {
        campaign::known_terms(terms, TERMS)?;
        let flag = |k: &str| match terms.get(k) {
            None => Ok(true),
            Some(Value::Boolean(b)) => Ok(*b),
            Some(v) => Err(CarryRefused::TermValue(format!(
                "carry term `{k}` must be true or false, not `{v}`"
            ))),
        };
        Ok(Terms {
            rally_routed: flag("rally_routed")?,
            stragglers_return: flag("stragglers_return")?,
        })
    }
}

/// How one surviving unit leaves the finished battle for the next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Survivor {
    pub side: String,
    pub name: String,
    /// Increments short of its full strength after the night (R39, R40).
    pub short: u32,
    /// Stragglers back overnight (R40).
    pub back: u32,
    pub fatigue: Fatigue,
    /// Still routed (R42).
    pub routed: bool,
}

/// R39–R42 for one unit that is still on the field.
pub fn survivor(u: &Unit, terms: Terms, stragglers_per: u32, night_rest: u32) -> Survivor {
    // R40: counted on this battle's losses only, so a unit does not get the same stragglers
    // back twice in a chain of battles.
    let lost_today = u.began().saturating_sub(u.increments);
    let back = if terms.stragglers_return {
        lost_today / stragglers_per.max(1)
    } else {
        0
    };
    let now = (u.increments + back).min(u.full);
    Survivor {
        side: u.side.clone(),
        name: u.name.clone(),
        short: u.full - now,
        back: now - u.increments,
        fatigue: u.fatigue.rested(night_rest),
        routed: u.routed() && !terms.rally_routed,
    }
}

/// R39–R43: the next scenario as the finished battle `st` leaves the sides.
pub fn carry(st: &LbState, next: &str, terms: &Table) -> Result<String, CarryRefused> {
    let terms = Terms::read(terms)?;
    let numbers = st
        .data
        .campaign
        .as_ref()
        .ok_or(CarryRefused::NoCampaignNumbers(
            "this game's ruleset.toml has no [campaign] numbers (it was set up before campaigns): \
         it cannot be carried into another battle",
        ))?;
    let per = numbers.stragglers_per.int().max(1) as u32;
    let rest = numbers.night_rest.int().max(0) as u32;
    let sides: Vec<String> = st.sides.iter().map(|s| s.id.clone()).collect();
    let survivors: Vec<Survivor> = st
        .units
        .iter()
        .filter(|u| u.alive())
        .map(|u| survivor(u, terms, per, rest))
        .collect();
    // R39: eliminated (surrendered, or routed off the map) is gone; so is a survivor the next
    // scenario fields with no more increments than it is short.
    let parsed: Table = next
        .parse()
        .map_err(|e: toml::de::Error| CarryRefused::NextScenario(e.to_string()))?;
    let mut lost: Vec<Lost> = st
        .units
        .iter()
        .filter(|u| !u.alive())
        .map(|u| Lost {
            side: u.side.clone(),
            name: u.name.clone(),
        })
        .collect();
    for s in &survivors {
        if let Some(u) = scenario_unit(&parsed, &s.side, &s.name)
            && strength(u).0 <= s.short
        {
            lost.push(Lost {
                side: s.side.clone(),
                name: s.name.clone(),
            });
        }
    }
    let note = note(&sides, &lost, &survivors, &parsed);
    // Lost in earlier battles stays lost, though this battle did not field it (the chain).
    let mut struck = lost.clone();
    for side in &st.sides {
        struck.extend(side.gone.iter().map(|n| Lost {
            side: side.id.clone(),
            name: n.clone(),
        }));
    }
    let mut t = campaign::strike_lost(next, "units", &sides, &struck, &note)?;
    let Some(Value::Array(all)) = t.get_mut("sides") else {
        return Err(CarryRefused::NextScenario("no [[sides]]".into()));
    };
    for side in all.iter_mut().filter_map(Value::as_table_mut) {
        let id = side
            .get("id")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        if let Some(Value::Array(units)) = side.get_mut("units") {
            for u in units.iter_mut().filter_map(Value::as_table_mut) {
                let name = u.get("name").and_then(Value::as_str).unwrap_or_default();
                if let Some(s) = survivors.iter().find(|s| s.side == id && s.name == name) {
                    worn(u, s);
                }
            }
        }
        leaders(st, &id, side);
        let mut gone: Vec<String> = struck
            .iter()
            .filter(|l| l.side == id)
            .map(|l| l.name.clone())
            .chain(
                st.leaders
                    .iter()
                    .filter(|l| l.side == id && l.gone)
                    .map(|l| l.name.clone()),
            )
            .collect();
        gone.sort();
        gone.dedup();
        if !gone.is_empty() {
            side.insert(
                "gone".into(),
                Value::Array(gone.into_iter().map(Value::String).collect()),
            );
        }
    }
    campaign::to_text(&t)
}

/// A scenario unit's full strength and its increments (`full` absent: at full).
fn strength(u: &Table) -> (u32, u32) {
    let int = |k: &str| {
        u.get(k)
            .and_then(Value::as_integer)
            .map(|i| i.clamp(0, u32::MAX as i64) as u32)
    };
    let inc = int("increments").unwrap_or(0);
    (int("full").unwrap_or(inc).max(inc), inc)
}

fn scenario_unit<'a>(t: &'a Table, side: &str, name: &str) -> Option<&'a Table> {
    t.get("sides")?
        .as_array()?
        .iter()
        .filter(|s| s.get("id").and_then(Value::as_str) == Some(side))
        .filter_map(|s| s.get("units").and_then(Value::as_array))
        .flatten()
        .filter_map(Value::as_table)
        .find(|u| u.get("name").and_then(Value::as_str) == Some(name))
}

/// R39, R41, R42 on the next scenario's entry of a survivor: its full strength less what it
/// is short, its fatigue after the night, still routed or not. Place, facing, formation and
/// ammunition are the next scenario's (the guns' caissons refill overnight).
fn worn(u: &mut Table, s: &Survivor) {
    let (full, _) = strength(u);
    let now = full.saturating_sub(s.short);
    u.insert("increments".into(), Value::Integer(now.into()));
    if now < full {
        u.insert("full".into(), Value::Integer(full.into()));
    }
    if s.fatigue != Fatigue::Fresh {
        u.insert("fatigue".into(), Value::String(s.fatigue.word().into()));
    }
    if s.routed {
        u.insert("routed".into(), Value::Boolean(true));
    }
}

/// R43: a leader killed or captured (in this battle or an earlier one) is gone; one whose unit
/// is gone rides with the first unit of his side the next scenario still fields.
fn leaders(st: &LbState, side_id: &str, side: &mut Table) {
    let units: Vec<String> = side
        .get("units")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|u| u.get("name").and_then(Value::as_str).map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    let Some(Value::Array(list)) = side.get_mut("leaders") else {
        return;
    };
    let earlier = st.side(side_id).map(|s| s.gone.clone()).unwrap_or_default();
    list.retain(|l| {
        let name = l.get("name").and_then(Value::as_str).unwrap_or_default();
        !earlier.iter().any(|g| g == name)
            && !st
                .leaders
                .iter()
                .any(|x| x.side == side_id && x.name == name && x.gone)
    });
    for l in list.iter_mut().filter_map(Value::as_table_mut) {
        let with = l.get("with").and_then(Value::as_str).unwrap_or_default();
        if !units.iter().any(|u| u == with)
            && let Some(first) = units.first()
        {
            l.insert("with".into(), Value::String(first.clone()));
        }
    }
}

/// The paragraph added to the briefing: units lost, then each survivor of the next battle that
/// comes in worn.
fn note(sides: &[String], lost: &[Lost], survivors: &[Survivor], next: &Table) -> String {
    let mut out = campaign::losses_note("units", sides, lost);
    let worn: Vec<String> = survivors
        .iter()
        .filter(|s| !lost.iter().any(|l| l.side == s.side && l.name == s.name))
        .filter(|s| scenario_unit(next, &s.side, &s.name).is_some())
        .filter_map(|s| {
            let mut w = Vec::new();
            if s.short > 0 {
                w.push(format!("{} increment(s) short", s.short));
            }
            if s.back > 0 {
                w.push(format!("{} straggler increment(s) back", s.back));
            }
            if s.fatigue != Fatigue::Fresh {
                w.push(s.fatigue.word().to_string());
            }
            if s.routed {
                w.push("still routed".into());
            }
            (!w.is_empty()).then(|| format!("{} {}", s.name, w.join(", ")))
        })
        .collect();
    if !worn.is_empty() {
        out.push_str(&format!(" Worn: {}.", worn.join("; ")));
    }
    out
}
