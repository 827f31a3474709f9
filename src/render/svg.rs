//! The drawing basics every part of a picture shares: numbers and text as SVG writes them, the
//! palette, the frame that turns map units into picture units, and outlines of shapes. Pure
//! geometry and formatting; it knows no game.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::board::hex::{Address, Hex, HexGrid, MapBounds};
use crate::engine::scene::{At, Shape, Surface};

use super::labels::{Bx, P};

/// Width of every picture in SVG units; a PNG scales it to the pixels asked for.
pub const DESIGN_WIDTH: f64 = 800.0;
pub(crate) const MARGIN: f64 = 10.0;
pub(crate) const HEADER: f64 = 50.0;
/// Room left of and below the map for the coordinate rulers.
pub(crate) const RULER_LEFT: f64 = 22.0;
pub(crate) const RULER_BELOW: f64 = 14.0;
const MAX_MAP_HEIGHT: f64 = 760.0;

pub(crate) const LABEL_SIZE: f64 = 11.0;
/// A hex's half height over its size (flat top: √3/2), where its number is written.
const HALF_HEIGHT: f64 = 0.866;
/// DejaVu Sans' ascent and the ascent plus descent, over the font size.
pub(crate) const NUMBER_ASCENT: f64 = 0.93;
const NUMBER_EM: f64 = 1.17;
/// From the hex's edge to its number, and from the number to a counter.
const NUMBER_INSET: f64 = 1.0;
const NUMBER_GAP: f64 = 0.5;
pub(crate) const LABEL_H: f64 = 13.0;
pub(crate) const BADGE_SIZE: f64 = 8.5;
pub(crate) const LEGEND_SIZE: f64 = 11.0;

/// The paper of a map whose scene names no ground.
pub(crate) const PAPER: &str = "#f4f1e6";
/// The picture's own background, around the map and below it.
pub(crate) const BACKGROUND: &str = "#fbfaf6";
/// How far from the picture's origin its background and the margin around the map reach:
/// beyond any picture or crop of one (a hex sheet's picture grows with its sheet, so some
/// bound is kept). Not the viewport's 100 %: a crop's viewBox starts away from the origin,
/// and a background of 100 % left its far strips transparent.
pub(crate) const BEYOND: f64 = 1.0e5;
pub(crate) const GRID: &str = "#b2cde2";
pub(crate) const INK: &str = "#1b1b1b";
pub(crate) const FRAME: &str = "#2c3e50";
pub(crate) const WRECK: &str = "#7d7d7d";
pub(crate) const HITS: &str = "#e67e22";
pub(crate) const CRITICAL: &str = "#c0392b";
/// Hull and counter colours by side order, and darker inks for their names.
pub(crate) const SIDE_FILL: [&str; 4] = ["#c62828", "#1f3f99", "#2e7d32", "#6a1b9a"];
pub(crate) const SIDE_INK: [&str; 4] = ["#8e1b12", "#142a6b", "#1b5e20", "#4a148c"];

pub(crate) fn f(v: f64) -> String {
    let r = (v * 10.0).round() / 10.0;
    if r == r.trunc() {
        format!("{}", r as i64)
    } else {
        format!("{r:.1}")
    }
}

