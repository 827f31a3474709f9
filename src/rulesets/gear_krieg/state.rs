//! The Gear Krieg game's full state (the truth, standing orders and queued activations
//! included) and the orders' syntax tree. Only `view.rs` may turn this into what a seat sees.
//! Add fields with `#[serde(default)]`, never rename or remove one.

use serde::{Deserialize, Serialize};

use crate::board::tabletop::Pt;
use crate::engine::{LogLine, Outcome};

use super::data::{InitialSpeed, MoveMode, Objective, RulesetData, ScenarioArea};

/// One infantry trooper: the weapon he carries and his damage circles.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Trooper {
    pub weapon: String,
    pub circles: u32,
    /// Circles crossed out; a casualty when all are.
    pub hits: u32,
}

impl Trooper {
    pub fn alive(&self) -> bool {
        self.hits < self.circles
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnitKind {
    Vehicle,
    Infantry,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Unit {
    pub name: String,
    pub side: String,
    /// Key into `RulesetData::vehicles` or `::infantry`.
    pub class: String,
    pub kind: UnitKind,
    pub pos: Pt,
    /// Compass degrees; meaningless for infantry (no facing).
    pub heading: f64,
    pub mode: MoveMode,
    /// Moving at Top Speed (declared after a full Combat move, or at set-up).
    pub top: bool,
    /// Declared stationary at set-up and not moved since (round 1 defence).
    pub initial: InitialSpeed,
    /// Distance moved in this round's activation (None: not moved yet this round).
    pub moved: Option<f64>,
    /// Distance of the last move made (previous rounds included), for defence rolls.
    pub last_move: f64,
    pub activated: bool,
    pub actions: u32,
    pub actions_used: u32,
    /// Extra actions declared in Step 1 (each −1 on every attack this round).
    pub extra_declared: u32,
    pub defensive: bool,
    /// A Command Point was spent on this unit this round (max one).
    pub cp_used: bool,
    /// Standing request: spend a CP on this unit's next defence roll this round.
    pub cp_defend: bool,
    /// Mode switched this round (once per round).
    pub mode_switched: bool,
    pub light: u32,
    pub heavy: u32,
    pub destroyed: bool,
    /// Ammunition left per weapon key (absent: unlimited).
    pub ammo: Vec<(String, u32)>,
    pub troopers: Vec<Trooper>,
    pub pinned: u32,
    /// Targets each weapon has attacked this round with walking fire (weapon, target).
    pub walked: Vec<(String, String)>,
    /// Overwatch (standing reactive fire), hidden from the enemy.
    pub overwatch: Option<Overwatch>,
    /// Overwatch shots fired this round.
    pub overwatch_fired: u32,
    /// Threat Value, for victory points.
    pub threat: u32,
}

impl Unit {
    pub fn is_infantry(&self) -> bool {
        self.kind == UnitKind::Infantry
    }

    pub fn alive(&self) -> bool {
        !self.destroyed
    }

    pub fn actions_left(&self) -> u32 {
        self.actions.saturating_sub(self.actions_used)
    }

    pub fn ammo_left(&self, weapon: &str) -> Option<u32> {
        self.ammo.iter().find(|(w, _)| w == weapon).map(|x| x.1)
    }

    pub fn living_troopers(&self) -> usize {
        self.troopers.iter().filter(|t| t.alive()).count()
    }
}

/// Whom an overwatch order fires at.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Filter {
    Any,
    Vehicles,
    Infantry,
    Unit(String),
}

/// A standing reactive-fire order: "unit U fires W at the first point where a mover matching F
/// comes within R cm and can be targeted, spending at most N actions per round".
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Overwatch {
    pub unit: String,
    pub weapon: Option<String>,
    pub filter: Filter,
    pub within: Option<f64>,
    pub actions: u32,
    pub rof: u32,
}

/// A recorded saturation zone (p.4): a 1×1 cm square that attacks every unit in or entering it
/// for the rest of the round.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Zone {
    pub centre: Pt,
    pub total: i32,
    pub dm: i32,
    pub by: String,
    pub weapon: String,
    /// Units already attacked by this zone (each once).
    pub struck: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Side {
    pub id: String,
    pub name: String,
    pub edge: String,
    pub cp: u32,
    /// Ask by email when no overwatch covers an interrupt (default) or never ask.
    pub ask_interrupts: bool,
    /// Step 1 waits for this side's declarations (default) or treats silence as "none".
    pub ask_declarations: bool,
    /// When this side decides who activates first: true = itself.
    pub choose_first: bool,
    /// Activations given in advance, in order (hidden from the enemy).
    pub queued: Vec<Block>,
    /// Victory points scored.
    pub vp: u32,
    /// Initiative roll of this round (for the log and view).
    pub initiative: Option<i32>,
}

/// Where the activation stopped for an interrupt question.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Paused {
    pub block: Block,
    /// Index of the next act to execute.
    pub next: usize,
    /// Distance already covered of that act when it is a move.
    pub done: f64,
    pub progress: Progress,
}

/// The mover's bookkeeping during an activation.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Progress {
    /// MP allowance of this activation (before the road bonus).
    pub mp: f64,
    pub spent: f64,
    /// Free road MP left (Ground mode on a road).
    pub road: f64,
    /// Centimetres moved (forward and reverse).
    pub distance: f64,
    pub reversed: f64,
    /// Forward cm since the last turn (None: no turn yet).
    pub since_turn: Option<f64>,
    /// Planned movement of the whole activation (counts for the mover's defence rolls).
    pub planned: f64,
    pub stopped: bool,
    /// Infantry volley: weapon keys fired in the current action.
    pub volley: Vec<String>,
    /// The start counts as in this terrain for treacherous checks.
    pub terrain: Option<super::data::TerrainKind>,
    pub asked: bool,
    /// MP taken from the road bonus.
    #[serde(default)]
    pub road_used: f64,
    /// Enemy units whose overwatch fired during this activation (once each).
    #[serde(default)]
    pub overwatched: Vec<String>,
    /// Something happened (a move or an action): otherwise the unit loses its chance.
    #[serde(default)]
    pub acted: bool,
    /// The unit was at Top Speed when its activation began.
    #[serde(default)]
    pub started_top: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// Step 1 (and the initial speeds in round 1): sealed, both seats.
    Declare,
    /// Step 3: `side` activates one unit.
    Activate {
        side: String,
    },
    /// An enemy activation stopped: `side` is asked "interrupt now?".
    Interrupt {
        side: String,
        mover: String,
    },
    GameOver,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GkState {
    pub data: RulesetData,
    pub scenario_name: String,
    pub description: String,
    pub width: f64,
    pub height: f64,
    pub night: bool,
    pub max_rounds: u32,
    pub winning_margin: u32,
    pub objectives: Vec<Objective>,
    pub terrain: Vec<ScenarioArea>,
    pub seat_order: Vec<String>,
    pub sides: Vec<Side>,
    pub units: Vec<Unit>,
    pub round: u32,
    pub phase: Phase,
    /// The side whose turn it is in the alternation (after any interrupt).
    pub to_play: String,
    pub zones: Vec<Zone>,
    pub paused: Option<Paused>,
    pub log: Vec<LogLine>,
    pub outcome: Option<Outcome>,
}

/// How a turn is written.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum TurnBy {
    Left(f64),
    Right(f64),
    To(f64),
}

