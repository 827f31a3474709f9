//! The Gear Krieg rulings on contact, melee and the datacards' perks (R9 contact, R14 perks and
//! flaws, R16 ramming, R18 melee modifiers), one `fn r<N>_…` test each, in the players' order
//! syntax through the public `Ruleset` API on Crossroads with fixed dice. Every expectation is
//! derived from the dice the resolution drew and the shipped datacards.

use despatch::board::tabletop::{Pt, dist};
use despatch::engine::Ruleset;
use despatch::rulesets::gear_krieg::GearKrieg;
use despatch::rulesets::gear_krieg::data::MoveMode;
use despatch::rulesets::gear_krieg::state::GkState;
use despatch::rulesets::kit::roster::Roster;

use crate::gear_krieg as gk;
use gk::*;

/// The totals of the first two rolls a combat line shows ("[3,5] +2 = 7 … [2,4] = 4 …").
fn totals(line: &str) -> (i32, i32) {
    let mut out = line.split(" = ").skip(1).map(|t| {
        if t.starts_with("fumble") {
            0
        } else {
            t.split(|c: char| !c.is_ascii_digit())
                .next()
                .unwrap()
                .parse()
                .unwrap()
        }
    });
    (out.next().unwrap(), out.next().unwrap())
}

/// The reasons `text` is refused for.
fn refused(st: &GkState, seat: &str, text: &str) -> String {
    match GearKrieg::parse(st, seat, text) {
        Ok(o) => panic!("accepted: {o:?}"),
        Err(e) => e
            .iter()
            .map(|r| format!("{}: {}", r.line, r.reason))
            .collect::<Vec<_>>()
            .join("; "),
    }
}

/// R9: "Counters are 1 cm round counters (stand-in); in contact = centres at most 1 cm apart.
/// Point Blank and melee need contact."
#[test]
fn r9_contact_is_one_cm_centre_to_centre_for_point_blank_and_melee() {
    for (gap, contact) in [(1.0, true), (1.1, false)] {
        let mut st = activating("us");
        place(&mut st, "General-1", 20.0, 34.0, 90.0);
        place(&mut st, "Valkurie-1", 20.0 + gap, 34.0, 270.0);
        let punch = "ACTIVATE General-1\nPUNCH Valkurie-1\n";
        if contact {
            assert!(GearKrieg::parse(&st, "us", punch).is_ok());
        } else {
            let why = refused(&st, "us", punch);
            assert!(
                why.contains("2: not in contact (1.1 cm apart; contact is 1 cm)"),
                "{why}"
            );
        }
        let (after, _) = play(
            &st,
            &[("us", "ACTIVATE General-1\nFIRE Cannon AT Valkurie-1\n")],
            1,
        );
        let l = line(&after, "General-1 fires Cannon at Valkurie-1");
        let band = if contact {
            "point blank, 1 cm"
        } else {
            "short, 1.1 cm"
        };
        assert!(l.contains(&format!("({band})")), "{l}");
        assert_eq!(l.contains("point blank +1"), contact, "{l}");
    }
    // Infantry assault needs contact too.
    let mut st = activating("germany");
    place(&mut st, "Squad-1", 5.1, 18.0, 270.0);
    let why = refused(&st, "germany", "ACTIVATE Squad-1\nASSAULT US-Squad\n");
    assert!(why.contains("not in contact"), "{why}");
    place(&mut st, "Squad-1", 5.0, 18.0, 270.0);
    assert!(GearKrieg::parse(&st, "germany", "ACTIVATE Squad-1\nASSAULT US-Squad\n").is_ok());
}

/// Finds a seed whose `order` hits; returns the hit line and its totals.
fn first_hit(st: &GkState, seat: &str, order: &str, start: &str) -> (String, i32, i32) {
    for k in 0..300 {
        let (after, _) = play(st, &[(seat, order)], k);
        let l = line(&after, start);
        if l.contains(": hit") {
            let (a, d) = totals(&l);
            return (l, a, d);
        }
    }
    panic!("{order}: no seed hits");
}

