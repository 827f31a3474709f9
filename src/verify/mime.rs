//! Reading a received mail back: its subject and text part, and the sealed text whose seal
//! checks once a mail client's re-wrapping is undone. It judges nothing else of the mail.

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
