//! The story a player's mails tell, checked: once the game-over mail brings the journal, the
//! whole game is replayed from it and every mail of the folder is held against the replay (its
//! log head, subject, log and positions). Reads values only; the caller reads the files.

use std::collections::BTreeMap;

use crate::dice::{self, Hash, Protocol};
use crate::engine::registry::parse_line;
use crate::engine::{Event, Play, Registry, Viewer, strict_bound};
use crate::mail::compose;
use crate::mail::outbound;
use crate::report;

use super::receipts::{parse_headed, parse_receipt};
use super::{Finding, SealedMail, finding};

/// The footer's log head: `Despatch · game <id> · log head #<i> <hex>`.
pub(super) fn footer_head(text: &str) -> Option<(String, u64, String)> {
    let line = text
        .lines()
        .rev()
        .find(|l| l.starts_with("Despatch · game "))?;
    let rest = line.strip_prefix("Despatch · game ")?;
    let (game, rest) = rest.split_once(" · log head #")?;
    let (i, head) = rest.trim().split_once(' ')?;
    Some((game.to_string(), i.parse().ok()?, head.trim().to_string()))
}

/// The seat a mail was addressed to, from its reply address
/// `<local>+<game>.<seat>.<secret>[.s<k>]@…` (the secret itself is never kept).
pub(super) fn seat_of_reply_address(address: &str) -> Option<String> {
    let local = address.split('@').next()?;
    let (_, tail) = local.split_once('+')?;
    let mut it = tail.split('.');
    let _game = it.next()?;
    it.next().map(str::to_string)
}

/// What a replay from the journal checked.
#[derive(Debug, Default)]
pub(super) struct Replayed {
    pub events: u64,
    pub mails: u64,
}

/// Replays the game from `journal` (the game-over mail's attachment) and holds every mail of
/// `mails` (all of this game) against it. `anchors`: the anchors the welcome mails committed to.
pub(super) fn check_against_journal(
    game_id: &str,
    journal: &str,
    mails: &[&SealedMail],
    anchors: &[(u64, Hash)],
    registry: &Registry,
) -> (Replayed, Vec<Finding>) {
    let mut done = Replayed::default();
    let place = format!("game {game_id}, attached journal");
    let lines: Vec<String> = journal.lines().map(str::to_string).collect();
    let first = match lines.first().map(|l| parse_line(0, l)) {
        Some(Ok(ev)) => ev,
        Some(Err(e)) => return (done, vec![finding(&place, e.field, e.detail)]),
        None => return (done, vec![finding(&place, "lines", "the journal is empty")]),
    };
    let Event::GameCreated {
        game,
        protocol,
        anchor,
        ..
    } = &first
    else {
        return (
            done,
            vec![finding(&place, "event 0", "does not create a game")],
        );
    };
    if game != game_id {
        return (
            done,
            vec![finding(&place, "game", format!("is the journal of {game}"))],
        );
    }
    let mut out = Vec::new();
    // The welcome's anchor is what every reveal was committed to: the journal must start from it.
    if let Some((_, a)) = anchors.iter().find(|(from, _)| *from <= 1)
        && dice::to_hex(a) != *anchor
    {
        out.push(finding(
            &place,
            "anchor",
            "differs from the anchor of the welcome mail",
        ));
    }
    let salt_key = lines.iter().rev().find_map(|l| match parse_line(0, l) {
        Ok(Event::GameEnded {
            salt_key: Some(z), ..
        }) => dice::from_hex(&z),
        _ => None,
    });
    // The whole replay first: chain, onion, locks, seeds, rolls and (with the published salt
    // key) every orders digest. A journal that fails here proves nothing about the mails.
    if let Err(e) = registry.replay_opened(&lines, salt_key) {
        out.push(finding(
            format!("{place}, event {} ({})", e.index, e.kind),
            e.field,
            e.detail,
        ));
        return (done, out);
    }
    done.events = lines.len() as u64;
    let by_index = by_event(mails, lines.len() as u64, &mut out);
    let entry = match registry.get(&first_ruleset(&first)) {
        Ok(e) => e,
        Err(e) => return (done, vec![finding(&place, "ruleset", e.to_string())]),
    };
    let mut game: Box<dyn Play> = match entry.open(&first, &lines[0]) {
        Ok(g) => g,
        Err(e) => return (done, vec![finding(&place, e.field, e.detail)]),
    };
    replay_beside_mails(
        game.as_mut(),
        &lines,
        *protocol,
        &by_index,
        &place,
        &mut done,
        &mut out,
    );
    (done, out)
}

