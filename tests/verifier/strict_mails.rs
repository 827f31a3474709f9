//! A strict game's mails as one strict player received them, for the independent verifiers'
//! tests (Python, browser), and a forger's edit of one strict seat's `r`.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use despatch::daemon::Intake;
use despatch::verify;

use crate::{demo_mails, strict_world, toy};

/// A strict toy game played out (both strict seats reveal after every lock and open their
/// onions at the end), its outbox copied to `dir`; (folder, Rust verifier's steps and rolls).
pub fn strict_game_mails(dir: &Path) -> (PathBuf, u64, u64) {
    let mut w = strict_world::world(true);
    for (k, bids) in (1..).zip([[1, 2, 3], [3, 0, 1], [2, 2, 0]]) {
        w.bid_all(bids);
        for seat in strict_world::STRICT {
            let (_, out) = w.reveal(seat, k);
            assert!(matches!(out, Intake::Accepted { .. }), "{seat}: {out:?}");
        }
    }
    // Each strict seat opens its onion when the game-over asks (bound reveals, ruling S11).
    for seat in strict_world::STRICT {
        let (_, out) = w.open(seat);
        assert!(matches!(out, Intake::Accepted { .. }), "{seat}: {out:?}");
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
    // The game store's journal beside the folder (with the seats' `strict_opened` events).
    std::fs::copy(w.store().journal_path(), dir.join("journal.jsonl")).unwrap();
    let registry = despatch::rulesets::registry().with::<toy::Bids>();
    let (checked, findings) =
        verify::verify_mails_with(&folder, Some(strict_world::GAME), &registry);
    assert!(findings.is_empty(), "{findings:?}");
    assert!(checked.steps > 0 && checked.mails > 0, "{checked:?}");
    assert!(
        checked.bound_reveals > 0,
        "the openings checked: {checked:?}"
    );
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
    let signed = crate::forgery::resign(
        &crate::forgery::reseal(&shown),
        strict_world::GAME,
        &host_key(),
    );
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

/// The host's mail key: the world's pinned secrets (strict_world::world).
fn host_key() -> despatch::dice::MailKey {
    despatch::dice::GameSecrets::pinned(strict_world::GAME, [0x41; 32], [0x42; 32], 1000)
        .mail_key
        .unwrap()
}

/// What the host changes in red-1's opening mail (ruling S11), resealed and signed with the
/// game's key, so that only the check of the opening itself can catch it.
#[derive(Clone, Copy)]
pub enum OpeningEdit {
    /// The last opened element `e_J` gets another last hex digit: it no longer hashes to
    /// `e_{J-1}` (the chain).
    LastElement,
    /// Reveals 1 and 2 swap their steps: the chain holds, and neither reveal binds to the
    /// lock of the step now named (the binding).
    SwapSteps,
    /// The line of the last reveal dropped: the chain of the rest holds, and the results mail
    /// of that step shows a reveal the opening does not list.
    DropLast,
}

/// red-1's opening mail in `folder`, edited as `edit` says; returns (file, `J`).
pub fn forged_opening(folder: &Path, edit: OpeningEdit) -> (PathBuf, u64) {
    let mut files: Vec<PathBuf> = std::fs::read_dir(folder)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let file = files
        .into_iter()
        .find(|p| {
            demo_mails::text_of(&std::fs::read(p).unwrap())
                .contains("\nstrict open red-1 reveal 1 step ")
        })
        .expect("red-1's opening mail in the folder");
    let text = demo_mails::text_of(&std::fs::read(&file).unwrap());
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("strict open red-1 reveal "))
        .collect();
    let last = lines.len() as u64;
    assert!(last >= 2, "{text}");
    let edited = match edit {
        OpeningEdit::LastElement => {
            let l = lines[lines.len() - 1];
            text.replacen(l, &forged_r(l), 1)
        }
        OpeningEdit::SwapSteps => {
            let step = |l: &str| {
                l.split(" step ")
                    .nth(1)
                    .unwrap()
                    .split(' ')
                    .next()
                    .unwrap()
                    .to_string()
            };
            let (a, b) = (lines[0], lines[1]);
            let a2 = a.replacen(
                &format!(" step {} ", step(a)),
                &format!(" step {} ", step(b)),
                1,
            );
            let b2 = b.replacen(
                &format!(" step {} ", step(b)),
                &format!(" step {} ", step(a)),
                1,
            );
            text.replacen(a, &a2, 1).replacen(b, &b2, 1)
        }
        OpeningEdit::DropLast => text.replacen(&format!("{}\n", lines[lines.len() - 1]), "", 1),
    };
    assert_ne!(edited, text);
    demo_mails::forge(&file, |_| {
        crate::forgery::resign(
            &crate::forgery::reseal(&edited),
            strict_world::GAME,
            &host_key(),
        )
    });
    (file, last)
}
