//! The archive (issue 16, point 6): a static web site of one game, built by pure functions from
//! its journal and the replay of it. During play it holds only what a spectator may see, and
//! only the steps the spectators' delay has released; once the game is over it holds
//! everything — each seat's own view of every step (so every hidden fact any seat knew), every
//! seat's orders, the journal itself and the published salt key (ruling W4 in docs/watching.md).
//! During play the same replay also gives the live site's private pages (`seat`): each seat's
//! own view of every resolved step, behind a code only that seat's mails carry (issue 31
//! point 2). The shell writes the files (see `daemon::archive`, `daemon::site`); nothing here
//! touches the disk.

mod index;
mod pages;

use chrono::{DateTime, Utc};
mod seat;

use crate::dice::{self, Roll};
use crate::engine::registry::parse_line;
use crate::engine::{Event, Outcome, Play, Registry, ReplayError, SeatEntry, View, Viewer};

pub use crate::report::codes::{calendar_code, seat_code};
pub use index::{GameSummary, campaigns_page, leagues_page, site_index};
pub use pages::esc;
pub use seat::{SeatPage, placeholder_page};

/// A league's standings, handed in by whoever keeps leagues; shown on the index as is (the
/// archive neither computes nor stores them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeagueSection {
    pub title: String,
    /// The table's header cells, then one row per member.
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

/// One press message as the archive lists it (issue 16, point 2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PressEntry {
    pub step: u64,
    pub from: String,
    pub to: String,
    pub text: String,
}

/// The press of a game the archive may show (issue 16, point 2): only what a spectator may
/// read (`engine::press::may_read` — nothing while the game runs) and only messages whose text
/// the journal kept (`press_record = "text"`); under `digest` the words stayed with their
/// readers, and the archive says no more than the journal's digest line would.
pub fn press_entries(events: &[Event], over: bool) -> Vec<PressEntry> {
    events
        .iter()
        .filter(|ev| crate::engine::press::may_read(ev, &crate::engine::Viewer::Spectator, over))
        .filter_map(|ev| match ev {
            Event::Press {
                step,
                from,
                to,
                gm,
                text: Some(text),
                ..
            } => {
                let mut names = to.clone();
                if *gm {
                    names.push("gm".into());
                }
                Some(PressEntry {
                    step: *step,
                    from: from.clone(),
                    to: names.join(", "),
                    text: text.clone(),
                })
            }
            _ => None,
        })
        .collect()
}

/// Which views a site is built from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// During play: the spectator view, steps released by the delay only.
    Spectator { delay: u32 },
    /// After the end: every seat's view too, the orders and the journal.
    Everything,
}

/// The dice of one resolved step, as its results mail prints them.
#[derive(Debug, Clone)]
pub struct StepDice {
    pub protocol: String,
    pub lock: String,
    pub log_head: String,
    /// Each seat's orders digest in the lock (`-` for no orders).
    pub inputs: Vec<(String, String)>,
    pub reveal: String,
    pub seed: String,
    pub rolls: Vec<Roll>,
}

/// One resolved step.
#[derive(Debug, Clone)]
pub struct StepRecord {
    pub step: u64,
    pub title: String,
    pub spectator: View,
    /// Each seat's own view (empty in the spectator scope).
    pub seats: Vec<(String, View)>,
    /// Each seat's orders for the step (empty in the spectator scope).
    pub orders: Vec<(String, String)>,
    pub dice: StepDice,
}

