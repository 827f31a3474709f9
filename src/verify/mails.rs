//! Verifying a folder of the mails one player received: every seal and part digest, every
//! lock, seed and roll, and the chain of reveals back to the anchor of the welcome mail.

use std::path::{Path, PathBuf};

use mail_parser::MessageParser;

use crate::dice::{self, Faces, Hash, Protocol, Roll};
use crate::report;

use super::mime::{REWRAPPED, mail_text, sealed_text};
use super::signed::{self, Facts};
use super::story::{self, SealedMail};
use super::{Checked, Finding, finding};
use crate::engine::Registry;

pub(super) fn check_mail_file(p: &Path) -> Result<(), Finding> {
    let name = p
        .file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned();
    let bytes =
        std::fs::read(p).map_err(|e| finding(format!("mail {name}"), "file", e.to_string()))?;
    let (_, text) =
        mail_text(&bytes).ok_or_else(|| finding(format!("mail {name}"), "MIME", "no text part"))?;
    if text.contains(report::DIGEST_PREFIX) {
        let text =
            sealed_text(&text).map_err(|e| finding(format!("mail {name}"), "Mail-Digest", e))?;
        check_parts(&bytes, &text)
            .map_err(|(field, why)| finding(format!("mail {name}"), field, why))?;
    }
    Ok(())
}

/// Checks each part listed under "Parts (sha256):" in the sealed text against the mail's parts.
fn check_parts(bytes: &[u8], text: &str) -> Result<(), (String, String)> {
    use mail_parser::MimeHeaders;
    let listed = report::parts_listed(text);
    if listed.is_empty() {
        return Ok(());
    }
    let msg = MessageParser::default()
        .parse(bytes)
        .ok_or_else(|| ("MIME".to_string(), "unreadable".to_string()))?;
    for (name, digest) in &listed {
        let (name, digest) = (name.as_str(), digest.as_str());
        // The media type each sealed part must carry: a changed type (an SVG re-labelled as
        // something else) changes what a client shows, even with the same bytes.
        let expected = match name.rsplit('.').next() {
            Some("html") => "text/html",
            Some("png") => "image/png",
            Some("svg") => "image/svg+xml",
            Some("ics") => "text/calendar",
            Some("jsonl") => crate::mail::compose::JOURNAL_TYPE,
            Some("eml") => "message/rfc822",
            _ => "",
        };
        let part = if name == "turn.html" {
            msg.html_bodies().next()
        } else {
            msg.parts.iter().find(|p| {
                p.attachment_name() == Some(name)
                    // "map" in mails before Content-IDs were made unique.
                    || (name == "map.png"
                        && p.content_id().is_some_and(|c| c == "map" || c.starts_with("map.")))
            })
        };
        let Some(part) = part else {
            return Err((format!("part {name}"), "missing".into()));
        };
        // Text parts are sealed with their line ends normalised (a Maildir stores LF, SMTP
        // carries CRLF); calendar entries sealed before that carry their raw digest.
        let text = name == "turn.html" || name.ends_with(".ics") || name.ends_with(".jsonl");
        // A mail attached whole is listed by its own seal's digest (its seal is checked
        // where it is read as a mail of its own).
        let actual = if name.ends_with(".eml") {
            MessageParser::default()
                .parse(part.contents())
                .and_then(|m| m.body_text(0).map(|t| t.into_owned()))
                .and_then(|t| report::claimed_digest(&t))
                .unwrap_or_else(|| "(no seal)".to_string())
        } else {
            report::part_digest(part.contents(), text)
        };
        let raw_ok =
            name.ends_with(".ics") && report::part_digest(part.contents(), false) == digest;
        if actual != digest && !raw_ok {
            return Err((
                format!("part {name}"),
                format!("sha256 is {actual}, the sealed text says {digest}"),
            ));
        }
        let ct = part
            .content_type()
            .map(|c| match c.subtype() {
                Some(sub) => format!("{}/{sub}", c.ctype()),
                None => c.ctype().to_string(),
            })
            .unwrap_or_default()
            .to_ascii_lowercase();
        if !expected.is_empty() && ct != expected {
            return Err((
                format!("part {name}"),
                format!("media type is {ct:?}, a sealed {name} is {expected}"),
            ));
        }
    }
    Ok(())
}

