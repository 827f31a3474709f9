//! The drawn map of one viewer (`Scene`): the sea in the styles of `[map]` in the ruleset's
//! data, every ship afloat or wrecked, smoke and minefields as zones, and the viewer's own
//! sealed fire plan as arrows. Built only from what the text view also shows that viewer.

use std::sync::OnceLock;

use crate::engine::Viewer;
use crate::engine::scene::{
    Arrow, ArrowKind, At, Condition, FieldKnown, LegendEntry, MapStyles, Marker, Measure, Scene,
    Shape, SideInfo, Surface, Symbol, Unit, UnitKind, Zone, ZoneKind,
};
use crate::rulesets::kit::roster::TwoSides;

use super::super::state::{Fate, NavalState, Ship};
use super::super::{movement, stats};
use super::{field_nature, turn_title};

/// The `[map]` style of open water, where the data names no ground.
const GROUND: &str = "sea";

/// The game's own `[map]`, else the shipped file's: a game begun before maps were data has
/// none in its state, and is drawn as a new one would be.
fn styles(state: &NavalState) -> &MapStyles {
    static SHIPPED: OnceLock<MapStyles> = OnceLock::new();
    state.data.map.as_ref().unwrap_or_else(|| {
        SHIPPED.get_or_init(|| {
            MapStyles::from_ruleset_toml(include_str!("../../../../games/naval-rjw/ruleset.toml"))
                .ok()
                .flatten()
                .unwrap_or_default()
        })
    })
}

/// The map as `viewer` may see it. Built only from what the text view also shows: positions,
/// fates and markers are open; a minefield's nature only where `nature_known`; the sealed fire
/// plan only for its own side.
pub(super) fn scene(state: &NavalState, viewer: &Viewer) -> Scene {
    let me = match viewer {
        Viewer::Seat(s) => Some(s.as_str()),
        Viewer::Spectator => None,
    };
    let sides = side_infos(state, me);
    let (units, mut zones) = ships(state);
    zones.extend(minefields(state, viewer));
    // Minefields lie under the smoke.
    zones.sort_by_key(|z| matches!(z.kind, ZoneKind::Smoke));
    let arrows = fire_plan(state, me);
    let legend = legend(&sides, &units, &zones, !arrows.is_empty());
    let data = styles(state);
    let ground = data.ground.clone().unwrap_or_else(|| GROUND.into());
    Scene {
        title: state.scenario_name.clone(),
        turn: turn_title(state),
        time: state.scenario_date.clone(),
        viewer: match me {
            Some(m) => {
                let mut c = m.chars();
                let cap: String = c
                    .next()
                    .map(|f| f.to_uppercase().chain(c).collect())
                    .unwrap_or_default();
                format!("As seen by {cap}")
            }
            None => "Spectator's view".into(),
        },
        surface: Surface::Table {
            width: state.width,
            height: state.height,
            unit: Measure::Inch,
        },
        styles: data.pick([ground.as_str()]),
        ground: Some(ground),
        terrain: vec![],
        sides,
        units,
        zones,
        arrows,
        legend,
        compass: true,
        own_side: me.map(str::to_string),
    }
}

/// The fleets in seat order, the viewer's own marked "(you)".
fn side_infos(state: &NavalState, me: Option<&str>) -> Vec<SideInfo> {
    let fleet_name = |side: &str| state.side_name(side);
    state
        .seat_order
        .iter()
        .map(|side| SideInfo {
            id: side.clone(),
            name: if me == Some(side.as_str()) {
                format!("{} (you)", fleet_name(side))
            } else {
                fleet_name(side)
            },
        })
        .collect()
}

/// Every ship still on the table, afloat, struck or sunk, with her markers and her course this
/// turn; and the smoke each ship laying it makes.
fn ships(state: &NavalState) -> (Vec<Unit>, Vec<Zone>) {
    let mut units = Vec::new();
    let mut zones = Vec::new();
    for s in state.ships.iter().filter(|s| s.fate != Fate::Escaped) {
        let condition = match s.fate {
            Fate::Sunk => Condition::Wreck,
            Fate::Struck => Condition::Struck,
            _ => Condition::Active,
        };
        let markers = if condition == Condition::Active {
            markers(state, s)
        } else {
            Vec::new()
        };
        if condition == Condition::Active && s.smoke {
            zones.push(Zone {
                kind: ZoneKind::Smoke,
                shape: Shape::Circle {
                    centre: At::new(s.hull.centre.x, s.hull.centre.y),
                    radius: s.hull.length.max(1.0),
                },
                label: None,
                side: Some(s.side.clone()),
            });
        }
        units.push(Unit {
            label: s.name.clone(),
            side: s.side.clone(),
            kind: UnitKind::Ship {
                class: s.class.abbr().into(),
                length: s.hull.length,
            },
            at: At::new(s.hull.centre.x, s.hull.centre.y),
            facing: Some(s.hull.heading),
            condition,
            markers,
            track: if condition == Condition::Active && s.path.len() > 1 {
                s.path.iter().map(|p| At::new(p.x, p.y)).collect()
            } else {
                vec![]
            },
        });
    }
    (units, zones)
}

