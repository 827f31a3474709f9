//! What one viewer may see: the filtered log, a text board, fleet and minefield sections, and
//! viewer-safe JSON. The only path from the state to a seat; it must never reveal a hidden
//! minefield's nature or a sealed fire plan to anyone but its owner.

mod map;

use std::collections::BTreeMap;

use serde_json::json;

use crate::engine::{View, Viewer};

use super::orders::{num, print_order};
use super::state::{Critical, Fate, Minefield, NavalState, Order, Phase, Ship, StandingFire};
use super::{movement, stats};

const COLS: usize = 72;
const ROWS: usize = 24;

fn r1(v: f64) -> String {
    num((v * 10.0).round() / 10.0)
}

/// May `viewer` know whether this field is genuine?
fn nature_known(m: &Minefield, viewer: &Viewer) -> bool {
    match viewer {
        Viewer::Seat(s) => m.owner == *s || m.laid_in_play || m.revealed,
        Viewer::Spectator => false,
    }
}

fn field_nature(m: &Minefield, viewer: &Viewer) -> &'static str {
    if nature_known(m, viewer) {
        if m.genuine { "genuine" } else { "dummy" }
    } else {
        "unknown"
    }
}

fn fate_word(s: &Ship) -> &'static str {
    match s.fate {
        Fate::Afloat => "afloat",
        Fate::Sunk => "sunk",
        Fate::Struck => "struck",
        Fate::Escaped => "escaped",
    }
}

/// One glyph per ship: the first free letter of her name (upper case for the first seat, lower
/// case for the other), else a digit.
fn glyphs(state: &NavalState) -> BTreeMap<String, char> {
    let mut used = std::collections::BTreeSet::new();
    let mut out = BTreeMap::new();
    let first = state.seat_order.first().cloned().unwrap_or_default();
    for s in &state.ships {
        let upper = s.side == first;
        let cands = s
            .name
            .chars()
            .filter(|c| c.is_ascii_alphabetic())
            .chain("0123456789".chars());
        for c in cands {
            let g = if upper {
                c.to_ascii_uppercase()
            } else {
                c.to_ascii_lowercase()
            };
            if used.insert(g) {
                out.insert(s.name.clone(), g);
                break;
            }
        }
    }
    out
}

fn board(state: &NavalState, viewer: &Viewer) -> Vec<String> {
    let mut grid = vec![vec!['.'; COLS]; ROWS];
    let cell = |x: f64, y: f64| -> Option<(usize, usize)> {
        if state.width <= 0.0 || state.height <= 0.0 {
            return None;
        }
        let c = (x / state.width * COLS as f64).floor();
        let r = ((state.height - y) / state.height * ROWS as f64).floor();
        if c < 0.0 || r < 0.0 {
            return None;
        }
        let (c, r) = ((c as usize).min(COLS - 1), (r as usize).min(ROWS - 1));
        Some((r, c))
    };
    for m in &state.minefields {
        let rect = movement::field_rect(state, m);
        let mark = match field_nature(m, viewer) {
            "dummy" => ':',
            _ => '#',
        };
        let corners = rect.corners();
        for k in 0..=20 {
            for j in 0..=4 {
                let (a, b) = (k as f64 / 20.0, j as f64 / 4.0);
                let top = lerp(corners[0], corners[3], a);
                let bot = lerp(corners[1], corners[2], a);
                let p = lerp(top, bot, b);
                if let Some((r, c)) = cell(p.x, p.y) {
                    grid[r][c] = mark;
                }
            }
        }
    }
    let g = glyphs(state);
    for s in state.ships.iter().filter(|s| s.fate != Fate::Escaped) {
        let ch = if s.fate == Fate::Sunk {
            '+'
        } else {
            g.get(&s.name).copied().unwrap_or('?')
        };
        for p in [s.hull.stern(), s.hull.bow()] {
            if let Some((r, c)) = cell(p.x, p.y)
                && grid[r][c] == '.'
            {
                grid[r][c] = if s.fate == Fate::Sunk { '+' } else { '-' };
            }
        }
        if let Some((r, c)) = cell(s.hull.centre.x, s.hull.centre.y) {
            grid[r][c] = ch;
        }
    }
    let mut out = vec![format!("+{}+", "-".repeat(COLS))];
    out.extend(
        grid.into_iter()
            .map(|row| format!("|{}|", row.into_iter().collect::<String>())),
    );
    out.push(format!("+{}+", "-".repeat(COLS)));
    // The legend names dummies only when this viewer knows one, so it cannot hint at anything.
    let dummy_known = state
        .minefields
        .iter()
        .any(|m| field_nature(m, viewer) == "dummy");
    out.push(format!(
        "Table {}\" x {}\" (north up). # minefield,{} + wreck, - hull.",
        num(state.width),
        num(state.height),
        if dummy_known {
            " : your dummy field,"
        } else {
            ""
        }
    ));
    let key: Vec<String> = state
        .ships
        .iter()
        .filter(|s| s.fate != Fate::Escaped)
        .filter_map(|s| g.get(&s.name).map(|c| format!("{c}={}", s.name)))
        .collect();
    for chunk in key.chunks(6) {
        out.push(chunk.join("  "));
    }
    out
}

