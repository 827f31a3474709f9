//! What one viewer may see: the filtered log, a text map, unit sections, the drawn map (`Scene`)
//! and viewer-safe JSON. The only path from the state to a seat; it must never show a side's
//! overwatch orders, queued activations or standing settings to anyone but that side.

use serde_json::json;

use crate::board::tabletop::{Pt, bearing, dist};
use crate::board::terrain::Area;
use crate::engine::scene::{
    At, Condition, FieldKnown, LegendEntry, Marker, Measure, Scene, Shape, SideInfo, Surface,
    Symbol, Terrain, TerrainArea, Unit as SceneUnit, UnitKind, Zone, ZoneKind,
};
use crate::engine::{View, Viewer};

use super::data::{MoveMode, TerrainKind};
use super::ground;
use super::orders::{num, print_order};
use super::state::{GkState, Order, Phase, Unit};
use super::stats;

fn r1(v: f64) -> String {
    num((v * 10.0).round() / 10.0)
}

fn glyph(kind: TerrainKind) -> char {
    match kind {
        TerrainKind::Clear => '.',
        TerrainKind::Rough => ':',
        TerrainKind::Woodland => 'w',
        TerrainKind::Jungle => 'J',
        TerrainKind::Road => '=',
        TerrainKind::Hill => '^',
    }
}

/// One character per 2 cm across and 2 cm up; units by the last digit of their list number.
fn board(state: &GkState) -> Vec<String> {
    let cols = (state.width / 2.0).ceil().max(1.0) as usize;
    let rows = (state.height / 2.0).ceil().max(1.0) as usize;
    let mut grid: Vec<Vec<char>> = (0..rows)
        .map(|r| {
            (0..cols)
                .map(|c| {
                    let p = Pt::new(c as f64 * 2.0 + 1.0, state.height - (r as f64 * 2.0 + 1.0));
                    glyph(ground::terrain_at(state, p))
                })
                .collect()
        })
        .collect();
    for (i, u) in state.units.iter().enumerate().filter(|(_, u)| u.alive()) {
        let c = ((u.pos.x / 2.0).floor() as usize).min(cols - 1);
        let r = (((state.height - u.pos.y) / 2.0).floor().max(0.0) as usize).min(rows - 1);
        let g = char::from_digit((i % 10) as u32, 10).unwrap_or('?');
        grid[r][c] = g;
    }
    let mut out = vec![format!(
        "Map {} x {} cm, one character = 2 cm; north is up. . clear : rough w wood J jungle = road ^ hill; digits = units (see the lists).",
        r1(state.width),
        r1(state.height)
    )];
    out.extend(
        grid.into_iter()
            .map(|row| row.into_iter().collect::<String>()),
    );
    out
}

fn unit_line(state: &GkState, i: usize, u: &Unit, concealed: bool) -> String {
    let mut s = format!(
        "[{}] {} ({}) at {},{}",
        i % 10,
        u.name,
        stats::vehicle(&state.data, u)
            .map(|v| v.name.clone())
            .or_else(|| stats::infantry(&state.data, u).map(|x| x.name.clone()))
            .unwrap_or_default(),
        r1(u.pos.x),
        r1(u.pos.y)
    );
    if !u.alive() {
        s.push_str(" — destroyed");
        return s;
    }
    if u.is_infantry() {
        s.push_str(&format!(
            ", {} of {} troopers",
            u.living_troopers(),
            u.troopers.len()
        ));
        let tracks: Vec<String> = u
            .troopers
            .iter()
            .map(|t| {
                format!(
                    "{}{}",
                    t.weapon,
                    "x".repeat(t.hits as usize) + &"o".repeat((t.circles - t.hits) as usize)
                )
            })
            .collect();
        s.push_str(&format!(" [{}]", tracks.join(" ")));
        if u.pinned > 0 {
            s.push_str(&format!(", Pinned {}", u.pinned));
        }
    } else {
        s.push_str(&format!(
            ", facing {}, {} mode, {}",
            r1(u.heading),
            if u.mode == MoveMode::Walker {
                "Walker"
            } else {
                "Ground"
            },
            if u.top { "Top Speed" } else { "Combat Speed" }
        ));
        if u.light > 0 {
            s.push_str(", Light Damage");
        }
        if u.heavy > 0 {
            s.push_str(", Heavy Damage");
        }
        let ammo: Vec<String> = u.ammo.iter().map(|(w, n)| format!("{w} {n}")).collect();
        if !ammo.is_empty() {
            s.push_str(&format!(", ammo {}", ammo.join(" ")));
        }
    }
    s.push_str(&format!(
        ", last move {} cm, {}",
        r1(u.last_move),
        if u.activated {
            "activated"
        } else {
            "not yet activated"
        }
    ));
    if u.defensive {
        s.push_str(", defensive maneuvers");
    } else {
        s.push_str(&format!(", actions {}/{}", u.actions_left(), u.actions));
    }
    if concealed {
        s.push_str(", concealed from all your units");
    }
    s
}

