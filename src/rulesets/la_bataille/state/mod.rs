//! The whole La Bataille game state (the truth, standing orders included), the procedures in
//! progress, the questions a seat is asked and the orders' syntax tree. Only `view` may turn
//! this into what a seat sees. Add fields with `#[serde(default)]`; never rename or remove one.
//!
//! The procedures in progress live in `procedure`, the questions and the orders in `talk`;
//! both are re-exported here, so every type is `state::Name`.

use serde::{Deserialize, Serialize};

use crate::board::hex::{Hex, HexDir, HexGrid};
use crate::engine::{LogLine, Outcome};
use crate::rulesets::kit::roster::TwoSides;

use super::data::{Arm, RulesetData};

mod procedure;
mod talk;

pub use procedure::*;
pub use talk::*;

/// How a unit stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Formation {
    Line,
    Column,
    Square,
    /// A hasty square of disordered or skirmishing infantry (p.6).
    RallyingSquare,
    Skirmish,
    Limbered,
    Unlimbered,
}

impl Formation {
    pub fn word(self) -> &'static str {
        match self {
            Formation::Line => "line",
            Formation::Column => "column",
            Formation::Square => "square",
            Formation::RallyingSquare => "rallying square",
            Formation::Skirmish => "skirmish order",
            Formation::Limbered => "limbered",
            Formation::Unlimbered => "unlimbered",
        }
    }

    pub fn is_square(self) -> bool {
        matches!(self, Formation::Square | Formation::RallyingSquare)
    }

    /// As orders write it.
    pub fn keyword(self) -> &'static str {
        match self {
            Formation::Line => "LINE",
            Formation::Column => "COLUMN",
            Formation::Square => "SQUARE",
            Formation::RallyingSquare => "RALLYING",
            Formation::Skirmish => "SKIRMISH",
            Formation::Limbered => "LIMBERED",
            Formation::Unlimbered => "UNLIMBERED",
        }
    }

    pub fn parse(s: &str) -> Option<Formation> {
        [
            Formation::Line,
            Formation::Column,
            Formation::Square,
            Formation::RallyingSquare,
            Formation::Skirmish,
            Formation::Limbered,
            Formation::Unlimbered,
        ]
        .into_iter()
        .find(|f| f.keyword().eq_ignore_ascii_case(s) || f.word().eq_ignore_ascii_case(s))
    }
}

/// Good Order, Disordered or Routed (the base game's PGD, R3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cohesion {
    GoodOrder,
    Disordered,
    Routed,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Fatigue {
    Fresh,
    Tired,
    Exhausted,
}

