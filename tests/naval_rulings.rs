//! The Naval rulings of `games/naval-rjw/README.md`, one test per ruling (`fn r<N>_…`, the
//! conformance kit's ruling table counts them), in the players' order syntax through the public
//! `Ruleset` API with fixed dice, against the test ruleset's numbers.

use std::collections::BTreeMap;

use despatch::dice::Dice;
use despatch::engine::{Ruleset, Submitted};
use despatch::rulesets::naval_rjw::state::{Fate, NavalState, Phase};
use despatch::rulesets::naval_rjw::{NavalRjw, damage};

use crate::naval;
use crate::naval_game;
use naval::*;
use naval_game::*;

/// Mikasa and Asahi (BB) in line, Chitose (CL) 6" off; Asahi has just sunk: Japan owes a rescue.
fn asahi_sunk() -> NavalState {
    let japan = [
        ship("Mikasa", "BB", 10.0, 10.0, 90.0, ""),
        ship("Asahi", "BB", 10.0, 14.0, 90.0, ""),
        ship("Chitose", "CL", 10.0, 20.0, 180.0, ""),
    ]
    .concat();
    let mut st = begin(&sc(japan, russians_far()), 2);
    damage::sink(&mut st, "Asahi", "her magazine explodes");
    st
}

/// R28 and issue 10 point 6: a TURN paid for a ship that the automatic rescue then sends off is
/// not carried out, its CP come back, and the log says why.
#[test]
fn r28_a_paid_turn_overridden_by_the_automatic_rescue_is_refunded() {
    let st = asahi_sunk();
    assert_eq!(cost(&st, "TURN Mikasa PORT 10"), 1);
    let (st, _) = send(&st, "japan", "TURN Mikasa PORT 10\n", 5);
    logged(
        &st,
        "Mikasa is sent automatically to rescue the survivors of Asahi.",
    );
    logged(
        &st,
        "Mikasa's TURN is not carried out: she steers herself to rescue the survivors of Asahi. Japan gets its 1 CP back.",
    );
    assert_eq!(st.cp_left, 2, "{}", log_text(&st));
    // She steered for the wreck, not 10° to port.
    at(&st, "Mikasa", 10.0, 13.0, 0.0);
}

/// R28 and issue 10 point 6: sending a ship to rescue after a TURN of hers in the same email is
/// refused at its line with the reason (the TURN would be paid and never carried out).
#[test]
fn r28_a_rescuer_turned_in_the_same_email_is_refused() {
    let st = asahi_sunk();
    rejected(
        &st,
        "japan",
        "TURN Mikasa PORT 10\nRESCUE Asahi WITH Mikasa",
        2,
        "Mikasa has a TURN above, but she would steer herself on this duty",
    );
    assert!(NavalRjw::parse(&st, "japan", "RESCUE Asahi WITH Mikasa\nHALT Chitose").is_ok());
}

/// R55: a FLAGSHIP order at set-up naming the current second makes the old flagship second.
#[test]
fn r55_a_flagship_order_naming_the_second_swaps_them() {
    let japan = [
        ship("Mikasa", "BB", 10.0, 10.0, 90.0, ""),
        ship("Asahi", "BB", 10.0, 14.0, 90.0, ""),
    ]
    .concat();
    let st = NavalRjw::setup(RULESET, &sc(japan, russians_far()).text(), &seats()).unwrap();
    let o = NavalRjw::parse(&st, "japan", "FLAGSHIP Asahi\n").unwrap();
    let mut subs: BTreeMap<_, _> = silence();
    subs.insert("japan".to_string(), Submitted::Orders(o));
    let st = NavalRjw::resolve(&st, &subs, &mut Dice::new([1; 32]));
    assert_eq!(st.phase, Phase::Manoeuvre);
    let f = st.fleets.iter().find(|f| f.side == "japan").unwrap();
    assert_eq!(
        (f.flagship.as_deref(), f.second.as_deref()),
        (Some("Asahi"), Some("Mikasa"))
    );
}

/// R61: the shipped scenarios have no ship at anchor.
#[test]
fn r61_shipped_scenarios_have_no_ship_at_anchor() {
    let ruleset = include_str!("../games/naval-rjw/ruleset.toml");
    for scenario in [
        include_str!("../games/naval-rjw/scenarios/training.toml"),
        include_str!("../games/naval-rjw/scenarios/yellow-sea-1904.toml"),
    ] {
        let st = NavalRjw::setup(ruleset, scenario, &seats()).unwrap();
        assert!(st.ships.len() > 2);
        let anchored: Vec<&str> = st
            .ships
            .iter()
            .filter(|s| s.anchored)
            .map(|s| s.name.as_str())
            .collect();
        assert!(anchored.is_empty(), "{anchored:?}");
    }
}

