//! The whole truth of a game (hidden units, dummies, standing reactions and queued activations
//! included); the orders' syntax tree is in `syntax`, the look-ups and log writers in `lookup`.
//! Only `view` turns this into what a seat may see; nothing here decides a rule. Add fields
//! with `#[serde(default)]`, never rename one.

use serde::{Deserialize, Serialize};

use crate::board::hex::{Hex, HexDir};
use crate::engine::{LogLine, Outcome};

use super::data::{Kind, RulesetData};
use super::map::{Edge, Map};

mod lookup;
mod syntax;
pub use syntax::{Action, Mode, Order, Orders, Setting, Target};

/// §14 (bridge, R13): a unit's condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    #[default]
    Good,
    Regrouping,
    Disrupted,
    Shocked,
}

impl Status {
    pub fn word(self) -> &'static str {
        match self {
            Status::Good => "in good order",
            Status::Regrouping => "regrouping",
            Status::Disrupted => "disrupted",
            Status::Shocked => "shocked",
        }
    }
}

/// §10.4.1: a vehicle's Motion marker.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Motion {
    #[default]
    Stationary,
    Green,
    Red,
}

/// Where a counter is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Place {
    #[default]
    Map,
    /// A platoon's sections or squads not in play (§10.3.2–10.3.3).
    Pool,
    Eliminated,
    Exited,
    /// A platoon leader off the map until he returns (R26).
    Away,
}

/// The kind of action a unit took this game turn (§9.0: one per turn).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Done {
    Maneuver,
    Fire,
    Recover,
    Assault,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Unit {
    /// Unique, as players write it (`A1-2`, `MG-1`, `Pz-1`).
    pub name: String,
    pub side: String,
    /// Key into `RulesetData::classes`.
    pub class: String,
    pub kind: Kind,
    /// §1.9: the platoon; `None` for support units (§3.2) and dummies.
    pub platoon: Option<String>,
    pub place: Place,
    pub at: Hex,
    pub steps: u32,
    pub status: Status,
    #[serde(default)]
    pub heroic: bool,
    /// §4.3: under a Concealment marker.
    pub concealed: bool,
    /// §17.9 (R20): placed hidden, off the enemy's map.
    pub hidden: bool,
    /// The enemy has seen it unconcealed at some time (what it may still know).
    #[serde(default)]
    pub known: bool,
    /// §9.0: the action taken this game turn.
    pub done: Option<Done>,
    pub motion: Motion,
    /// §10.4.1: went into motion or stopped this turn (not both).
    #[serde(default)]
    pub started: bool,
    #[serde(default)]
    pub stopped: bool,
    /// Vehicles and FPs: the hexside their front faces.
    pub facing: Option<HexDir>,
    /// §10.4.5c: one overrun per game turn.
    #[serde(default)]
    pub overran: bool,
    /// Riding on, or carried by, this vehicle (R22).
    #[serde(default)]
    pub aboard: Option<String>,
    /// Under a bridge (in its river, §4.1.11).
    #[serde(default)]
    pub under_bridge: bool,
    /// When it entered its hex (walls: who was there first, §4.1.7; stacking order).
    #[serde(default)]
    pub arrived: u32,
    /// A Heroic unit loses the state after the game turn it acted in (R14).
    #[serde(default)]
    pub heroic_acted: bool,
    /// Campaigns (R42): green, veteran…; `None` is the counter as printed. The three fields
    /// below are written only when set, so states of games without campaigns keep their bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quality: Option<String>,
    /// Campaigns (R39): lost in an earlier mission; never in play in this one.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub lost: bool,
    /// Campaigns (R40): this section is what is left of that squad since an earlier mission.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stands_for: Option<String>,
}

impl Unit {
    pub fn on_map(&self) -> bool {
        self.place == Place::Map
    }

    pub fn vehicle(&self) -> bool {
        self.kind.vehicle()
    }

    pub fn dummy(&self) -> bool {
        self.kind == Kind::Dummy
    }

    pub fn acted(&self) -> bool {
        self.done.is_some()
    }

    pub fn disrupted(&self) -> bool {
        matches!(self.status, Status::Disrupted | Status::Shocked)
    }
}

/// A fire attack waiting for Phase III (§5.0 III: each DRM marker is one attack).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FireMarker {
    pub id: u32,
    pub kind: FireKind,
    /// Where it was placed (mortar markers stay in their hex).
    pub hex: Hex,
    /// The net DRM on the marker.
    pub drm: i32,
    /// Small arms and AT markers ride on the units fired at (§10.2b); mortars hit the hex.
    pub targets: Vec<String>,
    pub side: String,
    pub by: String,
    /// A mortar's secondary impact hex.
    #[serde(default)]
    pub secondary: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FireKind {
    SmallArms,
    AntiTank,
    Mortar,
}

