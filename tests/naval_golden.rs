//! Golden tests for the naval ruleset written in the players' own order syntax, through the
//! public `Ruleset` API: set-up, CP, costs, compulsory moves, battle lines, rejections, and a
//! random game that must never panic, stall or leak hidden facts.

use std::collections::BTreeMap;

use despatch::dice::{Dice, Faces};
use despatch::engine::{Ruleset, Silence, Submitted, Viewer};
use despatch::rulesets::naval_rjw::command::{cp_from_die, order_cost};
use despatch::rulesets::naval_rjw::data::{Crews, Leadership, RulesetData, TomlData};
use despatch::rulesets::naval_rjw::state::{Critical, Minefield, NavalState, Order, Phase};
use despatch::rulesets::naval_rjw::{NavalRjw, gunnery, orders};

use crate::naval;
use naval::*;

/// A scenario with Japan (flagship Mikasa, second Asahi) and Russia (Tsesarevich, Retvizan).
fn scenario(first: Option<&str>, japan: &str, russia: &str, extra: &str) -> String {
    let first = first
        .map(|f| format!("first = \"{f}\"\n"))
        .unwrap_or_default();
    format!(
        r#"
name = "Golden"
date = "1904"
description = "test"
width = 72
height = 48
max_turns = 20
{first}
{extra}

[[sides]]
id = "japan"
name = "Japan"
capital_gunnery_bonus = 1
withdrawal_heading = 270
flagship = "Mikasa"
second = "Asahi"
{japan}

[[sides]]
id = "russia"
name = "Russia"
withdrawal_heading = 90
flagship = "Tsesarevich"
second = "Retvizan"
{russia}
"#
    )
}

/// Set-up resolved with silence from both seats; Japan moves first with `cp` CP.
fn started(japan: &str, russia: &str, cp: i32) -> NavalState {
    let sc = scenario(Some("japan"), japan, russia, "");
    let st = NavalRjw::setup(RULESET, &sc, &seats()).expect("setup");
    let subs: BTreeMap<String, Submitted<Vec<Order>>> = seats()
        .into_iter()
        .map(|s| (s, Submitted::Nmr(Silence::Pass)))
        .collect();
    let mut st = NavalRjw::resolve(&st, &subs, &mut Dice::new([1; 32]));
    assert_eq!(st.phase, Phase::Manoeuvre);
    assert_eq!(st.active, "japan");
    st.cp_rolled = cp;
    st.cp_left = cp;
    st
}

fn manoeuvre(st: &NavalState, text: &str, seed: u8) -> NavalState {
    let orders = NavalRjw::parse(st, "japan", text).expect("orders parse");
    let mut subs = BTreeMap::new();
    subs.insert("japan".to_string(), Submitted::Orders(orders));
    NavalRjw::resolve(st, &subs, &mut Dice::new([seed; 32]))
}

fn at(st: &NavalState, name: &str, x: f64, y: f64, heading: f64) {
    let h = find(st, name).hull;
    assert!(
        near(h.centre.x, x) && near(h.centre.y, y) && near(h.heading.rem_euclid(360.0), heading),
        "{name} is at {},{} heading {}, expected {x},{y} heading {heading}",
        h.centre.x,
        h.centre.y,
        h.heading
    );
}

#[test]
fn dt1_command_points() {
    let data = RulesetData::from_toml(RULESET).unwrap();
    assert_eq!(
        cp_from_die(&data, 4, Leadership::Normal, Crews::Normal, false),
        3
    );
    assert_eq!(
        cp_from_die(&data, 2, Leadership::Poor, Crews::Normal, false),
        0
    );
    assert_eq!(
        cp_from_die(&data, 5, Leadership::Normal, Crews::Fresh, false),
        5
    );
    assert_eq!(
        cp_from_die(&data, 2, Leadership::Normal, Crews::Normal, true),
        0
    );
    // R17: poor leadership, flagship lost and a 2 would be −1: floored at 0.
    assert_eq!(
        cp_from_die(&data, 2, Leadership::Poor, Crews::Normal, true),
        0
    );
}

#[test]
fn cp_roll_is_logged_and_labelled() {
    let sc = scenario(
        Some("japan"),
        &[
            ship("Mikasa", "BB", 10.0, 10.0, 90.0, ""),
            ship("Asahi", "BB", 8.0, 10.0, 90.0, ""),
        ]
        .concat(),
        &russians_far(),
        "",
    );
    let st = NavalRjw::setup(RULESET, &sc, &seats()).unwrap();
    let subs: BTreeMap<String, Submitted<Vec<Order>>> = seats()
        .into_iter()
        .map(|s| (s, Submitted::Nmr(Silence::Pass)))
        .collect();
    let mut dice = Dice::new([7; 32]);
    let st = NavalRjw::resolve(&st, &subs, &mut dice);
    let roll = &dice.table()[0];
    assert_eq!(roll.label, "command points japan");
    assert_eq!(st.cp_rolled, roll.results[0] as i32 - 1);
    assert!(
        st.log
            .iter()
            .any(|l| l.text.contains(&format!("{} CP", st.cp_rolled)))
    );
}

