//! What the newcomer play-through of the teaching scenario tripped over, each as a test:
//! the glance's and the hints' own examples must be accepted where they are shown, a wrong
//! approach says how to write one, a fire that falls off the chart and a FIRE target that
//! cannot be taken are explained, a leader's ride is logged, and the last mail does not
//! read "Turn 4 of 3".

use crate::lbt;

use despatch::engine::{Ruleset, Viewer};
use despatch::rulesets::la_bataille::LaBataille;
use despatch::rulesets::la_bataille::combat;
use despatch::rulesets::la_bataille::orders;
use despatch::rulesets::la_bataille::state::Phase;
use lbt::*;

fn teaching() -> Table {
    Table::new(include_str!("../games/la-bataille/scenarios/teaching.toml"))
}

#[test]
fn the_glances_assault_example_is_accepted_on_the_teaching_scenario() {
    let readme = include_str!("../games/la-bataille/README.md");
    let glance = &readme[readme.find("## Orders at a glance").expect("glance")..];
    let glance = &glance[..glance.find("\n## How").expect("next section")];
    let example = glance
        .split('`')
        .find(|s| s.starts_with("ASSAULT "))
        .expect("an ASSAULT example");
    let t = teaching();
    let o = orders::parse(&t.st, "france", &format!("{example}\n"));
    assert!(o.is_ok(), "{example}: {o:?}");
}

#[test]
fn an_approach_that_skips_a_hex_is_refused_with_how_to_write_it() {
    // 1/45e stands in 0507: 0505 is two hexes away.
    let t = teaching();
    let e = orders::parse(&t.st, "france", "ASSAULT 1/45e AT 0504 VIA 0505\n").unwrap_err();
    assert!(
        e[0].reason.contains(
            "0505 is not next to 0507: name every hex in turn, starting next to 1/45e in 0507"
        ),
        "{e:?}"
    );
}

#[test]
fn the_hints_examples_are_orders_the_teaching_scenario_accepts() {
    let t = teaching();
    for bad in ["ASSAULT 1/45e 0504\n", "CHARGE 1er-Cuirassiers 0804\n"] {
        let e = orders::parse(&t.st, "france", bad).unwrap_err();
        let hint = e[0]
            .hint
            .clone()
            .unwrap_or_else(|| panic!("no hint: {e:?}"));
        let example = hint.trim_start_matches("for example: ");
        let o = orders::parse(&t.st, "france", &format!("{example}\n"));
        assert!(o.is_ok(), "the hint `{hint}` for `{bad}` is refused: {o:?}");
    }
}

#[test]
fn a_fire_off_the_chart_says_it_has_no_effect() {
    // Skirmishers of strength 1.5 at the first column, one column left for skirmish fire.
    let mut t = Table::new(&field(
        &[
            (
                "france",
                "Tirailleurs",
                "light_infantry",
                "French",
                "0506",
                "N",
                "skirmish",
                2,
                8,
            ),
            (
                "allies",
                "28th-Foot",
                "line_infantry",
                "Prussian",
                "0504",
                "S",
                "line",
                4,
                8,
            ),
        ],
        "",
    ));
    let log = t.play_on(&[("france", "PASS\n"), QUIET], &[]);
    assert_has(&log, "Fire of Tirailleurs at 0504: strength 1.5");
    assert_has(&log, "is off the Fire Chart: no effect.");
    assert!(!has(&log, "too weak to tell"), "{log:?}");
}

#[test]
fn a_fire_target_the_unit_may_not_take_is_refused_in_the_log_and_the_nearest_is_fired_at() {
    let mut t = duel("line", "Prussian");
    // Nobody stands in 0909: the French line fires at the 28th instead, and says why.
    let log = t.play_on(&[("france", "FIRE 1/45e AT 0909\n"), QUIET], &[]);
    assert_has(
        &log,
        "1/45e cannot fire at 0909 (no enemy there it may reach, face and see): it fires at the nearest enemy it may, if any.",
    );
    assert_has(&log, "Fire of 1/45e at 0505");
    // Positive control: a target it may take draws no such line.
    let mut t = duel("line", "Prussian");
    let log = t.play_on(&[("france", "FIRE 1/45e AT 0505\n"), QUIET], &[]);
    assert!(!has(&log, "cannot fire at"), "{log:?}");
    assert_has(&log, "Fire of 1/45e at 0505");
}

