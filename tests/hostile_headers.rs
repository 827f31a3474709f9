//! No inbound header can stop a game (issue 27 point 5; docs/club-rules.md H1): a seat's order
//! mail with any Message-ID, In-Reply-To, References or subject — missing, malformed,
//! non-ASCII, huge — is answered, the game resolves its next step, every mail of the game is
//! built, and `verify` of the store and of the outbox passes. A mail that still cannot be
//! built is set aside and the organiser told, and the game goes on. Naval's training game.

use crate::naval_mail;

use chrono::{DateTime, Duration, TimeZone, Utc};
use despatch::daemon::Intake;
use despatch::verify;
use naval_mail::{Game, plain_address, start, start_configured};
use proptest::prelude::*;

const JAPAN: &str = naval_mail::SEATS[0].1;

/// A mail from Japan's player to its seat address: `headers` are whole header lines (each
/// ending in CRLF) put between To and the body; nothing else is added.
fn raw(headers: &str, body: &str) -> Vec<u8> {
    format!(
        "From: Togo <{JAPAN}>\r\nTo: {}\r\n{headers}Content-Type: text/plain; charset=utf-8\r\n\r\n{}\r\n",
        plain_address("japan"),
        body.replace('\n', "\r\n")
    )
    .into_bytes()
}

fn ingest(g: &mut Game, bytes: &[u8]) -> Intake {
    g.n += 1;
    let now: DateTime<Utc> =
        Utc.with_ymd_and_hms(2026, 6, 1, 10, 0, 0).unwrap() + Duration::minutes(g.n);
    let out =
        g.d.ingest(bytes, now)
            .expect("ingest never fails on a header");
    g.d.deliver().unwrap();
    out
}

/// Every delivered mail: (file name, raw bytes).
fn outbox(g: &Game) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for sub in ["new", "cur"] {
        for e in std::fs::read_dir(g.d.cfg.mail.outbox.join(sub))
            .unwrap()
            .flatten()
        {
            out.push((
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            ));
        }
    }
    out.sort();
    out
}

/// Every mail of the game is built and queued (`mailed` is at the journal's last event, and
/// nothing was set aside), and `verify` passes on the store and on the outbox.
fn all_mailed_and_verified(g: &Game, label: &str) {
    let store = g.d.data.game("g");
    let events = g.d.open_game("g").unwrap().game.book().events;
    assert_eq!(
        store.mailed_upto().unwrap(),
        Some(events - 1),
        "{label}: every event's mails queued"
    );
    assert!(
        !store.dir.join("unbuilt").exists(),
        "{label}: no mail was set aside"
    );
    let (_, findings) = verify::verify_store(&store, &despatch::rulesets::registry());
    assert!(findings.is_empty(), "{label}: store: {findings:?}");
    let (checked, findings) = verify::verify_mails(&g.d.cfg.mail.outbox, Some("g"));
    assert!(findings.is_empty(), "{label}: outbox: {findings:?}");
    assert!(checked.mails > 0, "{label}: the outbox's mails were read");
}

/// The In-Reply-To of the receipt that answers Japan's `n`th submission of step 1 (its queue
/// name is `<event>-submission-japan`): the newest such mail.
fn receipt_in_reply_to(g: &Game) -> String {
    let (_, bytes) = outbox(g)
        .into_iter()
        .rev()
        .find(|(name, _)| name.contains("-submission-japan"))
        .expect("Japan's receipt was built and delivered");
    let m = mail_parser::MessageParser::default().parse(&bytes).unwrap();
    m.in_reply_to().as_text().unwrap_or("").to_string()
}

