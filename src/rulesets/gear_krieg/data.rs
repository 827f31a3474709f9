//! The Gear Krieg demo's numbers and scenarios, as read from `games/gear-krieg/*.toml`.
//! Values the seed lost are marked `stand_in = true` with a reason; this module only reads them.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::board::terrain::Area;

/// A value from the data files: either bare (printed in the seed) or a table
/// `{ value = …, stand_in = true, reason = "…" }` for a value the seed lost or garbled.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Marked<T> {
    Seed(T),
    Marked {
        value: T,
        #[serde(default)]
        stand_in: bool,
        #[serde(default)]
        reason: String,
    },
}

impl<T: Clone> Marked<T> {
    pub fn get(&self) -> T {
        match self {
            Marked::Seed(v) => v.clone(),
            Marked::Marked { value, .. } => value.clone(),
        }
    }

    pub fn is_stand_in(&self) -> bool {
        matches!(self, Marked::Marked { stand_in: true, .. })
    }

    pub fn reason(&self) -> Option<&str> {
        match self {
            Marked::Marked {
                stand_in: true,
                reason,
                ..
            } => Some(reason),
            _ => None,
        }
    }
}

/// A number (integers in this game; TOML may write `2` or `2.0`).
pub type Num = Marked<f64>;

impl Marked<f64> {
    pub fn int(&self) -> i32 {
        self.get().round() as i32
    }
}

/// Terrain types of the reference chart (p.1), plus `hill` for the chart's "elevation".
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TerrainKind {
    Clear,
    Rough,
    Woodland,
    Jungle,
    Road,
    Hill,
}

impl TerrainKind {
    pub fn word(self) -> &'static str {
        match self {
            TerrainKind::Clear => "clear",
            TerrainKind::Rough => "rough",
            TerrainKind::Woodland => "woodland",
            TerrainKind::Jungle => "jungle",
            TerrainKind::Road => "road",
            TerrainKind::Hill => "hill",
        }
    }
}

/// One row of the Terrain Costs chart.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainData {
    pub walker_mp: Num,
    pub ground_mp: Num,
    /// Obscurement per whole cm crossed.
    pub obscurement: Num,
    /// The chart's "D" mark: a Driving test against the MP cost on entering (1 = marked).
    pub walker_treacherous: Num,
    pub ground_treacherous: Num,
}

/// Firing arcs (p.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Arc {
    /// Forward, 180°.
    F,
    /// Right, 180° (includes straight ahead and straight back).
    Rt,
    /// Left, 180°.
    L,
    /// Rear, 180°.
    Rr,
    /// Fixed forward, 120°.
    FF,
    /// Turreted, 360°.
    T,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeaponData {
    /// As the datacard prints it (`M4B Cannon`).
    pub name: String,
    /// The word players write in orders (`Cannon`, `LMG`).
    pub key: String,
    pub dm: Num,
    pub accuracy: Num,
    /// Base Range in cm; Short = BR, Medium 2×, Long 4×, Extreme 8×.
    pub base_range: Num,
    pub rof: Num,
    /// Rounds (or rockets) carried; absent: unlimited (infantry).
    #[serde(default)]
    pub ammo: Option<Num>,
    pub arc: Marked<Arc>,
    #[serde(default)]
    pub anti_infantry: bool,
    #[serde(default)]
    pub area_effect: Option<Marked<bool>>,
    /// Rockets and missiles: 2^ROF missiles per burst instead of 10 rounds per point.
    #[serde(default)]
    pub rockets: bool,
    /// Thrown (grenades): only at the thrown range or in contact.
    #[serde(default)]
    pub thrown: bool,
}

impl WeaponData {
    pub fn is_area_effect(&self) -> bool {
        self.area_effect.as_ref().is_some_and(Marked::get)
    }
}

/// A vehicle datacard (p.5).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VehicleClass {
    pub name: String,
    pub threat_value: Num,
    pub fire_control: Num,
    pub walker_combat: Num,
    pub walker_top: Num,
    pub ground_combat: Num,
    pub ground_top: Num,
    pub size: Num,
    pub armor: Num,
    pub maneuver: Num,
    /// Decreased Maneuver perk: added to Maneuver in Ground mode.
    pub ground_maneuver: Num,
    /// Reinforced Armor perk: added to Armor against attacks from the Front arc.
    pub front_armor: Num,
    /// Manipulator Arms perk: the punch DM.
    pub punch_dm: Num,
    /// Impact Damage Multiplier for ramming (the Ramming Table is lost).
    pub impact_dm: Num,
    pub gunnery: Num,
    pub piloting: Num,
    pub driving: Num,
    /// Perks and flaws as printed, for the players' information (R14).
    pub perks: Vec<String>,
    pub weapons: Vec<WeaponData>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrooperGroup {
    /// Weapon key carried by these troopers.
    pub weapon: String,
    pub count: Num,
}

/// An infantry squad's datacard (lost in the seed: every value is a stand-in).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InfantryClass {
    pub name: String,
    pub threat_value: Num,
    pub skill: Num,
    pub combat_mp: Num,
    /// Damage circles per trooper.
    pub circles: Num,
    pub troopers: Vec<TrooperGroup>,
    pub weapons: Vec<WeaponData>,
}

/// One row of the Defender's Movement table: a last move of at most `up_to` cm gives `modifier`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveBand {
    pub up_to: Num,
    pub modifier: Num,
}

/// One row of the Infantry ROF Bonus table: `troopers` or more with one weapon add `bonus`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RofBand {
    pub troopers: Num,
    pub bonus: Num,
}