#[test]
fn dt2_distance_and_control_surcharges() {
    let japan = [
        ship("Mikasa", "BB", 10.0, 10.0, 90.0, ""),
        ship("Asahi", "BB", 10.0, 14.0, 90.0, ""),
        ship("Fuji", "BB", 30.0, 10.0, 90.0, ""),
    ]
    .concat();
    let mut st = started(&japan, &russians_far(), 5);
    let turn = NavalRjw::parse(&st, "japan", "TURN Fuji PORT 45").unwrap();
    assert_eq!(
        order_cost(&st, "japan", &turn[0]),
        2,
        "20\" from the flagship: 1 + 1"
    );
    find_mut(&mut st, "Fuji").criticals.push(Critical::Control);
    assert_eq!(
        order_cost(&st, "japan", &turn[0]),
        3,
        "plus a Control critical"
    );
    let w = NavalRjw::parse(&st, "japan", "WITHDRAW").unwrap();
    assert_eq!(
        order_cost(&st, "japan", &w[0]),
        2,
        "General Withdrawal costs 2 regardless"
    );
    // Through an email: with 2 CP the turn (3) runs out on line 2.
    st.cp_left = 2;
    let err = NavalRjw::parse(
        &st,
        "japan",
        "# my orders\nTURN Fuji PORT 45\nHALT Mikasa\n",
    )
    .unwrap_err();
    assert_eq!(err.len(), 1);
    assert_eq!(err[0].line, 2);
    assert!(err[0].reason.contains("CP run out"), "{}", err[0].reason);
}

#[test]
fn dt3_compulsory_move() {
    let japan = [
        ship("Mikasa", "BB", 10.0, 10.0, 90.0, ""),
        ship("Asahi", "BB", 10.0, 14.0, 90.0, ""),
        ship("Asama", "CA", 20.0, 20.0, 90.0, ""),
        ship("Tokiwa", "CA", 20.0, 24.0, 90.0, ""),
        ship("Iwate", "CA", 20.0, 28.0, 90.0, ""),
    ]
    .concat();
    let mut st = started(&japan, &russians_far(), 0);
    find_mut(&mut st, "Tokiwa").hit_markers = 1;
    find_mut(&mut st, "Tokiwa").critical_marker = true;
    find_mut(&mut st, "Iwate").hit_markers = 1;
    // A plain hit marker forbids manoeuvre.
    let err = NavalRjw::parse(&st, "japan", "TURN Iwate PORT 45").unwrap_err();
    assert!(err[0].reason.contains("hit marker"), "{}", err[0].reason);
    assert_eq!(err[0].hint.as_deref(), Some("REPAIR Iwate first"));
    let st = manoeuvre(&st, "", 3);
    at(&st, "Asama", 23.0, 20.0, 90.0);
    at(&st, "Tokiwa", 20.0, 24.0, 90.0);
    at(&st, "Iwate", 23.0, 28.0, 90.0);
    assert!(
        st.log
            .iter()
            .any(|l| l.text == "Tokiwa is dead in the water.")
    );
    assert_eq!(st.phase, Phase::Fire);
    // The enemy does not move in Japan's turn.
    at(&st, "Tsesarevich", 60.0, 40.0, 270.0);
}

#[test]
fn r13_dt4_battle_line_follows_by_path() {
    let japan = format!(
        "{}[[sides.lines]]\nname = \"1st Division\"\nships = [\"Mikasa\", \"Shikishima\", \"Fuji\", \"Asahi\"]\n",
        [
            ship("Mikasa", "BB", 20.0, 10.0, 90.0, ""),
            ship("Shikishima", "BB", 18.0, 10.0, 90.0, ""),
            ship("Fuji", "BB", 16.0, 10.0, 90.0, ""),
            ship("Asahi", "BB", 14.0, 10.0, 90.0, ""),
        ]
        .concat()
    );
    let st = started(&japan, &russians_far(), 2);
    let st = manoeuvre(&st, "TURN Mikasa PORT 90\nMOVE Mikasa 5\n", 4);
    assert_eq!(st.cp_left, 0, "the lead pays 1 + 1; followers copy free");
    at(&st, "Mikasa", 20.0, 15.0, 0.0);
    // Each follower goes 5" along the track of the ship ahead, turning where she turned.
    at(&st, "Shikishima", 20.0, 13.0, 0.0);
    at(&st, "Fuji", 20.0, 11.0, 0.0);
    at(&st, "Asahi", 19.0, 10.0, 90.0);
    assert_eq!(st.groups[0].ships.len(), 4, "the line holds together");
}

