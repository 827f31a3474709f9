//! What a spectator of a Last Hundred Yards game reads: a move as the side not making it saw
//! it, and every other line told only to the enemy (a Concealment marker placed, an
//! over-stacking loss, a fire result's "no visible effect") as the enemy read it — what every
//! seat may see — never the owner's own line nor a concealed unit's name. Before the fixes a
//! spectator read none of these, since they were addressed to seats.

use crate::lhy;

use despatch::dice::Dice;
use despatch::engine::{LogLine, Ruleset, Viewer};
use despatch::rulesets::kit::roster::Roster;
use despatch::rulesets::last_hundred_yards::LastHundredYards as Lhy;
use despatch::rulesets::last_hundred_yards::state::{Action, LhyState};
use despatch::rulesets::last_hundred_yards::{action, sight};

fn spectator_log(st: &LhyState) -> Vec<String> {
    Lhy::view(st, &Viewer::Spectator).log
}

fn seat_log(st: &LhyState, seat: &str) -> Vec<String> {
    Lhy::view(st, &Viewer::Seat(seat.into())).log
}

fn moving(unit: &str, path: Vec<despatch::board::hex::Hex>) -> Action {
    Action::Move {
        units: vec![unit.into()],
        path,
        reverse: false,
        deploy: false,
        overrun: None,
        stop: false,
        exit: false,
    }
}

/// A US squad in the open, in clear sight of a German, steps one hex on into a hex the German
/// sees: the spectator reads the move with both hexes, as the German does.
#[test]
fn a_spectator_reads_a_move_through_open_ground() {
    let mut base = lhy::face_to_face("G1-1");
    let a1 = base.unit_mut("A1-1").unwrap();
    a1.hidden = false;
    a1.concealed = false;
    let from = base.unit("A1-1").unwrap().at;
    let watcher = base.unit("G1-1").unwrap().clone();
    let mut checked = 0;
    for to in base.map.grid().neighbours(from) {
        let mv = moving("A1-1", vec![to]);
        if !base.map.on_map(to)
            || !sight::sees(&base, &watcher, to)
            || action::check(&base, "us", &mv, false).is_err()
        {
            continue;
        }
        let mut st = base.clone();
        st.log.clear();
        action::perform(&mut st, "us", &mv, &mut Dice::new(lhy::seed(3, 3)));
        let told = format!(
            "A1-1 moves from {} to {}.",
            st.name_of(from),
            st.name_of(to)
        );
        assert!(
            seat_log(&st, "germany").contains(&told),
            "{:?}",
            seat_log(&st, "germany")
        );
        let spec = spectator_log(&st);
        assert!(spec.contains(&told), "spectator: {spec:?}");
        checked += 1;
    }
    assert!(
        checked > 0,
        "no legal open move from {}",
        base.name_of(from)
    );
}

/// The spectator's log holds nothing the US (the side not moving) did not read, and names
/// no hex in `hidden`; `Err` says what gave it away.
fn told_as_to_the_enemy(st: &LhyState, hidden: &str) -> Result<(), String> {
    let us = seat_log(st, "us");
    for line in spectator_log(st) {
        if !us.contains(&line) {
            return Err(format!("the US never read {line:?}"));
        }
        if line.contains(hidden) {
            return Err(format!("{line:?} names {hidden}"));
        }
    }
    Ok(())
}

