//! The benches' world: a daemon on Maildirs in a temporary folder playing the tests' toy
//! ruleset (sealed bids, tests/toy), long enough (1,200 rounds) that no measured mail reaches
//! the game's end, and its seats. Shared by `daemon_pass` and `game_length`.

use std::path::Path;

use chrono::{DateTime, Utc};
use despatch::config::{Config, DEFAULT_CONFIG};
use despatch::daemon::Daemon;
use despatch::dice::GameSecrets;

use super::toy;

pub const SEATS: [(&str, &str); 3] = [
    ("red-1", "ann@red.example"),
    ("red-2", "bob@red.example"),
    ("blue-scout", "cy@blue.example"),
];
pub const TOKENS: [&str; 3] = [
    "tokenredonexxxxxxxxxxxxx",
    "tokenredtwoxxxxxxxxxxxxx",
    "tokenbluexxxxxxxxxxxxxxx",
];

/// A daemon whose data, games folder and Maildirs live in `dir`. (game_length uses it;
/// daemon_pass, which includes this file too, builds its daemons from a config it keeps.)
#[allow(dead_code)]
pub fn toy_daemon(dir: &Path) -> Daemon {
    let cfg = toy_config(dir);
    toy_daemon_from(cfg)
}

#[allow(dead_code)] // daemon_pass times it; game_length needs only `toy_daemon`
/// A daemon over the configuration `toy_config` made: what `despatch run` builds at start
/// (its registry included), for a bench that times a fresh process's first pass.
pub fn toy_daemon_from(cfg: Config) -> Daemon {
    Daemon::with_registry(cfg, despatch::rulesets::registry().with::<toy::Bids>()).unwrap()
}

/// The configuration of a toy daemon in `dir` (its games folder written on the way).
pub fn toy_config(dir: &Path) -> Config {
    let games = dir.join("games");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/games/bids");
    std::fs::create_dir_all(games.join("bids/scenarios")).unwrap();
    for f in ["README.md", "scenarios/club.toml"] {
        std::fs::copy(src.join(f), games.join("bids").join(f)).unwrap();
    }
    std::fs::write(
        games.join("bids/ruleset.toml"),
        "rounds = 1200\nmax_bid = 3\n",
    )
    .unwrap();
    let mut cfg = Config::parse(DEFAULT_CONFIG, &dir.join("config.toml")).unwrap();
    cfg.games.games_dir = games;
    cfg.games.games_dir_set = true;
    cfg.mail.max_per_sender_per_hour = 1_000_000;
    cfg
}

/// Creates game `id` with pinned secrets and an onion of `onion_len` steps, played by the
/// seats' own addresses (`SEATS`).
pub fn create_toy_game(d: &Daemon, id: &str, now: DateTime<Utc>, onion_len: u64) {
    let players = SEATS.map(|(s, a)| (s.to_string(), a.to_string()));
    create_toy_game_played_by(d, id, now, onion_len, &players);
}

#[allow(dead_code)] // daemon_pass's idle games; game_length plays one game
/// The same, played by `players` (seat, address): a host's many games are played by many
/// people, and a player's calendar reads every game the address plays.
pub fn create_toy_game_played_by(
    d: &Daemon,
    id: &str,
    now: DateTime<Utc>,
    onion_len: u64,
    players: &[(String, String)],
) {
    d.create_game_with(
        id,
        "bids",
        "club",
        players,
        now,
        GameSecrets::pinned(id, [1; 32], [2; 32], onion_len),
        &TOKENS.map(String::from),
    )
    .unwrap();
}