/// R14: "Perks and flaws with printed numbers apply (Manipulator Arms punch DM, Reinforced Armor
/// on the Front, Decreased Maneuver in Ground mode). Fuel Inefficient, Inefficient Controls,
/// Overheating, Poor Towing, Random Shutdown and Weak Point are shown but have no effect."
#[test]
fn r14_printed_perks_apply_and_the_other_flaws_are_only_shown() {
    let st = activating("us");
    let card = |class: &str| st.data.vehicles[class].clone();
    let (general, valkurie) = (card("general"), card("valkurie"));
    // Manipulator Arms: a punch does MoS x 4; Reinforced Armor adds to the Front only.
    for (facing, armor) in [
        (270.0, valkurie.armor.int() + valkurie.front_armor.int()),
        (0.0, valkurie.armor.int()),
    ] {
        let mut st = activating("us");
        place(&mut st, "General-1", 20.0, 34.0, 90.0);
        place(&mut st, "Valkurie-1", 21.0, 34.0, facing);
        let (l, a, d) = first_hit(
            &st,
            "us",
            "ACTIVATE General-1\nPUNCH Valkurie-1\n",
            "General-1 punches Valkurie-1",
        );
        let dm = general.punch_dm.int();
        assert_eq!(dm, 4);
        let expect = format!(
            "hit, MoS {}, {} damage vs Armor {armor}:",
            a - d,
            dm * (a - d)
        );
        assert!(l.contains(&expect), "{expect} in {l}");
    }
    assert_eq!(
        (general.front_armor.int(), valkurie.front_armor.int()),
        (1, 2)
    );
    // Decreased Maneuver: the General defends at -2 in Ground mode; the Valkurie has no such flaw.
    for (seat, firer, gun, target, ground_mode_shown) in [
        ("germany", "Valkurie-1", "KwK", "General-2", true),
        ("us", "General-1", "Cannon", "Valkurie-2", false),
    ] {
        let mut st = activating(seat);
        place(&mut st, firer, 20.0, 34.0, 90.0);
        place(&mut st, target, 22.0, 34.0, 270.0);
        st.unit_mut(target).unwrap().mode = MoveMode::Ground;
        let order = format!("ACTIVATE {firer}\nFIRE {gun} AT {target}\n");
        let (after, _) = play(&st, &[(seat, &order)], 2);
        let l = line(&after, &format!("{firer} fires {gun} at {target}"));
        assert_eq!(l.contains("ground mode -2"), ground_mode_shown, "{l}");
    }
    // The flaws without a number are on the player's datacard…
    let cards = GearKrieg::briefing(&st, "us")
        .into_iter()
        .flat_map(|(_, lines)| lines)
        .collect::<Vec<_>>()
        .join("\n");
    for flaw in [
        "Fuel Inefficient",
        "Inefficient Controls",
        "Overheating",
        "Poor Towing",
        "Weak Point",
    ] {
        assert!(cards.contains(flaw), "{flaw} not shown in {cards}");
    }
    let theirs = GearKrieg::briefing(&st, "germany")
        .into_iter()
        .flat_map(|(_, lines)| lines)
        .collect::<Vec<_>>()
        .join("\n");
    assert!(theirs.contains("Random Shutdown"), "{theirs}");
    // …and do nothing: Weak Point (-1 Armor on Movement) leaves a moving Valkurie's Armor whole.
    let mut st = activating("us");
    place(&mut st, "General-1", 20.0, 34.0, 90.0);
    place(&mut st, "Valkurie-1", 21.0, 34.0, 0.0);
    st.unit_mut("Valkurie-1").unwrap().last_move = 3.0;
    let (l, _, _) = first_hit(
        &st,
        "us",
        "ACTIVATE General-1\nPUNCH Valkurie-1\n",
        "General-1 punches Valkurie-1",
    );
    assert!(
        l.contains(&format!("vs Armor {}:", valkurie.armor.int())),
        "{l}"
    );
}

