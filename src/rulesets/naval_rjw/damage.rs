//! Effects of hits (p.7–8): hit markers, the 2d6 critical roll and its table, sinking (flag
//! passing, rescue obligations), mine attacks (R8) and minesweeping (R27). Decides no targets and
//! checks no orders: callers have already judged the attack legal.

use crate::board::tabletop::hull_range;
use crate::dice::{Dice, Faces};
use crate::engine::LogLine;
use crate::rulesets::kit::grammar::num;

use super::data::ShipClass;
use super::state::{Critical, Fate, NavalState};
use super::stats::{self, main_cf, max_speed, ship_index};

/// The critical table (p.7) as a function of the two dice: any double is a critical.
pub fn critical_from_dice(a: u32, b: u32) -> Option<Critical> {
    if a != b {
        return None;
    }
    match a {
        1 | 2 => Some(Critical::Movement),
        3 | 4 => Some(Critical::Gunnery),
        5 => Some(Critical::Control),
        _ => Some(Critical::Magazine),
    }
}

fn log(state: &mut NavalState, text: String) {
    state.log.push(LogLine::public(text));
}

/// What one critical roll did to the ship.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CriticalEffect {
    None,
    /// A permanent critical; the text says what changed (`Gunnery: CF now 3`).
    Taken(Critical, String),
    /// The ship sinks; the text is the cause.
    Sinks(String),
}

/// The effect of one critical roll showing `a`-`b` on the ship (pure in the dice), applying the
/// permanent critical to the state but not sinking her: the caller sinks on `Sinks`.
pub fn critical_effect(state: &mut NavalState, idx: usize, a: u32, b: u32) -> CriticalEffect {
    let Some(c) = critical_from_dice(a, b) else {
        return CriticalEffect::None;
    };
    if state.ships[idx].class == ShipClass::DD {
        return CriticalEffect::Sinks("a critical hit sinks the destroyer".into());
    }
    if c == Critical::Magazine {
        return CriticalEffect::Sinks("her magazine explodes".into());
    }
    let ship = &mut state.ships[idx];
    ship.criticals.push(c);
    ship.critical_marker = true;
    let ship = &state.ships[idx];
    match c {
        Critical::Movement => {
            let speed = max_speed(state, ship);
            if speed <= 0.0 {
                CriticalEffect::Sinks("a Movement critical leaves her no speed".into())
            } else {
                CriticalEffect::Taken(c, format!("Movement: speed now {}\"", num(speed)))
            }
        }
        Critical::Gunnery => {
            let cf = main_cf(state, ship);
            if cf <= 0 {
                CriticalEffect::Sinks("a Gunnery critical leaves her no combat factor".into())
            } else {
                CriticalEffect::Taken(c, format!("Gunnery: CF now {cf}"))
            }
        }
        _ => CriticalEffect::Taken(c, "Control: her actions cost +1 CP".into()),
    }
}

/// Places `hits` hit markers on `ship` and rolls `critical <ship> hit <n>` (2d6) for each; stops
/// rolling once she sinks. Unknown or already lost ships take nothing.
pub fn apply_hits(state: &mut NavalState, ship: &str, hits: u32, dice: &mut Dice) {
    let Some(idx) = ship_index(state, ship) else {
        return;
    };
    let name = state.ships[idx].name.clone();
    let mut rolls = Vec::new();
    for n in 1..=hits {
        if state.ships[idx].fate != Fate::Afloat {
            break;
        }
        state.ships[idx].hit_markers += 1;
        let d = dice.roll(format!("critical {name} hit {n}"), Faces::d(6), 2);
        let shown = format!("{}-{}", d[0], d[1]);
        match critical_effect(state, idx, d[0], d[1]) {
            CriticalEffect::None => rolls.push(shown),
            CriticalEffect::Taken(_, what) => rolls.push(format!("{shown} critical ({what})")),
            CriticalEffect::Sinks(cause) => {
                rolls.push(format!("{shown} critical"));
                log_markers(state, &name, n, &rolls);
                sink(state, &name, &cause);
                return;
            }
        }
    }
    if hits > 0 {
        log_markers(state, &name, hits, &rolls);
    }
}

fn log_markers(state: &mut NavalState, name: &str, n: u32, rolls: &[String]) {
    let s = if n == 1 { "" } else { "s" };
    let r = if rolls.len() == 1 { "roll" } else { "rolls" };
    log(
        state,
        format!(
            "{name} takes {n} hit marker{s}; critical {r} {}.",
            rolls.join(", ")
        ),
    );
}

