//! What one seat may see: the log lines meant for it, its own units' full cards with their
//! standing orders and hiding places, its side's other units' cards (R22), the enemy as the
//! table shows it, and the map of miniatures. Hidden units appear only to their own seat;
//! standing orders only to their own seat. It never changes the state.

use crate::board::tabletop::Pt;
use crate::engine::{View, Viewer};
use crate::rulesets::kit::grammar::tenths;
use crate::rulesets::kit::roster::TwoSides;

mod map;
use map::scene;

use super::data::Arm;
use super::orders::{Order, Rule, print_order};
use super::state::{Fig, Phase, State, Unit};

fn at(p: Pt) -> String {
    format!("{},{}", tenths(p.x), tenths(p.y))
}

fn roster(u: &Unit) -> String {
    let mut parts = Vec::new();
    for f in [
        Fig::Trooper,
        Fig::Leader,
        Fig::Grenadier,
        Fig::RedCross,
        Fig::Colors,
    ] {
        let n = u.count(f);
        if n > 0 {
            parts.push(format!("{n} {}", f.word()));
        }
    }
    if let Some(h) = u.heavy() {
        parts.push(Fig::Heavy(h).word().to_string());
    }
    parts.join(", ")
}

/// The standing orders of a unit, as its owner wrote them.
pub fn standing_lines(u: &Unit) -> Vec<String> {
    let s = &u.standing;
    let mut rules = Vec::new();
    if let Some(v) = s.target_nearest {
        rules.push(Rule::Target(v));
    }
    if s.stay.is_some() {
        rules.push(Rule::Melee(s.stay));
    }
    if s.prisoners.is_some() {
        rules.push(Rule::Prisoners(s.prisoners));
    }
    if s.ambush.is_some() {
        rules.push(Rule::Ambush(s.ambush));
    }
    if s.extra.is_some() {
        rules.push(Rule::Extra(s.extra));
    }
    if s.advance.is_some() {
        rules.push(Rule::Advance(s.advance));
    }
    rules
        .into_iter()
        .map(|rule| {
            print_order(&Order::Standing {
                unit: u.name.clone(),
                rule,
            })
        })
        .collect()
}

/// What a unit's card says of it: formation, and the state that decides which orders it may
/// take (a wagon halted or under way, a passenger aboard, a zeppelin landed or hovering). All
/// of it stands on the table, so the enemy sees it too (R22).
fn state_words(u: &Unit) -> String {
    let mut w = vec![u.form.word().to_string()];
    let landed = u.machine.as_ref().is_some_and(|m| m.landed);
    match u.arm {
        Arm::Windwagon if u.halted => w.push("halted".into()),
        Arm::Windwagon => w.push("under way".into()),
        Arm::Zeppelin if landed => w.push("landed".into()),
        Arm::Zeppelin if u.halted => w.push("hovering".into()),
        Arm::Zeppelin | Arm::Aeroplane => w.push("flying".into()),
        _ => {}
    }
    if let Some(c) = &u.aboard {
        w.push(format!("aboard {c}"));
    }
    if u.mounted {
        w.push("mounted".into());
    }
    if u.routing {
        w.push("ROUTING".into());
    }
    if u.shaken {
        w.push("shaken (R55)".into());
    }
    if !u.melee.is_empty() {
        w.push(format!("in melee with {}", u.melee.join(", ")));
    }
    if u.river > 0 {
        w.push("in the river".into());
    }
    w.join(", ")
}

