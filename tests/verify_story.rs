//! Issue 18.5: a player's mails prove the whole story, not only the dice. Once the game is
//! over, the game-over mail carries the journal and `verify <folder>` replays the whole game
//! from it, holding every mail the player received against the replay (log head, subject,
//! log and positions); during the game it opens what that seat can open (its own receipts).
//! Each forgery below recomputes the unkeyed seal, as a forger would.

use std::path::{Path, PathBuf};

use despatch::daemon::Intake;
use despatch::engine::{Play, Ruleset};
use despatch::report;
use despatch::rulesets::naval_rjw::NavalRjw;
use despatch::verify;
use mail_parser::{MessageParser, MimeHeaders};

use crate::world;
use world::*;

fn play_out(w: &mut World, max_steps: u64) {
    while !w.game().is_over() && w.game().step <= max_steps {
        let g = w.game();
        for seat in g.waiting_for() {
            let orders = NavalRjw::sample_orders(&g.state, &seat, g.step * 31 + w.n as u64);
            let out = w.send(&seat, &orders);
            assert!(matches!(out, Intake::Accepted { .. }), "{out:?}");
        }
    }
}

/// The mails one player received, copied into a folder of their own.
fn folder_of(w: &World, address: &str, dir: &Path) -> Vec<PathBuf> {
    std::fs::create_dir_all(dir).unwrap();
    let mut files = Vec::new();
    for sub in ["new", "cur"] {
        for e in std::fs::read_dir(w.daemon.cfg.mail.outbox.join(sub))
            .unwrap()
            .flatten()
        {
            let bytes = std::fs::read(e.path()).unwrap();
            let msg = MessageParser::default().parse(&bytes).unwrap();
            let to = msg.to().and_then(|a| a.first()).and_then(|a| a.address());
            if to == Some(address) {
                let dest = dir.join(e.file_name());
                std::fs::write(&dest, &bytes).unwrap();
                files.push(dest);
            }
        }
    }
    files.sort();
    files
}

fn text_of(bytes: &[u8]) -> String {
    MessageParser::default()
        .parse(bytes)
        .unwrap()
        .body_text(0)
        .unwrap()
        .into_owned()
}

/// Re-seals `text` as a forger would: the unkeyed Mail-Digest recomputed over the new text.
fn reseal(text: &str) -> String {
    let at = text.rfind(report::DIGEST_PREFIX).unwrap();
    let body = &text[..at];
    format!(
        "{body}{}{}\n",
        report::DIGEST_PREFIX,
        report::body_digest(body)
    )
}

/// The mail with its text part replaced by `text` (sent 8bit), every other byte kept.
fn with_text(bytes: &[u8], text: &str) -> Vec<u8> {
    let msg = MessageParser::default().parse(bytes).unwrap();
    let part = msg
        .parts
        .iter()
        .find(|p| {
            p.content_type()
                .is_some_and(|c| c.ctype() == "text" && c.subtype() == Some("plain"))
        })
        .unwrap();
    let (start, end) = (part.offset_header as usize, part.offset_end as usize);
    let mut out = bytes[..start].to_vec();
    out.extend_from_slice(
        b"Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n",
    );
    out.extend_from_slice(text.as_bytes());
    out.extend_from_slice(&bytes[end..]);
    out
}

fn with_subject(bytes: &[u8], subject: &str) -> Vec<u8> {
    let s = String::from_utf8_lossy(bytes).into_owned();
    let at = s.find("\nSubject:").unwrap() + 1;
    // The header may be folded over several lines.
    let mut end = at + s[at..].find('\n').unwrap();
    while s[end + 1..].starts_with([' ', '\t']) {
        end += 1 + s[end + 1..].find('\n').unwrap();
    }
    format!("{}Subject: {subject}{}", &s[..at], &s[end..]).into_bytes()
}

fn finished_game() -> (World, tempfile::TempDir, Vec<PathBuf>) {
    let mut w = world("training");
    play_out(&mut w, 200);
    assert!(w.game().is_over(), "the training game ends");
    let dir = tempfile::tempdir().unwrap();
    let files = folder_of(&w, JAPAN, &dir.path().join("japan"));
    (w, dir, files)
}

fn find(files: &[PathBuf], pred: impl Fn(&str) -> bool) -> PathBuf {
    files
        .iter()
        .find(|p| pred(&text_of(&std::fs::read(p).unwrap())))
        .cloned()
        .expect("a mail of that kind")
}

