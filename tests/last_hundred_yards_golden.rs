//! Golden tests of Last Hundred Yards in the players' order syntax: the seed's worked examples
//! (§8.0 reaction window, the concealment query, levels), the derived cases (Initiative ties,
//! maneuver allowances), the numbered rulings `r<N>_…`, and a whole Platoon Activation Cycle
//! with reactions. The emails-per-activation figures: last_hundred_yards_figures.rs.

use crate::lhy;

use despatch::engine::Ruleset;
use despatch::rulesets::kit::roster::{Roster, TwoSides};
use despatch::rulesets::last_hundred_yards::LastHundredYards as Lhy;
use despatch::rulesets::last_hundred_yards::state::{Action, LhyState, Phase, Target};
use despatch::rulesets::last_hundred_yards::{
    concealment, maneuver, phases, platoon, reaction, turn,
};

fn hex(st: &LhyState, s: &str) -> despatch::board::hex::Hex {
    st.map.grid().parse_hex(s).unwrap()
}

/// After set-up, make `side` the active player of game turn 1 (the Initiative roll aside).
fn active(mut st: LhyState, side: &str) -> LhyState {
    st.turn.active = side.into();
    st.turn.holder = side.into();
    st.phase = Phase::Activate { side: side.into() };
    st
}

fn rejected(st: &LhyState, seat: &str, text: &str) -> String {
    match lhy::parse(st, seat, text) {
        Ok(o) => panic!("accepted: {text} -> {o:?}"),
        Err(e) => e
            .iter()
            .map(|r| format!("line {}: {}", r.line, r.reason))
            .collect::<Vec<_>>()
            .join("\n"),
    }
}

/// EX-5 (§8.0): the US 1st Squad maneuvers in sight of the German MG and a German squad;
/// the Germans react with the MG only and call for Reaction: from then on no German unit may
/// answer the squad's maneuver, and the US may answer the MG's fire.
#[test]
fn ex5_the_reaction_window_closes_when_the_reactor_calls() {
    let st = lhy::game(lhy::PATROL);
    let st = lhy::step(
        &st,
        &[
            ("us", "PLACE A1-2 0910"),
            ("germany", "PLACE MG-42 0905\nPLACE G1-2 0805"),
        ],
        1,
    );
    let st = active(st, "us");
    let st = lhy::step(&st, &[("us", "ACTIVATE 1PLT\nMOVE A1-2 TO 0909 0908")], 2);
    assert_eq!(
        st.phase,
        Phase::React {
            side: "germany".into()
        },
        "{}",
        lhy::log(&st, "us")
    );
    let saw = reaction::triggered(&st, "germany");
    assert!(
        saw.contains(&"MG-42".to_string()) && saw.contains(&"G1-2".to_string()),
        "{saw:?}"
    );
    // Either may answer the squad; the German player reacts with the MG only.
    lhy::parse(&st, "germany", "FIRE G1-2 AT A1-2").expect("G1-2 may react too");
    let st = lhy::step(&st, &[("germany", "FIRE MG-42 AT A1-2")], 3);
    assert!(
        st.markers.iter().any(|m| m.by == "MG-42"),
        "an SADRM marker is placed"
    );
    assert_eq!(
        st.phase,
        Phase::React { side: "us".into() },
        "{}",
        lhy::log(&st, "us")
    );
    // The German call closed the window on the squad's maneuver.
    let g12 = st.unit("G1-2").unwrap().clone();
    let late = Action::Fire {
        unit: "G1-2".into(),
        target: Target::Unit("A1-2".into()),
        mode: None,
        from: vec![],
    };
    assert!(reaction::eligible(&st, &g12, &late).is_err());
    // The US may answer the MG's fire; it passes, and the double pass ends the loop unasked.
    let st = lhy::step(&st, &[("us", "PASS")], 4);
    assert!(!matches!(st.phase, Phase::React { .. }), "{:?}", st.phase);
}

/// EX-1/EX-2 (§4.1.4): woods and stone buildings add a level to the hill under them.
#[test]
fn ex1_ex2_terrain_adds_to_the_hill_level() {
    let st = lhy::game(lhy::PATROL);
    let woods = hex(&st, "0204"); // w2: woods on contour 2 = level 1
    assert_eq!(st.map.level(woods), 1);
    assert_eq!(st.map.height(&st.data, woods), 2);
    let stone = hex(&st, "0603"); // s0: a stone building on level 0
    assert_eq!(st.map.height(&st.data, stone), 1);
}

