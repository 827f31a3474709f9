//! Windwagon passengers and artillery against windwagons (seed L12, L17–L18) as golden tests
//! of rulings R35–R39: orders in the players' own syntax, dice from fixed seeds.

use crate::lone_star_common;

use despatch::board::tabletop::{Pt, dist};
use despatch::engine::Ruleset;
use despatch::rulesets::lone_star::LoneStar;
use despatch::rulesets::lone_star::combat::{self, Band};
use despatch::rulesets::lone_star::state::{Form, Phase, State};
use lone_star_common::*;

const WAGON: &str = "Prairie Schooner";

/// The Rangers riding in the Prairie Schooner (a standing wagon at 40,4 facing north).
pub(crate) fn riding() -> State {
    let mut st = patrol();
    let w = st.unit(WAGON).unwrap().clone();
    let r = st.unit_mut("Rangers");
    r.aboard = Some(WAGON.into());
    r.pos = w.pos;
    r.facing = w.facing;
    r.form = Form::Column;
    st
}

#[test]
fn r35_a_unit_boards_a_halted_windwagon_and_rides_it() {
    let mut st = patrol();
    place(&mut st, "Rangers", 40.0, 9.0, 180.0, Form::Column);
    card_to(&mut st, "hays");
    let far = {
        let mut f = st.clone();
        place(&mut f, "Rangers", 30.0, 20.0, 180.0, Form::Column);
        refused(&f, "hays", "EMBARK Rangers Prairie Schooner")
    };
    assert!(far.contains("boards within half its move"), "{far}");
    let st = step(&st, &[("hays", "embark rangers prairie")], 1);
    let r = st.unit("Rangers").unwrap();
    assert_eq!(r.aboard.as_deref(), Some(WAGON), "{}", log(&st));
    assert_eq!(r.pos, st.unit(WAGON).unwrap().pos);
    // The wagon sails on its owner's card; the Rangers ride with it.
    let mut st2 = st.clone();
    card_to(&mut st2, "bowie");
    let st2 = step(&st2, &[("bowie", "SAIL Prairie Schooner 0")], 2);
    let w = st2.unit(WAGON).unwrap();
    assert!(w.pos.y > 4.5, "{}", log(&st2));
    assert_eq!(st2.unit("Rangers").unwrap().pos, w.pos);
}

#[test]
fn r35_figures_in_a_windwagon_may_not_shoot() {
    let mut st = riding();
    place(&mut st, "Grenzer", 40.0, 14.0, 180.0, Form::Line);
    to_combat(&mut st);
    let e = refused(&st, "hays", "FIRE Rangers AT Grenzer");
    assert!(e.contains("may not shoot"), "{e}");
    let after = step(&st, &[], 3);
    assert!(!log(&after).contains("Rangers fires at"), "{}", log(&after));
    // Positive control: the same Rangers out of the wagon do fire.
    let mut out = st.clone();
    out.unit_mut("Rangers").aboard = None;
    place(&mut out, "Rangers", 44.0, 4.0, 0.0, Form::Line);
    let after = step(&out, &[], 3);
    assert!(
        log(&after).contains("Rangers fires at Grenzer"),
        "{}",
        log(&after)
    );
}

#[test]
fn r36_out_of_a_standing_wagon_half_a_move_then_half_a_move() {
    let mut st = riding();
    place(&mut st, WAGON, 44.0, 12.0, 0.0, Form::Column);
    place(&mut st, "Rangers", 44.0, 12.0, 0.0, Form::Column);
    card_to(&mut st, "hays");
    let st = step(&st, &[("hays", "DISEMBARK Rangers 44,0")], 4);
    let r = st.unit("Rangers").unwrap();
    assert!(r.aboard.is_none(), "{}", log(&st));
    let l = log(&st);
    assert!(
        l.contains("gets out of Prairie Schooner and moves 4\""),
        "{l}"
    );
    // Out over the tail, clear of the wagon's four rows and its own five (44,7), then half
    // the column move (8 / 2) on south.
    assert!(
        (r.pos.x - 44.0).abs() < 1e-6 && (r.pos.y - 3.0).abs() < 1e-6,
        "{:?}",
        r.pos
    );
}

