//! Game-agnostic turn manager: seats, steps, prompts, deadlines, silence, the organiser's acts,
//! and the registry of rulesets. Pure: time comes in as a value, dice and secrets as values;
//! no I/O here. The shell appends the events these functions return.

pub mod abandon;
pub mod apply;
pub mod books;
pub mod campaign;
pub mod campaign_plan;
pub mod club;
mod concede;
pub mod decide;
pub mod event;
pub mod example;
pub mod game;
mod game_play;
pub mod guard;
pub mod ids;
pub mod lobby;
pub mod pause;
pub mod play;
pub mod press;
pub mod procedure;
pub mod registry;
mod resolution;
pub mod ruleset;
pub mod scene;
pub mod seat_acts;
mod signoff;
pub mod step;
pub mod strict;
pub mod strict_bound;

pub use event::*;
pub use game::*;
pub use play::GmError;
pub use play::Play;
pub use registry::{Entry, Registry, UnknownRuleset, replay};
pub use ruleset::*;
