//! Label placement for crowded maps: each name goes to the nearest free spot around its unit
//! (with a leader line when it has to stand off), never over another label or hull, and never
//! over the last free spot of a small text that may move (a hex's number). Pure geometry in
//! picture pixels; it knows nothing of games.

/// An axis-aligned box in picture pixels (y down).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Bx {
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
}

impl Bx {
    pub fn new(x: f64, y: f64, w: f64, h: f64) -> Self {
        Self {
            x0: x,
            y0: y,
            x1: x + w,
            y1: y + h,
        }
    }

    pub fn overlaps(&self, o: &Bx, pad: f64) -> bool {
        self.x0 < o.x1 + pad && o.x0 < self.x1 + pad && self.y0 < o.y1 + pad && o.y0 < self.y1 + pad
    }

    fn inside(&self, outer: &Bx) -> bool {
        self.x0 >= outer.x0 && self.y0 >= outer.y0 && self.x1 <= outer.x1 && self.y1 <= outer.y1
    }

    fn contains(&self, p: P) -> bool {
        p.0 >= self.x0 && p.0 <= self.x1 && p.1 >= self.y0 && p.1 <= self.y1
    }

    /// The point of the box nearest to `p`.
    pub fn nearest(&self, p: P) -> P {
        (p.0.clamp(self.x0, self.x1), p.1.clamp(self.y0, self.y1))
    }

    fn corners(&self) -> [P; 4] {
        [
            (self.x0, self.y0),
            (self.x1, self.y0),
            (self.x1, self.y1),
            (self.x0, self.y1),
        ]
    }
}

pub(crate) type P = (f64, f64);

fn d2(a: P, b: P) -> f64 {
    ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt()
}

fn point_segment(p: P, a: P, b: P) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    let t = if len2 == 0.0 {
        0.0
    } else {
        (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2).clamp(0.0, 1.0)
    };
    d2(p, (a.0 + t * dx, a.1 + t * dy))
}

fn cross(o: P, a: P, b: P) -> f64 {
    (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
}

fn segments_cross(a: P, b: P, c: P, d: P) -> bool {
    let (d1, d2_, d3, d4) = (
        cross(c, d, a),
        cross(c, d, b),
        cross(a, b, c),
        cross(a, b, d),
    );
    (d1 > 0.0) != (d2_ > 0.0) && (d3 > 0.0) != (d4 > 0.0)
}

fn segment_segment(a: P, b: P, c: P, d: P) -> f64 {
    if segments_cross(a, b, c, d) {
        return 0.0;
    }
    point_segment(a, c, d)
        .min(point_segment(b, c, d))
        .min(point_segment(c, a, b))
        .min(point_segment(d, a, b))
}

/// Distance from a segment to a box (0 when they touch).
fn segment_box(a: P, b: P, bx: &Bx) -> f64 {
    if bx.contains(a) || bx.contains(b) {
        return 0.0;
    }
    let c = bx.corners();
    (0..4)
        .map(|i| segment_segment(a, b, c[i], c[(i + 1) % 4]))
        .fold(f64::INFINITY, f64::min)
}

/// Something a label must keep clear of.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Obstacle {
    /// A hull or other long thing: the segment thickened by `r`.
    Seg {
        a: P,
        b: P,
        r: f64,
    },
    Box(Bx),
}

impl Obstacle {
    fn bbox(&self) -> Bx {
        match self {
            Obstacle::Seg { a, b, r } => Bx {
                x0: a.0.min(b.0) - r,
                y0: a.1.min(b.1) - r,
                x1: a.0.max(b.0) + r,
                y1: a.1.max(b.1) + r,
            },
            Obstacle::Box(b) => *b,
        }
    }

    pub(crate) fn hits_box(&self, bx: &Bx) -> bool {
        match self {
            Obstacle::Seg { a, b, r } => segment_box(*a, *b, bx) < r + 1.0,
            Obstacle::Box(o) => o.overlaps(bx, 1.0),
        }
    }

