//! The hex map: geomorphic sectors from `ruleset.toml` joined as a mission lays them out, each
//! hex's terrain (§4.1), contour and hill level, roads, walls on hexsides, Improved Positions,
//! the board edges, and what entering a hex costs (§4.1, §10). Geometry comes from
//! `board::hex`; this file knows terrain, not units, and never decides LOS (see `los`).

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::board::hex::{Address, Hex, HexGrid, Hexside, MapBounds, Orientation, Shifted};

use super::data::{Ground, RulesetData, Sector};

/// A cell of the grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cell {
    pub ground: Ground,
    pub contour: u8,
    pub road: bool,
}

fn read_cell(t: &str) -> Result<Cell, String> {
    let mut chars = t.chars();
    let g = chars
        .next()
        .and_then(Ground::from_letter)
        .ok_or_else(|| format!("`{t}`: unknown terrain letter"))?;
    let rest: String = chars.collect();
    let (digits, road) = match rest.strip_suffix('r') {
        Some(d) => (d, true),
        None => (rest.as_str(), false),
    };
    let contour = digits
        .parse::<u8>()
        .ok()
        .filter(|c| *c <= 9)
        .ok_or_else(|| format!("`{t}`: write a contour 0-9 after the terrain letter"))?;
    Ok(Cell {
        ground: g,
        contour,
        road,
    })
}

fn write_cell(c: &Cell) -> String {
    format!(
        "{}{}{}",
        c.ground.letter(),
        c.contour,
        if c.road { "r" } else { "" }
    )
}

/// The grid of a sheet, rows of cells.
fn read_rows(text: &str) -> Result<Vec<Vec<Cell>>, String> {
    let rows: Vec<Vec<Cell>> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().map(read_cell).collect())
        .collect::<Result<_, _>>()?;
    let width = rows.first().map_or(0, Vec::len);
    if width == 0 || rows.iter().any(|r| r.len() != width) {
        return Err("every row needs the same number of cells".into());
    }
    Ok(rows)
}

impl Sector {
    pub fn check(&self) -> Result<(), String> {
        let rows = read_rows(&self.hexes.get())?;
        if rows[0].len() % 2 != 0 {
            return Err("a sector has an even number of columns (it folds into a and b)".into());
        }
        Ok(())
    }
}

/// Where a board edge lies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Edge {
    North,
    South,
    East,
    West,
}

impl Edge {
    pub fn word(self) -> &'static str {
        match self {
            Edge::North => "north",
            Edge::South => "south",
            Edge::East => "east",
            Edge::West => "west",
        }
    }
}

/// The mission's map: the sheets joined, in printed columns `01..` and rows `01..`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "MapText", into = "MapText")]
pub struct Map {
    pub name: String,
    pub columns: u16,
    pub rows: u16,
    /// Contours per hill level (§4.1.4–4.1.5): a hex's level is its contour divided by this.
    pub contours_per_level: u8,
    cells: Vec<Cell>,
    walls: BTreeSet<Hexside>,
    ips: BTreeSet<Hex>,
}

/// How a map is stored in a state: its text, as the sheets write it.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct MapText {
    name: String,
    contours_per_level: u8,
    hexes: String,
    walls: Vec<String>,
    ips: Vec<String>,
}

pub const GRID_KIND: (Orientation, Shifted) = (Orientation::FlatTop, Shifted::Odd);

fn grid_of(columns: u16, rows: u16) -> HexGrid {
    HexGrid::new(GRID_KIND.0, GRID_KIND.1).with_bounds(MapBounds {
        first_column: 1,
        last_column: columns,
        first_row: 1,
        last_row: rows,
    })
}

impl TryFrom<MapText> for Map {
    type Error = String;
    fn try_from(t: MapText) -> Result<Map, String> {
        Map::build(
            &t.name,
            t.contours_per_level,
            read_rows(&t.hexes)?,
            &t.walls,
            &t.ips,
        )
    }
}

impl From<Map> for MapText {
    fn from(m: Map) -> MapText {
        let g = m.grid();
        MapText {
            name: m.name.clone(),
            contours_per_level: m.contours_per_level,
            hexes: (0..m.rows)
                .map(|r| {
                    let row = &m.cells[usize::from(r) * usize::from(m.columns)..]
                        [..usize::from(m.columns)];
                    row.iter().map(write_cell).collect::<Vec<_>>().join(" ")
                })
                .collect::<Vec<_>>()
                .join("\n"),
            walls: m.walls.iter().map(|s| g.hexside_label(*s)).collect(),
            ips: m.ips.iter().map(|h| g.label(*h)).collect(),
        }
    }
}

