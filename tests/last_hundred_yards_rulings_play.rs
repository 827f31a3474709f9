//! Numbered rulings of Last Hundred Yards (games/last-hundred-yards/README.md) about the
//! conduct of play, which the golden tests do not reach through whole mails: concealment lost
//! and regained, recovery and Heroic units, overrun close defence, assault, withdrawal, random
//! events and exits. One test per ruling, named `r<N>_…`, on the shipped data; rolls come from
//! real dice of seeds picked to show both outcomes. Map rulings: last_hundred_yards_rulings.rs.

use crate::lhy;

use despatch::dice::Dice;
use despatch::rulesets::kit::roster::{Roster, TwoSides};
use despatch::rulesets::last_hundred_yards::data::Kind;
use despatch::rulesets::last_hundred_yards::maneuver;
use despatch::rulesets::last_hundred_yards::state::{Arrow, FireKind, Status};
use despatch::rulesets::last_hundred_yards::{
    assault, concealment, fire, resolution, vehicle, withdraw,
};
use lhy::{face_to_face, hex};

/// R27: the Random Event Table is a stand-in covering every face of the d10 with the five
/// events the README names, in rising rows.
#[test]
fn r27_the_random_event_table_covers_the_d10() {
    let st = lhy::game(lhy::PATROL);
    let table = &st.data.tables.random_events;
    assert!(
        table.reason().is_some_and(|r| r.starts_with("R27")),
        "the table is a stand-in marked with R27"
    );
    let rows = table.get();
    assert!(rows.windows(2).all(|w| w[0].up_to < w[1].up_to));
    assert_eq!(rows.last().map(|r| r.up_to), Some(10));
    assert!(rows[0].up_to >= 1);
    let names: Vec<String> = rows
        .iter()
        .map(|r| format!("{:?}", r.event).to_lowercase())
        .collect();
    for e in ["quiet", "time", "second", "confusion", "leader"] {
        assert!(names.iter().any(|n| n.contains(e)), "{e} in {names:?}");
    }
}

/// R31: a combat unit leaving by a side edge rolls the d10; above `exit_casualty_above` it
/// loses `exit_casualties` steps (counted to its side's casualties), otherwise none. Real dice
/// of two seeds, one on each side of the line.
#[test]
fn r31_a_failed_exit_roll_costs_exit_casualties() {
    let base = lhy::game(lhy::PATROL);
    let above = base.data.rules.exit_casualty_above.int() as u32;
    let lost = base.data.rules.exit_casualties.int() as u32;
    let west = hex(&base, "0105");
    let mut seen = (false, false);
    for k in 0..200u64 {
        let roll = Dice::new(lhy::seed(k, 31)).roll_one("probe", despatch::dice::Faces::d(10));
        let mut st = base.clone();
        st.unit_mut("A1-1").unwrap().at = west;
        let before = st.side("us").unwrap().casualties;
        maneuver::exit_map(&mut st, "A1-1", &mut Dice::new(lhy::seed(k, 31)));
        let after = st.side("us").unwrap().casualties;
        assert!(!st.unit("A1-1").unwrap().on_map(), "the unit left");
        if roll > above {
            assert_eq!(after - before, lost, "roll {roll}");
            seen.0 = true;
        } else {
            assert_eq!(after, before, "roll {roll}");
            seen.1 = true;
        }
        if seen == (true, true) {
            return;
        }
    }
    panic!("200 seeds never rolled both sides of {above}: {seen:?}");
}

/// R24: the withdrawal Despatch picks takes, hex by hex up to the limit, a hex of the best
/// §10.3.1 class — toward the FBE while that is open — and the check accepts exactly such a
/// path; a step along the same depth while a step toward the FBE is open is refused.
#[test]
fn r24_a_withdrawal_takes_the_best_class_toward_the_fbe() {
    let mut st = lhy::game(lhy::PATROL);
    let from = hex(&st, "0304");
    st.unit_mut("A1-3").unwrap().at = from;
    let max = st.data.rules.withdraw_hexes.int() as usize;
    assert!(max > 1);
    let (path, exit) = withdraw::auto_path(&st, "us", from);
    assert_eq!(path.len(), max, "{path:?}");
    assert!(!exit, "the FBE is further than {max} hexes");
    let fbe = st.side("us").unwrap().fbe;
    let mut depth = st.map.depth(from, fbe);
    for h in &path {
        let d = st.map.depth(*h, fbe);
        assert!(d < depth, "each hex nearer the FBE");
        depth = d;
    }
    let u = st.unit("A1-3").unwrap().clone();
    withdraw::check(&st, "us", &[&u], &path, false).expect("its own path is a legal one");
    let sideways = st
        .map
        .grid()
        .neighbours(from)
        .into_iter()
        .find(|h| st.map.on_map(*h) && st.map.depth(*h, fbe) >= st.map.depth(from, fbe))
        .expect("a hex not toward the FBE");
    let why = withdraw::check(&st, "us", &[&u], &[sideways], false).unwrap_err();
    assert!(why.contains("best withdrawal priority"), "{why}");
}