/// The mails by the journal event whose log head they carry; a mail past the journal's end is
/// a finding (but a seat's opening, which comes after it: ruling S11).
fn by_event<'a>(
    mails: &[&'a SealedMail],
    events: u64,
    out: &mut Vec<Finding>,
) -> BTreeMap<u64, Vec<&'a SealedMail>> {
    let mut by_index: BTreeMap<u64, Vec<&'a SealedMail>> = BTreeMap::new();
    for m in mails {
        if m.head_index >= events && m.text.contains("STRICT DICE OPENED\n") {
            // A seat's opening comes after the game-over mail's journal ends (ruling S11): it
            // is checked against the anchors and the results mails (`strict::check_openings`).
            continue;
        }
        if m.head_index >= events {
            out.push(finding(
                format!("mail {}", m.file),
                "log head",
                format!(
                    "claims event #{} but the journal has {} events",
                    m.head_index, events
                ),
            ));
        } else {
            by_index.entry(m.head_index).or_default().push(m);
        }
    }
    by_index
}

/// The journal replayed event by event, each mail held against the game as it stood at the
/// event whose head it carries. Stops at the first event that does not apply.
fn replay_beside_mails(
    game: &mut dyn Play,
    lines: &[String],
    protocol: Protocol,
    by_index: &BTreeMap<u64, Vec<&SealedMail>>,
    place: &str,
    done: &mut Replayed,
    out: &mut Vec<Finding>,
) {
    let mut head = dice::log_step(protocol, &dice::log_genesis(protocol), lines[0].as_bytes());
    for (i, line) in lines.iter().enumerate() {
        let ev = match parse_line(i as u64, line) {
            Ok(ev) => ev,
            Err(e) => {
                out.push(finding(place, e.field, e.detail));
                return;
            }
        };
        if i > 0 {
            head = dice::log_step(protocol, &head, line.as_bytes());
            if let Err(e) = game.apply(&ev, line, i as u64) {
                out.push(finding(place, e.field, e.detail));
                return;
            }
        }
        for m in by_index.get(&(i as u64)).into_iter().flatten() {
            done.mails += 1;
            if m.head != dice::to_hex(&head) {
                out.push(finding(
                    format!("mail {}", m.file),
                    "log head",
                    format!("#{i} is not the journal's head at that event"),
                ));
                continue;
            }
            if let Err((field, why)) = check_one(game, &ev, m) {
                out.push(finding(format!("mail {}", m.file), field, why));
            }
        }
    }
}

fn first_ruleset(ev: &Event) -> String {
    match ev {
        Event::GameCreated { ruleset, .. } => ruleset.clone(),
        _ => String::new(),
    }
}

/// One mail against the game as it stood right after the event it was sent for.
fn check_one(game: &dyn Play, ev: &Event, m: &SealedMail) -> Result<(), (String, String)> {
    // An observer's mail names no seat: it is held against the spectator view (issue 16).
    let spectator = m.seat.is_none() && m.text.contains(compose::SPECTATOR_MARK);
    let Some(seat) = m.seat.as_deref().or(spectator.then_some("")) else {
        return Err((
            "Reply-To".into(),
            "no seat in the reply address: the mail cannot be checked against the game".into(),
        ));
    };
    let book = game.book();
    if let Event::GameEnded { .. } = ev
        && m.text.contains(strict_bound::OPEN_HEADING)
    {
        // The request to open a seat's onion (S11): it must list what the journal took.
        let want = strict_bound::open_section(book, seat).unwrap_or_default();
        return match !want.is_empty() && report::normalise(&m.text).contains(want.trim_end()) {
            true => Ok(()),
            false => Err((
                "open".into(),
                "the open request does not list the reveals the journal took from the seat".into(),
            )),
        };
    }
    let over = game.outcome().is_some();
    let results_mail = match ev {
        Event::Results { .. } => !(over && book.protocol == Protocol::V2),
        Event::GameEnded { .. } => true,
        Event::Forfeit { .. } => over && book.protocol == Protocol::V1,
        Event::GameAbandoned { .. } => book.protocol == Protocol::V1,
        _ => false,
    };
    let text = report::normalise(&m.text);
    if !results_mail {
        return check_between_results(game, ev, m, seat, &text);
    }
    check_results_mail(game, ev, m, seat, spectator, over, &text)
}