impl Fatigue {
    /// As scenarios and the carry write it.
    pub fn word(self) -> &'static str {
        match self {
            Fatigue::Fresh => "fresh",
            Fatigue::Tired => "tired",
            Fatigue::Exhausted => "exhausted",
        }
    }

    pub fn parse(s: &str) -> Option<Fatigue> {
        [Fatigue::Fresh, Fatigue::Tired, Fatigue::Exhausted]
            .into_iter()
            .find(|f| f.word().eq_ignore_ascii_case(s))
    }

    /// `levels` steps less tired (R41): Exhausted → Tired → Fresh.
    pub fn rested(self, levels: u32) -> Fatigue {
        (0..levels).fold(self, |f, _| match f {
            Fatigue::Exhausted => Fatigue::Tired,
            _ => Fatigue::Fresh,
        })
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Unit {
    pub name: String,
    pub side: String,
    /// Key of `RulesetData::classes`.
    pub class: String,
    pub nation: String,
    pub arm: Arm,
    pub hex: Hex,
    pub facing: HexDir,
    pub formation: Formation,
    pub cohesion: Cohesion,
    pub fatigue: Fatigue,
    pub increments: u32,
    /// Increments at the start (for "half strength").
    pub full: u32,
    pub morale: u32,
    /// MP spent in this player turn.
    pub mp_spent: u32,
    /// Rounds of ammunition (artillery); `None`: unlimited.
    pub ammo: Option<u32>,
    /// The Number Marker: hexes from the target when the assault was declared.
    pub number: Option<u32>,
    /// A Firefight marker (locked in a firefight from an earlier result).
    pub firefight: bool,
    /// An inverted Charge marker: charged this game turn.
    pub charged: bool,
    /// Fired this player turn (Fire Segment or opportunity fire).
    pub fired: bool,
    pub eliminated: bool,
    /// The hex it entered its present hex from (displacement after an advance).
    pub came_from: Option<Hex>,
    /// An Old Guard unit that may exploit (p.5 Step 10): moves and assaults even if Disordered.
    #[serde(default)]
    pub exploiting: bool,
    /// Increments at the start of this battle when a campaign brought the unit in below its
    /// `full` strength (R39); `None`: it began at full. Left out of the state when `None`, so
    /// games without campaigns digest as before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub began: Option<u32>,
}

impl Unit {
    pub fn alive(&self) -> bool {
        !self.eliminated
    }

    /// Increments at the start of this battle (R40's losses are counted from it).
    pub fn began(&self) -> u32 {
        self.began.unwrap_or(self.full)
    }

    pub fn routed(&self) -> bool {
        self.cohesion == Cohesion::Routed
    }

    /// On the map and not routed: the unit fights, has a ZOI, can be a target.
    pub fn fighting(&self) -> bool {
        self.alive() && !self.routed()
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Leader {
    pub name: String,
    pub side: String,
    /// The unit the leader rides with; the leader is where it is.
    pub with: String,
    pub rating: u32,
    /// Captured or killed: off the map.
    #[serde(default)]
    pub gone: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Objective {
    pub name: String,
    pub hex: Hex,
    pub vp: u32,
    pub holder: String,
}

/// A yes/no decision with a standing answer, or asked by mail.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Policy {
    #[default]
    Ask,
    Always,
    Never,
}

impl Policy {
    pub fn word(self) -> &'static str {
        match self {
            Policy::Ask => "ASK",
            Policy::Always => "ALWAYS",
            Policy::Never => "NEVER",
        }
    }
}

/// `RETREAT BEFORE ASSAULT …`: also "if the odds are at least n:1".
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RetreatPolicy {
    #[default]
    Ask,
    Always,
    Never,
    /// Retreat when the attacker's odds (before shifts) are at least this many to one.
    IfOdds(u32),
}

/// `RECALL …`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RecallPolicy {
    #[default]
    Ask,
    Always,
    Never,
    /// Try to recall when the target forms square; never otherwise.
    IfSquare,
}

/// A choice the ruleset can make for the seat (`AUTO`) or ask by mail.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Choice {
    #[default]
    Ask,
    Auto,
}

/// A side's standing orders: the answers it gives in advance (hidden from the enemy).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Standing {
    pub pick: Choice,
    pub retreat_assault: RetreatPolicy,
    pub retreat_charge: Policy,
    pub reassault: Policy,
    pub huzzah: Policy,
    pub square: Policy,
    /// Per-unit square orders, overriding `square`.
    pub square_units: Vec<(String, Policy)>,
    pub recall: RecallPolicy,
    pub reaction: Policy,
    pub form_up: Policy,
    pub displace: Choice,
    pub impetus: Choice,
    pub pursue: Choice,
    /// Opportunity fire by this side's units (R17); on unless ordered off.
    pub no_opportunity_fire: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Side {
    pub id: String,
    pub name: String,
    pub standing: Standing,
    /// Enemy increments this side has eliminated (victory points before objectives).
    pub increments_taken: u32,
    /// Campaigns (R39, R43): units and leaders lost in earlier battles, kept so that a later
    /// battle that lists them again does not bring them back. Left out of the state when
    /// empty, so games without campaigns digest as before.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub gone: Vec<String>,
}

/// Where the game stands for the engine.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// The phasing player's Maneuver Segment orders.
    Maneuver {
        side: String,
    },
    /// A question to one seat in the middle of a procedure.
    Question {
        question: Question,
    },
    GameOver,
}

