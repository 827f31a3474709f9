//! The players' order syntax (games/lone-star/README.md): the order types, the keyword table
//! with the step each keyword belongs to, and the unit and point readers shared by the small
//! parsers of each order (movement in `march`, combat in `combat`, standing orders in
//! `standing`, riding and machines in `ride`; the canonical form in `print`). Units are named
//! by name (any unambiguous start, any case), distances in inches, points as `x,y`, directions
//! as compass bearings. Every bad line is reported with a hint. It never changes the state.

use crate::board::tabletop::Pt;
use crate::engine::Rejected;
use crate::rulesets::kit::grammar::{Cursor, Grammar, Keyword, LineErr, Names, num, refuse};

/// One parser per keyword of a family, each calling the family's parser with its word.
macro_rules! by_word {
    ($family:ident: $($f:ident => $w:literal),* $(,)?) => {
        $(pub(super) fn $f(s: &State, cx: &mut Email, c: &mut Cursor) -> Result<Order, LineErr> {
            $family(s, cx, c, $w)
        })*
    };
}

mod combat;
mod march;
mod print;
mod ride;
mod standing;

pub use print::{print, print_order};
pub use ride::FlyLeg;

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
        Keyword::new("MOVE", "MOVE Rangers 14,20 18,24 FACING 90", march::mv),
        Keyword::new("FORM", "FORM Rangers LINE", march::form),
        Keyword::new("FACE", "FACE Rangers 45", march::face),
        Keyword::new("CHARGE", "CHARGE Rangers Grenzer", march::charge),
        Keyword::new("ENTRENCH", "ENTRENCH Rangers", march::entrench),
        Keyword::new("DISENTRENCH", "DISENTRENCH Rangers", march::disentrench),
        Keyword::new("OCCUPY", "OCCUPY Rangers", march::occupy),
        Keyword::new("VACATE", "VACATE Rangers", march::vacate),
        Keyword::new("MOUNT", "MOUNT Sipahi", march::mount),
        Keyword::new("DISMOUNT", "DISMOUNT Sipahi", march::dismount),
        Keyword::new("DISENGAGE", "DISENGAGE Rangers", march::disengage),
        Keyword::new("HOLD", "HOLD Rangers", march::hold),
        Keyword::new("STOP", "STOP Prairie Schooner", march::stop),
        Keyword::new("SMOKE", "SMOKE Rangers AT 12,20", march::smoke),
        Keyword::new("SAIL", "SAIL Prairie Schooner 90", march::sail),
        Keyword::new("FIRE", "FIRE Rangers AT Grenzer", combat::fire),
        Keyword::new("PRISONERS", "PRISONERS Rangers", combat::prisoners),
        Keyword::new("GAS", "GAS Rangers", combat::gas),
        Keyword::new("GRENADES", "GRENADES Rangers", combat::grenades),
        Keyword::new("REVEAL", "REVEAL Rangers", combat::reveal),
        Keyword::new("STAY", "STAY Rangers", combat::stay),
        Keyword::new("LEAVE", "LEAVE Rangers", combat::leave),
        Keyword::new("EXTRA", "EXTRA Rangers 20,24", combat::extra),
        Keyword::new(
            "STANDING",
            "STANDING Rangers TARGET NEAREST",
            standing::standing,
        ),
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

/// The orders each step takes (the sequence of play's `keywords`; `STANDING` goes in any).
pub const MOVE_WORDS: &[&str] = &[
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
pub const COMBAT_WORDS: &[&str] = &["FIRE", "PRISONERS", "GAS", "GRENADES", "REVEAL", "EXTRA"];
pub const MELEE_END_WORDS: &[&str] = &["STAY", "LEAVE", "EXTRA"];
pub const EXTRA_WORDS: &[&str] = &["EXTRA"];

/// The step's name as a rejection says it, and the orders it takes.
fn step_words(phase: &Phase) -> (&'static str, &'static [&'static str]) {
    match phase {
        Phase::Move { .. } => ("movement", MOVE_WORDS),
        Phase::Combat => ("combat", COMBAT_WORDS),
        Phase::MeleeEnd => ("end of melee", MELEE_END_WORDS),
        Phase::Extra => ("extra movement", EXTRA_WORDS),
        Phase::Cards | Phase::GameOver => ("no", &[]),
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

/// `word` as the keyword of `list` it names (the dispatcher sends only listed words; anything
/// else is refused, never a panic).
pub(super) fn keyword(list: &[&'static str], word: &str) -> Result<&'static str, LineErr> {
    list.iter()
        .copied()
        .find(|k| *k == word)
        .ok_or_else(|| LineErr::new(format!("unknown order `{word}`")))
}

pub(super) fn own<'s>(state: &'s State, cx: &Email, c: &mut Cursor) -> Result<&'s Unit, LineErr> {
    let names = Names {
        // The seat's own escorts are known by name, so that naming one is answered with why
        // (R40) rather than "no unit of yours called …" for a unit its mails list.
        all: state
            .units
            .iter()
            .filter(|u| {
                u.alive()
                    && (u.escorting == 0 || u.seat == cx.seat)
                    && state.visible_to_side(u, &cx.side)
            })
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
    if u.escorting > 0 {
        return refuse(format!(
            "{n} marches its prisoners to the rear by itself: no order names an escort (R40)"
        ));
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

/// `STANDING …` lines from a mail that does not answer the open step (ruling SO1): the
/// standing orders, and the numbers of the lines that were orders for a step after all.
pub fn standing(
    state: &State,
    seat: &str,
    text: &str,
) -> Result<(Vec<Order>, Vec<usize>), Vec<Rejected>> {
    let mut cx = Email {
        seat: seat.to_string(),
        side: state.side_of(seat),
    };
    let read = GRAMMAR.read(state, &mut cx, text);
    crate::rulesets::kit::standing::sort(read, |o| matches!(o, Order::Standing { .. }))
}

/// Reads a mail of `seat`: every good order, or every bad line.
pub fn parse(state: &State, seat: &str, text: &str) -> Result<Orders, Vec<Rejected>> {
    let mut cx = Email {
        seat: seat.to_string(),
        side: state.side_of(seat),
    };
    let mut read = GRAMMAR.read(state, &mut cx, text);
    read.rejected
        .extend(ride::unready_carriers(state, &read.orders));
    if !read.rejected.is_empty() {
        read.rejected.sort_by_key(|r| r.line);
        return Err(read.rejected);
    }
    Ok(read.orders.into_iter().map(|p| p.order).collect())
}
