//! The small drawings units are made of: ship hulls, NATO-style unit symbols, the facing wedge,
//! and figures standing in a formation on a base. Each returns SVG or points for a piece
//! centred on 0,0, so the map and the legend draw them alike. No placement, no game.

use std::fmt::Write as _;

use crate::engine::scene::{Formation, UnitSymbol};

use super::labels::P;
use super::svg::{esc, f, path_of};
use super::{Face, text_width};

/// The hull outline of a ship `len` long pointing along +x, centred on 0,0, and its half-beam;
/// big ships get their superstructure as a hole (even-odd fill).
pub(crate) fn hull_points(class: &str, len: f64) -> (String, f64) {
    let beam_ratio = match class {
        "BB" => 0.26,
        "CA" => 0.23,
        "CL" => 0.21,
        _ => 0.19,
    };
    let b = (len * beam_ratio).max(4.0) / 2.0;
    let h = len / 2.0;
    let pts = [
        (h, 0.0),
        (h * 0.55, -b * 0.85),
        (h * 0.1, -b),
        (-h * 0.75, -b),
        (-h, -b * 0.5),
        (-h, b * 0.5),
        (-h * 0.75, b),
        (h * 0.1, b),
        (h * 0.55, b * 0.85),
    ];
    let mut d = pts
        .iter()
        .enumerate()
        .map(|(i, (x, y))| format!("{}{} {}", if i == 0 { "M" } else { "L" }, f(*x), f(*y)))
        .collect::<String>()
        + "Z";
    if class != "DD" && len >= 12.0 {
        let _ = write!(
            d,
            "M{} {}L{} {}L{} {}L{} {}Z",
            f(-h * 0.35),
            f(-b * 0.45),
            f(h * 0.2),
            f(-b * 0.45),
            f(h * 0.2),
            f(b * 0.45),
            f(-h * 0.35),
            f(b * 0.45)
        );
    }
    (d, b)
}

/// A unit symbol in a frame `w` × `h` centred on `c`, drawn in `ink` (lines `sw` wide).
/// Free text is written without a frame, as large as fits.
pub(crate) fn unit_symbol(sym: &UnitSymbol, c: P, w: f64, h: f64, ink: &str) -> String {
    let sw = (h * 0.11).clamp(0.8, 2.2);
    let (x0, y0, x1, y1) = (c.0 - w / 2.0, c.1 - h / 2.0, c.0 + w / 2.0, c.1 + h / 2.0);
    if let UnitSymbol::Text(t) = sym {
        let size = (h * 1.1).min(w * 1.3 / text_width(t, Face::Bold, 1.0).max(0.5));
        return format!(
            r##"<text x="{}" y="{}" font-weight="bold" font-size="{}" fill="{ink}" text-anchor="middle">{}</text>"##,
            f(c.0),
            f(c.1 + size * 0.36),
            f(size),
            esc(t)
        );
    }
    let line = |d: String| {
        format!(
            r##"<path d="{d}" fill="none" stroke="{ink}" stroke-width="{}" stroke-linecap="round" stroke-linejoin="round"/>"##,
            f(sw)
        )
    };
    let frame = line(path_of(&[(x0, y0), (x1, y0), (x1, y1), (x0, y1)], true));
    let dot = |x: f64, y: f64, r: f64| {
        format!(
            r##"<circle cx="{}" cy="{}" r="{}" fill="{ink}"/>"##,
            f(x),
            f(y),
            f(r)
        )
    };
    let inner = match sym {
        UnitSymbol::Infantry => line(format!(
            "M{} {}L{} {}M{} {}L{} {}",
            f(x0),
            f(y0),
            f(x1),
            f(y1),
            f(x0),
            f(y1),
            f(x1),
            f(y0)
        )),
        UnitSymbol::Cavalry => line(format!("M{} {}L{} {}", f(x0), f(y1), f(x1), f(y0))),
        UnitSymbol::Recon => {
            // The cavalry slash with an eye at its middle: scouts.
            line(format!("M{} {}L{} {}", f(x0), f(y1), f(x1), f(y0)))
                + &format!(
                    r##"<circle cx="{}" cy="{}" r="{}" fill="none" stroke="{ink}" stroke-width="{}"/>"##,
                    f(c.0),
                    f(c.1),
                    f(h * 0.18),
                    f(sw * 0.8)
                )
        }
        UnitSymbol::Armour => {
            let (rx, ry) = (w * 0.32, h * 0.24);
            line(format!(
                "M{} {}h{}a{r} {r} 0 0 1 0 {}h{}a{r} {r} 0 0 1 0 {}Z",
                f(c.0 - rx + ry),
                f(c.1 - ry),
                f(2.0 * (rx - ry)),
                f(2.0 * ry),
                f(-2.0 * (rx - ry)),
                f(-2.0 * ry),
                r = f(ry)
            ))
        }
        UnitSymbol::Artillery => dot(c.0, c.1, h * 0.17),
        UnitSymbol::Mortar | UnitSymbol::MachineGun | UnitSymbol::AntiTank => {
            weapon_mark(sym, c, w, h, ink, &line)
        }
        UnitSymbol::Text(_) => String::new(),
        _ => command_or_machine_mark(sym, c, w, h, ink, &line, &dot),
    };
    frame + &inner
}

