//! The procedures in progress: Assaut and Charge markers with the step each stands at, the
//! moves being carried out and the game's agenda of what happens next.

use super::*;

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
    pub result: Option<super::super::data::MeleeResult>,
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
    /// The target formed square when the Charge marker was placed (p.6 step 2): the cavalry
    /// may attempt to Recall before it moves, as for a square formed during the charge.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub marker_square: bool,
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
