//! What a seat is asked and what it sends: the questions, their answers, and the orders'
//! syntax tree (the canonical text is `orders::print`).

use super::*;

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
    /// A standing order sent after the question was put answers it (ruling SO1): the seat is
    /// no longer awaited, and silence takes the standing order, not R30's fixed answer.
    /// Never written while false, so the states of games before it hash as they did.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub standing_answers: bool,
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
