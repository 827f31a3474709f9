//! The numbers and charts of La Bataille as read from `games/la-bataille/*.toml`: the few the
//! seed prints, and every chart of the base game it only names, as stand-ins marked
//! `stand_in = true` with a reason. This module reads and checks them; it decides nothing.
//! Every rule number is a field, so a misspelt name does not compile and a misspelt key fails
//! when the game is set up.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::board::hex::{Address, HexGrid, MapBounds, Orientation, Shifted};
use crate::engine::SetupRefused;
use crate::engine::scene::MapStyles;
use crate::rulesets::kit::data::rule_numbers;
pub use crate::rulesets::kit::data::{Marked, Num, TomlData};

rule_numbers! {
    /// The single numbers of the rules (`[rules]`).
    pub struct Rules {
        /// p.6: charge movement allowance.
        charge_mp,
        /// p.6: a charge declares its target within this many hexes.
        target_declaration,
        /// p.6: infantry may attempt square when cavalry comes within this many hexes.
        square_trigger,
        /// p.7–8: regroup moves back this many hexes along the charge path.
        regroup_hexes,
        /// p.7: pursuit loss = (printed MP − charge MP spent) / this, rounded down.
        pursuit_divisor,
        /// p.2: ±DRM on the mêlée roll per casualty of the assault's fire.
        casualty_drm,
        /// p.1–2: fire multiplier of a stack that passed its morale check.
        pass_fire_multiplier,
        /// p.2: columns right for canister at an adjacent target.
        canister_shift,
        /// p.2: increments a routing stack loses per enemy Zone of Influence it leaves.
        zoi_loss,
        /// Dice of a morale check, Roll to Stand, square, recall (2d6 ≤ morale passes).
        morale_dice,
        /// Dice of the mêlée resolution roll.
        melee_dice,
        /// Combat units a hex may hold.
        stack_limit,
        /// Hexes of a rout move.
        rout_hexes,
        /// Hexes of a Retreat Before Assault.
        retreat_before_assault_hexes,
        /// Hexes of a Retreat Before Charge.
        retreat_before_charge_hexes,
        /// Hexes a bouncing charger falls back along its charge path.
        bounce_hexes,
        /// Reach of a reacting cavalry's Reaction Zone (hexes, front arc).
        reaction_zone,
        /// Range of opportunity fire (hexes, front arc).
        opportunity_range,
        /// MP to change formation (square, line, column, limber).
        form_cost,
        /// MP per hexside of a change of facing for units in line and artillery.
        face_cost,
        /// Added to the rally roll of a routed unit (a bonus when negative).
        rally_modifier,
        /// Victory points per enemy increment eliminated.
        vp_per_increment,
        /// Number Marker of a new assault declared after a Retreat Before Assault (R9).
        reassault_number,
    }
}

rule_numbers! {
    /// Attacker Morale Check Modifiers Chart (lost), added to the 2d6 roll.
    pub struct AttackerMorale {
        distance_1, distance_2, distance_3, distance_4_plus,
        column, line, skirmish, disordered, old_guard, leader, flank_rear,
        into_village, into_woods, half_strength,
    }
}

rule_numbers! {
    /// Defender Morale Check Modifiers Chart (lost), added to the 2d6 roll. Also the Huzzah's
    /// second check of the former attackers (p.2).
    pub struct DefenderMorale {
        line, column, square, skirmish, disordered, old_guard, leader, flank_rear,
        village, woods, hill, old_guard_attacker, outnumbered, half_strength,
    }
}

rule_numbers! {
    /// Roll to Stand vs. Cavalry Modifiers Chart (lost), added to the 2d6 roll.
    pub struct RollToStand {
        line, column, square, rallying_square, skirmish, disordered, artillery,
        old_guard, leader, flank_rear, village, woods, heavy_cavalry, half_strength,
    }
}

rule_numbers! {
    /// Square (Carré) Realization Chart (lost): modifiers to 2d6 and the bands of results.
    pub struct SquareChart {
        from_line, from_column, from_skirmish, disordered, huzzah_nation, old_guard, leader,
        cavalry_adjacent, cavalry_2, cavalry_far,
        /// Formed when the modified roll is at most morale + this.
        formed_margin,
        /// Not formed when at most morale + this; above it, not formed and Disordered.
        failed_margin,
    }
}

