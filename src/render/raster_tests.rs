//! The culled, kept and palette-encoded picture against the one-pass rasterisation of the
//! very same SVG, pixel by pixel, on each ruleset's largest scenario; and a control where a
//! unit moved, which must show.

use super::*;
use crate::engine::scene::Scene;
use crate::render::svg::SIDE_FILL;
use crate::render::{INLINE_PNG_PX, focus, map, one_pass};

/// Every ruleset's largest scenario, as its first seat sees it: the scenes are kept as JSON in
/// `tests/fixtures/scenes/` (the renderer knows no ruleset, so it may not set them up itself);
/// `tests/render_scenes.rs` checks they are what the rulesets draw today.
fn scenes() -> Vec<(String, Scene)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/scenes");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 5,
        "the scene fixtures are missing from {}",
        dir.display()
    );
    files
        .iter()
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().to_string();
            let scene = serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap();
            (name, scene)
        })
        .collect()
}

/// RGBA pixels of a PNG (a palette one expanded).
fn decode(png: &[u8]) -> Vec<[u8; 4]> {
    let mut d = png::Decoder::new(std::io::Cursor::new(png));
    d.set_transformations(png::Transformations::EXPAND);
    let mut r = d.read_info().unwrap();
    let mut buf = vec![0; r.output_buffer_size().unwrap()];
    let info = r.next_frame(&mut buf).unwrap();
    let step = info.color_type.samples();
    buf[..info.buffer_size()]
        .chunks_exact(step)
        .map(|p| match p {
            [r, g, b] => [*r, *g, *b, 255],
            [r, g, b, a] => [*r, *g, *b, *a],
            _ => panic!("unexpected colour type"),
        })
        .collect()
}

fn rgba(p: &tiny_skia::Pixmap) -> Vec<[u8; 4]> {
    p.clone()
        .take_demultiplied()
        .chunks_exact(4)
        .map(|p| [p[0], p[1], p[2], p[3]])
        .collect()
}

/// How many pixels differ by more than `by` in some channel, and the largest difference.
fn differ(a: &[[u8; 4]], b: &[[u8; 4]], by: u8) -> (usize, u8) {
    assert_eq!(a.len(), b.len(), "sizes differ");
    let mut n = 0;
    let mut most = 0;
    for (p, q) in a.iter().zip(b) {
        let d = (0..4).map(|k| p[k].abs_diff(q[k])).max().unwrap_or(0);
        most = most.max(d);
        if d > by {
            n += 1;
        }
    }
    (n, most)
}

/// The inline crop: what the mail shows.
fn inline(s: &Scene) -> String {
    crate::render::svg_and_inline(s).1
}

#[test]
fn culling_leaves_every_pixel_of_each_rulesets_crop() {
    for (name, s) in scenes() {
        let svg = inline(&s);
        let culled = cull(&svg);
        assert!(culled.len() < svg.len(), "{name}: nothing culled");
        let whole = one_pass(&svg, INLINE_PNG_PX).unwrap();
        let cut = one_pass(&culled, INLINE_PNG_PX).unwrap();
        let (n, most) = differ(&rgba(&whole), &rgba(&cut), 2);
        // Anti-aliased edges may move by a level where a clipped layer now starts elsewhere.
        assert!(n == 0, "{name}: {n} pixels differ, by up to {most}");
    }
}

