//! Numbered rulings of Last Hundred Yards (games/last-hundred-yards/README.md) that the golden
//! tests do not reach through whole mails: the terrain calls (roads, hills, stand-in terrain
//! values), stacking of mortars, the Random Event Table and the exit roll's casualties. One test
//! per ruling, named `r<N>_…`, on the shipped data and the patrol map (sector 1: a road down
//! column 07 that becomes an urban road in rows 04–05, a hill of contour 2, level 1, at 1008).

mod lhy;

use despatch::dice::Dice;
use despatch::rulesets::last_hundred_yards::data::{Ground, Kind};
use despatch::rulesets::last_hundred_yards::maneuver;
use despatch::rulesets::last_hundred_yards::state::{Arrow, FireKind, LhyState, Place, Status};
use despatch::rulesets::last_hundred_yards::{
    assault, concealment, fire, resolution, sight, stacking, vehicle, withdraw,
};

fn hex(st: &LhyState, s: &str) -> despatch::board::hex::Hex {
    st.map.grid().parse_hex(s).unwrap()
}

/// R3: road hexes are contiguous only when adjacent and both roads; vehicles enter an urban
/// road hex only along the road, units on foot from anywhere.
#[test]
fn r3_roads_join_adjacent_road_hexes_and_vehicles_enter_urban_roads_along_them() {
    let st = lhy::game(lhy::PATROL);
    let (r1, r2, r3) = (hex(&st, "0701"), hex(&st, "0702"), hex(&st, "0703"));
    assert!(st.map.road(r1) && st.map.road(r2));
    assert!(
        st.map.road_link(r1, r2),
        "adjacent road hexes are contiguous"
    );
    assert!(!st.map.road_link(r1, r3), "not adjacent: not contiguous");
    assert!(
        !st.map.road_link(r1, hex(&st, "0801")),
        "0801 has no road: not contiguous"
    );
    let (urban_road, beside) = (hex(&st, "0704"), hex(&st, "0604"));
    assert_eq!(st.map.ground(urban_road), Ground::UrbanRoad);
    assert!(!st.map.road(beside));
    let along = st.map.enter_cost(&st.data, r3, urban_road, true);
    assert_eq!(along, Some(st.data.features.road_mp.get()));
    assert_eq!(
        st.map.enter_cost(&st.data, beside, urban_road, true),
        None,
        "a vehicle may not enter an urban road from a building hex"
    );
    assert!(
        st.map
            .enter_cost(&st.data, beside, urban_road, false)
            .is_some(),
        "a unit on foot may"
    );
}

/// R6: a hill is cover only against fire from a lower level: the same open hilltop gives the
/// hill TEM against a firer below and nothing against one on its level.
#[test]
fn r6_a_hill_is_cover_only_against_fire_from_below() {
    let st = lhy::game(lhy::PATROL);
    let (top, below, level) = (hex(&st, "1008"), hex(&st, "1010"), hex(&st, "0203"));
    // Two contours make a level: contour 2 is hill level 1.
    assert_eq!(st.map.level(top), 1);
    assert_eq!(st.map.level(below), 0);
    assert_eq!(st.map.level(level), 1);
    let hill = st.data.features.hill_tem.int();
    assert!(hill < 0, "the hill TEM helps the defender (R1)");
    let open = st.data.fx(Ground::Open).tem.int().min(0);
    assert_eq!(fire::tem(&st, top, below, "us"), open + hill);
    assert_eq!(fire::tem(&st, top, level, "us"), open);
    // Fire downhill gives the lower target no hill TEM either.
    assert_eq!(fire::tem(&st, below, top, "us"), open);
}

