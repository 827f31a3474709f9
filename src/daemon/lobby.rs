//! The lobby by mail (issue 31 point 1; docs/club-rules.md G1–G9): a mail to the house address
//! whose first line is `GAMES`, `OPEN`, `JOIN`, `LEAVE`, `APPROVE` or `REFUSE`. This proves
//! who sent it (the reply to the member's own lobby address), hands the acts to
//! `engine::lobby`, and returns the decision: the book to write and the letters to send. The
//! clock's part (tables that lapse, full tables that start) is `lobby_pass`. Never mails an
//! address that has not proved its mailbox more than the flood cap allows (ruling F1).

use std::collections::BTreeMap;

use anyhow::Result;
use chrono::{DateTime, Duration, Utc};
use tracing::{info, warn};

use crate::engine::lobby::{self, Act, Offer, Rules, Table};
use crate::mail::compose;
use crate::mail::inbound::Inbound;
use crate::mail::inbound::lobby::{LobbyLine, lobby_lines};
use crate::mail::outbound::{self, Outgoing};
use crate::store::{LobbyBook, LobbyMember};

use super::Daemon;
use super::decision::{Decision, Intake};
use super::intake::ct_eq;

/// Hours a line sent without the lobby secret waits for the reply that proves the mailbox.
const PENDING_HOURS: i64 = 72;

impl Daemon {
    /// A mail for the lobby. Reads the store; writes nothing (the decision carries the book).
    pub(super) fn lobby_mail(
        &self,
        inb: &Inbound,
        token: Option<&str>,
        now: DateTime<Utc>,
    ) -> Result<Decision> {
        let (over, stranger) = self.stranger_over_budget(inb, now);
        if over {
            let mut d = Decision::only(Intake::RateLimited);
            d.stranger = Some((inb.from.clone(), stranger));
            return Ok(d);
        }
        let mut book = self.data.lobby_book()?;
        let from = inb.from.to_ascii_lowercase();
        if !book.first_sight(&inb.message_id) {
            return Ok(Decision::only(Intake::Duplicate));
        }
        let proven = token.is_some_and(|t| {
            book.members
                .get(&from)
                .is_some_and(|m| ct_eq(m.token.as_bytes(), t.as_bytes()))
        });
        let lines = lobby_lines(&inb.body);
        let mut d = Decision::only(Intake::Lobby("read"));
        d.stranger = Some((inb.from.clone(), stranger));
        let offers = self.lobby_offers();
        let games = self.data.game_ids()?;
        let leagues = self.league_names();
        let organiser = self.cfg.mail.gm_address.as_deref().map(bare_address);
        let rules = Rules {
            who: self.cfg.lobby.open,
            members: &self.cfg.lobby.members,
            organiser: organiser.as_deref(),
            expire_hours: self.cfg.lobby.expire_hours,
            pace_hours: self.cfg.lobby.pace_hours,
            open_per_member: self.cfg.lobby.open_per_member,
            offers: &offers,
            games: &games,
            leagues: &leagues,
        };
        let mut letters = Letters::default();
        if proven {
            let (word, text) = proven_answer(&mut book, &rules, inb, lines, now, &mut letters);
            d.intake = Intake::Lobby(word);
            letters.add(&from, text);
        } else {
            let (word, text) =
                unproven_answer(&mut book, &rules, &from, &lines, now, &mut letters)?;
            d.intake = Intake::Lobby(word);
            let Some(text) = text else {
                book_only(&mut d, book);
                return Ok(d);
            };
            // The From may be forged: this answers an address that did not provably ask (F1).
            if !self.may_answer(&from, "lobby", now, &mut d.answered) {
                d.intake = Intake::RateLimited;
                return Ok(d);
            }
            letters.add(&from, text);
        }
        d.letters = self.lobby_letters(&mut book, letters, inb, now)?;
        book_only(&mut d, book);
        Ok(d)
    }

