//! The Gear Krieg activation code of `activation.rs` read by value where the order tests go
//! through it without telling its operators apart: the planned move a mover defends with (R23),
//! turning (p.3), and the road bonus (p.4) and terrain (R11) an activation starts with. Written
//! for the survivors of the mutation run of 2026-11-27 over `activation.rs` (mutants/runs.toml):
//! each test sits on both sides of its threshold with values that tell the operators apart.
//! Pure functions on the shipped Crossroads units: no dice, no mail.

use despatch::board::tabletop::{Pt, dist};
use despatch::rulesets::gear_krieg::activation;
use despatch::rulesets::gear_krieg::data::{MoveMode, TerrainKind};
use despatch::rulesets::gear_krieg::state::{Act, Block, GkState, Melee, TurnBy};

use crate::gear_krieg::{new_game, place};

fn block(unit: &str, acts: Vec<Act>) -> Block {
    Block {
        unit: unit.into(),
        cp: false,
        acts,
    }
}

/// R23 "Defence against a mover uses its whole planned move": every leg counts, forward and
/// reverse alike, and each leg starts where the one before ended, facing where the turns and
/// the `TO` left it: reverse goes back, a turn changes where the next `MOVE` goes, `TO` faces
/// its point, a ram closes to contact (centres 1 cm apart, R9, R16).
#[test]
fn r23_the_planned_move_follows_every_leg_from_where_the_last_one_ended() {
    let mut st = new_game();
    place(&mut st, "General-1", 10.0, 10.0, 0.0);
    place(&mut st, "Valkurie-1", 13.0, 26.0, 180.0);
    let planned = |acts: Vec<Act>| activation::planned_distance(&st, &block("General-1", acts));
    let near = |got: f64, want: f64, what: &str| {
        assert!((got - want).abs() < 1e-9, "{what}: {got}, not {want}");
    };
    // MOVE 2 to 10,12; REVERSE 1 back to 10,11; TURN RIGHT 90; MOVE 3 east to 13,11; TO 13,15
    // (4 cm, now facing north); MOVE 1 to 13,16; RAM Valkurie-1 at 13,26: 10 - 1 cm.
    let acts = vec![
        Act::Move(2.0),
        Act::Reverse(1.0),
        Act::Turn(TurnBy::Right(90.0)),
        Act::Move(3.0),
        Act::To(Pt::new(13.0, 15.0)),
        Act::Move(1.0),
        Act::Melee(Melee::Ram, "Valkurie-1".into()),
    ];
    near(
        planned(acts.clone()),
        2.0 + 1.0 + 3.0 + 4.0 + 1.0 + 9.0,
        "the whole block",
    );
    // Each prefix, so that a leg left out or counted wrong shows at its own step.
    let sums = [2.0, 3.0, 3.0, 6.0, 10.0, 11.0, 20.0];
    for (n, want) in sums.iter().enumerate() {
        near(
            planned(acts[..=n].to_vec()),
            *want,
            &format!("the first {} acts", n + 1),
        );
    }
    // A reverse alone, and a ram from a standstill: 12.0 - 1.
    near(planned(vec![Act::Reverse(1.5)]), 1.5, "REVERSE 1.5");
    near(
        planned(vec![Act::Melee(Melee::Ram, "Valkurie-1".into())]),
        (9.0f64 + 256.0).sqrt() - 1.0,
        "RAM from 10,10",
    );
    // A TO the unit already stands on costs nothing and keeps its facing.
    near(
        planned(vec![
            Act::To(Pt::new(10.0, 10.0)),
            Act::Turn(TurnBy::Right(90.0)),
            Act::To(Pt::new(10.0, 10.0)),
            Act::Move(3.0),
            Act::To(Pt::new(13.0, 14.0)),
        ]),
        3.0 + 4.0,
        "TO where it stands",
    );
    // A TO within a millionth of a cm of where the unit stands keeps its facing (EPS, the
    // code's tolerance for "the same point"): exactly at it, and twice it, which faces north.
    place(&mut st, "General-1", 0.0, 0.0, 90.0);
    let eps = Pt::new(0.0, 1e-6);
    assert_eq!(
        dist(Pt::new(0.0, 0.0), eps),
        1e-6,
        "the test's point lies at EPS"
    );
    let planned = |acts: Vec<Act>| activation::planned_distance(&st, &block("General-1", acts));
    near(
        planned(vec![
            Act::To(eps),
            Act::Move(3.0),
            Act::To(Pt::new(3.0, 4.0 + 1e-6)),
        ]),
        1e-6 + 3.0 + 4.0,
        "TO at EPS keeps facing east",
    );
    near(
        planned(vec![
            Act::To(Pt::new(0.0, 2e-6)),
            Act::Move(3.0),
            Act::To(Pt::new(0.0, 7.0 + 2e-6)),
        ]),
        2e-6 + 3.0 + 4.0,
        "TO at twice EPS faces north",
    );
    // A ram on a unit already in contact closes nothing.
    place(&mut st, "General-1", 10.0, 10.0, 0.0);
    place(&mut st, "Valkurie-1", 10.0, 10.5, 180.0);
    let ram = block(
        "General-1",
        vec![Act::Melee(Melee::Ram, "Valkurie-1".into())],
    );
    near(
        activation::planned_distance(&st, &ram),
        0.0,
        "RAM in contact",
    );
}

