//! The Gear Krieg activation code of `activation.rs` read by value where the order tests go
//! through it without telling its operators apart: the planned move a mover defends with (R23),
//! turning (p.3), and the road bonus (p.4) and terrain (R11) an activation starts with; then the
//! movement rules a mail is checked against (map edges, reverse, MP, the infantry's one cm,
//! Pinned, turn costs, limits and spacing, treacherous ground). Written for the survivors of the
//! mutation runs of 2026-11-27 over `activation.rs` (mutants/runs.toml): each test sits on both
//! sides of its threshold (a millionth of a cm or degree, the code's EPS, inside and outside)
//! with values that tell the operators apart. Pure functions on the shipped Crossroads units, no
//! mail; only the treacherous test rolls dice (through `play`).

use despatch::board::tabletop::{Pt, dist};
use despatch::rulesets::gear_krieg::activation;
use despatch::rulesets::gear_krieg::data::{MoveMode, TerrainKind};
use despatch::rulesets::gear_krieg::state::{Act, Block, GkState, Melee, Progress, TurnBy};
use despatch::rulesets::kit::roster::Roster;

use crate::gear_krieg::{activating, new_game, place, play};

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

/// The reasons `check_block` gives for `unit`'s acts (empty: the block is legal), checked with
/// targets as a mail is read.
fn refusals(st: &GkState, unit: &str, acts: Vec<Act>) -> Vec<(usize, String)> {
    activation::check_block(st, &block(unit, acts), true)
}

/// Runs `unit`'s acts as a mail is checked; the reasons and the bookkeeping after them.
fn checked(st: &mut GkState, unit: &str, acts: Vec<Act>) -> (Vec<(usize, String)>, Progress) {
    let mut p = activation::start(st, &block(unit, acts));
    let mut ctx = activation::Ctx::check(true);
    activation::run(st, &mut p, &mut ctx);
    (ctx.errors, p.progress)
}

/// The map's edges: a unit moves up to each edge (a millionth of a cm over it, EPS, is still on
/// the map) and no further ("that would leave the map"); each edge on its own, so that an edge
/// test joined to another with `&&` shows. Crossroads is 48 x 36 cm.
#[test]
fn the_map_edges_stop_a_move_each_on_its_own() {
    let mut st = new_game();
    let (w, h) = (st.width, st.height);
    let off = |r: &[(usize, String)]| r.iter().any(|(_, why)| why == "that would leave the map");
    // (start, heading, the farthest point on the map, a point beyond it)
    let edges = [
        ((0.5, 10.0), 270.0, (-1e-6, 10.0), (-0.5, 10.0)),
        ((10.0, 0.5), 180.0, (10.0, -1e-6), (10.0, -0.5)),
        ((w - 0.5, 10.0), 90.0, (w + 1e-6, 10.0), (w + 0.5, 10.0)),
        ((10.0, h - 0.5), 0.0, (10.0, h + 1e-6), (10.0, h + 0.5)),
    ];
    for ((x, y), heading, on, beyond) in edges {
        let inner = ((x + on.0) / 2.0, (y + on.1) / 2.0);
        for (to, leaves) in [(inner, false), (on, false), (beyond, true)] {
            place(&mut st, "General-1", x, y, heading);
            let r = refusals(&st, "General-1", vec![Act::To(Pt::new(to.0, to.1))]);
            assert_eq!(off(&r), leaves, "from {x},{y} to {to:?}: {r:?}");
            if !leaves {
                assert!(r.is_empty(), "from {x},{y} to {to:?}: {r:?}");
            }
        }
    }
}

