//! The numbers a Naval player orders ships with (issue 30 point 6): each own ship's speed,
//! turn limit, combat factors and ranges as they stand, for the `UNITS` answer and the
//! welcome. Read from the class table through `stats` (never retyped); names no enemy ship.

use super::orders::num;
use super::state::NavalState;
use super::stats;

/// One section, one line per ship of `seat`'s fleet still afloat.
pub fn unit_numbers(state: &NavalState, seat: &str) -> Vec<(String, Vec<String>)> {
    let lines: Vec<String> = stats::ships_of(state, seat)
        .filter(|s| stats::is_afloat(s))
        .map(|s| {
            let c = stats::class_data(state, s.class);
            let mut t = format!(
                "{} ({}): speed up to {}\", turn up to {} degrees a CP, CF {}",
                s.name,
                s.class.abbr(),
                num(stats::max_speed(state, s)),
                num(c.max_turn.get()),
                stats::main_cf(state, s),
            );
            if let Some(cf) = stats::secondary_cf(state, s) {
                t.push_str(&format!(" (secondary {cf})"));
            }
            t.push_str(&format!(
                ", range {}\", extreme {}\"",
                num(stats::range(state, s)),
                num(stats::extreme_range(state, s))
            ));
            if stats::has_secondary(s) {
                t.push_str(&format!(
                    ", secondary range {}\"",
                    num(stats::secondary_range(state, s))
                ));
            }
            t.push_str(&format!(", hull {}\"", num(c.hull_length.get())));
            if s.hit_markers > 0 {
                t.push_str(&format!(", {} hit marker(s)", s.hit_markers));
            }
            t
        })
        .collect();
    if lines.is_empty() {
        return Vec::new();
    }
    vec![("Your ships' numbers".to_string(), lines)]
}