/// p.3 turning, `TURN LEFT n` / `TURN RIGHT n` / `TURN TO h`: left takes degrees off the
/// compass heading, right adds them, `TO` names the heading; all in [0, 360).
#[test]
fn p3_turns_left_right_and_to_a_heading() {
    let cases = [
        (30.0, TurnBy::Left(60.0), 330.0),
        (90.0, TurnBy::Left(30.0), 60.0),
        (330.0, TurnBy::Right(60.0), 30.0),
        (90.0, TurnBy::Right(45.0), 135.0),
        (90.0, TurnBy::To(270.0), 270.0),
        (90.0, TurnBy::To(-90.0), 270.0),
        (0.0, TurnBy::To(360.0), 0.0),
    ];
    for (from, by, want) in cases {
        assert_eq!(activation::turned(from, by), want, "{by:?} from {from}");
    }
}

/// p.4 roads: "Any Ground vehicle traveling on a road gains an additional number of MP equal to
/// half of its current speed (Combat or Top) rounded down"; a Walker and a squad get none. The
/// General: Ground 3/5 MP, 3 after Heavy Damage at Top (R17); Walker 2/4.
#[test]
fn p4_the_road_bonus_is_half_the_current_speed_rounded_down_for_ground_vehicles_only() {
    let road = |st: &mut GkState, unit: &str, mode: MoveMode, top: bool, heavy: u32| {
        let u = st.unit_mut(unit).unwrap();
        (u.mode, u.top, u.heavy) = (mode, top, heavy);
        activation::start(st, &block(unit, vec![Act::Hold]))
            .progress
            .road
    };
    let mut st = new_game();
    let cases = [
        (MoveMode::Ground, false, 0, 1.0),
        (MoveMode::Ground, true, 0, 2.0),
        (MoveMode::Ground, true, 1, 1.0),
        (MoveMode::Walker, false, 0, 0.0),
        (MoveMode::Walker, true, 0, 0.0),
    ];
    for (mode, top, heavy, want) in cases {
        assert_eq!(
            road(&mut st, "General-1", mode, top, heavy),
            want,
            "General in {mode:?} mode, Top {top}, {heavy} Heavy"
        );
    }
    let squad = road(&mut st, "US-Squad", MoveMode::Walker, false, 0);
    assert_eq!(squad, 0.0, "a squad has no road bonus");
}

/// R11: an activation starts from the terrain the unit resides in (under more than half of its
/// counter), not the one under its centre: at the jungle's south-west corner the centre is in
/// the jungle but the unit resides in the clear; deep inside it resides in the jungle. The
/// first step's treacherous test compares against it.
#[test]
fn r11_an_activation_starts_from_the_terrain_the_unit_resides_in() {
    let mut st = new_game();
    let cases = [
        (30.15, 3.15, TerrainKind::Clear),
        (33.0, 7.0, TerrainKind::Jungle),
    ];
    for (x, y, want) in cases {
        place(&mut st, "General-1", x, y, 0.0);
        let p = activation::start(&mut st, &block("General-1", vec![Act::Move(0.5)]));
        assert_eq!(p.progress.terrain, Some(want), "General-1 at {x},{y}");
    }
}
