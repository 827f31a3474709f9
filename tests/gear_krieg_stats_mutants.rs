//! The Gear Krieg datacard arithmetic of `stats.rs` read by value: DM and MP after Heavy Damage
//! (R17), melee DMs, skill dice, range bands and weapon arcs (p.4), the arc of attack (R1), Damage
//! vs Armor (R2) with Reinforced Armor (R14), damage counters, infantry damage (R6), massed fire
//! (p.5), ammunition (R20) and the attacker's movement (p.1, R22). Written for the survivors of
//! the mutation run of 2026-11-27 over `stats.rs` (mutants/runs.toml): each test sits on both
//! sides of its threshold with values that tell the operators apart. Where the shipped number
//! cannot tell a mutant from the rule (a factor of 1, every crew at Skill 2), the test gives the
//! ruleset another value, as a club replacing a stand-in would. Pure functions on the shipped
//! Crossroads units: no dice, no mail.

use despatch::board::tabletop::Pt;
use despatch::rulesets::gear_krieg::data::{Arc, MoveMode};
use despatch::rulesets::gear_krieg::state::{GkState, Melee, Unit};
use despatch::rulesets::gear_krieg::stats::{self, AttackArc, Band, DamageResult, Task};
use despatch::rulesets::kit::roster::Roster;

use crate::gear_krieg::{RULESET, activating_with, new_game};

/// Crossroads with `from` replaced by `to` in the ruleset (each must occur).
fn with(changes: &[(&str, &str)]) -> GkState {
    let mut text = RULESET.to_string();
    for (from, to) in changes {
        assert!(text.contains(from), "the ruleset has no `{from}`");
        text = text.replacen(from, to, 1);
    }
    activating_with(&text, "us")
}

fn unit(st: &GkState, name: &str) -> Unit {
    st.unit(name).unwrap().clone()
}

fn damaged(u: &Unit, heavy: u32) -> Unit {
    Unit { heavy, ..u.clone() }
}

/// R17: "Heavy Damage halves each weapon's DM … rounding up": not before the first Heavy,
/// after the first and the second alike; odd DMs round up (5 → 3), even ones halve (8 → 4).
#[test]
fn r17_heavy_damage_halves_each_weapons_dm_rounding_up() {
    let st = new_game();
    let g = unit(&st, "General-1");
    let cannon = stats::weapon(&st.data, &g, "Cannon").unwrap();
    let lmg = stats::weapon(&st.data, &g, "LMG").unwrap();
    let grenades = stats::weapon(&st.data, &g, "Grenades").unwrap();
    for (heavy, want) in [(0, [5, 3, 8]), (1, [3, 2, 4]), (2, [3, 2, 4])] {
        let u = damaged(&g, heavy);
        assert_eq!(
            [cannon, lmg, grenades].map(|w| stats::weapon_dm(&u, w)),
            want,
            "x5, x3, x8 with {heavy} Heavy Damage"
        );
    }
    assert_eq!([5, 8, 3, 1, 0].map(stats::halve_up), [3, 4, 2, 1, 0]);
}

/// R17: Heavy Damage "halves MP allowances": each of the four (Walker and Ground, Combat and
/// Top) of the General's card, halved rounding up, from the first Heavy on.
#[test]
fn r17_heavy_damage_halves_every_mp_allowance() {
    let st = new_game();
    let g = unit(&st, "General-1");
    let modes = [
        (MoveMode::Walker, false),
        (MoveMode::Walker, true),
        (MoveMode::Ground, false),
        (MoveMode::Ground, true),
    ];
    for (heavy, want) in [(0, [2.0, 4.0, 3.0, 5.0]), (1, [1.0, 2.0, 2.0, 3.0])] {
        let u = damaged(&g, heavy);
        assert_eq!(
            modes.map(|(m, top)| stats::mp(&st.data, &u, m, top)),
            want,
            "General 2/4 walker, 3/5 ground, {heavy} Heavy"
        );
        let two = damaged(&g, 2);
        assert_eq!(stats::mp(&st.data, &two, MoveMode::Ground, true), 3.0);
        for (mode, combat) in [(MoveMode::Walker, want[0]), (MoveMode::Ground, want[2])] {
            let u = Unit { mode, ..u.clone() };
            assert_eq!(stats::combat_mp(&st.data, &u), combat, "{mode:?}");
        }
    }
    let squad = unit(&st, "US-Squad");
    assert_eq!(
        stats::combat_mp(&st.data, &squad),
        2.0,
        "p.5: squads on foot 2 MP"
    );
}