/// DT-1 (§5.0 I): ties go to the Axis when odd and to the Allies when even.
#[test]
fn dt1_initiative_ties() {
    let st = lhy::game(lhy::PATROL);
    let w =
        |a: i32, b: i32| turn::initiative_winner(&st, &[("us".into(), a), ("germany".into(), b)]);
    assert_eq!(w(6, 6), "us");
    assert_eq!(w(7, 7), "germany");
    assert_eq!(w(8, 3), "us");
    assert_eq!(w(2, 9), "germany");
}

/// DT-7 (§10.1): maneuver allowances for activation and reaction.
#[test]
fn dt7_maneuver_allowances() {
    let st = lhy::game(lhy::BRIDGEHEAD);
    let squad = st.unit("A1-1").unwrap();
    let a = maneuver::allowance(&st, squad, false, false);
    assert_eq!((a.mp, a.hexes), (3.0, 2));
    let r = maneuver::allowance(&st, squad, true, false);
    assert_eq!((r.mp, r.hexes), (2.0, 1));
    let tank = st.unit("Sherman-1").unwrap();
    assert_eq!(maneuver::allowance(&st, tank, false, false).mp, 5.0);
    assert_eq!(maneuver::allowance(&st, tank, true, false).mp, 4.0);
    assert_eq!(maneuver::allowance(&st, tank, false, true).mp, 3.0);
}

/// R9 / EX-4 (§4.3): the query names only AFVs, FPs, carriers and towed guns under the
/// marker, and who asks must fire at the hex in the same mail.
#[test]
fn r9_the_query_answers_vehicle_kinds_only_and_forces_a_fire() {
    let st = active(
        lhy::step(
            &lhy::game(lhy::BRIDGEHEAD),
            &[("us", "PASS"), ("germany", "PASS")],
            1,
        ),
        "us",
    );
    let q = concealment::answer(&st, "us", hex(&st, "0804"));
    assert_eq!(
        (q.afv, q.fp, q.carrier, q.gun),
        (0, 0, 0, 0),
        "infantry and a LATW are not told"
    );
    let q = concealment::answer(&st, "us", hex(&st, "0707"));
    assert_eq!(q.afv, 1, "the StuG under the marker");
    let text = concealment::answer_text(&st, &q);
    assert!(!text.contains("StuG"), "{text}");
    let why = rejected(&st, "us", "ACTIVATE TPLT\nQUERY 0707");
    assert!(why.contains("at least one attack"), "{why}");
    // A hidden unit is not under any marker: the query cannot find it.
    let q = concealment::answer(&st, "us", hex(&st, "0606"));
    assert_eq!(q.gun, 0, "the hidden PaK is not counted");
}

/// R12: fire is a marker during the Activation Phase and is rolled only in Phase III.
#[test]
fn r12_fire_is_resolved_in_phase_three() {
    let st = lhy::game(lhy::PATROL);
    let st = lhy::step(
        &st,
        &[("us", "PLACE A1-2 0910"), ("germany", "PLACE MG-42 0905")],
        1,
    );
    let st = active(st, "us");
    let st = lhy::step(&st, &[("us", "ACTIVATE 1PLT\nMOVE A1-2 TO 0909 0908")], 2);
    let st = lhy::step(&st, &[("germany", "FIRE MG-42 AT A1-2")], 3);
    let before = st.unit("A1-2").unwrap().clone();
    assert_eq!(
        before.status,
        despatch::rulesets::last_hundred_yards::state::Status::Good
    );
    assert_eq!(st.markers.len(), 1);
    let st = lhy::step(&st, &[("us", "PASS")], 4);
    // The US has no platoon left: Phases III–VII ran and game turn 2 began.
    assert!(st.markers.is_empty());
    assert_eq!(st.turn.number, 2);
    assert!(
        lhy::log(&st, "us").contains("SADRM"),
        "{}",
        lhy::log(&st, "us")
    );
}

