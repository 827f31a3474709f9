//! What a seat sees: the log lines it may read, both sides' units (La Bataille is played with
//! open counters), the markers on the map (Assaut, Number, Firefight, Charge), the question
//! open to it, and its own standing orders (never the enemy's). Everything that leaves the
//! process for a seat is built here from the state; it changes nothing.

use crate::board::hex::Hex;
use crate::engine::scene::{
    At, Condition, Marker, Scene, Shape, SideInfo, Surface, Symbol, Tone, Unit as SceneUnit,
    UnitKind, UnitSymbol, Zone, ZoneKind,
};
use crate::engine::{View, Viewer};
use crate::rulesets::kit::roster::TwoSides;

use super::data::Arm;
use super::field;
use super::orders;
use super::state::{
    Cohesion, Fatigue, LbState, Order, Orders, Phase, Policy, Segment, StandingOrder, Unit,
};

fn at(st: &LbState, h: Hex) -> At {
    let p = st.grid.centre(h, 1.0);
    At::new(p.x, p.y)
}

/// `line, good order`, `column, disordered, tired`, …
pub fn state_words(u: &Unit) -> String {
    let mut w = vec![u.formation.word().to_string()];
    w.push(
        match u.cohesion {
            Cohesion::GoodOrder => "good order",
            Cohesion::Disordered => "disordered",
            Cohesion::Routed => "routed (PGD)",
        }
        .into(),
    );
    match u.fatigue {
        Fatigue::Fresh => {}
        Fatigue::Tired => w.push("tired".into()),
        Fatigue::Exhausted => w.push("exhausted".into()),
    }
    if let Some(n) = u.number {
        w.push(format!("Number {n}"));
    }
    if u.firefight {
        w.push("Firefight".into());
    }
    if u.charged {
        w.push("charged".into());
    }
    w.join(", ")
}

fn unit_line(st: &LbState, u: &Unit) -> String {
    if u.eliminated {
        return format!("{}: eliminated", u.name);
    }
    let leaders: Vec<String> = st
        .leaders_with(&u.name)
        .iter()
        .map(|l| format!("{} ({})", l.name, l.rating))
        .collect();
    format!(
        "{} ({}) at {} facing {}: {} increment{} of {}, morale {}, {}{}{}",
        u.name,
        st.data
            .class(&u.class)
            .map_or(u.class.as_str(), |c| c.name.as_str()),
        st.label(u.hex),
        st.grid.compass(u.facing).as_str(),
        u.increments,
        if u.increments == 1 { "" } else { "s" },
        u.full,
        u.morale,
        state_words(u),
        u.ammo.map_or(String::new(), |a| format!(", {a} rounds")),
        if leaders.is_empty() {
            String::new()
        } else {
            format!("; with {}", leaders.join(", "))
        }
    )
}

/// The seat's standing orders, as it would write them, each followed by a comment naming
/// the side (copyable: `#` starts a comment in a mail). `changed_only`: those that differ
/// from the opening defaults (the hidden facts of the leak test).
pub fn standing_lines(st: &LbState, side: &str, changed_only: bool) -> Vec<String> {
    let s = st.standing(side);
    let d = super::state::Standing::default();
    let mut list = vec![
        (StandingOrder::Pick(s.pick), s.pick == d.pick),
        (
            StandingOrder::RetreatAssault(s.retreat_assault),
            s.retreat_assault == d.retreat_assault,
        ),
        (
            StandingOrder::RetreatCharge(s.retreat_charge),
            s.retreat_charge == d.retreat_charge,
        ),
        (
            StandingOrder::Reassault(s.reassault),
            s.reassault == d.reassault,
        ),
        (StandingOrder::Huzzah(s.huzzah), s.huzzah == d.huzzah),
        (StandingOrder::Square(s.square), s.square == d.square),
        (StandingOrder::Recall(s.recall), s.recall == d.recall),
        (
            StandingOrder::Reaction(s.reaction),
            s.reaction == d.reaction,
        ),
        (StandingOrder::FormUp(s.form_up), s.form_up == d.form_up),
        (
            StandingOrder::Displace(s.displace),
            s.displace == d.displace,
        ),
        (StandingOrder::Impetus(s.impetus), s.impetus == d.impetus),
        (StandingOrder::Pursue(s.pursue), s.pursue == d.pursue),
        (
            StandingOrder::OpportunityFire(!s.no_opportunity_fire),
            !s.no_opportunity_fire,
        ),
    ];
    for (u, p) in &s.square_units {
        if *p != Policy::Ask {
            list.push((StandingOrder::SquareUnit(u.clone(), *p), false));
        }
    }
    let list: Vec<Order> = list
        .into_iter()
        .filter(|(_, default)| !changed_only || !default)
        .map(|(o, _)| Order::Standing(o))
        .collect();
    let text = orders::print(&Orders {
        grid: st.grid,
        list,
    });
    let name = st.side_name(side);
    text.lines()
        .map(|l| format!("{l}  # {name} standing order"))
        .collect()
}

