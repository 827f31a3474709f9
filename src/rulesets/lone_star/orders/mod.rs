//! The players' order syntax (games/lone-star/README.md): the keyword table, one small parser
//! per order, and the canonical form. Units are named by name (any unambiguous start, any
//! case), distances in inches, points as `x,y`, directions as compass bearings. Every bad line
//! is reported with a hint. It never changes the state.

use crate::board::tabletop::Pt;
use crate::engine::Rejected;
use crate::rulesets::kit::grammar::{Cursor, Grammar, Keyword, LineErr, Names, num, refuse};

mod print;
mod ride;

pub use print::{print, print_order};
pub use ride::FlyLeg;

use super::data::Arm;
use super::state::{Form, Phase, State, Unit};

/// Where a move goes: through points, or a distance along a bearing.
#[derive(Debug, Clone, PartialEq)]
pub enum Leg {
    To(Pt),
    On { inches: f64, bearing: f64 },
}

/// What a fire order aims at.
#[derive(Debug, Clone, PartialEq)]
pub enum Aim {
    Unit(String),
    Point(Pt),
    Nothing,
}

/// A standing order: what applies when no order covers a case.
#[derive(Debug, Clone, PartialEq)]
pub enum Rule {
    /// `TARGET NEAREST` (true) or `TARGET NONE` (false).
    Target(bool),
    /// `MELEE STAY|LEAVE|ASK`.
    Melee(Option<bool>),
    /// `PRISONERS YES|NO|ASK`.
    Prisoners(Option<bool>),
    /// `AMBUSH 10` or `AMBUSH OFF`.
    Ambush(Option<f64>),
    /// `EXTRA x,y`, `EXTRA NONE`, `EXTRA ASK`.
    Extra(Option<Option<Pt>>),
    /// `ADVANCE x,y`, `ADVANCE HOLD`, `ADVANCE ASK`.
    Advance(Option<Option<Pt>>),
}

#[derive(Debug, Clone, PartialEq)]
pub enum Order {
    Move {
        unit: String,
        legs: Vec<Leg>,
        facing: Option<f64>,
    },
    Form {
        unit: String,
        form: Form,
    },
    Face {
        unit: String,
        bearing: f64,
    },
    Charge {
        unit: String,
        target: String,
    },
    /// ENTRENCH, DISENTRENCH, OCCUPY, VACATE, MOUNT, DISMOUNT, DISENGAGE, HOLD, STOP.
    Act {
        unit: String,
        act: &'static str,
    },
    Smoke {
        unit: String,
        at: Option<Pt>,
    },
    Sail {
        unit: String,
        bearing: f64,
    },
    Fire {
        unit: String,
        aim: Aim,
    },
    /// PRISONERS, GAS, GRENADES, REVEAL, STAY, LEAVE.
    Declare {
        unit: String,
        what: &'static str,
    },
    Extra {
        unit: String,
        to: Option<Pt>,
    },
    Standing {
        unit: String,
        rule: Rule,
    },
    /// R35: board a windwagon (or a landed zeppelin).
    Embark {
        unit: String,
        carrier: String,
    },
    /// R36: get out, then (if the carrier stood still) half a move toward a point.
    Disembark {
        unit: String,
        to: Option<Pt>,
    },
    /// R41: set a panjandrum rolling on a bearing.
    Launch {
        unit: String,
        bearing: f64,
    },
    /// R44: a zeppelin's or aeroplane's flight: straight, then turns each followed by inches.
    Fly {
        unit: String,
        legs: Vec<FlyLeg>,
    },
}

impl Order {
    pub fn unit(&self) -> &str {
        match self {
            Order::Move { unit, .. }
            | Order::Form { unit, .. }
            | Order::Face { unit, .. }
            | Order::Charge { unit, .. }
            | Order::Act { unit, .. }
            | Order::Smoke { unit, .. }
            | Order::Sail { unit, .. }
            | Order::Fire { unit, .. }
            | Order::Declare { unit, .. }
            | Order::Extra { unit, .. }
            | Order::Standing { unit, .. }
            | Order::Embark { unit, .. }
            | Order::Disembark { unit, .. }
            | Order::Launch { unit, .. }
            | Order::Fly { unit, .. } => unit,
        }
    }
}

pub type Orders = Vec<Order>;

/// What the parsers know of the mail: whose it is.
pub struct Email {
    pub seat: String,
    pub side: String,
}