/// The support weapons' marks inside a unit's frame (mortar, machine gun, anti-tank),
/// drawn with the frame's pen.
fn weapon_mark(
    sym: &UnitSymbol,
    c: P,
    w: f64,
    h: f64,
    ink: &str,
    line: &dyn Fn(String) -> String,
) -> String {
    let sw = (h * 0.11).clamp(0.8, 2.2);
    let (x0, y0, x1, y1) = (c.0 - w / 2.0, c.1 - h / 2.0, c.0 + w / 2.0, c.1 + h / 2.0);
    match sym {
        UnitSymbol::Mortar => {
            let r = h * 0.12;
            line(format!(
                "M{x} {}V{}M{} {}L{x} {}L{} {}",
                f(c.1 + h * 0.28 - 2.0 * r),
                f(c.1 - h * 0.32),
                f(c.0 - h * 0.14),
                f(c.1 - h * 0.16),
                f(c.1 - h * 0.32),
                f(c.0 + h * 0.14),
                f(c.1 - h * 0.16),
                x = f(c.0)
            )) + &format!(
                r##"<circle cx="{}" cy="{}" r="{}" fill="none" stroke="{ink}" stroke-width="{}"/>"##,
                f(c.0),
                f(c.1 + h * 0.28 - r),
                f(r),
                f(sw * 0.8)
            )
        }
        UnitSymbol::MachineGun => line(format!(
            "M{x} {}V{}M{} {}L{x} {}L{} {}M{} {}H{}",
            f(c.1 + h * 0.32),
            f(c.1 - h * 0.32),
            f(c.0 - h * 0.14),
            f(c.1 - h * 0.16),
            f(c.1 - h * 0.32),
            f(c.0 + h * 0.14),
            f(c.1 - h * 0.16),
            f(c.0 - h * 0.18),
            f(c.1 + h * 0.12),
            f(c.0 + h * 0.18),
            x = f(c.0)
        )),
        UnitSymbol::AntiTank => line(format!(
            "M{} {}L{} {}L{} {}",
            f(x0),
            f(y1),
            f(c.0),
            f(y0),
            f(x1),
            f(y1)
        )),
        _ => String::new(),
    }
}

