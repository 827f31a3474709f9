//! Hexsides and vertices: the side two adjacent hexes share and the corner three share, each
//! the same value whichever hex it is asked from. Geometry only.

use serde::{Deserialize, Serialize};

use super::Hex;

/// The side shared by two adjacent hexes; the same value whichever hex it is asked from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "[Hex; 2]", into = "[Hex; 2]")]
pub struct Hexside {
    pub(super) a: Hex,
    pub(super) b: Hex,
}

impl Hexside {
    /// The side between `x` and `y`, or `None` when they are not adjacent.
    pub fn between(x: Hex, y: Hex) -> Option<Hexside> {
        if !x.is_adjacent(y) {
            return None;
        }
        let (a, b) = if x < y { (x, y) } else { (y, x) };
        Some(Hexside { a, b })
    }

    /// The two hexes, in canonical (axial) order.
    pub fn hexes(self) -> (Hex, Hex) {
        (self.a, self.b)
    }

    pub fn touches(self, h: Hex) -> bool {
        self.a == h || self.b == h
    }

    /// The hex across this side from `h`, if `h` is one of its two.
    pub fn other(self, h: Hex) -> Option<Hex> {
        if h == self.a {
            Some(self.b)
        } else if h == self.b {
            Some(self.a)
        } else {
            None
        }
    }

    /// The two corners at the ends of this side.
    pub fn vertices(self) -> [Vertex; 2] {
        // The two hexes next to both are the step a→b turned 60° either way (cube rotation).
        let (dq, dr) = (self.b.q - self.a.q, self.b.r - self.a.r);
        let ds = -dq - dr;
        let left = Vertex::sorted([self.a, self.b, self.a.plus((-dr, -ds))]);
        let right = Vertex::sorted([self.a, self.b, self.a.plus((-ds, -dq))]);
        if left <= right {
            [left, right]
        } else {
            [right, left]
        }
    }
}

impl TryFrom<[Hex; 2]> for Hexside {
    type Error = String;

    fn try_from([x, y]: [Hex; 2]) -> Result<Self, Self::Error> {
        Hexside::between(x, y).ok_or_else(|| format!("{x:?} and {y:?} are not adjacent"))
    }
}

impl From<Hexside> for [Hex; 2] {
    fn from(s: Hexside) -> [Hex; 2] {
        [s.a, s.b]
    }
}

/// A corner shared by three mutually adjacent hexes; the same value from any of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "[Hex; 3]", into = "[Hex; 3]")]
pub struct Vertex {
    pub(super) hexes: [Hex; 3],
}

impl Vertex {
    /// The corner where `a`, `b` and `c` meet, or `None` when they do not share one.
    pub fn of(a: Hex, b: Hex, c: Hex) -> Option<Vertex> {
        if a.is_adjacent(b) && b.is_adjacent(c) && c.is_adjacent(a) {
            Some(Vertex::sorted([a, b, c]))
        } else {
            None
        }
    }

    pub(super) fn sorted(mut hexes: [Hex; 3]) -> Vertex {
        hexes.sort();
        Vertex { hexes }
    }

    /// The three hexes, in canonical (axial) order.
    pub fn hexes(self) -> [Hex; 3] {
        self.hexes
    }

    pub fn touches(self, h: Hex) -> bool {
        self.hexes.contains(&h)
    }

    /// The three sides that meet at this corner.
    pub fn hexsides(self) -> [Hexside; 3] {
        let [a, b, c] = self.hexes;
        // Sorted input keeps each pair in canonical order.
        [
            Hexside { a, b },
            Hexside { a, b: c },
            Hexside { a: b, b: c },
        ]
    }
}

impl TryFrom<[Hex; 3]> for Vertex {
    type Error = String;

    fn try_from([a, b, c]: [Hex; 3]) -> Result<Self, Self::Error> {
        Vertex::of(a, b, c).ok_or_else(|| format!("{a:?}, {b:?}, {c:?} share no corner"))
    }
}

impl From<Vertex> for [Hex; 3] {
    fn from(v: Vertex) -> [Hex; 3] {
        v.hexes
    }
}

impl Hexside {
    pub(super) fn sorted(x: Hex, y: Hex) -> Hexside {
        let (a, b) = if x < y { (x, y) } else { (y, x) };
        Hexside { a, b }
    }
}