fn turn_words(st: &LbState) -> String {
    // After the last turn the counter has moved past it; "Turn 4 of 3" puzzles players.
    if matches!(st.phase, Phase::GameOver) || st.turn > st.turns {
        return format!("The battle is over after turn {} of {}", st.turns, st.turns);
    }
    let seg = match st.segment {
        Segment::Maneuver => "Maneuver Segment",
        Segment::Fire => "Fire Segment",
        Segment::Melee => "Mêlée Segment",
        Segment::Rally => "rally",
    };
    format!(
        "Turn {} of {}, {} player turn: {}",
        st.turn,
        st.turns,
        st.side_name(&st.phasing),
        seg
    )
}

/// A fixed-width picture: one cell per hex, `..` clear, `wd` woods, `vl` village, `hl` hill;
/// a unit shows its side's initial and formation letter (`FL` French line, `AS` Allied square).
fn board(st: &LbState) -> Vec<String> {
    let Some(b) = st.grid.bounds else {
        return vec![];
    };
    let mut out = Vec::new();
    let mut head = String::from("     ");
    for c in b.first_column..=b.last_column {
        head.push_str(&format!("{c:02} "));
    }
    out.push(head);
    // The columns are offset; mark the low ones so adjacency can be read off the text
    // (README, "The map"): a hex in a `dn` column touches its own row and the row below in
    // the columns beside it, in the others its own row and the row above.
    let mut offsets = String::from("     ");
    for c in b.first_column..=b.last_column {
        offsets.push_str(if low_column(st, c, b.first_row) {
            "dn "
        } else {
            "   "
        });
    }
    out.push(offsets.trim_end().to_string());
    for r in b.first_row..=b.last_row {
        let mut line = format!("{r:02}   ");
        for c in b.first_column..=b.last_column {
            let label = format!("{c:02}{r:02}");
            let Ok(h) = st.grid.parse_hex(&label) else {
                line.push_str("   ");
                continue;
            };
            let here = st.at(h);
            let cell = match here.first() {
                Some(u) => {
                    let side = st.side_name(&u.side).chars().next().unwrap_or('?');
                    let f = match u.arm {
                        Arm::Cavalry => 'C',
                        Arm::Artillery => 'G',
                        Arm::Infantry => u.formation.keyword().chars().next().unwrap_or('?'),
                    };
                    format!("{side}{f}")
                }
                None => match st.terrain_at(h) {
                    "clear" => "..".into(),
                    k => k.chars().take(2).collect(),
                },
            };
            line.push_str(&cell);
            line.push(' ');
        }
        out.push(line);
    }
    out
}

/// Does column `c` sit half a hex lower than the columns beside it: does its hex in row `r`
/// touch row `r + 1` of a neighbouring column?
fn low_column(st: &LbState, c: u16, r: u16) -> bool {
    let hex = |c: u16, r: u16| st.grid.parse_hex(&format!("{c:02}{r:02}")).ok();
    let Some(h) = hex(c, r) else {
        return false;
    };
    [c + 1, c.saturating_sub(1)]
        .into_iter()
        .filter_map(|o| hex(o, r + 1))
        .any(|n| st.grid.neighbours(h).contains(&n))
}

