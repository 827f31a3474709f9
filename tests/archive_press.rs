//! Issue 16 points 2 and 6 together: the archive lists press only as the policy allows — after
//! the game is over, and only messages whose text the journal kept (`press_record = "text"`);
//! during play, or under `digest`, it lists nothing (the words stayed with their readers).

use chrono::{TimeZone, Utc};
use despatch::archive::press_entries;
use despatch::engine::Event;

fn press(text: Option<&str>, gm: bool) -> Event {
    Event::Press {
        step: 3,
        from: "japan".into(),
        to: vec!["russia".into()],
        gm,
        digest: "d".repeat(64),
        salt: text.map(|_| "5".repeat(64)),
        text: text.map(str::to_string),
        message_id: "<m@x>".into(),
        at: Utc.with_ymd_and_hms(2026, 11, 2, 9, 0, 0).unwrap(),
    }
}

#[test]
fn press_shows_in_the_archive_only_after_the_end_and_only_where_its_text_was_kept() {
    let kept = press(Some("Shall we keep away from the batteries?"), true);
    let digest_only = press(None, false);
    let events = vec![kept.clone(), digest_only];
    // After the end: the kept message, with its readers (the organiser named as gm).
    let after = press_entries(&events, true);
    assert_eq!(after.len(), 1, "{after:?}");
    assert_eq!(after[0].step, 3);
    assert_eq!(after[0].from, "japan");
    assert_eq!(after[0].to, "russia, gm");
    assert_eq!(after[0].text, "Shall we keep away from the batteries?");
    // During play: nothing, not even the kept one.
    assert!(press_entries(&events, false).is_empty());
    // Under `digest` alone: nothing to show, even after the end.
    assert!(press_entries(&[press(None, false)], true).is_empty());
}
