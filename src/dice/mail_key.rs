//! The game's mail key (issue 29, point 1): a per-game Ed25519 key whose public half `K` is
//! committed in the welcome's anchor line and the creation event, and whose signature over each
//! mail's seal ties the mail to the host. Pure: signing and checking are functions of their
//! arguments; the key is drawn once, by the shell, through `GameSecrets::generate`.
//!
//! The signed message is `M = DS("mail-seal") || lp(game_id) || lp(d)` with `d` the 32 bytes of
//! the mail's `Mail-Digest` (docs/dice-protocol.md, "The signature of a mail"). Signing the
//! digest and not the text keeps the one normal form the seal already defines: whatever a
//! transport may change without changing what a person reads, it changes in neither.

use super::{Hash, Protocol};
use ed25519_dalek::{Signature, Signer, SigningKey, VerifyingKey};

/// How a sealed mail's seal line begins: the mail's `Mail-Digest` (docs/dice-protocol.md, "The
/// seal of a mail"), kept beside the signature's line so that the engine (which refuses to relay
/// a seal line in press), the mail bodies and the checkers all read it from below them.
pub const DIGEST_PREFIX: &str = "Mail-Digest: sha256:";

/// The line a signed mail carries right after its `Mail-Digest` line.
pub const SIGNATURE_PREFIX: &str = "Mail-Signature: ed25519:";

/// The secret half, a 32-byte Ed25519 seed. `Debug` never prints it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct MailKey(pub Hash);

impl std::fmt::Debug for MailKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("MailKey(…)")
    }
}

impl MailKey {
    /// `K`, the public key every mail of the game is checked against.
    pub fn public(&self) -> Hash {
        SigningKey::from_bytes(&self.0).verifying_key().to_bytes()
    }

    /// The 64-byte signature of the seal `digest` of a mail of `game_id`.
    pub fn sign(&self, game_id: &str, digest: &Hash) -> [u8; 64] {
        SigningKey::from_bytes(&self.0)
            .sign(&message(game_id, digest))
            .to_bytes()
    }
}

/// `M = DS("mail-seal") || lp(game_id) || lp(digest)`: the game's id keeps a signature from
/// being carried into another game, the domain tag from being read as any other hash input.
pub fn message(game_id: &str, digest: &Hash) -> Vec<u8> {
    let mut m = Vec::with_capacity(64 + game_id.len());
    let tag = format!("{}/mail-seal", Protocol::V2.name());
    m.extend((tag.len() as u32).to_be_bytes());
    m.extend(tag.as_bytes());
    m.extend((game_id.len() as u32).to_be_bytes());
    m.extend(game_id.as_bytes());
    m.extend(32u32.to_be_bytes());
    m.extend(digest);
    m
}

/// Does `signature` sign the seal `digest` of a mail of `game_id` under public key `key`?
/// Strict verification (RFC 8032's, without malleable or small-order forms): a key or a
/// signature that is not a canonical encoding is false, never an error.
pub fn verify(key: &Hash, game_id: &str, digest: &Hash, signature: &[u8; 64]) -> bool {
    let Ok(k) = VerifyingKey::from_bytes(key) else {
        return false;
    };
    k.verify_strict(&message(game_id, digest), &Signature::from_bytes(signature))
        .is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use sha2::{Digest, Sha256};

    /// The known-answer vector of docs/dice-protocol.md ("The signature of a mail"), computed
    /// with OpenSSL 3.0's Ed25519 (`openssl pkeyutl -sign -rawin`), not with this code.
    #[test]
    fn the_documented_signature_vector_is_reproduced() {
        let k = MailKey([0x33; 32]);
        let d: Hash = Sha256::digest(b"example").into();
        assert_eq!(
            hex::encode(message("yellow-sea-1904", &d)),
            "0000001a64657370617463682d646963652f76322f6d61696c2d7365616c0000000f79656c6c6f772d\
             7365612d313930340000002050d858e0985ecc7f60418aaf0cc5ab587f42c2570a884095a9e8ccacd0f6545c"
        );
        assert_eq!(
            hex::encode(k.public()),
            "17cb79fb2b4120f2b1ec65e4198d6e08b28e813feb01e4a400839b85e18080ce"
        );
        let sig = k.sign("yellow-sea-1904", &d);
        assert_eq!(
            hex::encode(sig),
            "1e9638a6e0c1cf8b5f6adc2ee476e863c5445a85e3587c62a8792546f7a42fe1\
             dbf277dba982fb2b2fcb24c4447411d4a42b17bd0faac633791a4536fea5f60d"
        );
        assert!(verify(&k.public(), "yellow-sea-1904", &d, &sig));
    }

    #[test]
    fn a_signature_fails_for_another_digest_game_key_or_a_flipped_bit() {
        let k = MailKey([0x33; 32]);
        let d: Hash = Sha256::digest(b"example").into();
        let sig = k.sign("g", &d);
        assert!(
            verify(&k.public(), "g", &d, &sig),
            "control: the genuine one verifies"
        );
        let mut d2 = d;
        d2[31] ^= 1;
        assert!(!verify(&k.public(), "g", &d2, &sig));
        assert!(!verify(&k.public(), "h", &d, &sig));
        assert!(!verify(&MailKey([0x34; 32]).public(), "g", &d, &sig));
        for i in [0, 31, 32, 63] {
            let mut s2 = sig;
            s2[i] ^= 0x80;
            assert!(
                !verify(&k.public(), "g", &d, &s2),
                "bit flipped in byte {i}"
            );
        }
        // Not a key at all (not a point's encoding): false, not a panic.
        assert!(!verify(&[0xff; 32], "g", &d, &sig));
    }

    #[test]
    fn debug_never_prints_the_secret() {
        assert_eq!(format!("{:?}", MailKey([0x33; 32])), "MailKey(…)");
    }
}