/// A concealed German moving through a hex no US unit sees, then into one it sees: the
/// spectator reads it exactly as the US does ("(out of sight)" for the hidden hex). Positive
/// control: the owner's line, planted for spectators, makes the check fail.
#[test]
fn a_spectator_reads_a_concealed_move_as_the_enemy_did() {
    let st = lhy::step(
        &lhy::game(lhy::PATROL),
        &[("us", "PASS"), ("germany", "PASS")],
        1,
    );
    let unseen = sight::unseen_by(&st, "us");
    let from = st.unit("G1-2").unwrap().at;
    let grid = st.map.grid();
    let mut checked = 0;
    for a in grid.neighbours(from) {
        if !st.map.on_map(a) || !unseen.contains(&a) {
            continue;
        }
        for b in grid.neighbours(a) {
            if b == from || !st.map.on_map(b) || unseen.contains(&b) {
                continue;
            }
            let mv = moving("G1-2", vec![a, b]);
            if action::check(&st, "germany", &mv, false).is_err() {
                continue;
            }
            let mut st = st.clone();
            st.log.clear();
            action::perform(&mut st, "germany", &mv, &mut Dice::new(lhy::seed(7, 7)));
            if !st.unit("G1-2").unwrap().concealed {
                continue; // lost concealment in the open: named, another case
            }
            let an = st.name_of(a);
            let spec = spectator_log(&st);
            assert!(
                spec.iter()
                    .any(|l| l.starts_with("A Concealment marker moves")
                        && l.contains("(out of sight)")
                        && l.contains(&st.name_of(b))),
                "the spectator reads the move: {spec:?}"
            );
            told_as_to_the_enemy(&st, &an).unwrap();
            // Positive control: the owner's telling, were it given to spectators, is caught.
            let owner = seat_log(&st, "germany")
                .into_iter()
                .find(|l| l.starts_with("(Yours:"))
                .expect("the owner reads the whole route");
            let mut planted = st.clone();
            planted
                .log
                .push(LogLine::private("germany", owner).and_spectators());
            assert!(told_as_to_the_enemy(&planted, &an).is_err());
            checked += 1;
        }
    }
    assert!(
        checked > 0,
        "no legal concealed move through an unseen hex into a seen one"
    );
}

