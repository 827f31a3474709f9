//! Issues 14.3, 14.6 and 30.3: subjects that work in an inbox list (at most 60 characters, what
//! matters first: the kind of mail, then the deadline in the seat's time zone), and threading
//! and list headers: an answer has a subject of its own kind (Receipt, Rejected, …) and replies
//! to the player's mail by In-Reply-To; every mail carries the game's List-Id, says whether it
//! was asked for (Auto-Submitted) and names the game in a From name of at most 15 columns.

use despatch::daemon::Intake;
use despatch::engine::{Play, Ruleset};
use despatch::rulesets::naval_rjw::NavalRjw;
use mail_parser::{HeaderValue, MessageParser};

use crate::world;
use world::*;

fn header(raw: &[u8], name: &str) -> String {
    let m = MessageParser::default().parse(raw).unwrap();
    match m.header(name) {
        Some(HeaderValue::Text(t)) => t.to_string(),
        Some(HeaderValue::Address(a)) => a
            .first()
            .map(|x| {
                format!(
                    "{} <{}>",
                    x.name().unwrap_or_default(),
                    x.address().unwrap_or_default()
                )
            })
            .unwrap_or_default(),
        Some(HeaderValue::TextList(l)) => l.join(" "),
        Some(other) => format!("{other:?}"),
        None => String::new(),
    }
}

fn subject(raw: &[u8]) -> String {
    MessageParser::default()
        .parse(raw)
        .unwrap()
        .subject()
        .unwrap_or_default()
        .to_string()
}

fn play_out(w: &mut World, max_steps: u64) {
    while !w.game().is_over() && w.game().step <= max_steps {
        let g = w.game();
        for seat in g.waiting_for() {
            let orders = NavalRjw::sample_orders(&g.state, &seat, g.step * 31 + w.n as u64);
            assert!(matches!(w.send(&seat, &orders), Intake::Accepted { .. }));
        }
    }
}

#[test]
fn subjects_put_the_action_first_and_fit_an_inbox_list() {
    // Yellow Sea: the longest step titles of the shipped Naval scenarios ("Turn 5 — Imperial
    // Russian Navy, First Pacific Squadron (Vitgeft) manoeuvres" made 135-character subjects).
    let mut w = world("yellow-sea-1904");
    play_out(&mut w, 200);
    let mails = w.raw_delivered();
    let subjects: Vec<String> = mails.iter().map(|(_, r)| subject(r)).collect();
    for s in &subjects {
        assert!(
            s.chars().count() <= 60,
            "{} characters: {s}",
            s.chars().count()
        );
    }
    let orders: Vec<&String> = subjects
        .iter()
        .filter(|s| s.contains("Your orders"))
        .collect();
    assert!(orders.len() > 4, "{subjects:#?}");
    for o in &orders {
        // The deadline right after the kind, whole: short (`Thu 26 Nov 18:00 UTC`).
        let (tag, due) = o.split_once(" Your orders — due ").expect("due first");
        assert!(tag.starts_with(&format!("[{GAME} #")), "{o}");
        assert_eq!(due.split(' ').count(), 5, "{o}");
        assert!(!o.contains('…'), "nothing of it cut: {o}");
    }
    // A results mail that asks nothing keeps the step's title, cut to fit.
    assert!(
        subjects
            .iter()
            .any(|s| s.contains("] Results: Turn ") && s.ends_with('…') && s.chars().count() <= 60),
        "{subjects:#?}"
    );
    assert!(
        subjects
            .iter()
            .any(|s| s.starts_with(&format!("[{GAME}]")) && s.contains("Game over: ")),
        "{subjects:#?}"
    );
    // No mail numbers the step where its subject names it otherwise ("step 6" beside "Turn 3").
    assert!(
        subjects
            .iter()
            .all(|s| !s.to_lowercase().contains(" step ")),
        "{subjects:#?}"
    );
}

