//! The archive's pages as HTML, pure: every text that comes from the game (names, logs,
//! orders, press) goes through `esc`. One small stylesheet inline in each page, relative links
//! only, no script and no network resource; long lines scroll inside their own box so a phone
//! never scrolls the page sideways.

use std::fmt::Write as _;

use crate::engine::View;
use crate::mail::compose::VERIFIER_HTML;

use super::{Drawn, GameRecord, LeagueSection, Scope, Site, StepRecord, map_or_kept};

/// The HTML text of `s`: `& < > " '` escaped (in text and in attribute values alike).
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const STYLE: &str = "body{margin:0;font:16px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,\
sans-serif;color:#1d1d1f;background:#f6f6f8}main{max-width:60rem;margin:0 auto;padding:1rem}\
h1{font-size:1.5rem;margin:.3rem 0 .6rem}h2{font-size:1.15rem;margin:1.2rem 0 .4rem}\
h3{font-size:1rem;margin:1rem 0 .3rem}nav{display:flex;flex-wrap:wrap;gap:.4rem 1rem;\
margin:.3rem 0 .8rem}a{color:#1f4e8c}pre{background:#fff;border:1px solid #d5d5dc;\
padding:.6rem;overflow-x:auto;max-width:100%;box-sizing:border-box;font-size:.85rem}\
pre.wrap{white-space:pre-wrap;overflow-wrap:anywhere}\
.hex,code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.85em;\
overflow-wrap:anywhere;word-break:break-all}.wide{overflow-x:auto;max-width:100%}\
table{border-collapse:collapse;background:#fff}td,th{border:1px solid #d5d5dc;padding:.25rem .5rem;\
text-align:left;vertical-align:top}img.map{display:block;width:100%;max-width:800px;height:auto;\
border:1px solid #aab7c4;background:#fff}ul{padding-left:1.2rem}.result{font-weight:600}";

fn page(title: &str, body: &str) -> Vec<u8> {
    page_with(title, "", body)
}

/// A whole page; `head` adds lines to its head (a private page's `noindex`). The viewport
/// line lets a phone show the page at its own width and zoom into a map with two fingers.
pub(super) fn page_with(title: &str, head: &str, body: &str) -> Vec<u8> {
    format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n{head}\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<main>\n{body}</main>\n\
         </body>\n</html>\n",
        esc(title)
    )
    .into_bytes()
}

/// A map as a page shows it: the SVG drawn at the page's width, and a link to the drawing
/// alone, which a phone opens full screen to zoom into.
pub(super) fn map_img(b: &mut String, src: &str, alt: &str) {
    let _ = writeln!(
        b,
        "<a href=\"{src}\"><img class=\"map\" src=\"{src}\" alt=\"{}\"></a>",
        esc(alt)
    );
}

/// What a game's pages link to when they sit in the live site (issue 31 point 2): the site's
/// index one folder up, and the leagues page while the game runs (its own table is shown once
/// it is over).
#[derive(Debug, Clone, Default)]
pub(super) struct Up {
    pub league: Option<String>,
}

/// `step-007.html`: fixed width so the pages sort in play order.
pub(super) fn step_page(step: u64) -> String {
    format!("step-{step:03}.html")
}

pub(super) fn map_file(step: u64, who: Option<&str>) -> String {
    match who {
        Some(seat) => format!("maps/step-{step:03}-{seat}.svg"),
        None => format!("maps/step-{step:03}.svg"),
    }
}

/// Every file of the site; the maps in `drawn` are kept, not drawn.
pub(super) fn site(
    rec: &GameRecord,
    league: Option<&LeagueSection>,
    journal: Option<Vec<u8>>,
    up: Option<&Up>,
    drawn: &Drawn,
) -> Site {
    let mut files = vec![("index.html".to_string(), index(rec, league, up))];
    let mut kept = Vec::new();
    for (i, s) in rec.steps.iter().enumerate() {
        let prev = i.checked_sub(1).map(|j| rec.steps[j].step);
        let next = rec.steps.get(i + 1).map(|n| n.step);
        files.push((step_page(s.step), step(rec, s, prev, next)));
        if let Some(scene) = &s.spectator.map {
            map_or_kept(&mut files, &mut kept, drawn, map_file(s.step, None), scene);
        }
        for (seat, v) in &s.seats {
            if let Some(scene) = &v.map {
                let name = map_file(s.step, Some(seat));
                map_or_kept(&mut files, &mut kept, drawn, name, scene);
            }
        }
    }
    files.push(("verify.html".to_string(), verify(rec, journal.is_some())));
    files.push((
        "verifier.html".to_string(),
        VERIFIER_HTML.as_bytes().to_vec(),
    ));
    if let Some(j) = journal {
        files.push(("journal.jsonl".to_string(), j));
    }
    Site { files, kept }
}

