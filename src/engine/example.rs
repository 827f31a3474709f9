//! Examples a player can copy that hold in the game in hand (issue 30 point 5): the prompt's
//! one example order, and rejection hints that are themselves legal. Both come from the
//! ruleset's `sample_orders` for that seat at that moment, checked with its own `parse`, never
//! from a fixed text (a reference's `MOVE A1-1 0406 0407` was off the patrol map). Pure; it
//! changes no state and decides nothing about a mail.

use super::play::Play;
use super::ruleset::Rejected;

/// How many of the ruleset's sample choices are looked at for a prompt's example (it is made
/// for every mail that asks) and for a hint's (made only for a rejection).
const CHOICES: u64 = 3;
const HINT_CHOICES: u64 = 8;
/// The longest example a prompt or a hint shows, in lines.
const MOST_LINES: usize = 6;

/// The order lines of a sample: no blank line, comment or standing order (an example shows
/// what the step asks, not a setting).
fn order_lines<P: Play + ?Sized>(p: &P, sample: &str) -> Vec<String> {
    let standing = p.standing_keywords();
    sample
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter(|l| !standing.iter().any(|w| first_word(l) == *w))
        .map(String::from)
        .collect()
}

fn first_word(line: &str) -> String {
    line.split_whitespace()
        .next()
        .unwrap_or("")
        .trim_matches('`')
        .to_ascii_uppercase()
}

fn legal<P: Play + ?Sized>(p: &P, seat: &str, lines: &[String]) -> bool {
    p.parse_orders(seat, &lines.join("\n")).is_ok()
}

/// One legal example of the orders `seat` is asked for now, one order a line: the shortest
/// legal start of two lines or more of a sample where one has them (a header such as
/// `ACTIVATE 1PLT` alone shows little), else the first legal single line. `None` when no sample
/// holds an order, or the seat is asked nothing.
pub fn example_orders<P: Play + ?Sized>(p: &P, seat: &str) -> Option<String> {
    if !p.is_prompted(seat) || p.is_over() {
        return None;
    }
    let mut fallback = None;
    for choice in 0..CHOICES {
        let lines = order_lines(p, &p.sample_orders(seat, choice));
        let most = lines.len().min(MOST_LINES);
        for k in 1..=most {
            if !legal(p, seat, &lines[..k]) {
                continue;
            }
            if k >= 2 {
                return Some(lines[..k].join("\n"));
            }
            fallback.get_or_insert_with(|| lines[..k].join("\n"));
        }
    }
    fallback
}

/// A legal example whose last line is an order of `word` (`MOVE`), one about the piece the
/// refused line names (its second word) where a sample has one: that line alone, or the
/// shortest legal start of a sample ending with it. `None` when no sample gives one.
fn example_of<P: Play + ?Sized>(
    p: &P,
    seat: &str,
    word: &str,
    about: Option<&str>,
) -> Option<String> {
    let samples: Vec<Vec<String>> = (0..HINT_CHOICES)
        .map(|c| order_lines(p, &p.sample_orders(seat, c)))
        .collect();
    let names = |l: &str| about.is_none_or(|a| l.split_whitespace().any(|w| w == a));
    for strict in [true, false] {
        for lines in &samples {
            for (i, l) in lines.iter().enumerate() {
                if first_word(l) != word || (strict && !names(l)) {
                    continue;
                }
                if legal(p, seat, std::slice::from_ref(l)) {
                    return Some(l.clone());
                }
                if i < MOST_LINES && legal(p, seat, &lines[..=i]) {
                    return Some(lines[..=i].join("\n"));
                }
            }
        }
        if about.is_none() {
            break;
        }
    }
    None
}

/// The rejections of `seat`'s mail with every hint that is an order made legal (issue 30
/// point 5): a hint written as an order (its first word a keyword of the ruleset) that the game
/// in hand refuses is replaced by a legal example of the same order, or of any order; a bad
/// order line with no hint gets one. Hints in words ("did you mean A1-2?") stay as they are.
pub fn mend_hints<P: Play + ?Sized>(p: &P, seat: &str, rejected: Vec<Rejected>) -> Vec<Rejected> {
    let keywords = p.order_keywords();
    let is_order = |text: &str| {
        let w = first_word(text);
        !w.is_empty() && keywords.iter().any(|k| k.eq_ignore_ascii_case(&w))
    };
    let mut general: Option<Option<String>> = None;
    rejected
        .into_iter()
        .map(|mut r| {
            let wanted = match &r.hint {
                Some(h) if is_order(h) => {
                    if p.parse_orders(seat, h).is_ok() {
                        return r;
                    }
                    Some(first_word(h))
                }
                Some(_) => return r,
                None if r.line > 0 => is_order(&r.text).then(|| first_word(&r.text)),
                None => return r,
            };
            // The piece the refused line names, when it is the player's own line.
            let about = (r.line > 0)
                .then(|| r.text.split_whitespace().nth(1))
                .flatten();
            let example = wanted
                .and_then(|w| example_of(p, seat, &w, about))
                .or_else(|| {
                    general
                        .get_or_insert_with(|| example_orders(p, seat))
                        .clone()
                });
            // A hint the game refuses is worse than none.
            r.hint = example.map(|e| e.replace('\n', "\n          "));
            r
        })
        .collect()
}
