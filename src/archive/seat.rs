//! A seat's private page in the live site (issue 31 point 2), pure: what that seat's own mails
//! show — its view of each resolved step (log, board, sections, map), its orders as its
//! receipts echoed them, each step's dice, and now its prompt and deadline — and nothing else:
//! no other seat's view, no spectator's. The page sits at `s/<code>/`, where the code is
//! derived from the seat's secret (`seat_code`); this module never sees a secret, only codes.

use std::fmt::Write as _;

use chrono::{DateTime, Utc};

use crate::engine::{Play, View};

use super::pages::{board_and_sections, dice_html, esc, map_img, page_with, view_html};
use super::{Drawn, Site, StepRecord, map_or_kept};

/// One seat's private page as the shell hands it in: the seat, its page's code and the time
/// zone its mails give deadlines in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatPage {
    pub seat: String,
    /// `seat_code` of the seat's token: 32 hex digits.
    pub code: String,
    pub time_zone: String,
    /// The code of the player's calendar feed (`calendar_code`), linked from the page as
    /// `<site root>/cal/<code>.ics`, when the shell wrote one.
    pub calendar: Option<String>,
}

fn is_code(c: &str) -> bool {
    c.len() == 32 && c.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The game as it stands at the end of the journal, as the seats' latest mails tell it.
pub(super) struct Now {
    id: String,
    open_step: u64,
    open_title: String,
    /// The result, once the game is over.
    over: Option<String>,
    deadline: Option<DateTime<Utc>>,
    /// Each seat's side and what its mail asks of it now (`mail::compose::prompt_text`).
    seats: Vec<(String, String, Option<String>)>,
}

impl Now {
    pub(super) fn of(game: &dyn Play) -> Now {
        let book = game.book();
        let over = game.is_over();
        Now {
            id: book.id.clone(),
            open_step: book.step,
            open_title: if over {
                String::new()
            } else {
                game.spec().title
            },
            over: over.then(|| {
                game.outcome()
                    .map(|o| o.summary)
                    .unwrap_or_else(|| "The game is over.".into())
            }),
            deadline: book.deadline,
            seats: book
                .seats
                .iter()
                .map(|s| {
                    (
                        s.seat.clone(),
                        s.side.clone(),
                        crate::mail::compose::prompt_text(game, &s.seat),
                    )
                })
                .collect(),
        }
    }
}

/// Every seat's private page and its maps, and `s/index.html`, which a server shows instead
/// of listing the codes. A seat the game does not know, or a code that is not 32 hex digits,
/// gets no page. The maps in `drawn` are kept, not drawn.
pub(super) fn pages(
    steps: &[StepRecord],
    start: &[(String, View)],
    now: &Now,
    seats: &[SeatPage],
    drawn: &Drawn,
) -> Site {
    let mut kept = Vec::new();
    let mut files = vec![(
        "s/index.html".to_string(),
        placeholder_page("Each seat's page has an address of its own, in that seat's mails."),
    )];
    for p in seats {
        let well_formed = is_code(&p.code);
        let Some((_, side, prompt)) = now.seats.iter().find(|(s, _, _)| *s == p.seat) else {
            continue;
        };
        if !well_formed {
            continue;
        }
        let dir = format!("s/{}", p.code);
        let mut maps = Vec::new();
        let mut b = String::new();
        let _ = writeln!(
            b,
            "<nav><a href=\"../../index.html\">The game's public page</a></nav>\n\
             <h1>Game {}: your seat, {}</h1>\n<p>You play {} ({}). This page shows what your \
             mails show, and is brought up to date after every step. It is yours alone: anyone \
             with its address sees what you see, so keep it to yourself.</p>",
            esc(&now.id),
            esc(&p.seat),
            esc(&p.seat),
            esc(side)
        );
        if let Some(cal) = p.calendar.as_deref().filter(|c| is_code(c)) {
            let _ = writeln!(
                b,
                "<p><a href=\"../../../cal/{cal}.ics\">Your calendar</a>: every deadline of \
                 every game you play, one feed for a calendar app to subscribe to (yours alone \
                 too).</p>"
            );
        }
        now_section(&mut b, now, p, prompt.as_deref());
        for s in steps.iter().rev() {
            let Some((_, v)) = s.seats.iter().find(|(seat, _)| *seat == p.seat) else {
                continue;
            };
            let _ = writeln!(b, "<h2>Step {}: {}</h2>", s.step, esc(&s.title));
            let _ = writeln!(b, "<p>{}<br>{}</p>", esc(&v.scenario), esc(&v.turn));
            if let Some(scene) = &v.map {
                let name = format!("maps/step-{:03}.svg", s.step);
                map_img(
                    &mut b,
                    &name,
                    &format!("The table after step {} as you saw it", s.step),
                );
                map_or_kept(&mut maps, &mut kept, drawn, format!("{dir}/{name}"), scene);
            }
            view_html(&mut b, v);
            if let Some((_, o)) = s.orders.iter().find(|(seat, _)| *seat == p.seat) {
                let _ = writeln!(
                    b,
                    "<h3>Your orders (as your receipt gave them)</h3>\n<pre class=\"wrap\">{}</pre>",
                    esc(o.trim_end())
                );
            }
            dice_html(&mut b, s);
        }
        if let Some((_, v)) = start.iter().find(|(seat, _)| *seat == p.seat) {
            b.push_str("<h2>At the start (your welcome)</h2>\n");
            if let Some(scene) = &v.map {
                let name = "maps/start.svg";
                map_img(&mut b, name, "The table at the start as you saw it");
                map_or_kept(&mut maps, &mut kept, drawn, format!("{dir}/{name}"), scene);
            }
            board_and_sections(&mut b, v, "The table as you saw it");
        }
        files.extend(maps);
        files.push((
            format!("{dir}/index.html"),
            page_with(&format!("{} · {}", now.id, p.seat), ROBOTS, &b),
        ));
    }
    Site { files, kept }
}

/// What is open now and what is asked of the seat (or the result, once the game is over).
fn now_section(b: &mut String, now: &Now, p: &SeatPage, prompt: Option<&str>) {
    b.push_str("<h2>Now</h2>\n");
    match &now.over {
        Some(result) => {
            let _ = writeln!(
                b,
                "<p class=\"result\">{}</p>\n<p>The game is over: <a href=\"../../index.html\">\
                 its public page</a> now shows everything, every seat's view included.</p>",
                esc(result)
            );
        }
        None => {
            let _ = writeln!(
                b,
                "<p>Step {} ({}) is open.</p>",
                now.open_step,
                esc(&now.open_title)
            );
            match prompt {
                Some(text) => {
                    let _ = writeln!(
                        b,
                        "<h3>Your orders now</h3>\n<pre class=\"wrap\">{}</pre>",
                        esc(text)
                    );
                    if let Some(d) = now.deadline {
                        let _ = writeln!(
                            b,
                            "<p>Deadline: {}</p>",
                            esc(&crate::report::fmt_time(d, &p.time_zone))
                        );
                    }
                    b.push_str(
                        "<p>Send your orders by mail, as a reply to the game's latest mail \
                         to you.</p>\n",
                    );
                }
                None => b.push_str("<p>No orders are asked of you now.</p>\n"),
            }
        }
    }
}

/// The page a folder of private pages holds as its `index.html`, so that a web server shows it
/// instead of a listing of the codes (even with `autoindex on`).
pub fn placeholder_page(text: &str) -> Vec<u8> {
    page_with(
        "Nothing to list",
        ROBOTS,
        &format!("<p>{}</p>\n", esc(text)),
    )
}

/// No search engine keeps a private page, and following a link from it sends no address
/// (its code) to the site linked.
const ROBOTS: &str = "<meta name=\"robots\" content=\"noindex, nofollow\">\n\
                      <meta name=\"referrer\" content=\"no-referrer\">\n";
