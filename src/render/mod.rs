//! Maps for people: SVG and PNG pictures (and the plain-text board) drawn from a seat's `View`.
//! It reads only the View's `Scene`, never a game state, and it loads only the fonts shipped in
//! `src/render/fonts/` (never the system's), so a picture is byte-for-byte the same everywhere.

mod focus;
mod glyphs;
mod labels;
mod layers;
mod legend;
mod map;
mod marks;
mod raster;
mod svg;
mod terrain;
mod units;
mod zones;

use std::sync::{Arc, OnceLock};

use resvg::{tiny_skia, usvg};

use crate::engine::View;
use crate::engine::scene::Scene;

pub use focus::{INLINE_CSS_PX, MIN_TEXT_CSS_PX, PHONE_CSS_PX};
pub use svg::DESIGN_WIDTH;

/// The width of a picture `despatch show` writes (pixels): readable in a reading pane.
pub const MAIL_WIDTH_PX: u32 = 800;

/// The width of a mail's inline PNG (pixels): twice the most the HTML shows it at, so that it
/// stays sharp on a phone's dense screen and when pinched.
pub const INLINE_PNG_PX: u32 = 2 * INLINE_CSS_PX;

/// DejaVu fonts (Bitstream Vera licence, see `fonts/LICENSE-DejaVu.txt`).
const SANS: &[u8] = include_bytes!("fonts/DejaVuSans.ttf");
const SANS_BOLD: &[u8] = include_bytes!("fonts/DejaVuSans-Bold.ttf");
const SANS_CONDENSED: &[u8] = include_bytes!("fonts/DejaVuSansCondensed.ttf");

#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error("this view has no map to draw")]
    NoMap,
    #[error("picture width {0} px is out of range (100 to 8000)")]
    Width(u32),
    #[error("the SVG did not parse: {0}")]
    Svg(String),
    #[error("PNG encoding failed: {0}")]
    Png(String),
}

/// What `despatch show --format` asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Text,
    Svg,
    /// A PNG this many pixels wide.
    Png(u32),
}

impl std::str::FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "text" => Ok(Format::Text),
            "svg" => Ok(Format::Svg),
            "png" => Ok(Format::Png(MAIL_WIDTH_PX)),
            _ => Err(format!("unknown format `{s}` (text, svg or png)")),
        }
    }
}

/// The picture of `scene` as an SVG document, `DESIGN_WIDTH` units wide.
pub fn svg(scene: &Scene) -> String {
    map::draw(scene)
}

/// The picture of `scene` as a PNG `width_px` pixels wide (height follows the map's shape).
pub fn png(scene: &Scene, width_px: u32) -> Result<Vec<u8>, RenderError> {
    png_from_svg(&svg(scene), width_px)
}

/// The picture a mail shows inline, from `svg` (drawn from `scene` by [`svg`]): the crop
/// around the viewer's own units, what they see and the objectives, as a viewBox over the
/// same drawing, narrow enough that its smallest text reads at [`MIN_TEXT_CSS_PX`] when shown
/// [`PHONE_CSS_PX`] wide; the whole map for a viewer with no units on it. Whether it is cut.
pub fn inline_svg(scene: &Scene, svg: &str) -> (String, bool) {
    match focus::crop(scene, svg) {
        Some(b) => (focus::cut(svg, &b), true),
        None => (svg.to_string(), false),
    }
}

/// The whole picture of `scene` (as [`svg`]) and the one a mail shows inline (as
/// [`inline_svg`]), drawn once: a results mail attaches the first and shows the second.
pub fn svg_and_inline(scene: &Scene) -> (String, String, bool) {
    let (svg, layout) = map::drawing(scene);
    match focus::crop_in(scene, &svg, &layout) {
        Some(b) => {
            let inline = focus::cut(&svg, &b);
            (svg, inline, true)
        }
        None => (svg.clone(), svg, false),
    }
}

/// The viewBox of a picture made by [`svg`] or [`inline_svg`] (`x y w h`, picture units): which
/// part of the whole drawing it shows.
pub fn view_box(svg: &str) -> Option<String> {
    let head = &svg[..svg.find('>')?];
    let at = head.find(" viewBox=\"")? + 10;
    head[at..].split('"').next().map(str::to_string)
}

