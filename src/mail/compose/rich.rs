//! The rich parts of a turn mail — HTML, the seat's map (PNG inline, SVG attached) and the
//! deadline (.ics) — and the seal that binds them to the plain text, which stays the complete,
//! sealed record. Pure: everything is built from the seat's View and values handed in.

use crate::engine::{Play, View};
use crate::{dice, render, report};

use super::{ComposeError, Draft, DraftKind, MailCtx, Recipient};

/// The rich parts of one mail.
#[derive(Debug, Clone)]
pub struct Rich {
    pub html: String,
    pub png: Option<Vec<u8>>,
    /// The map's Content-ID, unique to this mail (one event, one seat): clients that show a
    /// thread's mails together must not take one mail's map for another's.
    pub map_cid: String,
    pub svg: Option<String>,
    pub svg_name: String,
    pub ics: Option<String>,
    /// The game's whole journal (JSON lines), on the game-over mail only.
    pub journal: Option<String>,
    /// The mails that waited for this one (`gather`), attached whole: (file name, SHA-256).
    pub gathered: Vec<(String, String)>,
}

/// The name and media type of the journal attached to the game-over mail.
pub const JOURNAL_PART: &str = "journal.jsonl";
pub const JOURNAL_TYPE: &str = "application/x-ndjson";

/// The browser verifier attached beside the journal: one self-contained page into which a
/// player drops the game's mails to re-derive every die without installing anything.
pub const VERIFIER_PART: &str = "verify.html";
pub const VERIFIER_HTML: &str = include_str!("../../../templates/verifier.html");

/// The HTML part, the map and the calendar entry of a turn mail, all from the seat's own View.
/// `extra` adds the template's step, prompt, dice… values.
pub(super) fn build(
    game: &dyn Play,
    to: &Recipient,
    view: &View,
    prompt: Option<&str>,
    extra: serde_json::Value,
    ctx: &MailCtx,
) -> Result<Rich, ComposeError> {
    let book = game.book();
    let (_, domain) = ctx.address_parts();
    let map_cid = format!("map.{}.{}.{}@{domain}", book.id, book.events - 1, to.seat);
    let svg_name = format!("{}-step{}-{}.svg", book.id, book.step, to.seat);
    // The SVG is drawn once and attached whole; the inline PNG is its crop around the seat's
    // units (a viewBox over the same drawing), rasterised at twice the width it is shown at.
    let (png, svg, cropped, view_box) = match &view.map {
        Some(scene) => {
            let (svg, inline, cropped) = render::svg_and_inline(scene);
            let png = render::png_from_svg(&inline, render::INLINE_PNG_PX)?;
            let view_box = render::view_box(&inline).unwrap_or_default();
            (Some(png), Some(svg), cropped, view_box)
        }
        None => (None, None, false, String::new()),
    };
    let mut tctx = serde_json::json!({
        "game": book.id,
        "seat": to.seat,
        "view": view,
        "map": view.map.is_some(),
        "map_cid": map_cid,
        "map_px": render::INLINE_CSS_PX,
        "map_cropped": cropped,
        "map_view_box": view_box,
        "svg_name": svg_name,
        "head_index": book.events - 1,
        "head": dice::to_hex(&book.head),
        "protocol": book.protocol.name(),
        "pages": super::pages_for(ctx, &book.id, to),
    });
    if let (Some(base), Some(more)) = (tctx.as_object_mut(), extra.as_object()) {
        base.extend(more.clone());
    }
    let html = report::render("turn.html", &tctx)?;
    let ics = match (prompt, book.deadline) {
        (Some(p), Some(deadline)) => Some(report::ics::deadline_event(
            &calendar_uid(game, to, domain),
            0,
            deadline,
            &to.private.time_zone,
            &format!("Orders due: {}, step {} ({})", book.id, book.step, to.seat),
            p,
            ctx.now,
        )),
        _ => None,
    };
    Ok(Rich {
        html,
        png,
        map_cid,
        svg,
        svg_name,
        ics,
        journal: None,
        gathered: Vec::new(),
    })
}

