//! Draws a `Scene` as an SVG document: surface, terrain, zones, tracks, units, labels, markers,
//! legend, scale and heading. It writes only what the scene holds (a scene is already filtered
//! for its viewer), and names nothing after hidden states: ids and classes are neutral.

use std::fmt::Write as _;

use crate::engine::scene::{
    ArrowKind, At, Condition, FieldKnown, LegendEntry, Marker, Scene, Shape, Surface, Symbol,
    Terrain, Unit, UnitKind, ZoneKind,
};

use crate::board::hex::{Address, Hex, HexGrid, MapBounds};

use super::labels::{self, Bx, Obstacle, P, Want};
use super::{Face, text_width};

/// Width of every picture in SVG units; a PNG scales it to the pixels asked for.
pub const DESIGN_WIDTH: f64 = 800.0;
const MARGIN: f64 = 10.0;
const HEADER: f64 = 50.0;
/// Room left of and below the map for the coordinate rulers.
const RULER_LEFT: f64 = 22.0;
const RULER_BELOW: f64 = 14.0;
const MAX_MAP_HEIGHT: f64 = 760.0;

const LABEL_SIZE: f64 = 11.0;
const LABEL_H: f64 = 13.0;
const BADGE_SIZE: f64 = 8.5;
const LEGEND_SIZE: f64 = 11.0;

const SEA: &str = "#cfe3f1";
const GRID: &str = "#b2cde2";
const INK: &str = "#1b1b1b";
const FRAME: &str = "#2c3e50";
const WRECK: &str = "#7d7d7d";
const HITS: &str = "#e67e22";
const CRITICAL: &str = "#c0392b";
/// Hull colours by side order, and darker inks for their names.
const SIDE_FILL: [&str; 4] = ["#c62828", "#1f3f99", "#2e7d32", "#6a1b9a"];
const SIDE_INK: [&str; 4] = ["#8e1b12", "#142a6b", "#1b5e20", "#4a148c"];

fn f(v: f64) -> String {
    let r = (v * 10.0).round() / 10.0;
    if r == r.trunc() {
        format!("{}", r as i64)
    } else {
        format!("{r:.1}")
    }
}

/// Text for XML: every character a player may type is safe in a name.
fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&apos;"),
            c if c.is_control() => {}
            c => o.push(c),
        }
    }
    o
}

/// How map units become picture units.
struct Frame {
    /// The map's rectangle on the picture.
    rect: Bx,
    /// Picture units per map unit (per inch, or per hex size).
    scale: f64,
    kind: FrameKind,
}

enum FrameKind {
    /// y up the table from 0 to `height`.
    Table { height: f64 },
    /// y down the sheet; `min` is the map-coordinate corner drawn at the rectangle's corner.
    Hex { grid: HexGrid, min: (f64, f64) },
}

impl Frame {
    fn new(surface: &Surface) -> Frame {
        let left = MARGIN + RULER_LEFT;
        let avail = DESIGN_WIDTH - left - MARGIN;
        match surface {
            Surface::Table { width, height, .. } => {
                let (w, h) = (width.max(1.0), height.max(1.0));
                let scale = (avail / w).min(MAX_MAP_HEIGHT / h);
                let x0 = left + (avail - w * scale) / 2.0;
                Frame {
                    rect: Bx::new(x0, HEADER, w * scale, h * scale),
                    scale,
                    kind: FrameKind::Table { height: h },
                }
            }
            Surface::Hex { grid, bounds } => {
                let (mut x0, mut y0, mut x1, mut y1) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
                let mut first = true;
                for h in sheet(grid, bounds) {
                    for c in grid.corners(h, 1.0) {
                        if first {
                            (x0, y0, x1, y1) = (c.x, c.y, c.x, c.y);
                            first = false;
                        }
                        (x0, y0) = (x0.min(c.x), y0.min(c.y));
                        (x1, y1) = (x1.max(c.x), y1.max(c.y));
                    }
                }
                let (w, h) = ((x1 - x0).max(1.0), (y1 - y0).max(1.0));
                // Hexes never shrink below 24 units corner to corner: a big sheet makes a
                // wide picture rather than an unreadable one.
                let scale = (avail / w).max(12.0);
                Frame {
                    rect: Bx::new(left, HEADER, w * scale, h * scale),
                    scale,
                    kind: FrameKind::Hex {
                        grid: *grid,
                        min: (x0, y0),
                    },
                }
            }
        }
    }

    fn px(&self, a: At) -> P {
        match &self.kind {
            FrameKind::Table { height } => (
                self.rect.x0 + a.x * self.scale,
                self.rect.y0 + (height - a.y) * self.scale,
            ),
            FrameKind::Hex { min, .. } => (
                self.rect.x0 + (a.x - min.0) * self.scale,
                self.rect.y0 + (a.y - min.1) * self.scale,
            ),
        }
    }

    fn hex_corners(&self, address: Address) -> Vec<P> {
        match &self.kind {
            FrameKind::Hex { grid, .. } => grid
                .corners(grid.hex(address), 1.0)
                .iter()
                .map(|c| self.px(At::new(c.x, c.y)))
                .collect(),
            FrameKind::Table { .. } => vec![],
        }
    }

    /// Side of a square counter.
    fn counter_size(&self) -> f64 {
        match self.kind {
            FrameKind::Table { .. } => (self.scale * 0.75).clamp(10.0, 28.0),
            FrameKind::Hex { .. } => self.scale * 1.1,
        }
    }

