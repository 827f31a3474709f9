//! The Naval rulings on sight, range and choosing targets (R22, R24, R31, R32, R40, R44, R45),
//! one test per ruling (`fn r<N>_…`, counted by the conformance kit's ruling table), played in the
//! players' order syntax through the public `Ruleset` API; every total comes from the dice rolled.

use despatch::rulesets::naval_rjw::damage;
use despatch::rulesets::naval_rjw::state::{Fate, NavalState};

use crate::naval;
use crate::naval_game;
use naval::*;
use naval_game::*;

const CAPITAL: (&str, i32) = ("capital-ship gunnery", 1);
const BROADSIDE: (&str, i32) = ("broadside", 1);

/// Japan's fleet (Mikasa and Asahi first) against Russia's (Tsesarevich and Retvizan first),
/// every Japanese ship halted: the fire step is next, the geometry as written.
fn table(japan: &[String], russia: &[String], lines: &str) -> NavalState {
    let j = japan.concat() + lines;
    all_halted(&begin(&sc(j, russia.concat()), 0))
}

fn mikasa_asahi() -> [String; 2] {
    [
        ship("Mikasa", "BB", 10.0, 10.0, 0.0, ""),
        ship("Asahi", "BB", 10.0, 4.0, 0.0, ""),
    ]
}

/// R22: "Any hull blocks LOS, own line-mates included, except: DDs do not block capital ships
/// unless laying smoke, and DDs see through DDs of their own flotilla. The firer's and target's
/// hulls never block their own LOS."
#[test]
fn r22_hulls_block_sight_except_destroyers_for_capital_ships_and_own_flotillas() {
    let [mikasa, asahi] = mikasa_asahi();
    let japan = [
        mikasa,
        asahi,
        // Fuji, Mikasa's line-mate, lies across Mikasa's bow-to-bow sight of Tsesarevich (y 10.8).
        ship("Fuji", "BB", 16.0, 10.8, 0.0, ""),
        // A destroyer across Asahi's sight of Retvizan (y 4.8).
        ship("Akatsuki", "DD", 16.0, 4.8, 0.0, ""),
        // Shirakumo sees Burny past Kasumi of her own flotilla; Murakumo's sight of Vlastny
        // crosses Usugumo, a destroyer of no flotilla of hers.
        ship("Shirakumo", "DD", 10.0, 30.0, 0.0, ""),
        ship("Kasumi", "DD", 12.5, 30.5, 0.0, ""),
        ship("Murakumo", "DD", 10.0, 40.0, 0.0, ""),
        ship("Usugumo", "DD", 12.5, 40.5, 0.0, ""),
    ];
    let russia = [
        ship("Tsesarevich", "BB", 22.0, 10.0, 0.0, ""),
        ship("Retvizan", "BB", 22.0, 4.0, 0.0, ""),
        ship("Burny", "DD", 15.0, 30.0, 0.0, ""),
        ship("Vlastny", "DD", 15.0, 40.0, 0.0, ""),
    ];
    let groups = "[[sides.lines]]\nname = \"1st Division\"\nships = [\"Mikasa\", \"Fuji\"]\n\
                  [[sides.flotillas]]\nname = \"1st Flotilla\"\nships = [\"Shirakumo\", \"Kasumi\"]\n";
    let f = table(&japan, &russia, groups);
    let (st, dice) = send(
        &f,
        "japan",
        "FIRE Mikasa AT Tsesarevich\nFIRE Asahi AT Retvizan\nFIRE Shirakumo AT Burny\nFIRE Murakumo AT Vlastny",
        5,
    );
    logged(
        &st,
        "Mikasa holds fire: Mikasa has no line of sight to Tsesarevich.",
    );
    logged(
        &st,
        "Murakumo holds fire: Murakumo has no line of sight to Vlastny.",
    );
    // Every sight line ends on the firer's and the target's own hulls: they cannot block it, or
    // nobody would ever see anything.
    assert_eq!(
        gunnery_labels(&dice),
        [
            "gunnery Asahi->Retvizan attacker",
            "gunnery Asahi->Retvizan defender",
            "gunnery Shirakumo->Burny attacker",
            "gunnery Shirakumo->Burny defender",
        ]
    );
    // The same destroyer laying smoke blocks Asahi's sight (R19 names the exception).
    let (st, dice) = send(&f, "japan", "SMOKE Akatsuki\nFIRE Asahi AT Retvizan", 5);
    logged(
        &st,
        "Asahi holds fire: Asahi has no line of sight to Retvizan.",
    );
    assert!(gunnery_labels(&dice).is_empty());
}

