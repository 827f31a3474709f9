//! Panjandrums, zeppelins and aeroplanes as far as the seed gives them (L16, L18–L20) as golden
//! tests of rulings R34 and R41–R45: orders in the players' own syntax, dice from fixed seeds.

use crate::lone_star_common;

use despatch::board::tabletop::{Pt, dist, normalize};
use despatch::dice::Dice;
use despatch::engine::{Ruleset, Viewer};
use despatch::rulesets::lone_star::LoneStar;
use despatch::rulesets::lone_star::machines;
use despatch::rulesets::lone_star::state::{Form, State};
use despatch::rulesets::lone_star::turn;
use lone_star_common::*;

const SPOOL: &str = r#"
[[unit]]
name = "Spool"
seat = "enver"
arm = "panjandrum"
troopers = 1
leadership = 0
zeal = 0
esprit = 0
move = 0
short = 0
long = 0
at = [2, 20]
facing = 90
"#;

pub(crate) const AIR: &str = r#"
[[unit]]
name = "Adler"
seat = "von-arnim"
arm = "zeppelin"
troopers = 3
leaders = 1
leadership = 1
zeal = 1
esprit = 1
move = 0
short = 0
long = 0
at = [10, 28]
facing = 90

[[unit]]
name = "Zeptruppen"
seat = "von-arnim"
arm = "infantry"
troopers = 5
leaders = 1
leadership = 1
zeal = 1
esprit = 1
move = 7
short = 10
long = 24
at = [10, 28]
facing = 90
aboard = "Adler"

[[unit]]
name = "Camel"
seat = "hays"
arm = "aeroplane"
troopers = 1
leadership = 1
zeal = 1
esprit = 1
move = 0
short = 0
long = 0
at = [46, 30]
facing = 270
"#;

fn spool_at(x: f64, y: f64, facing: f64) -> State {
    let mut st = patrol_with(SPOOL);
    place(&mut st, "Spool", x, y, facing, Form::Column);
    card_to(&mut st, "enver");
    st
}

#[test]
fn r34_machines_are_scenario_units_and_unknown_kinds_are_refused() {
    let st = tidal();
    for n in ["Great Spool", "Adler", "Bristol Scout"] {
        assert!(st.unit(n).unwrap().arm.is_machine(), "{n}");
    }
    assert_eq!(
        st.unit("Zeptruppen").unwrap().aboard.as_deref(),
        Some("Adler")
    );
    let scen = TIDAL.replace("arm = \"panjandrum\"", "arm = \"attack_axle\"");
    let seats = st.seats.iter().map(|s| s.id.clone()).collect::<Vec<_>>();
    let e = LoneStar::setup(RULESET, &scen, &seats)
        .unwrap_err()
        .to_string();
    assert!(e.contains("attack_axle"), "{e}");
}

#[test]
fn r41_a_panjandrum_gains_speed_each_turn_then_coasts() {
    let st = patrol();
    let speeds: Vec<f64> = (1..=7)
        .map(|k| machines::panjandrum_speed(&st, k))
        .collect();
    assert_eq!(speeds, vec![4.0, 8.0, 12.0, 16.0, 20.0, 6.0, 0.0]);
    let mut second = 0;
    for seed in 0..30u8 {
        let st = spool_at(2.0, 20.0, 0.0);
        let e = refused(&st, "enver", "LAUNCH Rangers 90");
        assert!(
            e.contains("not one of your units") || e.contains("not a panjandrum"),
            "{e}"
        );
        let one = step(&st, &[("enver", "LAUNCH Spool 90")], seed);
        assert!(
            log(&one).contains("Spool is launched on 90"),
            "{}",
            log(&one)
        );
        assert!(log(&one).contains("Spool rolls 4\" to"), "{}", log(&one));
        let s = one.unit("Spool").unwrap();
        if s.gone.is_some() || s.machine.as_ref().unwrap().fuse.is_some() {
            continue;
        }
        // Next turn it rolls on by itself, 8".
        let mut two = one.clone();
        card_to(&mut two, "enver");
        let two = step(&two, &[], seed.wrapping_add(100));
        let l = log(&two);
        if ["dodge", "explodes among", "stops against"]
            .iter()
            .any(|w| l.contains(w))
        {
            continue;
        }
        assert!(l.contains("Spool rolls 8\" to"), "{l}");
        second += 1;
    }
    assert!(second > 0);
}

