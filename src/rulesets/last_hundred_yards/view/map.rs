//! The hex map as one viewer may see it: terrain, roads and walls, the counters it sees as
//! themselves, a Concealment marker per enemy hex it knows of, the DRM markers, smoke, mortar
//! impacts, objectives, the Assault Arrows and the legend. It never changes the state.

use crate::board::hex::Hex;
use crate::engine::Viewer;
use crate::engine::scene::{
    Arrow, ArrowKind, At, Condition, LegendEntry, Marker, Scene, Shape, SideInfo, Surface, Symbol,
    TerrainArea, Tone, Unit as Counter, UnitKind, UnitSymbol, Zone, ZoneKind,
};
use crate::rulesets::kit::roster::{Roster, TwoSides};

use super::super::data::Kind;
use super::super::fire::signed;
use super::super::sight::{marker_hexes, shows_itself_to};
use super::super::state::{FireKind, FireMarker, LhyState, Motion, Status, Unit};
use super::{me, value_line};

fn symbol(k: Kind) -> UnitSymbol {
    match k {
        Kind::Squad | Kind::Section => UnitSymbol::Infantry,
        Kind::Leader => UnitSymbol::Headquarters,
        Kind::Mg => UnitSymbol::MachineGun,
        Kind::Mortar => UnitSymbol::Mortar,
        Kind::Latw | Kind::Gun => UnitSymbol::AntiTank,
        Kind::Fp => UnitSymbol::Text("FP".into()),
        Kind::Afv => UnitSymbol::Armour,
        Kind::Halftrack | Kind::Truck => UnitSymbol::Vehicle,
        Kind::Dummy => UnitSymbol::Text("?".into()),
    }
}

fn at(s: &LhyState, h: Hex) -> At {
    let p = s.map.grid().centre(h, 1.0);
    At::new(p.x, p.y)
}

/// The Assault Arrows on the map (§6.0 II.3b), for every seat alike: each runs from its first
/// unit's hex, the hex the public log names, across the hexside into the assaulted hex. It is
/// drawn over the gap between the two hexes' counters (a quarter of the way out to most of the
/// way in), not centre to centre, where the counters would hide it. A feint's arrow is drawn
/// the same (R33).
fn assault_arrows(s: &LhyState) -> Vec<Arrow> {
    s.arrows
        .iter()
        .filter_map(|a| {
            let (from, to) = (
                at(s, a.units.first().and_then(|n| s.unit(n))?.at),
                at(s, a.to),
            );
            let along =
                |k: f64| At::new(from.x + k * (to.x - from.x), from.y + k * (to.y - from.y));
            Some(Arrow {
                kind: ArrowKind::Move,
                side: a.side.clone(),
                from: along(0.25),
                to: along(0.85),
            })
        })
        .collect()
}

pub(super) fn scene(s: &LhyState, viewer: &Viewer, turn: &str) -> Scene {
    let m = me(viewer);
    let g = s.map.grid();
    let styles_all = &s.data.map;
    let mut used: Vec<String> = Vec::new();
    let terrain = terrain(s, &mut used);
    if let Some(gr) = &styles_all.ground {
        used.push(gr.clone());
    }
    let mut units: Vec<Counter> = s
        .on_map()
        .filter(|u| shows_itself_to(u, m))
        .map(|u| counter(s, u, m))
        .collect();
    units.extend(
        marker_hexes(s, m)
            .into_iter()
            .map(|(h, side)| concealment_marker(s, h, side)),
    );
    let zones = zones(s, m, &mut used);
    used.sort();
    used.dedup();
    let styles = styles_all.pick(used.iter().map(String::as_str));
    let sides: Vec<SideInfo> = s
        .sides
        .iter()
        .map(|x| SideInfo {
            id: x.id.clone(),
            name: if Some(x.id.as_str()) == m {
                format!("{} (you)", x.name)
            } else {
                x.name.clone()
            },
        })
        .collect();
    let mut scene = Scene {
        title: s.scenario.clone(),
        turn: turn.to_string(),
        time: format!("{} of {} minutes", s.elapsed, s.minutes),
        viewer: match m {
            Some(x) => format!("As seen by {}", s.side_name(x)),
            None => "Spectator".into(),
        },
        surface: Surface::Hex {
            grid: g,
            bounds: s.map.bounds(),
        },
        ground: styles_all.ground.clone(),
        styles,
        terrain,
        sides,
        units,
        zones,
        arrows: assault_arrows(s),
        legend: vec![],
        compass: false,
        own_side: m.map(str::to_string),
    };
    scene.legend = legend(s, &scene);
    scene
}

