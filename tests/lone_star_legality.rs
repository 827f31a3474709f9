//! Lone Star, issue 28: a halted windwagon stays halted (R36), the ambushed modifier (R47),
//! legality decided when the mail is read (sight, arc, range, aboard, under way) with what
//! only resolution knows reported with its true reason, and the state that decides an order's
//! legality on every card (R22). Orders in the players' own syntax, dice from fixed seeds.

use std::collections::BTreeMap;

use crate::lone_star_common;

use crate::lone_star_machines::AIR;
use crate::lone_star_wagons::riding;
use despatch::board::tabletop::Pt;
use despatch::dice::Dice;
use despatch::engine::{Ruleset, Silence, Submitted, Viewer};
use despatch::rulesets::lone_star::LoneStar;
use despatch::rulesets::lone_star::state::{Form, Phase, Smoke, State};
use lone_star_common::*;

const WAGON: &str = "Prairie Schooner";

/// Every line the seat's mail shows of the table (cards and the enemy as seen).
fn seen(st: &State, seat: &str) -> String {
    LoneStar::view(st, &Viewer::Seat(seat.into()))
        .sections
        .iter()
        .flat_map(|(_, l)| l.clone())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The log line of a unit's own attack.
fn attack_line(st: &State, firer: &str) -> String {
    log(st)
        .lines()
        .find(|l| l.starts_with(&format!("{firer} fires at")))
        .unwrap_or_else(|| panic!("{firer} fires: {}", log(st)))
        .to_string()
}

#[test]
fn r36_hold_or_silence_keeps_a_halted_windwagon_halted() {
    let mut st = patrol();
    st.cards = ["bowie", "hays", "von-arnim", "enver"]
        .map(String::from)
        .to_vec();
    st.phase = Phase::Move { card: 0 };
    assert!(st.unit(WAGON).unwrap().halted, "every wagon starts halted");
    let hold = step(&st, &[("bowie", "HOLD Prairie Schooner")], 3);
    let silent = step(&st, &[], 3);
    for after in [&hold, &silent] {
        let w = after.unit(WAGON).unwrap();
        assert!(w.halted, "{}", log(after));
        assert_eq!(w.pos, Pt::new(40.0, 4.0), "{}", log(after));
        assert!(log(after).contains("stays halted"), "{}", log(after));
    }
    // So a seat-mate may board it on its card (the jam the games by mail found).
    let mut board = hold.clone();
    place(&mut board, "Rangers", 40.0, 9.0, 180.0, Form::Column);
    let board = step(&board, &[("hays", "EMBARK Rangers Prairie Schooner")], 4);
    assert_eq!(
        board.unit("Rangers").unwrap().aboard.as_deref(),
        Some(WAGON),
        "{}",
        log(&board)
    );
    // Only a SAIL moves it, and then it is under way.
    let sailed = step(&st, &[("bowie", "SAIL Prairie Schooner 0")], 3);
    assert!(!sailed.unit(WAGON).unwrap().halted, "{}", log(&sailed));
    // STOP on a halted wagon, or HOLD on one under way, cannot be carried out: refused.
    let e = refused(&st, "bowie", "STOP Prairie Schooner");
    assert!(e.contains("halted already"), "{e}");
    let mut way = st.clone();
    way.unit_mut(WAGON).halted = false;
    let e = refused(&way, "bowie", "HOLD Prairie Schooner");
    assert!(e.contains("under way"), "{e}");
    assert!(LoneStar::parse(&way, "bowie", "STOP Prairie Schooner").is_ok());
}

/// Comanche Scouts hidden in the Pecan bottom, the Grenzer and the Sipahi facing them.
fn ambush_set() -> State {
    let mut st = patrol();
    place(&mut st, "Grenzer", 20.0, 27.0, 90.0, Form::Line);
    place(&mut st, "Sipahi", 20.0, 23.0, 90.0, Form::Line);
    st.unit_mut("Sipahi").mounted = false;
    place(&mut st, "Rangers", 46.0, 2.0, 0.0, Form::Line);
    to_combat(&mut st);
    st
}

#[test]
fn r47_fire_returned_at_an_ambusher_is_ambushed() {
    let st = ambush_set();
    assert!(st.unit("Comanche Scouts").unwrap().hidden);
    let after = step(&st, &[("hays", "FIRE Comanche Scouts AT Grenzer")], 9);
    assert!(log(&after).contains("AMBUSH!"), "{}", log(&after));
    // The Grenzer, shot at from hiding, return fire ambushed (−5).
    let g = attack_line(&after, "Grenzer");
    assert!(g.contains("at Comanche Scouts"), "{g}");
    assert!(g.contains("ambushed -5"), "{g}");
    // The Sipahi, not shot at, fire at the Scouts too but return nothing: no modifier; nor
    // has the ambusher's own fire.
    let s = attack_line(&after, "Sipahi");
    assert!(s.contains("at Comanche Scouts"), "{s}");
    assert!(!s.contains("ambushed"), "{s}");
    assert!(!attack_line(&after, "Comanche Scouts").contains("ambushed"));
    // Without the ambush (the Scouts in the open from the start), no modifier.
    let mut open = st.clone();
    open.unit_mut("Comanche Scouts").hidden = false;
    let after = step(&open, &[("hays", "FIRE Comanche Scouts AT Grenzer")], 9);
    assert!(
        !attack_line(&after, "Grenzer").contains("ambushed"),
        "{}",
        log(&after)
    );
}

#[test]
fn a_fire_the_unit_cannot_carry_out_is_refused_when_the_mail_is_read() {
    let mut st = patrol();
    to_combat(&mut st);
    // Rangers at 30,16 facing west; Grenzer at 10,16: in range, arc and sight.
    assert!(LoneStar::parse(&st, "hays", "FIRE Rangers AT Grenzer").is_ok());
    let mut far = st.clone();
    place(&mut far, "Grenzer", 2.0, 16.0, 90.0, Form::Line);
    let e = refused(&far, "hays", "FIRE Rangers AT Grenzer");
    assert!(e.contains("beyond Rangers's long range of 24"), "{e}");
    let mut behind = st.clone();
    behind.unit_mut("Rangers").facing = 90.0;
    let e = refused(&behind, "hays", "FIRE Rangers AT Grenzer");
    assert!(e.contains("outside Rangers's front"), "{e}");
    let mut smoke = st.clone();
    smoke.smoke.push(Smoke {
        at: Pt::new(20.0, 16.0),
        turn: 1,
        side: "empire".into(),
    });
    let e = refused(&smoke, "hays", "FIRE Rangers AT Grenzer");
    assert!(e.contains("out of sight"), "{e}");
    let mut routing = st.clone();
    routing.unit_mut("Rangers").routing = true;
    let e = refused(&routing, "hays", "FIRE Rangers AT Grenzer");
    assert!(e.contains("routing"), "{e}");
    // If any line is wrong, nothing is applied: the good line beside it is not taken either.
    let e = refused(
        &far,
        "hays",
        "FIRE Rangers AT Grenzer\nFIRE Comanche Scouts NONE",
    );
    assert!(e.contains("long range"), "{e}");
}

#[test]
fn a_target_lost_before_the_shot_is_reported_with_its_reason_and_the_fallback_fires() {
    let mut st = patrol();
    // Off the Rangers' line of fire to the Grenzer (R51: nobody shoots through it).
    place(&mut st, "Sipahi", 18.0, 21.0, 90.0, Form::Line);
    st.unit_mut("Sipahi").mounted = false;
    to_combat(&mut st);
    let orders = LoneStar::parse(&st, "hays", "FIRE Rangers AT Grenzer").unwrap();
    // What only resolution knows: the Grenzer are gone before the small arms fire.
    let mut later = st.clone();
    later.unit_mut("Grenzer").gone = Some("destroyed".into());
    let subs: BTreeMap<String, Submitted<_>> = LoneStar::step(&later)
        .prompts
        .iter()
        .map(|p| {
            let sub = if p.seat == "hays" {
                Submitted::Orders(orders.clone())
            } else {
                Submitted::Nmr(Silence::StandingOrders)
            };
            (p.seat.clone(), sub)
        })
        .collect();
    let after = LoneStar::resolve(&later, &subs, &mut Dice::new([5; 32]));
    let hays = LoneStar::view(&after, &Viewer::Seat("hays".into())).log;
    assert!(
        hays.iter().any(|l| l.contains(
            "cannot fire at Grenzer: Grenzer is destroyed; it fires at the nearest enemy, Sipahi"
        )),
        "{hays:?}"
    );
    assert!(
        attack_line(&after, "Rangers").contains("at Sipahi"),
        "{}",
        log(&after)
    );
}

#[test]
fn orders_a_passenger_or_a_wagon_under_way_cannot_carry_out_are_refused() {
    let mut st = riding();
    card_to(&mut st, "hays");
    let e = refused(&st, "hays", "MOVE Rangers 30,10");
    assert!(e.contains("aboard Prairie Schooner"), "{e}");
    let e = refused(&st, "hays", "FORM Rangers LINE");
    assert!(e.contains("aboard Prairie Schooner"), "{e}");
    assert!(LoneStar::parse(&st, "hays", "DISEMBARK Rangers 30,10").is_ok());
    // Bowie's wagon under way: it will not be halted when the Rangers move.
    st.unit_mut(WAGON).halted = false;
    let e = refused(&st, "hays", "DISEMBARK Rangers 30,10");
    assert!(e.contains("under way"), "{e}");
}

#[test]
fn troops_aboard_a_zeppelin_are_named_as_such_and_on_the_ground_are_infantry() {
    let mut st = patrol_with(AIR);
    place(&mut st, "Rangers", 20.0, 28.0, 270.0, Form::Line);
    to_combat(&mut st);
    let e = refused(&st, "hays", "FIRE Rangers AT Zeptruppen");
    assert!(e.contains("is aboard Adler"), "{e}");
    // Out of it, rappelled or landed, they are infantry like any other (the seed).
    let mut down = st.clone();
    let z = down.unit_mut("Zeptruppen");
    z.aboard = None;
    z.pos = Pt::new(12.0, 28.0);
    assert!(LoneStar::parse(&down, "hays", "FIRE Rangers AT Zeptruppen").is_ok());
}

#[test]
fn cards_show_halted_under_way_aboard_landed_and_hovering_to_both_sides() {
    let mut st = patrol_with(AIR);
    let r = riding().unit("Rangers").unwrap().clone();
    *st.unit_mut("Rangers") = r;
    for seat in ["bowie", "hays", "von-arnim"] {
        let v = seen(&st, seat);
        let wagon = v
            .lines()
            .find(|l| l.contains("Prairie Schooner (windwagon)"))
            .unwrap_or_else(|| panic!("{seat}: {v}"));
        assert!(wagon.contains("halted"), "{seat}: {wagon}");
        let rangers = v
            .lines()
            .find(|l| l.contains("Rangers (infantry)"))
            .unwrap();
        assert!(
            rangers.contains("aboard Prairie Schooner"),
            "{seat}: {rangers}"
        );
        let adler = v.lines().find(|l| l.contains("Adler (zeppelin)")).unwrap();
        assert!(adler.contains("hovering"), "{seat}: {adler}");
        let z = v
            .lines()
            .find(|l| l.contains("Zeptruppen (infantry)"))
            .unwrap();
        assert!(z.contains("aboard Adler"), "{seat}: {z}");
    }
    // Hidden units stay hidden from the enemy (R22, R28).
    assert!(!seen(&st, "von-arnim").contains("Comanche Scouts"));
    assert!(!seen(&st, "hays").contains("Jaeger"));
    let mut moved = st.clone();
    moved.unit_mut(WAGON).halted = false;
    moved.unit_mut("Adler").machine.as_mut().unwrap().landed = true;
    let v = seen(&moved, "von-arnim");
    let wagon = v
        .lines()
        .find(|l| l.contains("Prairie Schooner ("))
        .unwrap();
    assert!(wagon.contains("under way"), "{wagon}");
    let adler = v.lines().find(|l| l.contains("Adler (")).unwrap();
    assert!(adler.contains("landed"), "{adler}");
    moved.unit_mut("Adler").machine.as_mut().unwrap().landed = false;
    moved.unit_mut("Adler").halted = false;
    let v = seen(&moved, "hays");
    assert!(
        v.lines()
            .find(|l| l.contains("Adler ("))
            .unwrap()
            .contains("flying")
    );
}

#[test]
fn target_in_column_is_for_shooting_only_like_the_firers_column() {
    use despatch::rulesets::lone_star::combat::{self, Band};
    let mut st = teaching();
    st.unit_mut("Grenzer").form = Form::Column;
    st.unit_mut("Rangers").form = Form::Column;
    let (r, g) = (
        st.unit("Rangers").unwrap().clone(),
        st.unit("Grenzer").unwrap().clone(),
    );
    let words = |band| -> Vec<String> {
        combat::modifiers(&st, &r, &g, band)
            .into_iter()
            .map(|(w, v)| format!("{w} {v:+}"))
            .collect()
    };
    let shot = words(Band::Short);
    assert!(
        shot.contains(&"target in column +7".to_string()),
        "{shot:?}"
    );
    assert!(
        shot.contains(&"firer in column -10".to_string()),
        "{shot:?}"
    );
    let melee = words(Band::Melee);
    assert!(
        !melee.iter().any(|w| w.contains("column")),
        "melee: {melee:?}"
    );
}

#[test]
fn an_out_of_ammo_flamethrower_fights_as_a_trooper_less_one() {
    use despatch::rulesets::lone_star::combat::{self, Band};
    use despatch::rulesets::lone_star::data::Heavy;
    use despatch::rulesets::lone_star::state::Fig;
    let mut st = teaching();
    st.unit_mut("Rangers").mounted = false;
    st.unit_mut("Rangers").figures = vec![Fig::Trooper, Fig::Trooper];
    let troopers = st.unit("Rangers").unwrap().clone();
    let mut empty = troopers.clone();
    empty.figures = vec![Fig::Trooper, Fig::Heavy(Heavy::Flamethrower)];
    empty.flame_shots = 0;
    let mut loaded = empty.clone();
    loaded.flame_shots = 1;
    for band in [Band::Melee, Band::Short, Band::Long] {
        assert_eq!(
            combat::strength(&st, &empty, band),
            combat::strength(&st, &troopers, band) - 1,
            "{band:?}"
        );
    }
    // With shots it is its own weapon (10 at short range against a trooper's 3).
    assert!(
        combat::strength(&st, &loaded, Band::Short) > combat::strength(&st, &troopers, Band::Short)
    );
}

#[test]
fn a_flamethrower_accident_logs_the_figure_it_costs() {
    use despatch::rulesets::lone_star::combat;
    use despatch::rulesets::lone_star::data::Heavy;
    use despatch::rulesets::lone_star::state::Fig;
    let mut seen = 0;
    for seed in 0..=255u8 {
        let mut st = teaching();
        st.unit_mut("Rangers").figures = vec![
            Fig::Trooper,
            Fig::Trooper,
            Fig::Trooper,
            Fig::Heavy(Heavy::Flamethrower),
        ];
        let mut dice = Dice::new([seed; 32]);
        combat::casualty(&mut st, "Rangers", false, &mut dice);
        let text = log(&st);
        // Saved (a trooper died instead), then the tank burst: the figure goes, and says so.
        if text.contains("a trooper dies instead") && text.contains("the tank bursts") {
            seen += 1;
            assert!(
                !st.unit("Rangers")
                    .unwrap()
                    .figures
                    .contains(&Fig::Heavy(Heavy::Flamethrower))
            );
            assert!(
                text.contains("the flamethrower figure is lost (R7)"),
                "{text}"
            );
        }
    }
    assert!(
        seen > 0,
        "no seed saved the flamethrower and burst its tank"
    );
}

#[test]
fn a_disengage_that_ends_short_says_why() {
    let mut st = patrol();
    card_to(&mut st, "hays");
    let full = step(&st, &[("hays", "DISENGAGE Rangers")], 2);
    assert!(log(&full).contains("disengages: 7\""), "{}", log(&full));
    assert!(!log(&full).contains("short of"), "{}", log(&full));
    // Backed against the table's east edge, 2" from it.
    place(&mut st, "Rangers", 46.0, 20.0, 270.0, Form::Line);
    let short = step(&st, &[("hays", "DISENGAGE Rangers")], 2);
    assert!(
        log(&short).contains("short of 7\": the table edge"),
        "{}",
        log(&short)
    );
}

#[test]
fn a_seat_that_sent_no_standing_orders_is_not_told_they_cover_it() {
    let mut st = patrol();
    to_combat(&mut st);
    let question = |st: &State| {
        LoneStar::step(st)
            .prompts
            .into_iter()
            .find(|p| p.seat == "enver")
            .expect("enver is asked")
            .question
    };
    let q = question(&st);
    assert!(!q.contains("standing orders"), "{q}");
    assert!(q.contains("nearest enemy"), "{q}");
    st.unit_mut("Sipahi").standing.target_nearest = Some(true);
    assert!(question(&st).contains("your standing orders"));
}

#[test]
fn the_order_reference_and_seat_titles_name_no_hidden_unit() {
    let readme = include_str!("../games/lone-star/README.md");
    for st in [patrol(), tidal()] {
        for u in st.units.iter().filter(|u| u.hidden) {
            assert!(!readme.contains(&u.name), "README names {}", u.name);
            for s in &st.seats {
                assert!(!s.name.contains(&u.name), "{} names {}", s.name, u.name);
            }
        }
    }
    // The positive control: the tidal game does hide a unit a side.
    let t = tidal();
    assert!(t.units.iter().filter(|u| u.hidden).count() >= 2);
}

#[test]
fn r48_a_unit_ordered_hold_still_tests_morale_and_may_rout() {
    use despatch::rulesets::lone_star::state::Fig;
    let (mut routs, mut passes) = (0, 0);
    for seed in 0..=60u8 {
        let mut st = patrol();
        card_to(&mut st, "hays");
        // Two troopers: target 2 + Esprit 1 = 3; a roll of 6 or more routs (R2).
        st.unit_mut("Rangers").figures = vec![Fig::Trooper, Fig::Trooper];
        let after = step(&st, &[("hays", "HOLD Rangers")], seed);
        let text = log(&after);
        assert!(text.contains("Rangers tests morale"), "{text}");
        let r = after.unit("Rangers").unwrap();
        if text.contains("Rangers tests morale") && text.contains("ROUTS") {
            routs += 1;
            assert!(r.routing || r.gone.is_some(), "{text}");
        } else {
            passes += 1;
            assert!(!r.routing, "{text}");
            assert_eq!(r.pos, Pt::new(30.0, 16.0), "HOLD stays put: {text}");
        }
    }
    assert!(routs > 0 && passes > 0, "routs {routs}, others {passes}");
    // The threshold: six figures or fewer test; seven do not (L5).
    for (n, tests) in [(6, true), (7, false)] {
        let mut st = patrol();
        card_to(&mut st, "hays");
        st.unit_mut("Rangers").figures = vec![Fig::Trooper; n];
        let after = step(&st, &[("hays", "HOLD Rangers")], 1);
        assert_eq!(log(&after).contains("Rangers tests morale"), tests, "{n}");
    }
}

#[test]
fn r49_a_side_whose_last_unit_routs_loses_at_once() {
    use despatch::rulesets::lone_star::turn;
    let mut st = patrol();
    for u in st.units.iter_mut() {
        if u.side == "empire" && u.name != "Grenzer" {
            u.routing = true;
        }
    }
    assert!(turn::judge(&st).is_none(), "the Grenzer still stand");
    st.unit_mut("Grenzer").routing = true;
    let o = turn::judge(&st).expect("over at once");
    assert_eq!(o.winners, vec!["alliance".to_string()]);
    assert!(st.turn <= st.turns, "before the turn limit");
}

#[test]
fn r6_the_colors_of_a_two_figure_unit_are_saved_in_melee() {
    use despatch::rulesets::lone_star::combat;
    use despatch::rulesets::lone_star::state::Fig;
    let (mut saved, mut lost_both) = (0, 0);
    for seed in 0..=255u8 {
        let mut st = teaching();
        st.unit_mut("Rangers").figures = vec![Fig::Colors, Fig::Trooper];
        let mut dice = Dice::new([seed; 32]);
        let lost = combat::casualty(&mut st, "Rangers", true, &mut dice);
        if dice.table()[0].results[0] != 1 {
            continue;
        }
        // The die picked the Colors: a trooper falls in their place whatever the save.
        assert_eq!(lost[0], Fig::Trooper, "{}", log(&st));
        let first_save = dice.table()[1].results[0];
        if first_save == 2 {
            saved += 1;
            assert_eq!(lost, vec![Fig::Trooper]);
            assert_eq!(st.unit("Rangers").unwrap().figures, vec![Fig::Colors]);
        } else {
            lost_both += 1;
            assert_eq!(lost, vec![Fig::Trooper, Fig::Colors], "{}", log(&st));
        }
    }
    assert!(
        saved > 0 && lost_both > 0,
        "saved {saved}, lost {lost_both}"
    );
    // Below the threshold: the Colors alone cannot be saved; they fall to the first pick.
    let mut st = teaching();
    st.unit_mut("Rangers").figures = vec![Fig::Colors];
    let lost = combat::casualty(&mut st, "Rangers", true, &mut Dice::new([1; 32]));
    assert_eq!(lost, vec![Fig::Colors]);
    // At range, a two-figure unit's Colors are saved outright by the trooper.
    let mut st = teaching();
    st.unit_mut("Rangers").figures = vec![Fig::Colors, Fig::Trooper];
    for seed in 0..=40u8 {
        let mut s = st.clone();
        let mut dice = Dice::new([seed; 32]);
        let lost = combat::casualty(&mut s, "Rangers", false, &mut dice);
        if dice.table()[0].results[0] == 1 {
            assert_eq!(lost, vec![Fig::Trooper], "{}", log(&s));
        }
    }
}
