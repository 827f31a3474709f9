//! The exact line between two hex centres, as the hexes, hexsides and corners it meets, in
//! integer arithmetic (no rounding decides a line of sight). Geometry only.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::{Hex, Hexside, Vertex};

/// What a line between hex centres passes through, in order from its start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum LineStep {
    /// Through the inside of this hex (the start and end hexes included).
    Hex(Hex),
    /// Exactly along this side, touching both its hexes but the inside of neither.
    Hexside(Hexside),
    /// Exactly through this corner. The corner's third hex, the one neither left nor entered
    /// (if any), is touched only at this point.
    Vertex(Vertex),
}

/// The line from one hex centre to another, as the ordered hexes, hexsides and vertices it meets.
///
/// Every point of the line lies in exactly one step: a hex's inside, a hexside (without its end
/// corners) or a corner. Crossing a hexside from one hex into its neighbour at a point other than
/// a corner is not a step of its own: it is two consecutive `Hex` steps (see
/// [`HexLine::hexsides_crossed`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HexLine {
    pub from: Hex,
    pub to: Hex,
    pub steps: Vec<LineStep>,
}

impl HexLine {
    /// Hexes whose inside the line passes through, in order, both ends included.
    pub fn hexes(&self) -> impl Iterator<Item = Hex> + '_ {
        self.steps.iter().filter_map(|s| match s {
            LineStep::Hex(h) => Some(*h),
            _ => None,
        })
    }

    /// The steps between the start and end hexes (empty when they are the same or adjacent
    /// and the line simply crosses their common side).
    pub fn intervening(&self) -> &[LineStep] {
        if self.steps.len() < 2 {
            return &[];
        }
        &self.steps[1..self.steps.len() - 1]
    }

    /// Sides the line runs exactly along.
    pub fn hexsides_along(&self) -> impl Iterator<Item = Hexside> + '_ {
        self.steps.iter().filter_map(|s| match s {
            LineStep::Hexside(x) => Some(*x),
            _ => None,
        })
    }

    /// Corners the line passes exactly through.
    pub fn vertices(&self) -> impl Iterator<Item = Vertex> + '_ {
        self.steps.iter().filter_map(|s| match s {
            LineStep::Vertex(v) => Some(*v),
            _ => None,
        })
    }

    /// Sides the line crosses from one hex into the next away from any corner.
    pub fn hexsides_crossed(&self) -> Vec<Hexside> {
        self.steps
            .windows(2)
            .filter_map(|w| match (w[0], w[1]) {
                (LineStep::Hex(a), LineStep::Hex(b)) => Hexside::between(a, b),
                _ => None,
            })
            .collect()
    }

    /// Does the line run along a hexside or through a corner anywhere?
    pub fn is_exceptional(&self) -> bool {
        self.steps.iter().any(|s| !matches!(s, LineStep::Hex(_)))
    }
}

// ---- Exact line arithmetic -------------------------------------------------------------------
//
// Lines are traced in an integer lattice ("E-space") that is an affine image of the printed
// sheet: hex (q, r) has its centre at (3q, 2r + q) and its corners at centre + (±2, 0), (±1, ±1).
// Incidence (which hex, side or corner a point lies in) survives affine maps, and both printed
// orientations are rotations of one another, so one exact computation serves every grid.

/// Axial step to the neighbour across E-space edge k (edge k runs from corner k to corner k+1).
pub(super) const EDGE_NEIGHBOUR: [(i32, i32); 6] =
    [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)];
/// Outward normal and offset of edge k: inside the hex, normal · (p - centre) <= offset.
pub(super) const EDGE_NORMAL: [(i64, i64); 6] =
    [(1, 1), (0, 1), (-1, 1), (-1, -1), (0, -1), (1, -1)];
pub(super) const EDGE_OFFSET: [i64; 6] = [2, 1, 2, 2, 1, 2];

pub(super) fn e_point(h: Hex) -> (i64, i64) {
    let (q, r) = (i64::from(h.q), i64::from(h.r));
    (3 * q, 2 * r + q)
}

/// A parameter along the line, num/den with den > 0.
#[derive(Debug, Clone, Copy)]
struct Frac {
    num: i128,
    den: i128,
}

impl Frac {
    fn new(num: i128, den: i128) -> Frac {
        if den < 0 {
            Frac {
                num: -num,
                den: -den,
            }
        } else {
            Frac { num, den }
        }
    }
}

impl PartialEq for Frac {
    fn eq(&self, o: &Self) -> bool {
        self.num * o.den == o.num * self.den
    }
}
impl Eq for Frac {}
impl PartialOrd for Frac {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Frac {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        (self.num * o.den).cmp(&(o.num * self.den))
    }
}

/// How the segment meets one closed hex.
enum Contact {
    Inside,
    Along(usize),
    Point,
}

struct Clip {
    lo: Frac,
    hi: Frac,
    contact: Contact,
    /// Per edge: (alpha, beta), the edge holds while t·beta <= alpha.
    slack: [(i128, i128); 6],
}

