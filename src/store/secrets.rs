//! What the host keeps secret for a game: its onions and salt key (`host.secret`, with the
//! onions' checkpoints beside it in `host.checkpoints`) and the seats' addresses and secrets
//! (`seats.toml`). All mode 0600; none of it ever goes into the journal or another seat's mail.

use std::collections::BTreeMap;
use std::fs;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::dice::{self, DiceError, GameSecrets, Hash, HostOnion, MailKey, Protocol, SaltKey};
use crate::engine::HostSecrets;

use super::{GameStore, StoreError, atomic_write_private, io_err};

/// The host's onions (each serves steps from its first step until the next takes over) and the
/// game's salt key.
#[derive(Debug, Clone)]
pub struct HostOnions {
    pub protocol: Protocol,
    pub segments: Vec<(u64, HostOnion)>,
    pub salt_key: Option<SaltKey>,
    /// The key that signs the game's mails (absent in games made before mails were signed).
    pub mail_key: Option<MailKey>,
}

impl HostOnions {
    pub fn new(secrets: GameSecrets) -> Self {
        Self {
            protocol: secrets.protocol(),
            segments: vec![(1, secrets.onion)],
            salt_key: secrets.salt_key,
            mail_key: secrets.mail_key,
        }
    }

    /// `v_k` from the onion that serves step `k`.
    pub fn reveal_k(&self, k: u64) -> Result<Hash, DiceError> {
        let (from, onion) = self
            .segments
            .iter()
            .rev()
            .find(|(from, _)| *from <= k)
            .unwrap_or(&self.segments[0]);
        onion.reveal(k + 1 - from)
    }
}

impl HostSecrets for HostOnions {
    fn reveal(&self, k: u64) -> Result<Hash, String> {
        self.reveal_k(k).map_err(|e| e.to_string())
    }

    fn salt_key(&self) -> Option<Hash> {
        self.salt_key.map(|SaltKey(z)| z)
    }
}

/// One seat's private record: never in the journal, never in another seat's mail.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatPrivate {
    pub address: String,
    #[serde(default)]
    pub name: String,
    /// The seat's secret, carried in its reply address.
    pub token: String,
    /// IANA time zone for deadlines in mails (`Europe/London`).
    #[serde(default = "utc")]
    pub time_zone: String,
    /// More addresses the player writes from (`ADDRESS ADD`, sent from `address`). Mails from
    /// them are read as the seat's; every mail still goes to `address` alone.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub also_from: Vec<String>,
    /// Which mails nobody must answer the seat wants (`NOTIFY …`).
    #[serde(default, skip_serializing_if = "Notify::is_default")]
    pub notify: Notify,
}

impl SeatPrivate {
    /// Is `from` one of the addresses this seat's player writes from?
    pub fn writes_from(&self, from: &str) -> bool {
        self.address.eq_ignore_ascii_case(from)
            || self.also_from.iter().any(|a| a.eq_ignore_ascii_case(from))
    }
}

/// A seat's choice of the mails that ask nothing of it: each on its own as it happens (`true`),
/// or gathered into the seat's next mail that does ask something, or ends the game (`false`,
/// the default: one mail a step, issue 30). Gathered mails are attached whole to that mail, so
/// every die and digest they carry still reaches the seat. Results of steps that ask something
/// of the seat, rejections, every answer and the game-over mail always go at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Notify {
    /// "X has sent orders" notices.
    #[serde(default)]
    pub orders: bool,
    /// Results mails of steps in which the seat is only invited, not asked (its standing
    /// orders answer for it).
    #[serde(default)]
    pub optional: bool,
    /// Receipts of orders applied whole (a receipt of a mail with lines not applied always
    /// goes at once: the player may want to send again).
    #[serde(default)]
    pub receipts: bool,
    /// Results mails of steps that ask nothing of the seat.
    #[serde(default)]
    pub results: bool,
}

impl Notify {
    pub fn is_default(&self) -> bool {
        *self == Self::default()
    }

    /// Every mail on its own, as it happens (`NOTIFY ALL ON`).
    pub fn all() -> Self {
        Self {
            orders: true,
            optional: true,
            receipts: true,
            results: true,
        }
    }

    /// A seat's STOP (docs/club-rules.md S1), by mail or one-click: every mail that may wait,
    /// gathered into the next one that asks something. The one place that says what STOP does.
    pub fn stop(&mut self) {
        *self = Self::default();
    }
}

fn utc() -> String {
    "UTC".into()
}

