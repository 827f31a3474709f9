//! Every die of the game goes through a `Roller`: the dice protocol's `Dice` in play, a
//! `Scripted` roller in the golden tests (which also checks the labels). Morale-style checks
//! (2d6 + modifiers against a rating) are read here. No game rule beyond reading a roll.

use std::collections::VecDeque;

use crate::dice::{Dice, Faces};

/// A source of dice, labelled in the game's words.
pub trait Roller {
    fn roll(&mut self, label: String, sides: u32, count: usize) -> Vec<u32>;
}

impl Roller for Dice {
    fn roll(&mut self, label: String, sides: u32, count: usize) -> Vec<u32> {
        Dice::roll(self, label, Faces::d(sides), count)
    }
}

/// Dice chosen in advance (golden tests): faces in order; every request is recorded with its
/// label. Running out is a test's mistake, reported with the label that wanted a die.
#[derive(Debug, Clone, Default)]
pub struct Scripted {
    pub faces: VecDeque<u32>,
    pub rolled: Vec<(String, Vec<u32>)>,
}

impl Scripted {
    pub fn new(faces: &[u32]) -> Self {
        Scripted {
            faces: faces.iter().copied().collect(),
            rolled: Vec::new(),
        }
    }

    /// The labels rolled so far.
    pub fn labels(&self) -> Vec<String> {
        self.rolled.iter().map(|r| r.0.clone()).collect()
    }
}

impl Roller for Scripted {
    fn roll(&mut self, label: String, sides: u32, count: usize) -> Vec<u32> {
        let mut out = Vec::new();
        for _ in 0..count {
            let f = self
                .faces
                .pop_front()
                .unwrap_or_else(|| panic!("scripted dice ran out at `{label}`"));
            assert!(
                (1..=sides).contains(&f),
                "scripted {f} is not a d{sides} face ({label})"
            );
            out.push(f);
        }
        self.rolled.push((label, out.clone()));
        out
    }
}

/// A check of `dice` d6 + modifiers against a rating: passes when the total is at most it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    pub dice: Vec<u32>,
    pub modifier: i32,
    pub total: i32,
    pub rating: i32,
    pub pass: bool,
}

impl Check {
    /// `rolled 3+4 = 7, +2 = 9 against 8: fails`.
    pub fn show(&self) -> String {
        let faces: Vec<String> = self.dice.iter().map(u32::to_string).collect();
        let sum: u32 = self.dice.iter().sum();
        let m = if self.modifier == 0 {
            String::new()
        } else {
            format!(", {:+} = {}", self.modifier, self.total)
        };
        format!(
            "rolled {} = {sum}{m} against {}: {}",
            faces.join("+"),
            self.rating,
            if self.pass { "passes" } else { "fails" }
        )
    }
}

/// Rolls `n` d6 under `label` and reads them against `rating` with `modifiers` (R2).
pub fn check(r: &mut dyn Roller, label: String, n: u32, rating: i32, modifiers: i32) -> Check {
    let dice = r.roll(label, 6, n.max(1) as usize);
    read_check(&dice, rating, modifiers)
}

pub fn read_check(dice: &[u32], rating: i32, modifier: i32) -> Check {
    let total = dice.iter().sum::<u32>() as i32 + modifier;
    Check {
        dice: dice.to_vec(),
        modifier,
        total,
        rating,
        pass: total <= rating,
    }
}

/// Modifiers as the log shows them: `+2 distance 3, -1 column`.
pub fn show_modifiers(mods: &[(i32, String)]) -> String {
    let parts: Vec<String> = mods
        .iter()
        .filter(|(v, _)| *v != 0)
        .map(|(v, why)| format!("{v:+} {why}"))
        .collect();
    if parts.is_empty() {
        "no modifiers".into()
    } else {
        parts.join(", ")
    }
}

pub fn sum(mods: &[(i32, String)]) -> i32 {
    mods.iter().map(|m| m.0).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_check_passes_at_or_under_the_rating() {
        let c = read_check(&[3, 4], 8, 1);
        assert!(c.pass);
        assert_eq!(c.show(), "rolled 3+4 = 7, +1 = 8 against 8: passes");
        assert!(!read_check(&[5, 4], 8, 0).pass);
        let mut s = Scripted::new(&[2, 6]);
        let c = check(&mut s, "test".into(), 2, 8, 0);
        assert_eq!(c.total, 8);
        assert_eq!(s.labels(), vec!["test"]);
    }
}