/// R24: "`FIRE a AT t1 ELSE t2 ...` engages the first target that is legal at the moment of
/// firing; none legal: no attack. Ships not named in a fire plan fire only under standing
/// orders …; without them they hold fire. Only one attack per target per phase: a later FIRE line
/// at a target already engaged falls through to its ELSE targets."
#[test]
fn r24_else_takes_the_first_legal_target_and_each_target_is_engaged_once() {
    let [mikasa, asahi] = mikasa_asahi();
    let japan = [
        mikasa,
        asahi,
        // Across Mikasa's sight of Tsesarevich only.
        ship("Fuji", "BB", 16.0, 10.8, 0.0, ""),
    ];
    let russia = [
        ship("Tsesarevich", "BB", 22.0, 10.0, 0.0, ""),
        ship("Retvizan", "BB", 22.0, 4.0, 0.0, ""),
    ];
    let f = table(&japan, &russia, "");
    let (st, dice) = send(
        &f,
        "japan",
        "FIRE Mikasa AT Tsesarevich ELSE Retvizan\nFIRE Asahi AT Retvizan ELSE Tsesarevich",
        5,
    );
    logged(
        &st,
        "Mikasa shifts fire to Retvizan (Mikasa has no line of sight to Tsesarevich).",
    );
    logged(
        &st,
        "Asahi shifts fire to Tsesarevich (Retvizan has already been fired on this phase).",
    );
    // Fuji was not named and Japan has no standing orders: she holds fire.
    assert_eq!(
        gunnery_labels(&dice),
        [
            "gunnery Mikasa->Retvizan attacker",
            "gunnery Mikasa->Retvizan defender",
            "gunnery Asahi->Tsesarevich attacker",
            "gunnery Asahi->Tsesarevich defender",
        ]
    );
    // No legal target at all: no attack.
    let (st, dice) = send(&f, "japan", "FIRE Mikasa AT Tsesarevich", 5);
    logged(
        &st,
        "Mikasa holds fire: Mikasa has no line of sight to Tsesarevich.",
    );
    assert!(gunnery_labels(&dice).is_empty());
}

/// R31: "Close range is under 6\", nearest point to nearest point. Extreme range is beyond the
/// range, up to the extreme range; it is not allowed if the scenario has limited ammunition or a
/// high sea."
#[test]
fn r31_close_range_is_under_six_inches_between_nearest_points() {
    let [mikasa, asahi] = mikasa_asahi();
    let russia = [
        // Broadside-on to Mikasa: centres 6.5" apart, nearest points 5.7".
        ship("Tsesarevich", "BB", 16.5, 10.0, 90.0, ""),
        // Parallel to Asahi, exactly 6" off: not under 6".
        ship("Retvizan", "BB", 16.0, 4.0, 0.0, ""),
        // 27.4" from Mikasa: extreme range.
        ship("Pobeda", "BB", 37.0, 16.0, 0.0, ""),
    ];
    let f = table(&[mikasa.clone(), asahi.clone()], &russia, "");
    let (st, dice) = send(
        &f,
        "japan",
        "FIRE Mikasa AT Tsesarevich\nFIRE Asahi AT Retvizan",
        5,
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
            &[CAPITAL, ("close range", 1), BROADSIDE],
            "5.7\"",
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
            "6\"",
        ),
    );
    let (st, _) = send(&f, "japan", "FIRE Mikasa AT Pobeda", 5);
    assert!(
        st.log.iter().any(|l| l.text.starts_with("Mikasa (")
            && l.text.contains("fires on Pobeda")
            && l.text.contains(" at 27.4\", extreme range: ")
            && l.text.contains("extreme range -2")),
        "{}",
        log_text(&st)
    );
    for extra in ["limited_ammunition = true", "high_sea_state = true"] {
        let mut scenario = sc([mikasa.clone(), asahi.clone()].concat(), russia.concat());
        scenario.extra = extra;
        let f = all_halted(&begin(&scenario, 0));
        let (st, dice) = send(&f, "japan", "FIRE Mikasa AT Pobeda", 5);
        logged(
            &st,
            "Mikasa holds fire: Pobeda is at extreme range (27.4\"), which this scenario forbids.",
        );
        assert!(gunnery_labels(&dice).is_empty(), "{extra}");
    }
}

