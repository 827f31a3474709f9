//! The pieces: tracks of this turn's motion, ships, counters with their symbol, value line and
//! facing wedge, bases of figures in formation, and declared arrows. Each piece leaves an
//! obstacle that labels keep clear of. It draws what the scene holds and nothing else.

use std::fmt::Write as _;

use crate::engine::scene::{
    ArrowKind, At, Condition, Formation, Scene, Unit, UnitKind, UnitSymbol,
};

use super::glyphs::{facing_wedge, figures, formation_extra, hull_points, unit_symbol};
use super::labels::{Bx, Obstacle, P};
use super::svg::{Defs, Frame, SIDE_FILL, SIDE_INK, WRECK, f, path_of};

pub(crate) fn side_index(scene: &Scene, side: &str) -> usize {
    scene
        .sides
        .iter()
        .position(|s| s.id == side)
        .unwrap_or(scene.sides.len())
        % SIDE_FILL.len()
}

/// Motion this turn, under the pieces.
pub(crate) fn tracks(out: &mut String, fr: &Frame, scene: &Scene) {
    for u in &scene.units {
        if u.track.is_empty() || u.condition == Condition::Wreck {
            continue;
        }
        let points: Vec<P> = u
            .track
            .iter()
            .chain(std::iter::once(&u.at))
            .map(|p| fr.px(*p))
            .collect();
        // A halted unit's track has no length, and a dashed line of no length cannot be drawn.
        let length: f64 = points
            .windows(2)
            .map(|w| ((w[1].0 - w[0].0).powi(2) + (w[1].1 - w[0].1).powi(2)).sqrt())
            .sum();
        if length < 0.5 {
            continue;
        }
        let _ = write!(
            out,
            r##"<path d="{}" fill="none" stroke="{}" stroke-opacity="0.55" stroke-width="1.2" stroke-dasharray="3 2"/>"##,
            path_of(&points, false),
            SIDE_FILL[side_index(scene, &u.side)]
        );
    }
}

/// A ship's hull; returns its obstacle.
fn ship(out: &mut String, fr: &Frame, u: &Unit, si: usize, class: &str, length: f64) -> Obstacle {
    let (x, y) = fr.px(u.at);
    let len = (length * fr.scale).max(9.0);
    let (d, half_beam) = hull_points(class, len);
    let (fill, stroke) = match u.condition {
        Condition::Active => (SIDE_FILL[si], "#111"),
        Condition::Wreck => (WRECK, "#444"),
        Condition::Struck => ("#ffffff", SIDE_FILL[si]),
    };
    let _ = write!(
        out,
        r##"<path transform="translate({} {}) rotate({})" d="{d}" fill="{fill}" fill-rule="evenodd" stroke="{stroke}" stroke-width="0.8"/>"##,
        f(x),
        f(y),
        f(u.facing.map_or(0.0, |h| h - 90.0))
    );
    if u.condition == Condition::Wreck {
        let r = len * 0.3;
        let _ = write!(
            out,
            r##"<path d="M{} {}L{} {}M{} {}L{} {}" stroke="#222" stroke-width="1.4"/>"##,
            f(x - r),
            f(y - r),
            f(x + r),
            f(y + r),
            f(x - r),
            f(y + r),
            f(x + r),
            f(y - r)
        );
    }
    let a = Frame::angle(u.facing.unwrap_or(90.0));
    let (c, s) = (a.cos() * len / 2.0, a.sin() * len / 2.0);
    Obstacle::Seg {
        a: (x - c, y - s),
        b: (x + c, y + s),
        r: half_beam,
    }
}

/// A counter `side` wide at `c`: its facing wedge, its body, its symbol and value line.
pub(crate) fn counter(
    out: &mut String,
    c: P,
    side: f64,
    fill: &str,
    facing: Option<f64>,
    symbol: &UnitSymbol,
    value: Option<&str>,
) {
    if let Some(h) = facing {
        let _ = write!(
            out,
            r##"<path d="{}" fill="{fill}" stroke="#111" stroke-width="0.9" stroke-linejoin="round"/>"##,
            path_of(&facing_wedge(c, side, h), true)
        );
    }
    let _ = write!(
        out,
        r##"<rect x="{}" y="{}" width="{s}" height="{s}" rx="{}" fill="{fill}" stroke="#111" stroke-width="0.9"/>"##,
        f(c.0 - side / 2.0),
        f(c.1 - side / 2.0),
        f(side * 0.08),
        s = f(side)
    );
    match value {
        Some(v) if !v.is_empty() => {
            out.push_str(&unit_symbol(
                symbol,
                (c.0, c.1 - side * 0.13),
                side * 0.66,
                side * 0.4,
                "#fff",
            ));
            let size = (side * 0.27)
                .min(side * 0.9 / super::text_width(v, super::Face::Bold, 1.0).max(0.5));
            let _ = write!(
                out,
                r##"<text x="{}" y="{}" font-weight="bold" font-size="{}" fill="#fff" text-anchor="middle">{}</text>"##,
                f(c.0),
                f(c.1 + side * 0.4),
                f(size),
                super::svg::esc(v)
            );
        }
        _ => out.push_str(&unit_symbol(symbol, c, side * 0.7, side * 0.46, "#fff")),
    }
}