/// The drawn map of `viewer`: the terrain, every unit on the map as an open counter, the
/// objectives and the assaults under way, with a legend of what it shows.
fn scene(st: &LbState, viewer: &Viewer) -> Scene {
    let me = match viewer {
        Viewer::Seat(s) => Some(s.as_str()),
        Viewer::Spectator => None,
    };
    let styles = st.data.styles();
    let mut terrain = Vec::new();
    for (h, kind) in &st.terrain {
        if let Some(a) = st.grid.address(*h) {
            terrain.push(crate::engine::scene::TerrainArea {
                style: kind.clone(),
                shape: Shape::Hex { address: a },
                label: st.places.iter().find(|p| p.0 == *h).map(|p| p.1.clone()),
            });
        }
    }
    let units: Vec<SceneUnit> = st
        .units
        .iter()
        .filter(|u| u.alive())
        .map(|u| counter(st, u))
        .collect();
    let zones = drawn_zones(st);
    let mut scene = Scene {
        title: st.scenario_name.clone(),
        turn: turn_words(st),
        time: st.start.clone(),
        viewer: me.map_or_else(
            || "Spectator".into(),
            |m| format!("As seen by {}", st.side_name(m)),
        ),
        surface: Surface::Hex {
            grid: st.grid,
            bounds: st.grid.bounds.expect("La Bataille maps have bounds"),
        },
        ground: styles.ground.clone(),
        styles: styles
            .terrain
            .iter()
            .chain(&styles.zones)
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
        terrain,
        sides: st
            .sides
            .iter()
            .map(|s| SideInfo {
                id: s.id.clone(),
                name: if Some(s.id.as_str()) == me {
                    format!("{} (you)", s.name)
                } else {
                    s.name.clone()
                },
            })
            .collect(),
        units,
        zones,
        arrows: vec![],
        legend: vec![],
        compass: false,
        own_side: me.map(str::to_string),
    };
    // Until now the map had no legend at all; it names only what this picture shows.
    scene.legend = scene.legend_of([
        (Symbol::Objective, "objective (victory points)"),
        (Symbol::Blast, "assault or firefight under way"),
        (Symbol::Unit(UnitSymbol::Infantry), "infantry"),
        (Symbol::Unit(UnitSymbol::Cavalry), "cavalry"),
        (Symbol::Unit(UnitSymbol::Artillery), "artillery"),
        (Symbol::Facing, "facing (front hexsides)"),
    ]);
    scene
}

/// A unit as a counter: its arm's symbol and printed values (mêlée-morale-increments), its
/// facing, and its formation, cohesion, fatigue, markers and leaders as badges.
fn counter(st: &LbState, u: &Unit) -> SceneUnit {
    let symbol = match u.arm {
        Arm::Infantry => UnitSymbol::Infantry,
        Arm::Cavalry => UnitSymbol::Cavalry,
        Arm::Artillery => UnitSymbol::Artillery,
    };
    let melee = st.data.class(&u.class).map_or(0, |c| c.melee.int()) * u.increments as i32;
    let mut markers = vec![Marker::status(u.formation.word(), Tone::Info)];
    match u.cohesion {
        Cohesion::GoodOrder => {}
        Cohesion::Disordered => markers.push(Marker::status("disordered", Tone::Warning)),
        Cohesion::Routed => markers.push(Marker::status("routed", Tone::Danger)),
    }
    match u.fatigue {
        Fatigue::Fresh => {}
        Fatigue::Tired => markers.push(Marker::status("tired", Tone::Warning)),
        Fatigue::Exhausted => markers.push(Marker::status("exhausted", Tone::Danger)),
    }
    if let Some(n) = u.number {
        markers.push(Marker::status(format!("Assaut, Number {n}"), Tone::Info));
    }
    if u.firefight {
        markers.push(Marker::status("Firefight", Tone::Danger));
    }
    if u.charged {
        markers.push(Marker::status("Charge", Tone::Spent));
    }
    for l in st.leaders_with(&u.name) {
        markers.push(Marker::Note(format!("{} ({})", l.name, l.rating)));
    }
    SceneUnit {
        label: u.name.clone(),
        side: u.side.clone(),
        kind: UnitKind::Counter {
            symbol,
            value: Some(format!("{}-{}-{}", melee, u.morale, u.increments)),
            size: None,
        },
        at: at(st, u.hex),
        facing: Some(field::degrees(u.facing)),
        condition: Condition::Active,
        markers,
        track: vec![],
    }
}

