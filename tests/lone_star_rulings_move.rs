//! Lone Star's rulings on movement as golden tests, orders in the players' own syntax: a seat's
//! one movement mail (R4), routs (R8), fords (R9), hidden units revealed on the mover's path
//! (R10, R28), no unit on another (R11), disengage (R12), charges (R14) and cavalry on roads
//! (R24). The windwagon's wind (R15) is §8's EX-6, in `lone_star_examples.rs`.

use crate::lone_star_common;

use lone_star_common::*;

use despatch::board::tabletop::{Pt, dist};
use despatch::engine::{Ruleset, Viewer};
use despatch::rulesets::lone_star::LoneStar;
use despatch::rulesets::lone_star::movement;
use despatch::rulesets::lone_star::state::{Form, Phase};

#[test]
fn r4_a_seat_moves_all_its_units_in_one_mail_on_its_card() {
    let mut st = patrol();
    card_to(&mut st, "hays");
    let before = st.unit("Comanche Scouts").unwrap().pos;
    let st2 = step(
        &st,
        &[("hays", "MOVE Rangers 2 ON 0\nMOVE comanche 2 ON 180")],
        3,
    );
    assert!(st2.unit("Rangers").unwrap().pos.y > 16.5, "{}", log(&st2));
    assert!(
        st2.unit("Comanche Scouts").unwrap().pos.y < before.y,
        "{}",
        log(&st2)
    );
    assert!(matches!(st2.phase, Phase::Move { .. } | Phase::Combat));
}

#[test]
fn r8_a_rout_runs_straight_away_from_the_nearest_enemy() {
    let mut st = teaching();
    let e = st.unit("Grenzer").unwrap().pos;
    let before = dist(st.unit("Rangers").unwrap().pos, e);
    movement::flee(&mut st, "Rangers", "routs");
    let after = dist(st.unit("Rangers").unwrap().pos, e);
    assert!(after > before + 5.0, "{before} -> {after}: {}", log(&st));
    // Near the edge it runs off the table.
    place(&mut st, "Rangers", 1.0, 12.0, 90.0, Form::Line);
    movement::flee(&mut st, "Rangers", "routs");
    assert_eq!(
        st.unit("Rangers").unwrap().gone.as_deref(),
        Some("routed off the table")
    );
}

#[test]
fn r9_rivers_are_crossed_at_fords_with_a_stop_in_the_water() {
    let mut st = patrol();
    card_to(&mut st, "von-arnim");
    place(&mut st, "Comanche Scouts", 46.0, 30.0, 270.0, Form::Line);
    place(&mut st, "Grenzer", 18.0, 24.0, 90.0, Form::Column);
    let st2 = step(&st, &[("von-arnim", "MOVE Grenzer 7 ON 90")], 1);
    assert!(log(&st2).contains("has no ford"), "{}", log(&st2));
    place(&mut st, "Grenzer", 18.0, 16.0, 90.0, Form::Column);
    let st3 = step(&st, &[("von-arnim", "MOVE Grenzer 7 ON 90")], 1);
    let g = st3.unit("Grenzer").unwrap();
    assert_eq!(g.river, 1, "{}", log(&st3));
    assert!(g.pos.x < 23.0);
}

#[test]
fn r10_a_hidden_unit_is_revealed_where_the_mover_comes_in_range() {
    let mut st = patrol();
    card_to(&mut st, "hays");
    place(&mut st, "Rangers", 36.0, 3.0, 270.0, Form::Column);
    // Jaeger hide at 16,6 in the open: spotted at 12" edge to edge.
    let st2 = step(&st, &[("hays", "MOVE Rangers 8 ON 270")], 1);
    let j = st2.unit("Jaeger").unwrap();
    assert!(!j.hidden, "{}", log(&st2));
    let l = log(&st2);
    let line = l
        .lines()
        .find(|x| x.starts_with("Jaeger is revealed at 16,6 as Rangers comes within "))
        .expect(&l);
    let gap: f64 = line
        .split("within ")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        gap <= 12.0 && gap > 11.7,
        "revealed at the exact point: {line}"
    );
    let r = st2.unit("Rangers").unwrap();
    assert!(
        r.pos.x > 29.0 && r.pos.x < 36.0,
        "the mover halts where it sighted them: {:?}",
        r.pos
    );
}

#[test]
fn r11_no_unit_ends_on_another() {
    let mut st = patrol();
    card_to(&mut st, "hays");
    place(&mut st, "Comanche Scouts", 30.0, 12.0, 90.0, Form::Line);
    st.unit_mut("Comanche Scouts").hidden = false;
    let st2 = step(&st, &[("hays", "MOVE Rangers 30,12")], 1);
    let a = st2.unit("Rangers").unwrap();
    let b = st2.unit("Comanche Scouts").unwrap();
    let near = st2
        .stands(a)
        .iter()
        .flat_map(|p| st2.stands(b).into_iter().map(move |q| dist(*p, q)))
        .fold(f64::INFINITY, f64::min);
    assert!(near >= 0.99, "{near}");
}