/// R62: the automatic rescue skips a ship dead in the water (Mikasa, the nearest capital ship,
/// here), while an explicit RESCUE may name her.
#[test]
fn r62_the_automatic_rescue_skips_ships_dead_in_the_water() {
    let mut st = asahi_sunk();
    find_mut(&mut st, "Mikasa").critical_marker = true;
    find_mut(&mut st, "Mikasa").hit_markers = 1;
    assert!(NavalRjw::parse(&st, "japan", "RESCUE Asahi WITH Mikasa\n").is_ok());
    let (st, _) = send(&st, "japan", "", 5);
    logged(
        &st,
        "Chitose is sent automatically to rescue the survivors of Asahi.",
    );
    assert!(find(&st, "Mikasa").rescue.is_none());
    logged(&st, "Mikasa is dead in the water.");
}

/// R60: a FIRE order for a ship sent to rescue in the same email is accepted when the orders
/// arrive, and dropped when she would fire, with a log line saying why.
#[test]
fn r60_fire_from_a_rescuer_is_accepted_then_dropped_with_the_reason() {
    let st = asahi_sunk();
    let text = "RESCUE Asahi WITH Chitose\nHALT Mikasa\nFIRE Chitose AT Tsesarevich\n";
    assert!(NavalRjw::parse(&st, "japan", text).is_ok());
    let (st, _) = send(&st, "japan", text, 5);
    logged(&st, "Chitose is sent to rescue the survivors of Asahi.");
    let (after_fire, dice) = quiet_fire(&st, 6);
    logged(
        &after_fire,
        "Chitose is rescuing survivors and cannot fire.",
    );
    assert!(
        !labels(&dice).iter().any(|l| l.contains("Chitose")),
        "she rolled: {:?}",
        labels(&dice)
    );
}

/// R34: "A ship on rescue or capture duty neither fires nor supports, from the moment she is sent
/// until her duty ends."
#[test]
fn r34_ships_sent_to_rescue_or_capture_neither_fire_nor_support() {
    let japan = [
        ship("Mikasa", "BB", 10.0, 10.0, 0.0, ""),
        ship("Asahi", "BB", 10.0, 14.0, 0.0, ""),
        ship("Chitose", "CL", 10.0, 20.0, 180.0, ""),
        ship("Kasagi", "CL", 10.0, 30.0, 0.0, ""),
    ]
    .concat();
    let russia = [
        ship("Tsesarevich", "BB", 22.0, 10.0, 0.0, ""),
        ship("Retvizan", "BB", 22.0, 4.0, 0.0, ""),
        ship("Novik", "CL", 14.0, 30.0, 0.0, ""),
    ]
    .concat();
    let mut st = begin(&sc(japan, russia), 2);
    damage::sink(&mut st, "Asahi", "her magazine explodes");
    find_mut(&mut st, "Novik").fate = Fate::Struck;
    let text = "RESCUE Asahi WITH Chitose\nCAPTURE Novik WITH Kasagi\nHALT Mikasa\n\
                FIRE Mikasa AT Tsesarevich SUPPORT Chitose\nFIRE Kasagi AT Retvizan\n";
    let (st, _) = send(&st, "japan", text, 5);
    logged(&st, "Chitose is sent to rescue the survivors of Asahi.");
    logged(&st, "Kasagi is sent to take possession of Novik.");
    let (st, dice) = quiet_fire(&st, 6);
    logged(
        &st,
        "Chitose cannot support: Chitose is rescuing survivors and cannot fire.",
    );
    logged(
        &st,
        "Kasagi is taking possession of a prize and cannot fire.",
    );
    // Mikasa fires alone: Japanese +1 and broadside, no support.
    logged(
        &st,
        &attack_line(
            &dice,
            "Mikasa",
            "Mikasa",
            "Tsesarevich",
            4,
            4,
            &[("capital-ship gunnery", 1), ("broadside", 1)],
            "12\"",
        ),
    );
    assert_eq!(
        gunnery_labels(&dice),
        [
            "gunnery Mikasa->Tsesarevich attacker",
            "gunnery Mikasa->Tsesarevich defender"
        ]
    );
}
