//! The ruleset's numbers and the scenarios, as read from `games/naval-rjw/*.toml`.
//! Values the seed lost are marked `stand_in = true` with a reason; this module only reads them.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// A number from the data files: either a bare value printed in the seed, or a table
/// `{ value = …, stand_in = true, reason = "…" }` for a value the seed lost.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Num {
    Seed(f64),
    Marked {
        value: f64,
        #[serde(default)]
        stand_in: bool,
        #[serde(default)]
        reason: String,
    },
}

impl Num {
    pub fn get(&self) -> f64 {
        match self {
            Num::Seed(v) => *v,
            Num::Marked { value, .. } => *value,
        }
    }

    pub fn int(&self) -> i32 {
        self.get().round() as i32
    }

    pub fn is_stand_in(&self) -> bool {
        matches!(self, Num::Marked { stand_in: true, .. })
    }
}

/// Ship type as the seed abbreviates it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum ShipClass {
    DD,
    CL,
    CA,
    BB,
}

impl ShipClass {
    /// Cruisers and battleships are Capital Ships (p.2).
    pub fn is_capital(self) -> bool {
        !matches!(self, ShipClass::DD)
    }

    pub fn abbr(self) -> &'static str {
        match self {
            ShipClass::DD => "DD",
            ShipClass::CL => "CL",
            ShipClass::CA => "CA",
            ShipClass::BB => "BB",
        }
    }
}

/// One row of the CF / range table plus the class's other numbers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClassData {
    pub cf: Num,
    pub range: Num,
    pub extreme_range: Num,
    pub speed: Num,
    /// Hull length on the table, inches (models at 1/2000–1/3000).
    pub hull_length: Num,
    /// Points for the scouting roll (p.2).
    pub scouting_points: Num,
    /// Turn limit per CP in degrees (p.4).
    pub max_turn: Num,
}

/// `games/naval-rjw/ruleset.toml`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesetData {
    pub classes: BTreeMap<ShipClass, ClassData>,
    /// Every other number of the rules, by name (`close_range`, `command_radius`, …).
    pub rules: BTreeMap<String, Num>,
    /// The Average Die's faces.
    pub command_die: Vec<u32>,
    /// Faces of the gunnery die.
    pub gunnery_die: u32,
    /// How the map is drawn (`[map]`); absent in games started before maps were data, which
    /// are drawn with the shipped file's styles. Skipped when absent, so their states
    /// serialise as they always did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub map: Option<crate::engine::scene::MapStyles>,
}

impl RulesetData {
    /// A named rule number; panics only on a programming error (a name the code uses but the
    /// shipped file lacks), which `tests` catch for every name.
    pub fn rule(&self, name: &str) -> f64 {
        self.rules
            .get(name)
            .map(Num::get)
            .unwrap_or_else(|| panic!("games/naval-rjw/ruleset.toml lacks rules.{name}"))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Leadership {
    #[default]
    Normal,
    /// Average Die − 2.
    Poor,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Crews {
    #[default]
    Normal,
    /// Fresh, highly trained and/or battle-experienced: +1 CP.
    Fresh,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioShip {
    pub name: String,
    pub class: ShipClass,
    /// Position of the hull's centre, inches from the table's lower-left corner.
    pub x: f64,
    pub y: f64,
    /// Compass heading in degrees: 0 = up the table (north), 90 = right (east).
    pub heading: f64,
    #[serde(default)]
    pub obsolete: bool,
    #[serde(default)]
    pub minelayer: bool,
    #[serde(default)]
    pub minesweeper: bool,
    /// Foul bottom or poor maintenance: −1 speed.
    #[serde(default)]
    pub foul_bottom: bool,
    /// Historical note for the order of battle (displacement, commander…), shown to players.
    #[serde(default)]
    pub note: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Formation {
    #[default]
    Astern,
    Abreast,
}

/// A battle line (capital ships) or a flotilla (destroyers), in order from the lead.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioGroup {
    pub name: String,
    pub ships: Vec<String>,
    #[serde(default)]
    pub formation: Formation,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioSide {
    /// Seat and side id (`japan`).
    pub id: String,
    /// e.g. `Imperial Japanese Navy (Togo)`.
    pub name: String,
    #[serde(default)]
    pub leadership: Leadership,
    #[serde(default)]
    pub crews: Crews,
    /// +1 for Japanese Capital Ships (p.6); 0 for others.
    #[serde(default)]
    pub capital_gunnery_bonus: i32,
    /// Limited coal supplies: −1 speed for the whole fleet.
    #[serde(default)]
    pub coal_limited: bool,
    /// The compulsory move for this fleet (3, or 2 for a fleet-wide low maintenance).
    #[serde(default)]
    pub cruise: Option<f64>,
    /// Compass heading of General Withdrawal (towards the friendly port).
    pub withdrawal_heading: f64,
    /// Default nominations; the set-up step may change them.
    pub flagship: String,
    pub second: String,
    pub ships: Vec<ScenarioShip>,
    #[serde(default)]
    pub lines: Vec<ScenarioGroup>,
    #[serde(default)]
    pub flotillas: Vec<ScenarioGroup>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioMinefield {
    pub owner: String,
    pub x: f64,
    pub y: f64,
    pub heading: f64,
    pub genuine: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub name: String,
    /// Display date/time of the action, e.g. `10 August 1904, 12:30`.
    pub date: String,
    pub description: String,
    /// Table size in inches.
    pub width: f64,
    pub height: f64,
    /// The side that moves first; `None`: the scouting roll decides (p.2).
    #[serde(default)]
    pub first: Option<String>,
    /// Player turns after which the game ends if nobody is defeated (a ruling; the seed has no limit).
    pub max_turns: u32,
    #[serde(default)]
    pub limited_ammunition: bool,
    #[serde(default)]
    pub high_sea_state: bool,
    pub sides: Vec<ScenarioSide>,
    #[serde(default)]
    pub minefields: Vec<ScenarioMinefield>,
}

pub fn parse_ruleset(text: &str) -> Result<RulesetData, String> {
    toml::from_str(text).map_err(|e| format!("ruleset.toml: {e}"))
}

pub fn parse_scenario(text: &str) -> Result<Scenario, String> {
    toml::from_str(text).map_err(|e| format!("scenario: {e}"))
}
