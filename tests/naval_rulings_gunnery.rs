//! The Naval gunnery rulings (R4–R6, R20, R29, R36–R38), one test per ruling (`fn r<N>_…`,
//! counted by the conformance kit's ruling table): supports, combat factors, the capital-ship
//! bonus, broadsides and secondary batteries, played in the players' order syntax through the
//! public `Ruleset` API. Every total is derived from the dice the attack rolled.

use despatch::rulesets::naval_rjw::state::{Critical, NavalState};

use crate::naval;
use crate::naval_game;
use naval::*;
use naval_game::*;

const CAPITAL: (&str, i32) = ("capital-ship gunnery", 1);
const BROADSIDE: (&str, i32) = ("broadside", 1);
const CLOSE: (&str, i32) = ("close range", 1);

/// Mikasa (BB) at 10,10 and Asahi (BB) at 10,4, bows north; Tsesarevich and Retvizan 12" abeam
/// of them at 22,10 and 22,4 (normal range, broadside, neither close nor extreme); plus `japan`
/// and `russia`. Japan has halted every ship: the fire step is next, the geometry as written.
fn abeam(japan: &[String], russia: &[String]) -> NavalState {
    abeam_in(sc(base_japan(japan), base_russia(russia)))
}

fn abeam_in(scenario: Sc) -> NavalState {
    all_halted(&begin(&scenario, 0))
}

fn base_japan(more: &[String]) -> String {
    [
        ship("Mikasa", "BB", 10.0, 10.0, 0.0, ""),
        ship("Asahi", "BB", 10.0, 4.0, 0.0, ""),
    ]
    .concat()
        + &more.concat()
}

fn base_russia(more: &[String]) -> String {
    [
        ship("Tsesarevich", "BB", 22.0, 10.0, 0.0, ""),
        ship("Retvizan", "BB", 22.0, 4.0, 0.0, ""),
    ]
    .concat()
        + &more.concat()
}

/// R4: "Supports: at most 2 supporting vessels per attack. Each gives +1; each supporting BB gives
/// a further +1 (two BB supporters give +4). Neither applies at extreme range."
#[test]
fn r4_at_most_two_supporters_a_bb_gives_two_and_none_count_at_extreme_range() {
    let f = abeam(
        &[
            ship("Fuji", "BB", 10.0, 16.0, 0.0, ""),
            ship("Yakumo", "CA", 14.0, 2.0, 0.0, ""),
        ],
        // 27.4" off Mikasa: beyond her 18", within her 30".
        &[ship("Pobeda", "BB", 37.0, 16.0, 0.0, "")],
    );
    rejected(
        &f,
        "japan",
        "FIRE Mikasa AT Tsesarevich SUPPORT Asahi Fuji Yakumo",
        1,
        "at most 2 ships may support an attack",
    );
    // Two battleships: +1 and +1 more each, +4 in all.
    let (st, dice) = send(
        &f,
        "japan",
        "FIRE Mikasa AT Tsesarevich SUPPORT Asahi Fuji",
        5,
    );
    let supports = [
        CAPITAL,
        BROADSIDE,
        ("support by Asahi", 1),
        ("BB support by Asahi", 1),
        ("support by Fuji", 1),
        ("BB support by Fuji", 1),
    ];
    logged(
        &st,
        &attack_line(
            &dice,
            "Mikasa",
            "Mikasa",
            "Tsesarevich",
            4,
            4,
            &supports,
            "12\"",
        ),
    );
    // An armoured cruiser gives the +1 only.
    let (st, dice) = send(&f, "japan", "FIRE Mikasa AT Tsesarevich SUPPORT Yakumo", 6);
    logged(
        &st,
        &attack_line(
            &dice,
            "Mikasa",
            "Mikasa",
            "Tsesarevich",
            4,
            4,
            &[CAPITAL, BROADSIDE, ("support by Yakumo", 1)],
            "12\"",
        ),
    );
    // At extreme range neither counts: both supporters are dropped.
    let (st, dice) = send(&f, "japan", "FIRE Mikasa AT Pobeda SUPPORT Asahi Fuji", 7);
    logged(&st, "Asahi cannot support at extreme range.");
    logged(&st, "Fuji cannot support at extreme range.");
    logged(
        &st,
        &attack_line(
            &dice,
            "Mikasa",
            "Mikasa",
            "Pobeda",
            4,
            4,
            &[CAPITAL, ("extreme range", -2), BROADSIDE],
            "27.4\", extreme range",
        ),
    );
}

