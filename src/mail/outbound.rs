//! Outbound mail building: one reply as RFC 5322 bytes, threaded and marked as automatic.
//! Pure: it never reads the clock (the date comes in), never sends and never touches the disk.

use std::time::SystemTime;

use chrono::{DateTime, Utc};
use lettre::Message;
use lettre::message::header::ContentType;
use lettre::message::header::{HeaderName, HeaderValue};
use lettre::message::{Attachment, Mailbox, MultiPart, SinglePart};
use sha2::{Digest, Sha256};

use super::inbound::{MAX_ID_LEN, is_game_id, is_seat_id, is_token};

/// One mail to one recipient. Ids are bare (`abc@host`); `build` adds the angle brackets.
/// `from` and `reply_to` may carry a display name (`Despatch <despatch@club.example>`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Outgoing {
    pub to: String,
    pub to_name: Option<String>,
    pub from: String,
    pub reply_to: Option<String>,
    pub subject: String,
    /// The plain text, always present and complete (the sealed body).
    pub text: String,
    pub message_id: String,
    pub in_reply_to: Option<String>,
    pub references: Vec<String>,
    pub date: DateTime<Utc>,
    /// An HTML alternative to `text`.
    pub html: Option<String>,
    /// Parts the HTML shows inline (`<img src="cid:NAME">`), `name` being the Content-ID.
    pub inline: Vec<Part>,
    /// Attachments (the map's SVG, the deadline's .ics).
    pub attachments: Vec<Part>,
    /// The text carries a Mail-Digest seal: `X-Despatch-Seal: yes` tells `verify` to insist on it.
    pub sealed: bool,
    /// Nobody asked for this mail (results, reminders…): `Auto-Submitted: auto-generated`;
    /// otherwise it answers a player's mail: `auto-replied` (RFC 3834).
    pub auto_generated: bool,
    /// The game's `List-Id` (RFC 2919), so clients can file and filter a game's mails.
    pub list_id: Option<String>,
    /// RFC 2369 `List-Unsubscribe`: the URIs, each in `<…>`, comma-separated (a `mailto:`
    /// whose subject is STOP, and an `https:` one when one-click is configured).
    pub list_unsubscribe: Option<String>,
    /// RFC 8058: `List-Unsubscribe-Post: List-Unsubscribe=One-Click`, only when
    /// `list_unsubscribe` holds an https URI.
    pub one_click: bool,
}

/// One MIME part: a name (file name or Content-ID), a media type and its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    pub name: String,
    pub content_type: String,
    pub bytes: Vec<u8>,
}

