//! The Naval rulings on moving ships (R3, R11, R14, R15, R18, R30, R47, R48, R63), one test per
//! ruling (`fn r<N>_…`, counted by the conformance kit's ruling table), in the players' order
//! syntax through the public `Ruleset` API. Lines and flotillas are in naval_rulings_lines.rs.

use despatch::board::tabletop::hull_range;
use despatch::rulesets::naval_rjw::state::{Critical, Fate, NavalState};

use crate::naval;
use crate::naval_game;
use naval::*;
use naval_game::*;

/// Mikasa (flagship) and Asahi steaming east, with `more` Japanese ships; Japan to move with
/// `cp` CP.
fn fleet(more: &[String], cp: i32) -> NavalState {
    let japan = [
        ship("Mikasa", "BB", 10.0, 10.0, 90.0, ""),
        ship("Asahi", "BB", 10.0, 4.0, 90.0, ""),
    ]
    .concat()
        + &more.concat();
    begin(&sc(japan, russians_far()), cp)
}

/// R3: "All distances are inches." A MOVE of 4 moves the centre exactly 4 table units, and the
/// log reports it in inches.
#[test]
fn r3_distances_are_inches() {
    let st = fleet(&[], 1);
    let (st, _) = send(&st, "japan", "MOVE Mikasa 4", 5);
    at(&st, "Mikasa", 14.0, 10.0, 90.0);
    logged(&st, "Mikasa moves 4\" at full speed to 14,10 heading 90.");
    // The compulsory move is 3" the same way.
    at(&st, "Asahi", 13.0, 4.0, 90.0);
}

/// R11: "Dead in the water lasts while a hit marker that came with a critical remains." A plain
/// hit marker still lets her make her 3" move.
#[test]
fn r11_dead_in_the_water_lasts_while_the_critical_marker_remains() {
    let mut st = fleet(
        &[
            ship("Yakumo", "CA", 20.0, 20.0, 90.0, ""),
            ship("Iwate", "CA", 30.0, 30.0, 90.0, ""),
        ],
        0,
    );
    let y = find_mut(&mut st, "Yakumo");
    y.hit_markers = 1;
    y.critical_marker = true;
    y.criticals.push(Critical::Gunnery);
    find_mut(&mut st, "Iwate").hit_markers = 1;
    let (st, _) = send(&st, "japan", "", 5);
    logged(&st, "Yakumo is dead in the water.");
    at(&st, "Yakumo", 20.0, 20.0, 90.0);
    at(&st, "Iwate", 33.0, 30.0, 90.0);
    // Step 7 takes Japan's markers off; in Japan's next turn Yakumo moves again, for all her
    // permanent Gunnery critical.
    let st = next_japan_turn(&st, 0);
    assert_eq!(find(&st, "Yakumo").hit_markers, 0);
    let (st, _) = send(&st, "japan", "", 5);
    at(&st, "Yakumo", 23.0, 20.0, 90.0);
    assert!(!log_text(&st).contains("Yakumo is dead in the water"));
}

/// R14: "A full-speed MOVE is \"up to\" maximum speed: give a distance, or none for the maximum."
#[test]
fn r14_a_full_speed_move_is_up_to_the_maximum() {
    let st = fleet(&[], 2);
    rejected(
        &st,
        "japan",
        "MOVE Mikasa 6",
        1,
        "Mikasa's maximum speed is 5\"",
    );
    let (st, _) = send(&st, "japan", "MOVE Mikasa 2.5\nMOVE Asahi", 5);
    at(&st, "Mikasa", 12.5, 10.0, 90.0);
    logged(
        &st,
        "Mikasa moves 2.5\" at full speed to 12.5,10 heading 90.",
    );
    at(&st, "Asahi", 15.0, 4.0, 90.0);
    logged(&st, "Asahi moves 5\" at full speed to 15,4 heading 90.");
}

