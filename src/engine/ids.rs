//! What may name a game or a seat: the ids that travel in subjects, reply addresses, folder
//! names and the dice layouts. Pure checks; they know nothing of a game.

/// Whether `id` can name a game: 1–40 characters a–z, 0–9 and `-`, starting with a letter
/// (it appears in subjects, reply addresses and folder names).
pub fn valid_game_id(id: &str) -> bool {
    // `lobby` routes the lobby's reply addresses (`despatch+lobby.<secret>@…`).
    id != "lobby"
        && !id.is_empty()
        && id.len() <= 40
        && id.starts_with(|c: char| c.is_ascii_lowercase())
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// Whether `id` can name a seat: 1–24 characters a–z, 0–9, `_` and `-`, starting with a letter
/// (it travels in reply addresses, `despatch+<game>.<seat>.<secret>@…`, and the dice layouts).
pub fn valid_seat_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 24
        && id.starts_with(|c: char| c.is_ascii_lowercase())
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-')
}
