//! Golden tests of La Bataille in the players' own order syntax: the inventory's worked
//! cases (§8, T-1 … T-13) and the numbered rulings, each played from mails with the dice
//! chosen in advance (a `Scripted` roller that also records every die's label).

use std::collections::BTreeMap;

use despatch::engine::{Ruleset, SeatId, Submitted};
use despatch::rulesets::la_bataille::LaBataille;
use despatch::rulesets::la_bataille::orders;
use despatch::rulesets::la_bataille::roll::Scripted;
use despatch::rulesets::la_bataille::state::{LbState, Orders, Phase};
use despatch::rulesets::la_bataille::turn;

const RULESET: &str = include_str!("../games/la-bataille/ruleset.toml");

fn seats() -> Vec<String> {
    vec!["france".into(), "allies".into()]
}

/// A game on a scenario, played by mails with scripted dice.
struct Table {
    st: LbState,
    /// Every log line so far.
    log: Vec<String>,
    /// Every die's label so far.
    labels: Vec<String>,
}

impl Table {
    fn new(scenario: &str) -> Self {
        Table {
            st: LaBataille::setup(RULESET, scenario, &seats()).expect("setup"),
            log: vec![],
            labels: vec![],
        }
    }

    /// Mails from the seats (`(seat, text)`), then resolves with these dice; every die must
    /// be used. Returns this resolution's log.
    fn play(&mut self, mails: &[(&str, &str)], dice: &[u32]) -> Vec<String> {
        self.run(mails, dice, true)
    }

    /// As `play`, for a test that checks only the first part of the resolution: the dice
    /// after `dice` are 1s, as many as it takes.
    fn play_on(&mut self, mails: &[(&str, &str)], dice: &[u32]) -> Vec<String> {
        let mut d = dice.to_vec();
        d.extend([1; 60]);
        self.run(mails, &d, false)
    }

    fn run(&mut self, mails: &[(&str, &str)], dice: &[u32], exact: bool) -> Vec<String> {
        let mut subs: BTreeMap<SeatId, Submitted<Orders>> = BTreeMap::new();
        for (seat, text) in mails {
            let o = orders::parse(&self.st, seat, text)
                .unwrap_or_else(|e| panic!("{seat}'s mail is refused: {e:?}"));
            let canon = LaBataille::canonical(&o);
            assert_eq!(
                orders::parse(&self.st, seat, &canon).as_ref(),
                Ok(&o),
                "canonical"
            );
            subs.insert(seat.to_string(), Submitted::Orders(o));
        }
        let mut r = Scripted::new(dice);
        turn::resolve(&mut self.st, &subs, &mut r);
        let lines: Vec<String> = self.st.log.iter().map(|l| l.text.clone()).collect();
        for l in &lines {
            eprintln!("  | {l}");
        }
        assert!(
            !exact || r.faces.is_empty(),
            "dice left over: {:?}; rolled {:?}",
            r.faces,
            r.rolled
        );
        self.labels.extend(r.labels());
        self.log.extend(lines.clone());
        lines
    }

    fn asked(&self) -> Option<(String, String)> {
        match &self.st.phase {
            Phase::Question { question } => Some((question.seat.clone(), question.text.clone())),
            _ => None,
        }
    }

    fn unit(&self, n: &str) -> &despatch::rulesets::la_bataille::state::Unit {
        self.st.unit(n).unwrap_or_else(|| panic!("no unit {n}"))
    }
}

/// One counter of a test field: side, name, class, nation, hex, facing, formation,
/// increments, morale.
type Piece<'a> = (
    &'a str,
    &'a str,
    &'a str,
    &'a str,
    &'a str,
    &'a str,
    &'a str,
    u32,
    u32,
);

/// A clear 10×10 field with these counters and no leaders; `extra` is more scenario TOML
/// (terrain, ammunition) appended to the head.
fn field(pieces: &[Piece], extra: &str) -> String {
    let mut s = format!(
        "name = \"test field\"\nturns = 3\nfirst = \"france\"\n[map]\ncolumns = [1, 10]\nrows = [1, 10]\n{extra}\n"
    );
    for side in ["france", "allies"] {
        s.push_str(&format!(
            "[[sides]]\nid = \"{side}\"\nname = \"{}\"\n",
            if side == "france" { "French" } else { "Allies" }
        ));
        for p in pieces.iter().filter(|p| p.0 == side) {
            s.push_str(&format!(
                "[[sides.units]]\nname = \"{}\"\nclass = \"{}\"\nnation = \"{}\"\nhex = \"{}\"\nfacing = \"{}\"\nformation = \"{}\"\nincrements = {}\nmorale = {}\n",
                p.1, p.2, p.3, p.4, p.5, p.6, p.7, p.8
            ));
        }
    }
    s
}

