//! `despatch player …`: the small commands a strict seat's player runs on their own machine
//! (docs/strict-dice.md). `init` makes the seat's own onion in a folder the player names and
//! gives the anchor line to send when joining; `trust` keeps the game's mail key from its
//! welcome; `reveal` reads a lock mail the game signed and gives the reply that reveals the
//! seat's next onion element, keeping a record of every reveal it gave. The secret never leaves
//! the folder; a mail the game did not sign gets nothing, and no lock mail — even one a host
//! edited and signed again — makes it reveal any element but the next one (ruling S8).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::dice::{self, HostOnion, Protocol};
use crate::engine::strict::{self, BOUND, BY_REVEAL};
use crate::engine::strict_bound::{self, OPEN_HEADING};
use crate::mail::compose::{LOCK_HEADING, LockAsk};

mod bound;
mod check;
mod command;
use bound::{another_lock_refused, is_bound, open_at};
pub use check::{CheckReport, check};
pub use command::run;

/// What the folder keeps for one (game, seat): the secret `c_0` and how to rebuild the onion.
#[derive(Serialize, Deserialize)]
struct SeatSecret {
    protocol: Protocol,
    game: String,
    seat: String,
    onion_len: u64,
    /// `c_0`, 64 hex digits. Secret: never printed.
    secret: String,
    /// `"reveal"` for an onion made to be indexed by reveal count; absent in older folders.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    onion_index: Option<String>,
}

/// Every reveal the tool gave for one (game, seat), beside its secret: what keeps it from
/// giving any element but the next, and the player's own evidence of what it was asked.
#[derive(Serialize, Deserialize)]
struct RevealRecord {
    game: String,
    seat: String,
    /// `"bound"`, `"reveal"` or `"step"`: how the game indexes the onion (and whether it binds
    /// reveals to their lock), fixed by the first reveal.
    by: String,
    reveals: Vec<Given>,
    /// Bound games: lock mails refused because this reveal number had answered another lock
    /// (ruling S11) — the player's evidence that the game showed two locks.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    refused: Vec<Given>,
    /// Bound games: the onion opened once the game said it was over; no lock is answered after.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    opened: Option<OpenedRecord>,
}

/// When and through which reveal the seat's onion was opened, and the game's signature on the
/// mail that asked (it said the game was over).
#[derive(Serialize, Deserialize)]
struct OpenedRecord {
    through: u64,
    at: DateTime<Utc>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    signature: Option<String>,
}

/// One reveal given: its index in the onion, the step, the `L_k` it quoted, when.
#[derive(Serialize, Deserialize)]
struct Given {
    index: u64,
    step: u64,
    lock: String,
    at: DateTime<Utc>,
    /// The lock mail's `Mail-Signature` (hex): with the lock, the game's own signed word for
    /// what it asked — the player's proof in a dispute. Absent for unsigned (older) games.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    signature: Option<String>,
    /// Bound games: the reveal given (hex), `H(strict-bind, …, e_j, L_k)`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    reveal: Option<String>,
}

/// What `player trust` keeps from the game's welcome, beside the seat's secret: the key every
/// later mail of the game must be signed with.
#[derive(Serialize, Deserialize)]
struct TrustedGame {
    game: String,
    /// The welcome's whole anchor line, the one the seats compare with each other.
    anchor_line: String,
    /// `K` (hex); `None` for a game older than signed mails.
    mail_key: Option<String>,
    at: DateTime<Utc>,
}

fn trust_path(dir: &Path, game: &str) -> PathBuf {
    dir.join(format!("{game}.trust.json"))
}

