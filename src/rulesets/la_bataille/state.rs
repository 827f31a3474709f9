//! The whole La Bataille game state (the truth, standing orders included), the procedures in
//! progress, the questions a seat is asked and the orders' syntax tree. Only `view` may turn
//! this into what a seat sees. Add fields with `#[serde(default)]`; never rename or remove one.

use serde::{Deserialize, Serialize};

use crate::board::hex::{Hex, HexDir, HexGrid};
use crate::engine::{LogLine, Outcome};

use super::data::{Arm, RulesetData};

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
}

impl Unit {
    pub fn alive(&self) -> bool {
        !self.eliminated
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
}

/// An assault (infantry or Old Guard) and its Assaut marker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Assault {
    pub id: u32,
    /// The side whose units assault (after any role swap).
    pub attacker: String,
    pub units: Vec<String>,
    /// Target hexes (the Assaut marker's arrows).
    pub targets: Vec<Hex>,
    /// An Old Guard Charge.
    pub guard: bool,
    /// Locked in a firefight from an earlier result.
    pub firefight: bool,
    /// Units that joined a firefight this turn (they use Distance modifiers, R11).
    pub joined: Vec<String>,
    /// To be resolved in the coming Mêlée Segment.
    pub due: bool,
    /// The resolution in progress.
    pub run: Option<AssaultRun>,
}

/// The steps of the Infantry Assault and Old Guard Charge procedures (p.1–5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AStage {
    RetreatBeforeAssault,
    NewAssault,
    UnsuppliedArtillery,
    MoraleChecks,
    Fire,
    Huzzah,
    Odds,
    AdvanceAfterMelee,
    Impetus,
    Exploitation,
    Finished,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AssaultRun {
    pub stage: AStage,
    /// Left column shifts from the defenders' shift rolls (Step 3).
    pub left: u32,
    /// Right column shifts (a successful Huzzah, Step 5).
    pub right: u32,
    /// Shifts won by British or KGL stacks (they turn right in a Huzzah).
    pub huzzah_shifts: u32,
    /// Mêlée DRM from the fire of Step 4 (+ favours the attacker).
    pub drm: i32,
    /// Stacks (hexes) whose Offensive or Defensive Fire is doubled.
    pub doubled: Vec<Hex>,
    /// British or KGL defending stacks that passed (may Huzzah).
    pub huzzah_hexes: Vec<Hex>,
    /// Use the Firefight column.
    pub firefight_column: bool,
    pub result: Option<super::data::MeleeResult>,
    /// Defenders' rout paths, for the impetus.
    pub retreat_paths: Vec<Vec<Hex>>,
    /// Units that advanced into a target hex.
    pub advanced: Vec<String>,
    /// Displacements waiting to be chosen: (hex, units that may go back, how many must).
    pub displace: Option<(Hex, Vec<String>, u32)>,
    pub impetus: u32,
    /// The defenders were all removed (surrendered or eliminated): any impetus path.
    pub any_path: bool,
    /// The defending side's Huzzah was decided.
    pub huzzah_done: bool,
    /// The Advance after Mêlée has been made (displacements may still be asked).
    #[serde(default)]
    pub advance_done: bool,
    /// Hexes whose advanced stack has made its impetus.
    #[serde(default)]
    pub impetus_done: Vec<Hex>,
}

impl AssaultRun {
    pub fn new() -> Self {
        AssaultRun {
            stage: AStage::RetreatBeforeAssault,
            left: 0,
            right: 0,
            huzzah_shifts: 0,
            drm: 0,
            doubled: vec![],
            huzzah_hexes: vec![],
            firefight_column: false,
            result: None,
            retreat_paths: vec![],
            advanced: vec![],
            displace: None,
            impetus: 0,
            any_path: false,
            huzzah_done: false,
            advance_done: false,
            impetus_done: vec![],
        }
    }
}

impl Default for AssaultRun {
    fn default() -> Self {
        Self::new()
    }
}