    /// Picture radians of a compass bearing (0 = up the map).
    fn angle(heading: f64) -> f64 {
        (heading - 90.0).to_radians()
    }

    fn width(&self) -> f64 {
        (self.rect.x1 + MARGIN).max(DESIGN_WIDTH)
    }
}

/// Every printed hex of the sheet.
fn sheet(grid: &HexGrid, b: &MapBounds) -> impl Iterator<Item = Hex> {
    let grid = *grid;
    let b = *b;
    (b.first_column..=b.last_column).flat_map(move |column| {
        (b.first_row..=b.last_row).map(move |row| grid.hex(Address { column, row }))
    })
}

fn side_index(scene: &Scene, side: &str) -> usize {
    scene
        .sides
        .iter()
        .position(|s| s.id == side)
        .unwrap_or(scene.sides.len())
        % SIDE_FILL.len()
}

fn terrain_fill(t: Terrain) -> &'static str {
    match t {
        Terrain::Sea => SEA,
        Terrain::Shallows => "#a9d6e5",
        Terrain::Land => "#e8dcc0",
        Terrain::Open => "#eef0d8",
        Terrain::Woods => "#9cc49a",
        Terrain::Hill => "#d9c49a",
        Terrain::Town => "#c9b8a8",
        Terrain::Rough => "#cfc7a8",
        Terrain::Marsh => "#b7d3b0",
        Terrain::River => "#7fb6d9",
    }
}

fn shape_path(fr: &Frame, s: &Shape) -> String {
    let pts: Vec<P> = match s {
        Shape::Polygon { points } => points.iter().map(|p| fr.px(*p)).collect(),
        Shape::Rect {
            centre,
            heading,
            length,
            width,
        } => {
            // `length` runs along the heading, `width` across it (as the tabletop Rect).
            let (c, s) = (heading.to_radians().cos(), heading.to_radians().sin());
            let (along, across) = ((s, c), (c, -s));
            [(1.0, 1.0), (1.0, -1.0), (-1.0, -1.0), (-1.0, 1.0)]
                .iter()
                .map(|(a, b)| {
                    fr.px(At::new(
                        centre.x + a * along.0 * length / 2.0 + b * across.0 * width / 2.0,
                        centre.y + a * along.1 * length / 2.0 + b * across.1 * width / 2.0,
                    ))
                })
                .collect()
        }
        Shape::Circle { centre, radius } => {
            let (x, y) = fr.px(*centre);
            let r = radius * fr.scale;
            return format!(
                "M{} {}a{r} {r} 0 1 0 {} 0a{r} {r} 0 1 0 {} 0Z",
                f(x - r),
                f(y),
                f(2.0 * r),
                f(-2.0 * r),
                r = f(r)
            );
        }
        Shape::Hex { address } => fr.hex_corners(*address),
    };
    let mut d = String::new();
    for (i, (x, y)) in pts.iter().enumerate() {
        let _ = write!(d, "{}{} {}", if i == 0 { "M" } else { "L" }, f(*x), f(*y));
    }
    d.push('Z');
    d
}

fn shape_centre(fr: &Frame, s: &Shape) -> P {
    match s {
        Shape::Polygon { points } => {
            let n = points.len().max(1) as f64;
            fr.px(At::new(
                points.iter().map(|p| p.x).sum::<f64>() / n,
                points.iter().map(|p| p.y).sum::<f64>() / n,
            ))
        }
        Shape::Rect { centre, .. } | Shape::Circle { centre, .. } => fr.px(*centre),
        Shape::Hex { address } => {
            let c = fr.hex_corners(*address);
            let n = c.len().max(1) as f64;
            (
                c.iter().map(|p| p.0).sum::<f64>() / n,
                c.iter().map(|p| p.1).sum::<f64>() / n,
            )
        }
    }
}

