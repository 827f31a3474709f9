//! Body selection: which MIME parts hold the player's text (text/plain first, else HTML made
//! text), format=flowed unfolded, and why a mail holds nothing readable (encrypted, only
//! attachments, only a quote…). Decides nothing about lines; `reply` cuts them.

use std::collections::HashSet;
use std::fmt;

use mail_parser::{ContentType, Message, MimeHeaders, PartType};
use serde::{Deserialize, Serialize};

use super::html::html_to_text;
use super::reply::Cut;
use super::routing::{Control, control_line};

/// Why a mail holds no text that can be read as orders. [`NothingReadable::words`] says it in
/// words a player understands, to go after "Nothing in your mail was read: ".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NothingReadable {
    /// No text at all, or only blanks.
    Empty,
    /// Only the quoted earlier mail (perhaps with a signature), nothing typed above or between.
    OnlyQuote,
    /// Only a signature ("-- ", "Sent from my iPhone").
    OnlySignature,
    /// Only GAME / TOKEN lines, no order and no `PASS`.
    OnlyControlLines,
    /// Only pictures (a screenshot, a photo of a map) and no text.
    OnlyPictures,
    /// Only attached files (documents, a forwarded mail) and no text.
    OnlyAttachments,
    /// PGP-encrypted (PGP/MIME or an armoured `-----BEGIN PGP MESSAGE-----`).
    PgpEncrypted,
    /// S/MIME-encrypted or opaque-signed (`application/pkcs7-mime`).
    SmimeEncrypted,
}

impl NothingReadable {
    pub fn words(self) -> &'static str {
        match self {
            Self::Empty => "the mail had no text in it",
            Self::OnlyQuote => {
                "the mail held only the earlier mail you replied to, quoted, and nothing you wrote yourself"
            }
            Self::OnlySignature => "the mail held only a signature",
            Self::OnlyControlLines => "the mail held only GAME or TOKEN lines and no orders",
            Self::OnlyPictures => {
                "the mail held only a picture, and orders cannot be read from a picture: please type them"
            }
            Self::OnlyAttachments => {
                "the mail held only an attached file, and attachments are not read: please write orders in the mail itself"
            }
            Self::PgpEncrypted => {
                "the mail was encrypted with PGP, which Despatch cannot read: please send orders unencrypted"
            }
            Self::SmimeEncrypted => {
                "the mail was encrypted or signed with S/MIME in a form Despatch cannot read: please send orders unencrypted"
            }
        }
    }
}

impl fmt::Display for NothingReadable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.words())
    }
}

/// The text of the inline body: text/plain parts when there is text in them, else HTML made
/// text. Each part is taken once (mail_parser lists an HTML-only body in both `html_body` and
/// `text_body`).
pub(super) fn body_text(msg: &Message<'_>) -> String {
    let mut plain = Vec::new();
    for &id in &msg.text_body {
        let Some(part) = msg.parts.get(id as usize) else {
            continue;
        };
        if let PartType::Text(text) = &part.body {
            let ct = part.content_type();
            let is_plain = ct.is_none_or(|ct| {
                ct.ctype().eq_ignore_ascii_case("text")
                    && ct.subtype().is_none_or(|s| s.eq_ignore_ascii_case("plain"))
            });
            if !is_plain {
                continue;
            }
            let flowed = ct.is_some_and(|ct| attribute_is(ct, "format", "flowed"));
            let delsp = ct.is_some_and(|ct| attribute_is(ct, "delsp", "yes"));
            plain.push(if flowed {
                unflow(text, delsp)
            } else {
                text.to_string()
            });
        }
    }
    // A blank text part beside an HTML one with words in it is a client's mistake; read the HTML.
    if plain.iter().any(|p| !p.trim().is_empty()) {
        return plain.join("\n");
    }
    let mut seen: HashSet<u32> = HashSet::new();
    let mut html = Vec::new();
    for &id in msg.html_body.iter().chain(msg.text_body.iter()) {
        if !seen.insert(id) {
            continue;
        }
        if let Some(PartType::Html(h)) = msg.parts.get(id as usize).map(|p| &p.body) {
            html.push(html_to_text(h));
        }
    }
    html.join("\n")
}

