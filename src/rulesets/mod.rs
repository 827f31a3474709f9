//! One module per ruleset; each implements `engine::Ruleset` and is pure.

pub mod naval_rjw;
pub mod gear_krieg;