/// R17 and p.4: punch (Manipulator Arms DM), kick (Size), ram (Impact DM) and infantry assault
/// (grenades and bayonets) each read their own number, and Heavy Damage halves each; infantry
/// cannot punch (DM 0).
#[test]
fn r17_melee_dms_read_their_own_numbers_and_halve_after_heavy_damage() {
    let st = new_game();
    let kinds = [Melee::Punch, Melee::Kick, Melee::Ram, Melee::Assault];
    let dms = |u: &Unit| kinds.each_ref().map(|k| stats::melee_dm(&st.data, u, k));
    let g = unit(&st, "General-1");
    let v = unit(&st, "Valkurie-1");
    assert_eq!(
        dms(&g),
        [4, 7, 4, 3],
        "General: x4 arms, Size 7, Impact 4, assault 3"
    );
    assert_eq!(dms(&damaged(&g, 1)), [2, 4, 2, 2]);
    assert_eq!(dms(&damaged(&g, 2)), [2, 4, 2, 2]);
    assert_eq!(dms(&v), [4, 6, 3, 3], "Valkurie: x4 arms, Size 6, Impact 3");
    assert_eq!(dms(&damaged(&v, 1)), [2, 3, 2, 2]);
    let squad = unit(&st, "US-Squad");
    assert_eq!(dms(&squad), [0, 0, 0, 3], "infantry only assault");
}

/// p.3 and R7: a vehicle rolls its crew's Gunnery, Piloting or Driving dice, a squad its
/// Infantry Skill, anything else the standard Skill; never fewer than one die. The shipped
/// crews all have 2, the standard Skill: here each has its own number.
#[test]
fn r7_skill_dice_come_from_the_card_for_the_task() {
    let st = with(&[
        ("gunnery = 2 ", "gunnery = 3 "),
        ("piloting = 2\n", "piloting = 4\n"),
        ("driving = 2\n", "driving = 5\n"),
        (
            "skill = { value = 2, stand_in = true, reason = \"card lost; as the standard crews\" }",
            "skill = 6",
        ),
    ]);
    let g = unit(&st, "General-1");
    let tasks = [Task::Gunnery, Task::Piloting, Task::Driving];
    assert_eq!(tasks.map(|t| stats::skill(&st.data, &g, t)), [3, 4, 5]);
    let squad = unit(&st, "US-Squad");
    assert_eq!(tasks.map(|t| stats::skill(&st.data, &squad, t)), [6, 6, 6]);
    let unknown = Unit {
        class: "no-such-card".into(),
        ..g.clone()
    };
    assert_eq!(
        stats::skill(&st.data, &unknown, Task::Gunnery),
        2,
        "standard Skill 2"
    );
    let none = with(&[("skill_dice = 2 ", "skill_dice = 0 ")]);
    let unknown = Unit {
        class: "no-such-card".into(),
        ..unit(&none, "General-1")
    };
    assert_eq!(
        stats::skill(&none.data, &unknown, Task::Gunnery),
        1,
        "at least one die"
    );
}