impl FireKind {
    pub fn marker(self) -> &'static str {
        match self {
            FireKind::SmallArms => "SADRM",
            FireKind::AntiTank => "ATDRM",
            FireKind::Mortar => "MDRM",
        }
    }
}

/// An Assault Arrow (§13.1, bridge R17).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Arrow {
    pub units: Vec<String>,
    pub side: String,
    pub to: Hex,
    /// §6.0 II.3b Feint (rule lost, R17): the units stay where they are.
    pub feint: bool,
}

/// One enemy action a reacting unit may answer (§8.0a, §8.1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub unit: String,
    pub side: String,
    pub done: Done,
    /// Hexes entered (a maneuver) or the hex fired from or recovered in.
    pub hexes: Vec<Hex>,
    /// The unit was concealed while it acted (the enemy saw a marker).
    pub concealed: bool,
}

/// The Platoon Activation Cycle under way (§6.0 II).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Cycle {
    /// The activated platoon(s) (two when Coordination succeeded).
    pub platoons: Vec<String>,
    /// Units that may act in the activation (the platoons' and the ad hoc units, §7.2).
    pub members: Vec<String>,
    /// §7.2c: the AFV platoon whose units joined this cycle.
    pub afv_platoon: Option<String>,
    /// The side whose activation or reaction came last, and what it did (§8.0a).
    pub caller: String,
    pub last: Vec<Record>,
    /// Consecutive passes; two end the loop.
    pub passes: u32,
    /// Calls for Reaction made so far (the first carries the mandatory reactions, §9.1.2).
    pub calls: u32,
    /// §8.3b: platoon leaders who took an optional reaction this cycle, by side.
    pub leaders: Vec<(String, String)>,
}

/// A standing reaction (R18): what a unit does at a call for reaction without a mail.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Rule {
    /// Fire at an enemy unit whose action it saw, within `within` hexes (default its range).
    Fire { within: Option<u32> },
    /// Withdraw when an Assault Arrow points at its hex (§13.3.2).
    WithdrawIfAssaulted,
    /// Never react, unless an enemy action is within `unless` hexes: then ask.
    Pass { unless: Option<u32> },
    /// Take a mandatory action as a recovery.
    Recover,
}

impl Rule {
    /// A unit may have one conditional withdrawal and one other rule side by side (the
    /// README's `STANDING ALL FIRE WITHIN 6` with `STANDING ALL WITHDRAW IF ASSAULTED`): a new
    /// rule replaces only the one of its own kind for the same units.
    pub fn if_assaulted(&self) -> bool {
        matches!(self, Rule::WithdrawIfAssaulted)
    }
}

/// Who a standing reaction is for.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Who {
    All,
    Platoon(String),
    Unit(String),
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    pub who: Who,
    pub rule: Rule,
}

