//! What is written beside each piece: its name, badges (hits, criticals, statuses in their
//! tone), a hit track and notes, placed where they fit, and numbers with a key below the map
//! where they do not. It writes only the unit's own label and markers.

use std::fmt::Write as _;

use crate::engine::scene::{Condition, HitTrack, Marker, Scene, Tone, Unit, UnitKind};

use super::labels::{self, Bx, Movable, Obstacle, P, Want};
use super::svg::{
    BADGE_SIZE, CRITICAL, Frame, HITS, INK, LABEL_H, LABEL_SIZE, LEGEND_SIZE, MARGIN,
    NUMBER_ASCENT, SIDE_INK, WRECK, esc, f,
};
use super::units::side_index;
use super::{Face, text_width};

/// Fill, text colour and outline of a status badge by its tone.
pub(crate) fn tone_look(t: Tone) -> (&'static str, &'static str, &'static str) {
    match t {
        Tone::Danger => ("#c0392b", "#fff", ""),
        Tone::Warning => ("#b9770e", "#fff", ""),
        Tone::Info => ("#2471a3", "#fff", ""),
        Tone::Spent => ("#7f8c8d", "#fff", ""),
        Tone::Hidden => ("#ffffff", "#566573", r##" stroke-dasharray="2 1.2""##),
        Tone::Order => ("#1e8449", "#fff", ""),
    }
}

/// A small label badge: text on a coloured pill.
struct Badge {
    text: String,
    fill: &'static str,
    ink: &'static str,
    dash: &'static str,
    /// Statuses are words and use the condensed face; numbers and letters the bold one.
    words: bool,
    w: f64,
}

impl Badge {
    fn new(text: String, fill: &'static str) -> Badge {
        Badge {
            text,
            fill,
            ink: "#fff",
            dash: "",
            words: false,
            w: 0.0,
        }
    }
}

/// One unit's label before placement.
pub(crate) struct LabelText {
    pub name: String,
    badges: Vec<Badge>,
    track: Option<HitTrack>,
    notes: String,
    name_w: f64,
    pub w: f64,
}

const BOX: f64 = 6.0;

fn track_w(t: &HitTrack) -> f64 {
    f64::from(t.of.min(20)) * (BOX + 1.0) + 2.0
}

pub(crate) fn label_text(u: &Unit) -> LabelText {
    let mut prefix = String::new();
    let mut badges = Vec::new();
    let mut statuses = Vec::new();
    let mut notes = Vec::new();
    let mut crit = String::new();
    for m in &u.markers {
        match m {
            Marker::Flagship => prefix = "★".into(),
            Marker::SecondInCommand => prefix = "☆".into(),
            Marker::Hits(n) if *n > 0 => badges.push(Badge::new(n.to_string(), HITS)),
            Marker::Critical(c) => crit.push_str(&c.chars().take(1).collect::<String>()),
            Marker::DeadInWater => badges.push(Badge::new("DIW".into(), INK)),
            Marker::Note(n) => notes.push(n.clone()),
            Marker::Status { text, tone } => {
                let (fill, ink, dash) = tone_look(*tone);
                statuses.push(Badge {
                    ink,
                    dash,
                    words: true,
                    ..Badge::new(text.clone(), fill)
                });
            }
            Marker::Hits(_) | Marker::LayingSmoke => {}
        }
    }
    if !crit.is_empty() {
        badges.push(Badge::new(crit, CRITICAL));
    }
    badges.extend(statuses);
    for b in &mut badges {
        b.w = if b.words {
            text_width(&b.text, Face::Condensed, BADGE_SIZE) + 6.0
        } else {
            (text_width(&b.text, Face::Bold, BADGE_SIZE) + 5.0).max(11.0)
        };
    }
    let track = match u.kind {
        UnitKind::Base { hits, .. } => hits.filter(|t| t.of > 0),
        _ => None,
    };
    let notes = notes.join(", ");
    let name = format!("{prefix}{}", u.label);
    let name_w = text_width(&name, Face::Condensed, LABEL_SIZE);
    let mut w = name_w + badges.iter().map(|b| b.w + 2.0).sum::<f64>();
    if let Some(t) = &track {
        w += track_w(t);
    }
    if !notes.is_empty() {
        w += 3.0 + text_width(&notes, Face::Condensed, 9.0);
    }
    LabelText {
        name,
        badges,
        track,
        notes,
        name_w,
        w: w + 2.0,
    }
}

/// A hit track's boxes from `x`: the first `taken` crossed off.
pub(crate) fn hit_track(out: &mut String, t: &HitTrack, x: f64, y: f64) {
    for k in 0..t.of.min(20) {
        let bx = x + f64::from(k) * (BOX + 1.0);
        let hit = k < t.taken;
        let _ = write!(
            out,
            r##"<rect x="{}" y="{}" width="{BOX}" height="{BOX}" fill="{}" stroke="{INK}" stroke-width="0.7"/>"##,
            f(bx),
            f(y),
            if hit { CRITICAL } else { "#fff" }
        );
        if hit {
            let _ = write!(
                out,
                r##"<path d="M{} {}l{BOX} {BOX}m0 -{BOX}l-{BOX} {BOX}" stroke="#fff" stroke-width="0.8"/>"##,
                f(bx),
                f(y)
            );
        }
    }
}

/// A pill `w` wide from `x` with its text.
fn pill(out: &mut String, b: &Badge, x: f64, top: f64, base: f64) {
    let face = if b.words {
        r##" font-stretch="condensed""##
    } else {
        ""
    };
    let _ = write!(
        out,
        r##"<rect x="{}" y="{}" width="{}" height="11" rx="5.5" fill="{}" stroke="{}" stroke-width="1"{}/><text x="{}" y="{}" font-weight="bold"{face} font-size="{BADGE_SIZE}" fill="{}" text-anchor="middle">{}</text>"##,
        f(x),
        f(top),
        f(b.w),
        b.fill,
        if b.dash.is_empty() { "#fff" } else { b.ink },
        b.dash,
        f(x + b.w / 2.0),
        f(base - 0.8),
        b.ink,
        esc(&b.text)
    );
}

fn write_label(out: &mut String, lt: &LabelText, bx: &Bx, ink: &str, wreck: bool) {
    let base = bx.y0 + 10.0;
    let x = bx.x0 + 1.0;
    let _ = write!(
        out,
        r##"<text x="{}" y="{}" font-stretch="condensed" font-size="{LABEL_SIZE}" fill="{}" stroke="#fff" stroke-width="2.6" stroke-linejoin="round" paint-order="stroke"{}>{}</text>"##,
        f(x),
        f(base),
        if wreck { WRECK } else { ink },
        if wreck {
            r##" font-style="italic""##
        } else {
            ""
        },
        esc(&lt.name)
    );
    let mut bxx = x + lt.name_w + 2.0;
    for b in &lt.badges {
        pill(out, b, bxx, bx.y0 + 1.0, base);
        bxx += b.w + 2.0;
    }
    if let Some(t) = &lt.track {
        hit_track(out, t, bxx + 1.0, bx.y0 + 3.5);
        bxx += track_w(t);
    }
    if !lt.notes.is_empty() {
        let _ = write!(
            out,
            r##"<text x="{}" y="{}" font-stretch="condensed" font-size="9" font-style="italic" fill="{INK}" stroke="#fff" stroke-width="2.2" stroke-linejoin="round" paint-order="stroke">{}</text>"##,
            f(bxx + 1.0),
            f(base),
            esc(&lt.notes)
        );
    }
}

/// The half width, half depth and turn (degrees) of a counter's or base's body on the
/// picture, as `units` draws it; none for ships (their leaders start at the hull's middle).
fn body(fr: &Frame, u: &Unit) -> Option<(f64, f64, f64)> {
    match &u.kind {
        UnitKind::Counter { size, .. } => {
            let half = fr.counter_size(*size) / 2.0;
            Some((half, half, 0.0))
        }
        UnitKind::Base { width, depth, .. } => Some((
            (width * fr.scale).max(14.0) / 2.0,
            (depth * fr.scale).max(7.0) / 2.0,
            u.facing.unwrap_or(0.0),
        )),
        UnitKind::Ship { .. } => None,
    }
}

/// Every unit's label as drawn.
pub(crate) struct Labels {
    pub svg: String,
    /// The key of numbered units: (number, unit index).
    pub key: Vec<(usize, usize)>,
    /// Each label's text (name, or number) and the box it is written in.
    pub boxes: Vec<(String, Bx)>,
}

/// Places and writes every unit's label: names where there is room, else numbers, never over
/// the last free spot of a hex's number (`hex_numbers`). Returns the SVG, the key of numbered
/// units and each label's text and box.
pub(crate) fn draw(
    fr: &Frame,
    scene: &Scene,
    obstacles: &[Obstacle],
    taken: &mut Vec<Bx>,
    hex_numbers: &mut [Movable],
) -> Labels {
    let texts: Vec<LabelText> = scene.units.iter().map(label_text).collect();
    let wants: Vec<Want> = scene
        .units
        .iter()
        .zip(&texts)
        .map(|(u, t)| Want {
            anchor: fr.px(u.at),
            axis: u.facing.map(Frame::angle),
            w: t.w,
            h: LABEL_H,
            rank: u8::from(u.condition != Condition::Active),
        })
        .collect();
    let inner = Bx::new(
        fr.rect.x0 + 1.0,
        fr.rect.y0 + 1.0,
        fr.rect.x1 - fr.rect.x0 - 2.0,
        fr.rect.y1 - fr.rect.y0 - 2.0,
    );
    let placed = labels::place(&wants, obstacles, taken, hex_numbers, inner);
    let mut key: Vec<(usize, usize)> = Vec::new();
    let missing: Vec<usize> = (0..placed.len()).filter(|&i| placed[i].is_none()).collect();
    let numbers: Vec<String> = (1..=missing.len()).map(|n| n.to_string()).collect();
    let number_wants: Vec<Want> = missing
        .iter()
        .zip(&numbers)
        .map(|(&i, n)| Want {
            w: text_width(n, Face::Bold, 10.0) + 4.0,
            ..wants[i].clone()
        })
        .collect();
    let number_placed = labels::place(&number_wants, obstacles, taken, hex_numbers, inner);
    let mut svg = String::new();
    let mut boxes = Vec::new();
    for (i, u) in scene.units.iter().enumerate() {
        let si = side_index(scene, &u.side);
        let wreck = u.condition == Condition::Wreck;
        let (bx, leader, number) = match placed[i] {
            Some(p) => (p.bx, p.leader, None),
            None => {
                let k = missing.iter().position(|&m| m == i).unwrap_or(0);
                key.push((k + 1, i));
                match number_placed[k] {
                    Some(p) => (p.bx, p.leader, Some(&numbers[k])),
                    None => {
                        // Nowhere free even for a number: put it on the unit itself.
                        let (x, y) = wants[i].anchor;
                        (
                            Bx::new(x - 5.0, y - 6.5, 10.0, 13.0),
                            None,
                            Some(&numbers[k]),
                        )
                    }
                }
            }
        };
        let leader = leader_from_edge(fr, u, leader, wants[i].anchor);
        if let Some((a, b)) = leader {
            let _ = write!(
                svg,
                r##"<path d="M{} {}L{} {}" stroke="{}" stroke-width="0.7" stroke-opacity="0.8"/>"##,
                f(a.0),
                f(a.1),
                f(b.0),
                f(b.1),
                if wreck { WRECK } else { SIDE_INK[si] }
            );
        }
        // The box written in, grown to the font's whole ascent over the baseline (a hair above
        // the box's top), so that what it is measured against is what the eye sees.
        let glyphs = Bx {
            y0: bx.y0.min(bx.y0 + 10.0 - NUMBER_ASCENT * LABEL_SIZE),
            ..bx
        };
        boxes.push((
            number.cloned().unwrap_or_else(|| texts[i].name.clone()),
            glyphs,
        ));
        match number {
            None => write_label(&mut svg, &texts[i], &bx, SIDE_INK[si], wreck),
            Some(n) => write_number(&mut svg, n, &bx, if wreck { WRECK } else { SIDE_INK[si] }),
        }
    }
    Labels { svg, key, boxes }
}

/// A unit's number, written where its name did not fit (the key under the map names it).
fn write_number(svg: &mut String, n: &str, bx: &Bx, ink: &str) {
    let _ = write!(
        svg,
        r##"<text x="{}" y="{}" font-weight="bold" font-size="10" fill="{}" stroke="#fff" stroke-width="2.4" stroke-linejoin="round" paint-order="stroke">{}</text>"##,
        f(bx.x0 + 2.0),
        f(bx.y0 + 10.0),
        ink,
        n
    );
}

/// A leader starts at the edge of a counter or base, not inside it (and is dropped when that
/// leaves it too short to see).
fn leader_from_edge(fr: &Frame, u: &Unit, leader: Option<(P, P)>, anchor: P) -> Option<(P, P)> {
    match (leader, body(fr, u)) {
        (Some((_, b)), Some((hw, hd, turn))) => {
            let (ax, ay) = anchor;
            let (dx, dy) = (b.0 - ax, b.1 - ay);
            let len = (dx * dx + dy * dy).sqrt().max(1e-9);
            let (c, s) = (turn.to_radians().cos(), turn.to_radians().sin());
            // The direction in the piece's own frame, where its body is `hw` x `hd`.
            let (lx, ly) = ((dx * c + dy * s) / len, (-dx * s + dy * c) / len);
            let out = (hw / lx.abs().max(1e-9)).min(hd / ly.abs().max(1e-9)) + 1.5;
            (len - out > 2.0).then(|| ((ax + dx / len * out, ay + dy / len * out), b))
        }
        (l, _) => l,
    }
}

/// The key to numbered units below the map; returns the y below it.
pub(crate) fn key(
    out: &mut String,
    scene: &Scene,
    key: &mut [(usize, usize)],
    y: f64,
    width: f64,
) -> f64 {
    if key.is_empty() {
        return y;
    }
    key.sort();
    let _ = write!(
        out,
        r##"<text x="{}" y="{}" font-size="{LEGEND_SIZE}" font-weight="bold" fill="{INK}">Numbered on the map:</text>"##,
        f(MARGIN),
        f(y + 11.0)
    );
    let mut y = y;
    let mut x = MARGIN + text_width("Numbered on the map:", Face::Bold, LEGEND_SIZE) + 8.0;
    for (n, i) in key.iter() {
        let t = format!("{n} {}", label_text(&scene.units[*i]).name);
        let w = text_width(&t, Face::Sans, LEGEND_SIZE) + 12.0;
        if x + w > width - MARGIN {
            x = MARGIN + 12.0;
            y += 16.0;
        }
        let si = side_index(scene, &scene.units[*i].side);
        let _ = write!(
            out,
            r##"<text x="{}" y="{}" font-size="{LEGEND_SIZE}" fill="{}">{}</text>"##,
            f(x),
            f(y + 11.0),
            SIDE_INK[si],
            esc(&t)
        );
        x += w;
    }
    y + 18.0
}
