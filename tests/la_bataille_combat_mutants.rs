//! The R2 stand-in charts read by value: the morale check modifiers of attacker, defender and
//! Roll to Stand (formation, terrain, disorder, half strength, flank, odds of increments), the
//! leader's mêlée modifier by rating (R16), and both Mêlée Modifiers charts (infantry and
//! cavalry) and the value of units charged. Written for the survivors of the mutation run of
//! 2026-11-27 over `combat/mod.rs` (mutants/runs.toml): each test fails under one of them.
//! The charts are stand-ins a club replaces in ruleset.toml, not in code (its header): where a
//! stand-in is 0 or 1, which no code can tell from a missing modifier, the test gives the
//! chart another value and checks that it is read.

use despatch::rulesets::kit::data::Marked;
use despatch::rulesets::la_bataille::combat::{self, Mods};
use despatch::rulesets::la_bataille::state::{Cohesion, Fatigue, Formation, Leader, Unit};

use crate::lbt::{Piece, Table, battalion, field};

/// The value of the modifier logged as `why` (none: the chart adds nothing).
fn named(m: &Mods, why: &str) -> Option<i32> {
    m.iter().find(|(_, w)| w == why).map(|(v, _)| *v)
}

/// A French column at 0506 facing north, a Prussian line at 0505 facing `facing`, and
/// `kind` terrain (if any) under the line.
fn assault(facing: &str, kind: Option<&str>) -> Table {
    let extra = kind.map_or(String::new(), |k| {
        format!("[[terrain]]\nkind = \"{k}\"\nhexes = [\"0505\"]\n")
    });
    Table::new(&field(
        &[
            battalion("france", "A", "0506", "N", "column", 4),
            battalion("allies", "D", "0505", facing, "line", 4),
            // Two hexes behind the line, for an attacker that is not adjacent.
            battalion("france", "Far", "0503", "S", "column", 4),
        ],
        &extra,
    ))
}

/// `u` with these increments of these at the start.
fn at(u: &Unit, now: u32, full: u32) -> Unit {
    Unit {
        increments: now,
        full,
        ..u.clone()
    }
}

fn formed(u: &Unit, f: Formation) -> Unit {
    Unit {
        formation: f,
        ..u.clone()
    }
}

/// R2 "at most half of the starting increments": the stack's increments now against its
/// increments at the start, both sides of the line, on each of the three charts.
#[test]
fn r2_half_strength_is_at_most_half_the_stacks_starting_increments() {
    let t = assault("S", None);
    let d = t.unit("D");
    let cases: [(&[(u32, u32)], bool); 6] = [
        (&[(2, 4)], true),
        (&[(3, 6)], true),
        (&[(3, 5)], false),
        (&[(4, 4)], false),
        (&[(1, 4), (4, 4)], false),
        (&[(1, 4), (2, 4)], true),
    ];
    for (stack, half) in cases {
        let units: Vec<Unit> = stack.iter().map(|&(n, f)| at(d, n, f)).collect();
        let refs: Vec<&Unit> = units.iter().collect();
        let want = half.then_some(1);
        let atk = combat::attacker_mods(&t.st, &refs, None, &[]);
        let def = combat::defender_mods(&t.st, &refs, &[]);
        let stand = combat::stand_mods(&t.st, &refs, &[]);
        for m in [atk, def, stand] {
            assert_eq!(named(&m, "half strength"), want, "{stack:?}: {m:?}");
        }
    }
}

/// R16: the leader's mêlée modifier by rating 1 to 5 is the chart's [1, 1, 2, 2, 3]; a
/// rating beyond the chart reads its last entry; no leader, none.
#[test]
fn r16_the_leader_melee_modifier_reads_the_chart_by_rating() {
    let mut t = assault("S", None);
    assert_eq!(combat::leader_drm(&t.st, &[t.unit("A")]), 0);
    for (rating, drm) in [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)] {
        t.st.leaders = vec![Leader {
            name: "Ney".into(),
            side: "france".into(),
            with: "A".into(),
            rating,
            gone: false,
        }];
        assert_eq!(
            combat::leader_drm(&t.st, &[t.unit("A")]),
            drm,
            "rating {rating}"
        );
    }
}

