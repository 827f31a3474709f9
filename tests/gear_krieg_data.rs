//! Checks the shipped Gear Krieg data (ruleset, scenario, README) against the seed and the
//! rulings; it reads files only and must not depend on the resolution code.

use std::collections::BTreeSet;

use despatch::rulesets::gear_krieg::data::{Num, RulesetData, Scenario, TerrainKind, TomlData};

const RULESET: &str = include_str!("../games/gear-krieg/ruleset.toml");
const SCENARIO: &str = include_str!("../games/gear-krieg/scenarios/crossroads.toml");
const README: &str = include_str!("../games/gear-krieg/README.md");

#[test]
fn every_rule_the_code_reads_is_shipped() {
    // The typed `Rules` is the list of what the code reads; the shipped table has exactly it.
    let d = RulesetData::from_toml(RULESET).unwrap();
    let v: toml::Table = toml::from_str(RULESET).unwrap();
    let shipped: BTreeSet<&str> = v["rules"]
        .as_table()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let read: BTreeSet<&str> = d.rules.entries().into_iter().map(|e| e.0).collect();
    assert_eq!(read, shipped);
}

#[test]
fn every_stand_in_gives_a_reason_and_every_table_is_a_stand_in() {
    let v: toml::Value = toml::from_str(RULESET).unwrap();
    fn walk(path: &str, v: &toml::Value, n: &mut u32) {
        match v {
            toml::Value::Table(t) if t.contains_key("value") => {
                assert_eq!(
                    t.get("stand_in").and_then(|x| x.as_bool()),
                    Some(true),
                    "{path}: a table but not stand_in"
                );
                let r = t.get("reason").and_then(|x| x.as_str()).unwrap_or("");
                assert!(r.len() > 8, "{path}: stand-in without a reason");
                *n += 1;
            }
            toml::Value::Table(t) => t
                .iter()
                .for_each(|(k, x)| walk(&format!("{path}.{k}"), x, n)),
            toml::Value::Array(a) => a
                .iter()
                .enumerate()
                .for_each(|(i, x)| walk(&format!("{path}[{i}]"), x, n)),
            _ => {}
        }
    }
    let mut n = 0;
    walk("", &v, &mut n);
    assert!(n > 60, "only {n} stand-ins: the seed lost most of the data");
}

#[test]
fn seed_printed_values_are_not_stand_ins() {
    let d = RulesetData::from_toml(RULESET).unwrap();
    let printed = |x: &Num, v: f64, what: &str| {
        assert!(!x.is_stand_in(), "{what} is printed in the seed");
        assert_eq!(x.get(), v, "{what}");
    };
    let g = &d.vehicles["general"];
    printed(&g.threat_value, 52.0, "General TV");
    printed(&g.fire_control, -1.0, "General FC");
    printed(&g.walker_combat, 2.0, "walk combat");
    printed(&g.walker_top, 4.0, "walk top");
    printed(&g.ground_combat, 3.0, "ground combat");
    printed(&g.ground_top, 5.0, "ground top");
    printed(&g.size, 7.0, "General size");
    printed(&g.front_armor, 1.0, "Reinforced +1");
    printed(&g.ground_maneuver, -2.0, "Decreased Maneuver");
    printed(&g.punch_dm, 4.0, "Manipulator Arms");
    printed(&g.weapons[0].dm, 5.0, "M4B x5");
    printed(&g.weapons[0].rof, 1.0, "M4B ROF 1");
    printed(&g.weapons[1].rof, 2.0, "LMG ROF 2");
    printed(&g.weapons[2].dm, 8.0, "Mk3W x8");
    assert!(g.armor.is_stand_in() && g.maneuver.is_stand_in() && g.impact_dm.is_stand_in());
    assert!(g.weapons[1].dm.is_stand_in(), "the LMG DM is lost");
    let v = &d.vehicles["valkurie"];
    printed(&v.threat_value, 39.0, "Valkurie TV");
    printed(&v.size, 6.0, "Valkurie size");
    printed(&v.front_armor, 2.0, "Reinforced +2");
    printed(&v.weapons[2].dm, 9.0, "grenades x9");
    assert!(v.weapons[0].dm.is_stand_in(), "the KwK DM is lost");
    for (k, i) in &d.infantry {
        printed(&i.combat_mp, 2.0, &format!("{k} MP"));
        assert!(
            i.skill.is_stand_in() && i.circles.is_stand_in(),
            "{k}: card lost"
        );
    }
    for (rule, v) in [
        ("top", -3.0),
        ("stationary", 2.0),
        ("extreme", -3.0),
        ("rally_threshold", 4.0),
        ("saturation_rounds", 30.0),
    ] {
        printed(d.rules.find(rule).unwrap(), v, rule);
    }
    assert_eq!(
        d.infantry_rof_bonus
            .iter()
            .map(|b| b.troopers.get())
            .collect::<Vec<_>>(),
        vec![2.0, 4.0, 8.0]
    );
}

#[test]
fn scenario_has_every_terrain_and_opposite_edges() {
    let d = RulesetData::from_toml(RULESET).unwrap();
    let s = Scenario::from_toml(SCENARIO).unwrap();
    let kinds: BTreeSet<TerrainKind> = s.terrain.iter().map(|t| t.kind).collect();
    for k in [
        TerrainKind::Rough,
        TerrainKind::Woodland,
        TerrainKind::Jungle,
        TerrainKind::Road,
        TerrainKind::Hill,
    ] {
        assert!(kinds.contains(&k), "{k:?} missing");
        assert!(d.terrain.contains_key(&k));
    }
    assert!(d.terrain.contains_key(&TerrainKind::Clear));
    assert_eq!(s.sides.len(), 2);
    let west = s.sides[0].units.iter().all(|u| u.x <= 6.0);
    let east = s.sides[1].units.iter().all(|u| u.x >= s.width - 6.0);
    assert!(west && east, "forces deploy on opposite edges");
    assert!(s.max_rounds > 0 && !s.objectives.is_empty());
    for side in &s.sides {
        for u in &side.units {
            assert!(
                d.vehicles.contains_key(&u.class) || d.infantry.contains_key(&u.class),
                "{}",
                u.class
            );
        }
    }
}

#[test]
fn readme_numbers_its_rulings_and_documents_every_order() {
    for i in 1..=33 {
        assert!(README.contains(&format!("**R{i} ")), "ruling R{i} missing");
    }
    for kw in [
        "ACTIVATE",
        "MOVE",
        "TURN",
        "REVERSE",
        "MODE",
        "FIRE",
        "WALK",
        "SATURATE",
        "PUNCH",
        "KICK",
        "RAM",
        "ASSAULT",
        "RALLY",
        "HOLD",
        "EXTRA",
        "DEFEND",
        "SPEED",
        "OVERWATCH",
        "INTERRUPT",
        "NO INTERRUPT",
        "INTERRUPTS",
        "DECLARATIONS",
        "CHOOSE",
        "CP EXTRA",
        "CP DEFEND",
        "CP ABOUTFACE",
        "PASS",
        "HELP",
    ] {
        assert!(README.contains(kw), "README lacks {kw}");
    }
}
