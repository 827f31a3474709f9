//! Golden tests for the naval orders that random games rarely reach (General Withdrawal and
//! Chase, mines, rescue, capture, smoke, formations, halts, repairs, speed and CP modifiers, the
//! extreme-range ban, secondary batteries, victory and the turn limit), written in the players'
//! own order syntax through the public `Ruleset` API with fixed dice. Never edits game data.

use despatch::engine::{Ruleset, Viewer};
use despatch::rulesets::naval_rjw::state::{Critical, Fate, Minefield, NavalState, Phase};
use despatch::rulesets::naval_rjw::{NavalRjw, checks, damage, gunnery, stats};

use crate::naval;
use crate::naval_game;
use naval::*;
use naval_game::*;

fn field(id: &str, owner: &str, x: f64, y: f64, heading: f64, genuine: bool) -> Minefield {
    Minefield {
        id: id.into(),
        owner: owner.into(),
        centre: despatch::board::tabletop::Pt::new(x, y),
        heading,
        genuine,
        laid_in_play: false,
        revealed: false,
    }
}

fn seat_view_text(st: &NavalState, seat: &str) -> String {
    let v = NavalRjw::view(st, &Viewer::Seat(seat.into()));
    format!("{:?}{:?}{}", v.sections, v.log, v.data)
}

// ---------------------------------------------------------------- General Withdrawal and Chase

#[test]
fn r16_withdraw_steers_every_ship_escapes_and_leaves_cp_for_repairs_only() {
    let japan = [
        ship("Mikasa", "BB", 10.0, 10.0, 90.0, ""),
        ship("Asahi", "BB", 10.0, 14.0, 90.0, ""),
        ship("Fuji", "BB", 2.0, 30.0, 270.0, ""),
        ship("Yakumo", "CA", 20.0, 20.0, 0.0, ""),
    ]
    .concat();
    let mut st = begin(&sc(japan, russians_far()), 4);
    find_mut(&mut st, "Yakumo").hit_markers = 1;
    // 2 CP for the order (no distance surcharge), 1 for the repair; the free CP are not counted.
    assert_eq!(cost(&st, "WITHDRAW\nREPAIR Yakumo\n"), 3);
    // Once ordered, rolled CP may only repair: the rest of the email is refused line by line.
    rejected(
        &st,
        "japan",
        "WITHDRAW\nTURN Mikasa PORT 45\n",
        2,
        "General Withdrawal or Chase is in force: CP may only repair hits",
    );
    rejected(
        &st,
        "japan",
        "WITHDRAW\nHALT Asahi\n",
        2,
        "CP may only repair hits",
    );
    rejected(&st, "japan", "WITHDRAW\nWITHDRAW\n", 2, "already ordered");
    let (st, dice) = send(&st, "japan", "WITHDRAW\nREPAIR Yakumo\n", 5);
    assert!(labels(&dice).is_empty(), "withdrawal rolls nothing");
    assert_eq!(st.cp_left, 1);
    assert!(st.fleets[0].withdrawal && !st.fleets[0].chase);
    logged(&st, "Japan orders a General Withdrawal.");
    // The free CP pays a turn toward 270 (at most 90° for a capital ship), then the cruise.
    at(&st, "Mikasa", 10.0, 7.0, 180.0);
    logged(&st, "Mikasa turns to starboard to 180 and cruises.");
    at(&st, "Asahi", 10.0, 11.0, 180.0);
    // Repaired first, so Yakumo may steer too.
    at(&st, "Yakumo", 17.0, 20.0, 270.0);
    logged(&st, "Yakumo turns to port to 270 and cruises.");
    // Already on the withdrawal heading: full speed, and off the table (R47: centre leaves).
    assert_eq!(find(&st, "Fuji").fate, Fate::Escaped);
    logged(&st, "Fuji leaves the table and escapes.");
    logged(&st, "Fuji steams at full speed (5\").");
    // Escaped ships are not lost (R7).
    assert_eq!(checks::losses(&st, "japan"), (0, 4, 0, 4));

    // Two player turns later the fleet still withdraws; only REPAIR is accepted.
    let mut st = next_japan_turn(&st, 3);
    rejected(
        &st,
        "japan",
        "TURN Mikasa PORT 45\n",
        1,
        "CP may only repair hits",
    );
    rejected(&st, "japan", "MOVE Asahi\n", 1, "CP may only repair hits");
    rejected(
        &st,
        "japan",
        "ABREAST Asahi\n",
        1,
        "CP may only repair hits",
    );
    find_mut(&mut st, "Mikasa").hit_markers = 1;
    let (st, _) = send(&st, "japan", "REPAIR Mikasa\n", 5);
    assert_eq!(st.cp_left, 2);
    at(&st, "Mikasa", 7.0, 7.0, 270.0);
    at(&st, "Asahi", 7.0, 11.0, 270.0);
    // On the heading now: the free CP buys the full-speed move (6" for a CA).
    at(&st, "Yakumo", 11.0, 20.0, 270.0);
    logged(&st, "Yakumo steams at full speed (6\").");
}

#[test]
fn r16_chase_is_legal_only_against_a_withdrawing_enemy() {
    let japan = [
        ship("Mikasa", "BB", 10.0, 10.0, 90.0, ""),
        ship("Asahi", "BB", 10.0, 20.0, 0.0, ""),
    ]
    .concat();
    let russia = [
        ship("Tsesarevich", "BB", 30.0, 10.0, 90.0, ""),
        ship("Retvizan", "BB", 30.0, 20.0, 0.0, ""),
    ]
    .concat();
    let mut scenario = sc(japan, russia);
    scenario.first = "russia";
    let st = begin(&scenario, 2);
    // Russia is not withdrawing yet: a chase is refused, with the reason.
    let err = NavalRjw::parse(&st, "russia", "CHASE").unwrap_err();
    assert_eq!(
        err[0].reason,
        "General Chase is legal only while the enemy is in General Withdrawal"
    );
    let (st, _) = send(&st, "russia", "WITHDRAW", 5);
    assert_eq!(st.cp_left, 0);
    at(&st, "Tsesarevich", 35.0, 10.0, 90.0);
    at(&st, "Retvizan", 33.0, 20.0, 90.0);
    let (mut st, _) = quiet_fire(&st, 6);
    assert_eq!(st.active, "japan");
    st.cp_rolled = 3;
    st.cp_left = 3;
    assert_eq!(cost(&st, "CHASE"), 3);
    rejected(
        &st,
        "japan",
        "CHASE\nTURN Mikasa PORT 10\n",
        2,
        "CP may only repair hits",
    );
    let (st, dice) = send(&st, "japan", "CHASE", 5);
    assert!(labels(&dice).is_empty());
    assert_eq!(st.cp_left, 0);
    assert!(st.fleets[0].chase);
    logged(&st, "Japan orders a General Chase.");
    // Mikasa already points at the nearest enemy: full speed. Asahi turns toward hers first.
    at(&st, "Mikasa", 15.0, 10.0, 90.0);
    logged(&st, "Mikasa steams at full speed (5\").");
    at(&st, "Asahi", 13.0, 20.0, 90.0);
    logged(&st, "Asahi turns to starboard to 90 and cruises.");
    // A chase, once ordered, cannot be ordered again, nor turned into a withdrawal.
    let st = next_japan_turn(&st, 4);
    rejected(&st, "japan", "WITHDRAW", 1, "already ordered");
}

// ---------------------------------------------------------------- mines

