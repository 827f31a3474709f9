//! What one seat (or a spectator) may see: its own units in full, enemy units it sees as they
//! are, one Concealment marker per enemy hex it knows of (dummies look the same, hidden units
//! not at all), the DRM markers as placed, the log lines meant for it, its own standing
//! reactions and queued activations, and the hex map drawn from the same facts. Nothing else
//! of the state reaches a `View`.

use serde_json::json;

use crate::engine::scene::{
    Arrow, ArrowKind, At, Condition, LegendEntry, Marker, Scene, Shape, SideInfo, Surface, Symbol,
    TerrainArea, Tone, Unit as Counter, UnitKind, UnitSymbol, Zone, ZoneKind,
};
use crate::engine::{View, Viewer};
use crate::rulesets::kit::roster::{Roster, TwoSides};

use super::data::Kind;
use super::fire::signed;
use super::orders::print_order;
use super::sight::{marker_hexes, seen_as_itself};
use super::state::{LhyState, Motion, Order, Phase, Place, Status, Unit};

fn me(viewer: &Viewer) -> Option<&str> {
    match viewer {
        Viewer::Seat(s) => Some(s.as_str()),
        Viewer::Spectator => None,
    }
}

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

fn value_line(s: &LhyState, u: &Unit) -> String {
    let v = s.values(u);
    if u.vehicle() {
        format!("{}-{} AV{}", v.atv, v.atv_range, v.av)
    } else {
        format!("{}-{}-{}", s.cohesion(u), v.sav, v.sav_range)
    }
}

/// A unit's state in words, for its owner or anyone who sees it.
fn unit_line(s: &LhyState, u: &Unit, own: bool) -> String {
    let class = s
        .data
        .class(&u.class)
        .map_or(u.class.clone(), |c| c.name.clone());
    let mut bits = vec![format!("{} ({class}) at {}", u.name, s.name_of(u.at))];
    if u.steps > 1 {
        bits.push(format!("{} steps", u.steps));
    }
    if u.status != Status::Good {
        bits.push(u.status.word().into());
    }
    if u.heroic {
        bits.push("Heroic".into());
    }
    if u.vehicle() {
        bits.push(match u.motion {
            Motion::Stationary => "stationary".into(),
            Motion::Green => "in motion".into(),
            Motion::Red => "stopped".into(),
        });
    }
    if let Some(v) = &u.aboard {
        bits.push(format!("aboard {v}"));
    }
    if own {
        if u.concealed {
            bits.push("concealed".into());
        }
        if u.hidden {
            bits.push("hidden".into());
        }
        if u.acted() {
            bits.push("acted".into());
        }
    }
    bits.join(", ")
}

fn turn_text(s: &LhyState) -> String {
    let t = s.turn.number;
    match &s.phase {
        Phase::Setup => "Mission set-up".into(),
        Phase::Activate { side } => format!("Game turn {t}: {} activates", s.side_name(side)),
        Phase::React { side } => {
            format!("Game turn {t}: call for Reaction to {}", s.side_name(side))
        }
        Phase::Stacking { side } => format!(
            "Game turn {t}: {} eliminates excess units",
            s.side_name(side)
        ),
        Phase::GameOver => "The mission is over".into(),
    }
}

