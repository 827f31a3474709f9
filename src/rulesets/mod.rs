//! One module per ruleset; each implements `engine::Ruleset` and is pure. `kit` is what they
//! share: the order grammar, typed data with stand-ins, the scripted players' mixer.
//! `registry()` is the list a build plays: a new ruleset is its two folders and one line here.

pub mod gear_krieg;
pub mod kit;
pub mod la_bataille;
pub mod last_hundred_yards;
pub mod lone_star;
pub mod naval_rjw;

use crate::engine::Registry;

/// Every ruleset this build plays.
pub fn registry() -> Registry {
    Registry::new()
        .with::<naval_rjw::NavalRjw>()
        .with::<gear_krieg::GearKrieg>()
        .with::<la_bataille::LaBataille>()
        .with::<last_hundred_yards::LastHundredYards>()
        .with::<lone_star::LoneStar>()
}
