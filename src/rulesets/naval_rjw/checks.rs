//! End-of-phase and end-of-turn checks: striking colours (R10) and victory (R9). Reads positions
//! and damage only; moves nothing and rolls no dice.

use crate::board::tabletop::hull_range;
use crate::engine::{LogLine, Outcome};
use crate::rulesets::kit::roster::TwoSides;

use super::damage::retire;
use super::data::ShipClass;

use super::state::{Fate, NavalState, Ship};
use super::stats::{is_lost, is_undamaged, main_cf};

/// What the striking-colours test found for one ship (for logs and tests).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StrikeTest {
    pub ship: String,
    /// Combined main CF of undamaged enemy ships within `strike_enemy_radius`.
    pub enemy_cf: i32,
    pub own_cf: i32,
    pub friend_near: bool,
}

impl StrikeTest {
    pub fn strikes(&self, ratio: i32) -> bool {
        !self.friend_near && self.own_cf > 0 && self.enemy_cf >= ratio * self.own_cf
    }
}

/// The striking-colours test of one afloat ship against the state as it stands.
pub fn strike_test(state: &NavalState, ship: &Ship) -> StrikeTest {
    let d = &state.data;
    let (enemy_r, friend_r) = (
        d.rules.strike_enemy_radius.get(),
        d.rules.strike_friend_radius.get(),
    );
    let mut enemy_cf = 0;
    let mut friend_near = false;
    for other in &state.ships {
        if other.name == ship.name || other.fate != Fate::Afloat {
            continue;
        }
        let r = hull_range(&ship.hull, &other.hull);
        if other.side == ship.side {
            friend_near |= r <= friend_r;
        } else if r <= enemy_r && is_undamaged(other) {
            enemy_cf += main_cf(state, other);
        }
    }
    StrikeTest {
        ship: ship.name.clone(),
        enemy_cf,
        own_cf: main_cf(state, ship),
        friend_near,
    }
}

/// R10, at the end of each gunnery phase: every afloat ship with no friend within 12" whose
/// undamaged enemies within 6" muster three times her CF strikes her colours. Ships are tested
/// together; a ship that strikes no longer counts as a friend, so the test repeats until stable.
/// Returns the names of the ships that struck.
pub fn striking_colours(state: &mut NavalState) -> Vec<String> {
    let ratio = state.data.rules.strike_ratio.get().round() as i32;
    let mut struck = Vec::new();
    loop {
        let now: Vec<StrikeTest> = state
            .ships
            .iter()
            .filter(|s| s.fate == Fate::Afloat)
            .map(|s| strike_test(state, s))
            .filter(|t| t.strikes(ratio))
            .collect();
        if now.is_empty() {
            return struck;
        }
        for t in now {
            let Some(idx) = state.ships.iter().position(|s| s.name == t.ship) else {
                continue;
            };
            state.ships[idx].fate = Fate::Struck;
            state.log.push(LogLine::public(format!(
                "{} strikes her colours: undamaged enemies within {}\" muster CF {} against her CF {}, \
                 and no friend is within {}\".",
                t.ship,
                state.data.rules.strike_enemy_radius.get(),
                t.enemy_cf,
                t.own_cf,
                state.data.rules.strike_friend_radius.get(),
            )));
            retire(state, idx);
            struck.push(t.ship);
        }
    }
}

/// Losses of one side for R9: (lost BB+CA, BB+CA, lost all, all).
pub fn losses(state: &NavalState, side: &str) -> (u32, u32, u32, u32) {
    let mut t = (0, 0, 0, 0);
    for s in state.ships.iter().filter(|s| s.side == side) {
        let capital = matches!(s.class, ShipClass::BB | ShipClass::CA);
        let lost = is_lost(s);
        t.3 += 1;
        t.2 += lost as u32;
        if capital {
            t.1 += 1;
            t.0 += lost as u32;
        }
    }
    t
}

/// R9: a quarter of the BB+CA (pooled), or a quarter of the fleet, lost — and at least two ships.
pub fn defeated(state: &NavalState, side: &str) -> bool {
    let d = &state.data;
    let (frac, min) = (d.rules.victory_fraction.get(), d.rules.victory_min.get());
    let (lost_cap, cap, lost, all) = losses(state, side);
    // Compare in exact rationals where the fraction allows (¼ → lost × 4 ≥ count).
    let reaches = |l: u32, n: u32| n > 0 && l as f64 >= frac * n as f64 - 1e-9;
    (reaches(lost_cap, cap) || reaches(lost, all)) && lost as f64 >= min
}

