//! The Gear Krieg rulings on the round and on fire at movers (R22 the attacker's movement, R23
//! defence against a mover, R24 interrupts by mail, R25 who starts, R26 initiative draws, R29
//! victory points, R33 no Step 4 events), one `fn r<N>_…` test each (R24: one per case), in the
//! players' order syntax through the public `Ruleset` API on Crossroads with fixed dice.

use despatch::board::tabletop::{Pt, dist};
use despatch::engine::Ruleset;
use despatch::rulesets::gear_krieg::data::MoveMode;
use despatch::rulesets::gear_krieg::state::{GkState, Phase};
use despatch::rulesets::gear_krieg::{GearKrieg, activation, roll};
use despatch::rulesets::kit::roster::{Roster, TwoSides};

use crate::gear_krieg as gk;
use gk::*;

/// R22: "Movement for the attacker's modifier is the activated unit's planned move; a unit
/// firing before its own activation this round counts as stationary (at Top Speed: -3)."
#[test]
fn r22_the_attacker_counts_its_planned_move_or_stands_still_before_activating() {
    // General-1 fires first and moves after: the move it plans is what counts.
    for (moves, shown) in [
        ("", ", movement +2"),
        ("MOVE 1\n", ", movement +1"),
        ("MOVE 2\n", ""),
    ] {
        let mut st = activating("us");
        place(&mut st, "General-1", 10.0, 34.0, 90.0);
        place(&mut st, "Valkurie-1", 16.0, 34.0, 270.0);
        let order = format!("ACTIVATE General-1\nFIRE Cannon AT Valkurie-1\n{moves}");
        let (after, _) = play(&st, &[("us", &order), ("germany", "INTERRUPTS NEVER\n")], 1);
        let l = line(&after, "General-1 fires Cannon at Valkurie-1");
        assert!(
            l.contains(&format!("(perception +1, fire control -1{shown}) vs")),
            "{moves:?}: {l}"
        );
    }
    // Valkurie-1 on overwatch fires before its own activation: stationary, or -3 at Top Speed;
    // once activated, its own move of 2 cm (Combat Speed, +0) counts.
    for (top, activated, shown) in [
        (false, false, ", movement +2"),
        (true, false, ", movement -3"),
        (false, true, ""),
    ] {
        let mut st = activating("us");
        place(&mut st, "General-1", 10.0, 34.0, 90.0);
        place(&mut st, "Valkurie-1", 16.0, 34.0, 270.0);
        let v = st.unit_mut("Valkurie-1").unwrap();
        v.top = top;
        if activated {
            (v.activated, v.moved, v.last_move) = (true, Some(2.0), 2.0);
        }
        let mails = [
            ("us", "ACTIVATE General-1\nMOVE 2\n"),
            ("germany", "OVERWATCH Valkurie-1 AT ANY\nINTERRUPTS NEVER\n"),
        ];
        let (after, _) = play(&st, &mails, 1);
        let l = line(&after, "Overwatch: Valkurie-1 fires KwK at General-1");
        assert!(
            l.contains(&format!("(perception +1, fire control -1{shown}) vs")),
            "top {top}, activated {activated}: {l}"
        );
    }
}

/// R23: "Defence against a mover uses its whole planned move ('full movement counts'),
/// wherever on its path it is attacked."
#[test]
fn r23_a_mover_defends_with_its_whole_planned_move_anywhere_on_its_path() {
    let st0 = activating("us");
    let planned = st0.data.defender_modifier(5.0);
    assert_ne!(
        planned,
        st0.data.defender_modifier(1.0),
        "the test tells the two apart"
    );
    // General-1 at Top Speed in Ground mode plans 5 cm east; Valkurie-1 fires at its first cm,
    // Valkurie-2 (WITHIN 4) at its fourth.
    let mut st = st0;
    place(&mut st, "General-1", 10.0, 34.0, 90.0);
    let g = st.unit_mut("General-1").unwrap();
    (g.mode, g.top) = (MoveMode::Ground, true);
    place(&mut st, "Valkurie-1", 20.0, 34.0, 270.0);
    place(&mut st, "Valkurie-2", 17.0, 33.0, 270.0);
    let mails = [
        ("us", "ACTIVATE General-1\nMOVE 5\n"),
        (
            "germany",
            "OVERWATCH Valkurie-1 AT ANY\nOVERWATCH Valkurie-2 AT ANY WITHIN 4\nINTERRUPTS NEVER\n",
        ),
    ];
    for k in 0..100 {
        let (after, rolls) = play(&st, &mails, k);
        let shots = lines(&after, "Overwatch: ");
        if shots.len() < 2 {
            continue; // the first shot stopped the General: try other dice
        }
        for (firer, at) in [
            ("Valkurie-1", "(medium, 9 cm)"),
            ("Valkurie-2", "(short, 3.2 cm)"),
        ] {
            let l = line(
                &after,
                &format!("Overwatch: {firer} fires KwK at General-1 {at}"),
            );
            let d = roll::read(
                &faces(&rolls, &format!("attack {firer}->General-1 defender")),
                -2 + planned,
            );
            let expect = format!(
                "vs defence {} (ground mode -2, movement {planned:+})",
                roll::show(&d)
            );
            assert!(l.contains(&expect), "{expect} in {l}");
        }
        return;
    }
    panic!("no seed let both overwatch shots fire");
}

