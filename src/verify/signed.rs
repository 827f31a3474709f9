//! What ties a player's mails to one game and one host (issue 29, points 1 and 2): each sealed
//! mail's Ed25519 signature under the game's key `K` from the welcome's anchor line, and one
//! game only — one result per step, one head per log index, one anchor line — within a folder
//! and across the folders of several seats (`despatch verify --compare`). Reads what
//! `mails.rs` parsed; touches no file.

use std::collections::BTreeMap;

use crate::dice::{self, Hash, mail_key};
use crate::report;

use super::SealedMail;
use super::{Finding, finding};

/// `mail key K = <hex>` on a welcome's anchor line, if the game signs its mails.
pub(super) fn key_in(text: &str) -> Option<Hash> {
    let line = text.lines().find(|l| l.contains("Anchor A = "))?;
    let at = line.find("mail key K = ")?;
    let hex: String = line[at + 13..].chars().take(64).collect();
    dice::from_hex(&hex)
}

/// What a player's own tool keeps from a game's welcome (`despatch player trust`): the game,
/// its whole anchor line (the one every seat compares) and its mail key `K`, `None` for a
/// game older than signed mails.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Welcome {
    pub game: String,
    pub anchor_line: String,
    pub key: Option<Hash>,
}

/// The sealed text of a mail (what stands above its `Mail-Digest` line) once its digest checks,
/// with the game its footer names. Anything after the digest and signature lines is not part of
/// the seal, so nothing is ever read from there.
fn sealed_part(bytes: &[u8]) -> Result<(String, String), String> {
    let text = super::mime::mail_text(bytes)
        .map(|(_, t)| t)
        .ok_or("not a mail with a text part")?;
    if !text.contains(report::DIGEST_PREFIX) {
        return Err("no Mail-Digest line: not a sealed Despatch mail".into());
    }
    let text = super::mime::sealed_text(&text)?;
    let norm = report::normalise(&text);
    let at = norm.rfind(report::DIGEST_PREFIX).unwrap_or(norm.len());
    // Read as it was before folding: one value a line.
    let sealed = report::unfold(&norm[..at]);
    let game = sealed
        .lines()
        .find_map(|l| l.strip_prefix("Despatch · game "))
        .and_then(|rest| rest.split_whitespace().next())
        .ok_or("the seal holds no `Despatch · game` footer")?
        .to_string();
    Ok((game, sealed))
}

/// Reads a game's welcome: its seal must check, its anchor line must be there, and when the
/// line names a key `K` the welcome itself must be signed under it.
pub fn read_welcome(bytes: &[u8]) -> Result<Welcome, String> {
    let (game, sealed) = sealed_part(bytes)?;
    let anchor_line = sealed
        .lines()
        .find(|l| l.contains("Anchor A = "))
        .ok_or("no `Anchor A = …` line: give the game's welcome mail")?
        .trim()
        .to_string();
    let key = key_in(&anchor_line);
    if let Some(k) = &key {
        signed_by(bytes, &game, k)?;
    }
    Ok(Welcome {
        game,
        anchor_line,
        key,
    })
}

/// Checks that a mail is sealed and signed by `game`'s key `key` and returns its sealed text
/// and its signature (hex): only that text may be read for what the mail asks.
pub fn signed_by(bytes: &[u8], game: &str, key: &Hash) -> Result<(String, String), String> {
    let (of, sealed) = sealed_part(bytes)?;
    if of != game {
        return Err(format!("this mail is from game {of}, not {game}"));
    }
    let text = super::mime::mail_text(bytes)
        .map(|(_, t)| t)
        .unwrap_or_default();
    // As sealed_part read it: a client's quoting or re-wrapping undone.
    let text = super::mime::sealed_text(&text).unwrap_or(text);
    let (digest, sig) = report::seal_signature(&text)
        .ok_or_else(|| format!("no Mail-Signature: every mail of game {game} is signed"))?;
    if !mail_key::verify(key, game, &digest, &sig) {
        return Err(format!(
            "its Mail-Signature does not verify under game {game}'s key K: it was changed after \
             the game signed it, or it is not the game's"
        ));
    }
    Ok((sealed, hex::encode(sig)))
}

