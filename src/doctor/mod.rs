//! The organiser's guard rails: which user may write the data folder (`owner`), and the checks
//! of `despatch doctor`, each problem with its fix (`checks`). Those two are pure functions of
//! values; `facts` (owners, modes, the user database) and `net` (the mail servers) are the thin
//! edge that gathers them. Nothing here writes the data folder or changes a game.

pub mod checks;
pub mod facts;
pub mod net;
pub mod owner;

pub use checks::{Finding, Level};
pub use owner::{Account, Holder, NotOwner};