/// The map's terrain drawn hex by hex (ground other than the plain, hill levels), then roads
/// and walls; `used` gathers the styles drawn.
fn terrain(s: &LhyState, used: &mut Vec<String>) -> Vec<TerrainArea> {
    let g = s.map.grid();
    let styles_all = &s.data.map;
    let mut terrain = Vec::new();
    for h in s.map.hexes() {
        let key = s.map.ground(h).key().to_string();
        if styles_all.get(&key).is_some() && Some(&key) != styles_all.ground.as_ref() {
            terrain.push(TerrainArea {
                style: key.clone(),
                shape: Shape::Hex {
                    address: g.address(h).expect("a map hex"),
                },
                label: None,
            });
            used.push(key);
        }
        let level = s.map.level(h);
        if level > 0 && styles_all.get("hill").is_some() {
            terrain.push(TerrainArea {
                style: "hill".into(),
                shape: Shape::Hex {
                    address: g.address(h).expect("a map hex"),
                },
                label: Some(format!("L{level}")),
            });
            used.push("hill".into());
        }
    }
    if styles_all.get("road").is_some() {
        for h in s.map.hexes() {
            for n in g.neighbours(h) {
                if h < n && s.map.road_link(h, n) {
                    terrain.push(TerrainArea {
                        style: "road".into(),
                        shape: Shape::Line {
                            points: vec![at(s, h), at(s, n)],
                            width: 0.0,
                        },
                        label: None,
                    });
                    used.push("road".into());
                }
            }
        }
    }
    if styles_all.get("wall").is_some() {
        for w in s.map.walls() {
            let (wa, wb) = w.hexes();
            let (a, b) = (at(s, wa), at(s, wb));
            let mid = At::new((a.x + b.x) / 2.0, (a.y + b.y) / 2.0);
            let (dx, dy) = (b.x - a.x, b.y - a.y);
            let len = (dx * dx + dy * dy).sqrt().max(1e-9);
            let (px, py) = (-dy / len * 0.5, dx / len * 0.5);
            terrain.push(TerrainArea {
                style: "wall".into(),
                shape: Shape::Line {
                    points: vec![
                        At::new(mid.x - px, mid.y - py),
                        At::new(mid.x + px, mid.y + py),
                    ],
                    width: 0.0,
                },
                label: None,
            });
            used.push("wall".into());
        }
    }
    terrain
}

/// A unit the viewer sees as itself: its counter with status, motion and the DRM markers it
/// carries; concealment and hiding only on its own side's map.
fn counter(s: &LhyState, u: &Unit, m: Option<&str>) -> Counter {
    let g = s.map.grid();
    let own = Some(u.side.as_str()) == m;
    let mut markers = Vec::new();
    if u.status != Status::Good {
        markers.push(Marker::status(u.status.word(), Tone::Danger));
    }
    if u.heroic {
        markers.push(Marker::status("Heroic", Tone::Info));
    }
    if u.vehicle() && u.motion != Motion::Stationary {
        markers.push(Marker::status(
            if u.motion == Motion::Green {
                "motion"
            } else {
                "stopped"
            },
            Tone::Info,
        ));
    }
    if u.acted() {
        markers.push(Marker::status("acted", Tone::Spent));
    }
    if own && u.concealed {
        markers.push(Marker::status("concealed", Tone::Hidden));
    }
    if own && u.hidden {
        markers.push(Marker::status("hidden", Tone::Hidden));
    }
    for mk in s
        .markers
        .iter()
        .filter(|mk| mk.kind != FireKind::Mortar && mk.targets.contains(&u.name))
    {
        markers.push(drm_marker(mk));
    }
    let facing = u.facing.map(|d| {
        let c = g.compass(d);
        match c.as_str() {
            "N" => 0.0,
            "NE" => 60.0,
            "SE" => 120.0,
            "S" => 180.0,
            "SW" => 240.0,
            _ => 300.0,
        }
    });
    Counter {
        label: u.name.clone(),
        side: u.side.clone(),
        kind: UnitKind::Counter {
            symbol: symbol(u.kind),
            value: Some(value_line(s, u)),
            size: None,
        },
        at: at(s, u.at),
        facing,
        condition: Condition::Active,
        markers,
        track: vec![],
    }
}

