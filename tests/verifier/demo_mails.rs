//! Helpers shared by the independent-verifier tests (Python, browser): a finished demo game's
//! mails as one player received them, a forger's edit of one mail (re-sealed, so only the
//! dice checks can catch it), and the rule for a tool missing on this machine.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

use despatch::report;
use mail_parser::{MessageParser, MimeHeaders};

pub const JAPAN: &str = "togo@mikasa.example";
pub const RUSSIA: &str = "vitgeft@tsesarevich.example";

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Whether an external tool the test needs is here: yes → run; no → SKIPPED on a developer's
/// machine, but a failure when CI is set, so CI can never pass while the check did nothing.
pub fn tool_present(found: bool, what: &str, install: &str) -> bool {
    match tool_rule(found, std::env::var("CI").ok().as_deref()) {
        Ok(run) => {
            if !run {
                eprintln!("SKIPPED: {what} is missing on this machine ({install})");
            }
            run
        }
        Err(()) => panic!("CI is set but {what} is missing ({install})"),
    }
}

/// The rule itself: Ok(true) run, Ok(false) skip, Err(()) fail (missing while CI is set).
pub fn tool_rule(found: bool, ci: Option<&str>) -> Result<bool, ()> {
    let ci = ci.is_some_and(|v| !v.trim().is_empty() && v != "0" && v != "false");
    match (found, ci) {
        (true, _) => Ok(true),
        (false, false) => Ok(false),
        (false, true) => Err(()),
    }
}

/// `despatch demo` on the short training scenario, played to its end, in `dir`; returns the
/// folder of the mails Japan received (copied out of the outbound Maildir).
pub fn finished_demo(dir: &Path) -> PathBuf {
    let demo = dir.join("demo");
    despatch::demo::run_demo(&demo, "training", 200).unwrap();
    seat_folder(dir, JAPAN, "japan")
}

/// The mails the finished demo in `dir` sent to `address`, copied into `dir/<name>`.
pub fn seat_folder(dir: &Path, address: &str, name: &str) -> PathBuf {
    let demo = dir.join("demo");
    let outbox = despatch::demo::demo_config(&demo.canonicalize().unwrap())
        .unwrap()
        .mail
        .outbox;
    let folder = dir.join(name);
    std::fs::create_dir_all(&folder).unwrap();
    let mut over = false;
    for sub in ["new", "cur"] {
        for e in std::fs::read_dir(outbox.join(sub)).unwrap().flatten() {
            let bytes = std::fs::read(e.path()).unwrap();
            let msg = MessageParser::default().parse(&bytes).unwrap();
            let to = msg.to().and_then(|a| a.first()).and_then(|a| a.address());
            if to == Some(address) {
                over |= text_of(&bytes).starts_with("The game is over.");
                std::fs::write(folder.join(e.file_name()), &bytes).unwrap();
            }
        }
    }
    assert!(over, "the demo game ran to its end (a game-over mail)");
    folder
}