/// R16: "RAM turns toward the target and drives into contact (MP as for movement), then opposed
/// Driving (the defender adds its defence modifiers). On success the target takes MoS x the
/// rammer's Impact DM and the rammer MoS x the target's; both stop. A failed ram does nothing
/// more."
#[test]
fn r16_a_ram_closes_in_then_both_take_impact_damage_or_nothing_happens() {
    let mut st = activating("us");
    // Facing north, the Valkurie 2 cm east: a 90 degree turn (1 MP) and 1 cm (1 MP).
    place(&mut st, "General-1", 20.0, 34.0, 0.0);
    place(&mut st, "Valkurie-1", 22.0, 34.0, 270.0);
    let ram = "ACTIVATE General-1\nRAM Valkurie-1\n";
    let why = refused(&st, "us", &format!("{ram}MOVE 1\n"));
    assert!(why.contains("3: it has stopped for this round"), "{why}");
    let mut far = st.clone();
    place(&mut far, "Valkurie-1", 24.0, 34.0, 270.0);
    let why = refused(&far, "us", ram);
    assert!(why.contains("2: not enough MP"), "{why}");
    let data = &st.data;
    let (g, v) = (&data.vehicles["general"], &data.vehicles["valkurie"]);
    let (g_front, v_front) = (
        g.armor.int() + g.front_armor.int(),
        v.armor.int() + v.front_armor.int(),
    );
    let (mut hit, mut missed) = (false, false);
    for k in 0..300 {
        let (after, rolls) = play(&st, &[("us", ram), ("germany", "INTERRUPTS NEVER\n")], k);
        let g1 = after.unit("General-1").unwrap();
        assert!(dist(g1.pos, Pt::new(21.0, 34.0)) < 1e-9, "{:?}", g1.pos);
        assert!((g1.heading - 90.0).abs() < 1e-9, "{}", g1.heading);
        let l = line(&after, "General-1 rams Valkurie-1");
        // The defender rolls its Driving with its defence modifiers (stationary: -2).
        assert_eq!(faces(&rolls, "ram General-1->Valkurie-1 defender").len(), 2);
        assert!(l.contains("= ") && l.contains("(movement -2)"), "{l}");
        assert!(l.contains("(point blank +1, movement +1)"), "{l}");
        let (a, d) = totals(&l);
        let (v1, g1) = (
            after.unit("Valkurie-1").unwrap(),
            after.unit("General-1").unwrap(),
        );
        if a > d {
            hit = true;
            let m = a - d;
            let expect = format!(
                ": collision, MoS {m}; Valkurie-1: {} damage vs Armor {v_front}",
                m * g.impact_dm.int()
            );
            assert!(l.contains(&expect), "{expect} in {l}");
            let own = format!(
                "; General-1: {} damage vs Armor {g_front}",
                m * v.impact_dm.int()
            );
            assert!(l.contains(&own), "{own} in {l}");
        } else {
            missed = true;
            assert!(l.ends_with(": the ram misses."), "{l}");
            assert_eq!((v1.light, v1.heavy, g1.light, g1.heavy), (0, 0, 0, 0));
        }
        if hit && missed {
            return;
        }
    }
    panic!("hit {hit}, missed {missed}");
}

/// R18: "Melee (punch, kick, assault) rolls Driving / Infantry Skill with Point Blank +1, the
/// attacker's movement, extra-Action and Pinned modifiers, but no Perception, Fire Control or
/// Obscurement." Shown in a wood (a shot there has Obscurement) with the General's Driving
/// raised to 3 dice (its Gunnery stays 2).
#[test]
fn r18_melee_rolls_driving_with_point_blank_movement_and_extra_actions_only() {
    let driving = "driving = 2\nperks = [\"2 x Manipulator Arms";
    let ruleset = RULESET.replace(driving, &driving.replace("= 2", "= 3"));
    assert_ne!(ruleset, RULESET);
    let mut st = activating_with(&ruleset, "us");
    place(&mut st, "General-1", 25.0, 26.0, 90.0);
    place(&mut st, "Valkurie-1", 27.0, 26.0, 270.0);
    let g = st.unit_mut("General-1").unwrap();
    (g.extra_declared, g.actions) = (1, 2);
    let order = "ACTIVATE General-1\nMOVE 1\nPUNCH Valkurie-1\nFIRE Cannon AT Valkurie-1\n";
    let (after, rolls) = play(&st, &[("us", order), ("germany", "INTERRUPTS NEVER\n")], 5);
    assert_eq!(
        faces(&rolls, "melee General-1->Valkurie-1 attacker").len(),
        3
    );
    assert_eq!(
        faces(&rolls, "attack General-1->Valkurie-1 attacker").len(),
        2
    );
    let punch = line(&after, "General-1 punches Valkurie-1");
    assert!(
        punch.contains("(point blank +1, movement +1, extra actions -1) vs"),
        "{punch}"
    );
    let shot = line(&after, "General-1 fires Cannon at Valkurie-1");
    assert!(
        shot.contains("(perception +1, fire control -1, obscurement -1, point blank +1, movement +1, extra actions -1) vs"),
        "{shot}"
    );
    // An assault: Infantry Skill dice, Point Blank, standing still (+2) and Pinned (-1).
    let mut st = activating("germany");
    place(&mut st, "Squad-1", 26.0, 26.0, 270.0);
    place(&mut st, "General-1", 27.0, 26.0, 270.0);
    st.unit_mut("Squad-1").unwrap().pinned = 1;
    let (after, rolls) = play(
        &st,
        &[("germany", "ACTIVATE Squad-1\nASSAULT General-1\n")],
        5,
    );
    assert_eq!(faces(&rolls, "melee Squad-1->General-1 attacker").len(), 2);
    let l = line(&after, "Squad-1 assaults General-1");
    assert!(
        l.contains("(point blank +1, movement +2, pinned -1) vs"),
        "{l}"
    );
}
