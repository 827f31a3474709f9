//! Issue 28, across rulesets: the game-over mail's subject (and the league points, from the
//! same outcome) names the winner the body names. The subject comes from the game as the shell
//! sees it (`Play`), through the shared `game_over_subject`; the body is the outcome's summary.
//! One test per ruleset whose subjects and bodies disagreed: Last Hundred Yards, La Bataille.

use chrono::{TimeZone, Utc};
use despatch::dice::{GameSecrets, Protocol};
use despatch::engine::{Creation, Game, Play, Policy, Ruleset};
use despatch::mail::compose::game_over_subject;
use despatch::rulesets::kit::roster::TwoSides;
use despatch::rulesets::la_bataille::LaBataille;
use despatch::rulesets::last_hundred_yards::LastHundredYards;

/// A fresh game of `R` as the shell holds it.
fn game<R: Ruleset>(ruleset: &str, scenario: &str, seats: &[&str]) -> Game<R> {
    let host = GameSecrets::pinned("words", [3; 32], [4; 32], 20);
    let seats: Vec<String> = seats.iter().map(|s| s.to_string()).collect();
    let first = Game::<R>::creation_event(&Creation {
        game: "words",
        scenario: "s",
        ruleset_toml: ruleset,
        scenario_toml: scenario,
        seats: &seats,
        protocol: Protocol::V2,
        anchor: host.onion.anchor(),
        onion_len: 20,
        salt_commitment: host.salt_commitment("words"),
        mail_key: host.mail_key.map(|k| k.public()),
        policy: Policy::default(),
        now: Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap(),
    })
    .unwrap();
    Game::<R>::from_creation(&first, &first.to_line()).unwrap()
}

/// The subject's result, without `Game over: ` and a trailing ` wins`/` win`, is said by the
/// body: the subject cannot crown a side the body does not.
fn subject_says_what_the_body_says(g: &dyn Play) -> (String, despatch::engine::Outcome) {
    let o = g.outcome().expect("the game is over");
    let subject = game_over_subject(g, &o);
    let words = subject
        .strip_prefix("Game over: ")
        .unwrap_or_else(|| panic!("{subject}"));
    let words = words
        .strip_suffix(" wins")
        .or_else(|| words.strip_suffix(" win"))
        .unwrap_or(words);
    assert!(
        o.summary.to_lowercase().contains(&words.to_lowercase()),
        "subject `{subject}` over a body saying `{}`",
        o.summary
    );
    (subject, o)
}

/// Last Hundred Yards, the patrol at its turn limit with a score of 2: the mission's level is
/// a German victory, and subject, body and winners (league points) all say so. Before the fix
/// the subject said "US wins" over "German victory".
#[test]
fn last_hundred_yards_subject_names_the_bodys_winner() {
    let mut g = game::<LastHundredYards>(
        include_str!("../games/last-hundred-yards/ruleset.toml"),
        include_str!("../games/last-hundred-yards/scenarios/patrol.toml"),
        &["us", "germany"],
    );
    g.state.side_mut("germany").unwrap().casualties = 2;
    g.state.turn.number = g.state.max_turns;
    despatch::rulesets::last_hundred_yards::phases::victory(&mut g.state);
    let (subject, o) = subject_says_what_the_body_says(&g);
    assert_eq!(subject, "Game over: German victory: the village holds");
    assert_eq!(o.winners, vec!["germany".to_string()]);
}

/// La Bataille: a side with nothing left on the field loses (R34); the subject says the body's
/// own words, "the Allies win" (before: "allies wins", the side id and a singular verb).
#[test]
fn la_bataille_subject_names_the_bodys_winner() {
    let mut g = game::<LaBataille>(
        include_str!("../games/la-bataille/ruleset.toml"),
        include_str!("../games/la-bataille/scenarios/teaching.toml"),
        &["france", "allies"],
    );
    for u in g.state.units.iter_mut().filter(|u| u.side == "france") {
        u.eliminated = true;
    }
    despatch::rulesets::la_bataille::segment::check_end(&mut g.state);
    let (subject, o) = subject_says_what_the_body_says(&g);
    assert_eq!(o.winners, vec!["allies".to_string()]);
    assert_eq!(subject, "Game over: the Allies win");
}