/// Takes a ship out of the fight (sunk or struck): she leaves her line or flotilla, drops any duty,
/// and if she flew the flag it passes to the second-in-command (flagship_lost: −1 CP for good).
pub(crate) fn retire(state: &mut NavalState, idx: usize) {
    let name = state.ships[idx].name.clone();
    let side = state.ships[idx].side.clone();
    {
        let ship = &mut state.ships[idx];
        ship.rescue = None;
        ship.capturing = None;
        ship.smoke = false;
    }
    for g in &mut state.groups {
        g.ships.retain(|s| *s != name);
    }
    state.groups.retain(|g| !g.ships.is_empty());
    pass_flag(state, &side, &name, true);
}

/// If `name` flew the flag, it passes to the second-in-command; `lost` (sunk or struck, not
/// escaped, R59) also costs the fleet 1 CP for good.
pub(crate) fn pass_flag(state: &mut NavalState, side: &str, name: &str, lost: bool) {
    let side = side.to_string();
    let name = name.to_string();
    let mut lines = Vec::new();
    let afloat = |state: &NavalState, n: &str| {
        stats::find_ship(state, n).is_some_and(|s| s.fate == Fate::Afloat)
    };
    let (flagship, second) = match stats::fleet(state, &side) {
        Some(f) => (f.flagship.clone(), f.second.clone()),
        None => return,
    };
    if flagship.as_deref() == Some(name.as_str()) {
        let heir = second.filter(|s| afloat(state, s));
        match &heir {
            Some(h) => lines.push(format!("The flag passes from {name} to {h}.")),
            None => lines.push(format!(
                "{name} flew the flag and there is no second-in-command: the fleet has no flagship."
            )),
        }
        if let Some(f) = stats::fleet_mut(state, &side) {
            f.flagship_lost |= lost;
            f.flagship = heir;
            f.second = None;
        }
    } else if second.as_deref() == Some(name.as_str()) {
        if let Some(f) = stats::fleet_mut(state, &side) {
            f.second = None;
        }
        lines.push(format!(
            "{name} was second-in-command: the fleet has no second now."
        ));
    }
    for l in lines {
        log(state, l);
    }
}

/// Sinks a ship for `cause` (log text), passes the flag, and records a rescue obligation when
/// friendly afloat ships are within `rescue_radius` of the wreck (R28).
pub fn sink(state: &mut NavalState, ship: &str, cause: &str) {
    let Some(idx) = ship_index(state, ship) else {
        return;
    };
    if state.ships[idx].fate == Fate::Sunk {
        return;
    }
    let name = state.ships[idx].name.clone();
    let side = state.ships[idx].side.clone();
    state.ships[idx].fate = Fate::Sunk;
    state.ships[idx].hit_markers = 0;
    state.ships[idx].critical_marker = false;
    log(state, format!("{name} sinks: {cause}."));
    // A prize that sinks can no longer be taken.
    for s in &mut state.ships {
        if s.capturing.as_deref() == Some(name.as_str()) {
            s.capturing = None;
        }
    }
    retire(state, idx);
    let radius = state.data.rules.rescue_radius.get();
    let wreck = state.ships[idx].hull;
    let near = state
        .ships
        .iter()
        .any(|s| s.side == side && s.fate == Fate::Afloat && hull_range(&s.hull, &wreck) <= radius);
    if near {
        if let Some(f) = stats::fleet_mut(state, &side) {
            f.rescue_owed.push(name.clone());
        }
        log(
            state,
            format!(
                "Friendly ships are within {}\" of {name}: one must be sent to rescue her survivors.",
                num(radius)
            ),
        );
    }
}

/// A mine attack's result from the two totals (R8): hits = the difference when the mines score
/// more; "double scores sink" = the mines' total is at least twice the ship's.
pub fn mine_result(mine_total: i32, ship_total: i32) -> (u32, bool) {
    let hits = (mine_total - ship_total).max(0) as u32;
    (hits, hits > 0 && mine_total >= 2 * ship_total)
}

/// Minesweeping (R27): the sweeper clears the field only by scoring more than the mines.
pub fn sweep_clears(sweeper_total: i32, mine_total: i32) -> bool {
    sweeper_total > mine_total
}

fn field_index(state: &NavalState, field_id: &str) -> Option<usize> {
    state
        .minefields
        .iter()
        .position(|m| m.id.eq_ignore_ascii_case(field_id))
}