#[test]
fn r26_lay_places_a_genuine_belt_astern_that_both_sides_see() {
    let japan = [
        ship("Mikasa", "BB", 10.0, 10.0, 90.0, ""),
        ship("Asahi", "BB", 10.0, 14.0, 90.0, ""),
        ship("Katsuriki", "CL", 20.0, 20.0, 90.0, "minelayer = true"),
    ]
    .concat();
    let st = begin(&sc(japan, russians_far()), 2);
    rejected(&st, "japan", "LAY Mikasa", 1, "Mikasa is not a minelayer");
    rejected(
        &st,
        "japan",
        "LAY Katsuriki\nLAY Katsuriki",
        2,
        "one belt per turn",
    );
    assert_eq!(cost(&st, "LAY Katsuriki"), 1);
    let (st, dice) = send(&st, "japan", "LAY Katsuriki", 5);
    assert!(labels(&dice).is_empty());
    assert_eq!(st.cp_left, 1);
    // The cruise first, then the belt 2" astern of where she ends, long side across her track.
    at(&st, "Katsuriki", 23.0, 20.0, 90.0);
    logged(&st, "Katsuriki lays minefield M1 astern.");
    let m = &st.minefields[0];
    assert_eq!((m.id.as_str(), m.owner.as_str()), ("M1", "japan"));
    assert!(m.genuine && m.laid_in_play);
    assert!(near(m.centre.x, 21.0) && near(m.centre.y, 20.0) && near(m.heading, 90.0));
    let rect = despatch::rulesets::naval_rjw::movement::field_rect(&st, m);
    assert!(near(rect.length, 4.0) && near(rect.width, 1.0));
    assert!(
        near(rect.heading.rem_euclid(180.0), 0.0),
        "4\" side runs north-south"
    );
    for seat in ["japan", "russia"] {
        let text = seat_view_text(&st, seat);
        assert!(
            text.contains("field M1 (Japan) at 21,20 heading 90: genuine, laid in play"),
            "{seat}: {text}"
        );
    }
    let sv = NavalRjw::view(&st, &Viewer::Spectator);
    assert_eq!(sv.data["minefields"][0]["nature"], "unknown");
}

fn sweeper_game(fields: Vec<Minefield>) -> NavalState {
    let japan = [
        ship("Mikasa", "BB", 10.0, 10.0, 90.0, ""),
        ship("Asahi", "BB", 10.0, 14.0, 90.0, ""),
        ship("Akatsuki", "DD", 20.0, 20.0, 0.0, "minesweeper = true"),
    ]
    .concat();
    let mut st = begin(&sc(japan, russians_far()), 4);
    st.minefields = fields;
    st
}

#[test]
fn r27_sweep_win_clears_the_field() {
    // M1 lies 1.5" ahead of Akatsuki's bow (y 22 to 23); she halts and sweeps.
    let st = sweeper_game(vec![field("M1", "russia", 20.0, 22.5, 0.0, true)]);
    assert_eq!(cost(&st, "HALT Akatsuki\nSWEEP Akatsuki M1"), 2);
    rejected(
        &st,
        "japan",
        "SWEEP Mikasa M1",
        1,
        "Mikasa is not a minesweeper",
    );
    rejected(&st, "japan", "SWEEP Akatsuki M7", 1, "no minefield `M7`");
    // Seed 22 rolls 6 then 1: sweeper 6+4=10 against mines 1+2=3.
    let (st, dice) = send(&st, "japan", "HALT Akatsuki\nSWEEP Akatsuki m1", 22);
    assert_eq!(
        labels(&dice),
        ["sweep Akatsuki->M1 sweeper", "sweep Akatsuki->M1 mines"]
    );
    logged(
        &st,
        "Akatsuki (6+4=10) sweeps minefield M1 (1+2=3): the field is cleared.",
    );
    assert!(st.minefields.is_empty());
    assert_eq!(find(&st, "Akatsuki").hit_markers, 0);
    assert_eq!(st.cp_left, 2);
}

#[test]
fn r43_dt10_sweep_miss_lets_the_mines_attack_the_sweeper_at_cf_4() {
    let st = sweeper_game(vec![field("M1", "russia", 20.0, 22.5, 0.0, true)]);
    // Seed 129 rolls 3 then 6: DT-10's sweeper 3+4=7 against mines 6+2=8, a miss.
    let (st, dice) = send(&st, "japan", "HALT Akatsuki\nSWEEP Akatsuki M1", 129);
    assert_eq!(
        labels(&dice),
        [
            "sweep Akatsuki->M1 sweeper",
            "sweep Akatsuki->M1 mines",
            "mines M1->Akatsuki mines",
            "mines M1->Akatsuki ship"
        ]
    );
    assert!(!damage::sweep_clears(7, 8));
    logged(
        &st,
        "Akatsuki (3+4=7) sweeps minefield M1 (6+2=8): she fails, and the mines attack her.",
    );
    // The sweeper keeps her CF 4 in defence (R43): 6 against 7, no effect. At CF 2 she would
    // have scored 5 and taken a hit.
    logged(
        &st,
        "Minefield M1 (4+2=6) attacks Akatsuki (3+4=7): no effect.",
    );
    assert_eq!(damage::mine_result(6, 7), (0, false));
    assert_eq!(damage::mine_result(6, 5), (1, false));
    let a = find(&st, "Akatsuki");
    assert_eq!((a.hit_markers, a.mine_crippled), (0, false));
    assert_eq!(st.minefields.len(), 1, "a failed sweep leaves the field");
}

#[test]
fn r43_sweeping_a_dummy_removes_it_without_a_roll() {
    let st = sweeper_game(vec![field("M1", "russia", 20.0, 22.5, 0.0, false)]);
    assert!(
        seat_view_text(&st, "japan")
            .contains("field M1 (Russia) at 20,22.5 heading 0, nature unknown")
    );
    let (st, dice) = send(&st, "japan", "HALT Akatsuki\nSWEEP Akatsuki M1", 22);
    assert!(labels(&dice).is_empty(), "{:?}", labels(&dice));
    logged(
        &st,
        "Akatsuki sweeps minefield M1: it was a dummy and is removed.",
    );
    assert!(st.minefields.is_empty());
    assert_eq!(st.cp_left, 2, "the CP are spent all the same");
    // Both sides read the same public line.
    let rv = NavalRjw::view(&st, &Viewer::Seat("russia".into()));
    assert!(rv.log.iter().any(|l| l.contains("it was a dummy")));
}

#[test]
fn sweep_out_of_reach_does_nothing() {
    let st = sweeper_game(vec![field("M1", "russia", 20.0, 27.0, 0.0, true)]);
    let (st, dice) = send(&st, "japan", "HALT Akatsuki\nSWEEP Akatsuki M1", 22);
    assert!(labels(&dice).is_empty());
    logged(
        &st,
        "Akatsuki is 6\" from minefield M1, beyond 2\": no sweep.",
    );
    assert_eq!(st.minefields.len(), 1);
}

/// "Mine-sweepers may instead attack the mines first" (p.9, R27): a sweeper that sweeps the field
/// she steams across is not also attacked for crossing it.
#[test]
fn a_sweeper_crossing_the_field_she_sweeps_attacks_it_first() {
    let st = sweeper_game(vec![field("M1", "russia", 20.0, 22.5, 0.0, true)]);
    // No HALT: her 3" cruise takes her across M1 (y 22 to 23).
    let (st, dice) = send(&st, "japan", "SWEEP Akatsuki M1", 22);
    at(&st, "Akatsuki", 20.0, 23.0, 0.0);
    assert_eq!(
        labels(&dice),
        ["sweep Akatsuki->M1 sweeper", "sweep Akatsuki->M1 mines"]
    );
    assert!(st.minefields.is_empty());
    assert_eq!(find(&st, "Akatsuki").hit_markers, 0);
}

#[test]
fn r8_dt10_crossing_a_genuine_field_after_movement() {
    let japan = [
        ship("Mikasa", "BB", 10.0, 10.0, 90.0, ""),
        ship("Asahi", "BB", 10.0, 14.0, 90.0, ""),
        ship("Fuji", "BB", 30.0, 20.0, 90.0, ""),
    ]
    .concat();
    let mut st = begin(&sc(japan, russians_far()), 0);
    // A Russian pre-game field across Fuji's track (x 31.5 to 32.5, y 18 to 22).
    st.minefields = vec![field("M1", "russia", 32.0, 20.0, 90.0, true)];
    assert!(
        seat_view_text(&st, "japan")
            .contains("field M1 (Russia) at 32,20 heading 90, nature unknown")
    );
    // Seed 39 rolls 5 then 2: DT-10's mines 5+2=7 against the ship 2+2=4 (her CF 4 is ignored).
    let (after, dice) = send(&st, "japan", "", 39);
    assert_eq!(
        labels(&dice),
        ["mines M1->Fuji mines", "mines M1->Fuji ship"]
    );
    at(&after, "Fuji", 33.0, 20.0, 90.0);
    logged(
        &after,
        "Minefield M1 (5+2=7) attacks Fuji (2+2=4): 3 hits; Fuji is crippled.",
    );
    assert_eq!(damage::mine_result(7, 4), (3, false), "7 is not twice 4");
    let fuji = find(&after, "Fuji");
    assert_eq!((fuji.hit_markers, fuji.fate), (3, Fate::Afloat));
    assert!(
        fuji.mine_crippled && fuji.criticals.is_empty(),
        "no critical rolls"
    );
    assert!(stats::is_lost(fuji), "crippled counts as lost (R7)");
    // The field has shown itself: both sides now know it is genuine.
    assert!(
        seat_view_text(&after, "japan").contains("field M1 (Russia) at 32,20 heading 90: genuine")
    );
    // Seed 22 rolls 6 then 1: 8 against 3, double: she sinks.
    let (after, _) = send(&st, "japan", "", 22);
    logged(
        &after,
        "Minefield M1 (6+2=8) attacks Fuji (1+2=3): 5 hits; Fuji is crippled.",
    );
    logged(&after, "Fuji sinks: the mines score double.");
    assert_eq!(find(&after, "Fuji").fate, Fate::Sunk);
    assert_eq!(damage::mine_result(8, 3), (5, true));
}

