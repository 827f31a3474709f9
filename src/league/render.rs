//! Standings as text (the mail to members, `despatch league`) and as HTML (the archive), from
//! the values `standings` made. Pure. The text's table fits 72 columns (with the rating, 70);
//! names too wide for their column are cut (by characters, never inside one).

use super::{Listed, Standings, TIE_RULE};

/// Widest name the text table shows before cutting it.
const NAME_WIDTH: usize = 30;

fn cut(name: &str) -> String {
    if name.chars().count() <= NAME_WIDTH {
        return name.to_string();
    }
    let mut s: String = name.chars().take(NAME_WIDTH - 1).collect();
    s.push('~');
    s
}

fn games_text(title: &str, games: &[Listed], out: &mut String) {
    if games.is_empty() {
        return;
    }
    out.push_str(&format!("\n{title}\n"));
    for g in games {
        out.push_str(&format!("- {} ({}): {}\n", g.game, g.ruleset, g.state));
    }
}

/// The table alone: its header line, then one line per player, each within 70 columns. A
/// standings mail carries exactly these lines, so `league::derive` compares a mail with them.
pub fn table_text(s: &Standings) -> Vec<String> {
    if s.rows.is_empty() {
        return vec![];
    }
    let mut out = vec![format!(
        "    {:<4} {:<w$} {:>3} {:>3} {:>3} {:>3} {:>4} {:>9}",
        "#",
        "Player",
        "P",
        "W",
        "D",
        "L",
        "Pts",
        "Rating",
        w = NAME_WIDTH
    )];
    for r in &s.rows {
        // Padding counts characters, so a name with accents keeps the columns straight.
        let name = cut(&r.name);
        let pad = NAME_WIDTH.saturating_sub(name.chars().count());
        out.push(format!(
            "    {:<4} {name}{} {:>3} {:>3} {:>3} {:>3} {:>4} {:>9}",
            r.place,
            " ".repeat(pad),
            r.played,
            r.won,
            r.drawn,
            r.lost,
            r.points,
            r.rating_text()
        ));
    }
    out
}

/// The standings as plain text, laid out for a mail (72 columns).
pub fn render_text(s: &Standings) -> String {
    let p = s.points;
    let mut out = format!(
        "LEAGUE {} — STANDINGS\n\nPoints: win {}, draw {}, loss {}. {TIE_RULE}\n{} \
         Rating ± deviation.\n\n",
        s.league,
        p.win,
        p.draw,
        p.loss,
        s.rating.describe()
    );
    if s.rows.is_empty() {
        out.push_str("No game of this league has finished yet.\n");
    }
    for line in table_text(s) {
        out.push_str(&line);
        out.push('\n');
    }
    games_text("FINISHED GAMES", &s.finished, &mut out);
    games_text("ABANDONED (NO RESULT, NO POINTS)", &s.abandoned, &mut out);
    games_text("STILL RUNNING", &s.running, &mut out);
    crate::report::wrap_text(out.trim_end())
}

fn esc(text: &str) -> String {
    let mut o = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c => o.push(c),
        }
    }
    o
}

fn games_html(title: &str, games: &[Listed], out: &mut String) {
    if games.is_empty() {
        return;
    }
    out.push_str(&format!("<h3>{}</h3>\n<ul>\n", esc(title)));
    for g in games {
        out.push_str(&format!(
            "<li><code>{}</code> ({}): {}</li>\n",
            esc(&g.game),
            esc(&g.ruleset),
            esc(&g.state)
        ));
    }
    out.push_str("</ul>\n");
}

/// The standings as an HTML fragment (a `<section>`), every value escaped, for the archive's
/// pages to embed.
pub fn render_html(s: &Standings) -> String {
    let p = s.points;
    let mut out = format!(
        "<section class=\"league\">\n<h2>League {} — standings</h2>\n<p>Points: win {}, draw {}, \
         loss {}. {}</p>\n<p>{} Rating ± deviation.</p>\n",
        esc(&s.league),
        p.win,
        p.draw,
        p.loss,
        esc(TIE_RULE),
        esc(&s.rating.describe())
    );
    if s.rows.is_empty() {
        out.push_str("<p>No game of this league has finished yet.</p>\n");
    } else {
        out.push_str(
            "<table>\n<thead><tr><th>#</th><th>Player</th><th>P</th><th>W</th><th>D</th>\
             <th>L</th><th>Pts</th><th>Rating</th></tr></thead>\n<tbody>\n",
        );
        for r in &s.rows {
            out.push_str(&format!(
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>\
                 <td>{}</td><td>{}</td></tr>\n",
                esc(&r.place),
                esc(&r.name),
                r.played,
                r.won,
                r.drawn,
                r.lost,
                r.points,
                esc(&r.rating_text())
            ));
        }
        out.push_str("</tbody>\n</table>\n");
    }
    games_html("Finished games", &s.finished, &mut out);
    games_html("Abandoned (no result, no points)", &s.abandoned, &mut out);
    games_html("Still running", &s.running, &mut out);
    out.push_str("</section>\n");
    out
}
