//! A seat talking about its game by mail (issue 16 points 1, 2 and 8; issue 30 point 6):
//! `STATUS`, `UNITS`, `HISTORY n` / `RESEND n` and `PRESS TO …`. Decides what to answer, relay
//! or journal; writes nothing itself (intake's `carry_out` writes the press text, appends,
//! queues).
//!
//! **HISTORY sends the delivered copy.** Every results mail is queued under a deterministic
//! name, `<event index>-results-<seat>` (or `-over-` for the game-over mail that carries the
//! last step's results), and moved to the game's `sent/` once delivered. So the mail a seat
//! received for step n is found by seat and step alone: the index of the journal's `results`
//! event for step n, and the seat's own name, which comes from the authenticated sender and
//! never from the mail's words (no seat can ask for another's copy). Re-composing from the
//! journal would not do: a results mail shows the deadline in the seat's time zone *at the
//! time*, so a seat that changed zone since would get other bytes. The copy is sent again with
//! its body untouched (same sealed text, map and dice, same parts) and only its envelope new:
//! Message-ID, Date, To (the seat's address now) and Reply-To (the seat's secret now, after a
//! `gm replace`), plus an `X-Despatch-Resent` header. Its subject stays as first sent, since
//! `despatch verify` holds a mail's subject against the journal.

use anyhow::Result;
use chrono::{DateTime, Utc};
use sha2::{Digest, Sha256};

use crate::dice;
use crate::engine::guard::Activity;
use crate::engine::press::{self, PressCopy};
use crate::engine::registry::parse_line;
use crate::engine::{Event, Play};
use crate::mail::compose::{self, Draft, HistoryStep, Recipient, TalkRefused};
use crate::mail::inbound::{self, Inbound, SeatCommand};
use crate::mail::outbound::{self, Outgoing};
use crate::report;
use crate::store::GameStore;

use super::super::Daemon;
use super::super::decision::{Decision, Intake};
use super::super::open_game::{OpenGame, press_path};

fn short(s: &str) -> String {
    hex::encode(&Sha256::digest(s.as_bytes())[..8])
}

/// The line the command was written on: its number in the player's own lines and its text, or
/// 0 and the subject when the command was the subject. Also the rest of the body after it (a
/// press message), or the whole body when the command was the subject.
fn command_line(inb: &Inbound) -> (usize, String, String) {
    let body = inbound::strip_control_lines(&inb.body);
    let lines: Vec<&str> = body.lines().collect();
    if let Some(i) = lines.iter().position(|l| !l.trim().is_empty()) {
        let first = lines[i]
            .split_whitespace()
            .next()
            .unwrap_or("")
            .trim_end_matches(':')
            .to_ascii_uppercase();
        if matches!(
            first.as_str(),
            "STATUS" | "UNITS" | "HISTORY" | "RESEND" | "PRESS"
        ) {
            return (i + 1, lines[i].to_string(), lines[i + 1..].join("\n"));
        }
    }
    (0, inb.subject.clone(), body)
}

/// What talk has read for one talk command before answering it: the seat and its player,
/// the command's line (number and text) and what follows it, the mail, the seat's guard
/// record, and the clock's `now`.
struct Asked<'a> {
    seat: &'a str,
    to: Recipient,
    line: usize,
    text: String,
    rest: String,
    inb: &'a Inbound,
    activity: Activity,
    now: DateTime<Utc>,
}

impl Asked<'_> {
    /// The decision answering it, as `command` in the intake log.
    fn decision(self, g: OpenGame, command: &'static str) -> Decision {
        let intake = Intake::Talk {
            game: g.store.id.clone(),
            seat: self.seat.to_string(),
            command,
        };
        Decision::for_seat(intake, g, self.seat, self.activity)
    }

    /// The same, answered with one draft.
    fn answered(self, g: OpenGame, command: &'static str, draft: Draft) -> Decision {
        let mut d = self.decision(g, command);
        d.drafts = vec![draft];
        d
    }

    /// Not carried out: the seat is told the line, why and what to write instead.
    fn refuse(self, g: OpenGame, why: TalkRefused) -> Result<Decision> {
        let draft = compose::talk_refusal(
            g.game.as_ref(),
            &self.to,
            self.line,
            &self.text,
            &why,
            &self.inb.message_id,
        );
        Ok(self.answered(g, "refused", draft))
    }
}

