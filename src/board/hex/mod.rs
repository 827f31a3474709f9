//! Hex grids as printed wargame maps are: addresses like `0412`, named directions, neighbours,
//! hexsides, vertices, distances, rings and the exact line between hex centres (with the
//! along-a-hexside and through-a-vertex cases reported, not guessed). Pure geometry: no terrain,
//! no game rule, no floating point in anything a ruling depends on.
//!
//! Internally a hex is axial `(q, r)` (cube `s = -q - r`). Printed column `0`, row `0` is always
//! axial `(0, 0)`, whatever the orientation and stagger, so a printed map numbered from `0101`
//! simply starts one hex in from the origin. Map coordinates for rendering have x to the right and
//! y **down** the printed sheet (as SVG), origin at the centre of hex `0000`.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

mod line;
mod sides;

use line::EDGE_NEIGHBOUR;
pub use line::{HexLine, LineStep, line};
pub use sides::{Hexside, Vertex};

/// One hex, in axial coordinates. Use [`HexGrid`] to turn it into a printed address.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Hex {
    pub q: i32,
    pub r: i32,
}

impl Hex {
    pub const fn new(q: i32, r: i32) -> Self {
        Self { q, r }
    }

    /// The third cube coordinate.
    pub const fn s(self) -> i32 {
        -self.q - self.r
    }

    /// Hexes between the two, counting the destination but not the start (adjacent = 1).
    pub fn distance(self, other: Hex) -> u32 {
        let dq = (self.q - other.q).unsigned_abs();
        let dr = (self.r - other.r).unsigned_abs();
        let ds = (self.s() - other.s()).unsigned_abs();
        dq.max(dr).max(ds)
    }

    pub fn is_adjacent(self, other: Hex) -> bool {
        self.distance(other) == 1
    }

    /// The six adjacent hexes, in no named order (use [`HexGrid::neighbours`] for compass order).
    pub fn adjacent(self) -> [Hex; 6] {
        EDGE_NEIGHBOUR.map(|d| self.plus(d))
    }

    /// The exact line from this hex's centre to `to`'s centre; see [`line`].
    pub fn line_to(self, to: Hex) -> HexLine {
        line(self, to)
    }

    fn plus(self, (dq, dr): (i32, i32)) -> Hex {
        Hex::new(self.q + dq, self.r + dr)
    }
}

/// Which way the printed hexes point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Orientation {
    /// Flat top and bottom; hexes stand in vertical columns, every other column half a hex lower
    /// (the usual Last Hundred Yards and La Bataille sheet). Directions N NE SE S SW NW.
    FlatTop,
    /// Pointed top; hexes lie in horizontal rows, every other row half a hex to the right.
    /// Directions NE E SE SW W NW.
    PointyTop,
}

/// Which printed columns (flat-top) or rows (pointy-top) are the shifted ones: half a hex lower
/// (flat-top) or half a hex to the right (pointy-top). Parity is of the *printed* number.
///
/// On a flat-top map numbered from column 01: "first column down" (0101 lower than 0201) is
/// `Odd`; "first column up" (0101 higher than 0201) is `Even`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Shifted {
    Odd,
    Even,
}

/// The printed extent of a map, inclusive, in printed column and row numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapBounds {
    pub first_column: u16,
    pub last_column: u16,
    pub first_row: u16,
    pub last_row: u16,
}

/// A hex grid configured as a printed map: orientation, stagger and (optionally) its extent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HexGrid {
    pub orientation: Orientation,
    pub shifted: Shifted,
    #[serde(default)]
    pub bounds: Option<MapBounds>,
}

/// A compass name for a hex direction as players write it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Compass {
    N,
    NE,
    E,
    SE,
    S,
    SW,
    W,
    NW,
}

impl Compass {
    pub fn as_str(self) -> &'static str {
        match self {
            Compass::N => "N",
            Compass::NE => "NE",
            Compass::E => "E",
            Compass::SE => "SE",
            Compass::S => "S",
            Compass::SW => "SW",
            Compass::W => "W",
            Compass::NW => "NW",
        }
    }
}

impl fmt::Display for Compass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Compass {
    type Err = AddressError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let c = match s.trim().to_ascii_uppercase().as_str() {
            "N" => Compass::N,
            "NE" => Compass::NE,
            "E" => Compass::E,
            "SE" => Compass::SE,
            "S" => Compass::S,
            "SW" => Compass::SW,
            "W" => Compass::W,
            "NW" => Compass::NW,
            _ => return Err(AddressError::Direction(s.trim().to_string())),
        };
        Ok(c)
    }
}

/// One of the six directions of a grid, numbered clockwise on the printed sheet from the
/// northernmost one (N on flat-top grids, NE on pointy-top). [`HexGrid::compass`] names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct HexDir(u8);

impl HexDir {
    /// All six, clockwise from the northernmost.
    pub const ALL: [HexDir; 6] = [
        HexDir(0),
        HexDir(1),
        HexDir(2),
        HexDir(3),
        HexDir(4),
        HexDir(5),
    ];

    pub const fn new(index: u8) -> Option<HexDir> {
        if index < 6 { Some(HexDir(index)) } else { None }
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }

    pub const fn opposite(self) -> HexDir {
        HexDir((self.0 + 3) % 6)
    }

    /// Turned by `steps` hexsides, positive clockwise.
    pub fn turned(self, steps: i32) -> HexDir {
        // rem_euclid(6) is in 0..6, so the cast cannot truncate.
        HexDir((i32::from(self.0) + steps).rem_euclid(6) as u8)
    }
}

