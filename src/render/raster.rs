//! From a picture's SVG text to PNG bytes at the cost of text (issue 32 point 2): what a crop
//! cannot show is left out before parsing, each distinct picture is rasterised once and kept a
//! while (seats that see the same thing share it), and the PNG is a palette image, quickly
//! compressed. It draws nothing of its own and decides nothing about what a picture shows:
//! what it leaves out would have drawn no pixel. It keeps PNG bytes in memory only, never on
//! disk.

use std::borrow::Cow;
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use resvg::tiny_skia;
use sha2::{Digest, Sha256};

use super::RenderError;

/// How many bytes of PNGs the memo keeps: a step's pictures of the largest game (8 seats, a
/// few hundred KB) many times over, and little beside a daemon's other memory.
const MEMO_BYTES: usize = 16 << 20;

/// The PNGs made lately, oldest first, by the SHA-256 of their width and what was rasterised.
type Kept = VecDeque<([u8; 32], Arc<Vec<u8>>)>;
static MEMO: Mutex<Kept> = Mutex::new(VecDeque::new());

/// The PNG of `svg` at `width_px`: `make` rasterises what is left of `svg` once what cannot
/// show is culled, unless the same culled picture was made lately. Two seats' crops that
/// differ only in what lies outside them (the header naming the seat) share one PNG.
pub(crate) fn memo(
    svg: &str,
    width_px: u32,
    make: impl FnOnce(&str) -> Result<Vec<u8>, RenderError>,
) -> Result<Arc<Vec<u8>>, RenderError> {
    let svg = cull(svg);
    let key: [u8; 32] = Sha256::new()
        .chain_update(width_px.to_be_bytes())
        .chain_update(svg.as_bytes())
        .finalize()
        .into();
    let kept = |m: &Kept| m.iter().find(|(k, _)| *k == key).map(|(_, v)| v.clone());
    if let Some(png) = kept(&MEMO.lock().unwrap_or_else(|p| p.into_inner())) {
        return Ok(png);
    }
    let png = Arc::new(make(&svg)?);
    let mut m = MEMO.lock().unwrap_or_else(|p| p.into_inner());
    if kept(&m).is_none() {
        m.push_back((key, png.clone()));
    }
    let mut total: usize = m.iter().map(|(_, v)| v.len()).sum();
    while total > MEMO_BYTES && m.len() > 1 {
        if let Some((_, v)) = m.pop_front() {
            total -= v.len();
        }
    }
    Ok(png)
}

/// Forgets every kept PNG.
pub(crate) fn clear() {
    MEMO.lock().unwrap_or_else(|p| p.into_inner()).clear();
}

/// The viewBox of an SVG's root element: `[x, y, w, h]`.
fn view_box(svg: &str) -> Option<[f64; 4]> {
    let head = &svg[..svg.find('>')?];
    let at = head.find(" viewBox=\"")? + 10;
    let v: Vec<f64> = head[at..]
        .split('"')
        .next()?
        .split(' ')
        .filter_map(|n| n.parse().ok())
        .collect();
    v.try_into().ok()
}

/// A number attribute of one element's line.
fn attr(line: &str, name: &str) -> Option<f64> {
    let key = format!(" {name}=\"");
    let at = line.find(&key)? + key.len();
    line[at..].split('"').next()?.parse().ok()
}

/// The box `[x0, y0, x1, y1]` through the points of a path made only of absolute moves and
/// lines (`M`, `L`, `H`, `V`, `Z`, as `svg::path_of` writes); `None` for any other path.
fn path_box(d: &str) -> Option<[f64; 4]> {
    let mut b = [
        f64::INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NEG_INFINITY,
    ];
    let (mut x, mut y) = (0.0, 0.0);
    let mut rest = d.trim();
    while let Some(c) = rest.chars().next() {
        let end = rest[1..]
            .find(|ch: char| ch.is_ascii_alphabetic())
            .map_or(rest.len(), |i| i + 1);
        let nums: Vec<f64> = rest[1..end]
            .split([' ', ','])
            .filter(|s| !s.is_empty())
            .map(str::parse)
            .collect::<Result<_, _>>()
            .ok()?;
        match (c, nums.as_slice()) {
            ('M' | 'L', pairs) if !pairs.is_empty() && pairs.len() % 2 == 0 => {
                for p in pairs.chunks_exact(2) {
                    (x, y) = (p[0], p[1]);
                    b = [b[0].min(x), b[1].min(y), b[2].max(x), b[3].max(y)];
                }
            }
            ('H', [v]) => x = *v,
            ('V', [v]) => y = *v,
            ('Z', []) => {}
            _ => return None,
        }
        b = [b[0].min(x), b[1].min(y), b[2].max(x), b[3].max(y)];
        rest = &rest[end..];
    }
    b[0].is_finite().then_some(b)
}

