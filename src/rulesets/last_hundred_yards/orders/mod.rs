//! The players' order syntax (games/last-hundred-yards/README.md): the keyword table, one small
//! parser per order (the canonical form they print back as is `print`'s). Lines are read here against what the seat may see
//! (its own units, enemy units it sees, hexes of the map); whether an action is legal now is
//! checked by `turn`. It never changes the state.

use crate::board::hex::{Hex, HexGrid};
use crate::engine::Rejected;
use crate::rulesets::kit::grammar::{
    Cursor, Grammar, Keyword, LineErr, did_you_mean, normalise, refuse,
};

mod print;
pub use print::{print, print_action, print_order};

use super::data::Kind;
use super::sight;
use super::state::{Action, Ask, LhyState, Mode, Order, Rule, Setting, Standing, Target, Who};

/// What the lines of one mail have in common.
pub struct Email {
    pub side: String,
}

const GRAMMAR: Grammar<LhyState, Email, Order> = Grammar {
    keywords: &[
        Keyword::new("PLACE", "PLACE A1-1 0408", place),
        Keyword::new("HIDE", "HIDE A1-1", hide),
        Keyword::new("DUMMY", "DUMMY 0409", dummy),
        Keyword::new("FACE", "FACE Sherman-1 N", face),
        Keyword::new("ACTIVATE", "ACTIVATE 1PLT WITH 2PLT", activate),
        Keyword::new("ATTACH", "ATTACH B2-1", attach),
        Keyword::new("MOVE", "MOVE A1-1 A1-L TO 0407 0406", move_),
        Keyword::new("WITHDRAW", "WITHDRAW A1-1 TO 0409 0410", withdraw),
        Keyword::new("FIRE", "FIRE MG-1 AT 0605", fire),
        Keyword::new("MORTAR", "MORTAR Mtr-1 AT 0705", mortar),
        Keyword::new("FEINT", "FEINT 0505", feint),
        Keyword::new("SCOOT", "SCOOT Sherman-1 AT Pz-1 TO 0507", scoot),
        Keyword::new("HALT", "HALT Sherman-1 TO 0506 AT Pz-1", halt),
        Keyword::new("ASSAULT", "ASSAULT A1-1 A1-2 AT 0505", assault),
        Keyword::new("RECOVER", "RECOVER A1-1", recover),
        Keyword::new("DEPLOY", "DEPLOY A1-1", deploy),
        Keyword::new("MOUNT", "MOUNT A1-1 ON HT-1", mount),
        Keyword::new("DISMOUNT", "DISMOUNT A1-1", dismount),
        Keyword::new("HOLD", "HOLD A1-2", hold),
        Keyword::new("QUERY", "QUERY 0605", query),
        Keyword::new("ELIMINATE", "ELIMINATE A1-3", eliminate),
        Keyword::new("STANDING", "STANDING MG-1 FIRE WITHIN 4", standing),
        Keyword::new("SET", "SET REACTIONS ASK", set),
        Keyword::new("PASS", "PASS", pass),
    ],
    allowed: crate::rulesets::kit::grammar::always,
};

/// The orders each step takes: one source for the sequence of play's `keywords` and for the
/// per-step check of a mail (`checks::check_mail`). `STANDING` and `SET` go in any mail.
pub const SETUP_WORDS: &[&str] = &["PLACE", "HIDE", "DUMMY", "FACE", "PASS"];
/// The activation mail: `ACTIVATE`, its attachments, queries and actions, declarations
/// (`FEINT`, `ASSAULT ORDER`), `HOLD` and `PASS`.
pub const ACTIVATE_WORDS: &[&str] = &[
    "ACTIVATE", "ATTACH", "MOVE", "WITHDRAW", "FIRE", "MORTAR", "FEINT", "SCOOT", "HALT",
    "ASSAULT", "RECOVER", "DEPLOY", "MOUNT", "DISMOUNT", "HOLD", "QUERY", "PASS",
];
/// The answer to a call for Reaction: actions, declarations, `HOLD`, `PASS`. The active
/// player's answer may carry his next activation, so the activation's words come after.
pub const REACT_WORDS: &[&str] = &[
    "MOVE", "WITHDRAW", "FIRE", "MORTAR", "FEINT", "SCOOT", "HALT", "ASSAULT", "RECOVER", "DEPLOY",
    "MOUNT", "DISMOUNT", "HOLD", "PASS", "ACTIVATE", "ATTACH", "QUERY",
];
pub const STACKING_WORDS: &[&str] = &["ELIMINATE", "PASS"];