#[test]
fn r8_crossing_a_dummy_removes_it_and_both_sides_know() {
    let japan = [
        ship("Mikasa", "BB", 10.0, 10.0, 90.0, ""),
        ship("Asahi", "BB", 10.0, 14.0, 90.0, ""),
        ship("Fuji", "BB", 30.0, 20.0, 90.0, ""),
    ]
    .concat();
    let mut st = begin(&sc(japan, russians_far()), 0);
    st.minefields = vec![field("M1", "russia", 32.0, 20.0, 90.0, false)];
    let (st, dice) = send(&st, "japan", "", 39);
    assert!(labels(&dice).is_empty());
    logged(
        &st,
        "Fuji crosses minefield M1: it was a dummy and is removed.",
    );
    assert!(st.minefields.is_empty());
    assert_eq!(find(&st, "Fuji").hit_markers, 0);
    for seat in ["japan", "russia"] {
        let v = NavalRjw::view(&st, &Viewer::Seat(seat.into()));
        assert!(
            v.log
                .iter()
                .any(|l| l == "Fuji crosses minefield M1: it was a dummy and is removed."),
            "{seat}: {:?}",
            v.log
        );
        assert_eq!(v.data["minefields"].as_array().unwrap().len(), 0);
    }
}

// ---------------------------------------------------------------- rescue and capture

fn rescue_game(extra_japan: &str) -> NavalState {
    let japan = [
        ship("Mikasa", "BB", 10.0, 10.0, 90.0, ""),
        ship("Asahi", "BB", 10.0, 14.0, 90.0, ""),
        extra_japan.to_string(),
    ]
    .concat();
    let mut st = begin(&sc(japan, russians_far()), 2);
    damage::sink(&mut st, "Asahi", "her magazine explodes");
    st
}

#[test]
fn r53_rescue_is_required_steers_to_the_wreck_then_waits_two_turns_without_firing() {
    let st = rescue_game(&ship("Chitose", "CL", 10.0, 20.0, 180.0, ""));
    logged(
        &st,
        "Friendly ships are within 12\" of Asahi: one must be sent to rescue her survivors.",
    );
    assert_eq!(st.fleets[0].rescue_owed, ["Asahi"]);
    let q = &NavalRjw::step(&st).prompts[0].question;
    assert!(
        q.contains("Survivors of Asahi wait for rescue (RESCUE wreck WITH ship)."),
        "{q}"
    );
    rejected(
        &st,
        "japan",
        "RESCUE Mikasa WITH Chitose",
        1,
        "no survivors of Mikasa wait for rescue",
    );
    rejected(
        &st,
        "japan",
        "RESCUE Asahi WITH Chitose Mikasa",
        1,
        "send one ship, or two destroyers for a capital ship's crew",
    );
    rejected(
        &st,
        "japan",
        "RESCUE Asahi WITH Chitose\nTURN Chitose PORT 10",
        2,
        "steers herself",
    );
    assert_eq!(
        cost(&st, "RESCUE Asahi WITH Chitose"),
        0,
        "the rescuer steers free"
    );
    // She is sent with a fire order too: she will not fire.
    let (st, _) = send(
        &st,
        "japan",
        "RESCUE Asahi WITH Chitose\nHALT Mikasa\nFIRE Chitose AT Tsesarevich\n",
        5,
    );
    logged(&st, "Chitose is sent to rescue the survivors of Asahi.");
    assert!(st.fleets[0].rescue_owed.is_empty());
    // At cruise speed 3" toward the wreck, which is 6" away.
    at(&st, "Chitose", 10.0, 17.0, 180.0);
    logged(&st, "Chitose steers for the wreck of Asahi.");
    let (after_fire, _) = quiet_fire(&st, 6);
    logged(
        &after_fire,
        "Chitose is rescuing survivors and cannot fire.",
    );

    // Turn 3: within 1" of the wreck (she stops 0.9" short of its centre).
    let st = next_japan_turn(&st, 1);
    let (st, _) = send(&st, "japan", "HALT Mikasa", 5);
    at(&st, "Chitose", 10.0, 14.9, 180.0);
    logged(
        &st,
        "Chitose reaches the wreck of Asahi and picks up survivors.",
    );
    assert_eq!(
        find(&st, "Chitose").rescue.as_ref().unwrap().turns_left,
        Some(2)
    );
    // The arrival turn does not count (R53).
    let (after_fire, _) = quiet_fire(&st, 6);
    assert_eq!(
        find(&after_fire, "Chitose")
            .rescue
            .as_ref()
            .unwrap()
            .turns_left,
        Some(2)
    );

    // Turns 5 and 7: she stays, stationary, and is free at the end of turn 7.
    let st = next_japan_turn(&st, 1);
    rejected(
        &st,
        "japan",
        "MOVE Chitose",
        1,
        "Chitose stays by the wreck, picking up survivors",
    );
    let (st, _) = send(&st, "japan", "HALT Mikasa", 5);
    at(&st, "Chitose", 10.0, 14.9, 180.0);
    assert!(!find(&st, "Chitose").moved);
    logged(
        &st,
        "Chitose stays by the wreck of Asahi, picking up survivors.",
    );
    let (after_fire, _) = quiet_fire(&st, 6);
    assert_eq!(
        find(&after_fire, "Chitose")
            .rescue
            .as_ref()
            .unwrap()
            .turns_left,
        Some(1)
    );
    let st = next_japan_turn(&st, 1);
    let (st, _) = send(&st, "japan", "HALT Mikasa", 5);
    at(&st, "Chitose", 10.0, 14.9, 180.0);
    let (st, _) = quiet_fire(&st, 6);
    logged(
        &st,
        "Chitose has picked up the survivors of Asahi and resumes normal operations.",
    );
    assert!(find(&st, "Chitose").rescue.is_none());
}

#[test]
fn rescue_with_a_paid_move_arrives_at_once() {
    let st = rescue_game(&ship("Chitose", "CL", 10.0, 20.0, 180.0, ""));
    let (st, _) = send(&st, "japan", "RESCUE Asahi WITH Chitose\nMOVE Chitose", 5);
    assert_eq!(st.cp_left, 1);
    at(&st, "Chitose", 10.0, 14.9, 180.0);
    logged(
        &st,
        "Chitose reaches the wreck of Asahi and picks up survivors.",
    );
}

#[test]
fn rescue_is_assigned_automatically_when_the_orders_omit_it() {
    let st = rescue_game(&ship("Chitose", "CL", 10.0, 20.0, 180.0, ""));
    let (st, _) = send(&st, "japan", "", 5);
    // For a capital ship's crew the nearest capital ship goes.
    logged(
        &st,
        "Mikasa is sent automatically to rescue the survivors of Asahi.",
    );
    assert!(st.fleets[0].rescue_owed.is_empty());
    at(&st, "Mikasa", 10.0, 13.0, 0.0);
    logged(
        &st,
        "Mikasa reaches the wreck of Asahi and picks up survivors.",
    );
    // Chitose was not needed: she makes her cruise.
    at(&st, "Chitose", 10.0, 17.0, 180.0);
}

