//! The canonical form of orders: one order a line, as a player would write it, so that
//! `parse(print(o)) == o`. It reads nothing and changes nothing.

use crate::board::tabletop::Pt;
use crate::rulesets::kit::grammar::num;

use super::{Aim, Leg, Order, Orders, Rule};

fn pt(p: Pt) -> String {
    format!("{},{}", num(p.x), num(p.y))
}

fn opt_pt(p: &Option<Pt>, none: &str) -> String {
    p.map_or(none.to_string(), pt)
}

/// One order in its canonical line.
pub fn print_order(o: &Order) -> String {
    match o {
        Order::Move { unit, legs, facing } => {
            let mut s = format!("MOVE {unit}");
            for l in legs {
                match l {
                    Leg::To(p) => s.push_str(&format!(" {}", pt(*p))),
                    Leg::On { inches, bearing } => {
                        s.push_str(&format!(" {} ON {}", num(*inches), num(*bearing)))
                    }
                }
            }
            if let Some(f) = facing {
                s.push_str(&format!(" FACING {}", num(*f)));
            }
            s
        }
        Order::Form { unit, form } => format!("FORM {unit} {}", form.word().to_uppercase()),
        Order::Face { unit, bearing } => format!("FACE {unit} {}", num(*bearing)),
        Order::Charge { unit, target } => format!("CHARGE {unit} {target}"),
        Order::Act { unit, act } => format!("{act} {unit}"),
        Order::Smoke { unit, at } => match at {
            Some(p) => format!("SMOKE {unit} AT {}", pt(*p)),
            None => format!("SMOKE {unit}"),
        },
        Order::Sail { unit, bearing } => format!("SAIL {unit} {}", num(*bearing)),
        Order::Fire { unit, aim } => match aim {
            Aim::Unit(t) => format!("FIRE {unit} AT {t}"),
            Aim::Point(p) => format!("FIRE {unit} AT {}", pt(*p)),
            Aim::Nothing => format!("FIRE {unit} NONE"),
        },
        Order::Declare { unit, what } => format!("{what} {unit}"),
        Order::Extra { unit, to } => format!("EXTRA {unit} {}", opt_pt(to, "NONE")),
        Order::Standing { unit, rule } => {
            let r = match rule {
                Rule::Target(true) => "TARGET NEAREST".to_string(),
                Rule::Target(false) => "TARGET NONE".to_string(),
                Rule::Melee(m) => format!("MELEE {}", yes_no(*m, "STAY", "LEAVE")),
                Rule::Prisoners(m) => format!("PRISONERS {}", yes_no(*m, "YES", "NO")),
                Rule::Ambush(Some(n)) => format!("AMBUSH {}", num(*n)),
                Rule::Ambush(None) => "AMBUSH OFF".to_string(),
                Rule::Extra(v) => format!("EXTRA {}", ask_pt(v, "NONE")),
                Rule::Advance(v) => format!("ADVANCE {}", ask_pt(v, "HOLD")),
            };
            format!("STANDING {unit} {r}")
        }
        Order::Embark { unit, carrier } => format!("EMBARK {unit} {carrier}"),
        Order::Disembark { unit, to } => match to {
            Some(p) => format!("DISEMBARK {unit} {}", pt(*p)),
            None => format!("DISEMBARK {unit}"),
        },
        Order::Launch { unit, bearing } => format!("LAUNCH {unit} {}", num(*bearing)),
        Order::Fly { unit, legs } => {
            let mut s = format!("FLY {unit}");
            for l in legs {
                match l.turn {
                    t if t < 0 => s.push_str(" LEFT"),
                    t if t > 0 => s.push_str(" RIGHT"),
                    _ => {}
                }
                s.push_str(&format!(" {}", num(l.inches)));
            }
            s
        }
    }
}

fn yes_no(v: Option<bool>, y: &str, n: &str) -> String {
    match v {
        Some(true) => y.into(),
        Some(false) => n.into(),
        None => "ASK".into(),
    }
}

fn ask_pt(v: &Option<Option<Pt>>, none: &str) -> String {
    match v {
        None => "ASK".into(),
        Some(p) => opt_pt(p, none),
    }
}

pub fn print(orders: &Orders) -> String {
    orders.iter().map(|o| print_order(o) + "\n").collect()
}