/// A player who held a seat before `gm replace` handed it on. Kept so that their next mail is
/// answered once with what happened instead of vanishing.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FormerPlayer {
    pub seat: String,
    pub address: String,
    pub until: chrono::DateTime<chrono::Utc>,
    /// Told once already: later mails from the address are dropped unanswered.
    #[serde(default)]
    pub told: bool,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatsFile {
    pub seats: BTreeMap<String, SeatPrivate>,
    /// The game's organiser: told about undeliverable mail and other trouble.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gm: Option<String>,
    /// Players who handed their seat on (newest last).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub former: Vec<FormerPlayer>,
    /// Seats that voted for a draw (`PROPOSE DRAW`, `ACCEPT DRAW`): kept here, never in the
    /// journal or a mail, until every seat still playing has voted (docs/club-rules.md D1).
    #[serde(default, skip_serializing_if = "std::collections::BTreeSet::is_empty")]
    pub draw_votes: std::collections::BTreeSet<String>,
    /// Observers who receive the spectator view (issue 16, point 5), oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spectators: Vec<Spectator>,
}

/// One observer: the address lives here only; the journal knows the opaque `id`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spectator {
    pub id: String,
    pub address: String,
    /// `gm` or the seat that added them (a player may remove only those they added).
    pub added_by: String,
    pub since: chrono::DateTime<chrono::Utc>,
    /// Until the address confirms (docs/watching.md W5): nothing but the one confirmation
    /// mail goes to it. `None` once confirmed, and for every observer from before consent
    /// existed (they keep receiving).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending: Option<PendingSpectator>,
    /// The secret the one-click unsubscription code is derived from (club-rules L1). Absent
    /// for observers from before it existed: their mails carry the mailto URI only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop: Option<String>,
}

impl Spectator {
    /// Confirmed: receives the spectator view and counts as watching (W1).
    pub fn watching(&self) -> bool {
        self.pending.is_none()
    }
}

/// A spectator's request not yet confirmed: the code the reply must carry (it proves the
/// mailbox, which a From header cannot) and when the request lapses.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PendingSpectator {
    pub code: String,
    pub until: chrono::DateTime<chrono::Utc>,
}

