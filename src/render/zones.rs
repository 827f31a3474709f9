//! Zones over the surface, each kind with its own look: minefields by what the viewer knows of
//! them, smoke, zones of control in their side's colour, blast circles, objectives with their
//! names, and areas in a style of the scene. Names and ids are neutral: nothing here is named
//! after a hidden state.

use std::fmt::Write as _;

use crate::engine::scene::{FieldKnown, Scene, Zone, ZoneKind};

use super::labels::{Bx, Obstacle};
use super::svg::{Defs, FRAME, Frame, INK, SIDE_FILL, esc, f, outline, shape_centre, shape_path};
use super::terrain::{area, style_of};
use super::{Face, text_width};

pub(crate) const SMOKE: (&str, &str) = ("#8c8c8c", "#6e6e6e");
pub(crate) const BLAST: (&str, &str) = ("#e74c3c", "#b03a2e");
pub(crate) const OBJECTIVE: (&str, &str) = ("#f4d03f", "#9a7d0a");

/// The hatch a minefield is filled with: red for genuine, grey for unknown.
pub(crate) fn hatch(defs: &mut Defs, genuine: bool) -> String {
    let (id, bg, ink, w) = if genuine {
        ("hatch-a", "#f3d6d2", "#a93226", 1.6)
    } else {
        ("hatch-b", "#e5e8e8", "#566573", 1.4)
    };
    defs.add(id, || {
        format!(
            r##"<pattern id="{id}" width="5" height="5" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="5" height="5" fill="{bg}"/><path d="M0 0V5" stroke="{ink}" stroke-width="{w}"/></pattern>"##
        )
    })
}

/// Fill, edge and dashes of a minefield the viewer knows this much about.
pub(crate) fn minefield_look(
    defs: &mut Defs,
    known: FieldKnown,
) -> (String, &'static str, &'static str) {
    match known {
        FieldKnown::Genuine => (hatch(defs, true), "#7b1d14", ""),
        FieldKnown::Dummy => ("#ffffff".into(), "#5d6d7e", r##" stroke-dasharray="4 2""##),
        FieldKnown::Unknown => (hatch(defs, false), "#2c3e50", ""),
    }
}

/// A small flag on a staff, its foot at `p`: the mark of an objective.
pub(crate) fn flag(p: (f64, f64), size: f64) -> String {
    let (x, y) = p;
    format!(
        r##"<path d="M{} {}V{}" stroke="{}" stroke-width="1.3"/><path d="M{} {}l{} {}l{} {}Z" fill="{}" stroke="{}" stroke-width="0.8"/>"##,
        f(x),
        f(y),
        f(y - size),
        OBJECTIVE.1,
        f(x),
        f(y - size),
        f(size * 0.75),
        f(size * 0.22),
        f(-size * 0.75),
        f(size * 0.22),
        OBJECTIVE.0,
        OBJECTIVE.1
    )
}

fn bold_name(out: &mut String, taken: &mut Vec<Bx>, text: &str, cx: f64, cy: f64) {
    let w = text_width(text, Face::Bold, 10.0);
    let _ = write!(
        out,
        r##"<text x="{}" y="{}" font-weight="bold" font-size="10" fill="{INK}" stroke="#fff" stroke-width="2.4" stroke-linejoin="round" paint-order="stroke" text-anchor="middle">{}</text>"##,
        f(cx),
        f(cy + 3.5),
        esc(text)
    );
    taken.push(Bx::new(cx - w / 2.0, cy - 6.0, w, 12.0));
}

fn side_colour(scene: &Scene, side: Option<&str>) -> &'static str {
    side.and_then(|s| scene.sides.iter().position(|i| i.id == s))
        .map_or(FRAME, |i| SIDE_FILL[i % SIDE_FILL.len()])
}

