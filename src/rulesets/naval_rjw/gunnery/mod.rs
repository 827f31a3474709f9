//! One gunnery phase (p.6–7; rulings R4–R6, R10, R19, R20, R22, R24, R31, R32): legality of
//! targets and supports, attack modifiers, the opposed roll, and standing fire plans. Damage is
//! damage.rs's business; the order of phases and who fires when is the sequence of play's.
//! Here: the shot's band and geometry and the opposed roll's arithmetic; sight.rs what a ship
//! can see and reach, legality.rs who may fire and support, modifiers.rs the attack modifiers,
//! phase.rs a side's fire plan resolved, plans.rs standing plans and the checks of orders given.

use crate::rulesets::kit::grammar::tenths;

mod legality;
mod modifiers;
mod phase;
mod plans;
mod sight;

pub use legality::{cannot_fire_reason, support_legal, target_legal};
pub use modifiers::{attack_modifier, modifiers};
pub use phase::resolve_fire_phase;
pub use plans::{check_fire_order, check_fire_plan, standing_plan};
pub use sight::{broadside, extreme_allowed, has_los, has_stern_los, shot};

/// Range band of a shot (R31).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Band {
    /// Under `close_range` by nearest points.
    Close,
    Normal,
    /// Beyond the range, up to the extreme range.
    Extreme,
}

/// A legal shot's geometry.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shot {
    /// Nearest points, inches.
    pub range: f64,
    pub band: Band,
}

/// The firer's score: die + CF + modifiers.
pub fn attack_total(die: u32, cf: i32, modifier: i32) -> i32 {
    die as i32 + cf + modifier
}

/// The defender's score: die + CF, never modified.
pub fn defence_total(die: u32, cf: i32) -> i32 {
    die as i32 + cf
}

/// p.6: the firer scoring more hits by the difference; equal or less does nothing.
pub fn resolve_attack(attacker_total: i32, defender_total: i32) -> u32 {
    (attacker_total - defender_total).max(0) as u32
}

pub(super) fn inches(v: f64) -> String {
    format!("{}\"", tenths(v))
}