#[test]
fn r36_a_wagon_that_moves_its_third_and_halts_sets_troops_down_with_no_move() {
    let mut st = riding();
    {
        let w = st.unit_mut(WAGON);
        w.halted = false;
        w.last_third = false;
    }
    st.cards = ["bowie", "hays", "von-arnim", "enver"]
        .map(String::from)
        .to_vec();
    st.phase = Phase::Move { card: 0 };
    // The wagon's card first: STOP moves a third of its move, then halts.
    let st = step(&st, &[("bowie", "STOP Prairie Schooner")], 5);
    let w = st.unit(WAGON).unwrap().clone();
    assert!(w.halted && w.moved_turn == st.turn, "{}", log(&st));
    let third = dist(w.pos, Pt::new(40.0, 4.0));
    assert!(
        third > 0.0 && third <= 6.0 + 1e-9,
        "a third of 18\": {}",
        log(&st)
    );
    assert_eq!(st.phase, Phase::Move { card: 1 });
    let st = step(&st, &[("hays", "DISEMBARK Rangers 30,10")], 6);
    let r = st.unit("Rangers").unwrap();
    assert!(r.aboard.is_none());
    assert!(log(&st).contains("no move after"), "{}", log(&st));
    assert!(
        (dist(r.pos, w.pos) - 5.0).abs() < 1e-6,
        "out at the tail only: {:?}",
        r.pos
    );
}

#[test]
fn r37_standard_wagons_halt_12_inches_off_ramp_types_6() {
    let mut st = riding();
    {
        // Under way after a third (a halted wagon refuses STOP: it is halted already).
        let w = st.unit_mut(WAGON);
        w.last_third = true;
        w.halted = false;
    }
    // Grenzer's nearest stand 7" from the wagon's.
    place(&mut st, "Grenzer", 40.0, 16.0, 180.0, Form::Column);
    st.cards = ["bowie", "hays", "von-arnim", "enver"]
        .map(String::from)
        .to_vec();
    st.phase = Phase::Move { card: 0 };
    let standard = step(&st, &[("bowie", "STOP Prairie Schooner")], 7);
    assert!(!standard.unit(WAGON).unwrap().halted, "{}", log(&standard));
    assert!(
        log(&standard).contains("may not halt"),
        "{}",
        log(&standard)
    );
    // Bowie's wagon has moved and is not halted: the line is refused when the mail is read.
    let e = refused(&standard, "hays", "DISEMBARK Rangers");
    assert!(e.contains("not halted"), "{e}");
    st.unit_mut(WAGON).ramp = true;
    let ramp = step(&st, &[("bowie", "STOP Prairie Schooner")], 7);
    assert!(ramp.unit(WAGON).unwrap().halted, "{}", log(&ramp));
    let out = step(&ramp, &[("hays", "DISEMBARK Rangers")], 7);
    assert!(
        out.unit("Rangers").unwrap().aboard.is_none(),
        "{}",
        log(&out)
    );
}

#[test]
fn r37_windwagons_stop_at_the_edge_of_hills_and_woods() {
    let mut saw = false;
    for seed in 0..40u8 {
        let mut st = patrol();
        place(&mut st, WAGON, 12.0, 14.0, 180.0, Form::Column);
        card_to(&mut st, "bowie");
        let st = step(&st, &[("bowie", "SAIL Prairie Schooner 180")], seed);
        let w = st.unit(WAGON).unwrap();
        assert!(!st.in_area("hill", w.pos), "{}", log(&st));
        if (w.pos.x - 12.0).abs() < 1e-6 {
            // Straight south (no veer): it stops at Bald Knob's edge, y = 8.
            assert!(w.pos.y >= 8.0 && w.pos.y < 8.3, "{}", log(&st));
            saw = true;
        }
    }
    assert!(saw);
}

#[test]
fn r38_cover_inside_a_wagon_and_the_ramp_types_front_plate() {
    let mut st = riding();
    place(&mut st, "Grenzer", 30.0, 4.0, 90.0, Form::Line);
    let g = st.unit("Grenzer").unwrap().clone();
    let r = st.unit("Rangers").unwrap().clone();
    let m = combat::modifiers(&st, &g, &r, Band::Short);
    assert!(m.contains(&("cover (in a windwagon)".into(), -5)), "{m:?}");
    st.unit_mut(WAGON).ramp = true;
    let m = combat::modifiers(&st, &g, &r, Band::Short);
    assert!(
        m.contains(&("cover (in a windwagon)".into(), -5)),
        "from the side: {m:?}"
    );
    place(&mut st, "Grenzer", 42.0, 14.0, 180.0, Form::Line);
    let g = st.unit("Grenzer").unwrap().clone();
    let m = combat::modifiers(&st, &g, &r, Band::Short);
    assert!(
        m.contains(&("double cover (ramp-type's front plate)".into(), -10)),
        "within 45° of the front: {m:?}"
    );
}