    fn hits_segment(&self, p: P, q: P) -> bool {
        match self {
            Obstacle::Seg { a, b, r } => segment_segment(p, q, *a, *b) < r + 0.5,
            Obstacle::Box(o) => segment_box(p, q, o) < 0.5,
        }
    }
}

/// A small text that must stay readable but may stand in any of a few spots, and takes the
/// first that nothing covers (a hex's number: at the top of its hex, else at its bottom).
/// Labels may cover its spots so long as one stays free.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Movable {
    spots: Vec<Bx>,
    free: Vec<bool>,
}

/// How far a label keeps from a movable's spots: as far as from any obstacle.
const MOVABLE_PAD: f64 = 1.0;
/// What moving a movable off its spot costs a label's spot (picture units, as its distance):
/// a few units nearer its unit are not worth a number out of its usual place.
const MOVE_COST: f64 = 6.0;

impl Movable {
    /// In order of preference; each free until something covers it.
    pub fn new(spots: Vec<Bx>) -> Movable {
        let free = vec![true; spots.len()];
        Movable { spots, free }
    }

    /// Where it stands: its first free spot (its first when none is, which `place` never
    /// leaves but a caller's own `cover` may).
    pub fn spot(&self) -> Bx {
        let i = self.free.iter().position(|f| *f).unwrap_or(0);
        self.spots[i]
    }

    /// Rules out the spots `b` comes within `pad` of.
    pub fn cover(&mut self, b: &Bx, pad: f64) {
        for (s, f) in self.spots.iter().zip(&mut self.free) {
            *f &= !s.overlaps(b, pad);
        }
    }

    /// What covering `b` would do: `None` if it would leave no free spot (or none was left),
    /// else whether it moves it off the spot it stands in.
    fn after(&self, b: &Bx) -> Option<bool> {
        let left = |i: usize| self.free[i] && !self.spots[i].overlaps(b, MOVABLE_PAD);
        let now = self.free.iter().position(|f| *f)?;
        if left(now) {
            return Some(false);
        }
        (now + 1..self.spots.len()).any(left).then_some(true)
    }

    fn bbox(&self) -> Bx {
        self.spots.iter().skip(1).fold(self.spots[0], |a, b| Bx {
            x0: a.x0.min(b.x0),
            y0: a.y0.min(b.y0),
            x1: a.x1.max(b.x1),
            y1: a.y1.max(b.y1),
        })
    }
}