fn lerp(
    a: crate::board::tabletop::Pt,
    b: crate::board::tabletop::Pt,
    t: f64,
) -> crate::board::tabletop::Pt {
    crate::board::tabletop::Pt::new(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t)
}

fn line_of(state: &NavalState, name: &str) -> Option<String> {
    let g = state
        .groups
        .iter()
        .find(|g| g.ships.iter().any(|s| s == name))?;
    let pos = g.ships.iter().position(|s| s == name)?;
    let kind = if g.flotilla {
        "flotilla".to_string()
    } else {
        format!(
            "line {}",
            match g.formation {
                super::data::Formation::Astern => "astern",
                super::data::Formation::Abreast => "abreast",
            }
        )
    };
    Some(if pos == 0 {
        format!("leads {} ({kind})", g.name)
    } else {
        format!(
            "{} in {} ({kind}), following {}",
            ordinal(pos + 1),
            g.name,
            g.ships[pos - 1]
        )
    })
}

fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, x) if x != 11 => "st",
        (2, x) if x != 12 => "nd",
        (3, x) if x != 13 => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

fn ship_line(state: &NavalState, s: &Ship) -> String {
    let mut t = format!(
        "{} ({}) at {},{} heading {}",
        s.name,
        s.class.abbr(),
        r1(s.hull.centre.x),
        r1(s.hull.centre.y),
        r1(s.hull.heading)
    );
    if stats::is_flagship(state, s) {
        t.push_str(", flagship");
    } else if stats::fleet(state, &s.side)
        .is_some_and(|f| f.second.as_deref() == Some(s.name.as_str()))
    {
        t.push_str(", second-in-command");
    }
    if s.fate != Fate::Afloat {
        t.push_str(&format!(" — {}", fate_word(s)));
        if let Some(c) = &s.captured_by {
            t.push_str(&format!(", taken by {c}"));
        }
        return t;
    }
    t.push_str(&format!(
        "; speed {}\", CF {}",
        num(stats::max_speed(state, s)),
        stats::main_cf(state, s)
    ));
    if let Some(cf) = stats::secondary_cf(state, s) {
        t.push_str(&format!(" (secondary {cf})"));
    }
    if s.hit_markers > 0 {
        t.push_str(&format!("; {} hit marker(s)", s.hit_markers));
    }
    if s.critical_marker {
        t.push_str(", dead in the water");
    }
    if !s.criticals.is_empty() {
        let c: Vec<&str> = s
            .criticals
            .iter()
            .map(|c| match c {
                Critical::Movement => "Movement",
                Critical::Gunnery => "Gunnery",
                Critical::Control => "Control",
                Critical::Magazine => "Magazine",
            })
            .collect();
        t.push_str(&format!("; criticals: {}", c.join(", ")));
    }
    if s.mine_crippled {
        t.push_str("; crippled by mines");
    }
    if s.smoke {
        t.push_str("; laying smoke");
    }
    if s.halted {
        t.push_str("; halted");
    }
    if s.anchored {
        t.push_str("; at anchor");
    }
    if let Some(r) = &s.rescue {
        match r.turns_left {
            Some(k) => t.push_str(&format!(
                "; rescuing survivors of {} ({k} turn(s) left)",
                r.wreck
            )),
            None => t.push_str(&format!("; steering to rescue survivors of {}", r.wreck)),
        }
    }
    if let Some(p) = &s.capturing {
        t.push_str(&format!("; sent to take {p}"));
    }
    if let Some(l) = line_of(state, &s.name) {
        t.push_str(&format!("; {l}"));
    }
    t
}

fn field_line(state: &NavalState, m: &Minefield, viewer: &Viewer) -> String {
    let owner = stats::fleet(state, &m.owner).map_or(m.owner.as_str(), |f| f.name.as_str());
    let pos = format!(
        "at {},{} heading {}",
        r1(m.centre.x),
        r1(m.centre.y),
        r1(m.heading)
    );
    if !nature_known(m, viewer) {
        return format!("field {} ({owner}) {pos}, nature unknown", m.id);
    }
    let how = if m.laid_in_play { ", laid in play" } else { "" };
    format!(
        "field {} ({owner}) {pos}: {}{how}",
        m.id,
        if m.genuine { "genuine" } else { "dummy" }
    )
}