/// The objectives (with their holder) and the hexes of assaults due or in a firefight.
fn drawn_zones(st: &LbState) -> Vec<Zone> {
    let mut zones = Vec::new();
    for o in &st.objectives {
        if let Some(a) = st.grid.address(o.hex) {
            zones.push(Zone {
                kind: ZoneKind::Objective,
                shape: Shape::Hex { address: a },
                label: Some(format!("{} ({} VP)", o.name, o.vp)),
                side: Some(o.holder.clone()),
            });
        }
    }
    for a in st.assaults.iter().filter(|a| a.due || a.firefight) {
        for t in &a.targets {
            if let Some(addr) = st.grid.address(*t) {
                zones.push(Zone {
                    kind: ZoneKind::Blast,
                    shape: Shape::Hex { address: addr },
                    label: Some(format!(
                        "A{}{}",
                        a.id,
                        if a.firefight { " Firefight" } else { " Assaut" }
                    )),
                    side: Some(a.attacker.clone()),
                });
            }
        }
    }
    zones
}

pub fn view(st: &LbState, viewer: &Viewer) -> View {
    let me = match viewer {
        Viewer::Seat(s) => Some(s.as_str()),
        Viewer::Spectator => None,
    };
    let mut log: Vec<String> = st
        .log
        .iter()
        .filter(|l| l.visible_to(viewer))
        .map(|l| l.text.clone())
        .collect();
    // Before anything has happened the log is the scenario's own words (the welcome's "The
    // scenario"; a campaign battle's note is their last paragraph). Shown, not journaled, so
    // games already played keep their state.
    if st.log.is_empty() && !st.description.trim().is_empty() {
        log.push(st.description.trim().to_string());
    }
    let mut sections = Vec::new();
    for side in &st.sides {
        let title = if Some(side.id.as_str()) == me {
            format!("Your army: {}", side.name)
        } else {
            side.name.clone()
        };
        let lines: Vec<String> = st
            .units
            .iter()
            .filter(|u| u.side == side.id)
            .map(|u| unit_line(st, u))
            .collect();
        sections.push((title, lines));
    }
    let markers: Vec<String> = st
        .assaults
        .iter()
        .filter(|a| a.due || a.firefight)
        .map(|a| super::turn::describe(st, &format!("A{}", a.id)))
        .chain(
            st.charges
                .iter()
                .map(|c| super::turn::describe_for(st, &format!("C{}", c.id), me)),
        )
        .collect();
    if !markers.is_empty() {
        sections.push(("Assaut and Charge markers".into(), markers));
    }
    let vps: Vec<String> = super::turn::victory_points(st)
        .iter()
        .map(|(s, v)| format!("{}: {v} VP", st.side_name(s)))
        .collect();
    sections.push(("Victory points now".into(), vps));
    if let Some(m) = me {
        if let Phase::Question { question } = &st.phase
            && question.seat == m
        {
            sections.push((
                "You are asked".into(),
                vec![question.text.clone(), orders::hint(question)],
            ));
        }
        sections.push(("Your standing orders".into(), standing_lines(st, m, false)));
    }
    View {
        viewer: viewer.clone(),
        scenario: st.scenario_name.clone(),
        turn: turn_words(st),
        log,
        board: board(st),
        sections,
        data: serde_json::json!({
            "turn": st.turn,
            "phasing": st.phasing,
        }),
        map: Some(scene(st, viewer)),
    }
}