/// R2 Attacker Morale Check: distance 1 (or 0) +0, 2 +1, 3 +2, 4 and beyond +3.
#[test]
fn r2_attacker_distance_modifiers() {
    let t = assault("S", None);
    let a = t.unit("A");
    for (d, want) in [(0, 0), (1, 0), (2, 1), (3, 2), (4, 3), (6, 3)] {
        let m = combat::attacker_mods(&t.st, &[a], Some(d), &[]);
        assert_eq!(
            named(&m, &format!("distance {d}")).unwrap_or(0),
            want,
            "distance {d}: {m:?}"
        );
    }
}

/// R2 Attacker Morale Check formations: a column −1, a line +1, skirmishers +2, a square
/// nothing; disordered +2.
#[test]
fn r2_attacker_formation_and_disorder_modifiers() {
    let t = assault("S", None);
    let a = t.unit("A");
    let mods = |u: &Unit| combat::attacker_mods(&t.st, &[u], None, &[]);
    assert_eq!(named(&mods(a), "column"), Some(-1));
    assert_eq!(named(&mods(&formed(a, Formation::Line)), "line"), Some(1));
    let skirm = mods(&formed(a, Formation::Skirmish));
    assert_eq!(named(&skirm, "skirmish order"), Some(2));
    assert_eq!(mods(&formed(a, Formation::Square)), Mods::new());
    assert_eq!(named(&mods(a), "disordered"), None);
    let shaken = Unit {
        cohesion: Cohesion::Disordered,
        ..a.clone()
    };
    assert_eq!(named(&mods(&shaken), "disordered"), Some(2));
}

/// R2 Attacker Morale Check: attacking a flank or rear −1 (the line faces away), a front
/// nothing (it faces the column); into a village +1, into woods +1, into clear nothing.
#[test]
fn r2_attacker_flank_and_target_terrain_modifiers() {
    let flank = |facing: &str| {
        let t = assault(facing, None);
        let target = t.unit("D").hex;
        let m = combat::attacker_mods(&t.st, &[t.unit("A")], Some(1), &[target]);
        named(&m, "against flank or rear")
    };
    assert_eq!(flank("N"), Some(-1));
    assert_eq!(flank("S"), None);
    for (kind, why) in [
        (Some("village"), "into a village"),
        (Some("woods"), "into woods"),
    ] {
        let t = assault("S", kind);
        let target = t.unit("D").hex;
        let m = combat::attacker_mods(&t.st, &[t.unit("A")], Some(1), &[target]);
        assert_eq!(named(&m, why), Some(1), "{kind:?}: {m:?}");
    }
    let t = assault("S", None);
    let target = t.unit("D").hex;
    let m = combat::attacker_mods(&t.st, &[t.unit("A")], Some(1), &[target]);
    assert_eq!(m, vec![(-1, "column".to_string())]);
}

/// R2 Defender Morale Check formations: a line the chart's value (0 in the stand-in; a
/// chart with 3 gives 3), a column +1, a square and a rallying square −1, skirmishers +2;
/// disordered +2.
#[test]
fn r2_defender_formation_and_disorder_modifiers() {
    let mut t = assault("S", None);
    let d = t.unit("D").clone();
    let mods = |t: &Table, u: &Unit| combat::defender_mods(&t.st, &[u], &[]);
    assert_eq!(mods(&t, &d), Mods::new());
    for (f, why, want) in [
        (Formation::Column, "column", 1),
        (Formation::Square, "square", -1),
        (Formation::RallyingSquare, "square", -1),
        (Formation::Skirmish, "skirmish order", 2),
    ] {
        assert_eq!(named(&mods(&t, &formed(&d, f)), why), Some(want), "{f:?}");
    }
    let shaken = Unit {
        cohesion: Cohesion::Disordered,
        ..d.clone()
    };
    assert_eq!(named(&mods(&t, &shaken), "disordered"), Some(2));
    t.st.data.defender_morale.line = Marked::Seed(3.0);
    assert_eq!(named(&mods(&t, &d), "line"), Some(3));
}

/// R2 Defender Morale Check terrain: in a village −2, in woods −1, on a hill −1, in clear
/// nothing.
#[test]
fn r2_defender_terrain_modifiers() {
    for (kind, why, want) in [
        (Some("village"), "in a village", Some(-2)),
        (Some("woods"), "in woods", Some(-1)),
        (Some("hill"), "on a hill", Some(-1)),
        (None, "in a village", None),
    ] {
        let t = assault("S", kind);
        let m = combat::defender_mods(&t.st, &[t.unit("D")], &[]);
        assert_eq!(named(&m, why), want, "{kind:?}: {m:?}");
    }
}

