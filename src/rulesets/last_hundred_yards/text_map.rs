//! The text map in each mail: terrain letters, counts of the counters the viewer sees, column
//! numbers and the offset (`dn`) columns, and a key. Built from what `sight` lets the viewer
//! see (`shows_itself_to`, `marker_hexes`), as the view's map is; it must never count a counter
//! the viewer cannot see.

use super::sight::{marker_hexes, shows_itself_to};
use super::state::LhyState;

/// The text map: the column numbers, a line marking the offset (`dn`) columns, then one line
/// per printed row, a letter per hex's terrain, a digit for the number of counters the viewer
/// sees there, each under its column's number.
pub(super) fn board(s: &LhyState, m: Option<&str>) -> Vec<String> {
    let g = s.map.grid();
    let markers = marker_hexes(s, m);
    let mut out = vec![format!(
        "{} ({} columns x {} rows)",
        s.map.name, s.map.columns, s.map.rows
    )];
    let mut head = String::from("   ");
    let mut offsets = String::from("   ");
    for column in 1..=s.map.columns {
        head.push_str(&format!("{column:02} "));
        // The columns are offset; marking the low ones lets a player read adjacency off the
        // text (README, "The text map"), as La Bataille's map does.
        offsets.push_str(if low_column(s, column) { "dn " } else { "   " });
    }
    out.push(head.trim_end().to_string());
    out.push(offsets.trim_end().to_string());
    for row in 1..=s.map.rows {
        let mut line = format!("{row:02} ");
        for column in 1..=s.map.columns {
            let h = g.hex(crate::board::hex::Address { column, row });
            let n = s
                .on_map()
                .filter(|u| u.at == h && shows_itself_to(u, m))
                .count()
                + markers.iter().filter(|(x, _)| *x == h).count();
            line.push(if n > 0 {
                char::from_digit(n.min(9) as u32, 10).unwrap_or('9')
            } else {
                s.map.ground(h).letter()
            });
            line.push_str("  ");
        }
        out.push(line.trim_end().to_string());
    }
    // The key: the letters of this map's terrain, and what a digit means.
    let mut key: Vec<String> = Vec::new();
    for gr in super::data::Ground::ALL {
        if s.map.hexes().iter().any(|h| s.map.ground(*h) == gr) {
            key.push(format!("{} {}", gr.letter(), gr.key().replace('_', " ")));
        }
    }
    out.push(format!("Key: {}.", key.join(", ")));
    out.push(
        "A digit: the counters you see in the hex (a Concealment marker counts one). Hills, roads, walls and your units' sight: on the attached map."
            .into(),
    );
    out
}

/// Does `column` sit half a hex lower than the columns beside it: does its hex in row 1 touch
/// row 2 of a neighbouring column? Asked of the grid, so it follows the map's layout.
fn low_column(s: &LhyState, column: u16) -> bool {
    let g = s.map.grid();
    let hex = |column: u16, row: u16| {
        let h = g.hex(crate::board::hex::Address { column, row });
        s.map.on_map(h).then_some(h)
    };
    let Some(h) = hex(column, 1) else {
        return false;
    };
    [column + 1, column.saturating_sub(1)]
        .into_iter()
        .filter_map(|c| hex(c, 2))
        .any(|n| g.neighbours(h).contains(&n))
}
