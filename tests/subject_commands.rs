//! Commands come from the body, never from a subject alone over orders (issue 27 point 6;
//! docs/club-rules.md M1–M3): orders under any subject are applied and nothing else happens;
//! a subject asks only over an empty body and only for what changes nothing; a reply with
//! orders to a press relay applies the orders; `WITHDRAW DRAW` is orders, and its refusal says
//! `DECLINE DRAW`. Each with its control: the same command in the body still works. Naval's
//! training game.

use crate::naval_mail;

use despatch::daemon::Intake;
use naval_mail::{Game, plain_address, start};

fn accepted(out: &Intake) -> bool {
    matches!(out, Intake::Accepted { .. })
}

fn talk(command: &'static str) -> Intake {
    Intake::Talk {
        game: "g".into(),
        seat: "japan".into(),
        command,
    }
}

fn over(g: &Game) -> bool {
    g.d.open_game("g").unwrap().game.is_over()
}

/// Names of every delivered mail.
fn mail_names(g: &Game) -> Vec<String> {
    ["new", "cur"]
        .iter()
        .flat_map(|sub| std::fs::read_dir(g.d.cfg.mail.outbox.join(sub)).unwrap())
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

fn count(g: &Game, part: &str) -> usize {
    mail_names(g).iter().filter(|n| n.contains(part)).count()
}

/// Japan's orders, as journaled for the open step.
fn pending_japan(g: &Game) -> Option<String> {
    let open = g.d.open_game("g").unwrap();
    open.game
        .book()
        .pending
        .get("japan")
        .map(|p| p.orders.clone())
}

#[test]
fn orders_under_a_command_subject_are_orders_and_nothing_else() {
    for subject in [
        "Status update from the fleet",
        "Press on to Port Arthur",
        "Re: STATUS",
        "Re: [g] CONCEDE g",
        "help",
        "Re: [g #1] HELP",
        "NOTIFY ALL OFF",
        "ADDRESS ADD spy@elsewhere.example",
        "History 3",
    ] {
        let mut g = start();
        let seats_before = g.d.data.game("g").seats().unwrap();
        let orders = g.orders("japan");
        let (out, receipt) = g.send("japan", &plain_address("japan"), subject, None, &orders);
        assert!(accepted(&out), "{subject}: {out:?} {receipt}");
        assert!(pending_japan(&g).is_some(), "{subject}: orders journaled");
        assert!(receipt.contains("received"), "{subject}: {receipt}");
        assert!(!over(&g), "{subject}: nothing conceded");
        for kind in [
            "status-",
            "help-",
            "history-",
            "settings-",
            "refused-",
            "act-",
        ] {
            assert_eq!(count(&g, kind), 0, "{subject}: no {kind} mail");
        }
        assert_eq!(
            g.d.data.game("g").seats().unwrap(),
            seats_before,
            "{subject}: no setting changed"
        );
    }
}

#[test]
fn the_same_commands_in_the_body_still_work() {
    let mut g = start();
    let japan = plain_address("japan");
    let (out, answer) = g.send("japan", &japan, "orders", None, "STATUS");
    assert_eq!(out, talk("status"), "{answer}");
    assert_eq!(count(&g, "status-"), 1);
    let (out, _) = g.send("japan", &japan, "orders", None, "HELP\n");
    assert!(matches!(out, Intake::Help { .. }), "{out:?}");
    let (out, _) = g.send(
        "japan",
        &japan,
        "Re: orders",
        None,
        "PRESS TO russia\nHold fast.",
    );
    assert_eq!(out, talk("press"));
    assert!(
        pending_japan(&g).is_none(),
        "no orders were read from any of them"
    );
    let (out, answer) = g.send("japan", &japan, "Status update", None, "CONCEDE g");
    assert!(matches!(out, Intake::SeatAct { .. }), "{out:?} {answer}");
    assert!(over(&g), "a CONCEDE line in the body concedes");
}

#[test]
fn orders_in_reply_to_a_press_relay_are_applied() {
    let mut g = start();
    let (out, _) = g.send(
        "japan",
        &plain_address("japan"),
        "a word",
        None,
        "PRESS TO russia\nShall we meet at dawn?",
    );
    assert_eq!(out, talk("press"));
    let relay = g
        .inbox("russia")
        .into_iter()
        .rev()
        .find(|m| m.subject.contains("Press from japan"))
        .expect("the relay reached Russia");
    // Russia replies to the relay, as a mail client does, with orders.
    let orders = g.orders("russia");
    let (out, receipt) = g.send(
        "russia",
        &relay.reply_to,
        &format!("Re: {}", relay.subject),
        Some(&relay.message_id),
        &orders,
    );
    assert!(accepted(&out), "{out:?}: {receipt}");
    assert!(receipt.contains("received"), "{receipt}");
    let open = g.d.open_game("g").unwrap();
    assert!(open.game.book().pending.contains_key("russia"));
    // Control: a PRESS line in the reply's body is relayed as before.
    let (out, _) = g.send(
        "russia",
        &relay.reply_to,
        &format!("Re: {}", relay.subject),
        Some(&relay.message_id),
        "PRESS TO japan\nAt dawn, then.",
    );
    assert_eq!(
        out,
        Intake::Talk {
            game: "g".into(),
            seat: "russia".into(),
            command: "press"
        }
    );
}

#[test]
fn a_subject_alone_asks_only_what_changes_nothing() {
    let mut g = start();
    let japan = plain_address("japan");
    // Read-only commands are answered from a subject over an empty body (a phone's signature
    // is not the player's own words).
    let (out, _) = g.send("japan", &japan, "Re: STATUS", None, "");
    assert_eq!(out, talk("status"));
    let (out, _) = g.send(
        "japan",
        &japan,
        "Re: [g #1] help",
        None,
        "Sent from my iPhone",
    );
    assert!(matches!(out, Intake::Help { .. }), "{out:?}");
    let (out, _) = g.send("japan", &japan, "history", None, "GAME g\n");
    assert_eq!(out, talk("history"));
    // Nothing that acts is taken from a subject: not carried out, and told where to write it.
    let seats_before = g.d.data.game("g").seats().unwrap();
    let journal = g.journal();
    for (subject, word) in [
        ("Re: [g] CONCEDE g", "CONCEDE"),
        ("RESIGN g", "RESIGN"),
        ("PROPOSE DRAW g", "PROPOSE"),
        ("ADDRESS ADD spy@elsewhere.example", "ADDRESS"),
        ("NOTIFY ALL OFF", "NOTIFY"),
        ("TIMEZONE Asia/Tokyo", "TIMEZONE"),
        ("ABSENT 2026-07-01", "ABSENT"),
        ("SPECTATOR ADD spy@elsewhere.example", "SPECTATOR"),
        ("PRESS TO russia", "PRESS"),
    ] {
        let (out, answer) = g.send("japan", &japan, subject, None, "");
        assert!(matches!(out, Intake::Rejected { .. }), "{subject}: {out:?}");
        let flat = answer.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            flat.contains(&format!("the subject asks for {word}"))
                && flat.contains("first line of the mail's text"),
            "{subject}: {answer}"
        );
    }
    assert!(!over(&g));
    assert_eq!(g.journal(), journal, "nothing journaled");
    assert_eq!(g.d.data.game("g").seats().unwrap(), seats_before);
    // A title that is no command (or a command written wrong) over an empty body is just an
    // empty mail.
    let (out, answer) = g.send("japan", &japan, "Status update from the fleet", None, "");
    assert!(matches!(out, Intake::Rejected { .. }), "{out:?}");
    assert!(!answer.contains("the subject asks"), "{answer}");
    // Control: the acting command in the body is carried out.
    let (out, _) = g.send("japan", &japan, "a word", None, "NOTIFY ALL OFF");
    assert!(matches!(out, Intake::Settings { .. }), "{out:?}");
    assert_ne!(g.d.data.game("g").seats().unwrap(), seats_before);
}