const ACTS: &[&str] = &[
    "ENTRENCH",
    "DISENTRENCH",
    "OCCUPY",
    "VACATE",
    "MOUNT",
    "DISMOUNT",
    "DISENGAGE",
    "HOLD",
    "STOP",
];
const DECLARES: &[&str] = &["PRISONERS", "GAS", "GRENADES", "REVEAL", "STAY", "LEAVE"];
pub(super) const STOP_WORDS: &[&str] = &[
    "AT",
    "ON",
    "FACING",
    "TARGET",
    "MELEE",
    "PRISONERS",
    "AMBUSH",
    "EXTRA",
    "ADVANCE",
    "LINE",
    "COLUMN",
    "SQUARE",
    "NONE",
    "LEFT",
    "RIGHT",
];

const GRAMMAR: Grammar<State, Email, Order> = Grammar {
    keywords: &[
        Keyword::new("MOVE", "MOVE Rangers 14,20 18,24 FACING 90", mv),
        Keyword::new("FORM", "FORM Rangers LINE", form),
        Keyword::new("FACE", "FACE Rangers 45", face),
        Keyword::new("CHARGE", "CHARGE Rangers Grenzer", charge),
        Keyword::new("ENTRENCH", "ENTRENCH Rangers", entrench),
        Keyword::new("DISENTRENCH", "DISENTRENCH Rangers", disentrench),
        Keyword::new("OCCUPY", "OCCUPY Rangers", occupy),
        Keyword::new("VACATE", "VACATE Rangers", vacate),
        Keyword::new("MOUNT", "MOUNT Lancers", mount),
        Keyword::new("DISMOUNT", "DISMOUNT Lancers", dismount),
        Keyword::new("DISENGAGE", "DISENGAGE Rangers", disengage),
        Keyword::new("HOLD", "HOLD Rangers", hold),
        Keyword::new("STOP", "STOP Prairie Schooner", stop),
        Keyword::new("SMOKE", "SMOKE Rangers AT 12,20", smoke),
        Keyword::new("SAIL", "SAIL Prairie Schooner 90", sail),
        Keyword::new("FIRE", "FIRE Rangers AT Grenzer", fire),
        Keyword::new("PRISONERS", "PRISONERS Rangers", prisoners),
        Keyword::new("GAS", "GAS Rangers", gas),
        Keyword::new("GRENADES", "GRENADES Rangers", grenades),
        Keyword::new("REVEAL", "REVEAL Rangers", reveal),
        Keyword::new("STAY", "STAY Rangers", stay),
        Keyword::new("LEAVE", "LEAVE Rangers", leave),
        Keyword::new("EXTRA", "EXTRA Rangers 20,24", extra),
        Keyword::new("STANDING", "STANDING Rangers TARGET NEAREST", standing),
        Keyword::new("EMBARK", "EMBARK Rangers Prairie Schooner", ride::embark),
        Keyword::new("DISEMBARK", "DISEMBARK Rangers 20,14", ride::disembark),
        Keyword::new("LAUNCH", "LAUNCH Panjandrum 90", ride::launch),
        Keyword::new("FLY", "FLY Adler 8 RIGHT 6", ride::fly),
        Keyword::new("DESCEND", "DESCEND Adler", ride::descend),
    ],
    allowed,
};

pub fn keywords() -> Vec<&'static str> {
    GRAMMAR.keywords()
}

/// The keyword table's examples, for the order reference test.
pub fn examples() -> Vec<&'static str> {
    GRAMMAR.keywords.iter().map(|k| k.example).collect()
}

