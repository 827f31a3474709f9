//! despatch-dice/v1: the hash onion, orders digests, locks, seeds and per-request dice streams.
//! Pure: it never reads the clock or the OS RNG except in `HostOnion::generate`, which the
//! store calls once at game start; everything else is a function of its arguments.

use rand_chacha::ChaCha20Rng;
use rand_core::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// A SHA-256 value: onion elements, digests, locks, seeds, log heads.
pub type Hash = [u8; 32];

pub const PROTOCOL: &str = "despatch-dice/v1";
pub const DEFAULT_ONION_LEN: u64 = 100_000;

/// Length prefix: `u32(len(x)) || x`.
fn lp(h: &mut Sha256, x: &[u8]) {
    h.update((x.len() as u32).to_be_bytes());
    h.update(x);
}

/// Domain separation tag `DS(t) = lp("despatch-dice/v1/" || t)`.
fn ds(h: &mut Sha256, t: &str) {
    let tag = format!("{PROTOCOL}/{t}");
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
pub fn onion_step(game_id: &str, party: &str, prev: &Hash) -> Hash {
    let mut h = Sha256::new();
    ds(&mut h, "onion");
    lp(&mut h, game_id.as_bytes());
    lp(&mut h, party.as_bytes());
    lp(&mut h, prev);
    finish(h)
}

/// The host's secret onion. Only the store holds one; views never see it.
#[derive(Clone)]
pub struct HostOnion {
    game_id: String,
    party: String,
    c0: Hash,
    len: u64,
}

impl std::fmt::Debug for HostOnion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The secret must never reach a log line, even through `{:?}`.
        f.debug_struct("HostOnion")
            .field("game_id", &self.game_id)
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
}

impl HostOnion {
    pub fn from_secret(game_id: &str, c0: Hash, len: u64) -> Self {
        Self {
            game_id: game_id.to_string(),
            party: "host".to_string(),
            c0,
            len,
        }
    }

