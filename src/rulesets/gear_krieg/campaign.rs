//! Campaigns for Gear Krieg (rulings R35–R36): what a finished battle leaves each side for the
//! next scenario. Destroyed units are gone; the rest come repaired and at full strength, as
//! the next scenario places them. Pure: state and TOML in, TOML out.

use crate::engine::campaign::{self, Lost};

use super::state::GkState;

/// R35–R36: the next scenario as the finished battle `st` leaves the sides.
pub fn carry(st: &GkState, next: &str, terms: &toml::Table) -> Result<String, String> {
    campaign::known_terms(terms, &[])?;
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
    let t = campaign::strike_lost(next, "units", &sides, &lost, &note)?;
    campaign::to_text(&t)
}
