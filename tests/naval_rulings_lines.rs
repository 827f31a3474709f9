//! The Naval rulings on battle lines and flotillas (R50, R51, R52, R57, R58), one test per
//! ruling (`fn r<N>_…`, counted by the conformance kit's ruling table), in the players' order
//! syntax through the public `Ruleset` API.

use despatch::engine::Ruleset;
use despatch::rulesets::naval_rjw::NavalRjw;
use despatch::rulesets::naval_rjw::state::{Fate, NavalState};

use crate::naval;
use crate::naval_game;
use naval::*;
use naval_game::*;

/// Mikasa leads Asahi and Fuji east in line astern, 2" apart, plus `more` Japanese ships.
fn division(more: &[String], cp: i32) -> NavalState {
    let japan = [
        ship("Mikasa", "BB", 20.0, 10.0, 90.0, ""),
        ship("Asahi", "BB", 18.0, 10.0, 90.0, ""),
        ship("Fuji", "BB", 16.0, 10.0, 90.0, ""),
    ]
    .concat()
        + &more.concat()
        + "[[sides.lines]]\nname = \"1st Division\"\nships = [\"Mikasa\", \"Asahi\", \"Fuji\"]\n";
    begin(&sc(japan, russians_far()), cp)
}

fn lines(st: &NavalState) -> Vec<Vec<String>> {
    st.groups.iter().map(|g| g.ships.clone()).collect()
}

/// The index of the first log line starting with `start`.
fn line_at(st: &NavalState, start: &str) -> usize {
    st.log
        .iter()
        .position(|l| l.text.starts_with(start))
        .unwrap_or_else(|| panic!("no line {start:?} in:\n{}", log_text(st)))
}

/// R50: "A follower drops out of her line if she … has a hit marker when the lead makes a paid
/// manoeuvre. The ships behind her form a new line with her at its head."
#[test]
fn r50_a_hit_marked_follower_drops_out_of_a_paid_manoeuvre_and_leads_those_astern() {
    let mut st = division(&[], 1);
    find_mut(&mut st, "Asahi").hit_markers = 1;
    // A plain cruise is no paid manoeuvre: the marked follower keeps her place.
    let (cruised, _) = send(&st, "japan", "", 5);
    assert_eq!(lines(&cruised), [["Mikasa", "Asahi", "Fuji"]]);
    at(&cruised, "Asahi", 21.0, 10.0, 90.0);
    // The lead turns: Asahi cannot copy, and Fuji stays with her.
    let (st, _) = send(&st, "japan", "TURN Mikasa PORT 90", 5);
    logged(&st, "Asahi cannot follow the line and leaves it.");
    assert!(
        lines(&st).contains(&vec!["Asahi".to_string(), "Fuji".to_string()]),
        "{:?}",
        lines(&st)
    );
    assert!(!lines(&st).iter().any(|g| g.len() > 1 && g[0] == "Mikasa"));
    at(&st, "Mikasa", 20.0, 13.0, 0.0);
    // Asahi makes her own cruise straight ahead; Fuji follows her, not Mikasa.
    at(&st, "Asahi", 21.0, 10.0, 90.0);
    at(&st, "Fuji", 19.0, 10.0, 90.0);
}

