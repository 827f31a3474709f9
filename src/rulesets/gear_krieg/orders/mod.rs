//! The players' order syntax (games/gear-krieg/README.md): the keyword table, one small parser
//! per order (in `lines`), the whole-email checks of activation blocks, and the canonical form
//! (in `print`). Every bad line is reported, with a hint. It never changes the state.

mod email;
mod lines;
mod print;

pub use crate::rulesets::kit::grammar::num;
pub use print::{print, print_act, print_order};

use std::collections::BTreeSet;

use crate::engine::{Rejected, StandingRead};
use crate::rulesets::kit::grammar::{Grammar, Keyword, LineErr, Parsed, refuse, whole_mail};
use crate::rulesets::kit::roster::{Roster, TwoSides};

use super::activation;
use super::state::{Block, GkState, Order, Orders, Phase, Setting};
use email::{Email, Role};

/// One entry per order: its keyword, the line a player can copy, its parser.
const GRAMMAR: Grammar<GkState, Email, Order> = Grammar {
    keywords: &[
        Keyword::new("SPEED", "SPEED General-1 COMBAT", lines::speed),
        Keyword::new("EXTRA", "EXTRA General-1 2", lines::extra),
        Keyword::new("DEFEND", "DEFEND Valkurie-2", lines::defend),
        Keyword::new("ACTIVATE", "ACTIVATE General-1", lines::activate),
        Keyword::new("MOVE", "MOVE 2.5", lines::move_on),
        Keyword::new("REVERSE", "REVERSE 1", lines::reverse),
        Keyword::new("TURN", "TURN LEFT 60", lines::turn),
        Keyword::new("TO", "TO 14,22", lines::to),
        Keyword::new("MODE", "MODE GROUND", lines::mode),
        Keyword::new("FIRE", "FIRE Cannon AT Valkurie-1 ROF 1", lines::fire),
        Keyword::new("PUNCH", "PUNCH Valkurie-1", lines::punch),
        Keyword::new("KICK", "KICK Valkurie-1", lines::kick),
        Keyword::new("RAM", "RAM Valkurie-1", lines::ram),
        Keyword::new("ASSAULT", "ASSAULT General-2", lines::assault),
        Keyword::new("RALLY", "RALLY", lines::rally),
        Keyword::new("HOLD", "HOLD", lines::hold),
        Keyword::new("CP", "CP DEFEND General-1", lines::cp),
        Keyword::new(
            "INTERRUPT",
            "INTERRUPT Valkurie-2 FIRE KwK ROF 1",
            lines::interrupt,
        ),
        Keyword::new("NO", "NO INTERRUPT", lines::no),
        Keyword::new(
            "OVERWATCH",
            "OVERWATCH General-1 WITH Cannon AT VEHICLES WITHIN 16 ACTIONS 1",
            lines::overwatch,
        ),
        Keyword::new("INTERRUPTS", "INTERRUPTS NEVER", lines::interrupts),
        Keyword::new("DECLARATIONS", "DECLARATIONS SKIP", lines::declarations),
        Keyword::new("CHOOSE", "CHOOSE SECOND", lines::choose),
        Keyword::new("PASS", "PASS", lines::pass),
    ],
    allowed: in_step,
};

/// Every word a line of orders may start with (for telling orders from a sign-off).
pub fn keywords() -> Vec<&'static str> {
    GRAMMAR.keywords()
}

/// The orders each step takes: the sequence of play's `keywords` (`procedure`) and the
/// parser's per-step check below read these, so HELP, the README and the parser cannot
/// disagree. The standing words (`STANDING`) go in any mail; `CHOOSE` and `PASS` in any step.
pub const DECLARE_WORDS: &[&str] = &["SPEED", "EXTRA", "DEFEND", "CP", "CHOOSE", "PASS"];
/// The side to play sends its block (the other side may queue its own, or pass).
pub const ACTIVATE_WORDS: &[&str] = &[
    "ACTIVATE", "MOVE", "REVERSE", "TURN", "TO", "MODE", "SPEED", "FIRE", "PUNCH", "KICK", "RAM",
    "ASSAULT", "RALLY", "HOLD", "CP", "CHOOSE", "PASS",
];
/// The answer to "interrupt now?", with an out-of-sequence block and queued ones (R24).
pub const INTERRUPT_WORDS: &[&str] = &[
    "INTERRUPT",
    "NO",
    "ACTIVATE",
    "MOVE",
    "REVERSE",
    "TURN",
    "TO",
    "MODE",
    "SPEED",
    "FIRE",
    "PUNCH",
    "KICK",
    "RAM",
    "ASSAULT",
    "RALLY",
    "HOLD",
    "CP",
    "CHOOSE",
    "PASS",
];