/// Whether a line (its text as the mail gave it) begins with one of `words`, or is a standing
/// reaction or setting, which any mail may carry (ruling SO1).
pub fn takes(words: &[&str], text: &str) -> bool {
    let first = text
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_ascii_uppercase();
    first == "STANDING" || first == "SET" || words.contains(&first.as_str())
}

/// Every word a line of orders may start with.
pub fn keywords() -> Vec<&'static str> {
    GRAMMAR.keywords()
}

/// The grid every printed hex number is read and written on (bounds from the map).
fn grid(s: &LhyState) -> HexGrid {
    s.map.grid()
}

fn hex(s: &LhyState, c: &mut Cursor) -> Result<Hex, LineErr> {
    let w = c.word("a hex number")?;
    grid(s)
        .parse_hex(w)
        .map_err(|e| c.wrong(format!("`{w}` is not a hex of this map: {e}")))
}

fn is_hex(w: &str) -> bool {
    w.len() == 4 && w.chars().all(|ch| ch.is_ascii_digit())
}

/// One of `side`'s units (any place), by name without case.
fn own(s: &LhyState, cx: &Email, c: &mut Cursor) -> Result<String, LineErr> {
    let w = c.word("a unit")?;
    if let Some(u) = s
        .units
        .iter()
        .find(|u| u.side == cx.side && normalise(&u.name) == normalise(w))
    {
        return Ok(u.name.clone());
    }
    let names = s
        .units
        .iter()
        .filter(|u| u.side == cx.side)
        .map(|u| u.name.as_str());
    Err(LineErr::new(format!("`{w}` is not one of your units")).maybe_hint(did_you_mean(w, names)))
}

/// Own units up to a stop word.
fn owns(s: &LhyState, cx: &Email, c: &mut Cursor, stop: &[&str]) -> Result<Vec<String>, LineErr> {
    let mut out = vec![own(s, cx, c)?];
    while let Some(w) = c.peek() {
        if stop.iter().any(|x| x.eq_ignore_ascii_case(w)) {
            break;
        }
        out.push(own(s, cx, c)?);
    }
    Ok(out)
}

fn hexes(s: &LhyState, c: &mut Cursor) -> Result<Vec<Hex>, LineErr> {
    let mut out = Vec::new();
    while c.peek().is_some_and(is_hex) {
        out.push(hex(s, c)?);
    }
    Ok(out)
}

const KINDS: [(&str, Kind); 4] = [
    ("AFV", Kind::Afv),
    ("GUN", Kind::Gun),
    ("FP", Kind::Fp),
    ("CARRIER", Kind::Halftrack),
];

/// `0605`, `0605 AFV` (the top-most AFV under the marker), or an enemy unit seen.
fn target(s: &LhyState, cx: &Email, c: &mut Cursor) -> Result<Target, LineErr> {
    let Some(w) = c.peek() else {
        return Err(c.wrong("the target is missing"));
    };
    if w.chars().all(|ch| ch.is_ascii_digit()) && !is_hex(w) {
        c.next_word();
        let eg = if w.len() < 4 {
            format!("{w:0>4}")
        } else {
            "0605".to_string()
        };
        return Err(LineErr::new(format!(
            "`{w}` is not a hex number: four digits, column then row, e.g. {eg}"
        )));
    }
    if is_hex(w) {
        let h = hex(s, c)?;
        if let Some(k) = KINDS
            .iter()
            .find(|(n, _)| c.peek().is_some_and(|p| p.eq_ignore_ascii_case(n)))
        {
            c.next_word();
            return Ok(Target::Hidden(h, k.1));
        }
        return Ok(Target::Hex(h));
    }
    c.next_word();
    if let Some(u) = sight::named_enemies(s, &cx.side).find(|u| normalise(&u.name) == normalise(w))
    {
        return Ok(Target::Unit(u.name.clone()));
    }
    let names = sight::named_enemies(s, &cx.side).map(|u| u.name.as_str());
    Err(LineErr::new(format!("you see no enemy unit `{w}`"))
        .maybe_hint(did_you_mean(w, names).or(Some("fire at a hex number, e.g. 0605".into()))))
}

