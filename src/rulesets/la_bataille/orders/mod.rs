//! The players' order syntax (games/la-bataille/README.md): the keyword table, one small
//! parser per order (in `lines`), the whole-mail checks (a question must be answered, once),
//! and the canonical form (in `print`). Every bad line is reported with a hint. It never
//! changes the game's state; maneuver orders are checked on a copy that earlier lines moved.

mod lines;
mod print;

pub use print::print;

use crate::engine::Rejected;
use crate::rulesets::kit::grammar::{Grammar, Keyword, LineErr, refuse, whole_mail};

use super::state::{
    Choice, LbState, Order, Orders, Phase, Policy, QKind, Question, RecallPolicy, RetreatPolicy,
    StandingOrder,
};

/// What the seat is asked now.
#[derive(Debug, Clone, PartialEq)]
pub enum Role {
    /// Its Maneuver Segment: maneuver orders.
    Maneuver,
    /// Asked a question.
    Asked(Question),
    /// Nothing asked: standing orders only.
    Waiting,
    /// Reading a mail that does not answer the open step (ruling SO1): its standing orders
    /// apply, and every answer or step order is set aside with `STEP_LINE`.
    Standing,
    Over,
}

/// Why a line was set aside when reading standing orders outside a step.
pub(super) const STEP_LINE: &str = "an order for a step, not a standing order";

/// The first words of the standing orders (`FORM` only as `FORM UP ALWAYS|NEVER|ASK`).
pub const STANDING: &[&str] = &[
    "PICK",
    "RETREAT",
    "REASSAULT",
    "HUZZAH",
    "SQUARE",
    "RECALL",
    "REACTION",
    "DISPLACE",
    "IMPETUS",
    "PURSUE",
    "OPPORTUNITY",
    "FORM",
];

/// The orders each step of the sequence of play takes (its `keywords`; `STANDING` goes in
/// any mail). The Maneuver Segment's orders, the PASS that sends none included.
pub const MANEUVER_WORDS: &[&str] = &[
    "MOVE", "FACE", "FORM", "ASSAULT", "GUARD", "CHARGE", "FIRE", "ATTACH", "PASS",
];
/// The answers to the Cavalry Charge procedure's questions (p.6–8): square attempts, Reaction
/// Charge or Form Up and Stand, recall, Retreat Before the Charge, whom to pursue; and the
/// PASS of the seat not asked (`QUIET`).
pub const CHARGE_ANSWERS: &[&str] = &[
    "SQUARE", "REACT", "FORM", "RECALL", "RETREAT", "STAND", "PURSUE", "NO", "PASS",
];
/// The answers to the Mêlée Segment's and the Infantry Assault and Old Guard Charge
/// procedures' questions (p.1–5): which mêlée next, Retreat Before Assault, a new assault,
/// Huzzah, displacement, impetus, and the Old Guard's exploitation orders; and the PASS of the
/// seat not asked (`QUIET`).
pub const ASSAULT_ANSWERS: &[&str] = &[
    "PICK",
    "RETREAT",
    "STAND",
    "REASSAULT",
    "HUZZAH",
    "DISPLACE",
    "IMPETUS",
    "NO",
    "MOVE",
    "FACE",
    "FORM",
    "ASSAULT",
    "GUARD",
    "PASS",
];
/// What the seat not asked may send in a question step besides standing orders: nothing.
pub const QUIET: &[&str] = &["PASS"];

/// Whether a question belongs to the Cavalry Charge procedure (else to the Mêlée Segment and
/// the assault procedures): the sequence of play's two question steps.
pub fn charge_question(kind: &QKind) -> bool {
    matches!(
        kind,
        QKind::Square
            | QKind::Reaction
            | QKind::Recall
            | QKind::RetreatBeforeCharge
            | QKind::Pursue
    )
}

/// The answer words of a question's kind: its step's words are these, for every kind of it.
pub fn answer_words(kind: &QKind) -> &'static [&'static str] {
    match kind {
        QKind::Pick => &["PICK"],
        QKind::RetreatBeforeAssault => &["RETREAT", "STAND"],
        QKind::RetreatBeforeCharge => &["RETREAT", "STAND", "FORM"],
        QKind::NewAssault => &["REASSAULT", "NO"],
        QKind::Huzzah => &["HUZZAH", "NO"],
        QKind::Square => &["SQUARE", "NO"],
        QKind::Recall => &["RECALL", "NO"],
        QKind::Reaction => &["REACT", "FORM", "NO"],
        QKind::Displace => &["DISPLACE"],
        QKind::Impetus => &["IMPETUS"],
        QKind::Pursue => &["PURSUE"],
        QKind::Exploit => &["MOVE", "FACE", "FORM", "ASSAULT", "GUARD", "NO"],
    }
}

