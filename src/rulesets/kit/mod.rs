//! The kit every ruleset is built from, so that a new ruleset is its own rules and nothing
//! else: the order grammar (`grammar`), typed ruleset data with its stand-ins (`data`) and the
//! scripted players' mixer (`pick`), and who is in a game: its two sides and its units by name
//! (`roster`). Pure; no game rules here.

pub mod data;
pub mod grammar;
pub mod pick;
pub mod roster;
pub mod standing;
