//! La Bataille's numbered rulings of the stand-in base game and the turn (facing, zones,
//! sight, the Number Marker, retreat before assault, picking order, unsupplied
//! artillery, rally, silence, victory), each a test in the players' own order syntax with
//! the dice chosen in advance.

use crate::lbt;

use despatch::engine::Ruleset;
use despatch::rulesets::kit::roster::TwoSides;
use despatch::rulesets::la_bataille::LaBataille;
use despatch::rulesets::la_bataille::orders;
use despatch::rulesets::la_bataille::state::Phase;
use despatch::rulesets::la_bataille::{combat, field as geo};
use lbt::*;

#[test]
fn r1_a_game_turn_is_two_player_turns_and_the_game_ends_after_the_last() {
    let mut t = duel("column", "Prussian");
    assert_eq!(
        t.st.phase,
        Phase::Maneuver {
            side: "france".into()
        }
    );
    t.play_on(&[("france", "PASS\n")], &[]);
    assert_eq!(
        t.st.phase,
        Phase::Maneuver {
            side: "allies".into()
        }
    );
    assert_eq!(t.st.turn, 1);
    t.play_on(&[("allies", "PASS\n")], &[]);
    assert_eq!((t.st.turn, t.st.phasing.as_str()), (2, "france"));
    for _ in 0..2 {
        t.play_on(&[("france", "PASS\n")], &[]);
        t.play_on(&[("allies", "PASS\n")], &[]);
    }
    assert_eq!(t.st.phase, Phase::GameOver);
    assert!(LaBataille::outcome(&t.st).is_some());
}

#[test]
fn r4_the_front_is_the_faced_hex_and_the_two_beside_it_and_every_side_for_a_square() {
    let mut t = duel("column", "Prussian");
    let u = t.unit("1/45e").clone();
    let front: Vec<String> = geo::front_hexes(&t.st, &u)
        .iter()
        .map(|h| t.st.label(*h))
        .collect();
    assert_eq!(front.len(), 3, "{front:?}");
    assert!(front.contains(&"0506".to_string()), "{front:?}");
    t.st.units[0].formation = despatch::rulesets::la_bataille::state::Formation::Square;
    let sq = t.unit("1/45e").clone();
    assert_eq!(geo::front_hexes(&t.st, &sq).len(), 6);
}

#[test]
fn r5_a_move_stops_on_entering_an_enemy_zone_of_influence() {
    let t = duel("column", "Prussian");
    // 0506 is in the 28th's front: a move may end there, not go on through it.
    let e = orders::parse(&t.st, "france", "MOVE 1/45e 0506 0406\n").unwrap_err();
    assert!(e[0].reason.contains("Zone of Influence"), "{e:?}");
    assert!(orders::parse(&t.st, "france", "MOVE 1/45e 0506\n").is_ok());
}

