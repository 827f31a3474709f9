//! The demo's dice convention (p.3): the highest die counts, each extra 6 adds one, all ones is
//! a fumble, modifiers come after and the total never drops below zero; opposed tests with
//! MoS/MoF and draws to the defender; threshold tests. Dice only through `crate::dice::Dice`.

use serde::{Deserialize, Serialize};

use crate::dice::{Dice, Faces};

/// One skill roll, read the Gear Krieg way.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkillRoll {
    pub dice: Vec<u32>,
    pub modifier: i32,
    /// Highest die + extra sixes + modifier, floored at 0 (0 on a fumble).
    pub total: i32,
    /// Every die shows 1: an automatic failure whatever the modifiers.
    pub fumble: bool,
}

/// The highest-die reading of `dice` before modifiers: the best die, +1 per extra 6.
pub fn highest_die(dice: &[u32]) -> i32 {
    let best = dice.iter().copied().max().unwrap_or(0) as i32;
    let sixes = dice.iter().filter(|&&d| d == 6).count() as i32;
    best + (sixes - 1).max(0)
}

/// All dice show 1 (and at least one die was rolled).
pub fn is_fumble(dice: &[u32]) -> bool {
    !dice.is_empty() && dice.iter().all(|&d| d == 1)
}

/// Reads a roll: highest die, extra sixes, modifiers, floor at zero; a fumble totals 0.
pub fn read(dice: &[u32], modifier: i32) -> SkillRoll {
    let fumble = is_fumble(dice);
    let total = if fumble {
        0
    } else {
        (highest_die(dice) + modifier).max(0)
    };
    SkillRoll {
        dice: dice.to_vec(),
        modifier,
        total,
        fumble,
    }
}

/// Rolls `n` d6 (at least one) under `label` and reads them.
pub fn roll(dice: &mut Dice, label: impl Into<String>, n: u32, modifier: i32) -> SkillRoll {
    let faces = dice.roll(label, Faces::d(6), n.max(1) as usize);
    read(&faces, modifier)
}

/// The outcome of an opposed test, seen from the attacker.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Opposed {
    /// The attacker wins: its total is higher and it did not fumble.
    pub success: bool,
    /// Margin of Success (attacker − defender) when the attacker wins, else 0.
    pub mos: i32,
    /// Margin of Failure (defender − attacker) when the attacker loses, else 0 (0 on a draw).
    pub mof: i32,
}

/// Opposed test (p.3): the higher total wins, a draw goes to the defender. A fumbling attacker
/// always fails; a fumbling defender counts as a total of 0 (R3).
pub fn opposed(attacker: &SkillRoll, defender: &SkillRoll) -> Opposed {
    let a = attacker.total;
    let d = if defender.fumble { 0 } else { defender.total };
    if !attacker.fumble && a > d {
        Opposed {
            success: true,
            mos: a - d,
            mof: 0,
        }
    } else {
        Opposed {
            success: false,
            mos: 0,
            mof: (d - a).max(0),
        }
    }
}

/// Threshold test (treacherous terrain, Pinned removal): passes with a total equal to or above
/// the threshold and no fumble (R4).
pub fn passes(roll: &SkillRoll, threshold: i32) -> bool {
    !roll.fumble && roll.total >= threshold
}

/// "[3, 5]" as the log prints dice.
pub fn show(r: &SkillRoll) -> String {
    let d: Vec<String> = r.dice.iter().map(u32::to_string).collect();
    let m = if r.modifier == 0 {
        String::new()
    } else {
        format!(" {:+}", r.modifier)
    };
    if r.fumble {
        format!("[{}]{m} = fumble", d.join(","))
    } else {
        format!("[{}]{m} = {}", d.join(","), r.total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn highest_die_convention() {
        assert_eq!(read(&[3, 5], 0).total, 5);
        assert_eq!(read(&[6, 2], 0).total, 6);
        assert_eq!(read(&[6, 6], 0).total, 7);
        assert_eq!(read(&[6, 6, 6], 0).total, 8);
        let f = read(&[1, 1], 10);
        assert!(f.fumble);
        assert_eq!(f.total, 0);
        assert_eq!(read(&[2, 1], -4).total, 0);
    }

    #[test]
    fn draws_go_to_the_defender() {
        let o = opposed(&read(&[6], 0), &read(&[6], 0));
        assert!(!o.success);
        assert_eq!(o.mos, 0);
        let o = opposed(&read(&[4, 5], 0), &read(&[2, 4], 0));
        assert!(o.success);
        assert_eq!(o.mos, 1);
        let o = opposed(&read(&[1, 1], 9), &read(&[1, 2], 0));
        assert!(!o.success, "a fumbling attacker always fails");
    }
}