/// p.4 range bands, upper limits inclusive: Point Blank in contact, Short to the Base Range,
/// Medium to 2×, Long to 4×, Extreme to 8×; each limit exactly, with a float's rounding either
/// side of it, and a hair beyond; and each band's modifier and word.
#[test]
fn p4_range_bands_are_inclusive_at_each_limit() {
    let (br, contact) = (8.0, 1.0);
    let hair = 1e-12;
    let cases = [
        (0.0, Some(Band::PointBlank)),
        (1.0, Some(Band::PointBlank)),
        (1.0 + hair, Some(Band::PointBlank)),
        (1.01, Some(Band::Short)),
        (8.0 - hair, Some(Band::Short)),
        (8.0, Some(Band::Short)),
        (8.0 + hair, Some(Band::Short)),
        (8.01, Some(Band::Medium)),
        (10.0, Some(Band::Medium)),
        (16.0, Some(Band::Medium)),
        (16.0 + hair, Some(Band::Medium)),
        (16.01, Some(Band::Long)),
        (32.0, Some(Band::Long)),
        (32.0 + hair, Some(Band::Long)),
        (32.01, Some(Band::Extreme)),
        (64.0, Some(Band::Extreme)),
        (64.0 + hair, Some(Band::Extreme)),
        (64.01, None),
    ];
    for (d, want) in cases {
        assert_eq!(stats::band(d, br, contact), want, "{d} cm at Base Range 8");
    }
    // Base Range 1 and contact 0.5: the limits 2, 4 and 8 cm are the multipliers themselves,
    // so a sum (2 + 1 = 3) moves them; the quotients are told apart at Base Range 8 above.
    let one = [(1.5, Band::Medium), (2.0, Band::Medium), (2.5, Band::Long)];
    for (d, want) in one {
        assert_eq!(
            stats::band(d, 1.0, 0.5),
            Some(want),
            "{d} cm at Base Range 1"
        );
    }
    assert_eq!(stats::band(4.0, 1.0, 0.5), Some(Band::Long));
    assert_eq!(stats::band(4.5, 1.0, 0.5), Some(Band::Extreme));
    assert_eq!(stats::band(8.0, 1.0, 0.5), Some(Band::Extreme));
    assert_eq!(stats::band(8.5, 1.0, 0.5), None);
    let st = new_game();
    let bands = [
        Band::PointBlank,
        Band::Short,
        Band::Medium,
        Band::Long,
        Band::Extreme,
    ];
    assert_eq!(bands.map(|b| b.modifier(&st.data)), [1, 0, -1, -2, -3]);
    assert_eq!(
        bands.map(Band::word),
        ["point blank", "short", "medium", "long", "extreme"]
    );
}

/// p.4 weapon arcs: Forward and Rear 180° each, the side arcs 180° including straight ahead and
/// straight back, Fixed Forward 120°, Turret all round; each edge exactly, with a float's
/// rounding inside, and a degree beyond.
#[test]
fn p4_weapon_arcs_include_their_edges() {
    let tiny = 1e-12;
    let cases: [(Arc, &[f64], &[f64]); 6] = [
        (Arc::T, &[0.0, 90.0, -179.0, 180.0], &[]),
        (
            Arc::F,
            &[0.0, 90.0, -90.0, 90.0 + tiny],
            &[91.0, -91.0, 180.0],
        ),
        (
            Arc::Rr,
            &[180.0, 90.0, -90.0, 90.0 - tiny, -179.0],
            &[89.0, -89.0, 0.0],
        ),
        (
            Arc::Rt,
            &[0.0, -tiny, 90.0, 180.0, 180.0 + tiny],
            &[-1.0, -90.0, -179.0],
        ),
        (
            Arc::L,
            &[0.0, tiny, -90.0, 180.0, 180.0 - tiny],
            &[1.0, 90.0, 179.0],
        ),
        (
            Arc::FF,
            &[0.0, 60.0, -60.0, 60.0 + tiny],
            &[61.0, -61.0, 90.0],
        ),
    ];
    for (arc, inside, outside) in cases {
        for rel in inside {
            assert!(stats::in_arc(arc, *rel), "{arc:?} holds {rel}");
        }
        for rel in outside {
            assert!(!stats::in_arc(arc, *rel), "{arc:?} does not hold {rel}");
        }
    }
    // Through a unit: the General's forward cannon covers ahead, not behind; a squad all round.
    let st = new_game();
    let mut g = unit(&st, "General-1");
    g.pos = Pt::new(10.0, 10.0);
    g.heading = 0.0;
    let cannon = stats::weapon(&st.data, &g, "Cannon").unwrap();
    assert!(stats::weapon_covers(&g, cannon, Pt::new(10.0, 20.0)));
    assert!(!stats::weapon_covers(&g, cannon, Pt::new(10.0, 0.0)));
    let squad = unit(&st, "US-Squad");
    let rifle = stats::weapon(&st.data, &squad, "Rifle").unwrap();
    assert!(stats::weapon_covers(&squad, rifle, Pt::new(-50.0, -50.0)));
}

