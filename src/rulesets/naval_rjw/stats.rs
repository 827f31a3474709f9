//! A ship's effective numbers (speed, combat factors, ranges) and status tests, computed from the
//! ruleset data and the state. Read-only: nothing here changes the state or rolls dice.

use crate::rulesets::kit::roster::TwoSides;

use super::data::{ClassData, ShipClass};
use super::state::{Critical, Fate, Fleet, NavalState, Ship};

/// The class row (CF, ranges, speed…) of a ship's class.
///
/// A class missing from `ruleset.toml` is a data error the set-up rejects; here it would be a bug.
pub fn class_data(state: &NavalState, class: ShipClass) -> &ClassData {
    state.data.classes.get(&class).unwrap_or_else(|| {
        panic!(
            "games/naval-rjw/ruleset.toml lacks classes.{}",
            class.abbr()
        )
    })
}

/// How many criticals of `kind` the ship has taken.
pub fn criticals(ship: &Ship, kind: Critical) -> u32 {
    ship.criticals.iter().filter(|c| **c == kind).count() as u32
}

/// Maximum speed in inches (R30): class speed − obsolete − coal-limited fleet − foul bottom, at
/// least 1 from those causes; then − `movement_critical_speed` per Movement critical, at least 0.
/// 0 means the ship has sunk (damage.rs sinks her when a critical brings it there).
pub fn max_speed(state: &NavalState, ship: &Ship) -> f64 {
    let d = &state.data;
    let mut speed = class_data(state, ship.class).speed.get();
    if ship.obsolete {
        speed -= d.rules.obsolete_speed_penalty.get();
    }
    if fleet(state, &ship.side).is_some_and(|f| f.coal_limited) {
        speed -= d.rules.coal_speed_penalty.get();
    }
    if ship.foul_bottom {
        speed -= d.rules.foul_speed_penalty.get();
    }
    // Only criticals may bring a ship to a standstill (R30).
    speed = speed.max(1.0);
    speed -= d.rules.movement_critical_speed.get() * criticals(ship, Critical::Movement) as f64;
    speed.max(0.0)
}

fn gunnery_loss(state: &NavalState, ship: &Ship) -> i32 {
    state.data.rules.gunnery_critical_cf.get().round() as i32
        * criticals(ship, Critical::Gunnery) as i32
}

/// Main combat factor: class CF − `gunnery_critical_cf` per Gunnery critical, at least 0 (R6).
pub fn main_cf(state: &NavalState, ship: &Ship) -> i32 {
    (class_data(state, ship.class).cf.int() - gunnery_loss(state, ship)).max(0)
}

/// Armoured cruisers and battleships carry secondary batteries (p.7).
pub fn has_secondary(ship: &Ship) -> bool {
    matches!(ship.class, ShipClass::CA | ShipClass::BB)
}

/// Secondary-battery CF (R6): `secondary_cf` − Gunnery criticals; `None` for DD and CL.
pub fn secondary_cf(state: &NavalState, ship: &Ship) -> Option<i32> {
    has_secondary(ship).then(|| {
        (state.data.rules.secondary_cf.get().round() as i32 - gunnery_loss(state, ship)).max(0)
    })
}

/// Obsolete ships lose `obsolete_range_penalty`, never below `obsolete_min_range` (R30).
fn obsolete_range(state: &NavalState, ship: &Ship, range: f64) -> f64 {
    if !ship.obsolete {
        return range;
    }
    let d = &state.data;
    let min = d.rules.obsolete_min_range.get();
    // A range already below the floor is not raised by being obsolete.
    (range - d.rules.obsolete_range_penalty.get()).max(min.min(range))
}

/// Main battery range in inches (normal range; beyond it is extreme range).
pub fn range(state: &NavalState, ship: &Ship) -> f64 {
    obsolete_range(state, ship, class_data(state, ship.class).range.get())
}

/// Main battery extreme range in inches.
pub fn extreme_range(state: &NavalState, ship: &Ship) -> f64 {
    obsolete_range(
        state,
        ship,
        class_data(state, ship.class).extreme_range.get(),
    )
}