/// R15: "A ship that turns (1 CP) but pays no MOVE still makes her compulsory cruise move (3\", or
/// the fleet's cruise)."
#[test]
fn r15_a_turn_without_a_move_still_makes_the_cruise() {
    let st = fleet(&[], 1);
    let (st, _) = send(&st, "japan", "TURN Mikasa PORT 90", 5);
    assert_eq!(st.cp_left, 0);
    at(&st, "Mikasa", 10.0, 13.0, 0.0);
    logged(
        &st,
        "Mikasa turns to port 90°, then cruises 3\" to 10,13 heading 0.",
    );
    // A fleet whose scenario sets a 2" cruise.
    let japan = [
        ship("Mikasa", "BB", 10.0, 10.0, 90.0, ""),
        ship("Asahi", "BB", 10.0, 4.0, 90.0, ""),
    ]
    .concat();
    let mut scenario = sc(japan, russians_far());
    scenario.japan_side = "cruise = 2";
    let st = begin(&scenario, 1);
    let (st, _) = send(&st, "japan", "TURN Mikasa PORT 90", 5);
    at(&st, "Mikasa", 10.0, 12.0, 0.0);
    at(&st, "Asahi", 12.0, 4.0, 90.0);
}

/// R18: "Collisions: if a ship's hull would end her move across or within 0.25\" of another afloat
/// hull, she is moved sideways to starboard (square to her heading) until 0.5\" clear. No
/// distance is lost."
#[test]
fn r18_a_collision_slides_the_ship_to_starboard_until_half_an_inch_clear() {
    // Tsesarevich lies north-south exactly where Mikasa's 3" cruise ends.
    let japan = [
        ship("Mikasa", "BB", 10.0, 10.0, 90.0, ""),
        ship("Asahi", "BB", 10.0, 4.0, 90.0, ""),
    ]
    .concat();
    let russia = [
        ship("Tsesarevich", "BB", 13.0, 10.0, 0.0, ""),
        ship("Retvizan", "BB", 60.0, 40.0, 270.0, ""),
    ]
    .concat();
    let st = begin(&sc(japan, russia), 0);
    let (st, _) = send(&st, "japan", "", 5);
    logged(&st, "Mikasa passes to starboard to avoid a collision.");
    let m = find(&st, "Mikasa").hull;
    // The full 3" east is kept; the slide is due south (starboard of a ship heading 90).
    assert!(near(m.centre.x, 13.0) && near(m.heading, 90.0), "{m:?}");
    assert!(m.centre.y < 10.0, "{m:?}");
    let gap = hull_range(&m, &find(&st, "Tsesarevich").hull);
    // Moved in small steps until clear: at least 0.5", and not one step (0.05") more.
    assert!((0.5 - 1e-9..0.55).contains(&gap), "{gap}");
    at(&st, "Asahi", 13.0, 4.0, 90.0);
    assert!(!log_text(&st).contains("Asahi passes"));
}

/// R30: "Obsolete ships: range -6 (minimum 6), extreme range -6 (minimum 6), speed -1."
/// (Coal, foul bottoms and criticals are the speed test in naval_orders_golden.rs.)
#[test]
fn r30_obsolete_ships_lose_six_inches_of_range_never_below_six_and_an_inch_of_speed() {
    let japan = [
        ship("Mikasa", "BB", 10.0, 10.0, 0.0, ""),
        ship("Asahi", "BB", 10.0, 4.0, 0.0, ""),
        ship("Chin Yen", "BB", 10.0, 30.0, 0.0, "obsolete = true"),
        ship("Oboro", "DD", 40.0, 10.0, 0.0, "obsolete = true"),
        ship("Akatsuki", "DD", 40.0, 20.0, 0.0, ""),
    ]
    .concat();
    let russia = [
        ship("Tsesarevich", "BB", 22.0, 10.0, 0.0, ""),
        ship("Retvizan", "BB", 22.0, 4.0, 0.0, ""),
        // 14" from Chin Yen: beyond her 12", within her 24".
        ship("Pobeda", "BB", 24.0, 30.0, 0.0, ""),
        // 7" from each destroyer: beyond a DD's 6"; within 9" but not an obsolete DD's 6".
        ship("Burny", "DD", 47.0, 10.0, 0.0, ""),
        ship("Boiki", "DD", 47.0, 20.0, 0.0, ""),
    ]
    .concat();
    let st = begin(&sc(japan, russia), 3);
    rejected(
        &st,
        "japan",
        "MOVE Chin Yen 5",
        1,
        "Chin Yen's maximum speed is 4\"",
    );
    let f = all_halted(&st);
    let (st, dice) = send(
        &f,
        "japan",
        "FIRE Chin Yen AT Pobeda\nFIRE Oboro AT Burny\nFIRE Akatsuki AT Boiki",
        5,
    );
    let fired = |who: &str, at: &str| {
        st.log.iter().any(|l| {
            l.text.starts_with(&format!("{who} ("))
                && l.text.contains(&format!(" at {at}: "))
                && l.text.contains("extreme range -2")
        })
    };
    assert!(
        fired("Chin Yen", "14\", extreme range"),
        "{}",
        log_text(&st)
    );
    assert!(fired("Akatsuki", "7\", extreme range"), "{}", log_text(&st));
    logged(&st, "Oboro holds fire: Burny is out of range (7\").");
    assert!(!gunnery_labels(&dice).iter().any(|l| l.contains("Oboro")));
}

