//! What one seat (or a spectator) may see: its own units in full, enemy units it sees as they
//! are, one Concealment marker per enemy hex it knows of (dummies look the same, hidden units
//! not at all), the DRM markers as placed, the log lines meant for it, its own standing
//! reactions and queued activations, and the hex map drawn from the same facts. Nothing else
//! of the state reaches a `View`.

use serde_json::json;

use crate::engine::{View, Viewer};
use crate::rulesets::kit::roster::TwoSides;

mod map;
use map::scene;

use super::fire::signed;
use super::orders::print_order;
use super::sight::{marker_hexes, shows_itself_to};
use super::state::{LhyState, Motion, Order, Phase, Place, Side, Status, Unit};

fn me(viewer: &Viewer) -> Option<&str> {
    match viewer {
        Viewer::Seat(s) => Some(s.as_str()),
        Viewer::Spectator => None,
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

/// What `viewer` may see: its log lines, each side's section (its own force, or what it
/// sees of the enemy's), the DRM and Smoke markers, objectives, time, then the board, the
/// data and the map.
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
        side_sections(s, side, m, &mut sections);
    }
    if !s.markers.is_empty() {
        sections.push((
            "DRM markers (resolved in Phase III)".into(),
            drm_marker_lines(s, m),
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
        sections.push(("Objectives".into(), objective_lines(s)));
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
        .filter(|u| shows_itself_to(u, m))
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

/// One side's section: the viewer's own force in full with its pools, and then its standing
/// reactions; an enemy's units it sees and its Concealment markers.
fn side_sections(
    s: &LhyState,
    side: &Side,
    m: Option<&str>,
    sections: &mut Vec<(String, Vec<String>)>,
) {
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
        .filter(|u| u.side == side.id && (own || shows_itself_to(u, m)))
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
        sections.push((
            "Your standing reactions (hidden from the enemy)".into(),
            standing_lines(side),
        ));
    }
}

/// A side's standing reactions, its reactions setting, and its queued activations.
fn standing_lines(side: &Side) -> Vec<String> {
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
    st
}

/// The DRM markers as placed, each with who placed it for that side's own eyes.
fn drm_marker_lines(s: &LhyState, m: Option<&str>) -> Vec<String> {
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
        .collect()
}

/// Each objective with its hex, points and holder.
fn objective_lines(s: &LhyState) -> Vec<String> {
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
        .collect()
}