#[test]
fn r13_dt4_slower_follower_cannot_copy_full_speed() {
    // Destroyers never form battle lines (p.5), so the seed's DD-lead case cannot arise; the
    // same rule bites a battleship behind a cruiser that makes a 6" full-speed move.
    let japan = format!(
        "{}[[sides.lines]]\nname = \"Cruisers\"\nships = [\"Yakumo\", \"Fuji\"]\n",
        [
            ship("Mikasa", "BB", 10.0, 30.0, 90.0, ""),
            ship("Asahi", "BB", 10.0, 34.0, 90.0, ""),
            ship("Yakumo", "CA", 20.0, 10.0, 90.0, ""),
            ship("Fuji", "BB", 18.0, 10.0, 90.0, ""),
        ]
        .concat()
    );
    let st = started(&japan, &russians_far(), 2);
    let st = manoeuvre(&st, "MOVE Yakumo", 5);
    at(&st, "Yakumo", 26.0, 10.0, 90.0);
    at(&st, "Fuji", 21.0, 10.0, 90.0);
    assert!(
        st.log
            .iter()
            .any(|l| l.text == "Fuji cannot follow the line and leaves it.")
    );
    assert!(
        st.groups
            .iter()
            .all(|g| !g.ships.contains(&"Fuji".to_string()))
    );
}

#[test]
fn rejection_lists_every_bad_line_with_hints() {
    let japan = [
        ship("Mikasa", "BB", 10.0, 10.0, 90.0, ""),
        ship("Asahi", "BB", 10.0, 14.0, 90.0, ""),
        ship("Chin Yen", "BB", 10.0, 18.0, 90.0, "obsolete = true"),
    ]
    .concat();
    let st = started(&japan, &russians_far(), 4);
    let text = "TURN Mikaza PORT 45\nMOVE chin-yen 2\nTRUN Asahi PORT 20\nSMOKE Mikasa\nTURN Asahi PORT 120\nFIRE Mikasa AT Tsesarevitch\nMOVE Asahi 9\n";
    let err = NavalRjw::parse(&st, "japan", text).unwrap_err();
    let lines: Vec<usize> = err.iter().map(|r| r.line).collect();
    assert_eq!(lines, vec![1, 3, 4, 5, 6, 7], "{err:#?}");
    assert_eq!(err[0].hint.as_deref(), Some("did you mean Mikasa?"));
    assert_eq!(err[1].hint.as_deref(), Some("did you mean TURN?"));
    assert!(err[2].reason.contains("only destroyers"));
    assert!(err[3].reason.contains("at most 90°"));
    assert_eq!(err[4].hint.as_deref(), Some("did you mean Tsesarevich?"));
    assert!(
        err[5].reason.contains("maximum speed is 5\""),
        "{}",
        err[5].reason
    );
    assert_eq!(err[2].text, "SMOKE Mikasa");
    // The good line alone parses, spaces in names written as `-`.
    let ok = NavalRjw::parse(
        &st,
        "japan",
        "MOVE chin-yen 2\nEND\nthis signature is ignored",
    )
    .unwrap();
    assert_eq!(NavalRjw::canonical(&ok), "MOVE Chin Yen 2\nEND\n");
}

/// Play-test: `MOVE Akaatsuki 8` named the ship `Akaatsuki 8`; the number is the move's own.
#[test]
fn a_misspelt_ship_followed_by_a_number_names_the_ship() {
    let japan = [
        ship("Mikasa", "BB", 10.0, 10.0, 90.0, ""),
        ship("Asahi", "BB", 10.0, 14.0, 90.0, ""),
        ship("Akatsuki", "DD", 10.0, 18.0, 90.0, ""),
    ]
    .concat();
    let st = started(&japan, &russians_far(), 4);
    let err = NavalRjw::parse(&st, "japan", "MOVE Akaatsuki 8\nTURN Mikaza PORT 45\n").unwrap_err();
    assert_eq!(err[0].reason, "no ship called `Akaatsuki`");
    assert_eq!(err[0].hint.as_deref(), Some("did you mean Akatsuki?"));
    assert_eq!(err[1].reason, "no ship called `Mikaza`");
    // A name that is right stays right with the number after it.
    let ok = NavalRjw::parse(&st, "japan", "MOVE akatsuki 8\n").unwrap();
    assert_eq!(NavalRjw::canonical(&ok), "MOVE Akatsuki 8\n");
}

