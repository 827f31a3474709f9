//! A moved deadline by mail (issue 14 point 4): every seat is told the new time in its own zone;
//! the seats asked for orders get the calendar entry again with the same UID and a higher
//! SEQUENCE, so calendar clients move the first entry instead of adding a second; the entry is
//! sealed like every other part; a shortening is never called an extension.

use crate::world;

use chrono::Duration;
use despatch::verify;
use mail_parser::{MessageParser, MimeHeaders};
use world::*;

/// The `deadline.ics` of a delivered mail whose file name contains `part`, for `to`.
fn calendar(w: &World, part: &str, to: &str) -> String {
    let mails: Vec<Vec<u8>> = w
        .raw_delivered()
        .into_iter()
        .filter(|(name, _)| name.contains(part))
        .map(|(_, raw)| raw)
        .collect();
    let m = mails
        .iter()
        .map(|raw| MessageParser::default().parse(raw).unwrap())
        .find(|m| m.to().and_then(|a| a.first()).and_then(|a| a.address()) == Some(to))
        .unwrap_or_else(|| panic!("no {part} mail to {to}"));
    let ics = m
        .parts
        .iter()
        .find(|p| p.attachment_name() == Some("deadline.ics"))
        .unwrap_or_else(|| panic!("no deadline.ics in the {part} mail to {to}"));
    String::from_utf8_lossy(ics.contents()).replace("\r\n", "\n")
}

fn field<'a>(ics: &'a str, name: &str) -> &'a str {
    ics.lines()
        .find_map(|l| l.strip_prefix(name))
        .unwrap_or_else(|| panic!("no {name} in {ics}"))
}

#[test]
fn a_moved_deadline_updates_the_calendar_entry_sent_with_the_step() {
    let w = world("training");
    let first = calendar(&w, "welcome", JAPAN);
    assert_eq!(field(&first, "SEQUENCE:"), "0");
    let before = w.game().deadline.unwrap();
    w.daemon
        .gm_extend(GAME, 24, "a club holiday", w.now + Duration::hours(1))
        .unwrap();
    let moved = calendar(&w, "deadline", JAPAN);
    assert_eq!(field(&moved, "UID:"), field(&first, "UID:"));
    let seq: u64 = field(&moved, "SEQUENCE:").parse().unwrap();
    assert!(seq > 0, "{moved}");
    assert_ne!(field(&moved, "DTSTART;"), field(&first, "DTSTART;"));
    let mails = w.delivered();
    let told: Vec<_> = mails
        .iter()
        .filter(|d| d.0.contains("-deadline-"))
        .collect();
    assert_eq!(told.len(), 2, "both seats are told");
    let new = (before + Duration::hours(24)).format("%-d %b").to_string();
    for (_, to, subject, text) in &told {
        assert!(
            subject.contains("New deadline:") && subject.contains(&new),
            "{subject}"
        );
        assert!(text.contains("Reason: a club holiday"), "{to}: {text}");
    }
    // A second move goes higher still, and every mail of the game still verifies, the
    // calendar entry included (its digest is in the sealed Parts line).
    w.daemon
        .gm_extend(GAME, 2, "", w.now + Duration::hours(2))
        .unwrap();
    let again: Vec<u64> = w
        .raw_delivered()
        .into_iter()
        .filter(|(n, _)| n.contains("-deadline-japan"))
        .map(|(_, raw)| {
            let m = MessageParser::default().parse(&raw).unwrap();
            let p = m
                .parts
                .iter()
                .find(|p| p.attachment_name() == Some("deadline.ics"))
                .unwrap();
            let ics = String::from_utf8_lossy(p.contents()).replace("\r\n", "\n");
            field(&ics, "SEQUENCE:").parse().unwrap()
        })
        .collect();
    assert_eq!(again.len(), 2);
    assert_ne!(again[0], again[1]);
    assert!(again.iter().all(|s| *s > 0));
    let (checked, findings) = verify::verify_mails(&w.daemon.cfg.mail.outbox, Some(GAME));
    assert!(findings.is_empty(), "{findings:?}");
    assert!(checked.mails >= 6, "{checked:?}");
}

#[test]
fn a_shortening_without_a_reason_is_called_what_it_is() {
    let w = world("training");
    w.daemon.gm_extend(GAME, -5, "", w.now).unwrap();
    let told: Vec<_> = w
        .delivered()
        .into_iter()
        .filter(|d| d.0.contains("-deadline-"))
        .collect();
    assert_eq!(told.len(), 2);
    for (_, _, subject, text) in &told {
        assert!(
            text.contains("Reason: brought forward by 5 h by the organiser"),
            "{text}"
        );
        assert!(!text.to_lowercase().contains("extend"), "{text}");
        assert!(!subject.to_lowercase().contains("extend"), "{subject}");
    }
    w.daemon.gm_extend(GAME, 3, "", w.now).unwrap();
    assert!(
        w.delivered()
            .iter()
            .any(|d| d.3.contains("Reason: extended by 3 h by the organiser"))
    );
}
