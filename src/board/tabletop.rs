//! Tabletop measures in inches: points, headings, hulls as segments, nearest-point range,
//! line-of-sight segments and arcs. Knows nothing of any ruleset.
