//! The canonical form of Gear Krieg orders: one order per line, as players write them.
//! It never changes the state.

use crate::board::tabletop::Pt;
use crate::rulesets::gear_krieg::data::{InitialSpeed, MoveMode};
use crate::rulesets::gear_krieg::state::{
    Act, Filter, Fire, FireMode, Melee, Order, Orders, Setting, Shift, TurnBy,
};
use crate::rulesets::kit::grammar::num;

fn pt(p: Pt) -> String {
    format!("{},{}", num(p.x), num(p.y))
}

fn turn_text(by: &TurnBy) -> String {
    match by {
        TurnBy::Left(d) => format!("LEFT {}", num(*d)),
        TurnBy::Right(d) => format!("RIGHT {}", num(*d)),
        TurnBy::To(h) => format!("TO {}", num(*h)),
    }
}

fn fire_text(f: &Fire) -> String {
    let mut s = format!("FIRE {}", f.weapon);
    match &f.mode {
        FireMode::At(t) => s.push_str(&format!(" AT {t}")),
        FireMode::Walk(ts) => s.push_str(&format!(" WALK {}", ts.join(" "))),
        FireMode::Saturate(p) => s.push_str(&format!(" SATURATE {}", pt(*p))),
    }
    if f.rof > 0 {
        s.push_str(&format!(" ROF {}", f.rof));
    }
    s
}

fn speed_word(s: InitialSpeed) -> &'static str {
    match s {
        InitialSpeed::Stationary => "STATIONARY",
        InitialSpeed::Combat => "COMBAT",
        InitialSpeed::Top => "TOP",
    }
}

/// One line of an activation block.
pub fn print_act(a: &Act) -> String {
    match a {
        Act::Move(d) => format!("MOVE {}", num(*d)),
        Act::Reverse(d) => format!("REVERSE {}", num(*d)),
        Act::Turn(by) => format!("TURN {}", turn_text(by)),
        Act::To(p) => format!("TO {}", pt(*p)),
        Act::Mode(MoveMode::Walker) => "MODE WALKER".into(),
        Act::Mode(MoveMode::Ground) => "MODE GROUND".into(),
        Act::Speed(Shift::Top) => "SPEED TOP".into(),
        Act::Speed(Shift::Combat) => "SPEED COMBAT".into(),
        Act::Fire(f) => fire_text(f),
        Act::Melee(Melee::Punch, t) => format!("PUNCH {t}"),
        Act::Melee(Melee::Kick, t) => format!("KICK {t}"),
        Act::Melee(Melee::Ram, t) => format!("RAM {t}"),
        Act::Melee(Melee::Assault, t) => format!("ASSAULT {t}"),
        Act::Rally => "RALLY".into(),
        Act::CpExtra => "CP EXTRA".into(),
        Act::Hold => "HOLD".into(),
    }
}

/// One order as its canonical line (without the newline).
pub fn print_order(o: &Order) -> String {
    match o {
        Order::Speed { unit, speed } => format!("SPEED {unit} {}", speed_word(*speed)),
        Order::Extra { unit, n } => {
            if *n == 1 {
                format!("EXTRA {unit}")
            } else {
                format!("EXTRA {unit} {n}")
            }
        }
        Order::Defend(u) => format!("DEFEND {u}"),
        Order::Activate { unit, cp } => {
            if *cp {
                format!("ACTIVATE {unit} CP")
            } else {
                format!("ACTIVATE {unit}")
            }
        }
        Order::Act(a) => print_act(a),
        Order::Interrupt { unit, fire } => {
            let mut s = format!("INTERRUPT {unit} FIRE {}", fire.weapon);
            if fire.rof > 0 {
                s.push_str(&format!(" ROF {}", fire.rof));
            }
            s
        }
        Order::NoInterrupt => "NO INTERRUPT".into(),
        Order::Overwatch(ow) => {
            let mut s = format!("OVERWATCH {}", ow.unit);
            if let Some(w) = &ow.weapon {
                s.push_str(&format!(" WITH {w}"));
            }
            match &ow.filter {
                Filter::Any => s.push_str(" AT ANY"),
                Filter::Vehicles => s.push_str(" AT VEHICLES"),
                Filter::Infantry => s.push_str(" AT INFANTRY"),
                Filter::Unit(u) => s.push_str(&format!(" AT {u}")),
            }
            if let Some(r) = ow.within {
                s.push_str(&format!(" WITHIN {}", num(r)));
            }
            s.push_str(&format!(" ACTIONS {}", ow.actions));
            if ow.rof > 0 {
                s.push_str(&format!(" ROF {}", ow.rof));
            }
            s
        }
        Order::OverwatchOff(u) => format!("OVERWATCH {u} OFF"),
        Order::Set(s) => match s {
            Setting::InterruptsAsk => "INTERRUPTS ASK",
            Setting::InterruptsNever => "INTERRUPTS NEVER",
            Setting::DeclarationsAsk => "DECLARATIONS ASK",
            Setting::DeclarationsSkip => "DECLARATIONS SKIP",
            Setting::ChooseFirst => "CHOOSE FIRST",
            Setting::ChooseSecond => "CHOOSE SECOND",
        }
        .into(),
        Order::CpDefend(u) => format!("CP DEFEND {u}"),
        Order::CpAboutFace { unit, by } => format!("CP ABOUTFACE {unit} {}", turn_text(by)),
        Order::Pass => "PASS".into(),
    }
}

/// The canonical text: one order per line, each ending in `\n`.
pub fn print(orders: &Orders) -> String {
    orders.iter().map(|o| print_order(o) + "\n").collect()
}
