//! The legend below the map: one swatch and its words for each entry the scene lists (a view
//! lists only what its picture shows), and the names of places that found no room on the map.
//! Swatches are drawn with the same pieces as the map, so they look alike.

use std::fmt::Write as _;

use crate::engine::scene::{HitTrack, LegendEntry, Scene, Symbol, UnitKind};

use super::glyphs::hull_points;
use super::marks::{hit_track, tone_look};
use super::svg::{
    BADGE_SIZE, CRITICAL, Defs, FRAME, HITS, INK, LEGEND_SIZE, MARGIN, SIDE_FILL, SIDE_INK, WRECK,
    esc, f,
};
use super::terrain::{area, is_line, line, style_of};
use super::units::{base, counter, side_index};
use super::zones::{BLAST, SMOKE, flag, minefield_look};
use super::{Face, text_width};

/// Neutral colours for swatches that stand for no side.
const NEUTRAL: &str = "#5d6d7e";

fn swatch(out: &mut String, s: &Symbol, scene: &Scene, x: f64, y: f64, defs: &mut Defs) {
    let cy = y + 7.0;
    let cx = x + 10.0;
    match s {
        Symbol::Side(side) => side_swatch(out, scene, side, (x, cx, cy)),
        Symbol::Wreck | Symbol::Struck => wreck_swatch(out, *s == Symbol::Wreck, (x, cx, cy)),
        Symbol::Hits | Symbol::Critical | Symbol::DeadInWater => badge_swatch(out, s, cx, cy),
        Symbol::Status(tone) => {
            let (fill, ink, dash) = tone_look(*tone);
            let _ = write!(
                out,
                r##"<rect x="{}" y="{}" width="18" height="11" rx="5.5" fill="{fill}" stroke="{ink}" stroke-width="{}"{dash}/>"##,
                f(x + 1.0),
                f(cy - 5.5),
                if dash.is_empty() { "0" } else { "1" }
            );
        }
        Symbol::HitTrack => hit_track(out, &HitTrack { taken: 1, of: 3 }, x, cy - 3.0),
        Symbol::Flagship => {
            let _ = write!(
                out,
                r##"<text x="{}" y="{}" font-size="12" fill="{INK}" text-anchor="middle">★</text>"##,
                f(cx),
                f(cy + 4.5)
            );
        }
        Symbol::Minefield(k) => {
            let (fill, stroke, dash) = minefield_look(defs, *k);
            let _ = write!(
                out,
                r##"<rect x="{}" y="{}" width="18" height="8" fill="{fill}" stroke="{stroke}" stroke-width="1.2"{dash}/>"##,
                f(x + 1.0),
                f(cy - 4.0)
            );
        }
        Symbol::Style(name) => style_swatch(out, defs, scene, name, x, cy),
        Symbol::Unit(sym) => counter(out, (cx, cy), 15.0, NEUTRAL, None, sym, None),
        Symbol::Facing => counter(
            out,
            (cx - 3.0, cy),
            11.0,
            NEUTRAL,
            Some(90.0),
            &crate::engine::scene::UnitSymbol::Text(String::new()),
            None,
        ),
        Symbol::Formation(fm) => base(
            out,
            (cx, cy + 1.0),
            (20.0, 10.0),
            Some(0.0),
            *fm,
            8,
            (NEUTRAL, INK),
        ),
        Symbol::Smoke | Symbol::Control | Symbol::Blast => zone_swatch(out, s, x, cx, cy),
        Symbol::Track | Symbol::Fire | Symbol::Move => stroke_swatch(out, s, x, cy),
        Symbol::Objective => out.push_str(&flag((cx - 3.0, cy + 6.0), 12.0)),
    }
}