/// R9's figures for the game-over mail: each fleet's losses against the defeat threshold,
/// and the weighted losses the turn limit compares.
pub fn victory_figures(state: &NavalState) -> Vec<String> {
    let d = &state.data.rules;
    let (frac, min) = (d.victory_fraction.get(), d.victory_min.get());
    // In the rules' words: "a quarter", not 0.25.
    let share = match (frac * 100.0).round() as u32 {
        25 => "a quarter".to_string(),
        50 => "half".to_string(),
        33 => "a third".to_string(),
        p => format!("{p} %"),
    };
    let mut out = vec![format!(
        "A fleet is defeated when it has lost {share} of its battleships and armoured \
         cruisers, or {share} of all its ships, and at least {min} ships (R9)."
    )];
    for f in &state.fleets {
        let (lost_cap, cap, lost, all) = losses(state, &f.side);
        out.push(format!(
            "{}: lost {lost_cap} of {cap} BB/CA and {lost} of {all} ships in all \
             (weighted losses {}){}.",
            f.name,
            weighted_losses(state, &f.side),
            if defeated(state, &f.side) {
                ": defeated"
            } else {
                ""
            }
        ));
    }
    out
}

/// R9 at the end of a player turn: `Some` when a fleet is defeated (both at once: a draw).
pub fn victory(state: &NavalState) -> Option<Outcome> {
    let sides: Vec<&str> = state.fleets.iter().map(|f| f.side.as_str()).collect();
    let beaten: Vec<&str> = sides
        .iter()
        .copied()
        .filter(|s| defeated(state, s))
        .collect();
    if beaten.is_empty() {
        return None;
    }
    if beaten.len() == sides.len() {
        return Some(Outcome {
            winners: vec![],
            summary: "Both fleets are defeated at once: the battle is a draw.".into(),
        });
    }
    let winners: Vec<String> = sides
        .iter()
        .filter(|s| !beaten.contains(s))
        .map(|s| s.to_string())
        .collect();
    let names: Vec<String> = beaten.iter().map(|s| state.side_name(s)).collect();
    let win_names: Vec<String> = winners.iter().map(|s| state.side_name(s)).collect();
    Some(Outcome {
        summary: format!(
            "{} is defeated: {} wins.",
            names.join(" and "),
            win_names.join(" and ")
        ),
        winners,
    })
}

/// Weighted losses for the turn-limit tie-break (R9): lost BB/CA count `lost_capital_weight`.
pub fn weighted_losses(state: &NavalState, side: &str) -> u32 {
    let w = state.data.rules.lost_capital_weight.get().round() as u32;
    state
        .ships
        .iter()
        .filter(|s| s.side == side && is_lost(s))
        .map(|s| {
            if matches!(s.class, ShipClass::BB | ShipClass::CA) {
                w
            } else {
                1
            }
        })
        .sum()
}

