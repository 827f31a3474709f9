//! The part of a map a phone shows inline: a box around the seat's own units, the enemy units
//! it sees and the objectives, cut from the very drawing the mail attaches whole (an SVG
//! viewBox, never a second drawing), and never so wide that its smallest text reads under
//! `MIN_TEXT_CSS_PX` on a phone; where what the seat must see is wider, the window that holds
//! the most of its own units with their names. Pure geometry and text scanning over what `map` drew; it
//! draws nothing and decides nothing about what the viewer may see (the scene did that).

use crate::engine::scene::{Condition, Measure, Scene, Surface, UnitKind, ZoneKind};

use super::labels::Bx;
use super::map::{self, Layout};
use super::svg::{Frame, RULER_BELOW, RULER_LEFT, f, outline, shape_centre};

/// The widest the mail's HTML shows the inline picture (CSS px). Its PNG is twice as wide, so
/// that it stays sharp on a phone's dense screen and when pinched.
pub const INLINE_CSS_PX: u32 = 400;
/// The width the inline picture must read at: a 400 px phone less the mail's padding (16 px a
/// side) and the picture's border, rounded down.
pub const PHONE_CSS_PX: f64 = 360.0;
/// The smallest text a reader is asked to read on the inline picture (CSS px).
pub const MIN_TEXT_CSS_PX: f64 = 9.0;

/// The smallest crop (picture units): a few counters and their labels, never a keyhole.
const MIN_W: f64 = 240.0;
const MIN_H: f64 = 180.0;
/// The tallest crop as a share of its width: a phone scrolls, but a tall strip costs pixels.
const MAX_ASPECT: f64 = 1.25;
/// Room beyond the pieces for the names written beside them (picture units).
const LABEL_ROOM: f64 = 24.0;
/// How far from its anchor a text may reach (a long unit label, text-anchor end), so that a
/// text anchored just outside the crop but showing inside it still counts.
const TEXT_REACH_X: f64 = 100.0;
const TEXT_REACH_Y: f64 = 16.0;

/// What a crop is cut around, in picture units.
struct Focus {
    /// What the seat must see (its own units, the enemy it sees, objectives and arrows),
    /// padded by about a hex or a few inches.
    all: Bx,
    /// The seat's own live units, each its piece and its label as drawn: a unit the reader
    /// can tell by its name.
    named: Vec<Bx>,
    /// The same units' pieces alone: a unit seen, if not named.
    own: Vec<Bx>,
    /// The pieces of the enemy units it sees, and the objectives.
    others: Vec<Bx>,
}