/// Reads the game's welcome (its raw bytes) and keeps its mail key `K` in `dir`, so that
/// `reveal` answers only lock mails the game signed. Returns what to tell the player. A key
/// already kept is never replaced by another: a second welcome with another key is refused.
pub fn trust(dir: &Path, welcome: &[u8], now: DateTime<Utc>) -> Result<String> {
    let w = crate::verify::read_welcome(welcome).map_err(|e| anyhow!("not a welcome: {e}"))?;
    // The id names a file in the player's folder: never a path out of it.
    if !crate::engine::valid_game_id(&w.game) {
        bail!("not a welcome: `{}` is not a game id", w.game);
    }
    let key = w.key.as_ref().map(dice::to_hex);
    let path = trust_path(dir, &w.game);
    if let Ok(bytes) = std::fs::read(&path) {
        let kept: TrustedGame = serde_json::from_slice(&bytes)
            .with_context(|| format!("reading {}", path.display()))?;
        if kept.mail_key != key || kept.anchor_line != w.anchor_line {
            bail!(
                "{} already keeps another anchor line for game {}:\n  kept:  {}\n  this:  {}\n\
                 refused: one game has one anchor line and one key. Two welcomes that differ are \
                 evidence of a split view; keep both mails",
                path.display(),
                w.game,
                kept.anchor_line,
                w.anchor_line
            );
        }
    } else {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        let kept = TrustedGame {
            game: w.game.clone(),
            anchor_line: w.anchor_line.clone(),
            mail_key: key.clone(),
            at: now,
        };
        crate::store::atomic_write_private(&path, serde_json::to_string_pretty(&kept)?.as_bytes())
            .with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(match key {
        Some(k) => format!(
            "Game {}: mail key K = {k} kept in {}. Compare this anchor line with your fellow \
             players' (the same line means the same game and key):\n{}",
            w.game,
            path.display(),
            w.anchor_line
        ),
        None => format!(
            "Game {} does not sign its mails (it is older than signed mails): kept, but the origin \
             of its lock mails cannot be checked. Compare this anchor line with your fellow \
             players':\n{}",
            w.game, w.anchor_line
        ),
    })
}

/// The seat's secret kept in `dir`, and its `c_0`. The game and seat come from a mail (signed
/// by the host, who is the party strict mode guards against): they must be ids, never a path
/// out of the folder, since the record beside the secret is written under the same names.
fn read_secret(dir: &Path, game: &str, seat: &str) -> Result<(SeatSecret, dice::Hash)> {
    if !crate::engine::valid_game_id(game) || !crate::engine::valid_seat_id(seat) {
        bail!("`{game}` / `{seat}` in this mail is not a game id and seat: refused");
    }
    let path = secret_path(dir, game, seat);
    let file: SeatSecret = serde_json::from_slice(
        &std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?,
    )
    .with_context(|| format!("reading {}", path.display()))?;
    let c0 =
        dice::from_hex(&file.secret).ok_or_else(|| anyhow!("{}: bad secret", path.display()))?;
    if file.game != game || file.seat != seat {
        bail!("{} is not the secret of {seat} in {game}", path.display());
    }
    Ok((file, c0))
}

fn secret_path(dir: &Path, game: &str, seat: &str) -> PathBuf {
    dir.join(format!("{game}.{seat}.strict.json"))
}

fn record_path(dir: &Path, game: &str, seat: &str) -> PathBuf {
    dir.join(format!("{game}.{seat}.reveals.json"))
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
        onion_index: Some(BOUND.into()),
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

/// Reads a lock mail (its raw bytes) and returns the reply line, `REVEAL <k> <L_k> <r>`, for
/// the seat's next reveal only; the same lock asked again gets the same line (a lost mail).
pub fn reveal(dir: &Path, mail: &[u8]) -> Result<String> {
    reveal_at(dir, mail, Utc::now()).map(|(line, _)| line)
}

/// `reveal`, recording `now` as the time the reveal was given; with it, a note for the player
/// when the lock differs from the one this reveal was first given for (a split view).
pub fn reveal_at(dir: &Path, mail: &[u8], now: DateTime<Utc>) -> Result<(String, Option<String>)> {
    let text = mail_parser::MessageParser::default()
        .parse(mail)
        .and_then(|m| m.body_text(0).map(|t| t.into_owned()))
        .unwrap_or_else(|| String::from_utf8_lossy(mail).into_owned());
    // Lines folded to 72 columns read as one (the seal's own check comes next).
    let text = crate::report::unfold(&text);
    let Some(ask) = crate::mail::compose::read_lock_mail(&text) else {
        if let Some(open) = strict_bound::read_open_section(&text) {
            return open_at(dir, mail, &open.game, now);
        }
        bail!(
            "no `{LOCK_HEADING}` or `{OPEN_HEADING}` section in this mail: give the mail that \
             asks for your reveal"
        );
    };
    let (sealed, signature, unsigned_note) = lock_mail_is_the_games(dir, mail, &ask.game)?;
    // What is answered is what the game signed: the lock section read again from the sealed
    // text alone, so nothing added outside the seal can change the step, index or lock.
    let ask = crate::mail::compose::read_lock_mail(&sealed).ok_or_else(|| {
        anyhow!("the `{LOCK_HEADING}` section of this mail is not inside its seal: refused")
    })?;
    let (game, seat) = (ask.game.as_str(), ask.seat.as_str());
    let (file, c0) = read_secret(dir, game, seat)?;
    let rec_path = record_path(dir, game, seat);
    let mut record = read_record(&rec_path, game, seat)?;
    if let Some(o) = &record.opened {
        bail!(
            "you opened your onion for game {game} on {} (through reveal {}), when the game said \
             it was over: refused, nothing revealed. A lock mail after that is evidence that the \
             game went on after telling you it had ended; keep both mails",
            o.at.format("%Y-%m-%d %H:%M UTC"),
            o.through
        );
    }
    let bound = is_bound(&file, &record, &ask)?;
    let (index, note) = next_index(&file, &record, &ask)?;
    if bound && let Some(e) = another_lock_refused(&mut record, &ask, index, &signature, now) {
        crate::store::atomic_write_private(
            &rec_path,
            serde_json::to_string_pretty(&record)?.as_bytes(),
        )
        .with_context(|| format!("writing {}", rec_path.display()))?;
        return Err(e);
    }
    let onion = HostOnion::for_party(file.protocol, game, seat, c0, file.onion_len);
    let element = onion.element(file.onion_len - index);
    let given = match bound {
        true => dice::bound_reveal(file.protocol, game, seat, index, &element, &ask.lock),
        false => element,
    };
    let line = strict::reveal_line(ask.step, &ask.lock, &given);
    let lock = dice::to_hex(&ask.lock);
    let note = match (note, unsigned_note) {
        (Some(a), Some(b)) => Some(format!("{a}\n{b}")),
        (a, b) => a.or(b),
    };
    if record
        .reveals
        .iter()
        .any(|g| g.index == index && g.lock == lock)
    {
        return Ok((line, note));
    }
    record.by = if bound {
        BOUND
    } else if ask.index.is_some() {
        BY_REVEAL
    } else {
        "step"
    }
    .into();
    record.reveals.push(Given {
        index,
        step: ask.step,
        lock,
        at: now,
        signature,
        reveal: bound.then(|| dice::to_hex(&given)),
    });
    // Recorded before it is printed: a crash in between loses no reveal from the record.
    crate::store::atomic_write_private(
        &rec_path,
        serde_json::to_string_pretty(&record)?.as_bytes(),
    )
    .with_context(|| format!("writing {}", rec_path.display()))?;
    Ok((line, note))
}

/// A lock mail is answered only when the game signed it with the key `player trust` kept from
/// its welcome: a stranger's or another player's forged lock mail gets nothing, and the game's
/// own signature on each lock it asked about stays in the record as evidence. (The host holds
/// the key, so this is not what stops a host who edits lock mails: the record's "next index
/// only" is, ruling S8.) Returns the sealed text, the signature, and for a game that does not
/// sign, a note saying its mails' origin could not be checked.
fn lock_mail_is_the_games(
    dir: &Path,
    mail: &[u8],
    game: &str,
) -> Result<(String, Option<String>, Option<String>)> {
    // Read from the mail before its seal is checked: it must not name a path out of the folder.
    if !crate::engine::valid_game_id(game) {
        bail!("`{game}` in this lock mail is not a game id: refused, nothing revealed");
    }
    let path = trust_path(dir, game);
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => bail!(
            "game {game}'s key is not known in {}: run `despatch player trust --dir {} \
             <the welcome mail of {game}>` once first, so that only mails the game signed get \
             a reveal. Nothing was revealed",
            dir.display(),
            dir.display()
        ),
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    let kept: TrustedGame =
        serde_json::from_slice(&bytes).with_context(|| format!("reading {}", path.display()))?;
    match kept.mail_key.as_deref().map(dice::from_hex) {
        Some(Some(key)) => {
            let (sealed, sig) = crate::verify::signed_by(mail, game, &key).map_err(|e| {
                anyhow!("this lock mail is not one game {game} signed: {e}. Nothing was revealed")
            })?;
            Ok((sealed, Some(sig), None))
        }
        Some(None) => bail!("{}: the kept mail key is not 64 hex digits", path.display()),
        None => {
            let sealed = crate::verify::sealed_unsigned(mail, game)
                .map_err(|e| anyhow!("this lock mail's seal does not check: {e}"))?;
            Ok((
                sealed,
                None,
                Some(format!(
                    "NOTE: game {game} does not sign its mails (older than signed mails): this \
                     lock mail's origin could not be checked"
                )),
            ))
        }
    }
}

fn read_record(path: &Path, game: &str, seat: &str) -> Result<RevealRecord> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(RevealRecord {
                game: game.into(),
                seat: seat.into(),
                by: String::new(),
                reveals: Vec::new(),
                refused: Vec::new(),
                opened: None,
            });
        }
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    let record: RevealRecord = serde_json::from_slice(&bytes).with_context(|| {
        format!(
            "{} is not a record of reveals: restore it from your backup (nothing is revealed \
             without it)",
            path.display()
        )
    })?;
    if record.game != game || record.seat != seat {
        bail!(
            "{} is the record of {} in {}",
            path.display(),
            record.seat,
            record.game
        );
    }
    Ok(record)
}

