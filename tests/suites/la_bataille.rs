//! Test suite: La Bataille: golden procedures, rulings, cavalry, pipeline, balance and conformance.
//! One binary per suite (see `suite_membership.rs`): every file named here is a module of it,
//! and the helpers they share are compiled once, at the top.

#[path = "../kit/mod.rs"]
mod kit;
#[path = "../lbt/mod.rs"]
mod lbt;
#[path = "../common/mail_world.rs"]
mod mail_world;

#[path = "../conformance_la_bataille.rs"]
mod conformance_la_bataille;
#[path = "../la_bataille_assault_fire.rs"]
mod la_bataille_assault_fire;
#[path = "../la_bataille_assault_steps.rs"]
mod la_bataille_assault_steps;
#[path = "../la_bataille_balance.rs"]
mod la_bataille_balance;
#[path = "../la_bataille_campaign.rs"]
mod la_bataille_campaign;
#[path = "../la_bataille_cavalry.rs"]
mod la_bataille_cavalry;
#[path = "../la_bataille_cavalry_melee.rs"]
mod la_bataille_cavalry_melee;
#[path = "../la_bataille_chart.rs"]
mod la_bataille_chart;
#[path = "../la_bataille_combat_mutants.rs"]
mod la_bataille_combat_mutants;
#[path = "../la_bataille_fire_mutants.rs"]
mod la_bataille_fire_mutants;
#[path = "../la_bataille_golden.rs"]
mod la_bataille_golden;
#[path = "../la_bataille_hidden.rs"]
mod la_bataille_hidden;
#[path = "../la_bataille_leaders.rs"]
mod la_bataille_leaders;
#[path = "../la_bataille_melee_mutants.rs"]
mod la_bataille_melee_mutants;
#[path = "../la_bataille_newcomer.rs"]
mod la_bataille_newcomer;
#[path = "../la_bataille_pipeline.rs"]
mod la_bataille_pipeline;
#[path = "../la_bataille_prompts.rs"]
mod la_bataille_prompts;
#[path = "../la_bataille_reaction_meeting.rs"]
mod la_bataille_reaction_meeting;
#[path = "../la_bataille_reference.rs"]
mod la_bataille_reference;
#[path = "../la_bataille_render.rs"]
mod la_bataille_render;
#[path = "../la_bataille_rulings.rs"]
mod la_bataille_rulings;
#[path = "../la_bataille_victory.rs"]
mod la_bataille_victory;