fn zone(
    out: &mut String,
    defs: &mut Defs,
    taken: &mut Vec<Bx>,
    fr: &Frame,
    scene: &Scene,
    z: &Zone,
) {
    let d = shape_path(fr, &z.shape);
    let (cx, cy) = shape_centre(fr, &z.shape);
    match &z.kind {
        ZoneKind::Minefield { known } => {
            let (fill, stroke, dash) = minefield_look(defs, *known);
            let _ = write!(
                out,
                r##"<path d="{d}" fill="{fill}" fill-opacity="0.85" stroke="{stroke}" stroke-width="1.3"{dash}/>"##
            );
            if let Some(l) = &z.label {
                let text = if *known == FieldKnown::Unknown {
                    format!("{l} ?")
                } else {
                    l.clone()
                };
                bold_name(out, taken, &text, cx, cy);
            }
        }
        ZoneKind::Smoke => {
            let _ = write!(
                out,
                r##"<path d="{d}" fill="{}" fill-opacity="0.45" stroke="{}" stroke-opacity="0.5" stroke-width="1" stroke-dasharray="2 2"/>"##,
                SMOKE.0, SMOKE.1
            );
        }
        ZoneKind::Control => {
            let c = side_colour(scene, z.side.as_deref());
            let _ = write!(
                out,
                r##"<path d="{d}" fill="{c}" fill-opacity="0.12" stroke="{c}" stroke-opacity="0.8" stroke-width="1.6" stroke-dasharray="0.5 3.5" stroke-linecap="round"/>"##
            );
        }
        ZoneKind::Blast => {
            let _ = write!(
                out,
                r##"<path d="{d}" fill="{}" fill-opacity="0.18" stroke="{}" stroke-width="1.4" stroke-dasharray="6 3"/><path d="M{} {}h10M{} {}v10" stroke="{}" stroke-width="1.2"/>"##,
                BLAST.0,
                BLAST.1,
                f(cx - 5.0),
                f(cy),
                f(cx),
                f(cy - 5.0),
                BLAST.1
            );
            if let Some(l) = &z.label {
                bold_name(out, taken, l, cx, cy + 12.0);
            }
        }
        ZoneKind::Objective => {
            let _ = write!(
                out,
                r##"<path d="{d}" fill="{}" fill-opacity="0.16" stroke="{}" stroke-width="1.8" stroke-dasharray="9 3 2 3"/>"##,
                OBJECTIVE.0, OBJECTIVE.1
            );
            // The flag stands at the centre; the name is placed once the counters are down
            // (`objective_names`), so that it can keep clear of them.
            out.push_str(&flag((cx - 2.0, cy + 5.0), 12.0));
            taken.push(Bx::new(cx - 3.0, cy - 8.0, 11.0, 14.0));
        }
        ZoneKind::Styled { style } => {
            let s = style_of(scene, style);
            area(
                out,
                defs,
                scene,
                (style, &s),
                &d,
                &outline(fr, &z.shape),
                "",
            );
            if let Some(l) = &z.label {
                bold_name(out, taken, l, cx, cy);
            }
        }
    }
}

/// Every zone: areas of a style and minefields first, then zones of control, objectives,
/// blast circles and smoke on top (smoke hides what is under it).
pub(crate) fn draw(
    out: &mut String,
    defs: &mut Defs,
    taken: &mut Vec<Bx>,
    fr: &Frame,
    scene: &Scene,
) {
    let layer = |k: &ZoneKind| match k {
        ZoneKind::Styled { .. } | ZoneKind::Minefield { .. } => 0,
        ZoneKind::Control => 1,
        ZoneKind::Objective => 2,
        ZoneKind::Blast => 3,
        ZoneKind::Smoke => 4,
    };
    let mut order: Vec<&Zone> = scene.zones.iter().collect();
    order.sort_by_key(|z| layer(&z.kind));
    for z in order {
        zone(out, defs, taken, fr, scene, z);
    }
}

/// The objectives' names, placed after the counters (`obstacles`) and before the units' labels:
/// inside the top of the area, where it least covers what stands at the centre, else under the
/// flag, else just above or below the area — the first spot no counter and no label covers.
/// Where every spot is covered the first is used, drawn over the counter (a name matters more
/// than a counter's corner). Drawn before, under the counters, a one-hex objective's name was
/// hidden by the counter on it or next to it.
pub(crate) fn objective_names(
    fr: &Frame,
    scene: &Scene,
    obstacles: &[Obstacle],
    taken: &mut Vec<Bx>,
) -> String {
    let mut out = String::new();
    for z in scene.zones.iter().filter(|z| z.kind == ZoneKind::Objective) {
        let Some(l) = z.label.as_deref().filter(|l| !l.is_empty()) else {
            continue;
        };
        let (cx, cy) = shape_centre(fr, &z.shape);
        let ys: Vec<f64> = outline(fr, &z.shape).iter().map(|p| p.1).collect();
        let top = ys.iter().copied().fold(f64::INFINITY, f64::min);
        let bottom = ys.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let mut spots = Vec::new();
        if top.is_finite() && cy - top > 30.0 {
            spots.push(top + 13.0);
        }
        spots.push(cy - 16.0);
        spots.push(cy + 18.0);
        if top.is_finite() {
            spots.extend([top - 8.0, bottom + 8.0]);
        }
        let w = text_width(l, Face::Bold, 10.0);
        let free = |y: f64| {
            let b = Bx::new(cx - w / 2.0, y - 6.0, w, 12.0);
            !obstacles.iter().any(|o| o.hits_box(&b)) && !taken.iter().any(|t| t.overlaps(&b, 1.0))
        };
        let y = spots.iter().copied().find(|y| free(*y)).unwrap_or(spots[0]);
        bold_name(&mut out, taken, l, cx, y);
    }
    out
}
