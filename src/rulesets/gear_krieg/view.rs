//! What one viewer may see: the filtered log, a text map, unit sections, the drawn map (`Scene`)
//! and viewer-safe JSON. The only path from the state to a seat; it must never show a side's
//! overwatch orders, CP requests, queued activations or standing settings to anyone but that
//! side.

mod map;

use serde_json::json;

use crate::board::tabletop::Pt;
use crate::board::terrain::Area;
use crate::engine::{View, Viewer};
use crate::rulesets::kit::roster::TwoSides;

use super::data::{MoveMode, TerrainKind};
use super::ground;
use super::orders::{num, print_order};
use super::state::{GkState, Order, Phase, Side, Unit};
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

/// Does a linear feature (a road: a band far narrower than a cell) cross the cell with these
/// corners? Sampling the cell's centre would miss it, so its edges and inside are tested.
fn crosses(area: &Area, lo: Pt, hi: Pt) -> bool {
    let Area::Band { points, .. } = area else {
        return false;
    };
    // A hair inside the cell: a band that only touches its border does not cross it.
    let (lo, hi) = (
        Pt::new(lo.x + 0.01, lo.y + 0.01),
        Pt::new(hi.x - 0.01, hi.y - 0.01),
    );
    let corners = [lo, Pt::new(hi.x, lo.y), hi, Pt::new(lo.x, hi.y)];
    let inside = |p: &Pt| p.x >= lo.x && p.x <= hi.x && p.y >= lo.y && p.y <= hi.y;
    points.iter().any(inside)
        || (0..4).any(|i| area.segment_intersects(corners[i], corners[(i + 1) % 4]))
}

/// The glyph of one 2 cm cell: the last listed area that crosses it (a linear feature) or
/// holds its centre (any other area), else clear ground.
fn cell(state: &GkState, col: usize, row: usize) -> char {
    let lo = Pt::new(col as f64 * 2.0, state.height - (row as f64 + 1.0) * 2.0);
    let hi = Pt::new(lo.x + 2.0, lo.y + 2.0);
    let centre = Pt::new(lo.x + 1.0, lo.y + 1.0);
    state
        .terrain
        .iter()
        .rev()
        .find(|a| match a.area {
            Area::Band { .. } => crosses(&a.area, lo, hi),
            _ => a.area.contains(centre),
        })
        .map_or(glyph(TerrainKind::Clear), |a| glyph(a.kind))
}

