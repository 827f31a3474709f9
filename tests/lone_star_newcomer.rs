//! What a newcomer's play-through of the patrol game by mail stumbled on, each pinned: the
//! order reference fits a plain-text mail, `MOVE … TO x,y` as people write it, the questions
//! say what to write and what silence does, escorts are neither offered nor drawn once off
//! the table, a windwagon's crew is neither asked to shoot nor allowed to, a sail says how it
//! lies to the wind and why it stopped, and a shell burst is not labelled as if the gun stood
//! there. Orders in the players' own syntax.

use crate::lone_star_common;

use despatch::board::tabletop::Pt;
use despatch::dice::Dice;
use despatch::engine::scene::{Condition, ZoneKind};
use despatch::engine::{Ruleset, Viewer};
use despatch::rulesets::lone_star::LoneStar;
use despatch::rulesets::lone_star::escort;
use despatch::rulesets::lone_star::state::{Blast, Form, Phase};
use lone_star_common::*;

const README: &str = include_str!("../games/lone-star/README.md");

/// The HELP mail is the README, wrapped at 72 columns line by line: a longer source line is
/// broken mid-sentence there ("asked / for / its movement mail").
#[test]
fn the_order_reference_fits_a_plain_text_mail() {
    let long: Vec<(usize, usize)> = README
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.chars().count()))
        .filter(|(_, n)| *n > 72)
        .collect();
    assert!(long.is_empty(), "README lines over 72 columns: {long:?}");
}

#[test]
fn move_to_a_point_reads_past_the_word_to() {
    let mut st = patrol();
    card_to(&mut st, "hays");
    let o = LoneStar::parse(
        &st,
        "hays",
        "MOVE Rangers to 26,16\nmove comanche TO 24,26 20,26",
    )
    .unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(
        LoneStar::canonical(&o),
        "MOVE Rangers 26,16\nMOVE Comanche Scouts 24,26 20,26\n"
    );
    st.phase = Phase::Extra;
    let o = LoneStar::parse(&st, "hays", "EXTRA Rangers TO 24,18").unwrap();
    assert_eq!(LoneStar::canonical(&o), "EXTRA Rangers 24,18\n");
    // A word that is no point is still refused.
    card_to(&mut st, "hays");
    assert!(refused(&st, "hays", "MOVE Rangers TOWARD 26,16").contains("line: 1"));
}

#[test]
fn an_escort_is_not_offered_and_naming_it_says_why() {
    let mut st = patrol();
    escort::set_out(&mut st, "Rangers", 1, 2);
    card_to(&mut st, "hays");
    let q = LoneStar::step(&st).prompts[0].question.clone();
    assert!(q.contains("Rangers, Comanche Scouts"), "{q}");
    assert!(!q.contains("Escort"), "the question offers the escort: {q}");
    let e = refused(&st, "hays", "HOLD Escort of Rangers");
    assert!(e.contains("no order names an escort (R40)"), "{e}");
    // The enemy may not name it either, and is not told it is an escort of anyone's.
    card_to(&mut st, "von-arnim");
    let e = refused(&st, "von-arnim", "CHARGE Grenzer Escort of Rangers");
    assert!(!e.contains("R40"), "{e}");
}

#[test]
fn combat_questions_say_what_to_write_and_ask_no_windwagon_to_shoot() {
    let mut st = patrol();
    place(&mut st, "Rangers", 18.0, 16.0, 90.0, Form::Line);
    place(&mut st, "Grenzer", 20.0, 16.0, 270.0, Form::Line);
    st.unit_mut("Rangers").melee = vec!["Grenzer".into()];
    st.unit_mut("Grenzer").melee = vec!["Rangers".into()];
    // The Sipahi 8" in front of the wagon and of the Jaeger: a target for both.
    place(&mut st, "Prairie Schooner", 40.0, 4.0, 270.0, Form::Column);
    place(&mut st, "Sipahi", 32.0, 4.0, 90.0, Form::Column);
    place(&mut st, "Jaeger", 24.0, 4.0, 90.0, Form::Line);
    st.unit_mut("Jaeger").hidden = false;
    to_combat(&mut st);
    let spec = LoneStar::step(&st);
    let q = |seat: &str| {
        spec.prompts
            .iter()
            .find(|p| p.seat == seat)
            .map(|p| p.question.clone())
            .unwrap_or_default()
    };
    assert!(
        q("hays").contains("Rangers: take prisoners (PRISONERS Rangers; silence takes none)?"),
        "{}",
        q("hays")
    );
    // The Jaeger is asked with the order to write; the wagon, as near, is not asked at all.
    assert!(
        q("von-arnim").contains("Jaeger: target (FIRE Jaeger AT a unit, or FIRE Jaeger NONE; silence fires at the nearest)?"),
        "{}",
        q("von-arnim")
    );
    assert!(!q("bowie").contains("Prairie Schooner"), "{}", q("bowie"));
    let e = refused(&st, "bowie", "FIRE Prairie Schooner AT Sipahi");
    assert!(e.contains("crew does not shoot"), "{e}");
    assert!(LoneStar::parse(&st, "enver", "FIRE Sipahi AT Prairie Schooner").is_ok());
}

