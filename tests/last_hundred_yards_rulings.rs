//! Numbered rulings of Last Hundred Yards (games/last-hundred-yards/README.md) about the map
//! and the counters, which the golden tests do not reach through whole mails: roads, bridges,
//! hindrances, hills, the stand-in terrain values, stacking, what fire strikes, armour facing
//! and transport. One test per ruling, named `r<N>_…`, on the shipped data and the patrol map
//! (sector 1: a road down column 07 that becomes an urban road in rows 04–05, a hill of
//! contour 2, level 1, at 1008). Conduct rulings are in last_hundred_yards_rulings_play.rs.

use crate::lhy;

use despatch::rulesets::kit::roster::Roster;
use despatch::rulesets::last_hundred_yards::data::{Ground, Kind};
use despatch::rulesets::last_hundred_yards::maneuver;
use despatch::rulesets::last_hundred_yards::state::LhyState;
use despatch::rulesets::last_hundred_yards::{fire, sight, stacking};
use lhy::{face_to_face, hex};

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
