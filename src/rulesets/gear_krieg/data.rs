//! The Gear Krieg demo's numbers and scenarios, as read from `games/gear-krieg/*.toml`.
//! Values the seed lost are marked `stand_in = true` with a reason; this module only reads them.
//! Every rule number is a field of `Rules`, so a misspelt name fails to compile and a misspelt
//! key in the file fails when the game is set up.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::board::terrain::Area;

use crate::rulesets::kit::data::rule_numbers;
pub use crate::rulesets::kit::data::{Marked, Num, TomlData};

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
    /// Every other number of the rules.
    pub rules: Rules,
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

impl TomlData for RulesetData {
    const FILE: &'static str = "ruleset.toml";
}

impl RulesetData {
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

rule_numbers! {
    /// The `[rules]` table: one field per number of the demo rules ("p.N" is the booklet's
    /// page, "Rn" a ruling in the README; distances in cm, angles in degrees).
    pub struct Rules {
        // Dice, initiative and Command Points (p.3)
        /// p.3: standard pilots have Skill 2 (roll two dice).
        skill_dice,
        /// p.3: bonus to ranged attack rolls.
        perception,
        /// Stand-in (R7): infantry Perception.
        infantry_perception,
        /// p.3 Step Two: dice each side rolls.
        initiative_dice,
        /// p.3: CP the loser of the initiative receives.
        loser_cp,
        /// p.3: CP a unit may use per round.
        cp_per_unit,
        /// p.1/p.3: CP bonus to a single Defense roll.
        cp_defense,
        /// p.3: most degrees a CP about-face turns.
        cp_about_face,
        /// p.4: Defensive Maneuvers bonus to all defense rolls this round.
        defensive_maneuver,
        /// p.3: on every attack per extra Action declared.
        extra_action_penalty,
        /// p.4: Detection by day...
        detection_day,
        /// p.4: ...and at night.
        detection_night,
        // Attack roll: range bands (p.1)
        /// p.1: in contact.
        point_blank,
        /// p.1: up to the Base Range.
        short,
        /// p.1: up to twice the Base Range.
        medium,
        /// p.1: up to four times the Base Range.
        long,
        /// p.1: up to eight times the Base Range.
        extreme,
        // Attacker's movement (p.1)
        /// p.1: did not move.
        stationary,
        /// p.1: moved at most half Combat Speed.
        half_combat,
        /// p.1: moved at Combat Speed.
        combat,
        /// p.1: moved at Top Speed.
        top,
        // Arc of attack, applied to the defence roll (R1)
        /// p.1: from the front.
        arc_front,
        /// p.1: from a flank.
        arc_flank,
        /// p.1: from the rear.
        arc_rear,
        /// Stand-in (R1): half the Front arc, degrees.
        front_half_angle,
        /// Stand-in (R1): half the Rear arc, degrees.
        rear_half_angle,
        // Other attack modifiers (p.5)
        /// p.5: non-infantry attacking infantry without an AI weapon.
        infantry_target_penalty,
        /// p.5: per Pinned counter on all Actions.
        pinned_penalty,
        // Damage against Armor (p.1, R2)
        /// Light Damage at this multiple of Base Armor.
        light_factor,
        /// Heavy Damage at this multiple.
        heavy_factor,
        /// Overkill at this multiple.
        overkill_factor,
        // Ammunition (p.4, R20)
        /// p.4: rounds per ROF point of a burst.
        burst_rounds,
        /// Stand-in (R20): rounds a single shot uses.
        single_shot_rounds,
        /// p.4: rounds of a saturation burst...
        saturation_rounds,
        /// p.4: ...or rockets.
        saturation_rockets,
        /// p.4: the least rounds for saturation fire...
        saturation_min_rounds,
        /// p.4: ...or rockets.
        saturation_min_rockets,
        /// p.4: side of the saturated square, cm.
        saturation_size,
        /// p.4: grenades and bayonets.
        infantry_melee_dm,
        /// p.5: the Pinned removal test's threshold.
        rally_threshold,
        // Movement (p.3-5)
        /// p.3: turns up to this cost no MP...
        turn_free_angle,
        /// p.3: ...larger ones cost this.
        turn_cost,
        /// p.4: cm forward between turns.
        turn_spacing,
        /// p.4: at Top Speed no turn over this.
        top_max_turn,
        /// p.5: infantry can always move this far.
        infantry_min_move,
        /// Stand-in (R9): counters touch at this distance centre to centre.
        contact_distance,
        /// p.5 range ruler: grenades reach this far.
        thrown_range,
        /// Stand-in (R9): a counter's size.
        counter_size,
        // Pinned (p.5, R5)
        /// p.5: counters for an attack that does not wound.
        pinned_on_miss,
        /// p.5: counters for one that wounds.
        pinned_on_wound,
    }
}

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
    /// Damage brought from the last battle of a campaign that does not repair (R37): Light
    /// and Heavy Damage boxes, and for a squad the troopers lost. None in shipped scenarios.
    #[serde(default)]
    pub light: u32,
    #[serde(default)]
    pub heavy: u32,
    #[serde(default)]
    pub casualties: u32,
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

impl TomlData for Scenario {
    const FILE: &'static str = "scenario";
}
