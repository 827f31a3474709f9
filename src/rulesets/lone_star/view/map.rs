//! The map of miniatures as one viewer may see it: the ground, the units it sees with their
//! formation and hits, smoke and shell bursts, the objectives, and the legend of what is
//! drawn. It never changes the state.

use crate::board::tabletop::Pt;
use crate::board::terrain::Area;
use crate::engine::scene::{
    At, Condition, Formation, HitTrack, LegendEntry, Marker, Measure, Scene, Shape, SideInfo,
    Surface, Symbol, TerrainArea, Tone, Unit as SceneUnit, UnitKind, Zone, ZoneKind,
};
use crate::rulesets::kit::roster::TwoSides;

use super::super::state::{Form, Phase, State, Unit};
use super::{sees, turn_words};

fn at_(p: Pt) -> At {
    At::new(p.x, p.y)
}

fn shape(area: &Area) -> Shape {
    match area {
        Area::Polygon { points } => Shape::Polygon {
            points: points.iter().copied().map(at_).collect(),
        },
        Area::Circle { centre, radius } => Shape::Circle {
            centre: at_(*centre),
            radius: *radius,
        },
        Area::Band { points, width } => Shape::Line {
            points: points.iter().copied().map(at_).collect(),
            width: *width,
        },
    }
}

fn formation(u: &Unit) -> Formation {
    match u.form {
        _ if u.mounted => Formation::Mounted,
        Form::Line => Formation::Line,
        Form::Column => Formation::Column,
        Form::Square => Formation::Square,
        Form::Entrenched => Formation::Entrenched,
        Form::Occupying => Formation::Skirmish,
    }
}

/// The table as `me` may see it: the ground, the units, the zones, then the legend.
pub fn scene(state: &State, me: Option<&str>) -> Scene {
    let styles = state.data.map.clone().unwrap_or_default();
    let ground = styles.ground.clone().unwrap_or_else(|| "clear".into());
    let terrain = terrain(state);
    let units: Vec<SceneUnit> = state
        .units
        .iter()
        .filter(|u| sees(me, u) && super::super::marks::drawn(u))
        .map(|u| unit(state, me, u))
        .collect();
    let zones = zones(state);
    let used: Vec<&str> = std::iter::once(ground.as_str())
        .chain(terrain.iter().map(|t| t.style.as_str()))
        .collect();
    let mut scene = Scene {
        title: state.scenario.clone(),
        turn: turn_words(state),
        time: String::new(),
        viewer: match me {
            Some(m) => format!("As seen by {m} ({})", state.side_name(&state.side_of(m))),
            None => "Spectator's view".into(),
        },
        surface: Surface::Table {
            width: state.width,
            height: state.height,
            unit: Measure::Inch,
        },
        styles: styles.pick(used),
        ground: Some(ground),
        terrain,
        sides: state
            .sides
            .iter()
            .map(|(id, name, _)| SideInfo {
                id: id.clone(),
                name: name.clone(),
            })
            .collect(),
        units,
        zones,
        arrows: vec![],
        legend: vec![],
        compass: true,
        own_side: me.map(|m| state.side_of(m)),
    };
    scene.legend = legend(&scene);
    scene
}

/// The ground: areas first, lines (roads, rivers, walls) on top, fords last.
fn terrain(state: &State) -> Vec<TerrainArea> {
    let order = [
        "hill", "rough", "woods", "farm", "road", "river", "ford", "wall",
    ];
    let mut terrain = Vec::new();
    for kind in order {
        for g in state.ground.iter().filter(|g| g.kind == kind) {
            terrain.push(TerrainArea {
                style: g.kind.clone(),
                shape: shape(&g.area),
                label: g.name.clone(),
            });
        }
    }
    terrain
}

