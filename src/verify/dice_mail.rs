//! One results mail's dice section read back (`DICE (despatch-dice/v2, game G, step k)`: the
//! lock, the reveal, the seed, the lock inputs, the strict seats' reveals and the roll table)
//! and checked on its own: L_k from its inputs, S_k from L_k and the reveals, each roll from
//! S_k, and v_k back along the host's onion. Holding mails against each other is `mails.rs`'s.

use crate::dice::{self, Faces, Hash, Protocol, Roll};

use super::{Finding, finding};

/// One results mail's dice section.
#[derive(Debug, Clone)]
pub(super) struct DiceMail {
    pub file: String,
    pub protocol: Protocol,
    pub game: String,
    pub step: u64,
    pub lock: Hash,
    pub reveal: Hash,
    pub seed: Hash,
    pub log_head: Hash,
    /// `log head before the lock = #i` (mails since locks kept it).
    pub log_head_index: Option<u64>,
    pub seats: Vec<(String, Option<Hash>)>,
    /// Strict games: each strict seat's `r_seat_k` (`None` printed as `-`).
    pub strict: Vec<(String, Option<Hash>)>,
    pub rolls: Vec<Roll>,
}

impl DiceMail {
    /// The whole dice section as one value: every seat's mail of a step shows the same.
    pub fn fact(&self) -> String {
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

    /// Where a finding about this mail's step is.
    pub fn place(&self) -> String {
        format!("mail {} (step {})", self.file, self.step)
    }

    /// The lock from its inputs, the seed from the lock and the reveals, and each roll from
    /// the seed: what one mail shows of its own step, without the other mails.
    pub fn check_own(&self) -> Vec<Finding> {
        let mut out = Vec::new();
        let place = self.place();
        let step = self.step;
        let lock = dice::lock(self.protocol, &self.game, step, &self.log_head, &self.seats);
        if lock != self.lock {
            out.push(finding(
                &place,
                format!("L_{step}"),
                "does not match the lock inputs",
            ));
        }
        // Strict games list every strict seat's r (m of them); default games none (m = 0).
        let s = dice::seed_strict(self.protocol, &self.lock, &self.reveal, &self.strict);
        if s != self.seed {
            out.push(finding(
                &place,
                format!("S_{step}"),
                if self.strict.is_empty() {
                    "is not H(L_k, v_k)"
                } else {
                    "is not H(L_k, v_k, the strict seats' r)"
                },
            ));
        }
        out
    }

    /// The roll table re-derived from S_k.
    pub fn check_rolls(&self) -> Option<Finding> {
        let (j, why) = dice::check_table(&self.seed, &self.rolls).err()?;
        Some(finding(self.place(), format!("rolls[{j}]"), why))
    }

    /// v_k hashed back `hashes` times along the host's onion must give `target` (`what`
    /// names it: the previous reveal or the anchor).
    pub fn check_reveal(&self, hashes: u64, target: &Hash, what: &str) -> Option<Finding> {
        let mut v = self.reveal;
        for _ in 0..hashes {
            v = dice::onion_step(self.protocol, &self.game, "host", &v);
        }
        (v != *target).then(|| {
            finding(
                self.place(),
                format!("v_{}", self.step),
                format!("does not hash back to {what}"),
            )
        })
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

/// The heading's protocol, game and step: `DICE (despatch-dice/v2, game <id>, step <k>)`.
fn heading<'a>(file: &str, first: &'a str) -> Result<(Protocol, &'a str, u64), Finding> {
    let place = format!("mail {file} (step 0)");
    let (protocol, rest) = first
        .trim_start_matches("DICE (")
        .trim_end_matches(')')
        .split_once(", game ")
        .ok_or_else(|| finding(&place, "DICE", "unreadable heading"))?;
    let protocol = Protocol::parse(protocol)
        .ok_or_else(|| finding(&place, "DICE", format!("unknown protocol {protocol}")))?;
    let (game, step) = rest
        .split_once(", step ")
        .ok_or_else(|| finding(&place, "DICE", "unreadable heading"))?;
    let step: u64 = step
        .trim()
        .parse()
        .map_err(|_| finding(&place, "DICE", "unreadable step"))?;
    Ok((protocol, game, step))
}

/// The section's values as they are read, line by line.
#[derive(Default)]
struct Read {
    lock: Option<Hash>,
    reveal: Option<Hash>,
    seed: Option<Hash>,
    log_head: Option<Hash>,
    log_head_index: Option<u64>,
    seats: Vec<(String, Option<Hash>)>,
    strict: Vec<(String, Option<Hash>)>,
    rolls: Vec<Roll>,
}

impl Read {
    /// One `key = value` line of the section.
    fn value(&mut self, place: &str, step: u64, k: &str, v: &str) -> Result<(), Finding> {
        let hexval = |field: &str, v: &str| -> Result<Hash, Finding> {
            dice::from_hex(v).ok_or_else(|| finding(place, field, "not 32 bytes of hex"))
        };
        // `-` where a seat sent nothing (a lock input) or revealed nothing (strict r).
        let maybe = |field: &str, v: &str| match v {
            "-" => Ok(None),
            _ => hexval(field, v).map(Some),
        };
        match k {
            k if k == format!("L_{step}") => self.lock = Some(hexval(k, v)?),
            k if k == format!("v_{step}") => self.reveal = Some(hexval(k, v)?),
            k if k == format!("S_{step}") => self.seed = Some(hexval(k, v)?),
            "lock input log_head" => self.log_head = Some(hexval("lock input log_head", v)?),
            "log head before the lock" => {
                self.log_head_index = Some(
                    v.trim_start_matches('#')
                        .parse()
                        .map_err(|_| finding(place, "log head before the lock", "not #<index>"))?,
                )
            }
            k if k.starts_with("strict r ") => {
                let seat = k.trim_start_matches("strict r ").to_string();
                let r = maybe(&format!("strict r {seat}"), v)?;
                self.strict.push((seat, r));
            }
            k if k.starts_with("lock input ") => {
                let seat = k.trim_start_matches("lock input ").to_string();
                let d = maybe(&format!("lock input {seat}"), v)?;
                self.seats.push((seat, d));
            }
            _ => {}
        }
        Ok(())
    }

    /// One row of the roll table, `j | die | results | label`; other lines are not rows.
    fn roll(&mut self, place: &str, line: &str) -> Result<(), Finding> {
        let cols: Vec<&str> = line.split(" | ").collect();
        if cols.len() == 4
            && let Ok(j) = cols[0].trim().parse::<u64>()
        {
            let faces = parse_faces(cols[1])
                .ok_or_else(|| finding(place, format!("rolls[{j}].die"), "unreadable die"))?;
            let results: Option<Vec<u32>> =
                cols[2].split(',').map(|x| x.trim().parse().ok()).collect();
            let results = results
                .ok_or_else(|| finding(place, format!("rolls[{j}].results"), "unreadable"))?;
            self.rolls.push(Roll {
                j,
                label: cols[3].to_string(),
                faces,
                results,
            });
        }
        Ok(())
    }
}

/// The dice section of a mail's (sealed, unfolded) text, if it has one.
pub(super) fn parse_dice(file: &str, text: &str) -> Result<Option<DiceMail>, Finding> {
    // `DICE (despatch-dice/v2, game <id>, step <k>)`; v1 games print `despatch-dice/v1`.
    let Some(start) = text.find("DICE (despatch-dice/v") else {
        return Ok(None);
    };
    let head = &text[start..];
    let (protocol, game, step) = heading(file, head.lines().next().unwrap_or(""))?;
    let place = format!("mail {file} (step {step})");
    let mut read = Read::default();
    for line in head.lines().skip(1) {
        let line = line.trim_end();
        if line.starts_with("-- ") || line == "--" {
            break;
        }
        match line.split_once(" = ") {
            Some((k, v)) => read.value(&place, step, k.trim(), v.trim())?,
            None => read.roll(&place, line)?,
        }
    }
    let need = |x: Option<Hash>, f: &str| x.ok_or_else(|| finding(&place, f, "missing"));
    Ok(Some(DiceMail {
        file: file.to_string(),
        protocol,
        game: game.to_string(),
        step,
        lock: need(read.lock, &format!("L_{step}"))?,
        reveal: need(read.reveal, &format!("v_{step}"))?,
        seed: need(read.seed, &format!("S_{step}"))?,
        log_head: need(read.log_head, "lock input log_head")?,
        log_head_index: read.log_head_index,
        seats: read.seats,
        strict: read.strict,
        rolls: read.rolls,
    }))
}