/// `games/gear-krieg/ruleset.toml`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesetData {
    /// Every other number of the rules, by name.
    pub rules: BTreeMap<String, Num>,
    pub terrain: BTreeMap<TerrainKind, TerrainData>,
    /// Rows in increasing `up_to`; a move longer than the last row uses the last row.
    pub defender_movement: Vec<MoveBand>,
    pub infantry_rof_bonus: Vec<RofBand>,
    pub vehicles: BTreeMap<String, VehicleClass>,
    pub infantry: BTreeMap<String, InfantryClass>,
    /// How the map is drawn (`[map]`); absent in games started before maps were data, which
    /// are drawn with the shipped file's styles. Skipped when absent, so their states
    /// serialise as they always did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub map: Option<crate::engine::scene::MapStyles>,
}

impl RulesetData {
    /// A named rule number; panics only on a programming error (a name the code uses but the
    /// shipped file lacks), which `tests/gear_krieg_data.rs` catches for every name.
    pub fn rule(&self, name: &str) -> f64 {
        self.rules
            .get(name)
            .map(Num::get)
            .unwrap_or_else(|| panic!("games/gear-krieg/ruleset.toml lacks rules.{name}"))
    }

    pub fn ri(&self, name: &str) -> i32 {
        self.rule(name).round() as i32
    }

    pub fn terrain(&self, kind: TerrainKind) -> Option<&TerrainData> {
        self.terrain.get(&kind)
    }

    /// The defence modifier for a last move of `cm` (p.1 Defender's Movement table).
    pub fn defender_modifier(&self, cm: f64) -> i32 {
        for band in &self.defender_movement {
            if cm <= band.up_to.get() + 1e-9 {
                return band.modifier.int();
            }
        }
        self.defender_movement
            .last()
            .map_or(0, |b| b.modifier.int())
    }

    /// The massed-fire ROF bonus for `n` troopers with one weapon (p.1 Infantry ROF Bonus).
    pub fn massed_bonus(&self, n: u32) -> i32 {
        self.infantry_rof_bonus
            .iter()
            .filter(|b| f64::from(n) >= b.troopers.get())
            .map(|b| b.bonus.int())
            .max()
            .unwrap_or(0)
    }
}

/// Every `[rules]` key the code reads.
pub const RULE_NAMES: &[&str] = &[
    "skill_dice",
    "perception",
    "infantry_perception",
    "initiative_dice",
    "loser_cp",
    "cp_per_unit",
    "cp_defense",
    "cp_about_face",
    "defensive_maneuver",
    "extra_action_penalty",
    "detection_day",
    "detection_night",
    "point_blank",
    "short",
    "medium",
    "long",
    "extreme",
    "stationary",
    "half_combat",
    "combat",
    "top",
    "arc_front",
    "arc_flank",
    "arc_rear",
    "front_half_angle",
    "rear_half_angle",
    "infantry_target_penalty",
    "pinned_penalty",
    "light_factor",
    "heavy_factor",
    "overkill_factor",
    "burst_rounds",
    "single_shot_rounds",
    "saturation_rounds",
    "saturation_rockets",
    "saturation_min_rounds",
    "saturation_min_rockets",
    "saturation_size",
    "infantry_melee_dm",
    "rally_threshold",
    "turn_free_angle",
    "turn_cost",
    "turn_spacing",
    "top_max_turn",
    "infantry_min_move",
    "contact_distance",
    "thrown_range",
    "counter_size",
    "pinned_on_miss",
    "pinned_on_wound",
];

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InitialSpeed {
    #[default]
    Stationary,
    Combat,
    Top,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveMode {
    #[default]
    Walker,
    Ground,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioUnit {
    /// Unique name players write (`General-1`).
    pub name: String,
    /// A key of `[vehicles]` or `[infantry]` in ruleset.toml.
    pub class: String,
    pub x: f64,
    pub y: f64,
    /// Compass degrees: 0 = up the map (north), 90 = right (east).
    #[serde(default)]
    pub heading: f64,
    #[serde(default)]
    pub mode: MoveMode,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioSide {
    /// Seat and side id (`us`).
    pub id: String,
    pub name: String,
    /// The map edge it deploys on, for the players' information.
    pub edge: String,
    pub units: Vec<ScenarioUnit>,
}

/// One terrain area: its type and its shape (`shape = "polygon" | "circle" | "band"`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScenarioArea {
    pub kind: TerrainKind,
    #[serde(default)]
    pub name: String,
    #[serde(flatten)]
    pub area: Area,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Objective {
    pub name: String,
    pub x: f64,
    pub y: f64,
    pub radius: f64,
    pub points: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub name: String,
    pub description: String,
    /// Map size in cm.
    pub width: f64,
    pub height: f64,
    #[serde(default)]
    pub night: bool,
    /// Rounds after which the battle ends (a ruling; the seed has no limit).
    pub max_rounds: u32,
    /// A side wins at the round limit only with at least this many more victory points.
    #[serde(default)]
    pub winning_margin: u32,
    #[serde(default)]
    pub objectives: Vec<Objective>,
    /// Later areas lie on top of earlier ones (roads last).
    pub terrain: Vec<ScenarioArea>,
    pub sides: Vec<ScenarioSide>,
}

pub fn parse_ruleset(text: &str) -> Result<RulesetData, String> {
    toml::from_str(text).map_err(|e| format!("ruleset.toml: {e}"))
}

pub fn parse_scenario(text: &str) -> Result<Scenario, String> {
    toml::from_str(text).map_err(|e| format!("scenario: {e}"))
}