#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error("invalid {field} address {value:?}")]
    Address { field: &'static str, value: String },
    #[error("invalid {field} message id {value:?}")]
    MessageId { field: &'static str, value: String },
    #[error("{0:?} cannot go into a reply address")]
    RouteId(String),
    #[error("cannot build the message: {0}")]
    Message(#[from] lettre::error::Error),
    /// The Date header cannot carry times before 1970 (lettre would panic on them).
    #[error("date {0} is before 1970 and cannot be a mail's Date")]
    Date(String),
}

/// Builds the mail: a single text/plain UTF-8 part, `Auto-Submitted: auto-replied` (RFC 3834,
/// so well-behaved responders never answer us) and `X-Auto-Response-Suppress: All` (Exchange).
pub fn build(o: &Outgoing) -> Result<Vec<u8>, BuildError> {
    let to_address: lettre::Address = o.to.trim().parse().map_err(|_| BuildError::Address {
        field: "To",
        value: o.to.clone(),
    })?;
    let to = Mailbox::new(o.to_name.as_deref().map(one_line), to_address);
    let from: Mailbox = o.from.trim().parse().map_err(|_| BuildError::Address {
        field: "From",
        value: o.from.clone(),
    })?;
    check_id("Message-ID", &o.message_id)?;
    if o.date.timestamp() < 0 {
        return Err(BuildError::Date(o.date.to_rfc3339()));
    }

    let mut builder = Message::builder()
        .from(from)
        .to(to)
        .subject(one_line(&o.subject))
        .date(SystemTime::from(o.date))
        .message_id(Some(format!("<{}>", o.message_id)));
    if let Some(reply_to) = &o.reply_to {
        let mailbox: Mailbox = reply_to.trim().parse().map_err(|_| BuildError::Address {
            field: "Reply-To",
            value: reply_to.clone(),
        })?;
        builder = builder.reply_to(mailbox);
    }
    if let Some(parent) = &o.in_reply_to {
        check_id("In-Reply-To", parent)?;
        builder = builder.in_reply_to(format!("<{parent}>"));
    }
    if !o.references.is_empty() {
        for id in &o.references {
            check_id("References", id)?;
        }
        let refs: Vec<String> = o.references.iter().map(|id| format!("<{id}>")).collect();
        builder = builder.references(refs.join(" "));
    }
    builder = list_and_robot_headers(builder, o);
    let text = SinglePart::plain(o.text.clone());
    let message = if o.html.is_none() && o.inline.is_empty() && o.attachments.is_empty() {
        builder.singlepart(text)?
    } else {
        builder.multipart(multipart_body(o, text)?)?
    };
    Ok(message.formatted())
}

/// The headers that tell mail robots what this is (auto-generated, no auto-replies), the
/// list headers (List-Id, List-Unsubscribe and its one-click Post) and the seal's flag.
fn list_and_robot_headers(
    mut builder: lettre::message::MessageBuilder,
    o: &Outgoing,
) -> lettre::message::MessageBuilder {
    builder = builder
        .raw_header(HeaderValue::new(
            HeaderName::new_from_ascii_str("Auto-Submitted"),
            if o.auto_generated {
                "auto-generated"
            } else {
                "auto-replied"
            }
            .to_string(),
        ))
        .raw_header(HeaderValue::new(
            HeaderName::new_from_ascii_str("X-Auto-Response-Suppress"),
            "All".to_string(),
        ));
    if let Some(list) = &o.list_id {
        builder = builder.raw_header(HeaderValue::new(
            HeaderName::new_from_ascii_str("List-Id"),
            one_line(list),
        ));
    }
    if let Some(uris) = &o.list_unsubscribe {
        builder = builder.raw_header(HeaderValue::new(
            HeaderName::new_from_ascii_str("List-Unsubscribe"),
            one_line(uris),
        ));
        // RFC 8058 requires an https URI beside the Post header.
        if o.one_click && uris.contains("<https://") {
            builder = builder.raw_header(HeaderValue::new(
                HeaderName::new_from_ascii_str("List-Unsubscribe-Post"),
                "List-Unsubscribe=One-Click".to_string(),
            ));
        }
    }
    if o.sealed {
        builder = builder.raw_header(HeaderValue::new(
            HeaderName::new_from_ascii_str("X-Despatch-Seal"),
            "yes".to_string(),
        ));
    }
    builder
}

/// mixed[ related[ alternative[text, html], inline images ], attachments ], each level only
/// when it has something in it.
fn multipart_body(o: &Outgoing, text: SinglePart) -> Result<MultiPart, BuildError> {
    let ct = |p: &Part| {
        ContentType::parse(&p.content_type).map_err(|_| BuildError::Address {
            field: "Content-Type",
            value: p.content_type.clone(),
        })
    };
    let mut body = MultiPart::alternative().singlepart(text);
    if let Some(html) = &o.html {
        body = body.singlepart(SinglePart::html(html.clone()));
    }
    if !o.inline.is_empty() {
        let mut related = MultiPart::related().multipart(body);
        for p in &o.inline {
            related = related
                .singlepart(Attachment::new_inline(p.name.clone()).body(p.bytes.clone(), ct(p)?));
        }
        body = related;
    }
    if !o.attachments.is_empty() {
        let mut mixed = MultiPart::mixed().multipart(body);
        for p in &o.attachments {
            let part = if p.content_type == "message/rfc822" {
                Attachment::new(p.name.clone()).body(attached_mail_body(&p.bytes), ct(p)?)
            } else {
                Attachment::new(p.name.clone()).body(p.bytes.clone(), ct(p)?)
            };
            mixed = mixed.singlepart(part);
        }
        body = mixed;
    }
    Ok(body)
}

/// A whole mail attached to another: RFC 2046 (5.2.1) allows it no encoding but 7bit, 8bit or
/// binary, so that readers open it as a mail. lettre would choose quoted-printable for any line
/// of 76 characters or more, but a mail's own lines may run to 998 (RFC 5322 2.1.1): our own
/// mails are 7-bit within that (their parts are encoded), so they go as they are; a mail that is
/// not falls back to what lettre chooses.
fn attached_mail_body(bytes: &[u8]) -> lettre::message::Body {
    use lettre::message::Body;
    use lettre::message::header::ContentTransferEncoding;
    // Lines of at most 998 octets, each ended by CRLF (no bare CR or LF), and no NUL.
    let lines_fit = bytes.split(|&b| b == b'\n').all(|l| l.len() <= 999);
    let crlf = bytes.iter().enumerate().all(|(i, &b)| match b {
        b'\n' => i > 0 && bytes[i - 1] == b'\r',
        b'\r' => bytes.get(i + 1) == Some(&b'\n'),
        _ => true,
    });
    if lines_fit && crlf && !bytes.contains(&0) {
        let encoding = if bytes.is_ascii() {
            Some(ContentTransferEncoding::SevenBit)
        } else if std::str::from_utf8(bytes).is_ok() {
            Some(ContentTransferEncoding::EightBit)
        } else {
            None
        };
        if let Some(encoding) = encoding {
            return Body::dangerous_pre_encoded(bytes.to_vec(), encoding);
        }
    }
    Body::new(bytes.to_vec())
}

/// A deterministic Message-ID (bare, without `<>`): the first 32 hex digits of the SHA-256 of
/// the length-prefixed parts, `@domain`. The same parts (game, seat, step, kind…) always give
/// the same id, so a resent mail is recognisably the same mail.
pub fn message_id(parts: &[&str], domain: &str) -> String {
    let mut hasher = Sha256::new();
    for part in parts {
        // Length prefixes keep ["ab", "c"] and ["a", "bc"] apart.
        hasher.update((part.len() as u64).to_be_bytes());
        hasher.update(part.as_bytes());
    }
    let digest = hex::encode(hasher.finalize());
    format!("{}@{domain}", &digest[..32])
}

/// A Message-ID that also names the step its mail asks about: `<32 hex>.s<step>@domain`, so a
/// reply's In-Reply-To says which step the reply answers ([`super::inbound::route`]).
pub fn step_message_id(parts: &[&str], step: u64, domain: &str) -> String {
    let id = message_id(parts, domain);
    let (local, domain) = id.split_once('@').unwrap_or((&id, domain));
    format!("{local}.s{step}@{domain}")
}

/// A game's `List-Id`: `Despatch game <game> <<game>.despatch.<domain>>`.
/// The `List-Unsubscribe` mailto URI of one recipient: a mail to `reply` (the seat's own
/// reply address, or the game's address for a spectator) whose subject is STOP.
pub fn unsubscribe_mailto(reply: &str) -> String {
    format!("<mailto:{reply}?subject=STOP>")
}

/// The per-recipient code of the one-click URI (RFC 8058): 32 hex digits of SHA-256 over a
/// domain tag and `parts` (each length-prefixed), one of which is a secret of the recipient
/// (a seat's token, a spectator's stop code), so the code is unguessable and reveals nothing.
pub fn unsubscribe_code(parts: &[&str]) -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    h.update(b"despatch-unsubscribe/v1");
    for p in parts {
        h.update((p.len() as u64).to_be_bytes());
        h.update(p.as_bytes());
    }
    hex::encode(&h.finalize()[..16])
}

/// `List-Unsubscribe` with the one-click https URI first (when configured), then the mailto.
pub fn unsubscribe_uris(https: Option<&str>, code: Option<&str>, mailto: String) -> (String, bool) {
    match (https, code) {
        // The code as the URL's last path segment: what `despatch listen` serves (L1).
        (Some(base), Some(code)) => (
            format!("<{}/{code}>, {mailto}", base.trim_end_matches('/')),
            true,
        ),
        _ => (mailto, false),
    }
}

pub fn list_id(game: &str, domain: &str) -> String {
    format!("Despatch game {game} <{game}.despatch.{domain}>")
}

/// The subject tag `[<game>]`, or `[<game> #<step>]` when the mail asks about a step, which
/// [`super::inbound::route`] reads back from a reply's subject.
pub fn subject_tag(game: &str, step: Option<u64>) -> String {
    match step {
        Some(k) => format!("[{game} #{k}]"),
        None => format!("[{game}]"),
    }
}

/// The per-seat reply address `<local_part>+<game>.<seat>.<token>[.s<step>]@<domain>` that
/// [`super::inbound::route`] reads back, so a plain reply carries game, seat, secret and the
/// step the mail asked about.
pub fn reply_address(
    local_part: &str,
    game: &str,
    seat: &str,
    token: &str,
    step: Option<u64>,
    domain: &str,
) -> Result<String, BuildError> {
    for (ok, value) in [
        (is_game_id(game), game),
        (is_seat_id(seat), seat),
        (is_token(token), token),
    ] {
        if !ok {
            return Err(BuildError::RouteId(value.to_string()));
        }
    }
    Ok(match step {
        Some(k) => format!("{local_part}+{game}.{seat}.{token}.s{k}@{domain}"),
        None => format!("{local_part}+{game}.{seat}.{token}@{domain}"),
    })
}

/// Most characters of a header text (a subject, a display name) a mail carries: a player's
/// subject of any size is answered, cut here, so no header is ever too long to send.
pub const MAX_HEADER_CHARS: usize = 250;

/// A header text on one line: split at control characters (CR, LF, tabs, NUL…), the pieces
/// trimmed and joined by one space, and at most [`MAX_HEADER_CHARS`] characters kept.
fn one_line(s: &str) -> String {
    s.split(char::is_control)
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .flat_map(|p| std::iter::once(' ').chain(p.chars()))
        .skip(1)
        .take(MAX_HEADER_CHARS)
        .collect()
}

/// Whether a bare id (no `<>`) is an RFC 5322 `msg-id` Despatch may write into a header:
/// `id-left "@" id-right`, the left a dot-atom-text, the right a dot-atom-text or a
/// no-fold-literal (`[…]`), ASCII only, at most [`MAX_ID_LEN`] octets. One pass, no
/// allocation. Every id a mail carries is held to this, ours and players' alike.
pub fn valid_message_id(id: &str) -> bool {
    if id.is_empty() || id.len() > MAX_ID_LEN {
        return false;
    }
    let Some((left, right)) = id.split_once('@') else {
        return false;
    };
    // RFC 5322 atext: ALPHA / DIGIT and these.
    let atext = |b: u8| b.is_ascii_alphanumeric() || b"!#$%&'*+-/=?^_`{|}~".contains(&b);
    // dot-atom-text: 1*atext *("." 1*atext): no empty part, so no leading, trailing or
    // doubled dot.
    let dot_atom = |s: &str| {
        !s.is_empty()
            && s.split('.')
                .all(|part| !part.is_empty() && part.bytes().all(atext))
    };
    // no-fold-literal: "[" *dtext "]", dtext being printable ASCII but `[`, `]` and `\`.
    let literal = |s: &str| {
        s.len() >= 2
            && s.starts_with('[')
            && s.ends_with(']')
            && s[1..s.len() - 1]
                .bytes()
                .all(|b| b.is_ascii_graphic() && !matches!(b, b'[' | b']' | b'\\'))
    };
    dot_atom(left) && (dot_atom(right) || literal(right))
}

/// A player's id as a mail may echo it (In-Reply-To, References), or None when it is not a
/// valid `msg-id` ([`valid_message_id`]): such an id is left out, and threading falls back
/// to what Despatch wrote itself, rather than the mail failing to build.
pub fn echoable_id(id: &str) -> Option<&str> {
    valid_message_id(id).then_some(id)
}

fn check_id(field: &'static str, id: &str) -> Result<(), BuildError> {
    if valid_message_id(id) {
        Ok(())
    } else {
        Err(BuildError::MessageId {
            field,
            value: id.chars().take(80).collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Outgoing {
        Outgoing {
            to: "togo@example.jp".into(),
            to_name: Some("Heihachiro Togo".into()),
            from: "Despatch <despatch@club.example>".into(),
            reply_to: Some("despatch+tsushima-1.japan.k3y@club.example".into()),
            subject: "[tsushima-1] Turn 3:\r\n orders received".into(),
            text: "Turn 3 orders received.\n".into(),
            message_id: message_id(&["tsushima-1", "japan", "receipt", "3"], "club.example"),
            in_reply_to: Some("CAF00@mail.gmail.com".into()),
            references: vec!["a1@club.example".into(), "CAF00@mail.gmail.com".into()],
            date: DateTime::parse_from_rfc3339("2024-06-03T10:02:00Z")
                .map(|d| d.with_timezone(&Utc))
                .unwrap_or_default(),
            ..Default::default()
        }
    }

    #[test]
    fn dates_before_1970_are_an_error_not_a_panic() {
        let mut o = sample();
        o.date = DateTime::parse_from_rfc3339("1904-08-10T12:30:00Z")
            .map(|d| d.with_timezone(&Utc))
            .unwrap_or_default();
        assert!(matches!(build(&o), Err(BuildError::Date(_))));
    }

    #[test]
    fn message_ids_are_deterministic_and_separated() {
        let a = message_id(&["ab", "c"], "club.example");
        assert_eq!(a, message_id(&["ab", "c"], "club.example"));
        assert_ne!(a, message_id(&["a", "bc"], "club.example"));
        assert_eq!(a.len(), 32 + "@club.example".len());
    }

    #[test]
    fn built_mail_carries_threading_and_auto_headers() {
        let raw = String::from_utf8(build(&sample()).expect("builds")).expect("ascii");
        for needle in [
            "Auto-Submitted: auto-replied\r\n",
            "X-Auto-Response-Suppress: All\r\n",
            "In-Reply-To: <CAF00@mail.gmail.com>\r\n",
            "References: <a1@club.example> <CAF00@mail.gmail.com>\r\n",
            "Date: Mon, 03 Jun 2024 10:02:00 +0000\r\n",
            "Subject: [tsushima-1] Turn 3: orders received\r\n",
            "Content-Type: text/plain; charset=utf-8\r\n",
        ] {
            assert!(raw.contains(needle), "missing {needle:?} in\n{raw}");
        }
        assert!(!raw.contains("Precedence"));
    }

    #[test]
    fn only_rfc_5322_msg_ids_are_valid() {
        for good in [
            "CAF00@mail.gmail.com",
            "a.b+c@x",
            "!#$%&'*+-/=?^_`{|}~@x.y",
            "1700000000.123@[192.0.2.1]",
            "x@[IPv6:2001:db8::1]",
            &format!("{}@x", "a".repeat(MAX_ID_LEN - 2)),
        ] {
            assert!(valid_message_id(good), "{good:?}");
            assert_eq!(echoable_id(good), Some(good));
        }
        for bad in [
            "",
            "1700000000.123",
            "\"a b\"@x",
            "a b@x",
            "a<b@x",
            "<a@x>",
            "a@b@c",
            "ü@x",
            "a@ü.example",
            "sha256:0123abcd",
            ".a@x",
            "a.@x",
            "a..b@x",
            "a@x.",
            "a@",
            "@x",
            "a@[x\\y]",
            "a@[x[y]",
            "a@[]x",
            "a\r\n@x",
            &format!("{}@x", "a".repeat(MAX_ID_LEN - 1)),
        ] {
            assert!(!valid_message_id(bad), "{bad:?}");
            assert_eq!(echoable_id(bad), None);
        }
    }

    #[test]
    fn any_subject_builds_on_one_short_line() {
        let mut o = sample();
        o.subject = format!("Re: \u{7}hi\r\nBcc: x@y\0 {}", "ü".repeat(100_000));
        let raw = String::from_utf8(build(&o).expect("builds")).expect("ascii");
        let parsed = mail_parser::MessageParser::default()
            .parse(raw.as_bytes())
            .expect("parses");
        let subject = parsed.subject().expect("a subject");
        assert_eq!(subject.chars().count(), MAX_HEADER_CHARS);
        assert!(subject.starts_with("Re: hi Bcc: x@y üü"), "{subject}");
        assert!(parsed.bcc().is_none(), "nothing is injected as a header");
    }

    #[test]
    fn bad_ids_and_addresses_are_errors() {
        let mut o = sample();
        o.in_reply_to = Some("<x@y>".into());
        assert!(matches!(build(&o), Err(BuildError::MessageId { .. })));
        let mut o = sample();
        o.to = "not an address".into();
        assert!(matches!(build(&o), Err(BuildError::Address { .. })));
        assert!(reply_address("despatch", "Tsushima", "japan", "k3y", None, "x").is_err());
        assert_eq!(
            reply_address(
                "despatch",
                "tsushima-1",
                "japan",
                "k3y",
                None,
                "club.example"
            )
            .ok(),
            Some("despatch+tsushima-1.japan.k3y@club.example".to_string())
        );
        assert_eq!(
            reply_address(
                "despatch",
                "tsushima-1",
                "japan",
                "k3y",
                Some(4),
                "club.example"
            )
            .ok(),
            Some("despatch+tsushima-1.japan.k3y.s4@club.example".to_string())
        );
        let id = step_message_id(&["tsushima-1", "japan", "results"], 4, "club.example");
        assert!(id.ends_with(".s4@club.example") && id.len() == 32 + ".s4@club.example".len());
    }
}
