//! Game-agnostic turn manager: seats, steps, prompts, deadlines and silence policies.
//! Pure: time comes in as a value, dice come in as a `Dice` handle; no I/O here.

pub mod ruleset;
pub mod scene;

pub use ruleset::*;
pub mod game;

pub use game::*;