#[test]
fn r42_the_3d6_table_with_its_lost_rows() {
    let st = patrol();
    let row = |r| machines::panjandrum_row(&st, r);
    assert_eq!(row(3), row(5), "lost rows read as row 5");
    assert_eq!(row(4), (true, true, false));
    assert_eq!(row(5), (true, true, false));
    assert_eq!(row(6), (false, true, false));
    assert_eq!(row(7), (true, false, false));
    assert_eq!(row(8), (false, false, true));
    for r in 9..=18 {
        assert_eq!(row(r), (false, false, false), "{r}");
    }
    let s = despatch::rulesets::kit::data::stand_ins(RULESET).unwrap();
    assert!(s.iter().any(|x| x.key == "rules.panjandrum_lost_rows_as"));
}

#[test]
fn r42_it_stops_against_a_wall_and_goes_off_next_turn_unless_a_dud() {
    let (mut dud, mut bang) = (false, false);
    for seed in 0..60u8 {
        let st = spool_at(28.5, 9.5, 90.0);
        let one = step(&st, &[("enver", "LAUNCH Spool 90")], seed);
        if !log(&one).contains("Spool stops against a wall") {
            continue;
        }
        let s = one.unit("Spool").unwrap();
        assert!(s.pos.x <= 32.0 + 1e-9 && s.pos.x > 31.5, "{}", log(&one));
        assert_eq!(s.machine.as_ref().unwrap().fuse, Some(one.turn + 1));
        let mut two = one.clone();
        two.turn += 1;
        card_to(&mut two, "enver");
        let two = step(&two, &[], seed);
        match two.unit("Spool").unwrap().gone.as_deref() {
            Some("a dud") => dud = true,
            Some("exploded") => bang = true,
            g => panic!("{g:?}: {}", log(&two)),
        }
    }
    assert!(dud && bang, "dud {dud}, explosion {bang}");
}

/// Sets the Spool's charge off where it stands, with dice that are no dud.
fn blow(st: &mut State, x: f64, y: f64) -> u8 {
    for seed in 0..=255u8 {
        let mut s = st.clone();
        s.unit_mut("Spool").pos = Pt::new(x, y);
        machines::explode(&mut s, "Spool", &mut Dice::new([seed; 32]));
        if s.unit("Spool").unwrap().gone.as_deref() == Some("exploded") {
            *st = s;
            return seed;
        }
    }
    panic!("every seed a dud");
}

#[test]
fn r43_the_blast_breaches_a_wall_and_kills_men_near_it() {
    let mut st = patrol_with(SPOOL);
    place(&mut st, "Rangers", 29.5, 9.5, 90.0, Form::Line);
    place(&mut st, "Grenzer", 32.6, 9.5, 270.0, Form::Column);
    let g = st.unit("Grenzer").unwrap().clone();
    assert!(
        st.wall_between(&g, Pt::new(25.0, 9.5)),
        "control: the wall covers"
    );
    blow(&mut st, 32.0, 9.5);
    let l = log(&st);
    assert!(l.contains("of wall at 32,9.5 are blown down"), "{l}");
    let g = st.unit("Grenzer").unwrap().clone();
    assert!(!st.wall_between(&g, Pt::new(25.0, 9.5)), "{l}");
    for n in ["Rangers", "Grenzer"] {
        let lost: u32 = l
            .split(&format!("{n} loses "))
            .nth(1)
            .and_then(|s| s.split(' ').next())
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("{n}: {l}"));
        let u = st.unit(n).unwrap();
        assert_eq!(u.figures.len() as u32 + lost, u.start_figures, "{n}: {l}");
    }
}

