//! The open map vocabulary, drawn from hand-built scenes that no ruleset makes yet: counters
//! with every unit symbol, value lines, facings and status badges; bases of figures in every
//! formation with hit tracks; every zone style; lines with widths; terrain styles from data
//! and names that fit inside their areas and names that do not. Snapshots plus checks that
//! each element is really drawn, and a hex sheet of counters.
//!
//! Set DESPATCH_RENDER_OUT=<dir> to also write the SVGs and PNGs there for a person to look at.

use despatch::board::hex::{Address, HexGrid, MapBounds, Orientation, Shifted};
use despatch::engine::scene::{
    At, Condition, FieldKnown, Formation, HitTrack, LegendEntry, MapStyles, Marker, Measure, Scene,
    Shape, SideInfo, Surface, Symbol, TerrainArea, Tone, Unit, UnitKind, UnitSymbol, Zone,
    ZoneKind,
};
use despatch::render::{self, MAIL_WIDTH_PX};
use resvg::tiny_skia::Pixmap;

fn keep(name: &str, bytes: &[u8]) {
    if let Ok(dir) = std::env::var("DESPATCH_RENDER_OUT") {
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(format!("{dir}/{name}"), bytes).unwrap();
    }
}

/// DESPATCH_RENDER_ZOOM="x y w h" (with DESPATCH_RENDER_OUT): also a close-up of that part.
fn zoom(name: &str, s: &str) {
    if let (Ok(_), Ok(z)) = (
        std::env::var("DESPATCH_RENDER_OUT"),
        std::env::var("DESPATCH_RENDER_ZOOM"),
    ) {
        let head_end = s.find('>').unwrap();
        let mut it = z.split(' ').skip(2);
        let (w, h) = (it.next().unwrap(), it.next().unwrap());
        let zoomed = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="{z}" font-family="DejaVu Sans"{}"#,
            &s[head_end..]
        );
        keep(
            &format!("{name}-zoom.png"),
            &render::png_from_svg(&zoomed, 1200).unwrap(),
        );
    }
}

/// Styles as a ruleset's data declares them (names of this test's own).
const MAP: &str = r##"
[map]
ground = "meadow"
[map.terrain.meadow]
fill = "#eef0d8"
[map.terrain.forest]
fill = "#a9cf9f"
edge = "#4f7f47"
pattern = "trees"
ink = "#3f6d38"
legend = "forest"
[map.terrain.thorn]
fill = "#7fb176"
edge = "#2f5e2c"
pattern = "thicket"
[map.terrain.heath]
fill = "#e0dcb0"
pattern = "tufts"
ink = "#7d7440"
[map.terrain.height]
fill = "#e2cfa4"
edge = "#8a6d3b"
pattern = "contours"
[map.terrain.village]
fill = "#c9b8a8"
edge = "#5b4636"
pattern = "crosshatch"
[map.terrain.pond]
fill = "#a9d6e5"
edge = "#5d9cc4"
pattern = "waves"
[map.terrain.lane]
fill = "#efe3c2"
edge = "#8a7650"
form = "line"
legend = "road"
[map.terrain.brook]
fill = "#7fb6d9"
edge = "#3b78a8"
form = "line"
width = 0.6
legend = "stream"
[map.terrain.wall]
fill = "#9a9a9a"
ink = "#444444"
pattern = "hatch"
form = "line"
width = 0.3
[map.terrain.hedge]
fill = "#6a9a5a"
ink = "#2f5e2c"
pattern = "dots"
form = "line"
width = 0.4
[map.zones.barrage]
fill = "#f5b041"
edge = "#b9770e"
pattern = "hatch"
opacity = 0.6
legend = "barrage"
"##;

fn side(id: &str, name: &str) -> SideInfo {
    SideInfo {
        id: id.into(),
        name: name.into(),
    }
}

fn unit(label: &str, side: &str, kind: UnitKind, x: f64, y: f64, facing: Option<f64>) -> Unit {
    Unit {
        label: label.into(),
        side: side.into(),
        kind,
        at: At::new(x, y),
        facing,
        condition: Condition::Active,
        markers: vec![],
        track: vec![],
    }
}

