//! Checks the shipped Naval RJW data (ruleset, scenarios, README) against the rulings and the
//! seed; it reads files only and must not depend on the engine's resolution code.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use despatch::rulesets::naval_rjw::data::{
    Num, RulesetData, Scenario, ScenarioSide, ShipClass, TomlData,
};

/// Every `[rules]` name from naval-rulings.md, its value there, and whether it is a stand-in.
const RULES: &[(&str, f64, bool)] = &[
    ("close_range", 6.0, false),
    ("command_radius", 18.0, false),
    ("command_surcharge", 1.0, false),
    ("cruise", 3.0, false),
    ("rescue_radius", 12.0, false),
    ("rescue_proximity", 1.0, false),
    ("rescue_turns", 2.0, false),
    ("strike_enemy_radius", 6.0, false),
    ("strike_friend_radius", 12.0, false),
    ("strike_ratio", 3.0, false),
    ("alongside", 1.0, true),
    ("mine_cf", 2.0, false),
    ("sweeper_cf", 4.0, false),
    ("minefield_length", 4.0, false),
    ("minefield_width", 1.0, false),
    ("sweep_reach", 2.0, true),
    ("lay_astern", 2.0, true),
    ("dummies_per_genuine", 2.0, false),
    ("pregame_genuine_max", 2.0, true),
    ("obsolete_range_penalty", 6.0, false),
    ("obsolete_min_range", 6.0, false),
    ("obsolete_speed_penalty", 1.0, false),
    ("coal_speed_penalty", 1.0, false),
    ("foul_speed_penalty", 1.0, false),
    ("secondary_cf", 2.0, false),
    ("secondary_range", 12.0, false),
    ("max_supporters", 2.0, false),
    ("extreme_modifier", -2.0, false),
    ("close_modifier", 1.0, false),
    ("broadside_modifier", 1.0, false),
    ("support_modifier", 1.0, false),
    ("bb_support_modifier", 1.0, false),
    ("dd_stationary_modifier", 2.0, false),
    ("broadside_half_arc", 45.0, false),
    ("withdrawal_cost", 2.0, false),
    ("chase_cost", 3.0, false),
    ("formation_cost", 2.0, false),
    ("join_reach", 2.0, true),
    ("join_heading", 45.0, true),
    ("flotilla_spacing", 1.0, false),
    ("collision_touch", 0.25, true),
    ("collision_clear", 0.5, true),
    ("victory_fraction", 0.25, false),
    ("victory_min", 2.0, false),
    ("movement_critical_speed", 2.0, false),
    ("gunnery_critical_cf", 1.0, false),
    ("cp_subtract", 1.0, false),
    ("poor_cp_subtract", 2.0, false),
    ("fresh_cp_bonus", 1.0, false),
    ("flagship_lost_cp", 1.0, false),
    ("lost_capital_weight", 2.0, true),
];

/// One class row: cf, range, extreme range, speed, hull length, scouting points, max turn,
/// and which of cf / range are printed in the seed (the rest of the gun table is lost).
struct ClassRow {
    class: ShipClass,
    values: [f64; 7],
    cf_printed: bool,
    range_printed: bool,
}

const CLASSES: &[ClassRow] = &[
    ClassRow {
        class: ShipClass::DD,
        values: [1.0, 6.0, 9.0, 8.0, 1.0, 1.0, 180.0],
        cf_printed: false,
        range_printed: false,
    },
    ClassRow {
        class: ShipClass::CL,
        values: [2.0, 12.0, 18.0, 6.0, 1.2, 2.0, 90.0],
        cf_printed: true,
        range_printed: true,
    },
    ClassRow {
        class: ShipClass::CA,
        values: [3.0, 15.0, 24.0, 6.0, 1.5, 1.0, 90.0],
        cf_printed: false,
        range_printed: false,
    },
    ClassRow {
        class: ShipClass::BB,
        values: [4.0, 18.0, 30.0, 5.0, 1.6, 0.0, 90.0],
        cf_printed: true,
        range_printed: false,
    },
];

