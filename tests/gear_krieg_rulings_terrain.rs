//! The Gear Krieg rulings on the ground and on seeing (R10 movement cost under the centre, R11
//! the terrain a unit resides in, R12 Concealment, R13 hills, R34 detection limits targeting),
//! one `fn r<N>_…` test each, in the players' order syntax through the public `Ruleset` API on
//! the Crossroads map with fixed dice.

use despatch::board::tabletop::Pt;
use despatch::engine::{Ruleset, Viewer};
use despatch::render;
use despatch::rulesets::gear_krieg::data::{MoveMode, TerrainKind};
use despatch::rulesets::gear_krieg::round::apply_standing;
use despatch::rulesets::gear_krieg::state::GkState;
use despatch::rulesets::gear_krieg::{GearKrieg, ground, roll};
use despatch::rulesets::kit::roster::Roster;

use crate::gear_krieg as gk;
use gk::*;

/// The reasons `text` is refused for ("" when it is accepted).
fn refusal(st: &GkState, seat: &str, text: &str) -> String {
    match GearKrieg::parse(st, seat, text) {
        Ok(_) => String::new(),
        Err(e) => e
            .iter()
            .map(|r| format!("{}: {}", r.line, r.reason))
            .collect::<Vec<_>>()
            .join("; "),
    }
}

/// General-1 (Walker mode, 2 MP) at `x`,`y` facing `heading`, US to activate.
fn general_at(x: f64, y: f64, heading: f64) -> GkState {
    let mut st = activating("us");
    place(&mut st, "General-1", x, y, heading);
    st
}

/// R10: "Terrain under a unit for movement cost is the terrain under its centre, centimetre by
/// centimetre; later-listed areas lie on top (roads)."
#[test]
fn r10_movement_costs_the_terrain_under_the_centre_roads_on_top() {
    let wood = "the next cm of woodland costs 2";
    // The hill track (x 23.5 to 24.5) runs through Bocage wood and is listed after it.
    let on_road = general_at(24.0, 22.0, 0.0);
    assert_eq!(
        ground::terrain_at(&on_road, Pt::new(24.0, 23.0)),
        TerrainKind::Road
    );
    assert_eq!(refusal(&on_road, "us", "ACTIVATE General-1\nMOVE 2\n"), "");
    // The centre decides: 0.1 cm beside the road the counter overlaps it, yet it pays for wood.
    let beside = general_at(23.4, 22.0, 0.0);
    let why = refusal(&beside, "us", "ACTIVATE General-1\nMOVE 2\n");
    assert!(
        why.contains(&format!(
            "2: not enough MP: 1 cm moved, 2 of 2 MP spent, {wood}"
        )),
        "{why}"
    );
    assert_eq!(
        refusal(
            &general_at(23.6, 22.0, 0.0),
            "us",
            "ACTIVATE General-1\nMOVE 2\n"
        ),
        ""
    );
    // Centimetre by centimetre: from 20.6 north the first cm is clear (1 MP), the next half
    // cm is wood (1 MP); a full second cm of wood is 1 MP too many.
    let edge = general_at(23.0, 20.6, 0.0);
    assert_eq!(refusal(&edge, "us", "ACTIVATE General-1\nMOVE 1.5\n"), "");
    let why = refusal(&edge, "us", "ACTIVATE General-1\nMOVE 2\n");
    assert!(
        why.contains(&format!("1 cm moved, 1 of 2 MP spent, {wood}")),
        "{why}"
    );
}