fn poly(pts: &[(f64, f64)]) -> Shape {
    Shape::Polygon {
        points: pts.iter().map(|(x, y)| At::new(*x, *y)).collect(),
    }
}

fn line(pts: &[(f64, f64)], width: f64) -> Shape {
    Shape::Line {
        points: pts.iter().map(|(x, y)| At::new(*x, *y)).collect(),
        width,
    }
}

/// A 72 x 48 inch table with every terrain style, line, zone, counter symbol and formation.
fn table_scene() -> Scene {
    let styles = MapStyles::from_ruleset_toml(MAP).unwrap().unwrap();
    let area = |style: &str, shape: Shape, label: Option<&str>| TerrainArea {
        style: style.into(),
        shape,
        label: label.map(str::to_string),
    };
    let terrain = vec![
        area(
            "forest",
            poly(&[(4.0, 30.0), (20.0, 30.0), (22.0, 44.0), (5.0, 45.0)]),
            Some("Birch Wood"),
        ),
        area(
            "thorn",
            poly(&[(60.0, 40.0), (63.0, 40.0), (63.0, 42.0), (60.0, 42.0)]),
            // Far too long for its little thicket: listed below the map instead.
            Some("The Thorny Tangle of Old Maximilian"),
        ),
        area(
            "heath",
            poly(&[(26.0, 34.0), (40.0, 33.0), (41.0, 44.0), (27.0, 45.0)]),
            Some("Gorse Heath"),
        ),
        area(
            "height",
            Shape::Circle {
                centre: At::new(50.0, 12.0),
                radius: 7.0,
            },
            Some("Signal Hill"),
        ),
        area(
            "village",
            Shape::Rect {
                centre: At::new(34.0, 10.0),
                heading: 20.0,
                length: 10.0,
                width: 6.0,
            },
            Some("Ashby"),
        ),
        area(
            "pond",
            Shape::Circle {
                centre: At::new(64.0, 30.0),
                radius: 3.0,
            },
            None,
        ),
        area(
            "lane",
            line(
                &[(0.0, 24.0), (30.0, 22.0), (44.0, 26.0), (72.0, 26.0)],
                1.0,
            ),
            Some("Kings Road"),
        ),
        area(
            "brook",
            line(
                &[(24.0, 48.0), (24.0, 30.0), (20.0, 16.0), (22.0, 0.0)],
                0.0,
            ),
            Some("Mill Brook"),
        ),
        area("wall", line(&[(44.0, 36.0), (56.0, 36.0)], 0.0), None),
        area("hedge", line(&[(44.0, 32.0), (56.0, 30.0)], 0.0), None),
    ];
    let mut units: Vec<Unit> = UnitSymbol::DRAWN
        .iter()
        .chain(std::iter::once(&UnitSymbol::Text("2-4".into())))
        .enumerate()
        .map(|(i, s)| {
            let (x, y) = (4.0 + (i % 7) as f64 * 9.0, if i < 7 { 6.0 } else { 16.0 });
            let mut u = unit(
                &format!("{} {}", ["1st", "2nd", "3rd"][i % 3], s.word()),
                if i % 2 == 0 { "west" } else { "east" },
                UnitKind::Counter {
                    symbol: s.clone(),
                    value: (i % 3 == 0).then(|| "4-6-4".to_string()),
                    size: Some(1.6),
                },
                x,
                y,
                (i % 4 != 3).then_some(i as f64 * 45.0),
            );
            u.markers = match i % 6 {
                0 => vec![Marker::status("disrupted", Tone::Danger)],
                1 => vec![Marker::status("pinned", Tone::Warning)],
                2 => vec![
                    Marker::status("DRM +2", Tone::Info),
                    Marker::status("fired", Tone::Spent),
                ],
                3 => vec![Marker::status("concealed", Tone::Hidden)],
                4 => vec![Marker::status("moved", Tone::Spent)],
                _ => vec![Marker::status("overwatch", Tone::Order)],
            };
            u
        })
        .collect();
    for (i, fm) in Formation::ALL.iter().enumerate() {
        let (x, y) = (8.0 + (i % 4) as f64 * 11.0, if i < 4 { 38.0 } else { 28.0 });
        let mut u = unit(
            &format!("{} bn", fm.word()),
            if i % 2 == 0 { "west" } else { "east" },
            UnitKind::Base {
                width: 4.0,
                depth: 2.0,
                formation: *fm,
                figures: 12,
                hits: Some(HitTrack {
                    taken: i as u32 % 4,
                    of: 5,
                }),
            },
            x,
            y,
            Some([0.0, 90.0, 180.0, 300.0][i % 4]),
        );
        if i == 5 {
            u.condition = Condition::Wreck;
        }
        units.push(u);
    }
    let zone = |kind: ZoneKind, shape: Shape, label: Option<&str>, side: Option<&str>| Zone {
        kind,
        shape,
        label: label.map(str::to_string),
        side: side.map(str::to_string),
    };
    let circle = |x: f64, y: f64, r: f64| Shape::Circle {
        centre: At::new(x, y),
        radius: r,
    };
    let zones = vec![
        zone(
            ZoneKind::Control,
            circle(10.0, 6.0, 4.0),
            None,
            Some("west"),
        ),
        zone(
            ZoneKind::Control,
            circle(58.0, 6.0, 4.0),
            None,
            Some("east"),
        ),
        zone(ZoneKind::Blast, circle(66.0, 18.0, 2.5), Some("B1"), None),
        zone(
            ZoneKind::Objective,
            circle(46.0, 24.0, 4.0),
            Some("the bridge"),
            None,
        ),
        zone(ZoneKind::Smoke, circle(30.0, 28.0, 2.0), None, None),
        zone(
            ZoneKind::Styled {
                style: "barrage".into(),
            },
            Shape::Rect {
                centre: At::new(66.0, 8.0),
                heading: 0.0,
                length: 4.0,
                width: 4.0,
            },
            None,
            None,
        ),
        zone(
            ZoneKind::Minefield {
                known: FieldKnown::Genuine,
            },
            Shape::Rect {
                centre: At::new(14.0, 20.0),
                heading: 90.0,
                length: 4.0,
                width: 1.0,
            },
            Some("M1"),
            None,
        ),
        zone(
            ZoneKind::Minefield {
                known: FieldKnown::Dummy,
            },
            Shape::Rect {
                centre: At::new(14.0, 12.0),
                heading: 90.0,
                length: 4.0,
                width: 1.0,
            },
            Some("M2"),
            None,
        ),
        zone(
            ZoneKind::Minefield {
                known: FieldKnown::Unknown,
            },
            Shape::Rect {
                centre: At::new(6.0, 12.0),
                heading: 90.0,
                length: 4.0,
                width: 1.0,
            },
            Some("M3"),
            None,
        ),
    ];
    let mut scene = Scene {
        title: "Every piece of the vocabulary".into(),
        turn: "Turn 2".into(),
        time: "06:40".into(),
        viewer: "As seen by West".into(),
        surface: Surface::Table {
            width: 72.0,
            height: 48.0,
            unit: Measure::Inch,
        },
        ground: styles.ground.clone(),
        styles: styles.pick(
            styles
                .terrain
                .keys()
                .chain(styles.zones.keys())
                .map(String::as_str),
        ),
        terrain,
        sides: vec![side("west", "West (you)"), side("east", "East")],
        units,
        zones,
        arrows: vec![],
        legend: vec![],
        compass: true,
        own_side: None,
    };
    let entry = |symbol: Symbol, text: &str| LegendEntry {
        symbol,
        text: text.into(),
    };
    let mut legend = vec![
        entry(Symbol::Side("west".into()), "West (you)"),
        entry(Symbol::Side("east".into()), "East"),
    ];
    legend.extend(scene.style_legend());
    legend.extend(
        UnitSymbol::DRAWN
            .iter()
            .map(|s| entry(Symbol::Unit(s.clone()), s.word())),
    );
    legend.extend(
        Formation::ALL
            .iter()
            .map(|f| entry(Symbol::Formation(*f), f.word())),
    );
    legend.extend(
        Tone::ALL
            .iter()
            .map(|t| entry(Symbol::Status(*t), &format!("{t:?}").to_lowercase())),
    );
    for (s, t) in [
        (Symbol::Facing, "facing"),
        (Symbol::HitTrack, "hits taken"),
        (Symbol::Control, "zone of control"),
        (Symbol::Blast, "blast circle"),
        (Symbol::Objective, "objective"),
        (Symbol::Smoke, "smoke"),
        (Symbol::Minefield(FieldKnown::Genuine), "minefield"),
        (Symbol::Minefield(FieldKnown::Dummy), "dummy"),
        (Symbol::Minefield(FieldKnown::Unknown), "unknown field"),
        (Symbol::Wreck, "destroyed"),
    ] {
        legend.push(entry(s, t));
    }
    scene.legend = legend;
    scene
}

