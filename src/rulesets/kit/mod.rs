//! The kit every ruleset is built from, so that a new ruleset is its own rules and nothing
//! else: the order grammar (`grammar`), typed ruleset data with its stand-ins (`data`) and the
//! scripted players' mixer (`pick`). Pure; no game rules here.

pub mod data;
pub mod grammar;
pub mod pick;
pub mod standing;