/// R1: Front within 60° of the target's facing, Rear within 60° of its back, Flank the rest;
/// a point at exactly 60° or 120° (as sines and cosines give it, a hair off) is Front or
/// Rear; infantry have no arc.
#[test]
fn r1_arc_of_attack_front_and_rear_include_their_edges() {
    let st = new_game();
    let mut t = unit(&st, "Valkurie-1");
    t.pos = Pt::new(0.0, 0.0);
    t.heading = 0.0;
    let at = |deg: f64| {
        let r = deg.to_radians();
        Pt::new(10.0 * r.sin(), 10.0 * r.cos())
    };
    let cases = [
        (0.0, AttackArc::Front),
        (59.0, AttackArc::Front),
        (60.0, AttackArc::Front),
        (-60.0, AttackArc::Front),
        (61.0, AttackArc::Flank),
        (90.0, AttackArc::Flank),
        (-90.0, AttackArc::Flank),
        (119.0, AttackArc::Flank),
        (120.0, AttackArc::Rear),
        (-120.0, AttackArc::Rear),
        (121.0, AttackArc::Rear),
        (180.0, AttackArc::Rear),
    ];
    for (deg, want) in cases {
        assert_eq!(
            stats::attack_arc(&st.data, &t, at(deg)),
            want,
            "from {deg}°"
        );
    }
    let squad = unit(&st, "US-Squad");
    assert_eq!(
        stats::attack_arc(&st.data, &squad, Pt::new(squad.pos.x, squad.pos.y - 10.0)),
        AttackArc::Front
    );
}

/// R2: Light at ≥ Armor × the light factor, Heavy at ≥ × the heavy factor, Overkill at ≥ × the
/// overkill factor; each threshold and one below, on the shipped 1/2/3 and on 2/3/5 (a factor
/// of 1 cannot tell × from ÷); Armor below 1 counts as 1.
#[test]
fn r2_damage_vs_armor_at_and_below_each_threshold() {
    use DamageResult::*;
    let st = new_game();
    let shipped = [
        (3, NoEffect),
        (4, Light),
        (7, Light),
        (8, Heavy),
        (11, Heavy),
        (12, Overkill),
    ];
    for (dmg, want) in shipped {
        assert_eq!(stats::damage_vs_armor(&st.data, dmg, 4), want, "{dmg} vs 4");
    }
    assert_eq!(
        stats::damage_vs_armor(&st.data, 3, 0),
        Overkill,
        "Armor 0 as 1"
    );
    let st = with(&[
        ("light_factor = 1 ", "light_factor = 2 "),
        ("heavy_factor = 2 ", "heavy_factor = 3 "),
        ("overkill_factor = 3 ", "overkill_factor = 5 "),
    ]);
    let changed = [
        (7, NoEffect),
        (8, Light),
        (11, Light),
        (12, Heavy),
        (19, Heavy),
        (20, Overkill),
    ];
    for (dmg, want) in changed {
        assert_eq!(
            stats::damage_vs_armor(&st.data, dmg, 4),
            want,
            "{dmg} vs 4 at 2/3/5"
        );
    }
}

/// R14 "Reinforced Armor on the Front": the General's Armor 8 is 9 from the Front and 8 from a
/// Flank or the Rear; infantry have no Armor.
#[test]
fn r14_reinforced_armor_only_from_the_front() {
    let st = new_game();
    let g = unit(&st, "General-1");
    let v = unit(&st, "Valkurie-1");
    let arcs = [AttackArc::Front, AttackArc::Flank, AttackArc::Rear];
    assert_eq!(arcs.map(|a| stats::armor(&st.data, &g, a)), [9, 8, 8]);
    assert_eq!(arcs.map(|a| stats::armor(&st.data, &v, a)), [9, 7, 7]);
    let squad = unit(&st, "US-Squad");
    assert_eq!(stats::armor(&st.data, &squad, AttackArc::Front), 0);
}