/// R47: "Outside General Withdrawal a ship stops with her centre on the table edge; under
/// Withdrawal she escapes once her centre leaves it."
#[test]
fn r47_a_ship_stops_on_the_edge_unless_she_withdraws_off_it() {
    // The table is 72 x 48. Fuji's cruise would take her to x 74, Yakumo's to x -2.
    let st = fleet(
        &[
            ship("Fuji", "BB", 71.0, 20.0, 90.0, ""),
            ship("Yakumo", "CA", 1.0, 30.0, 270.0, ""),
        ],
        2,
    );
    let (after, _) = send(&st, "japan", "", 5);
    at(&after, "Fuji", 72.0, 20.0, 90.0);
    logged(&after, "Fuji stops at the table edge.");
    at(&after, "Yakumo", 0.0, 30.0, 270.0);
    logged(&after, "Yakumo stops at the table edge.");
    assert_eq!(find(&after, "Yakumo").fate, Fate::Afloat);
    // Under General Withdrawal (heading 270) Yakumo runs on at full speed and escapes.
    let (after, _) = send(&st, "japan", "WITHDRAW", 5);
    assert_eq!(find(&after, "Yakumo").fate, Fate::Escaped);
    logged(&after, "Yakumo leaves the table and escapes.");
}

/// R48: "The 18\" command radius is measured centre to centre, from where the ships stand when
/// the orders are written."
#[test]
fn r48_the_command_radius_runs_centre_to_centre_from_the_written_positions() {
    let st = fleet(
        &[
            // Centre 18.5" from Mikasa's, though her hull is only 16.9" from Mikasa's.
            ship("Fuji", "BB", 28.5, 10.0, 90.0, ""),
            // Centre 17.9" from Mikasa's.
            ship("Yakumo", "CA", 10.0, 27.9, 90.0, ""),
        ],
        3,
    );
    assert_eq!(cost(&st, "TURN Fuji PORT 45"), 2);
    assert_eq!(cost(&st, "TURN Yakumo PORT 45"), 1);
    // Mikasa's move toward Fuji earlier in the same email does not cheapen Fuji's turn.
    assert_eq!(cost(&st, "MOVE Mikasa\nTURN Fuji PORT 45"), 3);
    let (after, _) = send(&st, "japan", "MOVE Mikasa\nTURN Fuji PORT 45", 5);
    assert_eq!(after.cp_left, 0);
    at(&after, "Mikasa", 15.0, 10.0, 90.0);
    let mut short = st.clone();
    short.cp_left = 2;
    rejected(
        &short,
        "japan",
        "MOVE Mikasa\nTURN Fuji PORT 45",
        2,
        "CP run out here",
    );
}

/// R63: "Under General Withdrawal a ship with a plain hit marker cruises straight ahead and is
/// not steered (a hit marker forbids manoeuvre)."
#[test]
fn r63_a_hit_marked_ship_cruises_straight_under_general_withdrawal() {
    let mut st = fleet(&[ship("Yakumo", "CA", 20.0, 20.0, 0.0, "")], 2);
    find_mut(&mut st, "Yakumo").hit_markers = 1;
    let (st, _) = send(&st, "japan", "WITHDRAW", 5);
    logged(&st, "Japan orders a General Withdrawal.");
    // Unmarked, Mikasa is steered toward 270 (90° at most); Yakumo keeps her course north.
    at(&st, "Mikasa", 10.0, 7.0, 180.0);
    at(&st, "Yakumo", 20.0, 23.0, 0.0);
    logged(&st, "Yakumo cruises 3\" to 20,23 heading 0.");
}