/// Whether HISTORY `n` names a resolved step of the game: the refusal when it does not.
fn resolved_step(game: &dyn Play, n: u64) -> Result<(), TalkRefused> {
    let book = game.book();
    let last = book.step.saturating_sub(1);
    if n == 0 {
        return Err(TalkRefused::StepZero);
    }
    if n > last {
        return Err(if !game.is_over() && n == book.step {
            TalkRefused::StepOpen { step: n }
        } else if last == 0 {
            TalkRefused::NothingResolved
        } else {
            TalkRefused::NoSuchStep { step: n, last }
        });
    }
    Ok(())
}

/// HISTORY alone: the resolved steps, each with whether its results mail was kept.
fn history_list(g: OpenGame, a: Asked<'_>) -> Result<Decision> {
    let steps = resolved_steps(&g)?
        .into_iter()
        .map(|r| HistoryStep {
            step: r.step,
            at: r.at,
            kept: find_copy(&g.store, a.seat, &r.names(a.seat)).is_some(),
        })
        .collect::<Vec<_>>();
    let draft = compose::history_list(g.game.as_ref(), &a.to, &steps, &a.inb.message_id);
    Ok(a.answered(g, "history", draft))
}

/// A press line the press rules refused, in their words.
fn said(e: press::PressRefused) -> TalkRefused {
    TalkRefused::Said {
        why: e.why,
        hint: e.hint,
    }
}

impl Daemon {
    /// STATUS, UNITS, CALENDAR, HISTORY/RESEND or PRESS from the seat's authenticated player.
    pub(in crate::daemon) fn talk(
        &self,
        cmd: &SeatCommand,
        g: OpenGame,
        seat: &str,
        mut activity: Activity,
        inb: &Inbound,
        now: DateTime<Utc>,
    ) -> Result<Decision> {
        activity.outcome(now, None);
        let (line, text, rest) = command_line(inb);
        let a = Asked {
            seat,
            to: g.recipient(seat).expect("an authenticated seat").clone(),
            line,
            text,
            rest,
            inb,
            activity,
            now,
        };
        match cmd {
            SeatCommand::TalkInvalid { why, hint } => {
                let why = TalkRefused::Said {
                    why: why.clone(),
                    hint: hint.clone(),
                };
                a.refuse(g, why)
            }
            SeatCommand::Status => {
                let waiting = g.store.waiting_notes(seat)?;
                let draft =
                    compose::status_reply(g.game.as_ref(), &a.to, &waiting, &inb.message_id);
                Ok(a.answered(g, "status", draft))
            }
            SeatCommand::Units => {
                let draft = compose::units_reply(g.game.as_ref(), &a.to, &inb.message_id);
                Ok(a.answered(g, "units", draft))
            }
            SeatCommand::Calendar => {
                let p = &a.to.private;
                let cal = self.player_calendar(&p.address, &p.time_zone, now)?;
                let draft = compose::calendar_reply(
                    g.game.as_ref(),
                    &a.to,
                    &cal.lines,
                    &cal.ics,
                    &inb.message_id,
                );
                Ok(a.answered(g, "calendar", draft))
            }
            SeatCommand::History(None) => history_list(g, a),
            SeatCommand::History(Some(n)) => self.history_step(g, a, *n),
            SeatCommand::Press(words) => self.press(g, a, words),
            _ => unreachable!("only talk commands come here"),
        }
    }

