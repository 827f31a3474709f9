//! Naval Wargame Rules for the Russo-Japanese War (Mike Adams, 2003): grammar, state, resolution, views.

pub mod data;
pub mod state;