/// The marks of headquarters, engineers and machines (walker, vehicle) inside a unit's
/// frame, drawn with the frame's pen.
fn command_or_machine_mark(
    sym: &UnitSymbol,
    c: P,
    w: f64,
    h: f64,
    ink: &str,
    line: &dyn Fn(String) -> String,
    dot: &dyn Fn(f64, f64, f64) -> String,
) -> String {
    let (x0, y1) = (c.0 - w / 2.0, c.1 + h / 2.0);
    match sym {
        UnitSymbol::Headquarters => {
            let size = h * 0.5;
            format!(
                r##"<text x="{}" y="{}" font-weight="bold" font-size="{}" fill="{ink}" text-anchor="middle">HQ</text>"##,
                f(c.0),
                f(c.1 + size * 0.36),
                f(size)
            ) + &line(format!("M{} {}V{}", f(x0), f(y1), f(y1 + h * 0.35)))
        }
        UnitSymbol::Engineer => {
            let (l, r) = (c.0 - w * 0.28, c.0 + w * 0.28);
            let (top, bot) = (c.1 - h * 0.14, c.1 + h * 0.16);
            line(format!(
                "M{} {}V{}H{}V{}M{} {}V{}",
                f(l),
                f(bot),
                f(top),
                f(r),
                f(bot),
                f(c.0),
                f(top),
                f(bot)
            ))
        }
        UnitSymbol::Walker => {
            // A solid hull on two striding legs, knees bent.
            let (bw, bh) = (w * 0.3, h * 0.26);
            let top = c.1 - h * 0.34;
            format!(
                r##"<path d="{}" fill="{ink}"/>"##,
                path_of(
                    &[
                        (c.0 - bw, top),
                        (c.0 + bw, top),
                        (c.0 + bw * 0.75, top + bh),
                        (c.0 - bw * 0.75, top + bh),
                    ],
                    true,
                )
            ) + &line(format!(
                "M{} {}L{} {}L{} {}M{} {}L{} {}L{} {}",
                f(c.0 - bw * 0.4),
                f(top + bh),
                f(c.0 - bw * 0.95),
                f(c.1 + h * 0.08),
                f(c.0 - bw * 0.6),
                f(c.1 + h * 0.34),
                f(c.0 + bw * 0.4),
                f(top + bh),
                f(c.0 + bw * 0.95),
                f(c.1 + h * 0.08),
                f(c.0 + bw * 0.6),
                f(c.1 + h * 0.34)
            ))
        }
        UnitSymbol::Vehicle => {
            let r = h * 0.12;
            line(format!(
                "M{} {}H{}",
                f(c.0 - w * 0.3),
                f(c.1 - h * 0.05),
                f(c.0 + w * 0.3)
            )) + &dot(c.0 - w * 0.2, c.1 + h * 0.2, r)
                + &dot(c.0 + w * 0.2, c.1 + h * 0.2, r)
        }
        _ => String::new(),
    }
}

/// The facing wedge of a square counter `side` wide centred on `c`: a triangle standing out
/// of the edge it faces, big enough to read at a glance.
pub(crate) fn facing_wedge(c: P, side: f64, heading: f64) -> Vec<P> {
    let (dx, dy) = super::svg::towards(heading);
    let edge = side / 2.0 / dx.abs().max(dy.abs()).max(1e-9);
    let (px, py) = (-dy, dx);
    // Proportional on small counters; on big ones (a hex sheet's) no bigger than on a 30 px one.
    let k = side.min(30.0);
    let base = edge - k * 0.08;
    let tip = edge + k * 0.42;
    let half = k * 0.3;
    vec![
        (c.0 + dx * tip, c.1 + dy * tip),
        (c.0 + dx * base + px * half, c.1 + dy * base + py * half),
        (c.0 + dx * base - px * half, c.1 + dy * base - py * half),
    ]
}