/// Japan's orders under `headers` (sent again plainly if they were refused), then Russia's
/// as usual: the step resolves.
fn japan_then_russia_resolve(g: &mut Game, headers: &str, label: &str) -> Intake {
    assert_eq!(g.step(), 1);
    let orders = g.orders("japan");
    let out = ingest(g, &raw(headers, &orders));
    if !matches!(out, Intake::Accepted { .. }) {
        let (again, answer) = g.send("japan", &plain_address("japan"), "orders", None, &orders);
        assert!(
            matches!(again, Intake::Accepted { .. }),
            "{label}: {again:?} {answer}"
        );
    }
    let orders = g.orders("russia");
    let (russia, answer) = g.send(
        "russia",
        &plain_address("russia"),
        "Re: orders",
        None,
        &orders,
    );
    assert!(
        matches!(russia, Intake::Accepted { .. }),
        "{label}: {russia:?} {answer}"
    );
    assert!(
        g.step() > 1,
        "{label}: the step resolved after Japan's {out:?}"
    );
    out
}

#[test]
fn every_odd_header_is_answered_and_the_game_goes_on() {
    let huge_id = format!("<{}@x.example>", "a".repeat(100_000));
    let huge_subject = format!("Re: {}", "fleet ".repeat(20_000));
    let cases: Vec<(&str, String, Option<&str>)> = vec![
        ("no Message-ID", "Subject: orders\r\n".into(), None),
        (
            "no @",
            "Subject: orders\r\nMessage-ID: <1700000000.123>\r\n".into(),
            None,
        ),
        (
            "quoted local part",
            "Subject: orders\r\nMessage-ID: <\"a b\"@x.example>\r\n".into(),
            None,
        ),
        (
            "a space",
            "Subject: orders\r\nMessage-ID: <a b@x.example>\r\n".into(),
            None,
        ),
        (
            "a <",
            "Subject: orders\r\nMessage-ID: <a<b@x.example>\r\n".into(),
            None,
        ),
        (
            "non-ASCII id",
            "Subject: orders\r\nMessage-ID: <tōgō@x.example>\r\n".into(),
            None,
        ),
        (
            "huge id",
            format!("Subject: orders\r\nMessage-ID: {huge_id}\r\n"),
            None,
        ),
        (
            "malformed In-Reply-To",
            "Subject: orders\r\nMessage-ID: <ok1@x.example>\r\nIn-Reply-To: <not an id> <ü@x> <<>>\r\n"
                .into(),
            Some("ok1@x.example"),
        ),
        (
            "malformed References",
            "Subject: orders\r\nMessage-ID: <ok2@x.example>\r\nReferences: <a b> <ü@x> garbage <<>> <c@d.example>\r\n"
                .into(),
            Some("ok2@x.example"),
        ),
        (
            "huge In-Reply-To and References",
            format!(
                "Subject: orders\r\nMessage-ID: <ok3@x.example>\r\nIn-Reply-To: {huge_id}\r\nReferences: {}\r\n",
                "<r@x> ".repeat(20_000)
            ),
            Some("ok3@x.example"),
        ),
        (
            "non-ASCII subject",
            "Subject: Re: Флот 東郷 ⚓ orders\r\nMessage-ID: <ok4@x.example>\r\n".into(),
            Some("ok4@x.example"),
        ),
        (
            "huge subject",
            format!("Subject: {huge_subject}\r\nMessage-ID: <ok5@x.example>\r\n"),
            Some("ok5@x.example"),
        ),
        (
            "CR, LF and NUL in an encoded subject",
            "Subject: =?utf-8?q?Re:_x=0D=0ABcc:_evil@x.example=0D=0A=00=07_y?=\r\nMessage-ID: <ok6@x.example>\r\n"
                .into(),
            Some("ok6@x.example"),
        ),
        (
            "everything at once",
            format!(
                "Subject: =?utf-8?q?=E2=9A=93=0D=0A?= {huge_subject}\r\nIn-Reply-To: <x y>\r\nReferences: <ü> {huge_id}\r\n"
            ),
            None,
        ),
    ];
    for (label, headers, echoed) in cases {
        let mut g = start();
        let out = japan_then_russia_resolve(&mut g, &headers, label);
        assert!(matches!(out, Intake::Accepted { .. }), "{label}: {out:?}");
        // The receipt answers the player's mail when its id can be echoed, else it hangs
        // under the seat's thread (the welcome's id).
        let welcome = g.inbox("japan")[0].message_id.clone();
        assert_eq!(
            receipt_in_reply_to(&g),
            echoed.map(str::to_string).unwrap_or(welcome),
            "{label}"
        );
        // What is journaled as the id is bounded: a huge id is kept as its hash.
        let journal = String::from_utf8(g.journal()).unwrap();
        assert!(!journal.contains(&"a".repeat(300)), "{label}");
        for (name, bytes) in outbox(&g) {
            assert!(bytes.len() < 2_000_000, "{label}: {name} is huge");
            assert!(
                !String::from_utf8_lossy(&bytes).contains("\nBcc:"),
                "{label}: {name} carries an injected header"
            );
        }
        all_mailed_and_verified(&g, label);
    }
}

