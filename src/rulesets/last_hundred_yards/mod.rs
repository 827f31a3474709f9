//! Last Hundred Yards (GMT): platoon activations and the call-for-reaction loop by mail.
//! This file wires the modules into `engine::Ruleset`; the rules live in the modules.

pub mod assault;
pub mod concealment;
pub mod data;
pub mod fire;
pub mod los;
pub mod maneuver;
pub mod map;
pub mod resolution;
pub mod scenario;
pub mod setup;
pub mod sight;
pub mod stacking;
pub mod state;
pub mod vehicle;
pub mod withdraw;
