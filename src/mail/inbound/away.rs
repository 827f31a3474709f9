//! An out-of-office auto-reply read as a proposed absence (issue 31 point 5; ruling A10 in
//! docs/club-rules.md): whether an automated mail is one, and the days away its subject and
//! text name. Pure and linear; proposes only — an absence is never taken from an automated
//! mail, only from the player's own `ABSENT` reply.

use chrono::NaiveDate;

/// Subject openings of out-of-office replies in the languages a club's players write
/// (Exchange/Outlook, Gmail, Thunderbird and the usual translations), lower case.
const SUBJECT_SIGNS: [&str; 12] = [
    "out of office",
    "automatic reply",
    "auto:",
    "autoreply",
    "auto-reply",
    "away from",
    "vacation",
    "abwesend",
    "abwesenheit",
    "absence",
    "réponse automatique",
    "autosvar",
];

/// Whether an automated mail (`why`: the reason intake gave) is an out-of-office reply: an
/// RFC 3834 `auto-replied` or an `X-Autoreply`-style mark, or any automated mail (never a
/// bounce, never a list) whose subject opens like one.
pub fn is_out_of_office(why: &str, subject: &str) -> bool {
    let s = subject.trim().to_lowercase();
    let subject_says = SUBJECT_SIGNS
        .iter()
        .any(|w| s.starts_with(w) || s.contains(&format!(": {w}")));
    let replied = why.eq_ignore_ascii_case("Auto-Submitted: auto-replied")
        || why.starts_with("X-Autore")
        || why == "Precedence: auto_reply";
    // A null Return-Path is RFC 3834's advice for every auto-reply, and a bounce's too: the
    // subject tells them apart.
    let generated = why.starts_with("Auto-Submitted:")
        || why.starts_with("Precedence:")
        || why == "null Return-Path";
    replied || (generated && subject_says)
}

/// The first and last day away the text names: the first two dates on or after `today` (the
/// earlier first); one date alone is the last day, from `today`. Dates as 2026-12-20,
/// 20.12.2026, 20 December 2026, 20th Dec 2026, December 20, 2026 (English, German, French
/// month names). None when no date on or after `today` is named. Reads at most the first
/// 20,000 characters.
pub fn days_away(text: &str, today: NaiveDate) -> Option<(NaiveDate, NaiveDate)> {
    let text: String = text.chars().take(20_000).collect();
    let words: Vec<String> = text
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | '(' | ')' | ';'))
        .filter(|w| !w.is_empty())
        .map(|w| w.trim_end_matches(['.', ':']).to_lowercase())
        .collect();
    let mut found: Vec<NaiveDate> = vec![];
    let mut i = 0;
    while i < words.len() && found.len() < 2 {
        let (date, used) = date_at(&words[i..]);
        match date {
            Some(d) if d >= today => {
                found.push(d);
                i += used;
            }
            _ => i += 1,
        }
    }
    match found[..] {
        [a, b] => Some((a.min(b), a.max(b))),
        [a] => Some((today, a)),
        _ => None,
    }
}

/// A date starting at `w[0]`, and how many words it took.
fn date_at(w: &[String]) -> (Option<NaiveDate>, usize) {
    if let Some(d) = NaiveDate::parse_from_str(&w[0], "%Y-%m-%d")
        .ok()
        .or_else(|| NaiveDate::parse_from_str(&w[0], "%d.%m.%Y").ok())
    {
        return (Some(d), 1);
    }
    if w.len() >= 3 {
        let day = |s: &str| -> Option<u32> {
            let s = s.trim_end_matches(|c: char| c.is_ascii_alphabetic() || c == '.');
            (s.len() <= 2).then(|| s.parse().ok()).flatten()
        };
        let year = |s: &str| -> Option<i32> { (s.len() == 4).then(|| s.parse().ok()).flatten() };
        // 20 December 2026
        if let (Some(d), Some(m), Some(y)) = (day(&w[0]), month(&w[1]), year(&w[2])) {
            return (NaiveDate::from_ymd_opt(y, m, d), 3);
        }
        // December 20, 2026
        if let (Some(m), Some(d), Some(y)) = (month(&w[0]), day(&w[1]), year(&w[2])) {
            return (NaiveDate::from_ymd_opt(y, m, d), 3);
        }
    }
    (None, 1)
}

