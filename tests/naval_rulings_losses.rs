//! The Naval rulings on losses, striking colours, wrecks and mines (R7, R35, R41, R42, R54),
//! one test per ruling (`fn r<N>_…`, counted by the conformance kit's ruling table), played
//! through the public `Ruleset` API with the players' orders; mine totals come from the dice.

use std::collections::BTreeMap;

use despatch::dice::Dice;
use despatch::engine::{Ruleset, Silence, Submitted};
use despatch::rulesets::naval_rjw::state::{Critical, Fate, Phase, Ship};
use despatch::rulesets::naval_rjw::{NavalRjw, damage};

use crate::naval;
use crate::naval_game;
use naval::*;
use naval_game::*;

/// R7: "\"Crippled\": the ship has at least one permanent critical (Movement, Gunnery or Control)
/// or was crippled by mines. Plain hit markers never cripple. For victory, sunk, struck and
/// crippled ships are \"lost\"; ships that escaped off the table under General Withdrawal are
/// not."
#[test]
fn r7_criticals_mines_sinking_and_striking_lose_a_ship_but_markers_and_escape_do_not() {
    // Russia: 4 BB and CA among 8 ships, so two lost capital ships are a defeat (R9).
    let japan = [
        ship("Mikasa", "BB", 10.0, 10.0, 90.0, ""),
        ship("Asahi", "BB", 10.0, 4.0, 90.0, ""),
    ]
    .concat();
    let russia: String = [
        ("Tsesarevich", "BB"),
        ("Retvizan", "BB"),
        ("Pobeda", "BB"),
        ("Bayan", "CA"),
        ("Askold", "CL"),
        ("Novik", "CL"),
        ("Diana", "CL"),
        ("Pallada", "CL"),
    ]
    .iter()
    .enumerate()
    .map(|(i, (n, c))| ship(n, c, 40.0 + 3.0 * i as f64, 40.0, 270.0, ""))
    .collect();
    let turn_with = |hurt: &dyn Fn(&mut Ship, &mut Ship)| {
        let mut st = begin(&sc(japan.clone(), russia.clone()), 0);
        let mut pobeda = find(&st, "Pobeda").clone();
        let mut bayan = find(&st, "Bayan").clone();
        hurt(&mut pobeda, &mut bayan);
        *find_mut(&mut st, "Pobeda") = pobeda;
        *find_mut(&mut st, "Bayan") = bayan;
        let (st, _) = send(&st, "japan", "", 5);
        quiet_fire(&st, 6).0
    };
    // Plain hit markers: nothing is lost, the battle goes on.
    let st = turn_with(&|p, b| {
        p.hit_markers = 3;
        b.hit_markers = 2;
    });
    assert_eq!(st.phase, Phase::Manoeuvre, "{}", log_text(&st));
    assert_eq!(find(&st, "Pobeda").hit_markers, 3, "Russia's markers stay");
    // A permanent critical, and a mine hit: both crippled, both lost.
    let st = turn_with(&|p, b| {
        p.criticals.push(Critical::Control);
        b.mine_crippled = true;
    });
    assert_eq!(NavalRjw::outcome(&st).unwrap().winners, ["japan"]);
    // Sunk and struck: lost.
    let st = turn_with(&|p, b| {
        p.fate = Fate::Sunk;
        b.fate = Fate::Struck;
    });
    assert_eq!(NavalRjw::outcome(&st).unwrap().winners, ["japan"]);
    // Escaped: not lost.
    let st = turn_with(&|p, b| {
        p.fate = Fate::Escaped;
        b.fate = Fate::Escaped;
    });
    assert_eq!(st.phase, Phase::Manoeuvre, "{}", log_text(&st));
    assert!(st.outcome.is_none());
}