fn step_words(phase: &Phase) -> (&'static str, &'static [&'static str]) {
    const MOVE: &[&str] = &[
        "MOVE",
        "FORM",
        "FACE",
        "CHARGE",
        "ENTRENCH",
        "DISENTRENCH",
        "OCCUPY",
        "VACATE",
        "MOUNT",
        "DISMOUNT",
        "DISENGAGE",
        "HOLD",
        "STOP",
        "SMOKE",
        "SAIL",
        "EXTRA",
        "EMBARK",
        "DISEMBARK",
        "LAUNCH",
        "FLY",
        "DESCEND",
    ];
    const COMBAT: &[&str] = &["FIRE", "PRISONERS", "GAS", "GRENADES", "REVEAL", "EXTRA"];
    match phase {
        Phase::Move { .. } => ("movement", MOVE),
        Phase::Combat => ("combat", COMBAT),
        Phase::MeleeEnd => ("end of melee", &["STAY", "LEAVE", "EXTRA"]),
        Phase::Extra => ("extra movement", &["EXTRA"]),
        Phase::Cards | Phase::Over => ("no", &[]),
    }
}

fn allowed(state: &State, _: &Email, kw: &'static str) -> Result<(), LineErr> {
    if kw == "STANDING" {
        return Ok(());
    }
    let (name, words) = step_words(&state.phase);
    if words.contains(&kw) {
        Ok(())
    } else {
        Err(
            LineErr::new(format!("{kw} is not an order of the {name} step"))
                .hint(format!("this step takes: {}, STANDING", words.join(", "))),
        )
    }
}

pub(super) fn own<'s>(state: &'s State, cx: &Email, c: &mut Cursor) -> Result<&'s Unit, LineErr> {
    let names = Names {
        all: state
            .units
            .iter()
            .filter(|u| u.alive() && u.escorting == 0 && state.visible_to_side(u, &cx.side))
            .map(|u| (u.name.as_str(), u.seat == cx.seat))
            .collect(),
        what: "unit of yours",
        stop: STOP_WORDS,
        max_words: 4,
    };
    let n = c.name(&names)?;
    let u = state.unit(&n).expect("named");
    if u.seat != cx.seat {
        return refuse(format!("{n} is not one of your units"));
    }
    Ok(u)
}

pub(super) fn enemy<'s>(state: &'s State, cx: &Email, c: &mut Cursor) -> Result<&'s Unit, LineErr> {
    let names = Names {
        all: state
            .units
            .iter()
            .filter(|u| u.alive() && u.escorting == 0 && state.visible_to_side(u, &cx.side))
            .map(|u| (u.name.as_str(), u.side != cx.side))
            .collect(),
        what: "enemy unit",
        stop: STOP_WORDS,
        max_words: 4,
    };
    let n = c.name(&names)?;
    let u = state.unit(&n).expect("named");
    if u.side == cx.side {
        return refuse(format!("{n} is on your own side"));
    }
    Ok(u)
}

pub(super) fn on_table(state: &State, p: Pt, c: &Cursor) -> Result<Pt, LineErr> {
    if p.x < 0.0 || p.y < 0.0 || p.x > state.width || p.y > state.height {
        return Err(c.wrong(format!(
            "{},{} is off the table ({} by {} inches)",
            num(p.x),
            num(p.y),
            num(state.width),
            num(state.height)
        )));
    }
    Ok(p)
}

fn mv(state: &State, cx: &mut Email, c: &mut Cursor) -> Result<Order, LineErr> {
    let u = own(state, cx, c)?;
    if !u.may_move() {
        return refuse(format!("{} does not move (artillery)", u.name));
    }
    let mut legs = Vec::new();
    let mut facing = None;
    while !c.done() {
        if c.eat("FACING") {
            facing = Some(c.bearing("the facing")?);
            continue;
        }
        // `5 ON 90`, or a point.
        let save = c.clone();
        if let Ok(inches) = c.number("the distance")
            && c.eat("ON")
        {
            let bearing = c.bearing("the bearing")?;
            legs.push(Leg::On { inches, bearing });
            continue;
        }
        *c = save;
        // A word `x,y` is one point of the path: the cursor's own point reader would run on
        // into the next point (`20,14 24,18` read as one bad position).
        if let Some((x, y)) = c.peek().and_then(|w| w.split_once(','))
            && let (Ok(x), Ok(y)) = (x.parse::<f64>(), y.parse::<f64>())
        {
            c.word("a point")?;
            legs.push(Leg::To(on_table(state, Pt::new(x, y), c)?));
            continue;
        }
        let p = c.point(&["FACING", "ON"])?;
        legs.push(Leg::To(on_table(state, p, c)?));
    }
    if legs.is_empty() {
        return Err(c.wrong("where to? give points x,y or a distance ON a bearing"));
    }
    Ok(Order::Move {
        unit: u.name.clone(),
        legs,
        facing,
    })
}