/// EX-2 and DT-10: a first Light is marked; a second Light becomes a Heavy; a Light on a unit
/// with a Light and a Heavy is its second Heavy and destroys it; a Heavy adds one Heavy, the
/// second destroys; Overkill destroys at once. Each result is told in words.
#[test]
fn ex2_damage_counters_light_heavy_and_overkill() {
    let st = new_game();
    let fresh = unit(&st, "Valkurie-1");
    let mut v = fresh.clone();
    assert_eq!(
        stats::apply_vehicle_damage(&mut v, DamageResult::NoEffect),
        "no effect"
    );
    assert_eq!(
        stats::apply_vehicle_damage(&mut v, DamageResult::Light),
        "Light Damage"
    );
    assert_eq!((v.light, v.heavy, v.destroyed), (1, 0, false));
    assert_eq!(
        stats::apply_vehicle_damage(&mut v, DamageResult::Light),
        "Light Damage; with the earlier Light it becomes Heavy Damage"
    );
    assert_eq!((v.light, v.heavy, v.destroyed), (0, 1, false));
    assert_eq!(
        stats::apply_vehicle_damage(&mut v, DamageResult::Light),
        "Light Damage"
    );
    assert_eq!(
        stats::apply_vehicle_damage(&mut v, DamageResult::Light),
        "Light Damage; with the earlier Light it becomes a second Heavy: destroyed"
    );
    assert_eq!((v.light, v.heavy, v.destroyed), (0, 2, true));

    let mut v = fresh.clone();
    assert_eq!(
        stats::apply_vehicle_damage(&mut v, DamageResult::Heavy),
        "Heavy Damage"
    );
    assert_eq!((v.light, v.heavy, v.destroyed), (0, 1, false));
    assert_eq!(
        stats::apply_vehicle_damage(&mut v, DamageResult::Heavy),
        "Heavy Damage, the second: destroyed"
    );
    assert_eq!((v.heavy, v.destroyed), (2, true));

    let mut v = fresh;
    assert_eq!(
        stats::apply_vehicle_damage(&mut v, DamageResult::Overkill),
        "Overkill: destroyed"
    );
    assert!(v.destroyed);
}

fn hits(u: &Unit) -> Vec<u32> {
    u.troopers.iter().map(|t| t.hits).collect()
}

/// R6: circles of a wounded trooper first, then troopers in card order; with Area Effect, the
/// damage on every living trooper (no more than it has left); the squad is destroyed only when
/// no trooper lives. The US squad: five riflemen and a BAR of 3 circles each.
#[test]
fn r6_infantry_damage_wounded_first_then_card_order() {
    let st = new_game();
    let fresh = unit(&st, "US-Squad");
    assert_eq!(hits(&fresh), [0; 6]);
    // The third rifleman is wounded (1 circle): 6 points finish him (2), kill the first (3)
    // and wound the second (1).
    let mut s = fresh.clone();
    s.troopers[2].hits = 1;
    assert_eq!(stats::apply_infantry_damage(&mut s, 6, false), (6, 2));
    assert_eq!(hits(&s), [3, 1, 3, 0, 0, 0]);
    assert!(!s.destroyed);
    // One point on an unwounded squad: the first trooper.
    let mut s = fresh.clone();
    assert_eq!(stats::apply_infantry_damage(&mut s, 1, false), (1, 0));
    assert_eq!(hits(&s), [1, 0, 0, 0, 0, 0]);
    // Zero points: nothing.
    let mut s = fresh.clone();
    assert_eq!(stats::apply_infantry_damage(&mut s, 0, false), (0, 0));
    assert_eq!(hits(&s), [0; 6]);
    // Area Effect, 2 on each: the first (2 crossed, 1 left) dies on 1, the dead second takes
    // none, the other four take 2 each.
    let mut s = fresh.clone();
    s.troopers[0].hits = 2;
    s.troopers[1].hits = 3;
    assert_eq!(stats::apply_infantry_damage(&mut s, 2, true), (9, 1));
    assert_eq!(hits(&s), [3, 3, 2, 2, 2, 2]);
    assert!(!s.destroyed);
    // More than the squad has: every circle (18), six casualties, destroyed.
    let mut s = fresh;
    assert_eq!(stats::apply_infantry_damage(&mut s, 40, false), (18, 6));
    assert!(s.destroyed);
}

