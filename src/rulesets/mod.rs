//! One module per ruleset; each implements `engine::Ruleset` and is pure. `kit` is what they
//! share: the order grammar, typed data with stand-ins, the scripted players' mixer.

pub mod gear_krieg;
pub mod kit;
pub mod naval_rjw;