/// What the seat must see, from the scene and the drawing's `layout` of it; `None` when the
/// viewer has no units on the map (a spectator, a seat wiped out).
fn focus(scene: &Scene, fr: &Frame, layout: &Layout) -> Option<Focus> {
    let own_side = scene.own_side.as_deref()?;
    let live = |c: Condition| c != Condition::Wreck;
    let mut own_box: Option<Bx> = None;
    let mut all: Option<Bx> = None;
    let (mut named, mut own, mut others) = (Vec::new(), Vec::new(), Vec::new());
    for (i, u) in scene.units.iter().enumerate() {
        if !live(u.condition) {
            continue;
        }
        let (x, y) = fr.px(u.at);
        let r = match &u.kind {
            UnitKind::Ship { length, .. } => length * fr.scale / 2.0,
            UnitKind::Counter { size, .. } => fr.counter_size(*size) / 2.0,
            UnitKind::Base { width, depth, .. } => width.max(*depth) * fr.scale / 2.0,
        };
        let b = Bx::new(x - r, y - r, 2.0 * r, 2.0 * r);
        let piece = layout.pieces.get(i).copied().unwrap_or(b);
        if u.side == own_side {
            own_box = Some(join(own_box, b));
            let label = layout.labels.get(i).map_or(piece, |l| l.1);
            named.push(join(Some(piece), label));
            own.push(piece);
        } else {
            others.push(piece);
        }
        all = Some(join(all, b));
    }
    let own_box = own_box?;
    let mut all = all.unwrap_or(own_box);
    for z in scene.zones.iter().filter(|z| z.kind == ZoneKind::Objective) {
        let mut pts = outline(fr, &z.shape);
        if pts.is_empty() {
            pts.push(shape_centre(fr, &z.shape));
        }
        let mut zone: Option<Bx> = None;
        for (x, y) in pts {
            zone = Some(join(zone, Bx::new(x, y, 0.0, 0.0)));
        }
        if let Some(z) = zone {
            all = join(Some(all), z);
            others.push(z);
        }
    }
    for a in &scene.arrows {
        for p in [a.from, a.to] {
            let (x, y) = fr.px(p);
            all = join(Some(all), Bx::new(x, y, 0.0, 0.0));
        }
    }
    // About one hex (corner to corner), or a few inches of table.
    let pad = match &scene.surface {
        Surface::Hex { .. } => 2.0 * fr.scale,
        Surface::Table { unit, .. } => {
            let inches = 3.0;
            match unit {
                Measure::Inch => inches * fr.scale,
                Measure::Cm => inches * 2.54 * fr.scale,
            }
        }
    } + LABEL_ROOM;
    Some(Focus {
        all: grow(all, pad),
        named,
        own,
        others,
    })
}

fn join(a: Option<Bx>, b: Bx) -> Bx {
    match a {
        None => b,
        Some(a) => Bx {
            x0: a.x0.min(b.x0),
            y0: a.y0.min(b.y0),
            x1: a.x1.max(b.x1),
            y1: a.y1.max(b.y1),
        },
    }
}

fn grow(b: Bx, by: f64) -> Bx {
    Bx {
        x0: b.x0 - by,
        y0: b.y0 - by,
        x1: b.x1 + by,
        y1: b.y1 + by,
    }
}

fn centre(b: &Bx) -> (f64, f64) {
    ((b.x0 + b.x1) / 2.0, (b.y0 + b.y1) / 2.0)
}

/// A `w` × `h` window centred at `c`, moved (not shrunk) to lie within `area`.
fn window(c: (f64, f64), w: f64, h: f64, area: &Bx) -> Bx {
    let (w, h) = (w.min(area.x1 - area.x0), h.min(area.y1 - area.y0));
    let x0 = (c.0 - w / 2.0).clamp(area.x0, area.x1 - w);
    let y0 = (c.1 - h / 2.0).clamp(area.y0, area.y1 - h);
    Bx::new(x0, y0, w, h)
}

fn inside(b: &Bx, win: &Bx) -> bool {
    b.x0 >= win.x0 && b.x1 <= win.x1 && b.y0 >= win.y0 && b.y1 <= win.y1
}

