//! A map as one viewer may see it: plain serde data that a ruleset's view fills from what that
//! viewer knows, and that `render/` draws. No drawing here, and nothing the viewer may not know:
//! a hidden fact must never reach a `Scene`, because everything in it may end up in a picture.
//! The vocabulary is open: terrain kinds are styles a ruleset declares in its data (`style`),
//! units are ships, counters or bases of figures (`unit`), zones are styled by what they are.

mod style;
mod unit;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::board::hex::{Address, HexGrid, MapBounds};

pub use style::{Colour, Form, MapStyles, Pattern, Style, StyleRefused};
pub use unit::{Condition, Formation, HitTrack, Marker, Tone, Unit, UnitKind, UnitSymbol};

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
    /// The style (a key of `styles`) of the surface where no area says otherwise; none:
    /// plain paper.
    #[serde(default)]
    pub ground: Option<String>,
    /// The drawing styles of the terrain kinds and styled zones this picture uses, by name.
    #[serde(default)]
    pub styles: BTreeMap<String, Style>,
    /// Areas and lines of terrain, later ones on top.
    #[serde(default)]
    pub terrain: Vec<TerrainArea>,
    /// Sides in a fixed order (the order picks their colours).
    pub sides: Vec<SideInfo>,
    #[serde(default)]
    pub units: Vec<Unit>,
    /// Minefields, smoke, zones of control, objectives and other areas laid over the surface.
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
    /// The side whose units are the viewer's own (a seat's side; none for a spectator). The
    /// mail's picture centres on them: see `render::focus`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub own_side: Option<String>,
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
    /// A centre line `width` map units wide (a road, river, wall); width 0: the style's width.
    Line {
        points: Vec<At>,
        #[serde(default)]
        width: f64,
    },
}