/// What one element's line may paint, `[x0, y0, x1, y1]`, for the simple elements `map`
/// draws with absolute coordinates: a one-line text (a box wider and taller than any text of
/// its length and size reaches, every glyph at most 1.3 em, its halo included), a path of
/// moves and lines, a rect, a circle; strokes widened for joins and anti-aliasing. `None`
/// (kept whatever the crop) for anything else.
fn paints(l: &str, font_size: Option<f64>) -> Option<[f64; 4]> {
    if l.contains(" transform=") {
        return None;
    }
    let stroke = attr(l, "stroke-width").unwrap_or(1.0);
    let grow = |b: [f64; 4], by: f64| [b[0] - by, b[1] - by, b[2] + by, b[3] + by];
    if l.starts_with("<text ") && l.ends_with("</text>") && !l.contains("<tspan") {
        let (x, y) = (attr(l, "x")?, attr(l, "y")?);
        let size = attr(l, "font-size").or(font_size)?;
        let chars = l[l.find('>')? + 1..].chars().count() as f64;
        let (rx, ry) = (1.3 * size * chars + size, 1.5 * size);
        return Some(grow([x - rx, y - ry, x + rx, y + ry], stroke + 2.0));
    }
    if !l.ends_with("/>") {
        return None;
    }
    let b = if l.starts_with("<path ") {
        let at = l.find(" d=\"")? + 4;
        path_box(l[at..].split('"').next()?)?
    } else if l.starts_with("<rect ") {
        let (x, y) = (attr(l, "x")?, attr(l, "y")?);
        [x, y, x + attr(l, "width")?, y + attr(l, "height")?]
    } else if l.starts_with("<circle ") {
        let (x, y, r) = (attr(l, "cx")?, attr(l, "cy")?, attr(l, "r")?);
        [x - r, y - r, x + r, y + r]
    } else {
        return None;
    };
    // A miter join reaches at most 4 half-widths (the default limit) beyond its corner.
    Some(grow(b, 2.0 * stroke + 2.0))
}

/// `svg` (one element a line, as `map::drawing` writes it) without the elements that cannot
/// paint inside its viewBox. usvg lays out every text it parses and resvg draws a clipped
/// group as a layer the size of its children, so a crop of a big map paid for the whole map:
/// its hex numbers and names, and every terrain piece in a layer up to four times the canvas.
/// Only simple elements (see [`paints`]) outside `<defs>` and outside any transformed group
/// are left out, and only when what they may paint misses the viewBox: they would have drawn
/// no pixel, so the picture is the same.
pub(crate) fn cull(svg: &str) -> Cow<'_, str> {
    let Some([vx, vy, vw, vh]) = view_box(svg) else {
        return Cow::Borrowed(svg);
    };
    let mut out = String::with_capacity(svg.len());
    // Each open group: its font size (its own or inherited) and whether it moves its children.
    let mut groups: Vec<(Option<f64>, bool)> = Vec::new();
    let mut defs = 0usize;
    let mut dropped = false;
    for line in svg.split_inclusive('\n') {
        let l = line.trim_end();
        if l.starts_with("<defs") && !l.ends_with("/>") {
            defs += 1;
        } else if l.starts_with("</defs") {
            defs = defs.saturating_sub(1);
        } else if l.starts_with("<g") && !l.ends_with("/>") {
            let (size, moved) = groups.last().copied().unwrap_or((None, false));
            groups.push((
                attr(l, "font-size").or(size),
                moved || l.contains(" transform="),
            ));
        } else if l.starts_with("</g") {
            groups.pop();
        } else if defs == 0 {
            let (size, moved) = groups.last().copied().unwrap_or((None, false));
            if let Some(b) = paints(l, size).filter(|_| !moved)
                && (b[2] < vx || b[0] > vx + vw || b[3] < vy || b[1] > vy + vh)
            {
                dropped = true;
                continue;
            }
        }
        out.push_str(line);
    }
    if dropped {
        Cow::Owned(out)
    } else {
        Cow::Borrowed(svg)
    }
}