    /// The clock's part, every pass: tables whose time ran out lapse (everyone seated told),
    /// full tables start (their game made, with its welcomes), and a table whose game exists
    /// already (a crash between making it and writing the book) is dropped.
    pub(super) fn lobby_pass(&self, now: DateTime<Utc>) -> Result<()> {
        if !self.data.has_lobby() {
            return Ok(());
        }
        let mut book = self.data.lobby_book()?;
        // Every pass comes here: with no table waiting it costs one small read, never a look
        // at every game (a host of 10,000 games pays per pass only for what is due).
        if book.tables.is_empty() {
            return Ok(());
        }
        let before = book.clone();
        book.tables.retain(|t| !self.data.game(&t.id).exists());
        let mut letters = Letters::default();
        for (to, text) in lobby::lapse(&mut book.tables, now) {
            letters.add(&to, text);
        }
        let ready: Vec<Table> = book
            .tables
            .iter()
            .filter(|t| lobby::is_ready(t))
            .cloned()
            .collect();
        for t in ready {
            match self.start_table(&t, now) {
                Ok(()) => {
                    info!(game = %t.id, "a game opened by mail starts");
                    book.tables.retain(|x| x.id != t.id);
                }
                Err(e) => {
                    // Taken out and its players told once: left in, it would fail again at
                    // every pass. The log keeps the reason for the organiser.
                    warn!(game = %t.id, "a full table could not start: {e:#}");
                    book.tables.retain(|x| x.id != t.id);
                    let why = compose::table_not_started(&t.id, &format!("{e:#}"));
                    for c in &t.chairs {
                        if let Some(tk) = &c.taker {
                            letters.add(&tk.address, why.clone());
                        }
                    }
                }
            }
        }
        if book == before {
            return Ok(());
        }
        let house = self.data.house();
        let key = format!("pass-{}", now.timestamp());
        let inb = Inbound {
            message_id: key.clone(),
            ..Inbound::default()
        };
        let out = self.lobby_letters(&mut book, letters, &inb, now)?;
        self.data.write_lobby_book(&book)?;
        // The site's index lists the games wanting players.
        self.site_index_after_lobby();
        self.queue_letters(&house, &out)
    }

    /// Makes the game a full table stands for, with the usual welcomes (for a campaign, the
    /// campaign named as the table and its first battle).
    fn start_table(&self, t: &Table, now: DateTime<Utc>) -> Result<()> {
        let seats: Vec<(String, String)> = t
            .chairs
            .iter()
            .filter_map(|c| {
                let tk = c.taker.as_ref()?;
                let named = tk
                    .name
                    .as_ref()
                    .map(|n| format!("\"{}\" <{}>", n.replace(['"', '\\'], ""), tk.address))
                    .filter(|m| m.parse::<crate::config::address::Mailbox>().is_ok());
                Some((c.seat.clone(), named.unwrap_or_else(|| tk.address.clone())))
            })
            .collect();
        if let Some(plan) = t.scenario.strip_prefix(lobby::CAMPAIGN_PREFIX) {
            let req = super::CampaignNew {
                name: t.id.clone(),
                ruleset: t.ruleset.clone(),
                plan: super::PlanSource::Shipped(plan.to_string()),
                seats,
                league: t.league.clone(),
                gm: None,
            };
            return self.create_campaign(&req, now).map(|_| ());
        }
        let extras = super::NewGame {
            league: t.league.clone(),
            carry_from: None,
            gm: None,
            campaign: None,
        };
        let tokens = seats
            .iter()
            .map(|_| crate::store::new_token())
            .collect::<Result<Vec<_>, _>>()?;
        let req = super::campaign::Request {
            id: &t.id,
            ruleset: &t.ruleset,
            scenario: &t.scenario,
            seats: &seats,
            tokens: &tokens,
            extras: &extras,
            pace: t.pace,
        };
        let secrets = crate::dice::GameSecrets::generate(&t.id, self.cfg.games.onion_len)?;
        self.create_planned(&req, now, secrets)
    }

    /// Every scenario of every ruleset this build plays that names its seats.
    pub fn lobby_offers(&self) -> Vec<Offer> {
        let mut out = vec![];
        for name in self.registry.names() {
            let Ok(dir) = self.cfg.ruleset_dir(name) else {
                continue;
            };
            let Ok(rd) = std::fs::read_dir(dir.join("scenarios")) else {
                continue;
            };
            let mut files: Vec<_> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
            files.sort();
            for p in files {
                if p.extension().is_none_or(|e| e != "toml") {
                    continue;
                }
                let Some(stem) = p.file_stem().map(|s| s.to_string_lossy().into_owned()) else {
                    continue;
                };
                if let Ok(text) = std::fs::read_to_string(&p)
                    && let Some(o) = lobby::offer_from_toml(name, &stem, &text)
                {
                    out.push(o);
                }
            }
            out.extend(self.campaign_offers(name, &dir));
        }
        out
    }