/// R32: "Broadside: the target's nearest point lies within 45 degrees of the perpendicular from
/// the firer's midship (either side), and LOS is clear both bow to bow and stern to stern.
/// Capital ships only."
#[test]
fn r32_broadside_needs_the_beam_arc_and_both_sight_lines_and_a_capital_ship() {
    let japan = [
        ship("Mikasa", "BB", 10.0, 10.0, 0.0, ""),
        ship("Asahi", "BB", 30.0, 10.0, 0.0, ""),
        ship("Chitose", "CL", 50.0, 10.0, 0.0, ""),
        ship("Akatsuki", "DD", 40.0, 30.0, 0.0, ""),
        ship("Fuji", "BB", 10.0, 40.0, 0.0, ""),
        // Across Fuji's stern-to-stern line (y 39.2) to Pobeda, clear of the bow-to-bow one.
        ship("Kasagi", "CL", 13.0, 39.0, 0.0, ""),
    ];
    let russia = [
        // Abeam of Mikasa, 12" off.
        ship("Tsesarevich", "BB", 22.0, 10.0, 0.0, ""),
        // Dead ahead of Asahi, 9.2" off.
        ship("Retvizan", "BB", 30.0, 20.0, 90.0, ""),
        // Abeam of the light cruiser Chitose, 12" off.
        ship("Novik", "CL", 62.0, 10.0, 0.0, ""),
        // Abeam of the destroyer Akatsuki, 4" off.
        ship("Burny", "DD", 44.0, 30.0, 0.0, ""),
        // Abeam of Fuji, 6" off.
        ship("Pobeda", "BB", 16.0, 40.0, 0.0, ""),
    ];
    let f = table(&japan, &russia, "");
    let (st, dice) = send(
        &f,
        "japan",
        "FIRE Mikasa AT Tsesarevich\nFIRE Asahi AT Retvizan\nFIRE Chitose AT Novik\n\
         FIRE Akatsuki AT Burny\nFIRE Fuji AT Pobeda",
        5,
    );
    let line = |who: &str, target: &str, cf: (i32, i32), mods: &[(&str, i32)], at: &str| {
        attack_line(&dice, who, who, target, cf.0, cf.1, mods, at)
    };
    logged(
        &st,
        &line(
            "Mikasa",
            "Tsesarevich",
            (4, 4),
            &[CAPITAL, BROADSIDE],
            "12\"",
        ),
    );
    logged(&st, &line("Asahi", "Retvizan", (4, 4), &[CAPITAL], "9.2\""));
    // A light cruiser is a capital ship (p.2): she fires broadsides.
    logged(
        &st,
        &line("Chitose", "Novik", (2, 2), &[CAPITAL, BROADSIDE], "12\""),
    );
    // A destroyer never does (Burny has not moved: the destroyer's +2, R56).
    logged(
        &st,
        &line(
            "Akatsuki",
            "Burny",
            (1, 1),
            &[("close range", 1), ("stationary target", 2)],
            "4\"",
        ),
    );
    logged(&st, &line("Fuji", "Pobeda", (4, 4), &[CAPITAL], "6\""));
}

/// R40: "Struck hulls still block line of sight; sunk and escaped ships do not."
#[test]
fn r40_struck_hulls_block_sight_but_sunk_and_escaped_ships_do_not() {
    let [mikasa, asahi] = mikasa_asahi();
    let japan = [mikasa, asahi, ship("Fuji", "BB", 10.0, 30.0, 0.0, "")];
    let russia = [
        ship("Tsesarevich", "BB", 22.0, 10.0, 0.0, ""),
        ship("Retvizan", "BB", 22.0, 4.0, 0.0, ""),
        ship("Pobeda", "BB", 22.0, 30.0, 0.0, ""),
        // Each across one Japanese battleship's bow-to-bow sight line.
        ship("Novik", "CL", 16.0, 10.8, 0.0, ""),
        ship("Bayan", "CA", 16.0, 4.8, 0.0, ""),
        ship("Askold", "CL", 16.0, 30.8, 0.0, ""),
    ];
    let mut f = table(&japan, &russia, "");
    find_mut(&mut f, "Novik").fate = Fate::Struck;
    damage::sink(&mut f, "Bayan", "her magazine explodes");
    find_mut(&mut f, "Askold").fate = Fate::Escaped;
    let (st, dice) = send(
        &f,
        "japan",
        "FIRE Mikasa AT Tsesarevich\nFIRE Asahi AT Retvizan\nFIRE Fuji AT Pobeda",
        5,
    );
    logged(
        &st,
        "Mikasa holds fire: Mikasa has no line of sight to Tsesarevich.",
    );
    assert_eq!(
        gunnery_labels(&dice),
        [
            "gunnery Asahi->Retvizan attacker",
            "gunnery Asahi->Retvizan defender",
            "gunnery Fuji->Pobeda attacker",
            "gunnery Fuji->Pobeda defender",
        ]
    );
}