/// A mail sent between steps' results (a receipt, standing orders taken): it tells no step's
/// results, and what it shows of the seat's orders is what the journal took.
fn check_between_results(
    game: &dyn Play,
    ev: &Event,
    m: &SealedMail,
    seat: &str,
    text: &str,
) -> Result<(), (String, String)> {
    if text.contains("WHAT HAPPENED (step") || text.contains("\nFINAL LOG\n") {
        return Err((
            "body".into(),
            format!(
                "tells a step's results, but the journal's event #{} is a {}",
                m.head_index,
                ev.kind()
            ),
        ));
    }
    if let Event::Standing {
        seat: who,
        orders,
        digest,
        ..
    } = ev
        && who == seat
    {
        let shown =
            parse_headed(&m.text, "Standing orders received for ").map(|r| (r.orders, r.digest));
        let journal: Vec<String> = orders.lines().map(str::to_string).collect();
        if shown.as_ref() != Some(&(journal, digest.clone())) {
            return Err((
                "orders".into(),
                "the standing orders or digest shown are not the ones the journal took".into(),
            ));
        }
    }
    if let Event::Submission {
        seat: who,
        orders,
        digest,
        ..
    } = ev
        && who == seat
    {
        // Receipts sent before issue 30 answered the player's mail as `Re:` its subject,
        // which the journal does not keep; every receipt since carries its own.
        if !m
            .subject
            .trim_start()
            .to_ascii_lowercase()
            .starts_with("re:")
        {
            let title = game.spec().title;
            let want = tagged(game, &compose::receipt_subject(&title));
            let before = format!("{} Receipt: your orders for {title}", tag(game));
            expect_subject(m, &[want, before], false)?;
        }
        let shown = parse_receipt(&m.text).map(|r| (r.orders, r.digest));
        let journal: Vec<String> = orders.lines().map(str::to_string).collect();
        if shown.as_ref() != Some(&(journal, digest.clone())) {
            return Err((
                "orders".into(),
                "the receipt's orders or digest are not the ones the journal accepted".into(),
            ));
        }
    }
    Ok(())
}

/// A results (or game-over) mail: its subject, and its story and outcome as the journal
/// replays them for the seat (or the spectator).
fn check_results_mail(
    game: &dyn Play,
    ev: &Event,
    m: &SealedMail,
    seat: &str,
    spectator: bool,
    over: bool,
    text: &str,
) -> Result<(), (String, String)> {
    let book = game.book();
    let view = if spectator {
        game.view(&Viewer::Spectator)
    } else {
        game.view(&Viewer::Seat(seat.to_string()))
    };
    let (template, asks) = if over {
        ("final_story", false)
    } else {
        (
            "story",
            !spectator
                && compose::prompt_text(game, seat).is_some()
                && !compose::only_invited(game, seat),
        )
    };
    let step = match ev {
        Event::Results { step, .. } => *step,
        Event::GameEnded { step, .. }
        | Event::Forfeit { step, .. }
        | Event::GameAbandoned { step, .. } => step.saturating_sub(1),
        _ => book.step,
    };
    // The deadline in the subject is in the seat's time zone, which the mails do not carry. A
    // copy sent again at the seat's request (HISTORY) says so in a subject of its own.
    let want = tagged(game, &compose::results_subject(game, seat, None));
    let wants = [
        want,
        subject_before_issue_30(game, seat),
        tagged(game, &compose::history_resent_subject(step)),
    ];
    expect_subject(m, &wants, asks)?;
    let story = report::render(
        template,
        serde_json::json!({"step": step, "step_title": book.last_step_title, "view": view}),
    )
    .map_err(|e| ("template".to_string(), e.to_string()))?;
    // Mails are laid out at 72 columns (the story starts after a blank line, so it lays out
    // the same alone); mails sent before that carry the story as rendered.
    let shows = |part: &str| {
        text.contains(report::normalise(&report::wrap_text(part)).trim_end())
            || text.contains(report::normalise(part).trim_end())
    };
    if !shows(&story) {
        return Err((
            "log".into(),
            format!(
                "the log or positions differ from what the journal replays to for seat {seat} \
                 after event #{}",
                m.head_index
            ),
        ));
    }
    if over
        && let Some(o) = game.outcome()
        && !shows(&o.summary)
    {
        return Err((
            "outcome".into(),
            "is not the outcome the journal replays to".into(),
        ));
    }
    Ok(())
}

