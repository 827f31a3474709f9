//! The next deadline as an iCalendar (RFC 5545) event in the seat's time zone, so a player can
//! put it in a calendar with one click. Pure text building; the clock arrives as `stamp`.

use chrono::{DateTime, Duration, Offset, TimeZone, Utc};

/// Escapes a TEXT value (RFC 5545 §3.3.11).
fn text(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace(';', "\\;")
        .replace(',', "\\,")
        .replace("\r\n", "\\n")
        .replace('\n', "\\n")
}

/// Folds a content line at 75 octets, never inside a UTF-8 character (§3.1).
fn fold(line: &str) -> String {
    let mut out = String::new();
    let mut width = 0;
    for c in line.chars() {
        let n = c.len_utf8();
        if width + n > 75 {
            out.push_str("\r\n ");
            width = 1;
        }
        out.push(c);
        width += n;
    }
    out.push_str("\r\n");
    out
}

fn offset_text(seconds: i32) -> String {
    let sign = if seconds < 0 { '-' } else { '+' };
    let s = seconds.abs();
    format!("{sign}{:02}{:02}", s / 3600, (s % 3600) / 60)
}

/// A VCALENDAR with one VEVENT at `deadline`, shown in `tz` (an IANA name; UTC if unknown),
/// with an alarm two hours before.
///
/// `sequence` orders versions of the same entry (same `uid`): a calendar keeps the highest, so
/// a moved deadline replaces the entry sent first instead of adding a second one.
pub fn deadline_event(
    uid: &str,
    sequence: u64,
    deadline: DateTime<Utc>,
    tz: &str,
    summary: &str,
    description: &str,
    stamp: DateTime<Utc>,
) -> String {
    let zone: chrono_tz::Tz = tz.parse().unwrap_or(chrono_tz::UTC);
    let local = zone.from_utc_datetime(&deadline.naive_utc());
    let offset = local.offset().fix().local_minus_utc();
    let abbreviation = local.format("%Z").to_string();
    let mut lines = vec![
        "BEGIN:VCALENDAR".to_string(),
        "VERSION:2.0".into(),
        "PRODID:-//Despatch//play-by-email//EN".into(),
        "CALSCALE:GREGORIAN".into(),
        "METHOD:PUBLISH".into(),
        // One observance with the offset in force at the deadline: enough for a single event.
        "BEGIN:VTIMEZONE".into(),
        format!("TZID:{}", zone.name()),
        "BEGIN:STANDARD".into(),
        "DTSTART:19700101T000000".into(),
        format!("TZOFFSETFROM:{}", offset_text(offset)),
        format!("TZOFFSETTO:{}", offset_text(offset)),
        format!("TZNAME:{}", text(&abbreviation)),
        "END:STANDARD".into(),
        "END:VTIMEZONE".into(),
        "BEGIN:VEVENT".into(),
        format!("UID:{}", text(uid)),
        format!("SEQUENCE:{sequence}"),
        format!("DTSTAMP:{}", stamp.format("%Y%m%dT%H%M%SZ")),
        format!(
            "DTSTART;TZID={}:{}",
            zone.name(),
            local.format("%Y%m%dT%H%M%S")
        ),
        format!(
            "DTEND;TZID={}:{}",
            zone.name(),
            (local + Duration::minutes(15)).format("%Y%m%dT%H%M%S")
        ),
        format!("SUMMARY:{}", text(summary)),
        format!("DESCRIPTION:{}", text(description)),
        "TRANSP:TRANSPARENT".into(),
        "BEGIN:VALARM".into(),
        "ACTION:DISPLAY".into(),
        format!("DESCRIPTION:{}", text(summary)),
        "TRIGGER:-PT2H".into(),
        "END:VALARM".into(),
        "END:VEVENT".into(),
        "END:VCALENDAR".into(),
    ];
    lines.iter_mut().map(|l| fold(l)).collect()
}

/// One deadline in a player's calendar feed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FeedEntry {
    /// The same UID as the entry the step's mail carried, so a calendar holding both keeps one.
    pub uid: String,
    /// Rises whenever the entry may have changed (the game's journal length).
    pub sequence: u64,
    pub at: DateTime<Utc>,
    pub summary: String,
    pub description: String,
}

