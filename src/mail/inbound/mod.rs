//! Inbound intake: raw RFC 5322 bytes → the words a player wrote, where they go, whether a
//! machine sent them, and why a mail holds nothing readable. Pure (no disk, clock or network),
//! never panics on garbage, and does not decide who may play: matching sender and token to a
//! seat is the daemon's job.
//!
//! The stages, one file each: [`headers`] (addresses, ids, automation signs), [`body`] (which
//! MIME part is the text, format=flowed, encryption and attachments), [`html`] (HTML to lines),
//! [`reply`] (quotes, attributions and signatures cut), [`routing`] (game, seat, token, HELP),
//! [`command`] (ADDRESS, TIMEZONE, NOTIFY, LIST, talk and seat acts: from the body, and from a
//! bare subject only when read-only).
//!
//! **Linear time.** Every stage makes one pass over its input, and every look-ahead is either
//! bounded by a constant (an entity is at most 32 bytes, an Outlook header block 4 lines) or
//! consumes what it scans (a tag, a comment, a run of blank lines is never scanned twice).
//! Duplicates are found with hash sets, never by searching what was kept. Hostile mails at 5 MB
//! in `tests/intake_hostile.rs` and `benches/intake.rs` keep this honest. Size limits are the
//! transport's job and come before this module (`Maildir::read_at_most`, IMAP's RFC822.SIZE).
//!
//! **Line numbers.** [`Inbound::body`] holds only the player's own lines, so line *n* of the body
//! is the *n*th line the player wrote, counted from their first line: quoted lines (`>` or an
//! HTML `<blockquote>`), attributions ("On … wrote:"), inline-image placeholders, PGP armour
//! headers and everything from a signature or a quoted original down are not counted, nor are
//! the blank lines that only frame such a removed block. Blank lines the player left between two
//! of their own lines count. So a bottom-posted reply numbers its first order 1, and in an
//! interleaved reply the quotes between the player's answers do not shift the numbers. GAME,
//! TOKEN and HELP lines are the player's own and count; [`strip_control_lines`] blanks them in
//! place for the same reason.

pub mod away;
mod body;
mod command;
pub mod desk;
mod headers;
mod html;
pub mod lobby;
mod reply;
mod routing;
mod seat_acts;

use mail_parser::MessageParser;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

pub use body::NothingReadable;
pub use command::{NotifyKind, SeatCommand, command_words, retired_form};
pub use routing::{
    CONTROL_WORDS, is_control_line, is_game_id, is_seat_id, is_token, route, strip_control_lines,
};
pub use seat_acts::SeatAct;

/// One line as the mail layer reads it when it is the first the player wrote: a seat command
/// (`STATUS`, `CONCEDE g1`, a command written wrong…), or None when it is not one (orders).
pub fn command_of(line: &str) -> Option<SeatCommand> {
    command::parse(line)
}

/// One inbound mail, reduced to what Despatch acts on.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Inbound {
    /// Message-ID without `<>`; `sha256:<hex of the raw bytes>` when the mail has none, so a
    /// re-delivered copy of the same bytes is still recognised as already processed; and
    /// `sha256:<hex of the id>` when the id is longer than [`MAX_KEPT_ID`] or holds control
    /// characters, so what is journaled and logged as a mail's id stays small and one line.
    /// Not necessarily a valid msg-id: mails echo it only through `outbound::echoable_id`.
    pub message_id: String,
    /// The id as the mail wrote it, when `message_id` replaced it by its hash: a journal
    /// written before ids were bounded holds this form, and a re-delivered mail must still
    /// be recognised there ([`Inbound::ids`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replaced_id: Option<String>,
    /// Sender address, lower-case.
    pub from: String,
    pub from_name: Option<String>,
    /// To, Cc, Delivered-To and X-Original-To addresses, lower-case, first occurrence kept.
    pub to: Vec<String>,
    pub subject: String,
    /// RFC 3339, as the sender's clock claimed it.
    pub date: Option<String>,
    /// What the player wrote, their own lines only (see the module doc on line numbers).
    pub body: String,
    /// Why the mail is automated (auto-reply, bounce, list…); such mail is never taken as orders.
    pub auto: Option<String>,
    /// For threading our answer under the player's mail.
    pub in_reply_to: Option<String>,
    pub references: Vec<String>,
    /// Set when the mail holds no text that can be read as orders (empty, only a quote, only a
    /// picture, encrypted…): such a mail is not a submission. `body` may still hold words, e.g.
    /// a greeting above an encrypted block, but they are not orders. A body that is only `PASS`
    /// is readable.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nothing_readable: Option<NothingReadable>,
}