rule_numbers! {
    /// Recall (procedure lost): modifiers to the charger's 2d6 morale-style roll.
    pub struct RecallChart {
        light, tired, exhausted, old_guard, leader, target_in_square,
    }
}

rule_numbers! {
    /// Reaction Charge and Form Up and Stand: "all applicable Morale Check modifiers" (lost).
    pub struct ReactionChart {
        light, heavy, tired, leader, charger_heavy, skirmish,
    }
}

rule_numbers! {
    /// Mêlée Modifiers for Infantry and Artillery Chart (lost): multipliers of mêlée value.
    pub struct MeleeInfantry {
        attacker_column, attacker_line, skirmish, square_defending, disordered,
        old_guard, flank_rear, artillery, cavalry_defending,
    }
}

rule_numbers! {
    /// Mêlée Modifiers for Cavalry Chart (lost): multipliers of mêlée value.
    pub struct MeleeCavalry {
        vs_square, vs_rallying_square, vs_line, vs_column, vs_skirmish, vs_artillery,
        heavy_vs_light, disordered, tired, exhausted, flank_rear, defender_village, defender_woods,
    }
}

rule_numbers! {
    /// Shifts of the Fire Chart's columns (lost): positive is right (more casualties).
    pub struct FireShifts {
        point_blank, long_range, target_square, target_column, target_skirmish,
        target_limbered, disordered_firer,
        /// Multipliers of the firers' strength by their formation.
        column_factor, square_factor, skirmish_factor,
    }
}

rule_numbers! {
    /// Between two battles of a campaign (R39–R42): the seed has no campaign, night or
    /// recovery rules, so both are stand-ins.
    pub struct CampaignNumbers {
        /// R40: one increment in this many a unit lost in a battle comes back overnight.
        stragglers_per,
        /// R41: fatigue levels a unit recovers between two battles.
        night_rest,
    }
}

/// The Assaut et Mêlée Chart (lost): odds columns, the seed's new Firefight column, and the
/// results by modified roll from `lowest` (and below) to `highest` (and above).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeleeChart {
    pub columns: Marked<Vec<String>>,
    /// The least attacker:defender ratio of each column.
    pub ratios: Marked<Vec<f64>>,
    pub lowest: Num,
    pub highest: Num,
    /// One list per odds column, one result per roll from `lowest` to `highest`.
    pub results: Marked<Vec<Vec<String>>>,
    pub firefight: Marked<Vec<String>>,
    /// The rows a cavalry charge's mêlée reads (R38), one list per odds column as `results`:
    /// a charge has no assault fire to move its roll off a wide blank, and its blank is a
    /// bounce, so it keeps a narrower one.
    pub charge: Marked<Vec<Vec<String>>>,
}

/// The Fire Chart (lost): columns by fire strength, casualties (increments) by one die.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FireChart {
    /// The least strength of each column.
    pub strengths: Marked<Vec<f64>>,
    /// One list per column, one result per die face 1–6.
    pub results: Marked<Vec<Vec<u32>>>,
    pub shifts: FireShifts,
}

/// A unit's arm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Arm {
    Infantry,
    Cavalry,
    Artillery,
}

/// One class of counter: what its printed values are per increment.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClassData {
    pub name: String,
    pub arm: Arm,
    /// Light infantry or light cavalry (light cavalry may Recall at any time, p.6).
    #[serde(default)]
    pub light: bool,
    /// May make the Old Guard Charge (p.4).
    #[serde(default)]
    pub old_guard: bool,
    /// Heavy cavalry (cuirassiers, carabiniers, dragoons of the line).
    #[serde(default)]
    pub heavy: bool,
    /// Printed Movement Potential.
    pub mp: Num,
    /// Mêlée value per increment.
    pub melee: Num,
    /// Fire value per increment.
    pub fire: Num,
    /// Fire range in hexes.
    pub range: Num,
}