#[test]
fn r12_disengage_is_seven_inches_once_a_game() {
    let mut st = teaching();
    place(&mut st, "Grenzer", 13.0, 12.0, 270.0, Form::Column);
    st.unit_mut("Rangers").melee = vec!["Grenzer".into()];
    st.unit_mut("Grenzer").melee = vec!["Rangers".into()];
    card_to(&mut st, "hays");
    let st2 = step(&st, &[("hays", "DISENGAGE Rangers")], 1);
    let r = st2.unit("Rangers").unwrap();
    assert!(!r.disengage && r.melee.is_empty());
    assert!(
        (dist(r.pos, Pt::new(10.0, 12.0)) - 7.0).abs() < 0.3,
        "{:?} {}",
        r.pos,
        log(&st2)
    );
    let mut st3 = st2.clone();
    card_to(&mut st3, "hays");
    assert!(LoneStar::parse(&st3, "hays", "DISENGAGE Rangers").is_err());
}

#[test]
fn r14_a_charge_within_two_inches_is_melee() {
    let mut st = teaching();
    place(&mut st, "Grenzer", 17.0, 12.0, 270.0, Form::Column);
    card_to(&mut st, "hays");
    let st2 = step(&st, &[("hays", "CHARGE Rangers Grenzer")], 4);
    if log(&st2).contains("may not move") || log(&st2).contains("ROUTS") {
        return;
    }
    assert_eq!(
        st2.unit("Rangers").unwrap().melee,
        vec!["Grenzer".to_string()],
        "{}",
        log(&st2)
    );
    assert!(st2.unit("Grenzer").unwrap().melee_new);
}

#[test]
fn r24_cavalry_on_a_road_gains_a_quarter() {
    let mut st = patrol();
    place(&mut st, "Grenzer", 10.0, 30.0, 90.0, Form::Column);
    place(&mut st, "Sipahi", 2.0, 16.0, 90.0, Form::Column);
    let w = movement::walk(
        &mut st,
        "Sipahi",
        &[Pt::new(20.0, 16.0)],
        12.0,
        false,
        None,
        None,
    );
    assert!((w.moved - 15.0).abs() < 0.3, "{w:?}");
}

#[test]
fn r28_a_still_hidden_unit_stays_hidden_and_unseen() {
    let mut st = patrol();
    card_to(&mut st, "von-arnim");
    let st2 = step(&st, &[("von-arnim", "MOVE Grenzer 2 ON 90")], 1);
    assert!(st2.unit("Jaeger").unwrap().hidden);
    let v = LoneStar::view(&st2, &Viewer::Seat("hays".into()));
    assert!(!format!("{v:?}").contains("Jaeger"));
    let own = LoneStar::view(&st2, &Viewer::Seat("von-arnim".into()));
    assert!(format!("{:?}", own.sections).contains("HIDDEN at 16,6"));
}

#[test]
fn r28_standing_orders_or_hold_leave_a_hidden_unit_hidden() {
    // The play-through's Brazos Crossing, turn 1: a mail moving the Rangers and giving the
    // hidden scouts a standing ambush made them "leave hiding" whenever their morale passed.
    let mut revealed = false;
    for seed in 0..12u8 {
        let mut st = patrol();
        card_to(&mut st, "hays");
        let st2 = step(
            &st,
            &[(
                "hays",
                "MOVE Rangers 2 ON 270\nSTANDING Comanche Scouts AMBUSH 10\nHOLD Comanche Scouts\nEXTRA Comanche Scouts NONE",
            )],
            seed,
        );
        assert!(st2.unit("Comanche Scouts").unwrap().hidden, "{}", log(&st2));
        assert!(!log(&st2).contains("Comanche Scouts"), "{}", log(&st2));
        // Positive control: a move does reveal them, when their morale lets them move.
        let st3 = step(&st, &[("hays", "MOVE Comanche Scouts 2 ON 180")], seed);
        if !st3.unit("Comanche Scouts").unwrap().hidden {
            assert!(
                log(&st3).contains("Comanche Scouts leaves hiding"),
                "{}",
                log(&st3)
            );
            revealed = true;
        }
    }
    assert!(revealed, "no seed let the scouts move");
}

#[test]
fn a_mail_of_standing_orders_alone_lets_the_standing_advance_move_the_unit() {
    let mut st = patrol();
    card_to(&mut st, "hays");
    let st2 = step(&st, &[("hays", "STANDING Rangers ADVANCE 24,16")], 3);
    assert!(st2.unit("Rangers").unwrap().pos.x < 29.0, "{}", log(&st2));
    // HOLD keeps it where it is, standing advance or not.
    let st3 = step(
        &st,
        &[("hays", "STANDING Rangers ADVANCE 24,16\nHOLD Rangers")],
        3,
    );
    assert_eq!(st3.unit("Rangers").unwrap().pos, Pt::new(30.0, 16.0));
}