/// R11: "Terrain a unit resides in (treacherous start) is the area under more than half of its
/// counter; Despatch measures it, so the 1d6 dispute roll is never needed."
#[test]
fn r11_a_unit_resides_where_more_than_half_its_counter_lies() {
    // In the jungle's south-west corner the centre is inside, but most of the counter is not.
    let corner = Pt::new(30.15, 3.15);
    let deep = Pt::new(33.0, 7.0);
    let st = activating("us");
    assert_eq!(ground::terrain_at(&st, corner), TerrainKind::Jungle);
    assert_eq!(ground::resides_in(&st, corner), TerrainKind::Clear);
    assert_eq!(ground::resides_in(&st, deep), TerrainKind::Jungle);
    // In Ground mode jungle is treacherous: starting in it costs a Driving test against its 4 MP
    // (R4: equal passes); starting at the corner does not, entering it does.
    for (at, heading, verb) in [(deep, 0.0, "starts in"), (corner, 45.0, "enters")] {
        let mut st = general_at(at.x, at.y, heading);
        st.unit_mut("General-1").unwrap().mode = MoveMode::Ground;
        let mails = [
            ("us", "ACTIVATE General-1\nMOVE 0.5\n"),
            ("germany", "INTERRUPTS NEVER\n"),
        ];
        let (after, rolls) = play(&st, &mails, 7);
        // One roll only: the Driving test; no dispute roll.
        assert_eq!(rolls.len(), 1, "{rolls:?}");
        assert_eq!(rolls[0].label, "driving General-1 jungle");
        let r = roll::read(&rolls[0].results, 0);
        let passed = !r.fumble && r.total >= 4;
        let l = line(&after, "General-1 ");
        let expect = format!(
            "General-1 {verb} jungle: Driving {} vs 4: {}.",
            roll::show(&r),
            if passed {
                "through"
            } else {
                "bogged down, it stops for the round"
            }
        );
        assert_eq!(l, expect);
        assert!(
            !after
                .log
                .iter()
                .any(|l| l.text.contains(if verb == "enters" {
                    "starts in"
                } else {
                    "enters"
                }))
        );
    }
}

/// R12: "Concealment sums each area's Obscurement per whole cm of the centre-to-centre line
/// inside it (rounded down per area). Only ranged attacks subtract it; a target with
/// Concealment above Detection cannot be targeted. Vehicles see all round; only targeting needs
/// the weapon's arc."
#[test]
fn r12_concealment_counts_whole_cm_per_area_and_limits_targeting() {
    let st = activating("us");
    // 1.5 cm of jungle (Obscurement 2 per cm) is one whole cm: 2, not 3.
    assert_eq!(
        ground::concealment(&st, Pt::new(33.0, 7.0), Pt::new(34.5, 7.0)),
        2
    );
    // Valkurie-1 west of Bocage wood (its edge at x = 18.5 on y = 27), General-1 in it.
    for (x, seen) in [(21.2, 2), (22.7, 4), (23.6, 5)] {
        let mut st = general_at(x, 27.0, 270.0);
        place(&mut st, "Valkurie-1", 17.0, 27.0, 90.0);
        assert_eq!(
            ground::concealment(&st, Pt::new(x, 27.0), Pt::new(17.0, 27.0)),
            seen
        );
        let order = "ACTIVATE General-1\nFIRE Cannon AT Valkurie-1\n";
        if seen > 4 {
            let why = refusal(&st, "us", order);
            assert!(
                why.contains("cannot be targeted: Concealment 5 is above Detection 4"),
                "{why}"
            );
        } else {
            let (after, _) = play(&st, &[("us", order)], 1);
            let l = line(&after, "General-1 fires Cannon at Valkurie-1");
            assert!(l.contains(&format!("obscurement -{seen}")), "{l}");
        }
    }
    // Facing away, the General still sees the Valkurie (no concealed mark) but cannot fire.
    let mut st = general_at(10.0, 34.0, 270.0);
    place(&mut st, "Valkurie-1", 16.0, 34.0, 270.0);
    let why = refusal(&st, "us", "ACTIVATE General-1\nFIRE Cannon AT Valkurie-1\n");
    assert!(why.contains("outside the Cannon's firing arc"), "{why}");
    let seen = render::text(&GearKrieg::view(&st, &Viewer::Seat("us".into())));
    let v = seen.lines().find(|l| l.contains("Valkurie-1 (")).unwrap();
    assert!(!v.contains("concealed"), "{v}");
}