/// The sealed text of a mail of a game that does not sign (older than signed mails).
pub fn sealed_unsigned(bytes: &[u8], game: &str) -> Result<String, String> {
    let (of, sealed) = sealed_part(bytes)?;
    if of != game {
        return Err(format!("this mail is from game {of}, not {game}"));
    }
    Ok(sealed)
}

/// Checks every sealed mail of a game whose welcome names a key: its `Mail-Signature` must sign
/// its `Mail-Digest` under that key. Returns the signatures checked and what failed. A mail of
/// a game whose welcome is not in the folder cannot be checked (the reveals cannot either:
/// `mails.rs` says so for the game).
pub(super) fn check_signatures(
    sealed: &[SealedMail],
    keys: &BTreeMap<String, Hash>,
) -> (u64, Vec<Finding>) {
    let mut checked = 0;
    let mut out = Vec::new();
    for m in sealed {
        let Some(key) = keys.get(&m.game) else {
            continue;
        };
        let place = format!("mail {}", m.file);
        match report::seal_signature(&m.text) {
            None => out.push(finding(
                place,
                "Mail-Signature",
                format!(
                    "missing: every mail of game {} is signed with the key K of its welcome",
                    m.game
                ),
            )),
            Some((digest, sig)) => {
                checked += 1;
                if !mail_key::verify(key, &m.game, &digest, &sig) {
                    out.push(finding(
                        place,
                        "Mail-Signature",
                        format!(
                            "does not verify under the key K of game {}'s welcome: the mail was \
                             changed after the host signed it, or another key signed it",
                            m.game
                        ),
                    ));
                }
            }
        }
    }
    (checked, out)
}

/// What one folder says about its games that every seat's folder must say alike: the anchor
/// lines, each step's dice section, and the log head at each index (a mail's footer or a lock's
/// input). Keyed by (game, what); each value with the file that showed it first.
#[derive(Debug, Default, Clone)]
pub struct Facts {
    facts: BTreeMap<(String, String), (String, String)>,
}

impl Facts {
    /// Records `value` for (game, what) from `file`; a different value already recorded is a
    /// finding: one game cannot have two.
    pub(super) fn note(
        &mut self,
        game: &str,
        what: String,
        value: String,
        file: &str,
    ) -> Option<Finding> {
        let key = (game.to_string(), what);
        match self.facts.get(&key) {
            Some((v, _)) if *v == value => None,
            Some((_, first)) => Some(finding(
                format!("game {} {}", game, key.1),
                "equivocation",
                format!(
                    "mails {first} and {file} show two different {}: one game cannot have both \
                     (a split view, or a forged mail)",
                    if key.1.starts_with("step") {
                        "results"
                    } else {
                        "values"
                    }
                ),
            )),
            None => {
                self.facts.insert(key, (value, file.to_string()));
                None
            }
        }
    }

    /// The facts of several seats' folders held against each other: every (game, what) shown in
    /// two folders must have one value. `label` names each folder in the findings.
    pub fn compare(folders: &[(String, Facts)]) -> Vec<Finding> {
        let mut out = Vec::new();
        let mut seen: BTreeMap<&(String, String), (&str, &str, &str)> = BTreeMap::new();
        for (label, f) in folders {
            for (key, (value, file)) in &f.facts {
                match seen.get(key) {
                    Some((v, _, _)) if *v == value => {}
                    Some((_, first_label, first_file)) => out.push(finding(
                        format!("game {} {}", key.0, key.1),
                        "split view",
                        format!(
                            "{first_label} ({first_file}) and {label} ({file}) were shown two \
                             different {}",
                            if key.1.starts_with("step") {
                                "results"
                            } else {
                                "values"
                            }
                        ),
                    )),
                    None => {
                        seen.insert(key, (value, label, file));
                    }
                }
            }
        }
        out
    }

    /// Whether two folders share anything to compare.
    pub fn overlaps(&self, other: &Facts) -> bool {
        self.facts.keys().any(|k| other.facts.contains_key(k))
    }
}

/// The log head a mail's footer or a lock's input names, as a fact.
pub(super) fn head_fact(index: u64) -> String {
    format!("log head #{index}")
}
