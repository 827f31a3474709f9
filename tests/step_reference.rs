//! A mail is applied only to the step it answers (issue 18.1): every Despatch mail names the
//! step it asks about in its reply address (`….s4@`), its subject tag (`[g #4]`) and its
//! Message-ID; a reply naming a step that has closed is refused and changes nothing, whichever
//! of the three carries the reference. Driven by raw mails in Naval order syntax.

use crate::naval_mail;

use despatch::daemon::Intake;
use naval_mail::{plain_address, start};

#[test]
fn every_mail_names_the_step_it_asks_about_in_address_subject_and_message_id() {
    let mut g = start();
    let welcome = g.inbox("japan").remove(0);
    let k = g.step();
    assert!(
        welcome.reply_to.ends_with(&format!(".s{k}@localhost")),
        "{}",
        welcome.reply_to
    );
    assert!(
        welcome.subject.starts_with(&format!("[g #{k}] ")),
        "{}",
        welcome.subject
    );
    g.play_until(k + 1);
    let last = g.inbox("japan").pop().unwrap();
    let k = g.step();
    assert!(last.reply_to.ends_with(&format!(".s{k}@localhost")));
    assert!(last.subject.starts_with(&format!("[g #{k}] ")));
    assert!(last.message_id.ends_with(&format!(".s{k}@localhost")));
}

/// The play-test's case: a revised plan for a step that has closed, read later, must not
/// become the player's orders for the open step — whether the reference is in the address,
/// only in In-Reply-To, or only in the subject tag.
#[test]
fn a_reply_for_a_resolved_step_is_refused_and_changes_nothing() {
    let mut g = start();
    let first = g.step();
    let welcome = g.inbox("japan").remove(0);
    g.play_until(first + 2);
    // Keep to a step where Japan is asked, so a step-less mail would have been accepted.
    let mut guard = 0;
    while !g.waiting().contains(&"japan".to_string()) {
        guard += 1;
        assert!(guard < 20);
        let k = g.step();
        g.play_until(k + 1);
    }
    let open = g.step();
    let orders = g.orders("japan");
    let stale_results = g
        .inbox("japan")
        .into_iter()
        .find(|m| {
            m.message_id
                .ends_with(&format!(".s{}@localhost", first + 1))
        })
        .expect("a mail that asked about the second step");
    let cases = [
        (
            "address",
            welcome.reply_to.clone(),
            "Re: my plan".to_string(),
            None,
        ),
        (
            "in-reply-to",
            plain_address("japan"),
            "Re: my plan".to_string(),
            Some(stale_results.message_id.clone()),
        ),
        (
            "subject",
            plain_address("japan"),
            format!("Re: [g #{first}] Turn 1"),
            None,
        ),
    ];
    for (via, to, subject, in_reply_to) in cases {
        let before = g.journal();
        let (out, answer) = g.send("japan", &to, &subject, in_reply_to.as_deref(), &orders);
        assert!(matches!(out, Intake::Rejected { .. }), "via {via}: {out:?}");
        assert!(
            answer.contains("has already been resolved")
                && answer.contains(&format!("the open step is {open}")),
            "via {via}: {answer}"
        );
        assert_eq!(g.journal(), before, "via {via}: the journal changed");
        assert_eq!(g.step(), open);
    }
    // Positive control: the same orders, answering the open step's own mail, are taken.
    let last = g
        .inbox("japan")
        .into_iter()
        .rev()
        .find(|m| m.message_id.ends_with(&format!(".s{open}@localhost")));
    let last = last.expect("a mail asking about the open step");
    let (out, answer) = g.send(
        "japan",
        &last.reply_to,
        &format!("Re: {}", last.subject),
        Some(&last.message_id),
        &orders,
    );
    assert!(matches!(out, Intake::Accepted { .. }), "{out:?}: {answer}");
    // And a mail with no step reference at all still goes to the open step.
    let k = g.step();
    if g.waiting().contains(&"japan".to_string()) {
        let orders = g.orders("japan");
        let (out, _) = g.send("japan", &plain_address("japan"), "orders", None, &orders);
        assert!(
            matches!(out, Intake::Accepted { step, .. } if step == k),
            "{out:?}"
        );
    }
}

#[test]
fn a_reference_to_a_step_not_yet_open_is_refused() {
    let mut g = start();
    let k = g.step();
    let orders = g.orders("japan");
    let to = plain_address("japan").replace("@", &format!(".s{}@", k + 5));
    let before = g.journal();
    let (out, answer) = g.send("japan", &to, "orders", None, &orders);
    assert!(matches!(out, Intake::Rejected { .. }), "{out:?}");
    assert!(answer.contains("has not opened yet"), "{answer}");
    assert_eq!(g.journal(), before);
}

#[test]
fn a_mail_with_no_step_reference_goes_to_the_open_step_only_if_the_seat_is_asked_there() {
    let mut g = start();
    let mut guard = 0;
    while g.d.open_game("g").unwrap().game.is_prompted("japan") {
        guard += 1;
        assert!(guard < 20, "no step within reach leaves Japan unasked");
        let k = g.step();
        g.play_until(k + 1);
    }
    let before = g.journal();
    let orders = g.orders("russia");
    let (out, answer) = g.send("japan", &plain_address("japan"), "orders", None, &orders);
    assert!(matches!(out, Intake::Rejected { .. }), "{out:?}");
    assert!(answer.contains("no orders are asked of japan"), "{answer}");
    assert_eq!(g.journal(), before);
}
