//! The orders' syntax tree: one action, setting or order line as the parser reads it from a
//! mail. Data only: `orders` parses and prints it, `checks` and `action` judge and carry it
//! out; nothing here reads the state.

use serde::{Deserialize, Serialize};

use crate::board::hex::{Hex, HexDir};

use super::super::data::Kind;
use super::{Ask, Standing, Who};

/// Where a fire goes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Target {
    /// Small arms at every unit in the hex (§11.3).
    Hex(Hex),
    /// A unit the firer can see.
    Unit(String),
    /// AT fire at the top-most unit of this kind under a concealment marker (§4.3).
    Hidden(Hex, Kind),
}

/// Small arms or anti-tank fire, when the firer could use either.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Mode {
    SmallArms,
    AntiTank,
}

/// One unit's (or one stack's) action, in the players' words.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Action {
    /// MOVE: path of adjacent hexes; `stop` ends a vehicle's motion; `exit` leaves the map.
    Move {
        units: Vec<String>,
        path: Vec<Hex>,
        reverse: bool,
        deploy: bool,
        overrun: Option<Hex>,
        stop: bool,
        exit: bool,
    },
    Withdraw {
        units: Vec<String>,
        path: Vec<Hex>,
        exit: bool,
    },
    Fire {
        unit: String,
        target: Target,
        mode: Option<Mode>,
        /// §8.3e: a LATW maneuvers first.
        from: Vec<Hex>,
    },
    Mortar {
        unit: String,
        hex: Hex,
        /// `MORTAR … SMOKE` (bridge R35): a Smoke marker instead of MDRM markers.
        #[serde(default)]
        smoke: bool,
    },
    /// §10.4.2 Shoot & Scoot.
    Scoot {
        unit: String,
        target: Target,
        to: Option<Hex>,
    },
    /// §10.4.3 Halt & Fire.
    Halt {
        unit: String,
        to: Option<Hex>,
        target: Target,
    },
    Assault {
        units: Vec<String>,
        hex: Hex,
        feint: bool,
    },
    Recover {
        unit: String,
    },
    Deploy {
        unit: String,
    },
    Mount {
        unit: String,
        vehicle: String,
    },
    Dismount {
        unit: String,
    },
}

impl Action {
    /// The units that act.
    pub fn units(&self) -> Vec<String> {
        match self {
            Action::Move { units, .. }
            | Action::Withdraw { units, .. }
            | Action::Assault { units, .. } => units.clone(),
            Action::Fire { unit, .. }
            | Action::Mortar { unit, .. }
            | Action::Scoot { unit, .. }
            | Action::Halt { unit, .. }
            | Action::Recover { unit }
            | Action::Deploy { unit }
            | Action::Mount { unit, .. }
            | Action::Dismount { unit } => vec![unit.clone()],
        }
    }
}

/// A side-wide setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Setting {
    Reactions(Ask),
    CloseDefence(bool),
    Recombine(bool),
}

/// One order line. The canonical text is `orders::print`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Order {
    // Set-up (sealed).
    Place {
        unit: String,
        hex: Hex,
    },
    Hide {
        unit: String,
    },
    Dummy {
        hex: Hex,
    },
    Face {
        unit: String,
        dir: HexDir,
    },
    // Activation.
    Activate {
        platoon: String,
        with: Option<String>,
    },
    Attach {
        unit: String,
    },
    Act(Action),
    Hold {
        unit: String,
    },
    Query {
        hex: Hex,
    },
    Pass,
    Eliminate {
        unit: String,
    },
    /// `FEINT 0705` (R33): the Assault Arrow into that hex stays a feint at Marker Adjustment;
    /// `FEINT 0705 OFF` takes the declaration back. Hidden from the enemy until then.
    Feint {
        hex: Hex,
        off: bool,
    },
    /// `ASSAULTS 0705 0606` (R34): the active player's order of Assault Resolution (§13.5).
    AssaultOrder {
        hexes: Vec<Hex>,
    },
    // Any mail.
    Standing(Standing),
    StandingOff(Who),
    Set(Setting),
}

pub type Orders = Vec<Order>;