pub fn role(state: &LbState, seat: &str) -> Role {
    match &state.phase {
        Phase::Maneuver { side } if side == seat => Role::Maneuver,
        Phase::Question { question } if question.seat == seat => Role::Asked(question.clone()),
        Phase::GameOver => Role::Over,
        _ => Role::Waiting,
    }
}

/// The mail so far: the seat, its role, a copy of the state that earlier maneuver lines have
/// moved, the Old Guard units whose later lines are their exploitation, the answer's line.
pub struct Email {
    pub seat: String,
    pub role: Role,
    pub sim: LbState,
    pub guard: Vec<String>,
    pub answered: Option<usize>,
}

const GRAMMAR: Grammar<LbState, Email, Order> = Grammar {
    keywords: &[
        Keyword::new("MOVE", "MOVE 1/45e 0606 0607 FACING SE", lines::move_on),
        Keyword::new("FACE", "FACE 1/45e SE", lines::face),
        Keyword::new("FORM", "FORM 1/45e COLUMN", lines::form),
        Keyword::new(
            "ASSAULT",
            "ASSAULT 1/45e AT 0504 VIA 0506 0505",
            lines::assault,
        ),
        Keyword::new(
            "GUARD",
            "GUARD CHARGE 4e-Grenadiers AT 0605 VIA 0607 0606",
            lines::guard,
        ),
        Keyword::new(
            "CHARGE",
            "CHARGE 1er-Cuirassiers AT 0804 VIA 0807 0806",
            lines::charge,
        ),
        Keyword::new("FIRE", "FIRE Batterie-Ney AT 0709", lines::fire),
        Keyword::new("ATTACH", "ATTACH Ney 1/45e", lines::attach),
        Keyword::new("PICK", "PICK A3", lines::pick),
        Keyword::new("RETREAT", "RETREAT", lines::retreat),
        Keyword::new("STAND", "STAND", lines::stand),
        Keyword::new("REASSAULT", "REASSAULT 0710", lines::reassault),
        Keyword::new("HUZZAH", "HUZZAH", lines::huzzah),
        Keyword::new("SQUARE", "SQUARE 5th-KGL", lines::square),
        Keyword::new("RECALL", "RECALL AT 0610", lines::recall),
        Keyword::new("REACT", "REACT 10th-Hussars", lines::react),
        Keyword::new("DISPLACE", "DISPLACE 2/45e", lines::displace),
        Keyword::new("IMPETUS", "IMPETUS 0710 0711", lines::impetus),
        Keyword::new("PURSUE", "PURSUE 0711", lines::pursue),
        Keyword::new("NO", "NO SQUARE", lines::no),
        Keyword::new("REACTION", "REACTION ALWAYS", lines::reaction),
        Keyword::new("OPPORTUNITY", "OPPORTUNITY FIRE OFF", lines::opportunity),
        Keyword::new("PASS", "PASS", lines::pass),
    ],
    allowed: not_over,
};

/// Every word a line of orders may start with.
pub fn keywords() -> Vec<&'static str> {
    GRAMMAR.keywords()
}

fn not_over(_: &LbState, cx: &Email, _: &'static str) -> Result<(), LineErr> {
    if cx.role == Role::Over {
        return refuse("the battle is over");
    }
    Ok(())
}

/// Parses one seat's mail for the current step. Every bad line is reported.
pub fn parse(state: &LbState, seat: &str, text: &str) -> Result<Orders, Vec<Rejected>> {
    let mut cx = Email {
        seat: seat.to_string(),
        role: role(state, seat),
        sim: state.clone(),
        guard: vec![],
        answered: None,
    };
    let read = GRAMMAR.read(state, &mut cx, text);
    let mut errors = read.rejected;
    let list: Vec<Order> = read.orders.into_iter().map(|p| p.order).collect();
    if errors.is_empty()
        && let Role::Asked(q) = &cx.role
        && cx.answered.is_none()
        && !covered(q, &list)
    {
        errors.push(whole_mail(
            format!("you are asked: {}", q.text),
            Some(hint(q)),
        ));
    }
    if errors.is_empty() {
        Ok(Orders {
            grid: state.grid,
            list,
        })
    } else {
        Err(errors)
    }
}