/// A cavalry charge and its Charge marker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Charge {
    pub id: u32,
    pub side: String,
    pub units: Vec<String>,
    /// Where the Charge marker lies: the start of the charge path.
    pub start: Hex,
    /// The charge path as ordered (hexes after the start; may be empty: the shortest way).
    pub via: Vec<Hex>,
    pub target: Hex,
    /// Light cavalry: try to Recall on entering this hex (p.6).
    pub recall_at: Option<Hex>,
    /// Hexes entered so far, the start first.
    pub path: Vec<Hex>,
    /// Charge MP spent.
    pub mp: u32,
    /// The target has been declared (the charge came within two hexes of it).
    pub declared: bool,
    /// Stacks (by a unit's name) that have made their square attempt in this charge.
    pub squares_tried: Vec<String>,
    /// Stacks that have made their Reaction Charge or Form Up attempt in this charge.
    pub reactions_tried: Vec<String>,
    pub stage: CStage,
    /// The charge reached a mêlée (for Tired or Exhausted).
    pub melee: bool,
    /// A reacting cavalry stack took over as the attacker (p.6 step 4).
    pub reactor_of: Option<u32>,
    /// Hexes the units that Retreated Before the Charge went into or through.
    pub retreated: Vec<Hex>,
    /// Left shifts, doubled Defensive Fire and fire DRM (vs infantry and artillery).
    pub left: u32,
    pub doubled: bool,
    pub drm: i32,
    /// What the charge met, once its mêlée began.
    pub kind: Option<TargetKind>,
}

/// What a charge meets (p.6 step 6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TargetKind {
    /// Routed units (the base game's PGD, R3).
    Pgd,
    InfantryArtillery,
    Cavalry,
}

/// Where a charge stands: its movement (p.6), then its mêlée procedure (p.6–8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CStage {
    /// Declared in the Maneuver Segment, not yet executed.
    Declared,
    /// Charge movement: the next hex to enter.
    Moving,
    /// Square attempts triggered in the hex just entered.
    Squares,
    /// The target formed square: Recall?
    SquareRecall,
    /// Reaction Charges and Form Up and Stand.
    Reactions,
    /// A light cavalry's ordered Recall.
    LightRecall,
    /// Adjacent to its target: waits for the mêlées.
    Arrived,
    RetreatBeforeCharge,
    Recall,
    Pursue,
    UnsuppliedArtillery,
    RollToStand,
    Fire,
    Resolve,
    Advance,
    Regroup,
    Over,
}

/// A move being carried out (resumable: cavalry moves stop for square attempts).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MoveRun {
    pub unit: String,
    pub path: Vec<Hex>,
    /// Next index of `path` to enter.
    pub at: usize,
    pub facing: Option<HexDir>,
    /// Square triggers of the hex just entered are still to be handled.
    pub triggers: bool,
    /// Stacks that made their square attempt in this move.
    pub squares_tried: Vec<String>,
    /// What the move is for: a plain move, or the approach of an assault.
    pub then: Option<AssaultDecl>,
}

/// An assault to declare when its approach ends.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AssaultDecl {
    pub targets: Vec<Hex>,
    pub number: u32,
    pub guard: bool,
    pub pas_de_charge: bool,
}

/// What the game does next, in order (the front first).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Task {
    /// The phasing player's maneuver orders, line `next` next.
    Orders {
        orders: Vec<Order>,
        next: usize,
    },
    Move(MoveRun),
    /// Square attempts of infantry within reach of cavalry that begins to move or is marked
    /// to charge (p.6 step 2, second case).
    StartTrigger {
        unit: String,
        event: String,
    },
    Assault(u32),
    ExecuteCharges,
    ChargeMove(u32),
    ChargeMelees,
    ChargeMelee(u32),
    PickCavalryMelee,
    FireSegment,
    MeleeSegment,
    PickAssault,
    EndPlayerTurn,
}

