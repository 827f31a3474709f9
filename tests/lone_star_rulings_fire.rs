//! Lone Star's rulings on fire, melee and casualties as golden tests, orders in the players'
//! own syntax and dice from fixed seeds: morale (R2, R3), casualties and the Colors (R5, R6,
//! R23), flamethrowers (R7), melee and fire (R16, R29), the guns' range (R30, R31), gas and
//! armour (R25, R32), stand-ins (R26) and cover (R27). R17, R18 and R33 are §8's worked
//! examples, in `lone_star_examples.rs`.

use crate::lone_star_common;

use lone_star_common::*;

use despatch::dice::Dice;
use despatch::engine::Ruleset;
use despatch::rulesets::lone_star::LoneStar;
use despatch::rulesets::lone_star::combat::{self, Band, Morale};
use despatch::rulesets::lone_star::state::{Fig, Form, Phase, Smoke};
use despatch::rulesets::lone_star::turn;

#[test]
fn r2_rout_is_twice_the_adjusted_target() {
    let st = teaching();
    // Target 3 (adjusted): 6 routs, 5 only fails.
    assert_eq!(combat::morale_result(&st, 5, 3, 6), Morale::Rout);
    assert_eq!(combat::morale_result(&st, 5, 3, 5), Morale::NoMove);
}

#[test]
fn r3_smoke_and_column_under_fire_cost_one_in_all() {
    let mut st = teaching();
    let base = combat::morale_target(&st, st.unit("Rangers").unwrap());
    let r = st.unit_mut("Rangers");
    r.form = Form::Column;
    r.in_combat = true;
    let pos = r.pos;
    st.smoke.push(Smoke {
        at: pos,
        turn: 1,
        side: "prussia".into(),
    });
    assert_eq!(
        combat::morale_target(&st, st.unit("Rangers").unwrap()),
        base - 1
    );
}

#[test]
fn r5_the_casualty_die_runs_over_the_figures() {
    let mut st = teaching();
    let mut dice = Dice::new([3; 32]);
    combat::casualty(&mut st, "Grenzer", false, &mut dice);
    let first = &dice.table()[0];
    assert!(
        first.label.contains("(d8 over its figures)"),
        "{}",
        first.label
    );
}

#[test]
fn r6_colors_in_melee_take_up_to_three_rolls() {
    let mut seen = false;
    for seed in 0..=255u8 {
        let mut st = teaching();
        st.unit_mut("Rangers").figures = vec![
            Fig::Colors,
            Fig::Trooper,
            Fig::Trooper,
            Fig::Trooper,
            Fig::Trooper,
        ];
        let mut dice = Dice::new([seed; 32]);
        let lost = combat::casualty(&mut st, "Rangers", true, &mut dice);
        if dice.table()[0].results[0] == 1 {
            seen = true;
            assert!((1..=3).contains(&lost.len()), "{lost:?}");
            let saves = dice
                .table()
                .iter()
                .filter(|r| r.label.contains("saving the Colors"))
                .count();
            assert!((1..=3).contains(&saves));
            if lost.contains(&Fig::Colors) {
                assert_eq!(saves, 3, "the Colors fall only on the third failure");
            }
        }
    }
    assert!(seen);
}

#[test]
fn r7_a_flamethrower_hit_may_burst_its_tank() {
    let mut burst = false;
    for seed in 0..=255u8 {
        let mut st = patrol();
        let mut dice = Dice::new([seed; 32]);
        let figs = st.unit("Jaeger").unwrap().figures.clone();
        combat::casualty(&mut st, "Jaeger", false, &mut dice);
        let t = dice.table().to_vec();
        let picked = figs[(t[0].results[0] - 1) as usize];
        if picked == Fig::Heavy(despatch::rulesets::lone_star::data::Heavy::Flamethrower) {
            let acc = t
                .iter()
                .find(|r| r.label.contains("flamethrower accident"))
                .expect("always rolled");
            if acc.results[0] <= 3 {
                burst = true;
                assert!(
                    st.unit("Jaeger").unwrap().heavy().is_none(),
                    "lost after all"
                );
                assert!(t.iter().any(|r| r.label.contains("blast (3d6)")));
            }
        }
    }
    assert!(burst);
}

#[test]
fn r16_nobody_shoots_into_a_melee() {
    let mut st = patrol();
    place(&mut st, "Grenzer", 20.0, 16.0, 90.0, Form::Line);
    st.unit_mut("Grenzer").melee = vec!["Rangers".into()];
    let r = st.unit("Alamo Battery").unwrap().clone();
    let g = st.unit("Grenzer").unwrap().clone();
    assert!(!turn::may_shoot(&st, &r, &g));
}

