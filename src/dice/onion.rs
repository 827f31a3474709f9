//! The host's secrets for one game: the hash onion (`c_0` and its length) and, from v2, the salt
//! key `z`. Only the store holds them; a `Debug` print never shows them. Revealing `v_k` walks
//! forward from the nearest of ~√N checkpoints, so it costs a few hundred hashes, not up to N.

use super::{Hash, Protocol, onion_step, salt_key_commitment};

/// The host's secret onion.
#[derive(Clone)]
pub struct HostOnion {
    proto: Protocol,
    game_id: String,
    party: String,
    c0: Hash,
    len: u64,
    /// `c_{i·stride}` for i = 0, 1, …: derived from `c0`, kept so a reveal is short.
    checkpoints: Vec<Hash>,
    stride: u64,
}

impl std::fmt::Debug for HostOnion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The secret must never reach a log line, even through `{:?}`.
        f.debug_struct("HostOnion")
            .field("game_id", &self.game_id)
            .field("protocol", &self.proto)
            .field("len", &self.len)
            .finish_non_exhaustive()
    }
}

#[derive(Debug, thiserror::Error)]
pub enum DiceError {
    #[error("the onion has {len} steps; step {k} is beyond it")]
    OnionExhausted { k: u64, len: u64 },
    #[error("the operating system's random source failed: {0}")]
    Entropy(String),
    #[error("an onion needs at least one step")]
    EmptyOnion,
}

fn random_hash() -> Result<Hash, DiceError> {
    let mut h = [0u8; 32];
    getrandom::fill(&mut h).map_err(|e| DiceError::Entropy(e.to_string()))?;
    Ok(h)
}

impl HostOnion {
    /// The onion with secret `c0`; computes its checkpoints (N hashes, once).
    pub fn from_secret(proto: Protocol, game_id: &str, c0: Hash, len: u64) -> Self {
        Self::for_party(proto, game_id, "host", c0, len)
    }

    /// An onion of another party: a strict seat's own (`party` = the seat), made and kept on
    /// the player's machine by `despatch player init` (dice-protocol.md, "Strict mode").
    pub fn for_party(proto: Protocol, game_id: &str, party: &str, c0: Hash, len: u64) -> Self {
        let stride = stride_for(len);
        let mut checkpoints = vec![c0];
        let mut c = c0;
        for i in 1..=len {
            c = onion_step(proto, game_id, party, &c);
            if i % stride == 0 {
                checkpoints.push(c);
            }
        }
        Self {
            proto,
            game_id: game_id.to_string(),
            party: party.to_string(),
            c0,
            len,
            checkpoints,
            stride,
        }
    }

    /// The onion with secret `c0` and checkpoints stored earlier by `checkpoints()`; `None` if
    /// they do not fit (wrong count or first element), so the caller recomputes them.
    pub fn with_checkpoints(
        proto: Protocol,
        game_id: &str,
        c0: Hash,
        len: u64,
        checkpoints: Vec<Hash>,
    ) -> Option<Self> {
        let stride = stride_for(len);
        if checkpoints.first() != Some(&c0) || checkpoints.len() as u64 != len / stride + 1 {
            return None;
        }
        Some(Self {
            proto,
            game_id: game_id.to_string(),
            party: "host".to_string(),
            c0,
            len,
            checkpoints,
            stride,
        })
    }

    /// The checkpoints, for the store to keep beside the secret (they are secret too).
    pub fn checkpoints(&self) -> &[Hash] {
        &self.checkpoints
    }

    /// A fresh onion from the OS RNG (one of the two places this module touches randomness).
    pub fn generate(proto: Protocol, game_id: &str, len: u64) -> Result<Self, DiceError> {
        Self::generate_for(proto, game_id, "host", len)
    }

    /// A fresh onion of `party` (a strict seat's, on the player's machine).
    pub fn generate_for(
        proto: Protocol,
        game_id: &str,
        party: &str,
        len: u64,
    ) -> Result<Self, DiceError> {
        if len == 0 {
            return Err(DiceError::EmptyOnion);
        }
        Ok(Self::for_party(proto, game_id, party, random_hash()?, len))
    }

    pub fn protocol(&self) -> Protocol {
        self.proto
    }

    pub fn secret(&self) -> &Hash {
        &self.c0
    }

    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// `c_i`, hashed forward from the nearest checkpoint below it.
    pub fn element(&self, i: u64) -> Hash {
        let i = i.min(self.len);
        let k = ((i / self.stride) as usize).min(self.checkpoints.len() - 1);
        let mut c = self.checkpoints[k];
        for _ in (k as u64 * self.stride)..i {
            c = onion_step(self.proto, &self.game_id, &self.party, &c);
        }
        c
    }

    pub fn anchor(&self) -> Hash {
        self.element(self.len)
    }

    /// `v_k = c_{N-k}`.
    pub fn reveal(&self, k: u64) -> Result<Hash, DiceError> {
        if k == 0 || k > self.len {
            return Err(DiceError::OnionExhausted { k, len: self.len });
        }
        Ok(self.element(self.len - k))
    }
}

/// ⌈√N⌉: about √N checkpoints of which the nearest is at most √N steps away.
fn stride_for(len: u64) -> u64 {
    let mut s = (len as f64).sqrt() as u64;
    while s * s < len {
        s += 1;
    }
    s.max(1)
}

/// Everything secret the host draws when a game is created.
#[derive(Clone, Debug)]
pub struct GameSecrets {
    pub onion: HostOnion,
    /// The v2 salt key `z` (`None` for v1 games, which had none).
    pub salt_key: Option<SaltKey>,
    /// The key that signs every mail's seal (`None` in games made before mails were signed).
    pub mail_key: Option<super::MailKey>,
}

/// The salt key `z`; `Debug` never prints it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct SaltKey(pub Hash);

impl std::fmt::Debug for SaltKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SaltKey(…)")
    }
}

impl GameSecrets {
    /// Fresh secrets for a new game under the current protocol.
    pub fn generate(game_id: &str, onion_len: u64) -> Result<Self, DiceError> {
        Ok(Self {
            onion: HostOnion::generate(Protocol::CURRENT, game_id, onion_len)?,
            salt_key: Some(SaltKey(random_hash()?)),
            mail_key: Some(super::MailKey(random_hash()?)),
        })
    }

    /// Secrets given by the caller (tests pin them for reproducible mails), current protocol.
    /// The mail key is the onion's secret hashed once more (Ed25519 signatures are
    /// deterministic, so pinned games mail the same bytes every time).
    pub fn pinned(game_id: &str, c0: Hash, z: Hash, onion_len: u64) -> Self {
        use sha2::{Digest, Sha256};
        let mut h = Sha256::new();
        h.update(b"pinned mail key");
        h.update(c0);
        Self {
            onion: HostOnion::from_secret(Protocol::CURRENT, game_id, c0, onion_len),
            salt_key: Some(SaltKey(z)),
            mail_key: Some(super::MailKey(h.finalize().into())),
        }
    }

    pub fn protocol(&self) -> Protocol {
        self.onion.protocol()
    }

    /// `Z`, the salt key's commitment (v2).
    pub fn salt_commitment(&self, game_id: &str) -> Option<Hash> {
        self.salt_key
            .map(|SaltKey(z)| salt_key_commitment(game_id, &z))
    }
}
