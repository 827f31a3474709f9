//! Drawing styles a ruleset declares in its data: the `[map]` section of
//! `games/<ruleset>/ruleset.toml` names each terrain kind and styled zone with a fill, an edge,
//! a pattern, an opacity, whether it is an area or a line, and the legend's word for it. Plain
//! data and its checks; no drawing here, and no ruleset's names (they live in the data files).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Why a ruleset's drawing styles are refused: the words name the style or value to fix, and
/// reach the organiser inside the data file's own error (serde carries them).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StyleRefused {
    #[error("`{0}` is not a colour (write #rgb or #rrggbb)")]
    NotAColour(String),
    #[error("map.ground `{0}` is not a [map.terrain] style")]
    GroundNotTerrain(String),
    #[error("`{0}` is both a terrain and a zone style")]
    TerrainAndZone(String),
    #[error("style `{0}`: opacity must be 0 to 1")]
    Opacity(String),
    #[error("style `{0}`: width must be above 0")]
    Width(String),
    /// The `[map]` section does not read (bad TOML, an unknown key, or one of the above).
    #[error("ruleset.toml [map]: {0}")]
    Unreadable(String),
}

/// A colour as SVG reads it, `#rgb` or `#rrggbb`. Checked when read, so nothing but a colour
/// ever reaches a picture's attributes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Colour(String);

impl Colour {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for Colour {
    type Error = StyleRefused;
    fn try_from(s: String) -> Result<Self, StyleRefused> {
        let hex = s.strip_prefix('#').unwrap_or("");
        if (hex.len() == 3 || hex.len() == 6) && hex.chars().all(|c| c.is_ascii_hexdigit()) {
            Ok(Colour(s.to_ascii_lowercase()))
        } else {
            Err(StyleRefused::NotAColour(s))
        }
    }
}

impl TryFrom<&str> for Colour {
    type Error = StyleRefused;
    fn try_from(s: &str) -> Result<Self, StyleRefused> {
        Colour::try_from(s.to_string())
    }
}

impl From<Colour> for String {
    fn from(c: Colour) -> String {
        c.0
    }
}

/// What is drawn over an area's fill (or along a line), in the style's `ink`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pattern {
    #[default]
    None,
    /// Scattered tree crowns (woods, orchards).
    Trees,
    /// Crowded small crowns (thick, tangled growth).
    Thicket,
    /// Tufts of grass or reeds (scrub, marsh).
    Tufts,
    /// Small stones (broken ground, rubble); along a line, a dotted centre (a hedge).
    Dots,
    /// Diagonal lines; along a line, ticks across it (a wall, a railway).
    Hatch,
    /// Crossed diagonal lines (built-up areas).
    Crosshatch,
    /// Ripples (water).
    Waves,
    /// Inner outlines like contour lines (high ground).
    Contours,
}

/// Whether a style covers an area or follows a centre line with a width.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Form {
    #[default]
    Area,
    /// Roads, rivers, walls, hedges, fords: drawn along a `Shape::Line`.
    Line,
}

fn opaque() -> f64 {
    1.0
}

fn is_opaque(v: &f64) -> bool {
    *v == 1.0
}

/// How one terrain kind or styled zone is drawn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Style {
    pub fill: Colour,
    /// The outline (an area's edge, a line's casing); none: no outline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub edge: Option<Colour>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub pattern: Pattern,
    /// The pattern's colour; none: the edge colour, else a dark ink.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ink: Option<Colour>,
    /// Of the fill, 0 (clear) to 1 (solid).
    #[serde(default = "opaque", skip_serializing_if = "is_opaque")]
    pub opacity: f64,
    #[serde(default, skip_serializing_if = "is_default")]
    pub form: Form,
    /// A line's width in map units where its shape gives none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<f64>,
    /// The legend's word for it; none: the style's own name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub legend: Option<String>,
}

fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

impl Style {
    /// A plain area of one colour.
    pub fn area(fill: &str) -> Result<Style, StyleRefused> {
        Ok(Style {
            fill: Colour::try_from(fill)?,
            edge: None,
            pattern: Pattern::None,
            ink: None,
            opacity: 1.0,
            form: Form::Area,
            width: None,
            legend: None,
        })
    }

    /// The legend's word for the style called `name`.
    pub fn word<'a>(&'a self, name: &'a str) -> &'a str {
        self.legend.as_deref().unwrap_or(name)
    }
}

/// The `[map]` section of a ruleset's data:
///
/// ```toml
/// [map]
/// ground = "clear"                      # the style of the table where no area lies
/// [map.terrain.woods]
/// fill = "#9cc49a"
/// edge = "#4e7d4a"
/// pattern = "trees"
/// [map.terrain.road]
/// fill = "#d8c8a0"
/// edge = "#8a7650"
/// form = "line"
/// [map.zones.barrage]
/// fill = "#f0b27a"
/// pattern = "crosshatch"
/// opacity = 0.6
/// legend = "barrage"
/// ```
///
/// Terrain and zone styles share one namespace in a picture, so their names must differ.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(try_from = "RawMapStyles")]
pub struct MapStyles {
    /// A key of `terrain`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ground: Option<String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub terrain: BTreeMap<String, Style>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub zones: BTreeMap<String, Style>,
}