impl TryFrom<u8> for HexDir {
    type Error = String;

    fn try_from(v: u8) -> Result<Self, Self::Error> {
        HexDir::new(v).ok_or_else(|| format!("hex direction {v} is not in 0..6"))
    }
}

impl From<HexDir> for u8 {
    fn from(d: HexDir) -> u8 {
        d.0
    }
}

/// Why an address, direction, hexside or vertex a player wrote was not understood.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AddressError {
    #[error("`{0}` is not a hex address (write it as printed, like 0412, or 4.12)")]
    Malformed(String),
    #[error("hex {0} is off the map")]
    OffMap(String),
    #[error("`{0}` is not a direction of this map (use {1})")]
    WrongDirection(String, String),
    #[error("`{0}` is not a direction (N NE E SE S SW W NW)")]
    Direction(String),
    #[error("{0} are not adjacent hexes, so share no hexside")]
    NotAHexside(String),
    #[error("{0} are not three hexes meeting at one corner")]
    NotAVertex(String),
}

/// A printed hex number: column and row as on the sheet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Address {
    pub column: u16,
    pub row: u16,
}

impl fmt::Display for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.column <= 99 && self.row <= 99 {
            write!(f, "{:02}{:02}", self.column, self.row)
        } else {
            // Four digits can no longer be split unambiguously.
            write!(f, "{}.{}", self.column, self.row)
        }
    }
}

impl FromStr for Address {
    type Err = AddressError;

    /// `0412`, `412` and `1205` (the last two digits are the row), or `4.12` / `04.12` / `104.7`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        let bad = || AddressError::Malformed(t.to_string());
        let number = |part: &str| -> Result<u16, AddressError> {
            if part.is_empty() || part.len() > 4 || !part.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
            part.parse().map_err(|_| bad())
        };
        if let Some((c, r)) = t.split_once('.') {
            return Ok(Address {
                column: number(c)?,
                row: number(r)?,
            });
        }
        if !(3..=4).contains(&t.len()) || !t.is_ascii() {
            return Err(bad());
        }
        let (c, r) = t.split_at(t.len() - 2);
        Ok(Address {
            column: number(c)?,
            row: number(r)?,
        })
    }
}

/// A point on the rendered map: x right, y down the sheet, in the unit of the `size` given.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct MapPt {
    pub x: f64,
    pub y: f64,
}

const FLAT_DIRS: [(i32, i32); 6] = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)];
const FLAT_NAMES: [Compass; 6] = [
    Compass::N,
    Compass::NE,
    Compass::SE,
    Compass::S,
    Compass::SW,
    Compass::NW,
];
const POINTY_DIRS: [(i32, i32); 6] = [(1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)];
const POINTY_NAMES: [Compass; 6] = [
    Compass::NE,
    Compass::E,
    Compass::SE,
    Compass::SW,
    Compass::W,
    Compass::NW,
];

impl HexGrid {
    pub const fn new(orientation: Orientation, shifted: Shifted) -> Self {
        Self {
            orientation,
            shifted,
            bounds: None,
        }
    }

    pub const fn with_bounds(self, bounds: MapBounds) -> Self {
        Self {
            bounds: Some(bounds),
            ..self
        }
    }

    fn dirs(self) -> [(i32, i32); 6] {
        match self.orientation {
            Orientation::FlatTop => FLAT_DIRS,
            Orientation::PointyTop => POINTY_DIRS,
        }
    }

    fn names(self) -> [Compass; 6] {
        match self.orientation {
            Orientation::FlatTop => FLAT_NAMES,
            Orientation::PointyTop => POINTY_NAMES,
        }
    }

    fn parity_offset(self, printed: i32) -> i32 {
        let p = printed.rem_euclid(2);
        match self.shifted {
            Shifted::Odd => -p,
            Shifted::Even => p,
        }
    }

    /// The hex at a printed column and row.
    pub fn hex(self, address: Address) -> Hex {
        let (col, row) = (i32::from(address.column), i32::from(address.row));
        self.hex_at_offset(col, row)
    }

    /// Offset (printed-style) coordinates to axial, for any integers including negative ones.
    fn hex_at_offset(self, col: i32, row: i32) -> Hex {
        match self.orientation {
            // (col ± parity) is even, so the halving is exact.
            Orientation::FlatTop => Hex::new(col, row - (col + self.parity_offset(col)) / 2),
            Orientation::PointyTop => Hex::new(col - (row + self.parity_offset(row)) / 2, row),
        }
    }

    fn offset_of(self, h: Hex) -> (i32, i32) {
        match self.orientation {
            Orientation::FlatTop => (h.q, h.r + (h.q + self.parity_offset(h.q)) / 2),
            Orientation::PointyTop => (h.q + (h.r + self.parity_offset(h.r)) / 2, h.r),
        }
    }

    /// The printed address of a hex, or `None` when it has a negative (unprintable) number.
    pub fn address(self, h: Hex) -> Option<Address> {
        let (col, row) = self.offset_of(h);
        Some(Address {
            column: u16::try_from(col).ok()?,
            row: u16::try_from(row).ok()?,
        })
    }

    /// Is the hex inside the printed map? Without bounds, any printable address is.
    pub fn on_map(self, h: Hex) -> bool {
        match (self.address(h), self.bounds) {
            (None, _) => false,
            (Some(_), None) => true,
            (Some(a), Some(b)) => {
                (b.first_column..=b.last_column).contains(&a.column)
                    && (b.first_row..=b.last_row).contains(&a.row)
            }
        }
    }