/// The smallest text of a picture made by [`svg`] or [`inline_svg`] (CSS px) when it is shown
/// `css_px` wide: its font sizes times its viewBox's scale, over the texts that may show in
/// the viewBox.
pub fn smallest_text_px(svg: &str, css_px: f64) -> Option<f64> {
    focus::smallest_text_px(svg, css_px)
}

/// Where a picture made by [`svg`] put what its reader must tell apart, in picture units
/// `[x0, y0, x1, y1]`: the layout the drawing itself used, for holding texts and counters off
/// the hex numbers.
#[derive(Debug, Clone, Default)]
pub struct MapLayout {
    /// Each hex's number and the box it is written in (the font's whole ascent and descent).
    /// Empty on a table.
    pub numbers: Vec<(String, [f64; 4])>,
    /// Each counter's box (body and facing wedge) and the number of the hex it stands in.
    /// Empty on a table.
    pub counters: Vec<(String, [f64; 4])>,
    /// Each unit label's text (its name, or the number the key below the map explains) and the
    /// box it is written in (badges, hit track and notes included), in the scene's order.
    pub labels: Vec<(String, [f64; 4])>,
    /// The boxes of the other names and marks placed over the map: zones' and places' names,
    /// objective flags.
    pub names: Vec<[f64; 4]>,
    /// What each unit's piece covers (hull, counter and wedge, base), in the scene's order.
    pub pieces: Vec<[f64; 4]>,
}

/// The picture of `scene` (as [`svg`] draws it) and its layout.
pub fn svg_and_layout(scene: &Scene) -> (String, MapLayout) {
    let (svg, l) = map::drawing(scene);
    let a = |b: labels::Bx| [b.x0, b.y0, b.x1, b.y1];
    let b = |v: Vec<(String, labels::Bx)>| v.into_iter().map(|(t, b)| (t, a(b))).collect();
    let layout = MapLayout {
        numbers: b(l.numbers),
        counters: b(l.counters),
        labels: b(l.labels),
        names: l.names.into_iter().map(a).collect(),
        pieces: l.pieces.into_iter().map(a).collect(),
    };
    (svg, layout)
}

/// Rasterises an SVG made by `svg` (or cut from one): left of what it cannot show, once per
/// distinct picture while it is kept, as a palette PNG (see `raster`).
pub fn png_from_svg(svg: &str, width_px: u32) -> Result<Vec<u8>, RenderError> {
    if !(100..=8000).contains(&width_px) {
        return Err(RenderError::Width(width_px));
    }
    let png = raster::memo(svg, width_px, |svg| rasterise(svg, width_px))?;
    Ok(png.as_ref().clone())
}

/// One rasterisation of `svg` at `width_px`, encoded.
fn rasterise(svg: &str, width_px: u32) -> Result<Vec<u8>, RenderError> {
    raster::encode(&layered(svg, width_px)?)
}

/// `svg` drawn as [`one_pass`] draws it, its static layer (ground, terrain, margin) kept from
/// an earlier picture of the same frame when there is one: only the rest is parsed and
/// painted, over a copy of it (see `layers`).
fn layered(svg: &str, width_px: u32) -> Result<tiny_skia::Pixmap, RenderError> {
    let Some((ground, rest)) = layers::split(svg) else {
        return one_pass(svg, width_px);
    };
    let mut pixmap = layers::layer(&ground, width_px, || one_pass(&ground, width_px))?;
    let tree = parse(&rest)?;
    let scale = width_px as f32 / tree.size().width();
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    Ok(pixmap)
}

fn parse(svg: &str) -> Result<usvg::Tree, RenderError> {
    let opt = usvg::Options {
        font_family: "DejaVu Sans".into(),
        fontdb: fonts(),
        ..usvg::Options::default()
    };
    usvg::Tree::from_str(svg, &opt).map_err(|e| RenderError::Svg(e.to_string()))
}

/// `svg` parsed and drawn in one pass, as resvg draws it.
fn one_pass(svg: &str, width_px: u32) -> Result<tiny_skia::Pixmap, RenderError> {
    let tree = parse(svg)?;
    let size = tree.size();
    let scale = width_px as f32 / size.width();
    let height_px = (size.height() * scale).round().max(1.0) as u32;
    let mut pixmap = tiny_skia::Pixmap::new(width_px, height_px)
        .ok_or_else(|| RenderError::Png(format!("no {width_px}x{height_px} canvas")))?;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    Ok(pixmap)
}

