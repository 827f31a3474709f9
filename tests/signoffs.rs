//! Sign-offs never decide what is an order (issue 10): a hand-written closing after a blank
//! line is set aside and shown in the receipt, in every ruleset; a bad last order — a line
//! starting with an order keyword, a unit's name, a plausible typo — is always reported and
//! nothing in the mail is applied.

use despatch::daemon::Intake;

use crate::table;
use table::{Table, table};

const SIGN_OFFS: &[&str] = &[
    "Thanks,\nGeorge",
    "Regards,",
    "Cheers",
    "Best wishes,\nGeorge Patton\nThird Army",
    "Yours aye,\nW.",
    "Many thanks!",
];

fn signoffs_are_skipped_and_bad_last_orders_reported(mut t: Table, bad_last_lines: &[&str]) {
    for (i, s) in SIGN_OFFS.iter().enumerate() {
        let orders = t.orders(i as u64);
        let (out, answer) = t.send(&format!("{}\n\n{s}\n", orders.trim_end()));
        assert!(
            matches!(out, Intake::Accepted { .. }),
            "{s:?}: {out:?}\n{answer}"
        );
        assert!(answer.contains("Not read as orders"), "{answer}");
        assert!(
            answer.contains(s.lines().next().unwrap()),
            "the receipt shows the sign-off"
        );
    }
    for bad in bad_last_lines {
        let orders = t.orders(7);
        let (out, answer) = t.send(&format!("{}\n\n{bad}\n", orders.trim_end()));
        assert!(
            matches!(out, Intake::Rejected { .. }),
            "{bad:?} was not reported: {out:?}"
        );
        assert!(
            answer.contains(bad.lines().last().unwrap().trim()),
            "{answer}"
        );
    }
}

#[test]
fn naval_sign_offs() {
    let t = table(
        "naval-rjw",
        "training",
        [
            ("japan", "togo@mikasa.example"),
            ("russia", "vitgeft@tsesarevich.example"),
        ],
    );
    signoffs_are_skipped_and_bad_last_orders_reported(
        t,
        &["MOVE", "Mikasa", "Thanks\nFLAGSHP Mikasa"],
    );
}

#[test]
fn gear_krieg_sign_offs() {
    let t = table(
        "gear-krieg",
        "crossroads",
        [
            ("us", "patton@third-army.example"),
            ("germany", "rommel@afrika.example"),
        ],
    );
    signoffs_are_skipped_and_bad_last_orders_reported(
        t,
        &["SPEED", "General-1", "SPED General-1 TOP"],
    );
}
