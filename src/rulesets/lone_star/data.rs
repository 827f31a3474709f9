//! Lone Star's numbers and scenarios as read from `games/lone-star/*.toml`. Values the seed
//! (MWAN #107, tables stripped) lost are marked `stand_in = true` with a reason. This module
//! only reads and checks data; it never rolls, moves or resolves anything.

use serde::{Deserialize, Serialize};

use crate::board::tabletop::Pt;
use crate::rulesets::kit::data::rule_numbers;
pub use crate::rulesets::kit::data::{Marked, Num, TomlData};

rule_numbers! {
    /// Every number of the rules, by the name `ruleset.toml` gives it.
    pub struct Rules {
        morale_max_figures,
        rout_two_figure_roll,
        combat_divisor,
        hits_per_figure,
        melee_range,
        line_penalty,
        cavalry_line_penalty,
        rough_factor,
        road_bonus,
        cavalry_road_bonus,
        sidestep_factor,
        obstacle_cost,
        square_move,
        firer_column,
        target_column,
        firer_in_river,
        target_entrenched,
        target_in_building,
        cover,
        double_cover,
        ambushed,
        flanking,
        cavalry_charge_bonus,
        cavalry_charge_enemy,
        mounted_shooting,
        shooting_at_mounted,
        hw_no_ammo,
        smoke_diameter,
        disengage_distance,
        charge_close_up,
        spotting_open,
        spotting_cover,
        sight_depth,
        prisoners_per_guard,
        prisoner_first_move,
        gas_attacker_loss_on,
        gas_target_loss_from,
        flamethrower_accident_max,
        flamethrower_accident_dice,
        retreat_fewer_stands_bonus,
        extra_move_fraction,
        stand_size,
        wagon_best,
        wagon_second,
        wagon_third,
        wagon_fourth,
        wagon_worst,
        wagon_min_fraction,
        wagon_casualty_on,
        wagon_stop_standard,
        wagon_stop_ramp,
        ramp_front_arc,
        wagon_hit_1_casualty_on,
        wagon_hit_23_casualty_on,
        wagon_hit_45_casualty_on,
        wagon_hit_destroyed_from,
        panjandrum_move_1,
        panjandrum_move_2,
        panjandrum_move_3,
        panjandrum_move_4,
        panjandrum_move_5,
        panjandrum_move_6,
        panjandrum_lost_rows_as,
        panjandrum_dud_on,
        panjandrum_men_explode_on,
        panjandrum_building_on,
        panjandrum_wall_section,
        panjandrum_woods_square,
        panjandrum_reach,
        zeppelin_move,
        zeppelin_straight_before_turn,
        zeppelin_after_turn,
        zeppelin_turn,
        aeroplane_move,
        aeroplane_turn,
        aeroplane_turn_every,
        aeroplane_turn_cost,
        mortar_rounds,
    }
}

/// One figure type's combat strengths (the seed's lost "Typical combat strengths" table).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Strength {
    pub short: Num,
    pub long: Num,
    pub melee: Num,
}

/// The figure types of a unit card, each with its strengths.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Figures {
    pub trooper: Strength,
    pub leader: Strength,
    pub grenadier: Strength,
    pub lmg: Strength,
    pub hmg: Strength,
    pub flamethrower: Strength,
    pub mortar: Strength,
    pub colors: Strength,
    pub red_cross: Strength,
}

/// `ruleset.toml`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesetData {
    pub rules: Rules,
    pub figures: Figures,
    /// Drawing styles of the terrain and zones.
    #[serde(default)]
    pub map: Option<crate::engine::scene::MapStyles>,
    /// Campaign numbers (R53–R58). Optional, and left out of the state when absent, so games
    /// started before campaigns (their journals embed the older file) replay to the same digests.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub campaign: Option<CampaignNumbers>,
}

/// `[campaign]` of `ruleset.toml`: what carrying a battle into the next one needs (the seed
/// has no campaign rules, so every one is a stand-in with its reason).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CampaignNumbers {
    /// R54: one figure in this many of a side's losses to hits comes back as walking wounded.
    pub wounded_one_in: Num,
    /// R55: a shaken unit's Esprit is this much lower (never below −1, L3).
    pub shaken_esprit: Num,
}

impl TomlData for RulesetData {
    const FILE: &'static str = "ruleset.toml";
}

/// What a unit is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Arm {
    Infantry,
    Cavalry,
    Artillery,
    Windwagon,
    /// R41–R43: a Turkish rocket spool.
    Panjandrum,
    /// R44: moves and lands troops; no air combat.
    Zeppelin,
    /// R44: moves; no air combat.
    Aeroplane,
}

impl Arm {
    /// The machines of R41–R45, which take no part in shooting or melee.
    pub fn is_machine(self) -> bool {
        matches!(self, Arm::Panjandrum | Arm::Zeppelin | Arm::Aeroplane)
    }
}

