//! `despatch player check`: a strict seat's own mid-game check (ruling S11). Nobody else can
//! tell a bound reveal from a value written in its place until the seat opens its onion at the
//! end; the seat's tool can at once, since its record holds every reveal it gave. It holds each
//! results mail the game signed against that record. Reads the player's folder and the mails
//! given; writes nothing.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use crate::dice::{self, HostOnion};
use crate::engine::strict::BOUND;

use super::{RevealRecord, SeatSecret, lock_mail_is_the_games, read_secret, record_path};

/// What one results mail says of the strict reveals of its step.
struct StepShown {
    file: String,
    game: String,
    step: u64,
    lock: Option<dice::Hash>,
    strict: Vec<(String, Option<dice::Hash>)>,
}

/// The outcome: results mails held against the record, reveals found as given, and problems.
pub struct CheckReport {
    pub mails: usize,
    pub matched: usize,
    pub problems: Vec<String>,
}

/// Holds every results mail among `paths` (files, or folders of them: a Maildir's `cur/` and
/// `new/` too) against the records of reveals in `dir`: each reveal this tool gave must be the
/// `strict r` of its seat in its step's results, with the lock it answered; a results mail
/// showing a reveal of the seat for a step it never revealed for is a problem too. Only mails
/// the game signed with the key `player trust` kept are read (others are a problem).
pub fn check(dir: &Path, paths: &[PathBuf]) -> Result<CheckReport> {
    let mut report = CheckReport {
        mails: 0,
        matched: 0,
        problems: Vec::new(),
    };
    let mut shown = Vec::new();
    let mails = mails_with_attached(paths)?;
    for (name, bytes) in mails {
        let Some((game, _)) =
            dice_heading(&crate::report::unfold(&String::from_utf8_lossy(&bytes)))
        else {
            continue;
        };
        if !crate::engine::valid_game_id(&game) {
            continue;
        }
        match lock_mail_is_the_games(dir, &bytes, &game) {
            Ok((sealed, _, _)) => {
                if let Some(s) = read_step(&name, &sealed) {
                    report.mails += 1;
                    shown.push(s);
                }
            }
            Err(e) => report
                .problems
                .push(format!("{name}: not a mail game {game} signed: {e}")),
        }
    }
    let mut games: Vec<&str> = shown.iter().map(|s| s.game.as_str()).collect();
    games.sort();
    games.dedup();
    for game in games {
        for (seat, record, file) in records_of(dir, game)? {
            let c0 = dice::from_hex(&file.secret)
                .with_context(|| format!("the secret of {seat} in {game}"))?;
            let onion = HostOnion::for_party(file.protocol, game, &seat, c0, file.onion_len);
            let bound = record.by == BOUND;
            for s in shown.iter().filter(|s| s.game == game) {
                let Some((_, r)) = s.strict.iter().find(|(x, _)| *x == seat) else {
                    continue;
                };
                let given = record.reveals.iter().find(|g| g.step == s.step);
                match (given, r) {
                    (None, None) => {}
                    (None, Some(_)) => report.problems.push(format!(
                        "{}: step {}'s seed took a reveal of {seat} ({}), but your tool gave none \
                         for step {}: the game used a value you never sent",
                        s.file,
                        s.step,
                        short(r),
                        s.step
                    )),
                    (Some(g), r) => {
                        let lock = dice::from_hex(&g.lock);
                        let element = onion.element(file.onion_len.saturating_sub(g.index));
                        let want = match (bound, lock) {
                            (true, Some(l)) => dice::bound_reveal(
                                file.protocol,
                                game,
                                &seat,
                                g.index,
                                &element,
                                &l,
                            ),
                            _ => element,
                        };
                        if *r != Some(want) || s.lock != lock {
                            report.problems.push(format!(
                                "{}: step {}'s seed took {} as {seat}'s reveal with L_{} = {}; \
                                 your tool gave reveal {} = {} for L_{} = {}: the game used a \
                                 value you never sent",
                                s.file,
                                s.step,
                                short(r),
                                s.step,
                                short(&s.lock),
                                g.index,
                                dice::to_hex(&want),
                                g.step,
                                g.lock
                            ));
                        } else {
                            report.matched += 1;
                        }
                    }
                }
            }
        }
    }
    Ok(report)
}