/// R50: "A follower drops out of her line if she is dead in the water, on duty, …" — even when
/// the lead only cruises.
#[test]
fn r50_a_follower_dead_in_the_water_or_sent_on_duty_drops_out_of_her_line() {
    let mut st = division(&[], 0);
    find_mut(&mut st, "Asahi").hit_markers = 1;
    find_mut(&mut st, "Asahi").critical_marker = true;
    let (st, _) = send(&st, "japan", "", 5);
    logged(&st, "Asahi cannot follow the line and leaves it.");
    logged(&st, "Asahi is dead in the water.");
    at(&st, "Mikasa", 23.0, 10.0, 90.0);
    at(&st, "Asahi", 18.0, 10.0, 90.0);
    // Fuji, now leading what is left astern, keeps her full 3" and passes Asahi to starboard.
    let fuji = find(&st, "Fuji").hull;
    assert!(
        near(fuji.centre.x, 19.0) && fuji.centre.y < 10.0,
        "{fuji:?}"
    );
    logged(&st, "Fuji passes to starboard to avoid a collision.");

    // Asahi sent to rescue the survivors of a sunk cruiser leaves the line at once.
    let mut st = division(&[ship("Kasagi", "CL", 18.0, 14.0, 90.0, "")], 0);
    despatch::rulesets::naval_rjw::damage::sink(&mut st, "Kasagi", "her magazine explodes");
    let (st, _) = send(&st, "japan", "RESCUE Kasagi WITH Asahi", 5);
    logged(&st, "Asahi is sent to rescue the survivors of Kasagi.");
    assert_eq!(lines(&st), [["Mikasa", "Fuji"]]);
    at(&st, "Mikasa", 23.0, 10.0, 90.0);
}

/// R51: "Destroyers never form battle lines (p.5): a scenario with a mixed line is refused. In a
/// flotilla every DD turns by the same amount on her own centre and moves the same distance; a DD
/// that cannot keep up leaves the flotilla."
#[test]
fn r51_no_mixed_lines_and_a_flotilla_turns_and_moves_together() {
    let mixed = [
        ship("Mikasa", "BB", 20.0, 10.0, 90.0, ""),
        ship("Asahi", "BB", 10.0, 4.0, 90.0, ""),
        ship("Akatsuki", "DD", 18.0, 10.0, 90.0, ""),
    ]
    .concat()
        + "[[sides.lines]]\nname = \"Mixed\"\nships = [\"Mikasa\", \"Akatsuki\"]\n";
    let e = NavalRjw::setup(RULESET, &sc(mixed, russians_far()).text(), &seats())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("battle lines are capital ships, flotillas destroyers"),
        "{e}"
    );

    let japan = [
        ship("Mikasa", "BB", 10.0, 10.0, 90.0, ""),
        ship("Asahi", "BB", 10.0, 4.0, 90.0, ""),
        ship("Akatsuki", "DD", 20.0, 20.0, 90.0, ""),
        ship("Ikazuchi", "DD", 18.0, 20.0, 90.0, ""),
        // A foul bottom: 7" at most, one short of the flotilla's full speed.
        ship("Oboro", "DD", 16.0, 20.0, 90.0, "foul_bottom = true"),
    ]
    .concat()
        + "[[sides.flotillas]]\nname = \"1st Flotilla\"\nships = [\"Akatsuki\", \"Ikazuchi\", \"Oboro\"]\n";
    let st = begin(&sc(japan, russians_far()), 2);
    let (st, _) = send(&st, "japan", "TURN Akatsuki PORT 90\nMOVE Akatsuki", 5);
    assert_eq!(
        st.cp_left, 0,
        "the flotilla's order costs what the lead pays"
    );
    // Each turns 90° on her own centre and steams 8" north: side by side, not in her wake.
    at(&st, "Akatsuki", 20.0, 28.0, 0.0);
    at(&st, "Ikazuchi", 18.0, 28.0, 0.0);
    logged(&st, "Oboro cannot keep with the flotilla and leaves it.");
    at(&st, "Oboro", 19.0, 20.0, 90.0);
    assert_eq!(lines(&st), [["Akatsuki", "Ikazuchi"]]);
}

/// R52: "JOIN is allowed when the joiner's centre is within 2\" plus half her hull of the last
/// ship's stern (stand-in reach, R25)."
#[test]
fn r52_join_reaches_two_inches_plus_half_the_joiners_hull() {
    // Fuji's stern is at 15.2,10. Nisshin (CA, hull 1.5") may join with her centre 2.75" off.
    let far = division(&[ship("Nisshin", "CA", 12.4, 10.0, 90.0, "")], 1);
    rejected(
        &far,
        "japan",
        "JOIN Nisshin TO Mikasa",
        1,
        "Nisshin is 2.8\" from Fuji's stern; she must be within 2\"",
    );
    let st = division(&[ship("Nisshin", "CA", 12.5, 10.0, 90.0, "")], 1);
    assert_eq!(cost(&st, "JOIN Nisshin TO Mikasa"), 1);
    let (st, _) = send(&st, "japan", "JOIN Nisshin TO Mikasa", 5);
    logged(&st, "Nisshin joins the end of Mikasa's line.");
    assert_eq!(lines(&st), [["Mikasa", "Asahi", "Fuji", "Nisshin"]]);
}

