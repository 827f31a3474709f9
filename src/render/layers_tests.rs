//! The layered picture (the static layer kept, the rest painted over a copy) against the
//! one-pass rasterisation of the very same SVG, every pixel, on each ruleset's largest
//! scenario; a moved unit drawn over the kept layer, which must show; the layer drawn once per
//! frame; and the bound on what is kept.

use super::*;
use crate::engine::scene::Scene;
use crate::render::raster::cull;
use crate::render::{INLINE_PNG_PX, focus, layered, map, one_pass};

/// The scene fixtures of `raster_tests` (each ruleset's largest scenario, its first seat).
fn scenes() -> Vec<(String, Scene)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/scenes");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    assert!(files.len() >= 5, "no scene fixtures in {}", dir.display());
    files
        .iter()
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().to_string();
            (
                name,
                serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap(),
            )
        })
        .collect()
}

/// Pixels that differ at all, between two pictures of one size.
fn differ(a: &Pixmap, b: &Pixmap) -> usize {
    assert_eq!(
        (a.width(), a.height()),
        (b.width(), b.height()),
        "sizes differ"
    );
    (a.data().chunks_exact(4))
        .zip(b.data().chunks_exact(4))
        .filter(|(p, q)| p != q)
        .count()
}

#[test]
fn the_layered_picture_is_the_one_pass_picture_pixel_for_pixel() {
    for (name, s) in scenes() {
        let (whole, inline, _) = crate::render::svg_and_inline(&s);
        // As `png_from_svg` hands it on: culled.
        let inline = cull(&inline).into_owned();
        for (what, svg, px) in [("whole map", &whole, 900), ("crop", &inline, INLINE_PNG_PX)] {
            assert!(
                split(svg).is_some() || s.terrain.is_empty(),
                "{name} {what}: no static layer"
            );
            let want = one_pass(svg, px).unwrap();
            // Twice: the layer made, then the layer kept.
            for round in ["made", "kept"] {
                let got = layered(svg, px).unwrap();
                let n = differ(&want, &got);
                assert_eq!(n, 0, "{name} {what}, layer {round}: {n} pixels differ");
            }
        }
    }
}

#[test]
fn a_moved_unit_shows_over_the_kept_layer() {
    for (name, s) in scenes() {
        if s.terrain.is_empty() {
            continue;
        }
        let (svg, layout) = map::drawing(&s);
        let b = focus::crop_in(&s, &svg, &layout).expect("a crop");
        let before_svg = cull(&focus::cut(&svg, &b)).into_owned();
        let before = layered(&before_svg, INLINE_PNG_PX).unwrap();
        let i = crate::render::raster::tests::own_unit_in_crop(&s, &layout.pieces, &b);
        let mut moved = s.clone();
        moved.units[i].at.x += 1.5;
        let after_svg = cull(&focus::cut(&map::draw(&moved), &b)).into_owned();
        let (g1, _) = split(&before_svg).unwrap();
        let (g2, _) = split(&after_svg).unwrap();
        assert_eq!(g1, g2, "{name}: the unit moved the static layer");
        // Drawn over the layer the first picture kept.
        let after = layered(&after_svg, INLINE_PNG_PX).unwrap();
        let n = differ(&before, &after);
        assert!(n > 200, "{name}: a moved unit changed only {n} pixels");
        let want = one_pass(&after_svg, INLINE_PNG_PX).unwrap();
        assert_eq!(differ(&want, &after), 0, "{name}: not the one-pass picture");
    }
}

#[test]
fn a_frames_layer_is_drawn_once_and_the_kept_bytes_are_bounded() {
    // A width no other test asks for, so that no other test's layer is this one.
    const PX: u32 = 613;
    let (_, s) = &scenes()[0];
    let (ground, _) = split(&crate::render::svg(s)).unwrap();
    let mut made = 0;
    for _ in 0..3 {
        layer(&ground, PX, || {
            made += 1;
            one_pass(&ground, PX)
        })
        .unwrap();
    }
    assert_eq!(made, 1, "the same layer was drawn again");
    // Another ground under the same root (frame and size): drawn, never the kept one.
    let other = ground.replacen(
        "</svg>",
        "<rect x=\"0\" y=\"0\" width=\"9\" height=\"9\"/>\n</svg>",
        1,
    );
    layer(&other, PX, || {
        made += 1;
        one_pass(&other, PX)
    })
    .unwrap();
    assert_eq!(made, 2, "another ground was taken from the kept layer");
    // Twenty layers of 4 MB each: what is kept stays within the bound.
    for k in 0..20u32 {
        layer(&format!("{ground}<!-- {k} -->"), 1000 + k, || {
            Ok(Pixmap::new(1000, 1000).unwrap())
        })
        .unwrap();
        let (_, bytes) = kept();
        assert!(bytes <= LAYER_BYTES, "{bytes} bytes kept");
    }
}
