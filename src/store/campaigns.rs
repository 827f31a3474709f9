//! The host's campaigns (issue 34): `<data_dir>/campaigns/<name>/campaign.json` holds what was
//! declared (ruleset, plan, players, league, organiser) and the battles' game ids in order;
//! `due` beside it marks a battle that ended and whose campaign the clock must look at.
//! Reads and writes only: what follows a battle is `engine::campaign_plan`'s to decide.

use std::path::PathBuf;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::{DataDir, StoreError, atomic_write_private, io_err};

/// A campaign as the host declared it. Holds no secret (the seats' tokens are each game's).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CampaignRecord {
    pub name: String,
    pub ruleset: String,
    /// The campaign file as declared (`engine::campaign_plan::Plan`).
    pub plan: String,
    /// Every seat of every battle and its player's address (with display name).
    pub seats: Vec<(String, String)>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub league: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gm: Option<String>,
    /// The battles' game ids, first to latest.
    #[serde(default)]
    pub games: Vec<String>,
    pub created: DateTime<Utc>,
}

impl DataDir {
    pub fn campaigns_dir(&self) -> PathBuf {
        self.root.join("campaigns")
    }

    fn campaign_path(&self, name: &str) -> PathBuf {
        self.campaigns_dir().join(name).join("campaign.json")
    }

    /// The campaign `name`, or `None` if the host has none by that name.
    pub fn campaign(&self, name: &str) -> Result<Option<CampaignRecord>, StoreError> {
        let path = self.campaign_path(name);
        match std::fs::read(&path) {
            Ok(bytes) => {
                serde_json::from_slice(&bytes)
                    .map(Some)
                    .map_err(|e| StoreError::Corrupt {
                        path,
                        detail: e.to_string(),
                    })
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(io_err(&path)(e)),
        }
    }

    pub fn write_campaign(&self, rec: &CampaignRecord) -> Result<(), StoreError> {
        let path = self.campaign_path(&rec.name);
        let bytes = serde_json::to_vec_pretty(rec).map_err(|e| StoreError::Corrupt {
            path: path.clone(),
            detail: e.to_string(),
        })?;
        atomic_write_private(&path, &bytes)
    }

    /// Every campaign's name, sorted (an unreadable folder is skipped).
    pub fn campaign_names(&self) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(self.campaigns_dir())
            .map(|rd| {
                rd.filter_map(|e| e.ok())
                    .filter(|e| e.path().join("campaign.json").is_file())
                    .filter_map(|e| e.file_name().into_string().ok())
                    .collect()
            })
            .unwrap_or_default();
        v.sort();
        v
    }

    /// Marks `name` for the clock: one of its battles has ended.
    pub fn mark_campaign_due(&self, name: &str, game: &str) -> Result<(), StoreError> {
        let path = self.campaigns_dir().join(name).join("due");
        atomic_write_private(&path, game.as_bytes())
    }

    /// The campaigns marked due (one directory listing when there are campaigns, nothing to
    /// read when there are none).
    pub fn campaigns_due(&self) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(self.campaigns_dir())
            .map(|rd| {
                rd.filter_map(|e| e.ok())
                    .filter(|e| e.path().join("due").is_file())
                    .filter_map(|e| e.file_name().into_string().ok())
                    .collect()
            })
            .unwrap_or_default();
        v.sort();
        v
    }

    pub fn clear_campaign_due(&self, name: &str) -> Result<(), StoreError> {
        let path = self.campaigns_dir().join(name).join("due");
        match std::fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(io_err(&path)(e)),
            _ => Ok(()),
        }
    }
}
