//! Standing orders sent outside a step (ruling SO1 in docs/standing-orders.md): sorting the
//! lines a ruleset's grammar read from such a mail into standing orders and step orders. Pure;
//! which order is a standing one, and what it does, is each ruleset's.

use crate::engine::Rejected;

use super::grammar::Read;

/// The standing orders among what `read` holds, in line order, and the line numbers of the
/// orders that are not standing ones (answers that share a first word with a standing order).
/// Every line the grammar refused is refused: all offered lines begin with a standing word, so
/// a refusal is a standing order gone wrong.
pub fn sort<O>(
    read: Read<O>,
    is_standing: impl Fn(&O) -> bool,
) -> Result<(Vec<O>, Vec<usize>), Vec<Rejected>> {
    if !read.rejected.is_empty() {
        return Err(read.rejected);
    }
    let mut standing = Vec::new();
    let mut other = Vec::new();
    for p in read.orders {
        if is_standing(&p.order) {
            standing.push(p.order);
        } else {
            other.push(p.line);
        }
    }
    Ok((standing, other))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::kit::grammar::{LineErr, Parsed};

    fn parsed(line: usize, order: &'static str) -> Parsed<&'static str> {
        Parsed {
            line,
            text: order.into(),
            order,
        }
    }

    #[test]
    fn standing_orders_are_kept_in_line_order_and_answers_are_numbered_as_others() {
        let read = Read {
            orders: vec![
                parsed(1, "STANDING A"),
                parsed(3, "PICK A3"),
                parsed(4, "STANDING B"),
            ],
            rejected: vec![],
            end: None,
        };
        let (standing, other) = sort(read, |o: &&str| o.starts_with("STANDING")).unwrap();
        assert_eq!(standing, vec!["STANDING A", "STANDING B"]);
        assert_eq!(other, vec![3]);
    }

    #[test]
    fn one_refused_line_refuses_them_all() {
        let read = Read {
            orders: vec![parsed(1, "STANDING A")],
            rejected: vec![LineErr::new("no such unit").at(2, "STANDING Z")],
            end: None,
        };
        let bad = sort(read, |_: &&str| true).unwrap_err();
        assert_eq!(bad.len(), 1);
        assert_eq!(bad[0].line, 2);
    }
}