/// R10: concealment is stripped only by an undisrupted AND non-shocked enemy: the same squad
/// maneuvering in the open two hexes from a German squad loses it when the German is in good
/// order, keeps it when he is disrupted, and keeps it when he is shocked.
#[test]
fn r10_only_an_undisrupted_and_unshocked_enemy_strips_concealment() {
    for (status, loses) in [
        (Status::Good, true),
        (Status::Disrupted, false),
        (Status::Shocked, false),
    ] {
        let mut st = face_to_face("G1-1");
        st.unit_mut("G1-1").unwrap().status = status;
        st.unit_mut("A1-1").unwrap().concealed = true;
        concealment::after_action(&mut st, "A1-1");
        assert_eq!(
            !st.unit("A1-1").unwrap().concealed,
            loses,
            "observer {status:?}"
        );
    }
}

/// R21: in the Clean Up Phase a unit regains concealment out of sight of every enemy counter
/// its owner can see: a hidden enemy in clear sight does not stop it, the same enemy known
/// does.
#[test]
fn r21_hidden_enemies_do_not_stop_concealment_being_regained() {
    for (hidden, regains) in [(true, true), (false, false)] {
        let mut st = face_to_face("G1-1");
        st.unit_mut("G1-1").unwrap().hidden = hidden;
        st.unit_mut("A1-1").unwrap().concealed = false;
        st.unit_mut("A1-1").unwrap().status = Status::Good;
        concealment::gain(&mut st);
        assert_eq!(
            st.unit("A1-1").unwrap().concealed,
            regains,
            "enemy hidden: {hidden}"
        );
    }
}

/// R14: an unmodified `heroic_roll` on a recovery makes the unit Heroic (in good order at
/// once), and a Heroic unit's Cohesion counts `heroic_cohesion` more; any other roll does
/// not. Real dice, a seed for each case. (The loss after the turn it acted in is played in
/// the Clean Up Phase; the golden game turns cover it.)
#[test]
fn r14_an_unmodified_heroic_roll_on_recovery_makes_a_unit_heroic() {
    let mut base = lhy::game(lhy::PATROL);
    // Alone in the open, far from its leader: no help, no modifier.
    base.unit_mut("A1-1").unwrap().at = hex(&base, "1210");
    base.unit_mut("A1-1").unwrap().status = Status::Disrupted;
    let heroic_roll = base.data.rules.heroic_roll.int() as u32;
    let plain = base.cohesion(base.unit("A1-1").unwrap());
    let mut seen = (false, false);
    for k in 0..300u64 {
        let roll = Dice::new(lhy::seed(k, 14)).roll_one("probe", despatch::dice::Faces::d(10));
        let mut st = base.clone();
        resolution::recover(&mut st, "A1-1", &mut Dice::new(lhy::seed(k, 14)));
        let u = st.unit("A1-1").unwrap();
        if roll == heroic_roll {
            // R13: one step, from disrupted to regrouping, Heroic or not.
            assert!(u.heroic && u.status == Status::Regrouping, "roll {roll}");
            assert_eq!(
                st.cohesion(u),
                plain + st.data.rules.heroic_cohesion.int(),
                "Heroic adds to Cohesion"
            );
            seen.0 = true;
        } else {
            assert!(!u.heroic, "roll {roll}");
            seen.1 = true;
        }
        if seen == (true, true) {
            return;
        }
    }
    panic!("300 seeds never rolled both {heroic_roll} and another face: {seen:?}");
}

/// R19: a unit withdrawing out of a mortar impact hex suffers that attack as it leaves (a
/// resolution roll and its result on the unit), and a unit withdrawing from a hex without one
/// suffers nothing.
#[test]
fn r19_withdrawing_out_of_an_impact_hex_suffers_the_mortar_attack() {
    for marked in [true, false] {
        let mut st = lhy::game(lhy::PATROL);
        let from = hex(&st, "0304");
        st.unit_mut("A1-3").unwrap().at = from;
        if marked {
            let shot = fire::Shot {
                kind: FireKind::Mortar,
                hex: from,
                drm: 0,
                targets: vec![],
            };
            fire::place(&mut st, shot, "G1-1", "germany", false);
        }
        let (path, exit) = withdraw::auto_path(&st, "us", from);
        let before = lhy::log(&st, "us");
        let mut dice = Dice::new(lhy::seed(19, 19));
        let entered = withdraw::run(&mut st, "us", &["A1-3".into()], &path, exit, &mut dice);
        assert_eq!(entered, path, "the withdrawal itself goes ahead");
        let log = lhy::log(&st, "us");
        let new = log.strip_prefix(before.as_str()).unwrap_or(&log);
        let attacked = new.contains("at 0304 (by") && new.contains("A1-3:");
        assert_eq!(attacked, marked, "marked: {marked}\n{new}");
    }
}