/// The heavy weapon of a unit (a 2-figure stand counts as one figure).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Heavy {
    Lmg,
    Hmg,
    Flamethrower,
    Mortar,
}

/// A gun's record card (L16).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GunCard {
    pub dice: u32,
    /// Inches of drift per point of the d10 (½ typical, 1 for poor guns).
    pub drift_per: f64,
    /// Blast ring diameter, 4" to 6".
    pub blast: f64,
    pub range_min: f64,
    pub range_max: f64,
    pub ammo: u32,
    /// Subtracted from the drift roll by good crews.
    #[serde(default)]
    pub drift_drm: u32,
}

/// One unit as the scenario deploys it: its record card and where it stands.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitCard {
    pub name: String,
    pub seat: String,
    pub arm: Arm,
    pub troopers: u32,
    #[serde(default)]
    pub leaders: u32,
    #[serde(default)]
    pub heavy: Option<Heavy>,
    #[serde(default)]
    pub grenadiers: u32,
    #[serde(default)]
    pub red_cross: bool,
    #[serde(default)]
    pub colors: bool,
    pub leadership: i32,
    pub zeal: i32,
    pub esprit: i32,
    #[serde(rename = "move")]
    pub move_rate: f64,
    #[serde(default)]
    pub mounted_move: Option<f64>,
    pub short: f64,
    pub long: f64,
    pub at: [f64; 2],
    pub facing: f64,
    #[serde(default = "column")]
    pub formation: String,
    #[serde(default)]
    pub hidden: bool,
    #[serde(default)]
    pub gas_masks: bool,
    #[serde(default)]
    pub armored: bool,
    #[serde(default)]
    pub smoke: u32,
    #[serde(default)]
    pub gas: u32,
    #[serde(default)]
    pub flame_shots: u32,
    /// The card's "Mortar" uses (L3): rounds of a mortar team (R50). Left out on a card
    /// with a mortar, the stand-in `rules.mortar_rounds`; never "out" before a shot.
    #[serde(default)]
    pub mortar_rounds: Option<u32>,
    #[serde(default = "yes")]
    pub disengage: bool,
    /// British and Texas regulars may form square.
    #[serde(default)]
    pub regulars: bool,
    #[serde(default)]
    pub british: bool,
    #[serde(default)]
    pub gun: Option<GunCard>,
    /// A British ramp-style windwagon (R37, R38).
    #[serde(default)]
    pub ramp: bool,
    /// Starts the game riding in this windwagon or zeppelin (R35).
    #[serde(default)]
    pub aboard: Option<String>,
    /// Campaigns (R55): it routed in the last battle and has not rallied; Esprit is lower.
    #[serde(default)]
    pub shaken: bool,
}

fn column() -> String {
    "column".into()
}

fn yes() -> bool {
    true
}

/// A piece of terrain: `kind` is woods, hill, rough, farm (a walled building), road, river,
/// ford, wall; areas give `poly` or `circle`, lines give `line` (and `width`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainCard {
    pub kind: String,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub poly: Vec<[f64; 2]>,
    #[serde(default)]
    pub circle: Option<[f64; 3]>,
    #[serde(default)]
    pub line: Vec<[f64; 2]>,
    #[serde(default)]
    pub width: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Objective {
    pub name: String,
    pub at: [f64; 2],
    pub radius: f64,
    pub points: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatCard {
    pub id: String,
    pub side: String,
    /// How mails name the seat's commander (`Captain Hays`).
    pub name: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideCard {
    pub id: String,
    pub name: String,
    /// What the side plays for, for the briefing.
    #[serde(default)]
    pub goal: String,
    /// Campaigns (R56): prisoners the side took in earlier battles and still holds.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub prisoners_held: u32,
    /// Campaigns (R53): the side's units lost in earlier battles, struck from later ones.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lost_units: Vec<String>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// The wind for windwagons: speed 1 (light) to 3 (strong), blowing from `from` (compass).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Wind {
    pub speed: u32,
    pub from: f64,
}

/// A scenario file.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub name: String,
    /// Words for the players' welcome (a campaign's battle gains its note here); the shipped
    /// scenarios have none.
    #[serde(default)]
    pub description: Option<String>,
    pub turns: u32,
    pub width: f64,
    pub height: f64,
    pub side: Vec<SideCard>,
    pub seat: Vec<SeatCard>,
    pub unit: Vec<UnitCard>,
    #[serde(default)]
    pub terrain: Vec<TerrainCard>,
    #[serde(default)]
    pub objective: Vec<Objective>,
    #[serde(default)]
    pub wind: Option<Wind>,
}

impl TomlData for Scenario {
    const FILE: &'static str = "scenario";
}

pub fn pt(a: [f64; 2]) -> Pt {
    Pt::new(a[0], a[1])
}
