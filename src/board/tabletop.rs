//! Tabletop measures in inches: points, headings, hulls as segments, nearest-point range,
//! line-of-sight segments and arcs. Knows nothing of any ruleset.

use serde::{Deserialize, Serialize};

/// A point on the table, inches from the lower-left corner (x right, y up).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Pt {
    pub x: f64,
    pub y: f64,
}

/// A ship's hull as a segment: centre, compass heading (0 = +y, 90 = +x) and length.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Hull {
    pub centre: Pt,
    pub heading: f64,
    pub length: f64,
}