/// Everything a site shows, from the replay.
#[derive(Debug, Clone)]
pub struct GameRecord {
    pub id: String,
    pub ruleset: String,
    pub scenario: String,
    pub seats: Vec<SeatEntry>,
    pub protocol: String,
    /// (from step, anchor, onion length) of every onion committed.
    pub anchors: Vec<(u64, String, u64)>,
    pub salt_commitment: Option<String>,
    /// `K`, the public key that signs every mail (games made since mails are signed).
    pub mail_key: Option<String>,
    /// Published at the end (v2).
    pub salt_key: Option<String>,
    pub outcome: Option<Outcome>,
    pub figures: Vec<String>,
    /// The open step and its title (during play).
    pub open_step: u64,
    pub open_title: String,
    pub scope: Scope,
    /// Steps resolved in all (the site may show fewer during play).
    pub resolved: u64,
    pub steps: Vec<StepRecord>,
    pub press: Vec<PressEntry>,
    /// The organiser's pauses, resumptions and messages to every seat, one line each, in
    /// journal order (never a message's words: those went to the seats alone).
    pub organiser: Vec<String>,
    /// The pause in force (during play): when and why.
    pub paused: Option<(DateTime<Utc>, String)>,
}

/// A site: relative paths and their bytes.
#[derive(Debug, Clone, Default)]
pub struct Site {
    pub files: Vec<(String, Vec<u8>)>,
    /// Files of the site left as they already are: the maps the caller said were written
    /// (`live_site`'s `drawn`), never drawn again. Part of the site all the same.
    pub kept: Vec<String>,
}