fn place(s: &LhyState, cx: &mut Email, c: &mut Cursor) -> Result<Order, LineErr> {
    Ok(Order::Place {
        unit: own(s, cx, c)?,
        hex: hex(s, c)?,
    })
}

fn hide(s: &LhyState, cx: &mut Email, c: &mut Cursor) -> Result<Order, LineErr> {
    Ok(Order::Hide {
        unit: own(s, cx, c)?,
    })
}

fn dummy(s: &LhyState, _: &mut Email, c: &mut Cursor) -> Result<Order, LineErr> {
    Ok(Order::Dummy { hex: hex(s, c)? })
}

fn face(s: &LhyState, cx: &mut Email, c: &mut Cursor) -> Result<Order, LineErr> {
    let unit = own(s, cx, c)?;
    let w = c.word("a direction (N, NE, SE, S, SW, NW)")?;
    let dir = grid(s).parse_dir(w).map_err(|e| c.wrong(format!("{e}")))?;
    Ok(Order::Face { unit, dir })
}

fn platoon(s: &LhyState, cx: &Email, c: &mut Cursor) -> Result<String, LineErr> {
    let w = c.word("a platoon")?;
    if let Some(p) = s
        .platoons
        .iter()
        .find(|p| p.side == cx.side && p.id.eq_ignore_ascii_case(w))
    {
        return Ok(p.id.clone());
    }
    let ids = s
        .platoons
        .iter()
        .filter(|p| p.side == cx.side)
        .map(|p| p.id.as_str());
    Err(LineErr::new(format!("`{w}` is not one of your platoons")).maybe_hint(did_you_mean(w, ids)))
}

fn activate(s: &LhyState, cx: &mut Email, c: &mut Cursor) -> Result<Order, LineErr> {
    let platoon_ = platoon(s, cx, c)?;
    let with = if c.eat("WITH") {
        Some(platoon(s, cx, c)?)
    } else {
        None
    };
    Ok(Order::Activate {
        platoon: platoon_,
        with,
    })
}

fn attach(s: &LhyState, cx: &mut Email, c: &mut Cursor) -> Result<Order, LineErr> {
    Ok(Order::Attach {
        unit: own(s, cx, c)?,
    })
}

fn move_(s: &LhyState, cx: &mut Email, c: &mut Cursor) -> Result<Order, LineErr> {
    let units = owns(s, cx, c, &["TO", "REVERSE", "STOP", "EXIT"])?;
    let reverse = c.eat("REVERSE");
    let path = if c.eat("TO") { hexes(s, c)? } else { vec![] };
    let overrun = if c.eat("OVERRUN") {
        Some(hex(s, c)?)
    } else {
        None
    };
    let stop = c.eat("STOP");
    let exit = c.eat("EXIT");
    if path.is_empty() && !stop && !exit {
        return Err(c.wrong("give the hexes entered after TO, or STOP"));
    }
    Ok(Order::Act(Action::Move {
        units,
        path,
        reverse,
        deploy: false,
        overrun,
        stop,
        exit,
    }))
}

fn withdraw(s: &LhyState, cx: &mut Email, c: &mut Cursor) -> Result<Order, LineErr> {
    let units = owns(s, cx, c, &["TO", "EXIT"])?;
    let path = if c.eat("TO") { hexes(s, c)? } else { vec![] };
    let exit = c.eat("EXIT");
    Ok(Order::Act(Action::Withdraw { units, path, exit }))
}

fn fire(s: &LhyState, cx: &mut Email, c: &mut Cursor) -> Result<Order, LineErr> {
    let unit = own(s, cx, c)?;
    let from = if c.eat("FROM") { hexes(s, c)? } else { vec![] };
    c.expect("AT")?;
    let target = target(s, cx, c)?;
    let mode = if c.eat("SA") {
        Some(Mode::SmallArms)
    } else if c.eat("AT") {
        Some(Mode::AntiTank)
    } else {
        None
    };
    Ok(Order::Act(Action::Fire {
        unit,
        target,
        mode,
        from,
    }))
}

