//! The canonical form of an order: how the game prints back what it read (confirmations,
//! standing orders in the view, the sample orders). Printing only: it reads no mail and checks
//! nothing.

use crate::board::hex::{Hex, HexDir, HexGrid};

use super::super::map::GRID_KIND;
use super::super::state::{Action, Ask, Mode, Order, Orders, Rule, Setting, Target, Who};
use super::KINDS;

fn g() -> HexGrid {
    HexGrid::new(GRID_KIND.0, GRID_KIND.1)
}

fn h(x: Hex) -> String {
    g().label(x)
}

fn hs(xs: &[Hex]) -> String {
    xs.iter().map(|x| h(*x)).collect::<Vec<_>>().join(" ")
}

fn dir(d: HexDir) -> String {
    g().compass(d).as_str().to_string()
}

fn tgt(t: &Target) -> String {
    match t {
        Target::Hex(x) => h(*x),
        Target::Unit(n) => n.clone(),
        Target::Hidden(x, k) => format!(
            "{} {}",
            h(*x),
            KINDS.iter().find(|(_, kk)| kk == k).map_or("AFV", |p| p.0)
        ),
    }
}

fn who_text(w: &Who) -> String {
    match w {
        Who::All => "ALL".into(),
        Who::Platoon(p) => format!("PLATOON {p}"),
        Who::Unit(u) => u.clone(),
    }
}

/// One action as players write it.
pub fn print_action(a: &Action) -> String {
    match a {
        Action::Move {
            units,
            path,
            reverse,
            overrun,
            stop,
            exit,
            ..
        } => {
            let mut t = format!("MOVE {}", units.join(" "));
            if *reverse {
                t.push_str(" REVERSE");
            }
            if !path.is_empty() {
                t.push_str(&format!(" TO {}", hs(path)));
            }
            if let Some(o) = overrun {
                t.push_str(&format!(" OVERRUN {}", h(*o)));
            }
            if *stop {
                t.push_str(" STOP");
            }
            if *exit {
                t.push_str(" EXIT");
            }
            t
        }
        Action::Withdraw { units, path, exit } => {
            let mut t = format!("WITHDRAW {}", units.join(" "));
            if !path.is_empty() {
                t.push_str(&format!(" TO {}", hs(path)));
            }
            if *exit {
                t.push_str(" EXIT");
            }
            t
        }
        Action::Fire {
            unit,
            target,
            mode,
            from,
        } => {
            let mut t = format!("FIRE {unit}");
            if !from.is_empty() {
                t.push_str(&format!(" FROM {}", hs(from)));
            }
            t.push_str(&format!(" AT {}", tgt(target)));
            match mode {
                Some(Mode::SmallArms) => t.push_str(" SA"),
                Some(Mode::AntiTank) => t.push_str(" AT"),
                None => {}
            }
            t
        }
        Action::Mortar { unit, hex, smoke } => format!(
            "MORTAR {unit} AT {}{}",
            h(*hex),
            if *smoke { " SMOKE" } else { "" }
        ),
        Action::Scoot { unit, target, to } => {
            let mut t = format!("SCOOT {unit} AT {}", tgt(target));
            if let Some(x) = to {
                t.push_str(&format!(" TO {}", h(*x)));
            }
            t
        }
        Action::Halt { unit, to, target } => {
            let mut t = format!("HALT {unit}");
            if let Some(x) = to {
                t.push_str(&format!(" TO {}", h(*x)));
            }
            t.push_str(&format!(" AT {}", tgt(target)));
            t
        }
        Action::Assault { units, hex, feint } => format!(
            "ASSAULT {} AT {}{}",
            units.join(" "),
            h(*hex),
            if *feint { " FEINT" } else { "" }
        ),
        Action::Recover { unit } => format!("RECOVER {unit}"),
        Action::Deploy { unit } => format!("DEPLOY {unit}"),
        Action::Mount { unit, vehicle } => format!("MOUNT {unit} ON {vehicle}"),
        Action::Dismount { unit } => format!("DISMOUNT {unit}"),
    }
}

pub fn print_order(o: &Order) -> String {
    match o {
        Order::Place { unit, hex } => format!("PLACE {unit} {}", h(*hex)),
        Order::Hide { unit } => format!("HIDE {unit}"),
        Order::Dummy { hex } => format!("DUMMY {}", h(*hex)),
        Order::Face { unit, dir: d } => format!("FACE {unit} {}", dir(*d)),
        Order::Activate { platoon, with } => match with {
            Some(w) => format!("ACTIVATE {platoon} WITH {w}"),
            None => format!("ACTIVATE {platoon}"),
        },
        Order::Attach { unit } => format!("ATTACH {unit}"),
        Order::Act(a) => print_action(a),
        Order::Hold { unit } => format!("HOLD {unit}"),
        Order::Query { hex } => format!("QUERY {}", h(*hex)),
        Order::Pass => "PASS".into(),
        Order::Eliminate { unit } => format!("ELIMINATE {unit}"),
        Order::Feint { hex, off } => {
            format!("FEINT {}{}", h(*hex), if *off { " OFF" } else { "" })
        }
        Order::AssaultOrder { hexes } => format!("ASSAULT ORDER {}", hs(hexes)),
        Order::Standing(st) => {
            let rule = match &st.rule {
                Rule::Fire { within: None } => "FIRE".to_string(),
                Rule::Fire { within: Some(n) } => format!("FIRE WITHIN {n}"),
                Rule::WithdrawIfAssaulted => "WITHDRAW IF ASSAULTED".into(),
                Rule::Pass { unless: None } => "PASS".into(),
                Rule::Pass { unless: Some(n) } => format!("PASS UNLESS WITHIN {n}"),
                Rule::Recover => "RECOVER".into(),
            };
            format!("STANDING {} {rule}", who_text(&st.who))
        }
        Order::StandingOff(w) => format!("STANDING {} OFF", who_text(w)),
        Order::Set(Setting::Reactions(a)) => format!(
            "SET REACTIONS {}",
            match a {
                Ask::Uncovered => "ASK",
                Ask::Never => "NEVER",
                Ask::Always => "ALWAYS",
            }
        ),
        Order::Set(Setting::CloseDefence(on)) => {
            format!("SET CLOSE-DEFENCE {}", if *on { "ON" } else { "OFF" })
        }
        Order::Set(Setting::Recombine(on)) => {
            format!("SET RECOMBINE {}", if *on { "ON" } else { "OFF" })
        }
    }
}

/// The canonical form: one order per line.
pub fn print(orders: &Orders) -> String {
    orders.iter().map(|o| print_order(o) + "\n").collect()
}