#[test]
fn a_re_delivered_mail_with_a_replaced_id_is_still_a_duplicate() {
    let mut g = start();
    let orders = g.orders("japan");
    let mail = raw(
        &format!(
            "Subject: orders\r\nMessage-ID: <{}@x.example>\r\n",
            "b".repeat(400)
        ),
        &orders,
    );
    assert!(matches!(ingest(&mut g, &mail), Intake::Accepted { .. }));
    assert_eq!(ingest(&mut g, &mail), Intake::Duplicate);
    // The same for a mail without any id: known by the hash of its bytes.
    let mail = raw("Subject: orders\r\n", &g.orders("russia"));
    let mail = String::from_utf8(mail)
        .unwrap()
        .replace(JAPAN, naval_mail::SEATS[1].1)
        .replace(&plain_address("japan"), &plain_address("russia"))
        .into_bytes();
    let out = ingest(&mut g, &mail);
    assert!(matches!(out, Intake::Accepted { .. }), "{out:?}");
    assert_eq!(ingest(&mut g, &mail), Intake::Duplicate);
    all_mailed_and_verified(&g, "re-delivered");
}

#[test]
fn a_mail_that_cannot_be_built_is_set_aside_and_the_organiser_told() {
    let mut g = start_configured("training", |c| {
        c.mail.gm_address = Some("gm@club.example".into())
    });
    // A hand edit broke Russia's secret: no mail to Russia can carry a reply address now.
    let store = g.d.data.game("g");
    let seats_path = store.dir.join("seats.toml");
    let good = std::fs::read_to_string(&seats_path).unwrap();
    let russia_token = naval_mail::SEATS[1].2;
    assert!(good.contains(russia_token));
    std::fs::write(&seats_path, good.replace(russia_token, "broken-secret!x")).unwrap();

    let orders = g.orders("japan");
    let (out, receipt) = g.send("japan", &plain_address("japan"), "orders", None, &orders);
    assert!(matches!(out, Intake::Accepted { .. }), "{out:?}");
    assert!(!receipt.is_empty(), "Japan's receipt went out");
    let events = g.d.open_game("g").unwrap().game.book().events;
    assert_eq!(
        store.mailed_upto().unwrap(),
        Some(events - 1),
        "mailed moved on"
    );
    let unbuilt: Vec<_> = std::fs::read_dir(store.dir.join("unbuilt"))
        .expect("the mail to Russia was set aside")
        .flatten()
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .collect();
    assert_eq!(unbuilt.len(), 1, "{unbuilt:?}");
    assert!(unbuilt[0].contains("seat: russia"), "{}", unbuilt[0]);
    assert!(unbuilt[0].contains("error: "), "{}", unbuilt[0]);
    assert!(
        !unbuilt[0].contains("broken-secret!x"),
        "no secret is written: {}",
        unbuilt[0]
    );
    let to_gm = |g: &Game| g.mails_to("gm@club.example");
    assert_eq!(to_gm(&g).len(), 1);
    assert!(
        to_gm(&g)[0].text.contains("russia"),
        "{}",
        to_gm(&g)[0].text
    );
    assert!(!to_gm(&g)[0].text.contains("broken-secret!x"));

    // Japan changes its orders: another mail to Russia set aside, no second report.
    let (out, _) = g.send("japan", &plain_address("japan"), "orders", None, &orders);
    assert!(matches!(out, Intake::Accepted { .. }), "{out:?}");
    assert_eq!(
        std::fs::read_dir(store.dir.join("unbuilt"))
            .unwrap()
            .count(),
        2
    );
    assert_eq!(to_gm(&g).len(), 1, "the organiser is told once");

    // The organiser mends the file; Russia answers and the step resolves.
    std::fs::write(&seats_path, &good).unwrap();
    let orders = g.orders("russia");
    let (out, _) = g.send("russia", &plain_address("russia"), "orders", None, &orders);
    assert!(matches!(out, Intake::Accepted { .. }), "{out:?}");
    assert_eq!(g.step(), 2);
    let events = g.d.open_game("g").unwrap().game.book().events;
    assert_eq!(store.mailed_upto().unwrap(), Some(events - 1));
}