fn mortar(s: &LhyState, cx: &mut Email, c: &mut Cursor) -> Result<Order, LineErr> {
    let unit = own(s, cx, c)?;
    c.expect("AT")?;
    let hex_ = hex(s, c)?;
    let smoke = c.eat("SMOKE");
    Ok(Order::Act(Action::Mortar {
        unit,
        hex: hex_,
        smoke,
    }))
}

fn feint(s: &LhyState, _: &mut Email, c: &mut Cursor) -> Result<Order, LineErr> {
    let hex_ = hex(s, c)?;
    let off = c.eat("OFF");
    Ok(Order::Feint { hex: hex_, off })
}

/// `ASSAULT ORDER 0505 0604` (R34): the order of Assault Resolution.
fn assault_order(s: &LhyState, c: &mut Cursor) -> Result<Order, LineErr> {
    let hexes_ = hexes(s, c)?;
    if hexes_.is_empty() {
        return Err(c.wrong(
            "give the assault hexes in the order to resolve them, e.g. ASSAULT ORDER 0505 0604",
        ));
    }
    Ok(Order::AssaultOrder { hexes: hexes_ })
}

fn scoot(s: &LhyState, cx: &mut Email, c: &mut Cursor) -> Result<Order, LineErr> {
    let unit = own(s, cx, c)?;
    c.expect("AT")?;
    let target = target(s, cx, c)?;
    let to = if c.eat("TO") { Some(hex(s, c)?) } else { None };
    Ok(Order::Act(Action::Scoot { unit, target, to }))
}

fn halt(s: &LhyState, cx: &mut Email, c: &mut Cursor) -> Result<Order, LineErr> {
    let unit = own(s, cx, c)?;
    let to = if c.eat("TO") { Some(hex(s, c)?) } else { None };
    c.expect("AT")?;
    let target = target(s, cx, c)?;
    Ok(Order::Act(Action::Halt { unit, to, target }))
}

fn assault(s: &LhyState, cx: &mut Email, c: &mut Cursor) -> Result<Order, LineErr> {
    if c.eat("ORDER") {
        return assault_order(s, c);
    }
    let units = owns(s, cx, c, &["AT"])?;
    c.expect("AT")?;
    let hex_ = hex(s, c)?;
    let feint = c.eat("FEINT");
    Ok(Order::Act(Action::Assault {
        units,
        hex: hex_,
        feint,
    }))
}

fn recover(s: &LhyState, cx: &mut Email, c: &mut Cursor) -> Result<Order, LineErr> {
    Ok(Order::Act(Action::Recover {
        unit: own(s, cx, c)?,
    }))
}

fn deploy(s: &LhyState, cx: &mut Email, c: &mut Cursor) -> Result<Order, LineErr> {
    Ok(Order::Act(Action::Deploy {
        unit: own(s, cx, c)?,
    }))
}

fn mount(s: &LhyState, cx: &mut Email, c: &mut Cursor) -> Result<Order, LineErr> {
    let unit = own(s, cx, c)?;
    c.expect("ON")?;
    Ok(Order::Act(Action::Mount {
        unit,
        vehicle: own(s, cx, c)?,
    }))
}

fn dismount(s: &LhyState, cx: &mut Email, c: &mut Cursor) -> Result<Order, LineErr> {
    Ok(Order::Act(Action::Dismount {
        unit: own(s, cx, c)?,
    }))
}

fn hold(s: &LhyState, cx: &mut Email, c: &mut Cursor) -> Result<Order, LineErr> {
    Ok(Order::Hold {
        unit: own(s, cx, c)?,
    })
}

fn query(s: &LhyState, _: &mut Email, c: &mut Cursor) -> Result<Order, LineErr> {
    Ok(Order::Query { hex: hex(s, c)? })
}

fn eliminate(s: &LhyState, cx: &mut Email, c: &mut Cursor) -> Result<Order, LineErr> {
    Ok(Order::Eliminate {
        unit: own(s, cx, c)?,
    })
}

