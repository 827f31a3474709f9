//! Maps drawn from a seat's View: SVG snapshots of both shipped naval scenarios for both seats,
//! PNGs that decode, have the mail width and are not blank, and the leak hunt: every hidden fact
//! of the full state is looked for in every output of every seat that may not know it.
//!
//! Set DESPATCH_RENDER_OUT=<dir> to also write the SVGs and PNGs there for a person to look at.

use std::collections::BTreeMap;

use despatch::dice::Dice;
use despatch::engine::scene::{
    Arrow, ArrowKind, At, Condition, FieldKnown, LegendEntry, Marker, Measure, Scene, Shape,
    SideInfo, Style, Surface, Symbol, TerrainArea, Unit, UnitKind, Zone, ZoneKind,
};
use despatch::engine::{Ruleset, Submitted, View, Viewer};
use despatch::render::{self, Format, MAIL_WIDTH_PX};
use despatch::rulesets::naval_rjw::NavalRjw;
use despatch::rulesets::naval_rjw::orders::print_order;
use despatch::rulesets::naval_rjw::state::{FireOrder, NavalState, Order, Phase};
use resvg::tiny_skia::Pixmap;

const SEATS: [&str; 2] = ["japan", "russia"];
const SCENARIOS: [&str; 2] = ["training", "yellow-sea-1904"];