/// Secondary battery range (no extreme range, R1). The obsolete penalty applies: it is the range
/// "of a ship's weapons" (p.2).
pub fn secondary_range(state: &NavalState, ship: &Ship) -> f64 {
    obsolete_range(state, ship, state.data.rules.secondary_range.get())
}

pub fn is_afloat(ship: &Ship) -> bool {
    ship.fate == Fate::Afloat
}

/// May fire or support this phase: afloat, no hit marker, not rescuing survivors, not struck,
/// and not sent to take possession of a prize (the capturer steers automatically and then lies
/// alongside, taking no further part: R10).
pub fn can_fire(ship: &Ship) -> bool {
    is_afloat(ship) && ship.hit_markers == 0 && ship.rescue.is_none() && ship.capturing.is_none()
}

/// Crippled (R7): any permanent critical (Movement, Gunnery or Control), or crippled by mines.
pub fn is_crippled(ship: &Ship) -> bool {
    ship.mine_crippled
        || ship.criticals.iter().any(|c| {
            matches!(
                c,
                Critical::Movement | Critical::Gunnery | Critical::Control
            )
        })
}

/// Lost for victory (R7, R9): sunk, struck or crippled. Escaped ships are not lost.
pub fn is_lost(ship: &Ship) -> bool {
    match ship.fate {
        Fate::Sunk | Fate::Struck => true,
        Fate::Escaped => false,
        Fate::Afloat => is_crippled(ship),
    }
}

/// "Undamaged" for striking colours (R10): afloat, no hit marker, no critical.
pub fn is_undamaged(ship: &Ship) -> bool {
    is_afloat(ship) && ship.hit_markers == 0 && ship.criticals.is_empty()
}

/// Index of a ship by name: the exact name first, then ignoring case.
pub fn ship_index(state: &NavalState, name: &str) -> Option<usize> {
    state.ships.iter().position(|s| s.name == name).or_else(|| {
        state
            .ships
            .iter()
            .position(|s| s.name.eq_ignore_ascii_case(name))
    })
}

pub fn find_ship<'a>(state: &'a NavalState, name: &str) -> Option<&'a Ship> {
    ship_index(state, name).map(|i| &state.ships[i])
}

pub fn find_ship_mut<'a>(state: &'a mut NavalState, name: &str) -> Option<&'a mut Ship> {
    ship_index(state, name).map(move |i| &mut state.ships[i])
}

/// The fleet's compulsory move (p.4: 3", or the scenario's reduced cruise for that fleet).
pub fn cruise(state: &NavalState, side: &str) -> f64 {
    fleet(state, side)
        .map(|f| f.cruise)
        .unwrap_or_else(|| state.data.rules.cruise.get())
}

/// The side's fleet (the kit's side look-up, in the game's word).
pub fn fleet<'a>(state: &'a NavalState, side: &str) -> Option<&'a Fleet> {
    state.side(side)
}

pub fn fleet_mut<'a>(state: &'a mut NavalState, side: &str) -> Option<&'a mut Fleet> {
    state.side_mut(side)
}

/// Every ship of `side`, in scenario order.
pub fn ships_of<'a>(state: &'a NavalState, side: &'a str) -> impl Iterator<Item = &'a Ship> + 'a {
    state.ships.iter().filter(move |s| s.side == side)
}

/// Is this ship her fleet's current flagship?
pub fn is_flagship(state: &NavalState, ship: &Ship) -> bool {
    fleet(state, &ship.side).is_some_and(|f| f.flagship.as_deref() == Some(ship.name.as_str()))
}

/// Builds small test states from TOML following the data.rs schema, independent of the shipped
/// `games/naval-rjw/ruleset.toml` (numbers as in naval-rulings.md).
#[cfg(test)]
pub(crate) mod test_support {
    use crate::board::tabletop::{Hull, Pt};
    use crate::rulesets::naval_rjw::data::{RulesetData, Scenario, TomlData};
    use crate::rulesets::naval_rjw::state::{Fate, Fleet, Group, NavalState, Phase, Ship};

    pub const RULESET: &str = include_str!("../../../tests/fixtures/naval-test-ruleset.toml");