/// A log saved before spectator lines existed (no `spectators` field) still loads, its seat
/// lines kept from spectators; a plain line saves without the field, so old states are
/// unchanged byte for byte.
#[test]
fn log_lines_saved_before_the_spectator_field_load_unchanged() {
    let old: LogLine = serde_json::from_str(r#"{"text":"x","only":["us"]}"#).unwrap();
    assert_eq!(old, LogLine::private("us", "x"));
    assert!(!old.visible_to(&Viewer::Spectator));
    assert!(old.clone().and_spectators().visible_to(&Viewer::Spectator));
    assert_eq!(
        serde_json::to_string(&old).unwrap(),
        r#"{"text":"x","only":["us"]}"#
    );
}

/// Every line the spectator reads is one `enemy` read too (the side the event is not about),
/// and none names `hidden`; `Err` says what gave it away.
fn only_the_enemys_version(st: &LhyState, enemy: &str, hidden: &str) -> Result<(), String> {
    let theirs = seat_log(st, enemy);
    for line in spectator_log(st) {
        if !theirs.contains(&line) {
            return Err(format!("{enemy} never read {line:?}"));
        }
        if line.contains(hidden) {
            return Err(format!("{line:?} names {hidden}"));
        }
    }
    Ok(())
}

/// The spectator leak check of the tests below, with the owner's `line` planted for
/// spectators: it must fail, so a leak of that line would be caught.
fn control(st: &LhyState, owner: &str, line: &str, enemy: &str, hidden: &str) {
    let mut planted = st.clone();
    planted
        .log
        .push(LogLine::private(owner, line).and_spectators());
    assert!(
        only_the_enemys_version(&planted, enemy, hidden).is_err(),
        "the leak check catches {line:?}"
    );
}

/// A US squad out of every enemy's sight regains concealment (§4.3.2): the Germans read a
/// Concealment marker placed in its hex, and so does the spectator, never the squad's name
/// (the US reads "A1-1 is concealed again"). Before the fix the spectator read nothing.
#[test]
fn a_spectator_reads_a_concealment_marker_placed_never_the_unit() {
    use despatch::rulesets::last_hundred_yards::concealment;
    use despatch::rulesets::last_hundred_yards::state::Place;
    let mut st = lhy::step(
        &lhy::game(lhy::PATROL),
        &[("us", "PASS"), ("germany", "PASS")],
        1,
    );
    for u in st.units.iter_mut().filter(|u| u.side == "germany") {
        u.place = Place::Eliminated;
    }
    let a1 = st.unit_mut("A1-1").unwrap();
    a1.concealed = false;
    a1.hidden = false;
    st.log.clear();
    concealment::gain(&mut st);
    assert!(st.unit("A1-1").unwrap().concealed);
    let marker = format!(
        "{}: a Concealment marker is placed.",
        st.name_of(st.unit("A1-1").unwrap().at)
    );
    assert!(seat_log(&st, "germany").contains(&marker));
    let spec = spectator_log(&st);
    assert!(spec.contains(&marker), "spectator: {spec:?}");
    only_the_enemys_version(&st, "germany", "A1-1").unwrap();
    let owner = "A1-1 is concealed again.";
    assert!(seat_log(&st, "us").iter().any(|l| l == owner));
    control(&st, "us", owner, "germany", "A1-1");
}

/// §2.4 over-stacking at 0610 with the pool section A1-a (concealed, the latest arrival)
/// eliminated: the spectator reads the Germans' version, "a concealed unit at 0610", never
/// "A1-a"; with A1-a unconcealed the spectator reads its name, as the Germans do. Before the
/// fix the spectator read neither.
#[test]
fn a_spectator_reads_an_over_stacking_loss_as_the_enemy_did() {
    use despatch::rulesets::last_hundred_yards::state::{Phase, Place};
    let over_stacked = |concealed: bool| {
        let mut st = lhy::step(
            &lhy::game(lhy::PATROL),
            &[("us", "PASS"), ("germany", "PASS")],
            1,
        );
        let at = lhy::hex(&st, "0610");
        for n in ["A1-2", "A1-3", "A1-a"] {
            let u = st.unit_mut(n).unwrap();
            u.at = at;
            u.place = Place::Map;
        }
        let a = st.unit_mut("A1-a").unwrap();
        a.concealed = concealed;
        a.arrived = 999;
        st.phase = Phase::Stacking { side: "us".into() };
        st.log.clear();
        lhy::step(&st, &[("us", "PASS")], 5)
    };
    let st = over_stacked(true);
    assert_eq!(st.unit("A1-a").unwrap().place, Place::Eliminated);
    let spec = spectator_log(&st);
    assert!(
        spec.iter()
            .any(|l| l.starts_with("Stacking (§2.4)") && l.contains("a concealed unit at 0610")),
        "spectator: {spec:?}"
    );
    only_the_enemys_version(&st, "germany", "A1-a").unwrap();
    let owner = seat_log(&st, "us")
        .into_iter()
        .find(|l| l.contains("you eliminate A1-a"))
        .expect("the owner reads the name");
    control(&st, "us", &owner, "germany", "A1-a");
    let shown = over_stacked(false);
    assert!(
        spectator_log(&shown)
            .iter()
            .any(|l| l.starts_with("Stacking (§2.4)") && l.contains("eliminates A1-a")),
        "{:?}",
        spectator_log(&shown)
    );
}

/// A German small-arms marker on a concealed US squad that misses (DRM -20): the Germans
/// read "no visible effect" and so does the spectator; the US reads its squad's own result,
/// which names it and is never the spectator's. Before the fix the spectator read no result.
#[test]
fn a_spectator_reads_a_fire_result_as_the_firer_did() {
    use despatch::rulesets::last_hundred_yards::resolution;
    use despatch::rulesets::last_hundred_yards::state::{FireKind, FireMarker};
    let mut st = lhy::face_to_face("G1-1");
    let a1 = st.unit_mut("A1-1").unwrap();
    a1.concealed = true;
    a1.hidden = false;
    let at = st.unit("A1-1").unwrap().at;
    let id = st.next_serial();
    st.markers.push(FireMarker {
        id,
        kind: FireKind::SmallArms,
        hex: at,
        drm: -20,
        targets: vec!["A1-1".into()],
        side: "germany".into(),
        by: "G1-1".into(),
        secondary: false,
    });
    st.log.clear();
    resolution::phase(&mut st, &mut Dice::new(lhy::seed(4, 4)));
    assert!(
        st.unit("A1-1").unwrap().concealed,
        "a miss keeps it concealed"
    );
    let none = format!("  {}: no visible effect.", st.name_of(at));
    assert!(seat_log(&st, "germany").contains(&none));
    let spec = spectator_log(&st);
    assert!(spec.contains(&none), "spectator: {spec:?}");
    only_the_enemys_version(&st, "germany", "A1-1").unwrap();
    let owner = seat_log(&st, "us")
        .into_iter()
        .find(|l| l.contains("A1-1"))
        .expect("the owner reads its squad's result");
    control(&st, "us", &owner, "germany", "A1-1");
}

/// §4.1.10 river exit at the bridgehead: A1-1 in a river hex steps onto a dry bank. Seen
/// (unconcealed), the Germans read "A1-1 tries to leave the river at …" with the outcome, and
/// so does the spectator, never the owner's roll; concealed, neither reads anything naming
/// A1-1, and the leak check's positive control (the owner's line planted for spectators)
/// fails. Before the fix the line went to the owner alone even when the enemy saw the unit.
#[test]
fn a_river_exit_the_enemy_sees_is_told_to_it_never_a_concealed_one() {
    use despatch::rulesets::last_hundred_yards::data::Ground;
    use despatch::rulesets::last_hundred_yards::maneuver;
    use despatch::rulesets::last_hundred_yards::state::Place;
    let base = lhy::game(lhy::BRIDGEHEAD);
    let dry = |h| {
        !matches!(
            base.map.ground(h),
            Ground::River | Ground::Ford | Ground::Bridge
        )
    };
    let (river, bank) = base
        .map
        .hexes()
        .into_iter()
        .filter(|h| base.map.ground(*h) == Ground::River)
        .find_map(|r| {
            base.map
                .grid()
                .neighbours(r)
                .into_iter()
                .find(|b| base.map.on_map(*b) && dry(*b) && base.on_map().all(|u| u.at != *b))
                .map(|b| (r, b))
        })
        .expect("a river hex beside an empty dry bank");
    let exit = |concealed: bool| {
        let mut st = base.clone();
        let a1 = st.unit_mut("A1-1").unwrap();
        a1.at = river;
        a1.under_bridge = false;
        a1.heroic = false;
        a1.hidden = false;
        a1.concealed = concealed;
        if concealed {
            // No German to strip its concealment on the bank (§4.3.1), which would name it.
            for u in st.units.iter_mut().filter(|u| u.side == "germany") {
                u.place = Place::Eliminated;
            }
        }
        st.log.clear();
        maneuver::do_move(
            &mut st,
            "us",
            &["A1-1".to_string()],
            &[bank],
            false,
            false,
            false,
            None,
            &mut Dice::new(lhy::seed(5, 5)),
        );
        st
    };
    let at = base.name_of(river);
    let told = format!("A1-1 tries to leave the river at {at}: ");
    let seen = exit(false);
    let owner = seat_log(&seen, "us")
        .into_iter()
        .find(|l| l.starts_with(&told) && l.contains("vs Cohesion"))
        .expect("the owner reads the roll");
    let theirs = seat_log(&seen, "germany")
        .into_iter()
        .find(|l| l.starts_with(&told))
        .unwrap_or_else(|| panic!("the Germans read it: {:?}", seat_log(&seen, "germany")));
    assert!(!theirs.contains("Cohesion"), "{theirs}");
    assert!(
        spectator_log(&seen).contains(&theirs),
        "spectator: {:?}",
        spectator_log(&seen)
    );
    assert!(!spectator_log(&seen).contains(&owner));
    let hidden = exit(true);
    let owner = seat_log(&hidden, "us")
        .into_iter()
        .find(|l| l.starts_with(&told))
        .expect("the owner reads its own roll");
    assert!(
        !seat_log(&hidden, "germany")
            .iter()
            .any(|l| l.contains("A1-1")),
        "{:?}",
        seat_log(&hidden, "germany")
    );
    only_the_enemys_version(&hidden, "germany", "A1-1").unwrap();
    control(&hidden, "us", &owner, "germany", "A1-1");
}

/// MOUNT and DISMOUNT at the bridgehead: A1-1 and Sherman-1 in one hex. Seen (both
/// unconcealed), the Germans and the spectator read "A1-1 mounts Sherman-1." and "A1-1
/// dismounts."; with A1-1 concealed (no German left to strip it) nothing they read names it,
/// and the leak check's positive control fails. Before the fix both lines were the owner's
/// alone though the enemy saw the squad climb in and out.
#[test]
fn a_mount_and_dismount_the_enemy_sees_are_told_to_it_never_a_concealed_ones() {
    use despatch::rulesets::last_hundred_yards::state::Place;
    let base = lhy::game(lhy::BRIDGEHEAD);
    let run = |concealed: bool, act: Action, aboard: bool| {
        let mut st = base.clone();
        let at = st.unit("Sherman-1").unwrap().at;
        let tank = st.unit_mut("Sherman-1").unwrap();
        tank.hidden = false;
        tank.concealed = false;
        let a1 = st.unit_mut("A1-1").unwrap();
        a1.at = at;
        a1.hidden = false;
        a1.concealed = concealed;
        a1.aboard = aboard.then(|| "Sherman-1".to_string());
        if concealed {
            for u in st.units.iter_mut().filter(|u| u.side == "germany") {
                u.place = Place::Eliminated;
            }
        }
        // The game is still at its set-up, so only the carrying out is asked here (what it
        // tells), not the activation's checks.
        st.log.clear();
        action::perform(&mut st, "us", &act, &mut Dice::new(lhy::seed(6, 6)));
        st
    };
    let mount = || Action::Mount {
        unit: "A1-1".into(),
        vehicle: "Sherman-1".into(),
    };
    let dismount = || Action::Dismount {
        unit: "A1-1".into(),
    };
    for (act, aboard, told) in [
        (mount(), false, "A1-1 mounts Sherman-1."),
        (dismount(), true, "A1-1 dismounts."),
    ] {
        let seen = run(false, act.clone(), aboard);
        assert!(
            seat_log(&seen, "germany").iter().any(|l| l == told),
            "{:?}",
            seat_log(&seen, "germany")
        );
        assert!(
            spectator_log(&seen).iter().any(|l| l == told),
            "{:?}",
            spectator_log(&seen)
        );
        let hidden = run(true, act, aboard);
        assert!(seat_log(&hidden, "us").iter().any(|l| l == told));
        assert!(
            !seat_log(&hidden, "germany")
                .iter()
                .any(|l| l.contains("A1-1")),
            "{:?}",
            seat_log(&hidden, "germany")
        );
        only_the_enemys_version(&hidden, "germany", "A1-1").unwrap();
        control(&hidden, "us", told, "germany", "A1-1");
    }
}

/// R27's second wind on `unit`, Disrupted, seen as itself or `concealed`: the first seed whose
/// Random Event roll is a second wind for the US.
fn second_wind(unit: &str, concealed: bool) -> LhyState {
    let base = {
        let mut st = lhy::step(
            &lhy::game(lhy::PATROL),
            &[("us", "PASS"), ("germany", "PASS")],
            1,
        );
        for u in st.units.iter_mut().filter(|u| u.side == "us") {
            u.status = despatch::rulesets::last_hundred_yards::state::Status::Good;
        }
        let u = st.unit_mut(unit).unwrap();
        u.status = despatch::rulesets::last_hundred_yards::state::Status::Disrupted;
        u.hidden = false;
        u.concealed = concealed;
        st.log.clear();
        st
    };
    for k in 0..200u64 {
        let mut st = base.clone();
        let mut dice = Dice::new(lhy::seed(7, k));
        despatch::rulesets::last_hundred_yards::turn::random_event(&mut st, "us", &mut dice);
        if seat_log(&st, "us")
            .iter()
            .any(|l| l.contains("second wind"))
        {
            return st;
        }
    }
    panic!("no second wind in 200 seeds");
}

/// A second wind (or a leader called away) on a unit the enemy sees as itself is told to the
/// enemy and spectators; on a concealed unit only to its owner. Control: the owner reads the
/// line in both cases, so the needle is one the log really writes.
#[test]
fn a_random_event_on_a_unit_the_enemy_sees_is_told_to_it_never_a_concealed_ones() {
    let line = "A1-2 recovers one step of its condition.";
    let seen = second_wind("A1-2", false);
    assert!(seat_log(&seen, "us").contains(&line.to_string()));
    assert!(
        seat_log(&seen, "germany").contains(&line.to_string()),
        "{:?}",
        seat_log(&seen, "germany")
    );
    assert!(spectator_log(&seen).contains(&line.to_string()));
    let hid = second_wind("A1-2", true);
    assert!(seat_log(&hid, "us").contains(&line.to_string()));
    for l in seat_log(&hid, "germany").iter().chain(&spectator_log(&hid)) {
        assert!(!l.contains("A1-2"), "{l}");
    }
}
