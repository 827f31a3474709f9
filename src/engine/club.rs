//! A game's club policy: who may talk to whom (press), how long a player may be away, what
//! becomes of a seat whose player resigns, and who may watch. Values only; set when the game is
//! created (config.toml `[games.policy.club]`) and journaled with the rest of the policy, so
//! every seat and auditor knows the rules the game is played under.

use serde::{Deserialize, Serialize};

/// Why a game's club settings are refused: a number out of its range or a name that is not an
/// id. The words name the key to fix.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClubRefused {
    #[error("club.absence_days_per_year = {0}: use 0 to 366")]
    AbsenceDays(u32),
    #[error("club.spectator_delay_steps = {0}: use 0 to 1000")]
    SpectatorDelay(u32),
    #[error("club.league = {0:?}: use 1–40 characters a–z, 0–9 and `-`, starting with a letter")]
    League(String),
    #[error(
        "club.campaign = {0:?}: use 1–{max} characters a–z, 0–9 and `-`, starting with a letter",
        max = super::campaign_plan::MAX_NAME
    )]
    Campaign(String),
}

/// Who may send press (`PRESS TO …`) to whom.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Press {
    /// No messages between players (the GM may still be written to).
    None,
    /// Any seat to any seat, side, everyone or the GM.
    #[default]
    Open,
    /// Only to seats of the sender's own side (and the GM).
    Side,
}

/// What the journal keeps of a press message.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PressRecord {
    /// Its digest only: the text stays with the seats it was sent to.
    #[default]
    Digest,
    /// The whole text, for an auditor (and the archive after the game).
    Text,
}

/// What becomes of a seat whose player resigns.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OnResign {
    /// The seat waits for a replacement (`gm replace`); meanwhile its standing orders answer.
    #[default]
    ReplacementWanted,
    /// Standing orders (or nothing) answer for the seat until the game ends.
    StandingOrders,
    /// The seat is out of the game, as under the `forfeit` silence policy.
    Forfeit,
}

/// Who may add a spectator (an observer address).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Spectators {
    /// Nobody: the game is private.
    None,
    /// The organiser only (`despatch gm …`).
    #[default]
    Gm,
    /// The organiser, or any player by mail.
    Players,
}

/// The club side of a game's policy. Every field has a default, and the whole is left out of
/// the journal line when it equals the default, so games created before it existed (and games
/// that keep the defaults) keep their exact bytes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Club {
    pub press: Press,
    pub press_record: PressRecord,
    /// Days of absence a player may declare per calendar year (`ABSENT … TO …`); 0 = none.
    pub absence_days_per_year: u32,
    pub on_resign: OnResign,
    pub spectators: Spectators,
    /// Steps the spectators' view runs behind the game (0 = as it happens).
    pub spectator_delay_steps: u32,
    /// The league the game counts in (`despatch new --league L`), journaled with the game so
    /// its journal alone says where its result goes. Never set from config.toml (a league
    /// is chosen per game); absent from the line when `None`, so other games keep their bytes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub league: Option<String>,
    /// The campaign this game is a battle of, and what it was set up from
    /// (`engine::campaign_plan`); absent from the line when `None`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub campaign: Option<Box<super::campaign_plan::CampaignLink>>,
}

impl Default for Club {
    fn default() -> Self {
        Self {
            press: Press::Open,
            press_record: PressRecord::Digest,
            absence_days_per_year: 28,
            on_resign: OnResign::ReplacementWanted,
            spectators: Spectators::Gm,
            spectator_delay_steps: 0,
            league: None,
            campaign: None,
        }
    }
}

impl Club {
    pub fn is_default(&self) -> bool {
        *self == Self::default()
    }

    /// Checks every number, so a bad configuration is refused before any game uses it.
    pub fn check(&self) -> Result<(), ClubRefused> {
        if self.absence_days_per_year > 366 {
            return Err(ClubRefused::AbsenceDays(self.absence_days_per_year));
        }
        if self.spectator_delay_steps > 1000 {
            return Err(ClubRefused::SpectatorDelay(self.spectator_delay_steps));
        }
        if let Some(l) = &self.league
            && !super::ids::valid_game_id(l)
        {
            return Err(ClubRefused::League(l.clone()));
        }
        if let Some(c) = &self.campaign
            && (!super::ids::valid_game_id(&c.name)
                || c.name.len() > super::campaign_plan::MAX_NAME)
        {
            return Err(ClubRefused::Campaign(c.name.clone()));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Policy;

    #[test]
    fn a_default_club_leaves_the_policy_line_as_it_was() {
        let p = Policy::default();
        let line = serde_json::to_string(&p).unwrap();
        assert!(!line.contains("club"), "{line}");
        let mut q = p.clone();
        q.club.press = Press::Side;
        let line = serde_json::to_string(&q).unwrap();
        assert!(line.contains(r#""club":{"press":"side""#), "{line}");
        let back: Policy = serde_json::from_str(&line).unwrap();
        assert_eq!(back, q);
    }

    #[test]
    fn bad_numbers_are_refused() {
        let c = Club {
            absence_days_per_year: 400,
            ..Club::default()
        };
        assert_eq!(c.check(), Err(ClubRefused::AbsenceDays(400)));
        assert_eq!(
            c.check().unwrap_err().to_string(),
            "club.absence_days_per_year = 400: use 0 to 366"
        );
        assert!(Club::default().check().is_ok());
    }
}
