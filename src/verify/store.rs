//! Verifying a game store: the journal's bytes against the heads recorded when each line was
//! appended, a full replay (chain, onion, locks, seeds, every roll, every digest the salt key
//! opens), the secrets against the commitments, the snapshot cache, and every sent mail's seal.

use crate::dice::{self, HostOnion, Protocol};
use crate::engine::{Book, Event, Play, Registry};
use crate::store::GameStore;

use super::mails::check_mail_file;
use super::{Checked, Finding, finding};

/// Verifies a game store directory (journal, heads, snapshot, secrets, sent mail). The game's
/// id comes from its journal, so a copy of the store under another folder name verifies too.
pub fn verify_store(store: &GameStore, registry: &Registry) -> (Checked, Vec<Finding>) {
    let mut out = Vec::new();
    let mut checked = Checked::default();
    let journal = match store.read_journal() {
        Ok(j) => j,
        Err(e) => return (checked, vec![finding("journal", "file", e.to_string())]),
    };
    let first: Option<Event> = journal
        .lines
        .first()
        .and_then(|l| serde_json::from_str(l).ok());
    let Some(Event::GameCreated {
        game: game_id,
        protocol,
        mail_key: committed_key,
        ..
    }) = first
    else {
        return (
            checked,
            vec![finding(
                "event 0",
                "type",
                "the journal must begin with game_created",
            )],
        );
    };
    out.extend(changed_line(store, &journal.lines, protocol));
    let secrets = store.secrets_for(&game_id).ok();
    // The host's mail key must be the one the creation event committed to: a store whose key
    // was swapped would sign mails no player's welcome vouches for.
    if let Some(k) = secrets.as_ref().and_then(|s| s.mail_key)
        && committed_key.as_deref() != Some(dice::to_hex(&k.public()).as_str())
    {
        out.push(finding(
            "host.secret",
            "mail_key",
            "its public key is not the mail key K the game_created event committed to",
        ));
    }
    // The salt key opens every digest as it is replayed: the host's (from the store), or the
    // one the game published when it ended (an auditor holding only the journal).
    let salt_key = secrets
        .as_ref()
        .and_then(crate::engine::HostSecrets::salt_key)
        .or_else(|| published_salt_key(&journal.lines));
    let game = match registry.replay_opened(&journal.lines, salt_key) {
        Ok(g) => g,
        Err(e) => {
            out.push(finding(
                format!("event {} ({})", e.index, e.kind),
                e.field,
                e.detail,
            ));
            return (checked, out);
        }
    };
    let book = game.book();
    checked.events = book.events;
    checked.steps = book.step - 1;
    for line in &journal.lines {
        if let Ok(Event::Results { rolls, .. }) = serde_json::from_str(line) {
            checked.rolls += rolls.len() as u64;
        }
    }
    out.extend(strict_bound(book, &mut checked));
    if let Some(secrets) = &secrets {
        out.extend(unmatched_onions(book, &secrets.segments));
    }
    out.extend(stale_snapshot(store, game.as_ref()));
    if let Ok(sent) = store.sent() {
        for p in sent {
            checked.mails += 1;
            if let Err(e) = check_mail_file(&p) {
                out.push(e);
            }
        }
    }
    (checked, out)
}

/// The heads recorded at append time pin down the first line whose bytes changed, even
/// after the last lock, where no later event would notice.
fn changed_line(store: &GameStore, lines: &[String], protocol: Protocol) -> Option<Finding> {
    let recorded = store.recorded_heads().ok()?;
    let mut head = dice::log_genesis(protocol);
    for (i, line) in lines.iter().enumerate() {
        head = dice::log_step(protocol, &head, line.as_bytes());
        if let Some((_, h)) = recorded.iter().find(|(j, _)| *j == i as u64)
            && *h != dice::to_hex(&head)
        {
            let kind = serde_json::from_str::<serde_json::Value>(line)
                .ok()
                .and_then(|v| v["type"].as_str().map(str::to_string))
                .unwrap_or_else(|| "?".into());
            return Some(finding(
                format!("event {i} ({kind})"),
                "bytes",
                "the line's log head differs from the one recorded when it was appended",
            ));
        }
    }
    None
}

/// The salt key a game published when it ended, if it has.
fn published_salt_key(lines: &[String]) -> Option<dice::Hash> {
    lines
        .iter()
        .rev()
        .find_map(|l| match serde_json::from_str::<Event>(l) {
            Ok(Event::GameEnded {
                salt_key: Some(z), ..
            }) => dice::from_hex(&z),
            _ => None,
        })
}

/// Bound strict reveals (S11): each one checked against its seat's opened onion in replay.
fn strict_bound(book: &Book, checked: &mut Checked) -> Vec<Finding> {
    let out = crate::engine::strict_bound::unbound_reveals(book)
        .into_iter()
        .map(|(seat, j, step)| {
            finding(
                format!("step {step}"),
                format!("strict r {seat}"),
                format!(
                    "reveal {j} of {seat} is not H(strict-bind, …) of its opened onion element \
                     and L_{step}: the seed took a value {seat}'s onion did not give"
                ),
            )
        })
        .collect();
    if let Some(st) = &book.strict {
        checked.bound_reveals = st
            .seats
            .iter()
            .filter(|s| s.opened.is_some())
            .map(|s| s.given.len() as u64)
            .sum();
    }
    checked.unopened = crate::engine::strict_bound::unopened(book);
    out
}

/// Every onion the game served from must have its secret in the store.
fn unmatched_onions(book: &Book, segments: &[(u64, HostOnion)]) -> Vec<Finding> {
    book.onions
        .iter()
        .filter(|o| {
            !segments
                .iter()
                .any(|(f, s)| *f == o.from_step && s.anchor() == o.anchor)
        })
        .map(|o| {
            finding(
                "host.secret",
                "c0",
                format!(
                    "no stored secret hashes to the anchor that serves from step {}",
                    o.from_step
                ),
            )
        })
        .collect()
}

/// The snapshot is a cache: one that stops short of the journal (a crash before it was
/// rewritten) is simply older; one that claims the same events with another state or head,
/// or events the journal lacks, would mislead the daemon.
fn stale_snapshot(store: &GameStore, game: &dyn Play) -> Vec<Finding> {
    let book = game.book();
    let Ok(Some(snap)) = store.read_snapshot() else {
        return Vec::new();
    };
    let events = snap["events"].as_u64().unwrap_or(0);
    let mut out = Vec::new();
    if events > book.events {
        out.push(finding(
            "snapshot.json",
            "events",
            format!("claims {events} events; the journal has {}", book.events),
        ));
    } else if events == book.events {
        if snap["state"] != game.state_json() {
            out.push(finding(
                "snapshot.json",
                "state",
                "differs from the state the journal replays to",
            ));
        }
        if snap["head"] != dice::to_hex(&book.head) {
            out.push(finding(
                "snapshot.json",
                "head",
                "differs from the journal's log head",
            ));
        }
    }
    out
}
