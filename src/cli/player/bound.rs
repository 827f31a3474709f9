//! `despatch player reveal` for games whose reveals are bound to their lock (ruling S11): which
//! asks get a bound reveal, the one-lock-per-reveal rule, and the opening of the seat's onion
//! once the game's signed list of its reveals matches the tool's own record. Decides and reads
//! the player's folder; prints nothing.

use std::path::Path;

use anyhow::{Context, Result, anyhow, bail};
use chrono::{DateTime, Utc};

use crate::dice::{self, HostOnion};
use crate::engine::strict::BOUND;
use crate::engine::strict_bound::{self, OPEN_HEADING};
use crate::mail::compose::LockAsk;

use super::{
    Given, OpenedRecord, RevealRecord, SeatSecret, lock_mail_is_the_games, read_record,
    read_secret, record_path,
};

/// Whether this lock is answered with a bound reveal (ruling S11): when the lock mail says so,
/// or when the seat's onion or record was made for bound reveals — then a lock mail that does
/// not say so is refused, since an unbound reveal is the onion element itself.
pub(super) fn is_bound(file: &SeatSecret, record: &RevealRecord, ask: &LockAsk) -> Result<bool> {
    let made_bound = file.onion_index.as_deref() == Some(BOUND) || record.by == BOUND;
    if ask.bound {
        if !record.by.is_empty() && record.by != BOUND {
            bail!(
                "this lock mail asks for a bound reveal, but your earlier reveals in {} were not \
                 bound: refused (a game does not change how it asks for reveals)",
                ask.game
            );
        }
        return Ok(true);
    }
    if made_bound {
        bail!(
            "this lock mail does not say `bound`, but your onion for {} gives bound reveals: \
             refused, nothing revealed. An unbound reveal is your onion element itself, which \
             would let whoever holds it compute your reveal for any lock",
            ask.game
        );
    }
    Ok(false)
}

/// In a bound game a reveal number answers one lock only (S11): a second lock for it gets
/// nothing, and is kept in the record beside the first as the player's evidence. `None` when
/// this lock is the one already answered, or a new reveal number.
pub(super) fn another_lock_refused(
    record: &mut RevealRecord,
    ask: &LockAsk,
    index: u64,
    signature: &Option<String>,
    now: DateTime<Utc>,
) -> Option<anyhow::Error> {
    let lock = dice::to_hex(&ask.lock);
    let first = record
        .reveals
        .iter()
        .find(|g| g.index == index && g.lock != lock)?;
    let why = anyhow!(
        "you gave reveal {index} on {} for step {} bound to L_{} = {}; this mail asks for it \
         again bound to L_{} = {lock}: refused, nothing revealed. A reveal answers one lock: a \
         second one would let the game choose between two seeds. Two locks for one step are \
         evidence of a split view or of a lock shown early; keep both mails (both are in {}'s \
         record of reveals). If the game's real lock is the second, the step now waits (ruling \
         S2) and the organiser may only abandon the game",
        first.at.format("%Y-%m-%d %H:%M UTC"),
        first.step,
        first.step,
        first.lock,
        ask.step,
        ask.seat
    );
    if !record
        .refused
        .iter()
        .any(|g| g.index == index && g.lock == lock)
    {
        record.refused.push(Given {
            index,
            step: ask.step,
            lock,
            at: now,
            signature: signature.clone(),
            reveal: None,
        });
    }
    Some(why)
}

/// Answers a game-over mail's open section (S11): its list of the reveals the game took must be
/// exactly what this seat gave — the same numbers, steps, locks and values — or nothing is
/// opened; then `OPEN <J> <e_J>`, recorded before it is printed, and no lock mail of the game
/// is answered after it.
pub(super) fn open_at(
    dir: &Path,
    mail: &[u8],
    game: &str,
    now: DateTime<Utc>,
) -> Result<(String, Option<String>)> {
    let (sealed, signature, note) = lock_mail_is_the_games(dir, mail, game)?;
    let ask = strict_bound::read_open_section(&sealed).ok_or_else(|| {
        anyhow!("the `{OPEN_HEADING}` section of this mail is not inside its seal: refused")
    })?;
    let (game, seat) = (ask.game.as_str(), ask.seat.as_str());
    let (file, c0) = read_secret(dir, game, seat)?;
    let rec_path = record_path(dir, game, seat);
    let mut record = read_record(&rec_path, game, seat)?;
    let through = ask.given.len() as u64;
    if let Some(o) = &record.opened {
        if o.through == through {
            let onion = HostOnion::for_party(file.protocol, game, seat, c0, file.onion_len);
            let line =
                strict_bound::opening_line(through, &onion.element(file.onion_len - through));
            return Ok((line, note));
        }
        bail!(
            "you opened your onion through reveal {} already; this mail asks through {through}: \
             refused",
            o.through
        );
    }
    // A record with no reveal yet goes by the onion's own mark (then every listed reveal is
    // one this tool never gave, and is refused below).
    let bound = match record.by.as_str() {
        "" => file.onion_index.as_deref() == Some(BOUND),
        by => by == BOUND,
    };
    if !bound {
        bail!("your reveals in {game} were not bound to their locks: there is nothing to open");
    }
    let onion = HostOnion::for_party(file.protocol, game, seat, c0, file.onion_len);
    for (n, g) in ask.given.iter().enumerate() {
        let mine = record.reveals.iter().find(|m| m.index == g.index);
        let want = dice::bound_reveal(
            file.protocol,
            game,
            seat,
            g.index,
            &onion.element(file.onion_len - g.index),
            &g.lock,
        );
        let fits = g.index == n as u64 + 1
            && mine.is_some_and(|m| m.step == g.step && m.lock == dice::to_hex(&g.lock))
            && want == g.reveal;
        if !fits {
            bail!(
                "the game's record says it took reveal {} for step {} with L_{} = {} and r = {}, \
                 which is not a reveal you gave{}: refused, your onion stays closed. Keep this \
                 mail: it is the game's signed word that its seed used a value your tool never \
                 gave",
                g.index,
                g.step,
                g.step,
                dice::to_hex(&g.lock),
                dice::to_hex(&g.reveal),
                match mine {
                    Some(m) => format!(
                        " (you gave it for step {} and L_{} = {})",
                        m.step, m.step, m.lock
                    ),
                    None => String::new(),
                }
            );
        }
    }
    if through == 0 || through > file.onion_len {
        bail!("this mail lists no reveal to open");
    }
    record.opened = Some(OpenedRecord {
        through,
        at: now,
        signature,
    });
    // Recorded before it is printed: no lock is answered after an opening, even after a crash.
    crate::store::atomic_write_private(
        &rec_path,
        serde_json::to_string_pretty(&record)?.as_bytes(),
    )
    .with_context(|| format!("writing {}", rec_path.display()))?;
    let line = strict_bound::opening_line(through, &onion.element(file.onion_len - through));
    Ok((line, note))
}
