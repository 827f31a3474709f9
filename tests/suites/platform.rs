//! Test suite: the platform: pipeline, random play, replay, verify, dice privacy, store, render, command line.
//! One binary per suite (see `suite_membership.rs`): every file named here is a module of it,
//! and the helpers they share are compiled once, at the top.

#[path = "../verifier/demo_mails.rs"]
mod demo_mails;
#[path = "../verifier/forgery.rs"]
mod forgery;
#[path = "../kit/mod.rs"]
mod kit;
#[path = "../common/world.rs"]
mod world;

#[path = "../cli_help.rs"]
mod cli_help;
#[path = "../delivery_isolation.rs"]
mod delivery_isolation;
#[path = "../dice_privacy.rs"]
mod dice_privacy;
#[path = "../doctor_cli.rs"]
mod doctor_cli;
#[path = "../documented_configs.rs"]
mod documented_configs;
#[path = "../due_index.rs"]
mod due_index;
#[path = "../house_size.rs"]
mod house_size;
#[path = "../import_loops.rs"]
mod import_loops;
#[path = "../layers.rs"]
mod layers;
#[path = "../legacy_v1.rs"]
mod legacy_v1;
#[path = "../map_vocabulary.rs"]
mod map_vocabulary;
#[path = "../organiser_cli.rs"]
mod organiser_cli;
#[path = "../pipeline.rs"]
mod pipeline;
#[path = "../python_verifier.rs"]
mod python_verifier;
#[path = "../render.rs"]
mod render;
#[path = "../store_copy.rs"]
mod store_copy;
#[path = "../suite_membership.rs"]
mod suite_membership;
#[path = "../systemd_unit.rs"]
mod systemd_unit;
#[path = "../vendored_lettre.rs"]
mod vendored_lettre;
#[path = "../verify_story.rs"]
mod verify_story;