/// Play-test: the receipt echoed `END` as `PASS`. END is kept as written; a v1 journal's
/// canonical `PASS` still reads as PASS; both order nothing, so they resolve alike.
#[test]
fn end_is_echoed_as_end_and_old_pass_still_reads_as_pass() {
    let japan = [
        ship("Mikasa", "BB", 10.0, 10.0, 90.0, ""),
        ship("Asahi", "BB", 10.0, 14.0, 90.0, ""),
    ]
    .concat();
    let st = started(&japan, &russians_far(), 4);
    let end = NavalRjw::parse(&st, "japan", "HALT Asahi\nend\nYours, Togo\n").unwrap();
    assert_eq!(end, vec![Order::Halt("Asahi".into()), Order::End]);
    assert_eq!(NavalRjw::canonical(&end), "HALT Asahi\nEND\n");
    let pass = NavalRjw::parse(&st, "japan", "HALT Asahi\nPASS\nYours, Togo\n").unwrap();
    assert_eq!(pass, vec![Order::Halt("Asahi".into()), Order::Pass]);
    assert_eq!(NavalRjw::canonical(&pass), "HALT Asahi\nPASS\n");
    for o in [&end, &pass] {
        let c = NavalRjw::canonical(o);
        assert_eq!(&NavalRjw::parse(&st, "japan", &c).unwrap(), o, "{c}");
    }
    assert_eq!(
        NavalRjw::canonical(&NavalRjw::parse(&st, "japan", "END\n").unwrap()),
        "END\n"
    );
    let resolved = |o: &Vec<Order>| {
        let mut subs = BTreeMap::new();
        subs.insert("japan".to_string(), Submitted::Orders(o.clone()));
        NavalRjw::resolve(&st, &subs, &mut Dice::new([7; 32]))
    };
    assert_eq!(resolved(&end), resolved(&pass));
    let words = NavalRjw::order_keywords();
    for kw in ["FLAGSHIP", "MOVE", "FIRE", "STANDING", "PASS", "END"] {
        assert!(words.contains(&kw), "{kw} missing from {words:?}");
    }
    assert!(!words.contains(&"REGARDS"));
}

#[test]
fn step_awareness() {
    let japan = [
        ship("Mikasa", "BB", 10.0, 10.0, 90.0, ""),
        ship("Asahi", "BB", 10.0, 14.0, 90.0, ""),
    ]
    .concat();
    let st = started(&japan, &russians_far(), 3);
    let err = NavalRjw::parse(&st, "russia", "TURN Tsesarevich PORT 10").unwrap_err();
    assert!(err[0].reason.contains("japan's turn"), "{}", err[0].reason);
    assert!(NavalRjw::parse(&st, "russia", "STANDING FIRE NEAREST").is_ok());
    let err = NavalRjw::parse(&st, "japan", "FLAGSHIP Asahi").unwrap_err();
    assert!(
        err[0].reason.contains("not a set-up order") || err[0].reason.contains("not a manoeuvre")
    );
    let st2 = manoeuvre(&st, "", 1);
    let err = NavalRjw::parse(&st2, "russia", "MOVE Tsesarevich").unwrap_err();
    assert!(err[0].reason.contains("fire step"), "{}", err[0].reason);
}

#[test]
fn canonical_round_trip() {
    let japan = [
        ship("Mikasa", "BB", 10.0, 10.0, 90.0, ""),
        ship("Asahi", "BB", 12.0, 14.0, 90.0, ""),
        ship("Chin Yen", "BB", 10.0, 18.0, 90.0, ""),
        ship("Akatsuki", "DD", 14.0, 10.0, 90.0, "minesweeper = true"),
    ]
    .concat();
    let russia = [
        ship("Tsesarevich", "BB", 20.0, 10.0, 270.0, ""),
        ship("Retvizan", "BB", 22.0, 10.0, 270.0, ""),
        ship("Burny", "DD", 18.0, 14.0, 270.0, ""),
    ]
    .concat();
    let mut st = started(&japan, &russia, 20);
    st.minefields.push(Minefield {
        id: "M1".into(),
        owner: "russia".into(),
        centre: despatch::board::tabletop::Pt::new(15.0, 12.0),
        heading: 0.0,
        genuine: true,
        laid_in_play: false,
        revealed: false,
    });
    find_mut(&mut st, "Asahi").hit_markers = 2;
    let emails = [
        "TURN Mikasa PORT 45\nMOVE Mikasa\n",
        "turn mikasa starboard 12.5\nmove mikasa 2.5\n",
        "TURN Chin Yen TO 0\nHALT Chin_Yen\n",
        "REPAIR Asahi\nREPAIR Asahi 1\nMOVE Asahi 4\n",
        "REPAIR Asahi 2\nFIRE Asahi AT Tsesarevich ELSE Retvizan SUPPORT Mikasa Chin Yen\n",
        "FIRE Mikasa SECONDARY AT Burny\nFIRE Mikasa AT Tses\nSMOKE Akatsuki\n",
        "SWEEP Akatsuki m1\nSTANDING FIRE FLAGSHIP\n",
        "STANDING FIRE OFF\nPASS\n",
        "WITHDRAW\n",
        "",
    ];
    for e in emails {
        let o = NavalRjw::parse(&st, "japan", e).unwrap_or_else(|r| panic!("{e:?}: {r:#?}"));
        let c = NavalRjw::canonical(&o);
        let again = NavalRjw::parse(&st, "japan", &c).unwrap();
        assert_eq!(again, o, "{c}");
        assert_eq!(NavalRjw::canonical(&again), c);
    }
    let o =
        NavalRjw::parse(&st, "japan", "fire asahi at tses else retv support mikasa").unwrap_err();
    assert!(o[0].reason.contains("hit marker"));
    assert_eq!(
        orders::print(&NavalRjw::parse(&st, "japan", "turn mikasa starboard 12.5").unwrap()),
        "TURN Mikasa STARBOARD 12.5\n"
    );
}