/// Where the figures of a base stand, in the base's own frame: x across the front (−w/2 to
/// w/2), y from the front (−d/2) to the back (d/2). At most 48 are drawn.
pub(crate) fn figures(formation: Formation, w: f64, d: f64, n: u32) -> Vec<P> {
    let n = n.clamp(1, 48) as usize;
    let grid = |cols: usize, rows: usize, fw: f64, fd: f64, y0: f64| -> Vec<P> {
        (0..n)
            .map(|i| {
                let (col, row) = (i % cols, i / cols);
                let x = -fw / 2.0 + fw * (col as f64 + 0.5) / cols as f64;
                let y = y0 + fd * (row as f64 + 0.5) / rows as f64;
                (x, y)
            })
            .collect()
    };
    match formation {
        Formation::Line => {
            let cols = n.div_ceil(2);
            grid(cols, 2, w * 0.94, d * 0.7, -d / 2.0 + d * 0.08)
        }
        Formation::Column => {
            let cols = n.min(3);
            let rows = n.div_ceil(cols);
            grid(
                cols,
                rows,
                (w * 0.3).min(d * 0.5),
                d * 0.92,
                -d / 2.0 + d * 0.04,
            )
        }
        Formation::Mounted => {
            let cols = n.div_ceil(2).max(1);
            grid(cols, 2.min(n), w * 0.94, d * 0.8, -d / 2.0 + d * 0.1)
        }
        Formation::Skirmish => (0..n)
            .map(|i| {
                // Two loose, staggered rows with a fixed irregularity.
                let cols = n.div_ceil(2);
                let (col, row) = (i / 2, i % 2);
                let jitter = [0.0, 0.18, -0.12, 0.08, -0.2, 0.14][i % 6];
                let x = -w * 0.46 + w * 0.92 * (col as f64 + 0.25 + 0.5 * row as f64) / cols as f64;
                let y = -d / 2.0 + d * (0.28 + 0.45 * row as f64 + jitter * 0.5);
                (x, y)
            })
            .collect(),
        Formation::Square | Formation::Entrenched => {
            // Facing out all round: along the edge of a square (or ring) inside the base.
            let (hw, hd) = if formation == Formation::Square {
                let s = w.min(d) * 0.4;
                (s, s)
            } else {
                (w * 0.36, d * 0.3)
            };
            (0..n)
                .map(|i| {
                    let t = i as f64 / n as f64;
                    if formation == Formation::Entrenched {
                        let a = t * std::f64::consts::TAU;
                        return (hw * a.cos(), hd * a.sin());
                    }
                    let (side, u) = ((t * 4.0).floor(), (t * 4.0).fract() * 2.0 - 1.0);
                    match side as u8 {
                        0 => (u * hw, -hd),
                        1 => (hw, u * hd),
                        2 => (-u * hw, hd),
                        _ => (-hw, -u * hd),
                    }
                })
                .collect()
        }
        Formation::Limbered | Formation::Unlimbered => {
            // The crew stand behind the gun (unlimbered) or ride beside the team.
            let cols = n.min(4);
            let rows = n.div_ceil(cols);
            let y0 = if formation == Formation::Unlimbered {
                d * 0.12
            } else {
                -d * 0.4
            };
            let fw = if formation == Formation::Unlimbered {
                w * 0.7
            } else {
                w * 0.25
            };
            grid(cols, rows, fw, d * 0.35, y0)
                .into_iter()
                .map(|(x, y)| {
                    if formation == Formation::Limbered {
                        (x + w * 0.3, y)
                    } else {
                        (x, y)
                    }
                })
                .collect()
        }
    }
}

