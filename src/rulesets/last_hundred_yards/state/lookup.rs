//! Look-ups on the state (units by name or hex, sides, the values a unit fights with) and
//! the log's writers. Reading and bookkeeping only: no rule is decided here.

use crate::board::hex::Hex;
use crate::engine::LogLine;

use super::super::data::Values;
use super::{Company, LhyState, Platoon, Side, Unit};

// Units by name, sides by id and the enemy of a side: the kit's look-ups.
crate::rulesets::kit::roster::roster_of!(LhyState, Side, Unit);

impl LhyState {
    pub fn platoon(&self, id: &str) -> Option<&Platoon> {
        self.platoons.iter().find(|p| p.id == id)
    }

    pub fn company(&self, id: &str) -> Option<&Company> {
        self.companies.iter().find(|c| c.id == id)
    }

    /// The printed values of a unit's counter.
    pub fn values(&self, u: &Unit) -> Values {
        self.data
            .class(&u.class)
            .map(|c| c.values.get())
            .unwrap_or_default()
    }

    /// Cohesion as it counts now: the campaign quality adds (R42), Heroic too and may pass the
    /// cap (§1.1, R14).
    pub fn cohesion(&self, u: &Unit) -> i32 {
        let quality = self
            .data
            .campaign
            .as_ref()
            .map_or(0, |c| c.drm(u.quality.as_deref()));
        let c = self.values(u).cohesion + quality;
        if u.heroic {
            c + self.data.rules.heroic_cohesion.int()
        } else {
            c.min(self.data.rules.cohesion_max.int())
        }
    }

    /// Units on the map, in stacking order.
    pub fn on_map(&self) -> impl Iterator<Item = &Unit> {
        self.units.iter().filter(|u| u.on_map())
    }

    /// Units of `side` in hex `h`, top-most first (the latest arrival on top).
    pub fn stack(&self, h: Hex, side: &str) -> Vec<&Unit> {
        let mut v: Vec<&Unit> = self
            .on_map()
            .filter(|u| u.at == h && u.side == side)
            .collect();
        v.sort_by_key(|u| std::cmp::Reverse(u.arrived));
        v
    }

    /// Real (non-dummy) units of `side` in the hex.
    pub fn occupied_by(&self, h: Hex, side: &str) -> bool {
        self.on_map()
            .any(|u| u.at == h && u.side == side && !u.dummy())
    }

    pub fn name_of(&self, h: Hex) -> String {
        self.map.label(h)
    }

    pub fn push(&mut self, line: LogLine) {
        self.log.push(line);
    }

    pub fn public(&mut self, text: impl Into<String>) {
        self.log.push(LogLine::public(text));
    }

    pub fn private(&mut self, side: &str, text: impl Into<String>) {
        self.log.push(LogLine::private(side, text));
    }

    /// The enemy's version of an event of `side`'s (a marker placed, a loss told by its hex):
    /// every side but `side` reads it, and so does a spectator, since it is what every seat
    /// may see (`side` reads its own, fuller line). Only for lines that are the same to every
    /// enemy; a line shaped by one enemy's own sight (a move) is not this.
    pub fn to_enemies(&mut self, side: &str, text: impl Into<String>) {
        let others: Vec<String> = self
            .sides
            .iter()
            .filter(|x| x.id != side)
            .map(|x| x.id.clone())
            .collect();
        self.log.push(LogLine {
            text: text.into(),
            only: Some(others),
            spectators: true,
        });
    }

    pub fn next_serial(&mut self) -> u32 {
        self.serial += 1;
        self.serial
    }
}
