//! An out-of-office reply from a player, answered once with the absence it suggests (issue
//! 31 point 5; ruling A10 in docs/club-rules.md): one mail per game the address plays in, whose
//! reply address is the seat's own, naming the `ABSENT` line to send. Nothing is applied:
//! only the player's reply moves a deadline. Decides; intake's `carry_out` writes and queues.

use anyhow::Result;
use chrono::{DateTime, Utc};

use crate::engine::guard::Activity;
use crate::mail::compose;
use crate::mail::inbound::Inbound;
use crate::mail::inbound::away;
use crate::mail::outbound;
use crate::store::SeatPrivate;

use super::Daemon;
use super::decision::{Decision, Intake};
use super::unasked::Unasked;

/// A game the out-of-office's sender plays in, as read: the seat, its private record, whether
/// the game is over, and the days last proposed for it (its record's content, if any).
#[derive(Debug, Clone)]
pub(super) struct AwayGame {
    pub(super) game: String,
    pub(super) seat: String,
    pub(super) private: SeatPrivate,
    pub(super) over: bool,
    pub(super) proposed: Option<String>,
}

/// What an out-of-office comes to: the games whose seat is asked, in order, and the cap's
/// records of those answers (F1). Nothing to propose when `ask` is empty.
#[derive(Debug)]
pub(super) struct AwayDecision {
    pub(super) ask: Vec<AwayGame>,
    pub(super) answered: Vec<(String, Activity)>,
}

/// Decides an out-of-office suggesting the days `key` ("first last", or "no dates"), pure:
/// each game in play whose seat was not asked about these days yet, until the cap says no
/// more. Once per game and days: a player in more games than the hourly cap allows is asked
/// about the rest by the next out-of-office, not never.
pub(super) fn decide_away(
    games: Vec<AwayGame>,
    key: &str,
    mut unasked: Unasked,
    now: DateTime<Utc>,
) -> AwayDecision {
    let mut ask = Vec::new();
    for g in games {
        if g.over || g.proposed.as_deref().is_some_and(|k| k.trim() == key) {
            continue;
        }
        // The From may be forged: this answers an address that did not provably ask (F1),
        // though only ever the seat's own registered address.
        if !unasked.admit(&g.private.address, "out-of-office", now) {
            break;
        }
        ask.push(g);
    }
    AwayDecision {
        ask,
        answered: unasked.records,
    }
}

impl Daemon {
    /// An out-of-office reply, decided by `decide_away` on the games its sender plays in as
    /// read here; the questions are built for the games it picked.
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
        let games = self.away_games(&inb.from)?;
        let unasked = self.unasked(games.iter().map(|g| g.private.address.as_str()));
        let decided = decide_away(games, &key, unasked, now);
        if decided.ask.is_empty() {
            return Ok(Decision::only(Intake::Automated(format!(
                "{why}; nothing to propose (no game in play, or these days asked already)"
            ))));
        }
        let mut d = Decision::only(Intake::Automated(format!(
            "{why}; an out-of-office: the absence it suggests proposed"
        )));
        d.answered = decided.answered;
        let (local, domain) = self.cfg.address_parts();
        for g in decided.ask {
            let (id, seat) = (&g.game, &g.seat);
            let (subject, text) = compose::away_question(id, seat, days);
            let mut o = self.letter(
                &g.private.address,
                &subject,
                &crate::report::fit_text(&crate::report::wrap_text(&text)),
                inb,
                now,
            );
            o.reply_to =
                outbound::reply_address(&local, id, seat, &g.private.token, None, &domain).ok();
            o.in_reply_to = None;
            o.references = vec![];
            d.letters
                .push((format!("away-{id}-{seat}-{}", short_key(&key)), o));
            d.files
                .push((self.away_record(&inb.from, id), key.clone().into_bytes()));
        }
        Ok(d)
    }

    /// Every game in which `from` writes for a seat, with what the decision needs of it; a
    /// game whose files cannot be read is left out.
    fn away_games(&self, from: &str) -> Result<Vec<AwayGame>> {
        let mut out = Vec::new();
        for id in self.data.game_ids()? {
            let Ok(seats) = self.data.game(&id).seats() else {
                continue;
            };
            let Some((seat, private)) = seats.seats.iter().find(|(_, p)| p.writes_from(from))
            else {
                continue;
            };
            let Ok(g) = self.open_game(&id) else {
                continue;
            };
            out.push(AwayGame {
                proposed: std::fs::read_to_string(self.away_record(from, &id)).ok(),
                game: id,
                seat: seat.clone(),
                private: private.clone(),
                over: g.game.is_over(),
            });
        }
        Ok(out)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn now() -> DateTime<Utc> {
        DateTime::<Utc>::UNIX_EPOCH + chrono::Duration::days(20_000)
    }

    fn game(id: &str, over: bool, proposed: Option<&str>) -> AwayGame {
        AwayGame {
            game: id.into(),
            seat: "north".into(),
            private: serde_json::from_value(
                serde_json::json!({"address": "n@x.org", "token": "tok"}),
            )
            .unwrap(),
            over,
            proposed: proposed.map(String::from),
        }
    }

    fn asked(d: &AwayDecision) -> Vec<&str> {
        d.ask.iter().map(|g| g.game.as_str()).collect()
    }

    #[test]
    fn each_game_in_play_is_asked_once_for_the_same_days() {
        let games = vec![
            game("a", false, None),
            game("b", true, None),
            game("c", false, Some("2026-01-02 2026-01-05\n")),
            game("d", false, Some("2026-01-01 2026-01-03")),
        ];
        let d = decide_away(games, "2026-01-02 2026-01-05", Unasked::default(), now());
        assert_eq!(asked(&d), ["a", "d"]);
        assert_eq!(d.answered.len(), 2);
    }

    #[test]
    fn the_cap_on_unasked_answers_leaves_the_rest_to_the_next_out_of_office() {
        let games = ["a", "b", "c", "d", "e"]
            .map(|g| game(g, false, None))
            .to_vec();
        let d = decide_away(games, "no dates", Unasked::default(), now());
        assert_eq!(asked(&d), ["a", "b", "c"]);
        let none = decide_away(
            vec![game("a", true, None)],
            "no dates",
            Unasked::default(),
            now(),
        );
        assert!(none.ask.is_empty() && none.answered.is_empty());
    }
}
