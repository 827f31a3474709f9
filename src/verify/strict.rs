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