/// Where a `w` × `h` window goes over `f` (within `area`): around the whole focus where it
/// fits; where it does not, the window that holds the most of the seat's own units whole with
/// their names, then the most of their pieces (seen, if not named), then the most enemies and
/// objectives, centred on what it holds. The candidates put a box on each of the window's
/// edges: a window holding a set of boxes can always slide until one of them touches its left
/// edge or another its right (and so for top and bottom) without losing any.
fn place_window(f: &Focus, w: f64, h: f64, area: &Bx) -> Bx {
    let (fw, fh) = (f.all.x1 - f.all.x0, f.all.y1 - f.all.y0);
    let whole = window(centre(&f.all), w, h, area);
    if fw <= w && fh <= h {
        return whole;
    }
    let (w, h) = (whole.x1 - whole.x0, whole.y1 - whole.y0);
    let starts = |fits: bool, lo: fn(&Bx) -> f64, hi: fn(&Bx) -> f64, size: f64| -> Vec<f64> {
        if fits {
            return vec![lo(&whole)];
        }
        let mut v: Vec<f64> = f
            .named
            .iter()
            .chain(&f.own)
            .chain(&f.others)
            .flat_map(|b| [lo(b), hi(b) - size])
            .collect();
        v.sort_by(f64::total_cmp);
        v.dedup();
        v
    };
    let xs = starts(fw <= w, |b| b.x0, |b| b.x1, w);
    let ys = starts(fh <= h, |b| b.y0, |b| b.y1, h);
    let count = |win: &Bx| {
        [&f.named, &f.own, &f.others].map(|v| v.iter().filter(|b| inside(b, win)).count())
    };
    let mut best: Option<([usize; 3], Bx)> = None;
    for &x in &xs {
        for &y in &ys {
            let win = Bx::new(x, y, w, h);
            let n = count(&win);
            if best.as_ref().is_none_or(|(m, _)| n > *m) {
                best = Some((n, win));
            }
        }
    }
    let Some((_, win)) = best else {
        return whole;
    };
    // Centred on what it holds (which then still fits in it), kept on the map.
    let held = f
        .named
        .iter()
        .chain(&f.own)
        .chain(&f.others)
        .filter(|b| inside(b, &win))
        .fold(None, |a, b| Some(join(a, *b)));
    let c = held.map_or(centre(&win), |b| centre(&b));
    window(
        (
            if fw <= w { centre(&whole).0 } else { c.0 },
            if fh <= h { centre(&whole).1 } else { c.1 },
        ),
        w,
        h,
        area,
    )
}

/// Every text of an SVG made by `map::draw`: its anchor and its font size (its own, or its
/// group's). The drawing writes one element a line, which this relies on.
pub(crate) fn texts(svg: &str) -> Vec<(f64, f64, f64)> {
    let mut sizes: Vec<Option<f64>> = Vec::new();
    let mut out = Vec::new();
    for line in svg.lines() {
        if line.starts_with("<g") {
            if !line.ends_with("/>") {
                let inherited = sizes.last().copied().flatten();
                sizes.push(attr(line, "font-size").or(inherited));
            }
        } else if line.starts_with("</g") {
            sizes.pop();
        } else if line.starts_with("<text") {
            let size = attr(line, "font-size").or(sizes.last().copied().flatten());
            if let (Some(x), Some(y), Some(size)) = (attr(line, "x"), attr(line, "y"), size) {
                out.push((x, y, size));
            }
        }
    }
    out
}

/// A number attribute of one SVG element's line.
fn attr(line: &str, name: &str) -> Option<f64> {
    let key = format!(" {name}=\"");
    let at = line.find(&key)? + key.len();
    line[at..].split('"').next()?.parse().ok()
}

/// The smallest font size of the texts that may show in `win` (none: no limit).
fn min_text(texts: &[(f64, f64, f64)], win: &Bx) -> Option<f64> {
    texts
        .iter()
        .filter(|(x, y, _)| {
            *x >= win.x0 - TEXT_REACH_X
                && *x <= win.x1 + TEXT_REACH_X
                && *y >= win.y0 - TEXT_REACH_Y
                && *y <= win.y1 + TEXT_REACH_Y
        })
        .map(|t| t.2)
        .min_by(f64::total_cmp)
}

/// The widest crop in which text of `size` picture units reads at `MIN_TEXT_CSS_PX` when the
/// crop is shown `PHONE_CSS_PX` wide.
fn legible_width(size: f64) -> f64 {
    // Down to the tenth the SVG writes, so that writing it never widens it.
    (PHONE_CSS_PX * size / MIN_TEXT_CSS_PX * 10.0).floor() / 10.0
}