fn form(state: &State, cx: &mut Email, c: &mut Cursor) -> Result<Order, LineErr> {
    let u = own(state, cx, c)?;
    let form = c.one_of(&[
        ("LINE", Form::Line),
        ("COLUMN", Form::Column),
        ("SQUARE", Form::Square),
    ])?;
    if form == Form::Square {
        if !u.regulars {
            return refuse("only British and Texas regulars form square (L12)");
        }
        if u.figures.len() < 4 {
            return refuse("a square needs at least 4 figures (L12)");
        }
        if u.mounted {
            return refuse("mounted cavalry cannot form square (L12)");
        }
    }
    Ok(Order::Form {
        unit: u.name.clone(),
        form,
    })
}

fn face(state: &State, cx: &mut Email, c: &mut Cursor) -> Result<Order, LineErr> {
    let u = own(state, cx, c)?;
    Ok(Order::Face {
        unit: u.name.clone(),
        bearing: c.bearing("the facing")?,
    })
}

fn charge(state: &State, cx: &mut Email, c: &mut Cursor) -> Result<Order, LineErr> {
    let u = own(state, cx, c)?;
    if !matches!(u.form, Form::Line | Form::Column) {
        return refuse("only a unit in line or column may charge (L6)");
    }
    if u.arm == Arm::Artillery || u.arm == Arm::Windwagon {
        return refuse(format!("{} cannot charge", u.name));
    }
    let t = enemy(state, cx, c)?;
    ride::charge_target(t)?;
    Ok(Order::Charge {
        unit: u.name.clone(),
        target: t.name.clone(),
    })
}

/// One parser per keyword of a family, each calling the family's parser with its word.
macro_rules! by_word {
    ($family:ident: $($f:ident => $w:literal),* $(,)?) => {
        $(fn $f(s: &State, cx: &mut Email, c: &mut Cursor) -> Result<Order, LineErr> {
            $family(s, cx, c, $w)
        })*
    };
}

by_word!(act: entrench => "ENTRENCH", disentrench => "DISENTRENCH", occupy => "OCCUPY",
    vacate => "VACATE", mount => "MOUNT", dismount => "DISMOUNT", disengage => "DISENGAGE",
    hold => "HOLD", stop => "STOP");
by_word!(declare: prisoners => "PRISONERS", gas => "GAS", grenades => "GRENADES",
    reveal => "REVEAL", stay => "STAY", leave => "LEAVE");

fn act(state: &State, cx: &mut Email, c: &mut Cursor, word: &str) -> Result<Order, LineErr> {
    let u = own(state, cx, c)?;
    let act = ACTS
        .iter()
        .find(|a| **a == word)
        .copied()
        .expect("an act keyword");
    let why = match act {
        "ENTRENCH" if u.mounted => Some("mounted cavalry cannot entrench".to_string()),
        "ENTRENCH" if u.british && u.figures.len() >= 4 => {
            Some("British units entrench only below 4 figures (L12)".into())
        }
        "DISENTRENCH" if u.form != Form::Entrenched => {
            Some(format!("{} is not entrenched", u.name))
        }
        "OCCUPY" if !state.in_area("farm", u.pos) && !near_farm(state, u) => {
            Some("no building within half a move (L12: it must reach the building)".into())
        }
        "VACATE" if u.form != Form::Occupying => Some(format!("{} occupies no building", u.name)),
        "MOUNT" | "DISMOUNT" if u.arm != Arm::Cavalry => Some(format!("{} is not cavalry", u.name)),
        "MOUNT" if u.mounted => Some(format!("{} is mounted already", u.name)),
        "DISMOUNT" if !u.mounted => Some(format!("{} is on foot already", u.name)),
        "DISENGAGE" if !u.disengage => Some(format!("{} has used its disengage", u.name)),
        "DISENGAGE" if u.routing => Some("a routing unit cannot disengage".into()),
        "STOP" if u.arm != Arm::Windwagon => Some(format!("{} is not a windwagon", u.name)),
        "HOLD" if u.arm == Arm::Aeroplane => Some("an aeroplane cannot hover (R44)".into()),
        _ => None,
    };
    if let Some(why) = why {
        return refuse(why);
    }
    Ok(Order::Act {
        unit: u.name.clone(),
        act,
    })
}

fn near_farm(state: &State, u: &Unit) -> bool {
    state
        .ground
        .iter()
        .any(|g| g.is("farm") && g.area.distance_to(u.pos) <= u.move_rate / 2.0)
}