fn has(log: &[String], part: &str) -> bool {
    log.iter().any(|l| l.contains(part))
}

fn assert_has(log: &[String], part: &str) {
    assert!(
        has(log, part),
        "no log line contains `{part}`:\n{}",
        log.join("\n")
    );
}

/// A French column two hexes south of a British line, nobody else: the smallest assault.
fn duel(french_formation: &str, british_nation: &str) -> Table {
    Table::new(&field(
        &[
            (
                "france",
                "1/45e",
                "line_infantry",
                "French",
                "0507",
                "N",
                french_formation,
                4,
                8,
            ),
            (
                "allies",
                "28th-Foot",
                "line_infantry",
                british_nation,
                "0505",
                "S",
                "line",
                4,
                8,
            ),
        ],
        "",
    ))
}

/// The standing order that keeps opportunity fire out of a test's dice.
const QUIET: (&str, &str) = ("allies", "OPPORTUNITY FIRE OFF\n");

#[test]
fn r2_t1_a_passing_defender_rolls_one_die_for_its_left_shifts_and_doubles_its_fire() {
    // Morale: attacker 3+3, defender 2+2; shift die; Offensive and Defensive Fire 1 each;
    // then the Huzzah question stops the assault.
    for (die, shifts) in [
        (2, "0 left column shifts"),
        (3, "1 left column shift"),
        (6, "2 left column shifts"),
    ] {
        let mut t = duel("column", "British");
        let log = t.play(
            &[("france", "ASSAULT 1/45e AT 0505 VIA 0506\n"), QUIET],
            &[3, 3, 2, 2, die, 1, 1],
        );
        assert_has(&log, &format!("shift roll {die}: {shifts}"));
        // Both fires doubled: the column's 4 increments at half strength, the line's 4 whole.
        assert_has(&log, "Offensive Fire of 1/45e at 0505: strength 4 (x2)");
        assert_has(&log, "Defensive Fire of 28th-Foot at 0506: strength 8 (x2)");
        assert_eq!(
            t.asked().map(|q| q.0).as_deref(),
            Some("allies"),
            "the Huzzah is asked"
        );
    }
}

#[test]
fn t3_each_casualty_of_the_assault_fire_is_three_on_the_melee_roll() {
    let mut t = duel("line", "Prussian");
    // Offensive fire 2 casualties (die 6), defensive fire 1 (die 2): +6 −3 = +3 on the
    // mêlée roll (3+1), no morale check for these casualties.
    let log = t.play(
        &[("france", "ASSAULT 1/45e AT 0505 VIA 0506\n"), QUIET],
        &[3, 3, 2, 2, 1, 6, 2, 3, 1],
    );
    assert_has(
        &log,
        "Offensive Fire of 1/45e at 0505: strength 8 (x2), column 5 (+1 point blank), rolled 6: 2 casualties",
    );
    assert_has(&log, "rolled 2: 1 casualty");
    assert_has(&log, "mêlée DRM from fire +3");
    assert_has(&log, "rolled 3+1 +3 fire +0 leaders = 7");
    assert!(!has(&log, "after fire"), "no morale check for assault fire");
}

#[test]
fn r25_t8_a_dr1_advances_into_the_target_then_one_hex_along_the_retreat_path() {
    let mut t = duel("column", "Prussian");
    let log = t.play(
        &[("france", "ASSAULT 1/45e AT 0505 VIA 0506\n"), QUIET],
        &[3, 3, 2, 2, 1, 6, 2, 3, 4],
    );
    assert_has(&log, "= 7: DR1");
    assert_has(&log, "28th-Foot routs 0504 0503 0502 to 0502");
    assert_has(&log, "1/45e advance into 0505 and is Disordered");
    assert_has(&log, "impetus: 1/45e advance to 0504");
    assert_eq!(t.asked(), None, "the impetus is over after one hex");
    assert_eq!(t.st.label(t.unit("1/45e").hex), "0504");
}