fn index(rec: &GameRecord, league: Option<&LeagueSection>, up: Option<&Up>) -> Vec<u8> {
    let mut b = String::new();
    if up.is_some() {
        b.push_str("<nav><a href=\"../index.html\">All games</a></nav>\n");
    }
    let _ = write!(
        b,
        "<h1>Game {}</h1>\n<p>{} · scenario {}</p>\n",
        esc(&rec.id),
        esc(&rec.ruleset),
        esc(&rec.scenario)
    );
    b.push_str("<h2>Seats and sides</h2>\n<div class=\"wide\"><table>\n<tr><th>Seat</th><th>Side</th></tr>\n");
    for s in &rec.seats {
        let _ = writeln!(
            b,
            "<tr><td>{}</td><td>{}</td></tr>",
            esc(&s.seat),
            esc(&s.side)
        );
    }
    result_section(&mut b, rec);
    if let Some((at, reason)) = &rec.paused {
        let _ = writeln!(
            b,
            "<p class=\"paused\"><strong>Paused by the organiser</strong> since {} ({}): no \
             deadline passes until the game is resumed.</p>",
            at.format("%a %-d %b %Y %H:%M UTC"),
            esc(reason)
        );
    }
    if let Some(l) = up.and_then(|u| u.league.as_deref()) {
        let _ = writeln!(
            b,
            "<p>This game counts in league {}: <a href=\"../leagues.html#league-{}\">its \
             standings</a>.</p>",
            esc(l),
            esc(l)
        );
    }
    b.push_str("<h2>Steps</h2>\n");
    if rec.steps.is_empty() {
        b.push_str("<p>No step is shown yet.</p>\n");
    } else {
        b.push_str("<ul>\n");
        for s in &rec.steps {
            let _ = writeln!(
                b,
                "<li><a href=\"{}\">Step {}: {}</a></li>",
                step_page(s.step),
                s.step,
                esc(&s.title)
            );
        }
        b.push_str("</ul>\n");
    }
    dice_section(&mut b, rec);
    words_section(&mut b, rec);
    if let Some(l) = league {
        league_table(&mut b, l);
    }
    page(&format!("Game {}", rec.id), &b)
}

/// The result, or how far the game is and what this archive shows of it.
fn result_section(b: &mut String, rec: &GameRecord) {
    b.push_str("</table></div>\n<h2>Result</h2>\n");
    match (&rec.outcome, rec.scope) {
        (Some(o), _) => {
            let _ = writeln!(b, "<p class=\"result\">{}</p>", esc(&o.summary));
            if !rec.figures.is_empty() {
                b.push_str("<ul>\n");
                for f in &rec.figures {
                    let _ = writeln!(b, "<li>{}</li>", esc(f));
                }
                b.push_str("</ul>\n");
            }
            b.push_str(
                "<p>The game is over: this archive shows everything, including what was hidden \
                 during play — each seat's own view of every step and every seat's orders.</p>\n",
            );
        }
        (None, Scope::Spectator { delay }) => {
            let _ = writeln!(
                b,
                "<p>The game is under way: step {} ({}) is open. This archive shows only what a \
                 spectator may see{}.</p>",
                rec.open_step,
                esc(&rec.open_title),
                match delay {
                    0 => String::new(),
                    d => format!(", {d} step(s) behind the game"),
                }
            );
        }
        (None, Scope::Everything) => b.push_str("<p>The game ended without a result.</p>\n"),
    }
}

