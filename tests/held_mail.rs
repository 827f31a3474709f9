//! Issue 27.3, the hourly limit: a seat's mail over `max_per_sender_per_hour` is held (not
//! lost), the seat and the organiser are told once, and it is read when the seat's hour has
//! room — in the order it came, before the deadline it came before — through the daemon's
//! Maildir pass; and a crash at any point of holding or reading it loses nothing and applies
//! nothing twice.

use chrono::{DateTime, Duration, Utc};
use despatch::daemon::{Intake, Pass};
use despatch::store::HeldCause;

use crate::world::{GAME, JAPAN, RUSSIA, World, mail, reply_to, world_with};

const GM: &str = "gm@club.example";

/// Naval training with a limit of three mails a seat per hour and an organiser.
fn limited() -> World {
    world_with("training", 1000, |c| {
        c.mail.max_per_sender_per_hour = 3;
        c.mail.gm_address = Some(GM.into());
    })
}

/// `seat` writes `body` (Message-ID `id`) into the inbox Maildir, read at the next pass.
fn drop_mail(w: &World, seat: &str, id: &str, body: &str) -> Vec<u8> {
    let from = if seat == "japan" { JAPAN } else { RUSSIA };
    let raw = mail(from, &reply_to(seat), id, "", body);
    let p = w.daemon.cfg.mail.inbox.join("new").join(id);
    std::fs::write(p, &raw).unwrap();
    raw
}

pub(crate) fn pass(w: &World, at: DateTime<Utc>) -> Pass {
    w.daemon.run_once(at).unwrap()
}

/// Delivered mails to `to` whose subject contains `subject`: their texts.
pub(crate) fn to_with(w: &World, to: &str, subject: &str) -> Vec<String> {
    w.delivered()
        .into_iter()
        .filter(|d| d.1 == to && d.2.contains(subject))
        .map(|d| flat(&d.3))
        .collect()
}

/// A mail's text with its line breaks as spaces (prose is wrapped at 72 columns).
pub(crate) fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The receipts sent to Japan, in delivery order (their names carry the journal index).
pub(crate) fn receipts(w: &World) -> Vec<String> {
    w.delivered()
        .into_iter()
        .filter(|d| d.1 == JAPAN && d.3.contains("Orders received for"))
        .map(|d| flat(&d.3))
        .collect()
}

fn accepted(i: &Intake) -> bool {
    matches!(i, Intake::Accepted { .. })
}

#[test]
fn a_seat_over_its_hourly_limit_is_held_told_once_and_read_when_its_hour_has_room() {
    let w = limited();
    let t = w.now;
    // Three mails a minute apart fill the hour.
    for (i, body) in ["FLAGSHIP Mikasa", "FLAGSHIP Asahi", "FLAGSHIP Mikasa"]
        .iter()
        .enumerate()
    {
        drop_mail(&w, "japan", &format!("j{i}@x"), body);
        let p = pass(&w, t + Duration::minutes(i as i64));
        assert!(accepted(&p.processed[0]), "{p:?}");
    }
    // Two more, held in this order; another seat's mail in the same hour is its own, read
    // at once (control; a bad line, so that the step stays open).
    drop_mail(&w, "japan", "j3@x", "FLAGSHIP Asahi");
    drop_mail(&w, "japan", "j4@x", "FLAGSHIP Mikasa");
    drop_mail(&w, "russia", "r0@x", "FLAGSHIP Nobody");
    let first = pass(&w, t + Duration::minutes(3));
    let words: Vec<&str> = first.processed.iter().map(Intake::word).collect();
    assert_eq!(words, ["held", "held", "rejected"], "{first:?}");
    let held = w.daemon.data.held_mail().unwrap();
    assert_eq!(held.len(), 2, "{held:?}");
    for m in &held {
        assert!(
            matches!(m.cause, HeldCause::RateLimit { until, .. } if until > t),
            "{m:?}"
        );
        assert_eq!(
            (m.game.as_deref(), m.seat.as_deref()),
            (Some(GAME), Some("japan"))
        );
    }
    assert!(
        std::fs::read_dir(w.daemon.cfg.mail.inbox.join("new"))
            .unwrap()
            .next()
            .is_none(),
        "every original was filed away"
    );
    // Told once, not once per held mail: the seat, and the organiser.
    let notices = to_with(&w, JAPAN, "held");
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert!(
        notices[0].contains("need not send it again") && notices[0].contains("more than 3"),
        "{}",
        notices[0]
    );
    assert_eq!(to_with(&w, GM, "held").len(), 1);
    assert_eq!(receipts(&w).len(), 3);
    // Before the hour has room, nothing is read, and nothing told again.
    let early = pass(&w, t + Duration::minutes(30));
    assert!(early.retried.is_empty(), "{early:?}");
    // An hour after the first mail, one place: the first held mail is read; the second is
    // tried after it and waits a minute more.
    let hour = pass(&w, t + Duration::minutes(60));
    assert_eq!(hour.retried[0].0, held[0].key);
    assert!(accepted(&hour.retried[0].1), "{hour:?}");
    let second = w.daemon.data.held_mail().unwrap();
    assert_eq!(second.len(), 1);
    assert_eq!(second[0].key, held[1].key, "the later one still waits");
    assert!(
        matches!(second[0].cause, HeldCause::RateLimit { until, .. } if until == t + Duration::minutes(61)),
        "{second:?}"
    );
    let later = pass(&w, t + Duration::minutes(61));
    assert_eq!(later.retried.len(), 1, "{later:?}");
    assert!(accepted(&later.retried[0].1), "{later:?}");
    assert!(w.daemon.data.held_mail().unwrap().is_empty());
    // Applied in the order sent: the last receipt echoes the last mail's orders.
    let r = receipts(&w);
    assert_eq!(r.len(), 5, "{r:?}");
    assert!(r[3].contains("FLAGSHIP Asahi"), "{}", r[3]);
    assert!(r[4].contains("FLAGSHIP Mikasa"), "{}", r[4]);
    assert_eq!(to_with(&w, JAPAN, "held").len(), 1, "still told only once");
}