/// R2 Defender Morale Check: assaulted in flank or rear +2 by an adjacent attacker behind
/// the line; none from the front, nor from an attacker two hexes off.
#[test]
fn r2_defender_flank_counts_adjacent_attackers_only() {
    let why = "attacked in flank or rear";
    let rear = assault("N", None);
    let m = combat::defender_mods(&rear.st, &[rear.unit("D")], &[rear.unit("A")]);
    assert_eq!(named(&m, why), Some(2), "{m:?}");
    let front = assault("S", None);
    let m = combat::defender_mods(&front.st, &[front.unit("D")], &[front.unit("A")]);
    assert_eq!(named(&m, why), None, "{m:?}");
    // Facing south, the line has 0503 two hexes behind it: not adjacent, no flank.
    let m = combat::defender_mods(&front.st, &[front.unit("D")], &[front.unit("Far")]);
    assert_eq!(named(&m, why), None, "{m:?}");
}

/// R2 Defender Morale Check "outnumbered 2 to 1": twice the defender's increments or more.
#[test]
fn r2_defender_outnumbered_two_to_one() {
    let t = assault("S", None);
    let (a, d) = (t.unit("A"), t.unit("D"));
    for (mine, theirs, out) in [
        (4, 8, true),
        (4, 7, false),
        (4, 6, false),
        (1, 2, true),
        (1, 1, false),
    ] {
        let def = at(d, mine, 4);
        let atk = at(a, theirs, 8);
        let m = combat::defender_mods(&t.st, &[&def], &[&atk]);
        assert_eq!(
            named(&m, "outnumbered 2 to 1"),
            out.then_some(1),
            "{mine} against {theirs}"
        );
    }
}

/// R2 Roll to Stand: in a village −2, in woods −2; artillery alone the chart's value (0 in
/// the stand-in; a chart with 2 gives 2 to guns alone, nothing to a battalion); disordered +2.
#[test]
fn r2_roll_to_stand_terrain_artillery_and_disorder() {
    for (kind, why) in [("village", "in a village"), ("woods", "in woods")] {
        let t = assault("S", Some(kind));
        let m = combat::stand_mods(&t.st, &[t.unit("D")], &[]);
        assert_eq!(named(&m, why), Some(-2), "{kind}: {m:?}");
    }
    let mut t = Table::new(&field(
        &[
            battalion("allies", "D", "0505", "S", "line", 4),
            gun("allies", "Guns", "0707", "unlimbered"),
        ],
        "",
    ));
    t.st.data.roll_to_stand.artillery = Marked::Seed(2.0);
    let why = "artillery alone";
    let m = combat::stand_mods(&t.st, &[t.unit("Guns")], &[]);
    assert_eq!(named(&m, why), Some(2), "{m:?}");
    let m = combat::stand_mods(&t.st, &[t.unit("D")], &[]);
    assert_eq!(named(&m, why), None, "{m:?}");
    let shaken = Unit {
        cohesion: Cohesion::Disordered,
        ..t.unit("D").clone()
    };
    let m = combat::stand_mods(&t.st, &[&shaken], &[]);
    assert_eq!(named(&m, "disordered"), Some(2), "{m:?}");
}

/// A two-increment battery (mêlée 1 an increment).
fn gun<'a>(side: &'a str, name: &'a str, hex: &'a str, formation: &'a str) -> Piece<'a> {
    (
        side,
        name,
        "foot_artillery",
        "Prussian",
        hex,
        "S",
        formation,
        2,
        7,
    )
}

/// A four-increment cavalry regiment of `class`, in line facing south.
fn horse<'a>(side: &'a str, name: &'a str, hex: &'a str, class: &'a str) -> Piece<'a> {
    (side, name, class, "Prussian", hex, "S", "line", 4, 8)
}