#[test]
fn r43_a_building_falls_on_1_or_2_and_woods_turn_rough() {
    let (mut falls, mut stands) = (false, false);
    for seed in 0..40u8 {
        let mut st = patrol_with(SPOOL);
        st.unit_mut("Spool").pos = Pt::new(36.0, 9.5);
        machines::explode(&mut st, "Spool", &mut Dice::new([seed; 32]));
        let l = log(&st);
        if l.contains("Zavala farm is destroyed") {
            assert!(!st.in_area("farm", Pt::new(36.0, 9.5)), "{l}");
            assert!(st.in_area("rough", Pt::new(36.0, 9.5)));
            falls = true;
        } else if l.contains("Zavala farm stands") {
            assert!(st.in_area("farm", Pt::new(36.0, 9.5)));
            stands = true;
        }
    }
    assert!(falls && stands);
    let mut st = patrol_with(SPOOL);
    assert!(st.in_area("woods", Pt::new(27.0, 26.0)));
    blow(&mut st, 27.0, 26.0);
    assert!(!st.in_area("woods", Pt::new(27.0, 26.0)), "{}", log(&st));
    assert!(st.in_area("crater", Pt::new(28.3, 27.3)));
    assert!(
        st.in_area("woods", Pt::new(25.0, 23.0)),
        "only a 3\" square"
    );
}

#[test]
fn r43_a_vehicle_is_destroyed_and_its_passengers_hurt() {
    let mut st = patrol_with(SPOOL);
    let w = st.unit("Prairie Schooner").unwrap().pos;
    {
        let r = st.unit_mut("Rangers");
        r.aboard = Some("Prairie Schooner".into());
        r.pos = w;
    }
    blow(&mut st, 41.2, 4.0);
    let l = log(&st);
    assert_eq!(
        st.unit("Prairie Schooner").unwrap().gone.as_deref(),
        Some("blown up by a panjandrum"),
        "{l}"
    );
    let r = st.unit("Rangers").unwrap();
    assert!(r.aboard.is_none() && r.figures.len() < 9, "{l}");
}

#[test]
fn r43_men_dodge_a_rolling_panjandrum_unless_a_six() {
    let (mut dodge, mut bang) = (false, false);
    for seed in 0..80u8 {
        let st = spool_at(25.0, 16.0, 90.0);
        let one = step(&st, &[("enver", "LAUNCH Spool 90")], seed);
        let l = log(&one);
        if l.contains("Rangers dodge Spool") {
            dodge = true;
        }
        if l.contains("Spool explodes among Rangers") {
            assert!(one.unit("Spool").unwrap().gone.is_some(), "{l}");
            bang = true;
        }
    }
    assert!(dodge && bang, "dodge {dodge}, explode {bang}");
}

fn air() -> State {
    let mut st = patrol_with(AIR);
    card_to(&mut st, "von-arnim");
    st
}

#[test]
fn r44_a_zeppelin_flies_18_turning_45_after_6_straight() {
    let st = air();
    for (bad, why) in [
        ("FLY Adler 19", "at most 18"),
        ("FLY Adler 4 RIGHT 6", "only after 6"),
        ("FLY Adler 8 RIGHT 7", "at most 6"),
        ("FLY Adler 6 RIGHT 2 LEFT 2", "turns once"),
    ] {
        let e = refused(&st, "von-arnim", bad);
        assert!(e.contains(why), "{bad}: {e}");
    }
    let after = step(&st, &[("von-arnim", "fly adler 8 right 6")], 1);
    let a = after.unit("Adler").unwrap();
    let want = Pt::new(18.0, 28.0).offset(135.0, 6.0);
    assert!(dist(a.pos, want) < 1e-6, "{:?} {}", a.pos, log(&after));
    assert_eq!(a.facing, 135.0);
    assert!(!a.halted);
    assert_eq!(
        after.unit("Zeptruppen").unwrap().pos,
        a.pos,
        "its troops ride along"
    );
}

#[test]
fn r44_a_zeppelin_stops_then_takes_a_turn_to_descend_and_lands_its_troops() {
    let st = air();
    let flown = step(&st, &[("von-arnim", "FLY Adler 10")], 2);
    let mut again = flown.clone();
    card_to(&mut again, "von-arnim");
    let e = refused(&again, "von-arnim", "DESCEND Adler");
    assert!(e.contains("must stop"), "{e}");
    let held = step(&again, &[("von-arnim", "HOLD Adler")], 3);
    assert!(held.unit("Adler").unwrap().halted);
    let mut down = held.clone();
    card_to(&mut down, "von-arnim");
    let down = step(&down, &[("von-arnim", "DESCEND Adler")], 4);
    assert!(
        down.unit("Adler").unwrap().machine.as_ref().unwrap().landed,
        "{}",
        log(&down)
    );
    let mut out = down.clone();
    card_to(&mut out, "von-arnim");
    let out = step(&out, &[("von-arnim", "DISEMBARK Zeptruppen 20,20")], 5);
    let z = out.unit("Zeptruppen").unwrap();
    assert!(z.aboard.is_none(), "{}", log(&out));
    assert!(z.on_ground());
}

