//! The drawn map of one viewer (`Scene`): the table in the styles of `[map]` in the ruleset's
//! data, roads as lines, the scenario's objectives, saturation zones, and every unit as a
//! counter with its symbol, facing and status badges. Built only from what the text view also
//! shows that viewer; standing orders (overwatch, CP requests) only on the viewer's own units.

use std::sync::OnceLock;

use crate::board::tabletop::Pt;
use crate::board::terrain::Area;
use crate::engine::Viewer;
use crate::engine::scene::{
    At, Condition, LegendEntry, MapStyles, Marker, Measure, Scene, Shape, SideInfo, Surface,
    Symbol, TerrainArea, Tone, Unit as SceneUnit, UnitKind, UnitSymbol, Zone, ZoneKind,
};
use crate::rulesets::kit::roster::{Roster, TwoSides};

use super::super::data::MoveMode;
use super::super::state::{GkState, Unit};

/// The style names of the `[map]` section for what the rules know by other names.
const GROUND: &str = "clear";
const SATURATION: &str = "saturation";

/// The game's own `[map]`, else the shipped file's: a game begun before maps were data has
/// none in its state, and is drawn as a new one would be.
fn styles(state: &GkState) -> &MapStyles {
    static SHIPPED: OnceLock<MapStyles> = OnceLock::new();
    state.data.map.as_ref().unwrap_or_else(|| {
        SHIPPED.get_or_init(|| {
            MapStyles::from_ruleset_toml(include_str!("../../../../games/gear-krieg/ruleset.toml"))
                .ok()
                .flatten()
                .unwrap_or_default()
        })
    })
}

fn at(p: Pt) -> At {
    At::new(p.x, p.y)
}

/// The shape of one scenario area: a band (a road) is a line with its width, everything
/// within half of it on the road, as `board::terrain` measures it.
fn shape(area: &Area) -> Shape {
    match area {
        Area::Polygon { points } => Shape::Polygon {
            points: points.iter().copied().map(at).collect(),
        },
        Area::Circle { centre, radius } => Shape::Circle {
            centre: at(*centre),
            radius: *radius,
        },
        Area::Band { points, width } => Shape::Line {
            points: points.iter().copied().map(at).collect(),
            width: *width,
        },
    }
}

/// The markers of one unit as `me` may see them: overwatch and a CP held for its defence
/// only on the viewer's own units.
fn markers(u: &Unit, me: Option<&str>, concealed: bool) -> Vec<Marker> {
    use Marker::Hits;
    if !u.alive() {
        return vec![Marker::status("destroyed", Tone::Danger)];
    }
    let mut out = Vec::new();
    if u.is_infantry() {
        let lost = u.troopers.iter().filter(|t| !t.alive()).count() as u32;
        if lost > 0 {
            out.push(Hits(lost));
        }
        if u.pinned > 0 {
            out.push(Marker::status(
                format!("pinned {}", u.pinned),
                Tone::Warning,
            ));
        }
    } else {
        if u.heavy > 0 {
            out.push(Marker::status("heavy damage", Tone::Danger));
        }
        if u.light > 0 {
            out.push(Marker::status("light damage", Tone::Warning));
        }
        if u.top {
            out.push(Marker::status("top speed", Tone::Info));
        }
        if u.mode == MoveMode::Ground {
            out.push(Marker::status("ground mode", Tone::Info));
        }
    }
    if u.defensive {
        out.push(Marker::status("defending", Tone::Info));
    }
    if u.activated {
        out.push(Marker::status("activated", Tone::Spent));
    }
    if !u.defensive && u.actions_used > 0 {
        out.push(if u.actions_left() == 0 {
            Marker::status("no actions left", Tone::Spent)
        } else {
            Marker::status(
                format!("{} of {} actions left", u.actions_left(), u.actions),
                Tone::Info,
            )
        });
    }
    if me == Some(u.side.as_str()) {
        if u.overwatch.is_some() {
            out.push(Marker::status("overwatch", Tone::Order));
        }
        if u.cp_defend {
            out.push(Marker::status("CP defend", Tone::Order));
        }
    }
    if concealed {
        out.push(Marker::status("concealed", Tone::Hidden));
    }
    out
}

/// The map as `viewer` may see it. Built only from what the text view also shows to that
/// viewer: positions, facing, damage, pins and spent actions are open; overwatch and CP
/// requests only for the viewer's own units; queued activations, standing settings and the
/// opponent's sealed Step 1 declarations (which live in the engine until the step locks) never.
pub(super) fn scene(state: &GkState, viewer: &Viewer, turn: &str, concealed: &[String]) -> Scene {
    let me = match viewer {
        Viewer::Seat(s) => Some(s.as_str()),
        Viewer::Spectator => None,
    };
    let sides = side_infos(state, me);
    let terrain: Vec<TerrainArea> = state
        .terrain
        .iter()
        .map(|t| TerrainArea {
            style: t.kind.word().to_string(),
            shape: shape(&t.area),
            label: (!t.name.is_empty()).then(|| t.name.clone()),
        })
        .collect();
    let units = counters(state, me, concealed);
    let zones = drawn_zones(state);
    let data = styles(state);
    let ground = data.ground.clone().unwrap_or_else(|| GROUND.into());
    let used = std::iter::once(ground.as_str())
        .chain(terrain.iter().map(|t| t.style.as_str()))
        .chain((!state.zones.is_empty()).then_some(SATURATION));
    let mut scene = Scene {
        title: state.scenario_name.clone(),
        turn: turn.to_string(),
        time: format!(
            "{} (Detection {})",
            if state.night { "Night" } else { "Daylight" },
            super::super::combat::detection(state)
        ),
        viewer: match me {
            Some(m) => format!("As seen by the {}", state.side_name(m)),
            None => "Spectator's view".into(),
        },
        surface: Surface::Table {
            width: state.width,
            height: state.height,
            unit: Measure::Cm,
        },
        styles: data.pick(used),
        ground: Some(ground),
        terrain,
        sides,
        units,
        zones,
        arrows: vec![],
        legend: vec![],
        compass: true,
        own_side: me.map(str::to_string),
    };
    scene.legend = legend(&scene);
    scene
}