    /// A player's hex number (`0412`, `4.12`), checked against the map's bounds.
    pub fn parse_hex(self, s: &str) -> Result<Hex, AddressError> {
        let h = self.hex(s.parse()?);
        if self.on_map(h) {
            Ok(h)
        } else {
            Err(AddressError::OffMap(s.trim().to_string()))
        }
    }

    /// The hex as printed (`0412`), or `(q,r)` for a hex that has no printed number.
    pub fn label(self, h: Hex) -> String {
        match self.address(h) {
            Some(a) => a.to_string(),
            None => format!("({},{})", h.q, h.r),
        }
    }

    /// `0412/0413`, the two hexes in printed order.
    pub fn hexside_label(self, s: Hexside) -> String {
        self.joined_labels(&mut [s.a, s.b])
    }

    /// `0412/0413/0512`, the three hexes in printed order.
    pub fn vertex_label(self, v: Vertex) -> String {
        self.joined_labels(&mut v.hexes.clone())
    }

    fn joined_labels(self, hexes: &mut [Hex]) -> String {
        hexes.sort_by_key(|&h| (self.address(h), h));
        hexes
            .iter()
            .map(|&h| self.label(h))
            .collect::<Vec<_>>()
            .join("/")
    }

    /// A hexside written as two adjacent hex numbers, `0412/0413` (either order).
    pub fn parse_hexside(self, s: &str) -> Result<Hexside, AddressError> {
        let parts = s.split('/').collect::<Vec<_>>();
        let [x, y] = parts.as_slice() else {
            return Err(AddressError::NotAHexside(s.trim().to_string()));
        };
        Hexside::between(self.parse_hex(x)?, self.parse_hex(y)?)
            .ok_or_else(|| AddressError::NotAHexside(s.trim().to_string()))
    }

    /// A vertex written as its three hex numbers, `0412/0413/0512` (any order).
    pub fn parse_vertex(self, s: &str) -> Result<Vertex, AddressError> {
        let parts = s.split('/').collect::<Vec<_>>();
        let [x, y, z] = parts.as_slice() else {
            return Err(AddressError::NotAVertex(s.trim().to_string()));
        };
        Vertex::of(self.parse_hex(x)?, self.parse_hex(y)?, self.parse_hex(z)?)
            .ok_or_else(|| AddressError::NotAVertex(s.trim().to_string()))
    }

    /// The compass name of a direction on this grid.
    pub fn compass(self, d: HexDir) -> Compass {
        self.names()[d.index()]
    }

    /// The direction with that compass name, if this grid has it (no E on a flat-top grid).
    pub fn dir(self, c: Compass) -> Option<HexDir> {
        let i = self.names().iter().position(|&n| n == c)?;
        HexDir::new(u8::try_from(i).ok()?)
    }

    /// A direction as a player writes it (`ne`, `NE`).
    pub fn parse_dir(self, s: &str) -> Result<HexDir, AddressError> {
        let c: Compass = s.parse()?;
        self.dir(c).ok_or_else(|| {
            let names = self.names().map(Compass::as_str).join(" ");
            AddressError::WrongDirection(s.trim().to_string(), names)
        })
    }

    pub fn neighbour(self, h: Hex, d: HexDir) -> Hex {
        h.plus(self.dirs()[d.index()])
    }

    /// The six neighbours, clockwise from the northernmost ([`HexDir::ALL`] order).
    pub fn neighbours(self, h: Hex) -> [Hex; 6] {
        self.dirs().map(|d| h.plus(d))
    }

    /// The direction from `from` to an adjacent `to`.
    pub fn direction(self, from: Hex, to: Hex) -> Option<HexDir> {
        HexDir::ALL
            .into_iter()
            .find(|&d| self.neighbour(from, d) == to)
    }

    /// The side of `h` facing `d`.
    pub fn hexside(self, h: Hex, d: HexDir) -> Hexside {
        Hexside::sorted(h, self.neighbour(h, d))
    }

    /// The six sides of `h`, in [`HexDir::ALL`] order.
    pub fn hexsides(self, h: Hex) -> [Hexside; 6] {
        HexDir::ALL.map(|d| self.hexside(h, d))
    }

    /// The corner of `h` between its side facing `d` and the next side clockwise.
    pub fn vertex(self, h: Hex, d: HexDir) -> Vertex {
        Vertex::sorted([h, self.neighbour(h, d), self.neighbour(h, d.turned(1))])
    }

    /// The six corners of `h`, clockwise, the first between its N (or NE) side and the next.
    pub fn vertices(self, h: Hex) -> [Vertex; 6] {
        HexDir::ALL.map(|d| self.vertex(h, d))
    }

    /// The hexes exactly `radius` away, clockwise from the northernmost (radius 0: `centre`).
    pub fn ring(self, centre: Hex, radius: u32) -> impl Iterator<Item = Hex> {
        let dirs = self.dirs();
        let n = i32::try_from(radius).unwrap_or(i32::MAX);
        let start = Hex::new(centre.q + dirs[0].0 * n, centre.r + dirs[0].1 * n);
        let count = if radius == 0 { 1 } else { 6 * radius };
        (0..count).scan(start, move |h, i| {
            let here = *h;
            // Walking a side of the ring heads two directions clockwise from the spoke.
            if let Some(side) = i.checked_div(radius) {
                *h = h.plus(dirs[(side as usize + 2) % 6]);
            }
            Some(here)
        })
    }