/// The R24 set-up: General-1 at Top Speed in Ground mode orders 5 cm east along the north edge;
/// Valkurie-1 and Valkurie-2 could fire at it from its first cm on.
fn moving_general() -> GkState {
    let mut st = activating("us");
    place(&mut st, "General-1", 10.0, 34.0, 90.0);
    let g = st.unit_mut("General-1").unwrap();
    (g.mode, g.top) = (MoveMode::Ground, true);
    place(&mut st, "Valkurie-1", 30.0, 34.0, 270.0);
    place(&mut st, "Valkurie-2", 30.0, 35.5, 270.0);
    st
}

const MOVE: &str = "ACTIVATE General-1\nMOVE 5\n";

/// R24 (the question): "A move stops at most once per activation for the question 'interrupt
/// now?', at the first point (after it starts moving) where a unit of yours that has an Action
/// and is not on overwatch could fire at it. Your answer fires at that point … Interrupts are
/// fire only."
#[test]
fn r24_a_move_stops_once_at_the_first_point_and_the_answer_fires_there() {
    let (asked, _) = play(&moving_general(), &[("us", MOVE)], 1);
    assert_eq!(
        asked.phase,
        Phase::Interrupt {
            side: "germany".into(),
            mover: "General-1".into()
        }
    );
    line(
        &asked,
        "General-1 is at 11,34: German Kampfgruppe may interrupt.",
    );
    let e = GearKrieg::parse(&asked, "germany", "INTERRUPT Valkurie-1 MOVE 2\n").unwrap_err();
    assert!(e[0].reason.contains("INTERRUPT unit FIRE weapon"), "{e:?}");
    for k in 0..50 {
        let answer = [("germany", "INTERRUPT Valkurie-1 FIRE KwK\n")];
        let (after, _) = play(&asked, &answer, k);
        line(
            &after,
            "Interrupt: Valkurie-1 fires KwK at General-1 (long, 19 cm)",
        );
        // Valkurie-2 could fire all along the rest of the move: no second question.
        assert!(
            lines(&after, "General-1 is at").is_empty(),
            "{:?}",
            after.log
        );
        assert_eq!(
            after.phase,
            Phase::Activate {
                side: "germany".into()
            }
        );
        let g = after.unit("General-1").unwrap();
        if g.alive() {
            assert!(dist(g.pos, Pt::new(15.0, 34.0)) < 1e-9, "{:?}", g.pos);
            return;
        }
    }
    panic!("the General never survived the interrupt");
}

/// R24 (overwatch): "… not on overwatch … Your answer … may set overwatch for the rest of the
/// move; overwatch orders decide everywhere else. Overwatch fires once per enemy activation
/// per unit."
#[test]
fn r24_overwatch_covers_the_rest_of_the_move_and_fires_once_per_unit() {
    // Both Valkuries on overwatch beforehand: nobody is asked, both fire.
    // (Dice under which the first shot leaves the General moving show the second.)
    let standing = "OVERWATCH Valkurie-1 AT ANY\nOVERWATCH Valkurie-2 AT ANY\n";
    let both = (0..50).any(|k| {
        let (after, _) = play(&moving_general(), &[("us", MOVE), ("germany", standing)], k);
        assert_eq!(
            after.phase,
            Phase::Activate {
                side: "germany".into()
            }
        );
        assert!(
            lines(&after, "General-1 is at").is_empty(),
            "{:?}",
            after.log
        );
        line(&after, "Overwatch: Valkurie-1 fires KwK at General-1");
        !lines(&after, "Overwatch: Valkurie-2 fires KwK at General-1").is_empty()
    });
    assert!(both, "Valkurie-2 never fired");
    // Asked, Germany sets overwatch for the rest of the move: Valkurie-1, with three Actions
    // and ACTIONS 3, fires once only over the four points left.
    let mut st = moving_general();
    let v = st.unit_mut("Valkurie-1").unwrap();
    (v.extra_declared, v.actions) = (2, 3);
    let (asked, _) = play(&st, &[("us", MOVE)], 1);
    let answer = "NO INTERRUPT\nOVERWATCH Valkurie-1 AT ANY ACTIONS 3\n";
    for k in 0..50 {
        let (after, _) = play(&asked, &[("germany", answer)], k);
        line(&after, "German Kampfgruppe does not interrupt.");
        let shots = lines(
            &after,
            "Overwatch: Valkurie-1 fires KwK at General-1 (long, 18 cm)",
        );
        assert_eq!(shots.len(), 1, "{:?}", after.log);
        assert_eq!(after.unit("Valkurie-1").unwrap().actions_used, 1);
        if after.unit("General-1").unwrap().alive() {
            return;
        }
    }
    panic!("the General never survived the overwatch shot");
}

