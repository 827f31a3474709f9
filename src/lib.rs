//! Despatch: play-by-email turn manager for tabletop wargames, with verifiable commit-reveal dice.
//! The library holds every layer; `main.rs` only parses arguments and maps errors to exit codes.

pub mod archive;
pub mod board;
pub mod cli;
pub mod config;
pub mod daemon;
pub mod demo;
pub mod dice;
pub mod doctor;
pub mod engine;
pub mod league;
pub mod listen;
pub mod mail;
pub mod render;
pub mod report;
pub mod rulesets;
pub mod store;
pub mod verify;
