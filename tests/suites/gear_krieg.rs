//! Test suite: Gear Krieg: data, golden orders, rulings, render, pipeline, campaign and conformance.
//! One binary per suite (see `suite_membership.rs`): every file named here is a module of it,
//! and the helpers they share are compiled once, at the top.

#[path = "../common/gear_krieg.rs"]
mod gear_krieg;
#[path = "../kit/mod.rs"]
mod kit;
#[path = "../common/mail_world.rs"]
mod mail_world;
#[path = "../common/table.rs"]
mod table;

#[path = "../campaign.rs"]
mod campaign;
#[path = "../conformance_gear_krieg.rs"]
mod conformance_gear_krieg;
#[path = "../gear_krieg_activation_mutants.rs"]
mod gear_krieg_activation_mutants;
#[path = "../gear_krieg_briefing.rs"]
mod gear_krieg_briefing;
#[path = "../gear_krieg_data.rs"]
mod gear_krieg_data;
#[path = "../gear_krieg_golden.rs"]
mod gear_krieg_golden;
#[path = "../gear_krieg_pipeline.rs"]
mod gear_krieg_pipeline;
#[path = "../gear_krieg_queue.rs"]
mod gear_krieg_queue;
#[path = "../gear_krieg_render.rs"]
mod gear_krieg_render;
#[path = "../gear_krieg_rulings.rs"]
mod gear_krieg_rulings;
#[path = "../gear_krieg_rulings_combat.rs"]
mod gear_krieg_rulings_combat;
#[path = "../gear_krieg_rulings_melee.rs"]
mod gear_krieg_rulings_melee;
#[path = "../gear_krieg_rulings_rounds.rs"]
mod gear_krieg_rulings_rounds;
#[path = "../gear_krieg_rulings_terrain.rs"]
mod gear_krieg_rulings_terrain;
#[path = "../gear_krieg_stats_mutants.rs"]
mod gear_krieg_stats_mutants;