#[test]
fn setup_nominations_minefields_and_scouting() {
    let japan = [
        ship("Mikasa", "BB", 10.0, 10.0, 90.0, ""),
        ship("Asahi", "BB", 10.0, 14.0, 90.0, ""),
        ship("Yakumo", "CA", 10.0, 18.0, 90.0, ""),
        ship("Akatsuki", "DD", 10.0, 22.0, 90.0, ""),
    ]
    .concat();
    let sc = scenario(None, &japan, &russians_far(), "");
    assert!(NavalRjw::setup(RULESET, &sc, &["russia".into(), "japan".into()]).is_err());
    let st = NavalRjw::setup(RULESET, &sc, &seats()).unwrap();
    assert_eq!(NavalRjw::step(&st).prompts.len(), 2);
    let err = NavalRjw::parse(
        &st,
        "russia",
        "MINEFIELD DUMMY AT 30,24 HEADING 0\nMINEFIELD DUMMY AT 35,24 HEADING 0\nMINEFIELD DUMMY AT 40,24 HEADING 0\nMINEFIELD GENUINE AT 50,24 HEADING 90\n",
    )
    .unwrap_err();
    assert_eq!(err.len(), 1);
    assert_eq!(err[0].line, 3);
    let ru = NavalRjw::parse(
        &st,
        "russia",
        "MINEFIELD GENUINE AT 30,24 HEADING 90\nMINEFIELD DUMMY AT 40, 20 HEADING 0\n",
    )
    .unwrap();
    let jp = NavalRjw::parse(&st, "japan", "FLAGSHIP Asahi\n").unwrap();
    let mut subs = BTreeMap::new();
    subs.insert("japan".to_string(), Submitted::Orders(jp));
    subs.insert("russia".to_string(), Submitted::Orders(ru));
    let mut dice = Dice::new([9; 32]);
    let st = NavalRjw::resolve(&st, &subs, &mut dice);
    let jf = &st.fleets[0];
    assert_eq!(jf.flagship.as_deref(), Some("Asahi"));
    assert_eq!(jf.second.as_deref(), Some("Mikasa"));
    assert_eq!(st.minefields.len(), 2);
    // Scouting: Japan 1 (CA) + 1 (DD) = 2 points, Russia 0; ties re-rolled; the lower moves first.
    let rolls: Vec<_> = dice
        .table()
        .iter()
        .filter(|r| r.label.starts_with("scouting"))
        .collect();
    assert!(rolls.len() >= 2 && rolls.len() % 2 == 0);
    let last = &rolls[rolls.len() - 2..];
    let (j, r) = (last[0].results[0] as i32 + 2, last[1].results[0] as i32);
    assert_ne!(j, r);
    assert_eq!(st.active, if j < r { "japan" } else { "russia" });
    assert_eq!(
        dice.table().last().unwrap().label,
        format!("command points {}", st.active)
    );
    // Japan sees markers, not their nature; Russia sees its own.
    let jv = NavalRjw::view(&st, &Viewer::Seat("japan".into()));
    let text = format!("{:?}{}", jv.sections, jv.data);
    assert!(
        !text.contains("genuine") && !text.contains("dummy"),
        "{text}"
    );
    assert!(text.contains("field M1 (Russia) at 30,24 heading 90, nature unknown"));
    let rv = NavalRjw::view(&st, &Viewer::Seat("russia".into()));
    let text = format!("{:?}{:?}", rv.sections, rv.log);
    assert!(text.contains("genuine") && text.contains("dummy"));
    let sv = NavalRjw::view(&st, &Viewer::Spectator);
    let text = format!("{:?}{:?}{}{:?}", sv.sections, sv.log, sv.data, sv.board);
    assert!(!text.contains("genuine") && !text.contains("dummy"));
}