/// One kind of terrain.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainData {
    /// MP to enter.
    pub cost: Num,
    /// Charge MP to enter; 0: cavalry may not charge into it.
    pub charge_cost: Num,
    pub blocks_sight: Marked<bool>,
    /// Multiplier of the defenders' mêlée value in it.
    pub melee: Num,
    /// Fire Chart columns against a target in it (negative: left).
    pub fire_shift: Num,
}

/// Leader mêlée modifiers by rating (lost).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeaderChart {
    /// DRM on the mêlée roll in the leader's side's favour, index = rating − 1.
    pub melee: Marked<Vec<i32>>,
}

/// `games/la-bataille/ruleset.toml`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesetData {
    pub rules: Rules,
    /// p.2: the defender's column-shift roll, one entry per die face 1–6.
    pub shift_roll: Vec<u32>,
    /// Nations whose defenders may Huzzah (p.2: British and KGL).
    pub huzzah_nations: Vec<String>,
    pub attacker_morale: AttackerMorale,
    pub defender_morale: DefenderMorale,
    pub roll_to_stand: RollToStand,
    pub square: SquareChart,
    pub recall: RecallChart,
    pub reaction: ReactionChart,
    pub melee_infantry: MeleeInfantry,
    pub melee_cavalry: MeleeCavalry,
    pub assaut_et_melee: MeleeChart,
    pub fire: FireChart,
    pub leaders: LeaderChart,
    pub terrain: BTreeMap<String, TerrainData>,
    pub classes: BTreeMap<String, ClassData>,
    /// Drawing styles of terrain and zones (`engine::scene`); read by the view only.
    #[serde(default)]
    pub map: Option<MapStyles>,
    /// Campaign carry-over (R39–R42). Optional and left out of the state when absent, so a
    /// game journaled before campaigns existed sets up and digests as it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub campaign: Option<CampaignNumbers>,
}

impl TomlData for RulesetData {
    const FILE: &'static str = "ruleset.toml";
}

impl RulesetData {
    /// Reads and checks the file: every chart has the shape the code reads.
    pub fn load(text: &str) -> Result<Self, SetupRefused> {
        let d = Self::from_toml(text)?;
        let chart = &d.assaut_et_melee;
        let rows = (chart.highest.int() - chart.lowest.int() + 1).max(0) as usize;
        let cols = chart.columns.get();
        if cols.len() != chart.ratios.get().len() || cols.len() != chart.results.get().len() {
            return Err(SetupRefused::RulesetData(
                "ruleset.toml: assaut_et_melee needs one ratio and one result list per column"
                    .into(),
            ));
        }
        for (c, list) in cols.iter().zip(chart.results.get()) {
            if list.len() != rows {
                return Err(SetupRefused::RulesetData(format!(
                    "ruleset.toml: assaut_et_melee column {c} has {} results, not {rows}",
                    list.len()
                )));
            }
            for r in &list {
                MeleeResult::read(r).map_err(SetupRefused::RulesetData)?;
            }
        }
        if chart.charge.get().len() != cols.len() {
            return Err(SetupRefused::RulesetData(
                "ruleset.toml: assaut_et_melee.charge needs one list per column".into(),
            ));
        }
        for (c, list) in cols.iter().zip(chart.charge.get()) {
            if list.len() != rows {
                return Err(SetupRefused::RulesetData(format!(
                    "ruleset.toml: assaut_et_melee.charge column {c} has {} results, not {rows}",
                    list.len()
                )));
            }
            for r in &list {
                MeleeResult::read(r).map_err(SetupRefused::RulesetData)?;
            }
        }
        if chart.firefight.get().len() != rows {
            return Err(SetupRefused::RulesetData(
                "ruleset.toml: the firefight column needs one result per roll".into(),
            ));
        }
        for r in chart.firefight.get() {
            MeleeResult::read(&r).map_err(SetupRefused::RulesetData)?;
        }
        if d.fire.strengths.get().len() != d.fire.results.get().len()
            || d.fire.results.get().iter().any(|c| c.len() != 6)
        {
            return Err(SetupRefused::RulesetData(
                "ruleset.toml: fire needs one list of six results per strength".into(),
            ));
        }
        if d.shift_roll.len() != 6 {
            return Err(SetupRefused::RulesetData(
                "ruleset.toml: shift_roll needs six entries".into(),
            ));
        }
        for t in ["clear", "woods", "village", "hill"] {
            if !d.terrain.contains_key(t) {
                return Err(SetupRefused::RulesetData(format!(
                    "ruleset.toml: terrain `{t}` is missing"
                )));
            }
        }
        if d.leaders.melee.get().is_empty() {
            return Err(SetupRefused::RulesetData(
                "ruleset.toml: leaders.melee is empty".into(),
            ));
        }
        if let Some(c) = &d.campaign
            && c.stragglers_per.int() < 1
        {
            return Err(SetupRefused::RulesetData(
                "ruleset.toml: campaign.stragglers_per must be at least 1".into(),
            ));
        }
        if d.map.is_none() {
            return Err(SetupRefused::RulesetData(
                "ruleset.toml: the [map] section (drawing styles) is missing".into(),
            ));
        }
        Ok(d)
    }