    /// Every hex within `radius`, nearest first (the centre, then each ring clockwise).
    pub fn within(self, centre: Hex, radius: u32) -> impl Iterator<Item = Hex> {
        (0..=radius).flat_map(move |k| self.ring(centre, k))
    }

    /// Centre of a hex on the rendered map; `size` is the centre-to-corner distance.
    pub fn centre(self, h: Hex, size: f64) -> MapPt {
        let (q, r) = (f64::from(h.q), f64::from(h.r));
        let root3 = 3f64.sqrt();
        match self.orientation {
            Orientation::FlatTop => MapPt {
                x: size * 1.5 * q,
                y: size * root3 * (r + q / 2.0),
            },
            Orientation::PointyTop => MapPt {
                x: size * root3 * (q + r / 2.0),
                y: size * 1.5 * r,
            },
        }
    }

    /// Where a corner is drawn: the meeting point of its three hexes' centres.
    pub fn vertex_point(self, v: Vertex, size: f64) -> MapPt {
        let pts = v.hexes.map(|h| self.centre(h, size));
        MapPt {
            x: (pts[0].x + pts[1].x + pts[2].x) / 3.0,
            y: (pts[0].y + pts[1].y + pts[2].y) / 3.0,
        }
    }

    /// The outline of a hex, corners in [`HexGrid::vertices`] order.
    pub fn corners(self, h: Hex, size: f64) -> [MapPt; 6] {
        self.vertices(h).map(|v| self.vertex_point(v, size))
    }

    /// The two ends of a hexside on the rendered map.
    pub fn hexside_points(self, s: Hexside, size: f64) -> [MapPt; 2] {
        s.vertices().map(|v| self.vertex_point(v, size))
    }

    /// The hex under a map point (for rendering and hit tests only: rulings use exact lines).
    pub fn hex_under(self, p: MapPt, size: f64) -> Hex {
        let root3 = 3f64.sqrt();
        let (x, y) = (p.x / size, p.y / size);
        let (q, r) = match self.orientation {
            Orientation::FlatTop => {
                let q = x * 2.0 / 3.0;
                (q, y / root3 - q / 2.0)
            }
            Orientation::PointyTop => {
                let r = y * 2.0 / 3.0;
                (x / root3 - r / 2.0, r)
            }
        };
        cube_round_f(q, r)
    }
}