/// R7: the Terrain Effects Table is lost: every movement cost and every non-zero TEM of every
/// terrain, and every feature value, is data marked as a stand-in with its reason (only the
/// seed's own "may not enter" stands bare).
#[test]
fn r7_terrain_effects_are_stand_ins_marked_with_their_reason() {
    let data: toml::Value = toml::from_str(lhy::RULESET).unwrap();
    let marked = |v: &toml::Value| {
        v.get("stand_in").and_then(toml::Value::as_bool) == Some(true)
            && v.get("reason")
                .and_then(toml::Value::as_str)
                .is_some_and(|r| r.contains("R7") || r.contains('§'))
    };
    let terrain = data["terrain"].as_table().unwrap();
    assert!(terrain.len() >= 10, "every terrain type of the seed");
    let mut checked = 0;
    for (name, t) in terrain {
        for key in ["mp_foot", "mp_vehicle"] {
            // "May not enter" (-1) is the seed's own rule (§4.1.10: vehicles cross a river
            // only at bridges and fords), so it stands bare.
            if t[key].as_integer() == Some(-1) {
                continue;
            }
            assert!(
                marked(&t[key]),
                "terrain.{name}.{key} is not a marked stand-in"
            );
            checked += 1;
        }
        if t["tem"].as_integer() != Some(0) {
            assert!(
                marked(&t["tem"]),
                "terrain.{name}.tem is not a marked stand-in"
            );
            checked += 1;
        }
    }
    for (name, v) in data["features"].as_table().unwrap() {
        assert!(marked(v), "features.{name} is not a marked stand-in");
        checked += 1;
    }
    assert!(checked > 25, "only {checked} values checked");
}

/// R8: mortar sections stack with the MG sections, so an MG and a mortar of one side in one
/// hex count as two heavy weapons.
#[test]
fn r8_mortar_sections_stack_with_mg_sections() {
    let st = lhy::game(lhy::BRIDGEHEAD);
    let find = |k: Kind| {
        st.units
            .iter()
            .find(|u| u.kind == k && !u.dummy())
            .unwrap_or_else(|| panic!("bridgehead has a {k:?}"))
    };
    let (mg, mortar) = (find(Kind::Mg), find(Kind::Mortar));
    let c = stacking::count(&st, [mg, mortar]);
    assert_eq!(c.mgs, 2);
    assert_eq!(c.halves, 0);
    let limit = st.data.rules.stack_mgs.int();
    let over = stacking::Count {
        mgs: limit + 1,
        ..Default::default()
    };
    let why = stacking::breach(&st, hex(&st, "0101"), over).expect("over the limit");
    assert!(why.contains("MG and mortar"), "{why}");
}

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

/// R4: a bridge is entered along its road; a unit on foot coming from any other hex goes
/// under it (it pays the river's cost), and a vehicle cannot enter it that way at all.
#[test]
fn r4_on_foot_off_the_road_a_unit_goes_under_the_bridge() {
    let st = lhy::game(lhy::BRIDGEHEAD);
    let bridge = st
        .map
        .hexes()
        .into_iter()
        .find(|h| st.map.ground(*h) == Ground::Bridge)
        .expect("the bridgehead map has a bridge");
    let around: Vec<_> = st
        .map
        .hexes()
        .into_iter()
        .filter(|h| h.is_adjacent(bridge))
        .collect();
    let on_road = *around
        .iter()
        .find(|h| st.map.road_link(**h, bridge))
        .expect("a road leads onto the bridge");
    let off_road = *around
        .iter()
        .find(|h| !st.map.road(**h) && st.map.ground(**h) == Ground::River)
        .expect("river beside the bridge");
    let road = st.data.features.road_mp.get();
    let river = st.data.fx(Ground::River).mp_foot.get();
    assert_ne!(road, river, "the two costs tell the ways apart");
    assert_eq!(
        st.map.enter_cost(&st.data, on_road, bridge, false),
        Some(road)
    );
    assert_eq!(
        st.map.enter_cost(&st.data, on_road, bridge, true),
        Some(road)
    );
    assert_eq!(
        st.map.enter_cost(&st.data, off_road, bridge, false),
        Some(river),
        "from the river a unit on foot goes under the bridge"
    );
    assert_eq!(st.map.enter_cost(&st.data, off_road, bridge, true), None);
}