fn smoke(state: &State, cx: &mut Email, c: &mut Cursor) -> Result<Order, LineErr> {
    let u = own(state, cx, c)?;
    if u.smoke == 0 || u.count(super::state::Fig::Grenadier) == 0 {
        return refuse(format!(
            "{} has no smoke left (it needs grenadiers and smoke uses)",
            u.name
        ));
    }
    let at = if c.eat("AT") {
        let p = c.point(&[])?;
        let reach = state.data.rules.smoke_diameter.get() / 2.0 + 1.0;
        if crate::board::tabletop::dist(p, u.pos) > reach + u.figures.len() as f64 / 2.0 {
            return refuse("the screen must lie on or touch one of the unit's stands (L12)");
        }
        Some(p)
    } else {
        None
    };
    Ok(Order::Smoke {
        unit: u.name.clone(),
        at,
    })
}

fn sail(state: &State, cx: &mut Email, c: &mut Cursor) -> Result<Order, LineErr> {
    let u = own(state, cx, c)?;
    if u.arm != Arm::Windwagon {
        return refuse(format!("{} is not a windwagon", u.name));
    }
    Ok(Order::Sail {
        unit: u.name.clone(),
        bearing: c.bearing("the bearing")?,
    })
}

fn fire(state: &State, cx: &mut Email, c: &mut Cursor) -> Result<Order, LineErr> {
    let u = own(state, cx, c)?;
    ride::may_fire(u)?;
    if c.eat("NONE") {
        return Ok(Order::Fire {
            unit: u.name.clone(),
            aim: Aim::Nothing,
        });
    }
    c.expect("AT")?;
    if let Some(g) = &u.gun {
        let p = c.point(&[])?;
        let p = on_table(state, p, c)?;
        let r = crate::board::tabletop::dist(u.pos, p);
        if r < g.range_min || r > g.range_max {
            return refuse(format!(
                "{} fires from {}\" to {}\"; that point is {}\" away",
                u.name,
                num(g.range_min),
                num(g.range_max),
                num((r * 10.0).round() / 10.0)
            ));
        }
        if !state.in_front(u, p) {
            return refuse("a gun fires into its 180° front only (L15)");
        }
        return Ok(Order::Fire {
            unit: u.name.clone(),
            aim: Aim::Point(p),
        });
    }
    let t = enemy(state, cx, c)?;
    ride::fire_target(state, t)?;
    Ok(Order::Fire {
        unit: u.name.clone(),
        aim: Aim::Unit(t.name.clone()),
    })
}

fn declare(state: &State, cx: &mut Email, c: &mut Cursor, word: &str) -> Result<Order, LineErr> {
    let u = own(state, cx, c)?;
    let what = DECLARES
        .iter()
        .find(|a| **a == word)
        .copied()
        .expect("a declaration keyword");
    let why = match what {
        "GAS" if u.gas == 0 || !u.gas_masks => Some("gas needs gas masks and gas uses (L12)"),
        "GAS" | "GRENADES" if u.count(super::state::Fig::Grenadier) == 0 => {
            Some("the unit has no grenadiers")
        }
        "REVEAL" if !u.hidden => Some("the unit is not hidden"),
        "STAY" | "LEAVE" if u.melee.is_empty() => Some("the unit is not in melee"),
        _ => None,
    };
    if let Some(why) = why {
        return refuse(why);
    }
    Ok(Order::Declare {
        unit: u.name.clone(),
        what,
    })
}

fn extra(state: &State, cx: &mut Email, c: &mut Cursor) -> Result<Order, LineErr> {
    let u = own(state, cx, c)?;
    if !u.on_foot() {
        return refuse("only infantry on foot takes the extra half move (L6)");
    }
    let to = if c.eat("NONE") {
        None
    } else {
        let p = c.point(&[])?;
        Some(on_table(state, p, c)?)
    };
    Ok(Order::Extra {
        unit: u.name.clone(),
        to,
    })
}

fn standing(state: &State, cx: &mut Email, c: &mut Cursor) -> Result<Order, LineErr> {
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

/// Reads a mail of `seat`: every good order, or every bad line.
pub fn parse(state: &State, seat: &str, text: &str) -> Result<Orders, Vec<Rejected>> {
    let mut cx = Email {
        seat: seat.to_string(),
        side: state.side_of(seat),
    };
    let read = GRAMMAR.read(state, &mut cx, text);
    if !read.rejected.is_empty() {
        return Err(read.rejected);
    }
    Ok(read.orders.into_iter().map(|p| p.order).collect())
}
