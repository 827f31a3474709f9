//! `despatch player …`: the small commands a strict seat's player runs on their own machine
//! (docs/strict-dice.md). `init` makes the seat's own onion in a folder the player names and
//! gives the anchor line to send when joining; `reveal` reads a lock mail and gives the reply
//! that reveals the seat's onion element for that step. The secret never leaves the folder.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use serde::{Deserialize, Serialize};

use crate::dice::{self, HostOnion, Protocol};
use crate::engine::strict;

/// What the folder keeps for one (game, seat): the secret `c_0` and how to rebuild the onion.
#[derive(Serialize, Deserialize)]
struct SeatSecret {
    protocol: Protocol,
    game: String,
    seat: String,
    onion_len: u64,
    /// `c_0`, 64 hex digits. Secret: never printed.
    secret: String,
}

fn secret_path(dir: &Path, game: &str, seat: &str) -> PathBuf {
    dir.join(format!("{game}.{seat}.strict.json"))
}

/// Makes `seat`'s onion for `game` in `dir` and returns the anchor line to send when joining.
/// Refuses to overwrite an existing secret (its anchor may already be committed).
pub fn init(dir: &Path, game: &str, seat: &str, onion_len: u64) -> Result<String> {
    if !crate::engine::valid_game_id(game) || !crate::engine::valid_seat_id(seat) {
        bail!("`{game}` / `{seat}`: not a valid game id and seat");
    }
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let path = secret_path(dir, game, seat);
    if path.exists() {
        bail!(
            "{} exists: this seat already has an onion for `{game}` (its anchor may be committed)",
            path.display()
        );
    }
    let onion = HostOnion::generate_for(Protocol::CURRENT, game, seat, onion_len)?;
    let file = SeatSecret {
        protocol: Protocol::CURRENT,
        game: game.into(),
        seat: seat.into(),
        onion_len,
        secret: dice::to_hex(onion.secret()),
    };
    let text = serde_json::to_string_pretty(&file)?;
    write_private(&path, text.as_bytes())?;
    Ok(strict::anchor_line(seat, &onion.anchor(), onion_len))
}

#[cfg(unix)]
fn write_private(path: &Path, bytes: &[u8]) -> Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
        .with_context(|| format!("writing {}", path.display()))?;
    f.write_all(bytes)?;
    f.sync_all()?;
    Ok(())
}

#[cfg(not(unix))]
fn write_private(path: &Path, bytes: &[u8]) -> Result<()> {
    std::fs::write(path, bytes).with_context(|| format!("writing {}", path.display()))
}

/// Reads a lock mail (its raw bytes) and returns the reply line: `REVEAL <k> <L_k> <r>`.
pub fn reveal(dir: &Path, mail: &[u8]) -> Result<String> {
    let text = mail_parser::MessageParser::default()
        .parse(mail)
        .and_then(|m| m.body_text(0).map(|t| t.into_owned()))
        .unwrap_or_else(|| String::from_utf8_lossy(mail).into_owned());
    let (game, step, seat, lock) =
        crate::mail::compose::read_lock_mail(&text).ok_or_else(|| {
            anyhow!(
                "no `{}` section in this mail: give the mail that asks for your reveal",
                crate::mail::compose::LOCK_HEADING
            )
        })?;
    let path = secret_path(dir, &game, &seat);
    let file: SeatSecret = serde_json::from_slice(
        &std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?,
    )
    .with_context(|| format!("reading {}", path.display()))?;
    let c0 =
        dice::from_hex(&file.secret).ok_or_else(|| anyhow!("{}: bad secret", path.display()))?;
    if file.game != game || file.seat != seat {
        bail!("{} is not the secret of {seat} in {game}", path.display());
    }
    if step == 0 || step > file.onion_len {
        bail!(
            "step {step} is beyond this seat's onion of {} steps",
            file.onion_len
        );
    }
    let onion = HostOnion::for_party(file.protocol, &game, &seat, c0, file.onion_len);
    let r = onion.element(file.onion_len - step);
    Ok(strict::reveal_line(step, &lock, &r))
}