pub fn view(s: &LhyState, viewer: &Viewer) -> View {
    let m = me(viewer);
    let log: Vec<String> = s
        .log
        .iter()
        .filter(|l| l.visible_to(viewer))
        .map(|l| l.text.clone())
        .collect();
    let mut sections = Vec::new();
    for side in &s.sides {
        let own = Some(side.id.as_str()) == m;
        let title = if own {
            format!("Your force: {} ({} steps lost)", side.name, side.casualties)
        } else {
            format!(
                "{} ({} steps lost): what you see",
                side.name, side.casualties
            )
        };
        let mut lines: Vec<String> = s
            .on_map()
            .filter(|u| u.side == side.id && (own || seen_as_itself(u, m)))
            .map(|u| unit_line(s, u, own))
            .collect();
        if !own {
            lines.extend(
                marker_hexes(s, m)
                    .into_iter()
                    .filter(|(_, sd)| *sd == side.id)
                    .map(|(h, _)| format!("Concealment marker at {}", s.name_of(h))),
            );
        } else {
            let pool: Vec<String> = s
                .units
                .iter()
                .filter(|u| u.side == side.id && u.place == Place::Pool)
                .map(|u| u.name.clone())
                .collect();
            if !pool.is_empty() {
                lines.push(format!("Not in play (platoon pools): {}", pool.join(", ")));
            }
        }
        sections.push((title, lines));
        if own {
            let mut st: Vec<String> = side
                .standing
                .iter()
                .map(|x| print_order(&Order::Standing(x.clone())))
                .collect();
            st.push(print_order(&Order::Set(super::state::Setting::Reactions(
                side.ask,
            ))));
            for b in &side.queued {
                st.push(format!(
                    "queued: {}",
                    b.first().map(print_order).unwrap_or_default()
                ));
            }
            sections.push(("Your standing reactions (hidden from the enemy)".into(), st));
        }
    }
    if !s.markers.is_empty() {
        sections.push((
            "DRM markers (resolved in Phase III)".into(),
            s.markers
                .iter()
                .map(|mk| {
                    let by = if Some(mk.side.as_str()) == m {
                        format!(" by {}", mk.by)
                    } else {
                        String::new()
                    };
                    format!(
                        "{} {} on {}{by}",
                        mk.kind.marker(),
                        signed(mk.drm),
                        s.name_of(mk.hex)
                    )
                })
                .collect(),
        ));
    }
    if !s.smoke.is_empty() {
        sections.push((
            "Smoke markers (hindrances until the Mortar Fire Adjustment Phase)".into(),
            s.smoke
                .iter()
                .map(|(h, _)| format!("Smoke on {}", s.name_of(*h)))
                .collect(),
        ));
    }
    if !s.objectives.is_empty() {
        sections.push((
            "Objectives".into(),
            s.objectives
                .iter()
                .map(|o| {
                    format!(
                        "{} ({}, {} points): {}",
                        o.name,
                        s.name_of(o.hex),
                        o.points,
                        o.held_by
                            .as_deref()
                            .map_or("nobody".into(), |x| s.side_name(x))
                    )
                })
                .collect(),
        ));
    }
    sections.push((
        "Time".into(),
        vec![format!(
            "Game turn {} of {}; {} of {} minutes elapsed",
            s.turn.number, s.max_turns, s.elapsed, s.minutes
        )],
    ));
    let turn = turn_text(s);
    let board = super::text_map::board(s, m);
    let units: Vec<serde_json::Value> = s
        .on_map()
        .filter(|u| seen_as_itself(u, m))
        .map(
            |u| json!({"name": u.name, "side": u.side, "hex": s.name_of(u.at), "status": u.status}),
        )
        .collect();
    let markers: Vec<serde_json::Value> = marker_hexes(s, m)
        .into_iter()
        .map(|(h, side)| json!({"hex": s.name_of(h), "side": side}))
        .collect();
    View {
        viewer: viewer.clone(),
        scenario: s.scenario.clone(),
        turn: turn.clone(),
        log,
        board,
        sections,
        data: json!({"turn": s.turn.number, "units": units, "concealment": markers}),
        map: Some(scene(s, viewer, &turn)),
    }
}

fn at(s: &LhyState, h: crate::board::hex::Hex) -> At {
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

fn scene(s: &LhyState, viewer: &Viewer, turn: &str) -> Scene {
    let m = me(viewer);
    let g = s.map.grid();
    let styles_all = &s.data.map;
    let mut used: Vec<String> = Vec::new();
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
    if let Some(gr) = &styles_all.ground {
        used.push(gr.clone());
    }
    let mut units = Vec::new();
    for u in s.on_map().filter(|u| seen_as_itself(u, m)) {
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
            .filter(|mk| mk.kind != super::state::FireKind::Mortar && mk.targets.contains(&u.name))
        {
            markers.push(Marker::status(
                format!("{} {}", mk.kind.marker(), signed(mk.drm)),
                Tone::Warning,
            ));
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
        units.push(Counter {
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
        });
    }
    for (h, side) in marker_hexes(s, m) {
        let mut markers = vec![Marker::status("concealed", Tone::Hidden)];
        for mk in s.markers.iter().filter(|mk| {
            mk.kind != super::state::FireKind::Mortar && mk.hex == h && mk.side != side
        }) {
            markers.push(Marker::status(
                format!("{} {}", mk.kind.marker(), signed(mk.drm)),
                Tone::Warning,
            ));
        }
        units.push(Counter {
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
        });
    }
    let mut zones = Vec::new();
    // The seat's own sight: hexes none of its units sees are shaded (spectators: none).
    if let Some(side) = m
        && styles_all.get("unseen").is_some()
    {
        for h in super::sight::unseen_by(s, side) {
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
    for mk in s
        .markers
        .iter()
        .filter(|mk| mk.kind == super::state::FireKind::Mortar)
    {
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
    scene.legend = legend;
    scene
}
