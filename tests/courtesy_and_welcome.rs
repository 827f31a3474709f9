//! What the Lone Star newcomer play-through (stop 25) found in the mails every ruleset shares:
//! a greeting above the orders sank the mail, a line of prose was refused without saying how
//! to write one, and the welcome of a several-player side named side-mates as opponents and
//! said "Waiting for ." when the host resolves the first step by itself.

use crate::mail_world;
use crate::world;

use despatch::daemon::Intake;
use mail_world::delivered;

fn flat(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn a_greeting_parted_from_the_orders_by_a_blank_line_is_set_aside_and_shown() {
    let mut w = world::world("training");
    let out = w.send(
        "japan",
        "Morning all,\n\nFLAGSHIP Mikasa\nSECOND Asahi\n\nRegards,\nHeihachiro\n",
    );
    assert!(matches!(out, Intake::Accepted { .. }), "{out:?}");
    let receipt = world::body_of(&w, "000001-submission-japan");
    assert!(
        receipt.contains(
            "Not read as orders (taken for your greeting or sign-off):\n    Morning all,\n    Regards,\n    Heihachiro\n"
        ),
        "{receipt}"
    );
    assert!(receipt.contains("    FLAGSHIP Mikasa\n    SECOND Asahi\n"));
    // The positive control: the same greeting glued to the orders is read as an order, and
    // refused with the way to write prose.
    let out = w.send("russia", "Morning all,\nFLAGSHIP Tsesarevich\n");
    assert!(matches!(out, Intake::Rejected { lines: 1, .. }), "{out:?}");
}

#[test]
fn a_line_of_prose_among_the_orders_is_refused_with_how_to_write_it() {
    let mut w = world::world("training");
    let out = w.send(
        "russia",
        "FLAGSHIP Tsesarevich\nHopefully this works\nSECOND Retvizan\n",
    );
    assert!(matches!(out, Intake::Rejected { lines: 1, .. }), "{out:?}");
    let rejection = flat(&world::body_of(&w, "reject-"));
    assert!(
        rejection.contains("unknown order \"Hopefully\""),
        "{rejection}"
    );
    assert!(
        rejection.contains("a line that is not an order starts with \"#\""),
        "{rejection}"
    );
    // A near miss still gets its "did you mean", not the prose hint.
    let out = w.send("russia", "FLAGSHP Tsesarevich\n");
    assert!(matches!(out, Intake::Rejected { .. }), "{out:?}");
    let all: Vec<String> = delivered(&w.daemon.cfg.mail.outbox, "reject-")
        .iter()
        .map(|t| flat(t))
        .collect();
    assert!(
        all.iter().any(|t| t.contains("did you mean FLAGSHIP?")),
        "{all:?}"
    );
}

#[test]
fn a_welcome_names_the_seats_side_mates_apart_from_its_opponents() {
    let w = mail_world::lone_star_patrol("lsw");
    let hays = flat(&delivered(w.outbox(), "welcome-hays").concat());
    assert!(hays.contains("Your side "), "{hays}");
    assert!(
        hays.contains(", with bowie Opponents von-arnim, enver"),
        "{hays}"
    );
    let enver = flat(&delivered(w.outbox(), "welcome-enver").concat());
    assert!(
        enver.contains(", with von-arnim Opponents hays, bowie"),
        "{enver}"
    );
    assert!(!hays.contains("Waiting for ."), "{hays}");
    // The positive control: a duel has no side-mates, so no side line.
    let naval = world::world("training");
    let japan = flat(&world::body_of(&naval, "welcome-japan"));
    assert!(
        japan.contains("Your seat japan Opponents russia"),
        "{japan}"
    );
    assert!(!japan.contains("Your side"), "{japan}");
}
