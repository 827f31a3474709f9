//! Two gaps of issue 11 closed, as golden tests in the players' order syntax: prisoners marched
//! off the table by their guards (R40) and a sidestep judged on every leg of a path (R46).

use crate::lone_star_common;

use despatch::engine::Ruleset;
use despatch::rulesets::lone_star::LoneStar;
use despatch::rulesets::lone_star::escort;
use despatch::rulesets::lone_star::state::{Fig, Form, Phase, State};
use despatch::rulesets::lone_star::turn;
use lone_star_common::*;

fn teaching() -> State {
    LoneStar::setup(
        RULESET,
        include_str!("../games/lone-star/scenarios/teaching.toml"),
        &["hays".to_string(), "von-arnim".to_string()],
    )
    .unwrap()
}

/// Rangers (nine figures, facing east at 18,12) in melee with a worn Grenzer.
fn melee() -> State {
    let mut st = teaching();
    place(&mut st, "Rangers", 18.0, 12.0, 90.0, Form::Line);
    place(&mut st, "Grenzer", 20.0, 12.0, 270.0, Form::Line);
    st.unit_mut("Rangers").melee = vec!["Grenzer".into()];
    st.unit_mut("Grenzer").melee = vec!["Rangers".into()];
    {
        let r = st.unit_mut("Rangers");
        r.figures.retain(|f| *f != Fig::Grenadier);
        r.figures.extend([Fig::Trooper; 5]);
        r.start_figures = r.figures.len() as u32;
    }
    st.unit_mut("Grenzer").hits = 14;
    st.cards = vec!["hays".into(), "von-arnim".into()];
    st.phase = Phase::Combat;
    st
}

#[test]
fn r40_guards_march_their_prisoners_to_the_rear_and_off_the_table() {
    for seed in 0..=255u8 {
        let st = melee();
        let mut st = step(&st, &[("hays", "PRISONERS Rangers")], seed);
        let taken = st.unit("Rangers").unwrap().prisoners;
        if taken == 0 {
            continue;
        }
        // The prisoners' step comes after the end of the melee (silence stays).
        if st.phase == Phase::MeleeEnd {
            st = step(&st, &[], seed);
        }
        let name = escort::escort_name("Rangers");
        let e = st
            .unit(&name)
            .unwrap_or_else(|| panic!("{}", log(&st)))
            .clone();
        assert_eq!(e.escorting, taken);
        assert_eq!(e.figures.len() as u32, st.unit("Rangers").unwrap().guards);
        // 4" to the rear at once, then a march at the foot rate (7") in the prisoners' step.
        assert!(
            (e.pos.x - (18.0 - 4.0 - 7.0)).abs() < 1e-6,
            "{:?} {}",
            e.pos,
            log(&st)
        );
        assert!(log(&st).contains(&format!(
            "{name} marches {taken} prisoner(s) 7\" to the rear"
        )));
        // Out of the battle: no target, and no order may name it.
        let g = st.unit("Grenzer").unwrap().clone();
        if g.alive() {
            assert!(!turn::may_shoot(&st, &g, &e));
        }
        // The next prisoners' step takes them off the table; the points stay the captor's.
        escort::march(&mut st);
        let e = st.unit(&name).unwrap();
        assert_eq!(
            e.gone.as_deref(),
            Some(format!("marched off the table with {taken} prisoner(s)").as_str())
        );
        assert_eq!(st.unit("Rangers").unwrap().prisoners, taken);
        return;
    }
    panic!("no seed took prisoners");
}

/// The Rangers at 30,16 in line facing west (5" a move), with the hidden Jaeger far away.
fn rangers_west() -> State {
    let mut st = patrol();
    place(&mut st, "Jaeger", 2.0, 2.0, 90.0, Form::Line);
    card_to(&mut st, "hays");
    st
}

#[test]
fn r46_every_leg_of_a_path_is_judged_for_a_sidestep() {
    // Two inches straight ahead, then a sidestep south at half rate: 3" left buy 1.5".
    let st = step(
        &rangers_west(),
        &[("hays", "MOVE Rangers 2 ON 270 6 ON 180 FACING 270")],
        1,
    );
    let r = st.unit("Rangers").unwrap();
    assert!(
        (r.pos.x - 28.0).abs() < 1e-6 && (r.pos.y - 14.5).abs() < 1e-6,
        "{:?} {}",
        r.pos,
        log(&st)
    );
    assert_eq!(r.facing, 270.0);
    // Control: free to turn, the same path runs at the full rate.
    let st = step(
        &rangers_west(),
        &[("hays", "MOVE Rangers 2 ON 270 6 ON 180")],
        1,
    );
    let r = st.unit("Rangers").unwrap();
    assert!((r.pos.y - 13.0).abs() < 1e-6, "{:?} {}", r.pos, log(&st));
}

#[test]
fn a_path_through_points_is_read_point_by_point() {
    // `MOVE Rangers 28,16 28,10` once read as the one bad position `28,16,28,10`.
    let o = LoneStar::parse(
        &rangers_west(),
        "hays",
        "MOVE Rangers 28,16 28,10 FACING 270",
    )
    .unwrap();
    assert_eq!(
        LoneStar::canonical(&o),
        "MOVE Rangers 28,16 28,10 FACING 270\n"
    );
    let st = step(
        &rangers_west(),
        &[("hays", "move rangers 28,16 28,10 facing 270")],
        1,
    );
    let r = st.unit("Rangers").unwrap();
    assert!(
        (r.pos.x - 28.0).abs() < 1e-6 && (r.pos.y - 14.5).abs() < 1e-6,
        "{:?}",
        r.pos
    );
}
