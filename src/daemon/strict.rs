//! Making a new game strict (docs/strict-dice.md): the seats' anchors are journaled right
//! after the game's creation, and mailed to every seat after the welcome.

use anyhow::{Result, anyhow, bail};
use chrono::{DateTime, Utc};

use crate::dice::Hash;
use crate::engine::strict;

use super::Daemon;

impl Daemon {
    /// Records `anchors` (seat, anchor, onion length) as the game's strict seats, with
    /// `reveal_hours` for each reveal. Only right after `create_game`, before any other event.
    pub fn make_strict(
        &self,
        id: &str,
        anchors: &[(String, Hash, u64)],
        reveal_hours: u32,
        now: DateTime<Utc>,
    ) -> Result<()> {
        self.make_strict_as(id, anchors, reveal_hours, now, strict::BOUND)
    }

    /// `make_strict` with the onion layout of `onion_index` (`strict::BOUND` for every game
    /// made now; `strict::BY_REVEAL` is the layout of games made before reveals were bound,
    /// which must still play on and verify — their tests make such games with it).
    pub fn make_strict_as(
        &self,
        id: &str,
        anchors: &[(String, Hash, u64)],
        reveal_hours: u32,
        now: DateTime<Utc>,
        onion_index: &str,
    ) -> Result<()> {
        let mut g = self.open_game(id)?;
        if g.game.book().events != 1 {
            bail!("game `{id}` has already begun: strict dice are chosen when it is created");
        }
        let mut ev = strict::strict_mode_event(anchors, reveal_hours, now);
        if let crate::engine::Event::StrictMode { onion_index: i, .. } = &mut ev {
            *i = Some(onion_index.to_string());
        }
        // The engine checks the seats and anchors as it applies the event; nothing is
        // journaled if it refuses.
        let mut probe = g.game.boxed_clone();
        probe
            .apply(&ev, &ev.to_line(), 1)
            .map_err(|e| anyhow!("strict seats: {}", e.detail))?;
        self.append(&mut g, &ev, now)?;
        self.settle_open(&mut g, now)?;
        self.close(&g)
    }
}