/// Two French columns against one line: the assault A1 of both.
fn two_on_one(nation: &str) -> Table {
    Table::new(&field(
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
                "0606",
                "NW",
                "column",
                4,
                8,
            ),
            (
                "allies",
                "28th-Foot",
                "line_infantry",
                nation,
                "0505",
                "S",
                "line",
                4,
                8,
            ),
        ],
        "",
    ))
}

#[test]
fn t4_attackers_that_fail_their_morale_are_disordered_and_fight_on() {
    let mut t = two_on_one("Prussian");
    let log = t.play_on(
        &[("france", "ASSAULT A AT 0505\nASSAULT B AT 0505\n"), QUIET],
        &[6, 6, 6, 6, 2, 2, 1],
    );
    assert_has(&log, "B (French, Number 1) joins assault A1");
    assert_has(
        &log,
        "attacker morale check of A in 0506: rolled 6+6 = 12, -1 = 11 against 8: fails",
    );
    assert_has(&log, "A, B are Disordered");
    // Disordered firers shift left; the mêlée is still fought.
    assert_has(&log, "-1 disordered firers");
    assert_has(&log, "A1: mêlée values");
}

#[test]
fn t5_defenders_already_disordered_that_fail_rout_and_the_attackers_walk_in() {
    let mut t = duel("column", "Prussian");
    t.st.units[1].cohesion = despatch::rulesets::la_bataille::state::Cohesion::Disordered;
    let log = t.play_on(
        &[("france", "ASSAULT 1/45e AT 0505 VIA 0506\n"), QUIET],
        &[2, 2, 6, 6],
    );
    assert_has(&log, "28th-Foot routs");
    assert_has(&log, "1/45e advance into 0505");
    assert!(!has(&log, "Offensive Fire"), "no fire: {log:?}");
    assert!(!has(&log, "mêlée values"), "no odds: {log:?}");
    assert!(!has(&log, "impetus"), "no impetus: {log:?}");
}

#[test]
fn r23_t6_a_huzzah_that_breaks_every_attacker_turns_the_british_left_shifts_right() {
    let mut t = two_on_one("British");
    t.play(
        &[("france", "ASSAULT A AT 0505\nASSAULT B AT 0505\n"), QUIET],
        &[2, 2, 2, 2, 2, 2, 5, 1, 1, 1],
    );
    let (seat, text) = t.asked().expect("the Huzzah is asked");
    assert_eq!(seat, "allies");
    assert!(text.contains("may Huzzah against A, B"), "{text}");
    // Both attackers fail their second check; the mêlée roll 1+1.
    let log = t.play_on(&[("allies", "HUZZAH\n")], &[6, 6, 6, 6, 1, 1]);
    assert_has(
        &log,
        "A1 Huzzah morale check of A in 0506: rolled 6+6 = 12, +1 = 13 against 8: fails",
    );
    assert_has(&log, "A1 Huzzah morale check of B in 0606");
    assert_has(
        &log,
        "the British become the attacker; their 2 shifts now count right",
    );
    assert_has(
        &log,
        "mêlée values 8 to 8, column 2:1 after 0 left and 2 right shift(s)",
    );
}

#[test]
fn r23_t6_no_huzzah_for_other_nations_and_no_question() {
    let mut t = two_on_one("Dutch");
    let log = t.play_on(
        &[("france", "ASSAULT A AT 0505\nASSAULT B AT 0505\n"), QUIET],
        &[2, 2, 2, 2, 2, 2, 5],
    );
    assert!(!has(&log, "Huzzah"));
}

#[test]
fn r23_huzzah_always_answers_in_advance() {
    let mut t = two_on_one("British");
    let log = t.play_on(
        &[
            ("france", "ASSAULT A AT 0505\nASSAULT B AT 0505\n"),
            ("allies", "OPPORTUNITY FIRE OFF\nHUZZAH ALWAYS\n"),
        ],
        &[2, 2, 2, 2, 2, 2, 5, 1, 1, 1, 6, 6, 6, 6],
    );
    assert!(!has(&log, "is asked"), "{log:?}");
    assert_has(&log, "Huzzah");
}

// ---- Rulings ---------------------------------------------------------------------------