#[test]
fn a_capital_wreck_needs_two_destroyers() {
    let japan = [
        ship("Mikasa", "BB", 40.0, 40.0, 90.0, ""),
        ship("Asahi", "BB", 10.0, 14.0, 90.0, ""),
        ship("Akatsuki", "DD", 14.0, 14.0, 270.0, ""),
        ship("Ikazuchi", "DD", 6.0, 14.0, 90.0, ""),
        ship("Oboro", "DD", 10.0, 22.0, 180.0, ""),
    ]
    .concat();
    let mut st = begin(&sc(japan, russians_far()), 2);
    damage::sink(&mut st, "Asahi", "her magazine explodes");
    rejected(
        &st,
        "japan",
        "RESCUE Asahi WITH Akatsuki",
        1,
        "send one ship, or two destroyers for a capital ship's crew",
    );
    assert!(NavalRjw::parse(&st, "japan", "RESCUE Asahi WITH Akatsuki Oboro").is_ok());
    // Omitted: the two nearest destroyers go.
    let (st, _) = send(&st, "japan", "HALT Oboro", 5);
    logged(
        &st,
        "Akatsuki and Ikazuchi are sent automatically to rescue the survivors of Asahi.",
    );
    at(&st, "Akatsuki", 11.0, 14.0, 270.0);
    at(&st, "Ikazuchi", 9.0, 14.0, 90.0);
    logged(
        &st,
        "Akatsuki reaches the wreck of Asahi and picks up survivors.",
    );
    logged(
        &st,
        "Ikazuchi reaches the wreck of Asahi and picks up survivors.",
    );
    at(&st, "Oboro", 10.0, 22.0, 180.0);
}

/// DT-9 set-up: Novik (CL, CF 2) alone, Mikasa (CF 4), Chitose (CF 2) and Akatsuki (CF 1) within 6".
fn struck_novik() -> NavalState {
    let japan = [
        ship("Mikasa", "BB", 10.0, 10.0, 0.0, ""),
        ship("Asahi", "BB", 60.0, 40.0, 0.0, ""),
        ship("Chitose", "CL", 20.0, 10.0, 0.0, ""),
        ship("Akatsuki", "DD", 15.0, 4.0, 0.0, ""),
    ]
    .concat();
    let russia = [
        ship("Novik", "CL", 15.0, 10.0, 0.0, ""),
        ship("Tsesarevich", "BB", 60.0, 10.0, 0.0, ""),
        ship("Retvizan", "BB", 62.0, 10.0, 0.0, ""),
    ]
    .concat();
    let st = begin(&sc(japan, russia), 3);
    let (st, _) = send(&st, "japan", "HALT Mikasa\nHALT Chitose\nHALT Akatsuki", 5);
    let (st, _) = quiet_fire(&st, 6);
    st
}

#[test]
fn r10_dt9_struck_ship_is_captured_alongside_and_both_take_no_further_part() {
    let st = struck_novik();
    logged(
        &st,
        "Novik strikes her colours: undamaged enemies within 6\" muster CF 7 against her CF 2, and no friend is within 12\".",
    );
    assert_eq!(find(&st, "Novik").fate, Fate::Struck);
    // Struck counts as lost; one loss is not a defeat (minimum 2).
    assert_eq!(checks::losses(&st, "russia"), (0, 2, 1, 3));
    assert_eq!(st.phase, Phase::Manoeuvre);
    assert!(
        NavalRjw::parse(&st, "russia", "TURN Novik PORT 10").unwrap_err()[0]
            .reason
            .contains("struck her colours")
    );
    // Russia's turn: the struck ship does not move.
    let (st, _) = send(&st, "russia", "", 7);
    at(&st, "Novik", 15.0, 10.0, 0.0);
    let (mut st, _) = quiet_fire(&st, 8);
    st.cp_rolled = 3;
    st.cp_left = 3;
    rejected(
        &st,
        "japan",
        "CAPTURE Novik WITH Akatsuki",
        1,
        "a destroyer may capture only a destroyer",
    );
    rejected(
        &st,
        "japan",
        "CAPTURE Tsesarevich WITH Chitose",
        1,
        "not an enemy ship that has struck",
    );
    rejected(
        &st,
        "japan",
        "CAPTURE Novik WITH Chitose\nCAPTURE Novik WITH Mikasa",
        2,
        "already sent to take Novik",
    );
    // A paid MOVE takes her alongside at full speed (R10).
    let (st, _) = send(
        &st,
        "japan",
        "CAPTURE Novik WITH Chitose\nMOVE Chitose\nHALT Mikasa\nFIRE Chitose AT Tsesarevich",
        5,
    );
    assert_eq!(st.cp_left, 1);
    logged(&st, "Chitose is sent to take possession of Novik.");
    at(&st, "Chitose", 15.9, 10.0, 270.0);
    logged(
        &st,
        "Chitose comes alongside Novik and takes possession of her.",
    );
    assert_eq!(find(&st, "Novik").captured_by.as_deref(), Some("Chitose"));
    let (after_fire, _) = quiet_fire(&st, 6);
    logged(
        &after_fire,
        "Chitose is taking possession of a prize and cannot fire.",
    );
    // Two turns on, prize and prize crew are still where they met; the prize is still lost.
    let st = next_japan_turn(&st, 2);
    rejected(
        &st,
        "japan",
        "MOVE Chitose",
        1,
        "Chitose lies alongside her prize Novik and takes no further part",
    );
    let (st, _) = send(&st, "japan", "HALT Mikasa\nHALT Akatsuki", 5);
    at(&st, "Chitose", 15.9, 10.0, 270.0);
    at(&st, "Novik", 15.0, 10.0, 0.0);
    assert!(!find(&st, "Chitose").moved);
    assert_eq!(checks::losses(&st, "russia"), (0, 2, 1, 3));
    assert!(
        NavalRjw::parse(&st, "japan", "FIRE Mikasa AT Novik").unwrap_err()[0]
            .reason
            .contains("no longer a target")
    );
}

#[test]
fn capture_steers_at_cruise_speed_without_a_paid_move() {
    let st = struck_novik();
    let (st, _) = send(&st, "russia", "", 7);
    let (mut st, _) = quiet_fire(&st, 8);
    st.cp_left = 1;
    let (st, _) = send(&st, "japan", "CAPTURE Novik WITH Chitose\nHALT Mikasa", 5);
    at(&st, "Chitose", 17.0, 10.0, 270.0);
    logged(&st, "Chitose steers for the prize Novik.");
    assert!(find(&st, "Novik").captured_by.is_none());
}

// ---------------------------------------------------------------- smoke, formations, halts, repairs

#[test]
fn r19_smoke_blocks_capital_ships_line_of_sight_this_turn() {
    // Both destroyers sit across the bow-to-bow line between Mikasa and Tsesarevich (y 10.8).
    let japan = [
        ship("Mikasa", "BB", 10.0, 10.0, 0.0, ""),
        ship("Asahi", "BB", 10.0, 4.0, 0.0, ""),
        ship("Akatsuki", "DD", 14.0, 11.0, 0.0, ""),
    ]
    .concat();
    let russia = [
        ship("Tsesarevich", "BB", 22.0, 10.0, 0.0, ""),
        ship("Retvizan", "BB", 22.0, 4.0, 0.0, ""),
        ship("Burny", "DD", 18.0, 11.0, 0.0, ""),
    ]
    .concat();
    let st = begin(&sc(japan, russia), 3);
    rejected(&st, "japan", "SMOKE Mikasa", 1, "only destroyers lay smoke");
    let plan = "HALT Mikasa\nHALT Asahi\nHALT Akatsuki\nFIRE Mikasa AT Tsesarevich\n";
    assert_eq!(
        cost(&st, &format!("{plan}SMOKE Akatsuki")),
        3,
        "smoke is free"
    );

    // Without smoke, destroyers do not block capital ships (R22): both battleships see.
    assert!(gunnery::has_los(
        &st,
        find(&st, "Mikasa"),
        find(&st, "Tsesarevich")
    ));
    assert!(gunnery::has_los(
        &st,
        find(&st, "Tsesarevich"),
        find(&st, "Mikasa")
    ));
    let (quiet, _) = send(&st, "japan", plan, 5);
    let (_, dice) = send(&quiet, "russia", "FIRE Tsesarevich AT Asahi", 6);
    let l = labels(&dice);
    assert!(
        l.contains(&"gunnery Mikasa->Tsesarevich attacker".to_string()),
        "{l:?}"
    );

    // Japan's destroyer lays smoke in the manoeuvre email; Russia's in its fire plan.
    let (st, _) = send(&st, "japan", &format!("{plan}SMOKE Akatsuki"), 5);
    logged(&st, "Akatsuki lays smoke.");
    assert!(find(&st, "Akatsuki").smoke);
    let (st, dice) = send(&st, "russia", "SMOKE Burny\nFIRE Tsesarevich AT Mikasa", 6);
    let l = labels(&dice);
    assert!(!l.iter().any(|x| x.starts_with("gunnery")), "{l:?}");
    logged(&st, "Burny lays smoke.");
    logged(
        &st,
        "Tsesarevich holds fire: Tsesarevich has no line of sight to Mikasa.",
    );
    logged(
        &st,
        "Mikasa holds fire: Mikasa has no line of sight to Tsesarevich.",
    );
    // Smoke lasts this turn only: it is gone once the next manoeuvre is resolved.
    let (st, _) = send(&st, "russia", "", 7);
    assert!(!find(&st, "Akatsuki").smoke && !find(&st, "Burny").smoke);
}