impl Map {
    fn build(
        name: &str,
        contours_per_level: u8,
        rows: Vec<Vec<Cell>>,
        walls: &[String],
        ips: &[String],
    ) -> Result<Map, String> {
        if contours_per_level == 0 {
            return Err("contours_per_level must be at least 1".into());
        }
        let columns = u16::try_from(rows[0].len()).map_err(|_| "too many columns")?;
        let nrows = u16::try_from(rows.len()).map_err(|_| "too many rows")?;
        let mut m = Map {
            name: name.to_string(),
            columns,
            rows: nrows,
            contours_per_level,
            cells: rows.into_iter().flatten().collect(),
            walls: BTreeSet::new(),
            ips: BTreeSet::new(),
        };
        let g = m.grid();
        for w in walls {
            let s = g.parse_hexside(w).map_err(|e| format!("wall {w}: {e}"))?;
            m.walls.insert(s);
        }
        for i in ips {
            let h = g.parse_hex(i).map_err(|e| format!("IP {i}: {e}"))?;
            m.ips.insert(h);
        }
        Ok(m)
    }

    /// Joins sheets as a mission lays them out: `["1", "2"]` puts sector 2 below sector 1;
    /// `1a`/`1b` is the left/right half of sector 1 (§ Maps and Sectors).
    pub fn from_sectors(
        data: &RulesetData,
        layout: &[String],
        contours_per_level: u8,
    ) -> Result<Map, String> {
        let mut rows: Vec<Vec<Cell>> = Vec::new();
        let mut walls = Vec::new();
        let mut ips = Vec::new();
        let mut names = Vec::new();
        for part in layout {
            let (key, half) = match part.strip_suffix('a') {
                Some(k) => (k, Some(0)),
                None => match part.strip_suffix('b') {
                    Some(k) => (k, Some(1)),
                    None => (part.as_str(), None),
                },
            };
            let s = data
                .sectors
                .get(key)
                .ok_or_else(|| format!("map: no sector `{key}` in ruleset.toml"))?;
            let mut sheet = read_rows(&s.hexes.get())?;
            let width = sheet[0].len();
            let (from, to) = match half {
                Some(0) => (0, width / 2),
                Some(_) => (width / 2, width),
                None => (0, width),
            };
            for r in &mut sheet {
                *r = r[from..to].to_vec();
            }
            if let Some(first) = rows.first()
                && first.len() != sheet[0].len()
            {
                return Err(format!("map: sector `{part}` is not as wide as the first"));
            }
            // Printed numbers move by whole rows (and an even number of columns for `b`), so
            // adjacency is kept.
            let dr = rows.len() as i32;
            let dc = from as i32;
            let shift = |a: &str| -> Result<Option<String>, String> {
                let ad: Address = a.parse().map_err(|e| format!("{part}: {a}: {e}"))?;
                let c = i32::from(ad.column) - dc;
                if c < 1 || c as usize > to - from {
                    return Ok(None);
                }
                Ok(Some(format!("{:02}{:02}", c, i32::from(ad.row) + dr)))
            };
            for w in &s.walls {
                let parts: Vec<&str> = w.split('/').collect();
                let moved: Vec<Option<String>> =
                    parts.iter().map(|p| shift(p)).collect::<Result<_, _>>()?;
                if moved.iter().all(Option::is_some) {
                    walls.push(moved.into_iter().flatten().collect::<Vec<_>>().join("/"));
                }
            }
            for i in &s.ips {
                if let Some(h) = shift(i)? {
                    ips.push(h);
                }
            }
            names.push(format!("sector {part}"));
            rows.extend(sheet);
        }
        if rows.is_empty() {
            return Err("map: no sectors".into());
        }
        Map::build(&names.join(" + "), contours_per_level, rows, &walls, &ips)
    }

    /// The printed grid: flat-top hexes, the first column shifted down.
    pub fn grid(&self) -> HexGrid {
        grid_of(self.columns, self.rows)
    }

    pub fn bounds(&self) -> MapBounds {
        self.grid().bounds.expect("a map grid has bounds")
    }

    pub fn on_map(&self, h: Hex) -> bool {
        self.grid().on_map(h)
    }

    pub fn label(&self, h: Hex) -> String {
        self.grid().label(h)
    }

    pub fn cell(&self, h: Hex) -> Option<&Cell> {
        let a = self.grid().address(h)?;
        if !self.on_map(h) {
            return None;
        }
        let i = usize::from(a.row - 1) * usize::from(self.columns) + usize::from(a.column - 1);
        self.cells.get(i)
    }

    /// Every hex of the map, in printed order (row by row).
    pub fn hexes(&self) -> Vec<Hex> {
        let g = self.grid();
        let mut out = Vec::with_capacity(self.cells.len());
        for row in 1..=self.rows {
            for column in 1..=self.columns {
                out.push(g.hex(Address { column, row }));
            }
        }
        out
    }

    pub fn ground(&self, h: Hex) -> Ground {
        self.cell(h).map_or(Ground::Open, |c| c.ground)
    }

    pub fn contour(&self, h: Hex) -> i32 {
        self.cell(h).map_or(0, |c| i32::from(c.contour))
    }

    /// §4.1.4: the hill level (0 off any hill).
    pub fn level(&self, h: Hex) -> i32 {
        self.contour(h) / i32::from(self.contours_per_level)
    }

    /// The height of a hex as an obstacle: its level plus its terrain's (§4.1.4).
    pub fn height(&self, data: &RulesetData, h: Hex) -> i32 {
        self.level(h) + data.fx(self.ground(h)).height.int()
    }