#[test]
fn every_element_of_the_vocabulary_is_drawn() {
    let scene = table_scene();
    for e in &scene.legend {
        assert!(
            scene.uses(&e.symbol),
            "the legend lists unused {:?}",
            e.symbol
        );
    }
    let s = render::svg(&scene);
    keep("vocabulary.svg", s.as_bytes());
    let png = render::png(&scene, MAIL_WIDTH_PX).unwrap();
    keep("vocabulary.png", &png);
    zoom("vocabulary", &s);
    // Every counter and base is named, and every status is written on its badge.
    for u in &scene.units {
        assert!(s.contains(&format!(">{}</text>", u.label)), "{}", u.label);
    }
    for word in [
        "disrupted",
        "pinned",
        "DRM +2",
        "fired",
        "concealed",
        "moved",
        "overwatch",
    ] {
        assert!(s.contains(&format!(">{word}</text>")), "{word}");
    }
    // Value lines, free text, the objective's name and the blast circle's label.
    assert!(s.contains(">4-6-4</text>") && s.contains(">2-4</text>"));
    assert!(s.contains(">the bridge</text>") && s.contains(">B1</text>"));
    // Names that fit are drawn in their areas and along their lines; the one that does not
    // is listed below the map with its kind.
    for name in [
        "Birch Wood",
        "Gorse Heath",
        "Signal Hill",
        "Ashby",
        "Kings Road",
        "Mill Brook",
    ] {
        assert!(s.contains(&format!(">{name}</text>")), "{name}");
    }
    assert!(s.contains("Not named on the map:"));
    assert!(s.contains(">The Thorny Tangle of Old Maximilian (thorn)</text>"));
    assert!(!s.contains(">The Thorny Tangle of Old Maximilian</text>"));
    // A line along a road is drawn rotated to it (the road bends off the horizontal).
    assert!(s.contains("rotate("));
    // Every pattern is defined once, and used.
    assert_eq!(
        s.matches("<pattern id=\"pat-").count(),
        6,
        "each pattern once"
    );
    for p in ["trees", "thicket", "tufts", "crosshatch", "waves", "hatch"] {
        let id = s
            .split(&format!("-{p}\" width="))
            .next()
            .and_then(|head| head.rsplit("<pattern id=\"").next())
            .map(|id| format!("{id}-{p}"))
            .unwrap();
        assert!(s.contains(&format!("url(#{id})")), "pattern {p} is used");
    }
    // Colours come from the data.
    for colour in ["#a9cf9f", "#7fb176", "#e2cfa4", "#7fb6d9", "#f5b041"] {
        assert!(s.contains(colour), "{colour}");
    }
    let pm = Pixmap::decode_png(&png).unwrap();
    assert_eq!(pm.width(), MAIL_WIDTH_PX);
    insta::assert_snapshot!("vocabulary-table", s);
}

