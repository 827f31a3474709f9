//! Mail transports and MIME: Maildir in and out, parsing inbound mail, building outbound mail.
//! Only `maildir` touches the disk; parsing and building are pure and know nothing of games'
//! rules, seats' secrets or the store.

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
