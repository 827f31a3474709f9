//! Campaigns for Naval RJW (rulings R64–R66): what a finished battle leaves each fleet for the
//! next scenario. Sunk and struck ships are gone; escaped ships come back; damage is repaired;
//! a lost flagship's or second's place passes on; with `repair = false` damage stays (R67). Pure: state and TOML in, TOML out.

use toml::Value;

use crate::engine::campaign::{self, CarryRefused, Lost};

use super::state::{Fate, NavalState};

/// R64–R66: the next scenario as the finished battle `st` leaves the fleets.
pub fn carry(st: &NavalState, next: &str, terms: &toml::Table) -> Result<String, CarryRefused> {
    campaign::known_terms(terms, &["repair"])?;
    let repair = campaign::flag(terms, "repair", true)?;
    let sides: Vec<String> = st.fleets.iter().map(|f| f.side.clone()).collect();
    // R64: sunk, or struck (taken or not), is lost; escaped is not. R65: damage is not kept.
    let lost: Vec<Lost> = st
        .ships
        .iter()
        .filter(|s| matches!(s.fate, Fate::Sunk | Fate::Struck))
        .map(|s| Lost {
            side: s.side.clone(),
            name: s.name.clone(),
        })
        .collect();
    let note = campaign::losses_note("ships", &sides, &lost);
    let mut t = campaign::strike_lost(next, "ships", &sides, &lost, &note)?;
    if let Some(Value::Array(all)) = t.get_mut("sides") {
        for side in all.iter_mut().filter_map(Value::as_table_mut) {
            regroup(side)?;
            if !repair {
                keep_damage(st, side);
            }
        }
    }
    campaign::to_text(&t)
}

/// R66: lines and flotillas keep their surviving ships (an empty one is dropped), and the flag
/// and the second pass to surviving capital ships.
fn regroup(side: &mut toml::Table) -> Result<(), CarryRefused> {
    let id = side
        .get("id")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    let ships: Vec<(String, bool)> = side
        .get("ships")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .map(|s| {
                    let name = s.get("name").and_then(Value::as_str).unwrap_or_default();
                    let class = s.get("class").and_then(Value::as_str).unwrap_or_default();
                    (name.to_string(), class != "DD")
                })
                .collect()
        })
        .unwrap_or_default();
    let here = |n: &str| ships.iter().any(|(s, _)| s == n);
    for key in ["lines", "flotillas"] {
        if let Some(Value::Array(groups)) = side.get_mut(key) {
            for g in groups.iter_mut() {
                if let Some(Value::Array(names)) = g.get_mut("ships") {
                    names.retain(|n| n.as_str().is_some_and(here));
                }
            }
            groups.retain(|g| {
                g.get("ships")
                    .and_then(Value::as_array)
                    .is_some_and(|a| !a.is_empty())
            });
        }
    }
    let role = |k: &str, side: &toml::Table| {
        side.get(k)
            .and_then(Value::as_str)
            .filter(|n| here(n))
            .map(str::to_string)
    };
    let (flag, second) = (role("flagship", side), role("second", side));
    let mut capitals = ships.iter().filter(|(_, c)| *c).map(|(n, _)| n.clone());
    let (flag, second) = match (flag, second) {
        (Some(f), Some(s)) => (f, s),
        // The survivor of the two holds the flag (a second takes it up); the first other
        // surviving capital ship in the scenario's list becomes second.
        (None, Some(s)) | (Some(s), None) => {
            let next = capitals.find(|n| *n != s);
            (s, next.unwrap_or_default())
        }
        (None, None) => {
            let f = capitals.next().unwrap_or_default();
            (f, capitals.next().unwrap_or_default())
        }
    };
    if flag.is_empty() || second.is_empty() {
        return Err(CarryRefused::Ruling(format!(
            "side {id} has fewer than two capital ships left: no flagship and second for the \
             next scenario (R66)"
        )));
    }
    side.insert("flagship".into(), Value::String(flag));
    side.insert("second".into(), Value::String(second));
    Ok(())
}

/// R67: with `repair = false`, each surviving ship brings her hit markers, permanent
/// criticals and mine damage (the critical marker's dead-in-the-water is not kept: the
/// crew gets her under way between battles).
fn keep_damage(st: &NavalState, side: &mut toml::Table) {
    let id = side
        .get("id")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    let Some(Value::Array(ships)) = side.get_mut("ships") else {
        return;
    };
    for entry in ships.iter_mut().filter_map(Value::as_table_mut) {
        let name = entry
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let Some(s) = st.ships.iter().find(|s| s.side == id && s.name == name) else {
            continue;
        };
        if s.hit_markers > 0 {
            entry.insert("hit_markers".into(), Value::Integer(s.hit_markers.into()));
        }
        if !s.criticals.is_empty() {
            let names = s
                .criticals
                .iter()
                .map(|c| Value::String(format!("{c:?}")))
                .collect();
            entry.insert("criticals".into(), Value::Array(names));
        }
        if s.mine_crippled {
            entry.insert("mine_crippled".into(), Value::Boolean(true));
        }
    }
}