fn game_file(rel: &str) -> String {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "games", "naval-rjw", rel]
        .iter()
        .collect();
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn ruleset() -> RulesetData {
    RulesetData::from_toml(&game_file("ruleset.toml")).expect("ruleset.toml parses")
}

fn scenario(file: &str) -> Scenario {
    Scenario::from_toml(&game_file(&format!("scenarios/{file}")))
        .unwrap_or_else(|e| panic!("{file}: {e}"))
}

fn side<'a>(s: &'a Scenario, id: &str) -> &'a ScenarioSide {
    s.sides
        .iter()
        .find(|side| side.id == id)
        .unwrap_or_else(|| panic!("no side {id}"))
}

// ---------------------------------------------------------------- geometry

type P = (f64, f64);

/// Bow and stern of a hull: compass heading, 0 = +y, 90 = +x.
fn hull_ends(x: f64, y: f64, heading: f64, length: f64) -> (P, P) {
    let (s, c) = heading.to_radians().sin_cos();
    let h = length / 2.0;
    ((x + s * h, y + c * h), (x - s * h, y - c * h))
}

fn point_segment(p: P, a: P, b: P) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    let t = if len2 == 0.0 {
        0.0
    } else {
        (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2).clamp(0.0, 1.0)
    };
    let (qx, qy) = (a.0 + t * dx, a.1 + t * dy);
    ((p.0 - qx).powi(2) + (p.1 - qy).powi(2)).sqrt()
}

