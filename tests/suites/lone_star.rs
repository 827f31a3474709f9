//! Test suite: Lone Star: worked examples, rulings, pipeline, newcomer findings and conformance.
//! One binary per suite (see `suite_membership.rs`): every file named here is a module of it,
//! and the helpers they share are compiled once, at the top.

#[path = "../kit/mod.rs"]
mod kit;
#[path = "../lone_star_common/mod.rs"]
mod lone_star_common;

#[path = "../conformance_lone_star.rs"]
mod conformance_lone_star;
#[path = "../lone_star_campaign.rs"]
mod lone_star_campaign;
#[path = "../lone_star_examples.rs"]
mod lone_star_examples;
#[path = "../lone_star_gaps.rs"]
mod lone_star_gaps;
#[path = "../lone_star_leftovers.rs"]
mod lone_star_leftovers;
#[path = "../lone_star_legality.rs"]
mod lone_star_legality;
#[path = "../lone_star_machines.rs"]
mod lone_star_machines;
#[path = "../lone_star_newcomer.rs"]
mod lone_star_newcomer;
#[path = "../lone_star_pipeline.rs"]
mod lone_star_pipeline;
#[path = "../lone_star_prompts.rs"]
mod lone_star_prompts;
#[path = "../lone_star_rulings_fire.rs"]
mod lone_star_rulings_fire;
#[path = "../lone_star_rulings_move.rs"]
mod lone_star_rulings_move;
#[path = "../lone_star_rulings_turn.rs"]
mod lone_star_rulings_turn;
#[path = "../lone_star_wagons.rs"]
mod lone_star_wagons;
#[path = "../lone_star_zeppelins_mortars.rs"]
mod lone_star_zeppelins_mortars;