#[test]
fn answers_thread_under_the_players_mail_and_every_mail_carries_the_list_headers() {
    let mut w = world("training");
    w.one_receipt_and_one_rejection();
    let mails = w.raw_delivered();
    let receipt = &mails
        .iter()
        .find(|(n, _)| n.contains("submission-japan"))
        .unwrap()
        .1;
    // tests/common/world.rs sends "Re: [school] orders" as message m1@player.example: the
    // answer threads under it, but says what it is rather than echoing it.
    let title = w.game().spec().title;
    assert_eq!(
        subject(receipt),
        despatch::mail::compose::fit_subject(
            &format!("[{GAME} #1]"),
            &format!("Receipt: orders for {title}")
        )
    );
    assert_eq!(header(receipt, "In-Reply-To"), "m1@player.example");
    assert_eq!(header(receipt, "Auto-Submitted"), "auto-replied");
    let rejection = &mails
        .iter()
        .find(|(n, _)| n.contains("-reject-"))
        .unwrap()
        .1;
    assert_eq!(
        subject(rejection),
        format!("[{GAME} #1] Rejected: nothing in your mail was applied")
    );
    assert_eq!(header(rejection, "In-Reply-To"), "m2@player.example");
    let notice = &mails
        .iter()
        .find(|(n, _)| n.contains("submission-russia"))
        .unwrap()
        .1;
    assert_eq!(
        header(notice, "Auto-Submitted"),
        "auto-generated",
        "nobody asked for the notice"
    );
    assert_eq!(
        subject(notice),
        format!("[{GAME} #1] japan has sent orders")
    );
    for (name, raw) in &mails {
        let list = header(raw, "List-Id");
        assert!(
            list.contains(&format!("<{GAME}.despatch.localhost>")),
            "{name}: List-Id {list:?}"
        );
        let from = header(raw, "From");
        let (display, _) = from.split_once(" <").unwrap();
        assert!(display.chars().count() <= 15, "{name}: From {from:?}");
        assert_eq!(display, GAME, "{name}: the From name is the game's id");
    }
}

/// The subject of the one mail answering the player's last mail (its In-Reply-To).
fn answer_subject(w: &World) -> String {
    let id = format!("m{}@player.example", w.n);
    let hits: Vec<String> = w
        .raw_delivered()
        .iter()
        .filter(|(_, r)| header(r, "In-Reply-To") == id)
        .map(|(_, r)| subject(r))
        .collect();
    assert_eq!(hits.len(), 1, "one answer to {id}: {hits:?}");
    hits[0].clone()
}

#[test]
fn every_answer_has_a_subject_of_its_own_kind_and_threads_under_the_players_mail() {
    let mut w = world("training");
    let orders = NavalRjw::sample_orders(&w.game().state, "japan", 1);
    // (what the player writes, the answer's subject after the tag). The player's own subject
    // is "Re: [school] orders" every time: it never comes back.
    let cases = [
        (
            "FLAGSHIP Nobody",
            "Rejected: nothing in your mail was applied",
        ),
        ("STATUS", "Status: step 1"),
        ("HISTORY", "History: the steps so far"),
        ("HISTORY 7", "Rejected: command not carried out"),
        ("TIMEZONE Europe/Paris", "Settings: yours now"),
        ("NAME Heihachiro Togo", "Settings: yours now"),
        ("HELP", "Help: the order reference"),
        (orders.as_str(), "Receipt: orders for "),
    ];
    let mut seen = Vec::new();
    for (body, want) in cases {
        w.send("japan", body);
        let got = answer_subject(&w);
        let rest = got
            .strip_prefix(&format!("[{GAME} #1] "))
            .unwrap_or_else(|| panic!("{body}: the game's tag first: {got}"));
        assert!(rest.starts_with(want), "{body}: {got}");
        assert!(
            !got.contains("Re:") && !got.contains("orders]"),
            "{body}: {got}"
        );
        assert!(got.chars().count() <= 60, "{body}: {got}");
        seen.push(rest.split(':').next().unwrap().to_string());
    }
    // A rejection, a receipt, a status and a settings answer are told apart in the index.
    seen.sort();
    seen.dedup();
    assert_eq!(
        seen,
        [
            "Help", "History", "Receipt", "Rejected", "Settings", "Status"
        ],
        "{seen:?}"
    );
}

#[test]
fn a_name_given_by_mail_is_shown_in_the_settings_and_refused_when_it_is_an_address() {
    let mut w = world("training");
    w.send("japan", "NAME Heihachiro Togo");
    let text = |w: &World| {
        let id = format!("m{}@player.example", w.n);
        let raw = w
            .raw_delivered()
            .into_iter()
            .find(|(_, r)| header(r, "In-Reply-To") == id)
            .unwrap()
            .1;
        MessageParser::default()
            .parse(&raw)
            .unwrap()
            .body_text(0)
            .unwrap()
            .into_owned()
    };
    let answer = text(&w);
    assert!(
        answer.contains("Name:             Heihachiro Togo"),
        "{answer}"
    );
    w.send("japan", "NAME togo@example.org");
    let answer = text(&w);
    assert!(answer.contains("NAME was not understood"), "{answer}");
    assert!(
        answer.contains("Name:             Heihachiro Togo"),
        "unchanged: {answer}"
    );
    // No Markdown code marks reach the player (the reason was written with them).
    assert!(!answer.contains('`'), "{answer}");
}