/// A ship has moved into or across minefield `field_id` (R8). A dummy vanishes; a genuine field
/// attacks with `mine_cf` against the ship's `mine_cf`.
pub fn mine_attack(state: &mut NavalState, ship: &str, field_id: &str, dice: &mut Dice) {
    let cf = state.data.rules.mine_cf.get().round() as i32;
    mines_fire(state, ship, field_id, cf, dice);
}

fn mines_fire(state: &mut NavalState, ship: &str, field_id: &str, ship_cf: i32, dice: &mut Dice) {
    let (Some(idx), Some(f)) = (ship_index(state, ship), field_index(state, field_id)) else {
        return;
    };
    let name = state.ships[idx].name.clone();
    let field = state.minefields[f].id.clone();
    if !state.minefields[f].genuine {
        state.minefields.remove(f);
        log(
            state,
            format!("{name} crosses minefield {field}: it was a dummy and is removed."),
        );
        return;
    }
    if !state.minefields[f].laid_in_play {
        state.minefields[f].revealed = true;
    }
    let faces = Faces::d(state.data.gunnery_die);
    let mine_cf = state.data.rules.mine_cf.get().round() as i32;
    let md = dice.roll_one(format!("mines {field}->{name} mines"), faces.clone()) as i32;
    let sd = dice.roll_one(format!("mines {field}->{name} ship"), faces) as i32;
    let (mt, st) = (md + mine_cf, sd + ship_cf);
    let (hits, sinks) = mine_result(mt, st);
    let head =
        format!("Minefield {field} ({md}+{mine_cf}={mt}) attacks {name} ({sd}+{ship_cf}={st})");
    if hits == 0 {
        log(state, format!("{head}: no effect."));
        return;
    }
    let s = if hits == 1 { "" } else { "s" };
    log(state, format!("{head}: {hits} hit{s}; {name} is crippled."));
    let ship = &mut state.ships[idx];
    ship.hit_markers += hits;
    ship.mine_crippled = true;
    if sinks {
        sink(state, &name, "the mines score double");
    }
}

