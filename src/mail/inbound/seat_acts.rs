//! The words of a seat's acts on the game itself (issue 16 points 3 and 4): `ABSENT …`,
//! `CONCEDE <game>`, `RESIGN <game>`, `PROPOSE DRAW <game>`, `ACCEPT DRAW <game>`,
//! `DECLINE DRAW`. Parses one line; whether the seat may do it is the engine's decision.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

/// A seat's act, as written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum SeatAct {
    /// `ABSENT` alone: the seat's absences and the days left this year.
    AbsentShow,
    /// `ABSENT CANCEL`: withdraw the absences not yet begun.
    AbsentCancel,
    /// `ABSENT <first> TO <last>` (or one day: `ABSENT <day>`), dates in the seat's zone.
    Absent { first: NaiveDate, last: NaiveDate },
    /// `CONCEDE <game id>`; the word after it confirms (ruling C2), empty when missing.
    Concede { confirm: String },
    /// `RESIGN <game id>`.
    Resign { confirm: String },
    /// `PROPOSE DRAW <game id>` or `ACCEPT DRAW <game id>`: one secret vote (ruling D1).
    DrawVote { confirm: String },
    /// `DECLINE DRAW` or `CANCEL DRAW`: the seat's own vote is taken back. (`WITHDRAW DRAW`
    /// was retired: WITHDRAW is an order word; see `command::retired_form`.)
    DrawWithdraw,
    /// One of these words with what it cannot take: answered with the line, why and how.
    Bad {
        text: String,
        reason: String,
        hint: String,
    },
}

const ABSENT_USAGE: &str = "write ABSENT 2026-12-20 TO 2027-01-03 (first and last day away, \
                            in your time zone), ABSENT CANCEL, or ABSENT alone";

/// `line` as a seat act, or `None` when it is not one (a naval `WITHDRAW` order, say).
/// Looks at a few words only, so a long line costs no more than reading it.
pub fn parse(line: &str) -> Option<SeatAct> {
    let words: Vec<String> = line
        .split_whitespace()
        .take(6)
        .map(|w| w.trim_end_matches(':').to_string())
        .collect();
    let upper: Vec<String> = words.iter().map(|w| w.to_ascii_uppercase()).collect();
    let upper: Vec<&str> = upper.iter().map(String::as_str).collect();
    let text: String = line.trim().chars().take(100).collect();
    let bad = |reason: &str, hint: &str| {
        Some(SeatAct::Bad {
            text: text.clone(),
            reason: reason.to_string(),
            hint: hint.to_string(),
        })
    };
    // The confirming word keeps its case out of it: game ids are lower case.
    let confirm = |i: usize| {
        words
            .get(i)
            .map(|w| w.to_ascii_lowercase())
            .unwrap_or_default()
    };
    match upper.as_slice() {
        ["ABSENT"] => Some(SeatAct::AbsentShow),
        ["ABSENT", "CANCEL" | "WITHDRAW"] => Some(SeatAct::AbsentCancel),
        ["ABSENT", rest @ ..] => {
            let (a, b) = match rest {
                [a] => (*a, *a),
                [a, "TO" | "UNTIL" | "-", b] => (*a, *b),
                _ => return bad("the dates could not be read", ABSENT_USAGE),
            };
            match (date(a), date(b)) {
                (Some(first), Some(last)) => Some(SeatAct::Absent { first, last }),
                _ => bad(
                    "a date could not be read: use year-month-day, e.g. 2026-12-20",
                    ABSENT_USAGE,
                ),
            }
        }
        ["CONCEDE", ..] if upper.len() <= 2 => Some(SeatAct::Concede {
            confirm: confirm(1),
        }),
        ["RESIGN", ..] if upper.len() <= 2 => Some(SeatAct::Resign {
            confirm: confirm(1),
        }),
        ["CONCEDE" | "RESIGN", ..] => bad(
            "too many words",
            "write the command and the game id alone on the line, e.g. CONCEDE <game>",
        ),
        ["PROPOSE" | "ACCEPT", "DRAW"] | ["PROPOSE" | "ACCEPT", "DRAW", _] => {
            Some(SeatAct::DrawVote {
                confirm: confirm(2),
            })
        }
        ["DECLINE" | "CANCEL", "DRAW"] => Some(SeatAct::DrawWithdraw),
        ["PROPOSE" | "ACCEPT" | "DECLINE" | "CANCEL", "DRAW", ..] => bad(
            "too many words",
            "write PROPOSE DRAW <game>, ACCEPT DRAW <game> or DECLINE DRAW alone on the line",
        ),
        _ => None,
    }
}

/// A whole `YYYY-MM-DD` date (nothing else is read as one: `12/01` means two things).
fn date(w: &str) -> Option<NaiveDate> {
    let ok = w.len() == 10 && w.bytes().all(|b| b.is_ascii_digit() || b == b'-');
    ok.then(|| NaiveDate::parse_from_str(w, "%Y-%m-%d").ok())
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_act_and_its_mistakes() {
        let d = |s: &str| NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap();
        assert_eq!(
            parse("absent 2026-12-20 to 2027-01-03"),
            Some(SeatAct::Absent {
                first: d("2026-12-20"),
                last: d("2027-01-03")
            })
        );
        assert_eq!(parse("ABSENT"), Some(SeatAct::AbsentShow));
        assert_eq!(parse("ABSENT cancel"), Some(SeatAct::AbsentCancel));
        assert!(matches!(
            parse("ABSENT 2026-02-30"),
            Some(SeatAct::Bad { .. })
        ));
        assert!(matches!(
            parse("ABSENT next week"),
            Some(SeatAct::Bad { .. })
        ));
        assert_eq!(
            parse("Concede G-1"),
            Some(SeatAct::Concede {
                confirm: "g-1".into()
            })
        );
        assert_eq!(
            parse("RESIGN"),
            Some(SeatAct::Resign {
                confirm: String::new()
            })
        );
        assert_eq!(
            parse("accept draw g"),
            Some(SeatAct::DrawVote {
                confirm: "g".into()
            })
        );
        assert_eq!(parse("DECLINE DRAW"), Some(SeatAct::DrawWithdraw));
        assert_eq!(parse("cancel draw"), Some(SeatAct::DrawWithdraw));
        // Orders are not acts: naval's WITHDRAW order (and its retired WITHDRAW DRAW form),
        // or a draw that is a ship's name.
        assert_eq!(parse("WITHDRAW DRAW"), None);
        assert_eq!(parse("WITHDRAW Mikasa"), None);
        assert_eq!(parse("PROPOSE peace"), None);
        assert_eq!(parse(""), None);
    }
}