fn division() -> String {
    format!(
        "{}[[sides.lines]]\nname = \"1st Division\"\nships = [\"Mikasa\", \"Asahi\", \"Fuji\"]\n",
        [
            ship("Mikasa", "BB", 20.0, 10.0, 90.0, ""),
            ship("Asahi", "BB", 18.0, 10.0, 90.0, ""),
            ship("Fuji", "BB", 16.0, 10.0, 90.0, ""),
        ]
        .concat()
    )
}

#[test]
fn r49_abreast_and_astern_cost_two_and_put_followers_on_station() {
    let st = begin(&sc(division(), russians_far()), 2);
    assert_eq!(cost(&st, "ABREAST Mikasa"), 2);
    rejected(&st, "japan", "ASTERN Mikasa", 1, "already in line astern");
    rejected(
        &st,
        "japan",
        "ABREAST Asahi",
        1,
        "Asahi does not lead a battle line",
    );
    rejected(
        &st,
        "japan",
        "HALT Mikasa\nABREAST Mikasa",
        2,
        "CP run out here: this order costs 2 CP",
    );
    let (st, _) = send(&st, "japan", "ABREAST Mikasa", 5);
    assert_eq!(st.cp_left, 0);
    logged(&st, "Mikasa's line forms line abreast.");
    // Followers 1" apart to starboard (R49); that is the line's move this turn.
    at(&st, "Mikasa", 20.0, 10.0, 90.0);
    at(&st, "Asahi", 20.0, 9.0, 90.0);
    at(&st, "Fuji", 20.0, 8.0, 90.0);
    assert_eq!(
        st.groups[0].formation,
        despatch::rulesets::naval_rjw::data::Formation::Abreast
    );

    // Next turn: in line abreast each ship makes her own cruise, and may be ordered alone.
    let st = next_japan_turn(&st, 0);
    assert!(NavalRjw::parse(&st, "japan", "ASTERN Asahi").is_err());
    let (st, _) = send(&st, "japan", "", 5);
    let mut st = next_japan_turn(&st, 2);
    at(&st, "Mikasa", 23.0, 10.0, 90.0);
    at(&st, "Asahi", 23.0, 9.0, 90.0);
    at(&st, "Fuji", 23.0, 8.0, 90.0);
    assert!(NavalRjw::parse(&st, "japan", "TURN Asahi PORT 45").is_ok());
    // Back to line astern: followers 0.5" stern to bow behind the lead.
    st.cp_left = 2;
    let (st, _) = send(&st, "japan", "ASTERN Mikasa", 5);
    assert_eq!(st.cp_left, 0);
    logged(&st, "Mikasa's line forms line astern.");
    at(&st, "Mikasa", 23.0, 10.0, 90.0);
    at(&st, "Asahi", 20.9, 10.0, 90.0);
    at(&st, "Fuji", 18.8, 10.0, 90.0);
}

#[test]
fn leave_split_and_join() {
    let japan = format!(
        "{}[[sides.lines]]\nname = \"1st Division\"\nships = [\"Mikasa\", \"Shikishima\", \"Fuji\", \"Asahi\"]\n",
        [
            ship("Mikasa", "BB", 20.0, 10.0, 90.0, ""),
            ship("Shikishima", "BB", 18.0, 10.0, 90.0, ""),
            ship("Fuji", "BB", 16.0, 10.0, 90.0, ""),
            ship("Asahi", "BB", 14.0, 10.0, 90.0, ""),
            ship("Nisshin", "CA", 11.4, 10.0, 90.0, ""),
            ship("Kasuga", "CA", 30.0, 30.0, 90.0, ""),
        ]
        .concat()
    );
    let st = begin(&sc(japan, russians_far()), 3);
    rejected(
        &st,
        "japan",
        "TURN Shikishima PORT 90",
        1,
        "Shikishima follows Mikasa",
    );
    assert_eq!(
        NavalRjw::parse(&st, "japan", "TURN Shikishima PORT 90").unwrap_err()[0]
            .hint
            .as_deref(),
        Some("LEAVE Shikishima")
    );
    rejected(
        &st,
        "japan",
        "SPLIT Mikasa",
        1,
        "nothing ahead to split from",
    );
    rejected(
        &st,
        "japan",
        "JOIN Kasuga TO Mikasa",
        1,
        "from Asahi's stern; she must be within 2\"",
    );
    rejected(&st, "japan", "LEAVE Kasuga", 1, "not in a line or flotilla");
    assert_eq!(
        cost(&st, "SPLIT Fuji\nLEAVE Shikishima\nJOIN Nisshin TO Fuji"),
        1
    );
    let (st, _) = send(
        &st,
        "japan",
        "SPLIT Fuji\nLEAVE Shikishima\nJOIN Nisshin TO Fuji\nTURN Mikasa PORT 90\nTURN Fuji PORT 90\n",
        5,
    );
    assert_eq!(st.cp_left, 0);
    logged(&st, "The line splits ahead of Fuji.");
    logged(&st, "Shikishima leaves her line.");
    logged(&st, "Nisshin joins the end of Fuji's line.");
    let lines: Vec<Vec<String>> = st.groups.iter().map(|g| g.ships.clone()).collect();
    assert_eq!(
        lines,
        vec![vec!["Fuji".to_string(), "Asahi".into(), "Nisshin".into()]]
    );
    // Mikasa alone turns and cruises; Shikishima alone cruises; Fuji now leads her own line
    // (Asahi and the joined Nisshin follow her track, turning where she turned).
    at(&st, "Mikasa", 20.0, 13.0, 0.0);
    at(&st, "Shikishima", 21.0, 10.0, 90.0);
    at(&st, "Fuji", 16.0, 13.0, 0.0);
    at(&st, "Asahi", 16.0, 11.0, 0.0);
    at(&st, "Nisshin", 14.4, 10.0, 90.0);
    // JOIN needs a course within 45° of the last ship's.
    let japan = [division(), ship("Nisshin", "CA", 14.0, 10.0, 180.0, "")].concat();
    let st = begin(&sc(japan, russians_far()), 2);
    rejected(
        &st,
        "japan",
        "JOIN Nisshin TO Mikasa",
        1,
        "must steer within 45° of Fuji's heading",
    );
}

#[test]
fn halt_costs_one_and_anchored_ships_stay_free() {
    let japan = [
        ship("Mikasa", "BB", 10.0, 10.0, 90.0, ""),
        ship("Asahi", "BB", 10.0, 14.0, 90.0, ""),
        ship("Fuji", "BB", 10.0, 18.0, 90.0, ""),
    ]
    .concat();
    let mut st = begin(&sc(japan, russians_far()), 1);
    find_mut(&mut st, "Mikasa").anchored = true;
    // An anchored ship is halted free; paying for it (or for a move she cannot make) is refused.
    rejected(
        &st,
        "japan",
        "HALT Mikasa",
        1,
        "Mikasa is at anchor and stays halted for free",
    );
    rejected(&st, "japan", "MOVE Mikasa", 1, "at anchor");
    rejected(
        &st,
        "japan",
        "HALT Asahi\nHALT Asahi",
        2,
        "Asahi is already halted",
    );
    rejected(
        &st,
        "japan",
        "HALT Asahi\nHALT Fuji",
        2,
        "CP run out here: this order costs 1 CP and 0 of your 1 CP are left",
    );
    rejected(
        &st,
        "japan",
        "MOVE Asahi\nHALT Asahi",
        2,
        "has a full-speed move this turn",
    );
    let (st, _) = send(&st, "japan", "HALT Asahi", 5);
    assert_eq!(st.cp_left, 0);
    at(&st, "Mikasa", 10.0, 10.0, 90.0);
    at(&st, "Asahi", 10.0, 14.0, 90.0);
    at(&st, "Fuji", 13.0, 18.0, 90.0);
    logged(&st, "Asahi is halted.");
    assert!(find(&st, "Asahi").halted && !find(&st, "Asahi").moved);
    assert!(
        !find(&st, "Mikasa").moved,
        "anchored: stationary for the DD +2 (R56)"
    );
}

