//! Optional prompts never invite what cannot be used (issue 18.2). A seat whose standing
//! orders cover a step is invited to write only while a required answer holds the step open,
//! and is told that the step resolves the moment that answer arrives; when nothing holds the
//! step open it resolves at once, and the mail says the standing orders were used instead of
//! asking for orders. Naval order syntax (`STANDING FIRE NEAREST`).

use crate::naval_mail;

use despatch::daemon::Intake;
use naval_mail::{Game, Mail, start_with};

/// Both (or only Japan) declare standing fire orders with their set-up, then play on.
fn game_with_standing(seats: &[&str]) -> Game {
    game_with_standing_after(seats, |_| {})
}

/// The same, after `first` (a seat's command mail, say) at the very start.
fn game_with_standing_after(seats: &[&str], first: impl FnOnce(&mut Game)) -> Game {
    let mut g = start_with("yellow-sea-1904");
    first(&mut g);
    let first = g.step();
    for seat in g.waiting() {
        let last = g.inbox(&seat).pop().unwrap();
        let mut orders = g.orders(&seat);
        if seats.contains(&seat.as_str()) && !orders.contains("STANDING FIRE") {
            orders = format!("STANDING FIRE NEAREST\n{orders}");
        }
        if !seats.contains(&seat.as_str()) {
            orders = orders
                .lines()
                .filter(|l| !l.starts_with("STANDING"))
                .map(|l| format!("{l}\n"))
                .collect();
        }
        let (out, answer) = g.send(
            &seat,
            &last.reply_to,
            &format!("Re: {}", last.subject),
            Some(&last.message_id),
            &orders,
        );
        assert!(matches!(out, Intake::Accepted { .. }), "{out:?}: {answer}");
    }
    assert!(g.step() > first, "set-up did not resolve");
    // Russia never declares fire with its manoeuvre orders, so its own fire prompt (required,
    // with no standing orders) holds the gunnery step open while Japan's is optional.
    let mut guard = 0;
    while g.step() < first + 12 && !g.d.open_game("g").unwrap().game.is_over() {
        guard += 1;
        assert!(guard < 60);
        for seat in g.waiting() {
            let last = g.inbox(&seat).pop().unwrap();
            let mut orders = g.orders(&seat);
            if seat == "russia" && !seats.contains(&"russia") {
                let kept: Vec<&str> = orders
                    .lines()
                    .filter(|l| !l.starts_with("FIRE") && !l.starts_with("STANDING"))
                    .collect();
                orders = if kept.is_empty() {
                    "PASS\n".into()
                } else {
                    kept.join("\n") + "\n"
                };
            }
            let (out, answer) = g.send(
                &seat,
                &last.reply_to,
                &format!("Re: {}", last.subject),
                Some(&last.message_id),
                &orders,
            );
            assert!(matches!(out, Intake::Accepted { .. }), "{out:?}: {answer}");
        }
    }
    g
}

/// A mail's text with its line breaks as spaces: prose is wrapped at 72 columns.
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn invites_fire(m: &Mail) -> bool {
    flat(&m.text).contains("YOUR ORDERS NOW") && flat(&m.text).contains("Declare your fire plan")
}

#[test]
fn with_both_on_standing_orders_no_mail_invites_a_fire_plan() {
    let g = game_with_standing(&["japan", "russia"]);
    for seat in ["japan", "russia"] {
        let inbox = g.inbox(seat);
        assert!(
            !inbox.iter().any(invites_fire),
            "{seat} was invited to send a fire plan that could not be used"
        );
        let told = inbox
            .iter()
            .find(|m| flat(&m.text).contains("Nothing is asked of you in this step"))
            .unwrap_or_else(|| panic!("{seat} was never told its standing orders are used"));
        assert!(told.text.contains("gunnery"), "{}", told.text);
        assert!(
            flat(&told.text)
                .contains("the orders you have already given (standing or queued) are used")
        );
        assert!(
            !told.subject.contains("your orders"),
            "subject {:?}",
            told.subject
        );
    }
}