/// Longest Message-ID kept as the mail wrote it (the cap of the ids mails carry).
pub const MAX_KEPT_ID: usize = MAX_ID_LEN;

/// Longest message id (bare, without `<>`) Despatch writes into a header or keeps as a
/// player's: RFC 5322 allows 998 octets per line, real ids are well under 100, and an id is
/// copied into `References` with others, so 250 leaves every header line short.
pub const MAX_ID_LEN: usize = 250;

impl Inbound {
    /// Every form of this mail's id a game may have recorded it under: the id as kept now,
    /// and the id as written when that was replaced by its hash.
    pub fn ids(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.message_id.as_str()).chain(self.replaced_id.as_deref())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IntakeError {
    #[error("not an RFC 5322 message: no header could be read")]
    NotAMessage,
    #[error("the message has no sender address in From")]
    NoSender,
}

/// Where a mail is going and with what credentials.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Route {
    pub game: Option<String>,
    pub seat: Option<String>,
    /// Lower-case: mail systems may fold the case of addresses, so seat secrets are compared
    /// case-insensitively and should be generated lower-case.
    pub token: Option<String>,
    pub help: bool,
    /// A seat command written instead of orders (`TIMEZONE Europe/Paris`, `LIST`, …).
    pub command: Option<SeatCommand>,
    /// The command word of a subject that would act (`CONCEDE`, `ADDRESS`…) over a body with
    /// nothing of the player's own: not carried out, since a subject never acts; the answer
    /// says to write it in the mail's text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subject_refused: Option<String>,
    /// The step the mail says it answers: from the reply address, else the In-Reply-To
    /// Message-ID, else the subject tag (`[game #4]`). None when it names none.
    pub step: Option<u64>,
    /// The lobby's secret of the address the mail came to (`despatch+lobby.<secret>@…`),
    /// lower-case: the sender answers a lobby mail that went to its own mailbox.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lobby: Option<String>,
}

/// Parses a raw message. Errors only when there is no message or no sender to speak of.
pub fn parse(raw: &[u8]) -> Result<Inbound, IntakeError> {
    let msg = MessageParser::default()
        .parse(raw)
        .ok_or(IntakeError::NotAMessage)?;
    if msg.headers().is_empty() {
        return Err(IntakeError::NotAMessage);
    }

    let (message_id, replaced_id) = match msg
        .message_id()
        .map(headers::normalise_id)
        .filter(|id| !id.is_empty())
    {
        None => (format!("sha256:{}", hex::encode(Sha256::digest(raw))), None),
        Some(id) if id.len() <= MAX_KEPT_ID && !id.chars().any(char::is_control) => (id, None),
        Some(id) => (
            format!("sha256:{}", hex::encode(Sha256::digest(id.as_bytes()))),
            Some(id),
        ),
    };
    let (from, from_name) = headers::sender(&msg).ok_or(IntakeError::NoSender)?;
    let subject = msg
        .subject()
        .map(|s| s.trim().to_string())
        .unwrap_or_default();
    let date = msg.date().filter(|d| d.is_valid()).map(|d| d.to_rfc3339());
    let in_reply_to = headers::ids(msg.in_reply_to()).into_iter().next();
    let references = headers::ids(msg.references());
    let auto = headers::auto_reason(&msg, &from);

    let cut = reply::cut_reply(&body::body_text(&msg));
    let nothing_readable = body::nothing_readable(&msg, &cut);

    Ok(Inbound {
        message_id,
        replaced_id,
        to: headers::recipients(&msg),
        from,
        from_name,
        subject,
        date,
        body: cut.body,
        auto,
        in_reply_to,
        references,
        nothing_readable,
    })
}