#[test]
fn a_players_folder_replays_the_whole_game_once_it_is_over() {
    let (_w, dir, files) = finished_game();
    let over = find(&files, |t| t.starts_with("The game is over."));
    let raw = std::fs::read(&over).unwrap();
    let msg = MessageParser::default().parse(&raw).unwrap();
    let journal = msg
        .attachments()
        .find(|p| p.attachment_name() == Some("journal.jsonl"))
        .expect("the game-over mail carries the journal");
    assert!(
        String::from_utf8_lossy(journal.contents()).contains("\"type\":\"game_ended\""),
        "the attached journal runs to the game's end"
    );
    assert!(
        text_of(&raw).contains("journal.jsonl="),
        "the journal is sealed in the Parts line"
    );
    let (checked, findings) = verify::verify_mails(&dir.path().join("japan"), None);
    assert!(findings.is_empty(), "{findings:?}");
    assert_eq!(
        checked.replayed_mails as usize,
        files.len(),
        "every mail the player received was held against the replay"
    );
    assert!(checked.events > 10 && checked.digests > 0, "{checked:?}");
}

#[test]
fn a_forged_log_line_with_a_recomputed_seal_is_caught_by_the_replay() {
    let (_w, dir, files) = finished_game();
    let results = find(&files, |t| t.contains("cruises"));
    let raw = std::fs::read(&results).unwrap();
    let text = text_of(&raw);
    let line = text
        .lines()
        .find(|l| l.starts_with("  ") && l.contains("cruises"))
        .unwrap()
        .to_string();
    // One ship said to have steamed a little further than she did.
    let forged_line = line.replacen("cruises 3\"", "cruises 4\"", 1);
    assert_ne!(forged_line, line, "{line}");
    let forged = reseal(&text.replacen(&line, &forged_line, 1));
    assert!(
        report::check_seal(&forged).is_ok(),
        "the forger's seal holds"
    );
    std::fs::write(&results, with_text(&raw, &forged)).unwrap();
    let (_, findings) = verify::verify_mails(&dir.path().join("japan"), None);
    assert!(
        findings.iter().any(|f| f.field == "log"
            && f.place
                .contains(&results.file_name().unwrap().to_string_lossy().to_string())),
        "{findings:?}"
    );
    // Control: without the game-over mail there is no journal to replay, and the forgery's
    // seal, dice and reveals all still check: mid-game only the mail's signature catches it
    // (issue 29, point 1), and nothing of the story is checked.
    let over = find(&files, |t| t.starts_with("The game is over."));
    std::fs::remove_file(over).unwrap();
    let (checked, findings) = verify::verify_mails(&dir.path().join("japan"), None);
    let fields: Vec<&str> = findings.iter().map(|f| f.field.as_str()).collect();
    assert_eq!(fields, ["Mail-Signature"], "{findings:?}");
    assert_eq!(checked.replayed_mails, 0);
}

#[test]
fn a_changed_subject_is_caught_by_the_replay() {
    let (_w, dir, files) = finished_game();
    let results = find(&files, |t| t.contains("WHAT HAPPENED (step"));
    let raw = std::fs::read(&results).unwrap();
    let subject = MessageParser::default()
        .parse(&raw)
        .unwrap()
        .subject()
        .unwrap()
        .to_string();
    let forged = format!("{subject}: Russia surrenders");
    assert_ne!(forged, subject);
    std::fs::write(&results, with_subject(&raw, &forged)).unwrap();
    let (_, findings) = verify::verify_mails(&dir.path().join("japan"), None);
    assert!(
        findings.iter().any(|f| f.field == "Subject"),
        "{findings:?}"
    );
}

