//! Terrain as the scene's styles say: the ground, areas with their fill, edge and pattern,
//! lines (roads, rivers, walls) with their casing, and the names of places drawn inside them
//! where they fit. It reads styles only from the scene; it knows no ruleset's terrain.

use std::fmt::Write as _;

use crate::engine::scene::{Form, Pattern, Scene, Shape, Style};

use super::labels::{Bx, Obstacle, P};
use super::svg::{
    BACKGROUND, BEYOND, Defs, FRAME, Frame, INK, PAPER, esc, f, outline, path_of, shape_path,
};
use super::{Face, text_width};

const NAME_SIZE: f64 = 10.0;
/// A line never thinner than this on the picture, so a narrow track still shows.
const MIN_LINE: f64 = 2.5;

/// A style the scene names but does not carry: drawn plain grey rather than not at all.
fn fallback() -> Style {
    let mut s = Style::area("#d5d5d5").expect("a colour");
    s.edge = Some("#999999".try_into().expect("a colour"));
    s
}

pub(crate) fn style_of(scene: &Scene, name: &str) -> Style {
    scene.styles.get(name).cloned().unwrap_or_else(fallback)
}

/// The colour a style's pattern and name are drawn in.
fn ink(s: &Style) -> &str {
    s.ink
        .as_ref()
        .or(s.edge.as_ref())
        .map_or(INK, |c| c.as_str())
}

