//! The Naval rulings on the sequence of play (R12, R17, R21, R23), one test per ruling
//! (`fn r<N>_…`, counted by the conformance kit's ruling table): hit markers through the turn,
//! the CP floor, the scouting roll and the two steps of a turn by email, through the public
//! `Ruleset` API. The dice each test needs are found by seed, and every result derived from them.

use despatch::dice::{Faces, roll_stream};
use despatch::engine::Ruleset;
use despatch::rulesets::naval_rjw::state::{NavalState, Phase, StandingFire};
use despatch::rulesets::naval_rjw::{NavalRjw, damage};

use crate::naval;
use crate::naval_game;
use naval::*;
use naval_game::*;

/// Four Japanese battleships in column at x 10, four Russian ones 12" abeam at x 22; Japan to
/// move with 9 CP. Tsesarevich (supported by two battleships) can reach Asahi, and Mikasa
/// (supported by Fuji and Shikishima) Tsesarevich.
fn squadrons() -> NavalState {
    let japan = [
        ship("Mikasa", "BB", 10.0, 10.0, 0.0, ""),
        ship("Asahi", "BB", 10.0, 4.0, 0.0, ""),
        ship("Fuji", "BB", 10.0, 16.0, 0.0, ""),
        ship("Shikishima", "BB", 10.0, 22.0, 0.0, ""),
    ]
    .concat();
    let russia = [
        ship("Tsesarevich", "BB", 22.0, 10.0, 0.0, ""),
        ship("Retvizan", "BB", 22.0, 4.0, 0.0, ""),
        ship("Pobeda", "BB", 22.0, 16.0, 0.0, ""),
    ]
    .concat();
    begin(&sc(japan, russia), 9)
}

const HALTS: &str = "HALT Mikasa\nHALT Asahi\nHALT Fuji\nHALT Shikishima\n";
const RUSSIAN_FIRE: &str = "FIRE Tsesarevich AT Asahi SUPPORT Retvizan Pobeda";

/// Does roll request `j` of `seed` (2d6, a critical roll) show a double?
fn double(seed: &[u8; 32], j: u64) -> bool {
    let d = d6(seed, j, 2);
    d[0] == d[1]
}

/// R12: "the active player's own markers come off free at the end of that player's turn (step
/// 7); markers the active player places in step 6 stay through the opponent's turn."
#[test]
fn r12_own_markers_come_off_at_step_seven_and_step_six_markers_stay_a_turn() {
    let (f, _) = send(&squadrons(), "japan", HALTS, 1);
    // Russia's attack (requests 0, 1): 2 and 6; Japan's (3, 4): 2 and 6; no critical doubles.
    let seed = seed_where(|s| {
        d6(s, 0, 1) == [2]
            && d6(s, 1, 1) == [6]
            && !double(s, 2)
            && d6(s, 3, 1) == [2]
            && d6(s, 4, 1) == [6]
            && !double(s, 5)
            && !double(s, 6)
    });
    let (st, _) = send_seeded(
        &f,
        &[
            ("russia", RUSSIAN_FIRE),
            (
                "japan",
                "FIRE Mikasa AT Tsesarevich SUPPORT Fuji Shikishima",
            ),
        ],
        seed,
    );
    // Step 5: 2 + CF 4 + broadside 1 + two BB supports 4 = 11 against 6 + 4: one hit on Asahi.
    // Step 6: 2 + 4 + Japanese 1 + broadside 1 + two BB supports 4 = 12 against 10: two hits.
    let (asahi_hits, tses_hits) = ((2 + 4 + 5) - (6 + 4), (2 + 4 + 6) - (6 + 4));
    logged(
        &st,
        &format!("Japan removes {asahi_hits} hit marker(s) from her own ships."),
    );
    assert_eq!(find(&st, "Asahi").hit_markers, 0);
    assert_eq!(find(&st, "Tsesarevich").hit_markers, tses_hits);
    // Through Russia's turn Tsesarevich keeps them: no manoeuvre, only her 3" move.
    assert_eq!(
        (st.active.as_str(), &st.phase),
        ("russia", &Phase::Manoeuvre)
    );
    rejected(
        &st,
        "russia",
        "TURN Tsesarevich PORT 45",
        1,
        &format!("Tsesarevich has {tses_hits} hit marker(s) and cannot manoeuvre"),
    );
    let (st, _) = send(&st, "russia", "", 5);
    at(&st, "Tsesarevich", 22.0, 13.0, 0.0);
    assert_eq!(find(&st, "Tsesarevich").hit_markers, tses_hits);
    // Russia's own step 7 takes them off.
    let (st, _) = quiet_fire(&st, 6);
    logged(
        &st,
        &format!("Russia removes {tses_hits} hit marker(s) from her own ships."),
    );
    assert_eq!(find(&st, "Tsesarevich").hit_markers, 0);
}