impl Clip {
    /// Corner of this hex at parameter t, if t lands on one (two edges tight at once).
    fn corner_at(&self, h: Hex, t: Frac) -> Option<Vertex> {
        let tight = |k: usize| {
            let (alpha, beta) = self.slack[k];
            alpha * t.den == t.num * beta
        };
        (0..6).find(|&k| tight(k) && tight((k + 1) % 6)).map(|k| {
            Vertex::sorted([
                h,
                h.plus(EDGE_NEIGHBOUR[k]),
                h.plus(EDGE_NEIGHBOUR[(k + 1) % 6]),
            ])
        })
    }
}

/// Clip segment p0 + t·d, t in [0, 1], against the closed hex `h`.
fn clip(h: Hex, p0: (i64, i64), d: (i64, i64)) -> Option<Clip> {
    let c = e_point(h);
    let rel = (i128::from(p0.0 - c.0), i128::from(p0.1 - c.1));
    let (dx, dy) = (i128::from(d.0), i128::from(d.1));
    let mut lo = Frac::new(0, 1);
    let mut hi = Frac::new(1, 1);
    let mut slack = [(0i128, 0i128); 6];
    for k in 0..6 {
        let (nx, ny) = (i128::from(EDGE_NORMAL[k].0), i128::from(EDGE_NORMAL[k].1));
        let alpha = i128::from(EDGE_OFFSET[k]) - (nx * rel.0 + ny * rel.1);
        let beta = nx * dx + ny * dy;
        slack[k] = (alpha, beta);
        match beta.signum() {
            0 if alpha < 0 => return None,
            0 => {}
            1 => hi = hi.min(Frac::new(alpha, beta)),
            _ => lo = lo.max(Frac::new(alpha, beta)),
        }
    }
    if lo > hi {
        return None;
    }
    let contact = if lo == hi {
        Contact::Point
    } else if let Some(k) = (0..6).find(|&k| slack[k] == (0, 0)) {
        Contact::Along(k)
    } else {
        Contact::Inside
    };
    Some(Clip {
        lo,
        hi,
        contact,
        slack,
    })
}

/// Round the cube point num/den to a nearest hex, exactly.
fn cube_round_exact(num: [i128; 3], den: i128) -> Hex {
    let round = |n: i128| (2 * n + den).div_euclid(2 * den);
    let mut r = num.map(round);
    let err = [0, 1, 2].map(|i| (num[i] - r[i] * den).abs());
    if err[0] > err[1] && err[0] > err[2] {
        r[0] = -r[1] - r[2];
    } else if err[1] > err[2] {
        r[1] = -r[0] - r[2];
    }
    // The rounded point lies within a hex of the segment's integer ends.
    Hex::new(r[0] as i32, r[1] as i32)
}

/// The exact line from the centre of `from` to the centre of `to`: every hex whose inside it
/// crosses, every hexside it runs along and every vertex it passes through, in order.
pub fn line(from: Hex, to: Hex) -> HexLine {
    if from == to {
        return HexLine {
            from,
            to,
            steps: vec![LineStep::Hex(from)],
        };
    }
    let n = i128::from(from.distance(to));
    let a = [from.q, from.r, from.s()].map(i128::from);
    let b = [to.q, to.r, to.s()].map(i128::from);
    // Each sample is within 2/3 of a hex of every point of the segment near it, so the samples'
    // nearest hexes and their neighbours hold every hex the segment touches.
    let mut candidates = BTreeSet::new();
    for i in 0..=n {
        let num = [0, 1, 2].map(|k| a[k] * (n - i) + b[k] * i);
        let h = cube_round_exact(num, n);
        candidates.insert(h);
        candidates.extend(h.adjacent());
    }
    let p0 = e_point(from);
    let p1 = e_point(to);
    let d = (p1.0 - p0.0, p1.1 - p0.1);
    let mut items: Vec<(Frac, Frac, LineStep)> = Vec::new();
    for h in candidates {
        let Some(c) = clip(h, p0, d) else { continue };
        for t in [c.lo, c.hi] {
            if let Some(v) = c.corner_at(h, t) {
                items.push((t, t, LineStep::Vertex(v)));
            }
        }
        match c.contact {
            Contact::Inside => items.push((c.lo, c.hi, LineStep::Hex(h))),
            Contact::Along(k) => {
                let side = Hexside::sorted(h, h.plus(EDGE_NEIGHBOUR[k]));
                items.push((c.lo, c.hi, LineStep::Hexside(side)));
            }
            Contact::Point => {}
        }
    }
    items.sort_by(|x, y| x.0.cmp(&y.0).then(x.1.cmp(&y.1)));
    items.dedup_by(|x, y| x.2 == y.2);
    HexLine {
        from,
        to,
        steps: items.into_iter().map(|(_, _, s)| s).collect(),
    }
}
