//! Test suite: Naval RJW: data, golden orders, rulings and conformance.
//! One binary per suite (see `suite_membership.rs`): every file named here is a module of it,
//! and the helpers they share are compiled once, at the top.

#[path = "../kit/mod.rs"]
mod kit;
#[path = "../common/naval.rs"]
mod naval;
#[path = "../common/naval_game.rs"]
mod naval_game;

#[path = "../conformance_naval.rs"]
mod conformance_naval;
#[path = "../naval_data.rs"]
mod naval_data;
#[path = "../naval_golden.rs"]
mod naval_golden;
#[path = "../naval_orders_golden.rs"]
mod naval_orders_golden;
#[path = "../naval_random_play.rs"]
mod naval_random_play;
#[path = "../naval_rulings.rs"]
mod naval_rulings;
#[path = "../naval_rulings_gunnery.rs"]
mod naval_rulings_gunnery;
#[path = "../naval_rulings_lines.rs"]
mod naval_rulings_lines;
#[path = "../naval_rulings_losses.rs"]
mod naval_rulings_losses;
#[path = "../naval_rulings_movement.rs"]
mod naval_rulings_movement;
#[path = "../naval_rulings_sight.rs"]
mod naval_rulings_sight;
#[path = "../naval_rulings_turn.rs"]
mod naval_rulings_turn;