/// The zones laid over the map: smoke, a side's control, a blast.
fn zone_swatch(out: &mut String, s: &Symbol, x: f64, cx: f64, cy: f64) {
    match s {
        Symbol::Smoke => {
            let _ = write!(
                out,
                r##"<ellipse cx="{}" cy="{}" rx="9" ry="6" fill="{}" fill-opacity="0.45" stroke="{}" stroke-dasharray="2 2"/>"##,
                f(cx),
                f(cy),
                SMOKE.0,
                SMOKE.1
            );
        }
        Symbol::Control => {
            let c = SIDE_FILL[0];
            let _ = write!(
                out,
                r##"<rect x="{}" y="{}" width="18" height="10" fill="{c}" fill-opacity="0.12" stroke="{c}" stroke-width="1.6" stroke-dasharray="0.5 3.5" stroke-linecap="round"/>"##,
                f(x + 1.0),
                f(cy - 5.0)
            );
        }
        Symbol::Blast => {
            let _ = write!(
                out,
                r##"<circle cx="{}" cy="{}" r="6.5" fill="{}" fill-opacity="0.18" stroke="{}" stroke-width="1.2" stroke-dasharray="4 2"/><path d="M{} {}h6M{} {}v6" stroke="{}" stroke-width="1"/>"##,
                f(cx),
                f(cy),
                BLAST.0,
                BLAST.1,
                f(cx - 3.0),
                f(cy),
                f(cx),
                f(cy - 3.0),
                BLAST.1
            );
        }
        _ => {}
    }
}

/// The strokes drawn between hexes: a track, a line of fire, a move.
fn stroke_swatch(out: &mut String, s: &Symbol, x: f64, cy: f64) {
    match s {
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
        Symbol::Move => {
            let _ = write!(
                out,
                r##"<path d="M{} {}h14l-4 -3m4 3l-4 3" stroke="{}" stroke-width="1.4" fill="none"/>"##,
                f(x + 2.0),
                f(cy),
                SIDE_INK[0]
            );
        }
        _ => {}
    }
}

/// A side's own unit, drawn as that side's units are (a counter, a base or a hull).
fn side_swatch(out: &mut String, scene: &Scene, side: &str, (x, cx, cy): (f64, f64, f64)) {
    let si = side_index(scene, side);
    let kind = scene
        .units
        .iter()
        .find(|u| u.side == *side)
        .map(|u| &u.kind);
    match kind {
        Some(UnitKind::Counter { .. }) => {
            let _ = write!(
                out,
                r##"<rect x="{}" y="{}" width="12" height="12" rx="1.5" fill="{}" stroke="#111" stroke-width="0.8"/>"##,
                f(x + 4.0),
                f(cy - 6.0),
                SIDE_FILL[si]
            );
        }
        Some(UnitKind::Base { .. }) => {
            let _ = write!(
                out,
                r##"<rect x="{}" y="{}" width="18" height="9" fill="{}" fill-opacity="0.45" stroke="{}" stroke-width="0.8"/>"##,
                f(x + 1.0),
                f(cy - 4.5),
                SIDE_FILL[si],
                SIDE_INK[si]
            );
        }
        _ => {
            let (d, _) = hull_points("BB", 18.0);
            let _ = write!(
                out,
                r##"<path transform="translate({} {})" d="{d}" fill="{}" stroke="#111" stroke-width="0.8"/>"##,
                f(cx),
                f(cy),
                SIDE_FILL[si]
            );
        }
    }
}

/// A wreck (crossed out) or a ship struck (white).
fn wreck_swatch(out: &mut String, wreck: bool, (x, cx, cy): (f64, f64, f64)) {
    let (d, _) = hull_points("BB", 18.0);
    let fill = if wreck { WRECK } else { "#fff" };
    let _ = write!(
        out,
        r##"<path transform="translate({} {})" d="{d}" fill="{fill}" stroke="#444" stroke-width="0.8"/>"##,
        f(cx),
        f(cy)
    );
    if wreck {
        let _ = write!(
            out,
            r##"<path d="M{} {}l10 10m0 -10l-10 10" stroke="#222" stroke-width="1.4"/>"##,
            f(x + 5.0),
            f(cy - 5.0)
        );
    }
}

/// The round badges: hits, critical, dead in the water.
fn badge_swatch(out: &mut String, s: &Symbol, cx: f64, cy: f64) {
    let (t, fill) = match s {
        Symbol::Hits => ("2", HITS),
        Symbol::Critical => ("G", CRITICAL),
        _ => ("DIW", INK),
    };
    let w = (text_width(t, Face::Bold, BADGE_SIZE) + 5.0).max(11.0);
    let _ = write!(
        out,
        r##"<rect x="{}" y="{}" width="{}" height="11" rx="5.5" fill="{fill}"/><text x="{}" y="{}" font-weight="bold" font-size="{BADGE_SIZE}" fill="#fff" text-anchor="middle">{t}</text>"##,
        f(cx - w / 2.0),
        f(cy - 5.5),
        f(w),
        f(cx),
        f(cy + 3.0)
    );
}