/// The onion index this lock mail may be answered with: the next one, or one already given
/// for this step (a resend; with a note when it quotes another lock). Anything else is
/// refused, saying why.
fn next_index(
    file: &SeatSecret,
    record: &RevealRecord,
    ask: &LockAsk,
) -> Result<(u64, Option<String>)> {
    let by_reveal = ask.index.is_some()
        || matches!(file.onion_index.as_deref(), Some(BY_REVEAL | BOUND))
        || matches!(record.by.as_str(), BY_REVEAL | BOUND);
    let index = match ask.index {
        Some(j) if record.by == "step" => bail!(
            "this lock mail asks for reveal {j} by number, but your earlier reveals in {} were \
             by step: refused (a game does not change how it indexes reveals)",
            ask.game
        ),
        Some(j) => j,
        None if by_reveal => bail!(
            "this lock mail names no reveal number (`reveal j` in its {LOCK_HEADING} line), but \
             your onion is indexed by reveal count: refused. Answered by step, a lock mail naming \
             a far step would give away every reveal before it. Ask for the lock mail again"
        ),
        None => ask.step,
    };
    let lock = dice::to_hex(&ask.lock);
    if let Some(g) = record.reveals.iter().find(|g| g.index == index) {
        if g.step != ask.step {
            bail!(
                "you gave reveal {index} on {} for step {}; this mail asks for it again for step \
                 {}: refused (a game asks each reveal for one step only)",
                g.at.format("%Y-%m-%d %H:%M UTC"),
                g.step,
                ask.step
            );
        }
        // Already out, so nothing new is given; a second lock for it is a split view.
        let note = (g.lock != lock).then(|| {
            format!(
                "NOTE: you gave reveal {index} on {} for step {} quoting L_{} = {}; this mail \
                 quotes L_{} = {lock}. Two locks for one step: keep both mails, they are your \
                 evidence of a split view (both are in {}'s record of reveals)",
                g.at.format("%Y-%m-%d %H:%M UTC"),
                g.step,
                g.step,
                g.lock,
                ask.step,
                ask.seat
            )
        });
        return Ok((index, note));
    }
    let last = record.reveals.last();
    let next = last.map_or(1, |g| g.index + 1);
    if let Some(g) = last.filter(|g| ask.step <= g.step) {
        bail!(
            "this lock mail asks a reveal for step {}, but you already revealed for step {}: \
             refused (steps only go forward)",
            ask.step,
            g.step
        );
    }
    if index < next || (by_reveal && index > next) {
        bail!(
            "this lock mail asks for reveal {index}, but your next reveal is number {next}: \
             refused. Only the next element is ever given: a later one would let whoever holds \
             it compute every one before it by hashing, your reveals for steps still to come{}",
            if index > next {
                " (an edited or forged lock mail does exactly this)"
            } else {
                ""
            }
        );
    }
    if index == 0 || index > file.onion_len {
        bail!(
            "reveal {index} is beyond this seat's onion of {} elements",
            file.onion_len
        );
    }
    Ok((index, None))
}