/// What a formation adds besides its figures, in the base's frame, drawn in `ink`: the gun and
/// limber of artillery, the parapet of an entrenchment.
pub(crate) fn formation_extra(formation: Formation, w: f64, d: f64, ink: &str) -> String {
    let sw = (d * 0.08).clamp(0.8, 1.8);
    match formation {
        Formation::Unlimbered => format!(
            r##"<path d="M0 {}V{}M{} {}H{}" stroke="{ink}" stroke-width="{}" stroke-linecap="round" fill="none"/>"##,
            f(d * 0.05),
            f(-d * 0.42),
            f(-w * 0.12),
            f(d * 0.05),
            f(w * 0.12),
            f(sw * 1.3)
        ),
        Formation::Limbered => format!(
            r##"<path d="M{x} {}V{}M{} {}H{}M{} {}H{}" stroke="{ink}" stroke-width="{}" stroke-linecap="round" fill="none"/><rect x="{}" y="{}" width="{}" height="{}" fill="{ink}"/>"##,
            f(-d * 0.45),
            f(d * 0.42),
            f(-w * 0.1),
            f(-d * 0.2),
            f(w * 0.02),
            f(-w * 0.1),
            f(d * 0.3),
            f(w * 0.02),
            f(sw),
            f(-w * 0.1),
            f(-d * 0.45),
            f(w * 0.08),
            f(d * 0.18),
            x = f(-w * 0.04)
        ),
        Formation::Entrenched => format!(
            r##"<ellipse cx="0" cy="0" rx="{}" ry="{}" fill="none" stroke="#8d6e4a" stroke-width="{}"/>"##,
            f(w * 0.45),
            f(d * 0.42),
            f(sw * 1.6)
        ),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spread(p: &[P]) -> (f64, f64) {
        let xs = p.iter().map(|q| q.0);
        let ys = p.iter().map(|q| q.1);
        (
            xs.clone().fold(f64::MIN, f64::max) - xs.fold(f64::MAX, f64::min),
            ys.clone().fold(f64::MIN, f64::max) - ys.fold(f64::MAX, f64::min),
        )
    }

    #[test]
    fn formations_stand_recognisably_on_the_base() {
        let (w, d) = (40.0, 20.0);
        for fm in Formation::ALL {
            let p = figures(fm, w, d, 12);
            assert_eq!(p.len(), 12, "{fm:?}");
            for q in &p {
                assert!(q.0.abs() <= w / 2.0 && q.1.abs() <= d / 2.0, "{fm:?} {q:?}");
            }
        }
        // A line is wide and shallow, a column narrow and deep, a square as deep as wide.
        let (lw, ld) = spread(&figures(Formation::Line, w, d, 12));
        let (cw, cd) = spread(&figures(Formation::Column, w, d, 12));
        let (sw, sd) = spread(&figures(Formation::Square, w, d, 12));
        assert!(lw > 3.0 * ld, "line {lw} x {ld}");
        assert!(cw < cd, "column {cw} x {cd}");
        assert!((sw - sd).abs() < 1.0, "square {sw} x {sd}");
        // A square has nobody in its middle.
        assert!(
            figures(Formation::Square, w, d, 12)
                .iter()
                .all(|q| q.0.abs().max(q.1.abs()) > 5.0)
        );
        assert_eq!(figures(Formation::Line, w, d, 500).len(), 48);
    }

    #[test]
    fn the_wedge_stands_out_of_the_edge_it_faces() {
        for (h, want) in [(0.0, (0.0, -1.0)), (90.0, (1.0, 0.0)), (225.0, (-1.0, 1.0))] {
            let w = facing_wedge((0.0, 0.0), 20.0, h);
            let tip = w[0];
            assert!(
                tip.0 * want.0 >= 0.0 && tip.1 * want.1 >= 0.0,
                "{h}: {tip:?}"
            );
            // The tip is well outside the counter's square.
            assert!(tip.0.abs().max(tip.1.abs()) > 13.0, "{h}: {tip:?}");
        }
    }

    #[test]
    fn every_symbol_draws_something_distinct() {
        let mut seen = std::collections::BTreeSet::new();
        for s in UnitSymbol::DRAWN {
            let svg = unit_symbol(&s, (0.0, 0.0), 20.0, 13.0, "#fff");
            assert!(svg.len() > 60, "{s:?}");
            assert!(seen.insert(svg), "{s:?} looks like another symbol");
        }
        let t = unit_symbol(
            &UnitSymbol::Text("2-4".into()),
            (0.0, 0.0),
            20.0,
            13.0,
            "#fff",
        );
        assert!(t.contains(">2-4</text>") && !t.contains("<path"));
    }
}