/// R24 (out of sequence): "An out-of-sequence ACTIVATE … CP in an answer runs at once; the
/// moving side is not asked during it (its overwatch still fires)."
#[test]
fn r24_an_answers_cp_activation_runs_at_once_unasked_under_overwatch() {
    let mut st = moving_general();
    place(&mut st, "Valkurie-2", 12.0, 24.0, 270.0);
    let us = format!("OVERWATCH General-2 AT ANY\n{MOVE}");
    let (mut asked, _) = play(&st, &[("us", &us)], 1);
    asked.side_mut("germany").unwrap().cp = 1;
    let answer = "NO INTERRUPT\nACTIVATE Valkurie-2 CP\nMOVE 1\n";
    let (after, _) = play(&asked, &[("germany", answer)], 2);
    let log: Vec<&str> = after.log.iter().map(|l| l.text.as_str()).collect();
    let at = |start: &str| {
        log.iter()
            .position(|l| l.starts_with(start))
            .unwrap_or_else(|| panic!("no {start:?} in {log:?}"))
    };
    let cp = at("German Kampfgruppe activates Valkurie-2 out of sequence (1 CP).");
    let shot = at("Overwatch: General-2 fires Cannon at Valkurie-2");
    let no = at("German Kampfgruppe does not interrupt.");
    assert!(cp < shot && shot < no, "{log:?}");
    assert!(after.unit("Valkurie-2").unwrap().activated);
    assert_eq!(after.side("germany").unwrap().cp, 0);
    // A US unit off overwatch could have fired at the Valkurie, yet the US was not asked.
    if after.unit("Valkurie-2").unwrap().alive() {
        assert!(activation::uncovered_shooter(&after, "Valkurie-2").is_some());
    }
    assert!(
        !log.iter()
            .any(|l| l.contains("US task force may interrupt")),
        "{log:?}"
    );
    assert_eq!(
        after.phase,
        Phase::Activate {
            side: "germany".into()
        }
    );
}

/// R25: "Who starts is chosen in advance (CHOOSE FIRST|SECOND, default FIRST), so no mail waits
/// for the choice after the initiative roll."
#[test]
fn r25_who_starts_is_chosen_in_advance() {
    // The US fields fewer units, so it chooses whatever the initiative.
    for (mail, first) in [("PASS\n", "us"), ("CHOOSE SECOND\nPASS\n", "germany")] {
        let (after, _) = play(&new_game(), &[("us", mail), ("germany", "PASS\n")], 1);
        let name = after.side_name(first);
        line(
            &after,
            &format!("US task force chooses: {name} activates first."),
        );
        assert_eq!(after.phase, Phase::Activate { side: first.into() });
    }
    // Equal numbers: the initiative's winner chooses, here Germany choosing SECOND.
    let mut st = new_game();
    st.unit_mut("Squad-2").unwrap().destroyed = true;
    let mails = [("us", "PASS\n"), ("germany", "CHOOSE SECOND\nPASS\n")];
    for k in 0..20 {
        let (after, rolls) = play(&st, &mails, k);
        let us = roll::read(&faces(&rolls, "initiative round 1 us"), 0).total;
        let de = roll::read(&faces(&rolls, "initiative round 1 germany"), 0).total;
        if us == de {
            continue;
        }
        let (chooser, first) = if us > de {
            ("us", "us")
        } else {
            ("germany", "us")
        };
        line(
            &after,
            &format!(
                "{} chooses: {} activates first.",
                after.side_name(chooser),
                after.side_name(first)
            ),
        );
        assert_eq!(after.phase, Phase::Activate { side: first.into() });
        if chooser == "germany" {
            return;
        }
    }
    panic!("Germany never won the initiative");
}

