//! Mail: transports (Maildir, IMAP, SMTP), MIME intake, composition and building. Only the
//! transports touch the outside world; intake, addresses, composition and building are pure
//! and know nothing of games' rules.

pub mod compose;
pub mod consent;
pub mod imap;
pub mod inbound;
pub mod maildir;
pub mod outbound;
pub mod smtp;

pub use inbound::{
    Inbound, IntakeError, NothingReadable, Route, parse, route, strip_control_lines,
};
pub use maildir::{Entry, Loaded, Maildir, unique_name_for};
pub use outbound::{BuildError, Outgoing, build, message_id, reply_address};