    pub fn class(&self, key: &str) -> Option<&ClassData> {
        self.classes.get(key)
    }

    pub fn terrain(&self, kind: &str) -> &TerrainData {
        self.terrain
            .get(kind)
            .or_else(|| self.terrain.get("clear"))
            .expect("`clear` is checked at load")
    }

    /// The drawing styles (`[map]`, checked at load).
    pub fn styles(&self) -> MapStyles {
        self.map.clone().unwrap_or_default()
    }
}

/// A result of the Assaut et Mêlée Chart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum MeleeResult {
    /// Attackers Surrender.
    AttackerSurrenders,
    /// Attackers Rout.
    AttackerRouts,
    /// Blank: a firefight (infantry), a bounce (cavalry).
    Blank,
    /// Defenders Rout; the number is the impetus.
    DefenderRouts(u32),
    /// Defenders Surrender; the number is the impetus.
    DefenderSurrenders(u32),
}

impl MeleeResult {
    /// `AS`, `AR`, `-` (blank), `DR2`, `DS1`.
    pub fn read(s: &str) -> Result<MeleeResult, String> {
        let t = s.trim();
        let num = |rest: &str| -> Result<u32, String> {
            if rest.is_empty() {
                return Ok(0);
            }
            rest.parse()
                .map_err(|_| format!("`{s}` is not a result of the Assaut et Mêlée Chart"))
        };
        Ok(match t {
            "AS" => MeleeResult::AttackerSurrenders,
            "AR" => MeleeResult::AttackerRouts,
            "-" | "" => MeleeResult::Blank,
            _ if t.starts_with("DR") => MeleeResult::DefenderRouts(num(&t[2..])?),
            _ if t.starts_with("DS") => MeleeResult::DefenderSurrenders(num(&t[2..])?),
            _ => {
                return Err(format!(
                    "`{s}` is not a result of the Assaut et Mêlée Chart"
                ));
            }
        })
    }

    /// As the chart prints it.
    pub fn code(self) -> String {
        match self {
            MeleeResult::AttackerSurrenders => "AS".into(),
            MeleeResult::AttackerRouts => "AR".into(),
            MeleeResult::Blank => "blank".into(),
            MeleeResult::DefenderRouts(n) => format!("DR{n}"),
            MeleeResult::DefenderSurrenders(n) => format!("DS{n}"),
        }
    }
}

// ---- Scenarios ---------------------------------------------------------------------------

/// The printed map: columns and rows, first to last, as numbered on the sheet.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapSpec {
    pub columns: [u16; 2],
    pub rows: [u16; 2],
}

impl MapSpec {
    pub fn bounds(&self) -> MapBounds {
        MapBounds {
            first_column: self.columns[0],
            last_column: self.columns[1],
            first_row: self.rows[0],
            last_row: self.rows[1],
        }
    }

