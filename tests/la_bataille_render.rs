//! The La Bataille map as each seat may see it: counters with facing, formation and state
//! badges and the Assaut, Number and Firefight markers, drawn on the printed hex sheet.
//! `LB_PNG_DIR=/some/dir` keeps the PNGs for a look.

use std::collections::BTreeMap;

use despatch::engine::scene::{Marker, Surface, UnitKind};
use despatch::engine::{Ruleset, Submitted, Viewer};
use despatch::rulesets::la_bataille::LaBataille;
use despatch::rulesets::la_bataille::orders;
use despatch::rulesets::la_bataille::procedure;
use despatch::rulesets::la_bataille::roll::Scripted;

const RULESET: &str = include_str!("../games/la-bataille/ruleset.toml");

fn badges(u: &despatch::engine::scene::Unit) -> Vec<String> {
    u.markers
        .iter()
        .filter_map(|m| match m {
            Marker::Status { text, .. } => Some(text.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn the_map_shows_facing_formation_state_and_the_assault_markers_to_each_seat() {
    for scenario in ["teaching", "waterloo-1815"] {
        let text = std::fs::read_to_string(format!(
            "{}/games/la-bataille/scenarios/{scenario}.toml",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap();
        let mut st =
            LaBataille::setup(RULESET, &text, &["france".into(), "allies".into()]).unwrap();
        if scenario == "teaching" {
            // The assault ends in a firefight: 1s for both batteries' fire in the Fire
            // Segment, both morale checks, the shift roll and the assault fire (no
            // casualties), then a blank on the mêlée roll 2+2.
            let o = orders::parse(&st, "france", "ASSAULT 1/45e AT 0504 VIA 0506 0505\n").unwrap();
            let q = orders::parse(&st, "allies", "OPPORTUNITY FIRE OFF\nHUZZAH NEVER\n").unwrap();
            let subs = BTreeMap::from([
                ("france".to_string(), Submitted::Orders(o)),
                ("allies".to_string(), Submitted::Orders(q)),
            ]);
            let mut dice = vec![1; 9];
            dice.extend([2, 2]);
            dice.extend([1; 60]);
            procedure::resolve_with(&mut st, &subs, &mut Scripted::new(&dice));
        }
        for seat in ["france", "allies"] {
            let v = LaBataille::view(&st, &Viewer::Seat(seat.into()));
            let scene = v.map.clone().expect("a map");
            assert!(matches!(scene.surface, Surface::Hex { .. }));
            assert!(scene.units.iter().all(|u| u.facing.is_some()));
            assert!(
                scene
                    .units
                    .iter()
                    .all(|u| matches!(u.kind, UnitKind::Counter { .. }))
            );
            let forms: Vec<String> = scene.units.iter().flat_map(badges).collect();
            assert!(
                forms.iter().any(|b| b == "line" || b == "column"),
                "{forms:?}"
            );
            if scenario == "teaching" {
                for name in ["1/45e", "28th-Foot"] {
                    let a = scene.units.iter().find(|u| u.label == name).unwrap();
                    assert!(
                        badges(a).contains(&"Firefight".to_string()),
                        "{name}: {:?}",
                        badges(a)
                    );
                }
                assert!(
                    scene
                        .zones
                        .iter()
                        .any(|z| z.label.as_deref() == Some("A1 Firefight")),
                    "the Assaut marker stays on the target hex"
                );
            }
            let png = despatch::render::png(&scene, 900).unwrap();
            assert!(png.len() > 1000);
            if let Ok(dir) = std::env::var("LB_PNG_DIR") {
                std::fs::write(format!("{dir}/{scenario}-{seat}.png"), &png).unwrap();
            }
        }
    }
}

/// The text map marks the offset columns, and the marks say the truth about adjacency: a hex
/// of a `dn` column touches the row below in the next column, a hex of another the row above.
#[test]
fn the_text_map_marks_the_low_columns_so_adjacency_can_be_read() {
    let text = std::fs::read_to_string(format!(
        "{}/games/la-bataille/scenarios/teaching.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let st = LaBataille::setup(RULESET, &text, &["france".into(), "allies".into()]).unwrap();
    let v = LaBataille::view(&st, &Viewer::Seat("france".into()));
    let b = st.grid.bounds.expect("bounds");
    let marks = v.board.get(1).cloned().unwrap_or_default();
    let (mut low, mut high) = (0, 0);
    for (i, c) in (b.first_column..b.last_column).enumerate() {
        let at = 5 + 3 * i;
        let dn = marks.get(at..at + 2) == Some("dn");
        let hex = |c: u16, r: u16| st.grid.parse_hex(&format!("{c:02}{r:02}")).unwrap();
        let here = hex(c, 3);
        let touches = |n| st.grid.neighbours(here).contains(&n);
        if dn {
            low += 1;
            assert!(
                touches(hex(c + 1, 4)) && !touches(hex(c + 1, 2)),
                "column {c}"
            );
        } else {
            high += 1;
            assert!(
                touches(hex(c + 1, 2)) && !touches(hex(c + 1, 4)),
                "column {c}"
            );
        }
    }
    assert!(
        low > 0 && high > 0,
        "no offset marks: {marks:?}\n{:?}",
        v.board
    );
}