/// A terrain style: a stroke for a line style, a framed patch for an area.
fn style_swatch(out: &mut String, defs: &mut Defs, scene: &Scene, name: &str, x: f64, cy: f64) {
    let st = style_of(scene, name);
    if is_line(&st) {
        line(out, &st, &format!("M{} {}h16", f(x + 2.0), f(cy)), 4.0);
    } else {
        let pts = [
            (x + 1.0, cy - 5.0),
            (x + 19.0, cy - 5.0),
            (x + 19.0, cy + 5.0),
            (x + 1.0, cy + 5.0),
        ];
        let d = super::svg::path_of(&pts, true);
        area(out, defs, scene, (name, &st), &d, &pts, "");
        if st.edge.is_none() {
            // An edgeless fill still needs a frame to read as a swatch.
            let _ = write!(
                out,
                r##"<path d="{d}" fill="none" stroke="{FRAME}" stroke-width="0.6"/>"##
            );
        }
    }
}

/// The legend as flowing rows of swatch and words; returns the y below it.
pub(crate) fn draw(out: &mut String, scene: &Scene, defs: &mut Defs, y0: f64, width: f64) -> f64 {
    let mut x = MARGIN;
    let mut y = y0;
    let entries: &[LegendEntry] = &scene.legend;
    for e in entries {
        let w = 26.0 + text_width(&e.text, Face::Sans, LEGEND_SIZE) + 14.0;
        if x + w > width - MARGIN && x > MARGIN {
            x = MARGIN;
            y += 18.0;
        }
        swatch(out, &e.symbol, scene, x, y, defs);
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

/// Names of places that found no room on the map, with their kind; returns the y below.
pub(crate) fn places(out: &mut String, unfit: &[(String, String)], y: f64, width: f64) -> f64 {
    if unfit.is_empty() {
        return y;
    }
    let head = "Not named on the map:";
    let _ = write!(
        out,
        r##"<text x="{}" y="{}" font-size="{LEGEND_SIZE}" font-weight="bold" fill="{INK}">{head}</text>"##,
        f(MARGIN),
        f(y + 11.0)
    );
    let mut y = y;
    let mut x = MARGIN + text_width(head, Face::Bold, LEGEND_SIZE) + 8.0;
    for (name, kind) in unfit {
        // A kind with brackets of its own gets a colon: nested brackets read badly.
        let t = if kind.contains('(') {
            format!("{name}: {kind}")
        } else {
            format!("{name} ({kind})")
        };
        let w = text_width(&t, Face::Sans, LEGEND_SIZE) + 12.0;
        if x + w > width - MARGIN {
            x = MARGIN + 12.0;
            y += 16.0;
        }
        let _ = write!(
            out,
            r##"<text x="{}" y="{}" font-size="{LEGEND_SIZE}" font-style="italic" fill="{INK}">{}</text>"##,
            f(x),
            f(y + 11.0),
            esc(&t)
        );
        x += w;
    }
    y + 18.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_legend_without_entries_takes_no_room() {
        let mut out = String::new();
        assert_eq!(places(&mut out, &[], 100.0, 800.0), 100.0);
        assert!(out.is_empty());
        let y = places(&mut out, &[("Hill 9".into(), "hill".into())], 100.0, 800.0);
        assert!(y > 100.0 && out.contains("Hill 9 (hill)"));
    }

    #[test]
    fn a_kind_with_brackets_of_its_own_gets_a_colon_not_nested_brackets() {
        let mut out = String::new();
        let kinds = [
            ("Farm".to_string(), "walled farm (building)".to_string()),
            ("Wood".to_string(), "woods".to_string()),
        ];
        places(&mut out, &kinds, 100.0, 800.0);
        assert!(out.contains("Farm: walled farm (building)"), "{out}");
        assert!(out.contains("Wood (woods)"), "{out}");
        assert!(!out.contains("))"), "{out}");
    }
}