#[test]
fn the_palette_png_looks_like_the_one_pass_picture_and_keeps_the_side_colours() {
    for (name, s) in scenes() {
        let svg = inline(&s);
        let want = rgba(&one_pass(&svg, INLINE_PNG_PX).unwrap());
        let got = decode(&crate::render::png_from_svg(&svg, INLINE_PNG_PX).unwrap());
        let (n, most) = differ(&want, &got, 24);
        assert!(
            n * 1000 < want.len(),
            "{name}: {n} of {} pixels off by more than 24 (up to {most})",
            want.len()
        );
        // Every pixel the picture paints in a side's colour keeps it exactly.
        let sides: Vec<[u8; 4]> = SIDE_FILL
            .iter()
            .map(|h| {
                let v = u32::from_str_radix(&h[1..], 16).unwrap();
                [(v >> 16) as u8, (v >> 8) as u8, v as u8, 255]
            })
            .collect();
        let side_px: Vec<usize> = (0..want.len())
            .filter(|&i| sides.contains(&want[i]))
            .collect();
        assert!(!side_px.is_empty(), "{name}: no counter in the crop");
        let off = side_px.iter().filter(|&&i| got[i] != want[i]).count();
        assert_eq!(
            off,
            0,
            "{name}: {off} of {} side-coloured pixels changed",
            side_px.len()
        );
    }
}

#[test]
fn a_moved_unit_shows_in_the_kept_picture() {
    for (name, s) in scenes() {
        let (svg, layout) = map::drawing(&s);
        let b = focus::crop_in(&s, &svg, &layout).expect("a crop");
        let before =
            decode(&crate::render::png_from_svg(&focus::cut(&svg, &b), INLINE_PNG_PX).unwrap());
        let mut moved = s.clone();
        let i = own_unit_in_crop(&s, &layout.pieces, &b);
        moved.units[i].at.x += 1.5;
        let after_svg = focus::cut(&map::draw(&moved), &b);
        let after = decode(&crate::render::png_from_svg(&after_svg, INLINE_PNG_PX).unwrap());
        let (n, _) = differ(&before, &after, 64);
        assert!(n > 200, "{name}: a moved unit changed only {n} pixels");
    }
}

#[test]
fn the_same_picture_is_rasterised_once() {
    // A width no other test asks for, so that no other test's picture is this one.
    const PX: u32 = 777;
    let s = &scenes()[0].1;
    let svg = inline(s);
    let mut made = 0;
    for _ in 0..3 {
        memo(&svg, PX, |v| {
            made += 1;
            crate::render::rasterise(v, PX)
        })
        .unwrap();
    }
    assert_eq!(made, 1);
    // The header names the seat; outside the crop it changes nothing, so the PNG is shared.
    let other = svg.replacen(&s.viewer, "As seen by someone else", 1);
    assert_ne!(other, svg);
    memo(&other, PX, |v| {
        made += 1;
        crate::render::rasterise(v, PX)
    })
    .unwrap();
    assert_eq!(
        made, 1,
        "a seat's crop differing only outside it was rasterised again"
    );
}

#[test]
fn paths_of_moves_and_lines_have_boxes_and_others_none() {
    assert_eq!(path_box("M1 2L3 -4Z"), Some([1.0, -4.0, 3.0, 2.0]));
    assert_eq!(path_box("M1 2H5V9"), Some([1.0, 2.0, 5.0, 9.0]));
    assert_eq!(path_box("M1 2a3 3 0 1 0 6 0Z"), None);
    assert_eq!(path_box("M1 2l3 4"), None);
}

/// How the margin around the map begins (see `terrain::margin`).
const MARGIN: &str = "<path d=\"M-100000 -100000H100000V100000H-100000ZM";