/// p.4 reverse: "A Unit moving at up to half Combat Speed can opt to move backward"; after
/// reversing the whole move stays within that half. The General in Ground mode: Combat 3 MP,
/// half 1.5 cm; a millionth over it (EPS) is still within, two millionths are not. It faces
/// south and moves along x = 10 near y = 0, where the sub-steps (1 cm, then the rest) and
/// their sums are exact in binary, so the edge cases sit on the threshold itself.
#[test]
fn p4_reverse_moves_stay_within_half_combat_speed() {
    let mut st = new_game();
    let within = 1.5 + 1e-6;
    let beyond = 1.5 + 2e-6;
    let reverse_only = |r: &[(usize, String)]| {
        r.iter().any(|(_, why)| {
            why == "reverse only while moving at most half Combat Speed (1.5 cm in all)"
        })
    };
    let after_reversing = |r: &[(usize, String)]| {
        r.iter().any(|(_, why)| {
            why == "after reversing the whole move must stay within half Combat Speed (1.5 cm)"
        })
    };
    // From y (facing south: a move goes down the map, a reverse up it).
    let mut run = |y: f64, acts: Vec<Act>| {
        place(&mut st, "General-1", 10.0, y, 180.0);
        st.unit_mut("General-1").unwrap().mode = MoveMode::Ground;
        checked(&mut st, "General-1", acts)
    };
    // Reverse alone: up to the half and no further.
    let (r, p) = run(0.0, vec![Act::Reverse(within)]);
    assert!(r.is_empty(), "{r:?}");
    assert_eq!((p.distance, p.reversed), (within, within));
    assert!(reverse_only(&run(0.0, vec![Act::Reverse(beyond)]).0));
    assert!(reverse_only(&run(0.0, vec![Act::Reverse(2.0)]).0));
    // Forward first, then reverse: the whole move counts.
    let (r, p) = run(1.0, vec![Act::Move(1.0), Act::Reverse(within - 1.0)]);
    assert!(r.is_empty(), "{r:?}");
    assert_eq!((p.distance, p.reversed), (within, within - 1.0));
    let (r, _) = run(1.0, vec![Act::Move(1.0), Act::Reverse(beyond - 1.0)]);
    assert!(reverse_only(&r), "{r:?}");
    // Reverse first, then forward: the same limit; without a reverse, the whole Combat Speed.
    let (r, p) = run(0.0, vec![Act::Reverse(1.0), Act::Move(within - 1.0)]);
    assert!(r.is_empty(), "{r:?}");
    assert_eq!((p.distance, p.reversed), (within, 1.0));
    let (r, _) = run(0.0, vec![Act::Reverse(1.0), Act::Move(beyond - 1.0)]);
    assert!(after_reversing(&r), "{r:?}");
    assert!(after_reversing(
        &run(0.0, vec![Act::Reverse(1.0), Act::Move(1.0)]).0
    ));
    let (r, p) = run(10.0, vec![Act::Move(3.0)]);
    assert!(r.is_empty(), "{r:?}");
    assert_eq!((p.distance, p.reversed), (3.0, 0.0));
    assert!(run(10.0, vec![Act::Move(beyond)]).0.is_empty());
}

/// p.3 "one MP equals movement across one centimeter of clear ground": a move may spend its
/// whole allowance and a millionth more (EPS), not two. The General in Ground mode has 3 MP;
/// 2.5 cm north from y = 0 first, then the rest (exact in binary, so on the threshold itself).
#[test]
fn p3_a_move_spends_up_to_its_whole_allowance() {
    let mut st = new_game();
    let mut go = |last: f64| {
        place(&mut st, "General-1", 10.0, 0.0, 0.0);
        st.unit_mut("General-1").unwrap().mode = MoveMode::Ground;
        checked(&mut st, "General-1", vec![Act::Move(2.5), Act::Move(last)])
    };
    let (r, p) = go((3.0 + 1e-6) - 2.5);
    assert!(r.is_empty(), "{r:?}");
    assert_eq!((p.spent, p.distance), (3.0 + 1e-6, 3.0 + 1e-6));
    let (r, p) = go((3.0 + 2e-6) - 2.5);
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!(r[0].0, 1, "{r:?}");
    assert!(
        r[0].1
            .starts_with("not enough MP: 2.5 cm moved, 2.5 of 3 MP spent"),
        "{r:?}"
    );
    assert_eq!((p.spent, p.distance), (2.5, 2.5));
}