fn month(s: &str) -> Option<u32> {
    const NAMES: [&[&str]; 12] = [
        &["january", "jan", "januar", "janvier", "jänner"],
        &["february", "feb", "februar", "février", "fevrier"],
        &["march", "mar", "märz", "maerz", "mars"],
        &["april", "apr", "avril"],
        &["may", "mai"],
        &["june", "jun", "juni", "juin"],
        &["july", "jul", "juli", "juillet"],
        &["august", "aug", "août", "aout"],
        &["september", "sep", "sept", "septembre"],
        &["october", "oct", "oktober", "octobre", "okt"],
        &["november", "nov", "novembre"],
        &["december", "dec", "dezember", "décembre", "decembre", "dez"],
    ];
    let s = s.trim_end_matches('.');
    NAMES
        .iter()
        .position(|names| names.contains(&s))
        .map(|i| i as u32 + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).unwrap()
    }

    #[test]
    fn the_usual_forms_give_the_days_away() {
        let today = d(2026, 12, 10);
        let want = Some((d(2026, 12, 20), d(2027, 1, 3)));
        for text in [
            "I am away from 2026-12-20 to 2027-01-03.",
            "Out of office 20.12.2026 - 03.01.2027, back after that",
            "I'm on leave from 20 December 2026 until 3 January 2027.",
            "Away from December 20, 2026 through January 3rd, 2027",
            "Ich bin vom 20. Dezember 2026 bis 3. Januar 2027 abwesend.",
            "Absent du 20 décembre 2026 au 3 janvier 2027",
            "back on 3 Jan 2027 (leaving 20th Dec 2026)",
        ] {
            assert_eq!(days_away(text, today), want, "{text}");
        }
        // One date: away from today to it.
        assert_eq!(
            days_away("Back on 2026-12-14.", today),
            Some((today, d(2026, 12, 14)))
        );
        // Dates before today are not an absence to come; none at all is None.
        assert_eq!(days_away("Sent on 2026-12-01.", today), None);
        assert_eq!(days_away("I am away for a while.", today), None);
        // The day itself counts, the day before does not (threshold).
        assert_eq!(days_away("until 2026-12-10", today), Some((today, today)));
        assert_eq!(days_away("until 2026-12-09", today), None);
        // Nonsense dates are no dates.
        assert_eq!(days_away("31 February 2027", today), None);
    }

    #[test]
    fn out_of_office_is_told_from_other_automated_mail() {
        assert!(is_out_of_office(
            "Auto-Submitted: auto-replied",
            "Re: your orders"
        ));
        assert!(is_out_of_office("X-Autoreply", "anything"));
        assert!(is_out_of_office(
            "Auto-Submitted: auto-generated",
            "Automatic reply: [yellow-sea] step 3"
        ));
        assert!(!is_out_of_office(
            "Auto-Submitted: auto-generated",
            "Undelivered Mail Returned to Sender"
        ));
        assert!(!is_out_of_office("List-Id", "Out of office"));
        assert!(!is_out_of_office(
            "multipart/report; report-type=delivery-status",
            "Out of office"
        ));
        assert!(is_out_of_office("null Return-Path", "Vacation reply"));
        assert!(!is_out_of_office(
            "null Return-Path",
            "Mail delivery failed"
        ));
    }

    #[test]
    fn a_huge_text_is_read_in_linear_time_and_bounded() {
        let text = "12 ".repeat(200_000);
        assert_eq!(days_away(&text, d(2026, 1, 1)), None);
    }
}