/// R35: "A struck flagship passes the flag exactly as a sunk one does, with the permanent -1 CP.
/// Sunk and struck ships leave their line or flotilla; an empty group is dissolved."
#[test]
fn r35_a_struck_flagship_passes_the_flag_at_one_cp_and_leaves_her_line() {
    // Three Japanese battleships within 6" of Tsesarevich (CF 12 against her 4); her line-mate
    // Pobeda and her second Retvizan are more than 12" away.
    let japan = [
        ship("Mikasa", "BB", 17.0, 10.0, 0.0, ""),
        ship("Asahi", "BB", 17.0, 14.0, 0.0, ""),
        ship("Fuji", "BB", 17.0, 6.0, 0.0, ""),
    ]
    .concat();
    let russia = [
        ship("Tsesarevich", "BB", 22.0, 10.0, 0.0, ""),
        ship("Retvizan", "BB", 60.0, 40.0, 270.0, ""),
        ship("Pobeda", "BB", 40.0, 10.0, 0.0, ""),
    ]
    .concat()
        + "[[sides.lines]]\nname = \"1st Squadron\"\nships = [\"Tsesarevich\", \"Pobeda\"]\n";
    let f = all_halted(&begin(&sc(japan, russia), 0));
    let (st, dice) = quiet_fire(&f, 5);
    logged(
        &st,
        "Tsesarevich strikes her colours: undamaged enemies within 6\" muster CF 12 against her CF 4, and no friend is within 12\".",
    );
    logged(&st, "The flag passes from Tsesarevich to Retvizan.");
    let russia = &st.fleets[1];
    assert_eq!(
        (russia.flagship.as_deref(), russia.flagship_lost),
        (Some("Retvizan"), true)
    );
    // Russia's next roll carries the -1 for good.
    let die = rolled(&dice, "command points russia")[0] as i32;
    let cp = (die - 1 - 1).max(0);
    assert_eq!(st.cp_rolled, cp);
    logged(
        &st,
        &format!("Turn 2: Russia rolls {die} on the Average Die: {cp} CP (flagship lost)."),
    );
    // She has left her line; when Pobeda sinks too, the empty line is gone.
    assert_eq!(
        st.groups
            .iter()
            .map(|g| g.ships.clone())
            .collect::<Vec<_>>(),
        [["Pobeda"]]
    );
    let mut st = st;
    damage::sink(&mut st, "Pobeda", "her magazine explodes");
    assert!(st.groups.is_empty(), "{:?}", st.groups);
}

/// R41: "Striking colours is tested for all ships at once and repeated until nothing changes: a
/// ship that strikes no longer counts as a friend. A ship with CF 0 never strikes."
#[test]
fn r41_striking_colours_is_tested_for_all_ships_at_once_and_cf_zero_never_strikes() {
    let japan = [
        // Mikasa and Chitose are within 6" of Novik and more than 12" from Akatsuki.
        ship("Mikasa", "BB", 21.0, 3.0, 0.0, ""),
        ship("Chitose", "CL", 19.0, 3.5, 0.0, ""),
        ship("Akatsuki", "DD", 20.0, 17.0, 0.0, ""),
        ship("Fuji", "BB", 36.0, 10.0, 0.0, ""),
        ship("Asahi", "BB", 60.0, 5.0, 0.0, ""),
    ]
    .concat();
    let russia = [
        ship("Tsesarevich", "BB", 60.0, 40.0, 270.0, ""),
        ship("Retvizan", "BB", 62.0, 40.0, 270.0, ""),
        // Novik: Mikasa, Chitose and Akatsuki within 6" (CF 7 against 2), no friend within 12".
        ship("Novik", "CL", 20.0, 10.0, 0.0, ""),
        // Burny (12.1" from Novik) and Novik are within 6" of Akatsuki (CF 3 against 1).
        ship("Burny", "DD", 20.0, 23.2, 0.0, ""),
        // Diana has no gunnery left (CF 0) and Fuji close by.
        ship("Diana", "CL", 40.0, 10.0, 0.0, ""),
    ]
    .concat();
    let mut st = begin(&sc(japan, russia), 0);
    find_mut(&mut st, "Diana").criticals = vec![Critical::Gunnery, Critical::Gunnery];
    let (st, _) = quiet_fire(&all_halted(&st), 5);
    // Both strike in the same test: had Novik struck first, Akatsuki would face CF 1 only.
    logged(
        &st,
        "Novik strikes her colours: undamaged enemies within 6\" muster CF 7 against her CF 2, and no friend is within 12\".",
    );
    logged(
        &st,
        "Akatsuki strikes her colours: undamaged enemies within 6\" muster CF 3 against her CF 1, and no friend is within 12\".",
    );
    assert_eq!(find(&st, "Burny").fate, Fate::Afloat);
    assert_eq!(find(&st, "Diana").fate, Fate::Afloat);
}