fn cross(o: P, a: P, b: P) -> f64 {
    (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
}

/// Nearest-point distance of two hull segments (0 when they cross).
fn segment_distance(a: (P, P), b: (P, P)) -> f64 {
    let d1 = cross(a.0, a.1, b.0);
    let d2 = cross(a.0, a.1, b.1);
    let d3 = cross(b.0, b.1, a.0);
    let d4 = cross(b.0, b.1, a.1);
    if d1 * d2 < 0.0 && d3 * d4 < 0.0 {
        return 0.0;
    }
    [
        point_segment(a.0, b.0, b.1),
        point_segment(a.1, b.0, b.1),
        point_segment(b.0, a.0, a.1),
        point_segment(b.1, a.0, a.1),
    ]
    .into_iter()
    .fold(f64::INFINITY, f64::min)
}

// ---------------------------------------------------------------- scenario checks

/// Every structural problem of a scenario, as readable lines (empty: sound).
fn scenario_problems(s: &Scenario, data: &RulesetData) -> Vec<String> {
    let mut problems = Vec::new();
    let hull_len = |c: ShipClass| data.classes[&c].hull_length.get();

    let side_ids: BTreeSet<&str> = s.sides.iter().map(|side| side.id.as_str()).collect();
    if s.sides.len() != 2 || side_ids.len() != 2 {
        problems.push(format!("expected two distinct sides, got {side_ids:?}"));
    }
    if let Some(first) = &s.first
        && !side_ids.contains(first.as_str())
    {
        problems.push(format!("first = {first:?} is not a side"));
    }
    if s.max_turns == 0 {
        problems.push("max_turns is 0".into());
    }

    let mut seen = BTreeSet::new();
    for ship in s.sides.iter().flat_map(|side| &side.ships) {
        if !seen.insert(ship.name.to_lowercase()) {
            problems.push(format!("ship name {:?} is used twice", ship.name));
        }
        if ship.name.trim().is_empty() || ship.name.trim() != ship.name {
            problems.push(format!("ship name {:?} is blank or padded", ship.name));
        }
    }

    for side in &s.sides {
        let class_of: BTreeMap<&str, ShipClass> = side
            .ships
            .iter()
            .map(|ship| (ship.name.as_str(), ship.class))
            .collect();
        for (role, name) in [("flagship", &side.flagship), ("second", &side.second)] {
            match class_of.get(name.as_str()) {
                None => problems.push(format!(
                    "{}: {role} {name} is not one of its ships",
                    side.id
                )),
                Some(c) if !c.is_capital() => {
                    problems.push(format!("{}: {role} {name} is not a capital ship", side.id))
                }
                Some(_) => {}
            }
        }
        if side.flagship == side.second {
            problems.push(format!(
                "{}: flagship and second are the same ship",
                side.id
            ));
        }
        if !(0.0..360.0).contains(&side.withdrawal_heading) {
            problems.push(format!("{}: withdrawal heading out of 0..360", side.id));
        }

        let mut grouped = BTreeSet::new();
        let groups = side.lines.iter().map(|g| (g, false));
        for (group, flotilla) in groups.chain(side.flotillas.iter().map(|g| (g, true))) {
            if group.ships.is_empty() {
                problems.push(format!("{}: group {} is empty", side.id, group.name));
            }
            for member in &group.ships {
                let Some(&class) = class_of.get(member.as_str()) else {
                    problems.push(format!(
                        "{}: {} lists {member}, not a ship of this side",
                        side.id, group.name
                    ));
                    continue;
                };
                if !grouped.insert(member.as_str()) {
                    problems.push(format!("{}: {member} is in two groups", side.id));
                }
                if flotilla != (class == ShipClass::DD) {
                    problems.push(format!(
                        "{}: {member} ({}) is in the wrong kind of group {}",
                        side.id,
                        class.abbr(),
                        group.name
                    ));
                }
            }
            let ships: Vec<_> = group
                .ships
                .iter()
                .filter_map(|n| side.ships.iter().find(|sh| &sh.name == n))
                .collect();
            if !flotilla {
                // Line astern: each follower steers the leader's course and lies astern of
                // the ship ahead, close enough to follow her track (R13).
                for pair in ships.windows(2) {
                    let (ahead, next) = (pair[0], pair[1]);
                    let (s_, c_) = ahead.heading.to_radians().sin_cos();
                    let (dx, dy) = (next.x - ahead.x, next.y - ahead.y);
                    let astern = -(dx * s_ + dy * c_);
                    let abeam = (dx * c_ - dy * s_).abs();
                    if next.heading != ahead.heading
                        || !(1.5..=4.0).contains(&astern)
                        || abeam > 0.01
                    {
                        problems.push(format!(
                            "{}: {} is not in line astern of {} ({astern:.2} astern, {abeam:.2} abeam)",
                            side.id, next.name, ahead.name
                        ));
                    }
                }
            } else {
                // Flotilla: each destroyer within flotilla_spacing of another (p.5).
                let spacing = data.rules.flotilla_spacing.get();
                for a in &ships {
                    let ha = hull_ends(a.x, a.y, a.heading, hull_len(a.class));
                    let near = ships.iter().any(|b| {
                        b.name != a.name
                            && segment_distance(
                                ha,
                                hull_ends(b.x, b.y, b.heading, hull_len(b.class)),
                            ) <= spacing
                    });
                    if ships.len() > 1 && !near {
                        problems.push(format!(
                            "{}: {} is not within {spacing} of its flotilla",
                            side.id, a.name
                        ));
                    }
                }
            }
        }
    }

    let all: Vec<_> = s.sides.iter().flat_map(|side| &side.ships).collect();
    for ship in &all {
        let (bow, stern) = hull_ends(ship.x, ship.y, ship.heading, hull_len(ship.class));
        for (x, y) in [bow, stern] {
            if !(0.0..=s.width).contains(&x) || !(0.0..=s.height).contains(&y) {
                problems.push(format!("{} lies off the table", ship.name));
            }
        }
    }
    for (i, a) in all.iter().enumerate() {
        for b in &all[i + 1..] {
            let centres = ((a.x - b.x).powi(2) + (a.y - b.y).powi(2)).sqrt();
            let clear = centres - (hull_len(a.class) + hull_len(b.class)) / 2.0;
            if clear < 0.5 {
                problems.push(format!("{} and {} are {clear:.2} apart", a.name, b.name));
            }
        }
    }
    for field in &s.minefields {
        if !side_ids.contains(field.owner.as_str()) {
            problems.push(format!("minefield owner {} is not a side", field.owner));
        }
        if !(0.0..=s.width).contains(&field.x) || !(0.0..=s.height).contains(&field.y) {
            problems.push(format!(
                "minefield at {},{} lies off the table",
                field.x, field.y
            ));
        }
    }
    problems
}

fn nearest_enemy_range(s: &Scenario, data: &RulesetData) -> f64 {
    let hull = |sh: &despatch::rulesets::naval_rjw::data::ScenarioShip| {
        hull_ends(
            sh.x,
            sh.y,
            sh.heading,
            data.classes[&sh.class].hull_length.get(),
        )
    };
    let (a, b) = (&s.sides[0], &s.sides[1]);
    a.ships
        .iter()
        .flat_map(|x| b.ships.iter().map(move |y| (x, y)))
        .map(|(x, y)| segment_distance(hull(x), hull(y)))
        .fold(f64::INFINITY, f64::min)
}

fn class_count(side: &ScenarioSide, class: ShipClass) -> usize {
    side.ships.iter().filter(|s| s.class == class).count()
}

// ---------------------------------------------------------------- ruleset tests

#[test]
fn ruleset_names_every_rule_of_the_rulings_with_its_value() {
    let data = ruleset();
    for &(name, value, stand_in) in RULES {
        let num = data
            .rules
            .find(name)
            .unwrap_or_else(|| panic!("ruleset.toml lacks rules.{name}"));
        assert_eq!(num.get(), value, "rules.{name}");
        assert_eq!(num.is_stand_in(), stand_in, "rules.{name}: stand_in flag");
    }
    let listed: BTreeSet<&str> = RULES.iter().map(|r| r.0).collect();
    let extra: Vec<&str> = data
        .rules
        .entries()
        .into_iter()
        .map(|e| e.0)
        .filter(|k| !listed.contains(k))
        .collect();
    assert!(extra.is_empty(), "rules not in the rulings: {extra:?}");
}

#[test]
fn r1_class_rows_follow_the_stand_ins_and_the_seed() {
    let data = ruleset();
    assert_eq!(data.classes.len(), 4);
    for row in CLASSES {
        let c = &data.classes[&row.class];
        let got = [
            &c.cf,
            &c.range,
            &c.extreme_range,
            &c.speed,
            &c.hull_length,
            &c.scouting_points,
            &c.max_turn,
        ];
        for (num, want) in got.iter().zip(row.values) {
            assert_eq!(num.get(), want, "{} row", row.class.abbr());
        }
        assert_eq!(
            !c.cf.is_stand_in(),
            row.cf_printed,
            "{} cf",
            row.class.abbr()
        );
        assert_eq!(
            !c.range.is_stand_in(),
            row.range_printed,
            "{} range",
            row.class.abbr()
        );
        // The seed lost every extreme range and gives no model sizes.
        assert!(
            c.extreme_range.is_stand_in(),
            "{} extreme",
            row.class.abbr()
        );
        assert!(c.hull_length.is_stand_in(), "{} hull", row.class.abbr());
        // Speeds, scouting points and turn limits are printed (p.2, p.4).
        for num in [&c.speed, &c.scouting_points, &c.max_turn] {
            assert!(
                matches!(num, Num::Seed(_)),
                "{} printed value",
                row.class.abbr()
            );
        }
    }
}

#[test]
fn class_speeds_are_the_seeds() {
    let data = ruleset();
    let speed = |c| data.classes[&c].speed.get();
    assert_eq!(
        [
            speed(ShipClass::DD),
            speed(ShipClass::CL),
            speed(ShipClass::CA),
            speed(ShipClass::BB)
        ],
        [8.0, 6.0, 6.0, 5.0]
    );
}

#[test]
fn every_stand_in_gives_a_reason() {
    let data = ruleset();
    let class_nums = data.classes.iter().flat_map(|(c, row)| {
        [
            ("cf", &row.cf),
            ("range", &row.range),
            ("extreme_range", &row.extreme_range),
            ("speed", &row.speed),
            ("hull_length", &row.hull_length),
            ("scouting_points", &row.scouting_points),
            ("max_turn", &row.max_turn),
        ]
        .map(|(k, n)| (format!("classes.{}.{k}", c.abbr()), n))
    });
    let rule_nums = data
        .rules
        .entries()
        .into_iter()
        .map(|(k, n)| (format!("rules.{k}"), n));
    let mut stand_ins = 0;
    for (key, num) in class_nums.chain(rule_nums) {
        if let Num::Marked {
            stand_in, reason, ..
        } = num
        {
            // A table is only for a lost value; a printed one is written bare.
            assert!(stand_in, "{key} is a table but not stand_in");
            assert!(!reason.trim().is_empty(), "{key} has no reason");
            assert!(!reason.contains('\n'), "{key}: reason must be one line");
            stand_ins += 1;
        }
    }
    // 9 rules + DD 4 (cf, range, extreme, hull) + CL 2 + CA 4 + BB 3 class values.
    assert_eq!(stand_ins, 22);
}

#[test]
fn r2_dice_are_the_average_die_and_a_d6() {
    let data = ruleset();
    assert_eq!(data.command_die, vec![2, 3, 3, 4, 4, 5]);
    assert_eq!(data.gunnery_die, 6);
}

// ---------------------------------------------------------------- scenario tests

#[test]
fn shipped_scenarios_are_sound() {
    let data = ruleset();
    for file in ["yellow-sea-1904.toml", "training.toml"] {
        let problems = scenario_problems(&scenario(file), &data);
        assert!(problems.is_empty(), "{file}:\n{}", problems.join("\n"));
    }
}

#[test]
fn scenario_checks_catch_bad_layouts() {
    // The checker itself must fail on the faults it claims to find.
    let data = ruleset();
    let mut s = scenario("training.toml");
    let japan = s.sides.iter_mut().find(|x| x.id == "japan").unwrap();
    japan.ships[1].x = japan.ships[0].x + 0.3; // Asahi onto Mikasa
    japan.ships[1].y = japan.ships[0].y;
    japan.second = "Akatsuki".into(); // a destroyer
    japan.lines[0].ships.push("Tsesarevich".into()); // the enemy's ship
    japan.ships[2].x = 35.9; // Chitose's bow off the table
    let problems = scenario_problems(&s, &data).join("\n");
    for want in [
        "Mikasa and Asahi are",
        "second Akatsuki is not a capital ship",
        "lists Tsesarevich, not a ship of this side",
        "Chitose lies off the table",
        "Asahi is not in line astern of Mikasa",
    ] {
        assert!(problems.contains(want), "missing {want:?} in:\n{problems}");
    }
}

#[test]
fn yellow_sea_has_the_historical_order_of_battle() {
    let s = scenario("yellow-sea-1904.toml");
    assert_eq!((s.width, s.height), (72.0, 48.0));
    assert!((20..=28).contains(&s.max_turns));
    let japan = side(&s, "japan");
    let russia = side(&s, "russia");

    let class_of = |side: &ScenarioSide, name: &str| {
        side.ships
            .iter()
            .find(|s| s.name == name)
            .unwrap_or_else(|| panic!("{} lacks {name}", side.id))
            .class
    };
    use ShipClass::*;
    for (name, class) in [
        ("Mikasa", BB),
        ("Asahi", BB),
        ("Fuji", BB),
        ("Shikishima", BB),
        ("Kasuga", CA),
        ("Nisshin", CA),
        ("Yakumo", CA),
        ("Kasagi", CL),
        ("Chitose", CL),
        ("Takasago", CL),
    ] {
        assert_eq!(class_of(japan, name), class, "{name}");
    }
    for (name, class) in [
        ("Tsesarevich", BB),
        ("Retvizan", BB),
        ("Pobeda", BB),
        ("Peresvet", BB),
        ("Sevastopol", BB),
        ("Poltava", BB),
        ("Askold", CL),
        ("Pallada", CL),
        ("Diana", CL),
        ("Novik", CL),
    ] {
        assert_eq!(class_of(russia, name), class, "{name}");
    }
    assert!(class_count(japan, DD) >= 3 && class_count(russia, DD) >= 2);

    assert_eq!(japan.flagship, "Mikasa");
    assert!(["Shikishima", "Asahi"].contains(&japan.second.as_str()));
    assert_eq!(
        (russia.flagship.as_str(), russia.second.as_str()),
        ("Tsesarevich", "Peresvet")
    );
    assert_eq!(japan.capital_gunnery_bonus, 1);
    assert_eq!(russia.capital_gunnery_bonus, 0);

    let line_of = |side: &ScenarioSide, lead: &str| {
        side.lines
            .iter()
            .find(|l| l.ships.first().map(String::as_str) == Some(lead))
            .map(|l| l.ships.clone())
            .unwrap_or_default()
    };
    assert_eq!(
        line_of(japan, "Mikasa"),
        ["Mikasa", "Asahi", "Fuji", "Shikishima", "Kasuga", "Nisshin"]
    );
    assert_eq!(
        line_of(russia, "Tsesarevich"),
        [
            "Tsesarevich",
            "Retvizan",
            "Pobeda",
            "Peresvet",
            "Sevastopol",
            "Poltava"
        ]
    );

    // Russia heads home north-west, Japan away south-east.
    assert!((290.0..=340.0).contains(&russia.withdrawal_heading));
    assert!((110.0..=160.0).contains(&japan.withdrawal_heading));
    // Russians steam south-east; every ship carries its historical note.
    let tses = russia
        .ships
        .iter()
        .find(|s| s.name == "Tsesarevich")
        .unwrap();
    assert!((110.0..=160.0).contains(&tses.heading));
    for ship in japan.ships.iter().chain(&russia.ships) {
        assert!(
            ship.note.contains(" t"),
            "{} has no displacement note",
            ship.name
        );
    }
    // Long range: nobody starts within battleship range, but the leads can open at extreme.
    let data = ruleset();
    let nearest = nearest_enemy_range(&s, &data);
    let bb = &data.classes[&BB];
    assert!(
        nearest > bb.range.get() && nearest <= bb.extreme_range.get(),
        "nearest enemies {nearest:.1} apart"
    );
}

#[test]
fn gunnery_school_is_the_small_teaching_game() {
    let s = scenario("training.toml");
    assert_eq!((s.width, s.height, s.max_turns), (36.0, 24.0, 12));
    assert!(s.first.is_some());
    use ShipClass::*;
    for id in ["japan", "russia"] {
        let side = side(&s, id);
        let counts = [BB, CA, CL, DD].map(|c| class_count(side, c));
        assert_eq!(counts, [2, 0, 1, 1], "{id}: BB CA CL DD");
    }
    let layers: Vec<&str> = s
        .sides
        .iter()
        .filter(|side| side.ships.iter().any(|sh| sh.minelayer))
        .map(|side| side.id.as_str())
        .collect();
    let sweepers: Vec<&str> = s
        .sides
        .iter()
        .filter(|side| side.ships.iter().any(|sh| sh.minesweeper))
        .map(|side| side.id.as_str())
        .collect();
    assert_eq!(layers.len(), 1);
    assert_eq!(sweepers.len(), 1);
    assert_ne!(layers, sweepers);
    let genuine = s.minefields.iter().filter(|m| m.genuine).count();
    assert_eq!((genuine, s.minefields.len()), (1, 2));

    // The fleets' flagships start about 20 inches apart.
    let flag = |id: &str| {
        let side = side(&s, id);
        let f = side
            .ships
            .iter()
            .find(|sh| sh.name == side.flagship)
            .unwrap();
        (f.x, f.y)
    };
    let (a, b) = (flag("japan"), flag("russia"));
    let d = ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt();
    assert!((19.0..=21.0).contains(&d), "flagships {d:.1} apart");
    // Both fields lie between the fleets (closer to the midpoint than either flagship).
    let mid = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
    for m in &s.minefields {
        let dm = ((m.x - mid.0).powi(2) + (m.y - mid.1).powi(2)).sqrt();
        assert!(
            dm < d / 2.0,
            "field at {},{} is not between the fleets",
            m.x,
            m.y
        );
    }
}

// ---------------------------------------------------------------- README tests

fn readme() -> String {
    game_file("README.md")
}

fn section<'a>(text: &'a str, heading: &str) -> &'a str {
    let start = text
        .find(heading)
        .unwrap_or_else(|| panic!("README lacks {heading}"));
    let body = &text[start + heading.len()..];
    let end = body.find("\n## ").unwrap_or(body.len());
    &body[..end]
}