/// R13: "The chart's 'elevation' becomes hill areas: costs as given, and a crest blocks sight
/// with Obscurement 2 per cm only when neither unit stands on the hill."
#[test]
fn r13_hills_cost_two_and_hide_only_what_lies_beyond_the_crest() {
    // Hill 112: a 3.5 cm circle round 24,11; the line y = 11 crosses 7 cm of it.
    let (west, east, on) = (
        Pt::new(18.0, 11.0),
        Pt::new(30.0, 11.0),
        Pt::new(21.0, 11.0),
    );
    let st = activating("us");
    assert_eq!(ground::concealment(&st, west, east), 14);
    assert_eq!(ground::concealment(&st, on, east), 0);
    assert_eq!(ground::concealment(&st, east, on), 0);
    let order = "ACTIVATE General-1\nFIRE Cannon AT Valkurie-1\n";
    let mut st = general_at(west.x, west.y, 90.0);
    place(&mut st, "Valkurie-1", east.x, east.y, 270.0);
    let why = refusal(&st, "us", order);
    assert!(why.contains("Concealment 14 is above Detection 4"), "{why}");
    place(&mut st, "General-1", on.x, on.y, 90.0);
    let (after, _) = play(&st, &[("us", order)], 1);
    let l = line(
        &after,
        "General-1 fires Cannon at Valkurie-1 (medium, 9 cm)",
    );
    assert!(!l.contains("obscurement"), "{l}");
    // Climbing: 2 MP per cm in Walker mode (2 MP: 1 cm) and in Ground mode (3 MP: 1.5 cm).
    let mut st = general_at(22.5, 9.0, 0.0);
    assert_eq!(refusal(&st, "us", "ACTIVATE General-1\nMOVE 1\n"), "");
    let why = refusal(&st, "us", "ACTIVATE General-1\nMOVE 2\n");
    assert!(why.contains("the next cm of hill costs 2"), "{why}");
    st.unit_mut("General-1").unwrap().mode = MoveMode::Ground;
    assert_eq!(refusal(&st, "us", "ACTIVATE General-1\nMOVE 1.5\n"), "");
    let why = refusal(&st, "us", "ACTIVATE General-1\nMOVE 2\n");
    assert!(why.contains("the next cm of hill costs 2"), "{why}");
}

/// R34: "Detection limits targeting, not knowledge: both sides see every unit on the table; a
/// seat's map and unit list mark an enemy unit that none of its units can detect as concealed.
/// Orders, overwatch and other standing settings stay hidden from the opponent."
#[test]
fn r34_concealed_units_are_seen_and_marked_but_cannot_be_targeted() {
    let mut st = activating("us");
    place(&mut st, "Squad-1", 34.0, 7.5, 270.0);
    let o = GearKrieg::parse(
        &st,
        "germany",
        "OVERWATCH Valkurie-1 AT ANY WITHIN 20\nINTERRUPTS NEVER\n",
    )
    .unwrap();
    apply_standing(&mut st, "germany", &o);
    let text = |seat: &str| render::text(&GearKrieg::view(&st, &Viewer::Seat(seat.into())));
    let us = text("us");
    for u in &st.units {
        let l = us
            .lines()
            .find(|l| l.contains(&format!("{} (", u.name)))
            .unwrap_or_else(|| panic!("the US does not see {}", u.name));
        assert_eq!(
            l.contains("concealed from all your units"),
            u.name == "Squad-1",
            "{l}"
        );
    }
    for secret in ["OVERWATCH", "WITHIN 20", "INTERRUPTS NEVER"] {
        assert!(!us.contains(secret), "the US sees {secret}");
        assert!(text("germany").contains(secret), "Germany's own {secret}");
    }
    for unit in ["General-1", "General-2", "US-Squad"] {
        let gun = if unit == "US-Squad" { "LMG" } else { "Cannon" };
        let why = refusal(
            &st,
            "us",
            &format!("ACTIVATE {unit}\nFIRE {gun} AT Squad-1\n"),
        );
        assert!(why.contains("cannot be targeted"), "{unit}: {why}");
    }
}
