//! Draws a `Scene` as an SVG document: the header, the surface and its rulers, then terrain,
//! zones, pieces, labels, compass and scale, and below the map the legend and keys. It writes
//! only what the scene holds (a scene is already filtered for its viewer), and names nothing
//! after hidden states: ids and classes are neutral.

use std::fmt::Write as _;

use crate::board::hex::{Hex, MapPt};
use crate::engine::scene::{At, Scene, Surface};

use super::labels::{Bx, Movable};
use super::svg::{
    BACKGROUND, BEYOND, Defs, FRAME, Frame, GRID, INK, MARGIN, NUMBER_ASCENT, RULER_BELOW, esc, f,
    sheet,
};
use super::{Face, legend, marks, terrain, text_width, units, zones};

/// Where the drawing put what a reader must tell apart, in picture units. On a hex map: each
/// hex's number and the box it is written in (the font's whole ascent and descent), each
/// counter's box (body and facing wedge) with the number of the hex it stands in. On any map:
/// each unit's label text (its name, or the number the key explains) and box, badges
/// included, and what its piece covers, both in the scene's order; the boxes of the other
/// names and marks (zones' and places' names, objective flags).
#[derive(Debug, Default)]
pub(crate) struct Layout {
    pub numbers: Vec<(String, Bx)>,
    pub counters: Vec<(String, Bx)>,
    pub labels: Vec<(String, Bx)>,
    pub names: Vec<Bx>,
    pub pieces: Vec<Bx>,
}

/// Draws the picture.
pub(crate) fn draw(scene: &Scene) -> String {
    drawing(scene).0
}

/// The picture and where its hex numbers, counters and unit labels went.
pub(crate) fn drawing(scene: &Scene) -> (String, Layout) {
    let fr = Frame::new(&scene.surface);
    let width = fr.width();
    let mut body = String::new();
    let mut defs = Defs::default();
    let mut taken: Vec<Bx> = Vec::new();

    terrain::draw(&mut body, &mut defs, &fr, scene);
    // After the terrain: what reaches beyond the map is hidden by painting over it (see
    // `terrain::draw`), which would hide a header drawn before.
    header(&mut body, scene, width);
    // Drawn over the grid; the grid's numbers wait for the labels to be placed.
    let mut over = String::new();
    zones::draw(&mut over, &mut defs, &mut taken, &fr, scene);
    let mut names = taken.clone();
    units::tracks(&mut over, &fr, scene);
    let mut obstacles = units::draw(&mut over, &fr, scene);
    units::arrows(&mut over, &mut defs, &mut obstacles, &fr, scene);
    compass_and_scale(&mut over, &mut taken, &fr, scene);
    let before = taken.len();
    over.push_str(&zones::objective_names(&fr, scene, &obstacles, &mut taken));
    names.extend_from_slice(&taken[before..]);

    // Unit labels first, so that they get the near spots (moving a hex's number to the other
    // end of its hex rather than covering it); then the names of places, where room is left,
    // drawn under the unit labels. Then the grid, its numbers where the labels left them.
    let (hexes, mut spots) = hex_numbers(&fr, scene, &taken);
    let mut labels = marks::draw(&fr, scene, &obstacles, &mut taken, &mut spots);
    let before = taken.len();
    let (names_svg, unfit) = terrain::names(&fr, scene, &obstacles, &mut taken);
    names.extend_from_slice(&taken[before..]);
    grid_and_rulers(&mut body, &fr, scene, &hexes, &spots);
    body.push_str(&over);
    body.push_str(&names_svg);
    body.push_str(&labels.svg);
    let _ = write!(
        body,
        r##"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{FRAME}" stroke-width="1.2"/>"##,
        f(fr.rect.x0),
        f(fr.rect.y0),
        f(fr.rect.x1 - fr.rect.x0),
        f(fr.rect.y1 - fr.rect.y0)
    );

    // Below the map: legend, places not named on it, then the key to numbered units.
    let mut y = fr.rect.y1 + RULER_BELOW + 8.0;
    y = legend::draw(&mut body, scene, &mut defs, y, width);
    y = legend::places(&mut body, &unfit, y, width);
    y = marks::key(&mut body, scene, &mut labels.key, y, width);
    let height = y + MARGIN;

    let mut out = String::with_capacity(body.len() + 2048);
    let _ = write!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="DejaVu Sans">"##,
        w = f(width),
        h = f(height)
    );
    let _ = write!(
        out,
        r##"<title>{}</title><defs>{}</defs><rect x="{o}" y="{o}" width="{b}" height="{b}" fill="{BACKGROUND}"/>"##,
        esc(&format!("{} — {}", scene.title, scene.turn)),
        defs.write(),
        o = f(-BEYOND),
        b = f(2.0 * BEYOND),
    );
    out.push_str(&body);
    out.push_str("</svg>\n");
    let layout = Layout {
        numbers: hexes
            .iter()
            .zip(&spots)
            .map(|((_, l), m)| (l.clone(), m.spot()))
            .collect(),
        counters: hex_counters(&fr, scene),
        labels: labels.boxes,
        names,
        pieces: units::extents(&fr, scene),
    };
    // One element a line, so snapshots and diffs read well (names are escaped: no `><` in them).
    (out.replace("><", ">\n<"), layout)
}