#[test]
fn r38_a_wagon_is_linear_cover_outside_and_meleed_only_when_halted() {
    let mut st = patrol();
    place(&mut st, "Rangers", 41.8, 4.0, 0.0, Form::Column);
    place(&mut st, "Grenzer", 30.0, 4.0, 90.0, Form::Line);
    let g = st.unit("Grenzer").unwrap().clone();
    let r = st.unit("Rangers").unwrap().clone();
    let behind = combat::modifiers(&st, &g, &r, Band::Short);
    assert!(behind.contains(&("cover".into(), -5)), "{behind:?}");
    let mut open = st.clone();
    place(&mut open, WAGON, 40.0, 30.0, 0.0, Form::Column);
    let m = combat::modifiers(&open, &g, &r, Band::Short);
    assert!(!m.iter().any(|x| x.0 == "cover"), "control: {m:?}");
    // Melee with a wagon: no modifier either way, though the wagon stands in column.
    let w = st.unit(WAGON).unwrap().clone();
    assert!(combat::modifiers(&st, &g, &w, Band::Melee).is_empty());
    assert!(combat::modifiers(&st, &w, &g, Band::Melee).is_empty());
    // Control: an ordinary melee has its modifiers (the Rangers taken in the flank; the
    // column's +7 is for shooting only).
    let mut flanked = r.clone();
    flanked.facing = 90.0;
    assert!(!combat::modifiers(&st, &g, &flanked, Band::Melee).is_empty());
    card_to(&mut st, "von-arnim");
    assert!(LoneStar::parse(&st, "von-arnim", "CHARGE Grenzer Prairie Schooner").is_ok());
    st.unit_mut(WAGON).halted = false;
    let e = refused(&st, "von-arnim", "CHARGE Grenzer Prairie Schooner");
    assert!(e.contains("under way"), "{e}");
}

/// The battery's shell lands exactly on `aim` (a crew good enough to cancel any drift).
fn shell(st: &State, aim: &str, seed: u8) -> State {
    let mut st = st.clone();
    st.unit_mut("Alamo Battery").gun.as_mut().unwrap().drift_drm = 10;
    to_combat(&mut st);
    let fire = format!("FIRE Alamo Battery AT {aim}");
    // Every other seat holds its fire, so only the shell touches the wagon.
    let quiet = [
        ("bowie", fire.as_str()),
        ("hays", "FIRE Comanche Scouts NONE"),
        ("von-arnim", "FIRE Grenzer NONE"),
        ("enver", "FIRE Sipahi NONE"),
    ];
    step(&st, &quiet, seed)
}

fn at_18_26() -> State {
    let mut st = riding();
    place(&mut st, WAGON, 18.0, 26.0, 0.0, Form::Column);
    place(&mut st, "Rangers", 18.0, 26.0, 0.0, Form::Column);
    st
}

#[test]
fn r39_a_shell_beside_the_wagon_hits_only_its_passengers() {
    let st = shell(&at_18_26(), "19.5,26", 8);
    let l = log(&st);
    assert!(l.contains("blast catches Rangers"), "{l}");
    assert!(l.contains("(cover: one die fewer)"), "{l}");
    assert!(!l.contains("direct hit"), "{l}");
    assert_eq!(st.unit(WAGON).unwrap().hits, 0);
    assert_eq!(
        dice_on(&st, "Rangers"),
        2,
        "3 dice, one fewer in the wagon's cover"
    );
}

/// How many dice a blast rolled on `unit` (the log shows its pips).
fn dice_on(st: &State, unit: &str) -> usize {
    let l = log(st);
    let pips = l
        .split(&format!("blast catches {unit}: ["))
        .nth(1)
        .and_then(|s| s.split(']').next())
        .unwrap_or_else(|| panic!("no blast on {unit}: {l}"));
    pips.split(',').count()
}

#[test]
fn r39_a_direct_hit_on_the_body_rolls_the_table() {
    let (mut stands, mut destroyed) = (false, false);
    for seed in 0..60u8 {
        let st = shell(&at_18_26(), "18,26", seed);
        let l = log(&st);
        assert!(
            l.contains("direct hit on Prairie Schooner's body: table"),
            "{l}"
        );
        let row: u32 = l
            .split("body: table ")
            .nth(1)
            .and_then(|s| s.split(':').next())
            .and_then(|s| s.parse().ok())
            .unwrap();
        let w = st.unit(WAGON).unwrap();
        if row >= 4 {
            assert!(w.gone.is_some(), "{l}");
            assert!(
                st.unit("Rangers").unwrap().aboard.is_none(),
                "set down: {l}"
            );
            destroyed = true;
        } else {
            assert!(w.gone.is_none(), "{l}");
            stands = true;
        }
    }
    assert!(stands && destroyed);
    let s = despatch::rulesets::kit::data::stand_ins(RULESET).unwrap();
    assert!(s.iter().any(|x| x.key == "rules.wagon_hit_1_casualty_on"));
}

#[test]
fn r39_artillery_rolls_one_die_fewer_against_cavalry() {
    let st = patrol();
    let mounted = shell(&st, "4,26", 9);
    assert_eq!(dice_on(&mounted, "Sipahi"), 2);
    let mut on_foot = st.clone();
    on_foot.unit_mut("Sipahi").mounted = false;
    let on_foot = shell(&on_foot, "4,26", 9);
    assert_eq!(dice_on(&on_foot, "Sipahi"), 3);
}