/// The standing orders of a mail that does not answer the open step (ruling SO1), and the
/// numbers of its answers and step orders (set aside). A standing order gone wrong is refused.
pub fn standing(
    state: &LbState,
    seat: &str,
    text: &str,
) -> Result<(Vec<StandingOrder>, Vec<usize>), Vec<Rejected>> {
    let mut cx = Email {
        seat: seat.to_string(),
        role: if role(state, seat) == Role::Over {
            Role::Over
        } else {
            Role::Standing
        },
        sim: state.clone(),
        guard: vec![],
        answered: None,
    };
    let mut read = GRAMMAR.read(state, &mut cx, text);
    // A line that reached an answer's or a step order's parser is set aside with the step.
    let (aside, wrong): (Vec<Rejected>, Vec<Rejected>) = read
        .rejected
        .into_iter()
        .partition(|r| r.reason == STEP_LINE);
    read.rejected = wrong;
    let (standing, mut other) =
        crate::rulesets::kit::standing::sort(read, |o| matches!(o, Order::Standing(_)))?;
    other.extend(aside.iter().map(|r| r.line));
    other.sort_unstable();
    let standing = standing
        .into_iter()
        .filter_map(|o| match o {
            Order::Standing(x) => Some(x),
            _ => None,
        })
        .collect();
    Ok((standing, other))
}

/// The answer words a question takes, for hints.
pub fn hint(q: &Question) -> String {
    let first = q.options.first().cloned().unwrap_or_default();
    match q.kind {
        QKind::Pick => format!("for example: PICK {first}"),
        QKind::RetreatBeforeAssault | QKind::RetreatBeforeCharge => {
            "answer RETREAT or STAND".into()
        }
        QKind::NewAssault => format!("answer REASSAULT {first} or NO REASSAULT"),
        QKind::Huzzah => "answer HUZZAH or NO HUZZAH".into(),
        QKind::Square => format!("answer SQUARE {first} or NO SQUARE"),
        QKind::Recall => "answer RECALL, RECALL AT hex or NO RECALL".into(),
        QKind::Reaction => format!("answer REACT {first}, FORM UP {first} or NO REACTION"),
        QKind::Displace => format!(
            "answer DISPLACE with {} unit(s) of {}",
            q.count,
            q.options.join(", ")
        ),
        QKind::Impetus => format!("answer IMPETUS {first} …"),
        QKind::Pursue => format!("answer PURSUE {first}"),
        QKind::Exploit => format!(
            "answer with MOVE, FORM, FACE, ASSAULT or GUARD CHARGE orders for {}, or NO EXPLOITATION",
            q.options.join(", ")
        ),
    }
}

/// Does a standing order in this mail answer the question (so no answer line is needed)?
pub fn covered(q: &Question, list: &[Order]) -> bool {
    list.iter().any(|o| {
        let Order::Standing(s) = o else { return false };
        match (&q.kind, s) {
            (QKind::Pick, StandingOrder::Pick(c)) => *c == Choice::Auto,
            (QKind::RetreatBeforeAssault, StandingOrder::RetreatAssault(p)) => {
                *p != RetreatPolicy::Ask
            }
            (QKind::RetreatBeforeCharge, StandingOrder::RetreatCharge(p)) => *p != Policy::Ask,
            (QKind::NewAssault, StandingOrder::Reassault(p)) => *p != Policy::Ask,
            (QKind::Huzzah, StandingOrder::Huzzah(p)) => *p != Policy::Ask,
            (QKind::Square, StandingOrder::Square(p)) => *p != Policy::Ask,
            (QKind::Recall, StandingOrder::Recall(p)) => *p != RecallPolicy::Ask,
            (QKind::Reaction, StandingOrder::Reaction(p) | StandingOrder::FormUp(p)) => {
                *p != Policy::Ask
            }
            (QKind::Displace, StandingOrder::Displace(c)) => *c == Choice::Auto,
            (QKind::Impetus, StandingOrder::Impetus(c)) => *c == Choice::Auto,
            (QKind::Pursue, StandingOrder::Pursue(c)) => *c == Choice::Auto,
            _ => false,
        }
    })
}
