//! The league's words at one of its games' end: the standings mail every member gets. Pure:
//! the daemon hands in the game and the standings already rendered (`league::render_text`
//! counts and rates); nothing here reads the league file or queues a mail.

/// The subject of the standings sent after game `game` of `league` ended.
pub fn league_standings_subject(league: &str, game: &str) -> String {
    format!("[league {league}] Standings after {game}")
}

/// The standings mail's text (unwrapped): which game ended and how (`ended`, its outcome's
/// summary when it has one), then the standings.
pub fn league_standings_text(
    league: &str,
    game: &str,
    ruleset: &str,
    ended: Option<&str>,
    standings: &str,
) -> String {
    let ended = ended.unwrap_or("it has ended");
    format!(
        "Game {game} ({ruleset}) of league {league} has ended: {ended}\n\n{standings}\n\n-- \n\
         Despatch\n"
    )
}