/// R22: halftracks and trucks carry passengers and towed guns up to their capacity, AFVs
/// only infantry riders, and a carrier with ATV 0 (or a vehicle of no capacity) nobody.
#[test]
fn r22_vehicles_carry_up_to_their_capacity() {
    let mut st = lhy::game(lhy::BRIDGEHEAD);
    let at = st.unit("A1-1").unwrap().at;
    let mut halftrack = st.unit("Sherman-1").unwrap().clone();
    halftrack.name = "HT-1".into();
    halftrack.class = "us_halftrack".into();
    halftrack.kind = Kind::Halftrack;
    halftrack.at = at;
    st.units.push(halftrack);
    for n in ["A1-2", "A2-1", "Sherman-2"] {
        st.unit_mut(n).unwrap().at = at;
    }
    let capacity = st.values(st.unit("HT-1").unwrap()).capacity;
    assert_eq!(capacity, 2, "the shipped halftrack's stand-in capacity");
    let check = |st: &LhyState, u: &str, v: &str| {
        maneuver::check_mount(st, st.unit(u).unwrap(), st.unit(v).unwrap())
    };
    check(&st, "A1-1", "HT-1").expect("room for the first squad");
    st.unit_mut("A1-1").unwrap().aboard = Some("HT-1".into());
    check(&st, "A1-2", "HT-1").expect("room for the second");
    st.unit_mut("A1-2").unwrap().aboard = Some("HT-1".into());
    let full = check(&st, "A2-1", "HT-1").unwrap_err();
    assert!(full.contains("full"), "{full}");
    // A Sherman of the shipped data has no capacity: it carries no one.
    let none = check(&st, "A2-1", "Sherman-2").unwrap_err();
    assert!(none.contains("carries no one"), "{none}");
    // A carrier with ATV 0 transports nothing (§2.1).
    st.unit_mut("A1-1").unwrap().aboard = None;
    st.unit_mut("A1-2").unwrap().aboard = None;
    let class = st.data.classes.get_mut("us_halftrack").unwrap();
    let mut v = class.values.get();
    v.atv = 0;
    class.values = despatch::rulesets::kit::data::Marked::Seed(v);
    let no_atv = check(&st, "A2-1", "HT-1").unwrap_err();
    assert!(no_atv.contains("ATV 0"), "{no_atv}");
}

/// R5: each hindrance on the line counts once more (cumulative) — here vehicles standing in
/// the urban road hexes the line passes through, never the ones at its ends — and the Blind
/// Hex Table is a marked stand-in.
#[test]
fn r5_hindrances_add_up_and_the_blind_hex_table_is_a_stand_in() {
    let mut st = lhy::game(lhy::PATROL);
    let (from, to) = (hex(&st, "0703"), hex(&st, "0706"));
    let (r4, r5) = (hex(&st, "0704"), hex(&st, "0705"));
    assert_eq!(st.map.ground(r4), Ground::UrbanRoad);
    assert_eq!(st.map.ground(r5), Ground::UrbanRoad);
    assert_eq!(sight::hindrances(&st, from, to), 0);
    let vehicle = |st: &LhyState, name: &str, at| {
        let mut v = st.unit("A1-1").unwrap().clone();
        v.name = name.into();
        v.class = "us_sherman".into();
        v.kind = Kind::Afv;
        v.at = at;
        v
    };
    let one = vehicle(&st, "Sherman-A", r4);
    st.units.push(one);
    assert_eq!(sight::hindrances(&st, from, to), 1);
    let two = vehicle(&st, "Sherman-B", r5);
    st.units.push(two);
    assert_eq!(sight::hindrances(&st, from, to), 2, "cumulative");
    assert_eq!(
        sight::hindrances(&st, r4, to),
        1,
        "the vehicle at the line's own end does not hinder it"
    );
    assert!(
        st.data
            .tables
            .blind_hexes
            .reason()
            .is_some_and(|r| r.starts_with("R5")),
        "the Blind Hex Table is a stand-in marked R5"
    );
}