/// The hull outline of a ship `len` long pointing along +x, centred on 0,0, its half-beam, and
/// (for big ships) the superstructure drawn on top.
fn hull_points(class: &str, len: f64) -> (String, f64) {
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
        // The superstructure, a lighter block amidships (even-odd fill makes it a hole).
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

/// A small label badge: text on a coloured pill.
struct Badge {
    text: String,
    fill: &'static str,
    w: f64,
}

fn badges(u: &Unit) -> (String, Vec<Badge>, String) {
    let mut prefix = String::new();
    let mut out = Vec::new();
    let mut notes = Vec::new();
    let mut crit = String::new();
    for m in &u.markers {
        match m {
            Marker::Flagship => prefix = "★".into(),
            Marker::SecondInCommand => prefix = "☆".into(),
            Marker::Hits(n) if *n > 0 => out.push(Badge {
                text: n.to_string(),
                fill: HITS,
                w: 0.0,
            }),
            Marker::Critical(c) => crit.push_str(&c.chars().take(1).collect::<String>()),
            Marker::DeadInWater => out.push(Badge {
                text: "DIW".into(),
                fill: INK,
                w: 0.0,
            }),
            Marker::Note(n) => notes.push(n.clone()),
            Marker::Hits(_) | Marker::LayingSmoke => {}
        }
    }
    if !crit.is_empty() {
        out.push(Badge {
            text: crit,
            fill: CRITICAL,
            w: 0.0,
        });
    }
    for b in &mut out {
        b.w = (text_width(&b.text, Face::Bold, BADGE_SIZE) + 5.0).max(11.0);
    }
    (prefix, out, notes.join(", "))
}

/// One unit's label before placement.
struct LabelText {
    name: String,
    badges: Vec<Badge>,
    notes: String,
    name_w: f64,
    w: f64,
}

fn label_text(u: &Unit) -> LabelText {
    let (prefix, badges, notes) = badges(u);
    let name = if prefix.is_empty() {
        u.label.clone()
    } else {
        format!("{prefix}{}", u.label)
    };
    let name_w = text_width(&name, Face::Condensed, LABEL_SIZE);
    let mut w = name_w + badges.iter().map(|b| b.w + 2.0).sum::<f64>();
    if !notes.is_empty() {
        w += 3.0 + text_width(&notes, Face::Condensed, 9.0);
    }
    LabelText {
        name,
        badges,
        notes,
        name_w,
        w: w + 2.0,
    }
}

fn write_label(out: &mut String, lt: &LabelText, bx: &Bx, ink: &str, wreck: bool) {
    let base = bx.y0 + 10.0;
    let x = bx.x0 + 1.0;
    let _ = write!(
        out,
        r##"<text x="{}" y="{}" font-stretch="condensed" font-size="{LABEL_SIZE}" fill="{}" stroke="#fff" stroke-width="2.6" stroke-linejoin="round" paint-order="stroke"{}>{}</text>"##,
        f(x),
        f(base),
        if wreck { WRECK } else { ink },
        if wreck {
            r##" font-style="italic""##
        } else {
            ""
        },
        esc(&lt.name)
    );
    let mut bxx = x + lt.name_w + 2.0;
    for b in &lt.badges {
        let _ = write!(
            out,
            r##"<rect x="{}" y="{}" width="{}" height="11" rx="5.5" fill="{}" stroke="#fff" stroke-width="1"/><text x="{}" y="{}" font-weight="bold" font-size="{BADGE_SIZE}" fill="#fff" text-anchor="middle">{}</text>"##,
            f(bxx),
            f(bx.y0 + 1.0),
            f(b.w),
            b.fill,
            f(bxx + b.w / 2.0),
            f(base - 0.8),
            esc(&b.text)
        );
        bxx += b.w + 2.0;
    }
    if !lt.notes.is_empty() {
        let _ = write!(
            out,
            r##"<text x="{}" y="{}" font-stretch="condensed" font-size="9" font-style="italic" fill="{INK}" stroke="#fff" stroke-width="2.2" stroke-linejoin="round" paint-order="stroke">{}</text>"##,
            f(bxx + 1.0),
            f(base),
            esc(&lt.notes)
        );
    }
}

/// Draws the picture.
pub(crate) fn draw(scene: &Scene) -> String {
    let fr = Frame::new(&scene.surface);
    let width = fr.width();
    let mut body = String::new();
    let mut defs = String::new();
    let mut used_defs = std::collections::BTreeSet::new();

    // Surface.
    let _ = write!(
        body,
        r##"<rect x="{}" y="{}" width="{}" height="{}" fill="{}"/>"##,
        f(fr.rect.x0),
        f(fr.rect.y0),
        f(fr.rect.x1 - fr.rect.x0),
        f(fr.rect.y1 - fr.rect.y0),
        terrain_fill(scene.ground)
    );
    for t in &scene.terrain {
        let _ = write!(
            body,
            r##"<path d="{}" fill="{}" stroke="{}" stroke-width="0.6"/>"##,
            shape_path(&fr, &t.shape),
            terrain_fill(t.terrain),
            FRAME
        );
    }
    let mut obstacles: Vec<Obstacle> = Vec::new();
    let mut taken: Vec<Bx> = Vec::new();
    grid_and_rulers(&mut body, &fr, scene);

    // Zones: minefields under smoke.
    for z in &scene.zones {
        let d = shape_path(&fr, &z.shape);
        match &z.kind {
            ZoneKind::Minefield { known } => {
                let (fill, stroke, dash) = match known {
                    FieldKnown::Genuine => {
                        used_defs.insert("hatch-a");
                        ("url(#hatch-a)", "#7b1d14", "")
                    }
                    FieldKnown::Dummy => ("#ffffff", "#5d6d7e", r##" stroke-dasharray="4 2""##),
                    FieldKnown::Unknown => {
                        used_defs.insert("hatch-b");
                        ("url(#hatch-b)", "#2c3e50", "")
                    }
                };
                let _ = write!(
                    body,
                    r##"<path d="{d}" fill="{fill}" fill-opacity="0.85" stroke="{stroke}" stroke-width="1.3"{dash}/>"##
                );
                if let Some(l) = &z.label {
                    let text = if *known == FieldKnown::Unknown {
                        format!("{l} ?")
                    } else {
                        l.clone()
                    };
                    let (cx, cy) = shape_centre(&fr, &z.shape);
                    let w = text_width(&text, Face::Bold, 10.0);
                    let _ = write!(
                        body,
                        r##"<text x="{}" y="{}" font-weight="bold" font-size="10" fill="{INK}" stroke="#fff" stroke-width="2.4" stroke-linejoin="round" paint-order="stroke" text-anchor="middle">{}</text>"##,
                        f(cx),
                        f(cy + 3.5),
                        esc(&text)
                    );
                    taken.push(Bx::new(cx - w / 2.0, cy - 6.0, w, 12.0));
                }
            }
            ZoneKind::Smoke => {
                let _ = write!(
                    body,
                    r##"<path d="{d}" fill="#8c8c8c" fill-opacity="0.45" stroke="#6e6e6e" stroke-opacity="0.5" stroke-width="1" stroke-dasharray="2 2"/>"##
                );
            }
        }
    }

    // Tracks (motion this turn), then hulls.
    for u in &scene.units {
        if u.track.is_empty() || u.condition == Condition::Wreck {
            continue;
        }
        let si = side_index(scene, &u.side);
        let points: Vec<(f64, f64)> = u
            .track
            .iter()
            .chain(std::iter::once(&u.at))
            .map(|p| fr.px(*p))
            .collect();
        // A halted ship's track has no length, and a dashed line of no length cannot be drawn.
        let length: f64 = points
            .windows(2)
            .map(|w| ((w[1].0 - w[0].0).powi(2) + (w[1].1 - w[0].1).powi(2)).sqrt())
            .sum();
        if length < 0.5 {
            continue;
        }
        let mut d = String::new();
        for (i, (x, y)) in points.iter().enumerate() {
            let _ = write!(d, "{}{} {}", if i == 0 { "M" } else { "L" }, f(*x), f(*y));
        }
        let _ = write!(
            body,
            r##"<path d="{d}" fill="none" stroke="{}" stroke-opacity="0.55" stroke-width="1.2" stroke-dasharray="3 2"/>"##,
            SIDE_FILL[si]
        );
    }
    for u in &scene.units {
        let (x, y) = fr.px(u.at);
        let si = side_index(scene, &u.side);
        let rot = u.facing.map_or(0.0, |h| h - 90.0);
        match &u.kind {
            UnitKind::Ship { class, length } => {
                let len = (length * fr.scale).max(9.0);
                let (d, half_beam) = hull_points(class, len);
                let (fill, stroke) = match u.condition {
                    Condition::Active => (SIDE_FILL[si], "#111"),
                    Condition::Wreck => (WRECK, "#444"),
                    Condition::Struck => ("#ffffff", SIDE_FILL[si]),
                };
                let _ = write!(
                    body,
                    r##"<path transform="translate({} {}) rotate({})" d="{d}" fill="{fill}" fill-rule="evenodd" stroke="{stroke}" stroke-width="0.8"/>"##,
                    f(x),
                    f(y),
                    f(rot)
                );
                if u.condition == Condition::Wreck {
                    let r = len * 0.3;
                    let _ = write!(
                        body,
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
                obstacles.push(Obstacle::Seg {
                    a: (x - c, y - s),
                    b: (x + c, y + s),
                    r: half_beam,
                });
            }
            UnitKind::Counter { symbol } => {
                let side = fr.counter_size();
                let (fill, ink) = match u.condition {
                    Condition::Active => (SIDE_FILL[si], "#fff"),
                    _ => (WRECK, "#fff"),
                };
                let _ = write!(
                    body,
                    r##"<rect x="{}" y="{}" width="{s}" height="{s}" rx="1.5" fill="{fill}" stroke="#111" stroke-width="0.8" transform="rotate({} {} {})"/><text x="{}" y="{}" font-weight="bold" font-size="{}" fill="{ink}" text-anchor="middle">{}</text>"##,
                    f(x - side / 2.0),
                    f(y - side / 2.0),
                    if u.facing.is_some() {
                        f(rot + 90.0)
                    } else {
                        "0".into()
                    },
                    f(x),
                    f(y),
                    f(x),
                    f(y + side * 0.18),
                    f(side * 0.45),
                    esc(symbol),
                    s = f(side)
                );
                obstacles.push(Obstacle::Box(Bx::new(
                    x - side / 2.0,
                    y - side / 2.0,
                    side,
                    side,
                )));
            }
        }
    }

    // Declared fire (only ever the viewer's own).
    for a in &scene.arrows {
        let si = side_index(scene, &a.side);
        let (x0, y0) = fr.px(a.from);
        let (x1, y1) = fr.px(a.to);
        let id = format!("arrow-{si}");
        if used_defs.insert(if si == 0 { "arrow-0" } else { "arrow-1" }) || si > 1 {
            let _ = write!(
                defs,
                r##"<marker id="{id}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0L10 5L0 10Z" fill="{}"/></marker>"##,
                SIDE_INK[si]
            );
        }
        // Labels keep off the line too.
        obstacles.push(Obstacle::Seg {
            a: (x0, y0),
            b: (x1, y1),
            r: 1.0,
        });
        let dash = match a.kind {
            ArrowKind::Fire => r##" stroke-dasharray="5 3""##,
            ArrowKind::Move => "",
        };
        let _ = write!(
            body,
            r##"<path d="M{} {}L{} {}" stroke="{}" stroke-width="1.4" stroke-opacity="0.85"{dash} marker-end="url(#{id})"/>"##,
            f(x0),
            f(y0),
            f(x1),
            f(y1),
            SIDE_INK[si]
        );
    }

    // Compass and scale bar, which labels keep clear of.
    if scene.compass {
        let (cx, cy) = (fr.rect.x1 - 20.0, fr.rect.y0 + 26.0);
        let _ = write!(
            body,
            r##"<g><circle cx="{x}" cy="{y}" r="13" fill="#fff" fill-opacity="0.75" stroke="{FRAME}" stroke-width="0.8"/><path d="M{x} {t}L{r} {b}L{x} {m}L{l} {b}Z" fill="{FRAME}"/><text x="{x}" y="{ty}" font-weight="bold" font-size="10" fill="{FRAME}" text-anchor="middle">N</text></g>"##,
            x = f(cx),
            y = f(cy),
            t = f(cy - 10.0),
            b = f(cy + 9.0),
            m = f(cy + 4.0),
            l = f(cx - 6.0),
            r = f(cx + 6.0),
            ty = f(cy - 16.0),
        );
        taken.push(Bx::new(cx - 15.0, cy - 26.0, 30.0, 41.0));
    }
    if let Surface::Table {
        width: tw,
        height: th,
        unit,
    } = scene.surface
    {
        let step = grid_step(tw, th);
        let len = step * 2.0 * fr.scale;
        let (x0, y0) = (fr.rect.x0 + 10.0, fr.rect.y1 - 22.0);
        let _ = write!(
            body,
            r##"<g><rect x="{}" y="{}" width="{}" height="20" rx="3" fill="#fff" fill-opacity="0.8"/><rect x="{}" y="{}" width="{}" height="4" fill="{FRAME}"/><rect x="{}" y="{}" width="{}" height="4" fill="#fff" stroke="{FRAME}" stroke-width="0.6"/>"##,
            f(x0 - 4.0),
            f(y0 - 2.0),
            f(len + 48.0),
            f(x0),
            f(y0 + 11.0),
            f(len / 2.0),
            f(x0 + len / 2.0),
            f(y0 + 11.0),
            f(len / 2.0),
        );
        for (k, v) in [0.0, step, 2.0 * step].iter().enumerate() {
            let _ = write!(
                body,
                r##"<text x="{}" y="{}" font-size="8.5" fill="{INK}" text-anchor="middle">{}</text>"##,
                f(x0 + k as f64 * len / 2.0),
                f(y0 + 8.0),
                f(*v)
            );
        }
        let _ = write!(
            body,
            r##"<text x="{}" y="{}" font-size="9" fill="{INK}">{}</text></g>"##,
            f(x0 + len + 5.0),
            f(y0 + 15.5),
            unit.word()
        );
        taken.push(Bx::new(x0 - 4.0, y0 - 2.0, len + 48.0, 20.0));
    }

    // Labels: names where there is room, numbers and a key where there is not.
    let texts: Vec<LabelText> = scene.units.iter().map(label_text).collect();
    let wants: Vec<Want> = scene
        .units
        .iter()
        .zip(&texts)
        .map(|(u, t)| Want {
            anchor: fr.px(u.at),
            axis: u.facing.map(Frame::angle),
            w: t.w,
            h: LABEL_H,
            rank: u8::from(u.condition != Condition::Active),
        })
        .collect();
    let inner = Bx::new(
        fr.rect.x0 + 1.0,
        fr.rect.y0 + 1.0,
        fr.rect.x1 - fr.rect.x0 - 2.0,
        fr.rect.y1 - fr.rect.y0 - 2.0,
    );
    let placed = labels::place(&wants, &obstacles, &mut taken, inner);
    let mut key: Vec<(usize, usize)> = Vec::new();
    let missing: Vec<usize> = (0..placed.len()).filter(|&i| placed[i].is_none()).collect();
    let numbers: Vec<String> = (1..=missing.len()).map(|n| n.to_string()).collect();
    let number_wants: Vec<Want> = missing
        .iter()
        .zip(&numbers)
        .map(|(&i, n)| Want {
            w: text_width(n, Face::Bold, 10.0) + 4.0,
            ..wants[i].clone()
        })
        .collect();
    let number_placed = labels::place(&number_wants, &obstacles, &mut taken, inner);
    let mut label_svg = String::new();
    for (i, u) in scene.units.iter().enumerate() {
        let si = side_index(scene, &u.side);
        let wreck = u.condition == Condition::Wreck;
        let (bx, leader, number) = match placed[i] {
            Some(p) => (p.bx, p.leader, None),
            None => {
                let k = missing.iter().position(|&m| m == i).unwrap_or(0);
                key.push((k + 1, i));
                match number_placed[k] {
                    Some(p) => (p.bx, p.leader, Some(&numbers[k])),
                    None => {
                        // Nowhere free even for a number: put it on the unit itself.
                        let (x, y) = wants[i].anchor;
                        (
                            Bx::new(x - 5.0, y - 6.5, 10.0, 13.0),
                            None,
                            Some(&numbers[k]),
                        )
                    }
                }
            }
        };
        if let Some((a, b)) = leader {
            let _ = write!(
                label_svg,
                r##"<path d="M{} {}L{} {}" stroke="{}" stroke-width="0.7" stroke-opacity="0.8"/>"##,
                f(a.0),
                f(a.1),
                f(b.0),
                f(b.1),
                if wreck { WRECK } else { SIDE_INK[si] }
            );
        }
        match number {
            None => write_label(&mut label_svg, &texts[i], &bx, SIDE_INK[si], wreck),
            Some(n) => {
                let _ = write!(
                    label_svg,
                    r##"<text x="{}" y="{}" font-weight="bold" font-size="10" fill="{}" stroke="#fff" stroke-width="2.4" stroke-linejoin="round" paint-order="stroke">{}</text>"##,
                    f(bx.x0 + 2.0),
                    f(bx.y0 + 10.0),
                    if wreck { WRECK } else { SIDE_INK[si] },
                    n
                );
            }
        }
    }
    body.push_str(&label_svg);
    let _ = write!(
        body,
        r##"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{FRAME}" stroke-width="1.2"/>"##,
        f(fr.rect.x0),
        f(fr.rect.y0),
        f(fr.rect.x1 - fr.rect.x0),
        f(fr.rect.y1 - fr.rect.y0)
    );

    // Below the map: legend, then the key to numbered units.
    let mut y = fr.rect.y1 + RULER_BELOW + 8.0;
    y = legend(&mut body, scene, &mut used_defs, y, width);
    if !key.is_empty() {
        key.sort();
        let items: Vec<(String, usize)> = key
            .iter()
            .map(|(n, i)| (format!("{n} {}", label_text(&scene.units[*i]).name), *i))
            .collect();
        let _ = write!(
            body,
            r##"<text x="{}" y="{}" font-size="{LEGEND_SIZE}" font-weight="bold" fill="{INK}">Numbered on the map:</text>"##,
            f(MARGIN),
            f(y + 11.0)
        );
        let mut x = MARGIN + text_width("Numbered on the map:", Face::Bold, LEGEND_SIZE) + 8.0;
        for (t, i) in items {
            let w = text_width(&t, Face::Sans, LEGEND_SIZE) + 12.0;
            if x + w > width - MARGIN {
                x = MARGIN + 12.0;
                y += 16.0;
            }
            let si = side_index(scene, &scene.units[i].side);
            let _ = write!(
                body,
                r##"<text x="{}" y="{}" font-size="{LEGEND_SIZE}" fill="{}">{}</text>"##,
                f(x),
                f(y + 11.0),
                SIDE_INK[si],
                esc(&t)
            );
            x += w;
        }
        y += 18.0;
    }
    let height = y + MARGIN;

    for d in &used_defs {
        match *d {
            "hatch-a" => defs.push_str(
                r##"<pattern id="hatch-a" width="5" height="5" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="5" height="5" fill="#f3d6d2"/><path d="M0 0V5" stroke="#a93226" stroke-width="1.6"/></pattern>"##,
            ),
            "hatch-b" => defs.push_str(
                r##"<pattern id="hatch-b" width="5" height="5" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="5" height="5" fill="#e5e8e8"/><path d="M0 0V5" stroke="#566573" stroke-width="1.4"/></pattern>"##,
            ),
            _ => {}
        }
    }

    let mut out = String::with_capacity(body.len() + 2048);
    let _ = write!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="DejaVu Sans">"##,
        w = f(width),
        h = f(height)
    );
    let _ = write!(
        out,
        r##"<title>{}</title><defs>{defs}</defs><rect width="100%" height="100%" fill="#fbfaf6"/>"##,
        esc(&format!("{} — {}", scene.title, scene.turn))
    );
    header(&mut out, scene, width);
    out.push_str(&body);
    out.push_str("</svg>\n");
    // One element a line, so snapshots and diffs read well (names are escaped: no `><` in them).
    out.replace("><", ">\n<")
}

fn header(out: &mut String, scene: &Scene, width: f64) {
    let right = width - MARGIN;
    let _ = write!(
        out,
        r##"<text x="{}" y="20" font-size="16" font-weight="bold" fill="{INK}">{}</text><text x="{}" y="20" font-size="12" font-weight="bold" fill="{INK}" text-anchor="end">{}</text>"##,
        f(MARGIN),
        esc(&scene.title),
        f(right),
        esc(&scene.viewer)
    );
    let turn_w = text_width(&scene.turn, Face::Sans, 12.0);
    let time_w = text_width(&scene.time, Face::Sans, 12.0);
    // A long turn title squeezes into the condensed face rather than run into the time.
    let condensed = turn_w + time_w + 20.0 > right - MARGIN;
    let _ = write!(
        out,
        r##"<text x="{}" y="39" font-size="12" fill="{INK}"{}>{}</text><text x="{}" y="39" font-size="12" fill="{INK}" text-anchor="end">{}</text>"##,
        f(MARGIN),
        if condensed {
            r##" font-stretch="condensed""##
        } else {
            ""
        },
        esc(&scene.turn),
        f(right),
        esc(&scene.time)
    );
}

/// A round step near `v`: 1, 2, 3, 5 or 6 times a power of ten (6 suits inches and feet).
fn nice_step(v: f64) -> f64 {
    if v <= 0.0 || !v.is_finite() {
        return 1.0;
    }
    let p = 10f64.powf(v.log10().floor());
    let m = v / p;
    let n = [1.0, 2.0, 3.0, 5.0, 6.0, 10.0]
        .into_iter()
        .min_by(|a, b| (a - m).abs().total_cmp(&(b - m).abs()))
        .unwrap_or(1.0);
    n * p
}

/// The spacing of grid lines and ruler numbers on a table (also the scale bar's step).
fn grid_step(width: f64, height: f64) -> f64 {
    nice_step(width.max(height) / 12.0)
}

fn grid_and_rulers(body: &mut String, fr: &Frame, scene: &Scene) {
    match &scene.surface {
        Surface::Table { width, height, .. } => {
            let step = grid_step(*width, *height);
            let mut d = String::new();
            let mut v = step;
            while v < *width - 1e-9 {
                let (x, _) = fr.px(At::new(v, 0.0));
                let _ = write!(d, "M{} {}V{}", f(x), f(fr.rect.y0), f(fr.rect.y1));
                v += step;
            }
            let mut v = step;
            while v < *height - 1e-9 {
                let (_, y) = fr.px(At::new(0.0, v));
                let _ = write!(d, "M{} {}H{}", f(fr.rect.x0), f(y), f(fr.rect.x1));
                v += step;
            }
            let _ = write!(
                body,
                r##"<path d="{d}" stroke="{GRID}" stroke-width="0.7" fill="none"/>"##
            );
            let mut v = 0.0;
            while v <= *width + 1e-9 {
                let (x, _) = fr.px(At::new(v, 0.0));
                let _ = write!(
                    body,
                    r##"<text x="{}" y="{}" font-size="9" fill="{FRAME}" text-anchor="middle">{}</text>"##,
                    f(x),
                    f(fr.rect.y1 + 11.0),
                    f(v)
                );
                v += step;
            }
            let mut v = 0.0;
            while v <= *height + 1e-9 {
                let (_, y) = fr.px(At::new(0.0, v));
                let _ = write!(
                    body,
                    r##"<text x="{}" y="{}" font-size="9" fill="{FRAME}" text-anchor="end">{}</text>"##,
                    f(fr.rect.x0 - 3.0),
                    f(y + 3.0),
                    f(v)
                );
                v += step;
            }
        }
        Surface::Hex { grid, bounds } => {
            let mut d = String::new();
            let mut labels = String::new();
            let size = (fr.scale * 0.3).clamp(4.0, 9.0);
            for h in sheet(grid, bounds) {
                for (i, c) in grid.corners(h, 1.0).iter().enumerate() {
                    let (x, y) = fr.px(At::new(c.x, c.y));
                    let _ = write!(d, "{}{} {}", if i == 0 { "M" } else { "L" }, f(x), f(y));
                }
                d.push('Z');
                let c = grid.centre(h, 1.0);
                let (x, y) = fr.px(At::new(c.x, c.y));
                let _ = write!(
                    labels,
                    r##"<text x="{}" y="{}">{}</text>"##,
                    f(x),
                    f(y - fr.scale * 0.86 + size + 1.0),
                    grid.label(h)
                );
            }
            let _ = write!(
                body,
                r##"<path d="{d}" stroke="{FRAME}" stroke-opacity="0.35" stroke-width="0.6" fill="none"/><g font-size="{}" fill="{FRAME}" fill-opacity="0.7" text-anchor="middle">{labels}</g>"##,
                f(size)
            );
        }
    }
}

fn swatch(
    out: &mut String,
    s: &Symbol,
    scene: &Scene,
    x: f64,
    y: f64,
    used: &mut std::collections::BTreeSet<&'static str>,
) {
    let cy = y + 7.0;
    match s {
        Symbol::Side(side)
            if scene
                .units
                .iter()
                .any(|u| u.side == *side && matches!(u.kind, UnitKind::Counter { .. })) =>
        {
            let si = side_index(scene, side);
            let _ = write!(
                out,
                r##"<rect x="{}" y="{}" width="12" height="12" rx="1.5" fill="{}" stroke="#111" stroke-width="0.8"/>"##,
                f(x + 4.0),
                f(cy - 6.0),
                SIDE_FILL[si]
            );
        }
        Symbol::Side(side) => {
            let si = side_index(scene, side);
            let (d, _) = hull_points("BB", 18.0);
            let _ = write!(
                out,
                r##"<path transform="translate({} {})" d="{d}" fill="{}" stroke="#111" stroke-width="0.8"/>"##,
                f(x + 10.0),
                f(cy),
                SIDE_FILL[si]
            );
        }
        Symbol::Wreck | Symbol::Struck => {
            let (d, _) = hull_points("BB", 18.0);
            let (fill, stroke) = if *s == Symbol::Wreck {
                (WRECK, "#444")
            } else {
                ("#fff", "#444")
            };
            let _ = write!(
                out,
                r##"<path transform="translate({} {})" d="{d}" fill="{fill}" stroke="{stroke}" stroke-width="0.8"/>"##,
                f(x + 10.0),
                f(cy)
            );
            if *s == Symbol::Wreck {
                let _ = write!(
                    out,
                    r##"<path d="M{} {}l10 10m0 -10l-10 10" stroke="#222" stroke-width="1.4"/>"##,
                    f(x + 5.0),
                    f(cy - 5.0)
                );
            }
        }
        Symbol::Hits | Symbol::Critical | Symbol::DeadInWater => {
            let (t, fill) = match s {
                Symbol::Hits => ("2", HITS),
                Symbol::Critical => ("G", CRITICAL),
                _ => ("DIW", INK),
            };
            let w = (text_width(t, Face::Bold, BADGE_SIZE) + 5.0).max(11.0);
            let _ = write!(
                out,
                r##"<rect x="{}" y="{}" width="{}" height="11" rx="5.5" fill="{fill}"/><text x="{}" y="{}" font-weight="bold" font-size="{BADGE_SIZE}" fill="#fff" text-anchor="middle">{t}</text>"##,
                f(x + 10.0 - w / 2.0),
                f(cy - 5.5),
                f(w),
                f(x + 10.0),
                f(cy + 3.0)
            );
        }
        Symbol::Flagship => {
            let _ = write!(
                out,
                r##"<text x="{}" y="{}" font-size="12" fill="{INK}" text-anchor="middle">★</text>"##,
                f(x + 10.0),
                f(cy + 4.5)
            );
        }
        Symbol::Smoke => {
            let _ = write!(
                out,
                r##"<ellipse cx="{}" cy="{}" rx="9" ry="6" fill="#8c8c8c" fill-opacity="0.45" stroke="#6e6e6e" stroke-dasharray="2 2"/>"##,
                f(x + 10.0),
                f(cy)
            );
        }
        Symbol::Track => {
            let _ = write!(
                out,
                r##"<path d="M{} {}h18" stroke="{}" stroke-width="1.2" stroke-dasharray="3 2"/>"##,
                f(x + 1.0),
                f(cy),
                SIDE_FILL[0]
            );
        }
        Symbol::Fire => {
            let _ = write!(
                out,
                r##"<path d="M{} {}h14l-4 -3m4 3l-4 3" stroke="{}" stroke-width="1.4" fill="none" stroke-dasharray="5 3"/>"##,
                f(x + 2.0),
                f(cy),
                SIDE_INK[0]
            );
        }
        Symbol::Minefield(k) => {
            let (fill, stroke, dash) = match k {
                FieldKnown::Genuine => {
                    used.insert("hatch-a");
                    ("url(#hatch-a)", "#7b1d14", "")
                }
                FieldKnown::Dummy => ("#ffffff", "#5d6d7e", r##" stroke-dasharray="4 2""##),
                FieldKnown::Unknown => {
                    used.insert("hatch-b");
                    ("url(#hatch-b)", "#2c3e50", "")
                }
            };
            let _ = write!(
                out,
                r##"<rect x="{}" y="{}" width="18" height="8" fill="{fill}" stroke="{stroke}" stroke-width="1.2"{dash}/>"##,
                f(x + 1.0),
                f(cy - 4.0)
            );
        }
        Symbol::Terrain(t) => {
            let _ = write!(
                out,
                r##"<rect x="{}" y="{}" width="18" height="10" fill="{}" stroke="{FRAME}" stroke-width="0.6"/>"##,
                f(x + 1.0),
                f(cy - 5.0),
                terrain_fill(*t)
            );
        }
    }
}

/// The legend as flowing rows of swatch and words; returns the y below it.
fn legend(
    out: &mut String,
    scene: &Scene,
    used: &mut std::collections::BTreeSet<&'static str>,
    y0: f64,
    width: f64,
) -> f64 {
    let mut x = MARGIN;
    let mut y = y0;
    let entries: &[LegendEntry] = &scene.legend;
    for e in entries {
        let w = 26.0 + text_width(&e.text, Face::Sans, LEGEND_SIZE) + 14.0;
        if x + w > width - MARGIN && x > MARGIN {
            x = MARGIN;
            y += 18.0;
        }
        swatch(out, &e.symbol, scene, x, y, used);
        let ink = match &e.symbol {
            Symbol::Side(s) => SIDE_INK[side_index(scene, s)],
            _ => INK,
        };
        let _ = write!(
            out,
            r##"<text x="{}" y="{}" font-size="{LEGEND_SIZE}" fill="{ink}">{}</text>"##,
            f(x + 26.0),
            f(y + 11.0),
            esc(&e.text)
        );
        x += w;
    }
    if entries.is_empty() { y } else { y + 20.0 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::hex::{Orientation, Shifted};
    use crate::engine::scene::SideInfo;

    fn hex_scene(units: &[(u16, u16, &str)]) -> Scene {
        let bounds = MapBounds {
            first_column: 1,
            last_column: 10,
            first_row: 1,
            last_row: 8,
        };
        let grid = HexGrid::new(Orientation::FlatTop, Shifted::Odd).with_bounds(bounds);
        Scene {
            title: "Hexes".into(),
            turn: "Turn 1".into(),
            time: String::new(),
            viewer: "As seen by West".into(),
            surface: Surface::Hex { grid, bounds },
            ground: Terrain::Open,
            terrain: vec![],
            sides: vec![SideInfo {
                id: "west".into(),
                name: "West".into(),
            }],
            units: units
                .iter()
                .map(|(column, row, label)| {
                    let c = grid.centre(
                        grid.hex(Address {
                            column: *column,
                            row: *row,
                        }),
                        1.0,
                    );
                    Unit {
                        label: label.to_string(),
                        side: "west".into(),
                        kind: UnitKind::Counter {
                            symbol: "INF".into(),
                        },
                        at: At::new(c.x, c.y),
                        facing: None,
                        condition: Condition::Active,
                        markers: vec![],
                        track: vec![],
                    }
                })
                .collect(),
            zones: vec![],
            arrows: vec![],
            legend: vec![],
            compass: false,
        }
    }

    #[test]
    fn hex_counters_get_their_names_and_the_sheet_its_numbers() {
        let s = draw(&hex_scene(&[(4, 4, "1/1 Bn"), (5, 4, "2/1 Bn")]));
        assert!(s.contains(">1/1 Bn</text>") && s.contains(">2/1 Bn</text>"));
        assert!(!s.contains("Numbered on the map"));
        assert!(s.contains(">0101</text>") && s.contains(">1008</text>"));
        assert!(!s.contains(">1109</text>"));
    }

    #[test]
    fn names_are_escaped() {
        let s = draw(&hex_scene(&[(2, 2, "<b>&\"x\"")]));
        assert!(s.contains("&lt;b&gt;&amp;&quot;x&quot;"));
        assert!(!s.contains("<b>"));
    }
}