/// One results mail's dice section.
#[derive(Debug, Clone)]
struct DiceMail {
    file: String,
    protocol: Protocol,
    game: String,
    step: u64,
    lock: Hash,
    reveal: Hash,
    seed: Hash,
    log_head: Hash,
    /// `log head before the lock = #i` (mails since locks kept it).
    log_head_index: Option<u64>,
    seats: Vec<(String, Option<Hash>)>,
    /// Strict games: each strict seat's `r_seat_k` (`None` printed as `-`).
    strict: Vec<(String, Option<Hash>)>,
    rolls: Vec<Roll>,
}

impl DiceMail {
    /// The whole dice section as one value: every seat's mail of a step shows the same.
    fn fact(&self) -> String {
        let opt = |h: &Option<Hash>| h.as_ref().map(dice::to_hex).unwrap_or("-".into());
        let mut s = format!(
            "L={} v={} S={} head={}",
            dice::to_hex(&self.lock),
            dice::to_hex(&self.reveal),
            dice::to_hex(&self.seed),
            dice::to_hex(&self.log_head)
        );
        for (seat, d) in self.seats.iter().chain(&self.strict) {
            s.push_str(&format!(" {seat}={}", opt(d)));
        }
        for r in &self.rolls {
            s.push_str(&format!(" {}:{}:{:?}", r.j, r.label, r.results));
        }
        s
    }
}

fn parse_faces(s: &str) -> Option<Faces> {
    let s = s.trim();
    if let Some(list) = s.strip_prefix('[').and_then(|x| x.strip_suffix(']')) {
        let values: Option<Vec<u32>> = list.split(',').map(|x| x.trim().parse().ok()).collect();
        return Some(Faces::List { values: values? });
    }
    let d = s.strip_prefix('d')?;
    if let Some((n, _)) = d.split_once('(') {
        return Some(Faces::ZeroBased {
            sides: n.parse().ok()?,
        });
    }
    Some(Faces::Numbered {
        sides: d.parse().ok()?,
    })
}

fn parse_dice(file: &str, text: &str) -> Result<Option<DiceMail>, Finding> {
    // `DICE (despatch-dice/v2, game <id>, step <k>)`; v1 games print `despatch-dice/v1`.
    let Some(start) = text.find("DICE (despatch-dice/v") else {
        return Ok(None);
    };
    let place = |step: u64| format!("mail {file} (step {step})");
    let head = &text[start..];
    let first = head.lines().next().unwrap_or("");
    let (protocol, rest) = first
        .trim_start_matches("DICE (")
        .trim_end_matches(')')
        .split_once(", game ")
        .ok_or_else(|| finding(place(0), "DICE", "unreadable heading"))?;
    let protocol = Protocol::parse(protocol)
        .ok_or_else(|| finding(place(0), "DICE", format!("unknown protocol {protocol}")))?;
    let inner = rest;
    let (game, step) = inner
        .split_once(", step ")
        .ok_or_else(|| finding(place(0), "DICE", "unreadable heading"))?;
    let step: u64 = step
        .trim()
        .parse()
        .map_err(|_| finding(place(0), "DICE", "unreadable step"))?;
    let mut lock = None;
    let mut reveal = None;
    let mut seed = None;
    let mut log_head = None;
    let mut log_head_index = None;
    let mut seats = Vec::new();
    let mut strict = Vec::new();
    let mut rolls = Vec::new();
    let hexval = |field: &str, v: &str| -> Result<Hash, Finding> {
        dice::from_hex(v).ok_or_else(|| finding(place(step), field, "not 32 bytes of hex"))
    };
    for line in head.lines().skip(1) {
        let line = line.trim_end();
        if line.starts_with("-- ") || line == "--" {
            break;
        }
        if let Some((k, v)) = line.split_once(" = ") {
            let v = v.trim();
            match k.trim() {
                k if k == format!("L_{step}") => lock = Some(hexval(k, v)?),
                k if k == format!("v_{step}") => reveal = Some(hexval(k, v)?),
                k if k == format!("S_{step}") => seed = Some(hexval(k, v)?),
                "lock input log_head" => log_head = Some(hexval("lock input log_head", v)?),
                "log head before the lock" => {
                    log_head_index = Some(v.trim_start_matches('#').parse().map_err(|_| {
                        finding(place(step), "log head before the lock", "not #<index>")
                    })?)
                }
                k if k.starts_with("strict r ") => {
                    let seat = k.trim_start_matches("strict r ").to_string();
                    let r = if v == "-" {
                        None
                    } else {
                        Some(hexval(&format!("strict r {seat}"), v)?)
                    };
                    strict.push((seat, r));
                }
                k if k.starts_with("lock input ") => {
                    let seat = k.trim_start_matches("lock input ").to_string();
                    let d = if v == "-" {
                        None
                    } else {
                        Some(hexval(&format!("lock input {seat}"), v)?)
                    };
                    seats.push((seat, d));
                }
                _ => {}
            }
            continue;
        }
        let cols: Vec<&str> = line.split(" | ").collect();
        if cols.len() == 4
            && let Ok(j) = cols[0].trim().parse::<u64>()
        {
            let faces = parse_faces(cols[1])
                .ok_or_else(|| finding(place(step), format!("rolls[{j}].die"), "unreadable die"))?;
            let results: Option<Vec<u32>> =
                cols[2].split(',').map(|x| x.trim().parse().ok()).collect();
            let results = results
                .ok_or_else(|| finding(place(step), format!("rolls[{j}].results"), "unreadable"))?;
            rolls.push(Roll {
                j,
                label: cols[3].to_string(),
                faces,
                results,
            });
        }
    }
    let need = |x: Option<Hash>, f: &str| x.ok_or_else(|| finding(place(step), f, "missing"));
    Ok(Some(DiceMail {
        file: file.to_string(),
        protocol,
        game: game.to_string(),
        step,
        lock: need(lock, &format!("L_{step}"))?,
        reveal: need(reveal, &format!("v_{step}"))?,
        seed: need(seed, &format!("S_{step}"))?,
        log_head: need(log_head, "lock input log_head")?,
        log_head_index,
        seats,
        strict,
        rolls,
    }))
}