    /// The campaigns a ruleset ships, as the lobby offers them: every seat of every battle.
    fn campaign_offers(&self, ruleset: &str, dir: &std::path::Path) -> Vec<Offer> {
        let Ok(rd) = std::fs::read_dir(dir.join("campaigns")) else {
            return vec![];
        };
        let mut files: Vec<_> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
        files.sort();
        let mut out = vec![];
        for p in files
            .iter()
            .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        {
            let (Some(stem), Ok(text)) = (
                p.file_stem().map(|s| s.to_string_lossy().into_owned()),
                std::fs::read_to_string(p),
            ) else {
                continue;
            };
            let Ok(plan) = crate::engine::campaign_plan::Plan::parse(&text) else {
                continue;
            };
            let mut seats: Vec<(String, String)> = vec![];
            for b in &plan.battle {
                let f = dir.join("scenarios").join(format!("{}.toml", b.scenario));
                let Some(o) = std::fs::read_to_string(f)
                    .ok()
                    .and_then(|t| lobby::offer_from_toml(ruleset, &b.scenario, &t))
                else {
                    continue;
                };
                for s in o.seats {
                    if !seats.iter().any(|(x, _)| *x == s.0) {
                        seats.push(s);
                    }
                }
            }
            out.push(Offer {
                ruleset: ruleset.to_string(),
                scenario: format!("{}{stem}", lobby::CAMPAIGN_PREFIX),
                title: compose::campaign_offer_title(&plan.title, plan.longest()),
                seats,
            });
        }
        out
    }

    /// The leagues that exist (`<data_dir>/leagues/<L>.toml`).
    fn league_names(&self) -> Vec<String> {
        let Ok(rd) = std::fs::read_dir(self.data.root.join("leagues")) else {
            return vec![];
        };
        let mut v: Vec<String> = rd
            .filter_map(|e| e.ok())
            .filter_map(|e| {
                let p = e.path();
                if p.extension()? != "toml" {
                    return None;
                }
                Some(p.file_stem()?.to_string_lossy().into_owned())
            })
            .collect();
        v.sort();
        v
    }

    /// One letter per address, each with the address's own lobby reply address (a member
    /// record is made for an address written to for the first time, the organiser's too).
    fn lobby_letters(
        &self,
        book: &mut LobbyBook,
        letters: Letters,
        inb: &Inbound,
        now: DateTime<Utc>,
    ) -> Result<Vec<(String, Outgoing)>> {
        let (local, domain) = self.cfg.address_parts();
        let mut out = vec![];
        for (i, (to, paras)) in letters.0.into_iter().enumerate() {
            // Only an address the lobby has reason to know gets a lobby secret: one that
            // asked to act (its lines wait for the reply), one seated at a table, a listed
            // member, the organiser. A refused or merely curious stranger is answered without one, so
            // forged mail cannot grow the book (one record per forged From).
            let known = book.members.contains_key(&to)
                || book.tables.iter().any(|t| {
                    t.chairs
                        .iter()
                        .any(|c| c.taker.as_ref().is_some_and(|tk| tk.address == to))
                })
                || self
                    .cfg
                    .mail
                    .gm_address
                    .as_deref()
                    .is_some_and(|g| bare_address(g) == to)
                || self.cfg.lobby.members.iter().any(|m| bare_address(m) == to);
            let token = if known {
                Some(member(book, &to)?.token.clone())
            } else {
                None
            };
            // Laid out as every unsealed answer is (72 columns; indented lines kept).
            let mut body = paras.join("\n");
            if let Some(url) = self.cfg.site_url() {
                // The club's site lists the games wanting players; a game's own page exists
                // from its start (issue 31 point 1: "gets the game's id and its page").
                body.push_str(&compose::lobby_site_line(url));
            }
            let mut text = crate::report::fit_text(&crate::report::wrap_text(&body));
            text.push_str(compose::LOBBY_FOOT);
            let subject = compose::lobby_subject(&paras);
            let subject = subject.as_str();
            let mut o = self.letter(&to, subject, &text, inb, now);
            o.message_id = outbound::message_id(&[&inb.message_id, subject, &to], &domain);
            o.reply_to = token.map(|t| format!("{local}+lobby.{t}@{domain}"));
            if i > 0 || to != inb.from.to_ascii_lowercase() {
                // A note to someone else answers no mail of theirs.
                o.in_reply_to = None;
                o.references = vec![];
            }
            let key: String = crate::dice::to_hex(&sha(&[&inb.message_id, &to]))[..16].to_string();
            out.push((format!("lobby-{key}"), o));
        }
        Ok(out)
    }
}

fn sha(parts: &[&str]) -> [u8; 32] {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    for p in parts {
        h.update(p.as_bytes());
        h.update([0]);
    }
    h.finalize().into()
}