use despatch::rulesets::la_bataille::{combat, field as geo};

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
fn r7_cavalry_never_stacks_with_infantry() {
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
                "france",
                "Hussards",
                "light_cavalry",
                "French",
                "0509",
                "N",
                "line",
                3,
                8,
            ),
            (
                "allies",
                "28th-Foot",
                "line_infantry",
                "Prussian",
                "0502",
                "S",
                "line",
                4,
                8,
            ),
        ],
        "",
    ));
    let e = orders::parse(&t.st, "france", "MOVE Hussards 0508\n").unwrap_err();
    assert!(e[0].reason.contains("stacking"), "{e:?}");
}

#[test]
fn r8_cavalry_may_not_charge_into_woods() {
    let t = Table::new(&field(
        &[
            (
                "france",
                "Hussards",
                "light_cavalry",
                "French",
                "0508",
                "N",
                "line",
                3,
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
        "[[terrain]]\nkind = \"woods\"\nhexes = [\"0507\"]\n",
    ));
    // The charge path through the wood is refused; around it, the charge goes.
    let e = orders::parse(&t.st, "france", "CHARGE Hussards AT 0505 VIA 0507 0506\n").unwrap_err();
    assert!(e[0].reason.contains("0507"), "{e:?}");
    let around = orders::parse(&t.st, "france", "CHARGE Hussards AT 0505 VIA 0608 0607\n");
    assert!(around.is_ok(), "{around:?}");
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
fn r11_t7_a_blank_is_a_firefight_fought_again_on_the_firefight_column_without_distance() {
    let mut t = duel("column", "Prussian");
    // Morale passes, no shift, both fires miss, mêlée 2+2 at 3:2: blank.
    let log = t.play_on(
        &[("france", "ASSAULT 1/45e AT 0505 VIA 0506\n"), QUIET],
        &[2, 2, 2, 2, 1, 1, 1, 2, 2],
    );
    assert_has(&log, "rolled 2+2 +0 fire +0 leaders = 4: blank");
    assert_has(
        &log,
        "A1: a firefight. Firefight markers on 1/45e, 28th-Foot",
    );
    assert!(t.unit("1/45e").firefight && t.unit("1/45e").number.is_none());
    assert!(
        t.st.assaults.iter().any(|a| a.firefight),
        "the Assaut marker stays"
    );
    // Units in a firefight do not fire in the Fire Segment, nor move.
    assert!(orders::parse(&t.st, "allies", "MOVE 28th-Foot 0504\n").is_err());
    // The next Mêlée Segment: no Distance modifier, the Firefight column; AR ends it.
    let log = t.play_on(&[("allies", "PASS\n")], &[1, 1, 1, 1, 1, 1, 1, 1, 1]);
    assert_has(&log, "a firefight fought again on the Firefight column");
    assert_has(
        &log,
        "A1 attacker morale check of 1/45e in 0506: rolled 1+1 = 2, -1 = 1 against 8: passes (-1 column)",
    );
    assert!(!has(&log, "Fire Segment"), "{log:?}");
    assert_has(
        &log,
        "column Firefight; rolled 1+1 +0 fire +0 leaders = 2: AR",
    );
    assert!(t.st.assaults.is_empty(), "the firefight is over");
    assert!(t.st.units.iter().all(|u| !u.firefight));
}

/// Cuirassiers four hexes south of a line battalion.
fn charge_field(target_class: &str, target_formation: &str) -> Table {
    Table::new(&field(
        &[
            (
                "france",
                "Cuir",
                "heavy_cavalry",
                "French",
                "0509",
                "N",
                "line",
                3,
                9,
            ),
            (
                "allies",
                "Target",
                target_class,
                "Prussian",
                "0505",
                "S",
                target_formation,
                3,
                8,
            ),
        ],
        "",
    ))
}

const NO_SQUARE: (&str, &str) = (
    "allies",
    "OPPORTUNITY FIRE OFF\nSQUARE NEVER\nREACTION NEVER\n",
);

#[test]
fn r3_a_charge_on_routed_units_is_the_pgd_procedure_with_pursuit_and_tired() {
    let mut t = charge_field("line_infantry", "line");
    t.st.units[1].cohesion = despatch::rulesets::la_bataille::state::Cohesion::Routed;
    let log = t.play_on(&[("france", "CHARGE Cuir AT 0505\n"), NO_SQUARE], &[]);
    assert_has(&log, "C1: within 2 hexes, Cuir declare 0505 the target");
    assert_has(&log, "Cavalry Charge vs. PGD against Target");
    // Printed MP 8, 3 charge MP spent: (8 − 3) / 3 = 1.
    assert_has(&log, "C1: pursuit: Target lose 1 increment.");
    assert_has(&log, "Cuir marked Tired");
    assert!(t.unit("Cuir").charged);
}

#[test]
fn r33_t9_pursuit_costs_printed_mp_less_charge_mp_over_three_with_the_fastest_charger() {
    use despatch::rulesets::kit::data::Marked;
    let mut t = charge_field("line_infantry", "line");
    let target = t.unit("Target").hex;
    let id = despatch::rulesets::la_bataille::charge::declare(
        &mut t.st,
        &["Cuir".to_string()],
        target,
        vec![],
        None,
    )
    .expect("declared");
    let mut c = t.st.charge(id).unwrap().clone();
    c.mp = 5;
    for (mp, loss) in [(12.0, 2), (8.0, 1), (6.0, 0)] {
        t.st.data.classes.get_mut("heavy_cavalry").unwrap().mp = Marked::Seed(mp);
        assert_eq!(
            despatch::rulesets::la_bataille::cavalry::pursuit_loss(&t.st, &c),
            loss,
            "MP {mp}"
        );
    }
}

#[test]
fn r29_t10_a_reaction_charge_meets_midway_and_the_reactor_becomes_the_attacker() {
    let mut t = Table::new(&field(
        &[
            (
                "france",
                "Cuir",
                "heavy_cavalry",
                "French",
                "0509",
                "N",
                "line",
                3,
                9,
            ),
            (
                "allies",
                "Hussars",
                "light_cavalry",
                "British",
                "0505",
                "S",
                "line",
                3,
                8,
            ),
        ],
        "",
    ));
    t.play_on(&[("france", "CHARGE Cuir AT 0505\n"), QUIET], &[]);
    let (seat, text) = t.asked().expect("the reaction is asked");
    assert_eq!(seat, "allies");
    assert!(text.contains("in the Reaction Zone of Hussars"), "{text}");
    // Two hexes between them (0507, 0506): one each.
    let log = t.play_on(&[("allies", "REACT Hussars\n")], &[2, 2]);
    assert_has(
        &log,
        "C1 Reaction Charge of Hussars: rolled 2+2 = 4 against 8: passes",
    );
    assert_has(&log, "Hussars and Cuir meet face to face at 0506 and 0507");
    assert_has(
        &log,
        "Hussars (Allies) become the attacker: Charge marker C2",
    );
    assert_has(&log, "C2: Cavalry Charge vs. Cavalry Mêlée Procedure");
}

#[test]
fn r29_a_failed_reaction_leaves_the_reactor_in_place_and_in_good_order() {
    let mut t = Table::new(&field(
        &[
            (
                "france",
                "Cuir",
                "heavy_cavalry",
                "French",
                "0509",
                "N",
                "line",
                3,
                9,
            ),
            (
                "allies",
                "Hussars",
                "light_cavalry",
                "British",
                "0505",
                "S",
                "line",
                3,
                8,
            ),
        ],
        "",
    ));
    t.play_on(
        &[
            ("france", "CHARGE Cuir AT 0505\n"),
            ("allies", "OPPORTUNITY FIRE OFF\nREACTION ALWAYS\n"),
        ],
        &[6, 6],
    );
    assert_has(&t.log, "C1 Reaction Charge of Hussars: rolled 6+6 = 12");
    assert_eq!(t.st.label(t.unit("Hussars").hex), "0505");
    assert_ne!(
        t.unit("Hussars").cohesion,
        despatch::rulesets::la_bataille::state::Cohesion::Disordered
    );
}

#[test]
fn r31_t12_after_the_melee_the_cavalry_regroups_two_hexes_back_along_its_path_exhausted() {
    let mut t = charge_field("line_infantry", "line");
    // Stands (1+1), no shift, fire misses, mêlée 1+1 at 4:1: DR2.
    let log = t.play_on(
        &[("france", "CHARGE Cuir AT 0505\n"), NO_SQUARE],
        &[1, 1, 1, 1, 1, 1],
    );
    assert_has(
        &log,
        "C1 Roll to Stand of Target in 0505: rolled 1+1 = 2, +2 = 4 against 8: passes",
    );
    assert_has(
        &log,
        "mêlée values 24 to 6, column 4:1; rolled 1+1 +0 fire +0 leaders = 2: DR2",
    );
    // The DR's number is ignored in a charge: no impetus; pursuit before the rout.
    assert!(!has(&log, "impetus"));
    assert_has(&log, "C1: pursuit: Target lose 1 increment.");
    assert_has(&log, "C1: Cuir advance into 0505 and is Disordered.");
    // The path 0509 0508 0507 0506, and the advance into 0505: two hexes back is 0507.
    assert_has(&log, "C1: Cuir fall back to 0507.");
    assert_has(
        &log,
        "C1: Cuir marked Exhausted, with an inverted Charge marker.",
    );
}

#[test]
fn r13_routers_lose_an_increment_for_each_enemy_zone_they_leave() {
    let mut t = duel("column", "Prussian");
    let log = t.play_on(
        &[("france", "ASSAULT 1/45e AT 0505 VIA 0506\n"), QUIET],
        &[3, 3, 2, 2, 1, 6, 2, 3, 4],
    );
    assert_has(
        &log,
        "28th-Foot routs 0504 0503 0502 to 0502, losing 1 increment(s)",
    );
    assert_eq!(
        t.unit("28th-Foot").increments,
        2,
        "1 from the fire, 1 from the rout"
    );
}

#[test]
fn r10_the_old_guard_charge_runs_its_own_procedure_and_ends_in_step_10_exploitation() {
    let mut t = Table::new(&field(
        &[
            (
                "france",
                "Grenadiers",
                "old_guard",
                "French",
                "0507",
                "N",
                "column",
                4,
                10,
            ),
            (
                "allies",
                "28th-Foot",
                "line_infantry",
                "Prussian",
                "0505",
                "S",
                "line",
                3,
                8,
            ),
        ],
        "",
    ));
    // A line battalion may not make it.
    assert!(orders::parse(&t.st, "allies", "GUARD CHARGE 28th-Foot AT 0507\n").is_err());
    let log = t.play_on(
        &[
            (
                "france",
                "GUARD CHARGE Grenadiers AT 0505 VIA 0506\nIMPETUS AUTO\n",
            ),
            QUIET,
        ],
        &[2, 2, 2, 2, 1, 1, 1, 1, 1],
    );
    assert_has(
        &log,
        "Grenadiers (French) declares an Old Guard Charge A1 on 0505 from 0506 (Number 2)",
    );
    assert_has(&log, "-2 Old Guard");
    assert_has(&log, "+1 the Old Guard attacks");
    assert_has(&log, "= 2: DR2");
    assert_has(&log, "A1: impetus: Grenadiers advance to 0504 0503.");
    assert_has(
        &log,
        "A1: Old Guard Charge Exploitation: Grenadiers may move on",
    );
    let (seat, _) = t.asked().expect("the exploitation is asked");
    assert_eq!(seat, "france");
    // Only the exploiting Guard takes orders, and no FIRE.
    assert!(orders::parse(&t.st, "france", "FIRE Grenadiers AT 0502\n").is_err());
    let log = t.play_on(&[("france", "MOVE Grenadiers 0403\n")], &[]);
    assert_has(&log, "A1: the Old Guard exploits.");
    assert_eq!(t.st.label(t.unit("Grenadiers").hex), "0403");
}

#[test]
fn r10_no_exploitation_ends_the_old_guard_charge() {
    let mut t = Table::new(&field(
        &[
            (
                "france",
                "Grenadiers",
                "old_guard",
                "French",
                "0507",
                "N",
                "column",
                4,
                10,
            ),
            (
                "allies",
                "28th-Foot",
                "line_infantry",
                "Prussian",
                "0505",
                "S",
                "line",
                3,
                8,
            ),
        ],
        "",
    ));
    t.play_on(
        &[
            (
                "france",
                "GUARD CHARGE Grenadiers AT 0505 VIA 0506\nIMPETUS AUTO\n",
            ),
            QUIET,
        ],
        &[2, 2, 2, 2, 1, 1, 1, 1, 1],
    );
    let log = t.play_on(&[("france", "NO EXPLOITATION\n")], &[]);
    assert!(!has(&log, "exploits"), "{log:?}");
    assert_eq!(t.st.label(t.unit("Grenadiers").hex), "0503");
    assert_eq!(t.st.phasing, "allies");
}

#[test]
fn r16_the_best_leader_of_each_side_gives_his_melee_modifier() {
    let text = std::fs::read_to_string(format!(
        "{}/games/la-bataille/scenarios/teaching.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let mut t = Table::new(&text);
    // Ney (3) rides with 1/45e, Picton (2) with the 28th: +2 −1 on the mêlée roll.
    let log = t.play_on(
        &[
            ("france", "ASSAULT 1/45e AT 0504 VIA 0506 0505\n"),
            ("allies", "OPPORTUNITY FIRE OFF\nHUZZAH NEVER\n"),
        ],
        &[1, 1, 1, 1, 1, 1, 1, 1, 2, 2],
    );
    assert_has(&log, "-1 leader");
    assert_has(&log, "+1 leaders");
}

#[test]
fn r18_in_the_fire_segment_assault_participants_hold_their_fire_and_others_fire() {
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
                "france",
                "Batterie",
                "foot_artillery",
                "French",
                "0808",
                "N",
                "unlimbered",
                2,
                7,
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
            (
                "allies",
                "5th-KGL",
                "line_infantry",
                "KGL",
                "0805",
                "S",
                "line",
                4,
                8,
            ),
        ],
        "",
    ));
    let log = t.play_on(
        &[
            (
                "france",
                "ASSAULT 1/45e AT 0505 VIA 0506\nFIRE Batterie AT 0805\n",
            ),
            ("allies", "OPPORTUNITY FIRE OFF\nHUZZAH NEVER\n"),
        ],
        &[],
    );
    assert_has(&log, "Fire of Batterie at 0805");
    let segment: Vec<&String> = log
        .iter()
        .skip_while(|l| !l.contains("Fire Segment"))
        .take_while(|l| !l.contains("picks A1"))
        .collect();
    assert!(
        segment
            .iter()
            .all(|l| !l.contains("Fire of 1/45e") && !l.contains("Fire of 28th-Foot")),
        "{segment:?}"
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
fn r26_cavalry_that_charged_this_turn_or_is_disordered_may_not_charge() {
    let mut t = charge_field("line_infantry", "line");
    t.st.units[0].charged = true;
    assert!(orders::parse(&t.st, "france", "CHARGE Cuir AT 0505\n").is_err());
    let mut t = charge_field("line_infantry", "line");
    t.st.units[0].cohesion = despatch::rulesets::la_bataille::state::Cohesion::Disordered;
    assert!(orders::parse(&t.st, "france", "CHARGE Cuir AT 0505\n").is_err());
    let t = charge_field("line_infantry", "line");
    assert!(orders::parse(&t.st, "france", "CHARGE Cuir AT 0505\n").is_ok());
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

/// Cuirassiers five hexes from a line battalion, a hill in between hiding them until the
/// charge is two hexes away: the square is tried after the target is declared (T-13).
fn hidden_charge() -> Table {
    Table::new(&field(
        &[
            (
                "france",
                "Cuir",
                "heavy_cavalry",
                "French",
                "0510",
                "N",
                "line",
                3,
                9,
            ),
            (
                "allies",
                "Target",
                "line_infantry",
                "Prussian",
                "0505",
                "S",
                "line",
                3,
                8,
            ),
        ],
        "[[terrain]]\nkind = \"hill\"\nhexes = [\"0507\"]\n",
    ))
}

#[test]
fn r28_t13_a_square_on_the_declared_target_lets_the_cavalry_try_to_recall_and_a_failure_charges_it()
{
    let mut t = hidden_charge();
    t.play_on(
        &[
            ("france", "CHARGE Cuir AT 0505\n"),
            ("allies", "OPPORTUNITY FIRE OFF\nREACTION NEVER\n"),
        ],
        &[],
    );
    assert_has(&t.log, "C1: within 2 hexes, Cuir declare 0505 the target.");
    let (seat, text) = t.asked().expect("square question");
    assert_eq!(seat, "allies");
    assert!(
        text.contains("Cuir (French) is at 0507, within 4 hexes of Target. Form square?"),
        "{text}"
    );
    let log = t.play_on(&[("allies", "SQUARE Target\n")], &[1, 1]);
    assert_has(
        &log,
        "Square attempt of Target in 0505 (+1 from line, +1 cavalry 2 hexes away): rolled 1+1 = 2, +2 = 4 against 8: passes — square formed.",
    );
    let (seat, text) = t.asked().expect("recall question");
    assert_eq!(seat, "france");
    assert!(
        text.contains("your target 0505 has formed square"),
        "{text}"
    );
    let log = t.play_on(&[("france", "RECALL\n")], &[6, 6]);
    assert_has(
        &log,
        "C1 Recall of Cuir: rolled 6+6 = 12, -1 = 11 against 9: fails",
    );
    assert_has(&log, "the cavalry must charge the square");
    assert_has(&log, "-3 square");
}

#[test]
fn r28_recall_if_square_recalls_by_standing_order_and_the_charge_ends() {
    let mut t = hidden_charge();
    let log = t.play_on(
        &[
            ("france", "RECALL IF SQUARE\nCHARGE Cuir AT 0505\n"),
            (
                "allies",
                "OPPORTUNITY FIRE OFF\nREACTION NEVER\nSQUARE ALWAYS\n",
            ),
        ],
        &[1, 1, 2, 2],
    );
    assert!(!has(&log, "is asked"), "{log:?}");
    assert_has(&log, "square formed");
    assert_has(
        &log,
        "C1 Recall of Cuir: rolled 2+2 = 4, -1 = 3 against 9: passes",
    );
    assert!(!has(&log, "Mêlée Procedure"), "{log:?}");
    assert_eq!(
        t.unit("Target").formation,
        despatch::rulesets::la_bataille::state::Formation::Square
    );
}

/// Random play of a shipped scenario with the sample players and the real dice: every
/// sample parses and round-trips, every step replays to the same state, the game ends.
fn random_play(scenario: &str, game: u64, steps: u64) -> (LbState, u64) {
    use despatch::dice::Dice;
    use despatch::engine::{Silence, Viewer};
    let text = std::fs::read_to_string(format!(
        "{}/games/la-bataille/scenarios/{scenario}.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let mut st = LaBataille::setup(RULESET, &text, &seats()).unwrap();
    let mut k = 0;
    while k < steps && LaBataille::outcome(&st).is_none() {
        k += 1;
        let spec = LaBataille::step(&st);
        let mut subs = BTreeMap::new();
        for p in &spec.prompts {
            if !p.required && !(k + game).is_multiple_of(4) {
                continue;
            }
            let text = LaBataille::sample_orders(&st, &p.seat, game * 1000 + k);
            let o = LaBataille::parse(&st, &p.seat, &text)
                .unwrap_or_else(|e| panic!("sample refused at step {k}: {text}\n{e:?}"));
            let again = LaBataille::parse(&st, &p.seat, &LaBataille::canonical(&o)).unwrap();
            assert_eq!(again, o, "canonical round trip");
            subs.insert(p.seat.clone(), Submitted::Orders(o));
        }
        for p in &spec.prompts {
            subs.entry(p.seat.clone())
                .or_insert(Submitted::Nmr(Silence::StandingOrders));
        }
        let mut seed = [0u8; 32];
        seed[..8].copy_from_slice(&k.to_be_bytes());
        seed[8..16].copy_from_slice(&game.to_be_bytes());
        let next = LaBataille::resolve(&st, &subs, &mut Dice::new(seed));
        assert_eq!(
            next,
            LaBataille::resolve(&st, &subs, &mut Dice::new(seed)),
            "replay at step {k}"
        );
        for v in [
            Viewer::Seat("france".into()),
            Viewer::Seat("allies".into()),
            Viewer::Spectator,
        ] {
            let _ = LaBataille::view(&next, &v);
        }
        st = next;
    }
    (st, k)
}

#[test]
fn both_scenarios_play_to_the_end_with_the_sample_players_and_replay() {
    for (scenario, games) in [("teaching", 4), ("waterloo-1815", 3)] {
        for g in 0..games {
            let (st, k) = random_play(scenario, g, 400);
            let out = LaBataille::outcome(&st)
                .unwrap_or_else(|| panic!("{scenario} game {g} unfinished after {k} steps"));
            eprintln!("{scenario} game {g}: {k} steps, {}", out.summary);
        }
    }
}