#[test]
fn r44_an_aeroplane_flies_30_turning_22_5_per_2_inches_at_an_inch_each() {
    let mut st = air();
    card_to(&mut st, "hays");
    for (bad, why) in [
        ("FLY Camel 1 LEFT 20", "only after 2"),
        ("FLY Camel 29 LEFT 1", "at most 30"),
        ("HOLD Camel", "cannot hover"),
    ] {
        let e = refused(&st, "hays", bad);
        assert!(e.contains(why), "{bad}: {e}");
    }
    let after = step(&st, &[("hays", "FLY Camel 4 LEFT 2 LEFT 20")], 6);
    let c = after.unit("Camel").unwrap();
    let want = Pt::new(42.0, 30.0).offset(247.5, 2.0).offset(225.0, 20.0);
    assert!(dist(c.pos, want) < 1e-6, "{:?} {}", c.pos, log(&after));
    // Silent, it flies straight on at its full 30".
    let silent = step(&st, &[], 6);
    let c = silent.unit("Camel").unwrap();
    assert!(dist(c.pos, Pt::new(16.0, 30.0)) < 1e-6, "{}", log(&silent));
    assert_eq!(normalize(c.facing), 270.0);
}

#[test]
fn r45_air_combat_is_not_played() {
    let mut st = air();
    place(&mut st, "Rangers", 40.0, 28.0, 270.0, Form::Line);
    to_combat(&mut st);
    let e = refused(&st, "hays", "FIRE Rangers AT Zeptruppen");
    assert!(e.contains("air combat is not played"), "{e}");
    let e = refused(&st, "hays", "FIRE Rangers AT Adler");
    assert!(e.contains("air combat is not played"), "{e}");
    let e = refused(&st, "von-arnim", "FIRE Adler AT Rangers");
    assert!(e.contains("does not fight"), "{e}");
    // A shell on the zeppelin's spot touches neither it nor its troops.
    st.unit_mut("Alamo Battery").gun.as_mut().unwrap().drift_drm = 10;
    let after = step(&st, &[("bowie", "FIRE Alamo Battery AT 10,28")], 7);
    assert!(!log(&after).contains("catches Adler"), "{}", log(&after));
    assert!(
        !log(&after).contains("catches Zeptruppen"),
        "{}",
        log(&after)
    );
    // Machines hold no ground: the empire with only its zeppelin left has lost.
    let mut end = patrol_with(AIR);
    for u in end.units.iter_mut() {
        if u.side == "empire" && u.name != "Adler" {
            u.gone = Some("destroyed".into());
        }
    }
    let o = turn::judge(&end).expect("over");
    assert_eq!(o.winners, vec!["alliance".to_string()]);
}

#[test]
fn machines_and_riders_on_the_map() {
    let st = tidal();
    let scene = LoneStar::view(&st, &Viewer::Seat("von-moltke".into()))
        .map
        .unwrap();
    let badge = |label: &str| -> Vec<String> {
        scene
            .units
            .iter()
            .find(|u| u.label == label)
            .unwrap_or_else(|| panic!("{label} is drawn"))
            .markers
            .iter()
            .map(|m| format!("{m:?}"))
            .collect()
    };
    assert!(
        badge("Great Spool")
            .iter()
            .any(|m| m.contains("panjandrum"))
    );
    assert!(
        badge("Adler")
            .iter()
            .any(|m| m.contains("carrying Zeptruppen"))
    );
    assert!(
        badge("Bristol Scout")
            .iter()
            .any(|m| m.contains("airborne"))
    );
    assert!(
        !scene.units.iter().any(|u| u.label == "Zeptruppen"),
        "troops aboard are inside their zeppelin"
    );
    let png = despatch::render::png(&scene, 900).unwrap();
    assert!(png.len() > 1000);
}