/// The sides in seat order, the viewer's own marked "(you)".
fn side_infos(state: &GkState, me: Option<&str>) -> Vec<SideInfo> {
    state
        .seat_order
        .iter()
        .map(|id| SideInfo {
            id: id.clone(),
            name: if me == Some(id.as_str()) {
                format!("{} (you)", state.side_name(id))
            } else {
                state.side_name(id)
            },
        })
        .collect()
}

/// Every unit as a counter: infantry or walker symbol, facing for a vehicle, wrecked when
/// destroyed, with the badges `markers` allows this viewer.
fn counters(state: &GkState, me: Option<&str>, concealed: &[String]) -> Vec<SceneUnit> {
    let counter = state.data.rules.counter_size.get();
    state
        .units
        .iter()
        .map(|u| SceneUnit {
            label: u.name.clone(),
            side: u.side.clone(),
            kind: UnitKind::Counter {
                symbol: if u.is_infantry() {
                    UnitSymbol::Infantry
                } else {
                    UnitSymbol::Walker
                },
                value: None,
                size: Some(counter),
            },
            at: at(u.pos),
            facing: (!u.is_infantry()).then_some(u.heading),
            condition: if u.alive() {
                Condition::Active
            } else {
                Condition::Wreck
            },
            markers: markers(u, me, concealed.contains(&u.name)),
            track: vec![],
        })
        .collect()
}

/// The scenario's objectives, then this round's saturation zones (in the firer's colour).
fn drawn_zones(state: &GkState) -> Vec<Zone> {
    let size = state.data.rules.saturation_size.get();
    let mut zones: Vec<Zone> = state
        .objectives
        .iter()
        .map(|o| Zone {
            kind: ZoneKind::Objective,
            shape: Shape::Circle {
                centre: At::new(o.x, o.y),
                radius: o.radius,
            },
            label: Some(format!("{} ({} VP)", o.name, o.points)),
            side: None,
        })
        .collect();
    zones.extend(state.zones.iter().map(|z| Zone {
        kind: ZoneKind::Styled {
            style: SATURATION.into(),
        },
        shape: Shape::Rect {
            centre: at(z.centre),
            heading: 0.0,
            length: size,
            width: size,
        },
        label: None,
        side: state.unit(&z.by).map(|u| u.side.clone()),
    }));
    zones
}

/// Legend entries for what this picture shows, and nothing else (so it hints at nothing).
fn legend(scene: &Scene) -> Vec<LegendEntry> {
    let optional = [
        (Symbol::Objective, "objective (victory points)"),
        (Symbol::Unit(UnitSymbol::Walker), "walker"),
        (Symbol::Unit(UnitSymbol::Infantry), "infantry squad"),
        (Symbol::Facing, "facing"),
        (Symbol::Hits, "troopers lost"),
        (Symbol::Status(Tone::Order), "your standing order (hidden)"),
    ];
    scene.legend_of(optional)
}

#[cfg(test)]
mod tests {
    use super::super::super::data::TerrainKind;
    use super::*;

    #[test]
    fn a_band_is_drawn_as_a_line_with_its_width() {
        let road = Area::Band {
            points: vec![Pt::new(0.0, 18.0), Pt::new(24.0, 18.0), Pt::new(24.0, 30.0)],
            width: 1.0,
        };
        assert_eq!(
            shape(&road),
            Shape::Line {
                points: vec![At::new(0.0, 18.0), At::new(24.0, 18.0), At::new(24.0, 30.0)],
                width: 1.0
            }
        );
        let hill = Area::Circle {
            centre: Pt::new(5.0, 5.0),
            radius: 2.0,
        };
        assert_eq!(
            shape(&hill),
            Shape::Circle {
                centre: At::new(5.0, 5.0),
                radius: 2.0
            }
        );
    }

    #[test]
    fn every_terrain_kind_has_a_style_in_the_shipped_data() {
        let shipped =
            MapStyles::from_ruleset_toml(include_str!("../../../../games/gear-krieg/ruleset.toml"))
                .unwrap()
                .expect("the shipped ruleset declares [map]");
        for kind in [
            TerrainKind::Clear,
            TerrainKind::Rough,
            TerrainKind::Woodland,
            TerrainKind::Jungle,
            TerrainKind::Road,
            TerrainKind::Hill,
        ] {
            assert!(shipped.terrain.contains_key(kind.word()), "{kind:?}");
        }
        assert_eq!(shipped.ground.as_deref(), Some(GROUND));
        assert!(shipped.zones.contains_key(SATURATION));
        assert_eq!(
            shipped.terrain["road"].form,
            crate::engine::scene::Form::Line
        );
    }
}