fn games(path: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/games/naval-rjw/{path}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

fn opening(scenario: &str) -> NavalState {
    let seats: Vec<String> = SEATS.iter().map(|s| s.to_string()).collect();
    NavalRjw::setup(
        &games("ruleset.toml"),
        &games(&format!("scenarios/{scenario}.toml")),
        &seats,
    )
    .unwrap()
}

/// Plays `steps` steps with the scripted players' orders and fixed dice.
fn play(mut st: NavalState, steps: u64, seed: u8) -> NavalState {
    for k in 0..steps {
        if st.phase == Phase::GameOver {
            break;
        }
        let spec = NavalRjw::step(&st);
        let mut subs = BTreeMap::new();
        for p in &spec.prompts {
            let text = NavalRjw::sample_orders(&st, &p.seat, k * 31 + u64::from(seed));
            let orders = NavalRjw::parse(&st, &p.seat, &text).unwrap();
            subs.insert(p.seat.clone(), Submitted::Orders(orders));
        }
        st = NavalRjw::resolve(&st, &subs, &mut Dice::new([seed.wrapping_add(k as u8); 32]));
    }
    st
}

fn view(st: &NavalState, seat: &str) -> View {
    NavalRjw::view(st, &Viewer::Seat(seat.into()))
}

fn svg(st: &NavalState, seat: &str) -> String {
    render::svg(view(st, seat).map.as_ref().unwrap())
}

fn png(st: &NavalState, seat: &str) -> Vec<u8> {
    render::show(&view(st, seat), Format::Png(MAIL_WIDTH_PX)).unwrap()
}

fn keep(name: &str, bytes: &[u8]) {
    if let Ok(dir) = std::env::var("DESPATCH_RENDER_OUT") {
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(format!("{dir}/{name}"), bytes).unwrap();
    }
}

#[test]
fn svg_snapshots_of_both_scenarios_for_both_seats() {
    for scenario in SCENARIOS {
        // Openings only: a played state would change with every rules fix. Markers are
        // covered by `every_marker_snapshot`, on a scene built by hand.
        for state in [("opening", opening(scenario))] {
            for seat in SEATS {
                let s = svg(&state.1, seat);
                keep(&format!("{scenario}-{}-{seat}.svg", state.0), s.as_bytes());
                if std::env::var("DESPATCH_RENDER_OUT").is_ok() {
                    let png = render::png_from_svg(&s, MAIL_WIDTH_PX).unwrap();
                    keep(&format!("{scenario}-{}-{seat}.png", state.0), &png);
                    // DESPATCH_RENDER_ZOOM="x y w h": also a close-up of that part of the picture.
                    if let Ok(z) = std::env::var("DESPATCH_RENDER_ZOOM") {
                        let head_end = s.find('>').unwrap();
                        let w: f64 = z.split(' ').nth(2).unwrap().parse().unwrap();
                        let zoomed = format!(
                            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="{z}" font-family="DejaVu Sans"{}"#,
                            &s[head_end..],
                            h = z.split(' ').nth(3).unwrap(),
                        );
                        let png = render::png_from_svg(&zoomed, 1200).unwrap();
                        keep(&format!("{scenario}-{}-{seat}-zoom.png", state.0), &png);
                    }
                }
                insta::assert_snapshot!(format!("{scenario}-{}-{seat}", state.0), s);
            }
        }
    }
}

/// A hand-built scene with every kind of thing a naval map shows.
fn every_marker_scene() -> Scene {
    let ship = |label: &str, side: &str, class: &str, x: f64, y: f64, facing: f64| Unit {
        label: label.into(),
        side: side.into(),
        kind: UnitKind::Ship {
            class: class.into(),
            length: 1.6,
        },
        at: At::new(x, y),
        facing: Some(facing),
        condition: Condition::Active,
        markers: vec![],
        track: vec![],
    };
    let mut units = vec![
        Unit {
            markers: vec![Marker::Flagship, Marker::Hits(2)],
            track: vec![At::new(4.0, 4.0), At::new(6.0, 6.0)],
            ..ship("Mikasa", "japan", "BB", 8.0, 8.0, 45.0)
        },
        Unit {
            markers: vec![
                Marker::SecondInCommand,
                Marker::Hits(5),
                Marker::DeadInWater,
                Marker::Critical("Gunnery".into()),
                Marker::Critical("Movement".into()),
            ],
            ..ship("Asahi", "japan", "BB", 6.2, 6.2, 45.0)
        },
        Unit {
            markers: vec![Marker::LayingSmoke, Marker::Note("halted".into())],
            ..ship("Akatsuki", "japan", "DD", 12.0, 5.0, 90.0)
        },
        Unit {
            condition: Condition::Wreck,
            ..ship("Retvizan", "russia", "BB", 20.0, 16.0, 270.0)
        },
        Unit {
            condition: Condition::Struck,
            ..ship("Novik", "russia", "CL", 24.0, 12.0, 180.0)
        },
        ship("Tsesarevich <&>", "russia", "BB", 26.0, 16.0, 270.0),
    ];
    units[2].kind = UnitKind::Ship {
        class: "DD".into(),
        length: 1.0,
    };
    let field = |known, x: f64, label: &str| Zone {
        kind: ZoneKind::Minefield { known },
        shape: Shape::Rect {
            centre: At::new(x, 12.0),
            heading: 135.0,
            length: 4.0,
            width: 1.0,
        },
        label: Some(label.into()),
        side: Some("russia".into()),
    };
    let entry = |symbol, text: &str| LegendEntry {
        symbol,
        text: text.into(),
    };
    Scene {
        title: "Every marker".into(),
        turn: "Turn 3 (Japan active): gunnery".into(),
        time: "10 August 1904, 12:30".into(),
        viewer: "As seen by Japan".into(),
        surface: Surface::Table {
            width: 36.0,
            height: 24.0,
            unit: Measure::Inch,
        },
        ground: Some("sea".into()),
        styles: [
            ("sea".to_string(), Style::area("#cfe3f1").unwrap()),
            (
                "land".to_string(),
                Style {
                    edge: Some("#2c3e50".try_into().unwrap()),
                    ..Style::area("#e8dcc0").unwrap()
                },
            ),
        ]
        .into(),
        terrain: vec![TerrainArea {
            style: "land".into(),
            shape: Shape::Polygon {
                points: vec![At::new(30.0, 0.0), At::new(36.0, 0.0), At::new(36.0, 6.0)],
            },
            label: None,
        }],
        sides: vec![
            SideInfo {
                id: "japan".into(),
                name: "Japan (you)".into(),
            },
            SideInfo {
                id: "russia".into(),
                name: "Russia".into(),
            },
        ],
        units,
        zones: vec![
            field(FieldKnown::Genuine, 14.0, "M1"),
            field(FieldKnown::Dummy, 18.0, "M2"),
            field(FieldKnown::Unknown, 22.0, "M3"),
            Zone {
                kind: ZoneKind::Smoke,
                shape: Shape::Circle {
                    centre: At::new(12.0, 5.0),
                    radius: 1.0,
                },
                label: None,
                side: Some("japan".into()),
            },
        ],
        arrows: vec![Arrow {
            kind: ArrowKind::Fire,
            side: "japan".into(),
            from: At::new(8.0, 8.0),
            to: At::new(26.0, 16.0),
        }],
        legend: vec![
            entry(Symbol::Side("japan".into()), "Japan (you)"),
            entry(Symbol::Side("russia".into()), "Russia"),
            entry(Symbol::Flagship, "flagship"),
            entry(Symbol::Hits, "hit markers"),
            entry(Symbol::Critical, "criticals"),
            entry(Symbol::DeadInWater, "dead in the water"),
            entry(Symbol::Wreck, "sunk"),
            entry(Symbol::Struck, "struck"),
            entry(Symbol::Track, "course this turn"),
            entry(Symbol::Smoke, "smoke"),
            entry(Symbol::Minefield(FieldKnown::Genuine), "genuine"),
            entry(Symbol::Minefield(FieldKnown::Dummy), "dummy"),
            entry(Symbol::Minefield(FieldKnown::Unknown), "unknown"),
            entry(Symbol::Fire, "fire plan"),
            entry(Symbol::Style("land".into()), "land"),
        ],
        compass: true,
        own_side: None,
    }
}

#[test]
fn every_marker_snapshot() {
    let s = render::svg(&every_marker_scene());
    keep("every-marker.svg", s.as_bytes());
    keep(
        "every-marker.png",
        &render::png(&every_marker_scene(), MAIL_WIDTH_PX).unwrap(),
    );
    assert!(s.contains("Tsesarevich &lt;&amp;&gt;"));
    assert!(s.contains("M3 ?"));
    insta::assert_snapshot!("every-marker", s);
}

/// The SVG's own height at the design width.
fn svg_height(s: &str) -> f64 {
    let h = s.split("height=\"").nth(1).unwrap();
    h[..h.find('"').unwrap()].parse().unwrap()
}

#[test]
fn png_decodes_has_mail_width_and_is_not_blank() {
    for scenario in SCENARIOS {
        let st = play(opening(scenario), 7, 3);
        for seat in SEATS {
            let bytes = png(&st, seat);
            keep(&format!("{scenario}-{seat}.png"), &bytes);
            let pm = Pixmap::decode_png(&bytes).unwrap();
            assert_eq!(pm.width(), MAIL_WIDTH_PX);
            let want_h = (svg_height(&svg(&st, seat)) * f64::from(MAIL_WIDTH_PX)
                / render::DESIGN_WIDTH)
                .round() as u32;
            assert_eq!(pm.height(), want_h);
            assert!((400..1200).contains(&pm.height()), "{}", pm.height());
            // Not blank: sea, both sides' hull colours and dark ink are all there.
            let px: Vec<[u8; 3]> = pm
                .pixels()
                .iter()
                .map(|p| {
                    let c = p.demultiply();
                    [c.red(), c.green(), c.blue()]
                })
                .collect();
            let count = |f: &dyn Fn(&[u8; 3]) -> bool| px.iter().filter(|p| f(p)).count();
            let sea = count(&|p| p[2] > 220 && p[0] > 190 && p[0] < 215);
            let red = count(&|p| p[0] > 150 && p[1] < 70 && p[2] < 70);
            let blue = count(&|p| p[2] > 120 && p[0] < 60 && p[1] < 90);
            let ink = count(&|p| p[0] < 60 && p[1] < 60 && p[2] < 60);
            assert!(sea > px.len() / 3, "sea {sea} of {}", px.len());
            assert!(red > 100 && blue > 100 && ink > 1000, "{red} {blue} {ink}");
        }
    }
}

#[test]
fn pictures_are_the_same_every_time() {
    let st = play(opening("training"), 5, 9);
    assert!(png(&st, "japan") == png(&st, "japan"));
    assert_eq!(svg(&st, "russia"), svg(&st, "russia"));
}

#[test]
fn show_text_matches_the_view_and_svg_needs_a_map() {
    let st = opening("training");
    let v = view(&st, "japan");
    let text = String::from_utf8(render::show(&v, Format::Text).unwrap()).unwrap();
    assert!(text.starts_with("Gunnery School, a practice shoot"));
    assert!(text.contains("YOUR FLEET\n  Mikasa (BB) at 9,7 heading 45"));
    let mut bare = v.clone();
    bare.map = None;
    assert!(matches!(
        render::show(&bare, Format::Svg),
        Err(render::RenderError::NoMap)
    ));
    assert!(render::png(v.map.as_ref().unwrap(), 50).is_err());
}

/// A state with something hidden from each seat: Russia's pre-game fields (one genuine, one
/// dummy, as the training scenario places them) and Japan's sealed fire plan.
fn secret_state() -> NavalState {
    let mut st = play(opening("training"), 1, 5);
    assert_eq!(st.phase, Phase::Manoeuvre);
    st.active = "japan".into();
    st.pending_fire = Some(vec![FireOrder {
        ship: "Mikasa".into(),
        secondary: false,
        targets: vec!["Tsesarevich".into(), "Retvizan".into()],
        support: vec!["Asahi".into()],
    }]);
    st
}

/// Every fact of the full state that `seat` may not know, as text an output could carry.
fn hidden_facts(st: &NavalState, seat: &str) -> Vec<String> {
    let mut facts = Vec::new();
    let own_fields = st.minefields.iter().any(|m| m.owner == seat);
    for m in &st.minefields {
        if m.owner == seat || m.laid_in_play || m.revealed {
            continue;
        }
        let nature = if m.genuine { "genuine" } else { "dummy" };
        facts.push(format!("{} {nature}", m.id));
        facts.push(format!("{}: {nature}", m.id));
        facts.push(format!("{} is {nature}", m.id));
        if !own_fields {
            // A seat with no fields of its own never has a reason to read either word.
            facts.push("genuine".into());
            facts.push("dummy".into());
        }
    }
    if let Some(plan) = &st.pending_fire
        && st.active != seat
    {
        for f in plan {
            facts.push(print_order(&Order::Fire(f.clone())));
            facts.push(format!("{} AT", f.ship));
        }
        facts.push("fire plan".into());
        facts.push("marker-end".into());
    }
    facts
}

#[test]
fn no_seat_sees_what_it_may_not_know() {
    let st = secret_state();
    assert!(st.minefields.iter().any(|m| m.genuine) && st.minefields.iter().any(|m| !m.genuine));
    for (seat, viewer) in [
        ("japan", Viewer::Seat("japan".into())),
        ("russia", Viewer::Seat("russia".into())),
        ("spectator", Viewer::Spectator),
    ] {
        let v = NavalRjw::view(&st, &viewer);
        let svg = render::svg(v.map.as_ref().unwrap());
        let text = String::from_utf8(render::show(&v, Format::Text).unwrap()).unwrap();
        let json = serde_json::to_string(&v).unwrap();
        let facts = hidden_facts(&st, seat);
        assert!(!facts.is_empty(), "{seat} has something hidden from it");
        for fact in &facts {
            for (what, out) in [("SVG", &svg), ("text", &text), ("View JSON", &json)] {
                assert!(
                    !out.contains(fact.as_str()),
                    "{seat}'s {what} leaks `{fact}`"
                );
            }
        }
    }
    // The owners do see their own secrets (so the facts above are real ones).
    assert!(svg(&st, "russia").contains("genuine minefield"));
    assert!(svg(&st, "russia").contains("dummy minefield"));
    assert!(svg(&st, "japan").contains("marker-end"));
    assert!(render::text(&view(&st, "japan")).contains("FIRE Mikasa AT Tsesarevich"));
}

#[test]
fn opponents_pictures_do_not_change_with_hidden_facts() {
    let st = secret_state();
    // The same state with every Russian field's nature swapped, and without Japan's plan.
    let mut swapped = st.clone();
    for m in swapped
        .minefields
        .iter_mut()
        .filter(|m| m.owner == "russia")
    {
        m.genuine = !m.genuine;
    }
    let mut no_plan = st.clone();
    no_plan.pending_fire = None;
    for (other, hidden_from) in [(&swapped, "japan"), (&no_plan, "russia")] {
        assert!(
            png(&st, hidden_from) == png(other, hidden_from),
            "{hidden_from}'s PNG"
        );
        assert_eq!(
            svg(&st, hidden_from),
            svg(other, hidden_from),
            "{hidden_from}"
        );
        assert_eq!(
            view(&st, hidden_from),
            view(other, hidden_from),
            "{hidden_from}"
        );
    }
    let spectator = |s: &NavalState| {
        render::show(
            &NavalRjw::view(s, &Viewer::Spectator),
            Format::Png(MAIL_WIDTH_PX),
        )
        .unwrap()
    };
    assert!(spectator(&st) == spectator(&swapped));
    assert!(spectator(&st) == spectator(&no_plan));
    // …while the owners' pictures do change: the comparison can fail.
    assert!(png(&st, "russia") != png(&swapped, "russia"));
    assert!(png(&st, "japan") != png(&no_plan, "japan"));
}

/// Every legend entry stands for something the picture shows, for every seat.
#[test]
fn the_legend_lists_only_what_the_map_shows() {
    for scenario in SCENARIOS {
        for st in [
            opening(scenario),
            play(opening(scenario), 7, 3),
            secret_state(),
        ] {
            for viewer in [
                Viewer::Seat("japan".into()),
                Viewer::Seat("russia".into()),
                Viewer::Spectator,
            ] {
                let sc = NavalRjw::view(&st, &viewer).map.unwrap();
                for e in &sc.legend {
                    assert!(sc.uses(&e.symbol), "{scenario} {viewer:?}: {e:?}");
                }
                assert_eq!(sc.ground.as_deref(), Some("sea"));
                assert!(sc.styles.contains_key("sea"));
            }
        }
    }
}