/// One piece of terrain: a style of the scene's `styles` and where it lies.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TerrainArea {
    pub style: String,
    pub shape: Shape,
    /// Its name (`Hill 112`), drawn inside it where it fits.
    #[serde(default)]
    pub label: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideInfo {
    pub id: String,
    /// As the legend names it, e.g. `Japan (you)`.
    pub name: String,
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
    Minefield {
        known: FieldKnown,
    },
    Smoke,
    /// Where a side's units hold sway (in its colour).
    Control,
    /// A blast circle or template where fire lands.
    Blast,
    /// A place to take or hold; `label` is its name.
    Objective,
    /// Any other area, drawn in a style of the scene's `styles`.
    Styled {
        style: String,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Zone {
    pub kind: ZoneKind,
    pub shape: Shape,
    /// e.g. the field's id `M1`, an objective's name.
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
    /// An ordered-movement arrow (`ArrowKind::Move`), e.g. Last Hundred Yards' Assault Arrow.
    Move,
    /// A terrain or zone style of the scene, by name.
    Style(String),
    /// A counter's unit symbol.
    Unit(UnitSymbol),
    /// A base of figures in this formation.
    Formation(Formation),
    /// The wedge that shows a counter's or base's front.
    Facing,
    Control,
    Blast,
    Objective,
    /// A status badge of this tone.
    Status(Tone),
    HitTrack,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LegendEntry {
    pub symbol: Symbol,
    pub text: String,
}

impl Scene {
    /// Does this picture show what `symbol` stands for? A legend lists only what the scene
    /// uses, so that it hints at nothing (views build their legends; tests hold them to this).
    pub fn uses(&self, symbol: &Symbol) -> bool {
        let marker =
            |p: &dyn Fn(&Marker) -> bool| self.units.iter().any(|u| u.markers.iter().any(p));
        let zone = |p: &dyn Fn(&ZoneKind) -> bool| self.zones.iter().any(|z| p(&z.kind));
        match symbol {
            Symbol::Side(s) => self.units.iter().any(|u| u.side == *s),
            Symbol::Wreck => self.units.iter().any(|u| u.condition == Condition::Wreck),
            Symbol::Struck => self.units.iter().any(|u| u.condition == Condition::Struck),
            Symbol::Hits => marker(&|m| matches!(m, Marker::Hits(_))),
            Symbol::Critical => marker(&|m| matches!(m, Marker::Critical(_))),
            Symbol::DeadInWater => marker(&|m| *m == Marker::DeadInWater),
            Symbol::Flagship => {
                marker(&|m| matches!(m, Marker::Flagship | Marker::SecondInCommand))
            }
            Symbol::Smoke => zone(&|k| *k == ZoneKind::Smoke),
            Symbol::Track => self.units.iter().any(|u| !u.track.is_empty()),
            Symbol::Minefield(known) => zone(&|k| *k == ZoneKind::Minefield { known: *known }),
            Symbol::Fire => self.arrows.iter().any(|a| a.kind == ArrowKind::Fire),
            Symbol::Move => self.arrows.iter().any(|a| a.kind == ArrowKind::Move),
            Symbol::Style(name) => {
                self.ground.as_deref() == Some(name.as_str())
                    || self.terrain.iter().any(|t| t.style == *name)
                    || zone(&|k| matches!(k, ZoneKind::Styled { style } if style == name))
            }
            Symbol::Unit(sym) => self
                .units
                .iter()
                .any(|u| matches!(&u.kind, UnitKind::Counter { symbol, .. } if symbol == sym)),
            Symbol::Formation(f) => self
                .units
                .iter()
                .any(|u| matches!(&u.kind, UnitKind::Base { formation, .. } if formation == f)),
            Symbol::Facing => self
                .units
                .iter()
                .any(|u| u.facing.is_some() && !matches!(u.kind, UnitKind::Ship { .. })),
            Symbol::Control => zone(&|k| *k == ZoneKind::Control),
            Symbol::Blast => zone(&|k| *k == ZoneKind::Blast),
            Symbol::Objective => zone(&|k| *k == ZoneKind::Objective),
            Symbol::Status(t) => marker(&|m| matches!(m, Marker::Status { tone, .. } if tone == t)),
            Symbol::HitTrack => self
                .units
                .iter()
                .any(|u| matches!(u.kind, UnitKind::Base { hits: Some(_), .. })),
        }
    }

    /// The usual legend: every side, then the styles drawn ([`Self::style_legend`]), then those
    /// of `optional` this picture really shows — a legend that names only what is on the map
    /// hints at nothing hidden.
    pub fn legend_of<'a>(
        &self,
        optional: impl IntoIterator<Item = (Symbol, &'a str)>,
    ) -> Vec<LegendEntry> {
        let mut out: Vec<LegendEntry> = self
            .sides
            .iter()
            .map(|s| LegendEntry {
                symbol: Symbol::Side(s.id.clone()),
                text: s.name.clone(),
            })
            .collect();
        out.extend(self.style_legend());
        out.extend(
            optional
                .into_iter()
                .filter(|(s, _)| self.uses(s))
                .map(|(symbol, text)| LegendEntry {
                    symbol,
                    text: text.to_string(),
                }),
        );
        out
    }

    /// Legend entries for the styles this picture draws, in the order they first appear (the
    /// ground first), each in its legend word.
    pub fn style_legend(&self) -> Vec<LegendEntry> {
        let zones = self.zones.iter().filter_map(|z| match &z.kind {
            ZoneKind::Styled { style } => Some(style.as_str()),
            _ => None,
        });
        let mut seen: Vec<&str> = Vec::new();
        for name in self
            .ground
            .iter()
            .map(String::as_str)
            .chain(self.terrain.iter().map(|t| t.style.as_str()))
            .chain(zones)
        {
            if !seen.contains(&name) {
                seen.push(name);
            }
        }
        seen.into_iter()
            .filter_map(|n| {
                self.styles.get(n).map(|s| LegendEntry {
                    symbol: Symbol::Style(n.to_string()),
                    text: s.word(n).to_string(),
                })
            })
            .collect()
    }
}
