//! One game in the shell's hands: opened from its store, advanced by the events the engine
//! decides (results, locks, the clock's due events, a new onion), each appended and then mailed
//! from the journal. The daemon executes; the decisions are `engine::Play`'s.

use anyhow::{Result, anyhow};
use chrono::{DateTime, Utc};
use sha2::Digest;
use tracing::{error, info};

use crate::dice::GameSecrets;
use crate::engine::registry::parse_line;
use crate::engine::{Event, Play};
use crate::mail::compose::{self, Draft, MailCtx, OrganiserReport};
use crate::mail::outbound::{self, Part};
use crate::store::{GameStore, WaitingEntry, WaitingMail};

use super::Daemon;
use super::campaign::NewGame;
use super::open_game::{OpenGame, press_copy};

impl Daemon {
    pub(super) fn mail_ctx<'a>(&'a self, g: &'a OpenGame, now: DateTime<Utc>) -> MailCtx<'a> {
        let reference = g
            .reference
            .get_or_init(|| self.cfg.order_reference(g.game.ruleset()));
        MailCtx {
            game_address: &self.cfg.mail.address,
            recipients: g.recipients(),
            reference: reference.as_deref(),
            salt_key: crate::engine::HostSecrets::salt_key(&g.secrets),
            journal: None,
            press: None,
            gm_known: g.seats.gm.is_some() || self.cfg.mail.gm_address.is_some(),
            mail_key: g.secrets.mail_key,
            unsubscribe_url: self.cfg.web.unsubscribe_url.as_deref(),
            site_url: self.cfg.site_url(),
            gathered: &[],
            campaign: None,
            now,
        }
    }

    /// Builds and queues drafts under their deterministic names.
    pub(super) fn queue(&self, g: &OpenGame, drafts: &[Draft], now: DateTime<Utc>) -> Result<()> {
        let mails = self.build_mails(g, drafts, now)?;
        g.store.queue_all(&mails)?;
        Ok(())
    }

    /// `queue` for the mails of journal event `index`, then `mailed` moved to it, with one
    /// fsync commit for the mails and the mark (see `GameStore::queue_mailed`).
    ///
    /// A draft that waits for its seat's next mail (`compose::gather`) is kept, not queued; a
    /// draft that brings waiting mails gets each attached whole (`message/rfc822`), and they are
    /// marked brought once it is queued.
    fn queue_event(
        &self,
        g: &OpenGame,
        drafts: &[Draft],
        index: u64,
        now: DateTime<Utc>,
    ) -> Result<()> {
        let (sending, kept): (Vec<&Draft>, Vec<&Draft>) =
            drafts.iter().partition(|d| d.waits.is_none());
        let mut mails = Vec::with_capacity(sending.len());
        for d in &sending {
            let attached = d
                .brings
                .iter()
                .filter_map(|name| {
                    // Read only now, for the mail that brings it.
                    let bytes = g.store.gathered_mail(&d.seat, name);
                    if bytes.is_none() {
                        // Removed by hand: the mail goes without it (its Parts still name it,
                        // so `verify` says which is missing) rather than never.
                        error!(game = %g.store.id, seat = %d.seat, mail = %name, "a waiting mail is gone");
                    }
                    bytes.map(|bytes| Part {
                        name: format!("{name}.eml"),
                        content_type: "message/rfc822".into(),
                        bytes,
                    })
                })
                .collect();
            mails.extend(self.build_mails_with(g, std::slice::from_ref(*d), now, attached)?);
        }
        let mut keep = Vec::with_capacity(kept.len());
        for d in &kept {
            for (name, bytes) in self.build_mails(g, std::slice::from_ref(*d), now)? {
                keep.push(WaitingMail {
                    seat: d.seat.clone(),
                    name,
                    note: d.waits.clone().unwrap_or_default(),
                    // The seal's digest is in the draft's text as it goes out (signing adds a
                    // signature after it and changes nothing above).
                    digest: crate::report::claimed_digest(&d.text).unwrap_or_default(),
                    bytes,
                });
            }
        }
        g.store.queue_mailed_gathering(&mails, &keep, index)?;
        for d in sending.iter().filter(|d| !d.brings.is_empty()) {
            g.store.mark_brought(&d.seat, &d.brings)?;
        }
        Ok(())
    }

