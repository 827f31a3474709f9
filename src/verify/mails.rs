//! Verifying a folder of the mails one player received: every seal and part digest, every
//! lock, seed and roll, and the chain of reveals back to the anchor of the welcome mail.

use std::path::{Path, PathBuf};

use mail_parser::MessageParser;

use crate::dice::{self, Hash, Protocol};
use crate::report;

use super::SealedMail;
use super::dice_mail::{DiceMail, parse_dice};
use super::mime::{REWRAPPED, check_parts, mail_text, sealed_text};
use super::signed::{self, Facts};
use super::story;
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

/// What reading a folder gathers, mail by mail, before the mails are held against each other.
#[derive(Default)]
struct Folder {
    facts: Facts,
    keys: std::collections::BTreeMap<String, Hash>,
    out: Vec<Finding>,
    checked: Checked,
    /// (game, from step, anchor A) of each welcome or anchor mail.
    anchors: Vec<(String, u64, Hash)>,
    strict_anchors: Vec<(String, String, Hash)>,
    bound_games: std::collections::BTreeSet<String>,
    openings: Vec<super::strict::OpenedElement>,
    results: Vec<DiceMail>,
    sealed: Vec<SealedMail>,
}

/// A folder's mails checked, and the facts a seat's folder must share with the others'.
fn read_folder(
    dir: &Path,
    game: Option<&str>,
    registry: &Registry,
) -> (Checked, Vec<Finding>, Facts) {
    let mut f = Folder::default();
    for (file, bytes) in mails_in(dir) {
        f.read_mail(&file, &bytes, game);
    }
    // One game has one result per step and one head per log index, whoever it was mailed to:
    // two in one folder is equivocation (or a forged mail beside the genuine one).
    f.note_heads_and_results();
    let (signatures, found) = signed::check_signatures(&f.sealed, &f.keys);
    f.checked.signatures += signatures;
    f.out.extend(found);
    f.results.sort_by_key(|d| (d.game.clone(), d.step));
    f.results
        .dedup_by(|a, b| a.game == b.game && a.step == b.step && a.fact() == b.fact());
    let lock_inputs = f
        .results
        .iter()
        .map(|d| ((d.game.clone(), d.step), d.seats.clone()))
        .collect();
    let (opened, found) = super::receipts::check_receipts(&f.sealed, &lock_inputs);
    f.checked.digests += opened;
    f.out.extend(found);
    check_games(&f.sealed, &f.anchors, registry, &mut f.checked, &mut f.out);
    for i in 0..f.results.len() {
        f.check_step(i);
    }
    f.check_bound_reveals();
    (f.checked, f.out, f.facts)
}

impl Folder {
    /// One mail of the folder: its seal and parts, then what it says of its game.
    fn read_mail(&mut self, file: &str, bytes: &[u8], game: Option<&str>) {
        let text = mail_text(bytes).map(|(_, t)| t).unwrap_or_default();
        if !text.contains(report::DIGEST_PREFIX) {
            self.unsealed(file, bytes, &text);
            return; // not a sealed Despatch mail
        }
        if let Some(g) = game
            && !text.contains(&format!("game {g}"))
        {
            return;
        }
        self.checked.mails += 1;
        let text = match sealed_text(&text) {
            Ok(t) => t,
            Err(e) => {
                self.out
                    .push(finding(format!("mail {file}"), "Mail-Digest", e));
                return;
            }
        };
        if let Err((field, why)) = check_parts(bytes, &text) {
            self.out.push(finding(format!("mail {file}"), field, why));
            return;
        }
        // Everything below reads the lines as they were before folding (one value a line).
        let text = report::unfold(&text);
        let game_of_mail = text
            .lines()
            .find_map(|l| l.strip_prefix("Despatch · game "))
            .and_then(|rest| rest.split_whitespace().next())
            .map(str::to_string);
        match sealed_mail(file, bytes, &text) {
            Some(m) => self.sealed.push(m),
            None => self.out.push(finding(
                format!("mail {file}"),
                "footer",
                "a sealed mail without its log head line",
            )),
        }
        if let (Some(k), Some(g)) = (signed::key_in(&text), &game_of_mail) {
            self.out.extend(
                self.facts
                    .note(g, "mail key K".into(), dice::to_hex(&k), file),
            );
            self.keys.entry(g.clone()).or_insert(k);
        }
        if let Some(g) = &game_of_mail {
            self.note_anchor(g, file, &text);
            self.note_strict(g, file, &text);
        }
        match parse_dice(file, &text) {
            Ok(Some(d)) => self.results.push(d),
            Ok(None) => {}
            Err(e) => self.out.push(e),
        }
    }

    /// A mail without a readable seal: a Despatch mail whose seal was broken is a finding,
    /// any other mail is none of verify's business.
    fn unsealed(&mut self, file: &str, bytes: &[u8], text: &str) {
        let flagged = bytes
            .windows(22)
            .any(|w| w == b"\nX-Despatch-Seal: yes\r" || w == b"\nX-Despatch-Seal: yes\n");
        // A client that broke the digest line itself leaves "Mail-Digest" without its
        // prefix whole: a sealed mail, re-wrapped, not a mail without dice.
        let broken_seal = text.lines().any(|l| {
            l.trim_start_matches(['>', ' '])
                .starts_with(report::DIGEST_PREFIX.split(' ').next().unwrap_or("-"))
        });
        if broken_seal {
            self.checked.mails += 1;
            self.out
                .push(finding(format!("mail {file}"), "Mail-Digest", REWRAPPED));
        } else if flagged {
            self.checked.mails += 1;
            self.out.push(finding(
                format!("mail {file}"),
                "Mail-Digest",
                "a sealed Despatch mail whose seal cannot be read",
            ));
        }
    }