#[test]
fn fire_plan_in_manoeuvre_orders_is_sealed_and_used() {
    let japan = [
        ship("Mikasa", "BB", 10.0, 10.0, 90.0, ""),
        ship("Asahi", "BB", 10.0, 14.0, 90.0, ""),
    ]
    .concat();
    let russia = [
        ship("Tsesarevich", "BB", 22.0, 10.0, 270.0, ""),
        ship("Retvizan", "BB", 22.0, 14.0, 270.0, ""),
    ]
    .concat();
    let st = started(&japan, &russia, 2);
    let st = manoeuvre(
        &st,
        "HALT Mikasa\nHALT Asahi\nFIRE Mikasa AT Tsesarevich\nFIRE Asahi AT Retvizan\n",
        2,
    );
    assert!(st.pending_fire.is_some());
    let spec = NavalRjw::step(&st);
    assert_eq!(
        spec.prompts.len(),
        1,
        "Japan gave its plan; only Russia is asked"
    );
    assert_eq!(spec.prompts[0].seat, "russia");
    assert!(spec.prompts[0].required);
    let rv = NavalRjw::view(&st, &Viewer::Seat("russia".into()));
    let all = format!("{:?}{:?}{}", rv.sections, rv.log, rv.data);
    assert!(!all.contains("FIRE Mikasa"), "{all}");
    assert!(!all.contains("fire plan ("), "{all}");
    let jv = NavalRjw::view(&st, &Viewer::Seat("japan".into()));
    assert!(format!("{:?}", jv.sections).contains("FIRE Mikasa AT Tsesarevich"));
    let ru = NavalRjw::parse(
        &st,
        "russia",
        "FIRE Tsesarevich AT Mikasa\nSTANDING FIRE NEAREST\n",
    )
    .unwrap();
    let mut subs = BTreeMap::new();
    subs.insert("russia".to_string(), Submitted::Orders(ru));
    let mut dice = Dice::new([6; 32]);
    let st = NavalRjw::resolve(&st, &subs, &mut dice);
    let labels: Vec<&str> = dice.table().iter().map(|r| r.label.as_str()).collect();
    assert!(
        labels
            .iter()
            .any(|l| l.starts_with("gunnery Tsesarevich->Mikasa")),
        "{labels:?}"
    );
    // Russia moves next; its CP were rolled in this resolution (R33).
    assert_eq!(st.active, "russia", "{:#?}", st.log);
    assert_eq!(st.turn, 2);
    assert_eq!(*labels.last().unwrap(), "command points russia");
    assert!(
        st.ships
            .iter()
            .filter(|s| s.side == "japan")
            .all(|s| s.hit_markers == 0)
    );
    // Russia now has standing orders: in Japan's next fire step it is not required.
    assert_eq!(
        st.fleets[1].standing_fire,
        Some(despatch::rulesets::naval_rjw::state::StandingFire::Nearest)
    );
}

/// Plays `steps` steps with scripted players; panics on any rejected sample, dead end or leak.
fn random_game(ruleset: &str, scenario_text: &str, seed: u64, steps: usize) -> NavalState {
    let mut st = NavalRjw::setup(ruleset, scenario_text, &seats()).expect("setup");
    for k in 0..steps {
        if st.phase == Phase::GameOver {
            assert!(NavalRjw::outcome(&st).is_some());
            assert!(NavalRjw::step(&st).prompts.is_empty());
            break;
        }
        let spec = NavalRjw::step(&st);
        assert!(
            !spec.prompts.is_empty() || st.phase == Phase::Fire,
            "dead end at step {k}: {spec:?}"
        );
        let mut subs = BTreeMap::new();
        for (i, p) in spec.prompts.iter().enumerate() {
            let choice = seed
                .wrapping_mul(1_000_003)
                .wrapping_add((k * 7 + i) as u64);
            if !p.required && choice.is_multiple_of(3) {
                continue;
            }
            if choice % 17 == 5 {
                subs.insert(p.seat.clone(), Submitted::Nmr(Silence::StandingOrders));
                continue;
            }
            let text = NavalRjw::sample_orders(&st, &p.seat, choice);
            let o = NavalRjw::parse(&st, &p.seat, &text).unwrap_or_else(|e| {
                panic!("step {k}: sample for {} rejected: {text}\n{e:#?}", p.seat)
            });
            assert_eq!(
                NavalRjw::parse(&st, &p.seat, &NavalRjw::canonical(&o)).unwrap(),
                o
            );
            subs.insert(p.seat.clone(), Submitted::Orders(o));
        }
        let phase_before = st.phase.clone();
        let turn_before = st.turn;
        let mut seed_bytes = [0u8; 32];
        seed_bytes[..8].copy_from_slice(&(seed * 1000 + k as u64).to_be_bytes());
        st = NavalRjw::resolve(&st, &subs, &mut Dice::new(seed_bytes));
        assert!(
            st.phase != phase_before || st.turn != turn_before,
            "step {k} made no progress"
        );
        assert!(st.cp_left >= 0);
        for s in &st.ships {
            assert!(s.hull.centre.x.is_finite() && s.hull.centre.y.is_finite());
        }
        check_no_leak(&st);
    }
    st
}