/// The crop of `svg` (drawn from `scene` by `map::draw`) a phone shows inline, in picture
/// units; `None` for the whole map (a viewer with no units on it). The crop holds the focus
/// box where it is narrow enough to read; where it is not, it is cut to the legible width
/// where it holds the most of the seat's own units, each with its name (`place_window`; the
/// whole map is attached beside it). The drawing is made again for its layout (where each
/// label went): the same scene draws the same picture. A caller that drew it already passes
/// the layout to [`crop_in`].
pub(crate) fn crop(scene: &Scene, svg: &str) -> Option<Bx> {
    crop_in(scene, svg, &map::drawing(scene).1)
}

/// [`crop`] with the layout the drawing of `svg` made.
pub(crate) fn crop_in(scene: &Scene, svg: &str, layout: &Layout) -> Option<Bx> {
    let fr = Frame::new(&scene.surface);
    let f = focus(scene, &fr, layout)?;
    let focus = f.all;
    let area = Bx {
        x0: fr.rect.x0 - RULER_LEFT,
        y0: fr.rect.y0,
        x1: fr.rect.x1,
        y1: fr.rect.y1 + RULER_BELOW,
    };
    let texts = texts(svg);
    let (fw, fh) = (focus.x1 - focus.x0, focus.y1 - focus.y0);
    let mut w = fw.max(MIN_W);
    // Cutting the window can only drop texts, so the smallest size read after a cut is never
    // smaller than the one the cut was made for: the second round settles it.
    for round in 1.. {
        let h = fh.max(MIN_H).min(w * MAX_ASPECT);
        let win = place_window(&f, w, h, &area);
        match min_text(&texts, &win).map(legible_width) {
            Some(legible) if round < 3 && win.x1 - win.x0 > legible + 1e-6 => w = legible,
            _ => return Some(win),
        }
    }
    None
}

/// `svg` with its picture cut to `b`: the same drawing, its size and viewBox those of the box.
pub(crate) fn cut(svg: &str, b: &Bx) -> String {
    let end = svg.find('>').unwrap_or(0);
    let head = &svg[..end];
    let (w, h) = (b.x1 - b.x0, b.y1 - b.y0);
    let mut new_head = String::with_capacity(head.len() + 32);
    let mut rest = head;
    for (key, value) in [
        ("width", f(w)),
        ("height", f(h)),
        (
            "viewBox",
            format!("{} {} {} {}", f(b.x0), f(b.y0), f(w), f(h)),
        ),
    ] {
        let pat = format!(" {key}=\"");
        if let Some(at) = rest.find(&pat) {
            let start = at + pat.len();
            let stop = start + rest[start..].find('"').unwrap_or(0);
            new_head.push_str(&rest[..start]);
            new_head.push_str(&value);
            rest = &rest[stop..];
        }
    }
    new_head.push_str(rest);
    format!("{new_head}{}", &svg[end..])
}