fn attribute_is(ct: &ContentType<'_>, name: &str, value: &str) -> bool {
    ct.attribute(name)
        .is_some_and(|v| v.eq_ignore_ascii_case(value))
}

/// Undoes RFC 3676 format=flowed soft breaks (Apple Mail, Thunderbird), so a long order line
/// the client wrapped is one line again, as the player sees it. Each line is appended to the
/// open paragraph once, so the cost is the length of the text.
pub(super) fn unflow(text: &str, delsp: bool) -> String {
    let mut out = String::with_capacity(text.len());
    // The quote depth of the open paragraph, if one is open (its text is already in `out`).
    let mut open: Option<usize> = None;
    let mut started = false;
    for line in text.lines() {
        let depth = line.bytes().take_while(|&b| b == b'>').count();
        let mut content = &line[depth..];
        if let Some(stripped) = content.strip_prefix(' ') {
            content = stripped;
        }
        let soft = content.ends_with(' ') && content != "-- ";
        if open != Some(depth) {
            if started {
                out.push('\n');
            }
            started = true;
            if depth > 0 {
                out.extend(std::iter::repeat_n('>', depth));
                out.push(' ');
            }
        }
        out.push_str(content);
        if soft {
            if delsp {
                out.pop();
            }
            open = Some(depth);
        } else {
            open = None;
        }
    }
    out
}

/// Why the mail holds nothing readable as orders, if so. Encryption wins over everything (the
/// orders are inside it); otherwise a mail with text of the player's own is readable, and one
/// without is explained by what it did hold: attachments, a quote, a signature, or nothing.
pub(super) fn nothing_readable(msg: &Message<'_>, cut: &Cut) -> Option<NothingReadable> {
    if cut.pgp_message {
        return Some(NothingReadable::PgpEncrypted);
    }
    if let Some(encrypted) = encryption(msg) {
        return Some(encrypted);
    }
    let mut own = cut.body.lines().filter(|l| !l.trim().is_empty()).peekable();
    if own.peek().is_some() {
        let only_control = own.all(|l| {
            matches!(
                control_line(l),
                Some(Control::Game(_)) | Some(Control::Token(_))
            )
        });
        return only_control.then_some(NothingReadable::OnlyControlLines);
    }
    if let Some(attached) = attachments(msg) {
        return Some(attached);
    }
    if cut.quoted {
        Some(NothingReadable::OnlyQuote)
    } else if cut.signature {
        Some(NothingReadable::OnlySignature)
    } else {
        Some(NothingReadable::Empty)
    }
}

/// PGP/MIME (`multipart/encrypted`, `application/pgp-encrypted`) or S/MIME
/// (`application/pkcs7-mime`, a `smime.p7m` file) anywhere among the mail's own parts.
fn encryption(msg: &Message<'_>) -> Option<NothingReadable> {
    let mut found = None;
    for part in &msg.parts {
        let Some(ct) = part.content_type() else {
            continue;
        };
        let (ctype, subtype) = (ct.ctype(), ct.subtype().unwrap_or(""));
        let is =
            |t: &str, s: &str| ctype.eq_ignore_ascii_case(t) && subtype.eq_ignore_ascii_case(s);
        if is("application", "pkcs7-mime")
            || is("application", "x-pkcs7-mime")
            || part
                .attachment_name()
                .is_some_and(|n| n.to_ascii_lowercase().ends_with(".p7m"))
        {
            return Some(NothingReadable::SmimeEncrypted);
        }
        if is("multipart", "encrypted") || is("application", "pgp-encrypted") {
            found = Some(NothingReadable::PgpEncrypted);
        }
    }
    found
}