/// The game's tag as the mail composed right after this event carried it.
fn tag(game: &dyn Play) -> String {
    outbound::subject_tag(&game.book().id, compose::asked_step(game))
}

/// A subject with the game's tag, fitted as the mail composed right after this event was.
fn tagged(game: &dyn Play, subject: &str) -> String {
    compose::fit_subject(&tag(game), subject)
}

/// A results mail's subject as mails sent before issue 30 carried it (the step's whole title,
/// `, due …` after it): mails in players' folders from running games keep verifying.
fn subject_before_issue_30(game: &dyn Play, seat: &str) -> String {
    let rest = if game.outcome().is_some() {
        compose::results_subject(game, seat, None)
    } else if compose::prompt_text(game, seat).is_some() && !compose::only_invited(game, seat) {
        format!("Your orders: {}", game.spec().title)
    } else if compose::prompt_text(game, seat).is_some() {
        format!("Results: {} (orders optional)", game.book().last_step_title)
    } else {
        format!("Results: {}", game.book().last_step_title)
    };
    format!("{} {rest}", tag(game))
}

/// The mail's subject is one of `wants` (the subject as now composed, then as composed
/// before), or (`due`) one of them followed by its deadline: ` — due <when>` now (which a long
/// tag may cut, with `…`), `, due <when>` before.
fn expect_subject(m: &SealedMail, wants: &[String], due: bool) -> Result<(), (String, String)> {
    let got = m.subject.trim();
    let now_due = |want: &str| {
        got.strip_prefix(&format!("{want} — due "))
            .is_some_and(|when| {
                looks_like_a_short_time(when)
                    || (when.ends_with('…') && got.chars().count() <= compose::SUBJECT_MAX)
            })
    };
    let then_due = |want: &str| {
        got.strip_prefix(&format!("{want}, due "))
            .is_some_and(looks_like_a_short_time)
    };
    let ok = wants
        .iter()
        .any(|w| got == w || (due && (now_due(w) || then_due(w))));
    if !ok {
        return Err((
            "Subject".into(),
            format!("is {:?}; the journal's mail was {:?}", m.subject, wants[0]),
        ));
    }
    Ok(())
}

/// `Thu 26 Nov 18:00 CET` (`report::fmt_short`): the only text a subject may add after "due".
fn looks_like_a_short_time(s: &str) -> bool {
    let w: Vec<&str> = s.split(' ').collect();
    let letters = |x: &str, n: usize| x.len() == n && x.chars().all(|c| c.is_ascii_alphabetic());
    let hm = |x: &str| {
        x.len() == 5
            && x.as_bytes()[2] == b':'
            && x.chars()
                .enumerate()
                .all(|(i, c)| i == 2 || c.is_ascii_digit())
    };
    w.len() == 5
        && letters(w[0], 3)
        && (1..=2).contains(&w[1].len())
        && w[1].chars().all(|c| c.is_ascii_digit())
        && letters(w[2], 3)
        && hm(w[3])
        && (1..=6).contains(&w[4].len())
        && w[4]
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '+' || c == '-')
}