/// A fresh seat secret: 24 characters of [a-z0-9] from the OS RNG (~124 bits). Lower-case because
/// mail systems may fold the case of the address that carries it.
pub fn new_token() -> Result<String, StoreError> {
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
    let mut out = String::new();
    while out.len() < 24 {
        let mut b = [0u8; 32];
        getrandom::fill(&mut b).map_err(|e| StoreError::Corrupt {
            path: PathBuf::from("<os rng>"),
            detail: e.to_string(),
        })?;
        // 252 = 7 × 36: rejection keeps every character equally likely.
        out.extend(
            b.iter()
                .filter(|x| **x < 252)
                .map(|x| ALPHABET[(*x % 36) as usize] as char),
        );
    }
    out.truncate(24);
    Ok(out)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SecretFile {
    /// Absent in games made before v2.
    protocol: Option<String>,
    salt_key: Option<String>,
    /// Absent in games made before mails were signed.
    mail_key: Option<String>,
    /// The single-onion form written before renewal existed.
    c0: Option<String>,
    len: Option<u64>,
    #[serde(default)]
    onion: Vec<SegmentFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SegmentFile {
    from_step: u64,
    c0: String,
    len: u64,
}

#[derive(Serialize, Deserialize)]
struct CheckpointFile {
    from_step: u64,
    points: Vec<String>,
}

impl GameStore {
    /// Replaces the seats file, after the players index has the seats' addresses (so a
    /// player's calendar, which reads the games the index names, never misses this game).
    pub fn write_seats(&self, seats: &SeatsFile) -> Result<(), StoreError> {
        self.note_players(seats)?;
        let text = toml::to_string(seats).map_err(|e| StoreError::Corrupt {
            path: self.dir.join("seats.toml"),
            detail: e.to_string(),
        })?;
        atomic_write_private(&self.dir.join("seats.toml"), text.as_bytes())
    }

    pub fn seats(&self) -> Result<SeatsFile, StoreError> {
        let p = self.dir.join("seats.toml");
        let s = fs::read_to_string(&p).map_err(io_err(&p))?;
        toml::from_str(&s).map_err(|e| StoreError::Corrupt {
            path: p,
            detail: e.to_string(),
        })
    }

    /// Every onion of the game, oldest first (the first serves from step 1), and the salt key.
    /// The game id comes from the caller (the journal's), not from the folder's name.
    pub fn secrets_for(&self, game_id: &str) -> Result<HostOnions, StoreError> {
        let p = self.dir.join("host.secret");
        let s = fs::read_to_string(&p).map_err(io_err(&p))?;
        let corrupt = |detail: &str| StoreError::Corrupt {
            path: p.clone(),
            detail: detail.to_string(),
        };
        let f: SecretFile = toml::from_str(&s).map_err(|e| corrupt(&e.to_string()))?;
        let protocol = match &f.protocol {
            Some(name) => Protocol::parse(name).ok_or_else(|| corrupt("unknown protocol"))?,
            None => Protocol::V1,
        };
        let salt_key = match &f.salt_key {
            Some(z) => Some(SaltKey(
                dice::from_hex(z).ok_or_else(|| corrupt("salt_key is not 32 bytes of hex"))?,
            )),
            None => None,
        };
        let mail_key = match &f.mail_key {
            Some(k) => Some(MailKey(
                dice::from_hex(k).ok_or_else(|| corrupt("mail_key is not 32 bytes of hex"))?,
            )),
            None => None,
        };
        let mut raw: Vec<(u64, String, u64)> = f
            .onion
            .into_iter()
            .map(|g| (g.from_step, g.c0, g.len))
            .collect();
        if let (Some(c0), Some(len)) = (f.c0, f.len) {
            raw.insert(0, (1, c0, len));
        }
        let checkpoints = self.read_checkpoints();
        let mut segments = Vec::new();
        for (from, c0, len) in raw {
            let c0 = dice::from_hex(&c0).ok_or_else(|| corrupt("c0 is not 32 bytes of hex"))?;
            let stored = checkpoints.get(&from).and_then(|pts| {
                HostOnion::with_checkpoints(protocol, game_id, c0, len, pts.clone())
            });
            let onion =
                stored.unwrap_or_else(|| HostOnion::from_secret(protocol, game_id, c0, len));
            segments.push((from, onion));
        }
        if segments.is_empty() {
            return Err(corrupt("no onion"));
        }
        Ok(HostOnions {
            protocol,
            segments,
            salt_key,
            mail_key,
        })
    }

    fn read_checkpoints(&self) -> BTreeMap<u64, Vec<Hash>> {
        let p = self.dir.join("host.checkpoints");
        let Ok(bytes) = fs::read(&p) else {
            return BTreeMap::new();
        };
        let Ok(files) = serde_json::from_slice::<Vec<CheckpointFile>>(&bytes) else {
            // A cache: a damaged one is recomputed from the secret.
            return BTreeMap::new();
        };
        files
            .into_iter()
            .filter_map(|c| {
                let pts: Option<Vec<Hash>> = c.points.iter().map(|h| dice::from_hex(h)).collect();
                Some((c.from_step, pts?))
            })
            .collect()
    }

    /// Whether the onions' checkpoints are stored (older games computed them at every load).
    pub fn has_checkpoints(&self) -> bool {
        self.dir.join("host.checkpoints").exists()
    }

    /// Writes the secrets and their checkpoints (the secret first: a crash between the two
    /// only costs a recomputation).
    pub fn write_secrets(&self, onions: &HostOnions) -> Result<(), StoreError> {
        let mut text = format!(
            "# despatch host secrets for game {} (never share; see docs/dice-protocol.md)\n",
            self.id
        );
        if onions.protocol != Protocol::V1 {
            text.push_str(&format!("protocol = \"{}\"\n", onions.protocol.name()));
        }
        if let Some(SaltKey(z)) = &onions.salt_key {
            text.push_str(&format!("salt_key = \"{}\"\n", dice::to_hex(z)));
        }
        if let Some(MailKey(k)) = &onions.mail_key {
            text.push_str(&format!("mail_key = \"{}\"\n", dice::to_hex(k)));
        }
        for (from, o) in &onions.segments {
            text.push_str(&format!(
                "\n[[onion]]\nfrom_step = {from}\nc0 = \"{}\"\nlen = {}\n",
                dice::to_hex(o.secret()),
                o.len()
            ));
        }
        atomic_write_private(&self.dir.join("host.secret"), text.as_bytes())?;
        let files: Vec<CheckpointFile> = onions
            .segments
            .iter()
            .map(|(from, o)| CheckpointFile {
                from_step: *from,
                points: o.checkpoints().iter().map(dice::to_hex).collect(),
            })
            .collect();
        let json = serde_json::to_vec(&files).expect("checkpoints serialise");
        atomic_write_private(&self.dir.join("host.checkpoints"), &json)
    }
}
