//! The desk's acts (issue 31 point 4): each command of an organiser's desk mail carried out
//! through the shell's own `gm_*` acts, or refused with exactly why, and its answer line; a
//! message to every player of a game or a league; the organiser's list of games. Only the
//! game's own organiser may act on it. Nothing here authenticates: `desk.rs` did.

use anyhow::{Result, anyhow};
use chrono::{DateTime, Utc};

use crate::engine::press::PressCopy;
use crate::mail::compose::{
    self, CLOSED_BY_THE_ORGANISER, DeskDone, DeskRefused, THE_PREVIOUS_PLAYER_LEFT,
};
use crate::mail::inbound::desk::{Audience, DeskCommand};
use crate::report;

use super::Daemon;

/// Whom a message reached: the games it was journaled in, those skipped (not the organiser's,
/// or over), and the player addresses mailed.
#[derive(Debug, Clone, Default)]
pub struct Broadcast {
    pub games: Vec<String>,
    pub skipped: Vec<String>,
    pub players: usize,
}

/// The game a desk command names, as read: whether it exists and who organises it (its own
/// organiser, or the house's for a game without one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Named {
    NoGame,
    Organised(Option<String>),
}

/// What a desk command comes to once the organiser's right to it is checked: the act to carry
/// out, with the organiser's default reason where the line gave none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum DeskAct<'a> {
    Help,
    Games,
    Extend {
        game: &'a str,
        hours: i64,
        reason: &'a str,
    },
    Close {
        game: &'a str,
        reason: &'a str,
    },
    Replace {
        game: &'a str,
        seat: &'a str,
        address: &'a str,
        reason: &'a str,
    },
    Pause {
        game: &'a str,
        reason: &'a str,
    },
    Resume {
        game: &'a str,
    },
    Broadcast {
        to: &'a Audience,
        text: &'a str,
    },
}

/// Decides one desk command, pure: refused when it names a game that does not exist or that
/// `organiser` does not run (`named`, read for the game it names); else the act.
pub(super) fn decide_desk<'a>(
    organiser: &str,
    cmd: &'a DeskCommand,
    named: Option<&Named>,
) -> Result<DeskAct<'a>, DeskRefused> {
    if let Some(game) = cmd.game() {
        may_act(organiser, game, named.unwrap_or(&Named::NoGame))?;
    }
    Ok(match cmd {
        DeskCommand::Help => DeskAct::Help,
        DeskCommand::Games => DeskAct::Games,
        DeskCommand::Extend {
            game,
            hours,
            reason,
        } => DeskAct::Extend {
            game,
            hours: *hours,
            reason,
        },
        DeskCommand::Close { game, reason } => DeskAct::Close {
            game,
            reason: or(reason, CLOSED_BY_THE_ORGANISER),
        },
        DeskCommand::Replace {
            game,
            seat,
            address,
            reason,
        } => DeskAct::Replace {
            game,
            seat,
            address,
            reason: or(reason, THE_PREVIOUS_PLAYER_LEFT),
        },
        DeskCommand::Pause { game, reason } => DeskAct::Pause { game, reason },
        DeskCommand::Resume { game } => DeskAct::Resume { game },
        DeskCommand::Broadcast { to, text } => DeskAct::Broadcast { to, text },
    })
}

/// Whether `organiser` runs `game` as read: the desk acts on no other game.
fn may_act(organiser: &str, game: &str, named: &Named) -> Result<(), DeskRefused> {
    match named {
        Named::NoGame => Err(DeskRefused::NoGame(game.to_string())),
        Named::Organised(Some(gm)) if gm.eq_ignore_ascii_case(organiser) => Ok(()),
        Named::Organised(_) => Err(DeskRefused::NotYours(game.to_string())),
    }
}

impl Daemon {
    /// One desk command: what it did, or exactly why not. Reads who runs the game it names,
    /// decides (`decide_desk`), and carries the act out through the shell's `gm_*` acts.
    pub(super) fn desk_act(
        &self,
        organiser: &str,
        cmd: &DeskCommand,
        now: DateTime<Utc>,
    ) -> Result<DeskDone, DeskRefused> {
        let named = cmd.game().map(|g| self.named(g));
        let act = decide_desk(organiser, cmd, named.as_ref())?;
        self.carry_desk_act(organiser, act, now)
    }