#[test]
fn r23_four_hits_cross_off_a_figure() {
    let mut st = teaching();
    let mut dice = Dice::new([1; 32]);
    assert!(combat::take_hits(&mut st, "Grenzer", 3, false, &mut dice).is_empty());
    assert_eq!(
        combat::take_hits(&mut st, "Grenzer", 1, false, &mut dice).len(),
        1
    );
    assert_eq!(
        combat::take_hits(&mut st, "Grenzer", 8, false, &mut dice).len(),
        2
    );
}

#[test]
fn r25_gas_reaches_every_unmasked_unit_of_the_melee() {
    let mut st = teaching();
    melee_set(&mut st);
    let st2 = step(&st, &[("von-arnim", "GAS Grenzer")], 2);
    let l = log(&st2);
    assert!(l.contains("Grenzer throws 1 gas grenade(s)."), "{l}");
    assert!(
        l.contains("Rangers is gassed") || l.contains("Rangers escapes the gas"),
        "{l}"
    );
    assert_eq!(st2.unit("Grenzer").unwrap().gas, 0);
}

#[test]
fn r26_the_lost_strengths_are_marked_stand_ins() {
    let s = despatch::rulesets::kit::data::stand_ins(RULESET).unwrap();
    for key in [
        "figures.trooper.short",
        "figures.hmg.long",
        "rules.cover",
        "rules.spotting_open",
        "rules.disengage_distance",
    ] {
        assert!(
            s.iter().any(|x| x.key == key && !x.reason.is_empty()),
            "{key}"
        );
    }
}

#[test]
fn r27_cover_by_centre_of_mass_in_woods() {
    let mut st = teaching();
    place(&mut st, "Grenzer", 17.0, 17.5, 270.0, Form::Line);
    let r = st.unit("Rangers").unwrap().clone();
    let g = st.unit("Grenzer").unwrap().clone();
    assert!(
        combat::modifiers(&st, &r, &g, Band::Short)
            .iter()
            .any(|m| m == &("cover".to_string(), -5))
    );
    place(&mut st, "Grenzer", 22.0, 17.5, 270.0, Form::Line);
    let g = st.unit("Grenzer").unwrap().clone();
    assert!(
        !combat::modifiers(&st, &r, &g, Band::Short)
            .iter()
            .any(|m| m.0 == "cover")
    );
}

#[test]
fn r29_silence_in_combat_fires_at_the_nearest() {
    let mut st = teaching();
    place(&mut st, "Grenzer", 20.0, 12.0, 270.0, Form::Line);
    st.cards = vec!["hays".into(), "von-arnim".into()];
    st.phase = Phase::Combat;
    let st2 = step(&st, &[], 3);
    let l = log(&st2);
    assert!(
        l.contains("Rangers fires at Grenzer") && l.contains("Grenzer fires at Rangers"),
        "{l}"
    );
}

#[test]
fn r30_a_gun_fires_within_the_range_on_its_card() {
    let mut st = patrol();
    st.cards = st.seats.iter().map(|s| s.id.clone()).collect();
    st.phase = Phase::Combat;
    let e = LoneStar::parse(&st, "bowie", "FIRE Alamo Battery AT 40,16").unwrap_err();
    assert!(e[0].reason.contains("fires from 15\" to 60\""), "{e:?}");
    assert!(LoneStar::parse(&st, "bowie", "FIRE Alamo Battery AT 20,16").is_ok());
}

#[test]
fn r31_pre_measuring_the_server_names_the_distance() {
    let mut st = patrol();
    st.cards = st.seats.iter().map(|s| s.id.clone()).collect();
    st.phase = Phase::Combat;
    let e = LoneStar::parse(&st, "bowie", "FIRE Alamo Battery AT 40,16").unwrap_err();
    assert!(e[0].reason.contains("that point is 6\" away"), "{e:?}");
}

#[test]
fn r32_armour_counts_only_against_grenades() {
    let mut st = patrol();
    place(&mut st, "Grenzer", 20.0, 16.0, 90.0, Form::Line);
    let r = st.unit("Rangers").unwrap().clone();
    let mut g = st.unit("Grenzer").unwrap().clone();
    let plain = combat::modifiers(&st, &r, &g, Band::Short);
    g.armored = true;
    assert_eq!(combat::modifiers(&st, &r, &g, Band::Short), plain);
}
