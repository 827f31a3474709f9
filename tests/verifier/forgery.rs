//! The forger of the attack run (issue 29, point 1), for the verifier tests: a results mail
//! whose dice are re-derived from another lock-input `log_head` — `L_k`, `S_k` and every row of
//! the dice table recomputed, so every dice check holds — and its seal recomputed. What it
//! cannot remake without the host's key is the signature: it keeps the old line, or signs with
//! a key it is handed (the host equivocating). Text in, text out; `demo_mails::forge` writes it.
#![allow(dead_code)]

use despatch::dice::{self, Faces, Hash, MailKey, Protocol};
use despatch::report;
use sha2::{Digest, Sha256};

fn faces(s: &str) -> Option<Faces> {
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

/// The dice section's values, read as a forger reads them.
struct Section {
    step: u64,
    game: String,
    log_head: Hash,
    reveal: Hash,
    seats: Vec<(String, Option<Hash>)>,
}

fn section(text: &str) -> Section {
    let at = text
        .find("DICE (despatch-dice/v2, game ")
        .expect("a v2 dice section");
    let head = text[at..].lines().next().unwrap();
    let (game, step) = head
        .trim_start_matches("DICE (despatch-dice/v2, game ")
        .trim_end_matches(')')
        .split_once(", step ")
        .unwrap();
    let step: u64 = step.parse().unwrap();
    let mut s = Section {
        step,
        game: game.to_string(),
        log_head: [0; 32],
        reveal: [0; 32],
        seats: Vec::new(),
    };
    for line in text[at..].lines() {
        let Some((k, v)) = line.split_once(" = ") else {
            continue;
        };
        if k == "lock input log_head" {
            s.log_head = dice::from_hex(v).unwrap();
        } else if let Some(seat) = k.strip_prefix("lock input ") {
            s.seats.push((seat.to_string(), dice::from_hex(v)));
        } else if k == format!("v_{step}") {
            s.reveal = dice::from_hex(v).unwrap();
        }
    }
    s
}

/// The results mail's text with its dice re-derived from the `attempt`-th other `log_head`
/// (and the seal recomputed, the old signature line kept where it was): every dice check of
/// the text alone holds. Returns the forged text and whether any die changed.
pub fn reroll(text: &str, attempt: u32) -> (String, bool) {
    let s = section(text);
    let fake: Hash = Sha256::digest(format!("forger {attempt}")).into();
    let lock = dice::lock(Protocol::V2, &s.game, s.step, &fake, &s.seats);
    let seed = dice::seed_strict(Protocol::V2, &lock, &s.reveal, &[]);
    let k = s.step;
    let mut changed = false;
    let mut out = Vec::new();
    let mut in_dice = false;
    for line in text.lines() {
        if line.starts_with("DICE (despatch-dice/") {
            in_dice = true;
        }
        if line.starts_with("-- ") {
            in_dice = false;
        }
        let new = if !in_dice {
            line.to_string()
        } else if line.starts_with(&format!("L_{k} = ")) {
            format!("L_{k} = {}", dice::to_hex(&lock))
        } else if line.starts_with(&format!("S_{k} = ")) {
            format!("S_{k} = {}", dice::to_hex(&seed))
        } else if line.starts_with("lock input log_head = ") {
            format!("lock input log_head = {}", dice::to_hex(&fake))
        } else {
            let cols: Vec<&str> = line.split(" | ").collect();
            match (
                cols.len(),
                cols.first().and_then(|j| j.trim().parse::<u64>().ok()),
            ) {
                (4, Some(j)) => {
                    let f = faces(cols[1]).unwrap();
                    let n = cols[2].split(',').count();
                    let results = dice::roll_stream(&seed, j, &f, n);
                    let joined: Vec<String> = results.iter().map(u32::to_string).collect();
                    let joined = joined.join(",");
                    changed |= joined != cols[2].replace(' ', "");
                    format!("{} | {} | {} | {}", cols[0], cols[1], joined, cols[3])
                }
                _ => line.to_string(),
            }
        };
        out.push(new);
    }
    (reseal(&out.join("\n")), changed)
}

/// The text with its Mail-Digest recomputed over what stands above it; whatever followed the
/// digest line (a signature) is kept as it was.
/// The text is read unfolded and written folded, as Despatch lays it out (docs/dice-protocol.md,
/// "Lines of 72 columns"), so the forgery keeps the layout of a genuine mail.
pub fn reseal(text: &str) -> String {
    let text = report::unfold(text);
    let at = text.rfind(report::DIGEST_PREFIX).unwrap();
    let body = report::fold_text(&text[..at]);
    let after: Vec<&str> = text[at..].lines().skip(1).collect();
    let mut sealed = format!(
        "{body}{}{}\n",
        report::DIGEST_PREFIX,
        report::body_digest(&body)
    );
    for l in after {
        sealed.push_str(l);
        sealed.push('\n');
    }
    report::fold_text(&sealed)
}

/// The text signed anew with `key` (the host's own, in a test of a host who equivocates):
/// the old signature line dropped, the new one after the digest.
pub fn resign(text: &str, game: &str, key: &MailKey) -> String {
    report::sign_seal(&unsigned(text), game, key)
}

/// The game's mail key as the host keeps it (`host.secret` of a game store).
pub fn host_mail_key(store: &std::path::Path) -> MailKey {
    let text = std::fs::read_to_string(store.join("host.secret")).unwrap();
    let hex = text
        .lines()
        .find_map(|l| l.strip_prefix("mail_key = "))
        .expect("a game made since mails are signed")
        .trim_matches('"');
    MailKey(dice::from_hex(hex).unwrap())
}

/// The attack run's forgery of `folder`: the first results mail whose dice a reroll changes,
/// as (step, file, forged text with the old signature line kept). The file is not written.
pub fn rerolled_results(folder: &std::path::Path) -> (u64, std::path::PathBuf, String) {
    for (step, file, text) in crate::demo_mails::results_mails(folder) {
        for attempt in 0..20 {
            let (forged, changed) = reroll(&text, attempt);
            if changed {
                return (step, file, forged);
            }
        }
    }
    panic!("no results mail whose dice a forger could change");
}

/// The text without its `Mail-Signature` line (a forger who strips what he cannot remake).
pub fn unsigned(text: &str) -> String {
    let text = report::unfold(text);
    let kept: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with(dice::SIGNATURE_PREFIX))
        .collect();
    report::fold_text(&(kept.join("\n") + "\n"))
}

/// Copies every file of `from` into a new folder `to` (a seat's folder, to change one mail).
pub fn copy_folder(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
}
