//! The naval game's full state (the truth, hidden parts included) and the orders' syntax tree.
//! Only `view.rs` may turn this into what a seat sees. Shared by every naval module: add fields
//! with `#[serde(default)]`, never rename or remove one.

use serde::{Deserialize, Serialize};

use crate::board::tabletop::{Hull, Pt};
use crate::engine::LogLine;
use crate::rulesets::kit::roster::{SideCard, TwoSides};

use super::data::{Crews, Formation, Leadership, RulesetData, ShipClass};

/// Critical hit kinds (p.7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Critical {
    Movement,
    Gunnery,
    Control,
    Magazine,
}

/// Why a ship is out of the fight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Fate {
    Afloat,
    Sunk,
    /// Struck her colours (p.8); `captured_by` on the ship tells whether she was taken.
    Struck,
    /// Left the table under General Withdrawal: escaped, not lost.
    Escaped,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ship {
    pub name: String,
    pub side: String,
    pub class: ShipClass,
    pub hull: Hull,
    pub obsolete: bool,
    pub minelayer: bool,
    pub minesweeper: bool,
    pub foul_bottom: bool,
    pub note: String,
    pub fate: Fate,
    /// Hit markers on the ship now.
    pub hit_markers: u32,
    /// True while one of the hit markers came with a critical: dead in the water (ruling R11).
    pub critical_marker: bool,
    /// Permanent critical effects taken, in order.
    pub criticals: Vec<Critical>,
    /// Crippled by mines (p.8) — counts as crippled for victory.
    pub mine_crippled: bool,
    /// Moved (turned, full speed, or compulsory) this player turn.
    pub moved: bool,
    /// Halted this turn by a CP (no compulsory move).
    pub halted: bool,
    /// In port or at anchor: halted for free.
    pub anchored: bool,
    /// Declared laying smoke this turn (DDs).
    pub smoke: bool,
    /// On rescue duty: the wreck's name and the turns still to wait once within 1".
    pub rescue: Option<RescueDuty>,
    /// Sent to take possession of a struck enemy ship.
    pub capturing: Option<String>,
    /// For a struck ship: the enemy ship that took possession.
    pub captured_by: Option<String>,
    /// Where the ship's hull was at each point of this turn's movement (for followers and logs).
    #[serde(default)]
    pub path: Vec<Pt>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RescueDuty {
    pub wreck: String,
    pub wreck_at: Pt,
    /// `None` while still steaming to the wreck; `Some(n)` owner-turns left alongside it.
    pub turns_left: Option<u32>,
}

/// A battle line or a destroyer flotilla, lead first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Group {
    pub name: String,
    pub side: String,
    pub ships: Vec<String>,
    pub formation: Formation,
    /// True for a destroyer flotilla, false for a battle line.
    pub flotilla: bool,
}