#[test]
fn a_name_too_big_for_every_area_goes_below_the_map_and_nothing_else_does() {
    let mut scene = table_scene();
    let named = scene.terrain.iter().filter(|t| t.label.is_some()).count();
    let s = render::svg(&scene);
    let below = s.split("Not named on the map:").nth(1).unwrap();
    assert_eq!(below.matches("(thorn)").count(), 1);
    assert!(!below.contains("(forest)") && named > 5);
    // With no names that cannot fit, there is no such line at all.
    scene.terrain.retain(|t| t.style != "thorn");
    assert!(!render::svg(&scene).contains("Not named on the map"));
}

#[test]
fn names_of_places_keep_off_unit_labels() {
    let mut scene = table_scene();
    // A crowd of counters right in the middle of Birch Wood, where its name would go.
    for k in 0..6 {
        scene.units.push(unit(
            &format!("Picket {k}"),
            "east",
            UnitKind::Counter {
                symbol: UnitSymbol::Infantry,
                value: None,
                size: Some(1.6),
            },
            9.0 + (k % 3) as f64 * 4.0,
            36.0 + (k / 3) as f64 * 4.0,
            None,
        ));
    }
    let s = render::svg(&scene);
    // Boxes of unit labels and of place names (italic) never overlap.
    let boxes = |italic: bool| -> Vec<(f64, f64, f64, f64)> {
        s.lines()
            .filter(|l| l.starts_with("<text") && l.contains("font-style=\"italic\"") == italic)
            .filter(|l| l.contains("font-size=\"10\"") || l.contains("font-size=\"11\""))
            .filter(|l| !l.contains("rotate("))
            .filter_map(|l| {
                let num = |k: &str| -> Option<f64> {
                    let v = l.split(&format!(" {k}=\"")).nth(1)?;
                    v[..v.find('"')?].parse().ok()
                };
                let text = &l[l.find('>')? + 1..l.rfind("</text>")?];
                let w = text.chars().count() as f64 * 5.0;
                let (x, y) = (num("x")?, num("y")?);
                let x0 = if l.contains("text-anchor=\"middle\"") {
                    x - w / 2.0
                } else {
                    x
                };
                Some((x0, y - 8.0, x0 + w, y))
            })
            .collect()
    };
    let names = boxes(true);
    assert!(!names.is_empty());
    for n in &names {
        for u in boxes(false) {
            let overlap = n.0 < u.2 && u.0 < n.2 && n.1 < u.3 && u.1 < n.3;
            assert!(!overlap, "a place name {n:?} overlaps a unit label {u:?}");
        }
    }
}

