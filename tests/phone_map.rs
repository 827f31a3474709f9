//! Issue 30 point 1: hex numbers stay readable. Every shipped scenario of every ruleset, at its
//! opening and after two rounds of scripted orders, as a spectator and as each seat sees it: on
//! a hex map no hex number's box (the font's whole ascent and descent) meets the box of a
//! counter (body and facing wedge), in its own hex or another, nor the box of a unit's label
//! (name, badges and all, or the number the key explains), nor a zone's or place's name or an
//! objective's flag. The boxes are the layout the drawing itself used
//! (`render::svg_and_layout`), and the test first finds each number and label written in the
//! SVG where the layout says. The last round's pictures land in target/phone-map/hexes/.

use std::collections::BTreeMap;

use despatch::engine::Viewer;
use despatch::render::{self, MapLayout};

use crate::phone_map_in_browser::{LARGEST, play_round, start};

/// The scenarios not in `LARGEST`, with their seats.
const OTHERS: &[(&str, &str, &[&str])] = &[
    ("naval-rjw", "training", &["japan", "russia"]),
    (
        "lone-star",
        "patrol",
        &["hays", "bowie", "von-arnim", "enver"],
    ),
    ("lone-star", "teaching", &["hays", "von-arnim"]),
    (
        "lone-star",
        "san-felipe",
        &["hays", "bowie", "von-arnim", "enver"],
    ),
    (
        "lone-star",
        "heart-of-tidal",
        &["hays", "bowie", "von-arnim", "enver"],
    ),
    ("la-bataille", "teaching", &["france", "allies"]),
    ("la-bataille", "quatre-bras-1815", &["france", "allies"]),
    ("last-hundred-yards", "patrol", &["us", "germany"]),
];

fn overlap(a: &[f64; 4], b: &[f64; 4]) -> bool {
    a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]
}

/// Every `<text>` of the SVG: its x, y and content (the drawing writes one element a line).
fn texts(svg: &str) -> Vec<(f64, f64, String)> {
    let attr = |line: &str, name: &str| -> f64 {
        let key = format!(" {name}=\"");
        let at = line.find(&key).unwrap() + key.len();
        line[at..].split('"').next().unwrap().parse().unwrap()
    };
    svg.lines()
        .filter(|l| l.starts_with("<text") && l.ends_with("</text>"))
        .map(|l| {
            let open = l.find('>').unwrap() + 1;
            (attr(l, "x"), attr(l, "y"), l[open..l.len() - 7].to_string())
        })
        .collect()
}

/// The text as the SVG escapes it.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&apos;")
}

/// The layout is the drawing: each number is written centred in its box, each label from its
/// box's left edge, both with their baselines inside the box.
fn layout_is_drawn(at: &str, svg: &str, l: &MapLayout) {
    let written = texts(svg);
    let inside = |y: f64, b: &[f64; 4]| y > b[1] && y < b[3];
    for (n, b) in &l.numbers {
        let x = (b[0] + b[2]) / 2.0;
        assert!(
            written
                .iter()
                .any(|(tx, ty, t)| t == n && (tx - x).abs() < 0.11 && inside(*ty, b)),
            "{at}: hex number {n} is not written in its box {b:?}"
        );
    }
    for (name, b) in &l.labels {
        let name = esc(name);
        assert!(
            written
                .iter()
                .any(|(tx, ty, t)| *t == name && *tx >= b[0] && *tx < b[0] + 3.0 && inside(*ty, b)),
            "{at}: label {name} is not written in its box {b:?}"
        );
    }
}

/// What covers hex numbers in one picture, by kind: label over a number, counter over its own
/// hex's number, counter over another hex's number. Each is listed as a message.
#[derive(Default)]
struct Covered {
    labels: Vec<String>,
    names: Vec<String>,
    own: Vec<String>,
    other: Vec<String>,
}