impl Group {
    /// SPLIT: the ships from `pos` astern leave as a new line or flotilla, led by the first.
    pub fn split_astern(&mut self, pos: usize) -> Group {
        let tail = self.ships.split_off(pos);
        Group {
            name: format!("{}'s line", tail[0]),
            side: self.side.clone(),
            ships: tail,
            formation: self.formation,
            flotilla: self.flotilla,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Minefield {
    /// Stable id shown to players (`M1`, `M2`, …).
    pub id: String,
    pub owner: String,
    pub centre: Pt,
    pub heading: f64,
    /// Hidden from the opponent until it attacks (genuine) or vanishes (dummy).
    pub genuine: bool,
    /// Laid during play (visible as such to both) or pre-placed.
    pub laid_in_play: bool,
    /// A pre-placed genuine field that has attacked a ship: both sides now know it is genuine.
    #[serde(default)]
    pub revealed: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Fleet {
    pub side: String,
    pub name: String,
    pub leadership: Leadership,
    pub crews: Crews,
    pub capital_gunnery_bonus: i32,
    pub coal_limited: bool,
    pub cruise: f64,
    pub withdrawal_heading: f64,
    /// Current flagship and second-in-command (names); `None` when lost.
    pub flagship: Option<String>,
    pub second: Option<String>,
    /// The original flagship has been lost: −1 CP permanently.
    pub flagship_lost: bool,
    pub withdrawal: bool,
    pub chase: bool,
    /// Standing fire orders for when this side is not asked (see `FireOrder`).
    pub standing_fire: Option<StandingFire>,
    /// Ships that must be sent to rescue survivors (wreck names) and are not yet assigned.
    pub rescue_owed: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StandingFire {
    /// Every ship fires at the nearest legal target; secondaries at the nearest destroyer.
    Nearest,
    /// Every ship fires at the enemy flagship if legal, else the nearest legal target.
    Flagship,
}

/// Where the game is in the sequence of play.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// Both seats nominate flagship and second-in-command and place pre-game minefields (sealed).
    Setup,
    /// Steps 2–4 of the active player's turn: repair, manoeuvre, halt (one email).
    Manoeuvre,
    /// Steps 5–6: the non-active player's fire plan (and the active one's if not yet given).
    Fire,
    GameOver,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NavalState {
    pub data: RulesetData,
    pub scenario_name: String,
    pub scenario_date: String,
    pub width: f64,
    pub height: f64,
    pub max_turns: u32,
    pub limited_ammunition: bool,
    pub high_sea_state: bool,
    /// Seat order (the dice protocol's fixed order).
    pub seat_order: Vec<String>,
    pub fleets: Vec<Fleet>,
    pub ships: Vec<Ship>,
    pub groups: Vec<Group>,
    pub minefields: Vec<Minefield>,
    pub phase: Phase,
    /// Player turns played so far + 1 (the turn in progress), from 1.
    pub turn: u32,
    /// The active side this turn.
    pub active: String,
    /// CP rolled for the active player this turn, and what is left after manoeuvre.
    pub cp_rolled: i32,
    pub cp_left: i32,
    /// The active player's fire plan if given with the manoeuvre orders (sealed until the fire step).
    pub pending_fire: Option<Vec<FireOrder>>,
    /// The last resolution's turn log.
    pub log: Vec<LogLine>,
    pub outcome: Option<crate::engine::Outcome>,
}

// A fleet is the side: its `side` is the id orders carry, its `name` the one mails print.
impl SideCard for Fleet {
    fn id(&self) -> &str {
        &self.side
    }
    fn name(&self) -> &str {
        &self.name
    }
}

impl TwoSides for NavalState {
    type Side = Fleet;
    fn sides(&self) -> &[Fleet] {
        &self.fleets
    }
    fn sides_mut(&mut self) -> &mut [Fleet] {
        &mut self.fleets
    }
}

/// Where a turn is measured from: absolute compass heading or relative.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum TurnBy {
    Port(f64),
    Starboard(f64),
    /// Turn to this compass heading by the shorter way.
    To(f64),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FireOrder {
    pub ship: String,
    /// `true`: the secondary battery (only at destroyers).
    pub secondary: bool,
    /// Targets in preference: the first legal one is engaged (`ELSE`).
    pub targets: Vec<String>,
    pub support: Vec<String>,
}

/// One order line, in the game's words. The canonical text is `orders::print`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Order {
    // Set-up step.
    Flagship(String),
    Second(String),
    /// Pre-game minefield (genuine or dummy) at a point with a heading.
    Minefield {
        genuine: bool,
        at: Pt,
        heading: f64,
    },
    // Active player's turn (steps 2–4).
    Repair {
        ship: String,
        markers: u32,
    },
    Turn {
        ship: String,
        by: TurnBy,
    },
    /// Full-speed move; `None` = the ship's maximum speed.
    Move {
        ship: String,
        distance: Option<f64>,
    },
    Halt(String),
    Leave(String),
    Join {
        ship: String,
        group_of: String,
    },
    Split {
        at: String,
    },
    FormAbreast(String),
    FormAstern(String),
    Withdraw,
    Chase,
    Lay(String),
    Sweep {
        ship: String,
        field: String,
    },
    Rescue {
        wreck: String,
        with: Vec<String>,
    },
    Capture {
        prize: String,
        with: String,
    },
    Smoke(String),
    // Fire (steps 5–6).
    Fire(FireOrder),
    /// Set or clear standing fire orders for the turns this side is not asked.
    Standing(Option<StandingFire>),
    /// Nothing (more) to order this step.
    Pass,
    /// The player's `END`: the orders end here. Orders nothing, like `Pass`, but the receipt
    /// echoes it as written.
    End,
}

pub type Orders = Vec<Order>;
