//! Campaigns for Gear Krieg (rulings R35–R36): what a finished battle leaves each side for the
//! next scenario. Destroyed units are gone; the rest come repaired and at full strength, as
//! the next scenario places them; with `repair = false` damage and lost troopers stay (R37). Pure: state and TOML in, TOML out.

use crate::engine::campaign::{self, CarryRefused, Lost};

use super::state::GkState;

/// R35–R36: the next scenario as the finished battle `st` leaves the sides.
pub fn carry(st: &GkState, next: &str, terms: &toml::Table) -> Result<String, CarryRefused> {
    campaign::known_terms(terms, &["repair"])?;
    let repair = campaign::flag(terms, "repair", true)?;
    let sides: Vec<String> = st.sides.iter().map(|s| s.id.clone()).collect();
    let lost: Vec<Lost> = st
        .units
        .iter()
        .filter(|u| u.destroyed)
        .map(|u| Lost {
            side: u.side.clone(),
            name: u.name.clone(),
        })
        .collect();
    let note = campaign::losses_note("units", &sides, &lost);
    let mut t = campaign::strike_lost(next, "units", &sides, &lost, &note)?;
    if !repair {
        keep_damage(st, &mut t);
    }
    campaign::to_text(&t)
}

/// R37: with `repair = false`, each surviving unit brings its Light and Heavy Damage and a
/// squad its lost troopers.
fn keep_damage(st: &GkState, t: &mut toml::Table) {
    use toml::Value;
    let Some(Value::Array(sides)) = t.get_mut("sides") else {
        return;
    };
    for side in sides.iter_mut().filter_map(Value::as_table_mut) {
        let id = side
            .get("id")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let Some(Value::Array(units)) = side.get_mut("units") else {
            continue;
        };
        for entry in units.iter_mut().filter_map(Value::as_table_mut) {
            let name = entry
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or_default();
            let Some(u) = st.units.iter().find(|u| u.side == id && u.name == name) else {
                continue;
            };
            let lost = u.troopers.iter().filter(|t| !t.alive()).count() as i64;
            for (key, n) in [
                ("light", u.light as i64),
                ("heavy", u.heavy as i64),
                ("casualties", lost),
            ] {
                if n > 0 {
                    entry.insert(key.into(), Value::Integer(n));
                }
            }
        }
    }
}