fn who(s: &LhyState, cx: &Email, c: &mut Cursor) -> Result<Who, LineErr> {
    if c.eat("ALL") {
        return Ok(Who::All);
    }
    if c.eat("PLATOON") {
        return Ok(Who::Platoon(platoon(s, cx, c)?));
    }
    Ok(Who::Unit(own(s, cx, c)?))
}

fn standing(s: &LhyState, cx: &mut Email, c: &mut Cursor) -> Result<Order, LineErr> {
    let who_ = who(s, cx, c)?;
    if c.eat("OFF") {
        return Ok(Order::StandingOff(who_));
    }
    let rule = if c.eat("FIRE") {
        let within = if c.eat("WITHIN") {
            Some(c.count("hexes", 99)?)
        } else {
            None
        };
        Rule::Fire { within }
    } else if c.eat("WITHDRAW") {
        c.expect("IF")?;
        c.expect("ASSAULTED")?;
        Rule::WithdrawIfAssaulted
    } else if c.eat("PASS") {
        let unless = if c.eat("UNLESS") {
            c.expect("WITHIN")?;
            Some(c.count("hexes", 99)?)
        } else {
            None
        };
        Rule::Pass { unless }
    } else if c.eat("RECOVER") {
        Rule::Recover
    } else {
        return Err(c.wrong("say FIRE, WITHDRAW IF ASSAULTED, PASS, RECOVER or OFF"));
    };
    Ok(Order::Standing(Standing { who: who_, rule }))
}

fn set(_: &LhyState, _: &mut Email, c: &mut Cursor) -> Result<Order, LineErr> {
    if c.eat("REACTIONS") {
        let a = c.one_of(&[
            ("ASK", Ask::Uncovered),
            ("NEVER", Ask::Never),
            ("ALWAYS", Ask::Always),
        ])?;
        return Ok(Order::Set(Setting::Reactions(a)));
    }
    let close = c.eat("CLOSE-DEFENCE");
    if close || c.eat("RECOMBINE") {
        let on = c.one_of(&[("ON", true), ("OFF", false)])?;
        return Ok(Order::Set(if close {
            Setting::CloseDefence(on)
        } else {
            Setting::Recombine(on)
        }));
    }
    Err(c.wrong("SET REACTIONS ASK|NEVER|ALWAYS, SET CLOSE-DEFENCE ON|OFF or SET RECOMBINE ON|OFF"))
}

fn pass(_: &LhyState, _: &mut Email, _: &mut Cursor) -> Result<Order, LineErr> {
    Ok(Order::Pass)
}

/// Reads one seat's mail: every line, every bad line reported. Legality comes after (`turn`).
pub fn read(
    s: &LhyState,
    side: &str,
    text: &str,
) -> Result<Vec<(usize, String, Order)>, Vec<Rejected>> {
    let mut cx = Email {
        side: side.to_string(),
    };
    let r = GRAMMAR.read(s, &mut cx, text);
    if !r.rejected.is_empty() {
        return Err(r.rejected);
    }
    Ok(r.orders
        .into_iter()
        .map(|p| (p.line, p.text, p.order))
        .collect())
}

/// `STANDING …` and `SET …` lines from a mail that does not answer the open step (ruling
/// SO1): the standing orders and settings among them, and the numbers of the other lines.
pub fn standing_lines(
    s: &LhyState,
    side: &str,
    text: &str,
) -> Result<(Vec<Order>, Vec<usize>), Vec<Rejected>> {
    let mut cx = Email {
        side: side.to_string(),
    };
    crate::rulesets::kit::standing::sort(GRAMMAR.read(s, &mut cx, text), |o| {
        matches!(
            o,
            Order::Standing(_) | Order::StandingOff(_) | Order::Set(_)
        )
    })
}

/// A refusal for a whole line.
pub fn bad(line: usize, text: &str, reason: impl Into<String>) -> Rejected {
    LineErr::new(reason).at(line, text)
}

pub fn refused<T>(reason: impl Into<String>) -> Result<T, LineErr> {
    refuse(reason)
}