impl Site {
    pub fn file(&self, name: &str) -> Option<&[u8]> {
        self.files
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, b)| b.as_slice())
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ArchiveError {
    #[error("the journal is empty")]
    Empty,
    #[error("the journal does not replay: {0}")]
    Replay(#[from] ReplayError),
    #[error("{0}")]
    Ruleset(String),
}

/// A step's lock as the journal gave it: `L_k`, the log head and each seat's digest.
type LockSeen = (String, String, Vec<(String, String)>);

/// The journal replayed once: every resolved step with every seat's view and orders (nothing
/// trimmed yet), each seat's view right after the game's creation (what its welcome showed),
/// and the game as it stands at the end.
struct Replayed {
    game: Box<dyn Play>,
    steps: Vec<StepRecord>,
    events: Vec<Event>,
    start: Vec<(String, View)>,
}

/// Replays `lines` (the journal) and records what the site may show.
pub fn record(registry: &Registry, lines: &[String]) -> Result<GameRecord, ArchiveError> {
    let r = replay(registry, lines)?;
    Ok(finish(r.game.as_ref(), r.steps, &r.events))
}

fn replay(registry: &Registry, lines: &[String]) -> Result<Replayed, ArchiveError> {
    let first_line = lines.first().ok_or(ArchiveError::Empty)?;
    let first = parse_line(0, first_line)?;
    let Event::GameCreated { ruleset, .. } = &first else {
        return Err(ArchiveError::Ruleset(
            "the journal does not begin with the game's creation".into(),
        ));
    };
    let entry = registry
        .get(ruleset)
        .map_err(|e| ArchiveError::Ruleset(e.to_string()))?;
    let mut game = entry.open(&first, first_line)?;
    let start = seat_views(game.as_ref());
    let mut events = vec![first.clone()];
    // Everything of every resolved step; trimmed to the scope at the end.
    let mut steps: Vec<StepRecord> = Vec::new();
    let mut last_lock: Option<LockSeen> = None;
    let mut orders: Vec<(String, String)> = Vec::new();
    for (i, line) in lines.iter().enumerate().skip(1) {
        let ev = parse_line(i as u64, line)?;
        game.apply(&ev, line, i as u64)?;
        match &ev {
            Event::Submission {
                seat, orders: o, ..
            } => {
                orders.retain(|(s, _)| s != seat);
                orders.push((seat.clone(), o.clone()));
            }
            // Standing orders sent outside a step (ruling SO1) show beside the step's orders.
            Event::Standing {
                seat, orders: o, ..
            } => orders.push((
                format!("{seat} (standing orders, outside the step)"),
                o.clone(),
            )),
            Event::Lock {
                lock,
                log_head,
                seats,
                ..
            } => {
                let inputs = seats
                    .iter()
                    .map(|e| {
                        let d = if e.digest.is_empty() {
                            "-".to_string()
                        } else {
                            e.digest.clone()
                        };
                        (e.seat.clone(), d)
                    })
                    .collect();
                last_lock = Some((lock.clone(), log_head.clone(), inputs));
            }
            Event::Results {
                step,
                reveal,
                seed,
                rolls,
                ..
            } => {
                let (lock, log_head, inputs) = last_lock.take().unwrap_or_default();
                steps.push(StepRecord {
                    step: *step,
                    title: game.book().last_step_title.clone(),
                    spectator: game.view(&Viewer::Spectator),
                    seats: seat_views(game.as_ref()),
                    orders: std::mem::take(&mut orders),
                    dice: StepDice {
                        protocol: game.book().protocol.name().to_string(),
                        lock,
                        log_head,
                        inputs,
                        reveal: reveal.clone(),
                        seed: seed.clone(),
                        rolls: rolls.clone(),
                    },
                });
            }
            _ => {}
        }
        events.push(ev);
    }
    Ok(Replayed {
        game,
        steps,
        events,
        start,
    })
}

fn seat_views(game: &dyn Play) -> Vec<(String, View)> {
    game.book()
        .seats
        .iter()
        .map(|s| (s.seat.clone(), game.view(&Viewer::Seat(s.seat.clone()))))
        .collect()
}

/// Whether the game is over for the archive: everything may be shown (ruling W4).
pub fn shows_everything(game: &dyn Play) -> bool {
    let book = game.book();
    book.ended || (game.is_over() && book.protocol == dice::Protocol::V1)
}

fn finish(game: &dyn Play, mut steps: Vec<StepRecord>, events: &[Event]) -> GameRecord {
    let book = game.book();
    let over = shows_everything(game);
    let scope = if over {
        Scope::Everything
    } else {
        Scope::Spectator {
            delay: book.policy.club.spectator_delay_steps,
        }
    };
    let resolved = steps.last().map_or(0, |s| s.step);
    if let Scope::Spectator { delay } = scope {
        // The delay holds here as in the observers' mails; nothing but the spectator view.
        let shown = resolved.saturating_sub(u64::from(delay));
        steps.retain(|s| s.step <= shown);
        for s in &mut steps {
            s.seats.clear();
            s.orders.clear();
        }
    }
    GameRecord {
        id: book.id.clone(),
        ruleset: game.ruleset().to_string(),
        scenario: book.scenario.clone(),
        seats: book.seats.clone(),
        protocol: book.protocol.name().to_string(),
        anchors: book
            .onions
            .iter()
            .map(|o| (o.from_step, dice::to_hex(&o.anchor), o.len))
            .collect(),
        salt_commitment: book.salt_commitment.as_ref().map(dice::to_hex),
        mail_key: book.mail_key.as_ref().map(dice::to_hex),
        salt_key: book.salt_key.as_ref().filter(|_| over).map(dice::to_hex),
        outcome: if over { game.outcome() } else { None },
        figures: if over { game.victory_figures() } else { vec![] },
        open_step: book.step,
        open_title: if over {
            String::new()
        } else {
            game.spec().title
        },
        scope,
        resolved,
        steps,
        press: press_entries(events, over),
        organiser: organiser_lines(events),
        paused: book
            .club
            .paused
            .as_ref()
            .filter(|_| !over)
            .map(|p| (p.at, p.reason.clone())),
    }
}

/// What the organiser did that a reader of the game should see (issue 31 point 4): the clock
/// stopped and started again, and that every seat was written to.
pub fn organiser_lines(events: &[Event]) -> Vec<String> {
    let when = |t: &DateTime<Utc>| t.format("%a %-d %b %Y %H:%M UTC").to_string();
    events
        .iter()
        .filter_map(|ev| match ev {
            Event::GamePaused { step, reason, at } => Some(format!(
                "Step {step}: paused by the organiser on {} ({reason}).",
                when(at)
            )),
            Event::GameResumed { step, deadline, at } => Some(match deadline {
                Some(d) => format!(
                    "Step {step}: resumed on {}; the step's deadline is {}.",
                    when(at),
                    when(d)
                ),
                None => format!("Step {step}: resumed on {}.", when(at)),
            }),
            Event::GmBroadcast { step, .. } => {
                Some(format!("Step {step}: the organiser wrote to every seat."))
            }
            _ => None,
        })
        .collect()
}

/// The whole site of a game from its journal: index, one page per step shown (with its map),
/// the verify page, the browser verifier and — after the end — the journal.
pub fn build_site(
    registry: &Registry,
    lines: &[String],
    league: Option<&LeagueSection>,
) -> Result<Site, ArchiveError> {
    let rec = record(registry, lines)?;
    let journal = (rec.scope == Scope::Everything).then(|| {
        lines
            .iter()
            .map(|l| format!("{l}\n"))
            .collect::<String>()
            .into_bytes()
    });
    Ok(pages::site(&rec, league, journal, None, &Drawn::new()))
}

/// The maps (relative paths) a live site already holds, written whole from this game's
/// journal: a map shows a resolved step (or the start) as one viewer saw it, which no later
/// event changes, so `live_site` keeps them rather than drawing every past step again.
pub type Drawn = std::collections::BTreeSet<String>;

/// Pushes the map `name` to `files`, drawn from `scene`, unless `drawn` holds it (then to
/// `kept`): what makes a step's rewrite draw only the step's own maps.
pub(crate) fn map_or_kept(
    files: &mut Vec<(String, Vec<u8>)>,
    kept: &mut Vec<String>,
    drawn: &Drawn,
    name: String,
    scene: &crate::engine::scene::Scene,
) {
    if drawn.contains(&name) {
        kept.push(name);
    } else {
        files.push((name, crate::render::svg(scene).into_bytes()));
    }
}

/// A game's files in the live site (issue 31 point 2), from one replay of its journal: the
/// public pages (`build_site`'s, linked up to the site's index), `game.json` (what the site's
/// index says of the game), and one private page per seat in `seats` under `s/<code>/`, with
/// `s/index.html` so that no server lists the codes. Ordered for writing one file at a time:
/// what a page links to comes before the page, and the game's `index.html` last, so a reader
/// following links never meets a page that is not there yet. The maps in `drawn` (as the
/// site's folder holds them, written from this journal) are not drawn again: `Site::kept`.
pub fn live_site(
    registry: &Registry,
    lines: &[String],
    league: Option<&LeagueSection>,
    seats: &[SeatPage],
    drawn: &Drawn,
) -> Result<(Site, GameSummary), ArchiveError> {
    let r = replay(registry, lines)?;
    let league_name = r.game.book().policy.club.league.clone();
    let now = seat::Now::of(r.game.as_ref());
    let private = seat::pages(&r.steps, &r.start, &now, seats, drawn);
    let rec = finish(r.game.as_ref(), r.steps, &r.events);
    let journal = (rec.scope == Scope::Everything).then(|| {
        lines
            .iter()
            .map(|l| format!("{l}\n"))
            .collect::<String>()
            .into_bytes()
    });
    let summary = GameSummary::of(&rec, league_name.clone());
    let up = pages::Up {
        league: league_name.filter(|_| league.is_none()),
    };
    let public = pages::site(&rec, league, journal, Some(&up), drawn);
    let mut kept = public.kept;
    kept.extend(private.kept);
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    let mut last = Vec::new();
    for (name, bytes) in public.files {
        if name == "index.html" {
            last.push((name, bytes));
        } else {
            files.push((name, bytes));
        }
    }
    files.extend(private.files);
    files.push((
        "game.json".into(),
        serde_json::to_vec_pretty(&summary).unwrap_or_default(),
    ));
    files.extend(last);
    Ok((Site { files, kept }, summary))
}