/// Header values a player (or a broken client) may send: any printable text, the characters
/// ids and subjects are made of, odd ones, encoded words, and now and then a huge one. No CR
/// or LF raw (that would be another header or the body, which other tests cover).
fn header_value() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[^\r\n]{0,80}",
        4 => "[a-z0-9<>@\" .\\[\\]\\\\\t\u{1}\u{7f}ü東=?_-]{0,60}",
        1 => "=\\?utf-8\\?q\\?[A-Za-z0-9=_]{0,40}\\?=",
        1 => (1usize..40_000).prop_map(|n| format!("<{}@x>", "z".repeat(n))),
    ]
}

/// Japan sends its set-up orders under `headers` (again plainly if they were refused):
/// answered, never a failure, and every mail of the game built.
fn hostile_submission(g: &mut Game, headers: &str) -> Result<(), TestCaseError> {
    let orders = g.orders("japan");
    // Numbered, so two cases without a Message-ID are not the same bytes.
    let headers = format!("X-Case: {}\r\n{headers}", g.n);
    let out = ingest(g, &raw(&headers, &orders));
    // Accepted, or refused with an answer (a subject tag may name a step not open), or a
    // duplicate (two cases drew the same Message-ID): never a failure.
    prop_assert!(
        matches!(
            out,
            Intake::Accepted { .. } | Intake::Rejected { .. } | Intake::Duplicate
        ),
        "{out:?}"
    );
    if !matches!(out, Intake::Accepted { .. }) {
        let (again, answer) = g.send("japan", &plain_address("japan"), "orders", None, &orders);
        prop_assert!(
            matches!(again, Intake::Accepted { .. }),
            "{again:?} {answer}"
        );
    }
    let store = g.d.data.game("g");
    let events = g.d.open_game("g").unwrap().game.book().events;
    prop_assert_eq!(store.mailed_upto().unwrap(), Some(events - 1));
    prop_assert!(!store.dir.join("unbuilt").exists());
    Ok(())
}

/// Russia sends its orders as usual: the set-up step resolves (with every hostile submission
/// of Japan's in the journal), every mail is built and `verify` passes.
fn resolve_step(g: &mut Game) -> Result<(), TestCaseError> {
    prop_assert_eq!(g.step(), 1);
    let orders = g.orders("russia");
    let (out, answer) = g.send("russia", &plain_address("russia"), "orders", None, &orders);
    prop_assert!(matches!(out, Intake::Accepted { .. }), "{out:?} {answer}");
    prop_assert_eq!(g.step(), 2, "the step resolved");
    all_mailed_and_verified(g, "after arbitrary headers");
    Ok(())
}

/// Hostile submissions a game's set-up step takes before Russia's orders resolve it.
const PER_STEP: u32 = 8;

thread_local! {
    /// The game the pipeline property's cases play on, and how many cases it has taken. A
    /// fresh game and a resolved step per case would cost half a second each: each case sends
    /// Japan's set-up orders under its headers (each replacing the last), and every
    /// `PER_STEP`th case resolves the step with every one of them journaled, then a new game
    /// is started.
    static PLAYED: std::cell::RefCell<Option<(Game, u32)>> =
        const { std::cell::RefCell::new(None) };
}