#[test]
fn a_sail_says_how_it_lies_to_the_wind_and_where_it_stopped() {
    // Patrol's wind blows from 180: a course of 225 is into the wind, 0 before it.
    let mut st = patrol();
    place(&mut st, "Prairie Schooner", 40.5, 12.5, 225.0, Form::Column);
    despatch::rulesets::lone_star::sailing::sail(
        &mut st,
        "Prairie Schooner",
        225.0,
        false,
        &mut Dice::new([1; 32]),
    );
    let l = log(&st);
    assert!(l.contains("Prairie Schooner sails into the wind"), "{l}");
    assert!(l.contains("(it stops at the edge of the farm)"), "{l}");
    let mut st = patrol();
    place(&mut st, "Prairie Schooner", 42.0, 4.0, 90.0, Form::Column);
    despatch::rulesets::lone_star::sailing::sail(
        &mut st,
        "Prairie Schooner",
        90.0,
        false,
        &mut Dice::new([1; 32]),
    );
    let l = log(&st);
    assert!(l.contains("sails across the wind"), "{l}");
    assert!(l.contains("(it stops at the table's edge)"), "{l}");
    let mut st = patrol();
    place(&mut st, "Prairie Schooner", 44.0, 2.0, 0.0, Form::Column);
    despatch::rulesets::lone_star::sailing::sail(
        &mut st,
        "Prairie Schooner",
        0.0,
        false,
        &mut Dice::new([1; 32]),
    );
    let l = log(&st);
    assert!(
        l.contains("sails before the wind") && !l.contains("stops at"),
        "{l}"
    );
}

#[test]
fn the_map_names_a_shell_burst_as_a_shell_and_drops_escorts_gone_off_the_table() {
    let mut st = patrol();
    st.blasts.push(Blast {
        at: Pt::new(19.0, 16.0),
        radius: 2.0,
        gun: "Alamo Battery".into(),
    });
    escort::set_out(&mut st, "Rangers", 1, 2);
    let scene = |st: &despatch::rulesets::lone_star::state::State| {
        LoneStar::view(st, &Viewer::Seat("hays".into()))
            .map
            .unwrap()
    };
    let s = scene(&st);
    let burst = s.zones.iter().find(|z| z.kind == ZoneKind::Blast).unwrap();
    assert_eq!(burst.label.as_deref(), Some("Alamo Battery's shell"));
    assert!(
        s.units.iter().any(|u| u.label == "Escort of Rangers"),
        "an escort on the table is drawn"
    );
    // March it off the east edge; and destroy the scouts, who stay as a wreck.
    st.unit_mut("Escort of Rangers").pos = Pt::new(46.0, 16.0);
    escort::march(&mut st);
    assert!(log(&st).contains("off the table"), "{}", log(&st));
    st.unit_mut("Comanche Scouts").figures.clear();
    st.unit_mut("Comanche Scouts").gone = Some("destroyed".into());
    let s = scene(&st);
    assert!(!s.units.iter().any(|u| u.label == "Escort of Rangers"));
    let wreck = s
        .units
        .iter()
        .find(|u| u.label == "Comanche Scouts")
        .expect("the wreck is drawn");
    assert_eq!(wreck.condition, Condition::Wreck);
}

#[test]
fn a_card_counts_one_figure_as_one_figure() {
    let mut st = patrol();
    st.unit_mut("Rangers").figures.truncate(1);
    let text = |seat: &str| {
        format!(
            "{:?}",
            LoneStar::view(&st, &Viewer::Seat(seat.into())).sections
        )
    };
    assert!(
        text("hays").contains("Rangers (infantry): 1 figure ("),
        "{}",
        text("hays")
    );
    assert!(
        text("enver").contains("Rangers (infantry): 1 figure, hits"),
        "{}",
        text("enver")
    );
    assert!(
        text("enver").contains("Grenzer (infantry): 11 figures"),
        "{}",
        text("enver")
    );
}

#[test]
fn a_mover_set_back_off_another_unit_is_told_where_it_stands() {
    // The play-through's turn 3: the Jaeger walks into the ford the Grenzer hold.
    let mut st = patrol();
    place(&mut st, "Grenzer", 22.0, 15.8, 90.0, Form::Line);
    place(&mut st, "Jaeger", 20.0, 13.0, 7.6, Form::Line);
    st.unit_mut("Jaeger").hidden = false;
    card_to(&mut st, "von-arnim");
    let st2 = step(&st, &[("von-arnim", "MOVE Jaeger 22,14 26,12")], 1);
    let l = log(&st2);
    let line = l.lines().find(|x| x.starts_with("Jaeger moves")).expect(&l);
    let p = st2.unit("Jaeger").unwrap().pos;
    let spot = format!(
        "{},{}",
        despatch::rulesets::kit::grammar::tenths(p.x),
        despatch::rulesets::kit::grammar::tenths(p.y)
    );
    assert!(
        line.contains(&format!("set back to {spot}, clear of Grenzer, R11")),
        "{line}"
    );
}
