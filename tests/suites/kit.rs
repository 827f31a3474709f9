//! Test suite: the ruleset kit: the toy ruleset, strict reveals and verifiers, step reference, games read at run time.
//! One binary per suite (see `suite_membership.rs`): every file named here is a module of it,
//! and the helpers they share are compiled once, at the top.

#[path = "../verifier/demo_mails.rs"]
mod demo_mails;
#[path = "../verifier/forgery.rs"]
mod forgery;
#[path = "../kit/mod.rs"]
mod kit;
#[path = "../common/naval_mail.rs"]
mod naval_mail;
#[path = "../verifier/strict_mails.rs"]
mod strict_mails;
#[path = "../common/strict_world.rs"]
mod strict_world;
#[path = "../toy/mod.rs"]
mod toy;

#[path = "../balance_random.rs"]
mod balance_random;
#[path = "../conformance_toy.rs"]
mod conformance_toy;
#[path = "../engine_toy.rs"]
mod engine_toy;
#[path = "../folded_lines.rs"]
mod folded_lines;
#[path = "../forged_mail.rs"]
mod forged_mail;
#[path = "../game_over_subjects.rs"]
mod game_over_subjects;
#[path = "../games_at_runtime.rs"]
mod games_at_runtime;
#[path = "../inbox_volume.rs"]
mod inbox_volume;
#[path = "../kit_commands.rs"]
mod kit_commands;
#[path = "../mutation_survivors.rs"]
mod mutation_survivors;
#[path = "../render_knows_no_ruleset.rs"]
mod render_knows_no_ruleset;
#[path = "../render_scenes.rs"]
mod render_scenes;
#[path = "../step_reference.rs"]
mod step_reference;
#[path = "../stored_games.rs"]
mod stored_games;
#[path = "../strict_abandon.rs"]
mod strict_abandon;
#[path = "../strict_bound.rs"]
mod strict_bound;
#[path = "../strict_levers.rs"]
mod strict_levers;
#[path = "../strict_pipeline.rs"]
mod strict_pipeline;
#[path = "../strict_reveal_record.rs"]
mod strict_reveal_record;
#[path = "../strict_reveals.rs"]
mod strict_reveals;
#[path = "../strict_verifiers.rs"]
mod strict_verifiers;
#[path = "../unit_numbers.rs"]
mod unit_numbers;