/// The demo's game store (for the host's own keys, in tests of a host who cheats).
pub fn demo_store(dir: &Path) -> PathBuf {
    std::fs::read_dir(dir.join("demo"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .flat_map(|p| walk(&p))
        .find(|p| p.file_name().is_some_and(|n| n == "host.secret"))
        .and_then(|p| p.parent().map(Path::to_path_buf))
        .expect("the demo's game store")
}

/// Removes the game-over mail from a seat's folder: the folder as it stands mid-game, with
/// no journal to replay (what a player holds while the game runs).
///
/// The mails that waited for the game-over mail (one mail a step) are kept, each as a file of
/// its own, as a player who saved them would have them: they came before the game's end, and
/// without them a short game leaves a seat's folder a step or two.
pub fn drop_game_over(folder: &Path) {
    for e in std::fs::read_dir(folder).unwrap().flatten() {
        let bytes = std::fs::read(e.path()).unwrap();
        if text_of(&bytes).starts_with("The game is over.") {
            for (name, inner) in despatch::verify::attached_mails(&bytes) {
                std::fs::write(folder.join(name), inner).unwrap();
            }
            std::fs::remove_file(e.path()).unwrap();
        }
    }
}

/// The journal's rolls: (steps with a results event, dice rolled), as the host recorded them.
pub fn journal_dice(dir: &Path) -> (u64, u64) {
    let journal = std::fs::read_dir(dir.join("demo"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .flat_map(|p| walk(&p))
        .find(|p| p.file_name().is_some_and(|n| n == "journal.jsonl"))
        .expect("the demo's game store has a journal");
    let (mut steps, mut dice) = (0, 0);
    for line in std::fs::read_to_string(journal).unwrap().lines() {
        let ev: serde_json::Value = serde_json::from_str(line).unwrap();
        if ev["type"] == "results" {
            steps += 1;
            for r in ev["rolls"].as_array().unwrap() {
                dice += r["results"].as_array().unwrap().len() as u64;
            }
        }
    }
    (steps, dice)
}

fn walk(p: &Path) -> Vec<PathBuf> {
    if p.is_dir() {
        std::fs::read_dir(p)
            .unwrap()
            .flatten()
            .flat_map(|e| walk(&e.path()))
            .collect()
    } else {
        vec![p.to_path_buf()]
    }
}

/// A mail's text part with its folded lines joined (docs/dice-protocol.md, "Lines of 72
/// columns"): one value to a line, as a forger reads it; `forge` folds it again.
pub fn text_of(bytes: &[u8]) -> String {
    report::unfold(&raw_text_of(bytes))
}

/// A mail's text part as it arrived (folded lines and all).
pub fn raw_text_of(bytes: &[u8]) -> String {
    MessageParser::default()
        .parse(bytes)
        .and_then(|m| m.body_text(0).map(|t| t.into_owned()))
        .unwrap_or_default()
}

/// The results mails of a folder, by step: (step, file, text of the dice section's mail).
pub fn results_mails(folder: &Path) -> Vec<(u64, PathBuf, String)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(folder).unwrap().flatten() {
        let text = text_of(&std::fs::read(e.path()).unwrap());
        if let Some(at) = text.find("DICE (despatch-dice/") {
            let step = text[at..]
                .split(", step ")
                .nth(1)
                .and_then(|r| r.split(')').next())
                .and_then(|k| k.parse().ok())
                .unwrap();
            out.push((step, e.path(), text));
        }
    }
    out.sort_by_key(|(k, _, _)| *k);
    out
}

/// Rewrites one mail as a forger would: `edit` changes its text, the unkeyed Mail-Digest is
/// recomputed (what followed it, the signature, kept as it was: the forger cannot remake it),
/// and the text part is put back (8bit) with every other byte of the mail kept.
pub fn forge(file: &Path, edit: impl FnOnce(&str) -> String) {
    let bytes = std::fs::read(file).unwrap();
    let text = report::unfold(&edit(&text_of(&bytes)));
    let at = text.rfind(report::DIGEST_PREFIX).unwrap();
    // Folded again as Despatch folds (the forged mail keeps the 72-column layout), then sealed.
    let body = report::fold_text(&text[..at]);
    let mut sealed = format!(
        "{body}{}{}\n",
        report::DIGEST_PREFIX,
        report::body_digest(&body)
    );
    for l in text[at..].lines().skip(1) {
        sealed.push_str(l);
        sealed.push('\n');
    }
    let sealed = report::fold_text(&sealed);
    assert!(
        report::check_seal(&sealed).is_ok(),
        "the forger's seal holds"
    );
    let msg = MessageParser::default().parse(&bytes).unwrap();
    let part = msg
        .parts
        .iter()
        .find(|p| {
            p.content_type()
                .is_some_and(|c| c.ctype() == "text" && c.subtype() == Some("plain"))
        })
        .unwrap();
    let mut out = bytes[..part.offset_header as usize].to_vec();
    out.extend_from_slice(
        b"Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n",
    );
    out.extend_from_slice(sealed.as_bytes());
    out.extend_from_slice(&bytes[part.offset_end as usize..]);
    std::fs::write(file, out).unwrap();
}

/// The first dice-table row of `text` that rolled a plain die (`d<s>`): (row line, j, die
/// sides, first result).
pub fn first_plain_roll(text: &str) -> Option<(String, u64, u32, u32)> {
    text.lines().find_map(|l| {
        let cols: Vec<&str> = l.split(" | ").collect();
        let j = cols.first()?.trim().parse().ok()?;
        let sides = cols.get(1)?.trim().strip_prefix('d')?.parse().ok()?;
        let first = cols.get(2)?.split(',').next()?.trim().parse().ok()?;
        (cols.len() == 4).then(|| (l.to_string(), j, sides, first))
    })
}

/// One die changed in a dice-table row: the first result becomes another face of the die.
pub fn with_first_die_changed(row: &str, sides: u32, first: u32) -> String {
    let other = first % sides + 1;
    let cols: Vec<&str> = row.split(" | ").collect();
    let mut results: Vec<String> = cols[2].split(',').map(|x| x.trim().to_string()).collect();
    results[0] = other.to_string();
    format!(
        "{} | {} | {} | {}",
        cols[0],
        cols[1],
        results.join(","),
        cols[3]
    )
}

/// `folder` re-wrapped by tests/verifier/rewrap.py at `width` (quoted with `quote`) into `to`.
pub fn rewrapped(folder: &Path, width: u32, quote: bool, to: &Path) -> PathBuf {
    let mut cmd = Command::new("python3");
    cmd.arg(repo().join("tests/verifier/rewrap.py"))
        .arg(width.to_string());
    if quote {
        cmd.arg("--quote");
    }
    let out = cmd.arg(folder).arg(to).output().unwrap();
    assert!(out.status.success(), "{out:?}");
    to.to_path_buf()
}

/// The mails in today's layout before folding, from the code before it (three of Japan's demo
/// mails: welcome, receipt, results of step 1).
pub fn long_line_fixture() -> PathBuf {
    repo().join("tests/verifier/fixtures/long_lines")
}