/// A lobby mail without the sender's lobby secret (the From may be forged): the intake word,
/// and the answer, None when there is nothing to answer. GAMES alone is answered; an act is
/// kept pending until the reply from the member's own lobby address proves the mailbox.
fn unproven_answer(
    book: &mut LobbyBook,
    rules: &Rules<'_>,
    from: &str,
    lines: &[LobbyLine],
    now: DateTime<Utc>,
    letters: &mut Letters,
) -> Result<(&'static str, Option<String>)> {
    let acts_something = lines
        .iter()
        .any(|(_, a)| !matches!(a, Ok(Act::Games) | Err(_)));
    if lines.is_empty() {
        return Ok(("nothing", None));
    }
    if !acts_something {
        let text = answer_lines(&mut book.tables, rules, from, None, lines, now, letters);
        return Ok(("games", Some(text)));
    }
    if let Err(why) = lobby::may_play(rules, from) {
        return Ok(("refused", Some(compose::lobby_refused(&why.to_string()))));
    }
    let m = member(book, from)?;
    m.pending = lines.iter().map(|(l, _)| l.clone()).collect();
    m.pending_at = Some(now);
    let asked: Vec<&str> = lines.iter().map(|(l, _)| l.as_str()).collect();
    Ok((
        "confirm",
        Some(compose::lobby_confirm(&asked, PENDING_HOURS)),
    ))
}

/// A lobby mail from a member's own lobby address: its lines (or, when it has none, the
/// lines it confirms, pending for less than `PENDING_HOURS`) carried out; the intake word and
/// the answer.
fn proven_answer(
    book: &mut LobbyBook,
    rules: &Rules<'_>,
    inb: &Inbound,
    mut lines: Vec<LobbyLine>,
    now: DateTime<Utc>,
    letters: &mut Letters,
) -> (&'static str, String) {
    let from = inb.from.to_ascii_lowercase();
    if lines.is_empty() {
        let m = book.members.get_mut(&from).expect("proven above");
        if m.pending_at
            .is_some_and(|at| at + Duration::hours(PENDING_HOURS) > now)
        {
            lines = lobby_lines(&m.pending.join("\n"));
        }
    }
    if let Some(m) = book.members.get_mut(&from) {
        m.pending.clear();
        m.pending_at = None;
    }
    if lines.is_empty() {
        return ("nothing", compose::LOBBY_HELP.to_string());
    }
    let name = inb.from_name.as_deref();
    let mut text = answer_lines(&mut book.tables, rules, &from, name, &lines, now, letters);
    // Lines past the most one mail may carry are said, never silently dropped.
    let all = crate::mail::inbound::lobby::lobby_line_count(&inb.body);
    if all > lines.len() {
        text.push_str(&compose::lobby_lines_unread(lines.len(), all - lines.len()));
    }
    ("acted", text)
}

/// The book goes with the decision, written before any letter is queued.
fn book_only(d: &mut Decision, book: LobbyBook) {
    d.lobby = Some(book);
}

/// The member record of `address`, made with a fresh secret if there is none.
fn member<'b>(book: &'b mut LobbyBook, address: &str) -> Result<&'b mut LobbyMember> {
    let key = address.to_ascii_lowercase();
    if !book.members.contains_key(&key) {
        let token = crate::store::new_token()?;
        book.members.insert(
            key.clone(),
            LobbyMember {
                token,
                ..LobbyMember::default()
            },
        );
    }
    Ok(book.members.get_mut(&key).expect("inserted above"))
}

fn bare_address(m: &str) -> String {
    m.parse::<crate::config::address::Mailbox>()
        .map(|mb| mb.address)
        .unwrap_or_else(|_| m.to_string())
        .to_ascii_lowercase()
}

/// Paragraphs per address, in the order first written to.
#[derive(Default)]
struct Letters(Vec<(String, Vec<String>)>);

impl Letters {
    fn add(&mut self, to: &str, text: String) {
        let to = to.to_ascii_lowercase();
        match self.0.iter_mut().find(|(a, _)| *a == to) {
            Some((_, v)) => v.push(text),
            None => self.0.push((to, vec![text])),
        }
    }
}

/// Each line carried out, in order, and the answer saying what became of each; notes to
/// others go to `letters`.
fn answer_lines(
    tables: &mut Vec<Table>,
    rules: &Rules<'_>,
    from: &str,
    name: Option<&str>,
    lines: &[LobbyLine],
    now: DateTime<Utc>,
    letters: &mut Letters,
) -> String {
    let mut done = Vec::new();
    let mut notes: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (line, act) in lines {
        let d = act.clone().and_then(|a| {
            lobby::act(tables, rules, from, name, &a, now).map_err(|e| e.to_string())
        });
        if let Ok(d) = &d {
            for (to, note) in &d.notes {
                notes.entry(to.clone()).or_default().push(note.clone());
            }
        }
        done.push((line.as_str(), d));
    }
    for (to, v) in notes {
        for n in v {
            letters.add(&to, n);
        }
    }
    let said: Vec<_> = done
        .iter()
        .map(|(line, d)| {
            let d = match d {
                Ok(d) => Ok(compose::LineDone {
                    answer: &d.answer,
                    ready: &d.ready,
                }),
                Err(why) => Err(why.clone()),
            };
            (*line, d)
        })
        .collect();
    compose::lobby_answer(&said)
}
