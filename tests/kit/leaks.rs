//! The leak test: at every step of random play, no seat's view (log, board, sections, data, map
//! scene) and no mail it received may show a hidden fact it may not know; a spectator sees none.
//! A fact shows when one line carries all of its parts. Positive control: the owner's own view
//! shows every hidden fact met, so each needle is a string the output really writes, and at
//! least one hidden fact must be met at all — otherwise the test could not fail.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use despatch::engine::{Game, Ruleset, View, Viewer};
use mail_parser::MessageParser;

use super::Subject;

/// A hidden fact: a line showing all of `parts` reveals it; only `owner` may see it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Secret {
    pub parts: Vec<String>,
    pub owner: String,
}

impl Secret {
    pub fn new(owner: &str, parts: &[&str]) -> Self {
        Secret {
            parts: parts.iter().map(|p| p.to_string()).collect(),
            owner: owner.to_string(),
        }
    }

    fn shows_in(&self, lines: &[String]) -> Option<String> {
        lines
            .iter()
            .find(|l| self.parts.iter().all(|p| l.contains(p.as_str())))
            .cloned()
    }
}

/// What the leak test has seen over a run.
#[derive(Default)]
pub struct Watch {
    met: BTreeSet<Secret>,
    owner_saw: BTreeSet<Secret>,
    mails_read: BTreeSet<PathBuf>,
    mails_checked: u64,
}

/// Every line a viewer's outputs carry: the View's text, its data, and the map, one scene item
/// (unit, zone, arrow, terrain) a line, as JSON.
pub fn view_lines(v: &View) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    out.push(v.scenario.clone());
    out.push(v.turn.clone());
    out.extend(v.log.iter().cloned());
    out.extend(v.board.iter().cloned());
    for (title, lines) in &v.sections {
        out.push(title.clone());
        out.extend(lines.iter().cloned());
    }
    out.push(v.data.to_string());
    if let Some(scene) = &v.map {
        let json = serde_json::to_value(scene).expect("scenes serialise");
        if let Some(obj) = json.as_object() {
            for (key, value) in obj {
                match value.as_array() {
                    Some(items) => out.extend(items.iter().map(|i| format!("{key}: {i}"))),
                    None => out.push(format!("{key}: {value}")),
                }
            }
        }
    }
    out
}

impl Watch {
    /// Checks every seat's view of `g`, and the mails delivered since the last look.
    pub fn look<R: Ruleset>(&mut self, s: &Subject<R>, g: &Game<R>, outbox: &Path) {
        let secrets = (s.secrets)(&g.state);
        let mut viewers: Vec<(Viewer, String)> = s
            .seats
            .iter()
            .map(|(seat, _)| (Viewer::Seat(seat.to_string()), seat.to_string()))
            .collect();
        viewers.push((Viewer::Spectator, "a spectator".into()));
        for (viewer, who) in &viewers {
            let lines = view_lines(&R::view(&g.state, viewer));
            for secret in &secrets {
                self.met.insert(secret.clone());
                let shown = secret.shows_in(&lines);
                if &secret.owner == who {
                    if shown.is_some() {
                        self.owner_saw.insert(secret.clone());
                    }
                } else if let Some(line) = shown {
                    panic!(
                        "{}: {who}'s view at step {} shows {:?}, which only {} may know:\n{line}",
                        R::NAME,
                        g.step,
                        secret.parts,
                        secret.owner
                    );
                }
            }
        }
        self.check_mails::<R>(s, &secrets, outbox, g.step);
    }

    fn check_mails<R: Ruleset>(
        &mut self,
        s: &Subject<R>,
        secrets: &[Secret],
        outbox: &Path,
        step: u64,
    ) {
        let mut files: Vec<PathBuf> = ["new", "cur"]
            .iter()
            .filter_map(|d| std::fs::read_dir(outbox.join(d)).ok())
            .flat_map(|rd| rd.filter_map(|e| e.ok()).map(|e| e.path()))
            .filter(|p| !self.mails_read.contains(p))
            .collect();
        files.sort();
        for p in files {
            self.mails_read.insert(p.clone());
            let bytes = std::fs::read(&p).unwrap();
            let m = MessageParser::default()
                .parse(&bytes)
                .expect("our own mails parse");
            let to = m
                .to()
                .and_then(|a| a.first())
                .and_then(|a| a.address())
                .unwrap_or_default()
                .to_ascii_lowercase();
            let Some((seat, _)) = s.seats.iter().find(|(_, a)| a.eq_ignore_ascii_case(&to)) else {
                continue;
            };
            let mut lines: Vec<String> = Vec::new();
            for i in 0.. {
                let Some(t) = m.body_text(i) else { break };
                lines.extend(t.lines().map(str::to_string));
            }
            for i in 0.. {
                let Some(h) = m.body_html(i) else { break };
                // One element's text a line: a list written on one line is still items.
                lines.extend(h.replace('<', "\n<").lines().map(str::to_string));
            }
            self.mails_checked += 1;
            for secret in secrets.iter().filter(|x| x.owner != *seat) {
                if let Some(line) = secret.shows_in(&lines) {
                    panic!(
                        "{}: a mail to {seat} ({}) at step {step} shows {:?}, which only {} may know:\n{line}",
                        R::NAME,
                        p.display(),
                        secret.parts,
                        secret.owner
                    );
                }
            }
        }
    }

    /// The positive control: hidden facts were met, and each showed in its owner's own view.
    pub fn finish<R: Ruleset>(&self) {
        assert!(
            !self.met.is_empty(),
            "{}: random play met no hidden fact, so this leak test could not fail",
            R::NAME
        );
        let unseen: Vec<&Secret> = self.met.difference(&self.owner_saw).collect();
        assert!(
            unseen.is_empty(),
            "{}: these hidden facts never showed in their owner's view, so looking for them \
             elsewhere proves nothing: {unseen:?}",
            R::NAME
        );
        assert!(self.mails_checked > 0, "{}: no mail was checked", R::NAME);
    }
}