/// The host's commitments: every anchor, the mail key, the salt key's commitment (and the
/// key, once published).
fn dice_section(b: &mut String, rec: &GameRecord) {
    b.push_str("<h2>Dice commitment</h2>\n");
    let _ = writeln!(
        b,
        "<p>Every roll comes from {}. The host committed to its secrets before the game began:</p>",
        esc(&rec.protocol)
    );
    b.push_str("<ul>\n");
    for (from, anchor, len) in &rec.anchors {
        let _ = writeln!(
            b,
            "<li>Anchor A = <span class=\"hex\">{}</span> (from step {from}, onion length {len})</li>",
            esc(anchor)
        );
    }
    if let Some(k) = &rec.mail_key {
        let _ = writeln!(
            b,
            "<li>Mail key K (Ed25519; every mail of the game is signed with it) = <span class=\"hex\">{}</span></li>",
            esc(k)
        );
    }
    if let Some(z) = &rec.salt_commitment {
        let _ = writeln!(
            b,
            "<li>Salt key commitment Z = <span class=\"hex\">{}</span></li>",
            esc(z)
        );
    }
    if let Some(z) = &rec.salt_key {
        let _ = writeln!(
            b,
            "<li>Salt key z (published at the end) = <span class=\"hex\">{}</span></li>",
            esc(z)
        );
    }
    b.push_str("</ul>\n<p><a href=\"verify.html\">How to check every roll yourself</a></p>\n");
}

/// What the organiser announced and the press released.
fn words_section(b: &mut String, rec: &GameRecord) {
    if !rec.organiser.is_empty() {
        b.push_str("<h2>From the organiser</h2>\n<ul>\n");
        for l in &rec.organiser {
            let _ = writeln!(b, "<li>{}</li>", esc(l));
        }
        b.push_str("</ul>\n");
    }
    if !rec.press.is_empty() {
        b.push_str("<h2>Press</h2>\n<ul>\n");
        for p in &rec.press {
            let _ = writeln!(
                b,
                "<li>Step {}, {} to {}:<pre class=\"wrap\">{}</pre></li>",
                p.step,
                esc(&p.from),
                esc(&p.to),
                esc(&p.text)
            );
        }
        b.push_str("</ul>\n");
    }
}

