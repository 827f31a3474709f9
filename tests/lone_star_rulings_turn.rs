//! Lone Star's rulings on the turn and on what each seat sees, as golden tests: the cards
//! (R1), who gives way (R13, R20), silence in melee (R19), victory (R21), unit cards (R22),
//! bad orders and unit name prefixes, the map, and a state's snapshot.

use crate::lone_star_common;

use lone_star_common::*;

use despatch::board::tabletop::Pt;
use despatch::engine::{Ruleset, Viewer};
use despatch::rulesets::lone_star::LoneStar;
use despatch::rulesets::lone_star::state::{Form, Phase, Smoke, State};
use despatch::rulesets::lone_star::turn;

#[test]
fn r1_cards_are_drawn_once_per_game_with_the_dice() {
    let st = step(&teaching(), &[], 7);
    assert_eq!(st.cards.len(), 2);
    assert!(log(&st).contains("Turn-order cards"));
    let cards = st.cards.clone();
    let mut s = st;
    for _ in 0..12 {
        if s.turn > 2 {
            break;
        }
        s = step(&s, &[], 9);
    }
    assert_eq!(s.cards, cards, "the same cards in turn 2");
}

#[test]
fn r13_the_charged_unit_gives_way_on_a_tie() {
    let st = teaching();
    let mut a = st.unit("Rangers").unwrap().clone();
    let mut b = st.unit("Grenzer").unwrap().clone();
    a.figures.truncate(6);
    b.figures.truncate(6);
    a.charged = true;
    assert_eq!(turn::who_retreats(&a, &b), "Grenzer");
}

#[test]
fn r19_silence_in_melee_stays() {
    let mut st = teaching();
    melee_set(&mut st);
    st.phase = Phase::MeleeEnd;
    let st2 = step(&st, &[], 1);
    assert!(log(&st2).contains("stay locked in melee"), "{}", log(&st2));
}

#[test]
fn r20_a_routing_unit_retreats_first() {
    let st = teaching();
    let mut a = st.unit("Rangers").unwrap().clone();
    let b = st.unit("Grenzer").unwrap().clone();
    a.routing = true;
    assert_eq!(turn::who_retreats(&a, &b), "Rangers");
    a.routing = false;
    // DT-4 criterion 2: 8 stands against 4.
    let mut small = b.clone();
    small.figures.truncate(4);
    assert_eq!(turn::who_retreats(&a, &small), "Grenzer");
}

#[test]
fn r21_objectives_held_at_the_turn_limit_win() {
    let mut st = teaching();
    st.turn = 7;
    place(&mut st, "Grenzer", 18.5, 10.0, 0.0, Form::Line);
    let o = turn::judge(&st).unwrap();
    assert_eq!(o.winners, vec!["prussia".to_string()], "{}", o.summary);
    place(&mut st, "Rangers", 18.5, 5.0, 0.0, Form::Line);
    assert!(
        turn::judge(&st).unwrap().winners.is_empty(),
        "both there: a draw"
    );
}

#[test]
fn r22_the_enemy_sees_the_table_not_the_card() {
    let mut st = patrol();
    st.unit_mut("Rangers").standing.target_nearest = Some(true);
    let text = |seat: &str| {
        let v = LoneStar::view(&st, &Viewer::Seat(seat.into()));
        format!("{:?}", v.sections)
    };
    assert!(
        text("hays").contains("Rangers (infantry): 9 figures") && text("hays").contains("L2 Z1 E1")
    );
    assert!(text("hays").contains("STANDING Rangers TARGET NEAREST"));
    // The side-mate sees the card, not the standing orders nor the hidden scouts.
    assert!(text("bowie").contains("L2 Z1 E1"));
    assert!(!text("bowie").contains("STANDING Rangers"));
    assert!(!text("bowie").contains("Comanche"));
    // The enemy sees figures and hits only.
    let e = text("enver");
    assert!(
        e.contains("Rangers (infantry): 9 figures, hits 0/36"),
        "{e}"
    );
    assert!(!e.contains("L2 Z1 E1") && !e.contains("smoke 2") && !e.contains("Comanche"));
}

#[test]
fn bad_orders_are_every_line_reported_with_hints() {
    let mut st = teaching();
    card_to(&mut st, "hays");
    let e = LoneStar::parse(&st, "hays", "MOVE Rangrs 5 ON 90\nFIRE Rangers AT Grenzer\nCHARGE Grenzer Rangers\nMOVE Rangers 99,99\n").unwrap_err();
    assert_eq!(
        e.iter().map(|r| r.line).collect::<Vec<_>>(),
        vec![1, 2, 3, 4]
    );
    assert!(
        e[0].hint.as_deref().unwrap_or("").contains("Rangers"),
        "{e:?}"
    );
    assert!(e[1].reason.contains("not an order of the movement step"));
    assert!(
        e[2].reason.contains("not one of your units") || e[2].reason.contains("called"),
        "{e:?}"
    );
    assert!(e[3].reason.contains("off the table"));
}

#[test]
fn orders_name_units_by_prefix_in_any_case() {
    let mut st = patrol();
    card_to(&mut st, "hays");
    let o = LoneStar::parse(&st, "hays", "move comanche 5 on 90\nform RANG column").unwrap();
    assert_eq!(
        LoneStar::canonical(&o),
        "MOVE Comanche Scouts 5 ON 90\nFORM Rangers COLUMN\n"
    );
}

#[test]
fn the_map_shows_bases_terrain_and_only_ones_own_hidden_units() {
    let mut st = tidal();
    st.smoke.push(Smoke {
        at: Pt::new(44.0, 30.0),
        turn: 1,
        side: "alliance".into(),
    });
    let scene = LoneStar::view(&st, &Viewer::Seat("hays".into()))
        .map
        .unwrap();
    let labels: Vec<&str> = scene.units.iter().map(|u| u.label.as_str()).collect();
    assert!(
        labels.contains(&"Comanche Scouts"),
        "Hays sees his own hidden scouts"
    );
    assert!(!labels.contains(&"Jaeger"), "but not the enemy's");
    let styles: Vec<&str> = scene.terrain.iter().map(|t| t.style.as_str()).collect();
    for s in ["woods", "river", "ford", "farm", "wall", "hill", "road"] {
        assert!(styles.contains(&s), "{s}");
    }
    assert!(
        scene
            .zones
            .iter()
            .any(|z| z.kind == despatch::engine::scene::ZoneKind::Smoke)
    );
    let other = LoneStar::view(&st, &Viewer::Seat("travis".into()))
        .map
        .unwrap();
    assert!(
        !other.units.iter().any(|u| u.label == "Comanche Scouts"),
        "not even the side-mate"
    );
    let png = despatch::render::png(&scene, 900).unwrap();
    assert!(png.len() > 1000);
    if let Ok(dir) = std::env::var("LONE_STAR_PNG") {
        std::fs::write(format!("{dir}/tidal-hays.png"), png).unwrap();
    }
}

#[test]
fn a_state_survives_its_snapshot() {
    // "No extra move" and "ask me" must stay apart through JSON (a snapshot, a journal replay).
    let mut st = patrol();
    st.unit_mut("Rangers").extra_plan = Some(None);
    st.unit_mut("Rangers").standing.extra = Some(None);
    st.unit_mut("Grenzer").standing.advance = Some(Some(Pt::new(20.0, 16.0)));
    let back: State = serde_json::from_value(serde_json::to_value(&st).unwrap()).unwrap();
    assert_eq!(back, st);
}
