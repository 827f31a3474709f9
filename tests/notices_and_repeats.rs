//! Mail that said a thing twice or said it wrongly (seen in the Lone Star play-through, stop 25):
//! the welcome printed a seat's units under two headings, every card-order move sent every other
//! seat a "sealed orders" notice seconds before the results mail that made it moot, and the
//! mover's receipt invited a replacement for a step that had already locked.

use crate::mail_world;
use crate::world;

use despatch::daemon::Intake;
use mail_world::delivered;

fn flat(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn patrol() -> mail_world::World {
    mail_world::lone_star_patrol("lsn")
}

#[test]
fn the_welcome_lists_a_seats_units_once_and_help_still_lists_them() {
    let mut w = patrol();
    let welcome = delivered(w.outbox(), "welcome-hays").concat();
    assert_eq!(welcome.matches("YOUR UNITS").count(), 1, "{welcome}");
    // The one left is the view's, under the table as the seat sees it.
    let table = welcome.find("THE TABLE AS YOU SEE IT").expect("the view");
    assert!(welcome.find("YOUR UNITS").unwrap() > table, "{welcome}");
    // Control: the briefing does carry the section, as HELP (which has no view) shows.
    let out = w.send("hays", "HELP");
    assert!(matches!(out, Intake::Help { .. }), "{out:?}");
    let help = delivered(w.outbox(), "help-").concat();
    assert!(help.contains("YOUR UNITS"), "{help}");
    assert!(help.contains("Rangers (infantry)"), "{help}");
}

/// The seat whose card is up, and the units its movement prompt names.
fn mover(w: &mail_world::World) -> (&'static str, Vec<String>) {
    for (seat, _, _) in mail_world::LONE_STAR_PATROL {
        let text = flat(&delivered(w.outbox(), &format!("results-{seat}")).concat());
        if let Some(at) = text.find("move your units (") {
            let rest = &text[at + "move your units (".len()..];
            let units = rest[..rest.find(')').unwrap()]
                .split(", ")
                .map(str::to_string)
                .collect();
            return (seat, units);
        }
    }
    panic!("nobody is asked to move");
}

#[test]
fn a_step_one_seat_answers_sends_no_notices_and_its_receipt_offers_no_replacement() {
    let mut w = patrol();
    let (seat, units) = mover(&w);
    let orders: String = units.iter().map(|u| format!("HOLD {u}\n")).collect();
    let out = w.send(seat, &orders);
    assert!(matches!(out, Intake::Accepted { .. }), "{out:?}");
    let submissions: Vec<String> = std::fs::read_dir(w.outbox().join("new"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("-submission-"))
        .collect();
    assert_eq!(
        submissions.len(),
        1,
        "only the mover's receipt: {submissions:?}"
    );
    assert!(submissions[0].ends_with(&format!("-submission-{seat}")));
    let receipt = flat(&delivered(w.outbox(), &format!("submission-{seat}")).concat());
    assert!(
        receipt.contains("Everyone has answered; the step resolves now."),
        "{receipt}"
    );
    assert!(!receipt.contains("Send a new set"), "{receipt}");
    assert!(!receipt.contains("see only this digest"), "{receipt}");
}

#[test]
fn control_a_sealed_step_still_awaiting_a_seat_sends_the_notice_and_offers_replacement() {
    let mut w = world::world("training");
    let out = w.send("japan", "FLAGSHIP Mikasa\nSECOND Asahi\n");
    assert!(matches!(out, Intake::Accepted { .. }), "{out:?}");
    let notice = flat(&world::body_of(&w, "000001-submission-russia"));
    assert!(
        notice.contains("japan has sent sealed orders for step 1"),
        "{notice}"
    );
    assert!(
        notice.contains("stay sealed until the step resolves"),
        "{notice}"
    );
    let receipt = flat(&world::body_of(&w, "000001-submission-japan"));
    assert!(
        receipt.contains(
            "Your opponents see only this digest until the step locks. Send a new set before then"
        ),
        "{receipt}"
    );
    assert!(receipt.contains("Still waiting for: russia."), "{receipt}");
}

#[test]
fn a_notice_of_an_unsealed_step_does_not_call_the_orders_sealed() {
    let ctx = |sealed: bool| {
        serde_json::json!({
            "submitter": "bowie", "step": 9, "step_title": "Turn 2 extra movement",
            "digest": "ab", "sealed": sealed, "your_turn": false,
        })
    };
    let open = flat(&despatch::report::render("notice", ctx(false)).unwrap());
    assert!(open.contains("bowie has sent orders for step 9"), "{open}");
    assert!(!open.contains("sealed"), "{open}");
    assert!(
        open.contains("You see what they do in the results mail"),
        "{open}"
    );
    let sealed = flat(&despatch::report::render("notice", ctx(true)).unwrap());
    assert!(
        sealed.contains("bowie has sent sealed orders for step 9"),
        "{sealed}"
    );
}