/// Speed shift declared after moving.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Shift {
    Top,
    Combat,
}

/// How a weapon is fired.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum FireMode {
    At(String),
    Walk(Vec<String>),
    Saturate(Pt),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Fire {
    pub weapon: String,
    pub mode: FireMode,
    /// ROF points used (burst); 0 = a single shot.
    pub rof: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Melee {
    Punch,
    Kick,
    Ram,
    /// Infantry assault with grenades and bayonets.
    Assault,
}

/// One thing an activated unit does, in order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Act {
    Move(f64),
    Reverse(f64),
    Turn(TurnBy),
    /// Turn to face the point, then move to it.
    To(Pt),
    Mode(MoveMode),
    Speed(Shift),
    Fire(Fire),
    Melee(Melee, String),
    /// Remove one Pinned counter (Infantry Skill test).
    Rally,
    /// Spend a CP for an extra Action without penalty.
    CpExtra,
    /// Do nothing (the unit loses its chance this round).
    Hold,
}

/// One activation: `ACTIVATE unit [CP]` and its acts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Block {
    pub unit: String,
    /// Out of sequence, paid with a Command Point.
    pub cp: bool,
    pub acts: Vec<Act>,
}

/// Side-wide standing settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Setting {
    InterruptsAsk,
    InterruptsNever,
    DeclarationsAsk,
    DeclarationsSkip,
    ChooseFirst,
    ChooseSecond,
}

/// One order line, in the game's words. The canonical text is `orders::print`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Order {
    // Step 1 (sealed).
    Speed { unit: String, speed: InitialSpeed },
    Extra { unit: String, n: u32 },
    Defend(String),
    // Activation.
    Activate { unit: String, cp: bool },
    Act(Act),
    // Interrupt answer.
    Interrupt { unit: String, fire: Fire },
    NoInterrupt,
    // Any email.
    Overwatch(Overwatch),
    OverwatchOff(String),
    Set(Setting),
    CpDefend(String),
    CpAboutFace { unit: String, by: TurnBy },
    Pass,
}

pub type Orders = Vec<Order>;

// Units by name, sides by id and the enemy of a side: the kit's look-ups.
crate::rulesets::kit::roster::roster_of!(GkState, Side, Unit);

impl GkState {
    /// Live units of a side that have not been activated this round.
    pub fn unactivated(&self, side: &str) -> Vec<&Unit> {
        self.units
            .iter()
            .filter(|u| u.side == side && u.alive() && !u.activated)
            .collect()
    }

    pub fn alive(&self, side: &str) -> Vec<&Unit> {
        self.units
            .iter()
            .filter(|u| u.side == side && u.alive())
            .collect()
    }
}