/// The standings of the league the game counts in.
fn league_table(b: &mut String, l: &LeagueSection) {
    let _ = writeln!(b, "<h2>{}</h2>\n<div class=\"wide\"><table>", esc(&l.title));
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

/// One view's log, board and sections.
pub(super) fn view_html(b: &mut String, v: &View) {
    b.push_str("<h3>Log</h3>\n<pre class=\"wrap\">");
    if v.log.is_empty() {
        b.push_str("Nothing to report.");
    }
    for l in &v.log {
        let _ = writeln!(b, "{}", esc(l));
    }
    b.push_str("</pre>\n");
    board_and_sections(b, v, "The board");
}

/// A view's text board under `heading` (when it has one), then its sections.
pub(super) fn board_and_sections(b: &mut String, v: &View, heading: &str) {
    if !v.board.is_empty() {
        let _ = write!(b, "<h3>{heading}</h3>\n<pre class=\"board\">");
        for l in &v.board {
            let _ = writeln!(b, "{}", esc(l));
        }
        b.push_str("</pre>\n");
    }
    for (title, lines) in &v.sections {
        let _ = write!(b, "<h3>{}</h3>\n<pre class=\"wrap\">", esc(title));
        for l in lines {
            let _ = writeln!(b, "{}", esc(l));
        }
        b.push_str("</pre>\n");
    }
}

fn step(rec: &GameRecord, s: &StepRecord, prev: Option<u64>, next: Option<u64>) -> Vec<u8> {
    let mut b = String::new();
    b.push_str("<nav><a href=\"index.html\">Game index</a>");
    if let Some(p) = prev {
        let _ = write!(b, "<a href=\"{}\">Step {p}</a>", step_page(p));
    }
    if let Some(n) = next {
        let _ = write!(b, "<a href=\"{}\">Step {n}</a>", step_page(n));
    }
    b.push_str("</nav>\n");
    let _ = writeln!(
        b,
        "<h1>{} · step {}: {}</h1>\n<p>{}<br>{}</p>",
        esc(&rec.id),
        s.step,
        esc(&s.title),
        esc(&s.spectator.scenario),
        esc(&s.spectator.turn)
    );
    b.push_str("<h2>As a spectator saw it</h2>\n");
    if s.spectator.map.is_some() {
        map_img(
            &mut b,
            &map_file(s.step, None),
            &format!("The table after step {} as a spectator sees it", s.step),
        );
    }
    view_html(&mut b, &s.spectator);
    for (seat, v) in &s.seats {
        let _ = writeln!(b, "<h2>As {} saw it</h2>", esc(seat));
        if v.map.is_some() {
            map_img(
                &mut b,
                &map_file(s.step, Some(seat)),
                &format!("The table after step {} as {seat} saw it", s.step),
            );
        }
        view_html(&mut b, v);
    }
    if !s.orders.is_empty() {
        b.push_str("<h2>Orders</h2>\n");
        for (seat, o) in &s.orders {
            let _ = writeln!(
                b,
                "<h3>{}</h3>\n<pre class=\"wrap\">{}</pre>",
                esc(seat),
                esc(o.trim_end())
            );
        }
    }
    dice_html(&mut b, s);
    page(&format!("{} · step {}", rec.id, s.step), &b)
}

/// A step's dice: lock, reveal, seed, the lock's inputs and every roll.
pub(super) fn dice_html(b: &mut String, s: &StepRecord) {
    let d = &s.dice;
    let _ = writeln!(
        b,
        "<h2>Dice ({}, step {})</h2>\n<div class=\"wide\"><table>",
        esc(&d.protocol),
        s.step
    );
    let row = |b: &mut String, k: &str, v: &str| {
        let _ = writeln!(
            b,
            "<tr><th>{}</th><td class=\"hex\">{}</td></tr>",
            esc(k),
            esc(v)
        );
    };
    row(b, &format!("L_{}", s.step), &d.lock);
    row(b, &format!("v_{}", s.step), &d.reveal);
    row(b, &format!("S_{} (seed)", s.step), &d.seed);
    row(b, "lock input log_head", &d.log_head);
    for (seat, digest) in &d.inputs {
        row(b, &format!("lock input {seat}"), digest);
    }
    b.push_str("</table></div>\n");
    if d.rolls.is_empty() {
        b.push_str("<p>No dice were rolled in this step.</p>\n");
    } else {
        b.push_str(
            "<div class=\"wide\"><table>\n<tr><th>j</th><th>Roll</th><th>Die</th><th>Results</th></tr>\n",
        );
        for r in &d.rolls {
            let _ = writeln!(
                b,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                r.j,
                esc(&r.label),
                esc(&r.faces.label()),
                esc(&r
                    .results
                    .iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(", "))
            );
        }
        b.push_str("</table></div>\n");
    }
}

fn verify(rec: &GameRecord, journal: bool) -> Vec<u8> {
    let mut b = String::new();
    b.push_str(
        "<nav><a href=\"index.html\">Game index</a></nav>\n<h1>Check every roll yourself</h1>\n",
    );
    let _ = writeln!(
        b,
        "<p>Every die of game {} comes from the dice protocol {}: the host committed to its \
         secrets (the anchor on the <a href=\"index.html\">index</a>) before the game began, and \
         each step's page shows the lock, the reveal, the seed and every roll.</p>",
        esc(&rec.id),
        esc(&rec.protocol)
    );
    b.push_str(
        "<h2>With Despatch</h2>\n<p>Keep the mails of the game (a player's, or a spectator's) \
         in one folder and run:</p>\n<pre>despatch verify &lt;folder of the mails&gt;</pre>\n\
         <p>It checks every seal, lock, seed and roll, and the chain of reveals back to the \
         anchor. Once the game is over, the game-over mail carries the journal, and the whole \
         game is replayed from it: every mail is held against the replay.</p>\n",
    );
    b.push_str(
        "<h2>In a web browser</h2>\n<p>Open <a href=\"verifier.html\">the dice checker</a> \
         (one self-contained page: nothing is sent anywhere) and drop the game's mails on it. \
         It re-computes every die on your own computer. The same page is attached to every \
         game-over mail as verify.html; docs/dice-protocol.md describes the protocol.</p>\n",
    );
    if journal {
        b.push_str(
            "<h2>The journal</h2>\n<p>The game is over, so its whole journal is public: \
             <a href=\"journal.jsonl\">journal.jsonl</a> (every order, lock and roll, in \
             order). It is the file the game-over mail carries.</p>\n",
        );
    }
    page(&format!("Check the dice of {}", rec.id), &b)
}
