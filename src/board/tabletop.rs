//! Tabletop measures in inches: points, headings, hulls as segments, nearest-point range,
//! line-of-sight segments and arcs. Knows nothing of any ruleset: no game rule lives here.
//!
//! Headings are compass degrees: 0 = +y (up the table), 90 = +x (right), growing clockwise.

use serde::{Deserialize, Serialize};

/// Tolerance for "touching" in inches: far below anything a player can measure.
const EPS: f64 = 1e-9;

/// A point on the table, inches from the lower-left corner (x right, y up).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Pt {
    pub x: f64,
    pub y: f64,
}

impl Pt {
    pub const fn new(x: f64, y: f64) -> Self {
        Self { x, y }
    }

    /// This point moved `distance` inches along compass `heading`.
    pub fn offset(self, heading: f64, distance: f64) -> Pt {
        let (dx, dy) = unit(heading);
        Pt::new(self.x + dx * distance, self.y + dy * distance)
    }
}

/// A ship's hull as a segment: centre, compass heading (0 = +y, 90 = +x) and length.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Hull {
    pub centre: Pt,
    pub heading: f64,
    pub length: f64,
}

impl Hull {
    pub fn bow(&self) -> Pt {
        self.centre.offset(self.heading, self.length / 2.0)
    }

    pub fn stern(&self) -> Pt {
        self.centre.offset(self.heading, -self.length / 2.0)
    }

    /// The hull moved straight ahead (negative: astern).
    pub fn advanced(&self, distance: f64) -> Hull {
        Hull {
            centre: self.centre.offset(self.heading, distance),
            ..*self
        }
    }

    /// The hull turned by `delta_deg` (positive: clockwise, to starboard), pivoting on its centre.
    pub fn turned(&self, delta_deg: f64) -> Hull {
        Hull {
            heading: normalize(self.heading + delta_deg),
            ..*self
        }
    }

    /// The hull turned to an absolute compass heading, pivoting on its centre.
    pub fn rotated_to(&self, heading: f64) -> Hull {
        Hull {
            heading: normalize(heading),
            ..*self
        }
    }
}

/// Unit vector (dx, dy) of a compass heading.
pub fn unit(heading: f64) -> (f64, f64) {
    let r = heading.to_radians();
    (r.sin(), r.cos())
}

pub fn dist(a: Pt, b: Pt) -> f64 {
    (b.x - a.x).hypot(b.y - a.y)
}

/// Compass bearing from `from` to `to`, in [0, 360). 0 when the points coincide.
pub fn bearing(from: Pt, to: Pt) -> f64 {
    let (dx, dy) = (to.x - from.x, to.y - from.y);
    if dx == 0.0 && dy == 0.0 {
        return 0.0;
    }
    normalize(dx.atan2(dy).to_degrees())
}

/// A heading in [0, 360).
pub fn normalize(h: f64) -> f64 {
    let r = h.rem_euclid(360.0);
    // rem_euclid may round up to exactly 360 for tiny negative inputs.
    if r >= 360.0 { 0.0 } else { r }
}

/// The signed turn from heading `a` to heading `b`, in (-180, 180]: positive is clockwise.
pub fn heading_diff(a: f64, b: f64) -> f64 {
    let d = normalize(b - a);
    if d > 180.0 { d - 360.0 } else { d }
}

fn sub(a: Pt, b: Pt) -> (f64, f64) {
    (a.x - b.x, a.y - b.y)
}

fn cross(o: Pt, a: Pt, b: Pt) -> f64 {
    let (ax, ay) = sub(a, o);
    let (bx, by) = sub(b, o);
    ax * by - ay * bx
}

/// The point of segment `a0`–`a1` nearest to `p` (a zero-length segment is its one point).
pub fn nearest_point_on_segment(a0: Pt, a1: Pt, p: Pt) -> Pt {
    let (dx, dy) = sub(a1, a0);
    let len2 = dx * dx + dy * dy;
    if len2 == 0.0 {
        return a0;
    }
    let (px, py) = sub(p, a0);
    let t = ((px * dx + py * dy) / len2).clamp(0.0, 1.0);
    Pt::new(a0.x + t * dx, a0.y + t * dy)
}

fn on_segment(a0: Pt, a1: Pt, p: Pt) -> bool {
    dist(nearest_point_on_segment(a0, a1, p), p) <= EPS
}