/// A player's calendar feed: every deadline of every game they play, one VEVENT each, times in
/// UTC (each calendar shows them in its own zone), with a two-hour alarm. `name` titles the
/// calendar; a subscribing client looks again about every hour (REFRESH-INTERVAL).
pub fn feed(name: &str, entries: &[FeedEntry], stamp: DateTime<Utc>) -> String {
    let mut lines = vec![
        "BEGIN:VCALENDAR".to_string(),
        "VERSION:2.0".into(),
        "PRODID:-//Despatch//play-by-email//EN".into(),
        "CALSCALE:GREGORIAN".into(),
        "METHOD:PUBLISH".into(),
        format!("X-WR-CALNAME:{}", text(name)),
        "REFRESH-INTERVAL;VALUE=DURATION:PT1H".into(),
        "X-PUBLISHED-TTL:PT1H".into(),
    ];
    for e in entries {
        lines.extend([
            "BEGIN:VEVENT".to_string(),
            format!("UID:{}", text(&e.uid)),
            format!("SEQUENCE:{}", e.sequence),
            format!("DTSTAMP:{}", stamp.format("%Y%m%dT%H%M%SZ")),
            format!("DTSTART:{}", e.at.format("%Y%m%dT%H%M%SZ")),
            format!(
                "DTEND:{}",
                (e.at + Duration::minutes(15)).format("%Y%m%dT%H%M%SZ")
            ),
            format!("SUMMARY:{}", text(&e.summary)),
            format!("DESCRIPTION:{}", text(&e.description)),
            "TRANSP:TRANSPARENT".into(),
            "BEGIN:VALARM".into(),
            "ACTION:DISPLAY".into(),
            format!("DESCRIPTION:{}", text(&e.summary)),
            "TRIGGER:-PT2H".into(),
            "END:VALARM".into(),
            "END:VEVENT".into(),
        ]);
    }
    lines.push("END:VCALENDAR".into());
    lines.iter_mut().map(|l| fold(l)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    #[test]
    fn event_is_in_the_seats_zone_with_its_offset() {
        let ics = deadline_event(
            "club-3-japan@despatch",
            0,
            at("2026-07-01T18:00:00Z"),
            "Europe/London",
            "Orders due: club, step 3",
            "Turn 2: Japan, your fire plan.\nSend it by reply.",
            at("2026-06-28T09:00:00Z"),
        );
        assert!(ics.contains("\r\nSEQUENCE:0\r\n"), "{ics}");
        assert!(
            ics.contains("DTSTART;TZID=Europe/London:20260701T190000\r\n"),
            "{ics}"
        );
        assert!(ics.contains("TZOFFSETTO:+0100\r\n"));
        assert!(ics.contains("TZNAME:BST\r\n"));
        assert!(
            ics.contains("DESCRIPTION:Turn 2: Japan\\, your fire plan.\\nSend it by reply.\r\n")
        );
        assert!(ics.starts_with("BEGIN:VCALENDAR\r\n") && ics.ends_with("END:VCALENDAR\r\n"));
        let winter = deadline_event(
            "u",
            0,
            at("2026-12-01T18:00:00Z"),
            "Asia/Tokyo",
            "s",
            "d",
            at("2026-11-28T00:00:00Z"),
        );
        assert!(winter.contains("DTSTART;TZID=Asia/Tokyo:20261202T030000\r\n"));
        assert!(winter.contains("TZOFFSETTO:+0900\r\n"));
        let unknown = deadline_event(
            "u",
            0,
            at("2026-12-01T18:00:00Z"),
            "Mars/Olympus",
            "s",
            "d",
            at("2026-11-28T00:00:00Z"),
        );
        assert!(unknown.contains("DTSTART;TZID=UTC:20261201T180000\r\n"));
    }

    #[test]
    fn long_lines_fold_at_75_octets_without_splitting_characters() {
        let summary = "Orders due — ".repeat(20);
        let ics = deadline_event(
            "u",
            0,
            at("2026-12-01T18:00:00Z"),
            "UTC",
            &summary,
            "d",
            at("2026-11-28T00:00:00Z"),
        );
        for line in ics.split("\r\n") {
            assert!(line.len() <= 75, "{} octets: {line}", line.len());
        }
        let unfolded = ics.replace("\r\n ", "");
        assert!(unfolded.contains(&format!("SUMMARY:{summary}")));
    }
    #[test]
    fn a_feed_holds_every_entry_in_utc_and_an_empty_one_is_still_a_calendar() {
        let e = |uid: &str, at: &str| FeedEntry {
            uid: uid.into(),
            sequence: 7,
            at: at_(at),
            summary: "Orders due: g1, step 3 (japan)".into(),
            description: "Step 3, fire".into(),
        };
        fn at_(s: &str) -> DateTime<Utc> {
            DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
        }
        let ics = feed(
            "Despatch: Ann",
            &[
                e("g1-3-japan@h", "2026-12-01T18:00:00Z"),
                e("g2-1-russia@h", "2026-12-02T06:30:00Z"),
            ],
            at_("2026-11-28T00:00:00Z"),
        );
        assert_eq!(ics.matches("BEGIN:VEVENT").count(), 2);
        assert!(ics.contains("UID:g1-3-japan@h\r\n"));
        assert!(ics.contains("DTSTART:20261202T063000Z\r\n"), "{ics}");
        assert!(ics.contains("SEQUENCE:7\r\n"));
        assert!(ics.contains("X-WR-CALNAME:Despatch: Ann\r\n"));
        let empty = feed("x", &[], at_("2026-11-28T00:00:00Z"));
        assert!(empty.starts_with("BEGIN:VCALENDAR\r\n") && empty.ends_with("END:VCALENDAR\r\n"));
        assert!(!empty.contains("VEVENT"));
    }
}