    /// A state from a scenario TOML (the data.rs `Scenario` schema); every ship moved this turn.
    pub fn state(scenario: &str) -> NavalState {
        let data = RulesetData::from_toml(RULESET).expect("test ruleset");
        let sc = Scenario::from_toml(scenario).expect("test scenario");
        let mut fleets = Vec::new();
        let mut ships = Vec::new();
        let mut groups = Vec::new();
        for side in &sc.sides {
            fleets.push(Fleet {
                side: side.id.clone(),
                name: side.name.clone(),
                leadership: side.leadership,
                crews: side.crews,
                capital_gunnery_bonus: side.capital_gunnery_bonus,
                coal_limited: side.coal_limited,
                cruise: side.cruise.unwrap_or_else(|| data.rules.cruise.get()),
                withdrawal_heading: side.withdrawal_heading,
                flagship: Some(side.flagship.clone()),
                second: Some(side.second.clone()),
                flagship_lost: false,
                withdrawal: false,
                chase: false,
                standing_fire: None,
                rescue_owed: vec![],
            });
            for s in &side.ships {
                ships.push(Ship {
                    name: s.name.clone(),
                    side: side.id.clone(),
                    class: s.class,
                    hull: Hull {
                        centre: Pt { x: s.x, y: s.y },
                        heading: s.heading,
                        length: data.classes[&s.class].hull_length.get(),
                    },
                    obsolete: s.obsolete,
                    minelayer: s.minelayer,
                    minesweeper: s.minesweeper,
                    foul_bottom: s.foul_bottom,
                    note: s.note.clone(),
                    fate: Fate::Afloat,
                    hit_markers: 0,
                    critical_marker: false,
                    criticals: vec![],
                    mine_crippled: false,
                    moved: true,
                    halted: false,
                    anchored: false,
                    smoke: false,
                    rescue: None,
                    capturing: None,
                    captured_by: None,
                    path: vec![],
                });
            }
            for (g, flotilla) in side
                .lines
                .iter()
                .map(|g| (g, false))
                .chain(side.flotillas.iter().map(|g| (g, true)))
            {
                groups.push(Group {
                    name: g.name.clone(),
                    side: side.id.clone(),
                    ships: g.ships.clone(),
                    formation: g.formation,
                    flotilla,
                });
            }
        }
        NavalState {
            data,
            scenario_name: sc.name,
            scenario_date: sc.date,
            width: sc.width,
            height: sc.height,
            max_turns: sc.max_turns,
            limited_ammunition: sc.limited_ammunition,
            high_sea_state: sc.high_sea_state,
            seat_order: sc.sides.iter().map(|s| s.id.clone()).collect(),
            fleets,
            ships,
            groups,
            minefields: vec![],
            phase: Phase::Fire,
            turn: 1,
            active: sc.sides[0].id.clone(),
            cp_rolled: 0,
            cp_left: 0,
            pending_fire: None,
            log: vec![],
            outcome: None,
        }
    }

    /// Scenario header plus two sides whose `ships` entries are given as TOML array-of-tables text.
    pub fn two_sides(japan_ships: &str, russia_ships: &str, extra: &str) -> NavalState {
        state(&format!(
            r#"
name = "Test"
date = "1904"
description = "test"
width = 72
height = 48
max_turns = 20
{extra}

[[sides]]
id = "japan"
name = "Japan"
capital_gunnery_bonus = 1
withdrawal_heading = 90
flagship = "Mikasa"
second = "Asahi"
{japan}

[[sides]]
id = "russia"
name = "Russia"
withdrawal_heading = 270
flagship = "Tsesarevich"
second = "Retvizan"
{russia}
"#,
            japan = japan_ships.replace("[[ships]]", "[[sides.ships]]"),
            russia = russia_ships.replace("[[ships]]", "[[sides.ships]]"),
        ))
    }

    /// One ship entry: `ship("Mikasa", "BB", 10.0, 10.0, 90.0)`.
    pub fn ship(name: &str, class: &str, x: f64, y: f64, heading: f64) -> String {
        format!(
            "[[ships]]\nname = \"{name}\"\nclass = \"{class}\"\nx = {x:?}\ny = {y:?}\nheading = {heading:?}\n"
        )
    }
}

#[cfg(test)]
mod tests {
    use super::test_support::{ship, two_sides};
    use super::*;