/// R26: "Initiative draws are re-rolled; after 20 draws in a row the first seat wins by 1."
#[test]
fn r26_initiative_draws_are_rerolled() {
    for k in 0..500 {
        let (after, rolls) = play(&new_game(), &[], k);
        let total = |label: &str| roll::read(&faces(&rolls, label), 0).total;
        if total("initiative round 1 us") != total("initiative round 1 germany") {
            continue;
        }
        // Re-rolled until the totals differ; the winner's CP is the deciding roll's margin.
        let mut n = 1;
        while total(&format!("initiative round 1 us re-roll {n}"))
            == total(&format!("initiative round 1 germany re-roll {n}"))
        {
            n += 1;
        }
        let (a, b) = (
            total(&format!("initiative round 1 us re-roll {n}")),
            total(&format!("initiative round 1 germany re-roll {n}")),
        );
        assert_eq!(lines(&after, "Initiative: ").len(), n + 1);
        let (winner, cp) = if a > b {
            ("us", a - b)
        } else {
            ("germany", b - a)
        };
        let w = after.side_name(winner);
        line(
            &after,
            &format!("{w} wins the initiative by {cp}: {w} {cp} CP"),
        );
        assert_eq!(after.side(winner).unwrap().cp, cp as u32);
        return;
    }
    panic!("no seed drew the initiative");
}

/// The last activation of the round: every unit but General-1 has been activated.
fn last_activation(round: u32) -> GkState {
    let mut st = activating("us");
    st.round = round;
    for u in st.units.iter_mut().filter(|u| u.name != "General-1") {
        u.activated = true;
    }
    st
}

/// R29: "Victory points at the round limit: the Threat Value of each destroyed enemy unit, half
/// of it for an enemy vehicle with Heavy Damage, and each objective's points to a side with a
/// live unit within its radius when the enemy has none."
#[test]
fn r29_victory_points_for_kills_heavy_damage_and_an_objective_held_alone() {
    let mut st = last_activation(10);
    assert_eq!(st.max_rounds, 10);
    for n in ["Valkurie-1", "Squad-1"] {
        st.unit_mut(n).unwrap().destroyed = true;
    }
    st.unit_mut("Valkurie-2").unwrap().heavy = 1;
    st.unit_mut("General-2").unwrap().heavy = 1;
    // The US squad holds the crossroads; the destroyed Squad-1 beside it holds nothing.
    let obj = st.objectives[0].clone();
    place(&mut st, "US-Squad", obj.x + 1.0, obj.y, 0.0);
    place(&mut st, "Squad-1", obj.x - 1.0, obj.y, 0.0);
    let threat = |n: &str| st.unit(n).unwrap().threat;
    let kills = threat("Valkurie-1") + threat("Squad-1") + threat("Valkurie-2") / 2;
    let de = threat("General-2") / 2;
    let held = GearKrieg::outcome(&play(&st, &[("us", MOVE_NONE)], 1).0).unwrap();
    assert_eq!(
        held.summary,
        format!(
            "Round limit: US task force {} VP, German Kampfgruppe {de} VP: US task force wins.",
            kills + obj.points
        )
    );
    assert_eq!(held.winners, ["us"]);
    // A live German squad within the radius too: nobody scores the objective.
    place(&mut st, "Squad-2", obj.x, obj.y + obj.radius - 0.5, 0.0);
    let shared = GearKrieg::outcome(&play(&st, &[("us", MOVE_NONE)], 1).0).unwrap();
    let us = kills;
    let verdict = if us >= de + st.winning_margin {
        "US task force wins"
    } else {
        "a draw"
    };
    assert_eq!(
        shared.summary,
        format!("Round limit: US task force {us} VP, German Kampfgruppe {de} VP: {verdict}.")
    );
}

const MOVE_NONE: &str = "ACTIVATE General-1\nHOLD\n";

/// R33: "Step 4 events (artillery, bombing) have no rules in the demo and do not occur."
#[test]
fn r33_step_4_brings_no_events() {
    let st = last_activation(1);
    let (after, rolls) = play(&st, &[("us", MOVE_NONE)], 1);
    let log: Vec<&str> = after.log.iter().map(|l| l.text.as_str()).collect();
    let end = log.iter().position(|l| *l == "End of round 1.").unwrap();
    assert_eq!(end, log.len() - 1, "nothing after Step 4 began: {log:?}");
    assert!(rolls.is_empty(), "no dice in Step 4: {rolls:?}");
    assert_eq!((after.round, after.phase.clone()), (2, Phase::Declare));
    for (a, b) in st.units.iter().zip(&after.units) {
        assert_eq!(
            (a.pos, a.light, a.heavy, a.destroyed, &a.troopers, a.pinned),
            (b.pos, b.light, b.heavy, b.destroyed, &b.troopers, b.pinned),
            "{}",
            a.name
        );
    }
    let words = GearKrieg::order_keywords().join(" ");
    assert!(
        !words.contains("ARTILLERY") && !words.contains("BOMB"),
        "{words}"
    );
}
