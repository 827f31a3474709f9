//! Reading a received mail back: its subject and text part, the sealed text whose seal checks
//! once a mail client's re-wrapping is undone, and its parts against the digests the sealed
//! text lists. It judges nothing else of the mail.

use mail_parser::MessageParser;

use crate::report;

/// A mail's subject and its first text part.
pub(super) fn mail_text(bytes: &[u8]) -> Option<(String, String)> {
    let msg = MessageParser::default().parse(bytes)?;
    let text = msg.body_text(0)?.into_owned();
    Some((msg.subject().unwrap_or_default().to_string(), text))
}

/// What a finding says of a mail a client re-wrapped beyond reading back.
pub const REWRAPPED: &str =
    "re-wrapped by the mail client: use the saved .eml (the mail as it arrived)";

/// A sealed mail's text whose seal checks, as it arrived or once a mail client's re-wrapping
/// or quoting is undone (`report::restore`, the digest the judge); or why not.
pub(crate) fn sealed_text(text: &str) -> Result<String, String> {
    let e = match report::check_seal(text) {
        Ok(()) => return Ok(text.to_string()),
        Err(e) => e,
    };
    match report::restore(text, |t| report::check_seal(t).is_ok()) {
        report::Rewrap::Restored(t) => Ok(t),
        report::Rewrap::Unreadable => Err(REWRAPPED.to_string()),
        report::Rewrap::NotRewrapped => Err(e),
    }
}

/// Checks each part listed under "Parts (sha256):" in the sealed text against the mail's parts.
pub(super) fn check_parts(bytes: &[u8], text: &str) -> Result<(), (String, String)> {
    use mail_parser::MimeHeaders;
    let listed = report::parts_listed(text);
    if listed.is_empty() {
        return Ok(());
    }
    let msg = MessageParser::default()
        .parse(bytes)
        .ok_or_else(|| ("MIME".to_string(), "unreadable".to_string()))?;
    for (name, digest) in &listed {
        let (name, digest) = (name.as_str(), digest.as_str());
        // The media type each sealed part must carry: a changed type (an SVG re-labelled as
        // something else) changes what a client shows, even with the same bytes.
        let expected = match name.rsplit('.').next() {
            Some("html") => "text/html",
            Some("png") => "image/png",
            Some("svg") => "image/svg+xml",
            Some("ics") => "text/calendar",
            Some("jsonl") => crate::mail::compose::JOURNAL_TYPE,
            Some("eml") => "message/rfc822",
            _ => "",
        };
        let part = if name == "turn.html" {
            msg.html_bodies().next()
        } else {
            msg.parts.iter().find(|p| {
                p.attachment_name() == Some(name)
                    // "map" in mails before Content-IDs were made unique.
                    || (name == "map.png"
                        && p.content_id().is_some_and(|c| c == "map" || c.starts_with("map.")))
            })
        };
        let Some(part) = part else {
            return Err((format!("part {name}"), "missing".into()));
        };
        // Text parts are sealed with their line ends normalised (a Maildir stores LF, SMTP
        // carries CRLF); calendar entries sealed before that carry their raw digest.
        let text = name == "turn.html" || name.ends_with(".ics") || name.ends_with(".jsonl");
        // A mail attached whole is listed by its own seal's digest (its seal is checked
        // where it is read as a mail of its own).
        let actual = if name.ends_with(".eml") {
            MessageParser::default()
                .parse(part.contents())
                .and_then(|m| m.body_text(0).map(|t| t.into_owned()))
                .and_then(|t| report::claimed_digest(&t))
                .unwrap_or_else(|| "(no seal)".to_string())
        } else {
            report::part_digest(part.contents(), text)
        };
        let raw_ok =
            name.ends_with(".ics") && report::part_digest(part.contents(), false) == digest;
        if actual != digest && !raw_ok {
            return Err((
                format!("part {name}"),
                format!("sha256 is {actual}, the sealed text says {digest}"),
            ));
        }
        let ct = part
            .content_type()
            .map(|c| match c.subtype() {
                Some(sub) => format!("{}/{sub}", c.ctype()),
                None => c.ctype().to_string(),
            })
            .unwrap_or_default()
            .to_ascii_lowercase();
        if !expected.is_empty() && ct != expected {
            return Err((
                format!("part {name}"),
                format!("media type is {ct:?}, a sealed {name} is {expected}"),
            ));
        }
    }
    Ok(())
}