pub fn view(state: &GkState, viewer: &Viewer) -> View {
    let me = match viewer {
        Viewer::Seat(s) => Some(s.as_str()),
        Viewer::Spectator => None,
    };
    let log: Vec<String> = state
        .log
        .iter()
        .filter(|l| l.visible_to(viewer))
        .map(|l| l.text.clone())
        .collect();
    let concealed = me.map_or_else(Vec::new, |m| concealed_from(state, m));
    let mut sections = Vec::new();
    for side in &state.sides {
        let title = if Some(side.id.as_str()) == me {
            format!("Your force: {} ({} CP)", side.name, side.cp)
        } else {
            format!("{} ({} CP)", side.name, side.cp)
        };
        let lines: Vec<String> = state
            .units
            .iter()
            .enumerate()
            .filter(|(_, u)| u.side == side.id)
            .map(|(i, u)| unit_line(state, i, u, concealed.contains(&u.name)))
            .collect();
        sections.push((title, lines));
        if Some(side.id.as_str()) == me {
            let mut standing: Vec<String> = state
                .units
                .iter()
                .filter(|u| u.side == side.id)
                .filter_map(|u| u.overwatch.clone())
                .map(|o| print_order(&Order::Overwatch(o)))
                .collect();
            standing.push(format!(
                "INTERRUPTS {}",
                if side.ask_interrupts { "ASK" } else { "NEVER" }
            ));
            standing.push(format!(
                "DECLARATIONS {}",
                if side.ask_declarations { "ASK" } else { "SKIP" }
            ));
            standing.push(format!(
                "CHOOSE {}",
                if side.choose_first { "FIRST" } else { "SECOND" }
            ));
            for b in &side.queued {
                standing.push(format!(
                    "queued: ACTIVATE {} ({} orders)",
                    b.unit,
                    b.acts.len()
                ));
            }
            sections.push((
                "Your standing orders (hidden from the enemy)".into(),
                standing,
            ));
        }
    }
    if !state.zones.is_empty() {
        sections.push((
            "Saturation zones this round".into(),
            state
                .zones
                .iter()
                .map(|z| {
                    format!(
                        "{},{} by {} ({}): {}",
                        r1(z.centre.x),
                        r1(z.centre.y),
                        z.by,
                        z.weapon,
                        z.total
                    )
                })
                .collect(),
        ));
    }
    let turn = match &state.phase {
        Phase::Declare => format!("Round {} of {}, Step 1", state.round, state.max_rounds),
        Phase::Activate { side } => format!(
            "Round {} of {}, {} activates",
            state.round,
            state.max_rounds,
            state.side_name(side)
        ),
        Phase::Interrupt { side, mover } => format!(
            "Round {} of {}, {} may interrupt {mover}",
            state.round,
            state.max_rounds,
            state.side_name(side)
        ),
        Phase::GameOver => "The battle is over".into(),
    };
    let units: Vec<serde_json::Value> = state
        .units
        .iter()
        .map(|u| {
            json!({
                "name": u.name, "side": u.side, "class": u.class, "infantry": u.is_infantry(),
                "x": u.pos.x, "y": u.pos.y, "heading": u.heading, "alive": u.alive(),
                "light": u.light, "heavy": u.heavy, "pinned": u.pinned,
                "troopers": u.living_troopers(), "activated": u.activated, "top": u.top,
            })
        })
        .collect();
    let terrain: Vec<serde_json::Value> = state
        .terrain
        .iter()
        .map(|t| json!({"kind": t.kind, "name": t.name, "area": t.area}))
        .collect();
    View {
        viewer: viewer.clone(),
        scenario: state.scenario_name.clone(),
        turn: turn.clone(),
        log,
        board: board(state),
        sections,
        data: json!({
            "width": state.width, "height": state.height, "night": state.night,
            "round": state.round, "units": units, "terrain": terrain,
            "objectives": state.objectives,
        }),
        map: Some(scene(state, viewer, &turn, &concealed)),
    }
}