/// `svg` as the map was drawn before its margin was painted over the terrain: the terrain in
/// a group clipped to the map's rectangle (the rectangle read from the margin's hole); and
/// that rectangle `[x0, y0, x1, y1]`.
fn with_the_old_clip(svg: &str) -> (String, [f64; 4]) {
    let lines: Vec<&str> = svg.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with(MARGIN))
        .expect("a margin");
    let hole = &lines[at][MARGIN.len()..];
    let n: Vec<&str> = hole
        .split(['V', 'H', 'Z', ' '])
        .filter(|s| !s.is_empty())
        .take(4)
        .collect();
    let [x0, y0, y1, x1] = n.as_slice() else {
        panic!("a hole {hole}")
    };
    let ground = format!("<rect x=\"{x0}\" y=\"{y0}\" ");
    let first = (0..at)
        .rev()
        .find(|&i| lines[i].starts_with(&ground))
        .expect("the ground")
        + 1;
    let r: [f64; 4] = [x0, y0, x1, y1].map(|v| v.parse().unwrap());
    let clip = format!(
        "<clipPath id=\"old-clip\"><rect x=\"{x0}\" y=\"{y0}\" width=\"{}\" height=\"{}\"/></clipPath>",
        crate::render::svg::f(r[2] - r[0]),
        crate::render::svg::f(r[3] - r[1])
    );
    let mut out: Vec<String> = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if i == first {
            out.push("<g clip-path=\"url(#old-clip)\">".into());
        }
        if i == at {
            out.push("</g>".into());
        } else {
            out.push(l.to_string());
        }
        if *l == "<defs>" {
            out.push(clip.clone());
        }
    }
    (out.join("\n"), r)
}

/// Outside the map the picture is what the clipped terrain left, pixel for pixel (the header,
/// the rulers, the legend, the paper); inside it, where the terrain was drawn in a layer of
/// its own and now is drawn straight onto the picture, a pattern's tile may fall on the
/// pixels a little differently: a few pixels in ten thousand, by a few levels.
#[test]
fn the_margin_leaves_what_the_clipped_terrain_left() {
    for (name, s) in scenes() {
        if s.terrain.is_empty() {
            continue;
        }
        let (whole, inline, _) = crate::render::svg_and_inline(&s);
        for (what, svg, px) in [("whole map", &whole, 900), ("crop", &inline, INLINE_PNG_PX)] {
            let (old, r) = with_the_old_clip(svg);
            assert!(old.contains("old-clip") && !old.contains(MARGIN));
            let want = rgba(&one_pass(&old, px).unwrap());
            let got = rgba(&one_pass(svg, px).unwrap());
            let [vx, vy, vw, _] = view_box(svg).unwrap();
            let k = f64::from(px) / vw;
            // The map's rectangle in pixels, one pixel wider each way for its anti-aliased edge.
            let (x0, y0) = ((r[0] - vx) * k - 1.0, (r[1] - vy) * k - 1.0);
            let (x1, y1) = ((r[2] - vx) * k + 1.0, (r[3] - vy) * k + 1.0);
            let inside = |i: usize| {
                let (x, y) = ((i as u32 % px) as f64, (i as u32 / px) as f64);
                x + 1.0 > x0 && x < x1 && y + 1.0 > y0 && y < y1
            };
            let (mut outside_off, mut inside_off, mut most) = (0, 0, 0);
            for (i, (p, q)) in want.iter().zip(&got).enumerate() {
                let d = (0..4).map(|c| p[c].abs_diff(q[c])).max().unwrap_or(0);
                if d > 2 {
                    if inside(i) {
                        inside_off += 1;
                        most = most.max(d);
                    } else {
                        outside_off += 1;
                    }
                }
            }
            assert_eq!(outside_off, 0, "{name} {what}: pixels off outside the map");
            assert!(
                inside_off * 5000 < want.len() && most <= 48,
                "{name} {what}: {inside_off} pixels of the map off by more than 2, up to {most}"
            );
        }
    }
}

/// An own unit whose piece the crop `b` shows whole: the one the moved-unit controls move.
pub(in crate::render) fn own_unit_in_crop(
    s: &Scene,
    pieces: &[crate::render::labels::Bx],
    b: &crate::render::labels::Bx,
) -> usize {
    let own = s.own_side.clone().expect("a seat's scene");
    (0..s.units.len())
        .find(|&i| {
            let p = pieces[i];
            s.units[i].side == own && p.x0 >= b.x0 && p.x1 <= b.x1 && p.y0 >= b.y0 && p.y1 <= b.y1
        })
        .expect("an own unit in the crop")
}