/// Only pictures, or other attachments, among the parts that are not the text body (mail_parser
/// lists every non-text part there, inline pictures included). Signature parts of a signed mail
/// (PGP/MIME, S/MIME) are not attachments a player chose to send.
fn attachments(msg: &Message<'_>) -> Option<NothingReadable> {
    let mut any = false;
    let mut all_pictures = true;
    for &id in &msg.attachments {
        let Some(part) = msg.parts.get(id as usize) else {
            continue;
        };
        let ct = part.content_type();
        let subtype = ct.and_then(|c| c.subtype()).unwrap_or("");
        let is_signature = ct.is_some_and(|c| c.ctype().eq_ignore_ascii_case("application"))
            && ["pgp-signature", "pkcs7-signature", "x-pkcs7-signature"]
                .iter()
                .any(|s| subtype.eq_ignore_ascii_case(s));
        if is_signature {
            continue;
        }
        any = true;
        all_pictures &= ct.is_some_and(|c| c.ctype().eq_ignore_ascii_case("image"));
    }
    match (any, all_pictures) {
        (false, _) => None,
        (true, true) => Some(NothingReadable::OnlyPictures),
        (true, false) => Some(NothingReadable::OnlyAttachments),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flowed_lines_are_joined() {
        assert_eq!(
            unflow(
                "FIRE Mikasa AT \nTsesarevich\n> quoted \n> more\nnext",
                false
            ),
            "FIRE Mikasa AT Tsesarevich\n> quoted more\nnext"
        );
        assert_eq!(unflow("TURN Mi ka\nsa", true), "TURN Mi ka\nsa");
        assert_eq!(unflow("TURN Mika \nsa", true), "TURN Mikasa");
        assert_eq!(
            unflow("a \n>> b \n>> c\n-- \nsig", false),
            "a \n>> b c\n-- \nsig"
        );
        assert_eq!(unflow("\n\nx", false), "\n\nx");
    }

    /// The HTML alternative real clients send must give the same orders as their text part.
    #[test]
    fn html_alternatives_of_real_clients_match_their_text_part() {
        use super::super::reply::cut_reply;
        use mail_parser::MessageParser;
        let fixtures: [&[u8]; 4] = [
            include_bytes!("../../../tests/fixtures/mail/gmail_reply_top_posted.eml"),
            include_bytes!("../../../tests/fixtures/mail/outlook365_reply.eml"),
            include_bytes!("../../../tests/fixtures/mail/apple_mail_fresh.eml"),
            include_bytes!("../../../tests/fixtures/mail/outlook365_out_of_office.eml"),
        ];
        for raw in fixtures {
            let msg = MessageParser::default().parse(raw).expect("fixture parses");
            let html = msg
                .html_body
                .iter()
                .find_map(|&id| match &msg.parts[id as usize].body {
                    PartType::Html(h) => Some(h.to_string()),
                    _ => None,
                })
                .expect("fixture has an HTML part");
            let from_html = cut_reply(&html_to_text(&html)).body;
            let from_text = cut_reply(&body_text(&msg)).body;
            assert_eq!(from_html, from_text);
            assert!(from_text.lines().count() >= 2);
        }
    }

    #[test]
    fn every_reason_has_words_for_a_player() {
        use NothingReadable::*;
        for reason in [
            Empty,
            OnlyQuote,
            OnlySignature,
            OnlyControlLines,
            OnlyPictures,
            OnlyAttachments,
            PgpEncrypted,
            SmimeEncrypted,
        ] {
            assert!(reason.words().starts_with("the mail "), "{reason:?}");
            assert_eq!(reason.to_string(), reason.words());
            let json = serde_json::to_string(&reason).expect("serialises");
            assert_eq!(
                serde_json::from_str::<NothingReadable>(&json).expect("reads back"),
                reason
            );
        }
    }
}