/// R42: "A rescue is owed when any friendly afloat ship is within 12\" of the wreck, measured hull
/// to hull."
#[test]
fn r42_a_rescue_is_owed_when_a_friend_is_within_twelve_inches_hull_to_hull() {
    let owed = |chitose_x: f64| {
        let japan = [
            ship("Mikasa", "BB", 10.0, 10.0, 90.0, ""),
            ship("Asahi", "BB", 40.0, 30.0, 90.0, ""),
            ship("Chitose", "CL", chitose_x, 30.0, 90.0, ""),
        ]
        .concat();
        let mut st = begin(&sc(japan, russians_far()), 0);
        damage::sink(&mut st, "Asahi", "her magazine explodes");
        st
    };
    // Asahi's hull ends at x 40.8. Chitose at 53.3: her hull starts at 52.7, 11.9" away,
    // though her centre is 13.3" from the wreck's.
    let st = owed(53.3);
    logged(
        &st,
        "Friendly ships are within 12\" of Asahi: one must be sent to rescue her survivors.",
    );
    assert_eq!(st.fleets[0].rescue_owed, ["Asahi"]);
    // At 54 the hulls are 12.6" apart: no rescue.
    let st = owed(54.0);
    assert!(st.fleets[0].rescue_owed.is_empty());
    assert!(!log_text(&st).contains("must be sent to rescue"));
}

/// R42 at its threshold: "within 12"" includes 12" exactly. Asahi and Chitose lie side by side
/// on heading 0 (keels along y, so every coordinate is exact in binary), their keels `gap`
/// apart: 12.0 owes a rescue, 12.0625 (exact in binary too) does not.
#[test]
fn r42_a_friend_exactly_twelve_inches_away_owes_a_rescue_and_one_just_beyond_does_not() {
    let owed = |gap: f64| {
        let japan = [
            ship("Mikasa", "BB", 10.0, 10.0, 90.0, ""),
            ship("Asahi", "BB", 40.0, 30.0, 0.0, ""),
            ship("Chitose", "CL", 40.0 + gap, 30.0, 0.0, ""),
        ]
        .concat();
        let mut st = begin(&sc(japan, russians_far()), 0);
        let asahi = find(&st, "Asahi").hull;
        let chitose = find(&st, "Chitose").hull;
        assert_eq!(despatch::board::tabletop::hull_range(&asahi, &chitose), gap);
        damage::sink(&mut st, "Asahi", "her magazine explodes");
        st
    };
    assert_eq!(owed(12.0).fleets[0].rescue_owed, ["Asahi"]);
    assert!(owed(12.0625).fleets[0].rescue_owed.is_empty());
}

/// R54: "A minefield's heading is the course of the ship that laid it, with the 4\" side across
/// it. A ship's own minefields attack her too."
#[test]
fn r54_a_field_lies_across_its_heading_and_attacks_its_own_side_too() {
    let japan = [
        ship("Mikasa", "BB", 10.0, 10.0, 90.0, ""),
        ship("Asahi", "BB", 10.0, 4.0, 90.0, ""),
        // 1.5" north of the field's centre line: inside a 4" belt across heading 90, outside
        // a 1" one along it.
        ship("Fuji", "BB", 30.0, 22.5, 90.0, ""),
    ]
    .concat();
    let st = NavalRjw::setup(RULESET, &sc(japan, russians_far()).text(), &seats()).unwrap();
    let orders = NavalRjw::parse(&st, "japan", "MINEFIELD GENUINE AT 32,21 HEADING 90").unwrap();
    let mut subs = BTreeMap::new();
    subs.insert("japan".to_string(), Submitted::Orders(orders));
    subs.insert("russia".to_string(), Submitted::Nmr(Silence::Pass));
    let st = NavalRjw::resolve(&st, &subs, &mut Dice::new([1; 32]));
    assert_eq!(st.minefields[0].owner, "japan");
    // Japan's own Fuji cruises east across x 31.5 to 32.5.
    let (st, dice) = send(&st, "japan", "", 5);
    at(&st, "Fuji", 33.0, 22.5, 90.0);
    let md = rolled(&dice, "mines M1->Fuji mines")[0] as i32;
    let sd = rolled(&dice, "mines M1->Fuji ship")[0] as i32;
    let head = format!(
        "Minefield M1 ({md}+2={}) attacks Fuji ({sd}+2={})",
        md + 2,
        sd + 2
    );
    assert!(
        st.log.iter().any(|l| l.text.starts_with(&head)),
        "{head}\n{}",
        log_text(&st)
    );
    let hits = ((md + 2) - (sd + 2)).max(0) as u32;
    let fuji = find(&st, "Fuji");
    if fuji.fate == Fate::Afloat {
        assert_eq!(fuji.hit_markers, hits);
    }
    // Asahi and Mikasa pass clear of the field and are not attacked.
    assert!(
        labels(&dice)
            .iter()
            .all(|l| l.starts_with("mines M1->Fuji"))
    );
}