/// `1 figure`, `2 figures`: a card reads as English down to its last figure.
fn count(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// The full record card (own seat, and the seat's side-mates: R22).
fn card_line(state: &State, u: &Unit, own: bool) -> String {
    let (hits, of) = state.track_of(u);
    let mut s = format!(
        "{} ({}): {} ({}), hits {hits}/{of}, L{} Z{} E{}, move {}\"{}, range {}\"/{}\", at {} facing {}, {}",
        u.name,
        arm_word(u),
        count(u.figures.len(), "figure"),
        roster(u),
        u.leadership,
        u.zeal,
        u.esprit,
        tenths(u.move_rate),
        u.mounted_move
            .map(|m| format!(" ({}\" mounted)", tenths(m)))
            .unwrap_or_default(),
        tenths(u.short),
        tenths(u.long),
        at(u.pos),
        tenths(u.facing),
        state_words(u)
    );
    let mut ammo = Vec::new();
    if u.smoke > 0 {
        ammo.push(format!("smoke {}", u.smoke));
    }
    if u.gas > 0 {
        ammo.push(format!("gas {}", u.gas));
    }
    if u.flame_shots > 0 {
        ammo.push(format!("flame {}", u.flame_shots));
    }
    if u.heavy() == Some(super::data::Heavy::Mortar) {
        ammo.push(match u.mortar_rounds {
            0 => "mortar out (tube abandoned, R50)".to_string(),
            n => format!("mortar {n}"),
        });
    }
    if let Some(g) = &u.gun {
        ammo.push(format!(
            "shells {}, {}d6, range {}\"-{}\"",
            g.ammo,
            g.dice,
            tenths(g.range_min),
            tenths(g.range_max)
        ));
    }
    if u.disengage {
        ammo.push("disengage ready".into());
    }
    if u.gas_masks {
        ammo.push("gas masks".into());
    }
    if u.armored {
        ammo.push("armoured".into());
    }
    if u.prisoners > 0 {
        ammo.push(format!(
            "{}, {}",
            count(u.prisoners as usize, "prisoner"),
            count(u.guards as usize, "guard")
        ));
    }
    if !ammo.is_empty() {
        s.push_str(&format!("; {}", ammo.join(", ")));
    }
    if own && u.hidden {
        s.push_str(&format!(" — HIDDEN at {}", at(u.pos)));
    }
    if let Some(g) = &u.gone {
        s = format!("{}: {g}", u.name);
    }
    s
}

/// What the enemy sees of a unit (R22): what stands on the table.
fn seen_line(state: &State, u: &Unit) -> String {
    if let Some(g) = &u.gone {
        return format!("{}: {g}", u.name);
    }
    let (hits, of) = state.track_of(u);
    format!(
        "{} ({}): {}, hits {hits}/{of}, at {} facing {}, {}",
        u.name,
        arm_word(u),
        count(u.figures.len(), "figure"),
        at(u.pos),
        tenths(u.facing),
        state_words(u)
    )
}

fn arm_word(u: &Unit) -> &'static str {
    match u.arm {
        Arm::Infantry => "infantry",
        Arm::Cavalry => "cavalry",
        Arm::Artillery => "artillery",
        Arm::Windwagon => "windwagon",
        Arm::Panjandrum => "panjandrum",
        Arm::Zeppelin => "zeppelin",
        Arm::Aeroplane => "aeroplane",
    }
}

/// May `me` see this unit at all? Hidden units only by their own seat.
pub fn sees(me: Option<&str>, u: &Unit) -> bool {
    !u.hidden || Some(u.seat.as_str()) == me
}

pub fn turn_words(state: &State) -> String {
    let t = state.turn.min(state.turns);
    match &state.phase {
        Phase::Cards => format!("Turn {t} of {}: turn-order cards", state.turns),
        Phase::Move { card } => format!(
            "Turn {t} of {}: movement, card {} ({})",
            state.turns,
            card + 1,
            state.cards[*card]
        ),
        Phase::Combat => format!("Turn {t} of {}: combat", state.turns),
        Phase::MeleeEnd => format!("Turn {t} of {}: end of melee", state.turns),
        Phase::Extra => format!("Turn {t} of {}: extra movement", state.turns),
        Phase::GameOver => "The battle is over".to_string(),
    }
}

/// What `viewer` may see: its log lines, the sections in order (turn-order cards, its own
/// and its side's units, the enemy as seen, smoke, objectives), the board and the map.
pub fn view(state: &State, viewer: &Viewer) -> View {
    let me = match viewer {
        Viewer::Seat(s) => Some(s.as_str()),
        Viewer::Spectator => None,
    };
    let my_side = me.map(|m| state.side_of(m));
    let log: Vec<String> = state
        .log
        .iter()
        .filter(|(_, only)| only.is_empty() || me.is_some_and(|m| only.iter().any(|o| o == m)))
        .map(|(t, _)| t.clone())
        .collect();
    let mut sections = Vec::new();
    if !state.cards.is_empty() {
        sections.push(("Turn-order cards".to_string(), card_order(state)));
    }
    if let Some(m) = me {
        own_side_sections(state, m, &mut sections);
    }
    for (side, name, _) in &state.sides {
        if Some(side) == my_side.as_ref() {
            continue;
        }
        let lines: Vec<String> = state
            .units
            .iter()
            .filter(|u| u.side == *side && sees(me, u))
            .map(|u| seen_line(state, u))
            .collect();
        sections.push((format!("{name} (as seen)"), lines));
    }
    if !state.smoke.is_empty() {
        sections.push(("Smoke".to_string(), smoke_lines(state)));
    }
    if !state.objectives.is_empty() {
        sections.push(("Objectives".to_string(), objective_lines(state)));
    }
    View {
        viewer: viewer.clone(),
        scenario: state.scenario.clone(),
        turn: turn_words(state),
        log,
        board: board(state, me),
        sections,
        data: serde_json::Value::Null,
        map: Some(scene(state, me)),
    }
}