#[test]
fn counters_on_a_hex_sheet_face_hex_sides() {
    let bounds = MapBounds {
        first_column: 1,
        last_column: 8,
        first_row: 1,
        last_row: 6,
    };
    let grid = HexGrid::new(Orientation::FlatTop, Shifted::Odd).with_bounds(bounds);
    let at = |column: u16, row: u16| {
        let c = grid.centre(grid.hex(Address { column, row }), 1.0);
        At::new(c.x, c.y)
    };
    let styles = MapStyles::from_ruleset_toml(MAP).unwrap().unwrap();
    let mut units = Vec::new();
    for (k, (sym, facing)) in [
        (UnitSymbol::Infantry, Some(30.0)),
        (UnitSymbol::Armour, Some(150.0)),
        (UnitSymbol::Artillery, None),
        (UnitSymbol::Headquarters, Some(270.0)),
    ]
    .into_iter()
    .enumerate()
    {
        let mut u = unit(
            &format!("{}/7", k + 1),
            "west",
            UnitKind::Counter {
                symbol: sym,
                value: Some("5-4".into()),
                size: None,
            },
            0.0,
            0.0,
            facing,
        );
        u.at = at(2 + 2 * k as u16, 3);
        u.markers = vec![Marker::status("Assaut", Tone::Info)];
        units.push(u);
    }
    let scene = Scene {
        title: "Hex counters".into(),
        turn: "Turn 1".into(),
        time: String::new(),
        viewer: "Spectator".into(),
        surface: Surface::Hex { grid, bounds },
        ground: Some("meadow".into()),
        styles: styles.pick(["meadow", "forest"]),
        terrain: vec![TerrainArea {
            style: "forest".into(),
            shape: Shape::Hex {
                address: Address { column: 4, row: 4 },
            },
            label: Some("Bois".into()),
        }],
        sides: vec![side("west", "West")],
        units,
        zones: vec![Zone {
            kind: ZoneKind::Control,
            shape: Shape::Hex {
                address: Address { column: 3, row: 3 },
            },
            label: None,
            side: Some("west".into()),
        }],
        arrows: vec![],
        legend: vec![],
        compass: false,
        own_side: None,
    };
    let s = render::svg(&scene);
    keep("vocabulary-hex.svg", s.as_bytes());
    zoom("vocabulary-hex", &s);
    keep(
        "vocabulary-hex.png",
        &render::png(&scene, MAIL_WIDTH_PX).unwrap(),
    );
    assert_eq!(s.matches(">5-4</text>").count(), 4);
    // Three facing wedges (triangles with a dark outline), none for the gun without a facing.
    assert_eq!(
        s.matches("stroke-width=\"0.9\" stroke-linejoin=\"round\"")
            .count(),
        3
    );
    assert!(s.contains(">Bois</text>"));
    insta::assert_snapshot!("vocabulary-hex", s);
}