#[test]
fn readme_numbers_its_rulings_in_order_without_gaps() {
    let text = readme();
    let rulings = section(&text, "\n## Rulings");
    let numbers: Vec<u32> = rulings
        .lines()
        .filter_map(|l| l.strip_prefix('R'))
        .filter_map(|rest| {
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            digits.parse().ok()
        })
        .collect();
    // R1–R33 settle the inventory's ambiguities; later ones were made while building the engine.
    assert!(numbers.len() >= 33, "{numbers:?}");
    assert_eq!(numbers, (1..=numbers.len() as u32).collect::<Vec<u32>>());
}

#[test]
fn readme_lists_every_stand_in() {
    let data = ruleset();
    let text = readme();
    let list = section(&text, "\n## Stand-in values");
    for (name, num) in data.rules.entries() {
        if num.is_stand_in() {
            assert!(list.contains(name), "stand-in {name} not in README");
        }
    }
    for phrase in ["DD CF", "CA CF", "extreme range", "hull length"] {
        assert!(
            list.to_lowercase().contains(&phrase.to_lowercase()),
            "{phrase}"
        );
    }
}

#[test]
fn readme_fits_a_plain_text_mail_client() {
    let text = readme();
    for (i, line) in text.lines().enumerate() {
        assert!(
            line.chars().count() <= 72,
            "README line {} is {} columns",
            i + 1,
            line.chars().count()
        );
    }
}