/// p.5 massed fire: the Infantry ROF Bonus by the living troopers carrying the weapon (2: +1,
/// 4: +2, 8: +3), added to the weapon's own ROF; vehicles get none.
#[test]
fn p5_massed_fire_counts_the_living_carriers() {
    let st = new_game();
    let mut squad = unit(&st, "US-Squad");
    let rifle = stats::weapon(&st.data, &squad, "Rifle").unwrap().clone();
    let lmg = stats::weapon(&st.data, &squad, "lmg").unwrap().clone();
    assert_eq!(stats::carriers(&squad, "rifle"), 5);
    assert_eq!(stats::carriers(&squad, "LMG"), 1);
    assert_eq!(
        stats::rof(&st.data, &squad, &rifle),
        2,
        "0 + bonus 2 for 4+"
    );
    assert_eq!(stats::rof(&st.data, &squad, &lmg), 1, "1 + no bonus for 1");
    squad.troopers[0].hits = 3;
    assert_eq!(stats::carriers(&squad, "Rifle"), 4, "the dead do not carry");
    squad.troopers[1].hits = 3;
    assert_eq!(stats::carriers(&squad, "Rifle"), 3);
    assert_eq!(stats::rof(&st.data, &squad, &rifle), 1, "3 riflemen: +1");
    let g = unit(&st, "General-1");
    let vlmg = stats::weapon(&st.data, &g, "LMG").unwrap();
    assert_eq!(
        stats::rof(&st.data, &g, vlmg),
        2,
        "a vehicle's LMG: RO2, no bonus"
    );
    assert_eq!(stats::carriers(&g, "LMG"), 0);
}

/// R20: a single shot uses 1 round, a burst 10 per ROF point, rockets 2^ROF missiles (one for
/// a single rocket); saturation 30 rounds or 8 rockets per ROF point, at least 10 or 4 left.
#[test]
fn r20_ammunition_of_shots_bursts_rockets_and_saturation() {
    let st = new_game();
    let g = unit(&st, "General-1");
    let lmg = stats::weapon(&st.data, &g, "LMG").unwrap().clone();
    let rockets = despatch::rulesets::gear_krieg::data::WeaponData {
        rockets: true,
        ..lmg.clone()
    };
    assert_eq!(
        [0, 1, 2, 3].map(|r| stats::burst_ammo(&st.data, &lmg, r)),
        [1, 10, 20, 30]
    );
    assert_eq!(
        [0, 1, 2, 3].map(|r| stats::burst_ammo(&st.data, &rockets, r)),
        [1, 2, 4, 8]
    );
    assert_eq!([0, 1, 2, 3, 4].map(stats::missiles), [1, 2, 4, 8, 16]);
    assert_eq!(
        [1, 2, 3].map(|r| stats::saturation_ammo(&st.data, &lmg, r)),
        [30, 60, 90]
    );
    assert_eq!(
        [1, 2, 3].map(|r| stats::saturation_ammo(&st.data, &rockets, r)),
        [8, 16, 24]
    );
    assert_eq!(stats::saturation_min(&st.data, &lmg), 10);
    assert_eq!(stats::saturation_min(&st.data, &rockets), 4);
}

/// p.1 Attacker's Movement and R22: stationary +2, up to half Combat Speed +1 (vehicles only),
/// more 0, at Top Speed −3 whatever the move. The General in Ground mode: Combat 3 MP, half
/// 1.5 (a float's hair over it still half).
#[test]
fn r22_attackers_movement_at_each_limit() {
    let st = new_game();
    let g = Unit {
        mode: MoveMode::Ground,
        top: false,
        heavy: 0,
        ..unit(&st, "General-1")
    };
    let m = |u: &Unit, cm: f64| stats::attacker_movement(&st.data, u, cm);
    let cases = [
        (0.0, 2),
        (0.01, 1),
        (1.0, 1),
        (1.5, 1),
        (1.5 + 1e-12, 1),
        (1.6, 0),
        (2.9, 0),
        (6.0, 0),
    ];
    for (cm, want) in cases {
        assert_eq!(m(&g, cm), want, "General moved {cm} of 3 MP");
    }
    let top = Unit {
        top: true,
        ..g.clone()
    };
    assert_eq!([0.0, 1.0, 5.0].map(|cm| m(&top, cm)), [-3, -3, -3]);
    let squad = unit(&st, "US-Squad");
    assert_eq!([0.0, 0.5, 1.0, 2.0].map(|cm| m(&squad, cm)), [2, 0, 0, 0]);
}