/// Do the closed segments `a0`–`a1` and `b0`–`b1` share a point (crossing, touching or overlapping)?
pub fn segments_intersect(a0: Pt, a1: Pt, b0: Pt, b1: Pt) -> bool {
    let d1 = cross(b0, b1, a0);
    let d2 = cross(b0, b1, a1);
    let d3 = cross(a0, a1, b0);
    let d4 = cross(a0, a1, b1);
    let strictly = |u: f64, v: f64| (u > EPS && v < -EPS) || (u < -EPS && v > EPS);
    if strictly(d1, d2) && strictly(d3, d4) {
        return true;
    }
    on_segment(b0, b1, a0)
        || on_segment(b0, b1, a1)
        || on_segment(a0, a1, b0)
        || on_segment(a0, a1, b1)
}

/// The nearest pair of points (one on each segment).
pub fn closest_points(a0: Pt, a1: Pt, b0: Pt, b1: Pt) -> (Pt, Pt) {
    if segments_intersect(a0, a1, b0, b1) {
        let p = intersection_point(a0, a1, b0, b1);
        return (p, p);
    }
    // Disjoint segments: the nearest pair always includes an endpoint of one of them.
    let candidates = [
        (a0, nearest_point_on_segment(b0, b1, a0)),
        (a1, nearest_point_on_segment(b0, b1, a1)),
        (nearest_point_on_segment(a0, a1, b0), b0),
        (nearest_point_on_segment(a0, a1, b1), b1),
    ];
    candidates
        .into_iter()
        .min_by(|x, y| dist(x.0, x.1).total_cmp(&dist(y.0, y.1)))
        .unwrap_or((a0, b0))
}

/// A shared point of two intersecting segments (the crossing, or a touching endpoint).
fn intersection_point(a0: Pt, a1: Pt, b0: Pt, b1: Pt) -> Pt {
    let (rx, ry) = sub(a1, a0);
    let (sx, sy) = sub(b1, b0);
    let denom = rx * sy - ry * sx;
    if denom.abs() > EPS {
        let (qx, qy) = sub(b0, a0);
        let t = ((qx * sy - qy * sx) / denom).clamp(0.0, 1.0);
        return Pt::new(a0.x + t * rx, a0.y + t * ry);
    }
    // Parallel (collinear overlap or a degenerate segment): some endpoint lies on the other.
    for (p, s0, s1) in [(a0, b0, b1), (a1, b0, b1), (b0, a0, a1), (b1, a0, a1)] {
        if on_segment(s0, s1, p) {
            return p;
        }
    }
    a0
}

/// Shortest distance between two segments (0 when they touch or cross).
pub fn segment_distance(a0: Pt, a1: Pt, b0: Pt, b1: Pt) -> f64 {
    let (p, q) = closest_points(a0, a1, b0, b1);
    dist(p, q)
}

/// Range between two hulls, nearest point to nearest point.
pub fn hull_range(a: &Hull, b: &Hull) -> f64 {
    segment_distance(a.stern(), a.bow(), b.stern(), b.bow())
}

/// The nearest points of two hulls: (on `a`, on `b`).
pub fn hull_nearest_points(a: &Hull, b: &Hull) -> (Pt, Pt) {
    closest_points(a.stern(), a.bow(), b.stern(), b.bow())
}

/// The point of a hull nearest to `p`.
pub fn nearest_point_on_hull(hull: &Hull, p: Pt) -> Pt {
    nearest_point_on_segment(hull.stern(), hull.bow(), p)
}

/// Is the sight line `from`–`to` clear of every blocking hull (touching blocks)?
pub fn los_clear(from: Pt, to: Pt, blockers: &[Hull]) -> bool {
    !blockers
        .iter()
        .any(|h| segments_intersect(from, to, h.stern(), h.bow()))
}

/// Does `target_point` lie within ±`half_angle_deg` of the perpendicular to the firer's keel drawn
/// from her midship, on either beam? A point at the midship itself is on no beam.
pub fn in_beam_arc(firer: &Hull, target_point: Pt, half_angle_deg: f64) -> bool {
    if dist(firer.centre, target_point) <= EPS {
        return false;
    }
    let rel = heading_diff(firer.heading, bearing(firer.centre, target_point));
    (rel.abs() - 90.0).abs() <= half_angle_deg + EPS
}

/// A rectangle on the table: `length` along `heading`, `width` across it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rect {
    pub centre: Pt,
    pub heading: f64,
    pub length: f64,
    pub width: f64,
}