/// R15: a vehicle is hit on its AV from in front and on its AEV from behind: the same gun at
/// the same range, once before and once behind a Sherman, differs by exactly AV − AEV.
#[test]
fn r15_a_vehicle_is_hit_on_its_av_in_front_and_its_aev_behind() {
    use despatch::board::hex::HexDir;
    let mut st = lhy::game(lhy::PATROL);
    let (at, ahead, before, behind) = (
        hex(&st, "0408"),
        hex(&st, "0407"),
        hex(&st, "0406"),
        hex(&st, "0410"),
    );
    let grid = st.map.grid();
    let facing = HexDir::ALL
        .into_iter()
        .find(|d| grid.neighbour(at, *d) == ahead)
        .expect("0407 is a neighbour of 0408");
    let mut tank = st.unit("A1-1").unwrap().clone();
    tank.name = "Sherman-A".into();
    tank.class = "us_sherman".into();
    tank.kind = Kind::Afv;
    tank.at = at;
    tank.facing = Some(facing);
    st.units.push(tank);
    let mut gun = st.unit("MG-42").unwrap().clone();
    gun.name = "Pak-A".into();
    gun.class = "ger_pak40".into();
    gun.kind = Kind::Gun;
    let tank = st.unit("Sherman-A").unwrap().clone();
    let v = st.values(&tank);
    assert!(v.av > v.aev, "front armour thicker: {} vs {}", v.av, v.aev);
    let shot = |from| fire::anti_tank(&st, &gun, from, &tank, 0).expect("in range and sight");
    assert!(fire::in_front(&st, &tank, before) && !fire::in_front(&st, &tank, behind));
    assert_eq!(before.distance(at), behind.distance(at));
    assert_eq!(shot(before).drm - shot(behind).drm, v.aev - v.av);
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

/// The patrol game with only `watcher` left of the Germans, in open ground at 0305, and the
/// US squad A1-1 at 0307, two hexes from it in clear sight.
fn face_to_face(watcher: &str) -> LhyState {
    let mut st = lhy::game(lhy::PATROL);
    for u in st.units.iter_mut() {
        if u.side == "germany" && u.name != watcher {
            u.place = Place::Eliminated;
        }
    }
    let (g, a) = (hex(&st, "0305"), hex(&st, "0307"));
    st.unit_mut(watcher).unwrap().at = g;
    st.unit_mut(watcher).unwrap().hidden = false;
    st.unit_mut("A1-1").unwrap().at = a;
    let w = st.unit(watcher).unwrap().clone();
    assert!(sight::sees(&st, &w, a), "clear sight from 0305 to 0307");
    st
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
        concealment::after_action(&mut st, "A1-1", concealment::Why::Maneuver);
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
            assert!(u.heroic && u.status == Status::Good, "roll {roll}");
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

/// R11: small arms strike the units with Cohesion in the hex, never its vehicles; anti-tank
/// fire strikes vehicles, towed guns and FPs, and is refused against a squad.
#[test]
fn r11_small_arms_strike_soft_units_and_anti_tank_fire_hard_ones() {
    let mut st = face_to_face("G1-1");
    let g = hex(&st, "0305");
    let mut tank = st.unit("G1-1").unwrap().clone();
    tank.name = "PzIV-A".into();
    tank.class = "ger_pziv".into();
    tank.kind = Kind::Afv;
    st.units.push(tank);
    let squad = st.unit("A1-1").unwrap().clone();
    let shot = fire::small_arms(&st, &squad, squad.at, g, 0).expect("in range and sight");
    assert_eq!(shot.targets, vec!["G1-1".to_string()], "not the tank");
    let mut gun = squad.clone();
    gun.name = "57mm-A".into();
    gun.class = "us_57mm".into();
    gun.kind = Kind::Gun;
    let at_tank = fire::anti_tank(&st, &gun, gun.at, st.unit("PzIV-A").unwrap(), 0)
        .expect("anti-tank fire at the tank");
    assert_eq!(at_tank.targets, vec!["PzIV-A".to_string()]);
    let why = fire::anti_tank(&st, &gun, gun.at, st.unit("G1-1").unwrap(), 0).unwrap_err();
    assert!(why.contains("only against vehicles"), "{why}");
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