/// How the drawn map colours a terrain type. The scene has no jungle or road of its own: jungle
/// takes the marsh green (lighter than the woods; the legend names it), roads the pale land
/// colour, which reads as a cased road between their outlines.
fn scene_terrain(kind: TerrainKind) -> Terrain {
    match kind {
        TerrainKind::Clear => Terrain::Open,
        TerrainKind::Rough => Terrain::Rough,
        TerrainKind::Woodland => Terrain::Woods,
        TerrainKind::Jungle => Terrain::Marsh,
        TerrainKind::Road => Terrain::Land,
        TerrainKind::Hill => Terrain::Hill,
    }
}

fn at(p: Pt) -> At {
    At::new(p.x, p.y)
}

/// The outlines of one scenario area on a `width` x `height` table. A band (a road) is a
/// rectangle per stretch of its centre line and a disc at each bend and at each end inside
/// the table, as `board::terrain` measures it (everything within half its width of the line).
fn shapes(area: &Area, width: f64, height: f64) -> Vec<Shape> {
    match area {
        Area::Polygon { points } => vec![Shape::Polygon {
            points: points.iter().copied().map(at).collect(),
        }],
        Area::Circle { centre, radius } => vec![Shape::Circle {
            centre: at(*centre),
            radius: *radius,
        }],
        Area::Band { points, width: w } => {
            let mut out: Vec<Shape> = points
                .windows(2)
                .map(|p| Shape::Rect {
                    centre: At::new((p[0].x + p[1].x) / 2.0, (p[0].y + p[1].y) / 2.0),
                    heading: bearing(p[0], p[1]),
                    length: dist(p[0], p[1]),
                    width: *w,
                })
                .collect();
            // An end on the table's edge gets no cap: it would spill over the rulers.
            let inside = |p: &Pt| p.x > 0.0 && p.y > 0.0 && p.x < width && p.y < height;
            let last = points.len().saturating_sub(1);
            out.extend(
                points
                    .iter()
                    .enumerate()
                    .filter(|(i, p)| (*i != 0 && *i != last) || inside(p))
                    .map(|(_, p)| Shape::Circle {
                        centre: at(*p),
                        radius: w / 2.0,
                    }),
            );
            out
        }
    }
}

/// A direction arrow for a counter's face: the renderer turns a square counter but a square
/// looks the same every quarter turn, so the symbol shows which way the walker faces.
fn facing_glyph(heading: f64) -> &'static str {
    const ARROWS: [&str; 8] = ["⬆", "⬈", "➡", "⬊", "⬇", "⬋", "⬅", "⬉"];
    let k = (heading.rem_euclid(360.0) / 45.0).round() as usize % 8;
    ARROWS[k]
}