#[test]
fn withdraw_draw_is_orders_and_its_refusal_says_decline_draw() {
    let mut g = start();
    let japan = plain_address("japan");
    let (out, _) = g.send("japan", &japan, "a word", None, "PROPOSE DRAW g");
    assert!(matches!(out, Intake::SeatAct { .. }), "{out:?}");
    let votes = |g: &Game| g.d.data.game("g").seats().unwrap().draw_votes;
    assert!(votes(&g).contains("japan"));
    // WITHDRAW is a Naval order word: the line is read as orders, refused, and the answer
    // says how to take the vote back.
    let (out, answer) = g.send("japan", &japan, "a word", None, "WITHDRAW DRAW");
    assert!(matches!(out, Intake::Rejected { .. }), "{out:?}");
    let flat = answer.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("write DECLINE DRAW"), "{answer}");
    assert!(votes(&g).contains("japan"), "the vote stands");
    // Control: DECLINE DRAW takes it back.
    let (out, _) = g.send("japan", &japan, "a word", None, "DECLINE DRAW");
    assert!(matches!(out, Intake::SeatAct { .. }), "{out:?}");
    assert!(votes(&g).is_empty());
    // The hint is only for that line: other refused orders are answered as before.
    let (out, answer) = g.send("japan", &japan, "a word", None, "WITHDRAW Mikasa");
    assert!(matches!(out, Intake::Rejected { .. }), "{out:?}");
    assert!(!answer.contains("DECLINE DRAW"), "{answer}");
}
