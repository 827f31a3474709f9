//! Standing orders (`STANDING`, any step's mail): what applies when no order covers a case,
//! so a seat whose every case is covered is not asked.

use crate::rulesets::kit::grammar::{Cursor, LineErr, refuse};

use super::super::data::Arm;
use super::super::state::State;
use super::{Email, Order, Rule, on_table, own};

pub(super) fn standing(state: &State, cx: &mut Email, c: &mut Cursor) -> Result<Order, LineErr> {
    let u = own(state, cx, c)?;
    let what = c.one_of(&[
        ("TARGET", 0),
        ("MELEE", 1),
        ("PRISONERS", 2),
        ("AMBUSH", 3),
        ("EXTRA", 4),
        ("ADVANCE", 5),
    ])?;
    let rule = match what {
        0 => Rule::Target(c.one_of(&[("NEAREST", true), ("NONE", false)])?),
        1 => {
            Rule::Melee(c.one_of(&[("STAY", Some(true)), ("LEAVE", Some(false)), ("ASK", None)])?)
        }
        2 => {
            Rule::Prisoners(c.one_of(&[("YES", Some(true)), ("NO", Some(false)), ("ASK", None)])?)
        }
        3 => {
            if c.eat("OFF") {
                Rule::Ambush(None)
            } else {
                let n = c.number("the ambush distance")?;
                if !(0.0..=36.0).contains(&n) {
                    return Err(c.wrong("an ambush distance is 0 to 36 inches"));
                }
                Rule::Ambush(Some(n))
            }
        }
        4 | 5 => {
            let v = if c.eat("ASK") {
                None
            } else if c.eat("NONE") || c.eat("HOLD") {
                Some(None)
            } else {
                let p = c.point(&[])?;
                Some(Some(on_table(state, p, c)?))
            };
            if what == 4 {
                if !u.on_foot() {
                    return refuse("only infantry on foot takes the extra half move (L6)");
                }
                Rule::Extra(v)
            } else {
                if !u.may_move() || u.arm == Arm::Windwagon {
                    return refuse(format!("{} cannot be given a standing advance", u.name));
                }
                Rule::Advance(v)
            }
        }
        _ => unreachable!("one_of returns a listed value"),
    };
    Ok(Order::Standing {
        unit: u.name.clone(),
        rule,
    })
}
