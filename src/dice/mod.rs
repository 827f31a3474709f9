//! The dice protocol (`despatch-dice/v2`, and v1 for games created before it): the byte layouts
//! of onion steps, salts, orders digests, locks, seeds and log heads, exactly as
//! `docs/dice-protocol.md` specifies them. Pure: every function is a function of its arguments;
//! the only ambient randomness is `GameSecrets::generate`, called once per game by the shell.

pub mod mail_key;
mod onion;
mod rolls;
#[cfg(test)]
mod strict_vectors;
#[cfg(test)]
mod vectors;

pub use mail_key::{DIGEST_PREFIX, MailKey, SIGNATURE_PREFIX};
pub use onion::{DiceError, GameSecrets, HostOnion, SaltKey};
pub use rolls::{Dice, Faces, Roll, check_table, roll_stream, stream};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// A SHA-256 value: onion elements, digests, locks, seeds, log heads.
pub type Hash = [u8; 32];

pub const DEFAULT_ONION_LEN: u64 = 100_000;

/// Which version of the protocol a game was created under; the creation event names it and
/// every later hash of the game follows it (domain strings differ, and so does the salt).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum Protocol {
    /// The first version: the orders salt comes from `v_k` (published with the step's results),
    /// so a sealed order that outlives its step could be brute-forced. Only verified now.
    #[serde(rename = "despatch-dice/v1")]
    #[default]
    V1,
    /// The salt comes from a per-game salt key `z`, committed at start, published at the end.
    #[serde(rename = "despatch-dice/v2")]
    V2,
}

impl Protocol {
    /// The version every new game is created under.
    pub const CURRENT: Protocol = Protocol::V2;

    pub fn name(self) -> &'static str {
        match self {
            Protocol::V1 => "despatch-dice/v1",
            Protocol::V2 => "despatch-dice/v2",
        }
    }

    pub fn parse(s: &str) -> Option<Protocol> {
        match s.trim() {
            "despatch-dice/v1" => Some(Protocol::V1),
            "despatch-dice/v2" => Some(Protocol::V2),
            _ => None,
        }
    }
}