    /// The drafts as mails (name, bytes); marks the game as having mail queued first. A draft
    /// that cannot be built is set aside (`unbuilt/<name>.txt`, the organiser told once) and
    /// the others are built: one mail must never stop its game's mail (and so its `mailed`
    /// mark, and every later event's mail) for good.
    fn build_mails(
        &self,
        g: &OpenGame,
        drafts: &[Draft],
        now: DateTime<Utc>,
    ) -> Result<Vec<(String, Vec<u8>)>> {
        self.build_mails_with(g, drafts, now, Vec::new())
    }

    /// `build_mails`, each mail with `attached` (the waiting mails one brings) added.
    fn build_mails_with(
        &self,
        g: &OpenGame,
        drafts: &[Draft],
        now: DateTime<Utc>,
        attached: Vec<Part>,
    ) -> Result<Vec<(String, Vec<u8>)>> {
        let ctx = self.mail_ctx(g, now);
        if !drafts.is_empty() {
            self.data.mark_pending(&g.store.id)?;
        }
        let mut mails = Vec::with_capacity(drafts.len());
        for d in drafts {
            let built = d
                .outgoing(&ctx)
                .map_err(|e| format!("addressing it: {e}"))
                .and_then(|mut out| {
                    out.attachments.extend(attached.iter().cloned());
                    outbound::build(&out).map_err(|e| format!("building it: {e}"))
                });
            match built {
                Ok(bytes) => mails.push((d.name.clone(), bytes)),
                Err(why) => self.set_aside_unbuilt(g, d, &why, now)?,
            }
        }
        Ok(mails)
    }

    /// Keeps what is known of a draft that cannot be built — its name, kind, seat, subject
    /// and why — in `<game>/unbuilt/<name>.txt`, and tells the organiser once (the report is
    /// queued under a name of its own). No seat's secret is written: an error that quotes a
    /// reply address has every seat's secret blanked first, and the draft's text (which may
    /// hold a seat's orders and salt) is not kept.
    fn set_aside_unbuilt(
        &self,
        g: &OpenGame,
        d: &Draft,
        why: &str,
        now: DateTime<Utc>,
    ) -> Result<()> {
        let mut why: String = why.chars().take(500).collect();
        for r in g.recipients() {
            if !r.private.token.is_empty() {
                why = why.replace(&r.private.token, "<secret>");
            }
        }
        let name: String = d
            .name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        error!(game = %g.store.id, mail = %name, seat = %d.seat, "a mail could not be built and was set aside: {why}");
        let path = g.store.dir.join("unbuilt").join(format!("{name}.txt"));
        let record = format!(
            "mail: {name}\nkind: {:?}\nseat: {}\nsubject: {}\nerror: {why}\n",
            d.kind,
            d.seat,
            d.full_subject().chars().take(200).collect::<String>(),
        );
        crate::store::atomic_write_private(&path, record.as_bytes())?;
        // One report per seat and cause (a broken address fails every mail to the seat; the
        // organiser hears of it once, not once a step).
        let cause = hex::encode(&sha2::Sha256::digest(why.as_bytes())[..6]);
        self.tell_gm(
            &g.store,
            g.seats.gm.clone(),
            &format!("unbuilt-{}-{cause}", d.seat),
            &OrganiserReport::Unbuilt {
                name: &name,
                seat: &d.seat,
                game: &g.store.id,
                why: &why,
                kept: &path.parent().unwrap_or(&path).display().to_string(),
            },
            now,
        )
    }