    /// La Bataille sheets: flat-topped hexes in columns, the first column half a hex down.
    pub fn grid(&self) -> HexGrid {
        HexGrid::new(Orientation::FlatTop, Shifted::Odd).with_bounds(self.bounds())
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioTerrain {
    pub kind: String,
    pub hexes: Vec<String>,
    #[serde(default)]
    pub name: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioObjective {
    pub name: String,
    pub hex: String,
    pub vp: u32,
    /// The side that holds it at the start (and while nobody else does).
    pub holder: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioUnit {
    pub name: String,
    pub class: String,
    pub nation: String,
    pub hex: String,
    pub facing: String,
    pub formation: String,
    pub increments: u32,
    pub morale: u32,
    /// Rounds of ammunition (artillery); absent: unlimited.
    #[serde(default)]
    pub ammo: Option<u32>,
    #[serde(default)]
    pub disordered: bool,
    /// Campaigns (R39–R42), written by the carry from an earlier battle, never needed by hand:
    /// the unit's full strength when it comes in below it (`increments` is what it has).
    #[serde(default)]
    pub full: Option<u32>,
    /// Still routed from the last battle (R42, `rally_routed = false`).
    #[serde(default)]
    pub routed: bool,
    /// `tired` or `exhausted` from the last battle (R41); absent: fresh.
    #[serde(default)]
    pub fatigue: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioLeader {
    pub name: String,
    /// The unit the leader rides with.
    pub with: String,
    pub rating: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioSide {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub units: Vec<ScenarioUnit>,
    #[serde(default)]
    pub leaders: Vec<ScenarioLeader>,
    /// Campaigns (R39, R43), written by the carry: units and leaders lost in earlier battles.
    #[serde(default)]
    pub gone: Vec<String>,
}

/// `games/la-bataille/scenarios/<name>.toml`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// Game turns; the game ends after the last.
    pub turns: u32,
    /// The side whose player turn comes first in each game turn.
    pub first: String,
    /// Victory points more than the enemy's needed to win; otherwise a draw.
    #[serde(default)]
    pub margin: u32,
    /// The time of the first turn and minutes per game turn, for the mails.
    #[serde(default)]
    pub start: String,
    #[serde(default)]
    pub minutes_per_turn: u32,
    pub map: MapSpec,
    #[serde(default)]
    pub terrain: Vec<ScenarioTerrain>,
    #[serde(default)]
    pub objectives: Vec<ScenarioObjective>,
    pub sides: Vec<ScenarioSide>,
}

impl TomlData for Scenario {
    const FILE: &'static str = "scenario";
}

/// A hex number from the data, checked against the map.
pub fn hex_of(grid: HexGrid, s: &str, what: &str) -> Result<crate::board::hex::Hex, SetupRefused> {
    let a: Address = s
        .parse()
        .map_err(|e| SetupRefused::Scenario(format!("scenario: {what}: {e}")))?;
    let h = grid.hex(a);
    if !grid.on_map(h) {
        return Err(SetupRefused::Scenario(format!(
            "scenario: {what}: hex {s} is off the map"
        )));
    }
    Ok(h)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHIPPED: &str = include_str!("../../../games/la-bataille/ruleset.toml");

    #[test]
    fn the_shipped_file_loads_and_its_charts_have_their_shapes() {
        let d = RulesetData::load(SHIPPED).unwrap();
        assert_eq!(d.shift_roll, vec![0, 0, 1, 1, 2, 2]);
        assert!(d.styles().terrain.contains_key("woods"));
        assert_eq!(d.rules.charge_mp.int(), 5);
        assert!(!d.rules.charge_mp.is_stand_in());
        assert!(d.rules.stack_limit.is_stand_in());
    }

    #[test]
    fn results_read_as_the_chart_prints_them() {
        assert_eq!(MeleeResult::read("DR2"), Ok(MeleeResult::DefenderRouts(2)));
        assert_eq!(
            MeleeResult::read("DS"),
            Ok(MeleeResult::DefenderSurrenders(0))
        );
        assert_eq!(MeleeResult::read("-"), Ok(MeleeResult::Blank));
        assert!(MeleeResult::read("XX").is_err());
        assert_eq!(MeleeResult::DefenderRouts(1).code(), "DR1");
    }

    #[test]
    fn a_chart_of_the_wrong_shape_is_refused_at_load() {
        let bad = SHIPPED.replacen("shift_roll = [0, 0, 1, 1, 2, 2]", "shift_roll = [0, 1]", 1);
        assert!(
            RulesetData::load(&bad)
                .unwrap_err()
                .to_string()
                .contains("shift_roll")
        );
    }
}