#[test]
fn an_optional_prompt_says_what_resolves_the_step() {
    let g = game_with_standing(&["japan"]);
    let japan = g.inbox("japan");
    let invited: Vec<&Mail> = japan.iter().filter(|m| invites_fire(m)).collect();
    assert!(
        !invited.is_empty(),
        "Japan was never asked about a fire step"
    );
    for m in invited {
        // Japan's prompt is optional only where Russia, without standing orders, holds the step.
        if m.text.contains("Optional") {
            assert!(
                flat(&m.text).contains(
                    "the step resolves the moment russia has answered, whatever the deadline"
                ),
                "{}",
                m.text
            );
        }
    }
    assert!(
        japan
            .iter()
            .any(|m| flat(&m.text).contains("the step resolves the moment russia")),
        "no optional invitation named what resolves the step"
    );
    // Russia, with no standing orders, is always asked outright (a required prompt).
    assert!(
        !g.inbox("russia")
            .iter()
            .any(|m| flat(&m.text).contains("Nothing is asked of you in this step"))
    );
}

#[test]
fn only_a_required_prompt_is_titled_your_orders() {
    let g = game_with_standing(&["japan"]);
    let japan = g.inbox("japan");
    let optional: Vec<&Mail> = japan
        .iter()
        .filter(|m| m.text.contains("(Optional:"))
        .collect();
    assert!(!optional.is_empty(), "Japan was never invited optionally");
    for m in optional {
        assert!(
            m.subject.contains("Results, orders optional: ") && !m.subject.contains("Your orders"),
            "{:?}",
            m.subject
        );
    }
    // Positive control: the required prompts still say so.
    assert!(
        g.inbox("russia")
            .iter()
            .any(|m| m.subject.contains("Your orders")),
        "no required prompt titled as one"
    );
}

#[test]
fn notify_optional_off_keeps_results_of_steps_that_only_invite_for_the_next_mail() {
    // The control sends a command too (one that changes nothing), so both games read the
    // same mails in the same order and so roll the same dice.
    let notify = |command: &'static str, shown: &'static str| {
        move |g: &mut Game| {
            let (out, answer) = g.send(
                "japan",
                &naval_mail::plain_address("japan"),
                "quiet please",
                None,
                command,
            );
            assert!(matches!(out, Intake::Settings { .. }), "{out:?}");
            assert!(answer.contains(shown), "{answer}");
        }
    };
    let control = game_with_standing_after(
        &["japan"],
        notify("NOTIFY", "Optional steps:   on their own"),
    );
    let quiet = game_with_standing_after(
        &["japan"],
        notify(
            "NOTIFY OPTIONAL OFF",
            "Optional steps:   with your next mail",
        ),
    );
    let invited = |g: &Game| {
        g.inbox("japan")
            .iter()
            .filter(|m| m.text.contains("(Optional:") || m.text.contains("Nothing is asked of you"))
            .count()
    };
    assert!(
        invited(&control) > 0,
        "control: Japan is invited optionally"
    );
    assert_eq!(
        invited(&quiet),
        0,
        "no mail of an only-inviting step on its own"
    );
    // They came with the next mail that asked Japan something, listed and attached.
    assert!(
        quiet.inbox("japan").iter().any(
            |m| m.text.contains("SINCE YOUR LAST MAIL") && m.text.contains("results-japan.eml")
        ),
        "the results that waited never came"
    );
    assert!(
        quiet.inbox("japan").len() < control.inbox("japan").len(),
        "fewer mails in Japan's inbox"
    );
    // The steps that ask Japan outright still come, and the game went as far.
    assert!(
        quiet
            .inbox("japan")
            .iter()
            .any(|m| m.subject.contains("Your orders"))
    );
    // A setting is no game event: the two journals are the same, byte for byte.
    assert_eq!(quiet.journal(), control.journal());
    // Japan's folder, with the skipped steps missing, still verifies to the last die.
    let folder = tempfile::tempdir().unwrap();
    let outbox = &quiet.d.cfg.mail.outbox;
    let mut copied = 0;
    for sub in ["new", "cur"] {
        for e in std::fs::read_dir(outbox.join(sub)).unwrap() {
            let p = e.unwrap().path();
            let bytes = std::fs::read(&p).unwrap();
            if String::from_utf8_lossy(&bytes).contains("\nTo: togo@fleet.example") {
                std::fs::write(folder.path().join(p.file_name().unwrap()), bytes).unwrap();
                copied += 1;
            }
        }
    }
    assert_eq!(copied, quiet.inbox("japan").len());
    let (checked, findings) = despatch::verify::verify_mails(folder.path(), Some("g"));
    assert!(findings.is_empty(), "{findings:?}");
    assert!(checked.rolls > 0, "{checked:?}");
}