/// The calendar entry of a seat's orders for the open step: one per step and seat, so a moved
/// deadline updates it.
pub(super) fn calendar_uid(game: &dyn Play, to: &Recipient, domain: &str) -> String {
    let book = game.book();
    format!("{}-{}-{}@{domain}", book.id, book.step, to.seat)
}

/// A plain mail that carries only an updated calendar entry, sealed with the entry's digest.
pub(super) fn seal_calendar(
    game: &dyn Play,
    body: &str,
    ics: &str,
) -> Result<String, ComposeError> {
    let parts = format!("deadline.ics={}", report::part_digest(ics.as_bytes(), true));
    seal_with_parts(game, body, &parts)
}

/// The body, its Parts block (when there are parts) and the footer, sealed. The block is one
/// part to a line under `Parts (sha256):`, each `name=hex` folded to 72 columns by the seal
/// (docs/dice-protocol.md, "The seal of a mail").
fn seal_with_parts(game: &dyn Play, body: &str, parts: &str) -> Result<String, ComposeError> {
    let body = if parts.is_empty() {
        body.to_string()
    } else {
        let lines: String = parts
            .split_whitespace()
            .map(|p| format!("  {p}\n"))
            .collect();
        format!("{}\n\n{}\n{lines}", body.trim_end(), report::PARTS_PREFIX)
    };
    let book = game.book();
    Ok(report::seal(
        &body,
        &book.id,
        book.events - 1,
        &dice::to_hex(&book.head),
    )?)
}

/// The game right after a journal event, the event's line and the mails' context: where the
/// event's plain mails are made.
pub(super) struct EventMails<'a> {
    pub(super) game: &'a dyn Play,
    pub(super) index: u64,
    pub(super) ctx: &'a MailCtx<'a>,
}

impl EventMails<'_> {
    /// The plain mail the event sends `to` (`toolkit::event_draft`), its `body` sealed.
    pub(super) fn draft(
        &self,
        kind: DraftKind,
        to: &Recipient,
        word: &str,
        subject: String,
        body: &str,
    ) -> Result<Draft, ComposeError> {
        let text = seal(self.game, body, None)?;
        Ok(super::toolkit::event_draft(
            self.game, self.index, kind, to, word, subject, text,
        ))
    }
}

/// The body with its parts' digests and the footer, sealed: the seal covers the other parts
/// too, because their digests are part of the sealed text.
pub(super) fn seal(
    game: &dyn Play,
    body: &str,
    rich: Option<&Rich>,
) -> Result<String, ComposeError> {
    if let Some(r) = rich {
        let mut parts = vec![format!(
            "turn.html={}",
            report::part_digest(r.html.as_bytes(), true)
        )];
        if let Some(png) = &r.png {
            parts.push(format!("map.png={}", report::part_digest(png, false)));
        }
        if let Some(svg) = &r.svg {
            parts.push(format!(
                "{}={}",
                r.svg_name,
                report::part_digest(svg.as_bytes(), false)
            ));
        }
        if let Some(ics) = &r.ics {
            parts.push(format!(
                "deadline.ics={}",
                // Text: its CRLF lines (as iCalendar wants) may be stored with LF in a Maildir.
                report::part_digest(ics.as_bytes(), true)
            ));
        }
        if let Some(journal) = &r.journal {
            // Text: a transport may carry its lines with CRLF (JSON lines hold no raw CR).
            parts.push(format!(
                "{JOURNAL_PART}={}",
                report::part_digest(journal.as_bytes(), true)
            ));
        }
        // Each attached mail carries its own seal; listing it here binds it to this one too.
        for (name, digest) in &r.gathered {
            parts.push(format!("{name}={digest}"));
        }
        return seal_with_parts(game, body, &parts.join(" "));
    }
    seal_with_parts(game, body, "")
}

/// The deadline as this seat reads it.
pub(super) fn deadline_text(game: &dyn Play, to: &Recipient) -> Option<String> {
    game.book()
        .deadline
        .map(|d| report::fmt_time(d, &to.private.time_zone))
}