/// The north arrow and the scale bar, which labels keep clear of.
fn compass_and_scale(body: &mut String, taken: &mut Vec<Bx>, fr: &Frame, scene: &Scene) {
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

fn grid_and_rulers(
    body: &mut String,
    fr: &Frame,
    scene: &Scene,
    hexes: &[(Hex, String)],
    spots: &[Movable],
) {
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
        Surface::Hex { grid, .. } => {
            let mut d = String::new();
            let mut labels = String::new();
            let size = fr.hex_number_size();
            for ((h, label), spots) in hexes.iter().zip(spots) {
                for (i, c) in grid.corners(*h, 1.0).iter().enumerate() {
                    let (x, y) = fr.px(At::new(c.x, c.y));
                    let _ = write!(d, "{}{} {}", if i == 0 { "M" } else { "L" }, f(x), f(y));
                }
                d.push('Z');
                let b = spots.spot();
                let _ = write!(
                    labels,
                    r##"<text x="{}" y="{}">{label}</text>"##,
                    f((b.x0 + b.x1) / 2.0),
                    f(b.y0 + NUMBER_ASCENT * size),
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

/// Each hex's number and the spots it may be written in: the top of its hex, else its bottom.
/// A spot any counter covers (its own hex's or a neighbour's, facing wedges included) or a
/// name placed before the unit labels (`taken`) is ruled out from the start. Empty on a table.
fn hex_numbers(fr: &Frame, scene: &Scene, taken: &[Bx]) -> (Vec<(Hex, String)>, Vec<Movable>) {
    let Surface::Hex { grid, bounds } = &scene.surface else {
        return (vec![], vec![]);
    };
    let counters: Vec<Bx> = units::counter_extents(fr, scene)
        .into_iter()
        .map(|(_, b)| b)
        .collect();
    sheet(grid, bounds)
        .map(|h| {
            let label = grid.label(h);
            let c = grid.centre(h, 1.0);
            let p = fr.px(At::new(c.x, c.y));
            let mut m = Movable::new(vec![
                fr.hex_number_box(p, &label, false).1,
                fr.hex_number_box(p, &label, true).1,
            ]);
            for b in counters.iter().chain(taken) {
                m.cover(b, 0.0);
            }
            ((h, label), m)
        })
        .unzip()
}

/// Each counter's box (body and wedge) with the number of the hex it stands in. Empty on a
/// table.
fn hex_counters(fr: &Frame, scene: &Scene) -> Vec<(String, Bx)> {
    let Surface::Hex { grid, .. } = &scene.surface else {
        return vec![];
    };
    units::counter_extents(fr, scene)
        .into_iter()
        .map(|(at, b)| {
            (
                grid.label(grid.hex_under(MapPt { x: at.x, y: at.y }, 1.0)),
                b,
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::hex::{Address, HexGrid, MapBounds, Orientation, Shifted};
    use crate::engine::scene::{Condition, SideInfo, Unit, UnitKind, UnitSymbol};

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
            ground: None,
            styles: Default::default(),
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
                            symbol: UnitSymbol::Infantry,
                            value: None,
                            size: None,
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
            own_side: Some("west".into()),
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