/// Header lines for the values given (None: the header is left out).
fn header_lines(values: [(&str, &Option<String>); 4]) -> String {
    let mut headers = String::new();
    for (name, value) in values {
        if let Some(v) = value {
            headers.push_str(&format!("{name}: {v}\r\n"));
        }
    }
    headers
}

/// The four headers an answer echoes or threads by, each absent or any hostile value.
fn any_headers() -> impl Strategy<Value = String> {
    let one = || proptest::option::of(header_value());
    (one(), one(), one(), one()).prop_map(|(id, in_reply_to, references, subject)| {
        header_lines([
            ("Message-ID", &id),
            ("In-Reply-To", &in_reply_to),
            ("References", &references),
            ("Subject", &subject),
        ])
    })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 64,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Through the real pipeline: each case's mail is answered and built, and the step it
    /// was sent in resolves with it journaled.
    #[test]
    fn arbitrary_headers_never_stop_a_game(
        headers in any_headers(),
    ) {
        PLAYED.with(|cell| {
            let mut played = cell.borrow_mut();
            if played.as_ref().is_none_or(|(g, _)| g.step() != 1) {
                *played = Some((start(), 0));
            }
            let (g, n) = played.as_mut().unwrap();
            hostile_submission(g, &headers)?;
            *n += 1;
            if *n % PER_STEP == 0 {
                resolve_step(g)?;
            }
            Ok::<(), TestCaseError>(())
        })?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 300,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// The same headers without a game, many more of them: parsed, the id kept bounded, and
    /// an answer to the mail (threaded under it, with a subject of its own) always builds, echoing
    /// the player's id only when it is a valid msg-id.
    #[test]
    fn an_answer_to_any_headers_builds(
        headers in any_headers(),
    ) {
        use despatch::mail::compose::{Draft, DraftKind, MailCtx, Recipient};
        use despatch::mail::{inbound, outbound};
        let inb = inbound::parse(&raw(&headers, "FLAGSHIP Mikasa")).expect("a mail with a From");
        prop_assert!(inb.message_id.len() <= inbound::MAX_ID_LEN);
        prop_assert!(!inb.message_id.chars().any(char::is_control));
        let recipients = [Recipient {
            seat: "japan".into(),
            private: despatch::store::SeatPrivate {
                address: JAPAN.into(),
                name: String::new(),
                token: naval_mail::SEATS[0].2.into(),
                time_zone: "UTC".into(),
                also_from: vec![],
                notify: Default::default(),
            },
        }];
        let ctx = MailCtx {
            game_address: "despatch@localhost",
            recipients: &recipients,
            reference: None,
            salt_key: None,
            journal: None,
            press: None,
            gm_known: false,
            mail_key: None,
            unsubscribe_url: None,
            site_url: None,
            gathered: &[],
            campaign: None,
            now: Utc.with_ymd_and_hms(2026, 6, 1, 10, 0, 0).unwrap(),
        };
        let draft = Draft {
            name: "1-submission-japan".into(),
            kind: DraftKind::Receipt,
            game: "g".into(),
            seat: "japan".into(),
            subject: "Orders received".into(),
            text: "Orders received.".into(),
            rich: None,
            calendar: None,
            answers: Some(inb.message_id.clone()),
            step: Some(1),
            waits: None,
            brings: Vec::new(),
        };
        let out = draft.outgoing(&ctx).expect("addressed");
        let echoed = outbound::valid_message_id(&inb.message_id);
        prop_assert_eq!(
            out.in_reply_to.as_deref() == Some(inb.message_id.as_str()),
            echoed
        );
        let bytes = outbound::build(&out).expect("an answer to any headers builds");
        let m = mail_parser::MessageParser::default().parse(&bytes).expect("parses back");
        // The answer's subject is its own: nothing of the player's subject is echoed.
        prop_assert_eq!(m.subject(), Some("[g #1] Orders received"));
        prop_assert!(m.bcc().is_none() && m.cc().is_none());
    }
}