    /// A fresh onion from the OS RNG (the one place this module touches ambient randomness).
    pub fn generate(game_id: &str, len: u64) -> Result<Self, DiceError> {
        let mut c0 = [0u8; 32];
        getrandom::fill(&mut c0).map_err(|e| DiceError::Entropy(e.to_string()))?;
        Ok(Self::from_secret(game_id, c0, len))
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

    /// `c_i`, computed by hashing forward from `c_0`.
    pub fn element(&self, i: u64) -> Hash {
        let mut c = self.c0;
        for _ in 0..i {
            c = onion_step(&self.game_id, &self.party, &c);
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

/// Checks `step(v_k) == v_{k-1}`, with `v_0` the anchor.
pub fn check_reveal(game_id: &str, previous: &Hash, v_k: &Hash) -> bool {
    &onion_step(game_id, "host", v_k) == previous
}

/// `salt = H(DS("salt") || lp(v_k) || lp(seat))`.
pub fn salt(v_k: &Hash, seat: &str) -> Hash {
    let mut h = Sha256::new();
    ds(&mut h, "salt");
    lp(&mut h, v_k);
    lp(&mut h, seat.as_bytes());
    finish(h)
}

/// `D = H(DS("orders") || lp(game_id) || u64(k) || lp(seat) || lp(salt) || lp(canonical_orders))`.
pub fn orders_digest(game_id: &str, k: u64, seat: &str, salt: &Hash, canonical: &str) -> Hash {
    let mut h = Sha256::new();
    ds(&mut h, "orders");
    lp(&mut h, game_id.as_bytes());
    h.update(k.to_be_bytes());
    lp(&mut h, seat.as_bytes());
    lp(&mut h, salt);
    lp(&mut h, canonical.as_bytes());
    finish(h)
}

/// `L_k`; `digests` are in the game's seat order, `None` for an NMR (empty digest).
pub fn lock(game_id: &str, k: u64, log_head: &Hash, digests: &[(String, Option<Hash>)]) -> Hash {
    let mut h = Sha256::new();
    ds(&mut h, "lock");
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
pub fn seed(lock: &Hash, v_k: &Hash, strict: &[(String, Hash)]) -> Hash {
    let mut h = Sha256::new();
    ds(&mut h, "seed");
    lp(&mut h, lock);
    lp(&mut h, v_k);
    h.update((strict.len() as u32).to_be_bytes());
    for (seat, r) in strict {
        lp(&mut h, seat.as_bytes());
        lp(&mut h, r);
    }
    finish(h)
}

/// `head_i = H(DS("log") || lp(head_{i-1}) || lp(event_bytes))`.
pub fn log_step(prev: &Hash, event_bytes: &[u8]) -> Hash {
    let mut h = Sha256::new();
    ds(&mut h, "log");
    lp(&mut h, prev);
    lp(&mut h, event_bytes);
    finish(h)
}

/// `head_0 = H(DS("log"))`.
pub fn log_genesis() -> Hash {
    let mut h = Sha256::new();
    ds(&mut h, "log");
    finish(h)
}

/// The faces of one die kind.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Faces {
    /// `s` faces valued 1..=s.
    Numbered { sides: u32 },
    /// `s` faces valued 0..s (a d10 read 0–9).
    ZeroBased { sides: u32 },
    /// Named faces, e.g. the Average Die `[2,3,3,4,4,5]`.
    List { values: Vec<u32> },
}

impl Faces {
    pub fn d(sides: u32) -> Self {
        Faces::Numbered { sides }
    }

    pub fn average_die() -> Self {
        Faces::List {
            values: vec![2, 3, 3, 4, 4, 5],
        }
    }

    pub fn sides(&self) -> u32 {
        match self {
            Faces::Numbered { sides } | Faces::ZeroBased { sides } => *sides,
            Faces::List { values } => values.len() as u32,
        }
    }

    fn value(&self, index: u32) -> u32 {
        match self {
            Faces::Numbered { .. } => index + 1,
            Faces::ZeroBased { .. } => index,
            Faces::List { values } => values[index as usize],
        }
    }

    /// How the roll table prints the die: `d6`, `d10(0-9)`, `avg[2,3,3,4,4,5]`.
    pub fn label(&self) -> String {
        match self {
            Faces::Numbered { sides } => format!("d{sides}"),
            Faces::ZeroBased { sides } => format!("d{sides}(0-{})", sides - 1),
            Faces::List { values } => {
                let v: Vec<String> = values.iter().map(|x| x.to_string()).collect();
                format!("[{}]", v.join(","))
            }
        }
    }
}

/// One face index from a stream: rejection sampling in u64, never floats or `gen_range`.
fn draw_index(rng: &mut ChaCha20Rng, sides: u32) -> u32 {
    let s = sides as u64;
    let lim = (1u64 << 32) - ((1u64 << 32) % s);
    loop {
        let x = rng.next_u32() as u64;
        if x < lim {
            return (x % s) as u32;
        }
    }
}

/// The stream for roll request `j` of seed `s_k`.
pub fn stream(s_k: &Hash, j: u64) -> ChaCha20Rng {
    let mut rng = ChaCha20Rng::from_seed(*s_k);
    rng.set_stream(j);
    rng
}

/// Rolls `count` dice of `faces` from stream `j`.
pub fn roll_stream(s_k: &Hash, j: u64, faces: &Faces, count: usize) -> Vec<u32> {
    let mut rng = stream(s_k, j);
    let sides = faces.sides().max(1);
    (0..count)
        .map(|_| faces.value(draw_index(&mut rng, sides)))
        .collect()
}

/// One line of the roll table that every results mail carries.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Roll {
    pub j: u64,
    pub label: String,
    pub faces: Faces,
    pub results: Vec<u32>,
}

/// The dice handle a ruleset resolves with: each request gets the next stream.
#[derive(Debug, Clone)]
pub struct Dice {
    seed: Hash,
    table: Vec<Roll>,
}

impl Dice {
    pub fn new(seed: Hash) -> Self {
        Self {
            seed,
            table: Vec::new(),
        }
    }

    /// Rolls `count` dice as request `j` = the number of requests so far.
    pub fn roll(&mut self, label: impl Into<String>, faces: Faces, count: usize) -> Vec<u32> {
        let j = self.table.len() as u64;
        let results = roll_stream(&self.seed, j, &faces, count);
        self.table.push(Roll {
            j,
            label: label.into(),
            faces,
            results: results.clone(),
        });
        results
    }

    pub fn roll_one(&mut self, label: impl Into<String>, faces: Faces) -> u32 {
        self.roll(label, faces, 1)[0]
    }

    pub fn table(&self) -> &[Roll] {
        &self.table
    }

    pub fn into_table(self) -> Vec<Roll> {
        self.table
    }
}

/// Re-derives every roll of a table from its seed; `Err` names the first mismatching `j`.
pub fn check_table(s_k: &Hash, table: &[Roll]) -> Result<(), (u64, String)> {
    for (i, r) in table.iter().enumerate() {
        if r.j != i as u64 {
            return Err((
                r.j,
                format!("request index {} out of order (expected {i})", r.j),
            ));
        }
        let again = roll_stream(s_k, r.j, &r.faces, r.results.len());
        if again != r.results {
            return Err((
                r.j,
                format!("results {:?} but the seed gives {:?}", r.results, again),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(s: &str) -> Hash {
        from_hex(s).unwrap()
    }

    #[test]
    fn chacha_first_words_match_the_vector() {
        let mut rng = stream(&[0u8; 32], 0);
        let w: Vec<u32> = (0..4).map(|_| rng.next_u32()).collect();
        assert_eq!(w, vec![0xade0b876, 0x903df1a0, 0xe56a5d40, 0x28bd8653]);
    }

    #[test]
    fn ten_d6_from_streams_zero_and_one() {
        assert_eq!(
            roll_stream(&[0u8; 32], 0, &Faces::d(6), 10),
            vec![1, 1, 1, 6, 6, 1, 3, 6, 5, 4]
        );
        assert_eq!(
            roll_stream(&[0u8; 32], 1, &Faces::d(6), 10),
            vec![2, 3, 2, 4, 6, 5, 2, 1, 2, 4]
        );
    }

    #[test]
    fn onion_vectors() {
        let onion = HostOnion::from_secret("yellow-sea-1904", [0x11; 32], 5);
        let a = onion.anchor();
        assert_eq!(
            to_hex(&a),
            "6a53d2b8f9e292c2881d3bbeaa30a5de6b77f31e4bea2ce073548fd3e59e0b8e"
        );
        let v1 = onion.reveal(1).unwrap();
        let v2 = onion.reveal(2).unwrap();
        let v3 = onion.reveal(3).unwrap();
        assert_eq!(
            to_hex(&v1),
            "4e11c8af195e6259395a8f35cb9496f290316fd18c05dfc346eac8dcc810a66c"
        );
        assert_eq!(
            to_hex(&v2),
            "41b32264448b0e592ed053a491e89b154480077223b962f7e67eed55b704be7e"
        );
        assert_eq!(
            to_hex(&v3),
            "adb47dcc53644841ebf02017a6df8a8fc26760911b675abb6da94937477d7d19"
        );
        assert!(check_reveal("yellow-sea-1904", &a, &v1));
        assert!(check_reveal("yellow-sea-1904", &v1, &v2));
        assert!(!check_reveal("yellow-sea-1904", &a, &v2));
        assert!(onion.reveal(6).is_err());
        assert!(onion.reveal(0).is_err());
    }

    #[test]
    fn step_one_vectors() {
        let game = "yellow-sea-1904";
        let v1 = h("4e11c8af195e6259395a8f35cb9496f290316fd18c05dfc346eac8dcc810a66c");
        let salt_r = salt(&v1, "russia");
        assert_eq!(
            to_hex(&salt_r),
            "ea60a81c663a2c2cdf28fe9255afc02db6836f97ed5dc3bdfa68a6f807965008"
        );
        let d_r = orders_digest(game, 1, "russia", &salt_r, "TURN Tsesarevich PORT 45\n");
        assert_eq!(
            to_hex(&d_r),
            "fca5ded9eb4dbf0173ee30205593e759f2dfa521f12eddec5c521b6681fac225"
        );
        let d_j = orders_digest(
            game,
            1,
            "japan",
            &salt(&v1, "japan"),
            "FIRE Mikasa AT Tsesarevich\n",
        );
        assert_eq!(
            to_hex(&d_j),
            "a76491526c2cb6b5e9c6ee108352d456f9df6909a10b1847b45977c923a0998b"
        );
        let head: Hash = Sha256::digest(b"example").into();
        let l1 = lock(
            game,
            1,
            &head,
            &[("japan".into(), Some(d_j)), ("russia".into(), Some(d_r))],
        );
        assert_eq!(
            to_hex(&l1),
            "ccc1a5e957aa76391c86bd5c447482c1ebfc9fcc005b514e0816913868d276d9"
        );
        let s1 = seed(&l1, &v1, &[]);
        assert_eq!(
            to_hex(&s1),
            "1cf082dccdb55e854c18344a14bf80e1ca8ae284231c7fc6274ec0f219be4261"
        );
        let mut dice = Dice::new(s1);
        assert_eq!(dice.roll("a", Faces::d(6), 6), vec![2, 1, 3, 6, 1, 5]);
        assert_eq!(dice.roll("b", Faces::d(6), 6), vec![3, 1, 2, 4, 4, 5]);
        assert_eq!(dice.roll("c", Faces::d(6), 6), vec![3, 5, 6, 4, 6, 5]);
        assert_eq!(dice.roll("d", Faces::d(10), 4), vec![4, 4, 5, 10]);
        assert!(check_table(&s1, dice.table()).is_ok());
        let mut bad = dice.table().to_vec();
        bad[2].results[0] = 4;
        assert_eq!(check_table(&s1, &bad).unwrap_err().0, 2);
    }

    #[test]
    fn nmr_lock_differs_from_submitted() {
        let head = log_genesis();
        let a = lock("g", 1, &head, &[("x".into(), None)]);
        let b = lock("g", 1, &head, &[("x".into(), Some([0; 32]))]);
        assert_ne!(a, b);
    }

    #[test]
    fn average_die_only_gives_its_faces() {
        let v = roll_stream(&[7; 32], 3, &Faces::average_die(), 600);
        assert!(v.iter().all(|x| [2, 3, 4, 5].contains(x)));
        assert!(v.contains(&2) && v.contains(&5));
        let z = roll_stream(&[7; 32], 4, &Faces::ZeroBased { sides: 10 }, 300);
        assert!(z.contains(&0) && z.iter().all(|x| *x < 10));
    }

    #[test]
    fn debug_never_prints_the_secret() {
        let onion = HostOnion::from_secret("g", [0xab; 32], 3);
        let s = format!("{onion:?}");
        assert!(!s.contains("abab"), "{s}");
    }
}