    /// A desk act carried out: what it did, or the shell's error in words.
    fn carry_desk_act(
        &self,
        organiser: &str,
        act: DeskAct,
        now: DateTime<Utc>,
    ) -> Result<DeskDone, DeskRefused> {
        let why = |e: anyhow::Error| DeskRefused::Said(format!("{e:#}"));
        let game = |g: &str| g.to_string();
        Ok(match act {
            DeskAct::Help => DeskDone::Help,
            DeskAct::Games => DeskDone::Games(self.desk_games(organiser)),
            DeskAct::Extend {
                game: g,
                hours,
                reason,
            } => DeskDone::Extended {
                game: game(g),
                deadline: self.gm_extend_locked(g, hours, reason, now).map_err(why)?,
            },
            DeskAct::Close { game: g, reason } => DeskDone::Closed {
                game: game(g),
                resolved: self.gm_close_step_locked(g, reason, now).map_err(why)?,
            },
            DeskAct::Replace {
                game: g,
                seat,
                address,
                reason,
            } => {
                self.gm_replace_locked(g, seat, address, reason, now)
                    .map_err(why)?;
                DeskDone::Replaced {
                    game: game(g),
                    seat: seat.to_string(),
                    address: address.to_string(),
                }
            }
            DeskAct::Pause { game: g, reason } => DeskDone::Paused {
                game: game(g),
                left: self.gm_pause_locked(g, reason, now).map_err(why)?,
            },
            DeskAct::Resume { game: g } => {
                let (deadline, resolved) = self.gm_resume_locked(g, now).map_err(why)?;
                DeskDone::Resumed {
                    game: game(g),
                    deadline,
                    resolved,
                }
            }
            DeskAct::Broadcast { to, text } => {
                let b = match to {
                    Audience::Game(g) => self.broadcast_game_locked(g, text, now),
                    Audience::League(l) => {
                        self.broadcast_league_locked(l, text, Some(organiser), now)
                    }
                }
                .map_err(why)?;
                DeskDone::Broadcast {
                    players: b.players,
                    games: b.games,
                    skipped: b.skipped,
                }
            }
        })
    }

    /// The game `game` as the desk's check needs it: whether it exists, who runs it.
    fn named(&self, game: &str) -> Named {
        let store = self.data.game(game);
        if !store.exists() {
            return Named::NoGame;
        }
        Named::Organised(self.organiser_of(&store))
    }

    /// `GAMES`: a line for every game the organiser runs, its state and deadline.
    fn desk_games(&self, organiser: &str) -> Vec<String> {
        let mut lines = Vec::new();
        for id in self.data.game_ids().unwrap_or_default() {
            let store = self.data.game(&id);
            if !self
                .organiser_of(&store)
                .is_some_and(|gm| gm.eq_ignore_ascii_case(organiser))
            {
                continue;
            }
            let line = match self.open_game(&id) {
                Ok(g) => compose::game_line(&id, g.game.as_ref()),
                Err(e) => compose::game_unreadable_line(&id, &format!("{e:#}")),
            };
            lines.push(line);
        }
        lines
    }

    /// A message from the organiser to every player of `game`: journaled as a digest (its text
    /// kept privately, as press is), mailed once to each player address by the event.
    pub fn broadcast_game_locked(
        &self,
        game: &str,
        text: &str,
        now: DateTime<Utc>,
    ) -> Result<Broadcast> {
        let mut g = self.open_game(game)?;
        let ev = self.broadcast_event(&g, text, None, now)?;
        self.append(&mut g, &ev, now)?;
        self.close(&g)?;
        Ok(Broadcast {
            games: vec![game.to_string()],
            skipped: vec![],
            players: players(&g).len(),
        })
    }

    /// The same to every game in play of league `league` that `organiser` runs (every one when
    /// `None`, at the shell): journaled in each, and one mail per player address from the
    /// house, however many of its games the player sits in.
    pub fn broadcast_league_locked(
        &self,
        league: &str,
        text: &str,
        organiser: Option<&str>,
        now: DateTime<Utc>,
    ) -> Result<Broadcast> {
        let file = super::league::league_file(&self.data, league)?;
        let mut b = Broadcast::default();
        let mut to: Vec<String> = Vec::new();
        for id in &file.games {
            if !crate::engine::valid_game_id(id) || !self.data.game(id).exists() {
                continue;
            }
            if let Some(gm) = organiser
                && may_act(gm, id, &self.named(id)).is_err()
            {
                b.skipped.push(compose::skipped_not_yours(id));
                continue;
            }
            let mut g = self.open_game(id)?;
            if g.game.is_over() {
                b.skipped.push(compose::skipped_over(id));
                continue;
            }
            let ev = self.broadcast_event(&g, text, Some(league), now)?;
            self.append(&mut g, &ev, now)?;
            self.close(&g)?;
            for a in players(&g) {
                if !to.contains(&a) {
                    to.push(a);
                }
            }
            b.games.push(id.clone());
        }
        if b.games.is_empty() {
            return Err(anyhow!(compose::league_reached_nobody(league)));
        }
        let about = compose::league_message_about(league, &b.games);
        let body = compose::broadcast_text(&about, "", text, "", "")?;
        let (local, domain) = self.cfg.address_parts();
        let stamp = now.to_rfc3339();
        let house = self.data.house();
        for address in &to {
            let out = crate::mail::outbound::Outgoing {
                to: address.clone(),
                from: format!(
                    "{} <{local}@{domain}>",
                    crate::mail::compose::house_display_name(&self.cfg.mail.from_name)
                ),
                subject: compose::league_message_subject(league),
                text: report::wrap_text(&body),
                message_id: crate::mail::outbound::message_id(
                    &["broadcast", league, &stamp, text, address],
                    &domain,
                ),
                date: now,
                auto_generated: true,
                ..Default::default()
            };
            self.queue_letters(
                &house,
                &[(format!("broadcast-{}", &out.message_id[..16]), out)],
            )?;
        }
        b.players = to.len();
        Ok(b)
    }