    /// HISTORY `n`: the delivered results mail of step `n` sent again, when it was kept.
    fn history_step(&self, g: OpenGame, a: Asked<'_>, n: u64) -> Result<Decision> {
        if let Err(why) = resolved_step(g.game.as_ref(), n) {
            return a.refuse(g, why);
        }
        let Some(r) = resolved_steps(&g)?.into_iter().find(|r| r.step == n) else {
            return a.refuse(g, TalkRefused::NoResults { step: n });
        };
        let (name, bytes) = match find_copy(&g.store, a.seat, &r.names(a.seat)) {
            None => return a.refuse(g, TalkRefused::NotKept { step: n }),
            Some(Kept::Queued) => return a.refuse(g, TalkRefused::OnItsWay { step: n }),
            Some(Kept::Sent(name, bytes)) => (name, bytes),
        };
        let Some(again) = self.resent(&g, &a.to, &name, &bytes, n, a.inb, a.now)? else {
            return a.refuse(g, TalkRefused::CopyUnreadable { step: n });
        };
        let queued = format!("resend-{n}-{}-{}", a.seat, short(&a.inb.message_id));
        let mut d = a.decision(g, "history");
        d.built = vec![(queued, again)];
        Ok(d)
    }

    /// PRESS TO …: the press event, its text kept private to the game's store, and the
    /// organiser's copy when it is addressed to them.
    fn press(&self, g: OpenGame, a: Asked<'_>, words: &[String]) -> Result<Decision> {
        if g.game.is_over() {
            return a.refuse(g, TalkRefused::PressClosed);
        }
        let (seat, now) = (a.seat, a.now);
        let gm = g
            .seats
            .gm
            .clone()
            .or_else(|| self.cfg.mail.gm_address.clone());
        let book = g.game.book();
        let addressed = match press::resolve(book, &book.policy.club, seat, words, gm.is_some()) {
            Ok(x) => x,
            Err(e) => return a.refuse(g, said(e)),
        };
        let text = match press::canonical(&a.rest) {
            Ok(t) => t,
            Err(e) => return a.refuse(g, said(e)),
        };
        let mut salt = [0u8; 32];
        getrandom::fill(&mut salt)
            .map_err(|e| anyhow::anyhow!("no randomness for a press salt: {e}"))?;
        let ev = press::event(book, seat, &addressed, &text, &salt, &a.inb.message_id, now);
        let Event::Press { digest, .. } = &ev else {
            unreachable!("press::event makes a press event")
        };
        let copy = PressCopy {
            text,
            salt: dice::to_hex(&salt),
        };
        let mut d = a.decision(g, "press");
        let g = d.game.as_ref().expect("set by for_seat");
        d.files = vec![(
            press_path(&g.store, digest),
            serde_json::to_vec(&copy).expect("json"),
        )];
        if let (true, Some(gm)) = (addressed.gm, gm) {
            let mut ctx = self.mail_ctx(g, now);
            ctx.press = Some(&copy);
            let text = compose::press_gm_text(g.game.as_ref(), &ev, &ctx);
            let subject = compose::press_gm_subject(&g.store.id, seat);
            d.letters = vec![(
                format!("press-gm-{}", &digest[..16]),
                self.gm_letter(
                    &gm,
                    &subject,
                    &text,
                    &[&g.store.id, "press-gm", digest],
                    now,
                ),
            )];
        }
        d.events = vec![ev];
        Ok(d)
    }

    /// A plain mail to the organiser (who is no seat), with its HTML twin.
    fn gm_letter(
        &self,
        to: &str,
        subject: &str,
        text: &str,
        id_parts: &[&str],
        now: DateTime<Utc>,
    ) -> Outgoing {
        let (local, domain) = self.cfg.address_parts();
        let html = report::render(
            "plain.html",
            serde_json::json!({"game": id_parts[0], "seat": "", "subject": subject, "text": report::unwrap_text(text)}),
        )
        .ok();
        Outgoing {
            to: to.to_string(),
            from: format!(
                "{} <{local}@{domain}>",
                crate::mail::compose::house_display_name(&self.cfg.mail.from_name)
            ),
            subject: subject.to_string(),
            text: text.to_string(),
            html,
            // "Reply" reaches the organiser's desk (issue 31 point 4).
            reply_to: self.desk_reply_to(to),
            message_id: outbound::message_id(id_parts, &domain),
            date: now,
            auto_generated: true,
            ..Default::default()
        }
    }

