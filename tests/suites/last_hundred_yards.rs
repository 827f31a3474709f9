//! Test suite: Last Hundred Yards: worked examples, rulings, markers, figures, pipeline, random play and conformance.
//! One binary per suite (see `suite_membership.rs`): every file named here is a module of it,
//! and the helpers they share are compiled once, at the top.

#[path = "../kit/mod.rs"]
mod kit;
#[path = "../lhy/mod.rs"]
mod lhy;
#[path = "../common/mail_world.rs"]
mod mail_world;

#[path = "../conformance_last_hundred_yards.rs"]
mod conformance_last_hundred_yards;
#[path = "../last_hundred_yards_campaign.rs"]
mod last_hundred_yards_campaign;
#[path = "../last_hundred_yards_figures.rs"]
mod last_hundred_yards_figures;
#[path = "../last_hundred_yards_fixes.rs"]
mod last_hundred_yards_fixes;
#[path = "../last_hundred_yards_golden.rs"]
mod last_hundred_yards_golden;
#[path = "../last_hundred_yards_markers.rs"]
mod last_hundred_yards_markers;
#[path = "../last_hundred_yards_newcomer.rs"]
mod last_hundred_yards_newcomer;
#[path = "../last_hundred_yards_pipeline.rs"]
mod last_hundred_yards_pipeline;
#[path = "../last_hundred_yards_prompts.rs"]
mod last_hundred_yards_prompts;
#[path = "../last_hundred_yards_random.rs"]
mod last_hundred_yards_random;
#[path = "../last_hundred_yards_reference.rs"]
mod last_hundred_yards_reference;
#[path = "../last_hundred_yards_rulings.rs"]
mod last_hundred_yards_rulings;
#[path = "../last_hundred_yards_rulings_play.rs"]
mod last_hundred_yards_rulings_play;
#[path = "../last_hundred_yards_spectators.rs"]
mod last_hundred_yards_spectators;