/// When the engine asks this side by mail at a call for reaction (R18).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ask {
    /// When a unit saw the enemy action or must act, and no standing reaction covers it.
    #[default]
    Uncovered,
    /// Never: uncovered units pass (mandatory ones recover).
    Never,
    /// At every call for Reaction.
    Always,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Side {
    pub id: String,
    pub name: String,
    /// `us` or `germany`: which counters it fields.
    pub nation: String,
    /// §5.0 I: Allied or Axis, for Initiative ties.
    pub allied: bool,
    pub fbe: Edge,
    pub ebe: Edge,
    pub initiative_drm: i32,
    pub coordination_drm: i32,
    pub attacker: bool,
    /// §17 casualty track: steps lost.
    pub casualties: u32,
    pub standing: Vec<Standing>,
    pub ask: Ask,
    /// §10.4.5 step 3 close defence, taken whenever allowed unless switched off (R16).
    pub close_defence: bool,
    /// Clean Up step 3: recombine whenever allowed unless switched off.
    pub recombine: bool,
    /// Activations given in advance, in order (hidden from the enemy).
    pub queued: Vec<Vec<Order>>,
    /// Random Event Confusion this turn: no Coordination.
    #[serde(default)]
    pub confused: bool,
    /// The setup step's orders were given (sealed).
    #[serde(default)]
    pub set_up: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Company {
    pub id: String,
    pub side: String,
    pub armour: bool,
    pub platoons: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Platoon {
    pub id: String,
    pub company: String,
    pub side: String,
    pub armour: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Objective {
    pub name: String,
    pub hex: Hex,
    pub points: i32,
    /// The side that controls it (last occupied it alone).
    pub held_by: Option<String>,
}

/// Victory levels by the attacker's final score (§18 lost; R25).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Level {
    pub at_least: i32,
    pub name: String,
    /// The side this level gives the game to, or `draw`. Every mission names it: the winner
    /// comes from the level, never from the sign of the score (a patrol's score of 2 is a
    /// German victory). Empty only in states saved before the field existed.
    #[serde(default)]
    pub winner: String,
}

/// The game turn under way.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Turn {
    pub number: u32,
    pub active: String,
    /// Held the Initiative on the previous turn (applies its DRM, §5.0 I).
    pub holder: String,
    /// §6.0 I: the company selected, while its platoons activate.
    pub company: Option<String>,
    pub companies_done: Vec<String>,
    pub platoons_done: Vec<String>,
    /// §7.2b: companies that used their one ad hoc infantry unit this turn.
    pub ad_hoc: Vec<String>,
    pub cycle: Option<Cycle>,
    /// Initiative rolls of this turn, for the log.
    pub rolls: Vec<(String, u32, i32)>,
    /// §7.1: the Coordination roll made for the selected company (None: not attempted).
    #[serde(default)]
    pub coordinated: Option<bool>,
    /// Mails asked for this game turn, by kind (`activate`, `react`, ...), for the figures.
    #[serde(default)]
    pub mails: u32,
    /// Platoon Activation Cycles run this game turn.
    #[serde(default)]
    pub cycles: u32,
    /// §5.0 IV (R34): the assault hexes in the order the active player gave (`ASSAULTS`).
    #[serde(default)]
    pub assault_order: Vec<Hex>,
}

/// What the game waits for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// Mission set-up (sealed, both sides): placement, hidden units, dummies.
    Setup,
    /// The active player activates a platoon.
    Activate { side: String },
    /// A call for Reaction is put to `side` by mail.
    React { side: String },
    /// §2.4: the owner picks which excess units are eliminated.
    Stacking { side: String },
    /// The mission is over. One name for the end across rulesets; the serialised name stays
    /// `over`, so a stored state (and the digest every journal records) reads the same.
    #[serde(rename = "over")]
    GameOver,
}

/// A concealment query answered this step (§4.3, R9).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Query {
    pub side: String,
    pub hex: Hex,
    pub afv: u32,
    pub fp: u32,
    pub carrier: u32,
    pub gun: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LhyState {
    pub data: RulesetData,
    pub scenario: String,
    pub description: String,
    /// "after 9/43" and the like: year * 100 + month.
    pub date: u32,
    pub map: Map,
    /// The LOS memo's key for this map and data.
    pub los_key: u64,
    pub seat_order: Vec<String>,
    pub sides: Vec<Side>,
    pub companies: Vec<Company>,
    pub platoons: Vec<Platoon>,
    pub units: Vec<Unit>,
    pub markers: Vec<FireMarker>,
    /// §4.2.4 Smoke markers (bridge R35: from `MORTAR … SMOKE`), with the side that placed
    /// them; hindrances until Phase V step 1 removes them.
    #[serde(default)]
    pub smoke: Vec<(Hex, String)>,
    pub arrows: Vec<Arrow>,
    /// Hexes under an Assault marker (§13.1), with the side that assaulted.
    pub assaults: Vec<(Hex, String)>,
    pub objectives: Vec<Objective>,
    pub levels: Vec<Level>,
    /// §17 Casualty Differential Limit.
    pub cdl: u32,
    pub max_turns: u32,
    /// §5.0 VI: the mission's minutes and the Time Lapse track.
    pub minutes: u32,
    pub elapsed: u32,
    /// Set-up zones: each side's hexes, by printed rows (R20).
    pub zones: Vec<(String, Vec<Hex>)>,
    pub dummies_allowed: Vec<(String, u32)>,
    pub turn: Turn,
    pub phase: Phase,
    pub queries: Vec<Query>,
    /// Counter of markers, arrivals and the like.
    pub serial: u32,
    pub log: Vec<LogLine>,
    pub outcome: Option<Outcome>,
    /// The result in the mission's words (`German victory: the village holds`), set with
    /// `outcome`: the game-over mail's subject says these words, its body carries them.
    #[serde(default)]
    pub result: Option<String>,
}
