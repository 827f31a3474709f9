//! The pieces on a map: ship silhouettes, counters with a unit symbol, bases of figures in a
//! formation, and what is written beside them (markers, status badges, hit tracks). Plain
//! data a ruleset's view fills; the renderer decides how each looks.

use serde::{Deserialize, Serialize};

use super::At;

/// A unit-type symbol on a counter, after the NATO convention (drawn by the renderer).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnitSymbol {
    Infantry,
    Cavalry,
    Armour,
    Artillery,
    Mortar,
    MachineGun,
    AntiTank,
    Headquarters,
    Recon,
    Engineer,
    /// A legged fighting machine.
    Walker,
    /// A wheeled or tracked vehicle that is not armour.
    Vehicle,
    /// Free text instead of a symbol (`2-4`, `Gun`).
    Text(String),
}

impl UnitSymbol {
    /// Every drawn symbol (all but free text), for tests and legends.
    pub const DRAWN: [UnitSymbol; 12] = [
        UnitSymbol::Infantry,
        UnitSymbol::Cavalry,
        UnitSymbol::Armour,
        UnitSymbol::Artillery,
        UnitSymbol::Mortar,
        UnitSymbol::MachineGun,
        UnitSymbol::AntiTank,
        UnitSymbol::Headquarters,
        UnitSymbol::Recon,
        UnitSymbol::Engineer,
        UnitSymbol::Walker,
        UnitSymbol::Vehicle,
    ];

    /// A plain word for it (legends, alt text).
    pub fn word(&self) -> &str {
        match self {
            UnitSymbol::Infantry => "infantry",
            UnitSymbol::Cavalry => "cavalry",
            UnitSymbol::Armour => "armour",
            UnitSymbol::Artillery => "artillery",
            UnitSymbol::Mortar => "mortar",
            UnitSymbol::MachineGun => "machine gun",
            UnitSymbol::AntiTank => "anti-tank",
            UnitSymbol::Headquarters => "headquarters",
            UnitSymbol::Recon => "reconnaissance",
            UnitSymbol::Engineer => "engineers",
            UnitSymbol::Walker => "walker",
            UnitSymbol::Vehicle => "vehicle",
            UnitSymbol::Text(t) => t,
        }
    }
}

/// How the figures of a base stand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Formation {
    /// Ranks across the front.
    Line,
    /// A narrow, deep block.
    Column,
    /// Facing out on every side.
    Square,
    /// Loose order, spread out.
    Skirmish,
    /// Riders.
    Mounted,
    /// Guns hooked to their limbers, ready to move.
    Limbered,
    /// Guns in action, crews beside them.
    Unlimbered,
    /// Dug in behind a parapet, facing all ways.
    Entrenched,
}

impl Formation {
    pub const ALL: [Formation; 8] = [
        Formation::Line,
        Formation::Column,
        Formation::Square,
        Formation::Skirmish,
        Formation::Mounted,
        Formation::Limbered,
        Formation::Unlimbered,
        Formation::Entrenched,
    ];

    pub fn word(self) -> &'static str {
        match self {
            Formation::Line => "line",
            Formation::Column => "column",
            Formation::Square => "square",
            Formation::Skirmish => "skirmish order",
            Formation::Mounted => "mounted",
            Formation::Limbered => "limbered",
            Formation::Unlimbered => "unlimbered",
            Formation::Entrenched => "entrenched",
        }
    }
}

/// Boxes of a hit track: `taken` of `of` crossed off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct HitTrack {
    pub taken: u32,
    pub of: u32,
}

/// How a unit is drawn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum UnitKind {
    /// A ship seen from above, pointing along `facing`, `length` map units long.
    /// `class` picks the silhouette (`BB`, `CA`, `CL`, `DD`).
    Ship { class: String, length: f64 },
    /// A square counter with a unit symbol and, below it, an optional value line (`4-6-4`).
    /// A facing is drawn as a wedge on the counter's front.
    Counter {
        symbol: UnitSymbol,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        value: Option<String>,
        /// Side of the counter in map units; none: a size that suits the map.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        size: Option<f64>,
    },
    /// A base of figures on a table: `width` across its front and `depth` front to back (map
    /// units), its front towards `facing`.
    Base {
        width: f64,
        depth: f64,
        formation: Formation,
        figures: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hits: Option<HitTrack>,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Condition {
    Active,
    /// Sunk or destroyed; still drawn where it went down.
    Wreck,
    /// Surrendered (a ship that struck her colours).
    Struck,
}

/// The colour a status badge takes, by what it means to the player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Tone {
    /// Harm done: disrupted, heavy damage, destroyed.
    Danger,
    /// Hampered: pinned, light damage, low on ammunition.
    Warning,
    /// A state worth knowing: moving fast, a modifier (`DRM +2`), a mode.
    Info,
    /// Used up for now: moved, fired, activated.
    Spent,
    /// Out of sight: concealed, hidden.
    Hidden,
    /// The viewer's own standing order on the unit (never shown to anyone else).
    Order,
}

impl Tone {
    pub const ALL: [Tone; 6] = [
        Tone::Danger,
        Tone::Warning,
        Tone::Info,
        Tone::Spent,
        Tone::Hidden,
        Tone::Order,
    ];
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "marker", content = "value", rename_all = "snake_case")]
pub enum Marker {
    /// Hit markers on the unit now.
    Hits(u32),
    /// Permanent critical effects, in the game's words (`Gunnery`, `Movement`).
    Critical(String),
    DeadInWater,
    Flagship,
    SecondInCommand,
    LayingSmoke,
    /// Anything else worth a word on the map (`halted`, `at anchor`).
    Note(String),
    /// A short status in a coloured badge (`pinned 2`, `fired`, `DRM +2`).
    Status {
        text: String,
        tone: Tone,
    },
}

impl Marker {
    pub fn status(text: impl Into<String>, tone: Tone) -> Marker {
        Marker::Status {
            text: text.into(),
            tone,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Unit {
    /// What the map writes beside the unit (usually the unit's name); unique in a scene.
    pub label: String,
    pub side: String,
    pub kind: UnitKind,
    pub at: At,
    /// Compass degrees (0 = up the map); `None` for units without a facing.
    #[serde(default)]
    pub facing: Option<f64>,
    pub condition: Condition,
    #[serde(default)]
    pub markers: Vec<Marker>,
    /// Where the unit moved this turn, oldest first (motion).
    #[serde(default)]
    pub track: Vec<At>,
}