#[test]
fn r46_repair_costs_one_per_marker_and_takes_the_critical_marker_first() {
    let japan = [
        ship("Mikasa", "BB", 10.0, 10.0, 90.0, ""),
        ship("Asahi", "BB", 10.0, 14.0, 90.0, ""),
        ship("Yakumo", "CA", 20.0, 20.0, 90.0, ""),
        ship("Iwate", "CA", 30.0, 10.0, 90.0, ""),
    ]
    .concat();
    let mut st = begin(&sc(japan, russians_far()), 4);
    for n in ["Yakumo", "Iwate"] {
        let s = find_mut(&mut st, n);
        s.hit_markers = 2;
        s.critical_marker = true;
        s.criticals.push(Critical::Gunnery);
    }
    rejected(
        &st,
        "japan",
        "REPAIR Yakumo 3",
        1,
        "Yakumo has 2 hit marker(s) to repair",
    );
    rejected(
        &st,
        "japan",
        "REPAIR Yakumo\nTURN Yakumo PORT 45",
        2,
        "Yakumo has 1 hit marker(s) and cannot manoeuvre",
    );
    assert_eq!(cost(&st, "REPAIR Yakumo 2"), 2);
    // Iwate is 20" from the flagship: each marker costs 2.
    assert_eq!(cost(&st, "REPAIR Iwate"), 2);
    assert_eq!(cost(&st, "REPAIR Iwate 2"), 4);
    // One repair ends "dead in the water" (R46): Yakumo makes her cruise, still unable to turn.
    let (st, _) = send(&st, "japan", "REPAIR Yakumo\nREPAIR Iwate", 5);
    assert_eq!(st.cp_left, 1);
    logged(&st, "Yakumo repairs 1 hit marker(s); 1 left.");
    at(&st, "Yakumo", 23.0, 20.0, 90.0);
    at(&st, "Iwate", 33.0, 10.0, 90.0);
    let y = find(&st, "Yakumo");
    assert_eq!((y.hit_markers, y.critical_marker), (1, false));
    assert_eq!(
        y.criticals,
        [Critical::Gunnery],
        "the permanent critical stays"
    );
    // Two repairs free her to manoeuvre in the same email.
    let mut st = begin(
        &sc(
            [
                ship("Mikasa", "BB", 10.0, 10.0, 90.0, ""),
                ship("Asahi", "BB", 10.0, 14.0, 90.0, ""),
                ship("Yakumo", "CA", 20.0, 20.0, 90.0, ""),
            ]
            .concat(),
            russians_far(),
        ),
        3,
    );
    find_mut(&mut st, "Yakumo").hit_markers = 2;
    find_mut(&mut st, "Yakumo").critical_marker = true;
    let (st, _) = send(&st, "japan", "REPAIR Yakumo 2\nTURN Yakumo PORT 90", 5);
    assert_eq!(st.cp_left, 0);
    at(&st, "Yakumo", 20.0, 23.0, 0.0);
}

// ---------------------------------------------------------------- speeds and command points

#[test]
fn speed_penalties_obsolete_coal_foul_and_movement_criticals() {
    let japan = [
        ship("Mikasa", "BB", 10.0, 10.0, 90.0, ""),
        ship("Asahi", "BB", 10.0, 14.0, 90.0, ""),
        ship(
            "Chin Yen",
            "BB",
            10.0,
            18.0,
            90.0,
            "obsolete = true\nfoul_bottom = true",
        ),
        ship("Akatsuki", "DD", 10.0, 22.0, 90.0, ""),
        ship("Yakumo", "CA", 10.0, 26.0, 90.0, ""),
    ]
    .concat();
    let mut scenario = sc(japan, russians_far());
    scenario.japan_side = "coal_limited = true";
    let mut st = begin(&scenario, 4);
    find_mut(&mut st, "Yakumo").criticals = vec![Critical::Movement, Critical::Movement];
    // Coal −1 for all; obsolete −1 and foul bottom −1 more; each Movement critical −2.
    rejected(
        &st,
        "japan",
        "MOVE Mikasa 5",
        1,
        "Mikasa's maximum speed is 4\"",
    );
    rejected(
        &st,
        "japan",
        "MOVE Chin Yen 3",
        1,
        "Chin Yen's maximum speed is 2\"",
    );
    rejected(
        &st,
        "japan",
        "MOVE Akatsuki 8",
        1,
        "Akatsuki's maximum speed is 7\"",
    );
    rejected(
        &st,
        "japan",
        "MOVE Yakumo 2",
        1,
        "Yakumo's maximum speed is 1\"",
    );
    let (st, _) = send(
        &st,
        "japan",
        "MOVE Mikasa\nMOVE Chin Yen\nMOVE Akatsuki\nMOVE Yakumo\n",
        5,
    );
    assert_eq!(st.cp_left, 0);
    at(&st, "Mikasa", 14.0, 10.0, 90.0);
    at(&st, "Chin Yen", 12.0, 18.0, 90.0);
    at(&st, "Akatsuki", 17.0, 22.0, 90.0);
    at(&st, "Yakumo", 11.0, 26.0, 90.0);
    logged(&st, "Chin Yen moves 2\" at full speed to 12,18 heading 90.");
    // Asahi's compulsory cruise is still 3", and a 1" ship cruises what she can.
    at(&st, "Asahi", 13.0, 14.0, 90.0);

    // DT-8: a third Movement critical leaves Yakumo no speed: she sinks.
    let mut st = st;
    let y = stats::ship_index(&st, "Yakumo").unwrap();
    assert_eq!(
        damage::critical_effect(&mut st, y, 2, 2),
        damage::CriticalEffect::Sinks("a Movement critical leaves her no speed".into())
    );
    // Other causes never bring a ship below 1" (R30): a 3" class, obsolete, coal, foul.
    let slow = RULESET.replace("speed = 5\n", "speed = 3\n");
    let mut s2 = NavalRjw::setup(&slow, &scenario.text(), &seats()).unwrap();
    assert_eq!(stats::max_speed(&s2, find(&s2, "Chin Yen")), 1.0);
    find_mut(&mut s2, "Chin Yen")
        .criticals
        .push(Critical::Movement);
    assert_eq!(stats::max_speed(&s2, find(&s2, "Chin Yen")), 0.0);
}

#[test]
fn dt1_cp_rolls_through_resolve() {
    let japan = [
        ship("Mikasa", "BB", 10.0, 10.0, 90.0, ""),
        ship("Asahi", "BB", 10.0, 14.0, 90.0, ""),
    ]
    .concat();
    // (side lines, seed, die the seed rolls, CP, log suffix)
    let cases = [
        ("", 2u8, 4u32, 3, ""),
        ("leadership = \"poor\"", 0, 2, 0, " (poor leadership)"),
        ("crews = \"fresh\"", 11, 5, 5, " (fresh crews)"),
        (
            "leadership = \"poor\"\ncrews = \"fresh\"",
            2,
            4,
            3,
            " (poor leadership, fresh crews)",
        ),
    ];
    for (side, seed, die, cp, why) in cases {
        let mut scenario = sc(japan.clone(), russians_far());
        scenario.japan_side = side;
        let (st, dice) = set_up(&scenario, seed);
        assert_eq!(labels(&dice), ["command points japan"]);
        assert_eq!(dice.table()[0].results, [die]);
        assert_eq!((st.cp_rolled, st.cp_left), (cp, cp), "{side}");
        logged(
            &st,
            &format!("Turn 1: Japan rolls {die} on the Average Die: {cp} CP{why}."),
        );
    }
}