/// A label to place around `anchor`.
#[derive(Debug, Clone)]
pub(crate) struct Want {
    pub anchor: P,
    /// The unit's own long axis in picture radians (labels prefer to stand across it).
    pub axis: Option<f64>,
    pub w: f64,
    pub h: f64,
    /// Lower goes first.
    pub rank: u8,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Placed {
    pub bx: Bx,
    /// From the unit's edge to the label, when the label stands off.
    pub leader: Option<(P, P)>,
}

/// Distances (centre to label) tried, nearest first, and the directions tried at each.
const RINGS: [f64; 10] = [5.0, 8.0, 12.0, 17.0, 23.0, 30.0, 38.0, 48.0, 60.0, 74.0];
const DIRECTIONS: usize = 24;
/// Beyond this distance a label gets a leader line to its unit.
const LEADER_FROM: f64 = 6.0;

/// Places every label it can; `None` where no free spot was found (the caller falls back to
/// a short number and a key). `taken` grows with every placed label, and each placed label
/// covers the spots of `movables` it stands on, never a movable's last.
pub(crate) fn place(
    wants: &[Want],
    obstacles: &[Obstacle],
    taken: &mut Vec<Bx>,
    movables: &mut [Movable],
    bounds: Bx,
) -> Vec<Option<Placed>> {
    let mut order: Vec<usize> = (0..wants.len()).collect();
    // Crowded units first, so they get the near spots the open ones do not need.
    let crowd: Vec<usize> = wants
        .iter()
        .map(|w| {
            wants
                .iter()
                .filter(|o| d2(o.anchor, w.anchor) < 40.0)
                .count()
        })
        .collect();
    order.sort_by_key(|&i| (wants[i].rank, std::cmp::Reverse(crowd[i]), i));
    let mut out = vec![None; wants.len()];
    for i in order {
        let w = &wants[i];
        // Only what is within reach of this label's farthest spot can be in its way.
        let reach = RINGS[RINGS.len() - 1] + w.w.max(w.h) + 4.0;
        let area = Bx::new(
            w.anchor.0 - reach,
            w.anchor.1 - reach,
            2.0 * reach,
            2.0 * reach,
        );
        let obstacles: Vec<Obstacle> = obstacles
            .iter()
            .filter(|o| o.bbox().overlaps(&area, 2.0))
            .copied()
            .collect();
        let near_taken: Vec<Bx> = taken
            .iter()
            .filter(|t| t.overlaps(&area, 2.0))
            .copied()
            .collect();
        let near_movables: Vec<usize> = (0..movables.len())
            .filter(|&m| !movables[m].spots.is_empty() && movables[m].bbox().overlaps(&area, 2.0))
            .collect();
        let mut best: Option<(f64, Placed)> = None;
        for &ring in &RINGS {
            if best.as_ref().is_some_and(|(c, _)| *c < ring) {
                break;
            }
            for k in 0..DIRECTIONS {
                let th = k as f64 * std::f64::consts::TAU / DIRECTIONS as f64;
                let (c, s) = (th.cos(), th.sin());
                let bx = spot(w, ring, (c, s));
                if !bx.inside(&bounds)
                    || near_taken.iter().any(|t| t.overlaps(&bx, 1.5))
                    || obstacles.iter().any(|o| o.hits_box(&bx))
                {
                    continue;
                }
                let mut moved = 0.0;
                for &m in &near_movables {
                    match movables[m].after(&bx) {
                        None => moved = f64::INFINITY,
                        Some(true) => moved += 1.0,
                        Some(false) => {}
                    }
                }
                if moved.is_infinite() {
                    continue;
                }
                let near = bx.nearest(w.anchor);
                let gap = d2(near, w.anchor);
                // A spot whose leader would cut through something is no spot.
                let Some(leader) = leader_to(w, near, gap, &near_taken, &obstacles) else {
                    continue;
                };
                let across = w.axis.map_or(0.0, |a| (th - a).cos().abs());
                let cost = gap
                    + 5.0 * across
                    + 1.5 * (1.0 - c) / 2.0
                    + if leader.is_some() { 8.0 } else { 0.0 }
                    + MOVE_COST * moved;
                if best.as_ref().is_none_or(|(bc, _)| cost < *bc) {
                    best = Some((cost, Placed { bx, leader }));
                }
            }
        }
        if let Some((_, p)) = best {
            for &m in &near_movables {
                movables[m].cover(&p.bx, MOVABLE_PAD);
            }
            taken.push(p.bx);
            out[i] = Some(p);
        }
    }
    out
}

/// The label's box on the ring at direction (cos, sin): the box's edge nearest the unit on
/// the ring, so that every direction keeps the same gap.
fn spot(w: &Want, ring: f64, (c, s): (f64, f64)) -> Bx {
    let p = (w.anchor.0 + ring * c, w.anchor.1 + ring * s);
    Bx::new(
        p.0 + (c - 1.0) * w.w / 2.0,
        p.1 + (s - 1.0) * w.h / 2.0,
        w.w,
        w.h,
    )
}

/// The leader from a unit to its label's nearest point, when the label stands off (`None`
/// when it is close enough to need none); `None` outside when the leader would cut through
/// another label or another unit's hull.
fn leader_to(
    w: &Want,
    near: P,
    gap: f64,
    taken: &[Bx],
    obstacles: &[Obstacle],
) -> Option<Option<(P, P)>> {
    if gap <= LEADER_FROM {
        return Some(None);
    }
    let t = 3.0 / gap;
    let from = (
        w.anchor.0 + (near.0 - w.anchor.0) * t,
        w.anchor.1 + (near.1 - w.anchor.1) * t,
    );
    let clear = taken.iter().all(|t| segment_box(from, near, t) > 0.5)
        && obstacles
            .iter()
            .filter(|o| match o {
                Obstacle::Seg { a, b, .. } => point_segment(w.anchor, *a, *b) > 1.0,
                Obstacle::Box(b) => !b.contains(w.anchor),
            })
            .all(|o| !o.hits_segment(from, near));
    clear.then_some(Some((from, near)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_in_a_tight_line_do_not_overlap() {
        let bounds = Bx::new(0.0, 0.0, 400.0, 300.0);
        // Ten ships in line abreast 20 px apart, each hull 16 px long pointing up.
        let wants: Vec<Want> = (0..10)
            .map(|i| Want {
                anchor: (100.0 + 20.0 * i as f64, 150.0),
                axis: Some(-std::f64::consts::FRAC_PI_2),
                w: 55.0,
                h: 13.0,
                rank: 0,
            })
            .collect();
        let obstacles: Vec<Obstacle> = wants
            .iter()
            .map(|w| Obstacle::Seg {
                a: (w.anchor.0, w.anchor.1 - 8.0),
                b: (w.anchor.0, w.anchor.1 + 8.0),
                r: 3.0,
            })
            .collect();
        let mut taken = vec![];
        let placed = place(&wants, &obstacles, &mut taken, &mut [], bounds);
        let boxes: Vec<Bx> = placed.iter().flatten().map(|p| p.bx).collect();
        assert_eq!(boxes.len(), 10, "every label found a place");
        for (i, a) in boxes.iter().enumerate() {
            for b in &boxes[i + 1..] {
                assert!(!a.overlaps(b, 0.0), "{a:?} {b:?}");
            }
            for o in &obstacles {
                assert!(!o.hits_box(a));
            }
        }
        assert!(placed.iter().flatten().any(|p| p.leader.is_some()));
    }

    #[test]
    fn a_label_moves_a_number_to_its_other_spot_but_never_covers_its_last() {
        let bounds = Bx::new(0.0, 0.0, 400.0, 300.0);
        // A number that stands at the top of its hex (y 100) or at its bottom (y 140), right
        // of a unit whose every other side is walled off.
        let top = Bx::new(112.0, 100.0, 20.0, 8.0);
        let bottom = Bx::new(112.0, 140.0, 20.0, 8.0);
        let walls = [
            Obstacle::Box(Bx::new(0.0, 0.0, 400.0, 90.0)),
            Obstacle::Box(Bx::new(0.0, 150.0, 400.0, 150.0)),
            Obstacle::Box(Bx::new(0.0, 0.0, 95.0, 300.0)),
        ];
        let want = |y: f64| Want {
            anchor: (100.0, y),
            axis: None,
            w: 40.0,
            h: 13.0,
            rank: 0,
        };
        let mut numbers = [Movable::new(vec![top, bottom])];
        let placed = place(&[want(104.0)], &walls, &mut vec![], &mut numbers, bounds);
        let bx = placed[0].expect("a spot").bx;
        assert!(
            bx.overlaps(&top, 0.0),
            "{bx:?}: the label stands by its unit"
        );
        assert_eq!(
            numbers[0].spot(),
            bottom,
            "and the number moved to the bottom"
        );
        // A second label by the bottom spot must not take it too: it finds no room here.
        let placed = place(&[want(144.0)], &walls, &mut vec![], &mut numbers, bounds);
        assert!(
            placed[0].is_none_or(|p| !p.bx.overlaps(&bottom, 0.0)),
            "{placed:?}"
        );
        assert_eq!(numbers[0].spot(), bottom);
        // With the number's spots free and room elsewhere, a label leaves the number alone.
        let mut numbers = [Movable::new(vec![top, bottom])];
        let placed = place(&[want(104.0)], &[], &mut vec![], &mut numbers, bounds);
        assert!(placed[0].is_some());
        assert_eq!(numbers[0].spot(), top);
    }

    #[test]
    fn no_room_means_no_label() {
        let bounds = Bx::new(0.0, 0.0, 30.0, 30.0);
        let wants = vec![Want {
            anchor: (15.0, 15.0),
            axis: None,
            w: 80.0,
            h: 13.0,
            rank: 0,
        }];
        assert_eq!(place(&wants, &[], &mut vec![], &mut [], bounds), vec![None]);
    }
}