/// R17: "CP never go below 0." Poor leadership (-2) and a lost flagship (-1) on a 2 would be -1.
#[test]
fn r17_command_points_never_go_below_zero() {
    let japan = [
        ship("Mikasa", "BB", 10.0, 10.0, 90.0, ""),
        ship("Asahi", "BB", 10.0, 30.0, 90.0, ""),
    ]
    .concat();
    let mut scenario = sc(japan, russians_far());
    scenario.japan_side = "leadership = \"poor\"";
    let mut st = begin(&scenario, 0);
    damage::sink(&mut st, "Mikasa", "her magazine explodes");
    logged(&st, "The flag passes from Mikasa to Asahi.");
    let (st, _) = send(&st, "japan", "", 1);
    let (st, _) = quiet_fire(&st, 2);
    let (st, _) = send(&st, "russia", "", 3);
    // Nobody fires: Japan's CP roll is the step's only request, and it shows the lowest face.
    let seed = seed_where(|s| roll_stream(s, 0, &Faces::average_die(), 1) == [2]);
    let (st, dice) = send_seeded(&st, &[], seed);
    assert_eq!(labels(&dice), ["command points japan"]);
    assert_eq!(rolled(&dice, "command points japan"), [2]);
    assert_eq!((st.cp_rolled, st.cp_left), (0, 0));
    logged(
        &st,
        "Turn 3: Japan rolls 2 on the Average Die: 0 CP (poor leadership, flagship lost).",
    );
}

/// R21: "Scouting ties: both re-roll until the totals differ."
#[test]
fn r21_a_scouting_tie_is_rolled_again_until_the_totals_differ() {
    // Japan scouts with 2 points (a light cruiser), Russia with 0 (battleships only).
    let japan = [
        ship("Mikasa", "BB", 10.0, 10.0, 90.0, ""),
        ship("Asahi", "BB", 10.0, 4.0, 90.0, ""),
        ship("Chitose", "CL", 10.0, 20.0, 90.0, ""),
    ]
    .concat();
    // No `first`: the scouting roll decides who moves first.
    let text = sc(japan, russians_far())
        .text()
        .replace("first = \"japan\"\n", "");
    let st = NavalRjw::setup(RULESET, &text, &seats()).unwrap();
    assert_eq!(st.active, "");
    // The first round ties (Japan 2 + a = Russia 0 + b); the second does not.
    let seed = seed_where(|s| {
        d6(s, 0, 1)[0] + 2 == d6(s, 1, 1)[0] && d6(s, 2, 1)[0] + 2 != d6(s, 3, 1)[0]
    });
    let (st, dice) = send_seeded(&st, &[], seed);
    let t = dice.table();
    let scouting: Vec<(&str, u32)> = t
        .iter()
        .filter(|r| r.label.starts_with("scouting "))
        .map(|r| (r.label.as_str(), r.results[0]))
        .collect();
    assert_eq!(scouting.len(), 4, "{scouting:?}");
    let (j1, r1, j2, r2) = (scouting[0].1, scouting[1].1, scouting[2].1, scouting[3].1);
    assert_eq!(
        (scouting[0].0, scouting[1].0),
        ("scouting japan", "scouting russia")
    );
    logged(
        &st,
        &format!(
            "Scouting roll: Japan 2 + {j1} = {}; Russia 0 + {r1} = {r1}.",
            j1 + 2
        ),
    );
    logged(&st, "A tie: both re-roll.");
    logged(
        &st,
        &format!(
            "Scouting roll: Japan 2 + {j2} = {}; Russia 0 + {r2} = {r2}.",
            j2 + 2
        ),
    );
    // The lower total is out-scouted and moves first.
    let (first, name) = if j2 + 2 < r2 {
        ("japan", "Japan")
    } else {
        ("russia", "Russia")
    };
    logged(&st, &format!("{name} is out-scouted and moves first."));
    assert_eq!(st.active, first);
    assert_eq!(st.phase, Phase::Manoeuvre);
}