fn cube_round_f(q: f64, r: f64) -> Hex {
    let s = -q - r;
    let (mut rq, mut rr, rs) = (q.round(), r.round(), s.round());
    let (dq, dr, ds) = ((rq - q).abs(), (rr - r).abs(), (rs - s).abs());
    if dq > dr && dq > ds {
        rq = -rr - rs;
    } else if dr > ds {
        rr = -rq - rs;
    }
    // Map coordinates of real sheets are far inside i32.
    Hex::new(rq as i32, rr as i32)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::line::{EDGE_NORMAL, EDGE_OFFSET, e_point};
    use super::*;
    use proptest::prelude::*;

    const FLAT_ODD: HexGrid = HexGrid::new(Orientation::FlatTop, Shifted::Odd);
    const FLAT_EVEN: HexGrid = HexGrid::new(Orientation::FlatTop, Shifted::Even);
    const POINTY_ODD: HexGrid = HexGrid::new(Orientation::PointyTop, Shifted::Odd);
    const POINTY_EVEN: HexGrid = HexGrid::new(Orientation::PointyTop, Shifted::Even);
    const ALL_GRIDS: [HexGrid; 4] = [FLAT_ODD, FLAT_EVEN, POINTY_ODD, POINTY_EVEN];

    fn at(g: HexGrid, s: &str) -> Hex {
        g.parse_hex(s).unwrap()
    }

    fn labels(g: HexGrid, hs: impl IntoIterator<Item = Hex>) -> Vec<String> {
        hs.into_iter().map(|h| g.label(h)).collect()
    }

    /// The line written as labels: `0404`, `0503/0504` for a hexside, `<0404/0503/0504>` for a
    /// vertex.
    fn trace(g: HexGrid, from: &str, to: &str) -> Vec<String> {
        line(at(g, from), at(g, to))
            .steps
            .iter()
            .map(|s| match *s {
                LineStep::Hex(h) => g.label(h),
                LineStep::Hexside(x) => g.hexside_label(x),
                LineStep::Vertex(v) => format!("<{}>", g.vertex_label(v)),
            })
            .collect()
    }

    #[test]
    fn addresses_parse_in_printed_forms() {
        let a = |c, r| Address { column: c, row: r };
        assert_eq!("0412".parse::<Address>(), Ok(a(4, 12)));
        assert_eq!(" 412 ".parse::<Address>(), Ok(a(4, 12)));
        assert_eq!("4.12".parse::<Address>(), Ok(a(4, 12)));
        assert_eq!("04.12".parse::<Address>(), Ok(a(4, 12)));
        assert_eq!("1205".parse::<Address>(), Ok(a(12, 5)));
        assert_eq!("104.7".parse::<Address>(), Ok(a(104, 7)));
        for bad in [
            "",
            "12",
            "12345",
            "4.",
            ".12",
            "04x2",
            "a412",
            "4..12",
            "-412",
            "०४१२",
        ] {
            assert!(bad.parse::<Address>().is_err(), "{bad:?} parsed");
        }
        assert_eq!(a(4, 12).to_string(), "0412");
        assert_eq!(a(12, 5).to_string(), "1205");
        assert_eq!(a(104, 7).to_string(), "104.7");
    }

    #[test]
    fn printed_addresses_round_trip_on_every_grid() {
        for g in ALL_GRIDS {
            for col in 0..30u16 {
                for row in 0..30u16 {
                    let addr = Address { column: col, row };
                    assert_eq!(g.address(g.hex(addr)), Some(addr), "{g:?} {addr}");
                }
            }
            assert_eq!(g.hex(Address { column: 0, row: 0 }), Hex::new(0, 0));
            assert_eq!(g.address(Hex::new(-1, 0)), None);
            assert_eq!(g.label(Hex::new(-1, 0)), "(-1,0)");
        }
    }

    #[test]
    fn flat_top_neighbours_follow_the_stagger() {
        // First column down: odd columns sit half a hex lower.
        let g = FLAT_ODD;
        let n = labels(g, g.neighbours(at(g, "0505")));
        assert_eq!(n, ["0504", "0605", "0606", "0506", "0406", "0405"]);
        let n = labels(g, g.neighbours(at(g, "0404")));
        assert_eq!(n, ["0403", "0503", "0504", "0405", "0304", "0303"]);
        // First column up: the even columns are the low ones.
        let g = FLAT_EVEN;
        let n = labels(g, g.neighbours(at(g, "0505")));
        assert_eq!(n, ["0504", "0604", "0605", "0506", "0405", "0404"]);
        let n = labels(g, g.neighbours(at(g, "0404")));
        assert_eq!(n, ["0403", "0504", "0505", "0405", "0305", "0304"]);
        assert_eq!(g.compass(HexDir::ALL[1]), Compass::NE);
        assert_eq!(g.parse_dir("sw").unwrap(), HexDir::ALL[4]);
        assert!(matches!(
            g.parse_dir("E"),
            Err(AddressError::WrongDirection(..))
        ));
    }

    #[test]
    fn pointy_top_neighbours_follow_the_stagger() {
        // Odd rows shifted right.
        let g = POINTY_ODD;
        let n = labels(g, g.neighbours(at(g, "0505")));
        assert_eq!(n, ["0604", "0605", "0606", "0506", "0405", "0504"]);
        let n = labels(g, g.neighbours(at(g, "0404")));
        assert_eq!(n, ["0403", "0504", "0405", "0305", "0304", "0303"]);
        let g = POINTY_EVEN;
        let n = labels(g, g.neighbours(at(g, "0505")));
        assert_eq!(n, ["0504", "0605", "0506", "0406", "0405", "0404"]);
        assert_eq!(g.compass(HexDir::ALL[0]), Compass::NE);
        assert_eq!(g.dir(Compass::W), Some(HexDir::ALL[4]));
        assert_eq!(g.dir(Compass::N), None);
    }

    #[test]
    fn directions_turn_and_oppose() {
        let g = FLAT_ODD;
        let h = at(g, "0707");
        for d in HexDir::ALL {
            let n = g.neighbour(h, d);
            assert_eq!(g.direction(h, n), Some(d));
            assert_eq!(g.neighbour(n, d.opposite()), h);
            assert_eq!(d.turned(6), d);
            assert_eq!(d.turned(-1).turned(1), d);
        }
        assert_eq!(HexDir::ALL[5].turned(1), HexDir::ALL[0]);
        assert_eq!(HexDir::new(6), None);
        assert_eq!(g.direction(h, at(g, "0709")), None);
    }

    #[test]
    fn distances_on_printed_maps() {
        let g = FLAT_ODD;
        let d = |x: &str, y: &str| at(g, x).distance(at(g, y));
        assert_eq!(d("0101", "0105"), 4);
        assert_eq!(d("0101", "0501"), 4);
        assert_eq!(d("0101", "0506"), 7);
        assert_eq!(d("0404", "0404"), 0);
        assert_eq!(d("0404", "0503"), 1);
        assert_eq!(d("0404", "0505"), 2);
        let g = POINTY_ODD;
        assert_eq!(at(g, "0101").distance(at(g, "0501")), 4);
        assert_eq!(at(g, "0101").distance(at(g, "0105")), 4);
    }

    #[test]
    fn hexsides_and_vertices_are_shared() {
        let g = FLAT_ODD;
        let (a, b) = (at(g, "0404"), at(g, "0503"));
        let s = Hexside::between(a, b).unwrap();
        assert_eq!(Hexside::between(b, a), Some(s));
        assert_eq!(g.hexside(a, g.dir(Compass::NE).unwrap()), s);
        assert_eq!(g.hexside(b, g.dir(Compass::SW).unwrap()), s);
        assert_eq!(s.other(a), Some(b));
        assert_eq!(s.other(at(g, "0101")), None);
        assert_eq!(Hexside::between(a, at(g, "0606")), None);
        assert_eq!(g.parse_hexside("0503/0404"), Ok(s));
        assert!(g.parse_hexside("0404/0606").is_err());
        assert_eq!(g.hexside_label(s), "0404/0503");

        // The NE-top corner of 0404 is shared with 0403 and 0503.
        let v = g.vertex(a, g.dir(Compass::N).unwrap());
        assert_eq!(g.vertex_label(v), "0403/0404/0503");
        assert_eq!(Vertex::of(at(g, "0503"), at(g, "0403"), a), Some(v));
        assert_eq!(g.parse_vertex("0503/0403/0404"), Ok(v));
        assert!(g.parse_vertex("0404/0403/0405").is_err());
        // Each corner of a hex is one of its three neighbours' corners too.
        for (i, v) in g.vertices(a).into_iter().enumerate() {
            let d = HexDir::ALL[i];
            assert!(g.vertices(g.neighbour(a, d)).contains(&v));
            assert!(g.vertices(g.neighbour(a, d.turned(1))).contains(&v));
        }
        let ends = s.vertices();
        assert_eq!(
            ends.map(|v| g.vertex_label(v)),
            ["0403/0404/0503", "0404/0503/0504"]
        );
        assert!(ends.iter().all(|v| v.hexsides().contains(&s)));
        let json = serde_json::to_string(&s).unwrap();
        assert_eq!(serde_json::from_str::<Hexside>(&json).unwrap(), s);
        let bad = serde_json::to_string(&[a, at(g, "0606")]).unwrap();
        assert!(serde_json::from_str::<Hexside>(&bad).is_err());
        let json = serde_json::to_string(&v).unwrap();
        assert_eq!(serde_json::from_str::<Vertex>(&json).unwrap(), v);
    }

    #[test]
    fn rings_and_ranges() {
        let g = FLAT_ODD;
        let c = at(g, "0505");
        assert_eq!(labels(g, g.ring(c, 0)), ["0505"]);
        assert_eq!(
            labels(g, g.ring(c, 1)),
            ["0504", "0605", "0606", "0506", "0406", "0405"]
        );
        let r2 = g.ring(c, 2).collect::<Vec<_>>();
        assert_eq!(r2.len(), 12);
        assert_eq!(g.label(r2[0]), "0503");
        assert!(r2.iter().all(|h| h.distance(c) == 2));
        let all = g.within(c, 3).collect::<BTreeSet<_>>();
        assert_eq!(all.len(), 37);
        assert!(all.iter().all(|h| h.distance(c) <= 3));
        let g = POINTY_ODD;
        assert_eq!(
            labels(g, g.ring(at(g, "0505"), 1).take(2)),
            ["0604", "0605"]
        );
    }

    #[test]
    fn bounds_limit_the_map() {
        let g = FLAT_ODD.with_bounds(MapBounds {
            first_column: 1,
            last_column: 10,
            first_row: 1,
            last_row: 12,
        });
        assert!(g.parse_hex("0112").is_ok());
        assert_eq!(
            g.parse_hex("1101"),
            Err(AddressError::OffMap("1101".to_string()))
        );
        assert!(g.parse_hex("0100").is_err());
        assert!(!g.on_map(Hex::new(-3, 2)));
        let toml = "orientation = \"flat_top\"\nshifted = \"even\"\n";
        let parsed: HexGrid = toml::from_str(toml).unwrap();
        assert_eq!(parsed, FLAT_EVEN);
    }

    #[test]
    fn rendering_positions() {
        let close = |a: MapPt, x: f64, y: f64| (a.x - x).abs() < 1e-9 && (a.y - y).abs() < 1e-9;
        let r3 = 3f64.sqrt();
        let g = FLAT_ODD;
        // Odd columns hang half a hex lower.
        assert!(close(g.centre(at(g, "0101"), 1.0), 1.5, r3 * 1.5));
        assert!(close(g.centre(at(g, "0201"), 1.0), 3.0, r3));
        let corners = g.corners(at(g, "0000"), 2.0);
        assert!(close(corners[0], 1.0, -r3)); // between N and NE sides
        assert!(close(corners[1], 2.0, 0.0));
        assert!(close(corners[3], -1.0, r3));
        let g = POINTY_ODD;
        assert!(close(g.centre(at(g, "0101"), 1.0), r3 * 1.5, 1.5));
        assert!(close(g.corners(at(g, "0000"), 1.0)[0], r3 / 2.0, -0.5));
        for g in ALL_GRIDS {
            for h in g.within(at(g, "0505"), 3) {
                let p = g.centre(h, 7.0);
                assert_eq!(g.hex_under(p, 7.0), h);
                let nudged = MapPt {
                    x: p.x + 2.0,
                    y: p.y - 3.0,
                };
                assert_eq!(g.hex_under(nudged, 7.0), h);
            }
        }
    }

    #[test]
    fn straight_line_through_a_column() {
        let g = FLAT_ODD;
        assert_eq!(trace(g, "0404", "0407"), ["0404", "0405", "0406", "0407"]);
        assert_eq!(trace(g, "0404", "0404"), ["0404"]);
        assert_eq!(trace(g, "0404", "0503"), ["0404", "0503"]);
        let l = line(at(g, "0404"), at(g, "0407"));
        assert!(!l.is_exceptional());
        assert_eq!(
            l.hexsides_crossed()
                .into_iter()
                .map(|s| g.hexside_label(s))
                .collect::<Vec<_>>(),
            ["0404/0405", "0405/0406", "0406/0407"]
        );
    }

    #[test]
    fn flat_top_line_along_a_hexside() {
        // 0404 and 0604 are level; column 5 hangs half a hex lower (first column down), so the
        // level line runs exactly along the side between 0503 and 0504.
        let g = FLAT_ODD;
        assert_eq!(
            trace(g, "0404", "0604"),
            [
                "0404",
                "<0404/0503/0504>",
                "0503/0504",
                "<0503/0504/0604>",
                "0604"
            ]
        );
        // With the first column up, column 5 is high: the same side is now 0504/0505.
        let g = FLAT_EVEN;
        assert_eq!(
            trace(g, "0404", "0604"),
            [
                "0404",
                "<0404/0504/0505>",
                "0504/0505",
                "<0504/0505/0604>",
                "0604"
            ]
        );
        // Two hexsides in a row, with the hex between them.
        let l = line(at(g, "0404"), at(g, "0804"));
        assert_eq!(
            l.hexsides_along()
                .map(|s| g.hexside_label(s))
                .collect::<Vec<_>>(),
            ["0504/0505", "0704/0705"]
        );
        assert_eq!(labels(g, l.hexes()), ["0404", "0604", "0804"]);
        assert_eq!(l.intervening().len(), 7);
    }

    #[test]
    fn flat_top_line_along_a_slanting_hexside() {
        // 0404 to 0505 (first column down) slopes 60° below the level, exactly along the side
        // between 0405 and 0504.
        let g = FLAT_ODD;
        assert_eq!(at(g, "0404").distance(at(g, "0505")), 2);
        assert_eq!(
            trace(g, "0404", "0505"),
            [
                "0404",
                "<0404/0405/0504>",
                "0405/0504",
                "<0405/0504/0505>",
                "0505"
            ]
        );
        // First column up: 0505 is then level with 0404's lower neighbour, and the same two-hex
        // slant from 0404 lands on 0506.
        let g = FLAT_EVEN;
        assert_eq!(
            trace(g, "0404", "0506"),
            [
                "0404",
                "<0404/0405/0505>",
                "0405/0505",
                "<0405/0505/0506>",
                "0506"
            ]
        );
    }

    #[test]
    fn pointy_top_line_along_a_hexside() {
        // Odd rows shifted right: 0403 and 0405 stand one above the other, and the vertical line
        // between them runs along the side between 0404 and 0504.
        let g = POINTY_ODD;
        assert_eq!(
            trace(g, "0403", "0405"),
            [
                "0403",
                "<0403/0404/0504>",
                "0404/0504",
                "<0404/0405/0504>",
                "0405"
            ]
        );
        // Even rows shifted right: 0404 and 0406 stand one above the other, and row 5 is the
        // unshifted one, so the vertical runs between 0405 and 0505.
        let g = POINTY_EVEN;
        assert_eq!(
            trace(g, "0404", "0406"),
            [
                "0404",
                "<0404/0405/0505>",
                "0405/0505",
                "<0405/0406/0505>",
                "0406"
            ]
        );
    }

    #[test]
    fn line_through_vertices_without_running_along_a_side() {
        // Flat-top, first column down: 0202 to 0703 is five hexes (axial step (5, -1)). Drawn with
        // x in half-sizes and y in half hex heights, 0202 is at (6, 4) and 0703 at (21, 7): the
        // line climbs 1 in 5 and meets corners exactly at (11, 5), where 0302, 0402 and 0403
        // meet, and at (16, 6), where 0502, 0503 and 0603 meet. It passes from 0302 into 0403
        // through the first corner, touching 0402 there only; between the corners it crosses
        // the side 0403/0502 at its middle.
        let g = FLAT_ODD;
        assert_eq!(at(g, "0202").distance(at(g, "0703")), 5);
        assert_eq!(
            trace(g, "0202", "0703"),
            [
                "0202",
                "0302",
                "<0302/0402/0403>",
                "0403",
                "0502",
                "<0502/0503/0603>",
                "0603",
                "0703"
            ]
        );
        let l = line(at(g, "0202"), at(g, "0703"));
        assert_eq!(l.vertices().count(), 2);
        assert_eq!(l.hexsides_along().count(), 0);
        assert_eq!(
            l.hexsides_crossed()
                .into_iter()
                .map(|s| g.hexside_label(s))
                .collect::<Vec<_>>(),
            ["0202/0302", "0403/0502", "0603/0703"]
        );
        assert!(l.is_exceptional());
    }

    #[test]
    fn line_clips_hex_corners_beyond_the_hex_count() {
        // A shallow line crosses the corners of hexes a hex-by-hex count skips: distance 9, but
        // twelve hexes have part of their inside on the line. In the lattice where a centre is
        // (3q, 2r + q) the line runs from (27, -5) to (0, 0): at x = 22 it is at y = -4.07,
        // inside (7,-6) (whose lower side is y = -4 there), and at x = 21 at y = -3.89, inside
        // (7,-5): both hexes of that column are crossed.
        let (a, b) = (Hex::new(9, -7), Hex::new(0, 0));
        assert_eq!(a.distance(b), 9);
        let l = line(a, b);
        assert!(!l.is_exceptional());
        let expected = [
            (9, -7),
            (8, -6),
            (7, -6),
            (7, -5),
            (6, -5),
            (5, -4),
            (4, -3),
            (3, -2),
            (2, -2),
            (2, -1),
            (1, -1),
            (0, 0),
        ]
        .map(|(q, r)| Hex::new(q, r));
        assert_eq!(l.hexes().collect::<Vec<_>>(), expected);
        assert_eq!(float_hexes(a, b), l.hexes().collect::<Vec<_>>());
    }

    /// Sample the line densely in floats, away from the exact events, and return the hexes met.
    fn float_hexes(a: Hex, b: Hex) -> Vec<Hex> {
        let (p0, p1) = (FLAT_ODD.centre(a, 1.0), FLAT_ODD.centre(b, 1.0));
        let mut out: Vec<Hex> = Vec::new();
        let samples = 4000;
        for i in 0..=samples {
            let t = f64::from(i) / f64::from(samples);
            let p = MapPt {
                x: p0.x + (p1.x - p0.x) * t,
                y: p0.y + (p1.y - p0.y) * t,
            };
            let h = FLAT_ODD.hex_under(p, 1.0);
            if out.last() != Some(&h) {
                out.push(h);
            }
        }
        out
    }

    fn steps_follow_on(l: &HexLine) -> bool {
        let touches = |s: LineStep, h: Hex| match s {
            LineStep::Hex(x) => x == h,
            LineStep::Hexside(x) => x.touches(h),
            LineStep::Vertex(v) => v.touches(h),
        };
        l.steps.windows(2).all(|w| match (w[0], w[1]) {
            (LineStep::Hex(a), LineStep::Hex(b)) => a.is_adjacent(b),
            (LineStep::Hex(h), s) | (s, LineStep::Hex(h)) => touches(s, h),
            (LineStep::Hexside(x), LineStep::Vertex(v))
            | (LineStep::Vertex(v), LineStep::Hexside(x)) => v.hexsides().contains(&x),
            _ => false,
        })
    }

    /// The classic cube-lerp samples at i/distance, as exact E-space points scaled by 2·distance
    /// (so that the corner test below stays in integers).
    fn lerp_points(a: Hex, b: Hex) -> Vec<(i64, i64, i64)> {
        let n = i64::from(a.distance(b)).max(1);
        let (pa, pb) = (e_point(a), e_point(b));
        (0..=i64::from(a.distance(b)))
            .map(|i| (pa.0 * (n - i) + pb.0 * i, pa.1 * (n - i) + pb.1 * i, n))
            .collect()
    }

    /// Is the E-space point (x/den, y/den) in this step (hex inside, open side or corner)?
    fn step_holds(s: LineStep, (x, y, den): (i64, i64, i64)) -> bool {
        // Position of the point against each edge of hex h: negative inside, zero on the edge.
        let sides = |h: Hex| {
            let c = e_point(h);
            [0, 1, 2, 3, 4, 5].map(|k| {
                let (nx, ny) = EDGE_NORMAL[k];
                nx * (x - c.0 * den) + ny * (y - c.1 * den) - EDGE_OFFSET[k] * den
            })
        };
        match s {
            LineStep::Hex(h) => sides(h).iter().all(|&v| v < 0),
            LineStep::Hexside(side) => {
                let (p, q) = side.hexes();
                let (sp, sq) = (sides(p), sides(q));
                sp.iter().all(|&v| v <= 0)
                    && sq.iter().all(|&v| v <= 0)
                    && sp.iter().filter(|&&v| v == 0).count() == 1
            }
            LineStep::Vertex(v) => v
                .hexes()
                .iter()
                .all(|&h| sides(h).iter().filter(|&&v| v == 0).count() == 2),
        }
    }

    fn hex_strategy() -> impl Strategy<Value = Hex> {
        (-12i32..12, -12i32..12).prop_map(|(q, r)| Hex::new(q, r))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn line_is_symmetric(a in hex_strategy(), b in hex_strategy()) {
            let fwd = line(a, b);
            let mut back = line(b, a).steps;
            back.reverse();
            prop_assert_eq!(fwd.steps, back);
        }

        #[test]
        fn line_holds_every_hex_of_the_hex_count(a in hex_strategy(), b in hex_strategy()) {
            // The classic lerp line has exactly distance + 1 hexes; the exact line holds each of
            // them in order (a lerp point on a side or corner lands in that step) and may add
            // hexes whose corners it clips.
            let l = line(a, b);
            let cells = l.steps.iter().filter(|s| !matches!(s, LineStep::Vertex(_))).count();
            prop_assert!(cells > a.distance(b) as usize);
            let lerp = lerp_points(a, b);
            prop_assert_eq!(lerp.len(), a.distance(b) as usize + 1);
            // A lerp point may also sit where the line crosses a side between two hexes.
            let mut cells = Vec::new();
            for w in l.steps.windows(2) {
                cells.push(w[0]);
                if let (LineStep::Hex(x), LineStep::Hex(y)) = (w[0], w[1]) {
                    cells.extend(Hexside::between(x, y).map(LineStep::Hexside));
                }
            }
            cells.extend(l.steps.last().copied());
            let mut cells = cells.into_iter();
            for p in lerp {
                prop_assert!(cells.any(|s| step_holds(s, p)), "{:?} not on {:?}", p, l.steps);
            }
            prop_assert_eq!(l.steps.first(), Some(&LineStep::Hex(a)));
            prop_assert_eq!(l.steps.last(), Some(&LineStep::Hex(b)));
            prop_assert!(steps_follow_on(&l), "{:?}", l.steps);
        }

        #[test]
        fn clean_lines_match_dense_float_sampling(a in hex_strategy(), b in hex_strategy()) {
            let l = line(a, b);
            if !l.is_exceptional() {
                prop_assert_eq!(l.hexes().collect::<Vec<_>>(), float_hexes(a, b));
            }
        }

        #[test]
        fn printed_and_axial_agree(g in prop::sample::select(ALL_GRIDS.to_vec()),
                                   c in 0u16..60, r in 0u16..60) {
            let addr = Address { column: c, row: r };
            let h = g.hex(addr);
            prop_assert_eq!(g.address(h), Some(addr));
            prop_assert_eq!(g.parse_hex(&addr.to_string()), Ok(h));
            for n in g.neighbours(h) {
                prop_assert_eq!(h.distance(n), 1);
            }
        }
    }
}