/// An objective's name keeps clear of the counters: with a counter standing on a one-hex
/// objective of a sheet as big as the shipped ones, the name leaves the spot the counter covers
/// (inside the top of the hex) for one above the hex, and is drawn after the counter; with the
/// hex empty (the control) it stays inside the hex.
#[test]
fn an_objectives_name_keeps_off_the_counter_on_it() {
    let bounds = MapBounds {
        first_column: 1,
        last_column: 10,
        first_row: 1,
        last_row: 10,
    };
    let grid = HexGrid::new(Orientation::FlatTop, Shifted::Odd).with_bounds(bounds);
    let centre = grid.centre(grid.hex(Address { column: 5, row: 5 }), 1.0);
    let scene = |with_counter: bool| Scene {
        title: "Objective".into(),
        turn: "Turn 1".into(),
        time: String::new(),
        viewer: "Spectator".into(),
        surface: Surface::Hex { grid, bounds },
        ground: Some("meadow".into()),
        styles: MapStyles::from_ruleset_toml(MAP)
            .unwrap()
            .unwrap()
            .pick(["meadow"]),
        terrain: vec![],
        sides: vec![side("west", "West")],
        units: if with_counter {
            vec![unit(
                "1/7",
                "west",
                UnitKind::Counter {
                    symbol: UnitSymbol::Infantry,
                    value: Some("8-8-4".into()),
                    size: None,
                },
                centre.x,
                centre.y,
                None,
            )]
        } else {
            vec![]
        },
        zones: vec![Zone {
            kind: ZoneKind::Objective,
            shape: Shape::Hex {
                address: Address { column: 5, row: 5 },
            },
            label: Some("the crossroads (5 VP)".into()),
            side: None,
        }],
        arrows: vec![],
        legend: vec![],
        compass: false,
        own_side: None,
    };
    let name_y = |s: &str| -> f64 {
        let at = s
            .find(">the crossroads (5 VP)</text>")
            .expect("the name is drawn");
        let tag = &s[s[..at].rfind("<text").unwrap()..at];
        let y = tag
            .split(" y=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap();
        y.parse().unwrap()
    };
    let empty = render::svg(&scene(false));
    let held = render::svg(&scene(true));
    keep(
        "objective-held.png",
        &render::png(&scene(true), MAIL_WIDTH_PX).unwrap(),
    );
    let (free_y, held_y) = (name_y(&empty), name_y(&held));
    assert!(
        held_y < free_y - 10.0,
        "the name moved up off the counter: {held_y} vs {free_y}"
    );
    assert!(
        held.find(">8-8-4</text>").unwrap() < held.find(">the crossroads (5 VP)</text>").unwrap(),
        "drawn after the counter"
    );
}