    /// Appends one event (fsynced), applies it, and queues its mails from the game as it stands
    /// right after it.
    pub(super) fn append(&self, g: &mut OpenGame, event: &Event, now: DateTime<Utc>) -> Result<()> {
        let line = event.to_line();
        let index = g.game.book().events;
        g.game
            .apply(event, &line, index)
            .map_err(|e| anyhow!("refusing to journal an event the engine rejects: {e}"))?;
        g.store.append(event, index, &g.game.book().head)?;
        g.site_due |= super::site::shows(event);
        if g.store.mailed_upto()?.is_some_and(|m| m + 1 == index) {
            // The game-over mail carries the whole journal (read once, at the game's end).
            let journal = match event {
                Event::GameEnded { .. } => Some(g.store.read_journal()?.lines),
                _ => None,
            };
            let press = press_copy(&g.store, event);
            let gathered = gathered_list(&g.store, &g.store.waiting_list()?);
            let campaign = match event {
                Event::GameEnded { .. } => self.campaign_text_at_end(g.game.as_ref()),
                _ => None,
            };
            let mut ctx = self.mail_ctx(g, now);
            ctx.journal = journal.as_deref();
            ctx.campaign = campaign.as_deref();
            ctx.press = press.as_ref();
            ctx.gathered = &gathered;
            let drafts = compose::drafts_for_event(g.game.as_ref(), event, index, &ctx)?;
            self.league_mail_at_end(g.game.as_ref(), event, now)?;
            self.campaign_mark_at_end(g.game.as_ref(), event, now)?;
            // Observers' mails first: named per step and observer, so a re-derivation skips them.
            self.spectator_mail_for(g, g.game.as_ref(), event, &ctx)?;
            self.queue_event(g, &drafts, index, now)?;
        } else {
            self.catch_up_mail(g, now)?;
        }
        Ok(())
    }

    /// Queues the mails of every journaled event after `mailed`, each from the game as it was
    /// right after its event (a crash between append and mail heals here).
    fn catch_up_mail(&self, g: &OpenGame, now: DateTime<Utc>) -> Result<()> {
        let from = match g.store.mailed_upto()? {
            Some(i) => i + 1,
            None => 0,
        };
        // The usual case costs one small read: everything journaled is mailed.
        if from >= g.game.book().events {
            return Ok(());
        }
        let journal = g.store.read_journal()?;
        let mut ctx = self.mail_ctx(g, now);
        let mut game: Option<Box<dyn Play>> = None;
        for (i, line) in journal.lines.iter().enumerate() {
            let ev = parse_line(i as u64, line)?;
            match game.as_mut() {
                None => {
                    let entry = self.registry.get(g.game.ruleset())?;
                    game = Some(entry.open(&ev, line)?);
                }
                Some(p) => p.apply(&ev, line, i as u64)?,
            }
            if (i as u64) < from {
                continue;
            }
            let p = game.as_deref().expect("set above");
            ctx.journal = matches!(ev, Event::GameEnded { .. }).then(|| &journal.lines[..=i]);
            let press = press_copy(&g.store, &ev);
            // Read again for each event: the last one's mails may have added or brought some.
            let gathered = gathered_list(&g.store, &g.store.waiting_list()?);
            let campaign = match ev {
                Event::GameEnded { .. } => self.campaign_text_at_end(p),
                _ => None,
            };
            let ctx = MailCtx {
                press: press.as_ref(),
                gathered: &gathered,
                campaign: campaign.as_deref(),
                ..ctx.clone()
            };
            let drafts = compose::drafts_for_event(p, &ev, i as u64, &ctx)?;
            self.league_mail_at_end(p, &ev, now)?;
            self.campaign_mark_at_end(p, &ev, now)?;
            self.spectator_mail_for(g, p, &ev, &ctx)?;
            self.queue_event(g, &drafts, i as u64, now)?;
        }
        Ok(())
    }

    /// Locks and resolves every step that can be, commits new onions when due, ends the game
    /// when it is over, and mails every event not yet mailed. Returns the steps resolved.
    /// Safe to call at any time (idempotent).
    pub fn settle(&self, id: &str, now: DateTime<Utc>) -> Result<usize> {
        let mut g = self.open_game(id)?;
        let n = self.settle_open(&mut g, now)?;
        self.close(&g)?;
        Ok(n)
    }