/// A DRM marker riding on a counter or placed on a hex, as the counter shows it.
fn drm_marker(mk: &FireMarker) -> Marker {
    Marker::status(
        format!("{} {}", mk.kind.marker(), signed(mk.drm)),
        Tone::Warning,
    )
}

/// An enemy Concealment marker as the viewer knows it, with the DRM markers placed on its hex.
fn concealment_marker(s: &LhyState, h: Hex, side: String) -> Counter {
    let mut markers = vec![Marker::status("concealed", Tone::Hidden)];
    for mk in s
        .markers
        .iter()
        .filter(|mk| mk.kind != FireKind::Mortar && mk.hex == h && mk.side != side)
    {
        markers.push(drm_marker(mk));
    }
    Counter {
        label: format!("? {}", s.name_of(h)),
        side,
        kind: UnitKind::Counter {
            symbol: UnitSymbol::Text("?".into()),
            value: None,
            size: None,
        },
        at: at(s, h),
        facing: None,
        condition: Condition::Active,
        markers,
        track: vec![],
    }
}

/// The shaded areas: hexes the seat's units do not see, smoke, mortar impacts, objectives;
/// `used` gathers the styles drawn.
fn zones(s: &LhyState, m: Option<&str>, used: &mut Vec<String>) -> Vec<Zone> {
    let g = s.map.grid();
    let styles_all = &s.data.map;
    let mut zones = Vec::new();
    // The seat's own sight: hexes none of its units sees are shaded (spectators: none).
    if let Some(side) = m
        && styles_all.get("unseen").is_some()
    {
        for h in super::super::sight::unseen_by(s, side) {
            zones.push(Zone {
                kind: ZoneKind::Styled {
                    style: "unseen".into(),
                },
                shape: Shape::Hex {
                    address: g.address(h).expect("a map hex"),
                },
                label: None,
                side: None,
            });
        }
        used.push("unseen".into());
    }
    for (h, _) in &s.smoke {
        zones.push(Zone {
            kind: ZoneKind::Smoke,
            shape: Shape::Hex {
                address: g.address(*h).expect("a map hex"),
            },
            label: Some("Smoke".into()),
            side: None,
        });
    }
    for mk in s.markers.iter().filter(|mk| mk.kind == FireKind::Mortar) {
        zones.push(Zone {
            kind: ZoneKind::Blast,
            shape: Shape::Hex {
                address: g.address(mk.hex).expect("a map hex"),
            },
            label: Some(format!("MDRM {}", signed(mk.drm))),
            side: None,
        });
    }
    for o in &s.objectives {
        zones.push(Zone {
            kind: ZoneKind::Objective,
            shape: Shape::Hex {
                address: g.address(o.hex).expect("a map hex"),
            },
            label: Some(o.name.clone()),
            side: o.held_by.clone(),
        });
    }
    zones
}

/// The legend: the styles drawn, the sides, and the symbols the scene uses.
fn legend(s: &LhyState, scene: &Scene) -> Vec<LegendEntry> {
    let mut legend: Vec<LegendEntry> = scene.style_legend();
    for x in &s.sides {
        legend.push(LegendEntry {
            symbol: Symbol::Side(x.id.clone()),
            text: x.name.clone(),
        });
    }
    legend.push(LegendEntry {
        symbol: Symbol::Objective,
        text: "objective".into(),
    });
    legend.push(LegendEntry {
        symbol: Symbol::Blast,
        text: "mortar impact (MDRM)".into(),
    });
    legend.push(LegendEntry {
        symbol: Symbol::Move,
        text: "Assault Arrow".into(),
    });
    legend.push(LegendEntry {
        symbol: Symbol::Smoke,
        text: "Smoke marker (hindrance)".into(),
    });
    legend.retain(|l| scene.uses(&l.symbol));
    legend
}