/// Files of a folder of mails: a Maildir (cur/ and new/) or any folder of files.
fn mail_files(dir: &Path) -> Vec<PathBuf> {
    let mut dirs = vec![dir.to_path_buf()];
    for sub in ["cur", "new"] {
        if dir.join(sub).is_dir() {
            dirs.push(dir.join(sub));
        }
    }
    let mut files: Vec<PathBuf> = dirs
        .iter()
        .filter_map(|d| std::fs::read_dir(d).ok())
        .flat_map(|rd| rd.filter_map(|e| e.ok()).map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

/// The mails of a folder, by file name, each followed by the mails attached to it whole (mails
/// that waited for it, issue 30), named `<file>/<attachment>`: those are mails the player
/// received too, with their own seals and dice.
fn mails_in(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for p in mail_files(dir) {
        let file = p
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let Ok(bytes) = std::fs::read(&p) else {
            continue;
        };
        let attached = attached_mails(&bytes);
        out.push((file.clone(), bytes));
        out.extend(
            attached
                .into_iter()
                .map(|(name, inner)| (format!("{file}/{name}"), inner)),
        );
    }
    out
}

/// The mails attached whole (`message/rfc822`) to a mail, one level deep, by attachment name.
pub fn attached_mails(bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
    use mail_parser::{MimeHeaders, PartType};
    let Some(msg) = MessageParser::default().parse(bytes) else {
        return Vec::new();
    };
    msg.parts
        .iter()
        .enumerate()
        .filter_map(|(i, p)| match &p.body {
            PartType::Message(inner) => Some((
                p.attachment_name()
                    .map(str::to_string)
                    .unwrap_or_else(|| format!("part-{i}.eml")),
                inner.raw_message().to_vec(),
            )),
            _ => None,
        })
        .collect()
}

/// Verifies a folder of mails as one player received them (optionally only those of `game`),
/// replaying games over with the rulesets this build knows.
pub fn verify_mails(dir: &Path, game: Option<&str>) -> (Checked, Vec<Finding>) {
    verify_mails_with(dir, game, &crate::rulesets::registry())
}

/// `verify_mails` with the rulesets handed in (a test's own ruleset, say).
pub fn verify_mails_with(
    dir: &Path,
    game: Option<&str>,
    registry: &Registry,
) -> (Checked, Vec<Finding>) {
    let (checked, out, _) = read_folder(dir, game, registry);
    (checked, out)
}

/// `despatch verify --compare`: each folder (one seat's mails) verified on its own, then held
/// against the others — one anchor line, one mail key, one result per step and one log head
/// per index across them all. Findings name the folder; folders that share nothing to compare
/// are a finding too, since such a comparison would prove nothing.
pub fn compare_folders(dirs: &[PathBuf]) -> (Vec<Checked>, Vec<Finding>) {
    let registry = crate::rulesets::registry();
    let mut all = Vec::new();
    let mut checked = Vec::new();
    let mut facts: Vec<(String, Facts)> = Vec::new();
    for d in dirs {
        let label = format!("folder {}", d.display());
        let (c, found, f) = read_folder(d, None, &registry);
        if c.mails == 0 {
            all.push(finding(&label, "mails", "no Despatch mails in it"));
        }
        all.extend(found.into_iter().map(|mut x| {
            x.place = format!("{label}: {}", x.place);
            x
        }));
        checked.push(c);
        facts.push((label, f));
    }
    all.extend(Facts::compare(&facts));
    for (i, (a, fa)) in facts.iter().enumerate() {
        if !facts
            .iter()
            .enumerate()
            .any(|(j, (_, fb))| i != j && fa.overlaps(fb))
        {
            all.push(finding(
                a,
                "compare",
                "shares no game, step or log head with the other folders: nothing to compare",
            ));
        }
    }
    (checked, all)
}

/// A folder's mails checked, and the facts a seat's folder must share with the others'.
fn read_folder(
    dir: &Path,
    game: Option<&str>,
    registry: &Registry,
) -> (Checked, Vec<Finding>, Facts) {
    let mut facts = Facts::default();
    let mut keys: std::collections::BTreeMap<String, Hash> = Default::default();
    let mut out = Vec::new();
    let mut checked = Checked::default();
    let mut anchors: Vec<(String, u64, Hash)> = Vec::new();
    let mut strict_anchors: Vec<(String, String, Hash)> = Vec::new();
    let mut bound_games = std::collections::BTreeSet::new();
    let mut openings = Vec::new();
    let mut results: Vec<DiceMail> = Vec::new();
    let mut sealed: Vec<SealedMail> = Vec::new();
    for (file, bytes) in mails_in(dir) {
        let flagged = bytes
            .windows(22)
            .any(|w| w == b"\nX-Despatch-Seal: yes\r" || w == b"\nX-Despatch-Seal: yes\n");
        let text = mail_text(&bytes).map(|(_, t)| t).unwrap_or_default();
        if !text.contains(report::DIGEST_PREFIX) {
            // A client that broke the digest line itself leaves "Mail-Digest" without its
            // prefix whole: a sealed mail, re-wrapped, not a mail without dice.
            let broken_seal = text.lines().any(|l| {
                l.trim_start_matches(['>', ' '])
                    .starts_with(report::DIGEST_PREFIX.split(' ').next().unwrap_or("-"))
            });
            if broken_seal {
                checked.mails += 1;
                out.push(finding(format!("mail {file}"), "Mail-Digest", REWRAPPED));
            } else if flagged {
                checked.mails += 1;
                out.push(finding(
                    format!("mail {file}"),
                    "Mail-Digest",
                    "a sealed Despatch mail whose seal cannot be read",
                ));
            }
            continue; // not a sealed Despatch mail
        }
        if let Some(g) = game
            && !text.contains(&format!("game {g}"))
        {
            continue;
        }
        checked.mails += 1;
        let text = match sealed_text(&text) {
            Ok(t) => t,
            Err(e) => {
                out.push(finding(format!("mail {file}"), "Mail-Digest", e));
                continue;
            }
        };
        if let Err((field, why)) = check_parts(&bytes, &text) {
            out.push(finding(format!("mail {file}"), field, why));
            continue;
        }
        // Everything below reads the lines as they were before folding (one value a line).
        let text = report::unfold(&text);
        let game_of_mail = text
            .lines()
            .find_map(|l| l.strip_prefix("Despatch · game "))
            .and_then(|rest| rest.split_whitespace().next())
            .map(str::to_string);
        match sealed_mail(&file, &bytes, &text) {
            Some(m) => sealed.push(m),
            None => out.push(finding(
                format!("mail {file}"),
                "footer",
                "a sealed mail without its log head line",
            )),
        }
        if let (Some(k), Some(g)) = (signed::key_in(&text), &game_of_mail) {
            out.extend(facts.note(g, "mail key K".into(), dice::to_hex(&k), &file));
            keys.entry(g.clone()).or_insert(k);
        }
        if let (Some(i), Some(g)) = (text.find("Anchor A = "), game_of_mail.clone()) {
            let rest = &text[i + 11..];
            let hex: String = rest.chars().take(64).collect();
            let line = rest.lines().next().unwrap_or("");
            let from = line
                .split("(from step ")
                .nth(1)
                .and_then(|x| x.split(|c: char| !c.is_ascii_digit()).next())
                .and_then(|x| x.parse().ok())
                .unwrap_or(1u64);
            if let Some(a) = dice::from_hex(&hex) {
                out.extend(facts.note(&g, format!("anchor from step {from}"), hex.clone(), &file));
                anchors.push((g, from, a));
            }
        }
        if let Some(g) = &game_of_mail {
            strict_anchors.extend(super::strict::anchors_in(g, &text));
            if text.contains(super::strict::BOUND_MARK) {
                bound_games.insert(g.clone());
            }
            for o in super::strict::openings_in(g, &file, &text) {
                out.extend(facts.note(
                    g,
                    format!("opening of {} reveal {}", o.seat, o.index),
                    dice::to_hex(&o.element),
                    &file,
                ));
                openings.push(o);
            }
            // A strict lock mail's L_k is the game's word for the step's lock: a second,
            // different one (a lock shown early to learn a reveal, then another) is equivocation.
            if let Some(ask) = crate::mail::compose::read_lock_mail(&text) {
                out.extend(facts.note(
                    g,
                    format!("lock of step {}", ask.step),
                    dice::to_hex(&ask.lock),
                    &file,
                ));
            }
        }
        match parse_dice(&file, &text) {
            Ok(Some(d)) => results.push(d),
            Ok(None) => {}
            Err(e) => out.push(e),
        }
    }
    // One game has one result per step and one head per log index, whoever it was mailed to:
    // two in one folder is equivocation (or a forged mail beside the genuine one).
    for m in &sealed {
        out.extend(facts.note(
            &m.game,
            signed::head_fact(m.head_index),
            m.head.clone(),
            &m.file,
        ));
    }
    for d in &results {
        out.extend(facts.note(&d.game, format!("step {}", d.step), d.fact(), &d.file));
        out.extend(facts.note(
            &d.game,
            format!("lock of step {}", d.step),
            dice::to_hex(&d.lock),
            &d.file,
        ));
        if let Some(i) = d.log_head_index {
            out.extend(facts.note(
                &d.game,
                signed::head_fact(i),
                dice::to_hex(&d.log_head),
                &d.file,
            ));
        }
    }
    let (signatures, found) = signed::check_signatures(&sealed, &keys);
    checked.signatures += signatures;
    out.extend(found);
    results.sort_by_key(|d| (d.game.clone(), d.step));
    results.dedup_by(|a, b| a.game == b.game && a.step == b.step && a.fact() == b.fact());
    let lock_inputs = results
        .iter()
        .map(|d| ((d.game.clone(), d.step), d.seats.clone()))
        .collect();
    let (opened, found) = story::check_receipts(&sealed, &lock_inputs);
    checked.digests += opened;
    out.extend(found);
    check_games(&sealed, &anchors, registry, &mut checked, &mut out);
    for d in &results {
        let place = format!("mail {} (step {})", d.file, d.step);
        let lock = dice::lock(d.protocol, &d.game, d.step, &d.log_head, &d.seats);
        if lock != d.lock {
            out.push(finding(
                &place,
                format!("L_{}", d.step),
                "does not match the lock inputs",
            ));
        }
        // Strict games list every strict seat's r (m of them); default games none (m = 0).
        let s = dice::seed_strict(d.protocol, &d.lock, &d.reveal, &d.strict);
        if s != d.seed {
            out.push(finding(
                &place,
                format!("S_{}", d.step),
                if d.strict.is_empty() {
                    "is not H(L_k, v_k)"
                } else {
                    "is not H(L_k, v_k, the strict seats' r)"
                },
            ));
        }
        let earlier: Vec<(u64, &super::strict::StrictLines)> = results
            .iter()
            .filter(|p| p.game == d.game && p.step < d.step)
            .map(|p| (p.step, p.strict.as_slice()))
            .collect();
        if !bound_games.contains(&d.game) {
            out.extend(super::strict::check_reveals(
                &place,
                d.protocol,
                &d.game,
                d.step,
                &d.strict,
                &earlier,
                &strict_anchors,
            ));
        }
        if let Err((j, why)) = dice::check_table(&d.seed, &d.rolls) {
            out.push(finding(&place, format!("rolls[{j}]"), why));
        }
        checked.rolls += d.rolls.len() as u64;
        checked.steps += 1;
        // v_k hashes back to the previous reveal of the same onion, or to that onion's anchor.
        let Some((_, from, anchor)) = anchors
            .iter()
            .filter(|(g, f, _)| *g == d.game && *f <= d.step)
            .max_by_key(|(_, f, _)| *f)
        else {
            if !out
                .iter()
                .any(|f| f.field == "anchor" && f.place == format!("game {}", d.game))
            {
                out.push(finding(
                    format!("game {}", d.game),
                    "anchor",
                    "no welcome or anchor mail in the folder: the reveals cannot be checked against the commitment",
                ));
            }
            continue;
        };
        let prev = results
            .iter()
            .filter(|p| p.game == d.game && p.step < d.step && p.step >= *from)
            .max_by_key(|p| p.step)
            .map(|p| (p.step, p.reveal));
        let (hashes, target, what) = match prev {
            Some((j, r)) => (d.step - j, r, format!("v_{j}")),
            None => (
                d.step - from + 1,
                *anchor,
                format!("the anchor of step {from}"),
            ),
        };
        let mut v = d.reveal;
        for _ in 0..hashes {
            v = dice::onion_step(d.protocol, &d.game, "host", &v);
        }
        if v != target {
            out.push(finding(
                &place,
                format!("v_{}", d.step),
                format!("does not hash back to {what}"),
            ));
        }
    }
    // Bound strict reveals (S11): checked against the seats' openings, once they are mailed.
    let steps: Vec<super::strict::StepReveals> = results
        .iter()
        .map(|d| super::strict::StepReveals {
            game: &d.game,
            step: d.step,
            lock: d.lock,
            strict: &d.strict,
        })
        .collect();
    let proto_of = |g: &str| {
        results
            .iter()
            .find(|d| d.game == g)
            .map_or(Protocol::V2, |d| d.protocol)
    };
    let (bound, unopened, found) =
        super::strict::check_openings(&proto_of, &bound_games, &openings, &steps, &strict_anchors);
    checked.bound_reveals += bound;
    checked.unopened = unopened;
    out.extend(found);
    (checked, out, facts)
}

/// What verify keeps of a sealed mail: its place in the game, its subject and text, and the
/// journal a game-over mail carries.
fn sealed_mail(file: &str, bytes: &[u8], text: &str) -> Option<SealedMail> {
    use mail_parser::MimeHeaders;
    let msg = MessageParser::default().parse(bytes)?;
    let (game, head_index, head) = story::footer_head(text)?;
    let seat = msg
        .reply_to()
        .and_then(|a| a.first())
        .and_then(|a| a.address())
        .and_then(story::seat_of_reply_address);
    let journal = msg
        .attachments()
        .find(|p| p.attachment_name() == Some(crate::mail::compose::JOURNAL_PART))
        .map(|p| String::from_utf8_lossy(p.contents()).into_owned());
    Some(SealedMail {
        file: file.to_string(),
        game,
        seat,
        head_index,
        head,
        subject: msg.subject().unwrap_or_default().to_string(),
        text: text.to_string(),
        journal,
    })
}

/// Each game whose game-over mail is in the folder is replayed from the journal it carries,
/// and every mail of that game is held against the replay.
fn check_games(
    sealed: &[SealedMail],
    anchors: &[(String, u64, Hash)],
    registry: &Registry,
    checked: &mut Checked,
    out: &mut Vec<Finding>,
) {
    let mut done: Vec<&str> = Vec::new();
    for m in sealed {
        let Some(journal) = &m.journal else { continue };
        if done.contains(&m.game.as_str()) {
            continue;
        }
        done.push(&m.game);
        let of_game: Vec<&SealedMail> = sealed.iter().filter(|x| x.game == m.game).collect();
        let anchors: Vec<(u64, Hash)> = anchors
            .iter()
            .filter(|(g, _, _)| *g == m.game)
            .map(|(_, f, a)| (*f, *a))
            .collect();
        let (replayed, found) =
            story::check_against_journal(&m.game, journal, &of_game, &anchors, registry);
        checked.events += replayed.events;
        checked.replayed_mails += replayed.mails;
        out.extend(found);
    }
}
