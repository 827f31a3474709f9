//! Geometry shared by rulesets: tabletop measures (and later hex grids). Pure maths, no game rules.

pub mod hex;
pub mod tabletop;
pub mod terrain;