impl Rect {
    /// Corners in order around the rectangle.
    pub fn corners(&self) -> [Pt; 4] {
        let (l, w) = (self.length / 2.0, self.width / 2.0);
        let across = self.heading + 90.0;
        [
            self.centre.offset(self.heading, l).offset(across, w),
            self.centre.offset(self.heading, l).offset(across, -w),
            self.centre.offset(self.heading, -l).offset(across, -w),
            self.centre.offset(self.heading, -l).offset(across, w),
        ]
    }

    /// Inside or on the edge.
    pub fn contains(&self, p: Pt) -> bool {
        let (ux, uy) = unit(self.heading);
        let (dx, dy) = sub(p, self.centre);
        let along = dx * ux + dy * uy;
        let across = dx * uy - dy * ux;
        along.abs() <= self.length / 2.0 + EPS && across.abs() <= self.width / 2.0 + EPS
    }
}

/// Does the segment `a`–`b` enter, cross or touch the rectangle?
pub fn segment_touches_rect(a: Pt, b: Pt, rect: &Rect) -> bool {
    if rect.contains(a) || rect.contains(b) {
        return true;
    }
    let c = rect.corners();
    (0..4).any(|i| segments_intersect(a, b, c[i], c[(i + 1) % 4]))
}

pub fn hull_touches_rect(hull: &Hull, rect: &Rect) -> bool {
    segment_touches_rect(hull.stern(), hull.bow(), rect)
}

/// Is `target` inside the arc of ±`half_width` degrees about compass bearing
/// `facing + centre_offset`, seen from `origin` (edges included)? Gear Krieg's F arc is
/// `(0, 90)`, Rt `(90, 90)`, Rr `(180, 90)`, FF `(0, 60)`; a turret is `(0, 180)`. A target at
/// the origin itself is inside only a full circle.
pub fn in_arc(origin: Pt, facing: f64, centre_offset: f64, half_width: f64, target: Pt) -> bool {
    if half_width >= 180.0 {
        return true;
    }
    if dist(origin, target) <= EPS {
        return false;
    }
    let rel = heading_diff(normalize(facing + centre_offset), bearing(origin, target));
    rel.abs() <= half_width + EPS
}