/// p.5 infantry "can always move at least one centimeter per turn, regardless of terrain": a
/// squad that cannot pay for its first cm moves it with the MP it has left, but no further, and
/// a vehicle gets no such cm. The squads have 2 MP; jungle costs a Walker 3 MP a cm.
#[test]
fn p5_infantry_can_always_move_one_cm_vehicles_cannot() {
    let mut st = new_game();
    let mut go = |unit: &str, first: f64, rest: f64| {
        place(&mut st, unit, 33.0, 5.0, 0.0);
        checked(&mut st, unit, vec![Act::Move(first), Act::Move(rest)])
    };
    // 0.5 cm of jungle costs 1.5 MP; the rest of the cm costs 1.5 more, of which 0.5 is left.
    let (r, p) = go("US-Squad", 0.5, 0.5);
    assert!(r.is_empty(), "{r:?}");
    assert_eq!((p.spent, p.distance), (2.0, 1.0));
    let refused = |r: &[(usize, String)]| {
        r.len() == 1
            && r[0].0 == 1
            && r[0]
                .1
                .starts_with("not enough MP: 0.5 cm moved, 1.5 of 2 MP spent")
    };
    let (r, p) = go("US-Squad", 0.5, 0.625);
    assert!(refused(&r), "{r:?}");
    assert_eq!((p.spent, p.distance), (1.5, 0.5));
    // The General (Walker mode, 2 MP) may not: its first half cm costs 1.5, the next 1.5 more.
    let (r, p) = go("General-1", 0.5, 0.5);
    assert!(refused(&r), "{r:?}");
    assert_eq!((p.spent, p.distance), (1.5, 0.5));
}

/// p.5 "Pinned units cannot move": none of a squad's move with one Pinned counter or two, and
/// no turn of a unit with facing; unpinned, both go.
#[test]
fn p5_pinned_units_cannot_move() {
    let mut st = new_game();
    let pinned = |r: &[(usize, String)]| r.iter().any(|(_, why)| why == "Pinned units cannot move");
    for (n, refused) in [(0, false), (1, true), (2, true)] {
        for (unit, act) in [
            ("US-Squad", Act::Move(1.0)),
            ("General-1", Act::Turn(TurnBy::Right(30.0))),
        ] {
            place(&mut st, unit, 10.0, 10.0, 90.0);
            st.unit_mut(unit).unwrap().pinned = n;
            let r = refusals(&st, unit, vec![act.clone()]);
            assert_eq!(
                pinned(&r),
                refused,
                "{unit} with {n} Pinned, {act:?}: {r:?}"
            );
            assert_eq!(
                r.is_empty(),
                !refused,
                "{unit} with {n} Pinned, {act:?}: {r:?}"
            );
        }
    }
}

