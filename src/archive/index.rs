//! The live site's own pages (issue 31 point 2), pure: its index — the games in play and
//! those ended, and the games of the lobby still wanting players — and the leagues' tables
//! with their ratings. Built from values the shell hands in (each game's `game.json`, the
//! lobby's tables as `engine::lobby::table_text` words them, the standings): never an
//! address, never a link to a seat's page.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::engine::SeatEntry;

use super::pages::{esc, page_with};
use super::{GameRecord, LeagueSection, Scope};

/// What the site's index says of one game: written beside its pages as `game.json`, so the
/// index is rebuilt from these small files without opening any game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSummary {
    pub id: String,
    pub ruleset: String,
    pub scenario: String,
    pub seats: Vec<SeatEntry>,
    /// Over: the pages show everything.
    pub over: bool,
    /// The result, once over (`None` for a game ended without one).
    pub result: Option<String>,
    /// The open step and its title (during play).
    pub step: u64,
    pub title: String,
    /// Steps the public pages show (fewer than resolved under a spectators' delay).
    pub shown: usize,
    pub league: Option<String>,
}

impl GameSummary {
    pub(super) fn of(rec: &GameRecord, league: Option<String>) -> Self {
        GameSummary {
            id: rec.id.clone(),
            ruleset: rec.ruleset.clone(),
            scenario: rec.scenario.clone(),
            seats: rec.seats.clone(),
            over: rec.scope == Scope::Everything,
            result: rec.outcome.as_ref().map(|o| o.summary.clone()),
            step: rec.open_step,
            title: rec.open_title.clone(),
            shown: rec.steps.len(),
            league,
        }
    }
}

