//! The organiser's desk by mail (issue 31 point 4; docs/club-rules.md O2–O9): the desk's
//! secret address for each organiser address, who may use it, and the answer to a desk mail.
//! The grammar is `mail::inbound::desk`; the acts are `desk_acts.rs`, through the same
//! engine decisions the shell's `despatch gm …` uses. The desk secret is never logged and
//! never put in a mail to anyone but the organiser it belongs to.

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::{Context, Result};
use chrono::{DateTime, Duration, Utc};
use sha2::{Digest, Sha256};
use tracing::{info, warn};

use crate::mail::compose::{self, DeskRefused};
use crate::mail::inbound::Inbound;
use crate::mail::inbound::desk;
use crate::mail::outbound::{self, Outgoing};

use super::Daemon;
use super::decision::{Decision, DeskJob, Intake};
use super::intake::ct_eq;

/// An organiser as the desk knows them: the address alone, lower case. `mail.gm_address` may
/// carry a display name (`Club Secretary <sec@club.example>`), which a From never matches and
/// which must not change the secret derived for the address.
fn bare(address: &str) -> String {
    address
        .parse::<crate::config::address::Mailbox>()
        .map(|m| m.address)
        .unwrap_or_else(|_| address.trim().to_string())
        .to_ascii_lowercase()
}

/// At most one note an hour to an organiser about refused mail to their desk (ruling O3).
const NOTE_EVERY: Duration = Duration::hours(1);

impl Daemon {
    /// `<data_dir>/desk.key`: the house key every organiser's desk secret is derived from.
    fn desk_key_path(&self) -> PathBuf {
        self.data.root.join("desk.key")
    }

    /// The house's desk key, made (0600) on first use.
    fn desk_key(&self) -> Result<[u8; 32]> {
        let p = self.desk_key_path();
        match std::fs::read_to_string(&p) {
            Ok(text) => {
                let bytes = hex::decode(text.trim())
                    .ok()
                    .and_then(|b| <[u8; 32]>::try_from(b).ok());
                bytes.with_context(|| format!("{}: not 32 bytes of hex", p.display()))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let mut key = [0u8; 32];
                getrandom::fill(&mut key)
                    .map_err(|e| anyhow::anyhow!("no randomness for the desk key: {e}"))?;
                std::fs::create_dir_all(&self.data.root)?;
                crate::store::atomic_write_private(&p, hex::encode(key).as_bytes())?;
                Ok(key)
            }
            Err(e) => Err(e).with_context(|| p.display().to_string()),
        }
    }

    /// The desk secret of organiser `address`: one per address, derived from the house key so
    /// that nothing per organiser needs writing (24 characters of [a-z0-9], as seats' are).
    pub(super) fn desk_secret(&self, address: &str) -> Result<String> {
        let key = self.desk_key()?;
        let mut h = Sha256::new();
        for part in [
            b"despatch-desk/v1".as_slice(),
            &key,
            bare(address).as_bytes(),
        ] {
            h.update((part.len() as u64).to_be_bytes());
            h.update(part);
        }
        const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
        Ok(h.finalize()
            .iter()
            .take(24)
            .map(|b| ALPHABET[(*b % 36) as usize] as char)
            .collect())
    }

    /// The organiser's desk address (`despatch gm address`, and the Reply-To of every mail
    /// Despatch sends them).
    pub fn desk_address(&self, organiser: &str) -> Result<String> {
        let (local, domain) = self.cfg.address_parts();
        Ok(desk::desk_address(
            &local,
            &self.desk_secret(organiser)?,
            &domain,
        ))
    }

    /// The Reply-To for a mail to the organiser: their desk, or none when the key cannot be
    /// read (logged; the mail still goes).
    pub(super) fn desk_reply_to(&self, organiser: &str) -> Option<String> {
        match self.desk_address(organiser) {
            Ok(a) => Some(a),
            Err(e) => {
                warn!("the organiser's desk address cannot be made: {e:#}");
                None
            }
        }
    }

    /// The organiser of a game: its own (`despatch new --gm`), else `mail.gm_address`.
    pub(super) fn organiser_of(&self, store: &crate::store::GameStore) -> Option<String> {
        store
            .seats()
            .ok()
            .and_then(|s| s.gm)
            .or_else(|| self.cfg.mail.gm_address.clone())
            .map(|a| bare(&a))
    }

    /// Every organiser address: the house's and every game's own.
    fn organisers(&self) -> Vec<String> {
        let mut out: Vec<String> = self.cfg.mail.gm_address.iter().map(|a| bare(a)).collect();
        for id in self.data.game_ids().unwrap_or_default() {
            if let Some(gm) = self.data.game(&id).seats().ok().and_then(|s| s.gm) {
                let gm = bare(&gm);
                if !out.contains(&gm) {
                    out.push(gm);
                }
            }
        }
        out
    }

