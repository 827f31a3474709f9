//! A mission's data (`games/last-hundred-yards/scenarios/*.toml`, §17 Mission Setup as
//! stand-in): the sectors it is played on, the forces with their companies and platoons, the
//! set-up zones, dummies and hidden placement, objectives, victory levels, the Casualty
//! Differential Limit, the turn and time limits and the Initiative settings; and the opening
//! state built from it. Errors are bad data for the organiser; no rule is decided here.

use serde::Deserialize;

use crate::board::hex::{Address, Hex, HexDir, HexGrid};
use crate::engine::SetupRefused;

use super::data::{Class, Kind, RulesetData};
use super::los;
use super::map::{Edge, Map};
use super::state::{
    Company, Level, LhyState, Objective, Phase, Place, Platoon, Side, Status, Turn, Unit,
};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Scenario {
    name: String,
    description: String,
    /// `1944-07`: the mission's date (§10.4.5 "after 9/43").
    date: String,
    /// Sectors top to bottom, `["1", "2"]`, or a half, `["2a"]`.
    map: Vec<String>,
    #[serde(default = "two")]
    contours_per_level: u8,
    turns: u32,
    minutes: u32,
    cdl: u32,
    /// Who held the Initiative "on the previous game turn" before turn 1.
    initiative_holder: String,
    sides: Vec<ScenarioSide>,
    companies: Vec<ScenarioCompany>,
    units: Vec<ScenarioUnit>,
    #[serde(default)]
    objectives: Vec<ScenarioObjective>,
    levels: Vec<Level>,
}