/// R16: as an AFV overruns a hex, its defenders take close defence whenever they may (a
/// German squad after 9/43 places its ATDRM on the AFV, which is its action), unless their
/// side has sent `SET CLOSE-DEFENCE OFF`.
#[test]
fn r16_close_defence_is_taken_unless_switched_off() {
    for on in [true, false] {
        let mut st = face_to_face("G1-1");
        assert!(st.date > st.data.rules.close_defence_german_after.int() as u32);
        let (h, from) = (hex(&st, "0305"), hex(&st, "0306"));
        let mut tank = st.unit("A1-1").unwrap().clone();
        tank.name = "Sherman-A".into();
        tank.class = "us_sherman".into();
        tank.kind = Kind::Afv;
        tank.at = from;
        st.units.push(tank);
        if !on {
            let off = lhy::parse(&st, "germany", "SET CLOSE-DEFENCE OFF").expect("a setting");
            assert!(!off.is_empty());
            st.sides
                .iter_mut()
                .find(|s| s.id == "germany")
                .unwrap()
                .close_defence = false;
        }
        vehicle::overrun(&mut st, "us", &["Sherman-A".into()], h, from);
        let closed = st
            .markers
            .iter()
            .any(|m| m.by == "G1-1" && m.targets == vec!["Sherman-A".to_string()]);
        assert_eq!(closed, on, "close defence on: {on}");
        assert_eq!(st.unit("G1-1").unwrap().done.is_some(), on, "its action");
    }
}

/// R17 (bridge rules for the lost §13): an assault is resolved in Phase IV by a d10 plus the
/// assault values for each side, the higher holding the hex (equal: it goes on); and a unit
/// under an enemy assault arrow withdraws only on a d10 at most its best Cohesion (plus the
/// stand-in DRM), on real dice both ways.
#[test]
fn r17_assaults_are_resolved_in_phase_four_and_withdrawing_from_one_is_a_roll() {
    // Phase IV.
    let mut st = face_to_face("G1-1");
    let h = hex(&st, "0305");
    st.unit_mut("A1-1").unwrap().at = h;
    st.assaults = vec![(h, "us".into())];
    let before = lhy::log(&st, "us");
    assault::phase(&mut st, &mut Dice::new(lhy::seed(17, 17)));
    let log = lhy::log(&st, "us");
    let new = log.strip_prefix(before.as_str()).unwrap_or(&log);
    let line = new
        .lines()
        .find(|l| l.starts_with("Assault at 0305:"))
        .unwrap_or_else(|| panic!("no assault resolved:\n{new}"));
    let totals: Vec<i32> = line
        .split(" = ")
        .skip(1)
        .map(|x| {
            x.split_whitespace()
                .next()
                .unwrap()
                .trim_end_matches('.')
                .parse()
                .unwrap()
        })
        .collect();
    let (a, d) = (totals[0], totals[1]);
    let verdict = if a > d {
        "US 1st Platoon holds the hex"
    } else if a < d {
        "German 1st Platoon holds the hex"
    } else {
        "the assault goes on next turn"
    };
    assert!(new.contains(verdict), "{a} vs {d}: {new}");
    // Withdrawing from under an assault arrow.
    let mut base = lhy::game(lhy::PATROL);
    let from = hex(&base, "0304");
    base.unit_mut("A1-3").unwrap().at = from;
    base.arrows.push(Arrow {
        units: vec!["G1-1".into()],
        side: "germany".into(),
        to: from,
        feint: false,
    });
    let need =
        base.cohesion(base.unit("A1-3").unwrap()) + base.data.rules.assault_withdraw_drm.int();
    let (path, exit) = withdraw::auto_path(&base, "us", from);
    let mut seen = (false, false);
    for k in 0..200u64 {
        let roll = Dice::new(lhy::seed(k, 170)).roll_one("probe", despatch::dice::Faces::d(10));
        let mut st = base.clone();
        let mut dice = Dice::new(lhy::seed(k, 170));
        let went = withdraw::run(&mut st, "us", &["A1-3".into()], &path, exit, &mut dice);
        assert_eq!(
            !went.is_empty(),
            roll as i32 <= need,
            "roll {roll} vs {need}"
        );
        if went.is_empty() {
            seen.0 = true;
        } else {
            seen.1 = true;
        }
        if seen == (true, true) {
            return;
        }
    }
    panic!("200 seeds never both held and let go: {seen:?}");
}