/// Which question a seat is asked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QKind {
    /// Which mêlée next (options: assault or charge labels).
    Pick,
    RetreatBeforeAssault,
    /// A new assault after the target retreated (options: hexes).
    NewAssault,
    Huzzah,
    /// Square attempts (options: unit names).
    Square,
    Recall,
    /// Reaction Charge or Form Up and Stand (options: unit names).
    Reaction,
    /// Retreat Before Charge, and Form Up and Stand for skirmishing cavalry.
    RetreatBeforeCharge,
    /// Units to displace back (options: unit names; `count` of them).
    Displace,
    /// The impetus path (options: the first hexes allowed).
    Impetus,
    /// Which unit a failed recall must pursue and charge (options: hexes).
    Pursue,
    /// Old Guard Charge Exploitation (p.5 step 10): maneuver orders for the units named in
    /// the options, or none.
    Exploit,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Question {
    pub seat: String,
    pub kind: QKind,
    /// What is asked, in the game's words.
    pub text: String,
    pub options: Vec<String>,
    /// How many options the answer names (Displace), or the impetus length.
    pub count: u32,
    /// Form Up is an answer (Retreat Before Charge of skirmishing cavalry).
    #[serde(default)]
    pub form_up: bool,
}

/// An answer to a question, given by mail or by a standing order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Answer {
    Pick(String),
    Retreat(bool),
    FormUp,
    NewAssault(Option<Hex>),
    Huzzah(bool),
    Square(Vec<String>),
    /// `None`: no recall; `Some(None)`: recall and end the charge; `Some(Some(h))`: new target.
    Recall(Option<Option<Hex>>),
    /// `(unit, form_up)`; `None`: no reaction.
    React(Option<(String, bool)>),
    Displace(Vec<String>),
    Impetus(Vec<Hex>),
    Pursue(Hex),
    /// The exploitation orders of Old Guard units (MOVE, FORM, FACE, ASSAULT, GUARD CHARGE).
    Exploit(Vec<Order>),
    /// Let the ruleset choose, as the seat's `AUTO` would (a silent seat's choice, R30).
    Auto,
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

impl LbState {
    pub fn unit(&self, name: &str) -> Option<&Unit> {
        self.units.iter().find(|u| u.name == name)
    }

    pub fn unit_mut(&mut self, name: &str) -> Option<&mut Unit> {
        self.units.iter_mut().find(|u| u.name == name)
    }

    pub fn side(&self, id: &str) -> Option<&Side> {
        self.sides.iter().find(|s| s.id == id)
    }

    pub fn side_mut(&mut self, id: &str) -> Option<&mut Side> {
        self.sides.iter_mut().find(|s| s.id == id)
    }

    pub fn side_name(&self, id: &str) -> String {
        self.side(id)
            .map_or_else(|| id.to_string(), |s| s.name.clone())
    }

    pub fn enemy_of(&self, side: &str) -> String {
        self.sides
            .iter()
            .find(|s| s.id != side)
            .map(|s| s.id.clone())
            .unwrap_or_default()
    }

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

/// One order line, in the game's words. The canonical text is `orders::print`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Order {
    Move {
        unit: String,
        path: Vec<Hex>,
        facing: Option<HexDir>,
    },
    Face {
        unit: String,
        facing: HexDir,
    },
    Form {
        unit: String,
        formation: Formation,
    },
    Assault {
        unit: String,
        targets: Vec<Hex>,
        via: Vec<Hex>,
        pas_de_charge: bool,
        guard: bool,
    },
    Charge {
        units: Vec<String>,
        target: Hex,
        via: Vec<Hex>,
        recall_at: Option<Hex>,
    },
    Fire {
        unit: String,
        target: Hex,
    },
    Attach {
        leader: String,
        unit: String,
    },
    Standing(StandingOrder),
    Answer(Answer),
    Pass,
}

/// One standing order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum StandingOrder {
    Pick(Choice),
    RetreatAssault(RetreatPolicy),
    RetreatCharge(Policy),
    Reassault(Policy),
    Huzzah(Policy),
    Square(Policy),
    SquareUnit(String, Policy),
    Recall(RecallPolicy),
    Reaction(Policy),
    FormUp(Policy),
    Displace(Choice),
    Impetus(Choice),
    Pursue(Choice),
    OpportunityFire(bool),
}

/// One mail's orders, with the map they name hexes on (the canonical form prints hexes as the
/// sheet numbers them).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Orders {
    pub grid: HexGrid,
    pub list: Vec<Order>,
}