/// R57: "A formation change (ABREAST, ASTERN) is the whole line's move that turn, the lead's
/// included: no compulsory move follows it."
#[test]
fn r57_a_formation_change_is_the_whole_lines_move() {
    let st = division(&[ship("Yakumo", "CA", 30.0, 30.0, 90.0, "")], 2);
    let (st, _) = send(&st, "japan", "ABREAST Mikasa", 5);
    logged(&st, "Mikasa's line forms line abreast.");
    // The lead stays where she was; the followers took station and moved no further.
    at(&st, "Mikasa", 20.0, 10.0, 90.0);
    at(&st, "Asahi", 20.0, 9.0, 90.0);
    at(&st, "Fuji", 20.0, 8.0, 90.0);
    for n in ["Mikasa", "Asahi", "Fuji"] {
        assert!(
            !st.log
                .iter()
                .any(|l| l.text.starts_with(&format!("{n} cruises"))),
            "{}",
            log_text(&st)
        );
    }
    // A ship outside the line makes her compulsory move as ever.
    at(&st, "Yakumo", 33.0, 30.0, 90.0);
}

/// R58: "Lines move before single ships, the most recently formed line first; collisions (R18)
/// are judged against ships where they stand at that moment. Struck hulls take no part in
/// collisions but block sight (R40)."
#[test]
fn r58_the_newest_line_moves_first_then_older_lines_then_single_ships() {
    let japan = [
        ship("Mikasa", "BB", 20.0, 10.0, 90.0, ""),
        ship("Asahi", "BB", 18.0, 10.0, 90.0, ""),
        ship("Fuji", "BB", 16.0, 10.0, 90.0, ""),
        ship("Yashima", "BB", 14.0, 10.0, 90.0, ""),
        // Lies north-south where Mikasa's cruise ends.
        ship("Kasuga", "CA", 24.0, 10.0, 0.0, ""),
        ship("Yakumo", "CA", 30.0, 30.0, 90.0, ""),
    ]
    .concat()
        + "[[sides.lines]]\nname = \"1st Division\"\nships = [\"Mikasa\", \"Asahi\", \"Fuji\", \"Yashima\"]\n";
    let russia = [
        ship("Tsesarevich", "BB", 60.0, 40.0, 270.0, ""),
        ship("Retvizan", "BB", 62.0, 40.0, 270.0, ""),
        // A struck hull exactly where Yakumo's cruise ends.
        ship("Novik", "CL", 33.0, 30.0, 0.0, ""),
    ]
    .concat();
    let mut st = begin(&sc(japan, russia), 0);
    find_mut(&mut st, "Novik").fate = Fate::Struck;
    let (st, _) = send(&st, "japan", "SPLIT Fuji", 5);
    logged(&st, "The line splits ahead of Fuji.");
    // Fuji's new line moves first: Fuji ends on Asahi, who has not moved yet (had she moved,
    // 0.4" would part them).
    logged(&st, "Fuji passes to starboard to avoid a collision.");
    // Then Mikasa's line, whose lead ends on Kasuga, a single ship that has not moved yet.
    logged(&st, "Mikasa passes to starboard to avoid a collision.");
    let order = [
        line_at(&st, "Fuji cruises 3\""),
        line_at(&st, "Mikasa cruises 3\""),
        line_at(&st, "Kasuga cruises 3\""),
    ];
    assert!(order[0] < order[1] && order[1] < order[2], "{order:?}");
    // Yakumo ends on the struck Novik and is not moved aside.
    at(&st, "Yakumo", 33.0, 30.0, 90.0);
    assert!(!log_text(&st).contains("Yakumo passes"));
}