    /// Intake's hook for a mail to the desk: authenticated as a seat's mail is (the From must
    /// be an organiser's address AND the address must carry that organiser's secret). Reads
    /// only; `desk_carry_out` acts.
    pub(super) fn desk_decide(
        &self,
        inb: &Inbound,
        secret: &str,
        now: DateTime<Utc>,
    ) -> Result<Decision> {
        let organisers = self.organisers();
        let from = inb.from.to_ascii_lowercase();
        let matches = |a: &str| {
            self.desk_secret(a)
                .is_ok_and(|s| ct_eq(s.as_bytes(), secret.as_bytes()))
        };
        if organisers.contains(&from) && matches(&from) {
            if self.data.house().was_processed(&inb.message_id) {
                return Ok(Decision::only(Intake::Duplicate));
            }
            let mut d = Decision::only(Intake::Desk { commands: 0 });
            let lines = desk::read_desk(&inb.body);
            d.intake = Intake::Desk {
                commands: lines.len(),
            };
            d.desk = Some(DeskJob::Act {
                organiser: from,
                lines,
            });
            return Ok(d);
        }
        // A forged From, or an organiser's secret from another address: nothing is done.
        // The organiser concerned is told (O3): the one whose secret it is (it has leaked),
        // else the one whose address was used. The secret is in no log line.
        let concerned = organisers
            .iter()
            .find(|a| matches(a))
            .cloned()
            .or_else(|| organisers.contains(&from).then(|| from.clone()));
        warn!(
            from = %inb.from,
            organiser_concerned = concerned.is_some(),
            "a mail to the organiser's desk without the sender's own desk secret: nothing done"
        );
        let (over, stranger) = self.stranger_over_budget(inb, now);
        let mut d = Decision::only(if over {
            Intake::RateLimited
        } else {
            Intake::DeskRefused
        });
        d.stranger = Some((inb.from.clone(), stranger));
        if !over {
            d.desk = Some(DeskJob::Warn {
                organiser: concerned,
            });
        }
        Ok(d)
    }

    /// Carries out a desk decision: the commands, one after another, then one answer listing
    /// what was done; or the note to an organiser whose desk was tried without its secret.
    pub(super) fn desk_carry_out(
        &self,
        job: DeskJob,
        inb: &Inbound,
        now: DateTime<Utc>,
    ) -> Result<()> {
        match job {
            DeskJob::Warn { organiser: None } => Ok(()),
            DeskJob::Warn {
                organiser: Some(gm),
            } => self.desk_note(&gm, now),
            DeskJob::Act { organiser, lines } => {
                // At most once (ruling O8): recorded before anything is done, so a crash
                // part-way never does an act twice; the journals say what was done.
                self.data.house().mark_processed(&inb.message_id)?;
                let mut said = Vec::new();
                for l in &lines {
                    let did = match &l.read {
                        Ok(cmd) => self.desk_act(&organiser, cmd, now).and_then(|d| {
                            compose::desk_done(&d).map_err(|e| DeskRefused::Said(e.to_string()))
                        }),
                        Err(why) => Err(DeskRefused::Said(why.clone())),
                    };
                    said.push((l.text.as_str(), did));
                }
                let done = said.iter().filter(|(_, d)| d.is_ok()).count();
                let refused = said.len() - done;
                info!(
                    organiser = %organiser,
                    done, refused, "the organiser's desk mail carried out"
                );
                let answer = compose::desk_answer_text(&said)?;
                self.desk_answer(&organiser, inb, &answer, now)
            }
        }
    }

    /// The answer to a desk mail, from the house to the organiser, under their mail.
    fn desk_answer(
        &self,
        organiser: &str,
        inb: &Inbound,
        text: &str,
        now: DateTime<Utc>,
    ) -> Result<()> {
        let subject = compose::desk_answer_subject(&inb.subject);
        let mut out = self.desk_letter(organiser, &subject, text, &[&inb.message_id], now);
        let replied = outbound::echoable_id(&inb.message_id).map(str::to_string);
        out.in_reply_to = replied.clone();
        out.references = replied.into_iter().collect();
        let name = format!("desk-{}", &out.message_id[..16]);
        self.queue_house(&name, &out)
    }

    /// The note to an organiser that their desk was written to without its secret from their
    /// address, at most once an hour; nothing of the mail is quoted (its sender may be anyone).
    fn desk_note(&self, organiser: &str, now: DateTime<Utc>) -> Result<()> {
        let path = self.data.house().dir.join("desk-notes.json");
        let mut notes: BTreeMap<String, DateTime<Utc>> = std::fs::read(&path)
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default();
        notes.retain(|_, t| now - *t < NOTE_EVERY);
        if notes.contains_key(organiser) {
            return Ok(());
        }
        notes.insert(organiser.to_string(), now);
        std::fs::create_dir_all(&self.data.house().dir)?;
        crate::store::atomic_write_private(&path, &serde_json::to_vec(&notes)?)?;
        let (subject, text) = compose::desk_refused_note();
        let stamp = now.to_rfc3339();
        let out = self.desk_letter(organiser, subject, text, &["desk-note", &stamp], now);
        self.queue_house(&format!("desk-note-{}", &out.message_id[..16]), &out)
    }

    /// A mail from the house to the organiser, its Reply-To their desk.
    pub(super) fn desk_letter(
        &self,
        organiser: &str,
        subject: &str,
        text: &str,
        id_parts: &[&str],
        now: DateTime<Utc>,
    ) -> Outgoing {
        let (local, domain) = self.cfg.address_parts();
        let text = crate::report::wrap_text(text);
        let mut parts = vec!["desk", organiser];
        parts.extend_from_slice(id_parts);
        Outgoing {
            to: organiser.to_string(),
            from: format!(
                "{} <{local}@{domain}>",
                crate::mail::compose::house_display_name(&self.cfg.mail.from_name)
            ),
            reply_to: self.desk_reply_to(organiser),
            subject: subject.to_string(),
            text,
            message_id: outbound::message_id(&parts, &domain),
            date: now,
            auto_generated: true,
            ..Default::default()
        }
    }

    fn queue_house(&self, name: &str, out: &Outgoing) -> Result<()> {
        let bytes =
            outbound::build(out).map_err(|e| anyhow::anyhow!("building a desk mail: {e}"))?;
        self.data.house().queue(name, &bytes)?;
        Ok(())
    }
}
