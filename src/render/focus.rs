//! The part of a map a phone shows inline: a box around the seat's own units, the enemy units
//! it sees and the objectives, cut from the very drawing the mail attaches whole (an SVG
//! viewBox, never a second drawing), and never so wide that its smallest text reads under
//! `MIN_TEXT_CSS_PX` on a phone. Pure geometry and text scanning over what `map` drew; it
//! draws nothing and decides nothing about what the viewer may see (the scene did that).

use crate::engine::scene::{Condition, Measure, Scene, Surface, UnitKind, ZoneKind};

use super::labels::Bx;
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

/// The box around what the seat must see (its own units, the enemy it sees, objectives and
/// arrows), padded by about a hex or a few inches, and the box of its own units alone; `None`
/// when the viewer has no units on the map (a spectator, a seat wiped out).
fn focus(scene: &Scene, fr: &Frame) -> Option<(Bx, Bx)> {
    let own_side = scene.own_side.as_deref()?;
    let live = |c: Condition| c != Condition::Wreck;
    let mut own: Option<Bx> = None;
    let mut all: Option<Bx> = None;
    for u in scene.units.iter().filter(|u| live(u.condition)) {
        let (x, y) = fr.px(u.at);
        let r = match &u.kind {
            UnitKind::Ship { length, .. } => length * fr.scale / 2.0,
            UnitKind::Counter { size, .. } => fr.counter_size(*size) / 2.0,
            UnitKind::Base { width, depth, .. } => width.max(*depth) * fr.scale / 2.0,
        };
        let b = Bx::new(x - r, y - r, 2.0 * r, 2.0 * r);
        if u.side == own_side {
            own = Some(join(own, b));
        }
        all = Some(join(all, b));
    }
    let own = own?;
    let mut all = all.unwrap_or(own);
    for z in scene.zones.iter().filter(|z| z.kind == ZoneKind::Objective) {
        let mut pts = outline(fr, &z.shape);
        if pts.is_empty() {
            pts.push(shape_centre(fr, &z.shape));
        }
        for (x, y) in pts {
            all = join(Some(all), Bx::new(x, y, 0.0, 0.0));
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
    Some((grow(all, pad), own))
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
/// around the seat's own units (the whole map is attached beside it).
pub(crate) fn crop(scene: &Scene, svg: &str) -> Option<Bx> {
    let fr = Frame::new(&scene.surface);
    let (focus, own) = focus(scene, &fr)?;
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
        let c = (
            if fw > w {
                centre(&own).0
            } else {
                centre(&focus).0
            },
            if fh > h {
                centre(&own).1
            } else {
                centre(&focus).1
            },
        );
        let win = window(c, w, h, &area);
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

    fn inline(scene: &Scene) -> (String, String, bool) {
        let svg = crate::render::svg(scene);
        let (cut, cropped) = crate::render::inline_svg(scene, &svg);
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