/// The mails named, each followed by the mails that waited for it and came attached whole
/// (issue 30), named `<file>/<attachment>`.
fn mails_with_attached(paths: &[PathBuf]) -> Result<Vec<(String, Vec<u8>)>> {
    let mut mails = Vec::new();
    for file in mail_files(paths)? {
        let bytes = std::fs::read(&file).with_context(|| format!("reading {}", file.display()))?;
        let name = file.display().to_string();
        // Mails that waited for this one come attached whole (issue 30): read them too.
        let attached = crate::verify::attached_mails(&bytes);
        mails.push((name.clone(), bytes));
        mails.extend(
            attached
                .into_iter()
                .map(|(inner, b)| (format!("{name}/{inner}"), b)),
        );
    }
    Ok(mails)
}

fn short(h: &Option<dice::Hash>) -> String {
    h.as_ref().map_or("-".into(), dice::to_hex)
}

/// `(game, step)` of a results mail's dice section heading, read from the raw text (the seal
/// is checked before anything else of it is believed).
fn dice_heading(text: &str) -> Option<(String, u64)> {
    let i = text.find("DICE (despatch-dice/v")?;
    let first = text[i..].lines().next()?;
    let (_, rest) = first.split_once(", game ")?;
    let (game, step) = rest.split_once(", step ")?;
    Some((game.to_string(), step.trim_end_matches(')').parse().ok()?))
}

fn read_step(file: &str, sealed: &str) -> Option<StepShown> {
    let (game, step) = dice_heading(sealed)?;
    let i = sealed.find("DICE (despatch-dice/v")?;
    let mut lock = None;
    let mut strict = Vec::new();
    for line in sealed[i..].lines().skip(1) {
        let Some((k, v)) = line.split_once(" = ") else {
            if line.trim().is_empty() {
                break;
            }
            continue;
        };
        let k = k.trim();
        if k == format!("L_{step}") {
            lock = dice::from_hex(v.trim());
        } else if let Some(seat) = k.strip_prefix("strict r ") {
            strict.push((seat.to_string(), dice::from_hex(v.trim())));
        }
    }
    Some(StepShown {
        file: file.to_string(),
        game,
        step,
        lock,
        strict,
    })
}

/// Every `(seat, record, secret)` of `game` kept in `dir`.
fn records_of(dir: &Path, game: &str) -> Result<Vec<(String, RevealRecord, SeatSecret)>> {
    let mut out = Vec::new();
    let prefix = format!("{game}.");
    for e in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let name = e?.file_name().to_string_lossy().into_owned();
        let Some(seat) = name
            .strip_prefix(&prefix)
            .and_then(|r| r.strip_suffix(".reveals.json"))
        else {
            continue;
        };
        let rec: RevealRecord =
            serde_json::from_slice(&std::fs::read(record_path(dir, game, seat))?)
                .with_context(|| format!("reading {name}"))?;
        let (file, _) = read_secret(dir, game, seat)?;
        out.push((seat.to_string(), rec, file));
    }
    Ok(out)
}

/// The mail files among `paths`: files as given, folders' files (and a Maildir's `cur/`, `new/`).
fn mail_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            for sub in [p.clone(), p.join("cur"), p.join("new")] {
                let Ok(rd) = std::fs::read_dir(&sub) else {
                    continue;
                };
                for e in rd.flatten() {
                    if e.path().is_file() {
                        out.push(e.path());
                    }
                }
            }
        } else if p.is_file() {
            out.push(p.clone());
        } else {
            bail!("{}: no such file or folder", p.display());
        }
    }
    out.sort();
    Ok(out)
}