    /// `Anchor A = <hex> (from step k)` of a welcome or anchor mail.
    fn note_anchor(&mut self, g: &str, file: &str, text: &str) {
        let Some(i) = text.find("Anchor A = ") else {
            return;
        };
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
            self.out.extend(self.facts.note(
                g,
                format!("anchor from step {from}"),
                hex.clone(),
                file,
            ));
            self.anchors.push((g.to_string(), from, a));
        }
    }

    /// A strict game's anchors, openings and locks.
    fn note_strict(&mut self, g: &str, file: &str, text: &str) {
        self.strict_anchors
            .extend(super::strict::anchors_in(g, text));
        if text.contains(super::strict::BOUND_MARK) {
            self.bound_games.insert(g.to_string());
        }
        for o in super::strict::openings_in(g, file, text) {
            self.out.extend(self.facts.note(
                g,
                format!("opening of {} reveal {}", o.seat, o.index),
                dice::to_hex(&o.element),
                file,
            ));
            self.openings.push(o);
        }
        // A strict lock mail's L_k is the game's word for the step's lock: a second,
        // different one (a lock shown early to learn a reveal, then another) is equivocation.
        if let Some(ask) = crate::mail::compose::read_lock_mail(text) {
            self.out.extend(self.facts.note(
                g,
                format!("lock of step {}", ask.step),
                dice::to_hex(&ask.lock),
                file,
            ));
        }
    }

    fn note_heads_and_results(&mut self) {
        for m in &self.sealed {
            self.out.extend(self.facts.note(
                &m.game,
                signed::head_fact(m.head_index),
                m.head.clone(),
                &m.file,
            ));
        }
        for d in &self.results {
            self.out.extend(self.facts.note(
                &d.game,
                format!("step {}", d.step),
                d.fact(),
                &d.file,
            ));
            self.out.extend(self.facts.note(
                &d.game,
                format!("lock of step {}", d.step),
                dice::to_hex(&d.lock),
                &d.file,
            ));
            if let Some(i) = d.log_head_index {
                self.out.extend(self.facts.note(
                    &d.game,
                    signed::head_fact(i),
                    dice::to_hex(&d.log_head),
                    &d.file,
                ));
            }
        }
    }

    /// The i-th results mail (sorted by game and step): its own dice, its strict reveals
    /// against the earlier steps', and v_k back to the previous reveal or to the anchor.
    fn check_step(&mut self, i: usize) {
        let d = &self.results[i];
        self.out.extend(d.check_own());
        let place = d.place();
        let earlier: Vec<(u64, &super::strict::StrictLines)> = self
            .results
            .iter()
            .filter(|p| p.game == d.game && p.step < d.step)
            .map(|p| (p.step, p.strict.as_slice()))
            .collect();
        if !self.bound_games.contains(&d.game) {
            self.out.extend(super::strict::check_reveals(
                &place,
                d.protocol,
                &d.game,
                d.step,
                &d.strict,
                &earlier,
                &self.strict_anchors,
            ));
        }
        self.out.extend(d.check_rolls());
        self.checked.rolls += d.rolls.len() as u64;
        self.checked.steps += 1;
        // v_k hashes back to the previous reveal of the same onion, or to that onion's anchor.
        let Some((_, from, anchor)) = self
            .anchors
            .iter()
            .filter(|(g, f, _)| *g == d.game && *f <= d.step)
            .max_by_key(|(_, f, _)| *f)
        else {
            if !self
                .out
                .iter()
                .any(|f| f.field == "anchor" && f.place == format!("game {}", d.game))
            {
                self.out.push(finding(
                    format!("game {}", d.game),
                    "anchor",
                    "no welcome or anchor mail in the folder: the reveals cannot be checked against the commitment",
                ));
            }
            return;
        };
        let prev = self
            .results
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
        self.out.extend(d.check_reveal(hashes, &target, &what));
    }

    /// Bound strict reveals (S11): checked against the seats' openings, once they are mailed.
    fn check_bound_reveals(&mut self) {
        let steps: Vec<super::strict::StepReveals> = self
            .results
            .iter()
            .map(|d| super::strict::StepReveals {
                game: &d.game,
                step: d.step,
                lock: d.lock,
                strict: &d.strict,
            })
            .collect();
        let proto_of = |g: &str| {
            self.results
                .iter()
                .find(|d| d.game == g)
                .map_or(Protocol::V2, |d| d.protocol)
        };
        let (bound, unopened, found) = super::strict::check_openings(
            &proto_of,
            &self.bound_games,
            &self.openings,
            &steps,
            &self.strict_anchors,
        );
        self.checked.bound_reveals += bound;
        self.checked.unopened = unopened;
        self.out.extend(found);
    }
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