/// The smallest text of a cut picture (from `cut`), in CSS px when it is shown `css_px` wide:
/// its font sizes times the viewBox's scale, over the texts that may show in it.
pub(crate) fn smallest_text_px(cut_svg: &str, css_px: f64) -> Option<f64> {
    let head = &cut_svg[..cut_svg.find('>')?];
    let at = head.find(" viewBox=\"")? + 10;
    let v: Vec<f64> = head[at..]
        .split('"')
        .next()?
        .split(' ')
        .filter_map(|n| n.parse().ok())
        .collect();
    let &[x, y, w, h] = v.as_slice() else {
        return None;
    };
    let win = Bx::new(x, y, w, h);
    min_text(&texts(cut_svg), &win).map(|s| s * css_px / w)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 72 × 48 inch table: a red ship with a status badge at `red`, a blue one at `blue`.
    fn table(red: (f64, f64), blue: (f64, f64), own: Option<&str>, red_sunk: bool) -> Scene {
        let ship = |label: &str, side: &str, (x, y): (f64, f64), condition: &str| {
            serde_json::json!({
                "label": label, "side": side, "at": {"x": x, "y": y}, "facing": 90.0,
                "kind": {"kind": "ship", "class": "BB", "length": 1.5},
                "condition": condition,
                "markers": [{"marker": "status", "value": {"text": "fired", "tone": "spent"}}],
            })
        };
        serde_json::from_value(serde_json::json!({
            "title": "Table", "turn": "Turn 1", "viewer": "As seen by Red",
            "surface": {"kind": "table", "width": 72.0, "height": 48.0, "unit": "inch"},
            "sides": [{"id": "red", "name": "Red"}, {"id": "blue", "name": "Blue"}],
            "units": [
                ship("Alpha", "red", red, if red_sunk { "wreck" } else { "active" }),
                ship("Bravo", "blue", blue, "active"),
            ],
            "own_side": own,
        }))
        .unwrap()
    }

    /// A 72 × 48 inch table with ships (side, x, y), all heading east, as seen by red.
    fn fleet(ships: &[(&str, f64, f64)]) -> Scene {
        let units: Vec<serde_json::Value> = ships
            .iter()
            .enumerate()
            .map(|(i, (side, x, y))| {
                serde_json::json!({
                    "label": format!("S{i}"), "side": side, "at": {"x": x, "y": y},
                    "facing": 90.0, "kind": {"kind": "ship", "class": "BB", "length": 1.5},
                    "condition": "active",
                    "markers": [{"marker": "status", "value": {"text": "fired", "tone": "spent"}}],
                })
            })
            .collect();
        serde_json::from_value(serde_json::json!({
            "title": "Table", "turn": "Turn 1", "viewer": "As seen by Red",
            "surface": {"kind": "table", "width": 72.0, "height": 48.0, "unit": "inch"},
            "sides": [{"id": "red", "name": "Red"}, {"id": "blue", "name": "Blue"}],
            "units": units,
            "own_side": "red",
        }))
        .unwrap()
    }

    /// Which of the scene's ships the crop holds whole with their names, and its width.
    fn held_by_crop(scene: &Scene) -> (Vec<usize>, f64) {
        let svg = crate::render::svg(scene);
        let b = crop(scene, &svg).unwrap();
        let (_, layout) = map::drawing(scene);
        let held = layout
            .pieces
            .iter()
            .zip(&layout.labels)
            .enumerate()
            .filter(|(_, (p, l))| inside(p, &b) && inside(&l.1, &b))
            .map(|(i, _)| i)
            .collect();
        (held, b.x1 - b.x0)
    }

    #[test]
    fn a_fleet_wider_than_a_readable_crop_keeps_the_most_of_its_own_ships() {
        // The readable width here is about 32 inches (8.5-unit badges, 10.5 units an inch).
        // Three red ships in the west and one in the far east: the crop holds the three; the
        // old crop, centred on the middle of the fleet, held none of them.
        let scene = fleet(&[
            ("red", 4.0, 24.0),
            ("red", 8.0, 24.0),
            ("red", 12.0, 24.0),
            ("red", 66.0, 24.0),
            ("blue", 60.0, 30.0),
        ]);
        let (held, w) = held_by_crop(&scene);
        assert!(
            w < 36.0 * 10.5,
            "the crop is cut to its readable width ({w})"
        );
        assert_eq!(held, vec![0, 1, 2], "the western three");
        // As many of its own either way: the side with the enemy in it.
        let scene = fleet(&[
            ("red", 6.0, 24.0),
            ("red", 62.0, 24.0),
            ("blue", 66.0, 28.0),
        ]);
        assert_eq!(
            held_by_crop(&scene).0,
            vec![1, 2],
            "the eastern ship and the enemy beside it"
        );
        // Own ships that fit in the readable width are all held, the enemy far off or not.
        let scene = fleet(&[
            ("red", 20.0, 24.0),
            ("red", 30.0, 20.0),
            ("red", 44.0, 28.0),
            ("blue", 70.0, 45.0),
        ]);
        let (held, w) = held_by_crop(&scene);
        assert!(w < 36.0 * 10.5, "{w}");
        assert_eq!(held, vec![0, 1, 2]);
    }

    fn inline(scene: &Scene) -> (String, String, bool) {
        let svg = crate::render::svg(scene);
        let (cut, cropped) = crate::render::inline_svg(scene, &svg);
        // What a results mail uses, drawing once, is the same picture and the same crop.
        assert_eq!(
            crate::render::svg_and_inline(scene),
            (svg.clone(), cut.clone(), cropped)
        );
        (svg, cut, cropped)
    }

    #[test]
    fn the_inline_crop_reads_at_nine_px_on_a_phone_where_the_whole_map_does_not() {
        for (red, blue) in [((30.0, 20.0), (34.0, 22.0)), ((3.0, 3.0), (69.0, 45.0))] {
            let scene = table(red, blue, Some("red"), false);
            let (svg, cut, cropped) = inline(&scene);
            assert!(cropped);
            let px = smallest_text_px(&cut, PHONE_CSS_PX).unwrap();
            assert!(px >= MIN_TEXT_CSS_PX, "{red:?} {blue:?}: {px}");
            // The whole map shown as wide is the old picture: its badges read at about 4 px.
            let old = smallest_text_px(&svg, PHONE_CSS_PX).unwrap();
            assert!(old < MIN_TEXT_CSS_PX, "{old}");
            // The seat's own ship is in the picture.
            let fr = Frame::new(&scene.surface);
            let (x, y) = fr.px(scene.units[0].at);
            let b = crop(&scene, &svg).unwrap();
            assert!(
                x > b.x0 && x < b.x1 && y > b.y0 && y < b.y1,
                "{b:?} {x} {y}"
            );
        }
        // Near each other, both ships are in it, and the crop is no wider than the legible
        // width nor narrower than the least crop.
        let scene = table((30.0, 20.0), (34.0, 22.0), Some("red"), false);
        let svg = crate::render::svg(&scene);
        let b = crop(&scene, &svg).unwrap();
        let fr = Frame::new(&scene.surface);
        let (x, y) = fr.px(scene.units[1].at);
        assert!(
            x > b.x0 && x < b.x1 && y > b.y0 && y < b.y1,
            "{b:?} {x} {y}"
        );
        assert!(b.x1 - b.x0 >= MIN_W - 1e-6 && b.x1 - b.x0 <= legible_width(8.5) + 1e-6);
    }

    #[test]
    fn a_spectator_and_a_seat_with_no_units_left_get_the_whole_map() {
        let (svg, cut, cropped) = inline(&table((30.0, 20.0), (34.0, 22.0), None, false));
        assert!(!cropped && cut == svg);
        let (_, _, cropped) = inline(&table((30.0, 20.0), (34.0, 22.0), Some("red"), true));
        assert!(!cropped);
        let (_, _, cropped) = inline(&table((30.0, 20.0), (34.0, 22.0), Some("red"), false));
        assert!(cropped);
    }

    #[test]
    fn texts_take_their_own_size_or_their_groups() {
        let svg = "<svg width=\"800\" height=\"600\" viewBox=\"0 0 800 600\">\n<g font-size=\"4\" fill=\"#000\">\n<text x=\"10\" y=\"20\">0101</text>\n</g>\n<text x=\"30\" y=\"40\" font-size=\"11\">Alpha</text>\n</svg>\n";
        assert_eq!(texts(svg), vec![(10.0, 20.0, 4.0), (30.0, 40.0, 11.0)]);
        let b = Bx::new(0.0, 0.0, 200.0, 100.0);
        let c = cut(svg, &b);
        assert!(c.starts_with("<svg width=\"200\" height=\"100\" viewBox=\"0 0 200 100\">"));
        // 4 units of a 200-unit-wide crop shown 360 px wide: 7.2 px.
        let px = smallest_text_px(&c, 360.0).unwrap();
        assert!((px - 7.2).abs() < 1e-9, "{px}");
    }
}
