//! The canonical form of a mail's orders: one order per line, hexes as the sheet numbers them,
//! so that `parse(print(o)) == o`. It reads orders only.

use crate::board::hex::{Hex, HexGrid};

use super::super::state::{
    Answer, Choice, Order, Orders, Policy, RecallPolicy, RetreatPolicy, StandingOrder,
};

fn hexes(g: HexGrid, hs: &[Hex]) -> String {
    hs.iter().map(|h| g.label(*h)).collect::<Vec<_>>().join(" ")
}

fn choice(c: Choice) -> &'static str {
    match c {
        Choice::Ask => "ASK",
        Choice::Auto => "AUTO",
    }
}

fn policy(p: Policy) -> &'static str {
    p.word()
}

/// One line per order, `\n`-terminated.
pub fn print(orders: &Orders) -> String {
    let g = orders.grid;
    let mut out = String::new();
    for o in &orders.list {
        out.push_str(&line(g, o));
        out.push('\n');
    }
    out
}

fn line(g: HexGrid, o: &Order) -> String {
    match o {
        Order::Move { unit, path, facing } => {
            let mut s = format!("MOVE {unit} {}", hexes(g, path));
            if let Some(f) = facing {
                s.push_str(&format!(" FACING {}", g.compass(*f).as_str()));
            }
            s
        }
        Order::Face { unit, facing } => format!("FACE {unit} {}", g.compass(*facing).as_str()),
        Order::Form { unit, formation } => format!("FORM {unit} {}", formation.keyword()),
        Order::Assault {
            unit,
            targets,
            via,
            pas_de_charge,
            guard,
        } => {
            let mut s = format!(
                "{} {unit} AT {}",
                if *guard { "GUARD CHARGE" } else { "ASSAULT" },
                hexes(g, targets)
            );
            if !via.is_empty() {
                s.push_str(&format!(" VIA {}", hexes(g, via)));
            }
            if *pas_de_charge {
                s.push_str(" PAS DE CHARGE");
            }
            s
        }
        Order::Charge {
            units,
            target,
            via,
            recall_at,
        } => {
            let mut s = format!("CHARGE {} AT {}", units.join(" "), g.label(*target));
            if !via.is_empty() {
                s.push_str(&format!(" VIA {}", hexes(g, via)));
            }
            if let Some(h) = recall_at {
                s.push_str(&format!(" RECALL AT {}", g.label(*h)));
            }
            s
        }
        Order::Fire { unit, target } => format!("FIRE {unit} AT {}", g.label(*target)),
        Order::Attach { leader, unit } => format!("ATTACH {leader} {unit}"),
        Order::Pass => "PASS".into(),
        Order::Standing(s) => standing(s),
        Order::Answer(a) => answer(g, a),
    }
}

fn standing(s: &StandingOrder) -> String {
    match s {
        StandingOrder::Pick(c) => format!("PICK {}", choice(*c)),
        StandingOrder::RetreatAssault(p) => match p {
            RetreatPolicy::Ask => "RETREAT BEFORE ASSAULT ASK".into(),
            RetreatPolicy::Always => "RETREAT BEFORE ASSAULT ALWAYS".into(),
            RetreatPolicy::Never => "RETREAT BEFORE ASSAULT NEVER".into(),
            RetreatPolicy::IfOdds(n) => format!("RETREAT BEFORE ASSAULT IF {n}:1"),
        },
        StandingOrder::RetreatCharge(p) => format!("RETREAT BEFORE CHARGE {}", policy(*p)),
        StandingOrder::Reassault(p) => format!("REASSAULT {}", policy(*p)),
        StandingOrder::Huzzah(p) => format!("HUZZAH {}", policy(*p)),
        StandingOrder::Square(p) => format!("SQUARE {}", policy(*p)),
        StandingOrder::SquareUnit(u, p) => format!("SQUARE {u} {}", policy(*p)),
        StandingOrder::Recall(p) => match p {
            RecallPolicy::Ask => "RECALL ASK".into(),
            RecallPolicy::Always => "RECALL ALWAYS".into(),
            RecallPolicy::Never => "RECALL NEVER".into(),
            RecallPolicy::IfSquare => "RECALL IF SQUARE".into(),
        },
        StandingOrder::Reaction(p) => format!("REACTION {}", policy(*p)),
        StandingOrder::FormUp(p) => format!("FORM UP {}", policy(*p)),
        StandingOrder::Displace(c) => format!("DISPLACE {}", choice(*c)),
        StandingOrder::Impetus(c) => format!("IMPETUS {}", choice(*c)),
        StandingOrder::Pursue(c) => format!("PURSUE {}", choice(*c)),
        StandingOrder::OpportunityFire(on) => {
            format!("OPPORTUNITY FIRE {}", if *on { "ON" } else { "OFF" })
        }
    }
}

fn answer(g: HexGrid, a: &Answer) -> String {
    match a {
        Answer::Pick(l) => format!("PICK {l}"),
        Answer::Retreat(true) => "RETREAT".into(),
        Answer::Retreat(false) => "STAND".into(),
        Answer::FormUp => "FORM UP".into(),
        Answer::NewAssault(Some(h)) => format!("REASSAULT {}", g.label(*h)),
        Answer::NewAssault(None) => "NO REASSAULT".into(),
        Answer::Huzzah(true) => "HUZZAH".into(),
        Answer::Huzzah(false) => "NO HUZZAH".into(),
        Answer::Square(v) if v.is_empty() => "NO SQUARE".into(),
        Answer::Square(v) => format!("SQUARE {}", v.join(" ")),
        Answer::Recall(None) => "NO RECALL".into(),
        Answer::Recall(Some(None)) => "RECALL".into(),
        Answer::Recall(Some(Some(h))) => format!("RECALL AT {}", g.label(*h)),
        Answer::React(None) => "NO REACTION".into(),
        Answer::React(Some((u, false))) => format!("REACT {u}"),
        Answer::React(Some((u, true))) => format!("FORM UP {u}"),
        Answer::Displace(v) => format!("DISPLACE {}", v.join(" ")),
        Answer::Impetus(p) => format!("IMPETUS {}", hexes(g, p)),
        Answer::Pursue(h) => format!("PURSUE {}", g.label(*h)),
        // Exploitation orders travel as the orders themselves; none is this answer.
        Answer::Exploit(v) if v.is_empty() => "NO EXPLOITATION".into(),
        Answer::Exploit(v) => v.iter().map(|o| line(g, o)).collect::<Vec<_>>().join("\n"),
        // Never written by a player: the ruleset's own choice for a silent seat.
        Answer::Auto => "PASS".into(),
    }
}
