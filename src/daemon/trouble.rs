//! When something fails, it fails alone: a message that cannot be processed is held with its
//! reason (`held`) and the pass goes on; a game that fails is set aside for the pass and the others
//! go on; the organiser is told once per trouble (a mail named after it, so it is queued once).

use anyhow::{Result, anyhow};
use chrono::{DateTime, Utc};
use sha2::{Digest, Sha256};
use tracing::error;

use crate::mail::compose::OrganiserReport;
use crate::mail::outbound::{self, Outgoing};
use crate::store::GameStore;

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
        report: &OrganiserReport,
        now: DateTime<Utc>,
    ) -> Result<()> {
        let Some(gm) = gm.or_else(|| self.cfg.mail.gm_address.clone()) else {
            return Ok(());
        };
        let (subject, text) = report.words();
        let (local, domain) = self.cfg.address_parts();
        let out = Outgoing {
            to: gm.clone(),
            from: format!(
                "{} <{local}@{domain}>",
                crate::mail::compose::house_display_name(&self.cfg.mail.from_name)
            ),
            subject: format!("[{}] {subject}", store.id),
            text,
            // "Reply" reaches the organiser's desk (issue 31 point 4).
            reply_to: self.desk_reply_to(&gm),
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

    /// A ruleset's order reference (`README.md` under its games folder) cannot be read, so a
    /// HELP is answered without it: the organiser is told once per game and ruleset (the
    /// report's name), with where it was looked for. Returns whether anyone was told.
    pub(super) fn reference_missing(
        &self,
        g: &super::OpenGame,
        now: DateTime<Utc>,
    ) -> Result<bool> {
        let ruleset = g.game.ruleset();
        let gm = g.seats.gm.clone();
        if gm.is_none() && self.cfg.mail.gm_address.is_none() {
            return Ok(false);
        }
        let place = match self.cfg.ruleset_dir(ruleset) {
            Ok(dir) => format!("{}", dir.join("README.md").display()),
            Err(e) => format!("the games folder ({e})"),
        };
        self.tell_gm(
            &g.store,
            gm,
            &format!("reference-missing-{ruleset}"),
            &OrganiserReport::ReferenceMissing {
                ruleset,
                place: &place,
            },
            now,
        )?;
        Ok(true)
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
            &OrganiserReport::GameSetAside {
                game,
                advice: &advice,
            },
            now,
        );
        if let Err(e) = told {
            error!(game, "could not queue the report to the organiser: {e:#}");
        }
    }
}