/// A base of figures `w` × `d` at `c`, its front towards `facing` (up when it has none), in
/// its side's `fill` and `ink`.
pub(crate) fn base(
    out: &mut String,
    c: P,
    (w, d): (f64, f64),
    facing: Option<f64>,
    formation: Formation,
    n: u32,
    (fill, ink): (&str, &str),
) {
    let rot = facing.unwrap_or(0.0);
    let dashed = if formation == Formation::Skirmish {
        r##" stroke-dasharray="2 1.5""##
    } else {
        ""
    };
    let _ = write!(
        out,
        r##"<g transform="translate({} {}) rotate({})"><rect x="{}" y="{}" width="{}" height="{}" fill="#fff" fill-opacity="0.7" stroke="{ink}" stroke-width="0.8"{dashed}/><rect x="{}" y="{}" width="{}" height="{}" fill="{fill}" fill-opacity="0.22"/>"##,
        f(c.0),
        f(c.1),
        f(rot),
        f(-w / 2.0),
        f(-d / 2.0),
        f(w),
        f(d),
        f(-w / 2.0),
        f(-d / 2.0),
        f(w),
        f(d),
    );
    if facing.is_some() {
        // The front edge, thick, and a wedge at its middle: which way the base faces.
        let t = (d * 0.45).clamp(3.0, 7.0);
        let _ = write!(
            out,
            r##"<path d="M{} {}H{}" stroke="{ink}" stroke-width="2.2"/><path d="M{} {}L0 {}L{} {}Z" fill="{ink}"/>"##,
            f(-w / 2.0),
            f(-d / 2.0),
            f(w / 2.0),
            f(-t),
            f(-d / 2.0),
            f(-d / 2.0 - t),
            f(t),
            f(-d / 2.0)
        );
    }
    out.push_str(&formation_extra(formation, w, d, ink));
    let pts = figures(formation, w, d, n);
    let r = (w.min(d * 2.0) / (pts.len() as f64).sqrt() / 4.0).clamp(0.9, 2.4);
    for (x, y) in pts {
        if formation == Formation::Mounted {
            let _ = write!(
                out,
                r##"<ellipse cx="{}" cy="{}" rx="{}" ry="{}" fill="{fill}" stroke="#111" stroke-width="0.4"/>"##,
                f(x),
                f(y),
                f(r * 0.75),
                f(r * 1.6)
            );
        } else {
            let _ = write!(
                out,
                r##"<circle cx="{}" cy="{}" r="{}" fill="{fill}" stroke="#111" stroke-width="0.4"/>"##,
                f(x),
                f(y),
                f(r)
            );
        }
    }
    out.push_str("</g>");
}

/// What a counter `side` wide at `c` covers: its body and, with a facing, its wedge.
pub(crate) fn counter_extent(c: P, side: f64, facing: Option<f64>) -> Bx {
    let mut b = Bx::new(c.0 - side / 2.0, c.1 - side / 2.0, side, side);
    if let Some(h) = facing {
        for p in facing_wedge(c, side, h) {
            (b.x0, b.y0) = (b.x0.min(p.0), b.y0.min(p.1));
            (b.x1, b.y1) = (b.x1.max(p.0), b.y1.max(p.1));
        }
    }
    b
}

/// Where each counter stands on the map and what it covers on the picture (ships and bases
/// have none).
pub(crate) fn counter_extents(fr: &Frame, scene: &Scene) -> Vec<(At, Bx)> {
    scene
        .units
        .iter()
        .filter_map(|u| match &u.kind {
            UnitKind::Counter { size, .. } => {
                let c = fr.px(u.at);
                Some((u.at, counter_extent(c, fr.counter_size(*size), u.facing)))
            }
            _ => None,
        })
        .collect()
}