pub(super) fn battery(name: &str, secondary: bool) -> String {
    if secondary {
        format!("{name}'s secondary battery")
    } else {
        name.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::tabletop::Pt;
    use crate::dice::{Dice, Faces};
    use crate::rulesets::naval_rjw::data::ShipClass;
    use crate::rulesets::naval_rjw::state::{FireOrder, NavalState, Ship, StandingFire};
    use crate::rulesets::naval_rjw::stats::find_ship;
    use crate::rulesets::naval_rjw::stats::ship_index;
    use crate::rulesets::naval_rjw::stats::test_support::{ship, two_sides};

    fn fire(ship: &str, targets: &[&str], support: &[&str]) -> FireOrder {
        FireOrder {
            ship: ship.into(),
            secondary: false,
            targets: targets.iter().map(|s| s.to_string()).collect(),
            support: support.iter().map(|s| s.to_string()).collect(),
        }
    }

    fn secondary(ship: &str, targets: &[&str]) -> FireOrder {
        FireOrder {
            secondary: true,
            ..fire(ship, targets, &[])
        }
    }

    fn get<'a>(s: &'a NavalState, n: &str) -> &'a Ship {
        find_ship(s, n).unwrap()
    }

    fn mods(s: &NavalState, f: &str, t: &str, sec: bool, sup: &[&str]) -> Vec<(String, i32)> {
        let sups: Vec<&Ship> = sup.iter().map(|n| get(s, n)).collect();
        modifiers(s, get(s, f), get(s, t), sec, &sups)
    }

    /// A seed whose first requests give these d6 values (one die each), then `no_double` 2d6
    /// requests without a double.
    fn seed_for(values: &[u32], no_double: usize) -> [u8; 32] {
        for k in 0u32..20_000 {
            let mut seed = [0u8; 32];
            seed[..4].copy_from_slice(&k.to_be_bytes());
            let ok = values.iter().enumerate().all(|(j, v)| {
                crate::dice::roll_stream(&seed, j as u64, &Faces::d(6), 1) == vec![*v]
            }) && (0..no_double).all(|i| {
                let r = crate::dice::roll_stream(&seed, (values.len() + i) as u64, &Faces::d(6), 2);
                r[0] != r[1]
            });
            if ok {
                return seed;
            }
        }
        panic!("no seed found");
    }

    #[test]
    fn ex1_worked_example() {
        // Pure: Russian BB (CF 4) rolls 4, Japanese CL (CF 2) rolls 3, no modifiers.
        let (a, d) = (attack_total(4, 4, 0), defence_total(3, 2));
        assert_eq!((a, d), (8, 5));
        assert_eq!(resolve_attack(a, d), 3);
        assert_eq!(resolve_attack(5, 5), 0);
        assert_eq!(resolve_attack(4, 6), 0);

        // Through the phase: Tsesarevich fires on Chitose ahead of her at 9.2".
        let j = ship("Chitose", "CL", 10.0, 20.0, 90.0);
        let r = ship("Tsesarevich", "BB", 10.0, 10.0, 0.0);
        let mut s = two_sides(&j, &r, "");
        assert!(mods(&s, "Tsesarevich", "Chitose", false, &[]).is_empty());
        let mut dice = Dice::new(seed_for(&[4, 3], 3));
        resolve_fire_phase(
            &mut s,
            "russia",
            &[fire("Tsesarevich", &["Chitose"], &[])],
            &mut dice,
        );
        let t = dice.table();
        assert_eq!(t[0].label, "gunnery Tsesarevich->Chitose attacker");
        assert_eq!(t[1].label, "gunnery Tsesarevich->Chitose defender");
        assert_eq!(t.len(), 5, "three critical rolls follow the three hits");
        assert_eq!(
            s.log[0].text,
            "Tsesarevich (4+4=8) fires on Chitose (3+2=5) at 9.2\": 3 hits."
        );
        assert_eq!(get(&s, "Chitose").hit_markers, 3);
    }

    /// DT-5: Mikasa broadside-on at 5" to Bayan, supported by Yakumo (CA) and Asahi (BB).
    fn dt5(extra: &str, bayan_x: f64) -> NavalState {
        let j = [
            ship("Mikasa", "BB", 10.0, 10.0, 0.0),
            ship("Yakumo", "CA", 10.0, 4.0, 0.0),
            ship("Asahi", "BB", 10.0, 16.0, 0.0),
        ]
        .concat();
        let r = ship("Bayan", "CA", bayan_x, 10.0, 0.0);
        two_sides(&j, &r, extra)
    }

    #[test]
    fn dt5_modifiers_total_six() {
        let s = dt5("", 15.0);
        let m = mods(&s, "Mikasa", "Bayan", false, &["Yakumo", "Asahi"]);
        let labels: Vec<&str> = m.iter().map(|(l, _)| l.as_str()).collect();
        assert_eq!(
            labels,
            [
                "capital-ship gunnery",
                "close range",
                "broadside",
                "support by Yakumo",
                "support by Asahi",
                "BB support by Asahi"
            ]
        );
        assert_eq!(m.iter().map(|x| x.1).sum::<i32>(), 6);
        // Both supporters are legal (LOS and within normal range).
        for sup in ["Yakumo", "Asahi"] {
            assert_eq!(
                support_legal(&s, get(&s, sup), get(&s, "Mikasa"), get(&s, "Bayan"), false),
                Ok(false)
            );
        }
        assert_eq!(
            target_legal(&s, "japan", get(&s, "Mikasa"), get(&s, "Bayan"), false)
                .unwrap()
                .band,
            Band::Close
        );
    }

    #[test]
    fn dt5_through_the_phase() {
        let mut s = dt5("", 15.0);
        let mut dice = Dice::new(seed_for(&[1, 6], 0));
        let plan = [fire("Mikasa", &["Bayan"], &["Yakumo", "Asahi"])];
        resolve_fire_phase(&mut s, "japan", &plan, &mut dice);
        // 1 + 4 + 6 = 11 against 6 + 3 = 9: 2 hits.
        assert_eq!(
            s.log[0].text,
            "Mikasa (1+4+6=11) fires on Bayan (6+3=9) at 5\": 2 hits. [capital-ship gunnery +1, \
             close range +1, broadside +1, support by Yakumo +1, support by Asahi +1, BB support by Asahi +1]"
        );
        assert_eq!(dice.table().len(), 4);
    }

    #[test]
    fn dt6_extreme_range() {
        // Bayan 20" off: beyond Mikasa's 18", inside her 30".
        let s = dt5("", 30.75);
        let sh = target_legal(&s, "japan", get(&s, "Mikasa"), get(&s, "Bayan"), false).unwrap();
        assert_eq!(sh.band, Band::Extreme);
        let m = mods(&s, "Mikasa", "Bayan", false, &["Yakumo", "Asahi"]);
        assert_eq!(
            m,
            vec![
                ("capital-ship gunnery".to_string(), 1),
                ("extreme range".to_string(), -2),
                ("broadside".to_string(), 1),
            ]
        );
        // Supporters may not support at extreme range (their own range is exceeded too).
        assert!(
            support_legal(
                &s,
                get(&s, "Asahi"),
                get(&s, "Mikasa"),
                get(&s, "Bayan"),
                false
            )
            .is_err()
        );
        for extra in ["limited_ammunition = true", "high_sea_state = true"] {
            let s = dt5(extra, 30.75);
            let e =
                target_legal(&s, "japan", get(&s, "Mikasa"), get(&s, "Bayan"), false).unwrap_err();
            assert!(e.contains("extreme range"), "{e}");
        }
        let s = dt5("", 45.0);
        assert!(
            target_legal(&s, "japan", get(&s, "Mikasa"), get(&s, "Bayan"), false)
                .unwrap_err()
                .contains("out of range")
        );
    }

    /// Mikasa at (10,10) heading north, Tsesarevich due north of her; a ship between them.
    fn los_state(between_class: &str, smoke: bool) -> NavalState {
        let j = [
            ship("Mikasa", "BB", 10.0, 10.0, 0.0),
            ship("Akatsuki", "DD", 10.0, 2.0, 0.0),
            ship("Ikazuchi", "DD", 10.0, 16.0, 90.0),
        ]
        .concat();
        let r = [
            ship("Tsesarevich", "BB", 10.0, 22.0, 0.0),
            ship("Between", between_class, 10.0, 16.0, 90.0),
        ]
        .concat();
        let mut s = two_sides(&j, &r, "");
        // Ikazuchi (own DD) sits exactly where the enemy ship lies: park her elsewhere.
        let i = ship_index(&s, "Ikazuchi").unwrap();
        s.ships[i].hull.centre = Pt::new(40.0, 40.0);
        let b = ship_index(&s, "Between").unwrap();
        s.ships[b].smoke = smoke;
        s
    }

    #[test]
    fn los_blocked_by_a_hull() {
        let s = los_state("CL", false);
        assert!(!has_los(&s, get(&s, "Mikasa"), get(&s, "Tsesarevich")));
        let e = target_legal(
            &s,
            "japan",
            get(&s, "Mikasa"),
            get(&s, "Tsesarevich"),
            false,
        )
        .unwrap_err();
        assert_eq!(e, "Mikasa has no line of sight to Tsesarevich");
        // Own line-mates block too (R22): an own BB across the line.
        let mut s = los_state("CL", false);
        let b = ship_index(&s, "Between").unwrap();
        s.ships[b].hull.centre = Pt::new(60.0, 40.0);
        assert!(has_los(&s, get(&s, "Mikasa"), get(&s, "Tsesarevich")));
        let i = ship_index(&s, "Ikazuchi").unwrap();
        s.ships[i].class = ShipClass::BB;
        s.ships[i].hull.centre = Pt::new(10.0, 16.0);
        assert!(!has_los(&s, get(&s, "Mikasa"), get(&s, "Tsesarevich")));
    }

    #[test]
    fn los_not_blocked_by_a_dd_unless_smoke() {
        let s = los_state("DD", false);
        assert!(has_los(&s, get(&s, "Mikasa"), get(&s, "Tsesarevich")));
        let s = los_state("DD", true);
        assert!(!has_los(&s, get(&s, "Mikasa"), get(&s, "Tsesarevich")));
        // A destroyer's own sight is blocked by any DD not of her flotilla.
        let mut s = los_state("DD", false);
        let a = ship_index(&s, "Akatsuki").unwrap();
        s.ships[a].hull.centre = Pt::new(10.0, 8.0);
        let m = ship_index(&s, "Mikasa").unwrap();
        s.ships[m].hull.centre = Pt::new(40.0, 8.0);
        assert!(!has_los(&s, get(&s, "Akatsuki"), get(&s, "Tsesarevich")));
    }

    #[test]
    fn flotilla_see_through() {
        let j = [
            ship("Akatsuki", "DD", 10.0, 10.0, 0.0),
            ship("Ikazuchi", "DD", 10.0, 12.0, 90.0),
            ship("Mikasa", "BB", 40.0, 40.0, 0.0),
        ]
        .concat();
        let r = ship("Burny", "DD", 10.0, 15.0, 0.0);
        let mut s = two_sides(&j, &r, "");
        assert!(!has_los(&s, get(&s, "Akatsuki"), get(&s, "Burny")));
        s.groups.push(super::super::state::Group {
            name: "1st Flotilla".into(),
            side: "japan".into(),
            ships: vec!["Akatsuki".into(), "Ikazuchi".into()],
            formation: Default::default(),
            flotilla: true,
        });
        assert!(has_los(&s, get(&s, "Akatsuki"), get(&s, "Burny")));
    }

    #[test]
    fn broadside_arc_in_and_out() {
        // Bayan abeam: broadside.
        let s = dt5("", 15.0);
        assert!(broadside(&s, get(&s, "Mikasa"), get(&s, "Bayan")));
        // Bayan dead ahead of Mikasa: no broadside.
        let j = ship("Mikasa", "BB", 10.0, 10.0, 0.0);
        let r = ship("Bayan", "CA", 10.0, 20.0, 90.0);
        let s = two_sides(&j, &r, "");
        assert!(!broadside(&s, get(&s, "Mikasa"), get(&s, "Bayan")));
        // Abeam but the stern-to-stern line is blocked by an own ship.
        let j = [
            ship("Mikasa", "BB", 10.0, 10.0, 0.0),
            ship("Fuji", "BB", 13.0, 9.0, 0.0),
        ]
        .concat();
        let r = ship("Bayan", "CA", 16.0, 10.0, 0.0);
        let s = two_sides(&j, &r, "");
        assert!(has_los(&s, get(&s, "Mikasa"), get(&s, "Bayan")));
        assert!(!broadside(&s, get(&s, "Mikasa"), get(&s, "Bayan")));
        // Destroyers never fire broadsides.
        let j = ship("Akatsuki", "DD", 10.0, 10.0, 0.0);
        let r = ship("Bayan", "CA", 14.0, 10.0, 0.0);
        let s = two_sides(&j, &r, "");
        assert!(!broadside(&s, get(&s, "Akatsuki"), get(&s, "Bayan")));
    }

    fn sec_state() -> NavalState {
        let j = [
            ship("Mikasa", "BB", 10.0, 10.0, 0.0),
            ship("Chitose", "CL", 20.0, 10.0, 0.0),
        ]
        .concat();
        let r = [
            ship("Burny", "DD", 10.0, 18.0, 90.0),
            ship("Tsesarevich", "BB", 30.0, 10.0, 0.0),
        ]
        .concat();
        two_sides(&j, &r, "")
    }

    #[test]
    fn secondary_battery_only_at_destroyers() {
        let s = sec_state();
        assert_eq!(
            check_fire_order(&s, "japan", &secondary("Mikasa", &["Burny"])),
            Ok(())
        );
        let e = check_fire_order(&s, "japan", &secondary("Mikasa", &["Tsesarevich"])).unwrap_err();
        assert_eq!(
            e,
            "secondary batteries may fire only at destroyers, and Tsesarevich is a BB"
        );
        let e = check_fire_order(&s, "japan", &secondary("Chitose", &["Burny"])).unwrap_err();
        assert!(e.contains("only armoured cruisers and battleships"), "{e}");
        // In addition to the main battery: main at Tsesarevich, secondary at Burny.
        let mut s = sec_state();
        let mut dice = Dice::new([9; 32]);
        resolve_fire_phase(
            &mut s,
            "japan",
            &[
                fire("Mikasa", &["Tsesarevich"], &[]),
                secondary("Mikasa", &["Burny"]),
            ],
            &mut dice,
        );
        let labels: Vec<&str> = dice.table().iter().map(|r| r.label.as_str()).collect();
        assert!(
            labels.contains(&"gunnery Mikasa->Tsesarevich attacker"),
            "{labels:?}"
        );
        assert!(
            labels.contains(&"gunnery Mikasa->Burny attacker"),
            "{labels:?}"
        );
        assert!(
            s.log
                .iter()
                .any(|l| l.text.starts_with("Mikasa's secondary battery ("))
        );
        // The secondary battery attacks with CF 2 and no broadside.
        let s = sec_state();
        assert!(
            mods(&s, "Mikasa", "Burny", true, &[])
                .iter()
                .all(|(l, _)| l != "broadside")
        );
    }

    #[test]
    fn one_attack_per_target_and_else_fall_through() {
        let j = [
            ship("Mikasa", "BB", 10.0, 10.0, 0.0),
            ship("Asahi", "BB", 10.0, 20.0, 0.0),
        ]
        .concat();
        let r = [
            ship("Tsesarevich", "BB", 25.0, 10.0, 0.0),
            ship("Retvizan", "BB", 25.0, 20.0, 0.0),
        ]
        .concat();
        let mut s = two_sides(&j, &r, "");
        let mut dice = Dice::new([5; 32]);
        resolve_fire_phase(
            &mut s,
            "japan",
            &[
                fire("Mikasa", &["Tsesarevich"], &[]),
                fire("Asahi", &["Tsesarevich", "Retvizan"], &[]),
            ],
            &mut dice,
        );
        let t = dice.table();
        assert_eq!(t[0].label, "gunnery Mikasa->Tsesarevich attacker");
        let asahi: Vec<&str> = t
            .iter()
            .map(|r| r.label.as_str())
            .filter(|l| l.starts_with("gunnery Asahi"))
            .collect();
        assert_eq!(
            asahi,
            [
                "gunnery Asahi->Retvizan attacker",
                "gunnery Asahi->Retvizan defender"
            ]
        );
        assert!(s.log.iter().any(|l| l.text
            == "Asahi shifts fire to Retvizan (Tsesarevich has already been fired on this phase)."));

        // Without an ELSE the second ship holds fire.
        let mut s = two_sides(&j, &r, "");
        let mut dice = Dice::new([5; 32]);
        resolve_fire_phase(
            &mut s,
            "japan",
            &[
                fire("Mikasa", &["Tsesarevich"], &[]),
                fire("Asahi", &["Tsesarevich"], &[]),
            ],
            &mut dice,
        );
        assert!(
            dice.table()
                .iter()
                .all(|r| !r.label.starts_with("gunnery Asahi"))
        );
        assert!(s.log.iter().any(
            |l| l.text == "Asahi holds fire: Tsesarevich has already been fired on this phase."
        ));
    }

    #[test]
    fn hit_marked_ship_cannot_fire_or_support() {
        let mut s = dt5("", 15.0);
        let m = ship_index(&s, "Mikasa").unwrap();
        s.ships[m].hit_markers = 1;
        let mut dice = Dice::new([2; 32]);
        resolve_fire_phase(
            &mut s,
            "japan",
            &[fire("Mikasa", &["Bayan"], &[])],
            &mut dice,
        );
        assert!(dice.table().is_empty());
        assert_eq!(s.log[0].text, "Mikasa has a hit marker and cannot fire.");
        // As a supporter she is refused and the attack goes on without her.
        let e = support_legal(
            &s,
            get(&s, "Mikasa"),
            get(&s, "Asahi"),
            get(&s, "Bayan"),
            false,
        )
        .unwrap_err();
        assert_eq!(e, "Mikasa has a hit marker and cannot fire");
        let mut dice = Dice::new([2; 32]);
        s.log.clear();
        resolve_fire_phase(
            &mut s,
            "japan",
            &[fire("Asahi", &["Bayan"], &["Mikasa"])],
            &mut dice,
        );
        assert_eq!(
            s.log[0].text,
            "Mikasa cannot support: Mikasa has a hit marker and cannot fire."
        );
        assert_eq!(dice.table()[0].label, "gunnery Asahi->Bayan attacker");
    }

    #[test]
    fn supporters_are_used_up() {
        let mut s = dt5("", 15.0);
        let mut dice = Dice::new([4; 32]);
        let plan = [
            fire("Mikasa", &["Bayan"], &["Asahi"]),
            fire("Asahi", &["Bayan"], &[]),
        ];
        resolve_fire_phase(&mut s, "japan", &plan, &mut dice);
        assert!(
            s.log
                .iter()
                .any(|l| l.text == "Asahi has already fired or supported this phase.")
        );
    }

    #[test]
    fn dd_against_a_stationary_target() {
        let j = ship("Akatsuki", "DD", 10.0, 10.0, 0.0);
        let r = ship("Bayan", "CA", 14.0, 10.0, 0.0);
        let mut s = two_sides(&j, &r, "");
        assert_eq!(
            mods(&s, "Akatsuki", "Bayan", false, &[]),
            vec![("close range".to_string(), 1)]
        );
        let b = ship_index(&s, "Bayan").unwrap();
        s.ships[b].moved = false;
        assert_eq!(
            attack_modifier(&s, get(&s, "Akatsuki"), get(&s, "Bayan"), false, &[]),
            3
        );
    }

    #[test]
    fn static_checks() {
        let s = dt5("", 15.0);
        let ok = fire("Mikasa", &["Bayan"], &["Asahi", "Yakumo"]);
        assert_eq!(check_fire_order(&s, "japan", &ok), Ok(()));
        let e = |o: FireOrder| check_fire_order(&s, "japan", &o).unwrap_err();
        assert_eq!(
            e(fire("Bayan", &["Mikasa"], &[])),
            "Bayan is not one of your ships"
        );
        assert_eq!(
            e(fire("Mikasa", &["Asahi"], &[])),
            "Asahi is one of your own ships"
        );
        assert_eq!(
            e(fire("Mikasa", &["Bayan"], &["Mikasa"])),
            "Mikasa cannot support her own attack"
        );
        assert_eq!(
            e(fire("Mikasa", &["Bayan"], &["Bayan"])),
            "Bayan is not one of your ships"
        );
        assert_eq!(
            e(fire("Mikasa", &["Bayan"], &["Asahi", "Yakumo", "Asahi"])),
            "at most 2 ships may support one attack"
        );
        assert_eq!(
            e(fire("Mikasa", &["Bayan"], &["Asahi", "Asahi"])),
            "Asahi is named twice as a supporter"
        );
        assert_eq!(e(fire("Mikasa", &[], &[])), "Mikasa has no target");
        let plan = [
            fire("Mikasa", &["Bayan"], &[]),
            fire("Mikasa", &["Bayan"], &[]),
        ];
        assert_eq!(
            check_fire_plan(&s, "japan", &plan),
            vec![(1, "Mikasa already has a fire order".to_string())]
        );
    }

    #[test]
    fn standing_plans() {
        let j = [
            ship("Mikasa", "BB", 10.0, 10.0, 0.0),
            ship("Akatsuki", "DD", 40.0, 30.0, 0.0),
        ]
        .concat();
        let r = [
            ship("Tsesarevich", "BB", 10.0, 26.0, 90.0),
            ship("Retvizan", "BB", 20.0, 10.0, 0.0),
            ship("Burny", "DD", 13.0, 12.0, 0.0),
        ]
        .concat();
        let s = two_sides(&j, &r, "");
        let p = standing_plan(&s, "japan", StandingFire::Nearest);
        assert_eq!(p.len(), 2, "{p:?}");
        assert_eq!(p[0].ship, "Mikasa");
        // Capital targets first (nearest first), then the DD.
        assert_eq!(p[0].targets, ["Retvizan", "Tsesarevich", "Burny"]);
        assert!(p[1].secondary && p[1].targets == ["Burny"]);
        let p = standing_plan(&s, "japan", StandingFire::Flagship);
        assert_eq!(p[0].targets, ["Tsesarevich", "Retvizan", "Burny"]);
        // Akatsuki has nothing within 9" and is given no order.
        assert!(p.iter().all(|o| o.ship != "Akatsuki"));
        for o in &p {
            assert_eq!(check_fire_order(&s, "japan", o), Ok(()));
        }
    }
}
