//! Strict dice in a folder of mails: the strict seats' anchors from the anchors mail sent at
//! game start, and each `r_seat_k` of a results mail hashed back to that seat's previous
//! reveal or to its anchor (a verify failure names the step and the seat), for onions indexed
//! by step (older games) and by reveal count alike.

use crate::dice::{self, Hash, Protocol};

use super::{Finding, finding};

/// Each strict seat's `r` as a results mail prints it (`None` for `-`).
pub(super) type StrictLines = [(String, Option<Hash>)];

/// `(game, seat, anchor)` for every `Strict anchor <seat> = <hex>` line of a mail's text.
pub(super) fn anchors_in(game: &str, text: &str) -> Vec<(String, String, Hash)> {
    text.lines()
        .filter_map(|l| {
            let rest = l.trim().strip_prefix("Strict anchor ")?;
            let (seat, v) = rest.split_once(" = ")?;
            let hex: String = v.trim().chars().take(64).collect();
            Some((
                game.to_string(),
                seat.trim().to_string(),
                dice::from_hex(&hex)?,
            ))
        })
        .collect()
}

/// Checks step `k`'s strict reveals against the seats' earlier reveals (`earlier`: the
/// strict lines of the game's results mails before `k`) and their anchors.
pub(super) fn check_reveals(
    place: &str,
    proto: Protocol,
    game: &str,
    k: u64,
    strict: &StrictLines,
    earlier: &[(u64, &StrictLines)],
    anchors: &[(String, String, Hash)],
) -> Vec<Finding> {
    let mut out = Vec::new();
    for (seat, r) in strict {
        let Some(r) = r else { continue };
        let prev = earlier
            .iter()
            .filter_map(|(j, list)| {
                list.iter()
                    .find(|(s, _)| s == seat)
                    .and_then(|(_, x)| x.map(|x| (*j, x)))
            })
            .max_by_key(|(j, _)| *j);
        let (known, gap, what) = match prev {
            Some((j, x)) => (x, k - j, format!("{seat}'s r of step {j}")),
            None => match anchors.iter().find(|(g, s, _)| g == game && s == seat) {
                Some((_, _, a)) => (*a, k, format!("{seat}'s strict anchor")),
                None => {
                    out.push(finding(
                        place,
                        format!("strict r {seat}"),
                        "no strict anchors mail in the folder: the reveal cannot be checked",
                    ));
                    continue;
                }
            },
        };
        // Within `gap` hashes, not exactly `gap`: games indexed by reveal count (ruling S8)
        // step once per reveal, older games once per step, and a seat reveals at most once a
        // step. Linear: one walk of at most `gap` hashes.
        if !hashes_back_within(proto, game, seat, &known, gap, r) {
            out.push(finding(
                place,
                format!("strict r {seat}"),
                format!("r_{seat}_{k} does not hash back to {what}"),
            ));
        }
    }
    out
}

/// Whether `r` hashes to `known` in 1 to `gap` steps of `seat`'s onion.
fn hashes_back_within(
    proto: Protocol,
    game: &str,
    seat: &str,
    known: &Hash,
    gap: u64,
    r: &Hash,
) -> bool {
    let mut c = *r;
    for _ in 0..gap {
        c = dice::onion_step(proto, game, seat, &c);
        if &c == known {
            return true;
        }
    }
    false
}

/// The mark of a game whose strict reveals are bound to their lock (the first line of the
/// anchors mail's words on them): its `strict r` values are not onion elements, so they are
/// checked against the seats' openings, not hashed back to an anchor (ruling S11).
pub(super) const BOUND_MARK: &str = "Strict reveals are bound to their lock";

/// One opened element, from a `strict open <seat> reveal <j> step <k> = <e_j>` line.
pub(super) struct OpenedElement {
    pub game: String,
    pub seat: String,
    pub index: u64,
    pub step: u64,
    pub element: Hash,
    pub file: String,
}

pub(super) fn openings_in(game: &str, file: &str, text: &str) -> Vec<OpenedElement> {
    text.lines()
        .filter_map(|l| {
            let rest = l.trim().strip_prefix("strict open ")?;
            let (left, hex) = rest.split_once(" = ")?;
            let mut w = left.split_whitespace();
            let seat = w.next()?.to_string();
            let (Some("reveal"), Some(j), Some("step"), Some(k), None) =
                (w.next(), w.next(), w.next(), w.next(), w.next())
            else {
                return None;
            };
            Some(OpenedElement {
                game: game.to_string(),
                seat,
                index: j.parse().ok()?,
                step: k.parse().ok()?,
                element: dice::from_hex(hex.trim())?,
                file: file.to_string(),
            })
        })
        .collect()
}