/// R23: "Then each player turn has two steps: (a) Manoeuvre …, which may also carry its fire
/// plan …; (b) Fire: the non-active seat's fire plan, plus the active seat's if not given yet;
/// sealed; resolved as the non-active side firing (step 5), then the active side (step 6). …
/// A ship that takes a hit marker in step 5 loses her declared attack in step 6. A seat with
/// standing fire orders is not asked in the Fire step."
#[test]
fn r23_the_fire_step_asks_the_right_seats_and_the_non_active_side_fires_first() {
    let st = squadrons();
    let seats_asked = |st: &NavalState| -> Vec<(String, bool)> {
        NavalRjw::step(st)
            .prompts
            .iter()
            .map(|p| (p.seat.clone(), p.required))
            .collect()
    };
    // Manoeuvre without a fire plan: both seats are asked, the non-active one first.
    let (f, _) = send(&st, "japan", HALTS, 1);
    assert_eq!(f.phase, Phase::Fire);
    assert!(NavalRjw::step(&f).sealed);
    assert_eq!(
        seats_asked(&f),
        [("russia".to_string(), true), ("japan".to_string(), true)]
    );
    // Standing fire orders sent with Russia's mail: Russia need not answer.
    let (fs, _) = send_all(
        &st,
        &[("japan", HALTS), ("russia", "STANDING FIRE NEAREST")],
        1,
    );
    assert_eq!(fs.fleets[1].standing_fire, Some(StandingFire::Nearest));
    assert_eq!(seats_asked(&fs)[0], ("russia".to_string(), false));
    // The fire plan given with the manoeuvre: only the non-active seat is asked.
    let plan = format!("{HALTS}FIRE Asahi AT Retvizan\nFIRE Mikasa AT Tsesarevich");
    let (fp, _) = send(&st, "japan", &plan, 1);
    assert_eq!(seats_asked(&fp), [("russia".to_string(), true)]);
    // Russia's step-5 attack puts a marker on Asahi (2 + 4 + 5 = 11 against 6 + 4, no critical
    // double): her declared step-6 attack is lost, Mikasa's goes ahead.
    let seed = seed_where(|s| d6(s, 0, 1) == [2] && d6(s, 1, 1) == [6] && !double(s, 2));
    let (st, dice) = send_seeded(&fp, &[("russia", RUSSIAN_FIRE)], seed);
    let first = st
        .log
        .iter()
        .position(|l| l.text == "Russia fires first (fire plan).");
    let second = st
        .log
        .iter()
        .position(|l| l.text == "Japan fires (fire plan given with the manoeuvre orders).");
    assert!(
        first.is_some() && first < second,
        "{first:?} {second:?}\n{}",
        log_text(&st)
    );
    logged(&st, "Asahi has a hit marker and cannot fire.");
    assert_eq!(
        gunnery_labels(&dice),
        [
            "gunnery Tsesarevich->Asahi attacker",
            "gunnery Tsesarevich->Asahi defender",
            "gunnery Mikasa->Tsesarevich attacker",
            "gunnery Mikasa->Tsesarevich defender",
        ]
    );
}