/// R5: "A supporter must itself be able to make the attack: afloat, no hit marker, … LOS to the
/// target and the target within her (non-extreme) range. Supporting uses up her attack for the
/// phase. Secondary-battery attacks on destroyers may be supported only by other secondary
/// batteries or by DDs."
#[test]
fn r5_a_supporter_must_be_able_to_attack_and_supporting_uses_her_attack() {
    let f = abeam(
        &[
            // 12.9" from Tsesarevich: beyond a light cruiser's 12", inside her extreme 18".
            ship("Chitose", "CL", 10.0, 16.0, 0.0, ""),
            ship("Akatsuki", "DD", 2.0, 4.0, 0.0, ""),
        ],
        &[
            // Across Asahi's bow-to-bow sight of Tsesarevich.
            ship("Novik", "CL", 16.0, 7.8, 0.0, ""),
            // 5" off Mikasa's port beam, 5.8" from Akatsuki.
            ship("Burny", "DD", 5.0, 10.0, 0.0, ""),
        ],
    );
    let (st, dice) = send(
        &f,
        "japan",
        "FIRE Mikasa AT Tsesarevich SUPPORT Asahi Chitose",
        5,
    );
    logged(
        &st,
        "Asahi cannot support: Asahi has no line of sight to Tsesarevich.",
    );
    logged(
        &st,
        "Chitose cannot support: Tsesarevich is out of range (12.9\").",
    );
    logged(
        &st,
        &attack_line(
            &dice,
            "Mikasa",
            "Mikasa",
            "Tsesarevich",
            4,
            4,
            &[CAPITAL, BROADSIDE],
            "12\"",
        ),
    );
    // Supporting uses up the supporter's attack, whichever line comes first.
    rejected(
        &f,
        "japan",
        "FIRE Mikasa AT Tsesarevich SUPPORT Asahi\nFIRE Asahi AT Retvizan",
        2,
        "Asahi already fires or supports this phase",
    );
    rejected(
        &f,
        "japan",
        "FIRE Asahi AT Retvizan\nFIRE Mikasa AT Tsesarevich SUPPORT Asahi",
        2,
        "Asahi already fires or supports this phase",
    );
    // A ship with a hit marker cannot support.
    let mut marked = f.clone();
    find_mut(&mut marked, "Asahi").hit_markers = 1;
    rejected(
        &marked,
        "japan",
        "FIRE Mikasa AT Tsesarevich SUPPORT Asahi",
        1,
        "Asahi has a hit marker and can neither fire nor support",
    );
    // A secondary battery at a destroyer: a light cruiser may not support it; a battleship's
    // secondary battery and a destroyer may, and the battleship's main guns stay free.
    rejected(
        &f,
        "japan",
        "FIRE Mikasa SECONDARY AT Burny SUPPORT Chitose",
        1,
        "only secondary batteries and destroyers support a secondary battery",
    );
    let (st, dice) = send(
        &f,
        "japan",
        "FIRE Mikasa SECONDARY AT Burny SUPPORT Asahi Akatsuki\nFIRE Asahi AT Retvizan",
        8,
    );
    logged(
        &st,
        &attack_line(
            &dice,
            "Mikasa's secondary battery",
            "Mikasa",
            "Burny",
            2,
            1,
            &[
                CAPITAL,
                CLOSE,
                ("support by Asahi", 1),
                ("BB support by Asahi", 1),
                ("support by Akatsuki", 1),
            ],
            "5\"",
        ),
    );
    logged(
        &st,
        &attack_line(
            &dice,
            "Asahi",
            "Asahi",
            "Retvizan",
            4,
            4,
            &[CAPITAL, BROADSIDE],
            "12\"",
        ),
    );
}