/// Enemy units that no live unit of `seat` can detect now: Concealment above Detection from
/// every one of them (p.4, R12). Detection limits targeting, not knowledge (every unit is on
/// the table), so these are still drawn, marked, and the mark uses only open facts.
fn concealed_from(state: &GkState, seat: &str) -> Vec<String> {
    let det = super::combat::detection(state);
    let own = state.alive(seat);
    if own.is_empty() {
        return vec![];
    }
    state
        .units
        .iter()
        .filter(|e| e.side != seat && e.alive())
        .filter(|e| {
            own.iter()
                .all(|u| ground::concealment(state, u.pos, e.pos) > det)
        })
        .map(|e| e.name.clone())
        .collect()
}

/// The markers of one unit as `me` may see them: overwatch only on its own side's units.
fn markers(u: &Unit, me: Option<&str>, concealed: bool) -> Vec<Marker> {
    let mut out = Vec::new();
    if !u.alive() {
        // The legend's wreck swatch is a hull; the word says it better on a counter.
        return vec![Marker::Note("destroyed".into())];
    }
    let note = |t: String| Marker::Note(t);
    if u.is_infantry() {
        let lost = u.troopers.iter().filter(|t| !t.alive()).count() as u32;
        if lost > 0 {
            out.push(Marker::Hits(lost));
        }
        if u.pinned > 0 {
            out.push(note(format!("pinned {}", u.pinned)));
        }
    } else {
        if u.heavy > 0 {
            out.push(Marker::Critical("Heavy damage".into()));
        }
        if u.light > 0 {
            out.push(Marker::Critical("Light damage".into()));
        }
        if u.top {
            out.push(note("top speed".into()));
        }
        if u.mode == MoveMode::Ground {
            out.push(note("ground mode".into()));
        }
    }
    if u.defensive {
        out.push(note("defending".into()));
    }
    if u.activated {
        out.push(note("activated".into()));
    }
    if !u.defensive && u.actions_used > 0 {
        out.push(note(if u.actions_left() == 0 {
            "no actions left".into()
        } else {
            format!("{} of {} actions left", u.actions_left(), u.actions)
        }));
    }
    if me == Some(u.side.as_str()) && u.overwatch.is_some() {
        out.push(note("overwatch".into()));
    }
    if concealed {
        out.push(note("concealed".into()));
    }
    out
}