/// The tile of a pattern in `ink`, as a `<pattern>` with this `id`; none for patterns that
/// are not tiles.
fn tile(id: &str, p: Pattern, ink: &str) -> Option<String> {
    let (w, h, rot, body) = match p {
        Pattern::None | Pattern::Contours => return None,
        Pattern::Trees => (
            16.0,
            14.0,
            0,
            format!(
                r##"<circle cx="4.5" cy="4.5" r="2.8" fill="{ink}" fill-opacity="0.3" stroke="{ink}" stroke-width="0.8"/><circle cx="12" cy="10.5" r="2.8" fill="{ink}" fill-opacity="0.3" stroke="{ink}" stroke-width="0.8"/>"##
            ),
        ),
        Pattern::Thicket => (
            8.0,
            8.0,
            0,
            format!(
                r##"<circle cx="2" cy="2" r="1.9" fill="{ink}" fill-opacity="0.45" stroke="{ink}" stroke-width="0.6"/><circle cx="6" cy="6" r="1.9" fill="{ink}" fill-opacity="0.45" stroke="{ink}" stroke-width="0.6"/><circle cx="6" cy="1.5" r="1.2" fill="{ink}" fill-opacity="0.6"/>"##
            ),
        ),
        Pattern::Tufts => (
            14.0,
            12.0,
            0,
            format!(
                r##"<path d="M4 6l-2 -3M4 6v-3.5M4 6l2 -3M11 12l-2 -3M11 12v-3.5M11 12l2 -3" stroke="{ink}" stroke-width="0.8" fill="none" stroke-linecap="round"/>"##
            ),
        ),
        Pattern::Dots => (
            9.0,
            9.0,
            0,
            format!(
                r##"<circle cx="2" cy="2" r="1" fill="{ink}"/><circle cx="6.5" cy="6" r="0.8" fill="{ink}"/>"##
            ),
        ),
        Pattern::Hatch => (
            6.0,
            6.0,
            45,
            format!(r##"<path d="M0 0V6" stroke="{ink}" stroke-width="1.2"/>"##),
        ),
        Pattern::Crosshatch => (
            6.0,
            6.0,
            45,
            format!(r##"<path d="M0 0V6M0 0H6" stroke="{ink}" stroke-width="0.9"/>"##),
        ),
        Pattern::Waves => (
            16.0,
            8.0,
            0,
            format!(
                r##"<path d="M0 4q4 -3 8 0t8 0" stroke="{ink}" stroke-width="0.8" fill="none"/>"##
            ),
        ),
    };
    let rot = if rot == 0 {
        String::new()
    } else {
        format!(r##" patternTransform="rotate({rot})""##)
    };
    Some(format!(
        r##"<pattern id="{id}" width="{w}" height="{h}" patternUnits="userSpaceOnUse"{rot}>{body}</pattern>"##
    ))
}

/// A pattern's fill (`url(#…)`) for the style called `name`, its def added once. Ids are
/// numbered, never named after a style, so no name reaches an attribute.
fn pattern_url(defs: &mut Defs, scene: &Scene, name: &str, s: &Style) -> Option<String> {
    let n = scene
        .styles
        .keys()
        .position(|k| k == name)
        .unwrap_or(usize::MAX);
    let id = format!("pat-{n}-{:?}", s.pattern).to_lowercase();
    let def = tile(&id, s.pattern, ink(s))?;
    Some(defs.add(&id, || def))
}

/// An area `d` in style `s`: fill, pattern, edge and (for high ground) contours inside.
pub(crate) fn area(
    out: &mut String,
    defs: &mut Defs,
    scene: &Scene,
    (name, s): (&str, &Style),
    d: &str,
    inner: &[P],
    dash: &str,
) {
    let opacity = s.opacity.clamp(0.0, 1.0);
    let op = if opacity < 1.0 {
        format!(r##" fill-opacity="{opacity}""##)
    } else {
        String::new()
    };
    let _ = write!(out, r##"<path d="{d}" fill="{}"{op}"##, s.fill.as_str());
    match &s.edge {
        Some(e) => {
            let _ = write!(
                out,
                r##" stroke="{}" stroke-width="0.9"{dash}/>"##,
                e.as_str()
            );
        }
        None => out.push_str("/>"),
    }
    if let Some(url) = pattern_url(defs, scene, name, s) {
        let _ = write!(out, r##"<path d="{d}" fill="{url}"/>"##);
    }
    if s.pattern == Pattern::Contours && inner.len() >= 3 {
        let n = inner.len() as f64;
        let c = (
            inner.iter().map(|p| p.0).sum::<f64>() / n,
            inner.iter().map(|p| p.1).sum::<f64>() / n,
        );
        for k in [0.68, 0.36] {
            let ring: Vec<P> = inner
                .iter()
                .map(|p| (c.0 + (p.0 - c.0) * k, c.1 + (p.1 - c.1) * k))
                .collect();
            let _ = write!(
                out,
                r##"<path d="{}" fill="none" stroke="{}" stroke-width="0.8" stroke-opacity="0.8"/>"##,
                path_of(&ring, true),
                ink(s)
            );
        }
    }
}

/// A line along `d`, `w` picture units wide, in style `s`: casing, body and its pattern.
pub(crate) fn line(out: &mut String, s: &Style, d: &str, w: f64) {
    let w = w.max(MIN_LINE);
    let opacity = s.opacity.clamp(0.0, 1.0);
    let op = if opacity < 1.0 {
        format!(r##" stroke-opacity="{opacity}""##)
    } else {
        String::new()
    };
    let common = r##" fill="none" stroke-linecap="round" stroke-linejoin="round""##;
    if let Some(e) = &s.edge {
        let _ = write!(
            out,
            r##"<path d="{d}"{common} stroke="{}" stroke-width="{}"{op}/>"##,
            e.as_str(),
            f(w + 2.0)
        );
    }
    let _ = write!(
        out,
        r##"<path d="{d}"{common} stroke="{}" stroke-width="{}"{op}/>"##,
        s.fill.as_str(),
        f(w)
    );
    match s.pattern {
        Pattern::Dots => {
            let _ = write!(
                out,
                r##"<path d="{d}" fill="none" stroke="{}" stroke-width="{}" stroke-linecap="round" stroke-dasharray="0 {}"/>"##,
                ink(s),
                f((w * 0.45).max(1.5)),
                f((w * 0.9).max(3.0))
            );
        }
        Pattern::Hatch => {
            let _ = write!(
                out,
                r##"<path d="{d}" fill="none" stroke="{}" stroke-width="{}" stroke-dasharray="1.2 {}"/>"##,
                ink(s),
                f(w + 2.0),
                f((w * 0.8).max(3.0))
            );
        }
        _ => {}
    }
}

/// The drawn width of a line shape: its own, else its style's, in picture units.
fn line_width(fr: &Frame, s: &Style, width: f64) -> f64 {
    let w = if width > 0.0 {
        width
    } else {
        s.width.unwrap_or(0.0)
    };
    (w * fr.scale).max(MIN_LINE)
}

/// The ground and every terrain piece. Pieces reach beyond the map (a wood across its edge, a
/// river's round cap): [`margin`], drawn next, paints the paper over what lies outside. A
/// clipped group would do the same for the eye, but resvg draws a clipped group as an
/// offscreen layer the size of all its children, up to four times the canvas: that layer was
/// most of a map picture's drawing time (issue 32 point 2).
pub(crate) fn draw(body: &mut String, defs: &mut Defs, fr: &Frame, scene: &Scene) {
    let r = &fr.rect;
    let rect = format!(
        r##"<rect x="{}" y="{}" width="{}" height="{}""##,
        f(r.x0),
        f(r.y0),
        f(r.x1 - r.x0),
        f(r.y1 - r.y0)
    );
    // The ground is the map's rectangle in its style's fill and pattern (the frame is its edge).
    match &scene.ground {
        Some(g) => {
            let s = style_of(scene, g);
            let opacity = s.opacity.clamp(0.0, 1.0);
            let op = if opacity < 1.0 {
                format!(r##" fill-opacity="{opacity}""##)
            } else {
                String::new()
            };
            let _ = write!(body, r##"{rect} fill="{}"{op}/>"##, s.fill.as_str());
            if let Some(url) = pattern_url(defs, scene, g, &s) {
                let _ = write!(body, r##"{rect} fill="{url}"/>"##);
            }
        }
        None => {
            let _ = write!(body, r##"{rect} fill="{PAPER}"/>"##);
        }
    }
    for t in &scene.terrain {
        let s = style_of(scene, &t.style);
        let d = shape_path(fr, &t.shape);
        match &t.shape {
            Shape::Line { width, .. } => line(body, &s, &d, line_width(fr, &s, *width)),
            shape => area(
                body,
                defs,
                scene,
                (&t.style, &s),
                &d,
                &outline(fr, shape),
                "",
            ),
        }
    }
    if !scene.terrain.is_empty() {
        margin(body, fr);
    }
}

/// Everything outside the map's rectangle painted in the picture's background, in one path
/// (the map a hole in it, even-odd): over terrain that reaches beyond the map, this leaves
/// what a clip to the rectangle leaves, anti-aliased edge included (a pixel the rectangle
/// covers by `c` shows the terrain by `c` and the background by `1 - c` either way). One path,
/// not four bands: bands would leave a faint seam where their anti-aliased edges meet. Only
/// the background was under it (the header is drawn after it); a crop's viewBox never
/// reaches [`BEYOND`].
fn margin(body: &mut String, fr: &Frame) {
    let r = &fr.rect;
    let (o, b) = (f(-BEYOND), f(BEYOND));
    let (x0, y0, x1, y1) = (f(r.x0), f(r.y0), f(r.x1), f(r.y1));
    let _ = write!(
        body,
        r##"<path d="M{o} {o}H{b}V{b}H{o}ZM{x0} {y0}V{y1}H{x1}V{y0}Z" fill="{BACKGROUND}" fill-rule="evenodd"/>"##
    );
}

/// Is this spot free of units, their labels and other names?
fn free(b: &Bx, obstacles: &[Obstacle], taken: &[Bx], map: &Bx) -> bool {
    b.x0 >= map.x0 + 1.0
        && b.y0 >= map.y0 + 1.0
        && b.x1 <= map.x1 - 1.0
        && b.y1 <= map.y1 - 1.0
        && !taken.iter().any(|t| t.overlaps(b, 1.0))
        && !obstacles.iter().any(|o| o.hits_box(b))
}

/// A name inside an area: near its middle, wholly inside, clear of everything placed.
fn area_spot(poly: &[P], w: f64, obstacles: &[Obstacle], taken: &[Bx], map: &Bx) -> Option<Bx> {
    let n = poly.len().max(1) as f64;
    let c = (
        poly.iter().map(|p| p.0).sum::<f64>() / n,
        poly.iter().map(|p| p.1).sum::<f64>() / n,
    );
    let h = NAME_SIZE + 3.0;
    // Spots nearest the middle first: a quarter of the name's width across, a line down.
    let mut steps: Vec<(f64, f64)> = (-4..=4)
        .flat_map(|i| (-3..=3).map(move |j| (f64::from(i) * w / 4.0, f64::from(j) * h)))
        .collect();
    steps.sort_by(|a, b| (a.0.hypot(a.1)).total_cmp(&b.0.hypot(b.1)));
    steps.into_iter().find_map(|(dx, dy)| {
        let b = Bx::new(c.0 + dx - w / 2.0, c.1 + dy - h / 2.0, w, h);
        // Two units of margin inside the outline.
        let inner = Bx::new(b.x0 - 2.0, b.y0 - 2.0, w + 4.0, h + 4.0);
        (super::svg::box_inside(poly, &inner) && free(&b, obstacles, taken, map)).then_some(b)
    })
}

/// A name along a line: on its longest stretches, inside it if the line is wide enough,
/// else beside it. Returns the text's centre, its angle in degrees and its box.
fn line_spot(
    pts: &[P],
    lw: f64,
    w: f64,
    obstacles: &[Obstacle],
    taken: &[Bx],
    map: &Bx,
) -> Option<(P, f64, Bx)> {
    let mut stretches: Vec<(P, P)> = pts.windows(2).map(|s| (s[0], s[1])).collect();
    let len = |s: &(P, P)| ((s.1.0 - s.0.0).powi(2) + (s.1.1 - s.0.1).powi(2)).sqrt();
    stretches.sort_by(|a, b| len(b).total_cmp(&len(a)));
    let h = NAME_SIZE + 2.0;
    let within = lw >= NAME_SIZE + 1.0;
    for s in stretches {
        let l = len(&s);
        if l < w + 16.0 {
            continue;
        }
        let (ux, uy) = ((s.1.0 - s.0.0) / l, (s.1.1 - s.0.1) / l);
        let mut angle = uy.atan2(ux).to_degrees();
        // Text always reads left to right, or bottom to top.
        if angle > 90.0 {
            angle -= 180.0;
        } else if angle <= -90.0 {
            angle += 180.0;
        }
        let a = angle.to_radians();
        let (ca, sa) = (a.cos().abs(), a.sin().abs());
        let (bw, bh) = (w * ca + h * sa, w * sa + h * ca);
        let off = if within {
            0.0
        } else {
            lw / 2.0 + h / 2.0 + 1.0
        };
        for t in [0.5, 0.3, 0.7, 0.18, 0.82] {
            let along = (s.0.0 + (s.1.0 - s.0.0) * t, s.0.1 + (s.1.1 - s.0.1) * t);
            for side in [-1.0, 1.0] {
                // Beside the line: off to one side, the side along the text's "up".
                let c = (
                    along.0 + side * off * a.sin(),
                    along.1 - side * off * a.cos(),
                );
                let b = Bx::new(c.0 - bw / 2.0, c.1 - bh / 2.0, bw, bh);
                if free(&b, obstacles, taken, map) {
                    return Some((c, angle, b));
                }
                if within {
                    break;
                }
            }
        }
    }
    None
}

/// The names of named terrain, where each fits; returns the SVG and the names that found no
/// room (with their legend word), for the caller to list below the map.
pub(crate) fn names(
    fr: &Frame,
    scene: &Scene,
    obstacles: &[Obstacle],
    taken: &mut Vec<Bx>,
) -> (String, Vec<(String, String)>) {
    let mut svg = String::new();
    let mut unfit = Vec::new();
    // An area's name keeps off the lines drawn over the area (a road through a wood).
    let mut over_lines: Vec<Obstacle> = obstacles.to_vec();
    for t in &scene.terrain {
        if let Shape::Line { points, width } = &t.shape {
            let r = line_width(fr, &style_of(scene, &t.style), *width) / 2.0 + 1.0;
            over_lines.extend(points.windows(2).map(|p| Obstacle::Seg {
                a: fr.px(p[0]),
                b: fr.px(p[1]),
                r,
            }));
        }
    }
    for t in &scene.terrain {
        let Some(name) = t.label.as_deref().filter(|n| !n.is_empty()) else {
            continue;
        };
        let s = style_of(scene, &t.style);
        let w = text_width(name, Face::Sans, NAME_SIZE) + 2.0;
        let colour = ink(&s).to_string();
        let placed = match &t.shape {
            Shape::Line { points, width } => {
                let pts: Vec<P> = points.iter().map(|p| fr.px(*p)).collect();
                let lw = line_width(fr, &s, *width);
                line_spot(&pts, lw, w, obstacles, taken, &fr.rect).map(|(c, angle, b)| {
                    let within = lw >= NAME_SIZE + 1.0;
                    (c, angle, b, within)
                })
            }
            // Off the lines if it can be, else over one (a name matters more than a road).
            shape => {
                let poly = outline(fr, shape);
                area_spot(&poly, w, &over_lines, taken, &fr.rect)
                    .or_else(|| area_spot(&poly, w, obstacles, taken, &fr.rect))
            }
            .map(|b| (((b.x0 + b.x1) / 2.0, (b.y0 + b.y1) / 2.0), 0.0, b, false)),
        };
        match placed {
            Some((c, angle, b, within)) => {
                let rot = if angle == 0.0 {
                    String::new()
                } else {
                    format!(
                        r##" transform="rotate({} {} {})""##,
                        f(angle),
                        f(c.0),
                        f(c.1)
                    )
                };
                // On a wide line the line itself is the background; elsewhere a soft halo.
                let halo = if within {
                    String::new()
                } else {
                    r##" stroke="#fff" stroke-opacity="0.75" stroke-width="2.4" stroke-linejoin="round" paint-order="stroke""##.to_string()
                };
                let _ = write!(
                    svg,
                    r##"<text x="{}" y="{}" font-size="{NAME_SIZE}" font-style="italic" fill="{}" text-anchor="middle"{halo}{rot}>{}</text>"##,
                    f(c.0),
                    f(c.1 + NAME_SIZE * 0.35),
                    if within { FRAME } else { colour.as_str() },
                    esc(name)
                );
                taken.push(b);
            }
            None => unfit.push((name.to_string(), s.word(&t.style).to_string())),
        }
    }
    (svg, unfit)
}

/// Is this style drawn as a line in a legend?
pub(crate) fn is_line(s: &Style) -> bool {
    s.form == Form::Line
}
