//! Golden tests of La Bataille's infantry procedures in the players' own order syntax: the
//! inventory's worked cases of the assault (§8, T-1 … T-8), the Old Guard Charge, routs, leaders
//! and the Fire Segment, each played from mails with the dice chosen in advance, and random
//! play of both scenarios with replay.

use crate::lbt;

use std::collections::BTreeMap;

use despatch::engine::{Ruleset, Submitted};
use despatch::rulesets::la_bataille::LaBataille;
use despatch::rulesets::la_bataille::orders;
use despatch::rulesets::la_bataille::state::{Cohesion, LbState};
use lbt::*;

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
        &[3, 3, 2, 2, 1, 6, 2, 5, 6],
    );
    assert_has(&log, "= 11: DR1");
    assert_has(&log, "28th-Foot routs 0504 0503 0502 to 0502");
    assert_has(&log, "1/45e advance into 0505 and is Disordered");
    assert_has(&log, "impetus: 1/45e advance to 0504");
    assert_eq!(t.asked(), None, "the impetus is over after one hex");
    assert_eq!(t.st.label(t.unit("1/45e").hex), "0504");
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

/// T-4's already Disordered attacker: an assault whose attacker failed its first check (and
/// so is Disordered) and ended blank is fought again as a firefight in the next Mêlée
/// Segment, with the morale checks of step 3 again (a Disordered unit may not be ordered to
/// assault, so this is how one attacks Disordered).
fn disordered_attacker_in_a_firefight() -> Table {
    let mut t = duel("column", "Prussian");
    // The attacker fails (6+6) and is Disordered; the defender passes (2+2), no shift (1);
    // both fires miss (1, 1); the mêlée roll 4+4 is blank.
    let log = t.play_on(
        &[("france", "ASSAULT 1/45e AT 0505 VIA 0506\n"), QUIET],
        &[6, 6, 2, 2, 1, 1, 1, 4, 4],
    );
    assert_has(&log, "1/45e is Disordered.");
    assert_has(&log, "A1: a firefight.");
    t
}

#[test]
fn t4_a_disordered_attacker_that_fails_again_routs_and_with_nobody_left_there_is_no_fire() {
    let mut t = disordered_attacker_in_a_firefight();
    assert_eq!(t.unit("1/45e").cohesion, Cohesion::Disordered);
    // The next Mêlée Segment: the Disordered attacker fails (6+6) and routs; it was the only
    // attacker, so the assault ends at once: no fire, no mêlée.
    let log = t.play_on(&[("allies", "PASS\n")], &[6, 6, 2, 2]);
    assert_has(&log, "A1 attacker morale check of 1/45e in 0506");
    assert_has(&log, "1/45e rout.");
    assert_eq!(t.unit("1/45e").cohesion, Cohesion::Routed);
    assert_has(
        &log,
        "A1: every assaulting unit routed; the assault is finished.",
    );
    assert!(!has(&log, "Offensive Fire of"), "no fire: {log:?}");
    assert!(!has(&log, "Defensive Fire of"), "no fire: {log:?}");
    assert!(!has(&log, "mêlée values"), "no mêlée: {log:?}");
    assert!(t.st.assaults.is_empty(), "the Assaut marker is gone");
}

#[test]
fn r35_t2_each_passing_defender_stack_rolls_its_own_shift_die_and_the_shifts_add_up() {
    let mut t = one_on_two();
    // The attacker passes (2+2); each defender stack passes (2+2) and rolls: 4 and 5.
    let log = t.play_on(
        &[("france", "ASSAULT A AT 0505 0606\n"), QUIET],
        &[2, 2, 2, 2, 4, 2, 2, 5],
    );
    assert_has(&log, "shift roll 4: 1 left column shift.");
    assert_has(&log, "shift roll 5: 2 left column shifts.");
    assert_eq!(
        t.labels
            .iter()
            .filter(|l| l.starts_with("A1 shift roll of"))
            .count(),
        2,
        "one die per passing stack: {:?}",
        t.labels
    );
    assert_has(&log, "after 3 left and 0 right shift(s)");
}

#[test]
fn p2_guns_firing_at_an_adjacent_assault_fire_canister_two_columns_right() {
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
                "Guns",
                "foot_artillery",
                "Prussian",
                "0505",
                "S",
                "unlimbered",
                2,
                7,
            ),
        ],
        "",
    ));
    // Both pass (2+2), no shift (1), both fires roll 1.
    let log = t.play_on(
        &[("france", "ASSAULT 1/45e AT 0505\n"), QUIET],
        &[2, 2, 2, 2, 1, 1, 1],
    );
    let line = log
        .iter()
        .find(|l| l.contains("Defensive Fire of Guns at 0506"))
        .unwrap_or_else(|| panic!("no Defensive Fire of the guns: {log:?}"));
    assert!(line.contains("+2 canister"), "{line}");
    // The assaulting column's own fire has no canister.
    let own = log
        .iter()
        .find(|l| l.contains("Offensive Fire of 1/45e"))
        .expect("offensive fire");
    assert!(!own.contains("canister"), "{own}");
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

#[test]
fn r13_routers_lose_an_increment_for_each_enemy_zone_they_leave() {
    let mut t = duel("column", "Prussian");
    let log = t.play_on(
        &[("france", "ASSAULT 1/45e AT 0505 VIA 0506\n"), QUIET],
        &[3, 3, 2, 2, 1, 6, 2, 5, 6],
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
            grenadiers("0507"),
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
        &[2, 2, 2, 2, 1, 1, 1, 5, 5],
    );
    assert_has(
        &log,
        "Grenadiers (French) declares an Old Guard Charge A1 on 0505 from 0506 (Number 2)",
    );
    assert_has(&log, "-2 Old Guard");
    assert_has(&log, "+1 the Old Guard attacks");
    assert_has(&log, "= 10: DR2");
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
            grenadiers("0507"),
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
        &[2, 2, 2, 2, 1, 1, 1, 5, 5],
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
    // Morale: each leader's modifier is per rating point (ruleset.toml).
    assert_has(&log, "-3 leader rated 3");
    assert_has(&log, "-2 leader rated 2");
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
