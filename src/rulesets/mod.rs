//! One module per ruleset; each implements `engine::Ruleset` and is pure.

pub mod common;
pub mod gear_krieg;
pub mod naval_rjw;
