//! Issue 16 point 3 (and point 8 for it) by mail, as a player writes it: `ABSENT … TO …`
//! moves the deadlines of steps that wait for the seat past the absence, within the game's
//! days a year; the other seats are told; `ABSENT CANCEL` and the organiser's refusal bring the
//! deadline back; standing orders still answer after the moved deadline. Rulings A1–A6 of
//! docs/club-rules.md. Naval order syntax.

use crate::naval_mail;

use chrono::{DateTime, Duration, TimeZone, Utc};
use despatch::daemon::Intake;
use despatch::engine::{Book, Event};
use naval_mail::{Game, SEATS, plain_address, start};

/// A mail's words with its line breaks read as spaces (texts are wrapped at 72 columns).
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn book(g: &Game) -> Book {
    g.d.open_game("g").unwrap().game.book().clone()
}

fn japan_says(g: &mut Game, body: &str) -> (Intake, String) {
    g.send("japan", &plain_address("japan"), "absence", None, body)
}

fn acted() -> Intake {
    Intake::SeatAct {
        game: "g".into(),
        seat: "japan".into(),
    }
}

fn utc(y: i32, m: u32, d: u32, h: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(y, m, d, h, 0, 0).unwrap()
}

/// The step's own length, as the game computed its first deadline.
fn step_length(b: &Book) -> Duration {
    b.club.unmoved_deadline.unwrap() - b.opened_at
}

/// Japan (in Tokyo) away 2 to 4 June: the first deadline falls inside, or less than a step
/// after the return, so it moves to the return plus one step (ruling A2).
fn away_in_tokyo(g: &mut Game) -> (DateTime<Utc>, DateTime<Utc>) {
    let (out, _) = japan_says(g, "TIMEZONE Asia/Tokyo");
    assert!(matches!(out, Intake::Settings { .. }), "{out:?}");
    let (out, answer) = japan_says(g, "ABSENT 2026-06-02 TO 2026-06-04");
    assert_eq!(out, acted(), "{answer}");
    // Midnight in Tokyo is 15:00 UTC the day before.
    let (from, until) = (utc(2026, 6, 1, 15), utc(2026, 6, 4, 15));
    assert!(
        flat(&answer).contains(
            "Your absence from 2026-06-02 to 2026-06-04 (3 days, Asia/Tokyo) is recorded"
        ),
        "{answer}"
    );
    // Issue 30: the answer lists the absences as the act leaves them (it said "none
    // declared" under the line saying it was recorded), and the days it took.
    let listed = flat(answer.split("YOUR ABSENCES").nth(1).expect("the list"));
    assert!(
        listed.contains("2026-06-02 to 2026-06-04 (3 days)") && !listed.contains("none declared"),
        "{answer}"
    );
    // The default 28 days a year, less the 3 just taken.
    assert!(listed.contains("Days left in 2026: 25"), "{answer}");
    (from, until)
}