/// A results mail's part in the check of an opening: its step, `L_k` and strict lines.
pub(super) struct StepReveals<'a> {
    pub game: &'a str,
    pub step: u64,
    pub lock: Hash,
    pub strict: &'a StrictLines,
}

/// Checks each seat's opened elements (ruling S11): `e_1` hashes once to the seat's anchor and
/// each `e_j` once to `e_{j-1}`, and every results mail of the folder whose step one of them
/// served shows `strict r <seat> = bound_reveal(e_j, L_k)`. A bound game's results mail with a
/// reveal for a step the opening does not list is a finding too. Returns the reveals checked,
/// the seats whose reveals are in the folder with no opening, and the findings.
pub(super) fn check_openings(
    proto_of: &dyn Fn(&str) -> Protocol,
    bound_games: &std::collections::BTreeSet<String>,
    opened: &[OpenedElement],
    steps: &[StepReveals],
    anchors: &[(String, String, Hash)],
) -> (u64, Vec<String>, Vec<Finding>) {
    let mut out = Vec::new();
    let mut checked = 0;
    let mut unopened = Vec::new();
    let mut seats: Vec<(&str, &str)> = opened
        .iter()
        .map(|o| (o.game.as_str(), o.seat.as_str()))
        .collect();
    seats.sort();
    seats.dedup();
    for (game, seat) in &seats {
        let proto = proto_of(game);
        let mut list: Vec<&OpenedElement> = opened
            .iter()
            .filter(|o| o.game == *game && o.seat == *seat)
            .collect();
        list.sort_by_key(|o| o.index);
        list.dedup_by(|a, b| a.index == b.index && a.element == b.element);
        let Some((_, _, anchor)) = anchors.iter().find(|(g, s, _)| g == game && s == seat) else {
            out.push(finding(
                format!("game {game}"),
                format!("strict open {seat}"),
                "no strict anchors mail in the folder: the opening cannot be checked",
            ));
            continue;
        };
        checked += one_opening(proto, game, seat, &list, anchor, steps, &mut out);
    }
    for s in steps.iter().filter(|s| bound_games.contains(s.game)) {
        for (seat, r) in s.strict {
            if r.is_none() {
                continue;
            }
            let has_opening = seats.iter().any(|(g, x)| *g == s.game && x == seat);
            if !has_opening {
                if !unopened.contains(seat) {
                    unopened.push(seat.clone());
                }
            } else if !opened
                .iter()
                .any(|o| o.game == s.game && &o.seat == seat && o.step == s.step)
            {
                out.push(finding(
                    format!("step {}", s.step),
                    format!("strict r {seat}"),
                    format!("{seat}'s opening lists no reveal for step {}", s.step),
                ));
            }
        }
    }
    (checked, unopened, out)
}

/// One seat's opened elements: numbered in a row, each hashing to the one before (the first
/// to the seat's strict anchor), and each bound reveal in a results mail of this folder the
/// one its element and the step's lock give. Returns how many bound reveals checked.
fn one_opening(
    proto: Protocol,
    game: &str,
    seat: &str,
    list: &[&OpenedElement],
    anchor: &Hash,
    steps: &[StepReveals],
    out: &mut Vec<Finding>,
) -> u64 {
    let mut checked = 0;
    let mut above = *anchor;
    for (n, o) in list.iter().enumerate() {
        let place = format!("mail {} (opening of {seat})", o.file);
        if o.index != n as u64 + 1 {
            out.push(finding(
                &place,
                format!("reveal {}", o.index),
                "the opening's elements are not numbered 1, 2, … in a row",
            ));
            break;
        }
        if dice::onion_step(proto, game, seat, &o.element) != above {
            out.push(finding(
                &place,
                format!("reveal {}", o.index),
                format!(
                    "e_{} does not hash to {}",
                    o.index,
                    if o.index == 1 {
                        format!("{seat}'s strict anchor")
                    } else {
                        format!("e_{}", o.index - 1)
                    }
                ),
            ));
            break;
        }
        above = o.element;
        let Some(s) = steps.iter().find(|s| s.game == game && s.step == o.step) else {
            continue; // that step's results are not in this folder
        };
        let r = s
            .strict
            .iter()
            .find(|(x, _)| x == seat)
            .and_then(|(_, r)| *r);
        let want = dice::bound_reveal(proto, game, seat, o.index, &o.element, &s.lock);
        if r != Some(want) {
            out.push(finding(
                format!("step {}", o.step),
                format!("strict r {seat}"),
                format!(
                    "is not H(strict-bind, …) of {seat}'s opened e_{} and L_{}: the seed took \
                     a value {seat}'s onion did not give",
                    o.index, o.step
                ),
            ));
        } else {
            checked += 1;
        }
    }
    checked
}
