//! A map's static layer kept (issue 32 point 2): the background, the ground, the terrain and
//! the margin painted over it are the same at every step of a game, so they are rasterised
//! once per picture frame (the same viewBox, definitions and width) and kept in memory; each
//! picture then draws only what follows them (header, grid and numbers, zones, units, marks,
//! labels, legend) over a copy. It decides nothing about what a picture shows and changes no
//! pixel: resvg paints a document's top-level elements one after another onto one canvas,
//! so painting the first ones from one document and the rest from a second onto the same
//! canvas is the same painting (`layers_tests.rs` compares every pixel). Memory only.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use resvg::tiny_skia::Pixmap;
use sha2::{Digest, Sha256};

use super::RenderError;

/// How many bytes of static layers are kept: an inline crop's layer is 800 × 1000 × 4 bytes
/// (3.2 MB), so 48 MB keeps fifteen, the distinct crops of the largest game (8 seats, one
/// crop each) with room for the whole maps `despatch show` draws and a few games played at
/// once. Beyond that the least recently used go first; a layer missed is drawn again (a
/// picture is never wrong for it, only slower).
const LAYER_BYTES: usize = 48 << 20;

/// How the margin around the map begins (`terrain::margin`): the terrain's last element.
const MARGIN: &str = "\n<path d=\"M-100000 -100000H100000V100000H-100000ZM";

type Kept = VecDeque<([u8; 32], Arc<Pixmap>)>;
static KEPT: Mutex<Kept> = Mutex::new(VecDeque::new());

/// `svg` (one element a line, as `map::drawing` writes it) as its static layer — the root,
/// the definitions, everything up to the margin, as a document of its own without the title
/// (which paints nothing and names the turn) — and the rest as a second document: the root,
/// title and definitions, then everything after the margin. `None` when the picture has no
/// margin (no terrain: nothing worth keeping) or a group would span the cut.
pub(crate) fn split(svg: &str) -> Option<(String, String)> {
    let root_end = svg.find('\n')? + 1;
    let defs_end = svg.find("\n</defs>\n")? + "\n</defs>\n".len();
    let margin = svg.find(MARGIN)? + 1;
    let cut = margin + svg[margin..].find('\n')? + 1;
    if defs_end > margin {
        return None;
    }
    let body = &svg[defs_end..cut];
    let opens = body.matches("\n<g").count() + usize::from(body.starts_with("<g"));
    if opens != body.matches("</g>").count() {
        return None;
    }
    // The title, when the line after the root is one, is left out of the static layer.
    let after_root = &svg[root_end..];
    let from = match after_root.starts_with("<title>") {
        true => root_end + after_root.find('\n')? + 1,
        false => root_end,
    };
    let ground = format!("{}{}</svg>\n", &svg[..root_end], &svg[from..cut]);
    let rest = format!("{}{}", &svg[..defs_end], &svg[cut..]);
    Some((ground, rest))
}

/// The static layer `ground` at `width_px` (a copy to paint over): kept, or made by `make`
/// and kept.
pub(crate) fn layer(
    ground: &str,
    width_px: u32,
    make: impl FnOnce() -> Result<Pixmap, RenderError>,
) -> Result<Pixmap, RenderError> {
    let key: [u8; 32] = Sha256::new()
        .chain_update(width_px.to_be_bytes())
        .chain_update(ground.as_bytes())
        .finalize()
        .into();
    {
        let mut m = KEPT.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(at) = m.iter().position(|(k, _)| *k == key) {
            // The most recently used last: the first to go are those unused longest.
            let hit = m.remove(at).expect("found above");
            let copy = hit.1.as_ref().clone();
            m.push_back(hit);
            return Ok(copy);
        }
    }
    let made = make()?;
    let copy = made.clone();
    let mut m = KEPT.lock().unwrap_or_else(|p| p.into_inner());
    if !m.iter().any(|(k, _)| *k == key) {
        m.push_back((key, Arc::new(made)));
    }
    let size = |p: &Pixmap| p.data().len();
    let mut total: usize = m.iter().map(|(_, p)| size(p)).sum();
    while total > LAYER_BYTES && m.len() > 1 {
        if let Some((_, p)) = m.pop_front() {
            total -= size(&p);
        }
    }
    Ok(copy)
}

/// How many layers are kept, and their bytes.
#[cfg(test)]
pub(crate) fn kept() -> (usize, usize) {
    let m = KEPT.lock().unwrap_or_else(|p| p.into_inner());
    (m.len(), m.iter().map(|(_, p)| p.data().len()).sum())
}

/// Forgets every kept layer.
pub(crate) fn clear() {
    KEPT.lock().unwrap_or_else(|p| p.into_inner()).clear();
}

#[cfg(test)]
#[path = "layers_tests.rs"]
mod tests;