/// One character per 2 cm across and 2 cm up; units by the last digit of their list number.
fn board(state: &GkState) -> Vec<String> {
    let cols = (state.width / 2.0).ceil().max(1.0) as usize;
    let rows = (state.height / 2.0).ceil().max(1.0) as usize;
    let mut grid: Vec<Vec<char>> = (0..rows)
        .map(|r| (0..cols).map(|c| cell(state, c, r)).collect())
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

fn unit_line(state: &GkState, i: usize, u: &Unit, concealed: bool, me: Option<&str>) -> String {
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
        ", {}, {}",
        movement(state, u, me),
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

/// The unit's movement as `me` may know it. A unit paused mid-move (an interrupt question) has
/// its whole planned distance recorded for its defence (R23), but the enemy has only seen it
/// cover the distance so far: the plan stays with its owner.
fn movement(state: &GkState, u: &Unit, me: Option<&str>) -> String {
    match &state.paused {
        Some(p) if p.block.unit == u.name && me == Some(u.side.as_str()) => format!(
            "moving, {} of {} cm planned so far",
            r1(p.progress.distance),
            r1(p.progress.planned)
        ),
        Some(p) if p.block.unit == u.name => {
            format!("moving, {} cm so far", r1(p.progress.distance))
        }
        _ => format!("last move {} cm", r1(u.last_move)),
    }
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
        sections.push(force_section(state, side, &concealed, me));
        if Some(side.id.as_str()) == me {
            sections.push((
                "Your standing orders (hidden from the enemy)".into(),
                standing_orders(state, side),
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
    let turn = turn_title(state);
    View {
        viewer: viewer.clone(),
        scenario: state.scenario_name.clone(),
        turn: turn.clone(),
        log,
        board: board(state),
        sections,
        data: view_data(state),
        map: Some(map::scene(state, viewer, &turn, &concealed)),
    }
}

/// One side's force, a unit a line, with its CP in the title ("Your force" for the viewer's).
fn force_section(
    state: &GkState,
    side: &Side,
    concealed: &[String],
    me: Option<&str>,
) -> (String, Vec<String>) {
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
        .map(|(i, u)| unit_line(state, i, u, concealed.contains(&u.name), me))
        .collect();
    (title, lines)
}

/// The viewer's own standing orders, hidden from the enemy: overwatch, CPs held for defence,
/// the questions the side is asked, and the activations it has queued.
fn standing_orders(state: &GkState, side: &Side) -> Vec<String> {
    let mut standing: Vec<String> = state
        .units
        .iter()
        .filter(|u| u.side == side.id)
        .filter_map(|u| u.overwatch.clone())
        .map(|o| print_order(&Order::Overwatch(o)))
        .collect();
    // A CP held for a unit's next defence roll is as secret as an overwatch order.
    standing.extend(
        state
            .units
            .iter()
            .filter(|u| u.side == side.id && u.alive() && u.cp_defend)
            .map(|u| print_order(&Order::CpDefend(u.name.clone()))),
    );
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
    standing
}

/// Where the round stands, as the view's and the map's title say it.
fn turn_title(state: &GkState) -> String {
    match &state.phase {
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
    }
}

/// The view's JSON: the map's size, the round, every unit, the terrain and objectives.
fn view_data(state: &GkState) -> serde_json::Value {
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
    json!({
        "width": state.width, "height": state.height, "night": state.night,
        "round": state.round, "units": units, "terrain": terrain,
        "objectives": state.objectives,
    })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Ruleset;
    use crate::rulesets::gear_krieg::GearKrieg;

    fn crossroads() -> GkState {
        GearKrieg::setup(
            include_str!("../../../games/gear-krieg/ruleset.toml"),
            include_str!("../../../games/gear-krieg/scenarios/crossroads.toml"),
            &["us".to_string(), "germany".to_string()],
        )
        .unwrap()
    }

    /// Play-test finding (issue 10): the 2 cm grid sampled cell centres and missed every 1 cm
    /// road. The valley road runs along y = 18 (rows 8 and 9 share that edge) and the hill
    /// track along x = 24 (columns 11 and 12): each cell they cross shows `=`.
    #[test]
    fn the_text_map_shows_roads() {
        let st = crossroads();
        let b = board(&st);
        let rows: Vec<Vec<char>> = b[1..].iter().map(|r| r.chars().collect()).collect();
        assert_eq!((rows.len(), rows[0].len()), (18, 24));
        let unit = |c: char| c.is_ascii_digit();
        for (r, row) in rows.iter().enumerate() {
            for c in [11, 12] {
                assert_eq!(row[c], '=', "hill track at row {r} column {c}: {:?}", b);
            }
        }
        for r in [8, 9] {
            for (c, ch) in rows[r].iter().enumerate() {
                assert!(*ch == '=' || unit(*ch), "valley road at row {r} column {c}");
            }
        }
        // Cells beside a road (not crossed by it) keep their own ground.
        assert_eq!(rows[0][10], '.');
        assert_eq!(rows[7][0], '.');
        // The areas are still sampled at their centres: the hill and the jungle show.
        assert!(rows.iter().any(|r| r.contains(&'^')) && rows.iter().any(|r| r.contains(&'J')));
    }

    #[test]
    fn a_band_only_touching_a_cell_does_not_cross_it() {
        let band = Area::Band {
            points: vec![Pt::new(0.0, 3.0), Pt::new(10.0, 3.0)],
            width: 2.0,
        };
        // The band covers y 2 to 4: it crosses the cell from y 2 to 4 and touches those beside.
        assert!(crosses(&band, Pt::new(2.0, 2.0), Pt::new(4.0, 4.0)));
        assert!(!crosses(&band, Pt::new(2.0, 4.0), Pt::new(4.0, 6.0)));
        assert!(!crosses(&band, Pt::new(2.0, 0.0), Pt::new(4.0, 2.0)));
        // A short band wholly inside one cell still crosses it.
        let stub = Area::Band {
            points: vec![Pt::new(2.5, 2.5), Pt::new(3.0, 3.0)],
            width: 0.2,
        };
        assert!(crosses(&stub, Pt::new(2.0, 2.0), Pt::new(4.0, 4.0)));
    }
}