/// The turn-order cards drawn so far, each seat with its player's name and side.
fn card_order(state: &State) -> Vec<String> {
    state
        .cards
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let seat = state.seats.iter().find(|x| x.id == *s);
            format!(
                "{}. {} ({}, {})",
                i + 1,
                s,
                seat.map_or("", |x| x.name.as_str()),
                state.side_name(&state.side_of(s))
            )
        })
        .collect()
}

/// A seat's own units' full cards, its standing orders, and its side's other units' cards
/// (R22), each section only when it has lines (the first always).
fn own_side_sections(state: &State, m: &str, sections: &mut Vec<(String, Vec<String>)>) {
    let my_side = state.side_of(m);
    let own: Vec<&Unit> = state.units.iter().filter(|u| u.seat == m).collect();
    sections.push((
        "Your units".to_string(),
        own.iter().map(|u| card_line(state, u, true)).collect(),
    ));
    let standing: Vec<String> = own.iter().flat_map(|u| standing_lines(u)).collect();
    if !standing.is_empty() {
        sections.push(("Your standing orders".to_string(), standing));
    }
    let mates: Vec<String> = state
        .units
        .iter()
        .filter(|u| u.side == my_side && u.seat != m && sees(Some(m), u))
        .map(|u| format!("[{}] {}", u.seat, card_line(state, u, false)))
        .collect();
    if !mates.is_empty() {
        sections.push(("Your side's other units".to_string(), mates));
    }
}

/// Each smoke cloud with the turn it was laid and lifts.
fn smoke_lines(state: &State) -> Vec<String> {
    state
        .smoke
        .iter()
        .map(|s| {
            format!(
                "smoke at {} (laid turn {}, lifts at the end of turn {})",
                at(s.at),
                s.turn,
                s.turn + 1
            )
        })
        .collect()
}

/// Each objective with where it is, its radius and its points.
fn objective_lines(state: &State) -> Vec<String> {
    state
        .objectives
        .iter()
        .map(|o| {
            format!(
                "{} at {},{} within {}\": {} points",
                o.name, o.at[0], o.at[1], o.radius, o.points
            )
        })
        .collect()
}

/// The board: every living unit `me` sees, with its side, place, facing and formation.
fn board(state: &State, me: Option<&str>) -> Vec<String> {
    state
        .units
        .iter()
        .filter(|u| u.alive() && sees(me, u))
        .map(|u| {
            format!(
                "{:<22} {:<10} {:>5},{:<5} facing {:>3} {}",
                u.name,
                u.side,
                tenths(u.pos.x),
                tenths(u.pos.y),
                tenths(u.facing),
                u.form.word()
            )
        })
        .collect()
}

/// What a seat plays for and with (welcome and HELP mails).
pub fn briefing(state: &State, seat: &str) -> Vec<(String, Vec<String>)> {
    let side = state.side_of(seat);
    let goal = state
        .sides
        .iter()
        .find(|s| s.0 == side)
        .map(|s| s.2.clone())
        .unwrap_or_default();
    let mut aims = vec![format!(
        "You command for the {} ({} turns).",
        state.side_name(&side),
        state.turns
    )];
    if !goal.is_empty() {
        aims.push(goal);
    }
    for o in &state.objectives {
        aims.push(format!(
            "Objective {} at {},{} (within {}\"): {} points at the end.",
            o.name, o.at[0], o.at[1], o.radius, o.points
        ));
    }
    aims.push(
        "Each prisoner taken is worth a point; a side with no unit left standing loses at once."
            .into(),
    );
    aims.extend(super::campaign::briefing(state, &side));
    let mut out = vec![("What you play for".into(), aims)];
    out.extend(unit_numbers(state, seat));
    out
}

/// The seat's unit cards (figures, hits, L/Z/E, move, ranges, ammunition) for the welcome and
/// `UNITS` (issue 30 point 6): the lines the view's "Your units" shows.
pub fn unit_numbers(state: &State, seat: &str) -> Vec<(String, Vec<String>)> {
    let units: Vec<String> = state
        .units
        .iter()
        .filter(|u| u.seat == seat)
        .map(|u| card_line(state, u, true))
        .collect();
    vec![("Your units".into(), units)]
}