fn turn_title(state: &NavalState) -> String {
    let active =
        stats::fleet(state, &state.active).map_or(state.active.clone(), |f| f.name.clone());
    match state.phase {
        Phase::Setup => "Set-up".to_string(),
        Phase::Manoeuvre => format!("Turn {} ({active} active): manoeuvre", state.turn),
        Phase::Fire => format!("Turn {} ({active} active): gunnery", state.turn),
        Phase::GameOver => format!("Game over after turn {}", state.turn),
    }
}

/// What `viewer` may see now.
pub fn view(state: &NavalState, viewer: &Viewer) -> View {
    let log = state
        .log
        .iter()
        .filter(|l| l.visible_to(viewer))
        .map(|l| l.text.clone())
        .collect();
    let me = match viewer {
        Viewer::Seat(s) => Some(s.clone()),
        Viewer::Spectator => None,
    };
    let mut sections = fleet_sections(state, me.as_deref());
    sections.push(minefield_section(state, viewer));
    sections.push(("Command".to_string(), command_lines(state, me.as_deref())));
    View {
        viewer: viewer.clone(),
        scenario: format!("{}, {}", state.scenario_name, state.scenario_date),
        turn: turn_title(state),
        log,
        board: board(state, viewer),
        sections,
        data: view_data(state, viewer),
        map: Some(map::scene(state, viewer)),
    }
}

/// One section a fleet, its ships one a line: "Your fleet" first for a seat, then "Enemy
/// fleet"; a spectator sees the fleets by name in seat order.
fn fleet_sections(state: &NavalState, me: Option<&str>) -> Vec<(String, Vec<String>)> {
    let mut sections = Vec::new();
    let sides: Vec<String> = state.seat_order.clone();
    for side in &sides {
        let title = match me {
            Some(m) if m == side.as_str() => "Your fleet".to_string(),
            Some(_) => "Enemy fleet".to_string(),
            None => stats::fleet(state, side).map_or(side.clone(), |f| f.name.clone()),
        };
        let lines: Vec<String> = state
            .ships
            .iter()
            .filter(|s| s.side == *side)
            .map(|s| ship_line(state, s))
            .collect();
        sections.push((title, lines));
    }
    if me.is_some() {
        // Own fleet first.
        sections.sort_by_key(|(t, _)| t != "Your fleet");
    }
    sections
}

/// The minefields as `viewer` may know them, or "none".
fn minefield_section(state: &NavalState, viewer: &Viewer) -> (String, Vec<String>) {
    let fields: Vec<String> = state
        .minefields
        .iter()
        .map(|m| field_line(state, m, viewer))
        .collect();
    (
        "Minefields".to_string(),
        if fields.is_empty() {
            vec!["none".to_string()]
        } else {
            fields
        },
    )
}

/// The command section: the active side's CP, each fleet's nominations and general orders,
/// and for the viewer's own fleet its standing fire, rescues owed and sealed fire plan.
fn command_lines(state: &NavalState, me: Option<&str>) -> Vec<String> {
    let mut command = Vec::new();
    if state.phase == Phase::Manoeuvre || state.phase == Phase::Fire {
        let an =
            stats::fleet(state, &state.active).map_or(state.active.clone(), |f| f.name.clone());
        command.push(format!(
            "{an} is active: {} CP rolled, {} left.",
            state.cp_rolled, state.cp_left
        ));
    }
    for f in &state.fleets {
        let mut t = format!(
            "{}: flagship {}, second {}",
            f.name,
            f.flagship.as_deref().unwrap_or("none"),
            f.second.as_deref().unwrap_or("none")
        );
        if f.flagship_lost {
            t.push_str(", original flagship lost (−1 CP)");
        }
        if f.withdrawal {
            t.push_str(", in General Withdrawal");
        }
        if f.chase {
            t.push_str(", in General Chase");
        }
        if me == Some(f.side.as_str()) {
            t.push_str(match f.standing_fire {
                None => "; standing fire orders: off",
                Some(StandingFire::Nearest) => "; standing fire orders: NEAREST",
                Some(StandingFire::Flagship) => "; standing fire orders: FLAGSHIP",
            });
            if !f.rescue_owed.is_empty() {
                t.push_str(&format!(
                    "; survivors to rescue: {}",
                    f.rescue_owed.join(", ")
                ));
            }
        }
        command.push(t);
    }
    if let (Some(m), Some(plan)) = (me, &state.pending_fire)
        && m == state.active
    {
        command.push("Your sealed fire plan:".to_string());
        for f in plan {
            command.push(format!("  {}", print_order(&Order::Fire(f.clone()))));
        }
    }
    command
}