/// R2 Mêlée Modifiers for Infantry and Artillery, each by value on a four-increment
/// battalion (mêlée 8): attacking in column ×1.5, in line ×1 (a chart with 1.25: ×1.25),
/// through a flank ×1.5 more; defending in square ×1 (a chart with 0.75: ×0.75), cavalry
/// ×0.5, in a village ×2, woods ×1.5, on a hill ×1.25; skirmishers ×0.5; guns ×1 (a chart
/// with 1.5: ×1.5, and the battalion still ×1).
#[test]
fn r2_infantry_melee_modifiers_by_value() {
    let value = |kind: Option<&str>, name: &str, attacking: bool, flank: bool| {
        let extra = kind.map_or(String::new(), |k| {
            format!("[[terrain]]\nkind = \"{k}\"\nhexes = [\"0505\"]\n")
        });
        let t = Table::new(&field(
            &[
                battalion("allies", "Bn", "0505", "S", "line", 4),
                battalion("allies", "Col", "0705", "S", "column", 4),
                battalion("allies", "Skirm", "0905", "S", "skirmish", 4),
                horse("allies", "Horse", "0305", "light_cavalry"),
            ],
            &extra,
        ));
        combat::infantry_melee_value(&t.st, t.unit(name), attacking, flank)
    };
    assert_eq!(value(None, "Col", true, false), 12.0);
    assert_eq!(value(None, "Col", true, true), 18.0);
    assert_eq!(value(None, "Bn", true, false), 8.0);
    assert_eq!(value(None, "Bn", false, false), 8.0);
    assert_eq!(value(None, "Horse", false, false), 4.0);
    assert_eq!(value(None, "Skirm", false, false), 4.0);
    assert_eq!(value(Some("village"), "Bn", false, false), 16.0);
    assert_eq!(value(Some("woods"), "Bn", false, false), 12.0);
    assert_eq!(value(Some("hill"), "Bn", false, false), 10.0);

    // The stand-ins of 1: a club's other values are read, and only where they belong.
    let mut t = Table::new(&field(
        &[
            battalion("allies", "Bn", "0505", "S", "line", 4),
            battalion("allies", "Sq", "0705", "S", "square", 4),
            gun("allies", "Guns", "0905", "unlimbered"),
        ],
        "",
    ));
    let c = &mut t.st.data.melee_infantry;
    c.attacker_line = Marked::Seed(1.25);
    c.square_defending = Marked::Seed(0.75);
    c.artillery = Marked::Seed(1.5);
    let v = |name: &str, attacking: bool| {
        combat::infantry_melee_value(&t.st, t.unit(name), attacking, false)
    };
    assert_eq!(v("Bn", true), 10.0);
    assert_eq!(v("Bn", false), 8.0);
    assert_eq!(v("Sq", false), 6.0);
    assert_eq!(v("Guns", false), 3.0);
}

/// A field for the charge tests: cuirassiers (mêlée 4 × 3 increments = 12) at 0506 facing
/// north, and one target of each kind, each on its own hex facing south (towards them).
fn charge_table(kind: Option<&str>) -> Table {
    let extra = kind.map_or(String::new(), |k| {
        format!("[[terrain]]\nkind = \"{k}\"\nhexes = [\"0505\"]\n")
    });
    Table::new(&field(
        &[
            (
                "france",
                "Cuir",
                "heavy_cavalry",
                "French",
                "0506",
                "N",
                "line",
                3,
                9,
            ),
            battalion("allies", "Line", "0505", "S", "line", 4),
            battalion("allies", "Col", "0305", "S", "column", 4),
            battalion("allies", "Sq", "0705", "S", "square", 4),
            battalion("allies", "Rally", "0905", "S", "rallying", 4),
            battalion("allies", "Skirm", "0303", "S", "skirmish", 4),
            gun("allies", "Guns", "0703", "unlimbered"),
            horse("allies", "Hussars", "0903", "light_cavalry"),
            horse("allies", "Cuirassiers", "0503", "heavy_cavalry"),
        ],
        &extra,
    ))
}