/// The step's name as a rejection says it (the sequence of play's), and the orders it takes.
fn step_words(phase: &Phase) -> (&'static str, &'static [&'static str]) {
    match phase {
        Phase::Declare => ("declarations", DECLARE_WORDS),
        Phase::Activate { .. } => ("activation", ACTIVATE_WORDS),
        Phase::Interrupt { .. } => ("interrupt", INTERRUPT_WORDS),
        Phase::GameOver => ("game over", &[]),
    }
}

/// A line's first word against the step: the battle is over, or the step does not take it.
fn in_step(state: &GkState, cx: &Email, kw: &'static str) -> Result<(), LineErr> {
    if cx.role == Role::Over {
        return refuse("the battle is over");
    }
    let (name, words) = step_words(&state.phase);
    if words.contains(&kw) || STANDING.contains(&kw) {
        return Ok(());
    }
    Err(
        LineErr::new(format!("{kw} is not an order of the {name} step")).hint(format!(
            "this step takes: {}, {}",
            words.join(", "),
            STANDING.join(", ")
        )),
    )
}

/// Parses one seat's email for the current step. Every bad line is reported.
pub fn parse(state: &GkState, seat: &str, text: &str) -> Result<Orders, Vec<Rejected>> {
    let mut cx = Email::new(state, seat);
    let read = GRAMMAR.read(state, &mut cx, text);
    let mut errors = read.rejected;
    if errors.is_empty() {
        errors.extend(check(state, seat, cx.role, &read.orders));
    }
    if errors.is_empty() {
        Ok(read.orders.into_iter().map(|p| p.order).collect())
    } else {
        Err(errors)
    }
}

/// The first words of the standing orders and settings any mail may carry.
pub const STANDING: &[&str] = &["OVERWATCH", "INTERRUPTS", "DECLARATIONS"];

/// Overwatch and the INTERRUPTS / DECLARATIONS settings from a mail that does not answer the
/// open step (ruling SO1): the state with them in force at once.
pub fn standing(
    state: &GkState,
    seat: &str,
    text: &str,
) -> Result<StandingRead<GkState>, Vec<Rejected>> {
    let mut cx = Email::new(state, seat);
    let read = GRAMMAR.read(state, &mut cx, text);
    let (standing, other) = crate::rulesets::kit::standing::sort(read, |o| {
        matches!(
            o,
            Order::Overwatch(_)
                | Order::OverwatchOff(_)
                | Order::Set(
                    Setting::InterruptsAsk
                        | Setting::InterruptsNever
                        | Setting::DeclarationsAsk
                        | Setting::DeclarationsSkip
                )
        )
    })?;
    if standing.is_empty() {
        return Ok(StandingRead {
            applied: None,
            other,
        });
    }
    let mut next = state.clone();
    super::in_force::apply_standing(&mut next, seat, &standing);
    Ok(StandingRead {
        applied: Some((next, print(&standing))),
        other,
    })
}

/// The activation blocks of a parsed email, in order.
pub fn blocks(orders: &Orders) -> Vec<Block> {
    let mut out: Vec<Block> = Vec::new();
    for o in orders {
        match o {
            Order::Activate { unit, cp } => out.push(Block {
                unit: unit.clone(),
                cp: *cp,
                acts: vec![],
            }),
            Order::Act(a) => {
                if let Some(b) = out.last_mut() {
                    b.acts.push(a.clone());
                }
            }
            _ => {}
        }
    }
    out
}

/// Whole-email checks: the activation's legality (simulated without dice), duplicate
/// declarations, the seat's role.
fn check(state: &GkState, seat: &str, role: Role, parsed: &[Parsed<Order>]) -> Vec<Rejected> {
    let orders: Orders = parsed.iter().map(|p| p.order.clone()).collect();
    let bs = blocks(&orders);
    let mut errs = check_declarations(parsed, &orders);
    let normal = check_blocks(state, role, parsed, &bs, &mut errs);
    if role == Role::Active
        && normal == 0
        && state
            .side(seat)
            .is_none_or(|s| valid_queued(state, s).is_none())
    {
        errs.push(whole_mail(
            "it is your turn: activate one unit (ACTIVATE unit, then its orders)",
            Some(format!(
                "units not yet activated: {}",
                state
                    .unactivated(seat)
                    .iter()
                    .map(|u| u.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        ));
    }
    if role == Role::Active && bs.iter().filter(|b| b.cp).count() > 1 {
        errs.push(rejected_at(
            parsed,
            0,
            "at most one out-of-sequence activation per email".into(),
            None,
        ));
    }
    errs
}

/// A refusal of the `i`th parsed line, or of the whole mail when there is no such line.
fn rejected_at(
    parsed: &[Parsed<Order>],
    i: usize,
    reason: String,
    hint: Option<String>,
) -> Rejected {
    match parsed.get(i) {
        Some(p) => LineErr::new(reason).maybe_hint(hint).at(p.line, &p.text),
        None => whole_mail(reason, hint),
    }
}

/// Declarations: one per unit (a speed, and extra actions or defensive maneuvers).
fn check_declarations(parsed: &[Parsed<Order>], orders: &Orders) -> Vec<Rejected> {
    let mut errs = Vec::new();
    let mut seen = BTreeSet::new();
    for (i, o) in orders.iter().enumerate() {
        let key = match o {
            Order::Extra { unit, .. } | Order::Defend(unit) => Some(format!("d{unit}")),
            Order::Speed { unit, .. } => Some(format!("s{unit}")),
            _ => None,
        };
        if let Some(k) = key
            && !seen.insert(k)
        {
            errs.push(rejected_at(
                parsed,
                i,
                "a second declaration for the same unit".into(),
                None,
            ));
        }
    }
    errs
}

/// Each activation block: a unit activated once, with orders, a CP block only where the role
/// allows one, and its acts simulated (`activation::check_block`), each refusal on its own
/// line. Returns how many regular (not out-of-sequence) blocks the mail holds.
fn check_blocks(
    state: &GkState,
    role: Role,
    parsed: &[Parsed<Order>],
    bs: &[Block],
    errs: &mut Vec<Rejected>,
) -> usize {
    let rej = |i: usize, reason: String, hint: Option<String>| rejected_at(parsed, i, reason, hint);
    // Index of each ACTIVATE line and of each act within its block.
    let mut starts: Vec<usize> = Vec::new();
    let mut act_line: Vec<Vec<usize>> = Vec::new();
    for (i, p) in parsed.iter().enumerate() {
        match p.order {
            Order::Activate { .. } => {
                starts.push(i);
                act_line.push(vec![]);
            }
            Order::Act(_) => {
                if let Some(v) = act_line.last_mut() {
                    v.push(i);
                }
            }
            _ => {}
        }
    }
    let mut units = BTreeSet::new();
    let mut normal = 0;
    for (bi, b) in bs.iter().enumerate() {
        let start = starts[bi];
        if !units.insert(b.unit.clone()) {
            errs.push(rej(start, format!("{} is activated twice", b.unit), None));
            continue;
        }
        if b.acts.is_empty() {
            errs.push(rej(
                start,
                format!("no orders for {}", b.unit),
                Some("add MOVE/FIRE/… lines, or HOLD".into()),
            ));
            continue;
        }
        if b.cp && role == Role::Waiting {
            errs.push(rej(start, "an out-of-sequence activation is given in your own activation or in an interrupt answer".into(), None));
            continue;
        }
        // The first normal block of the active seat is checked in full; queued blocks and
        // interrupt-answer CP blocks are checked without targets (the mover is still moving).
        let now = !b.cp && role == Role::Active && normal == 0;
        if !b.cp {
            normal += 1;
        }
        for (ai, why) in activation::check_block(state, b, now || (b.cp && role == Role::Active)) {
            let at = if ai == usize::MAX {
                start
            } else {
                act_line[bi].get(ai).copied().unwrap_or(start)
            };
            errs.push(rej(at, why, None));
        }
    }
    normal
}

/// The first queued block that is still legal, if any (it stands in for the seat's orders).
pub fn valid_queued(state: &GkState, side: &super::state::Side) -> Option<Block> {
    queued_head(state, side).and_then(Result::ok)
}

/// The first queued block, or why it can no longer be played (unit, reason): a queued block is
/// checked when its turn comes, and one that became illegal is reported, never silently kept.
pub fn queued_head(
    state: &GkState,
    side: &super::state::Side,
) -> Option<Result<Block, (String, String)>> {
    let b = side.queued.first()?;
    let refuse = |why: String| Some(Err((b.unit.clone(), why)));
    let Some(u) = state.unit(&b.unit) else {
        return refuse(format!("there is no unit {}", b.unit));
    };
    if u.side != side.id {
        return refuse(format!("{} is not yours", b.unit));
    }
    if !u.alive() {
        return refuse(format!("{} is destroyed", b.unit));
    }
    if u.activated {
        return refuse(format!("{} has already been activated this round", b.unit));
    }
    let errs = activation::check_block(state, b, true);
    if errs.is_empty() {
        Some(Ok(b.clone()))
    } else {
        refuse(
            errs.into_iter()
                .map(|(_, why)| why)
                .collect::<Vec<_>>()
                .join("; "),
        )
    }
}