impl std::fmt::Display for Protocol {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Length prefix: `u32(len(x)) || x`.
fn lp(h: &mut Sha256, x: &[u8]) {
    h.update((x.len() as u32).to_be_bytes());
    h.update(x);
}

/// Domain separation tag `DS(t) = lp("despatch-dice/v2/" || t)` (`v1/` in v1 games).
fn ds(h: &mut Sha256, proto: Protocol, t: &str) {
    let tag = format!("{}/{t}", proto.name());
    lp(h, tag.as_bytes());
}

fn finish(h: Sha256) -> Hash {
    h.finalize().into()
}

pub fn to_hex(h: &Hash) -> String {
    hex::encode(h)
}

pub fn from_hex(s: &str) -> Option<Hash> {
    let v = hex::decode(s.trim()).ok()?;
    v.try_into().ok()
}

/// One onion step: `c_i = H(DS("onion") || lp(game_id) || lp(party) || lp(c_{i-1}))`.
pub fn onion_step(proto: Protocol, game_id: &str, party: &str, prev: &Hash) -> Hash {
    let mut h = Sha256::new();
    ds(&mut h, proto, "onion");
    lp(&mut h, game_id.as_bytes());
    lp(&mut h, party.as_bytes());
    lp(&mut h, prev);
    finish(h)
}

/// Checks `step(v_k) == v_{k-1}`, with `v_0` the anchor.
pub fn check_reveal(proto: Protocol, game_id: &str, previous: &Hash, v_k: &Hash) -> bool {
    &onion_step(proto, game_id, "host", v_k) == previous
}

/// v1's salt, `H(DS("salt") || lp(v_k) || lp(seat))`: known to everyone once step k resolves.
pub fn salt_v1(v_k: &Hash, seat: &str) -> Hash {
    let mut h = Sha256::new();
    ds(&mut h, Protocol::V1, "salt");
    lp(&mut h, v_k);
    lp(&mut h, seat.as_bytes());
    finish(h)
}

/// v2's salt, `H(DS("salt") || lp(game_id) || lp(z) || u64(k) || lp(seat))`: secret until the
/// salt key `z` is published at the end of the game.
pub fn salt(game_id: &str, z: &Hash, k: u64, seat: &str) -> Hash {
    let mut h = Sha256::new();
    ds(&mut h, Protocol::V2, "salt");
    lp(&mut h, game_id.as_bytes());
    lp(&mut h, z);
    h.update(k.to_be_bytes());
    lp(&mut h, seat.as_bytes());
    finish(h)
}

/// The salt key's commitment `Z = H(DS("salt-key") || lp(game_id) || lp(z))` (v2).
pub fn salt_key_commitment(game_id: &str, z: &Hash) -> Hash {
    let mut h = Sha256::new();
    ds(&mut h, Protocol::V2, "salt-key");
    lp(&mut h, game_id.as_bytes());
    lp(&mut h, z);
    finish(h)
}

/// `D = H(DS("orders") || lp(game_id) || u64(k) || lp(seat) || lp(salt) || lp(canonical_orders))`.
pub fn orders_digest(
    proto: Protocol,
    game_id: &str,
    k: u64,
    seat: &str,
    salt: &Hash,
    canonical: &str,
) -> Hash {
    let mut h = Sha256::new();
    ds(&mut h, proto, "orders");
    lp(&mut h, game_id.as_bytes());
    h.update(k.to_be_bytes());
    lp(&mut h, seat.as_bytes());
    lp(&mut h, salt);
    lp(&mut h, canonical.as_bytes());
    finish(h)
}

/// `L_k`; `digests` are in the game's seat order, `None` for an NMR (empty digest).
pub fn lock(
    proto: Protocol,
    game_id: &str,
    k: u64,
    log_head: &Hash,
    digests: &[(String, Option<Hash>)],
) -> Hash {
    let mut h = Sha256::new();
    ds(&mut h, proto, "lock");
    lp(&mut h, game_id.as_bytes());
    h.update(k.to_be_bytes());
    lp(&mut h, log_head);
    h.update((digests.len() as u32).to_be_bytes());
    for (seat, d) in digests {
        lp(&mut h, seat.as_bytes());
        match d {
            Some(d) => lp(&mut h, d),
            None => lp(&mut h, &[]),
        }
    }
    finish(h)
}

/// `S_k`; `strict` holds each strict seat's reveal (empty in default mode).
pub fn seed(proto: Protocol, lock: &Hash, v_k: &Hash, strict: &[(String, Hash)]) -> Hash {
    let entries: Vec<(String, Option<Hash>)> =
        strict.iter().map(|(s, r)| (s.clone(), Some(*r))).collect();
    seed_strict(proto, lock, v_k, &entries)
}

/// `S_k` with every strict seat listed (`m` = their number, in seat order) and `None` for a
/// seat that gave no `r_seat_k` (a step without dice, or a reveal missed at the reveal
/// deadline): it is hashed as the empty string, `lp("")`, like an NMR's digest in `L_k`.
pub fn seed_strict(
    proto: Protocol,
    lock: &Hash,
    v_k: &Hash,
    strict: &[(String, Option<Hash>)],
) -> Hash {
    let mut h = Sha256::new();
    ds(&mut h, proto, "seed");
    lp(&mut h, lock);
    lp(&mut h, v_k);
    h.update((strict.len() as u32).to_be_bytes());
    for (seat, r) in strict {
        lp(&mut h, seat.as_bytes());
        match r {
            Some(r) => lp(&mut h, r),
            None => lp(&mut h, &[]),
        }
    }
    finish(h)
}

/// Whether `r` is `party`'s onion element `gap` steps below `known` (`gap` = 1 for the step
/// right after the last checked reveal; more when steps in between revealed nothing).
pub fn check_party_reveal(
    proto: Protocol,
    game_id: &str,
    party: &str,
    known: &Hash,
    gap: u64,
    r: &Hash,
) -> bool {
    &onion_walk(proto, game_id, party, r, gap) == known
}

/// A strict seat's reveal bound to the lock it answers (strict-dice.md, S11):
/// `r = H(DS("strict-bind") || lp(game_id) || lp(seat) || u64(j) || lp(e_j) || lp(L_k))`, where
/// `e_j = c_{N-j}` is the seat's `j`-th onion element. `r` for one `L_k` tells nothing of `r` for
/// another, and `e_j` stays on the player's machine until the game is over.
pub fn bound_reveal(
    proto: Protocol,
    game_id: &str,
    seat: &str,
    j: u64,
    element: &Hash,
    lock: &Hash,
) -> Hash {
    let mut h = Sha256::new();
    ds(&mut h, proto, "strict-bind");
    lp(&mut h, game_id.as_bytes());
    lp(&mut h, seat.as_bytes());
    h.update(j.to_be_bytes());
    lp(&mut h, element);
    lp(&mut h, lock);
    finish(h)
}

/// `n` steps of `party`'s onion from `c` (`c_{i+n}` from `c_i`).
pub fn onion_walk(proto: Protocol, game_id: &str, party: &str, c: &Hash, n: u64) -> Hash {
    let mut c = *c;
    for _ in 0..n {
        c = onion_step(proto, game_id, party, &c);
    }
    c
}

/// `head_i = H(DS("log") || lp(head_{i-1}) || lp(event_bytes))`.
pub fn log_step(proto: Protocol, prev: &Hash, event_bytes: &[u8]) -> Hash {
    let mut h = Sha256::new();
    ds(&mut h, proto, "log");
    lp(&mut h, prev);
    lp(&mut h, event_bytes);
    finish(h)
}

/// `head_0 = H(DS("log"))`.
pub fn log_genesis(proto: Protocol) -> Hash {
    let mut h = Sha256::new();
    ds(&mut h, proto, "log");
    finish(h)
}

/// Serde for a `Hash` as 64 hex digits (snapshots stay readable and compact).
pub mod hex32 {
    use super::{Hash, from_hex, to_hex};
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(h: &Hash, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&to_hex(h))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Hash, D::Error> {
        let s = String::deserialize(d)?;
        from_hex(&s).ok_or_else(|| serde::de::Error::custom("not 32 bytes of hex"))
    }

    /// The same for `Option<Hash>`.
    pub mod opt {
        use super::{Hash, from_hex, to_hex};
        use serde::{Deserialize, Deserializer, Serializer};

        pub fn serialize<S: Serializer>(h: &Option<Hash>, s: S) -> Result<S::Ok, S::Error> {
            match h {
                Some(h) => s.serialize_some(&to_hex(h)),
                None => s.serialize_none(),
            }
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Hash>, D::Error> {
            match Option::<String>::deserialize(d)? {
                Some(s) => from_hex(&s)
                    .map(Some)
                    .ok_or_else(|| serde::de::Error::custom("not 32 bytes of hex")),
                None => Ok(None),
            }
        }
    }
}