#[test]
fn r16_a_leader_whose_unit_is_gone_rides_to_the_nearest_friend_and_the_log_says_so() {
    let mut t = teaching();
    combat::surrender(&mut t.st, &["1/45e".to_string()]);
    let log: Vec<String> = t.st.log.iter().map(|l| l.text.clone()).collect();
    assert_has(&log, "1/45e is eliminated.");
    // 2/45e in 0407 is the nearest French unit to 0507.
    assert_has(&log, "Ney rides to 2/45e.");
    assert!(
        t.st.leaders
            .iter()
            .any(|l| l.name == "Ney" && l.with == "2/45e")
    );
}

#[test]
fn after_the_last_turn_the_mail_says_the_battle_is_over_not_turn_5_of_4() {
    // The teaching scenario has four game turns (README, "Balance").
    let mut t = teaching();
    let during = LaBataille::view(&t.st, &Viewer::Seat("france".into())).turn;
    assert!(during.starts_with("Turn 1 of 4"), "{during}");
    t.st.turn = 5;
    t.st.phase = Phase::GameOver;
    let after = LaBataille::view(&t.st, &Viewer::Seat("france".into())).turn;
    assert_eq!(after, "The battle is over after turn 4 of 4");
}

#[test]
fn the_reference_prose_fits_the_72_columns_of_the_help_mail() {
    // The HELP mail keeps the README's line breaks and wraps each longer line alone, which
    // left ragged half-lines; prose and list lines must fit as written (code marks dropped).
    let readme = include_str!("../games/la-bataille/README.md");
    let mut in_code = false;
    let mut long = Vec::new();
    for (i, line) in readme.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code || line.starts_with('|') || line.starts_with('#') {
            continue;
        }
        let shown = line.replace("**", "").replace('`', "");
        if shown.chars().count() > 72 {
            long.push(format!("{}: {line}", i + 1));
        }
    }
    assert!(long.is_empty(), "{}", long.join("\n"));
}

#[test]
fn a_unit_of_one_increment_reads_1_increment() {
    let mut t = teaching();
    t.st.units
        .iter_mut()
        .find(|u| u.name == "2/45e")
        .expect("2/45e")
        .increments = 1;
    let v = LaBataille::view(&t.st, &Viewer::Seat("france".into()));
    let lines: Vec<&String> = v.sections.iter().flat_map(|s| s.1.iter()).collect();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("2/45e") && l.contains(": 1 increment of 4,")),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.contains("4 increments of 4")),
        "{lines:?}"
    );
}

#[test]
fn r28_a_square_formed_at_the_charge_marker_lets_the_cavalry_recall_before_it_sets_off() {
    // F3 of the play-through: "If Square is successfully formed the cavalry may attempt to
    // Recall" (p.6 step 2) holds when the target formed square at the marker, too.
    let mut t = charge_field("line_infantry", "line");
    let log = t.play_on(
        &[
            ("france", "CHARGE Cuir AT 0505\n"),
            (
                "allies",
                "OPPORTUNITY FIRE OFF\nREACTION NEVER\nSQUARE ALWAYS\n",
            ),
        ],
        &[1, 1],
    );
    assert_has(&log, "square formed");
    let (seat, text) = t.asked().expect("the recall question");
    assert_eq!(seat, "france");
    assert!(
        text.contains("your target 0505 has formed square"),
        "{text}"
    );
    assert!(text.contains("no roll is needed"), "{text}");
    let log = t.play_on(&[("france", "RECALL\n")], &[]);
    assert_has(&log, "the charge is recalled");
    assert!(!has(&log, "Mêlée Procedure"), "{log:?}");
    // The control: NO RECALL sets the charge off at the square.
    let mut t = charge_field("line_infantry", "line");
    t.play_on(
        &[
            ("france", "CHARGE Cuir AT 0505\n"),
            (
                "allies",
                "OPPORTUNITY FIRE OFF\nREACTION NEVER\nSQUARE ALWAYS\n",
            ),
        ],
        &[1, 1],
    );
    let log = t.play_on(&[("france", "NO RECALL\n")], &[]);
    assert_has(&log, "the cavalry charges the square");
    assert_has(&log, "-3 square");
}