/// Text for XML: every character a player may type is safe in a name.
pub(crate) fn esc(s: &str) -> String {
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

/// A path through `pts`, closed or open.
pub(crate) fn path_of(pts: &[P], closed: bool) -> String {
    let mut d = String::new();
    for (i, (x, y)) in pts.iter().enumerate() {
        let _ = write!(d, "{}{} {}", if i == 0 { "M" } else { "L" }, f(*x), f(*y));
    }
    if closed {
        d.push('Z');
    }
    d
}

/// The `<defs>` of a picture: patterns, markers and clips by id, each written once.
#[derive(Default)]
pub(crate) struct Defs(BTreeMap<String, String>);

impl Defs {
    /// Adds `def` under `id` unless it is there; returns `url(#id)`.
    pub fn add(&mut self, id: &str, def: impl FnOnce() -> String) -> String {
        self.0.entry(id.to_string()).or_insert_with(def);
        format!("url(#{id})")
    }

    pub fn write(&self) -> String {
        self.0.values().cloned().collect()
    }
}

/// How map units become picture units.
pub(crate) struct Frame {
    /// The map's rectangle on the picture.
    pub rect: Bx,
    /// Picture units per map unit (per inch, or per hex size).
    pub scale: f64,
    kind: FrameKind,
}

enum FrameKind {
    /// y up the table from 0 to `height`.
    Table { height: f64 },
    /// y down the sheet; `min` is the map-coordinate corner drawn at the rectangle's corner.
    Hex { grid: HexGrid, min: (f64, f64) },
}

impl Frame {
    pub fn new(surface: &Surface) -> Frame {
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

    pub fn px(&self, a: At) -> P {
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

    pub fn hex_corners(&self, address: Address) -> Vec<P> {
        match &self.kind {
            FrameKind::Hex { grid, .. } => grid
                .corners(grid.hex(address), 1.0)
                .iter()
                .map(|c| self.px(At::new(c.x, c.y)))
                .collect(),
            FrameKind::Table { .. } => vec![],
        }
    }

    /// Side of a square counter, `size` map units if the scene gives one (never so small
    /// that its symbol cannot be read). On a hex sheet the counter leaves room above or below
    /// it for the hex number (`hex_number_box`): a counter never hides its own hex's number.
    pub fn counter_size(&self, size: Option<f64>) -> f64 {
        match (self.kind_is_hex(), size) {
            (_, Some(s)) if s > 0.0 => (s * self.scale).clamp(20.0, 48.0),
            (false, _) => (self.scale * 0.75).clamp(20.0, 28.0),
            (true, _) => {
                let room =
                    HALF_HEIGHT * self.scale - NUMBER_INSET - NUMBER_EM * self.hex_number_size();
                (2.0 * (room - NUMBER_GAP)).min(self.scale * 1.05)
            }
        }
    }

    /// The font size of a hex sheet's numbers.
    pub fn hex_number_size(&self) -> f64 {
        (self.scale * 0.3).clamp(4.0, 9.0)
    }

    /// Where the number `label` of the hex centred at `c` is written: at the top of the hex,
    /// or at its bottom (`low`). Returns the baseline and the box of the text (its font's
    /// whole ascent and descent, so that no glyph leaves it).
    pub fn hex_number_box(&self, c: P, label: &str, low: bool) -> (f64, Bx) {
        let size = self.hex_number_size();
        let w = super::text_width(label, super::Face::Sans, size);
        let h = NUMBER_EM * size;
        let y0 = if low {
            c.1 + HALF_HEIGHT * self.scale - NUMBER_INSET - h
        } else {
            c.1 - HALF_HEIGHT * self.scale + NUMBER_INSET
        };
        (y0 + NUMBER_ASCENT * size, Bx::new(c.0 - w / 2.0, y0, w, h))
    }

    fn kind_is_hex(&self) -> bool {
        matches!(self.kind, FrameKind::Hex { .. })
    }

    /// Picture radians of a compass bearing (0 = up the map).
    pub fn angle(heading: f64) -> f64 {
        (heading - 90.0).to_radians()
    }

    pub fn width(&self) -> f64 {
        (self.rect.x1 + MARGIN).max(DESIGN_WIDTH)
    }
}

/// The picture direction (y down) of a compass bearing.
pub(crate) fn towards(heading: f64) -> P {
    let a = heading.to_radians();
    (a.sin(), -a.cos())
}

/// Every printed hex of the sheet.
pub(crate) fn sheet(grid: &HexGrid, b: &MapBounds) -> impl Iterator<Item = Hex> {
    let grid = *grid;
    let b = *b;
    (b.first_column..=b.last_column).flat_map(move |column| {
        (b.first_row..=b.last_row).map(move |row| grid.hex(Address { column, row }))
    })
}

/// The corners of a rectangle `length` along `heading` and `width` across, in map units.
fn rect_corners(centre: At, heading: f64, length: f64, width: f64) -> [At; 4] {
    let (c, s) = (heading.to_radians().cos(), heading.to_radians().sin());
    let (along, across) = ((s, c), (c, -s));
    [(1.0, 1.0), (1.0, -1.0), (-1.0, -1.0), (-1.0, 1.0)].map(|(a, b)| {
        At::new(
            centre.x + a * along.0 * length / 2.0 + b * across.0 * width / 2.0,
            centre.y + a * along.1 * length / 2.0 + b * across.1 * width / 2.0,
        )
    })
}

/// The outline of an area in picture units (a circle as a 32-gon); a line has none.
pub(crate) fn outline(fr: &Frame, s: &Shape) -> Vec<P> {
    match s {
        Shape::Polygon { points } => points.iter().map(|p| fr.px(*p)).collect(),
        Shape::Rect {
            centre,
            heading,
            length,
            width,
        } => rect_corners(*centre, *heading, *length, *width)
            .iter()
            .map(|p| fr.px(*p))
            .collect(),
        Shape::Circle { centre, radius } => {
            let (x, y) = fr.px(*centre);
            let r = radius * fr.scale;
            (0..32)
                .map(|k| {
                    let a = k as f64 * std::f64::consts::TAU / 32.0;
                    (x + r * a.cos(), y + r * a.sin())
                })
                .collect()
        }
        Shape::Hex { address } => fr.hex_corners(*address),
        Shape::Line { .. } => vec![],
    }
}

/// The SVG path of a shape (a line's centre line, open).
pub(crate) fn shape_path(fr: &Frame, s: &Shape) -> String {
    match s {
        Shape::Circle { centre, radius } => {
            let (x, y) = fr.px(*centre);
            let r = radius * fr.scale;
            format!(
                "M{} {}a{r} {r} 0 1 0 {} 0a{r} {r} 0 1 0 {} 0Z",
                f(x - r),
                f(y),
                f(2.0 * r),
                f(-2.0 * r),
                r = f(r)
            )
        }
        Shape::Line { points, .. } => {
            path_of(&points.iter().map(|p| fr.px(*p)).collect::<Vec<_>>(), false)
        }
        _ => path_of(&outline(fr, s), true),
    }
}

/// Where a shape's name or marker goes: the centre of a circle, rect or hex, the mean of a
/// polygon's corners, the middle of a line.
pub(crate) fn shape_centre(fr: &Frame, s: &Shape) -> P {
    match s {
        Shape::Rect { centre, .. } | Shape::Circle { centre, .. } => fr.px(*centre),
        Shape::Line { points, .. } => points
            .get(points.len() / 2)
            .map_or((fr.rect.x0, fr.rect.y0), |p| fr.px(*p)),
        _ => {
            let c = outline(fr, s);
            let n = c.len().max(1) as f64;
            (
                c.iter().map(|p| p.0).sum::<f64>() / n,
                c.iter().map(|p| p.1).sum::<f64>() / n,
            )
        }
    }
}

/// Is `p` inside the polygon `poly` (even-odd rule)?
pub(crate) fn inside(poly: &[P], p: P) -> bool {
    let mut c = false;
    let n = poly.len();
    for i in 0..n {
        let (a, b) = (poly[i], poly[(i + n - 1) % n]);
        if (a.1 > p.1) != (b.1 > p.1) && p.0 < (b.0 - a.0) * (p.1 - a.1) / (b.1 - a.1) + a.0 {
            c = !c;
        }
    }
    c
}

/// Does the box lie wholly inside the polygon? Its corners and edge midpoints must be inside
/// and no corner of the polygon inside the box (enough for the outlines maps have).
pub(crate) fn box_inside(poly: &[P], b: &Bx) -> bool {
    let (mx, my) = ((b.x0 + b.x1) / 2.0, (b.y0 + b.y1) / 2.0);
    let probes = [
        (b.x0, b.y0),
        (b.x1, b.y0),
        (b.x1, b.y1),
        (b.x0, b.y1),
        (mx, b.y0),
        (mx, b.y1),
        (b.x0, my),
        (b.x1, my),
    ];
    poly.len() >= 3
        && probes.iter().all(|p| inside(poly, *p))
        && !poly
            .iter()
            .any(|c| c.0 > b.x0 && c.0 < b.x1 && c.1 > b.y0 && c.1 < b.y1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_box_inside_a_polygon_and_one_across_its_edge() {
        let square = [(0.0, 0.0), (100.0, 0.0), (100.0, 50.0), (0.0, 50.0)];
        assert!(box_inside(&square, &Bx::new(10.0, 10.0, 80.0, 30.0)));
        assert!(!box_inside(&square, &Bx::new(10.0, 10.0, 95.0, 30.0)));
        // A notch: the corner (50, 25) pokes into the box.
        let notched = [
            (0.0, 0.0),
            (100.0, 0.0),
            (100.0, 50.0),
            (55.0, 50.0),
            (50.0, 25.0),
            (45.0, 50.0),
            (0.0, 50.0),
        ];
        assert!(!box_inside(&notched, &Bx::new(10.0, 10.0, 80.0, 30.0)));
        assert!(box_inside(&notched, &Bx::new(10.0, 5.0, 80.0, 15.0)));
    }

    #[test]
    fn compass_bearings_point_the_right_way_on_the_picture() {
        let (x, y) = towards(90.0);
        assert!((x - 1.0).abs() < 1e-9 && y.abs() < 1e-9, "east is right");
        let (x, y) = towards(0.0);
        assert!(x.abs() < 1e-9 && (y + 1.0).abs() < 1e-9, "north is up");
    }
}