/// The PNG a mail shows inline, from its inline SVG (see [`svg_and_inline`]).
pub fn inline_png(inline_svg: &str) -> Result<Vec<u8>, RenderError> {
    png_from_svg(inline_svg, INLINE_PNG_PX)
}

/// Forgets the PNGs and the static layers kept (benchmarks measure a first rasterisation
/// with it).
pub fn clear_cache() {
    raster::clear();
    layers::clear();
}

/// Forgets the whole PNGs kept, not the static layers (benchmarks measure a game's next step
/// with it: a new picture over the frame's kept layer).
pub fn clear_png_memo() {
    raster::clear();
}

/// What `despatch show` prints or writes for one view.
pub fn show(view: &View, format: Format) -> Result<Vec<u8>, RenderError> {
    match format {
        Format::Text => Ok(text(view).into_bytes()),
        Format::Svg => Ok(svg(view.map.as_ref().ok_or(RenderError::NoMap)?).into_bytes()),
        Format::Png(w) => png(view.map.as_ref().ok_or(RenderError::NoMap)?, w),
    }
}

/// The plain-text picture of a view: heading, text board, sections and the last log.
pub fn text(v: &View) -> String {
    let mut s = format!("{}\n{}\n\n", v.scenario, v.turn);
    for line in &v.board {
        s.push_str(&format!("  {line}\n"));
    }
    for (title, lines) in &v.sections {
        s.push_str(&format!("\n{}\n", title.to_uppercase()));
        for l in lines {
            s.push_str(&format!("  {l}\n"));
        }
    }
    if !v.log.is_empty() {
        s.push_str("\nLAST LOG\n");
        for l in &v.log {
            s.push_str(&format!("  {l}\n"));
        }
    }
    s
}

/// The shipped fonts and nothing else: no system font may change a picture.
fn fonts() -> Arc<usvg::fontdb::Database> {
    static DB: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        for f in [SANS, SANS_BOLD, SANS_CONDENSED] {
            db.load_font_data(f.to_vec());
        }
        db.set_sans_serif_family("DejaVu Sans");
        db.set_serif_family("DejaVu Sans");
        db.set_monospace_family("DejaVu Sans");
        Arc::new(db)
    })
    .clone()
}

/// Which shipped face a piece of text uses (for measuring before placing it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Face {
    Sans,
    Bold,
    Condensed,
}

/// Advance width of `text` in `face` at `size` px, from the shipped font's own metrics.
pub(crate) fn text_width(text: &str, face: Face, size: f64) -> f64 {
    use skrifa::MetadataProvider;
    use skrifa::instance::{LocationRef, Size};
    let data = match face {
        Face::Sans => SANS,
        Face::Bold => SANS_BOLD,
        Face::Condensed => SANS_CONDENSED,
    };
    let Ok(font) = skrifa::FontRef::new(data) else {
        return text.chars().count() as f64 * size * 0.6;
    };
    let charmap = font.charmap();
    let metrics = font.glyph_metrics(Size::new(size as f32), LocationRef::default());
    text.chars()
        .map(|c| {
            charmap
                .map(c)
                .and_then(|g| metrics.advance_width(g))
                .map_or(size * 0.6, f64::from)
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measures_with_the_shipped_fonts() {
        let w = text_width("Ravenscourt", Face::Condensed, 11.0);
        let wide = text_width("Ravenscourt", Face::Sans, 11.0);
        assert!(w > 40.0 && w < wide && wide < 70.0, "{w} {wide}");
        assert!(text_width("", Face::Bold, 11.0) == 0.0);
    }

    #[test]
    fn only_shipped_fonts_are_loaded() {
        let db = fonts();
        assert_eq!(db.len(), 3);
        for face in db.faces() {
            assert!(
                face.families.iter().any(|(f, _)| f.starts_with("DejaVu")),
                "{:?}",
                face.families
            );
        }
    }

    #[test]
    fn format_names() {
        assert_eq!("png".parse::<Format>(), Ok(Format::Png(MAIL_WIDTH_PX)));
        assert_eq!("svg".parse::<Format>(), Ok(Format::Svg));
        assert!("pdf".parse::<Format>().is_err());
    }
}