#[test]
fn an_order_held_before_its_deadline_is_read_before_the_deadline_passes() {
    let mut w = limited();
    let deadline = w.game().book.deadline.expect("step 1 has a deadline");
    // Three mails early on, then the order that counts, ten minutes before the deadline,
    // while the hour is still full.
    let t = deadline - Duration::minutes(40);
    for i in 0..3 {
        drop_mail(&w, "japan", &format!("e{i}@x"), "FLAGSHIP Mikasa");
    }
    pass(&w, t);
    drop_mail(&w, "japan", "last@x", "FLAGSHIP Asahi");
    let held = pass(&w, deadline - Duration::minutes(10));
    assert_eq!(held.processed[0].word(), "held", "{held:?}");
    let notice = &to_with(&w, JAPAN, "held")[0];
    assert!(notice.contains("before the step's deadline"), "{notice}");
    // Control: a minute before the deadline it still waits.
    assert!(pass(&w, deadline - Duration::minutes(1)).retried.is_empty());
    // At the deadline it is read, over the limit, before the step closes on silence.
    w.now = deadline;
    let at = pass(&w, deadline);
    assert!(
        matches!(at.retried[..], [(_, Intake::Accepted { step: 1, .. })]),
        "{at:?}"
    );
    assert!(w.game().book.step > 1, "the step closed after it");
    assert!(receipts(&w).last().unwrap().contains("FLAGSHIP Asahi"));
}

/// A pass that holds Japan's fourth mail; returns its bytes and key.
fn one_held(w: &World) -> (Vec<u8>, String) {
    for i in 0..3 {
        drop_mail(w, "japan", &format!("c{i}@x"), "FLAGSHIP Mikasa");
    }
    let raw = drop_mail(w, "japan", "c3@x", "FLAGSHIP Asahi");
    pass(w, w.now);
    let held = w.daemon.data.held_mail().unwrap();
    assert_eq!(held.len(), 1);
    (raw, held[0].key.clone())
}

#[test]
fn a_crash_before_the_original_is_filed_holds_it_once_and_reads_it_once() {
    let w = limited();
    let (raw, key) = one_held(&w);
    // As if the daemon died after holding it, before moving the original out of new/.
    std::fs::write(w.daemon.cfg.mail.inbox.join("new").join("again"), &raw).unwrap();
    let next = pass(&w, w.now + Duration::minutes(5));
    assert_eq!(next.processed.len(), 1);
    assert_eq!(w.daemon.data.held_mail().unwrap().len(), 1, "held once");
    assert_eq!(to_with(&w, JAPAN, "held").len(), 1, "told once");
    let read = pass(&w, w.now + Duration::minutes(60));
    assert_eq!(read.retried.len(), 1);
    assert_eq!(read.retried[0].0, key);
    assert_eq!(receipts(&w).len(), 4, "read once");
    assert!(pass(&w, w.now + Duration::minutes(200)).retried.is_empty());
}

#[test]
fn a_crash_between_the_copy_and_its_record_loses_nothing() {
    let w = limited();
    let (_, key) = one_held(&w);
    let dir = w.daemon.data.held_dir();
    std::fs::remove_file(dir.join(format!("{key}.json"))).unwrap();
    // The copy alone is adopted, tried at once, and held again for the hour, told no more.
    let next = pass(&w, w.now + Duration::minutes(5));
    assert!(
        matches!(next.retried[..], [(_, Intake::Held { .. })]),
        "{next:?}"
    );
    assert!(dir.join(format!("{key}.json")).exists());
    assert_eq!(to_with(&w, JAPAN, "held").len(), 1);
    let read = pass(&w, w.now + Duration::minutes(60));
    assert!(accepted(&read.retried[0].1), "{read:?}");
    assert_eq!(receipts(&w).len(), 4);
}

#[test]
fn a_crash_after_a_held_mail_was_applied_does_not_apply_it_twice() {
    let w = limited();
    let (_, key) = one_held(&w);
    let dir = w.daemon.data.held_dir();
    let saved: Vec<(std::path::PathBuf, Vec<u8>)> = ["eml", "json"]
        .iter()
        .map(|e| {
            let p = dir.join(format!("{key}.{e}"));
            let b = std::fs::read(&p).unwrap();
            (p, b)
        })
        .collect();
    let read = pass(&w, w.now + Duration::minutes(60));
    assert!(accepted(&read.retried[0].1), "{read:?}");
    let journal = w.journal_len();
    // As if the daemon died after applying it, before forgetting the held copy.
    for (p, b) in &saved {
        std::fs::write(p, b).unwrap();
    }
    let again = pass(&w, w.now + Duration::minutes(61));
    assert_eq!(
        again.retried,
        vec![(key, Intake::Duplicate)],
        "recognised by its Message-ID"
    );
    assert_eq!(w.journal_len(), journal, "nothing applied twice");
    assert!(w.daemon.data.held_mail().unwrap().is_empty());
    assert_eq!(receipts(&w).len(), 4);
}