#[test]
fn flagship_lost_costs_one_cp_for_good_and_the_flag_passes_to_the_second() {
    let japan = [
        ship("Mikasa", "BB", 10.0, 10.0, 90.0, ""),
        ship("Asahi", "BB", 30.0, 10.0, 90.0, ""),
        ship("Fuji", "BB", 40.0, 10.0, 90.0, ""),
    ]
    .concat();
    let mut scenario = sc(japan, russians_far());
    scenario.japan_side = "crews = \"fresh\"";
    let mut st = begin(&scenario, 4);
    // Fuji is 30" from Mikasa but 10" from Asahi.
    assert_eq!(cost(&st, "TURN Fuji PORT 45"), 2);
    damage::sink(&mut st, "Mikasa", "her magazine explodes");
    logged(&st, "The flag passes from Mikasa to Asahi.");
    let f = &st.fleets[0];
    assert_eq!(
        (f.flagship.as_deref(), f.second.as_deref(), f.flagship_lost),
        (Some("Asahi"), None, true)
    );
    assert_eq!(
        cost(&st, "TURN Fuji PORT 45"),
        1,
        "measured from the new flagship"
    );
    // Japan's next roll carries the −1 (fresh crews +1 as well).
    let (st2, _) = send(&st, "japan", "", 5);
    let (st2, _) = quiet_fire(&st2, 6);
    let (st2, _) = send(&st2, "russia", "", 7);
    let (st2, dice) = quiet_fire(&st2, 8);
    let roll = dice.table().last().unwrap();
    assert_eq!(roll.label, "command points japan");
    let die = roll.results[0] as i32;
    assert_eq!(st2.cp_rolled, (die - 1 + 1 - 1).max(0));
    logged(
        &st2,
        &format!(
            "Turn 3: Japan rolls {die} on the Average Die: {} CP (fresh crews, flagship lost).",
            st2.cp_rolled
        ),
    );
    // The second goes too: no flagship at all, every action +1 (R25).
    damage::sink(&mut st, "Asahi", "her magazine explodes");
    logged(
        &st,
        "Asahi flew the flag and there is no second-in-command: the fleet has no flagship.",
    );
    assert_eq!(st.fleets[0].flagship, None);
    assert_eq!(cost(&st, "TURN Fuji PORT 45"), 2);
    assert_eq!(
        cost(&st, "WITHDRAW"),
        2,
        "no distance surcharge on a General Withdrawal"
    );
}

#[test]
fn control_critical_on_the_flagship_adds_one_to_every_action() {
    let japan = [
        ship("Mikasa", "BB", 10.0, 10.0, 90.0, ""),
        ship("Asahi", "BB", 10.0, 14.0, 90.0, ""),
    ]
    .concat();
    let mut st = begin(&sc(japan, russians_far()), 3);
    find_mut(&mut st, "Mikasa")
        .criticals
        .push(Critical::Control);
    assert_eq!(cost(&st, "TURN Asahi PORT 45"), 2);
    assert_eq!(
        cost(&st, "TURN Mikasa PORT 45"),
        2,
        "the flagship's own action pays once"
    );
    assert_eq!(cost(&st, "WITHDRAW"), 3);
    rejected(
        &st,
        "japan",
        "TURN Asahi PORT 90\nMOVE Asahi\n",
        2,
        "CP run out here: this order costs 2 CP and 1 of your 3 CP are left",
    );
    st.cp_left = 4;
    let (st, _) = send(&st, "japan", "TURN Asahi PORT 90\nMOVE Asahi\n", 5);
    assert_eq!(st.cp_left, 0);
    at(&st, "Asahi", 10.0, 19.0, 0.0);
}

#[test]
fn r25_dt2_radius_surcharge_through_a_manoeuvre_email() {
    let japan = [
        ship("Mikasa", "BB", 10.0, 10.0, 90.0, ""),
        ship("Asahi", "BB", 10.0, 14.0, 90.0, ""),
        ship("Fuji", "BB", 30.0, 10.0, 90.0, ""),
    ]
    .concat();
    let (mut st, dice) = set_up(&sc(japan, russians_far()), 2);
    // DT-1 through the roll: the Average Die shows 4, so 3 CP.
    assert_eq!(dice.table()[0].results, [4]);
    assert_eq!(st.cp_left, 3);
    rejected(
        &st,
        "japan",
        "TURN Fuji PORT 90\nMOVE Fuji\n",
        2,
        "CP run out here: this order costs 2 CP and 1 of your 3 CP are left",
    );
    // Within 18" the same pair costs 2.
    assert!(NavalRjw::parse(&st, "japan", "TURN Asahi PORT 90\nMOVE Asahi\n").is_ok());
    st.cp_left = 4;
    let (st, _) = send(&st, "japan", "TURN Fuji PORT 90\nMOVE Fuji\n", 5);
    assert_eq!(st.cp_left, 0);
    at(&st, "Fuji", 30.0, 15.0, 0.0);
    logged(
        &st,
        "Fuji turns to port 90°, then moves 5\" at full speed to 30,15 heading 0.",
    );
}

// ---------------------------------------------------------------- gunnery options

fn long_range(extra: &'static str) -> NavalState {
    // Tsesarevich 25" off (nearest points): beyond Mikasa's 18", within her 30" extreme range.
    let japan = [
        ship("Mikasa", "BB", 10.0, 10.0, 0.0, ""),
        ship("Asahi", "BB", 10.0, 6.0, 0.0, ""),
    ]
    .concat();
    let russia = [
        ship("Tsesarevich", "BB", 35.0, 10.0, 0.0, ""),
        ship("Retvizan", "BB", 60.0, 40.0, 0.0, ""),
    ]
    .concat();
    let mut scenario = sc(japan, russia);
    scenario.extra = extra;
    let st = begin(&scenario, 2);
    send(
        &st,
        "japan",
        "HALT Mikasa\nHALT Asahi\nFIRE Mikasa AT Tsesarevich SUPPORT Asahi\n",
        5,
    )
    .0
}

#[test]
fn r39_dt6_extreme_range_fire_drops_supports_and_takes_minus_two() {
    let st = long_range("");
    let (st, dice) = quiet_fire(&st, 9);
    let l = labels(&dice);
    assert_eq!(
        &l[..2],
        [
            "gunnery Mikasa->Tsesarevich attacker",
            "gunnery Mikasa->Tsesarevich defender"
        ]
    );
    logged(&st, "Asahi cannot support at extreme range.");
    // +1 Japanese, −2 extreme, +1 broadside (R36): net 0; no close bonus, no support (R4).
    logged(
        &st,
        "Mikasa (1+4=5) fires on Tsesarevich (3+4=7) at 25\", extreme range: no hits. [capital-ship gunnery +1, extreme range -2, broadside +1]",
    );
    assert_eq!(l.len(), 3, "no critical rolls: {l:?}");
    assert_eq!(l[2], "command points russia");
}

#[test]
fn dt6_extreme_range_is_banned_by_limited_ammunition_or_a_high_sea() {
    for extra in ["limited_ammunition = true", "high_sea_state = true"] {
        let st = long_range(extra);
        let (st, dice) = quiet_fire(&st, 9);
        assert_eq!(labels(&dice), ["command points russia"], "{extra}");
        logged(
            &st,
            "Mikasa holds fire: Tsesarevich is at extreme range (25\"), which this scenario forbids.",
        );
        assert!(!gunnery::extreme_allowed(&st));
    }
}