/// The segment of the player turn, for the mails.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Segment {
    Maneuver,
    Fire,
    Melee,
    Rally,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LbState {
    pub data: RulesetData,
    pub scenario_name: String,
    pub description: String,
    pub grid: HexGrid,
    /// Terrain of every hex that is not clear.
    pub terrain: Vec<(Hex, String)>,
    /// Names of terrain features, for the map.
    pub places: Vec<(Hex, String)>,
    pub objectives: Vec<Objective>,
    pub turns: u32,
    /// The side whose player turn comes first in each game turn.
    pub first_side: String,
    pub margin: u32,
    pub start: String,
    pub minutes_per_turn: u32,
    pub seat_order: Vec<String>,
    pub sides: Vec<Side>,
    pub units: Vec<Unit>,
    pub leaders: Vec<Leader>,
    pub turn: u32,
    /// The side whose player turn it is.
    pub phasing: String,
    /// 1 or 2: the first or second player turn of the game turn.
    pub player_turn: u32,
    pub segment: Segment,
    pub phase: Phase,
    pub agenda: Vec<Task>,
    pub assaults: Vec<Assault>,
    pub charges: Vec<Charge>,
    /// The answer to the open question, while the procedure that asked takes it.
    pub answer: Option<Answer>,
    /// Who picks the next mêlée in this segment.
    pub picker: Option<String>,
    /// Cavalry that has made its "begins to move or is marked to charge" trigger this turn.
    pub started: Vec<String>,
    /// The phasing player's fire plan for the Fire Segment: (firer, target hex).
    pub fire_plan: Vec<(String, Hex)>,
    pub next_id: u32,
    pub log: Vec<LogLine>,
    pub outcome: Option<Outcome>,
}

// Units by name, sides by id and the enemy of a side: the kit's look-ups.
crate::rulesets::kit::roster::roster_of!(LbState, Side, Unit);

impl LbState {
    pub fn standing(&self, side: &str) -> Standing {
        self.side(side)
            .map(|s| s.standing.clone())
            .unwrap_or_default()
    }

    pub fn label(&self, h: Hex) -> String {
        self.grid.label(h)
    }

    /// Units on the map in `h`, in list order.
    pub fn at(&self, h: Hex) -> Vec<&Unit> {
        self.units
            .iter()
            .filter(|u| u.alive() && u.hex == h)
            .collect()
    }

    pub fn names_at(&self, h: Hex) -> Vec<String> {
        self.at(h).iter().map(|u| u.name.clone()).collect()
    }

    /// The side holding `h`, if any unit is in it.
    pub fn side_at(&self, h: Hex) -> Option<String> {
        self.at(h).first().map(|u| u.side.clone())
    }

    pub fn assault(&self, id: u32) -> Option<&Assault> {
        self.assaults.iter().find(|a| a.id == id)
    }

    pub fn assault_mut(&mut self, id: u32) -> Option<&mut Assault> {
        self.assaults.iter_mut().find(|a| a.id == id)
    }

    pub fn charge(&self, id: u32) -> Option<&Charge> {
        self.charges.iter().find(|c| c.id == id)
    }

    pub fn charge_mut(&mut self, id: u32) -> Option<&mut Charge> {
        self.charges.iter_mut().find(|c| c.id == id)
    }

    pub fn terrain_at(&self, h: Hex) -> &str {
        self.terrain
            .iter()
            .find(|(x, _)| *x == h)
            .map_or("clear", |(_, k)| k.as_str())
    }

    pub fn say(&mut self, text: impl Into<String>) {
        self.log.push(LogLine::public(text));
    }

    /// A line only `seat` reads: what its enemy may not know yet (a charge's undeclared
    /// target, p.6 step 3).
    pub fn say_to(&mut self, seat: &str, text: impl Into<String>) {
        self.log.push(LogLine::private(seat, text));
    }

    pub fn fresh_id(&mut self) -> u32 {
        self.next_id += 1;
        self.next_id
    }

    /// The leaders riding with `unit`.
    pub fn leaders_with(&self, unit: &str) -> Vec<&Leader> {
        self.leaders
            .iter()
            .filter(|l| !l.gone && l.with == unit)
            .collect()
    }
}