    pub(super) fn settle_open(&self, g: &mut OpenGame, now: DateTime<Utc>) -> Result<usize> {
        self.catch_up_mail(g, now)?;
        let mut resolved = 0;
        loop {
            if let Some(from_step) = g.game.renewal_due() {
                self.renew_onion(g, from_step, now)?;
                continue;
            }
            let Some(ev) = g.game.next_event(&g.secrets, now).map_err(|e| anyhow!(e))? else {
                break;
            };
            if matches!(ev, Event::Results { .. }) {
                resolved += 1;
            }
            // At the end the pages show everything, now that nothing is hidden any more:
            // written when the game is closed (`close`), as after every change.
            self.append(g, &ev, now)?;
        }
        Ok(resolved)
    }

    /// Reminders and deadlines for one game, then whatever they make ready.
    pub fn tick(&self, id: &str, now: DateTime<Utc>) -> Result<usize> {
        let mut g = self.open_game(id)?;
        let due = g.game.due_events(now);
        if due.iter().any(|e| !matches!(e, Event::Reminder { .. })) {
            info!(game = id, step = g.game.book().step, waiting = ?g.game.waiting_for(), "deadline passed");
        }
        for ev in &due {
            self.append(&mut g, ev, now)?;
        }
        let n = self.settle_open(&mut g, now)?;
        self.close(&g)?;
        Ok(n)
    }

    /// Writes what is worth keeping of an opened game: the snapshot when the game changed (or
    /// has none), the onion checkpoints when an older game lacks them, and its pages when
    /// something they show changed (or the game is new: its first pages).
    pub(super) fn close(&self, g: &OpenGame) -> Result<()> {
        // No snapshot file yet: a game just made, whose first pages are due.
        let fresh = !g.store.dir.join("snapshot.json").exists();
        if g.game.book().events != g.events_at_open || fresh || g.store.snapshot().is_none() {
            g.store.write_snapshot(g.game.as_ref())?;
        }
        if g.site_due || fresh {
            // Never fails the game: a lapse is logged and the next change writes it all again.
            self.site_after(g, fresh);
        }
        if !g.store.has_checkpoints() {
            g.store.write_secrets(&g.secrets)?;
        }
        self.note_closed(g);
        self.campaign_after_close();
        Ok(())
    }

    /// Commits a fresh onion for the steps from the open one on. The secret is stored before
    /// the event is journaled, and a secret stored by a run that crashed before journaling is
    /// reused, so the anchor never points at a lost secret.
    fn renew_onion(&self, g: &mut OpenGame, from_step: u64, now: DateTime<Utc>) -> Result<()> {
        let stored_unjournaled = g.secrets.segments.last().is_some_and(|(from, _)| {
            *from == from_step
                && !g
                    .game
                    .book()
                    .onions
                    .iter()
                    .any(|o| o.from_step == from_step)
        });
        if !stored_unjournaled {
            let fresh = crate::dice::HostOnion::generate(
                g.secrets.protocol,
                &g.game.book().id,
                self.cfg.games.onion_len,
            )?;
            g.secrets.segments.push((from_step, fresh));
            g.store.write_secrets(&g.secrets)?;
        }
        let onion = &g.secrets.segments.last().expect("just pushed").1;
        info!(game = %g.store.id, from_step, "new host onion committed");
        let ev = crate::engine::decide::onion_renewed(from_step, &onion.anchor(), onion.len(), now);
        self.append(g, &ev, now)
    }

    /// Creates a game from a shipped scenario and mails the welcome to every seat.
    pub fn create_game(
        &self,
        id: &str,
        ruleset: &str,
        scenario: &str,
        seats: &[(String, String)],
        now: DateTime<Utc>,
    ) -> Result<()> {
        self.create_game_as(id, ruleset, scenario, seats, now, &NewGame::default())
    }