fn covered(at: &str, l: &MapLayout, out: &mut Covered) {
    for (number, nb) in &l.numbers {
        for (name, b) in &l.labels {
            if overlap(nb, b) {
                out.labels.push(format!(
                    "{at}: label {name:?} at {b:?} covers hex {number} at {nb:?}"
                ));
            }
        }
        for b in &l.names {
            if overlap(nb, b) {
                out.names.push(format!(
                    "{at}: a name or flag at {b:?} covers hex {number} at {nb:?}"
                ));
            }
        }
        for (hex, c) in &l.counters {
            if overlap(nb, c) {
                let list = if hex == number {
                    &mut out.own
                } else {
                    &mut out.other
                };
                list.push(format!(
                    "{at}: a counter in hex {hex} at {c:?} covers hex {number} at {nb:?}"
                ));
            }
        }
    }
}

#[test]
fn no_label_or_counter_covers_a_hex_number_in_any_scenario() {
    let shipped = |r: &str| {
        std::fs::read_dir(format!(
            "{}/games/{r}/scenarios",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
        .count()
    };
    let dir = crate::demo_mails::repo().join("target/phone-map/hexes");
    std::fs::create_dir_all(&dir).unwrap();
    let mut counters_met = 0;
    let mut labels_met = 0;
    let mut by_scenario: BTreeMap<String, Covered> = BTreeMap::new();
    for (i, (ruleset, scenario, seats)) in LARGEST.iter().chain(OTHERS).enumerate() {
        let listed = LARGEST
            .iter()
            .chain(OTHERS)
            .filter(|l| l.0 == *ruleset)
            .count();
        assert_eq!(
            listed,
            shipped(ruleset),
            "{ruleset}: every scenario is listed"
        );
        let game: &'static str = Box::leak(format!("hexes{i}").into_boxed_str());
        let mut w = start(game, ruleset, scenario, seats);
        for round in 0..3 {
            if round > 0 {
                play_round(&mut w);
            }
            let g = w.daemon.open_game(game).unwrap().game;
            let viewers = std::iter::once(Viewer::Spectator)
                .chain(seats.iter().map(|s| Viewer::Seat(s.to_string())));
            for v in viewers {
                let Some(scene) = g.view(&v).map else {
                    continue;
                };
                let (svg, layout) = render::svg_and_layout(&scene);
                if layout.numbers.is_empty() {
                    continue;
                }
                let at = format!("{ruleset} {scenario} round {round} {v:?}");
                layout_is_drawn(&at, &svg, &layout);
                if round == 2 {
                    // The last round's pictures, to be looked at (target/phone-map/hexes/).
                    let who = match &v {
                        Viewer::Seat(s) => s.as_str(),
                        _ => "spectator",
                    };
                    let file = dir.join(format!("{ruleset}-{scenario}-{who}.png"));
                    let w = render::view_box(&svg).unwrap();
                    let w: f64 = w.split(' ').nth(2).unwrap().parse().unwrap();
                    let png = render::png_from_svg(&svg, (2.0 * w) as u32).unwrap();
                    std::fs::write(file, png).unwrap();
                }
                covered(
                    &at,
                    &layout,
                    by_scenario
                        .entry(format!("{ruleset} {scenario}"))
                        .or_default(),
                );
                counters_met += layout.counters.len();
                labels_met += layout.labels.len();
            }
        }
    }
    for (scenario, c) in &by_scenario {
        eprintln!(
            "{scenario}: labels over hex numbers {}, other names {}, counters over their own \
             hex's number {}, over another hex's number {}",
            c.labels.len(),
            c.names.len(),
            c.own.len(),
            c.other.len()
        );
    }
    for c in by_scenario.values() {
        for list in [&c.own, &c.other, &c.labels, &c.names] {
            assert!(list.is_empty(), "{}", list.join("\n"));
        }
    }
    // The check met counters and labels (on La Bataille's and Last Hundred Yards' hex maps).
    assert!(
        counters_met > 20 && labels_met > 20,
        "{counters_met} {labels_met}"
    );
}

/// Whether box `b` lies whole in `win` (`[x0, y0, x1, y1]` both).
fn holds(win: &[f64; 4], b: &[f64; 4]) -> bool {
    b[0] >= win[0] - 1e-6 && b[2] <= win[2] + 1e-6 && b[1] >= win[1] - 1e-6 && b[3] <= win[3] + 1e-6
}

/// The most of `pieces` any `w` × `h` window holds whole: some best window has a piece on its
/// left or right edge and one on its top or bottom, so trying those finds it.
fn most_held(pieces: &[[f64; 4]], w: f64, h: f64) -> usize {
    let xs = pieces.iter().flat_map(|b| [b[0], b[2] - w]);
    let ys: Vec<f64> = pieces.iter().flat_map(|b| [b[1], b[3] - h]).collect();
    xs.flat_map(|x| ys.iter().map(move |&y| [x, y, x + w, y + h]))
        .map(|win| pieces.iter().filter(|b| holds(&win, b)).count())
        .max()
        .unwrap_or(0)
}

/// Issue 30 point 1: the inline crop of the Naval fleet. A Naval fleet spreads wider than a
/// crop that reads at 9 px; the crop holds every one of the seat's own ships, hull and name,
/// when they fit in it, else as many as any window of its size could (the old crop, centred on
/// the middle of the fleet, cut off the westmost Japanese ships). The last round's maps, the
/// crop outlined, land in target/phone-map/fleets/.
#[test]
fn the_naval_crop_holds_the_most_of_the_seats_own_ships() {
    use despatch::engine::scene::Condition;
    for (i, (ruleset, scenario, seats)) in LARGEST
        .iter()
        .chain(OTHERS)
        .filter(|l| l.0 == "naval-rjw")
        .enumerate()
    {
        let game: &'static str = Box::leak(format!("fleet{i}").into_boxed_str());
        let mut w = start(game, ruleset, scenario, seats);
        for round in 0..3 {
            if round > 0 {
                play_round(&mut w);
            }
            let g = w.daemon.open_game(game).unwrap().game;
            for seat in seats.iter() {
                let scene = g.view(&Viewer::Seat(seat.to_string())).map.unwrap();
                let (svg, layout) = render::svg_and_layout(&scene);
                let (cut, cropped) = render::inline_svg(&scene, &svg);
                assert!(cropped, "{scenario} {seat}: a seat with ships gets a crop");
                let v: Vec<f64> = render::view_box(&cut)
                    .unwrap()
                    .split(' ')
                    .map(|n| n.parse().unwrap())
                    .collect();
                let win = [v[0], v[1], v[0] + v[2], v[1] + v[3]];
                // A ship held is its hull and its name (whose boxes the layout gives one a
                // unit, in the scene's order).
                assert_eq!(layout.labels.len(), scene.units.len());
                let own: Vec<[f64; 4]> = scene
                    .units
                    .iter()
                    .zip(layout.pieces.iter().zip(&layout.labels))
                    .filter(|(u, _)| {
                        Some(&u.side) == scene.own_side.as_ref() && u.condition != Condition::Wreck
                    })
                    .map(|(_, (p, (_, l)))| {
                        [
                            p[0].min(l[0]),
                            p[1].min(l[1]),
                            p[2].max(l[2]),
                            p[3].max(l[3]),
                        ]
                    })
                    .collect();
                let held = own.iter().filter(|b| holds(&win, b)).count();
                if round == 2 {
                    // To be looked at: the whole map with the crop outlined.
                    let outlined = svg.replace(
                        "</svg>",
                        &format!(
                            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" \
                             stroke=\"#e67e22\" stroke-width=\"3\"/>\n</svg>",
                            v[0], v[1], v[2], v[3]
                        ),
                    );
                    let dir = crate::demo_mails::repo().join("target/phone-map/fleets");
                    std::fs::create_dir_all(&dir).unwrap();
                    let png = render::png_from_svg(&outlined, 1600).unwrap();
                    std::fs::write(dir.join(format!("{scenario}-{seat}.png")), png).unwrap();
                }
                let best = most_held(&own, v[2], v[3]);
                eprintln!(
                    "{scenario} round {round} {seat}: the crop {}x{} holds {held} of {} own \
                     ships with their names (any window that size: at most {best})",
                    v[2].round(),
                    v[3].round(),
                    own.len()
                );
                assert_eq!(
                    held,
                    best,
                    "{scenario} round {round} {seat}: the crop {win:?} holds {held} of the \
                     {} own ships; a window of its size holds {best}",
                    own.len()
                );
            }
        }
    }
}