/// R18: with standing reactions the Germans are not asked, and their MG fires by itself.
#[test]
fn r18_a_standing_reaction_answers_without_mail() {
    let st = lhy::game(lhy::PATROL);
    let st = lhy::step(
        &st,
        &[
            ("us", "PLACE A1-2 0910"),
            (
                "germany",
                "PLACE MG-42 0905\nPLACE G1-2 0805\nSTANDING ALL FIRE WITHIN 6",
            ),
        ],
        1,
    );
    let st = active(st, "us");
    let st = lhy::step(&st, &[("us", "ACTIVATE 1PLT\nMOVE A1-2 TO 0909 0908")], 2);
    assert_ne!(
        st.phase,
        Phase::React {
            side: "germany".into()
        }
    );
    assert!(
        st.markers.iter().any(|m| m.side == "germany"),
        "{}",
        lhy::log(&st, "germany")
    );
    // The standing reaction never shows in the enemy's view.
    assert!(!lhy::seen(&st, "us").contains("STANDING ALL FIRE"));
    assert!(lhy::seen(&st, "germany").contains("STANDING ALL FIRE WITHIN 6"));
}

/// R29: a silent active player activates the first platoon he may; it holds.
#[test]
fn r29_silence_activates_the_first_platoon() {
    let st = active(
        lhy::step(
            &lhy::game(lhy::PATROL),
            &[("us", "PASS"), ("germany", "PASS")],
            1,
        ),
        "us",
    );
    let st = lhy::step(&st, &[], 2);
    // 1PLT is the US's only platoon: once it has activated (and held), the game turn ends,
    // so what shows it is the log: the activation, then the end of the turn, in that order.
    let log = lhy::log(&st, "germany");
    let activated = log
        .find("sent no orders: platoon 1PLT activates and holds")
        .unwrap_or_else(|| panic!("{log}"));
    let phase_three = log
        .find("Fire Resolution Phase.")
        .unwrap_or_else(|| panic!("{log}"));
    assert!(activated < phase_three, "{log}");
    assert_eq!(st.turn.number, 2, "the turn ended after its only platoon");
}

/// R20: hidden units and dummies never reach the enemy's view; the owner sees them.
#[test]
fn r20_hidden_units_and_dummies_stay_off_the_enemys_map() {
    let st = lhy::step(
        &lhy::game(lhy::BRIDGEHEAD),
        &[("us", "DUMMY 0419"), ("germany", "HIDE G1-3")],
        1,
    );
    let us = lhy::seen(&st, "us");
    let de = lhy::seen(&st, "germany");
    for n in ["PaK-1", "G2-2", "G1-3"] {
        assert!(!us.contains(&format!("{n} (")), "{n} leaks");
        assert!(de.contains(&format!("{n} (")), "{n} shown to its owner");
    }
    assert!(!de.contains("US-D1"));
    assert!(us.contains("US-D1"));
    // The dummy hex shows to the Germans as a Concealment marker like any other.
    assert!(de.contains("Concealment marker at 0419"), "{de}");
}

/// R32: Coordination is one roll when the company is selected; WITH asks for it.
#[test]
fn r32_coordination_is_attempted_once() {
    let st = active(
        lhy::step(
            &lhy::game(lhy::BRIDGEHEAD),
            &[("us", "PASS"), ("germany", "PASS")],
            1,
        ),
        "us",
    );
    let st = lhy::step(&st, &[("us", "ACTIVATE 1PLT WITH 2PLT")], 2);
    assert!(st.turn.coordinated.is_some(), "{}", lhy::log(&st, "us"));
    assert!(lhy::log(&st, "us").contains("Coordination for company Able"));
}

/// R30: over-stacked units the owner does not name go latest arrival first.
#[test]
fn r30_the_latest_arrivals_go() {
    use despatch::rulesets::last_hundred_yards::stacking;
    let mut st = lhy::game(lhy::BRIDGEHEAD);
    let h = hex(&st, "0618");
    for n in ["A1-2", "A1-3", "A2-1"] {
        st.unit_mut(n).unwrap().at = h;
    }
    assert_eq!(stacking::over(&st, "us"), vec![h]);
    let gone = stacking::default_eliminations(&st, "us");
    assert_eq!(
        gone,
        vec!["A2-1".to_string()],
        "the latest arrival of the four squads"
    );
}