/// The PNG bytes of a rendered picture: a palette image (a map is flat colours and their
/// anti-aliased edges), quickly compressed. With 256 colours or fewer the palette is exact;
/// with more, it holds the 256 commonest (the flat fills and inks, side colours among them,
/// and their commonest edge blends) and every other colour takes its nearest. The `step_cost`
/// bench prints the options beside each other (RGBA, NeuQuant): NeuQuant's training alone
/// took 25–100 ms a picture.
pub(crate) fn encode(pixmap: &tiny_skia::Pixmap) -> Result<Vec<u8>, RenderError> {
    let (w, h) = (pixmap.width(), pixmap.height());
    let rgba = pixmap.clone().take_demultiplied();
    let pixels = || {
        rgba.chunks_exact(4)
            .map(|p| u32::from_be_bytes([p[0], p[1], p[2], p[3]]))
    };
    // Counted run by run: a map's rows are long runs of one colour.
    let mut count: HashMap<u32, usize> = HashMap::new();
    let mut run = (u32::MAX, 0usize);
    for p in pixels() {
        if p == run.0 {
            run.1 += 1;
        } else {
            if run.1 > 0 {
                *count.entry(run.0).or_default() += run.1;
            }
            run = (p, 1);
        }
    }
    *count.entry(run.0).or_default() += run.1;
    let mut by_count: Vec<(u32, usize)> = count.into_iter().collect();
    // Commonest first; ties by colour, so the same picture gives the same bytes.
    by_count.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let palette: Vec<u32> = by_count.iter().take(256).map(|c| c.0).collect();
    let index: HashMap<u32, u8> = by_count
        .iter()
        .map(|&(c, _)| (c, nearest(&palette, c)))
        .collect();
    let mut indices = Vec::with_capacity((w * h) as usize);
    let mut last = (u32::MAX, 0u8);
    for p in pixels() {
        if p != last.0 {
            last = (p, index[&p]);
        }
        indices.push(last.1);
    }
    let mut out = Vec::new();
    let mut e = png::Encoder::new(&mut out, w, h);
    e.set_color(png::ColorType::Indexed);
    e.set_depth(png::BitDepth::Eight);
    let bytes = |c: u32| c.to_be_bytes();
    e.set_palette(
        palette
            .iter()
            .flat_map(|&c| bytes(c)[..3].to_vec())
            .collect::<Vec<u8>>(),
    );
    if palette.iter().any(|&c| bytes(c)[3] != 255) {
        e.set_trns(palette.iter().map(|&c| bytes(c)[3]).collect::<Vec<u8>>());
    }
    e.set_compression(png::Compression::Fast);
    let err = |e: png::EncodingError| RenderError::Png(e.to_string());
    e.write_header()
        .map_err(err)?
        .write_image_data(&indices)
        .map_err(err)?;
    Ok(out)
}

/// The index of the palette colour nearest `c` (RGBA, squared distance).
fn nearest(palette: &[u32], c: u32) -> u8 {
    let c = c.to_be_bytes();
    let d = |p: &u32| -> i32 {
        let p = p.to_be_bytes();
        (0..4).map(|k| (p[k] as i32 - c[k] as i32).pow(2)).sum()
    };
    (palette.iter().enumerate())
        .min_by_key(|(i, p)| (d(p), *i))
        .map_or(0, |(i, _)| i as u8)
}

#[cfg(test)]
#[path = "raster_tests.rs"]
pub(super) mod tests;