#[test]
fn readme_shows_every_order() {
    let text = readme();
    for example in [
        "FLAGSHIP Mikasa",
        "SECOND Asahi",
        "MINEFIELD GENUINE AT 30,24 HEADING 90",
        "MINEFIELD DUMMY AT",
        "REPAIR Mikasa",
        "TURN Mikasa PORT 45",
        "TURN Mikasa TO 270",
        "STARBOARD",
        "MOVE Mikasa",
        "MOVE Mikasa 4",
        "HALT Askold",
        "LEAVE Fuji",
        "SPLIT Fuji",
        "JOIN Nisshin TO Mikasa",
        "ABREAST Mikasa",
        "ASTERN Mikasa",
        "WITHDRAW",
        "CHASE",
        "LAY Amur",
        "SWEEP ",
        "RESCUE Retvizan WITH Askold",
        "CAPTURE Novik WITH Chitose",
        "SMOKE Akatsuki",
        "FIRE Mikasa AT Tsesarevich ELSE Retvizan",
        "SUPPORT Asahi Fuji",
        "FIRE Mikasa SECONDARY AT Burny",
        "STANDING FIRE NEAREST",
        "STANDING FIRE FLAGSHIP",
        "STANDING FIRE OFF",
        "PASS",
        "END",
    ] {
        assert!(
            text.contains(example),
            "README lacks the example {example:?}"
        );
    }
}