#[test]
fn secondary_battery_fires_at_a_destroyer_besides_the_main_guns() {
    let japan = [
        ship("Mikasa", "BB", 10.0, 10.0, 0.0, ""),
        ship("Asahi", "BB", 10.0, 4.0, 0.0, ""),
    ]
    .concat();
    let russia = [
        ship("Tsesarevich", "BB", 22.0, 10.0, 0.0, ""),
        ship("Retvizan", "BB", 22.0, 16.0, 0.0, ""),
        ship("Burny", "DD", 10.0, 15.0, 90.0, ""),
    ]
    .concat();
    let st = begin(&sc(japan, russia), 2);
    rejected(
        &st,
        "japan",
        "FIRE Mikasa SECONDARY AT Tsesarevich",
        1,
        "secondary batteries fire only at destroyers",
    );
    rejected(
        &st,
        "japan",
        "FIRE Mikasa AT Tsesarevich\nFIRE Mikasa AT Burny",
        2,
        "Mikasa already fires or supports this phase",
    );
    let (st, _) = send(
        &st,
        "japan",
        "HALT Mikasa\nHALT Asahi\nFIRE Mikasa AT Tsesarevich\nFIRE Mikasa SECONDARY AT Burny\n",
        5,
    );
    let (st, dice) = quiet_fire(&st, 10);
    let l = labels(&dice);
    let attacks: Vec<&String> = l.iter().filter(|x| x.starts_with("gunnery")).collect();
    assert_eq!(
        attacks,
        [
            "gunnery Mikasa->Tsesarevich attacker",
            "gunnery Mikasa->Tsesarevich defender",
            "gunnery Mikasa->Burny attacker",
            "gunnery Mikasa->Burny defender"
        ]
    );
    // Main guns: 12" to Tsesarevich, broadside. Secondary battery (R6, R37): CF 2, +1 Japanese,
    // +1 close; no broadside for secondaries (R36); Burny defends with her own CF 1.
    logged(
        &st,
        "Mikasa (5+4+2=11) fires on Tsesarevich (6+4=10) at 12\": 1 hit. [capital-ship gunnery +1, broadside +1]",
    );
    logged(
        &st,
        "Tsesarevich takes 1 hit marker; critical roll 2-2 critical (Movement: speed now 3\").",
    );
    logged(
        &st,
        "Mikasa's secondary battery (1+2+2=5) fires on Burny (6+1=7) at 4.2\": no hits. [capital-ship gunnery +1, close range +1]",
    );
    assert_eq!(
        stats::max_speed(&st, find(&st, "Tsesarevich")),
        3.0,
        "Movement critical: 5 - 2"
    );
}

// ---------------------------------------------------------------- victory and the turn limit

/// DT-11's Russian fleet: 3 BB, 2 CA, 4 CL, 6 DD, far from the Japanese.
fn dt11_russia() -> String {
    let mut s = String::new();
    let fleet = [
        ("Tsesarevich", "BB"),
        ("Retvizan", "BB"),
        ("Pobeda", "BB"),
        ("Bayan", "CA"),
        ("Gromoboi", "CA"),
        ("Askold", "CL"),
        ("Novik", "CL"),
        ("Diana", "CL"),
        ("Pallada", "CL"),
        ("Burny", "DD"),
        ("Boiki", "DD"),
        ("Grozovoi", "DD"),
        ("Vlastny", "DD"),
        ("Bezshumny", "DD"),
        ("Bditelny", "DD"),
    ];
    for (i, (n, c)) in fleet.iter().enumerate() {
        s.push_str(&ship(n, c, 40.0 + 2.0 * i as f64, 40.0, 270.0, ""));
    }
    s
}

fn dt11(lose: &[(&str, bool)], japan_lost: bool) -> NavalState {
    let japan = [
        ship("Mikasa", "BB", 10.0, 10.0, 90.0, ""),
        ship("Asahi", "BB", 10.0, 14.0, 90.0, ""),
    ]
    .concat();
    let mut st = begin(&sc(japan, dt11_russia()), 0);
    for (n, sunk) in lose {
        let s = find_mut(&mut st, n);
        if *sunk {
            s.fate = Fate::Sunk;
        } else {
            s.criticals.push(Critical::Movement);
        }
    }
    if japan_lost {
        for n in ["Mikasa", "Asahi"] {
            find_mut(&mut st, n).criticals.push(Critical::Gunnery);
        }
    }
    let (st, _) = send(&st, "japan", "", 5);
    // Victory is tested at the end of the player turn, not after the manoeuvre.
    assert_eq!(st.phase, Phase::Fire);
    quiet_fire(&st, 6).0
}

#[test]
fn r9_dt11_victory_is_tested_at_the_end_of_the_player_turn() {
    // One BB sunk: 1 of 5 BB+CA, below a quarter and below the minimum of 2.
    let st = dt11(&[("Pobeda", true)], false);
    assert_eq!(
        (st.phase.clone(), st.active.as_str()),
        (Phase::Manoeuvre, "russia")
    );
    assert!(st.outcome.is_none());
    // Two BBs crippled: 2 of 5 BB+CA.
    let st = dt11(&[("Retvizan", false), ("Pobeda", false)], false);
    assert_eq!(st.phase, Phase::GameOver);
    let o = NavalRjw::outcome(&st).unwrap();
    assert_eq!(o.winners, ["japan"]);
    assert_eq!(o.summary, "Russia is defeated: Japan wins.");
    logged(&st, "The battle ends. Russia is defeated: Japan wins.");
    assert!(NavalRjw::step(&st).prompts.is_empty());
    assert!(
        NavalRjw::parse(&st, "japan", "HALT Mikasa").unwrap_err()[0]
            .reason
            .contains("the game is over")
    );
    // Whole fleet: 3 small ships lost of 15 is not enough, 4 is (4 x 4 >= 15).
    let st = dt11(
        &[("Askold", true), ("Novik", false), ("Burny", true)],
        false,
    );
    assert!(st.outcome.is_none());
    let st = dt11(
        &[
            ("Askold", true),
            ("Novik", false),
            ("Burny", true),
            ("Boiki", true),
        ],
        false,
    );
    assert_eq!(NavalRjw::outcome(&st).unwrap().winners, ["japan"]);
    // Both fleets defeated at once: a draw.
    let st = dt11(&[("Retvizan", false), ("Pobeda", false)], true);
    let o = NavalRjw::outcome(&st).unwrap();
    assert!(o.winners.is_empty());
    assert_eq!(
        o.summary,
        "Both fleets are defeated at once: the battle is a draw."
    );
}

#[test]
fn r33_turn_limit_counts_weighted_losses() {
    let japan = [
        ship("Mikasa", "BB", 10.0, 10.0, 90.0, ""),
        ship("Asahi", "BB", 10.0, 14.0, 90.0, ""),
        ship("Yakumo", "CA", 10.0, 18.0, 90.0, ""),
        ship("Chitose", "CL", 10.0, 22.0, 90.0, ""),
        ship("Kasagi", "CL", 10.0, 26.0, 90.0, ""),
    ]
    .concat();
    let run = |russian_losses: &[&str]| {
        let mut scenario = sc(japan.clone(), dt11_russia());
        scenario.max_turns = 1;
        let mut st = begin(&scenario, 0);
        // Japan: one CA crippled (counts 2); not a defeat (1 of 3 BB+CA, 1 of 5, minimum 2).
        find_mut(&mut st, "Yakumo")
            .criticals
            .push(Critical::Control);
        for n in russian_losses {
            find_mut(&mut st, n).criticals.push(Critical::Gunnery);
        }
        let (st, _) = send(&st, "japan", "", 5);
        let (st, dice) = quiet_fire(&st, 6);
        assert!(
            !labels(&dice)
                .iter()
                .any(|l| l.starts_with("command points")),
            "no CP roll after the last turn"
        );
        assert_eq!(st.phase, Phase::GameOver);
        NavalRjw::outcome(&st).unwrap()
    };
    let o = run(&["Askold"]);
    assert_eq!(o.winners, ["russia"]);
    assert_eq!(
        o.summary,
        "The turn limit is reached. Losses (BB and CA count 2): Japan 2, Russia 1. Russia wins."
    );
    let o = run(&["Askold", "Novik"]);
    assert!(o.winners.is_empty());
    assert_eq!(
        o.summary,
        "The turn limit is reached. Losses (BB and CA count 2): Japan 2, Russia 2. The battle is a draw."
    );
    let o = run(&["Bayan"]);
    assert!(o.winners.is_empty(), "a CA counts 2 on either side");
}

/// R59: a flagship that escapes off the table under General Withdrawal is not lost: the flag
/// passes to the second-in-command without the permanent −1 CP.
#[test]
fn r59_an_escaping_flagship_hands_over_the_flag_without_the_cp_penalty() {
    let japan = [
        ship("Mikasa", "BB", 10.0, 10.0, 90.0, ""),
        ship("Asahi", "BB", 10.0, 14.0, 90.0, ""),
        ship("Fuji", "BB", 2.0, 30.0, 270.0, ""),
    ]
    .concat();
    let mut st = begin(&sc(japan, russians_far()), 4);
    st.fleets[0].flagship = Some("Fuji".into());
    st.fleets[0].second = Some("Mikasa".into());
    let (st, _) = send(&st, "japan", "WITHDRAW\n", 5);
    assert_eq!(find(&st, "Fuji").fate, Fate::Escaped);
    logged(&st, "The flag passes from Fuji to Mikasa.");
    assert_eq!(st.fleets[0].flagship.as_deref(), Some("Mikasa"));
    assert!(!st.fleets[0].flagship_lost, "no CP penalty for an escape");
}