    /// §4.1.8: a road runs through it (urban roads and bridges are roads).
    pub fn road(&self, h: Hex) -> bool {
        self.cell(h)
            .is_some_and(|c| c.road || matches!(c.ground, Ground::UrbanRoad | Ground::Bridge))
    }

    /// Contiguous road hexes: adjacent, both with a road (R3).
    pub fn road_link(&self, a: Hex, b: Hex) -> bool {
        a.is_adjacent(b) && self.road(a) && self.road(b)
    }

    pub fn wall(&self, s: Hexside) -> bool {
        self.walls.contains(&s)
    }

    pub fn walls(&self) -> impl Iterator<Item = &Hexside> {
        self.walls.iter()
    }

    pub fn ip(&self, h: Hex) -> bool {
        self.ips.contains(&h)
    }

    pub fn ips(&self) -> impl Iterator<Item = &Hex> {
        self.ips.iter()
    }

    /// §4.0a/b: cover terrain (a hill is not cover by itself; R6).
    pub fn cover(&self, data: &RulesetData, h: Hex) -> bool {
        data.fx(self.ground(h)).cover
    }

    /// Is the hex on this board edge?
    pub fn on_edge(&self, h: Hex, e: Edge) -> bool {
        let Some(a) = self.grid().address(h).filter(|_| self.on_map(h)) else {
            return false;
        };
        match e {
            Edge::North => a.row == 1,
            Edge::South => a.row == self.rows,
            Edge::West => a.column == 1,
            Edge::East => a.column == self.columns,
        }
    }

    /// How far the hex's centre lies from the edge, in exact half-hex steps (flat-top: a row
    /// is two steps, a column one), for "toward the FBE".
    pub fn depth(&self, h: Hex, e: Edge) -> i32 {
        // Flat-top centres: x = 1.5 q, y = √3 (r + q/2); compare q and 2r + q.
        let y2 = 2 * h.r + h.q;
        match e {
            Edge::North => y2,
            Edge::South => -y2,
            Edge::West => h.q,
            Edge::East => -h.q,
        }
    }

    /// §10.3.1: hexsides run parallel to a north or south edge on flat-top sheets.
    pub fn sides_parallel(e: Edge) -> bool {
        matches!(e, Edge::North | Edge::South)
    }

    /// The MPs to enter `to` from the adjacent `from` (§4.1, §10.0): `None` where the unit may
    /// not go. Roads: the road cost when entered from a contiguous road hex (§4.1.8).
    pub fn enter_cost(&self, data: &RulesetData, from: Hex, to: Hex, vehicle: bool) -> Option<f64> {
        let cell = self.cell(to)?;
        let fx = data.fx(cell.ground);
        let along_road = self.road_link(from, to);
        let base = match cell.ground {
            // §4.1.11: a bridge is entered only from an adjacent road hex; on foot, from
            // anywhere else the unit goes under it (a river hex, R4).
            Ground::Bridge if along_road => data.features.road_mp.get(),
            Ground::Bridge if vehicle => return None,
            Ground::Bridge => data.fx(Ground::River).mp_foot.get(),
            // §4.1.9d: vehicles enter an urban road only along the road (adjacent clear LOS
            // is the other case, R3).
            Ground::UrbanRoad if vehicle && !along_road => return None,
            _ if along_road => data.features.road_mp.get(),
            _ => {
                let c = if vehicle {
                    fx.mp_vehicle.get()
                } else {
                    fx.mp_foot.get()
                };
                if c < 0.0 {
                    return None;
                }
                c
            }
        };
        let climb = (self.level(to) - self.level(from)).max(0);
        let wall = Hexside::between(from, to)
            .filter(|s| self.wall(*s))
            .map_or(0.0, |_| data.features.wall_mp.get());
        // Along a road the other features of the hex and hexside are ignored (§4.1.8).
        if along_road {
            return Some(base);
        }
        Some(base + f64::from(climb) * data.features.uphill_mp.get() + wall)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_read_and_write_back() {
        for t in [".0", "w2", ".1r", "U0", "=1", "~0"] {
            assert_eq!(write_cell(&read_cell(t).unwrap()), t);
        }
        assert!(read_cell("x0").is_err());
        assert!(read_cell("w").is_err());
        assert!(read_cell("w12").is_err());
    }

    #[test]
    fn a_map_round_trips_through_its_text() {
        let rows = read_rows(".0 w1 .0r .0\n.0 .2 s2 ~0\n").unwrap();
        let m = Map::build("t", 2, rows, &["0101/0201".into()], &["0202".into()]).unwrap();
        let json = serde_json::to_string(&m).unwrap();
        let back: Map = serde_json::from_str(&json).unwrap();
        assert_eq!(back, m);
        let g = m.grid();
        let h = g.parse_hex("0302").unwrap();
        assert_eq!(m.ground(h), Ground::Stone);
        assert_eq!(m.level(h), 1);
        assert!(m.ip(g.parse_hex("0202").unwrap()));
    }
}