    /// The journal line of a message, its text and salt written first beside the game (the
    /// event's mails are composed from them, as press's are).
    fn broadcast_event(
        &self,
        g: &super::open_game::OpenGame,
        text: &str,
        league: Option<&str>,
        now: DateTime<Utc>,
    ) -> Result<crate::engine::Event> {
        let mut salt = [0u8; 32];
        getrandom::fill(&mut salt).map_err(|e| anyhow!("no randomness for a salt: {e}"))?;
        let ev = crate::engine::pause::gm_broadcast(g.game.as_ref(), text, &salt, league, now)?;
        let crate::engine::Event::GmBroadcast { digest, .. } = &ev else {
            unreachable!("gm_broadcast makes a broadcast")
        };
        let copy = PressCopy {
            text: text.to_string(),
            salt: crate::dice::to_hex(&salt),
        };
        crate::store::atomic_write_private(
            &super::open_game::press_path(&g.store, digest),
            &serde_json::to_vec(&copy)?,
        )?;
        Ok(ev)
    }
}

fn or<'a>(given: &'a str, default: &'a str) -> &'a str {
    if given.trim().is_empty() {
        default
    } else {
        given
    }
}

/// The player addresses of a game, each once.
fn players(g: &super::open_game::OpenGame) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for r in g.recipients() {
        let a = r.private.address.to_ascii_lowercase();
        if !a.is_empty() && !out.contains(&a) {
            out.push(a);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(reason: &str) -> DeskCommand {
        DeskCommand::Close {
            game: "g1".into(),
            reason: reason.into(),
        }
    }

    #[test]
    fn the_desk_acts_only_on_a_game_that_exists_and_that_the_organiser_runs() {
        let mine = Named::Organised(Some("gm@x.org".into()));
        let cmd = close("");
        assert_eq!(
            decide_desk("GM@x.org", &cmd, Some(&mine)),
            Ok(DeskAct::Close {
                game: "g1",
                reason: CLOSED_BY_THE_ORGANISER
            })
        );
        let theirs = Named::Organised(Some("other@x.org".into()));
        assert_eq!(
            decide_desk("gm@x.org", &cmd, Some(&theirs)),
            Err(DeskRefused::NotYours("g1".into()))
        );
        assert_eq!(
            decide_desk("gm@x.org", &cmd, Some(&Named::Organised(None))),
            Err(DeskRefused::NotYours("g1".into()))
        );
        assert_eq!(
            decide_desk("gm@x.org", &cmd, Some(&Named::NoGame)),
            Err(DeskRefused::NoGame("g1".into()))
        );
    }

    #[test]
    fn a_reason_given_is_kept_and_a_command_naming_no_game_needs_none() {
        let mine = Named::Organised(Some("gm@x.org".into()));
        let cmd = close("snow");
        assert_eq!(
            decide_desk("gm@x.org", &cmd, Some(&mine)),
            Ok(DeskAct::Close {
                game: "g1",
                reason: "snow"
            })
        );
        let replace = DeskCommand::Replace {
            game: "g1".into(),
            seat: "north".into(),
            address: "new@x.org".into(),
            reason: " ".into(),
        };
        assert!(matches!(
            decide_desk("gm@x.org", &replace, Some(&mine)),
            Ok(DeskAct::Replace {
                reason: THE_PREVIOUS_PLAYER_LEFT,
                ..
            })
        ));
        assert_eq!(
            decide_desk("gm@x.org", &DeskCommand::Games, None),
            Ok(DeskAct::Games)
        );
    }
}