/// The markers of a ship afloat: flagship or second, hits, dead in the water, criticals,
/// smoke, halted or at anchor.
fn markers(state: &NavalState, s: &Ship) -> Vec<Marker> {
    let mut markers = Vec::new();
    if stats::is_flagship(state, s) {
        markers.push(Marker::Flagship);
    } else if stats::fleet(state, &s.side)
        .is_some_and(|f| f.second.as_deref() == Some(s.name.as_str()))
    {
        markers.push(Marker::SecondInCommand);
    }
    if s.hit_markers > 0 {
        markers.push(Marker::Hits(s.hit_markers));
    }
    if s.critical_marker {
        markers.push(Marker::DeadInWater);
    }
    markers.extend(
        s.criticals
            .iter()
            .map(|c| Marker::Critical(format!("{c:?}"))),
    );
    if s.smoke {
        markers.push(Marker::LayingSmoke);
    }
    if s.halted {
        markers.push(Marker::Note("halted".into()));
    } else if s.anchored {
        markers.push(Marker::Note("at anchor".into()));
    }
    markers
}

/// Every minefield, its nature as this viewer knows it.
fn minefields(state: &NavalState, viewer: &Viewer) -> Vec<Zone> {
    state
        .minefields
        .iter()
        .map(|m| {
            let r = movement::field_rect(state, m);
            let known = match field_nature(m, viewer) {
                "genuine" => FieldKnown::Genuine,
                "dummy" => FieldKnown::Dummy,
                _ => FieldKnown::Unknown,
            };
            Zone {
                kind: ZoneKind::Minefield { known },
                shape: Shape::Rect {
                    centre: At::new(r.centre.x, r.centre.y),
                    heading: r.heading,
                    length: r.length,
                    width: r.width,
                },
                label: Some(m.id.clone()),
                side: Some(m.owner.clone()),
            }
        })
        .collect()
}

/// The viewer's own sealed fire plan, as arrows from each firer to her first target; none for
/// the other side or a spectator.
fn fire_plan(state: &NavalState, me: Option<&str>) -> Vec<Arrow> {
    let mut arrows = Vec::new();
    if let (Some(m), Some(plan)) = (me, &state.pending_fire)
        && m == state.active
    {
        let at = |name: &str| {
            state
                .ships
                .iter()
                .find(|s| s.name == name)
                .map(|s| At::new(s.hull.centre.x, s.hull.centre.y))
        };
        for f in plan {
            if let (Some(from), Some(to)) = (at(&f.ship), f.targets.first().and_then(|t| at(t))) {
                arrows.push(Arrow {
                    kind: ArrowKind::Fire,
                    side: m.to_string(),
                    from,
                    to,
                });
            }
        }
    }
    arrows
}

/// Legend entries for what this picture shows, and nothing else (so it hints at nothing).
fn legend(sides: &[SideInfo], units: &[Unit], zones: &[Zone], fire: bool) -> Vec<LegendEntry> {
    let entry = |symbol: Symbol, text: &str| LegendEntry {
        symbol,
        text: text.to_string(),
    };
    let mut out: Vec<LegendEntry> = sides
        .iter()
        .map(|s| entry(Symbol::Side(s.id.clone()), &s.name))
        .collect();
    let any = |p: &dyn Fn(&Marker) -> bool| units.iter().any(|u| u.markers.iter().any(p));
    if any(&|m| matches!(m, Marker::Flagship | Marker::SecondInCommand)) {
        out.push(entry(Symbol::Flagship, "flagship (☆ second-in-command)"));
    }
    if any(&|m| matches!(m, Marker::Hits(_))) {
        out.push(entry(Symbol::Hits, "hit markers"));
    }
    let mut crits: Vec<String> = units
        .iter()
        .flat_map(|u| &u.markers)
        .filter_map(|m| match m {
            Marker::Critical(c) => Some(c.clone()),
            _ => None,
        })
        .collect();
    crits.sort();
    crits.dedup();
    if !crits.is_empty() {
        let words: Vec<String> = crits
            .iter()
            .map(|c| format!("{} {}", &c[..1], c.to_lowercase()))
            .collect();
        out.push(entry(
            Symbol::Critical,
            &format!("criticals ({})", words.join(", ")),
        ));
    }
    if any(&|m| *m == Marker::DeadInWater) {
        out.push(entry(Symbol::DeadInWater, "dead in the water"));
    }
    if units.iter().any(|u| u.condition == Condition::Wreck) {
        out.push(entry(Symbol::Wreck, "sunk"));
    }
    if units.iter().any(|u| u.condition == Condition::Struck) {
        out.push(entry(Symbol::Struck, "struck her colours"));
    }
    if units.iter().any(|u| !u.track.is_empty()) {
        out.push(entry(Symbol::Track, "course this turn"));
    }
    if zones.iter().any(|z| z.kind == ZoneKind::Smoke) {
        out.push(entry(Symbol::Smoke, "smoke"));
    }
    for (known, text) in [
        (FieldKnown::Genuine, "genuine minefield"),
        (FieldKnown::Dummy, "dummy minefield"),
        (FieldKnown::Unknown, "minefield, nature unknown"),
    ] {
        if zones
            .iter()
            .any(|z| z.kind == ZoneKind::Minefield { known })
        {
            out.push(entry(Symbol::Minefield(known), text));
        }
    }
    if fire {
        out.push(entry(Symbol::Fire, "your sealed fire plan"));
    }
    out
}