/// The map as `viewer` may see it. Built only from what the text view also shows to that
/// viewer: positions, facing, damage, pins and spent actions are open; overwatch only for the
/// viewer's own units; queued activations, standing settings and the opponent's sealed Step 1
/// declarations (which live in the engine until the step locks) never.
fn scene(state: &GkState, viewer: &Viewer, turn: &str, concealed: &[String]) -> Scene {
    let me = match viewer {
        Viewer::Seat(s) => Some(s.as_str()),
        Viewer::Spectator => None,
    };
    let sides: Vec<SideInfo> = state
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
        .collect();
    let terrain: Vec<TerrainArea> = state
        .terrain
        .iter()
        .flat_map(|t| {
            shapes(&t.area, state.width, state.height)
                .into_iter()
                .map(|shape| TerrainArea {
                    terrain: scene_terrain(t.kind),
                    shape,
                    label: (!t.name.is_empty()).then(|| t.name.clone()),
                })
        })
        .collect();
    let units: Vec<SceneUnit> = state
        .units
        .iter()
        .map(|u| SceneUnit {
            label: u.name.clone(),
            side: u.side.clone(),
            kind: UnitKind::Counter {
                symbol: if u.is_infantry() {
                    "✕".into()
                } else {
                    facing_glyph(u.heading).into()
                },
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
        .collect();
    let size = state.data.rules.saturation_size.get();
    let zones: Vec<Zone> = state
        .zones
        .iter()
        .map(|z| Zone {
            kind: ZoneKind::Minefield {
                known: FieldKnown::Genuine,
            },
            shape: Shape::Rect {
                centre: at(z.centre),
                heading: 0.0,
                length: size,
                width: size,
            },
            label: None,
            side: state.unit(&z.by).map(|u| u.side.clone()),
        })
        .collect();
    let legend = legend(state, &sides, &units, &zones);
    Scene {
        title: state.scenario_name.clone(),
        turn: turn.to_string(),
        time: format!(
            "{} (Detection {})",
            if state.night { "Night" } else { "Daylight" },
            super::combat::detection(state)
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
        ground: Terrain::Open,
        terrain,
        sides,
        units,
        zones,
        arrows: vec![],
        legend,
        compass: true,
    }
}

/// Legend entries for what this picture shows, and nothing else (so it hints at nothing).
fn legend(
    state: &GkState,
    sides: &[SideInfo],
    units: &[SceneUnit],
    zones: &[Zone],
) -> Vec<LegendEntry> {
    let entry = |symbol: Symbol, text: &str| LegendEntry {
        symbol,
        text: text.to_string(),
    };
    let mut out: Vec<LegendEntry> = sides
        .iter()
        .map(|s| entry(Symbol::Side(s.id.clone()), &s.name))
        .collect();
    let mut kinds: Vec<TerrainKind> = state.terrain.iter().map(|t| t.kind).collect();
    kinds.sort();
    kinds.dedup();
    out.push(entry(Symbol::Terrain(Terrain::Open), "clear"));
    out.extend(
        kinds
            .into_iter()
            .filter(|k| *k != TerrainKind::Clear)
            .map(|k| entry(Symbol::Terrain(scene_terrain(k)), k.word())),
    );
    let any = |p: &dyn Fn(&Marker) -> bool| units.iter().any(|u| u.markers.iter().any(p));
    if any(&|m| matches!(m, Marker::Critical(_))) {
        out.push(entry(Symbol::Critical, "damage: H heavy, L light"));
    }
    if any(&|m| matches!(m, Marker::Hits(_))) {
        out.push(entry(Symbol::Hits, "troopers lost"));
    }
    if !zones.is_empty() {
        out.push(entry(
            Symbol::Minefield(FieldKnown::Genuine),
            "saturation zone",
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_band_is_drawn_as_its_stretches_bends_and_inner_ends() {
        let road = Area::Band {
            points: vec![Pt::new(0.0, 18.0), Pt::new(24.0, 18.0), Pt::new(24.0, 30.0)],
            width: 1.0,
        };
        let s = shapes(&road, 48.0, 36.0);
        assert_eq!(s.len(), 4, "{s:?}");
        assert_eq!(
            s[0],
            Shape::Rect {
                centre: At::new(12.0, 18.0),
                heading: 90.0,
                length: 24.0,
                width: 1.0
            }
        );
        assert!(
            matches!(s[1], Shape::Rect { heading, length, .. } if heading == 0.0 && length == 12.0)
        );
        // The bend and the end inside the table get discs; the end on the west edge none.
        assert_eq!(
            s[2],
            Shape::Circle {
                centre: At::new(24.0, 18.0),
                radius: 0.5
            }
        );
        assert_eq!(
            s[3],
            Shape::Circle {
                centre: At::new(24.0, 30.0),
                radius: 0.5
            }
        );
        let spot = Area::Band {
            points: vec![Pt::new(5.0, 5.0)],
            width: 2.0,
        };
        assert_eq!(
            shapes(&spot, 48.0, 36.0),
            vec![Shape::Circle {
                centre: At::new(5.0, 5.0),
                radius: 1.0
            }]
        );
    }

    #[test]
    fn facing_arrows_point_the_nearest_way() {
        assert_eq!(facing_glyph(0.0), "⬆");
        assert_eq!(facing_glyph(90.0), "➡");
        assert_eq!(facing_glyph(200.0), "⬇");
        assert_eq!(facing_glyph(270.0), "⬅");
        assert_eq!(facing_glyph(-30.0), "⬉");
        assert_eq!(facing_glyph(350.0), "⬆");
    }
}