/// R9 at `max_turns` without a defeat: fewer weighted losses wins; equal is a draw.
pub fn turn_limit_outcome(state: &NavalState) -> Outcome {
    let scored: Vec<(String, u32)> = state
        .fleets
        .iter()
        .map(|f| (f.side.clone(), weighted_losses(state, &f.side)))
        .collect();
    let tally: Vec<String> = scored
        .iter()
        .map(|(s, w)| format!("{} {w}", state.side_name(s)))
        .collect();
    let best = scored.iter().map(|(_, w)| *w).min().unwrap_or(0);
    let winners: Vec<String> = scored
        .iter()
        .filter(|(_, w)| *w == best)
        .map(|(s, _)| s.clone())
        .collect();
    let head = format!(
        "The turn limit is reached. Losses (BB and CA count {}): {}.",
        state.data.rules.lost_capital_weight.get(),
        tally.join(", ")
    );
    if winners.len() == 1 {
        let w = state.side_name(&winners[0]);
        Outcome {
            winners,
            summary: format!("{head} {w} wins."),
        }
    } else {
        Outcome {
            winners: vec![],
            summary: format!("{head} The battle is a draw."),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::naval_rjw::state::Critical;
    use crate::rulesets::naval_rjw::stats::find_ship;
    use crate::rulesets::naval_rjw::stats::test_support::{ship, two_sides};

    /// DT-9: a Russian CL alone; Mikasa (CF 4) and Chitose (CF 2) within 6".
    fn dt9() -> NavalState {
        let j = [
            ship("Mikasa", "BB", 10.0, 10.0, 0.0),
            ship("Chitose", "CL", 20.0, 10.0, 0.0),
            ship("Asahi", "BB", 60.0, 40.0, 0.0),
        ]
        .concat();
        let r = [
            ship("Novik", "CL", 15.0, 10.0, 0.0),
            ship("Tsesarevich", "BB", 60.0, 10.0, 0.0),
        ]
        .concat();
        two_sides(&j, &r, "")
    }

    #[test]
    fn dt9_striking_colours() {
        let mut s = dt9();
        let t = strike_test(&s, find_ship(&s, "Novik").unwrap());
        assert_eq!((t.enemy_cf, t.own_cf, t.friend_near), (6, 2, false));
        assert_eq!(striking_colours(&mut s), vec!["Novik".to_string()]);
        assert_eq!(find_ship(&s, "Novik").unwrap().fate, Fate::Struck);
        assert!(s.log[0].text.starts_with("Novik strikes her colours"));
        // Struck ships count as lost.
        assert_eq!(losses(&s, "russia"), (0, 1, 1, 2));

        // One of the Japanese ships carries a hit marker: 4 < 6, no strike.
        let mut s = dt9();
        s.ships[1].hit_markers = 1;
        assert_eq!(strike_test(&s, &s.ships[3]).enemy_cf, 4);
        assert!(striking_colours(&mut s).is_empty());
        let mut s = dt9();
        s.ships[0].criticals.push(Critical::Control);
        assert!(striking_colours(&mut s).is_empty());

        // A friend within 12" prevents it.
        let mut s = dt9();
        s.ships[4].hull.centre.x = 26.0;
        assert!(striking_colours(&mut s).is_empty());
    }

    /// DT-11's fleet: 3 BB, 2 CA, 4 CL, 6 DD.
    fn dt11() -> NavalState {
        let mut j = String::new();
        let classes = [("BB", 3), ("CA", 2), ("CL", 4), ("DD", 6)];
        let mut n = 0;
        for (c, k) in classes {
            for _ in 0..k {
                let name = if n == 0 {
                    "Mikasa".to_string()
                } else {
                    format!("J{n}")
                };
                j.push_str(&ship(&name, c, 5.0 + 3.0 * n as f64, 5.0, 0.0));
                n += 1;
            }
        }
        let r = [
            ship("Tsesarevich", "BB", 10.0, 40.0, 180.0),
            ship("Retvizan", "BB", 20.0, 40.0, 180.0),
        ]
        .concat();
        two_sides(&j, &r, "")
    }

    #[test]
    fn dt11_victory() {
        let mut s = dt11();
        assert!(!defeated(&s, "japan") && victory(&s).is_none());
        s.ships[0].fate = Fate::Sunk;
        assert_eq!(losses(&s, "japan"), (1, 5, 1, 15));
        assert!(!defeated(&s, "japan"));
        // Two BBs crippled (one sunk, one with a critical): 2 of 5 capital ships.
        s.ships[1].criticals.push(Critical::Movement);
        assert!(defeated(&s, "japan"));
        let o = victory(&s).unwrap();
        assert_eq!(o.winners, vec!["russia".to_string()]);
        assert_eq!(o.summary, "Japan is defeated: Russia wins.");
        // Whole fleet: 4 small ships lost of 15 (3.75) is enough; 3 is not.
        let mut s = dt11();
        for i in 5..8 {
            s.ships[i].fate = Fate::Sunk;
        }
        assert!(!defeated(&s, "japan"));
        s.ships[8].mine_crippled = true;
        assert!(defeated(&s, "japan"));
        // Escaped ships are not lost.
        s.ships[8].mine_crippled = false;
        s.ships[9].fate = Fate::Escaped;
        assert!(!defeated(&s, "japan"));
    }

    #[test]
    fn both_defeated_is_a_draw_and_minimum_two() {
        let mut s = dt11();
        // Russia: 2 BBs; one lost is a half, but below the minimum of 2.
        s.ships[15].fate = Fate::Sunk;
        assert!(!defeated(&s, "russia"));
        s.ships[16].fate = Fate::Struck;
        assert!(defeated(&s, "russia"));
        s.ships[0].fate = Fate::Sunk;
        s.ships[1].fate = Fate::Sunk;
        let o = victory(&s).unwrap();
        assert!(o.winners.is_empty() && o.summary.contains("draw"));
    }

    #[test]
    fn turn_limit_tie_break() {
        let mut s = dt11();
        // Japan loses three DDs (3); Russia one BB (2): Russia wins.
        for i in 9..12 {
            s.ships[i].fate = Fate::Sunk;
        }
        s.ships[15].fate = Fate::Sunk;
        assert_eq!(weighted_losses(&s, "japan"), 3);
        assert_eq!(weighted_losses(&s, "russia"), 2);
        let o = turn_limit_outcome(&s);
        assert_eq!(o.winners, vec!["russia".to_string()]);
        assert!(o.summary.ends_with("Russia wins."), "{}", o.summary);
        // One Japanese DD back afloat: 2 against 2 is a draw.
        s.ships[9].fate = Fate::Afloat;
        let o = turn_limit_outcome(&s);
        assert!(
            o.winners.is_empty() && o.summary.ends_with("draw."),
            "{}",
            o.summary
        );
    }
}