/// R6: "Defending CF is the target's current main CF (after Gunnery criticals); a DD defends with
/// her own CF. A secondary battery attacks with CF 2 less the ship's Gunnery criticals."
#[test]
fn r6_defence_uses_the_current_main_cf_and_secondaries_lose_gunnery_criticals() {
    let mut f = abeam(&[], &[ship("Burny", "DD", 5.0, 10.0, 0.0, "")]);
    find_mut(&mut f, "Tsesarevich")
        .criticals
        .push(Critical::Gunnery);
    find_mut(&mut f, "Mikasa").criticals.push(Critical::Gunnery);
    let (st, dice) = send(
        &f,
        "japan",
        "FIRE Mikasa AT Tsesarevich\nFIRE Mikasa SECONDARY AT Burny",
        5,
    );
    // Mikasa's main CF 4 - 1 against Tsesarevich's 4 - 1.
    logged(
        &st,
        &attack_line(
            &dice,
            "Mikasa",
            "Mikasa",
            "Tsesarevich",
            3,
            3,
            &[CAPITAL, BROADSIDE],
            "12\"",
        ),
    );
    // Her secondary battery CF 2 - 1 against the destroyer's own CF 1.
    logged(
        &st,
        &attack_line(
            &dice,
            "Mikasa's secondary battery",
            "Mikasa",
            "Burny",
            1,
            1,
            &[CAPITAL, CLOSE],
            "5\"",
        ),
    );
}

/// R20: "Torpedoes: nothing beyond the DD's +2 against a stationary target (one that has not
/// moved this turn)."
#[test]
fn r20_a_destroyer_gets_only_the_plus_two_at_a_stationary_target() {
    let japan = base_japan(&[
        ship("Akatsuki", "DD", 18.0, 10.0, 0.0, ""),
        ship("Ikazuchi", "DD", 18.0, 7.0, 0.0, ""),
    ]);
    let mut scenario = sc(japan, base_russia(&[]));
    scenario.first = "russia";
    let st = begin(&scenario, 2);
    // Russia's turn: Tsesarevich is halted, Retvizan cruises 3" to 22,7.
    let (st, _) = send(&st, "russia", "HALT Tsesarevich", 5);
    at(&st, "Retvizan", 22.0, 7.0, 0.0);
    let (st, _) = quiet_fire(&st, 6);
    let f = all_halted(&st);
    let (st, dice) = send(
        &f,
        "japan",
        "FIRE Akatsuki AT Tsesarevich\nFIRE Ikazuchi AT Retvizan",
        7,
    );
    logged(
        &st,
        &attack_line(
            &dice,
            "Akatsuki",
            "Akatsuki",
            "Tsesarevich",
            1,
            4,
            &[CLOSE, ("stationary target", 2)],
            "4\"",
        ),
    );
    logged(
        &st,
        &attack_line(
            &dice,
            "Ikazuchi",
            "Ikazuchi",
            "Retvizan",
            1,
            4,
            &[CLOSE],
            "4\"",
        ),
    );
    // Nothing beyond: the only dice are the two gunnery dice per attack, a critical roll per hit
    // and the next turn's CP; no torpedo roll of any kind.
    for l in labels(&dice) {
        assert!(
            l.starts_with("gunnery ") || l.starts_with("critical ") || l.starts_with("command "),
            "{l}"
        );
    }
}

/// R29: "The capital-ship gunnery bonus by nationality is scenario data (Japan +1)."
#[test]
fn r29_the_capital_ship_bonus_is_the_scenarios_number() {
    let both = [
        ("russia", "FIRE Tsesarevich AT Mikasa"),
        ("japan", "FIRE Asahi AT Retvizan"),
    ];
    // The test scenario gives Japan 1 and Russia nothing.
    let (st, dice) = send_all(&abeam(&[], &[]), &both, 5);
    logged(
        &st,
        &attack_line(
            &dice,
            "Tsesarevich",
            "Tsesarevich",
            "Mikasa",
            4,
            4,
            &[BROADSIDE],
            "12\"",
        ),
    );
    logged(
        &st,
        &attack_line(
            &dice,
            "Asahi",
            "Asahi",
            "Retvizan",
            4,
            4,
            &[CAPITAL, BROADSIDE],
            "12\"",
        ),
    );
    // A scenario giving Russia +2 changes Russia's total, and only Russia's.
    let mut scenario = sc(base_japan(&[]), base_russia(&[]));
    scenario.russia_side = "capital_gunnery_bonus = 2";
    let (st, dice) = send_all(&abeam_in(scenario), &both, 5);
    logged(
        &st,
        &attack_line(
            &dice,
            "Tsesarevich",
            "Tsesarevich",
            "Mikasa",
            4,
            4,
            &[("capital-ship gunnery", 2), BROADSIDE],
            "12\"",
        ),
    );
    logged(
        &st,
        &attack_line(
            &dice,
            "Asahi",
            "Asahi",
            "Retvizan",
            4,
            4,
            &[CAPITAL, BROADSIDE],
            "12\"",
        ),
    );
}