    /// The delivered results mail `bytes` (queue name `name`) in a new envelope for `to`.
    #[allow(clippy::too_many_arguments)]
    fn resent(
        &self,
        g: &OpenGame,
        to: &compose::Recipient,
        name: &str,
        bytes: &[u8],
        step: u64,
        inb: &Inbound,
        now: DateTime<Utc>,
    ) -> Result<Option<Vec<u8>>> {
        let (local, domain) = self.cfg.address_parts();
        // The step the first copy's reply address named stays: a reply to the copy is read
        // as a reply to the first mail was (a closed step's mail says so).
        let asked = header(bytes, "Reply-To")
            .and_then(|v| v.rsplit_once(".s").map(|(_, k)| k.to_string()))
            .and_then(|k| k.split('@').next().and_then(|k| k.parse::<u64>().ok()));
        let reply_to = outbound::reply_address(
            &local,
            &g.store.id,
            &to.seat,
            &to.private.token,
            asked,
            &domain,
        )?;
        let first_sent = header(bytes, "Date").unwrap_or_default();
        let message_id = outbound::message_id(
            &[&g.store.id, &to.seat, name, "resent", &inb.message_id],
            &domain,
        );
        // A subject of its own kind, threaded under the HISTORY request (and the seat's
        // thread), so the copy is not taken for a new result in the index (issue 30).
        let subject = compose::fit_subject(
            &outbound::subject_tag(&g.store.id, asked),
            &compose::history_resent_subject(step),
        );
        let root = outbound::message_id(&[&g.store.id, &to.seat, "thread"], &domain);
        let (in_reply_to, references) = match outbound::echoable_id(&inb.message_id) {
            Some(theirs) => (format!("<{theirs}>"), format!("<{root}> <{theirs}>")),
            None => (format!("<{root}>"), format!("<{root}>")),
        };
        Ok(readdress(
            bytes,
            &[
                ("To", to.private.address.clone()),
                ("Reply-To", reply_to),
                ("Message-ID", format!("<{message_id}>")),
                ("Subject", subject),
                ("In-Reply-To", in_reply_to),
                ("References", references),
                ("Date", now.to_rfc2822()),
                (
                    "X-Despatch-Resent",
                    format!(
                        "results of step {step} sent again at the seat's request; first sent {first_sent}"
                    ),
                ),
            ],
        ))
    }
}

/// A step's `results` event in the journal: where the results mails of that step are named.
struct Resolved {
    step: u64,
    at: DateTime<Utc>,
    index: u64,
    /// The `game_ended` event that mailed the last step's results instead (v2), if any.
    ended: Option<u64>,
}

impl Resolved {
    /// The queue names the results mail of this step to `seat` had.
    fn names(&self, seat: &str) -> Vec<String> {
        let mut v = vec![
            format!("{:06}-results-{seat}", self.index),
            format!("{:06}-over-{seat}", self.index),
        ];
        if let Some(j) = self.ended {
            v.push(format!("{j:06}-over-{seat}"));
        }
        v
    }
}

/// Every resolved step, from the journal (one read; only results and game-ended lines are
/// parsed).
fn resolved_steps(g: &OpenGame) -> Result<Vec<Resolved>> {
    let journal = g.store.read_journal()?;
    let mut out: Vec<Resolved> = Vec::new();
    for (i, line) in journal.lines.iter().enumerate() {
        if !line.contains(r#""type":"results""#) && !line.contains(r#""type":"game_ended""#) {
            continue;
        }
        match parse_line(i as u64, line)? {
            Event::Results { step, at, .. } => out.push(Resolved {
                step,
                at,
                index: i as u64,
                ended: None,
            }),
            Event::GameEnded { step, .. } => {
                if let Some(r) = out.iter_mut().rfind(|r| r.step + 1 == step) {
                    r.ended = Some(i as u64);
                }
            }
            _ => {}
        }
    }
    Ok(out)
}

/// A results mail to one seat, as the store keeps it.
enum Kept {
    /// Delivered (or given up on after every retry): its queue name and bytes.
    Sent(String, Vec<u8>),
    /// Still in the outbox: it is on its way.
    Queued,
}