    fn st() -> NavalState {
        let j = [
            ship("Mikasa", "BB", 10.0, 10.0, 90.0),
            ship("Chitose", "CL", 10.0, 20.0, 90.0),
            ship("Akatsuki", "DD", 10.0, 30.0, 90.0),
        ]
        .concat();
        let r = [
            ship("Tsesarevich", "BB", 40.0, 10.0, 270.0),
            ship("Bayan", "CA", 40.0, 20.0, 270.0),
        ]
        .concat();
        two_sides(&j, &r, "")
    }

    #[test]
    fn speeds_follow_r30() {
        let mut s = st();
        assert_eq!(max_speed(&s, find_ship(&s, "Mikasa").unwrap()), 5.0);
        s.ships[0].obsolete = true;
        s.ships[0].foul_bottom = true;
        s.fleets[0].coal_limited = true;
        assert_eq!(max_speed(&s, &s.ships[0]), 2.0);
        s.ships[0].criticals.push(Critical::Movement);
        assert_eq!(max_speed(&s, &s.ships[0]), 0.0);
        // A destroyer with every penalty still has 1" left from non-critical causes.
        let mut dd = s.ships[2].clone();
        dd.obsolete = true;
        dd.foul_bottom = true;
        assert_eq!(max_speed(&s, &dd), 5.0);
        let cl = &mut s.ships[1];
        cl.criticals = vec![Critical::Movement, Critical::Movement];
        // 6" − 1 (the fleet is coal-limited) − 2 × 2.
        assert_eq!(max_speed(&s, &s.ships[1]), 1.0);
    }

    #[test]
    fn cf_and_ranges() {
        let mut s = st();
        let bb = s.ships[0].clone();
        assert_eq!(main_cf(&s, &bb), 4);
        assert_eq!(secondary_cf(&s, &bb), Some(2));
        assert_eq!(secondary_cf(&s, &s.ships[1]), None);
        assert_eq!((range(&s, &bb), extreme_range(&s, &bb)), (18.0, 30.0));
        s.ships[0].obsolete = true;
        s.ships[0].criticals.push(Critical::Gunnery);
        let bb = s.ships[0].clone();
        assert_eq!((range(&s, &bb), extreme_range(&s, &bb)), (12.0, 24.0));
        assert_eq!(secondary_range(&s, &bb), 6.0);
        assert_eq!(main_cf(&s, &bb), 3);
        assert_eq!(secondary_cf(&s, &bb), Some(1));
        let mut dd = s.ships[2].clone();
        dd.obsolete = true;
        // 6" − 6 would be 0: the floor is 6".
        assert_eq!((range(&s, &dd), extreme_range(&s, &dd)), (6.0, 6.0));
    }

    #[test]
    fn status_tests() {
        let mut s = st();
        assert!(can_fire(&s.ships[0]));
        s.ships[0].hit_markers = 1;
        assert!(!can_fire(&s.ships[0]));
        assert!(!is_crippled(&s.ships[0]) && !is_lost(&s.ships[0]));
        assert!(!is_undamaged(&s.ships[0]));
        s.ships[1].criticals.push(Critical::Control);
        assert!(is_crippled(&s.ships[1]) && is_lost(&s.ships[1]));
        s.ships[2].fate = Fate::Escaped;
        assert!(!is_lost(&s.ships[2]) && !can_fire(&s.ships[2]));
        s.ships[3].fate = Fate::Struck;
        assert!(is_lost(&s.ships[3]));
        s.ships[4].capturing = Some("Novik".into());
        assert!(!can_fire(&s.ships[4]));
        assert_eq!(s.enemy_of("japan"), Some("russia"));
        assert_eq!(s.enemy_of("russia"), Some("japan"));
        assert_eq!(find_ship(&s, "mikasa").unwrap().name, "Mikasa");
        assert!(find_ship(&s, "Mikasa2").is_none());
        assert!(is_flagship(&s, &s.ships[3]));
        assert!(!is_flagship(&s, &s.ships[4]));
        find_ship_mut(&mut s, "Bayan").unwrap().moved = false;
        assert!(!s.ships[4].moved);
        assert_eq!(ships_of(&s, "russia").count(), 2);
    }
}