#[test]
fn a_forged_journal_fails_the_replay() {
    let (_w, dir, files) = finished_game();
    let over = find(&files, |t| t.starts_with("The game is over."));
    let raw = std::fs::read(&over).unwrap();
    let msg = MessageParser::default().parse(&raw).unwrap();
    let part = msg
        .attachments()
        .find(|p| p.attachment_name() == Some("journal.jsonl"))
        .unwrap();
    let journal = String::from_utf8_lossy(part.contents()).into_owned();
    // A roll's result changed: "results":[3] → [4] on the first results line with dice.
    let line = journal
        .lines()
        .find(|l| l.contains("\"type\":\"results\"") && l.contains("\"results\":["))
        .unwrap();
    let at = line.find("\"results\":[").unwrap() + "\"results\":[".len();
    let digit = line.as_bytes()[at];
    let mut forged_line = line.to_string().into_bytes();
    forged_line[at] = if digit == b'1' { b'2' } else { b'1' };
    let forged_journal = journal.replacen(line, &String::from_utf8(forged_line).unwrap(), 1);
    // The forger re-seals: the journal's digest in the Parts line, then the Mail-Digest.
    let text = text_of(&raw);
    let old = report::part_digest(journal.as_bytes(), true);
    let new = report::part_digest(forged_journal.as_bytes(), true);
    let text = reseal(&text.replace(&old, &new));
    let mut bytes = with_text(&raw, &text);
    // Re-read the (shifted) attachment and put the forged journal in its place, 8bit.
    let msg = MessageParser::default().parse(&bytes).unwrap();
    let part = msg
        .parts
        .iter()
        .find(|p| p.attachment_name() == Some("journal.jsonl"))
        .unwrap();
    let (start, end) = (part.offset_header as usize, part.offset_end as usize);
    let mut out = bytes[..start].to_vec();
    out.extend_from_slice(
        b"Content-Type: application/x-ndjson\nContent-Disposition: attachment; filename=\"journal.jsonl\"\nContent-Transfer-Encoding: 8bit\n\n",
    );
    out.extend_from_slice(forged_journal.as_bytes());
    out.extend_from_slice(&bytes[end..]);
    bytes = out;
    std::fs::write(&over, &bytes).unwrap();
    let (_, findings) = verify::verify_mails(&dir.path().join("japan"), None);
    assert!(
        findings
            .iter()
            .any(|f| f.place.contains("attached journal")),
        "{findings:?}"
    );
    assert!(
        !findings.iter().any(|f| f.field.starts_with("part ")),
        "the forger's parts seal holds, so the replay is what catches it: {findings:?}"
    );
}

#[test]
fn during_the_game_each_receipt_opens_its_own_digest_and_is_the_one_locked() {
    let mut w = world("yellow-sea-1904");
    play_out(&mut w, 3);
    assert!(!w.game().is_over());
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("japan");
    let files = folder_of(&w, JAPAN, &folder);
    let (checked, findings) = verify::verify_mails(&folder, None);
    assert!(findings.is_empty(), "{findings:?}");
    assert!(checked.digests >= 2, "{checked:?}");
    assert_eq!(checked.replayed_mails, 0, "no journal before the game ends");
    // A receipt whose orders were edited (and re-sealed) no longer opens its digest.
    let receipt = find(&files, |t| t.starts_with("Orders received for japan"));
    let raw = std::fs::read(&receipt).unwrap();
    let text = text_of(&raw);
    let order = text
        .lines()
        .skip_while(|l| !l.starts_with("This is what Despatch understood"))
        .nth(1)
        .unwrap()
        .to_string();
    let forged = reseal(&text.replacen(&order, &format!("{order} 1"), 1));
    std::fs::write(&receipt, with_text(&raw, &forged)).unwrap();
    let (_, findings) = verify::verify_mails(&folder, None);
    assert!(
        findings.iter().any(|f| f.field == "Digest D"),
        "{findings:?}"
    );
    // The player holds its own salt, so it can make a receipt that opens for other orders:
    // the step's lock, printed in the results mail, took another digest, and says so.
    // Folded to 72 columns in the mail; one line once unfolded (dice-protocol.md).
    let salt = despatch::report::unfold(&text)
        .lines()
        .find_map(|l| l.strip_prefix("Your salt = "))
        .and_then(despatch::dice::from_hex)
        .unwrap();
    let step: u64 = text
        .split(", step ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    let other = format!("{order} 1");
    let canonical: String = text
        .lines()
        .skip_while(|l| !l.starts_with("This is what Despatch understood"))
        .skip(1)
        .map_while(|l| l.strip_prefix("    "))
        .map(|l| {
            if l == order.trim_start() {
                format!("{}\n", other.trim_start())
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    let old_d = despatch::report::unfold(&text)
        .lines()
        .find_map(|l| l.strip_prefix("Digest D = "))
        .unwrap()
        .to_string();
    let new_d = despatch::dice::to_hex(&despatch::dice::orders_digest(
        despatch::dice::Protocol::V2,
        GAME,
        step,
        "japan",
        &salt,
        &canonical,
    ));
    let forged = reseal(&text.replacen(&order, &other, 1).replacen(&old_d, &new_d, 1));
    std::fs::write(&receipt, with_text(&raw, &forged)).unwrap();
    let (_, findings) = verify::verify_mails(&folder, None);
    assert!(
        !findings.iter().any(|f| f.field == "Digest D"),
        "the forged receipt opens: {findings:?}"
    );
    assert!(
        findings.iter().any(|f| f.field == "lock input japan"),
        "{findings:?}"
    );
}
