//! Numbers as players write them and as Despatch prints them: one formatter for canonical
//! orders and mails alike. Pure.
//!
//! The formatter never rounds, so a canonical order always reads back to the same value
//! (`parse(canonical(o)) == o`). A caller that shows a measured quantity (a position, a
//! heading after a turn) rounds it first with `round_to`, where the reader can see it.

/// A number as orders and mails print it: the shortest text that reads back to the same value,
/// without a trailing `.0` and never `-0`.
pub fn num(v: f64) -> String {
    let v = if v == 0.0 { 0.0 } else { v };
    format!("{v}")
}

/// A measured quantity (a distance, a position, a heading) as mails show it: to a tenth.
pub fn tenths(v: f64) -> String {
    num(round_to(v, 1))
}

/// `v` rounded to `places` decimals (`round_to(12.345, 1) == 12.3`).
pub fn round_to(v: f64, places: i32) -> f64 {
    let scale = 10f64.powi(places);
    (v * scale).round() / scale
}

/// A number as a player writes it: `4`, `2.5`, `-3`, with an inch mark allowed (`4"`).
pub fn read_number(word: &str) -> Option<f64> {
    word.trim_end_matches('"')
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_print_without_trailing_zero_or_negative_zero() {
        assert_eq!(num(4.0), "4");
        assert_eq!(num(2.5), "2.5");
        assert_eq!(num(-0.0), "0");
        assert_eq!(num(-3.0), "-3");
    }

    #[test]
    fn printing_never_loses_what_was_read() {
        for text in ["2.12345", "0.1", "359.9999", "12.5", "1e-7"] {
            let v = read_number(text).unwrap();
            assert_eq!(read_number(&num(v)), Some(v), "{text}");
        }
    }

    #[test]
    fn rounding_is_explicit_and_matches_the_old_arithmetic() {
        for v in [63.434_948_822_922, 0.05, 12.345_6, -4.25, 1.0 / 3.0] {
            assert_eq!(round_to(v, 1), (v * 10.0).round() / 10.0);
            assert_eq!(round_to(v, 3), (v * 1000.0).round() / 1000.0);
        }
        assert_eq!(num(round_to(63.434_948_822_922, 3)), "63.435");
        assert_eq!(tenths(12.345), "12.3");
        assert_eq!(tenths(-0.04), "0");
        assert_eq!(tenths(7.0), "7");
    }

    #[test]
    fn a_number_may_carry_an_inch_mark_but_not_be_infinite() {
        assert_eq!(read_number("4\""), Some(4.0));
        assert_eq!(read_number("-2"), Some(-2.0));
        assert_eq!(read_number("inf"), None);
        assert_eq!(read_number("NaN"), None);
        assert_eq!(read_number("four"), None);
    }
}
