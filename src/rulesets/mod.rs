//! One module per ruleset; each implements `engine::Ruleset` and is pure. `registry()` is the
//! list a build plays: a new ruleset is its two folders and one line here.

pub mod common;
pub mod gear_krieg;
pub mod naval_rjw;

use crate::engine::Registry;

/// Every ruleset this build plays.
pub fn registry() -> Registry {
    Registry::new()
        .with::<naval_rjw::NavalRjw>()
        .with::<gear_krieg::GearKrieg>()
}
