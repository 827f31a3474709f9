//! An out-of-office reply from a player, answered once with the absence it suggests (issue
//! 31 point 5; ruling A10 in docs/club-rules.md): one mail per game the address plays in, whose
//! reply address is the seat's own, naming the `ABSENT` line to send. Nothing is applied:
//! only the player's reply moves a deadline. Decides; intake's `carry_out` writes and queues.

use anyhow::Result;
use chrono::{DateTime, Utc};

use crate::mail::compose;
use crate::mail::inbound::Inbound;
use crate::mail::inbound::away;
use crate::mail::outbound;

use super::Daemon;
use super::decision::{Decision, Intake};

impl Daemon {
    pub(super) fn out_of_office(
        &self,
        inb: &Inbound,
        why: &str,
        now: DateTime<Utc>,
    ) -> Result<Decision> {
        let today = now.date_naive();
        let days = away::days_away(&format!("{}\n{}", inb.subject, inb.body), today);
        let key = match days {
            Some((a, b)) => format!("{a} {b}"),
            None => "no dates".to_string(),
        };
        let (local, domain) = self.cfg.address_parts();
        let mut d = Decision::only(Intake::Automated(format!(
            "{why}; an out-of-office: the absence it suggests proposed"
        )));
        for id in self.data.game_ids()? {
            let Ok(seats) = self.data.game(&id).seats() else {
                continue;
            };
            let Some((seat, private)) = seats.seats.iter().find(|(_, p)| p.writes_from(&inb.from))
            else {
                continue;
            };
            let Ok(g) = self.open_game(&id) else {
                continue;
            };
            if g.game.is_over() {
                continue;
            }
            // Once per game and days: a player in more games than the hourly cap allows is
            // asked about the rest by the next out-of-office, not never.
            let record = self.away_record(&inb.from, &id);
            if std::fs::read_to_string(&record).is_ok_and(|k| k.trim() == key) {
                continue;
            }
            // The From may be forged: this answers an address that did not provably ask
            // (F1), though only ever the seat's own registered address.
            if !self.may_answer(&private.address, "out-of-office", now, &mut d.answered) {
                break;
            }
            let (subject, text) = compose::away_question(&id, seat, days);
            let mut o = self.letter(
                &private.address,
                &subject,
                &crate::report::fit_text(&crate::report::wrap_text(&text)),
                inb,
                now,
            );
            o.reply_to =
                outbound::reply_address(&local, &id, seat, &private.token, None, &domain).ok();
            o.in_reply_to = None;
            o.references = vec![];
            d.letters
                .push((format!("away-{id}-{seat}-{}", short_key(&key)), o));
            d.files.push((record, key.clone().into_bytes()));
        }
        if d.letters.is_empty() {
            return Ok(Decision::only(Intake::Automated(format!(
                "{why}; nothing to propose (no game in play, or these days asked already)"
            ))));
        }
        Ok(d)
    }

    /// `<data_dir>/away/<hash of the address and game>`: the days last proposed for it.
    fn away_record(&self, address: &str, game: &str) -> std::path::PathBuf {
        use sha2::{Digest, Sha256};
        let who = format!("{}\0{game}", address.trim().to_ascii_lowercase());
        let h = hex::encode(Sha256::digest(who.as_bytes()));
        self.data.root.join("away").join(&h[..32])
    }
}

fn short_key(key: &str) -> String {
    key.chars().filter(|c| c.is_ascii_digit()).collect()
}