/// One unit seen: its base as wide and deep as its formation sets its figures, its hit
/// track, and its status markers.
fn unit(state: &State, me: Option<&str>, u: &Unit) -> SceneUnit {
    let size = state.data.rules.stand_size.get();
    let n = u.figures.len().max(1);
    let (w, d) = match u.form {
        Form::Line => {
            let deep = if n <= 4 { 1 } else { 2 };
            (n.div_ceil(deep) as f64 * size, deep as f64 * size)
        }
        Form::Column | Form::Occupying => {
            let wide = if n <= 4 { 1 } else { 2 };
            (wide as f64 * size, n.div_ceil(wide) as f64 * size)
        }
        _ => {
            let r = (n as f64 / std::f64::consts::TAU).max(0.75) * 2.0 + size;
            (r, r)
        }
    };
    let (hits, of) = state.track_of(u);
    SceneUnit {
        label: u.name.clone(),
        side: u.side.clone(),
        kind: UnitKind::Base {
            width: w,
            depth: d,
            formation: formation(u),
            figures: u.figures.len() as u32,
            hits: Some(HitTrack { taken: hits, of }),
        },
        at: at_(u.pos),
        facing: Some(u.facing),
        condition: if u.alive() {
            Condition::Active
        } else {
            Condition::Wreck
        },
        markers: markers(state, me, u),
        track: vec![],
    }
}

/// A unit's status markers: hidden, routing, in melee, in combat, the viewer's standing
/// orders, then the ruleset's own marks.
fn markers(state: &State, me: Option<&str>, u: &Unit) -> Vec<Marker> {
    let mut markers = Vec::new();
    if u.hidden {
        markers.push(Marker::status("hidden", Tone::Hidden));
    }
    if u.routing {
        markers.push(Marker::status("routing", Tone::Danger));
    }
    if !u.melee.is_empty() {
        markers.push(Marker::status("melee", Tone::Warning));
    }
    if u.in_combat && state.phase != Phase::Combat {
        markers.push(Marker::status("in combat", Tone::Spent));
    }
    if Some(u.seat.as_str()) == me && !u.standing.is_empty() {
        markers.push(Marker::status("standing orders", Tone::Order));
    }
    markers.extend(super::super::marks::markers(state, u));
    markers
}

/// The zones: objectives with their points, smoke, and this turn's shell bursts.
fn zones(state: &State) -> Vec<Zone> {
    let mut zones: Vec<Zone> = state
        .objectives
        .iter()
        .map(|o| Zone {
            kind: ZoneKind::Objective,
            shape: Shape::Circle {
                centre: At::new(o.at[0], o.at[1]),
                radius: o.radius,
            },
            label: Some(format!("{} ({})", o.name, o.points)),
            side: None,
        })
        .collect();
    let r = state.data.rules.smoke_diameter.get() / 2.0;
    zones.extend(state.smoke.iter().map(|s| Zone {
        kind: ZoneKind::Smoke,
        shape: Shape::Circle {
            centre: at_(s.at),
            radius: r,
        },
        label: None,
        side: Some(s.side.clone()),
    }));
    zones.extend(state.blasts.iter().map(|b| Zone {
        kind: ZoneKind::Blast,
        shape: Shape::Circle {
            centre: at_(b.at),
            radius: b.radius,
        },
        // Named as the shell, not the gun: the gun's name alone over a target reads as if
        // the gun stood there.
        label: Some(format!("{}'s shell", b.gun)),
        side: None,
    }));
    zones
}

fn legend(scene: &Scene) -> Vec<LegendEntry> {
    let mut optional = vec![
        (Symbol::Objective, "objective (points)"),
        (Symbol::Smoke, "smoke (4\")"),
        (Symbol::Blast, "shell burst"),
        (Symbol::Facing, "front of the unit"),
        (Symbol::HitTrack, "hit track (hits taken of the card)"),
        (Symbol::Status(Tone::Hidden), "hidden (only you see it)"),
        (Symbol::Status(Tone::Order), "your standing orders"),
    ];
    for f in Formation::ALL {
        optional.push((Symbol::Formation(f), f.word()));
    }
    scene.legend_of(optional)
}