fn check_no_leak(st: &NavalState) {
    for seat in seats() {
        let v = NavalRjw::view(st, &Viewer::Seat(seat.clone()));
        let text = format!("{:?}{:?}{}{:?}", v.sections, v.log, v.data, v.board);
        for m in &st.minefields {
            if m.owner != seat && !m.laid_in_play && !m.revealed {
                assert!(
                    text.contains(&format!("field {} (", m.id))
                        && !text.contains(&format!("{} genuine", m.id))
                        && !text.contains(&format!("{} dummy", m.id)),
                    "{seat} sees the nature of {}",
                    m.id
                );
                let entry = v.data["minefields"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|x| x["id"] == m.id.as_str())
                    .unwrap()
                    .clone();
                assert_eq!(entry["nature"], "unknown");
            }
        }
        if st.active != seat
            && let Some(plan) = &st.pending_fire
        {
            for f in plan {
                let line = orders::print_order(&Order::Fire(f.clone()));
                assert!(!text.contains(&line), "{seat} sees the sealed plan: {line}");
            }
        }
    }
}

fn busy_scenario(first: Option<&str>) -> String {
    let japan = format!(
        "{}{}",
        [
            ship("Mikasa", "BB", 10.0, 10.0, 45.0, ""),
            ship("Asahi", "BB", 8.6, 8.6, 45.0, ""),
            ship("Fuji", "BB", 7.2, 7.2, 45.0, ""),
            ship("Yakumo", "CA", 14.0, 6.0, 45.0, ""),
            ship("Chitose", "CL", 18.0, 6.0, 0.0, ""),
            ship("Akatsuki", "DD", 6.0, 14.0, 45.0, "minesweeper = true"),
            ship("Ikazuchi", "DD", 6.5, 15.0, 45.0, ""),
        ]
        .concat(),
        "[[sides.lines]]\nname = \"1st Division\"\nships = [\"Mikasa\", \"Asahi\", \"Fuji\"]\n[[sides.flotillas]]\nname = \"1st Flotilla\"\nships = [\"Akatsuki\", \"Ikazuchi\"]\n"
    );
    let russia = format!(
        "{}{}",
        [
            ship("Tsesarevich", "BB", 40.0, 30.0, 225.0, ""),
            ship("Retvizan", "BB", 41.4, 31.4, 225.0, ""),
            ship("Pobeda", "BB", 42.8, 32.8, 225.0, "obsolete = true"),
            ship("Askold", "CL", 36.0, 34.0, 225.0, ""),
            ship("Amur", "CL", 44.0, 26.0, 225.0, "minelayer = true"),
            ship("Burny", "DD", 38.0, 38.0, 225.0, ""),
            ship("Boiki", "DD", 38.5, 39.0, 225.0, ""),
        ]
        .concat(),
        "[[sides.lines]]\nname = \"Battle line\"\nships = [\"Tsesarevich\", \"Retvizan\", \"Pobeda\"]\n[[sides.flotillas]]\nname = \"Flotilla\"\nships = [\"Burny\", \"Boiki\"]\n"
    );
    let extra = "[[minefields]]\nowner = \"russia\"\nx = 25.0\ny = 20.0\nheading = 45\ngenuine = true\n[[minefields]]\nowner = \"russia\"\nx = 20.0\ny = 25.0\nheading = 45\ngenuine = false\n";
    scenario(first, &japan, &russia, extra)
        .replace("width = 72\nheight = 48", "width = 54\nheight = 44")
}

#[test]
fn random_games_never_stall_or_leak() {
    for seed in 1..=40u64 {
        let first = if seed % 2 == 0 { None } else { Some("russia") };
        let st = random_game(RULESET, &busy_scenario(first), seed, 200);
        assert!(st.turn >= 2, "seed {seed} barely started");
    }
}

#[test]
fn shipped_scenarios_play_through() {
    let ruleset = include_str!("../games/naval-rjw/ruleset.toml");
    for sc in [
        include_str!("../games/naval-rjw/scenarios/training.toml"),
        include_str!("../games/naval-rjw/scenarios/yellow-sea-1904.toml"),
    ] {
        for seed in 1..=2u64 {
            random_game(ruleset, sc, seed, 200);
        }
    }
}