/// R36: "Broadside applies to main batteries only, and still counts at extreme range; only
/// supports are lost there (R4)."
#[test]
fn r36_broadside_counts_at_extreme_range_and_never_for_a_secondary_battery() {
    let f = abeam(
        &[],
        &[
            ship("Pobeda", "BB", 37.0, 16.0, 0.0, ""),
            // Abeam of Mikasa to port, 5" off; Novik keeps her company (no striking colours).
            ship("Burny", "DD", 5.0, 10.0, 0.0, ""),
            ship("Novik", "CL", 3.0, 20.0, 0.0, ""),
        ],
    );
    let (st, dice) = send(
        &f,
        "japan",
        "FIRE Mikasa AT Pobeda\nFIRE Mikasa SECONDARY AT Burny",
        5,
    );
    logged(
        &st,
        &attack_line(
            &dice,
            "Mikasa",
            "Mikasa",
            "Pobeda",
            4,
            4,
            &[CAPITAL, ("extreme range", -2), BROADSIDE],
            "27.4\", extreme range",
        ),
    );
    logged(
        &st,
        &attack_line(
            &dice,
            "Mikasa's secondary battery",
            "Mikasa",
            "Burny",
            2,
            1,
            &[CAPITAL, CLOSE],
            "5\"",
        ),
    );
}

/// R37: "The fleet's capital-ship gunnery bonus (R29) also applies to CA and BB secondary
/// batteries."
#[test]
fn r37_the_capital_ship_bonus_applies_to_secondary_batteries() {
    let f = abeam(
        &[
            ship("Yakumo", "CA", 30.0, 30.0, 0.0, ""),
            ship("Akatsuki", "DD", 30.0, 10.0, 0.0, ""),
        ],
        &[ship("Burny", "DD", 38.0, 30.0, 0.0, "")],
    );
    let (st, dice) = send_all(
        &f,
        &[
            ("russia", "FIRE Tsesarevich SECONDARY AT Akatsuki"),
            ("japan", "FIRE Yakumo SECONDARY AT Burny"),
        ],
        5,
    );
    // Japan's CA secondary carries Japan's +1; Russia has no bonus to carry.
    logged(
        &st,
        &attack_line(
            &dice,
            "Yakumo's secondary battery",
            "Yakumo",
            "Burny",
            2,
            1,
            &[CAPITAL],
            "8\"",
        ),
    );
    logged(
        &st,
        &attack_line(
            &dice,
            "Tsesarevich's secondary battery",
            "Tsesarevich",
            "Akatsuki",
            2,
            1,
            &[],
            "8\"",
        ),
    );
}

/// R38: "The obsolete range penalty also cuts the secondary range (12\" to 6\")."
#[test]
fn r38_an_obsolete_ships_secondary_battery_reaches_six_inches() {
    let f = abeam(
        &[ship("Chin Yen", "BB", 30.0, 30.0, 0.0, "obsolete = true")],
        &[
            ship("Burny", "DD", 18.0, 10.0, 0.0, ""),
            ship("Boiki", "DD", 38.0, 30.0, 0.0, ""),
        ],
    );
    // Both destroyers are 8" off: inside 12", outside 6".
    let (st, dice) = send(
        &f,
        "japan",
        "FIRE Mikasa SECONDARY AT Burny\nFIRE Chin Yen SECONDARY AT Boiki",
        5,
    );
    logged(
        &st,
        &attack_line(
            &dice,
            "Mikasa's secondary battery",
            "Mikasa",
            "Burny",
            2,
            1,
            &[CAPITAL],
            "8\"",
        ),
    );
    logged(
        &st,
        "Chin Yen's secondary battery holds fire: Boiki is out of range (8\").",
    );
    assert!(
        !gunnery_labels(&dice).iter().any(|l| l.contains("Chin Yen")),
        "{:?}",
        labels(&dice)
    );
}