/// R45: "Orders naming a target already sunk or struck are refused when the orders arrive; hit
/// markers, line of sight and range are judged only at the moment of firing."
#[test]
fn r45_sunk_or_struck_targets_are_refused_and_range_is_judged_when_firing() {
    let [mikasa, asahi] = mikasa_asahi();
    let russia = [
        ship("Tsesarevich", "BB", 22.0, 10.0, 0.0, ""),
        ship("Retvizan", "BB", 22.0, 4.0, 0.0, ""),
        // 35" from Mikasa as the orders are written: beyond even her extreme range of 30".
        ship("Pobeda", "BB", 44.0, 20.0, 0.0, ""),
        ship("Novik", "CL", 40.0, 40.0, 0.0, ""),
        ship("Bayan", "CA", 50.0, 40.0, 0.0, ""),
    ];
    let mut st = begin(&sc([mikasa, asahi].concat(), russia.concat()), 4);
    damage::sink(&mut st, "Novik", "her magazine explodes");
    find_mut(&mut st, "Bayan").fate = Fate::Struck;
    for t in ["Novik", "Bayan"] {
        rejected(
            &st,
            "japan",
            &format!("FIRE Mikasa AT {t}"),
            1,
            &format!("{t} is no longer a target (sunk, struck or gone)"),
        );
    }
    // Out of range when written, accepted; Mikasa then steams 5" east and fires at 29.7".
    let (st, _) = send(
        &st,
        "japan",
        "TURN Mikasa STARBOARD 90\nMOVE Mikasa\nHALT Asahi\nFIRE Mikasa AT Pobeda",
        5,
    );
    at(&st, "Mikasa", 15.0, 10.0, 90.0);
    let (st, dice) = quiet_fire(&st, 6);
    assert!(
        st.log.iter().any(|l| l.text.starts_with("Mikasa (")
            && l.text.contains("fires on Pobeda")
            && l.text.contains(" at 29.7\", extreme range: ")),
        "{}",
        log_text(&st)
    );
    assert_eq!(
        gunnery_labels(&dice),
        [
            "gunnery Mikasa->Pobeda attacker",
            "gunnery Mikasa->Pobeda defender"
        ]
    );
}

/// R44: "Standing fire orders: CA and BB main batteries aim at capital ships first (nearest
/// first), then at destroyers; secondaries take the destroyers. Every other legal target is an
/// ELSE."
#[test]
fn r44_standing_fire_puts_capital_targets_first_and_destroyers_to_the_secondaries() {
    // Burny is the nearest enemy to Mikasa (4"), yet her main guns take Tsesarevich (12", the
    // nearest capital ship); Asahi's nearest capital ship is Retvizan.
    let [mikasa, asahi] = mikasa_asahi();
    let russia = [
        ship("Tsesarevich", "BB", 22.0, 10.0, 0.0, ""),
        ship("Retvizan", "BB", 22.0, 4.0, 0.0, ""),
        ship("Burny", "DD", 14.0, 10.0, 0.0, ""),
    ];
    let f = table(&[mikasa.clone(), asahi.clone()], &russia, "");
    let (st, dice) = send(&f, "japan", "STANDING FIRE NEAREST", 5);
    logged(&st, "Japan fires (standing fire orders).");
    assert_eq!(
        gunnery_labels(&dice),
        [
            "gunnery Mikasa->Tsesarevich attacker",
            "gunnery Mikasa->Tsesarevich defender",
            "gunnery Asahi->Retvizan attacker",
            "gunnery Asahi->Retvizan defender",
            "gunnery Mikasa->Burny attacker",
            "gunnery Mikasa->Burny defender",
        ]
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
            &[CAPITAL, ("close range", 1)],
            "4\"",
        ),
    );
    logged(
        &st,
        "Asahi's secondary battery holds fire: Burny has already been fired on this phase.",
    );
    // Fuji's capital targets are both engaged by then: her ELSE list takes her to Burny.
    let fuji = ship("Fuji", "BB", 10.0, 16.0, 0.0, "");
    let f = table(&[mikasa, asahi, fuji], &russia, "");
    let (st, dice) = send(&f, "japan", "STANDING FIRE NEAREST", 5);
    logged(
        &st,
        "Fuji shifts fire to Burny (Tsesarevich has already been fired on this phase; Retvizan has already been fired on this phase).",
    );
    logged(
        &st,
        &attack_line(&dice, "Fuji", "Fuji", "Burny", 4, 1, &[CAPITAL], "6.2\""),
    );
}