/// Distance from `p` to the nearest point of segment `a`–`b`.
pub fn point_segment_distance(a: Pt, b: Pt, p: Pt) -> f64 {
    dist(nearest_point_on_segment(a, b, p), p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    fn pclose(a: Pt, b: Pt) -> bool {
        close(a.x, b.x) && close(a.y, b.y)
    }

    fn p(x: f64, y: f64) -> Pt {
        Pt::new(x, y)
    }

    #[test]
    fn bow_stern_and_moves() {
        let h = Hull {
            centre: p(10.0, 10.0),
            heading: 90.0,
            length: 2.0,
        };
        assert!(pclose(h.bow(), p(11.0, 10.0)));
        assert!(pclose(h.stern(), p(9.0, 10.0)));
        assert!(pclose(h.advanced(3.0).centre, p(13.0, 10.0)));
        let t = h.turned(-135.0);
        assert!(close(t.heading, 315.0));
        assert_eq!(t.centre, h.centre);
        assert!(pclose(
            t.bow(),
            p(10.0 - 0.5f64.sqrt(), 10.0 + 0.5f64.sqrt())
        ));
        assert!(close(h.rotated_to(-90.0).heading, 270.0));
        assert!(pclose(h.rotated_to(0.0).bow(), p(10.0, 11.0)));
    }

    #[test]
    fn headings_and_bearings() {
        assert!(close(normalize(-10.0), 350.0));
        assert!(close(normalize(720.0), 0.0));
        assert!((0.0..360.0).contains(&normalize(-1e-18)));
        assert!(close(heading_diff(350.0, 10.0), 20.0));
        assert!(close(heading_diff(10.0, 350.0), -20.0));
        assert!(close(heading_diff(0.0, 180.0), 180.0));
        assert!(close(heading_diff(180.0, 0.0), 180.0));
        assert!(close(bearing(p(0.0, 0.0), p(0.0, 5.0)), 0.0));
        assert!(close(bearing(p(0.0, 0.0), p(5.0, 0.0)), 90.0));
        assert!(close(bearing(p(0.0, 0.0), p(0.0, -5.0)), 180.0));
        assert!(close(bearing(p(0.0, 0.0), p(-5.0, 5.0)), 315.0));
        assert!(close(dist(p(0.0, 0.0), p(3.0, 4.0)), 5.0));
    }

    #[test]
    fn segment_distances() {
        // Parallel, 2" apart and overlapping along their length.
        assert!(close(
            segment_distance(p(0.0, 0.0), p(4.0, 0.0), p(1.0, 2.0), p(3.0, 2.0)),
            2.0
        ));
        // Crossing.
        assert!(close(
            segment_distance(p(0.0, 0.0), p(4.0, 4.0), p(0.0, 4.0), p(4.0, 0.0)),
            0.0
        ));
        // T-touching: an endpoint on the other segment.
        assert!(close(
            segment_distance(p(0.0, 0.0), p(4.0, 0.0), p(2.0, 0.0), p(2.0, 3.0)),
            0.0
        ));
        // Collinear, disjoint: endpoint to endpoint.
        assert!(close(
            segment_distance(p(0.0, 0.0), p(1.0, 0.0), p(4.0, 0.0), p(6.0, 0.0)),
            3.0
        ));
        // Degenerate zero-length segments.
        assert!(close(
            segment_distance(p(1.0, 1.0), p(1.0, 1.0), p(4.0, 5.0), p(4.0, 5.0)),
            5.0
        ));
        assert!(close(
            segment_distance(p(2.0, 3.0), p(2.0, 3.0), p(0.0, 0.0), p(4.0, 0.0)),
            3.0
        ));
        // Endpoint to interior.
        let (a, b) = closest_points(p(0.0, 0.0), p(0.0, 2.0), p(-3.0, 5.0), p(3.0, 5.0));
        assert!(pclose(a, p(0.0, 2.0)) && pclose(b, p(0.0, 5.0)));
    }

    #[test]
    fn intersections() {
        assert!(segments_intersect(
            p(0.0, 0.0),
            p(2.0, 2.0),
            p(0.0, 2.0),
            p(2.0, 0.0)
        ));
        assert!(!segments_intersect(
            p(0.0, 0.0),
            p(1.0, 0.0),
            p(0.0, 1.0),
            p(1.0, 1.0)
        ));
        // Touching at an endpoint counts.
        assert!(segments_intersect(
            p(0.0, 0.0),
            p(1.0, 0.0),
            p(1.0, 0.0),
            p(1.0, 5.0)
        ));
        // Collinear overlap; collinear apart.
        assert!(segments_intersect(
            p(0.0, 0.0),
            p(3.0, 0.0),
            p(2.0, 0.0),
            p(5.0, 0.0)
        ));
        assert!(!segments_intersect(
            p(0.0, 0.0),
            p(1.0, 0.0),
            p(2.0, 0.0),
            p(5.0, 0.0)
        ));
        // Degenerate: a point on / off a segment.
        assert!(segments_intersect(
            p(1.0, 0.0),
            p(1.0, 0.0),
            p(0.0, 0.0),
            p(2.0, 0.0)
        ));
        assert!(!segments_intersect(
            p(1.0, 1.0),
            p(1.0, 1.0),
            p(0.0, 0.0),
            p(2.0, 0.0)
        ));
    }

    #[test]
    fn hull_range_and_nearest_point() {
        let a = Hull {
            centre: p(0.0, 0.0),
            heading: 90.0,
            length: 2.0,
        };
        let b = Hull {
            centre: p(5.0, 0.0),
            heading: 0.0,
            length: 2.0,
        };
        // a's bow at (1,0); b spans (5,-1)–(5,1).
        assert!(close(hull_range(&a, &b), 4.0));
        let (pa, pb) = hull_nearest_points(&a, &b);
        assert!(pclose(pa, p(1.0, 0.0)) && pclose(pb, p(5.0, 0.0)));
        assert!(pclose(nearest_point_on_hull(&b, p(0.0, 10.0)), p(5.0, 1.0)));
        assert!(close(hull_range(&a, &a.turned(90.0)), 0.0));
    }

    #[test]
    fn line_of_sight() {
        let blocker = Hull {
            centre: p(5.0, 0.0),
            heading: 0.0,
            length: 2.0,
        };
        assert!(!los_clear(p(0.0, 0.0), p(10.0, 0.0), &[blocker]));
        assert!(los_clear(p(0.0, 2.0), p(10.0, 2.0), &[blocker]));
        // Grazing the bow end blocks.
        assert!(!los_clear(p(0.0, 1.0), p(10.0, 1.0), &[blocker]));
        assert!(los_clear(p(0.0, 0.0), p(10.0, 0.0), &[]));
    }

    #[test]
    fn beam_arcs() {
        let f = Hull {
            centre: p(0.0, 0.0),
            heading: 0.0,
            length: 2.0,
        };
        assert!(in_beam_arc(&f, p(10.0, 0.0), 45.0)); // starboard beam
        assert!(in_beam_arc(&f, p(-10.0, 0.0), 45.0)); // port beam
        assert!(in_beam_arc(&f, p(10.0, 10.0), 45.0)); // on the arc's edge
        assert!(in_beam_arc(&f, p(-10.0, -10.0), 45.0));
        assert!(!in_beam_arc(&f, p(5.0, 10.0), 45.0)); // forward of the arc
        assert!(!in_beam_arc(&f, p(0.0, -10.0), 45.0)); // dead astern
        assert!(!in_beam_arc(&f, p(0.0, 0.0), 45.0));
        let g = f.rotated_to(90.0);
        assert!(in_beam_arc(&g, p(0.0, 10.0), 45.0));
        assert!(!in_beam_arc(&g, p(10.0, 0.0), 45.0));
    }

    #[test]
    fn rectangles() {
        let r = Rect {
            centre: p(10.0, 10.0),
            heading: 90.0,
            length: 4.0,
            width: 1.0,
        };
        // Long side along x: x in [8,12], y in [9.5,10.5].
        assert!(r.contains(p(11.9, 10.4)) && !r.contains(p(10.0, 10.6)));
        assert!(segment_touches_rect(p(10.0, 0.0), p(10.0, 20.0), &r)); // crossing
        assert!(segment_touches_rect(p(10.0, 10.0), p(10.0, 10.2), &r)); // inside
        assert!(segment_touches_rect(p(12.0, 0.0), p(12.0, 20.0), &r)); // along the short edge
        assert!(!segment_touches_rect(p(12.1, 0.0), p(12.1, 20.0), &r));
        assert!(!segment_touches_rect(p(0.0, 11.0), p(20.0, 11.0), &r));
        let h = Hull {
            centre: p(10.0, 12.0),
            heading: 180.0,
            length: 2.0,
        };
        assert!(!hull_touches_rect(&h, &r));
        assert!(hull_touches_rect(&h.advanced(1.5), &r));
        let r0 = Rect { heading: 0.0, ..r };
        assert!(r0.contains(p(10.4, 11.9)) && !r0.contains(p(11.0, 10.0)));
    }
}

#[cfg(test)]
mod arc_tests {
    use super::*;

    #[test]
    fn arcs_about_a_facing() {
        let o = Pt::new(0.0, 0.0);
        // Facing east: the F arc holds straight ahead and both beams, not astern.
        assert!(in_arc(o, 90.0, 0.0, 90.0, Pt::new(5.0, 0.0)));
        assert!(in_arc(o, 90.0, 0.0, 90.0, Pt::new(0.0, 5.0)));
        assert!(in_arc(o, 90.0, 0.0, 90.0, Pt::new(0.0, -5.0)));
        assert!(!in_arc(o, 90.0, 0.0, 90.0, Pt::new(-5.0, 0.1)));
        // Right arc of a north-facing vehicle includes dead ahead and dead astern.
        assert!(in_arc(o, 0.0, 90.0, 90.0, Pt::new(0.0, 5.0)));
        assert!(in_arc(o, 0.0, 90.0, 90.0, Pt::new(0.0, -5.0)));
        assert!(!in_arc(o, 0.0, 90.0, 90.0, Pt::new(-1.0, 5.0)));
        // Fixed forward 120°: 60° off the bow is the edge.
        assert!(in_arc(o, 0.0, 0.0, 60.0, Pt::new(3f64.sqrt(), 1.0)));
        assert!(!in_arc(o, 0.0, 0.0, 60.0, Pt::new(2.0, 1.0)));
        // Across north: facing 350 with a 20° half arc holds bearing 5.
        assert!(in_arc(o, 350.0, 0.0, 20.0, Pt::new(0.1, 5.0)));
        assert!(in_arc(o, 0.0, 0.0, 180.0, o));
        assert!(!in_arc(o, 0.0, 0.0, 90.0, o));
        assert!(
            (point_segment_distance(o, Pt::new(4.0, 0.0), Pt::new(7.0, 4.0)) - 5.0).abs() < 1e-9
        );
    }
}