/// p.3–4 turning, each threshold a millionth of a degree or cm (EPS) inside and outside: a turn
/// of 60 degrees or less is free, more costs 1 MP; at Top Speed no turn over 120; each turn
/// follows at least 1 cm of forward movement after the last; a turn needs its MP; a turn of
/// less than EPS is no turn (it starts no spacing). The General in Walker mode (2 MP at Combat
/// Speed, 4 at Top) stands at y = 0, so that its moves north are exact in binary.
#[test]
fn p3_turn_costs_limits_and_spacing_at_their_thresholds() {
    let mut st = new_game();
    let mut go = |top: bool, heading: f64, acts: Vec<Act>| {
        place(&mut st, "General-1", 10.0, 0.0, heading);
        st.unit_mut("General-1").unwrap().top = top;
        checked(&mut st, "General-1", acts)
    };
    let to = |h: f64| Act::Turn(TurnBy::To(h));
    // Free up to 60 degrees (and EPS), 1 MP beyond.
    let (r, p) = go(false, 0.0, vec![to(60.0 + 1e-6)]);
    assert!(r.is_empty(), "{r:?}");
    assert_eq!(p.spent, 0.0);
    let (r, p) = go(false, 0.0, vec![to(60.0 + 2e-6)]);
    assert!(r.is_empty(), "{r:?}");
    assert_eq!(p.spent, 1.0);
    // At Top Speed up to 120 degrees (and EPS); at Combat Speed more.
    let (r, p) = go(true, 0.0, vec![to(120.0 + 1e-6)]);
    assert!(r.is_empty(), "{r:?}");
    assert_eq!(p.spent, 1.0);
    let (r, _) = go(true, 0.0, vec![to(120.0 + 2e-6)]);
    assert_eq!(
        r,
        vec![(0, "no turn over 120 degrees at Top Speed".to_string())]
    );
    let (r, p) = go(false, 0.0, vec![to(150.0)]);
    assert!(r.is_empty(), "{r:?}");
    assert_eq!(p.spent, 1.0);
    // Spacing: 1 cm (less EPS) of forward movement between two turns.
    // From 330 to north, then north up the map: the gap is exact.
    let spaced = |gap: f64| vec![to(0.0), Act::Move(gap), to(30.0)];
    let (r, p) = go(false, 330.0, spaced(1.0 - 1e-6));
    assert!(r.is_empty(), "{r:?}");
    assert_eq!(p.since_turn, Some(0.0));
    let (r, p) = go(false, 330.0, spaced(1.0 - 2e-6));
    assert_eq!(
        r,
        vec![(
            2,
            "each turn must follow at least 1 cm of forward movement after the last one"
                .to_string()
        )]
    );
    assert_eq!(p.since_turn, Some(1.0 - 2e-6));
    // A turn of EPS is a turn (the next one needs its spacing); less is none (no spacing).
    let (r, _) = go(false, 0.0, vec![to(1e-6), to(30.0)]);
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!(r[0].0, 1, "{r:?}");
    let (r, p) = go(false, 0.0, vec![to(5e-7), to(30.0)]);
    assert!(r.is_empty(), "{r:?}");
    assert_eq!(p.since_turn, Some(0.0));
    let (r, p) = go(false, 0.0, vec![to(0.0), to(30.0)]);
    assert!(r.is_empty(), "{r:?}");
    assert_eq!(p.since_turn, Some(0.0));
    // MP: 1 cm and a millionth moved leaves 1 MP (less EPS) for a 90-degree turn; two
    // millionths, not enough. The lengths are reached exactly in binary.
    let moved = |d: f64| vec![Act::Move(0.5), Act::Move(d - 0.5), to(90.0)];
    let (r, p) = go(false, 0.0, moved((2.0 + 1e-6) - 1.0));
    assert!(r.is_empty(), "{r:?}");
    assert_eq!(p.spent, 2.0 + 1e-6);
    let (r, p) = go(false, 0.0, moved((2.0 + 2e-6) - 1.0));
    assert_eq!(
        r,
        vec![(
            2,
            "not enough MP to turn 90 degrees (1 of 2 MP spent)".to_string()
        )]
    );
    assert_eq!(p.spent, (2.0 + 2e-6) - 1.0);
}

/// p.4 treacherous terrain: the jungle's "D" is for Ground mode (R11's test shows a General in
/// Ground mode tested on starting in and entering it); the same General in Walker mode, and a
/// squad, go through it with no Driving test, whether they start in it or enter it.
#[test]
fn p4_only_ground_mode_is_tested_in_the_jungle() {
    for (unit, mode, tested) in [
        ("General-1", MoveMode::Ground, true),
        ("General-1", MoveMode::Walker, false),
        ("US-Squad", MoveMode::Walker, false),
    ] {
        // Deep in it (starts in) and at its south-west corner heading in (enters).
        for (x, y, heading) in [(33.0, 7.0, 0.0), (30.15, 3.15, 45.0)] {
            let mut st = activating("us");
            place(&mut st, unit, x, y, heading);
            st.unit_mut(unit).unwrap().mode = mode;
            let order = format!("ACTIVATE {unit}\nMOVE 0.5\n");
            let mails = [("us", order.as_str()), ("germany", "INTERRUPTS NEVER\n")];
            let (_, rolls) = play(&st, &mails, 7);
            let driving = rolls
                .iter()
                .any(|r| r.label == format!("driving {unit} jungle"));
            assert_eq!(
                driving, tested,
                "{unit} in {mode:?} mode at {x},{y}: {rolls:?}"
            );
        }
    }
}