/// R2 Mêlée Modifiers for Cavalry, each by value (the cuirassiers' 12): against artillery
/// ×2, a square ×0.25, a rallying square ×0.5, a line ×2, skirmishers ×3, a column ×1.5;
/// heavy against light cavalry ×1.5 (against heavy ×1); tired ×0.75, exhausted ×0.5,
/// disordered ×0.5; a charge into a flank or rear ×2; a target in a village or woods ×0.5.
#[test]
fn r2_cavalry_melee_modifiers_by_value() {
    let t = charge_table(None);
    let cuir = t.unit("Cuir");
    let v = |u: &Unit, target: &str| combat::cavalry_melee_value(&t.st, u, &[t.unit(target)]);
    for (target, want) in [
        ("Guns", 24.0),
        ("Sq", 3.0),
        ("Rally", 6.0),
        ("Line", 24.0),
        ("Skirm", 36.0),
        ("Col", 18.0),
        ("Hussars", 18.0),
        ("Cuirassiers", 12.0),
    ] {
        // Straight at each target's front (the hex it faces): no flank.
        let front =
            t.st.grid
                .neighbour(t.unit(target).hex, t.unit(target).facing);
        let u = Unit {
            hex: front,
            ..cuir.clone()
        };
        assert_eq!(v(&u, target), want, "against {target}");
    }
    let heavy = t.unit("Cuirassiers");
    let tired = |fatigue| Unit {
        fatigue,
        hex: t.st.grid.neighbour(heavy.hex, heavy.facing),
        ..cuir.clone()
    };
    assert_eq!(v(&tired(Fatigue::Tired), "Cuirassiers"), 9.0);
    assert_eq!(v(&tired(Fatigue::Exhausted), "Cuirassiers"), 6.0);
    let shaken = Unit {
        cohesion: Cohesion::Disordered,
        ..tired(Fatigue::Fresh)
    };
    assert_eq!(v(&shaken, "Cuirassiers"), 6.0);
    // Into the line's rear: the hex behind a line facing south.
    let line = t.unit("Line");
    let behind = Unit {
        hex: t.st.grid.neighbour(line.hex, line.facing.turned(3)),
        ..cuir.clone()
    };
    assert_eq!(v(&behind, "Line"), 48.0);
    for kind in ["village", "woods"] {
        let t = charge_table(Some(kind));
        let v = combat::cavalry_melee_value(&t.st, t.unit("Cuir"), &[t.unit("Line")]);
        assert_eq!(v, 12.0, "{kind}");
    }
}

/// The value of units charged: printed value, disordered ×0.5; cavalry tired ×0.75 and
/// exhausted ×0.5; infantry's fatigue does not count.
#[test]
fn the_value_of_units_charged() {
    let t = charge_table(None);
    let v = |u: &Unit| combat::charged_value(&t.st, u);
    let line = t.unit("Line");
    assert_eq!(v(line), 8.0);
    let shaken = Unit {
        cohesion: Cohesion::Disordered,
        ..line.clone()
    };
    assert_eq!(v(&shaken), 4.0);
    let hussars = t.unit("Hussars");
    for (fatigue, horse, foot) in [
        (Fatigue::Fresh, 8.0, 8.0),
        (Fatigue::Tired, 6.0, 8.0),
        (Fatigue::Exhausted, 4.0, 8.0),
    ] {
        let h = Unit {
            fatigue,
            ..hussars.clone()
        };
        let f = Unit {
            fatigue,
            ..line.clone()
        };
        assert_eq!((v(&h), v(&f)), (horse, foot), "{fatigue:?}");
    }
}

/// The shift roll moves the mêlée's column left (seed p.2: "1-2 no shift, 3-4 one, 5-6 two
/// columns left"), leaders and Old Guard right; the column stays on the chart (R15): from
/// 1:1 one left is 1:2, one right 3:2, two left and one right 1:2; two left of 1:3 is 1:3,
/// two right of 6:1 is 6:1.
#[test]
fn r15_shifts_move_the_column_and_stay_on_the_chart() {
    let t = assault("S", None);
    let d = &t.st.data;
    let col = |label: &str| {
        d.assaut_et_melee
            .columns
            .get()
            .iter()
            .position(|c| c == label)
            .unwrap_or_else(|| panic!("no column {label}"))
    };
    let even = col("1:1");
    for (from, left, right, to) in [
        ("1:1", 0, 0, "1:1"),
        ("1:1", 1, 0, "1:2"),
        ("1:1", 0, 1, "3:2"),
        ("1:1", 2, 1, "1:2"),
        ("1:1", 0, 2, "2:1"),
        ("1:3", 2, 0, "1:3"),
        ("6:1", 0, 2, "6:1"),
    ] {
        assert_eq!(
            combat::shifted(d, col(from), left, right),
            col(to),
            "{from} {left} left {right} right"
        );
    }
    assert_eq!(combat::column_label(d, Some(even)), "1:1");
    assert_eq!(combat::column_label(d, None), "Firefight");
}