    /// `create_game` in a league, or carrying a finished game's forces (`despatch new
    /// --league`, `--carry-from`), with fresh secrets.
    pub fn create_game_as(
        &self,
        id: &str,
        ruleset: &str,
        scenario: &str,
        seats: &[(String, String)],
        now: DateTime<Utc>,
        extras: &NewGame,
    ) -> Result<()> {
        let secrets = GameSecrets::generate(id, self.cfg.games.onion_len)?;
        let tokens = seats
            .iter()
            .map(|_| crate::store::new_token())
            .collect::<Result<Vec<_>, _>>()?;
        self.create_game_full(id, ruleset, scenario, seats, now, secrets, &tokens, extras)
    }

    /// `create_game` with the host's secrets and the seat secrets given (tests pin them to get
    /// reproducible mails; production always passes fresh ones from the OS RNG).
    #[allow(clippy::too_many_arguments)]
    pub fn create_game_with(
        &self,
        id: &str,
        ruleset: &str,
        scenario: &str,
        seats: &[(String, String)],
        now: DateTime<Utc>,
        secrets: GameSecrets,
        tokens: &[String],
    ) -> Result<()> {
        let plain = NewGame::default();
        self.create_game_full(id, ruleset, scenario, seats, now, secrets, tokens, &plain)
    }

    /// `create_game_with`, in a league, carrying a finished game's forces and/or with its own
    /// organiser. Everything is checked (`campaign::plan`) before the first write; if a write
    /// fails after that, the caller (`despatch new`) removes what was made.
    #[allow(clippy::too_many_arguments)]
    pub fn create_game_full(
        &self,
        id: &str,
        ruleset: &str,
        scenario: &str,
        seats: &[(String, String)],
        now: DateTime<Utc>,
        secrets: GameSecrets,
        tokens: &[String],
        extras: &NewGame,
    ) -> Result<()> {
        let req = super::campaign::Request {
            id,
            ruleset,
            scenario,
            seats,
            tokens,
            extras,
            pace: None,
        };
        self.create_planned(&req, now, secrets)
    }

    /// Makes the game `req` asks for: everything checked first, then written.
    pub(super) fn create_planned(
        &self,
        req: &super::campaign::Request<'_>,
        now: DateTime<Utc>,
        secrets: GameSecrets,
    ) -> Result<()> {
        let (id, ruleset, scenario, extras) = (req.id, req.ruleset, req.scenario, req.extras);
        let planned =
            super::campaign::plan(&self.cfg, &self.data, &self.registry, req, now, &secrets)?;
        // Listed in the league before the game exists: see `Daemon::enrol`.
        self.enrol(extras, id)?;
        self.data
            .game(id)
            .create(&secrets, &planned.seats, &planned.event, ruleset)?;
        info!(game = id, ruleset, scenario, "game created");
        self.settle(id, now)?;
        Ok(())
    }
}

/// The waiting mails as composition reads them: each with its note and its own seal's digest,
/// which the mail bringing it lists in its Parts.
fn gathered_list(store: &GameStore, waiting: &[WaitingEntry]) -> Vec<compose::Gathered> {
    waiting
        .iter()
        .map(|w| compose::Gathered {
            seat: w.seat.clone(),
            name: w.name.clone(),
            note: w.note.clone(),
            // Listed in the carrier's Parts by its own seal (docs/dice-protocol.md): kept beside
            // the mail; a mail kept before that is read for it.
            digest: w.digest.clone().unwrap_or_else(|| {
                store
                    .gathered_mail(&w.seat, &w.name)
                    .and_then(|bytes| claimed_digest_of(&bytes))
                    .unwrap_or_default()
            }),
        })
        .collect()
}

/// The digest a built mail's sealed text claims.
fn claimed_digest_of(bytes: &[u8]) -> Option<String> {
    mail_parser::MessageParser::default()
        .parse(bytes)
        .and_then(|m| m.body_text(0).map(|t| t.into_owned()))
        .and_then(|t| crate::report::claimed_digest(&t))
}
