//! The ruleset's numbers and the scenarios, as read from `games/naval-rjw/*.toml`.
//! Values the seed lost are marked `stand_in = true` with a reason; this module only reads them.
//! Every rule number is a field of `Rules`, so a misspelt name fails to compile and a misspelt
//! key in the file fails when the game is set up.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::rulesets::kit::data::rule_numbers;
pub use crate::rulesets::kit::data::{Marked, Num, TomlData};

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
    /// Every other number of the rules.
    pub rules: Rules,
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

impl TomlData for RulesetData {
    const FILE: &'static str = "ruleset.toml";
}

rule_numbers! {
    /// The `[rules]` table: one field per number of the rules (distances in inches, angles in
    /// degrees; "p.N" is the printed page, "Rn" a ruling in the README).
    pub struct Rules {
        // Command Points (p.3)
        /// p.3: Average Die minus this gives 1-4 CP.
        cp_subtract,
        /// p.3: poor leadership subtracts this instead (0-3 CP).
        poor_cp_subtract,
        /// p.3: fresh / highly trained crews add this.
        fresh_cp_bonus,
        /// p.3: once the flagship is sunk, this much less on every roll.
        flagship_lost_cp,
        /// p.3: ships further than this from the flagship...
        command_radius,
        /// p.3: ...pay this many extra CP per action (R25).
        command_surcharge,
        /// p.3: CP to order a General Withdrawal (R16).
        withdrawal_cost,
        /// p.3: CP to order a General Chase (R16).
        chase_cost,
        /// p.5: line astern <-> line abreast, in total.
        formation_cost,
        // Movement (p.4-5)
        /// p.4: compulsory move straight ahead (a scenario may set its own).
        cruise,
        /// p.4: limited coal, off the maximum speed.
        coal_speed_penalty,
        /// p.4: foul bottom / poor maintenance, off the maximum speed.
        foul_speed_penalty,
        /// p.2: obsolete ships, off the maximum speed.
        obsolete_speed_penalty,
        /// p.7: speed a Movement critical loses for good.
        movement_critical_speed,
        /// p.5: each destroyer of a flotilla within this of another.
        flotilla_spacing,
        /// Stand-in (R25): how near the last ship's stern a joiner must be.
        join_reach,
        /// Stand-in (R25): how far off the line's course a joiner may steer.
        join_heading,
        /// Stand-in (R18): hulls this close collide.
        collision_touch,
        /// Stand-in (R18): a colliding ship is shifted until this clear.
        collision_clear,
        // Gunnery (p.6-7)
        /// p.6: close range is under this (R31).
        close_range,
        /// p.6: at close range.
        close_modifier,
        /// p.6: at extreme range.
        extreme_modifier,
        /// p.7: when broadside on (R32).
        broadside_modifier,
        /// p.7: target within this either side of the beam.
        broadside_half_arc,
        /// p.6: supports count "up to 2" (R4).
        max_supporters,
        /// p.6: per supporting vessel.
        support_modifier,
        /// p.6: a further bonus per supporting battleship (R4).
        bb_support_modifier,
        /// p.6: destroyers against a stationary target (R20).
        dd_stationary_modifier,
        /// p.7: secondary batteries count as a light cruiser's CF...
        secondary_cf,
        /// p.7: ...and range, against destroyers only.
        secondary_range,
        /// p.7: CF a Gunnery critical takes from all batteries.
        gunnery_critical_cf,
        /// p.2: obsolete ships' range reduced by this...
        obsolete_range_penalty,
        /// p.2: ...to this minimum (R30 applies it to extreme range too).
        obsolete_min_range,
        // Sinking, rescue, surrender (p.8)
        /// p.8: a friendly ship this near a sinking must rescue (R28).
        rescue_radius,
        /// p.8: the rescuer goes this near the wreck...
        rescue_proximity,
        /// p.8: ...and stays this many turns, not firing.
        rescue_turns,
        /// p.8: undamaged enemies this near count towards surrender...
        strike_enemy_radius,
        /// p.8: ...no friendly vessel this near...
        strike_friend_radius,
        /// p.8: ...and enemy CF this many times her own: she strikes (R10).
        strike_ratio,
        /// Stand-in (R10): how near "alongside" is.
        alongside,
        // Mines (p.8-9)
        /// p.8: a minefield attacks with this CF (R8).
        mine_cf,
        /// p.9: a minesweeper attacks the mines with this CF (R27).
        sweeper_cf,
        /// p.8: a field's length...
        minefield_length,
        /// p.8: ...and width.
        minefield_width,
        /// p.8: dummy fields allowed per genuine one (R26).
        dummies_per_genuine,
        /// Stand-in (R26): genuine fields a side may place before the game.
        pregame_genuine_max,
        /// Stand-in (R27): how near a field a sweeper must be.
        sweep_reach,
        /// Stand-in (R26): a laid belt is centred this far astern of the layer.
        lay_astern,
        // Winning and losing (p.9)
        /// p.9: the fraction of BB+CA, or of the fleet, lost that loses the battle (R9)...
        victory_fraction,
        /// p.9: ...with at least this many ships.
        victory_min,
        /// Stand-in (R9): a lost BB or CA counts this much at the turn limit.
        lost_capital_weight,
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
    /// Damage brought from the last battle of a campaign that does not repair (R67); the
    /// shipped scenarios have none.
    #[serde(default)]
    pub hit_markers: u32,
    /// Permanent criticals brought from the last battle (R67): `Movement`, `Gunnery`,
    /// `Control`, `Magazine`.
    #[serde(default)]
    pub criticals: Vec<String>,
    #[serde(default)]
    pub mine_crippled: bool,
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

impl TomlData for Scenario {
    const FILE: &'static str = "scenario";
}