/// What each unit's piece covers on the picture, in scene order: a ship's hull (its length
/// along its heading, its beam across), a counter's body and wedge, a base's turned rectangle.
pub(crate) fn extents(fr: &Frame, scene: &Scene) -> Vec<Bx> {
    let bbox = |pts: &[P]| {
        pts.iter()
            .skip(1)
            .fold(Bx::new(pts[0].0, pts[0].1, 0.0, 0.0), |b, p| Bx {
                x0: b.x0.min(p.0),
                y0: b.y0.min(p.1),
                x1: b.x1.max(p.0),
                y1: b.y1.max(p.1),
            })
    };
    scene
        .units
        .iter()
        .map(|u| {
            let (x, y) = fr.px(u.at);
            match &u.kind {
                UnitKind::Ship { class, length } => {
                    let len = (length * fr.scale).max(9.0);
                    let (_, half_beam) = hull_points(class, len);
                    let (dx, dy) = super::svg::towards(u.facing.unwrap_or(90.0));
                    let (ax, ay) = (dx * len / 2.0, dy * len / 2.0);
                    let (bx, by) = (-dy * half_beam, dx * half_beam);
                    bbox(&[
                        (x + ax + bx, y + ay + by),
                        (x + ax - bx, y + ay - by),
                        (x - ax + bx, y - ay + by),
                        (x - ax - bx, y - ay - by),
                    ])
                }
                UnitKind::Counter { size, .. } => {
                    counter_extent((x, y), fr.counter_size(*size), u.facing)
                }
                UnitKind::Base { width, depth, .. } => {
                    let (w, d) = ((width * fr.scale).max(14.0), (depth * fr.scale).max(7.0));
                    // Across the front and towards it (the facing wedge stands out of it).
                    let (fx, fy) = super::svg::towards(u.facing.unwrap_or(0.0));
                    let (ax, ay) = (-fy * w / 2.0, fx * w / 2.0);
                    let wedge = if u.facing.is_some() {
                        (d * 0.45).clamp(3.0, 7.0)
                    } else {
                        0.0
                    };
                    let (front, back) = (d / 2.0 + wedge, d / 2.0);
                    bbox(&[
                        (x + ax + fx * front, y + ay + fy * front),
                        (x - ax + fx * front, y - ay + fy * front),
                        (x + ax - fx * back, y + ay - fy * back),
                        (x - ax - fx * back, y - ay - fy * back),
                    ])
                }
            }
        })
        .collect()
}

/// Every piece; returns what labels must keep clear of.
pub(crate) fn draw(out: &mut String, fr: &Frame, scene: &Scene) -> Vec<Obstacle> {
    let mut obstacles = Vec::new();
    for u in &scene.units {
        let (x, y) = fr.px(u.at);
        let si = side_index(scene, &u.side);
        let live = u.condition == Condition::Active;
        match &u.kind {
            UnitKind::Ship { class, length } => {
                obstacles.push(ship(out, fr, u, si, class, *length));
            }
            UnitKind::Counter {
                symbol,
                value,
                size,
            } => {
                let side = fr.counter_size(*size);
                let fill = if live { SIDE_FILL[si] } else { WRECK };
                counter(out, (x, y), side, fill, u.facing, symbol, value.as_deref());
                // The wedge reaches out from the edge by 0.42 of the side (at most 30 px).
                let reach = side / 2.0 + side.min(30.0) * 0.42;
                obstacles.push(Obstacle::Box(counter_extent((x, y), side, None)));
                if let Some(h) = u.facing {
                    let (dx, dy) = super::svg::towards(h);
                    let tip = (x + dx * reach, y + dy * reach);
                    obstacles.push(Obstacle::Seg {
                        a: (x, y),
                        b: tip,
                        r: side * 0.3,
                    });
                }
            }
            UnitKind::Base {
                width,
                depth,
                formation,
                figures,
                ..
            } => {
                let (w, d) = ((width * fr.scale).max(14.0), (depth * fr.scale).max(7.0));
                let (fill, ink) = if live {
                    (SIDE_FILL[si], SIDE_INK[si])
                } else {
                    (WRECK, "#444")
                };
                base(
                    out,
                    (x, y),
                    (w, d),
                    u.facing,
                    *formation,
                    *figures,
                    (fill, ink),
                );
                // The base's long axis across its front, thickened by half its depth.
                let (dx, dy) = super::svg::towards(u.facing.unwrap_or(0.0) + 90.0);
                obstacles.push(Obstacle::Seg {
                    a: (x - dx * w / 2.0, y - dy * w / 2.0),
                    b: (x + dx * w / 2.0, y + dy * w / 2.0),
                    r: d / 2.0 + 2.0,
                });
            }
        }
    }
    obstacles
}

/// Declared fire and moves (only ever the viewer's own); the lines become obstacles too.
pub(crate) fn arrows(
    out: &mut String,
    defs: &mut Defs,
    obstacles: &mut Vec<Obstacle>,
    fr: &Frame,
    scene: &Scene,
) {
    for a in &scene.arrows {
        let si = side_index(scene, &a.side);
        let (x0, y0) = fr.px(a.from);
        let (x1, y1) = fr.px(a.to);
        let id = format!("arrow-{si}");
        let url = defs.add(&id, || {
            format!(
                r##"<marker id="{id}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0L10 5L0 10Z" fill="{}"/></marker>"##,
                SIDE_INK[si]
            )
        });
        obstacles.push(Obstacle::Seg {
            a: (x0, y0),
            b: (x1, y1),
            r: 1.0,
        });
        // A fire plan is dashed and thin; an ordered move is a short solid stroke between
        // counters, drawn heavier so that it reads beside them.
        let (dash, width) = match a.kind {
            ArrowKind::Fire => (r##" stroke-dasharray="5 3""##, "1.4"),
            ArrowKind::Move => ("", "2.6"),
        };
        let _ = write!(
            out,
            r##"<path d="M{} {}L{} {}" stroke="{}" stroke-width="{width}" stroke-opacity="0.85"{dash} marker-end="{url}"/>"##,
            f(x0),
            f(y0),
            f(x1),
            f(y1),
            SIDE_INK[si]
        );
    }
}