#[test]
fn an_absence_moves_the_deadline_past_it_and_the_other_seat_is_told() {
    let mut g = start();
    assert!(
        g.waiting().contains(&"japan".to_string()),
        "step 1 waits for japan"
    );
    let before = book(&g);
    let russia_before = g.inbox("russia").len();
    let (from, until) = away_in_tokyo(&mut g);
    let b = book(&g);
    let len = step_length(&b);
    let unmoved = b.club.unmoved_deadline.unwrap();
    assert!(
        from <= unmoved && unmoved < until + len,
        "the scenario's first deadline {unmoved} must fall in the absence or just after it"
    );
    assert_eq!(
        b.deadline,
        Some(until + len),
        "moved to the return plus one step"
    );
    assert_eq!(
        before.deadline,
        Some(unmoved),
        "it was the step's own deadline before"
    );
    // The clock's view agrees: nothing is due before the new deadline's reminders.
    let due = g.d.open_game("g").unwrap().game.next_due().unwrap();
    assert!(
        due > unmoved,
        "next_due {due} still follows the old deadline"
    );
    assert!(
        g.d.open_game("g")
            .unwrap()
            .game
            .due_events(unmoved + Duration::minutes(1))
            .iter()
            .all(|e| matches!(e, Event::Reminder { .. })),
        "the old deadline locks nothing"
    );

    // Russia hears of the absence and of the new deadline (with its calendar entry).
    let told = g.inbox("russia");
    assert_eq!(
        told.len(),
        russia_before + 2,
        "the absence and the new deadline"
    );
    let absent = told
        .iter()
        .find(|m| m.subject.contains("will be away"))
        .unwrap();
    assert!(
        flat(&absent.text).contains("japan will be away from 2026-06-02 to 2026-06-04"),
        "{}",
        absent.text
    );
    let moved = told
        .iter()
        .find(|m| m.subject.contains("New deadline"))
        .unwrap();
    assert!(
        flat(&moved.text).contains("Reason: moved past japan's absence (2026-06-02 to 2026-06-04)"),
        "{}",
        moved.text
    );
    // The journal keeps the seat and the instants, never the player's address; the private
    // seats file (the positive control) does hold it, so the check can fail.
    let journal = String::from_utf8(g.journal()).unwrap();
    assert!(
        journal.contains(r#""type":"absent","seat":"japan""#),
        "{journal}"
    );
    assert!(!journal.contains(SEATS[0].1), "no address in the journal");
    let private = std::fs::read_to_string(g.d.data.game("g").dir.join("seats.toml")).unwrap();
    assert!(private.contains(SEATS[0].1), "positive control");
}

#[test]
fn standing_orders_answer_for_the_absent_seat_at_the_moved_deadline() {
    let mut g = start();
    let (_, until) = away_in_tokyo(&mut g);
    let deadline = book(&g).deadline.unwrap();
    assert!(deadline > until);
    // Russia sends orders (answering its welcome); Japan stays silent.
    let last = g.inbox("russia").remove(0);
    let orders = g.orders("russia");
    let (out, answer) = g.send(
        "russia",
        &last.reply_to,
        &format!("Re: {}", last.subject),
        Some(&last.message_id),
        &orders,
    );
    assert!(matches!(out, Intake::Accepted { .. }), "{out:?}: {answer}");
    g.d.tick("g", deadline - Duration::minutes(1)).unwrap();
    assert_eq!(g.step(), 1, "the step waits until the moved deadline");
    g.d.tick("g", deadline).unwrap();
    g.d.deliver().unwrap();
    assert_eq!(
        g.step(),
        2,
        "silence at the moved deadline resolves the step"
    );
    let journal = String::from_utf8(g.journal()).unwrap();
    let lock = journal
        .lines()
        .find(|l| l.contains(r#""type":"lock""#))
        .unwrap();
    assert!(lock.contains(r#""nmr":["japan"]"#), "{lock}");
}

#[test]
fn the_yearly_limit_is_counted_in_days_and_what_is_left_is_said() {
    let mut g = start();
    let journal = g.journal();
    // 28 days a year by default: 34 days are refused, nothing recorded.
    let (out, answer) = japan_says(&mut g, "ABSENT 2026-07-01 TO 2026-08-03");
    assert!(matches!(out, Intake::Rejected { .. }), "{out:?}");
    assert!(
        flat(&answer)
            .contains("34 days in 2026 would exceed this game's 28 days a year: 28 left in 2026"),
        "{answer}"
    );
    assert_eq!(g.journal(), journal, "nothing journaled");
    let (out, _) = japan_says(&mut g, "ABSENT 2026-07-01 TO 2026-07-20");
    assert_eq!(out, acted());
    let (out, answer) = japan_says(&mut g, "ABSENT 2026-09-01 TO 2026-09-10");
    assert!(matches!(out, Intake::Rejected { .. }), "{out:?}");
    assert!(flat(&answer).contains("8 left in 2026"), "{answer}");
    // An absence over the new year counts each day in its own year.
    let (out, answer) = japan_says(&mut g, "ABSENT 2026-12-20 TO 2027-01-10");
    assert!(matches!(out, Intake::Rejected { .. }), "{out:?}");
    assert!(
        flat(&answer)
            .contains("12 days in 2026 would exceed this game's 28 days a year: 8 left in 2026"),
        "{answer}"
    );
    let (out, answer) = japan_says(&mut g, "ABSENT 2026-12-29 TO 2027-01-10");
    assert_eq!(out, acted(), "{answer}");
    // ABSENT alone lists them with the days left this year.
    let (out, answer) = japan_says(&mut g, "ABSENT");
    assert_eq!(out, acted());
    let text = flat(&answer);
    assert!(
        text.contains("2026-07-01 to 2026-07-20 (20 days)"),
        "{answer}"
    );
    assert!(
        text.contains("2026-12-29 to 2027-01-10 (13 days)"),
        "{answer}"
    );
    assert!(text.contains("Days left in 2026: 5"), "{answer}");
}

#[test]
fn bad_absences_are_answered_with_the_line_the_reason_and_a_hint() {
    let mut g = start();
    let journal = g.journal();
    let seats = std::fs::read(g.d.data.game("g").dir.join("seats.toml")).unwrap();
    for (line, why) in [
        ("ABSENT 2026-02-30", "a date could not be read"),
        (
            "ABSENT 2026-06-10 TO 2026-06-05",
            "is before the first day 2026-06-10",
        ),
        (
            "ABSENT 2026-05-01 TO 2026-05-03",
            "2026-05-01 is in the past",
        ),
        ("ABSENT next week", "the dates could not be read"),
        ("ABSENT 2028-01-01", "more than a year ahead"),
        ("ABSENT CANCEL", "no absence that has not yet begun"),
    ] {
        let (out, answer) = japan_says(&mut g, line);
        assert!(matches!(out, Intake::Rejected { .. }), "{line}: {out:?}");
        let text = flat(&answer);
        assert!(text.contains(why), "{line}: {answer}");
        assert!(text.contains(line), "the line is quoted: {answer}");
        assert!(text.contains("ABSENT"), "with what to write: {answer}");
    }
    assert_eq!(g.journal(), journal, "no event");
    assert_eq!(
        std::fs::read(g.d.data.game("g").dir.join("seats.toml")).unwrap(),
        seats,
        "nothing half-applied"
    );
    // Overlapping an absence already declared.
    assert_eq!(
        japan_says(&mut g, "ABSENT 2026-07-01 TO 2026-07-05").0,
        acted()
    );
    let (out, answer) = japan_says(&mut g, "ABSENT 2026-07-05 TO 2026-07-07");
    assert!(matches!(out, Intake::Rejected { .. }), "{out:?}");
    assert!(flat(&answer).contains("overlaps your absence 2026-07-01 to 2026-07-05"));
}

#[test]
fn no_seat_declares_an_absence_for_another() {
    let mut g = start();
    let journal = g.journal();
    // Russia's player, from Russia's address, with Japan's secret: read as Russia's mail
    // without Russia's secret, so nothing is applied.
    let out = g.send_from(
        SEATS[1].1,
        &plain_address("japan"),
        "x",
        None,
        "ABSENT 2026-06-02 TO 2026-06-04",
    );
    assert!(matches!(out, Intake::Unauthenticated { .. }), "{out:?}");
    assert_eq!(g.journal(), journal);
    assert!(book(&g).club.absences.is_empty());
}

#[test]
fn cancel_and_refusal_bring_the_deadline_back_and_say_so() {
    let mut g = start();
    let unmoved = book(&g).deadline.unwrap();
    away_in_tokyo(&mut g);
    assert_ne!(book(&g).deadline, Some(unmoved));
    // Withdrawn before it begins (15:00 UTC on 1 June; the mails are sent at 10:00).
    let (out, answer) = japan_says(&mut g, "ABSENT CANCEL");
    assert_eq!(out, acted(), "{answer}");
    assert!(flat(&answer).contains("Withdrawn: 1 absence(s) not yet begun."));
    assert_eq!(
        book(&g).deadline,
        Some(unmoved),
        "the step's own deadline again"
    );
    assert!(book(&g).club.absences.is_empty());
    let withdrawn = g.inbox("russia");
    assert!(
        withdrawn
            .iter()
            .any(|m| m.subject.contains("japan's absence is withdrawn")),
        "russia is told"
    );

    // Declared again, then refused by the organiser.
    let (out, _) = japan_says(&mut g, "ABSENT 2026-06-02 TO 2026-06-04");
    assert_eq!(out, acted());
    let now = utc(2026, 6, 1, 12);
    g.d.gm_refuse_absence("g", "japan", "the club final is that week", now)
        .unwrap();
    assert_eq!(book(&g).deadline, Some(unmoved));
    let told = g.inbox("japan");
    let refused = told
        .iter()
        .rfind(|m| m.subject.contains("The organiser refused your absence"))
        .expect("japan is told");
    assert!(
        flat(&refused.text).contains("Reason: the club final is that week"),
        "{}",
        refused.text
    );
    assert!(
        g.inbox("russia")
            .iter()
            .any(|m| m.subject.contains("New deadline")),
        "the deadline's return is mailed"
    );
    // Nothing left to refuse.
    assert!(g.d.gm_refuse_absence("g", "japan", "", now).is_err());
}

#[test]
fn the_organisers_deadline_is_taken_as_given_and_comes_back_after_a_withdrawal() {
    let mut g = start();
    away_in_tokyo(&mut g);
    let moved = book(&g).deadline.unwrap();
    let len = step_length(&book(&g));
    let now = utc(2026, 6, 1, 12);
    let given = g.d.gm_extend("g", 5, "", now).unwrap();
    assert_eq!(given, moved + Duration::hours(5));
    assert_eq!(book(&g).club.unmoved_deadline, Some(given), "the new base");
    // Withdrawing the absence leaves the organiser's deadline as it is: no new deadline mail.
    let russia_before = g.inbox("russia").len();
    assert_eq!(japan_says(&mut g, "ABSENT CANCEL").0, acted());
    assert_eq!(book(&g).deadline, Some(given));
    let told = &g.inbox("russia")[russia_before..];
    assert!(
        told.iter().all(|m| !m.subject.contains("New deadline")),
        "{:?}",
        told.iter().map(|m| &m.subject).collect::<Vec<_>>()
    );
    // An absence declared afterwards moves it like any other (ruling A3): 7 to 9 June in
    // Tokyo holds the organiser's deadline (7 or 9 June, for a 72 or 120 hour first step).
    assert_eq!(
        japan_says(&mut g, "ABSENT 2026-06-07 TO 2026-06-09").0,
        acted()
    );
    let b = book(&g);
    let until = utc(2026, 6, 9, 15);
    assert_eq!(b.deadline, Some(until + len));
    assert_ne!(b.deadline, Some(given));
}
