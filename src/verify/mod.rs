//! `despatch verify`: re-derives everything a game's dice promise, from a game store or from a
//! folder of the mails one player received. Reads files only; changes nothing.

mod dice_mail;
mod mails;
mod mime;
mod receipts;
mod signed;
mod store;
mod story;
mod strict;

pub use mails::{attached_mails, compare_folders, verify_mails, verify_mails_with};
pub use signed::{Welcome, read_welcome, sealed_unsigned, signed_by};
pub use store::verify_store;

/// What verify keeps of one sealed mail that passed its seal: enough to place it in the game.
#[derive(Debug, Clone)]
struct SealedMail {
    pub file: String,
    pub game: String,
    /// The seat it was sent to (from its reply address), if the mail says.
    pub seat: Option<String>,
    /// The footer's `log head #i hex`.
    pub head_index: u64,
    pub head: String,
    pub subject: String,
    pub text: String,
    /// The journal attached to a game-over mail.
    pub journal: Option<String>,
}

/// A finding: where, and what is wrong. Empty list = verified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub place: String,
    pub field: String,
    pub detail: String,
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}, field `{}`: {}", self.place, self.field, self.detail)
    }
}

/// What was checked, for the report printed on success.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Checked {
    pub events: u64,
    pub steps: u64,
    pub rolls: u64,
    pub mails: u64,
    /// Orders digests opened (a receipt's own, with its salt).
    pub digests: u64,
    /// Mails held against a replay of the journal a game-over mail carried.
    pub replayed_mails: u64,
    /// Mail signatures checked under the game's key `K`.
    pub signatures: u64,
    /// Bound strict reveals checked against their seat's opened onion (ruling S11).
    pub bound_reveals: u64,
    /// Strict seats whose bound reveals are not opened (yet): they cannot be checked.
    pub unopened: Vec<String>,
}

pub(crate) fn finding(
    place: impl Into<String>,
    field: impl Into<String>,
    detail: impl Into<String>,
) -> Finding {
    Finding {
        place: place.into(),
        field: field.into(),
        detail: detail.into(),
    }
}