fn find_copy(store: &GameStore, seat: &str, names: &[String]) -> Option<Kept> {
    for name in names {
        let file = format!("{name}.eml");
        for dir in [store.sent_dir(), store.failed_dir()] {
            if let Ok(bytes) = std::fs::read(dir.join(&file)) {
                return Some(Kept::Sent(name.clone(), bytes));
            }
        }
        // A results mail that waited for the seat's next mail (one mail a step): sent again
        // on its own, still waiting or already brought.
        if let Some(bytes) = store.gathered_mail(seat, name) {
            return Some(Kept::Sent(name.clone(), bytes));
        }
        if store.outbox_dir().join(&file).exists() {
            return Some(Kept::Queued);
        }
    }
    None
}

/// The header block of a mail: its fields, each with its folded continuation lines.
fn fields(raw: &[u8]) -> Option<(Vec<&[u8]>, &[u8])> {
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|i| (i + 2, i + 4))
        .or_else(|| {
            raw.windows(2)
                .position(|w| w == b"\n\n")
                .map(|i| (i + 1, i + 2))
        })?;
    let (head, body) = (&raw[..end.0], &raw[end.1..]);
    let mut out: Vec<&[u8]> = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < head.len() {
        let nl = head[i..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(head.len(), |p| i + p + 1);
        if i > start && !matches!(head.get(i), Some(b' ' | b'\t')) {
            out.push(&head[start..i]);
            start = i;
        }
        i = nl;
    }
    if start < head.len() {
        out.push(&head[start..]);
    }
    Some((out, body))
}

fn name_of(field: &[u8]) -> String {
    let colon = field.iter().position(|&b| b == b':').unwrap_or(0);
    String::from_utf8_lossy(&field[..colon])
        .trim()
        .to_ascii_lowercase()
}

/// The unfolded value of header `name`.
fn header(raw: &[u8], name: &str) -> Option<String> {
    let (fields, _) = fields(raw)?;
    let f = fields
        .into_iter()
        .find(|f| name_of(f) == name.to_ascii_lowercase())?;
    let colon = f.iter().position(|&b| b == b':')?;
    let v = String::from_utf8_lossy(&f[colon + 1..]);
    Some(v.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// The mail with the headers `new` in place of any of the same names, the rest of the header
/// block and the whole body byte for byte as they were.
fn readdress(raw: &[u8], new: &[(&str, String)]) -> Option<Vec<u8>> {
    let (fields, body) = fields(raw)?;
    let crlf = raw.windows(2).any(|w| w == b"\r\n");
    let eol: &[u8] = if crlf { b"\r\n" } else { b"\n" };
    let replaced: Vec<String> = new.iter().map(|(n, _)| n.to_ascii_lowercase()).collect();
    let mut out = Vec::with_capacity(raw.len() + 256);
    for (n, v) in new {
        out.extend_from_slice(format!("{n}: {v}").as_bytes());
        out.extend_from_slice(eol);
    }
    for f in fields
        .into_iter()
        .filter(|f| !replaced.contains(&name_of(f)))
    {
        out.extend_from_slice(f);
    }
    out.extend_from_slice(eol);
    out.extend_from_slice(body);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readdressing_keeps_the_body_and_every_other_header() {
        let raw = b"From: a@x\r\nTo: old@x\r\nReferences: <1@x>\r\n <2@x>\r\nMessage-ID: <m@x>\r\n\
                    Subject: [g #2] Results\r\n\r\nbody\r\n\r\nmore\r\n";
        let out = readdress(
            raw,
            &[("To", "new@x".into()), ("Message-ID", "<n@x>".into())],
        )
        .unwrap();
        let s = String::from_utf8(out).unwrap();
        assert!(
            s.starts_with("To: new@x\r\nMessage-ID: <n@x>\r\nFrom: a@x\r\n"),
            "{s}"
        );
        assert!(s.contains("References: <1@x>\r\n <2@x>\r\n"), "{s}");
        assert!(!s.contains("old@x") && !s.contains("<m@x>"), "{s}");
        assert!(
            s.ends_with("Subject: [g #2] Results\r\n\r\nbody\r\n\r\nmore\r\n"),
            "{s}"
        );
        assert_eq!(header(raw, "references").as_deref(), Some("<1@x> <2@x>"));
        assert_eq!(readdress(b"no header end", &[]), None);
    }
}