fn sides(g: &GameSummary) -> String {
    g.seats
        .iter()
        .map(|s| format!("{} ({})", s.seat, s.side))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `index.html` at the site's root: games in play, games over, the lobby's open games (each
/// already worded by `table_text`, names only) and a link to the leagues' tables when there
/// are leagues.
pub fn site_index(
    games: &[GameSummary],
    open: &[String],
    leagues: &[String],
    campaigns: &[String],
) -> Vec<u8> {
    let mut b = String::from("<h1>Games</h1>\n");
    let (over, playing): (Vec<&GameSummary>, Vec<&GameSummary>) =
        games.iter().partition(|g| g.over);
    b.push_str("<h2>In play</h2>\n");
    if playing.is_empty() {
        b.push_str("<p>No game is in play.</p>\n");
    } else {
        b.push_str("<ul>\n");
        for g in &playing {
            let _ = writeln!(
                b,
                "<li><a href=\"{}/index.html\">{}</a>: {} · {}; step {} ({}) open; {}</li>",
                esc(&g.id),
                esc(&g.id),
                esc(&g.ruleset),
                esc(&g.scenario),
                g.step,
                esc(&g.title),
                esc(&sides(g))
            );
        }
        b.push_str("</ul>\n");
    }
    b.push_str("<h2 id=\"wanting\">Wanting players</h2>\n");
    if open.is_empty() {
        b.push_str("<p>No game is waiting for players.</p>\n");
    } else {
        b.push_str(
            "<p>Join one by mailing the game address the line <code>JOIN &lt;game&gt; [AS \
             &lt;seat&gt;]</code>.</p>\n",
        );
        for t in open {
            let _ = writeln!(b, "<pre class=\"wrap\">{}</pre>", esc(t.trim_end()));
        }
    }
    if !leagues.is_empty() {
        b.push_str("<h2>Leagues</h2>\n<ul>\n");
        for l in leagues {
            let _ = writeln!(
                b,
                "<li><a href=\"leagues.html#league-{}\">League {}: standings and ratings</a></li>",
                esc(l),
                esc(l)
            );
        }
        b.push_str("</ul>\n");
    }
    if !campaigns.is_empty() {
        b.push_str("<h2>Campaigns</h2>\n<ul>\n");
        for c in campaigns {
            let _ = writeln!(
                b,
                "<li><a href=\"campaigns.html#campaign-{}\">Campaign {}: battles and standing</a></li>",
                esc(c),
                esc(c)
            );
        }
        b.push_str("</ul>\n");
    }
    b.push_str("<h2>Over</h2>\n");
    if over.is_empty() {
        b.push_str("<p>No game has ended yet.</p>\n");
    } else {
        b.push_str("<ul>\n");
        for g in &over {
            let _ = writeln!(
                b,
                "<li><a href=\"{}/index.html\">{}</a>: {} · {}; {}</li>",
                esc(&g.id),
                esc(&g.id),
                esc(&g.ruleset),
                esc(&g.scenario),
                esc(g.result.as_deref().unwrap_or("ended without a result"))
            );
        }
        b.push_str("</ul>\n");
    }
    page_with("Games", "", &b)
}

/// `leagues.html`: every league's table (its ratings among the columns), each under an anchor
/// `league-<name>` that the games' pages link to.
pub fn leagues_page(tables: &[(String, LeagueSection)]) -> Vec<u8> {
    let mut b = String::from("<nav><a href=\"index.html\">All games</a></nav>\n<h1>Leagues</h1>\n");
    if tables.is_empty() {
        b.push_str("<p>No league has a game yet.</p>\n");
    }
    for (name, l) in tables {
        let _ = writeln!(
            b,
            "<h2 id=\"league-{}\">{}</h2>\n<div class=\"wide\"><table>",
            esc(name),
            esc(&l.title)
        );
        b.push_str("<tr>");
        for h in &l.header {
            let _ = write!(b, "<th>{}</th>", esc(h));
        }
        b.push_str("</tr>\n");
        for r in &l.rows {
            b.push_str("<tr>");
            for c in r {
                let _ = write!(b, "<td>{}</td>", esc(c));
            }
            b.push_str("</tr>\n");
        }
        b.push_str("</table></div>\n");
    }
    page_with("Leagues", "", &b)
}

/// `campaigns.html`: every campaign's battles (each linked to its game's pages), results,
/// points and standing, under an anchor `campaign-<name>`; `ledger.text` words each the way
/// the mails do. Never an address.
pub fn campaigns_page(campaigns: &[(String, crate::engine::campaign_plan::Ledger)]) -> Vec<u8> {
    use crate::engine::campaign_plan::side_words;
    let mut b =
        String::from("<nav><a href=\"index.html\">All games</a></nav>\n<h1>Campaigns</h1>\n");
    for (name, l) in campaigns {
        let _ = writeln!(
            b,
            "<h2 id=\"campaign-{}\">{} ({})</h2>\n<div class=\"wide\"><table>",
            esc(name),
            esc(&l.title),
            esc(name)
        );
        b.push_str("<tr><th>#</th><th>Battle</th><th>Game</th><th>Result</th>");
        for s in &l.sides {
            let _ = write!(b, "<th>{}</th>", esc(&side_words(s)));
        }
        b.push_str("</tr>\n");
        for (i, r) in l.rows.iter().enumerate() {
            let _ = write!(
                b,
                "<tr><td>{}</td><td>{}</td><td><a href=\"{}/index.html\">{}</a></td><td>{}</td>",
                i + 1,
                esc(&r.key),
                esc(&r.game),
                esc(&r.game),
                esc(&r.summary)
            );
            for s in &l.sides {
                let p = r
                    .points
                    .iter()
                    .find(|(x, _)| x == s)
                    .map(|(_, p)| p.to_string());
                let _ = write!(b, "<td>{}</td>", esc(p.as_deref().unwrap_or("")));
            }
            b.push_str("</tr>\n");
        }
        b.push_str("<tr><td></td><td>Standing</td><td></td><td></td>");
        for (_, p) in &l.totals {
            let _ = write!(b, "<td>{p}</td>");
        }
        b.push_str("</tr>\n</table></div>\n");
        let last = l.text(name);
        let last = last.lines().last().unwrap_or_default();
        let _ = writeln!(b, "<p>{}</p>", esc(last));
    }
    page_with("Campaigns", "", &b)
}
