//! A map as one viewer may see it: plain serde data that a ruleset's view fills from what that
//! viewer knows, and that `render/` draws. No drawing here, and nothing the viewer may not know:
//! a hidden fact must never reach a `Scene`, because everything in it may end up in a picture.

use serde::{Deserialize, Serialize};

use crate::board::hex::{Address, HexGrid, MapBounds};

/// A point in map units: inches or centimetres from the lower-left corner of a table (y up the
/// table, north), or a hex map's coordinates (see `Surface::Hex`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct At {
    pub x: f64,
    pub y: f64,
}

impl At {
    pub const fn new(x: f64, y: f64) -> Self {
        Self { x, y }
    }
}

/// The whole picture for one viewer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Scene {
    /// Scenario name, e.g. `The Battle of the Yellow Sea`.
    pub title: String,
    /// The step in the game's words, e.g. `Turn 3 (Japan active): gunnery`.
    pub turn: String,
    /// Date and time as the game knows them, e.g. `10 August 1904, 12:30`.
    #[serde(default)]
    pub time: String,
    /// Whose picture this is, e.g. `As seen by Japan` or `Spectator`.
    pub viewer: String,
    pub surface: Surface,
    /// What the surface is where no area says otherwise.
    #[serde(default = "Terrain::default_sea")]
    pub ground: Terrain,
    #[serde(default)]
    pub terrain: Vec<TerrainArea>,
    /// Sides in a fixed order (the order picks their colours).
    pub sides: Vec<SideInfo>,
    #[serde(default)]
    pub units: Vec<Unit>,
    /// Minefields, smoke and other areas laid over the surface.
    #[serde(default)]
    pub zones: Vec<Zone>,
    /// Declared fire and similar intentions, only ever the viewer's own.
    #[serde(default)]
    pub arrows: Vec<Arrow>,
    #[serde(default)]
    pub legend: Vec<LegendEntry>,
    /// Draw a north arrow (maps whose headings are compass bearings).
    #[serde(default)]
    pub compass: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Measure {
    Inch,
    Cm,
}

impl Measure {
    /// The unit as a scale bar writes it.
    pub fn word(self) -> &'static str {
        match self {
            Measure::Inch => "inches",
            Measure::Cm => "cm",
        }
    }
}

/// What the map is drawn on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Surface {
    /// A tabletop: `At` is measured from the lower-left corner, y up the table.
    Table {
        width: f64,
        height: f64,
        unit: Measure,
    },
    /// A printed hex map: `At` is a point in `board::hex` map coordinates for hexes of size 1
    /// (x right, y *down* the sheet, origin at the centre of hex `0000`), as
    /// `grid.centre(hex, 1.0)` gives it. `bounds` says which printed hexes the sheet shows.
    Hex { grid: HexGrid, bounds: MapBounds },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Terrain {
    Sea,
    Shallows,
    Land,
    Open,
    Woods,
    Hill,
    Town,
    Rough,
    Marsh,
    River,
}

impl Terrain {
    fn default_sea() -> Terrain {
        Terrain::Sea
    }

    pub fn word(self) -> &'static str {
        match self {
            Terrain::Sea => "sea",
            Terrain::Shallows => "shallows",
            Terrain::Land => "land",
            Terrain::Open => "open ground",
            Terrain::Woods => "woods",
            Terrain::Hill => "hill",
            Terrain::Town => "town",
            Terrain::Rough => "rough",
            Terrain::Marsh => "marsh",
            Terrain::River => "river",
        }
    }
}

/// An outline on the map.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "shape", rename_all = "snake_case")]
pub enum Shape {
    Polygon {
        points: Vec<At>,
    },
    /// A rectangle `length` along `heading` (compass degrees) and `width` across it.
    Rect {
        centre: At,
        heading: f64,
        length: f64,
        width: f64,
    },
    Circle {
        centre: At,
        radius: f64,
    },
    /// One whole hex of a hex map, by its printed number.
    Hex {
        address: Address,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TerrainArea {
    pub terrain: Terrain,
    pub shape: Shape,
    #[serde(default)]
    pub label: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideInfo {
    pub id: String,
    /// As the legend names it, e.g. `Japan (you)`.
    pub name: String,
}

/// How a unit is drawn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum UnitKind {
    /// A ship seen from above, pointing along `facing`, `length` map units long.
    /// `class` picks the silhouette (`BB`, `CA`, `CL`, `DD`).
    Ship { class: String, length: f64 },
    /// A square counter with a short symbol (`INF`, `ARM`, `2-4`).
    Counter { symbol: String },
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

/// A minefield as the viewer knows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FieldKnown {
    Genuine,
    Dummy,
    /// The viewer knows a field is there but not whether it is genuine.
    Unknown,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "zone", rename_all = "snake_case")]
pub enum ZoneKind {
    Minefield { known: FieldKnown },
    Smoke,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Zone {
    pub kind: ZoneKind,
    pub shape: Shape,
    /// e.g. the field's id `M1`.
    #[serde(default)]
    pub label: Option<String>,
    /// The side it belongs to, when the viewer knows it.
    #[serde(default)]
    pub side: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ArrowKind {
    /// Declared fire, firer to target.
    Fire,
    /// Ordered movement.
    Move,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Arrow {
    pub kind: ArrowKind,
    pub side: String,
    pub from: At,
    pub to: At,
}

/// What a legend swatch shows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "symbol", content = "of", rename_all = "snake_case")]
pub enum Symbol {
    /// A unit of this side.
    Side(String),
    Wreck,
    Struck,
    Hits,
    Critical,
    DeadInWater,
    Flagship,
    Smoke,
    Track,
    Minefield(FieldKnown),
    Fire,
    Terrain(Terrain),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LegendEntry {
    pub symbol: Symbol,
    pub text: String,
}