#[test]
fn r6_woods_between_two_hexes_block_the_line_of_sight() {
    let t = Table::new(&field(
        &[
            (
                "france",
                "1/45e",
                "line_infantry",
                "French",
                "0508",
                "N",
                "column",
                4,
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
        "[[terrain]]\nkind = \"woods\"\nhexes = [\"0506\"]\n",
    ));
    let (a, b) = (t.unit("1/45e").hex, t.unit("28th-Foot").hex);
    assert!(!geo::sight(&t.st, a, b));
    let open = duel("column", "Prussian");
    assert!(geo::sight(
        &open.st,
        open.unit("1/45e").hex,
        open.unit("28th-Foot").hex
    ));
}

#[test]
fn r9_the_number_marker_is_the_distance_when_the_order_is_carried_out() {
    let mut t = duel("column", "Prussian");
    let log = t.play_on(
        &[("france", "ASSAULT 1/45e AT 0505 VIA 0506\n"), QUIET],
        &[],
    );
    assert_has(&log, "declares an assault A1 on 0505 from 0506 (Number 2)");
    let mut t = two_on_one("Prussian");
    let log = t.play_on(&[("france", "ASSAULT A AT 0505\n"), QUIET], &[]);
    assert_has(&log, "(Number 1)");
}

#[test]
fn r12_retreat_before_assault_is_the_owners_choice_asked_or_standing() {
    let light = || {
        Table::new(&field(
            &[
                (
                    "france",
                    "1/45e",
                    "line_infantry",
                    "French",
                    "0507",
                    "N",
                    "column",
                    4,
                    8,
                ),
                (
                    "allies",
                    "95th-Rifles",
                    "light_infantry",
                    "British",
                    "0505",
                    "S",
                    "line",
                    2,
                    8,
                ),
            ],
            "",
        ))
    };
    let mut t = light();
    t.play_on(
        &[("france", "ASSAULT 1/45e AT 0505 VIA 0506\n"), QUIET],
        &[],
    );
    let (seat, text) = t.asked().expect("asked");
    assert_eq!(seat, "allies");
    assert!(text.contains("Retreat Before Assault"), "{text}");
    let log = t.play_on(&[("allies", "RETREAT\n")], &[]);
    assert_has(&log, "95th-Rifles");
    assert_ne!(t.st.label(t.unit("95th-Rifles").hex), "0505");
    // Standing: 4 against 2 increments at 2 to 1 is under 3:1, so the rifles stand.
    let mut t = light();
    let log = t.play_on(
        &[
            ("france", "ASSAULT 1/45e AT 0505 VIA 0506\n"),
            (
                "allies",
                "OPPORTUNITY FIRE OFF\nRETREAT BEFORE ASSAULT ALWAYS\n",
            ),
        ],
        &[],
    );
    assert!(!has(&log, "is asked"), "{log:?}");
    assert_ne!(t.st.label(t.unit("95th-Rifles").hex), "0505");
}

#[test]
fn r14_casualties_come_off_the_largest_unit_first() {
    let mut t = two_on_one("Prussian");
    t.st.units[0].increments = 2;
    let gone = combat::take_losses(&mut t.st, &["A".into(), "B".into()], 3);
    assert!(gone.is_empty());
    assert_eq!((t.unit("A").increments, t.unit("B").increments), (1, 2));
    assert_eq!(t.st.side("allies").unwrap().increments_taken, 3);
}

#[test]
fn r15_odds_below_the_chart_read_on_its_first_column_and_no_defender_on_its_last() {
    let t = duel("column", "Prussian");
    let d = &t.st.data;
    assert_eq!(
        combat::column_label(d, Some(combat::odds_column(d, 1.0, 10.0))),
        "1:3"
    );
    assert_eq!(
        combat::column_label(d, Some(combat::odds_column(d, 3.0, 2.0))),
        "3:2"
    );
    assert_eq!(
        combat::column_label(d, Some(combat::odds_column(d, 5.0, 0.0))),
        "6:1"
    );
}

#[test]
fn r17_opportunity_fire_meets_a_move_into_the_front_unless_ordered_off() {
    let mut t = duel("column", "Prussian");
    let log = t.play_on(&[("france", "MOVE 1/45e 0506\n")], &[]);
    assert_has(&log, "Opportunity fire by 28th-Foot at 1/45e in 0506");
    let mut t = duel("column", "Prussian");
    let log = t.play_on(&[("france", "MOVE 1/45e 0506\n"), QUIET], &[]);
    assert!(!has(&log, "Opportunity fire"), "{log:?}");
}

#[test]
fn r21_the_side_with_more_assaults_picks_and_pick_auto_needs_no_mail() {
    let pieces = [
        (
            "france",
            "A",
            "line_infantry",
            "French",
            "0506",
            "N",
            "column",
            4,
            8,
        ),
        (
            "france",
            "B",
            "line_infantry",
            "French",
            "0806",
            "N",
            "column",
            4,
            8,
        ),
        (
            "allies",
            "X",
            "line_infantry",
            "Prussian",
            "0505",
            "S",
            "line",
            4,
            8,
        ),
        (
            "allies",
            "Y",
            "line_infantry",
            "Prussian",
            "0805",
            "S",
            "line",
            4,
            8,
        ),
    ];
    let mut t = Table::new(&field(&pieces, ""));
    t.play_on(
        &[("france", "ASSAULT A AT 0505\nASSAULT B AT 0805\n"), QUIET],
        &[],
    );
    let (seat, text) = t.asked().expect("the French pick");
    assert_eq!(seat, "france");
    assert!(
        text.contains("Choose the next assault") && text.contains("A1") && text.contains("A2"),
        "{text}"
    );
    let log = t.play_on(&[("france", "PICK A2\n")], &[]);
    assert_has(&log, "The French player picks A2");
    let mut t = Table::new(&field(&pieces, ""));
    let log = t.play_on(
        &[
            (
                "france",
                "PICK AUTO\nASSAULT A AT 0505\nASSAULT B AT 0805\n",
            ),
            QUIET,
        ],
        &[],
    );
    assert_has(&log, "The French player picks A1");
}

#[test]
fn r22_unsupplied_artillery_alone_routs_before_the_assault() {
    let mut t = Table::new(&field(
        &[
            (
                "france",
                "1/45e",
                "line_infantry",
                "French",
                "0506",
                "N",
                "column",
                4,
                8,
            ),
            (
                "allies",
                "Sandham",
                "foot_artillery",
                "British",
                "0505",
                "S",
                "unlimbered",
                2,
                7,
            ),
        ],
        "",
    ));
    t.st.units[1].ammo = Some(0);
    let log = t.play_on(&[("france", "ASSAULT 1/45e AT 0505\n"), QUIET], &[]);
    assert_has(&log, "Sandham");
    assert!(
        t.unit("Sandham").routed() || t.unit("Sandham").eliminated,
        "{log:?}"
    );
}

#[test]
fn r30_a_silent_seat_does_nothing_optional() {
    let mut t = two_on_one("British");
    t.play(
        &[("france", "ASSAULT A AT 0505\nASSAULT B AT 0505\n"), QUIET],
        &[2, 2, 2, 2, 2, 2, 5, 1, 1, 1],
    );
    assert!(t.asked().is_some());
    // Nobody answers the Huzzah question.
    let log = t.play_on(&[], &[]);
    assert_has(&log, "The Allies player stayed silent");
    assert!(!has(&log, "Huzzah!"), "{log:?}");
    assert_has(&log, "mêlée values");
}

#[test]
fn r34_victory_is_increments_taken_and_objectives_held() {
    let mut t = Table::new(&field(
        &[
            (
                "france",
                "1/45e",
                "line_infantry",
                "French",
                "0507",
                "N",
                "column",
                4,
                8,
            ),
            (
                "allies",
                "28th-Foot",
                "line_infantry",
                "Prussian",
                "0505",
                "S",
                "line",
                4,
                8,
            ),
        ],
        "[[objectives]]\nname = \"the farm\"\nhex = \"0505\"\nvp = 5\nholder = \"allies\"\n",
    ));
    combat::take_losses(&mut t.st, &["28th-Foot".into()], 2);
    let vp = despatch::rulesets::la_bataille::turn::victory_points(&t.st);
    assert_eq!(
        vp,
        vec![("france".to_string(), 2), ("allies".to_string(), 5)]
    );
}

#[test]
fn r20_routed_units_out_of_enemy_zones_rally_to_disordered_at_the_end_of_their_turn() {
    let mut t = duel("column", "Prussian");
    t.st.units[0].cohesion = despatch::rulesets::la_bataille::state::Cohesion::Routed;
    let log = t.play(&[("france", "PASS\n"), QUIET], &[3, 3]);
    assert_has(&log, "Rally of 1/45e: rolled 3+3 = 6 against 8: passes");
    assert_eq!(
        t.unit("1/45e").cohesion,
        despatch::rulesets::la_bataille::state::Cohesion::Disordered
    );
}

#[test]
fn every_bad_line_of_a_mail_is_reported_with_a_reason_and_a_hint() {
    let t = duel("column", "Prussian");
    let e = orders::parse(
        &t.st,
        "france",
        "MOVE 1/45e 0506\nASSALT 1/45e AT 0505\nFORM 1/45e TRIANGLE\nHUZZAH\nCHARGE 28th-Foot AT 0507\n",
    )
    .unwrap_err();
    let lines: Vec<usize> = e.iter().map(|r| r.line).collect();
    assert_eq!(lines, vec![2, 3, 4, 5], "{e:?}");
    assert!(
        e[0].hint.as_deref().unwrap_or("").contains("ASSAULT"),
        "{e:?}"
    );
    assert!(e[1].reason.contains("TRIANGLE"), "{e:?}");
    assert!(e[2].reason.contains("nobody asked"), "{e:?}");
    assert!(e[3].reason.contains("not one of your units"), "{e:?}");
    // The Allies, not in their Maneuver Segment, may still send standing orders.
    assert!(
        orders::parse(
            &t.st,
            "allies",
            "SQUARE ALWAYS\nRETREAT BEFORE ASSAULT IF 3:1\n"
        )
        .is_ok()
    );
    assert!(orders::parse(&t.st, "allies", "MOVE 28th-Foot 0504\n").is_err());
}

/// Four French battalions in two stacks against a Disordered Prussian line: when the line
/// routs at its morale check all four advance into its hex, one more than may stack there.
fn four_on_one() -> Table {
    let mut t = Table::new(&field(
        &[
            (
                "france",
                "A",
                "line_infantry",
                "French",
                "0506",
                "N",
                "column",
                4,
                8,
            ),
            (
                "france",
                "B",
                "line_infantry",
                "French",
                "0506",
                "N",
                "column",
                4,
                8,
            ),
            (
                "france",
                "C",
                "line_infantry",
                "French",
                "0606",
                "NW",
                "column",
                4,
                8,
            ),
            (
                "france",
                "D",
                "line_infantry",
                "French",
                "0606",
                "NW",
                "column",
                4,
                8,
            ),
            (
                "allies",
                "28th",
                "line_infantry",
                "Prussian",
                "0505",
                "S",
                "line",
                4,
                8,
            ),
        ],
        "",
    ));
    t.st.units[4].cohesion = despatch::rulesets::la_bataille::state::Cohesion::Disordered;
    t
}

const FOUR: &str = "ASSAULT A AT 0505\nASSAULT B AT 0505\nASSAULT C AT 0505\nASSAULT D AT 0505\n";

#[test]
fn r24_displacement_after_an_advance_is_the_owners_choice_and_auto_sends_back_the_last_in() {
    // Both attacking stacks pass (2+2, 2+2); the Disordered line fails (6+6) and routs.
    let mut t = four_on_one();
    t.play_on(&[("france", FOUR), QUIET], &[2, 2, 2, 2, 6, 6]);
    assert_has(&t.log, "28th routs");
    let (seat, text) = t.asked().expect("the displacement is asked");
    assert_eq!(seat, "france");
    assert!(
        text.contains("0505 is overstacked. Displace 1 of"),
        "{text}"
    );
    let log = t.play_on(&[("france", "DISPLACE B\n")], &[]);
    assert_has(&log, "B displaced back from 0505.");
    assert_eq!(
        t.st.label(t.unit("B").hex),
        "0506",
        "back where it came from"
    );
    assert_eq!(t.st.at(t.unit("A").hex).len(), 3);

    // DISPLACE AUTO: nobody is asked; the last unit to come in goes back.
    let mut t = four_on_one();
    let log = t.play_on(
        &[("france", &format!("DISPLACE AUTO\n{FOUR}")), QUIET],
        &[2, 2, 2, 2, 6, 6],
    );
    assert!(!has(&log, "is overstacked"), "{log:?}");
    let last = ["A", "B", "C", "D"]
        .into_iter()
        .rfind(|n| has(&log, &format!("{n} displaced back from 0505.")))
        .expect("one unit displaced");
    assert_eq!(
        t.st.label(t.unit(last).hex),
        if last < "C" { "0506" } else { "0606" }
    );
    let stayed = ["A", "B", "C", "D"]
        .into_iter()
        .filter(|n| t.st.label(t.unit(n).hex) == "0505")
        .count();
    assert_eq!(stayed, 3);
}

#[test]
fn r36_a_defender_stack_that_fails_its_check_stays_in_the_melee_at_its_disordered_value() {
    let mut t = one_on_two();
    // The attacker passes (2+2); the 28th passes (2+2, shift die 1: none); the 29th fails
    // (6+6) and is Disordered; both fires miss (1s); the mêlée roll 1+1.
    let log = t.play_on(
        &[("france", "ASSAULT A AT 0505 0606\n"), QUIET],
        &[2, 2, 2, 2, 1, 6, 6],
    );
    assert_has(&log, "29th is Disordered.");
    assert_eq!(
        t.unit("29th").cohesion,
        despatch::rulesets::la_bataille::state::Cohesion::Disordered
    );
    // The column 4 × 2 × 1.5 = 12 against the line 4 × 2 = 8 and the Disordered line
    // 4 × 2 × 0.5 = 4: 12 to 12 (it would be 12 to 8 if the failed stack left the mêlée).
    assert_has(&log, "A1: mêlée values 12 to 12");
}
