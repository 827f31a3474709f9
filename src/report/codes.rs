//! The codes in the addresses of the live site's private pages and feeds: keyed SHA-256 of a
//! seat's token or a player's address, so a link can be written into a mail and a page without
//! either holding the secret. Pure; it knows nothing of pages or mails, both of which call it.

use sha2::{Digest, Sha256};

/// The code of a seat's private page: 32 hex digits of SHA-256 over a domain tag, the game,
/// the seat and the seat's token (each length-prefixed, as the one-click codes of club-rules
/// L1). Unguessable without the token and revealing nothing of it; a new token (the seat
/// handed on) makes a new code, and the old page is no longer written.
pub fn seat_code(game: &str, seat: &str, token: &str) -> String {
    let mut h = Sha256::new();
    h.update(b"despatch-seat-page/v1");
    for p in [game, seat, token] {
        h.update((p.len() as u64).to_be_bytes());
        h.update(p.as_bytes());
    }
    hex::encode(&h.finalize()[..16])
}

/// The code of a player's calendar feed (every deadline of every game the address plays):
/// 32 hex digits of SHA-256 over a domain tag, the house's site key and the address (lower
/// case). One feed per player across games, so it is derived from the address, not from one
/// seat's token; the key keeps anyone from deriving it from an address alone.
pub fn calendar_code(key: &[u8], address: &str) -> String {
    let mut h = Sha256::new();
    h.update(b"despatch-calendar-feed/v1");
    let address = address.to_ascii_lowercase();
    for p in [key, address.as_bytes()] {
        h.update((p.len() as u64).to_be_bytes());
        h.update(p);
    }
    hex::encode(&h.finalize()[..16])
}