fn two() -> u8 {
    2
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ScenarioSide {
    id: String,
    name: String,
    nation: String,
    allied: bool,
    fbe: Edge,
    ebe: Edge,
    #[serde(default)]
    initiative_drm: i32,
    #[serde(default)]
    coordination_drm: i32,
    attacker: bool,
    #[serde(default)]
    dummies: u32,
    /// Two opposite corners of the set-up zone, `["0115", "1620"]`.
    setup: [String; 2],
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ScenarioCompany {
    id: String,
    side: String,
    #[serde(default)]
    armour: bool,
    platoons: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ScenarioUnit {
    name: String,
    class: String,
    #[serde(default)]
    platoon: Option<String>,
    /// Where it sets up (absent for units in a platoon's pool).
    #[serde(default)]
    at: Option<String>,
    #[serde(default)]
    pool: bool,
    #[serde(default)]
    hidden: bool,
    /// Vehicles and FPs: the hexside their front faces (`N`, `SE`…).
    #[serde(default)]
    facing: Option<String>,
    /// Campaigns (R42): `green`, `veteran`… as `ruleset.toml`'s `[campaign]` names them.
    #[serde(default)]
    quality: Option<String>,
    /// Campaigns (R39): lost in an earlier mission (no `at`): kept so the chain remembers.
    #[serde(default)]
    lost: bool,
    /// Campaigns (R40): the reduced squad this section is what is left of.
    #[serde(default)]
    stands_for: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ScenarioObjective {
    name: String,
    hex: String,
    points: i32,
    #[serde(default)]
    held_by: Option<String>,
}

fn date_of(s: &str) -> Result<u32, SetupRefused> {
    let (y, m) = s
        .split_once('-')
        .ok_or_else(|| SetupRefused::Scenario(format!("date `{s}`: write YYYY-MM")))?;
    let y: u32 = y
        .parse()
        .map_err(|_| SetupRefused::Scenario(format!("date `{s}`: bad year")))?;
    let m: u32 = m
        .parse()
        .map_err(|_| SetupRefused::Scenario(format!("date `{s}`: bad month")))?;
    if !(1..=12).contains(&m) {
        return Err(SetupRefused::Scenario(format!("date `{s}`: month 1-12")));
    }
    Ok(y * 100 + m)
}

/// Hexes of the rectangle between two printed corners, in printed order.
fn zone(map: &Map, corners: &[String; 2]) -> Result<Vec<Hex>, SetupRefused> {
    let a: Address = corners[0]
        .parse()
        .map_err(|e| SetupRefused::Scenario(format!("set-up zone {}: {e}", corners[0])))?;
    let b: Address = corners[1]
        .parse()
        .map_err(|e| SetupRefused::Scenario(format!("set-up zone {}: {e}", corners[1])))?;
    let g = map.grid();
    let mut out = Vec::new();
    for row in a.row.min(b.row)..=a.row.max(b.row) {
        for column in a.column.min(b.column)..=a.column.max(b.column) {
            let h = g.hex(Address { column, row });
            if map.on_map(h) {
                out.push(h);
            }
        }
    }
    if out.is_empty() {
        return Err(SetupRefused::Scenario(format!(
            "set-up zone {corners:?} is off the map"
        )));
    }
    Ok(out)
}

/// Unit names are one word with a letter in it, so they never read as a hex number.
pub fn valid_name(n: &str) -> bool {
    !n.is_empty()
        && n.len() <= 24
        && n.chars().any(|c| c.is_ascii_alphabetic())
        && n.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// The opening state: the mission as its data sets it up, waiting for the sealed set-up.
pub fn new_state(
    ruleset_toml: &str,
    scenario_toml: &str,
    seats: &[String],
) -> Result<LhyState, SetupRefused> {
    let data = RulesetData::load(ruleset_toml)?;
    let sc: Scenario = toml::from_str(scenario_toml).map_err(|e| SetupRefused::Unreadable {
        file: "scenario",
        reason: e.to_string(),
    })?;
    check_sides(&sc, seats)?;
    let map =
        Map::from_sectors(&data, &sc.map, sc.contours_per_level).map_err(SetupRefused::Scenario)?;
    // The sheets are only read here: the state keeps the joined map, never the sheets.
    let mut data = data;
    data.sectors.clear();
    let g = map.grid();
    let hex = |s: &str| {
        g.parse_hex(s)
            .map_err(|e| SetupRefused::Scenario(format!("hex {s}: {e}")))
    };
    let sides: Vec<Side> = sc.sides.iter().map(side_of).collect();
    let mut zones = Vec::new();
    for s in &sc.sides {
        zones.push((s.id.clone(), zone(&map, &s.setup)?));
    }
    let dummies = sc.sides.iter().map(|s| (s.id.clone(), s.dummies)).collect();
    let (companies, platoons) = companies_of(&sc)?;
    let mut units: Vec<Unit> = Vec::new();
    for (i, u) in sc.units.iter().enumerate() {
        check_name(u, &units)?;
        let unit = unit_of(&sc, &data, &g, &sides, &platoons, i, u)?;
        units.push(unit);
    }
    let mut objectives = Vec::new();
    for o in &sc.objectives {
        objectives.push(Objective {
            name: o.name.clone(),
            hex: hex(&o.hex)?,
            points: o.points,
            held_by: o.held_by.clone(),
        });
    }
    let levels = levels_of(sc.levels, &sides)?;
    let los_key = los::fingerprint(&data, &map);
    let serial = units.len() as u32;
    let mut state = LhyState {
        data,
        scenario: sc.name,
        description: sc.description,
        date: date_of(&sc.date)?,
        map,
        los_key,
        seat_order: seats.to_vec(),
        sides,
        companies,
        platoons,
        units,
        markers: Vec::new(),
        smoke: Vec::new(),
        arrows: Vec::new(),
        assaults: Vec::new(),
        objectives,
        levels,
        cdl: sc.cdl,
        max_turns: sc.turns,
        minutes: sc.minutes,
        elapsed: 0,
        zones,
        dummies_allowed: dummies,
        turn: Turn {
            number: 0,
            holder: sc.initiative_holder,
            ..Turn::default()
        },
        phase: Phase::Setup,
        queries: Vec::new(),
        serial,
        log: Vec::new(),
        outcome: None,
        result: None,
    };
    super::setup::check_positions(&state)?;
    state.public(format!(
        "{}: set up your forces (sealed), then the first game turn begins.",
        state.scenario
    ));
    Ok(state)
}

/// The seats are the scenario's sides, in order: two, one Allied and one Axis, one attacking,
/// and the Initiative held by one of them.
fn check_sides(sc: &Scenario, seats: &[String]) -> Result<(), SetupRefused> {
    let ids: Vec<&str> = sc.sides.iter().map(|s| s.id.as_str()).collect();
    if ids != seats.iter().map(String::as_str).collect::<Vec<_>>() {
        return Err(SetupRefused::Seats(format!(
            "this scenario's seats are {} (in that order)",
            ids.join(", ")
        )));
    }
    if sc.sides.len() != 2 || sc.sides[0].allied == sc.sides[1].allied {
        return Err(SetupRefused::Scenario(
            "a mission has two sides, one Allied and one Axis".into(),
        ));
    }
    if sc.sides.iter().filter(|s| s.attacker).count() != 1 {
        return Err(SetupRefused::Scenario(
            "exactly one side is the attacker".into(),
        ));
    }
    if !ids.contains(&sc.initiative_holder.as_str()) {
        return Err(SetupRefused::Scenario(format!(
            "initiative_holder `{}` is not a side",
            sc.initiative_holder
        )));
    }
    Ok(())
}

/// A side as it begins.
fn side_of(s: &ScenarioSide) -> Side {
    Side {
        id: s.id.clone(),
        name: s.name.clone(),
        nation: s.nation.clone(),
        allied: s.allied,
        fbe: s.fbe,
        ebe: s.ebe,
        initiative_drm: s.initiative_drm,
        coordination_drm: s.coordination_drm,
        attacker: s.attacker,
        casualties: 0,
        standing: Vec::new(),
        ask: Default::default(),
        close_defence: true,
        recombine: true,
        queued: Vec::new(),
        confused: false,
        set_up: false,
    }
}

/// The companies and their platoons (§3.1: one to four platoons, each in one company).
fn companies_of(sc: &Scenario) -> Result<(Vec<Company>, Vec<Platoon>), SetupRefused> {
    let ids: Vec<&str> = sc.sides.iter().map(|s| s.id.as_str()).collect();
    let mut companies = Vec::new();
    let mut platoons = Vec::new();
    for c in &sc.companies {
        if !ids.contains(&c.side.as_str()) {
            return Err(SetupRefused::Scenario(format!(
                "company {}: no side `{}`",
                c.id, c.side
            )));
        }
        if c.platoons.is_empty() || c.platoons.len() > 4 {
            return Err(SetupRefused::Scenario(format!(
                "company {}: one to four platoons (§3.1)",
                c.id
            )));
        }
        for p in &c.platoons {
            if platoons.iter().any(|x: &Platoon| &x.id == p) {
                return Err(SetupRefused::Scenario(format!(
                    "platoon {p} is in two companies"
                )));
            }
            platoons.push(Platoon {
                id: p.clone(),
                company: c.id.clone(),
                side: c.side.clone(),
                armour: c.armour,
            });
        }
        companies.push(Company {
            id: c.id.clone(),
            side: c.side.clone(),
            armour: c.armour,
            platoons: c.platoons.clone(),
        });
    }
    Ok((companies, platoons))
}

/// A unit's name: one word, and not one listed before it (in any case).
fn check_name(u: &ScenarioUnit, units: &[Unit]) -> Result<(), SetupRefused> {
    if !valid_name(&u.name) {
        return Err(SetupRefused::Scenario(format!(
            "unit `{}`: one word of letters, digits, - and _, with a letter",
            u.name
        )));
    }
    if units.iter().any(|x| x.name.eq_ignore_ascii_case(&u.name)) {
        return Err(SetupRefused::Scenario(format!(
            "unit {} is listed twice",
            u.name
        )));
    }
    Ok(())
}

/// The `i`th unit of the scenario's list as it begins (every unit concealed, R20).
fn unit_of(
    sc: &Scenario,
    data: &RulesetData,
    g: &HexGrid,
    sides: &[Side],
    platoons: &[Platoon],
    i: usize,
    u: &ScenarioUnit,
) -> Result<Unit, SetupRefused> {
    let (class, side) = class_and_side(data, sides, platoons, u)?;
    let (place, at) = place_of(g, u)?;
    let quality = quality_of(data, u)?;
    if let Some(f) = &u.stands_for
        && (class.kind != Kind::Section || !sc.units.iter().any(|x| &x.name == f && x.lost))
    {
        return Err(SetupRefused::Scenario(format!(
            "unit {}: only a section stands_for a squad listed as lost",
            u.name
        )));
    }
    if u.pool && !class.kind.infantry() {
        return Err(SetupRefused::Scenario(format!(
            "unit {}: only squads and sections wait in a pool",
            u.name
        )));
    }
    let facing = facing_of(g, u, class.kind, side)?;
    Ok(Unit {
        name: u.name.clone(),
        side: side.id.clone(),
        class: u.class.clone(),
        kind: class.kind,
        platoon: u.platoon.clone(),
        place,
        at,
        steps: class.steps,
        status: Status::Good,
        heroic: false,
        // R20: every unit begins concealed; hidden ones are also off the enemy's map.
        concealed: true,
        hidden: u.hidden,
        known: false,
        done: None,
        motion: Default::default(),
        started: false,
        stopped: false,
        facing,
        overran: false,
        aboard: None,
        under_bridge: false,
        arrived: i as u32,
        heroic_acted: false,
        quality,
        lost: u.lost,
        stands_for: u.stands_for.clone(),
    })
}

/// A listed unit's class in the ruleset and the side that fields its nation's counters; no
/// dummy (they are placed at set-up), and its platoon, if any, is its side's.
fn class_and_side<'a>(
    data: &'a RulesetData,
    sides: &'a [Side],
    platoons: &[Platoon],
    u: &ScenarioUnit,
) -> Result<(&'a Class, &'a Side), SetupRefused> {
    let class = data.class(&u.class).ok_or_else(|| {
        SetupRefused::Scenario(format!(
            "unit {}: no class `{}` in ruleset.toml",
            u.name, u.class
        ))
    })?;
    let side = sides
        .iter()
        .find(|s| s.nation == class.nation)
        .ok_or_else(|| {
            SetupRefused::Scenario(format!(
                "unit {}: no side fields {} counters",
                u.name, class.nation
            ))
        })?;
    if class.kind == Kind::Dummy {
        return Err(SetupRefused::Scenario(format!(
            "unit {}: dummies are placed at set-up, not listed",
            u.name
        )));
    }
    if let Some(p) = &u.platoon {
        let pl = platoons
            .iter()
            .find(|x| &x.id == p)
            .ok_or_else(|| SetupRefused::Scenario(format!("unit {}: no platoon `{p}`", u.name)))?;
        if pl.side != side.id {
            return Err(SetupRefused::Scenario(format!(
                "unit {}: platoon {p} is the enemy's",
                u.name
            )));
        }
    }
    Ok((class, side))
}

/// Where a listed unit begins: on the map at its hex, in the pool, or already lost.
fn place_of(g: &HexGrid, u: &ScenarioUnit) -> Result<(Place, Hex), SetupRefused> {
    let hex = |s: &str| {
        g.parse_hex(s)
            .map_err(|e| SetupRefused::Scenario(format!("hex {s}: {e}")))
    };
    Ok(match (&u.at, u.pool, u.lost) {
        (Some(a), false, false) => (Place::Map, hex(a)?),
        (None, true, false) => (Place::Pool, Hex::new(0, 0)),
        (None, false, true) => (Place::Eliminated, Hex::new(0, 0)),
        _ => {
            return Err(SetupRefused::Scenario(format!(
                "unit {}: give `at` (on the map), `pool = true` or `lost = true`",
                u.name
            )));
        }
    })
}

/// The facing written, else a vehicle's or gun's toward the enemy's edge; none for others.
fn facing_of(
    g: &HexGrid,
    u: &ScenarioUnit,
    kind: Kind,
    side: &Side,
) -> Result<Option<HexDir>, SetupRefused> {
    Ok(match &u.facing {
        Some(f) => Some(
            g.parse_dir(f)
                .map_err(|e| SetupRefused::Scenario(format!("unit {}: {e}", u.name)))?,
        ),
        None if kind.vehicle() || kind == Kind::Fp => Some(
            g.dir(match side.fbe {
                Edge::South => crate::board::hex::Compass::N,
                _ => crate::board::hex::Compass::S,
            })
            .expect("flat-top grids have N and S"),
        ),
        None => None,
    })
}

/// The unit's campaign quality as the scenario gives it (R42), kept only where it changes a
/// roll; a quality the ruleset does not know is an error.
fn quality_of(data: &RulesetData, u: &ScenarioUnit) -> Result<Option<String>, SetupRefused> {
    Ok(match &u.quality {
        None => None,
        Some(q) => match &data.campaign {
            Some(c) if c.knows(q) => (c.drm(Some(q)) != 0).then(|| q.clone()),
            _ => {
                return Err(SetupRefused::Scenario(format!(
                    "unit {}: quality `{q}` is not one of ruleset.toml's [campaign] qualities",
                    u.name
                )));
            }
        },
    })
}

/// The victory levels, best first; each winner a side or `draw`.
fn levels_of(mut levels: Vec<Level>, sides: &[Side]) -> Result<Vec<Level>, SetupRefused> {
    levels.sort_by_key(|l| -l.at_least);
    if levels.is_empty() {
        return Err(SetupRefused::Scenario(
            "give at least one victory level".into(),
        ));
    }
    for l in &levels {
        if l.winner != "draw" && !sides.iter().any(|x| x.id == l.winner) {
            return Err(SetupRefused::Scenario(format!(
                "victory level `{}`: winner must be a side id or `draw`, not `{}`",
                l.name, l.winner
            )));
        }
    }
    Ok(levels)
}