/// A minesweeper attacks field `field_id` (R27): `sweeper_cf` against `mine_cf`. Higher clears the
/// field; otherwise the mines attack her, she defending with `sweeper_cf`. A dummy is simply removed.
pub fn sweep(state: &mut NavalState, sweeper: &str, field_id: &str, dice: &mut Dice) {
    let (Some(idx), Some(f)) = (ship_index(state, sweeper), field_index(state, field_id)) else {
        return;
    };
    let name = state.ships[idx].name.clone();
    let field = state.minefields[f].id.clone();
    if !state.minefields[f].genuine {
        state.minefields.remove(f);
        log(
            state,
            format!("{name} sweeps minefield {field}: it was a dummy and is removed."),
        );
        return;
    }
    let faces = Faces::d(state.data.gunnery_die);
    let sweeper_cf = state.data.rules.sweeper_cf.get().round() as i32;
    let mine_cf = state.data.rules.mine_cf.get().round() as i32;
    let sd = dice.roll_one(format!("sweep {name}->{field} sweeper"), faces.clone()) as i32;
    let md = dice.roll_one(format!("sweep {name}->{field} mines"), faces) as i32;
    let (st, mt) = (sd + sweeper_cf, md + mine_cf);
    let head =
        format!("{name} ({sd}+{sweeper_cf}={st}) sweeps minefield {field} ({md}+{mine_cf}={mt})");
    if sweep_clears(st, mt) {
        state.minefields.remove(f);
        log(state, format!("{head}: the field is cleared."));
    } else {
        log(
            state,
            format!("{head}: she fails, and the mines attack her."),
        );
        mines_fire(state, &name, &field, sweeper_cf, dice);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::tabletop::Pt;
    use crate::rulesets::naval_rjw::state::Minefield;
    use crate::rulesets::naval_rjw::stats::test_support::{ship, two_sides};
    use crate::rulesets::naval_rjw::stats::{find_ship, is_crippled, is_lost};

    fn st() -> NavalState {
        let j = [
            ship("Mikasa", "BB", 10.0, 10.0, 90.0),
            ship("Asahi", "BB", 10.0, 14.0, 90.0),
            ship("Chitose", "CL", 10.0, 40.0, 90.0),
            ship("Akatsuki", "DD", 30.0, 40.0, 90.0),
        ]
        .concat();
        let r = [
            ship("Tsesarevich", "BB", 60.0, 10.0, 270.0),
            ship("Retvizan", "BB", 60.0, 14.0, 270.0),
        ]
        .concat();
        two_sides(&j, &r, "")
    }

    fn idx(s: &NavalState, n: &str) -> usize {
        ship_index(s, n).unwrap()
    }

    #[test]
    fn critical_table() {
        assert_eq!(critical_from_dice(1, 1), Some(Critical::Movement));
        assert_eq!(critical_from_dice(2, 2), Some(Critical::Movement));
        assert_eq!(critical_from_dice(3, 3), Some(Critical::Gunnery));
        assert_eq!(critical_from_dice(4, 4), Some(Critical::Gunnery));
        assert_eq!(critical_from_dice(5, 5), Some(Critical::Control));
        assert_eq!(critical_from_dice(6, 6), Some(Critical::Magazine));
        assert_eq!(critical_from_dice(2, 5), None);
    }

    #[test]
    fn dt7_critical_rolls() {
        let mut s = st();
        let m = idx(&s, "Mikasa");
        // 3-3: Gunnery, CF 4 → 3.
        assert_eq!(
            critical_effect(&mut s, m, 3, 3),
            CriticalEffect::Taken(Critical::Gunnery, "Gunnery: CF now 3".into())
        );
        assert_eq!(main_cf(&s, &s.ships[m]), 3);
        assert!(s.ships[m].critical_marker);
        // 2-5: nothing.
        let a = idx(&s, "Asahi");
        assert_eq!(critical_effect(&mut s, a, 2, 5), CriticalEffect::None);
        assert!(s.ships[a].criticals.is_empty() && !s.ships[a].critical_marker);
        // 6-6: the magazine.
        assert!(matches!(
            critical_effect(&mut s, a, 6, 6),
            CriticalEffect::Sinks(_)
        ));
        // A DD rolling 1-1 sinks.
        let d = idx(&s, "Akatsuki");
        assert!(matches!(
            critical_effect(&mut s, d, 1, 1),
            CriticalEffect::Sinks(_)
        ));
    }

    #[test]
    fn dt8_sinking_from_criticals() {
        let mut s = st();
        let c = idx(&s, "Chitose");
        assert!(matches!(
            critical_effect(&mut s, c, 1, 1),
            CriticalEffect::Taken(..)
        ));
        assert!(matches!(
            critical_effect(&mut s, c, 2, 2),
            CriticalEffect::Taken(..)
        ));
        assert_eq!(max_speed(&s, &s.ships[c]), 2.0);
        assert!(matches!(
            critical_effect(&mut s, c, 1, 1),
            CriticalEffect::Sinks(_)
        ));
        // CF 1 (a CL with a Gunnery critical already) takes another: CF 0 sinks.
        let mut s = st();
        s.ships[c].criticals.push(Critical::Gunnery);
        assert_eq!(main_cf(&s, &s.ships[c]), 1);
        assert!(matches!(
            critical_effect(&mut s, c, 4, 4),
            CriticalEffect::Sinks(_)
        ));
    }

    #[test]
    fn apply_hits_rolls_one_2d6_per_hit() {
        let mut seen_critical = false;
        for seed in 0..60u8 {
            let mut s = st();
            let mut dice = Dice::new([seed; 32]);
            apply_hits(&mut s, "Tsesarevich", 3, &mut dice);
            let t = dice.table();
            assert_eq!(t[0].label, "critical Tsesarevich hit 1");
            assert!(
                t.iter()
                    .all(|r| r.results.len() == 2 && r.faces == Faces::d(6))
            );
            // Replay the table through the critical table: a BB of speed 5, CF 4.
            let (mut markers, mut crits, mut sunk) = (0, vec![], false);
            for r in t {
                markers += 1;
                match critical_from_dice(r.results[0], r.results[1]) {
                    Some(Critical::Magazine) => sunk = true,
                    Some(c) => crits.push(c),
                    None => {}
                }
                let moves = crits.iter().filter(|c| **c == Critical::Movement).count();
                let guns = crits.iter().filter(|c| **c == Critical::Gunnery).count();
                sunk |= moves >= 3 || guns >= 4;
            }
            let ts = find_ship(&s, "Tsesarevich").unwrap();
            assert_eq!(t.len(), if sunk { t.len() } else { 3 });
            assert_eq!(ts.fate == Fate::Sunk, sunk);
            if !sunk {
                assert_eq!(ts.hit_markers, markers);
                assert_eq!(ts.critical_marker, !crits.is_empty());
            }
            assert_eq!(ts.criticals, crits);
            seen_critical |= !crits.is_empty();
        }
        assert!(seen_critical);
    }

    #[test]
    fn sinking_the_flagship_passes_the_flag_and_owes_rescue() {
        let mut s = st();
        sink(&mut s, "Mikasa", "test");
        let f = stats::fleet(&s, "japan").unwrap();
        assert_eq!(f.flagship.as_deref(), Some("Asahi"));
        assert!(f.flagship_lost && f.second.is_none());
        assert_eq!(f.rescue_owed, vec!["Mikasa".to_string()]);
        sink(&mut s, "Asahi", "test");
        let f = stats::fleet(&s, "japan").unwrap();
        assert_eq!(f.flagship, None);
        // Nobody within 12" of Asahi's wreck at (10,14)? Mikasa is sunk; Chitose is 26" off.
        assert_eq!(f.rescue_owed, vec!["Mikasa".to_string()]);
        assert_eq!(find_ship(&s, "Asahi").unwrap().fate, Fate::Sunk);
    }

    #[test]
    fn dt10_mines() {
        assert_eq!(mine_result(5 + 2, 2 + 2), (3, false));
        assert_eq!(mine_result(6 + 2, 2 + 2), (4, true));
        assert_eq!(mine_result(3, 3), (0, false));
        // The sweeper case: 3+4 = 7 vs 6+2 = 8 fails (the sweeper needs more).
        assert!(!sweep_clears(3 + 4, 6 + 2));
        assert!(sweep_clears(4 + 4, 5 + 2));
        let mut s = st();
        s.minefields.push(Minefield {
            id: "M1".into(),
            owner: "russia".into(),
            centre: Pt::new(20.0, 10.0),
            heading: 0.0,
            genuine: false,
            laid_in_play: false,
            revealed: false,
        });
        let mut dice = Dice::new([1; 32]);
        mine_attack(&mut s, "Mikasa", "m1", &mut dice);
        assert!(s.minefields.is_empty() && dice.table().is_empty());
        s.minefields.push(Minefield {
            id: "M2".into(),
            owner: "russia".into(),
            centre: Pt::new(20.0, 10.0),
            heading: 0.0,
            genuine: true,
            laid_in_play: false,
            revealed: false,
        });
        mine_attack(&mut s, "Mikasa", "M2", &mut dice);
        let t = dice.table();
        assert_eq!(t[0].label, "mines M2->Mikasa mines");
        let (hits, sinks) = mine_result(t[0].results[0] as i32 + 2, t[1].results[0] as i32 + 2);
        let m = find_ship(&s, "Mikasa").unwrap();
        assert_eq!(m.mine_crippled, hits > 0);
        assert_eq!(is_crippled(m), hits > 0);
        assert_eq!(m.fate == Fate::Sunk, sinks);
        assert!(s.minefields[0].revealed);
        if !sinks {
            assert_eq!(m.hit_markers, hits);
            assert!(m.criticals.is_empty(), "mine hits roll no criticals");
        }
        assert_eq!(is_lost(m), hits > 0);
    }

    #[test]
    fn sweeping() {
        let mut s = st();
        s.minefields.push(Minefield {
            id: "M3".into(),
            owner: "russia".into(),
            centre: Pt::new(20.0, 10.0),
            heading: 0.0,
            genuine: true,
            laid_in_play: true,
            revealed: false,
        });
        // Try seeds until both outcomes have been seen, checking each against the dice.
        let (mut cleared, mut failed) = (false, false);
        for seed in 0..40u8 {
            let mut s = s.clone();
            let mut dice = Dice::new([seed; 32]);
            sweep(&mut s, "Chitose", "M3", &mut dice);
            let t = dice.table();
            let (sw, mi) = (t[0].results[0] + 4, t[1].results[0] + 2);
            if sw > mi {
                cleared = true;
                assert!(s.minefields.is_empty() && t.len() == 2);
            } else {
                failed = true;
                assert_eq!(s.minefields.len(), 1);
                assert_eq!(t.len(), 4);
                assert_eq!(t[2].label, "mines M3->Chitose mines");
                // The mines attack her while she keeps CF 4.
                let (hits, _) = mine_result(t[2].results[0] as i32 + 2, t[3].results[0] as i32 + 4);
                let c = find_ship(&s, "Chitose").unwrap();
                assert_eq!(c.mine_crippled, hits > 0);
            }
        }
        assert!(cleared && failed);
    }
}
