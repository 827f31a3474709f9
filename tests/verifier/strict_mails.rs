//! A strict game's mails as one strict player received them, for the independent verifiers'
//! tests (Python, browser), and a forger's edit of one strict seat's `r`.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use despatch::daemon::Intake;
use despatch::verify;

use crate::{demo_mails, strict_world, toy};

/// A strict toy game played out (both strict seats reveal after every lock), its outbox copied
/// to `dir`; (folder, Rust verifier's steps and rolls).
pub fn strict_game_mails(dir: &Path) -> (PathBuf, u64, u64) {
    let mut w = strict_world::world(true);
    for (k, bids) in (1..).zip([[1, 2, 3], [3, 0, 1], [2, 2, 0]]) {
        w.bid_all(bids);
        for seat in strict_world::STRICT {
            let (_, out) = w.reveal(seat, k);
            assert!(matches!(out, Intake::Accepted { .. }), "{seat}: {out:?}");
        }
    }
    // The mails one strict player (red-1) received, as that player would check them.
    let folder = dir.join("mails");
    std::fs::create_dir_all(&folder).unwrap();
    let to = format!("\nTo: {}", strict_world::SEATS[0].1);
    for sub in ["new", "cur"] {
        for e in std::fs::read_dir(w.outbox().join(sub)).unwrap() {
            let p = e.unwrap().path();
            let bytes = std::fs::read(&p).unwrap();
            if String::from_utf8_lossy(&bytes).contains(&to) {
                std::fs::write(folder.join(p.file_name().unwrap()), bytes).unwrap();
            }
        }
    }
    let registry = despatch::rulesets::registry().with::<toy::Bids>();
    let (checked, findings) =
        verify::verify_mails_with(&folder, Some(strict_world::GAME), &registry);
    assert!(findings.is_empty(), "{findings:?}");
    assert!(checked.steps > 0 && checked.mails > 0, "{checked:?}");
    (folder, checked.steps, checked.rolls)
}

/// The first results mail with a strict seat's `r` in it: (file, the `strict r` line).
pub fn mail_with_strict_r(folder: &Path) -> (PathBuf, String) {
    let mut files: Vec<PathBuf> = std::fs::read_dir(folder)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
        .into_iter()
        .find_map(|p| {
            let text = demo_mails::text_of(&std::fs::read(&p).unwrap());
            let line = text
                .lines()
                .find(|l| l.starts_with("strict r red-1 = ") && !l.ends_with("= -"))?
                .to_string();
            Some((p, line))
        })
        .expect("a results mail with red-1's r")
}

/// The same line with its last hex digit changed.
pub fn forged_r(line: &str) -> String {
    let (head, last) = line.split_at(line.len() - 1);
    format!("{head}{}", if last == "0" { "1" } else { "0" })
}

/// A lock mail for the first locked step showing another `L_k`, sealed and signed with the
/// game's own key (what only the host can make: a lock shown to one seat early to learn its
/// reveal, ruling S8), written into `folder` beside the genuine mails. Returns its step.
pub fn forged_early_lock(folder: &Path) -> u64 {
    let mut files: Vec<PathBuf> = std::fs::read_dir(folder)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let text = files
        .iter()
        .map(|p| demo_mails::text_of(&std::fs::read(p).unwrap()))
        .find(|t| t.contains(despatch::mail::compose::LOCK_HEADING))
        .expect("a strict lock mail in the folder");
    let ask = despatch::mail::compose::read_lock_mail(&text).unwrap();
    let shown = text.replace(
        &despatch::dice::to_hex(&ask.lock),
        &despatch::dice::to_hex(&[0xab; 32]),
    );
    // The host's key: the world's pinned secrets (strict_world::world).
    let key = despatch::dice::GameSecrets::pinned(strict_world::GAME, [0x41; 32], [0x42; 32], 1000)
        .mail_key
        .unwrap();
    let signed = crate::forgery::resign(&crate::forgery::reseal(&shown), strict_world::GAME, &key);
    std::fs::write(
        folder.join("zz-early-lock.eml"),
        format!(
            "Subject: Step {} is locked: your reveal, please\r\nMIME-Version: 1.0\r\n\
             Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n\
             {signed}",
            ask.step
        ),
    )
    .unwrap();
    ask.step
}