/// The viewer-safe JSON of the view: table, turn, ships, minefields (their nature only as
/// `field_nature` tells this viewer), outcome.
fn view_data(state: &NavalState, viewer: &Viewer) -> serde_json::Value {
    let ships: Vec<serde_json::Value> = state
        .ships
        .iter()
        .map(|s| {
            json!({
                "name": s.name, "side": s.side, "class": s.class.abbr(),
                "x": s.hull.centre.x, "y": s.hull.centre.y, "heading": s.hull.heading,
                "length": s.hull.length, "fate": fate_word(s), "hit_markers": s.hit_markers,
                "dead_in_water": s.critical_marker,
                "criticals": s.criticals.iter().map(|c| format!("{c:?}")).collect::<Vec<_>>(),
                "smoke": s.smoke, "flagship": stats::is_flagship(state, s),
                "path": s.path.iter().map(|p| [p.x, p.y]).collect::<Vec<_>>(),
            })
        })
        .collect();
    let fields: Vec<serde_json::Value> = state
        .minefields
        .iter()
        .map(|m| {
            json!({
                "id": m.id, "owner": m.owner, "x": m.centre.x, "y": m.centre.y,
                "heading": m.heading, "nature": field_nature(m, viewer),
                "length": state.data.rules.minefield_length.get(), "width": state.data.rules.minefield_width.get(),
            })
        })
        .collect();
    json!({
        "ruleset": "naval-rjw",
        "width": state.width, "height": state.height,
        "turn": state.turn, "max_turns": state.max_turns,
        "phase": match state.phase { Phase::Setup => "setup", Phase::Manoeuvre => "manoeuvre", Phase::Fire => "fire", Phase::GameOver => "game_over" },
        "active": state.active, "cp_rolled": state.cp_rolled, "cp_left": state.cp_left,
        "ships": ships, "minefields": fields,
        "outcome": state.outcome.as_ref().map(|o| json!({"winners": o.winners, "summary": o.summary})),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::tabletop::Pt;
    use crate::rulesets::naval_rjw::state::FireOrder;
    use crate::rulesets::naval_rjw::stats::test_support::{ship, two_sides};

    fn everything(v: &View) -> String {
        format!("{:?}{:?}{:?}{}", v.sections, v.log, v.board, v.data)
    }

    #[test]
    fn opponent_never_sees_hidden_fields_or_sealed_plan() {
        let mut st = two_sides(
            &[
                ship("Mikasa", "BB", 10.0, 10.0, 90.0),
                ship("Asahi", "BB", 10.0, 14.0, 90.0),
            ]
            .concat(),
            &[
                ship("Tsesarevich", "BB", 30.0, 10.0, 270.0),
                ship("Retvizan", "BB", 30.0, 14.0, 270.0),
            ]
            .concat(),
            "",
        );
        st.phase = Phase::Fire;
        st.active = "japan".into();
        for (id, genuine) in [("M1", true), ("M2", false)] {
            st.minefields.push(Minefield {
                id: id.into(),
                owner: "russia".into(),
                centre: Pt::new(20.0, 20.0),
                heading: 0.0,
                genuine,
                laid_in_play: false,
                revealed: false,
            });
        }
        st.pending_fire = Some(vec![FireOrder {
            ship: "Mikasa".into(),
            secondary: false,
            targets: vec!["Tsesarevich".into()],
            support: vec!["Asahi".into()],
        }]);
        st.log.push(crate::engine::LogLine::private(
            "russia",
            "Your minefields: M1 genuine, M2 dummy.",
        ));
        let rv = view(&st, &Viewer::Seat("russia".into()));
        let text = everything(&rv);
        assert!(
            text.contains("M1 genuine")
                && text.contains("field M2 (Russia) at 20,20 heading 0: dummy")
        );
        assert!(
            !text.contains("FIRE Mikasa"),
            "the sealed plan leaked to Russia"
        );
        let jv = view(&st, &Viewer::Seat("japan".into()));
        let text = everything(&jv);
        assert!(
            !text.contains("genuine") && !text.contains("dummy"),
            "{text}"
        );
        assert!(text.contains("field M1 (Russia) at 20,20 heading 0, nature unknown"));
        assert!(text.contains("FIRE Mikasa AT Tsesarevich SUPPORT Asahi"));
        let sv = view(&st, &Viewer::Spectator);
        let text = everything(&sv);
        assert!(
            !text.contains("genuine") && !text.contains("dummy") && !text.contains("FIRE Mikasa")
        );
        // Once a genuine field has attacked, both sides know it.
        st.minefields[0].revealed = true;
        let jv = view(&st, &Viewer::Seat("japan".into()));
        assert!(everything(&jv).contains("field M1 (Russia) at 20,20 heading 0: genuine"));
        assert_eq!(jv.board.len(), 24 + 2 + 2);
    }
}