/// `MapStyles` as written, before its names are checked.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMapStyles {
    #[serde(default)]
    ground: Option<String>,
    #[serde(default)]
    terrain: BTreeMap<String, Style>,
    #[serde(default)]
    zones: BTreeMap<String, Style>,
}

impl TryFrom<RawMapStyles> for MapStyles {
    type Error = StyleRefused;
    fn try_from(r: RawMapStyles) -> Result<Self, StyleRefused> {
        if let Some(g) = &r.ground
            && !r.terrain.contains_key(g)
        {
            return Err(StyleRefused::GroundNotTerrain(g.clone()));
        }
        if let Some(n) = r.zones.keys().find(|n| r.terrain.contains_key(*n)) {
            return Err(StyleRefused::TerrainAndZone(n.clone()));
        }
        for (n, s) in r.terrain.iter().chain(&r.zones) {
            if !(0.0..=1.0).contains(&s.opacity) {
                return Err(StyleRefused::Opacity(n.clone()));
            }
            if s.width.is_some_and(|w| w.is_nan() || w <= 0.0) {
                return Err(StyleRefused::Width(n.clone()));
            }
        }
        Ok(MapStyles {
            ground: r.ground,
            terrain: r.terrain,
            zones: r.zones,
        })
    }
}

impl MapStyles {
    /// The `[map]` section of a whole ruleset file, if it has one (other sections are not read).
    pub fn from_ruleset_toml(text: &str) -> Result<Option<MapStyles>, StyleRefused> {
        #[derive(Deserialize)]
        struct Only {
            #[serde(default)]
            map: Option<MapStyles>,
        }
        toml::from_str::<Only>(text)
            .map(|o| o.map)
            .map_err(|e| StyleRefused::Unreadable(e.to_string()))
    }

    /// The style called `name`, terrain or zone.
    pub fn get(&self, name: &str) -> Option<&Style> {
        self.terrain.get(name).or_else(|| self.zones.get(name))
    }

    /// The styles a picture uses, by name: those of `names` that this section declares.
    pub fn pick<'a>(&self, names: impl IntoIterator<Item = &'a str>) -> BTreeMap<String, Style> {
        names
            .into_iter()
            .filter_map(|n| self.get(n).map(|s| (n.to_string(), s.clone())))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_are_checked_when_read() {
        assert_eq!(Colour::try_from("#A0b1C2").unwrap().as_str(), "#a0b1c2");
        assert!(Colour::try_from("#abc").is_ok());
        for bad in ["red", "#abcd", "#ggg", "\"/><script>", ""] {
            assert!(Colour::try_from(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_map_section_reads_and_its_names_are_checked() {
        let text = r##"
[rules]
anything = 1
[map]
ground = "open"
[map.terrain.open]
fill = "#eeeeee"
[map.terrain.track]
fill = "#ccbb99"
edge = "#776655"
form = "line"
width = 0.5
pattern = "dots"
[map.zones.barrage]
fill = "#ff8800"
opacity = 0.5
legend = "barrage area"
"##;
        let m = MapStyles::from_ruleset_toml(text).unwrap().unwrap();
        assert_eq!(m.ground.as_deref(), Some("open"));
        assert_eq!(m.get("track").unwrap().form, Form::Line);
        assert_eq!(m.get("track").unwrap().pattern, Pattern::Dots);
        assert_eq!(m.get("barrage").unwrap().word("barrage"), "barrage area");
        assert_eq!(m.get("open").unwrap().word("open"), "open");
        assert_eq!(
            m.pick(["track", "nowhere"]).keys().collect::<Vec<_>>(),
            vec!["track"]
        );
        assert_eq!(MapStyles::from_ruleset_toml("[rules]\n").unwrap(), None);
        for (bad, why) in [
            ("[map]\nground = \"sea\"\n", "not a [map.terrain]"),
            (
                "[map.terrain.x]\nfill = \"#fff\"\n[map.zones.x]\nfill = \"#fff\"\n",
                "both",
            ),
            ("[map.terrain.x]\nfill = \"#fff\"\nopacity = 2\n", "opacity"),
            ("[map.terrain.x]\nfill = \"#fff\"\nwidth = 0\n", "width"),
            ("[map.terrain.x]\nfill = \"blue\"\n", "not a colour"),
            (
                "[map.terrain.x]\nfill = \"#fff\"\nshade = 1\n",
                "unknown field",
            ),
            ("[map]\nscale = 1\n", "unknown field"),
        ] {
            let e = MapStyles::from_ruleset_toml(bad).unwrap_err().to_string();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }

    #[test]
    fn a_style_round_trips_without_its_defaults() {
        let s = Style::area("#123456").unwrap();
        let json = serde_json::to_string(&s).unwrap();
        assert_eq!(json, r##"{"fill":"#123456"}"##);
        assert_eq!(serde_json::from_str::<Style>(&json).unwrap(), s);
    }
}