/// R25: the score is objectives held by the attacker plus the casualty differential.
#[test]
fn r25_score_by_objectives_and_casualties() {
    let mut st = lhy::game(lhy::BRIDGEHEAD);
    assert_eq!(
        phases::score(&st),
        0,
        "the Germans hold the village, the bridge is nobody's"
    );
    st.objectives[2].held_by = Some("us".into());
    st.side_mut("germany").unwrap().casualties = 3;
    st.side_mut("us").unwrap().casualties = 1;
    assert_eq!(phases::score(&st), 2 + 3 - 1);
    st.side_mut("us").unwrap().casualties = 12;
    st.turn.number = 1;
    phases::victory(&mut st);
    let o = st.outcome.expect("the CDL is passed");
    assert_eq!(o.winners, vec!["germany".to_string()]);
}

/// R28: the non-active player's shocked units must react at the first call; with no mail and
/// no rule it is a recovery.
#[test]
fn r28_mandatory_reactions_default_to_recovery() {
    use despatch::rulesets::last_hundred_yards::state::Status;
    let mut st = active(
        lhy::step(
            &lhy::game(lhy::PATROL),
            &[("us", "PASS"), ("germany", "PASS")],
            1,
        ),
        "us",
    );
    st.side_mut("germany").unwrap().ask = despatch::rulesets::last_hundred_yards::state::Ask::Never;
    st.unit_mut("G1-2").unwrap().status = Status::Shocked;
    let st = lhy::step(&st, &[("us", "ACTIVATE 1PLT\nHOLD A1-1")], 2);
    // The US's only platoon acted, so the turn ended (Clean Up clears the action marker):
    // the recovery shows in the log, as the reaction at the call, before Phase III.
    let log = lhy::log(&st, "germany");
    let recovered = log.find("G1-2 recovers").unwrap_or_else(|| panic!("{log}"));
    let phase_three = log
        .find("Fire Resolution Phase.")
        .unwrap_or_else(|| panic!("{log}"));
    assert!(recovered < phase_three, "{log}");
}

/// Bad orders are data: every bad line is named with a reason.
#[test]
fn every_bad_line_is_reported() {
    let st = active(
        lhy::step(
            &lhy::game(lhy::PATROL),
            &[("us", "PASS"), ("germany", "PASS")],
            1,
        ),
        "us",
    );
    let why = rejected(
        &st,
        "us",
        "ACTIVATE 1PLT\nMOVE A1-1 TO 0199\nFIRE G1-1 AT 0704\nJUMP A1-2",
    );
    assert!(
        why.contains("line 2") && why.contains("line 3") && why.contains("line 4"),
        "{why}"
    );
    let why = rejected(&st, "us", "ACTIVATE G1PLT");
    assert!(why.contains("not one of your platoons"), "{why}");
}

/// R1: a DRM is added to the attack's d10; cover is negative (it helps the target).
#[test]
fn r1_cover_is_a_negative_drm() {
    use despatch::rulesets::last_hundred_yards::fire;
    let st = lhy::game(lhy::PATROL);
    let from = hex(&st, "0109");
    assert!(
        fire::tem(&st, hex(&st, "0204"), from, "us") < 0,
        "woods help the defender"
    );
    assert_eq!(
        fire::tem(&st, hex(&st, "0106"), from, "us"),
        0,
        "open ground does not"
    );
}

/// R2 (§4.2.1c): a contour in an intervening hex above both ends blocks the LOS; the hex
/// itself is seen.
#[test]
fn r2_contours_block_between_units_on_one_level() {
    use despatch::rulesets::last_hundred_yards::los;
    let st = lhy::game(lhy::PATROL);
    let (a, b, c) = (hex(&st, "0905"), hex(&st, "0908"), hex(&st, "0909"));
    assert!(
        !los::compute(&st.data, &st.map, a, b),
        "0908 itself is seen"
    );
    assert!(
        los::compute(&st.data, &st.map, a, c),
        "the contour of 0908 hides 0909"
    );
}