/// R20 with the fix: "stationary" is judged on the target's own last movement, so ships of
/// the non-active side that moved in their own turn are not stationary in the active fire step.
#[test]
fn r56_dd_stationary_bonus_counts_only_targets_that_did_not_move() {
    let japan = [
        ship("Mikasa", "BB", 10.0, 10.0, 90.0, ""),
        ship("Asahi", "BB", 10.0, 4.0, 90.0, ""),
        ship("Shirakumo", "DD", 14.0, 16.0, 90.0, ""),
    ]
    .concat();
    let russia = [
        ship("Tsesarevich", "BB", 20.0, 10.0, 270.0, ""),
        ship("Retvizan", "BB", 20.0, 16.0, 270.0, ""),
    ]
    .concat();
    let mut st = started(&japan, &russia, 2);
    // Russia's last turn: Tsesarevich made her cruise, Retvizan was halted.
    find_mut(&mut st, "Tsesarevich").moved = true;
    find_mut(&mut st, "Retvizan").moved = false;
    let st = manoeuvre(&st, "HALT Mikasa\nHALT Shirakumo\n", 3);
    // (Asahi made her compulsory cruise.)
    assert!(
        find(&st, "Tsesarevich").moved,
        "the non-active side keeps its flags"
    );
    assert!(!find(&st, "Retvizan").moved);
    assert!(!find(&st, "Mikasa").moved && !find(&st, "Shirakumo").moved);
    let dd = find(&st, "Shirakumo");
    let moving = gunnery::modifiers(&st, dd, find(&st, "Tsesarevich"), false, &[]);
    let still = gunnery::modifiers(&st, dd, find(&st, "Retvizan"), false, &[]);
    assert!(
        !moving.iter().any(|(why, _)| why == "stationary target"),
        "{moving:?}"
    );
    assert!(
        still
            .iter()
            .any(|(why, v)| why == "stationary target" && *v == 2),
        "{still:?}"
    );
}

/// EX-1, the seed's own gunnery example (p.6), played as the players would write it: a Russian
/// battleship (CF 4) fires on a Japanese light cruiser (CF 2), no modifiers; Russia rolls 4,
/// Japan 3: 8 against 5, three hits, and one 2d6 critical roll for each hit.
#[test]
fn ex1_the_seeds_gunnery_example_in_order_syntax() {
    let japan = [
        ship("Mikasa", "BB", 60.0, 40.0, 90.0, ""),
        ship("Asahi", "BB", 60.0, 44.0, 90.0, ""),
        ship("Chitose", "CL", 10.0, 20.0, 90.0, ""),
    ]
    .concat();
    let russia = [
        ship("Tsesarevich", "BB", 10.0, 10.0, 0.0, ""),
        ship("Retvizan", "BB", 40.0, 2.0, 90.0, ""),
    ]
    .concat();
    // 4 CP: Chitose is beyond 18" of the flagship, so holding her costs 2 (R25).
    let st = started(&japan, &russia, 4);
    // Japan holds every ship where it is, so the range stays 9.2" bow-on: no modifier applies.
    let st = manoeuvre(&st, "HALT Mikasa\nHALT Asahi\nHALT Chitose\n", 1);
    let russian = NavalRjw::parse(&st, "russia", "FIRE Tsesarevich AT Chitose\n").expect("orders");
    let japanese = NavalRjw::parse(&st, "japan", "PASS\n").expect("orders");
    let mut subs = BTreeMap::new();
    subs.insert("russia".to_string(), Submitted::Orders(russian));
    subs.insert("japan".to_string(), Submitted::Orders(japanese));
    // Russia fires first (the non-active player): request 0 is its die, request 1 Japan's.
    let seed = (0u64..)
        .map(|n| {
            let mut s = [0u8; 32];
            s[..8].copy_from_slice(&n.to_be_bytes());
            s
        })
        .find(|s| {
            despatch::dice::roll_stream(s, 0, &Faces::d(6), 1) == [4]
                && despatch::dice::roll_stream(s, 1, &Faces::d(6), 1) == [3]
        })
        .unwrap();
    let mut dice = Dice::new(seed);
    let after = NavalRjw::resolve(&st, &subs, &mut dice);
    let log: Vec<&str> = after.log.iter().map(|l| l.text.as_str()).collect();
    assert!(
        log.iter().any(
            |l| l.starts_with("Tsesarevich (4+4=8) fires on Chitose (3+2=5)")
                && l.ends_with("3 hits.")
        ),
        "{log:#?}"
    );
    assert!(
        log.iter()
            .any(|l| l.starts_with("Chitose takes 3 hit markers")),
        "{log:#?}"
    );
    let labels: Vec<&str> = dice.table().iter().map(|r| r.label.as_str()).collect();
    assert_eq!(
        &labels[..2],
        [
            "gunnery Tsesarevich->Chitose attacker",
            "gunnery Tsesarevich->Chitose defender"
        ]
    );
    assert_eq!(
        labels
            .iter()
            .filter(|l| l.starts_with("critical Chitose"))
            .count(),
        3,
        "one 2d6 critical roll per hit: {labels:?}"
    );
    assert!(
        dice.table()
            .iter()
            .filter(|r| r.label.starts_with("critical"))
            .all(|r| r.results.len() == 2)
    );
}
