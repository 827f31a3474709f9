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
fn t1_r2_a_passing_defender_rolls_one_die_for_its_left_shifts_and_doubles_its_fire() {
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
fn t8_r25_a_dr1_advances_into_the_target_then_one_hex_along_the_retreat_path() {
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
fn t6_r23_a_huzzah_that_breaks_every_attacker_turns_the_british_left_shifts_right() {
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
fn t6_r23_no_huzzah_for_other_nations_and_no_question() {
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