/// R13: disrupted units neither fire nor assault.
#[test]
fn r13_disrupted_units_do_not_fire() {
    use despatch::rulesets::last_hundred_yards::state::Status;
    let mut st = active(
        lhy::step(
            &lhy::game(lhy::PATROL),
            &[("us", "PASS"), ("germany", "PASS")],
            1,
        ),
        "us",
    );
    st.unit_mut("MG-30").unwrap().status = Status::Disrupted;
    let why = rejected(&st, "us", "ACTIVATE 1PLT\nFIRE MG-30 AT 0805");
    assert!(why.contains("disrupted"), "{why}");
}

/// R23: one deployed squad per platoon at a time.
#[test]
fn r23_one_squad_of_a_platoon_deploys() {
    use despatch::rulesets::last_hundred_yards::state::Place;
    let mut st = lhy::game(lhy::PATROL);
    let squad = st.unit("A1-2").unwrap().clone();
    assert!(platoon::check_deploy(&st, &squad).is_ok());
    st.unit_mut("A1-a").unwrap().place = Place::Map;
    let e = platoon::check_deploy(&st, &squad).unwrap_err();
    assert!(e.contains("already has sections"), "{e}");
}

/// R26: without its leader in play a platoon's units move as if reacting.
#[test]
fn r26_a_leaderless_platoon_moves_as_if_reacting() {
    use despatch::rulesets::last_hundred_yards::state::Place;
    let mut st = lhy::game(lhy::PATROL);
    st.unit_mut("A1-L").unwrap().place = Place::Eliminated;
    let a = maneuver::allowance(&st, st.unit("A1-1").unwrap(), false, false);
    assert_eq!((a.mp, a.hexes), (2.0, 1));
}

/// Issue point 3: one mail carries this activation and the next; the queued block plays
/// without another mail when the loop ends.
#[test]
fn a_queued_activation_plays_without_a_mail() {
    let mut st = active(
        lhy::step(
            &lhy::game(lhy::BRIDGEHEAD),
            &[("us", "PASS"), ("germany", "PASS")],
            1,
        ),
        "us",
    );
    st.side_mut("germany").unwrap().ask = despatch::rulesets::last_hundred_yards::state::Ask::Never;
    let st = lhy::step(
        &st,
        &[("us", "ACTIVATE 1PLT\nHOLD A1-1\nACTIVATE 2PLT\nHOLD A2-1")],
        2,
    );
    assert_eq!(
        st.turn.platoons_done,
        vec!["1PLT".to_string(), "2PLT".to_string()]
    );
    assert_eq!(st.phase, Phase::Activate { side: "us".into() });
    // The queue never shows to the enemy.
    assert!(!lhy::seen(&st, "germany").contains("queued"));
}

/// §10.3.3: two sections of a platoon in one hex recombine in the Clean Up Phase.
#[test]
fn sections_recombine_in_clean_up() {
    use despatch::rulesets::last_hundred_yards::state::Place;
    let mut st = active(
        lhy::step(
            &lhy::game(lhy::PATROL),
            &[("us", "PASS"), ("germany", "PASS")],
            1,
        ),
        "us",
    );
    let at = st.unit("A1-3").unwrap().at;
    st.unit_mut("A1-3").unwrap().place = Place::Pool;
    for n in ["A1-a", "A1-b"] {
        let u = st.unit_mut(n).unwrap();
        u.place = Place::Map;
        u.at = at;
    }
    // The US activates its one platoon and holds: the turn ends and Clean Up recombines.
    let st = lhy::step(&st, &[("us", "ACTIVATE 1PLT\nHOLD A1-1")], 2);
    assert_eq!(st.turn.number, 2, "{:?}", st.phase);
    assert_eq!(
        st.unit("A1-3").unwrap().place,
        Place::Map,
        "{}",
        lhy::log(&st, "us")
    );
    assert_eq!(st.unit("A1-a").unwrap().place, Place::Pool);
}

/// HELP and the welcome mail brief a seat on its mission and its own forces only.
#[test]
fn the_briefing_names_only_the_seats_own_units() {
    let st = lhy::game(lhy::BRIDGEHEAD);
    let b = format!("{:?}", Lhy::briefing(&st, "us"));
    assert!(
        b.contains("A1-1 (US rifle squad)") && b.contains("Crossroads"),
        "{b}"
    );
    assert!(!b.contains("G1-1") && !b.contains("PaK-1"), "{b}");
}
