//! When something fails, it fails alone: a message that cannot be processed is quarantined with
//! its reason and the pass goes on; a game that fails is set aside for the pass and the others
//! go on; the organiser is told once per trouble (a mail named after it, so it is queued once).

use anyhow::{Result, anyhow};
use chrono::{DateTime, Utc};
use sha2::{Digest, Sha256};
use tracing::error;

use crate::mail::maildir::Entry;
use crate::mail::outbound::{self, Outgoing};
use crate::store::{GameStore, atomic_write};

use super::Daemon;

fn short(s: &str) -> String {
    hex::encode(&Sha256::digest(s.as_bytes())[..8])
}

impl Daemon {
    /// Queues a report to the organiser under `name` in `store`'s outbox (a game's, or the
    /// house's for trouble that belongs to no game). The same name is queued once, so a trouble
    /// that repeats every pass is reported once. Without an organiser address it is only logged.
    pub(super) fn tell_gm(
        &self,
        store: &GameStore,
        gm: Option<String>,
        name: &str,
        subject: &str,
        text: &str,
        now: DateTime<Utc>,
    ) -> Result<()> {
        let Some(gm) = gm.or_else(|| self.cfg.mail.gm_address.clone()) else {
            return Ok(());
        };
        let (local, domain) = self.cfg.address_parts();
        let out = Outgoing {
            to: gm,
            from: format!(
                "{} <{local}@{domain}>",
                self.cfg.mail.from_name.replace(['<', '>', '"'], "")
            ),
            subject: format!("[{}] {subject}", store.id),
            text: text.to_string(),
            message_id: outbound::message_id(&[&store.id, "gm", name], &domain),
            date: now,
            ..Default::default()
        };
        let bytes = outbound::build(&out).map_err(|e| anyhow!("building the GM report: {e}"))?;
        if !self.data.is_house(store) {
            self.data.mark_pending(&store.id)?;
        }
        store.queue(name, &bytes)?;
        Ok(())
    }

    /// A message that could not be processed: kept in `quarantine/` with the reason, out of the
    /// inbox's way, and the organiser told once.
    pub(super) fn quarantine(
        &self,
        entry: &Entry,
        raw: Option<&[u8]>,
        why: &anyhow::Error,
        now: DateTime<Utc>,
    ) -> Result<()> {
        let key = short(&entry.id);
        error!(entry = %entry.id, "message set aside in quarantine: {why:#}");
        let dir = self.data.root.join("quarantine");
        if let Some(raw) = raw {
            atomic_write(&dir.join(format!("{key}.eml")), raw)?;
        }
        atomic_write(
            &dir.join(format!("{key}.why")),
            format!("{}\n{why:#}\n", entry.id).as_bytes(),
        )?;
        self.tell_gm(
            &self.data.house(),
            None,
            &format!("quarantined-{key}"),
            "A mail could not be processed",
            &format!(
                "Despatch could not process a mail and set it aside; every other mail and game\n\
                 went on.\n\nReason: {why:#}\n\nThe mail is kept in {} as {key}.eml.\n",
                dir.display()
            ),
            now,
        )
    }

    /// A game that failed this pass: logged, the organiser told once per distinct trouble,
    /// with its cause and the fix. A game whose files the daemon may not read (made by an
    /// organiser command run as another user) gets the `chown` and the rule that prevents it;
    /// any other failure gets the error and what to check. The game's own organiser is read
    /// from its seats file, which an unreadable game may not give: then `mail.gm_address`.
    pub(super) fn game_trouble(&self, game: &str, why: &anyhow::Error, now: DateTime<Utc>) {
        error!(game, "game set aside this pass: {why:#}");
        let store = self.data.game(game);
        let gm = store.seats().ok().and_then(|s| s.gm);
        let text = format!("{why:#}");
        let denied = crate::doctor::facts::permission_denied(why).map(|path| {
            let path = path.unwrap_or_else(|| store.dir.clone());
            let owner = crate::doctor::facts::owner_of(&path);
            (path, owner)
        });
        let advice = crate::doctor::owner::unreadable_game_advice(
            game,
            &store.dir,
            &text,
            denied.as_ref().map(|(p, o)| (p.as_path(), o.as_ref())),
            &crate::doctor::facts::me(),
        );
        let told = self.tell_gm(
            &self.data.house(),
            gm,
            &format!("trouble-{game}-{}", short(&text)),
            &format!("Game {game} is set aside"),
            &format!(
                "Despatch could not advance game {game} and set it aside; every other game goes\n\
                 on, and it is tried again at each pass.\n\n{advice}"
            ),
            now,
        );
        if let Err(e) = told {
            error!(game, "could not queue the report to the organiser: {e:#}");
        }
    }
}
