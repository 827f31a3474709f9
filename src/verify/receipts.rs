//! The receipts a player's mails show, checked during a game: every receipt opens its own
//! digest with its salt, and that digest is the one the step's lock took. Reads values only.

use std::collections::BTreeMap;

use crate::dice::{self, Hash, Protocol};

use super::{Finding, SealedMail, finding};

/// One receipt as the mail prints it.
pub(super) struct Receipt {
    seat: String,
    step: u64,
    /// The canonical orders' lines as printed (one order per line).
    pub orders: Vec<String>,
    pub digest: String,
    salt: Option<String>,
}

pub(super) fn parse_receipt(text: &str) -> Option<Receipt> {
    parse_headed(text, "Orders received for ")
}

/// A receipt whose first line starts `head` (`Orders received for `, or for standing orders
/// sent outside a step `Standing orders received for `), then `<seat>, step <k>`.
pub(super) fn parse_headed(text: &str, head: &str) -> Option<Receipt> {
    let first = text.lines().find(|l| l.starts_with(head))?;
    let rest = first.strip_prefix(head)?;
    let (seat, rest) = rest.split_once(", step ")?;
    let step = rest
        .split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()?;
    let mut orders = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        if line.starts_with("This is what Despatch understood") {
            inside = true;
            continue;
        }
        if inside {
            match line.strip_prefix("    ") {
                Some("(no orders)") => {}
                Some(order) => orders.push(order.to_string()),
                None => break,
            }
        }
    }
    let value = |prefix: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(prefix))
            .map(|v| v.trim().to_string())
    };
    Some(Receipt {
        seat: seat.to_string(),
        step,
        orders,
        digest: value("Digest D = ")?,
        salt: value("Your salt = "),
    })
}

/// What each step's lock took, by (game, step): every seat's digest (None for no orders).
pub(super) type LockInputs = BTreeMap<(String, u64), Vec<(String, Option<Hash>)>>;

/// During a game: each v2 receipt opens its own digest with the salt it carries, and the last
/// receipt of a step is the digest the step's lock took for that seat (`lock inputs`:
/// step → seat → digest, from the results mails).
pub(super) fn check_receipts(
    mails: &[SealedMail],
    lock_inputs: &LockInputs,
) -> (u64, Vec<Finding>) {
    let mut out = Vec::new();
    let mut opened = 0;
    // (game, step, seat) → the newest receipt's digest, by log index.
    let mut last: BTreeMap<(String, u64, String), (u64, String, String)> = BTreeMap::new();
    for m in mails {
        let Some(r) = parse_receipt(&m.text) else {
            continue;
        };
        let place = format!("mail {} (receipt, step {})", m.file, r.step);
        if let Some(salt) = r.salt.as_deref() {
            let Some(salt) = dice::from_hex(salt) else {
                out.push(finding(&place, "salt", "not 32 bytes of hex"));
                continue;
            };
            // Canonical orders end each line with a newline; the receipt prints the lines.
            let canonical: String = r.orders.iter().map(|l| format!("{l}\n")).collect();
            let opens = |c: &str| {
                dice::to_hex(&dice::orders_digest(
                    Protocol::V2,
                    &m.game,
                    r.step,
                    &r.seat,
                    &salt,
                    c,
                )) == r.digest
            };
            if !opens(&canonical) && !opens(canonical.trim_end_matches('\n')) {
                out.push(finding(
                    &place,
                    "Digest D",
                    "the orders and salt printed in the receipt do not hash to its digest",
                ));
                continue;
            }
            opened += 1;
        }
        let key = (m.game.clone(), r.step, r.seat.clone());
        if last.get(&key).is_none_or(|(i, _, _)| *i < m.head_index) {
            last.insert(key, (m.head_index, r.digest.clone(), m.file.clone()));
        }
    }
    for ((game, step, seat), (_, digest, file)) in &last {
        let Some(inputs) = lock_inputs.get(&(game.clone(), *step)) else {
            continue; // the step has not locked yet, or its results mail is not in the folder
        };
        let locked = inputs
            .iter()
            .find(|(s, _)| s == seat)
            .and_then(|(_, d)| d.map(|d| dice::to_hex(&d)));
        if locked.as_deref() != Some(digest.as_str()) {
            out.push(finding(
                format!("mail {file} (receipt, step {step})"),
                format!("lock input {seat}"),
                "the step locked another digest for this seat than its last receipt",
            ));
        }
    }
    (opened, out)
}
