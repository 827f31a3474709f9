//! Parsers of the La Bataille orders, one per keyword: maneuver orders (checked on the mail's
//! copy of the state, which earlier lines moved), answers to the open question, and standing
//! orders. They never change the real state.

use crate::board::hex::{Hex, HexDir};
use crate::rulesets::kit::grammar::{Cursor, LineErr, Names, refuse};
use crate::rulesets::kit::roster::Roster;

use super::super::assault::check_assault;
use super::super::movement;
use super::super::state::{
    Answer, Choice, Formation, LbState, Order, Policy, QKind, RecallPolicy, RetreatPolicy,
    StandingOrder,
};
use super::{Email, Role};

type Line = Result<Order, LineErr>;

/// Words that end a unit name or a list of hexes.
const STOP: &[&str] = &[
    "AT", "VIA", "FACING", "PAS", "RECALL", "ALWAYS", "NEVER", "ASK", "AUTO", "UP", "IF",
];

impl Email {
    /// A unit of this seat's side, by name (unambiguous starts allowed).
    fn own(&self, c: &mut Cursor) -> Result<String, LineErr> {
        let names = Names {
            all: self
                .sim
                .units
                .iter()
                .filter(|u| u.alive())
                .map(|u| (u.name.as_str(), u.side == self.seat))
                .collect(),
            what: "unit of yours",
            stop: STOP,
            max_words: 1,
        };
        let n = c.name(&names)?;
        match self.sim.unit(&n) {
            Some(u) if u.side == self.seat => Ok(n),
            _ => refuse(format!("{n} is not one of your units")),
        }
    }

    /// A Maneuver Segment order's line: taken in the seat's Maneuver Segment, whose words are
    /// the sequence of play's (`MANEUVER_WORDS`, one list for the table and this check), and
    /// in an Old Guard exploitation answer.
    fn maneuver(&self, what: &str) -> Result<(), LineErr> {
        let word = what.split_whitespace().next().unwrap_or(what);
        match &self.role {
            Role::Standing => Err(LineErr::new(super::STEP_LINE)),
            Role::Maneuver if super::MANEUVER_WORDS.contains(&word) => Ok(()),
            Role::Asked(q) if q.kind == QKind::Exploit => Ok(()),
            _ => Err(LineErr::new(format!(
                "{what} is a Maneuver Segment order, and it is not your Maneuver Segment"
            ))
            .hint("standing orders (HUZZAH ALWAYS, SQUARE ALWAYS…) may be sent at any time")),
        }
    }

    /// In an exploitation answer, only the exploiting Old Guard units take orders, and such an
    /// order answers the question. Elsewhere nothing to check.
    fn exploiter(&mut self, unit: &str, c: &Cursor) -> Result<(), LineErr> {
        let Role::Asked(q) = &self.role else {
            return Ok(());
        };
        if q.kind != QKind::Exploit {
            return Ok(());
        }
        if !q.options.iter().any(|o| o == unit) {
            return Err(LineErr::new(format!("{unit} is not exploiting"))
                .hint(format!("orders for {} only", q.options.join(", "))));
        }
        if self.answered.is_none() {
            self.answered = Some(c.line());
        }
        Ok(())
    }

    /// The open question, if it is of one of `kinds`.
    fn asked(
        &mut self,
        c: &Cursor,
        kinds: &[QKind],
        word: &str,
    ) -> Result<super::Question, LineErr> {
        let q = match &self.role {
            Role::Standing => return Err(LineErr::new(super::STEP_LINE)),
            Role::Asked(q) if kinds.contains(&q.kind) => q.clone(),
            Role::Asked(q) => {
                return Err(LineErr::new(format!(
                    "{word} does not answer the question put to you"
                ))
                .hint(super::hint(q)));
            }
            _ => {
                return Err(LineErr::new(format!(
                    "nobody asked you a question that {word} answers"
                ))
                .hint("standing orders take a policy: for example HUZZAH ALWAYS"));
            }
        };
        if let Some(l) = self.answered {
            return refuse(format!("the question is already answered on line {l}"));
        }
        self.answered = Some(c.line());
        Ok(q)
    }
}

fn hex(st: &LbState, c: &mut Cursor, what: &str) -> Result<Hex, LineErr> {
    let w = c.word(what)?;
    st.grid
        .parse_hex(w)
        .map_err(|e| c.wrong(format!("`{w}`: {e}")))
}

/// Hexes up to a stop word or the end.
fn hexes(st: &LbState, c: &mut Cursor) -> Result<Vec<Hex>, LineErr> {
    let mut out = Vec::new();
    while let Some(w) = c.peek() {
        if STOP.iter().any(|s| s.eq_ignore_ascii_case(w)) {
            break;
        }
        out.push(hex(st, c, "a hex")?);
    }
    Ok(out)
}

fn dir(st: &LbState, c: &mut Cursor) -> Result<HexDir, LineErr> {
    let w = c.word("a direction")?;
    st.grid
        .parse_dir(w)
        .map_err(|e| c.wrong(format!("`{w}`: {e}")))
}

fn policy(c: &mut Cursor) -> Result<Policy, LineErr> {
    c.one_of(&[
        ("ALWAYS", Policy::Always),
        ("NEVER", Policy::Never),
        ("ASK", Policy::Ask),
    ])
}

fn choice(c: &mut Cursor) -> Result<Choice, LineErr> {
    c.one_of(&[("AUTO", Choice::Auto), ("ASK", Choice::Ask)])
}

fn is_policy_word(c: &Cursor) -> bool {
    ["ALWAYS", "NEVER", "ASK", "AUTO", "IF"]
        .iter()
        .any(|w| c.is(w))
}

/// `MOVE 1/45e 0606 0607 [FACING SE]`.
pub fn move_on(st: &LbState, cx: &mut Email, c: &mut Cursor) -> Line {
    cx.maneuver("MOVE")?;
    let unit = cx.own(c)?;
    cx.exploiter(&unit, c)?;
    let path = hexes(st, c)?;
    if path.is_empty() {
        return Err(c.wrong("the hexes of the move are missing"));
    }
    let facing = if c.eat("FACING") {
        Some(dir(st, c)?)
    } else {
        None
    };
    let cost = movement::check_move(&cx.sim, &unit, &path, false).map_err(LineErr::new)?;
    let end = *path.last().expect("not empty");
    movement::check_end(&cx.sim, &unit, end, false).map_err(LineErr::new)?;
    if let Some(u) = cx.sim.unit_mut(&unit) {
        u.hex = end;
        u.mp_spent += cost;
        if let Some(f) = facing {
            u.facing = f;
        }
    }
    Ok(Order::Move { unit, path, facing })
}

/// `FACE 1/45e SE`.
pub fn face(st: &LbState, cx: &mut Email, c: &mut Cursor) -> Line {
    cx.maneuver("FACE")?;
    let unit = cx.own(c)?;
    cx.exploiter(&unit, c)?;
    let facing = dir(st, c)?;
    movement::face(&mut cx.sim, &unit, facing).map_err(LineErr::new)?;
    Ok(Order::Face { unit, facing })
}

/// `FORM 1/45e COLUMN`; `FORM UP unit` answers a Reaction question (Form Up and Stand);
/// `FORM UP` alone answers a Retreat Before Charge question of skirmishing cavalry;
/// `FORM UP ALWAYS|NEVER|ASK` is the standing order.
pub fn form(_st: &LbState, cx: &mut Email, c: &mut Cursor) -> Line {
    if c.eat("UP") {
        if is_policy_word(c) {
            let p = policy(c)?;
            return Ok(Order::Standing(StandingOrder::FormUp(p)));
        }
        if c.done() {
            let q = cx.asked(c, &[QKind::RetreatBeforeCharge], "FORM UP")?;
            if !q.form_up {
                return refuse("Form Up and Stand is not offered here");
            }
            return Ok(Order::Answer(Answer::FormUp));
        }
        let q = cx.asked(c, &[QKind::Reaction], "FORM UP")?;
        let unit = cx.own(c)?;
        if !q.options.contains(&unit) {
            return refuse(format!("{unit} may not react: {}", q.options.join(", ")));
        }
        return Ok(Order::Answer(Answer::React(Some((unit, true)))));
    }
    cx.maneuver("FORM")?;
    let unit = cx.own(c)?;
    cx.exploiter(&unit, c)?;
    let w = c.word("a formation")?;
    let formation = Formation::parse(w).ok_or_else(|| {
        c.wrong(format!(
            "`{w}` is not a formation (LINE, COLUMN, SQUARE, SKIRMISH, LIMBERED, UNLIMBERED)"
        ))
    })?;
    movement::form(&mut cx.sim, &unit, formation).map_err(LineErr::new)?;
    Ok(Order::Form { unit, formation })
}

fn assault_line(st: &LbState, cx: &mut Email, c: &mut Cursor, guard: bool) -> Line {
    let unit = cx.own(c)?;
    cx.exploiter(&unit, c)?;
    c.expect("AT")?;
    let targets = hexes(st, c)?;
    if targets.is_empty() {
        return Err(c.wrong("the target hex is missing"));
    }
    let via = if c.eat("VIA") { hexes(st, c)? } else { vec![] };
    let pas_de_charge = if c.eat("PAS") {
        c.expect("DE")?;
        c.expect("CHARGE")?;
        true
    } else {
        false
    };
    if cx.guard.contains(&unit) {
        return refuse(format!(
            "{unit} has already been ordered to assault in this mail"
        ));
    }
    check_assault(&cx.sim, &unit, &targets, &via, pas_de_charge, guard).map_err(LineErr::new)?;
    cx.guard.push(unit.clone());
    if let (Some(end), Some(u)) = (via.last().copied(), cx.sim.unit_mut(&unit)) {
        u.hex = end;
    }
    Ok(Order::Assault {
        unit,
        targets,
        via,
        pas_de_charge,
        guard,
    })
}

/// `ASSAULT 1/45e AT 0709 [0710] [VIA 0607 0608] [PAS DE CHARGE]`.
pub fn assault(st: &LbState, cx: &mut Email, c: &mut Cursor) -> Line {
    cx.maneuver("ASSAULT")?;
    assault_line(st, cx, c, false)
}

/// `GUARD CHARGE 3/Chasseurs AT 0709 [VIA 0608]`.
pub fn guard(st: &LbState, cx: &mut Email, c: &mut Cursor) -> Line {
    cx.maneuver("GUARD CHARGE")?;
    c.expect("CHARGE")?;
    assault_line(st, cx, c, true)
}

/// `CHARGE 1er-Cuirassiers [2e-Cuirassiers] AT 0509 [VIA 0406 0407] [RECALL AT 0408]`.
pub fn charge(st: &LbState, cx: &mut Email, c: &mut Cursor) -> Line {
    cx.maneuver("CHARGE")?;
    if matches!(&cx.role, Role::Asked(_)) {
        return refuse("cavalry does not exploit an Old Guard Charge");
    }
    let mut units = vec![cx.own(c)?];
    while !c.done() && !c.is("AT") {
        // A hex where a unit name was expected: the AT before the target was forgotten.
        if let Some(w) = c
            .peek()
            .filter(|w| w.len() == 4 && w.chars().all(|x| x.is_ascii_digit()))
        {
            return Err(c.wrong(format!("expected `AT` before the target hex {w}")));
        }
        units.push(cx.own(c)?);
    }
    c.expect("AT")?;
    let target = hex(st, c, "the target hex")?;
    let via = if c.eat("VIA") { hexes(st, c)? } else { vec![] };
    let recall_at = if c.eat("RECALL") {
        c.expect("AT")?;
        Some(hex(st, c, "the recall hex")?)
    } else {
        None
    };
    let start = super::super::charge::check_charge(&cx.sim, &units).map_err(LineErr::new)?;
    super::super::charge::check_path(&cx.sim, start, &via, target).map_err(LineErr::new)?;
    Ok(Order::Charge {
        units,
        target,
        via,
        recall_at,
    })
}

/// `FIRE Batterie-Ney AT 0709`: the Fire Segment target (otherwise the nearest enemy).
pub fn fire(st: &LbState, cx: &mut Email, c: &mut Cursor) -> Line {
    cx.maneuver("FIRE")?;
    if matches!(&cx.role, Role::Asked(_)) {
        return refuse("FIRE is not an exploitation order");
    }
    let unit = cx.own(c)?;
    c.expect("AT")?;
    let target = hex(st, c, "the target hex")?;
    Ok(Order::Fire { unit, target })
}

/// `ATTACH Ney 1/45e`: a leader rides with another unit of his side.
pub fn attach(st: &LbState, cx: &mut Email, c: &mut Cursor) -> Line {
    cx.maneuver("ATTACH")?;
    if matches!(&cx.role, Role::Asked(_)) {
        return refuse("ATTACH is not an exploitation order");
    }
    let w = c.word("a leader")?;
    let Some(l) = st
        .leaders
        .iter()
        .find(|l| !l.gone && l.side == cx.seat && l.name.eq_ignore_ascii_case(w))
    else {
        let mine: Vec<&str> = st
            .leaders
            .iter()
            .filter(|l| !l.gone && l.side == cx.seat)
            .map(|l| l.name.as_str())
            .collect();
        return Err(LineErr::new(format!("`{w}` is not one of your leaders"))
            .hint(format!("your leaders: {}", mine.join(", "))));
    };
    let leader = l.name.clone();
    let unit = cx.own(c)?;
    Ok(Order::Attach { leader, unit })
}

/// `PICK A3` answers; `PICK AUTO|ASK` is the standing order.
pub fn pick(_: &LbState, cx: &mut Email, c: &mut Cursor) -> Line {
    if is_policy_word(c) {
        return Ok(Order::Standing(StandingOrder::Pick(choice(c)?)));
    }
    let q = cx.asked(c, &[QKind::Pick], "PICK")?;
    let w = c.word("a mêlée label")?.to_ascii_uppercase();
    if !q.options.contains(&w) {
        return Err(
            LineErr::new(format!("{w} is not one of the mêlées to pick"))
                .hint(format!("one of {}", q.options.join(", "))),
        );
    }
    Ok(Order::Answer(Answer::Pick(w)))
}

/// `RETREAT` answers; `RETREAT BEFORE ASSAULT ALWAYS|NEVER|ASK|IF 3:1` and
/// `RETREAT BEFORE CHARGE ALWAYS|NEVER|ASK` are standing orders.
pub fn retreat(_: &LbState, cx: &mut Email, c: &mut Cursor) -> Line {
    if c.eat("BEFORE") {
        if c.eat("ASSAULT") {
            if c.eat("IF") {
                let w = c.word("odds such as 3:1")?;
                let n = w
                    .strip_suffix(":1")
                    .and_then(|x| x.parse::<u32>().ok())
                    .filter(|n| *n >= 1)
                    .ok_or_else(|| c.wrong(format!("`{w}` is not odds such as 3:1")))?;
                return Ok(Order::Standing(StandingOrder::RetreatAssault(
                    RetreatPolicy::IfOdds(n),
                )));
            }
            let p = c.one_of(&[
                ("ALWAYS", RetreatPolicy::Always),
                ("NEVER", RetreatPolicy::Never),
                ("ASK", RetreatPolicy::Ask),
            ])?;
            return Ok(Order::Standing(StandingOrder::RetreatAssault(p)));
        }
        c.expect("CHARGE")?;
        return Ok(Order::Standing(StandingOrder::RetreatCharge(policy(c)?)));
    }
    cx.asked(
        c,
        &[QKind::RetreatBeforeAssault, QKind::RetreatBeforeCharge],
        "RETREAT",
    )?;
    Ok(Order::Answer(Answer::Retreat(true)))
}

/// `STAND`: no retreat.
pub fn stand(_: &LbState, cx: &mut Email, c: &mut Cursor) -> Line {
    cx.asked(
        c,
        &[QKind::RetreatBeforeAssault, QKind::RetreatBeforeCharge],
        "STAND",
    )?;
    Ok(Order::Answer(Answer::Retreat(false)))
}

/// `REASSAULT 0710` answers; `REASSAULT ALWAYS|NEVER|ASK` is the standing order.
pub fn reassault(st: &LbState, cx: &mut Email, c: &mut Cursor) -> Line {
    if is_policy_word(c) {
        return Ok(Order::Standing(StandingOrder::Reassault(policy(c)?)));
    }
    let q = cx.asked(c, &[QKind::NewAssault], "REASSAULT")?;
    let h = hex(st, c, "the new target hex")?;
    if !q.options.contains(&st.label(h)) {
        return Err(
            LineErr::new(format!("{} may not be assaulted anew", st.label(h)))
                .hint(format!("one of {}", q.options.join(", "))),
        );
    }
    Ok(Order::Answer(Answer::NewAssault(Some(h))))
}

/// `HUZZAH` answers; `HUZZAH ALWAYS|NEVER|ASK` is the standing order.
pub fn huzzah(_: &LbState, cx: &mut Email, c: &mut Cursor) -> Line {
    if is_policy_word(c) {
        return Ok(Order::Standing(StandingOrder::Huzzah(policy(c)?)));
    }
    cx.asked(c, &[QKind::Huzzah], "HUZZAH")?;
    Ok(Order::Answer(Answer::Huzzah(true)))
}

/// `SQUARE 5th-KGL [unit…]` answers; `SQUARE ALWAYS|NEVER|ASK` and
/// `SQUARE 5th-KGL ALWAYS|NEVER|ASK` are standing orders.
pub fn square(_: &LbState, cx: &mut Email, c: &mut Cursor) -> Line {
    if is_policy_word(c) {
        return Ok(Order::Standing(StandingOrder::Square(policy(c)?)));
    }
    let first = cx.own(c)?;
    if is_policy_word(c) {
        return Ok(Order::Standing(StandingOrder::SquareUnit(
            first,
            policy(c)?,
        )));
    }
    let mut units = vec![first];
    while !c.done() {
        units.push(cx.own(c)?);
    }
    let q = cx.asked(c, &[QKind::Square], "SQUARE")?;
    if let Some(u) = units.iter().find(|u| !q.options.contains(u)) {
        return Err(LineErr::new(format!("{u} may not attempt square now"))
            .hint(format!("one of {}", q.options.join(", "))));
    }
    Ok(Order::Answer(Answer::Square(units)))
}

/// `RECALL` or `RECALL AT 0610` answers; `RECALL ALWAYS|NEVER|ASK|IF SQUARE` is standing.
pub fn recall(st: &LbState, cx: &mut Email, c: &mut Cursor) -> Line {
    if c.eat("IF") {
        c.expect("SQUARE")?;
        return Ok(Order::Standing(StandingOrder::Recall(
            RecallPolicy::IfSquare,
        )));
    }
    if is_policy_word(c) {
        let p = c.one_of(&[
            ("ALWAYS", RecallPolicy::Always),
            ("NEVER", RecallPolicy::Never),
            ("ASK", RecallPolicy::Ask),
        ])?;
        return Ok(Order::Standing(StandingOrder::Recall(p)));
    }
    let at = if c.eat("AT") {
        Some(hex(st, c, "the new target hex")?)
    } else {
        None
    };
    cx.asked(c, &[QKind::Recall], "RECALL")?;
    Ok(Order::Answer(Answer::Recall(Some(at))))
}

/// `REACT 10th-Hussars`: a Reaction Charge.
pub fn react(_: &LbState, cx: &mut Email, c: &mut Cursor) -> Line {
    let unit = cx.own(c)?;
    let q = cx.asked(c, &[QKind::Reaction], "REACT")?;
    if !q.options.contains(&unit) {
        return Err(LineErr::new(format!("{unit} may not react now"))
            .hint(format!("one of {}", q.options.join(", "))));
    }
    Ok(Order::Answer(Answer::React(Some((unit, false)))))
}

/// `REACTION ALWAYS|NEVER|ASK`: the standing order for Reaction Charges.
pub fn reaction(_: &LbState, _: &mut Email, c: &mut Cursor) -> Line {
    Ok(Order::Standing(StandingOrder::Reaction(policy(c)?)))
}

/// `DISPLACE 2/45e [unit…]` answers; `DISPLACE AUTO|ASK` is standing.
pub fn displace(_: &LbState, cx: &mut Email, c: &mut Cursor) -> Line {
    if is_policy_word(c) {
        return Ok(Order::Standing(StandingOrder::Displace(choice(c)?)));
    }
    let mut units = vec![cx.own(c)?];
    while !c.done() {
        units.push(cx.own(c)?);
    }
    let q = cx.asked(c, &[QKind::Displace], "DISPLACE")?;
    if units.len() != q.count as usize || units.iter().any(|u| !q.options.contains(u)) {
        return Err(LineErr::new(format!(
            "name {} unit(s) of {}",
            q.count,
            q.options.join(", ")
        )));
    }
    Ok(Order::Answer(Answer::Displace(units)))
}

/// `IMPETUS 0710 0711` answers; `IMPETUS AUTO|ASK` is standing.
pub fn impetus(st: &LbState, cx: &mut Email, c: &mut Cursor) -> Line {
    if is_policy_word(c) {
        return Ok(Order::Standing(StandingOrder::Impetus(choice(c)?)));
    }
    let path = hexes(st, c)?;
    if path.is_empty() {
        return Err(c.wrong("the hexes of the impetus are missing"));
    }
    let q = cx.asked(c, &[QKind::Impetus], "IMPETUS")?;
    if !q.options.contains(&st.label(path[0])) {
        return Err(LineErr::new(format!(
            "the impetus may not begin with {}",
            st.label(path[0])
        ))
        .hint(format!("begin with one of {}", q.options.join(", "))));
    }
    Ok(Order::Answer(Answer::Impetus(path)))
}

/// `PURSUE 0711` answers; `PURSUE AUTO|ASK` is standing.
pub fn pursue(st: &LbState, cx: &mut Email, c: &mut Cursor) -> Line {
    if is_policy_word(c) {
        return Ok(Order::Standing(StandingOrder::Pursue(choice(c)?)));
    }
    let h = hex(st, c, "the hex to pursue into")?;
    let q = cx.asked(c, &[QKind::Pursue], "PURSUE")?;
    if !q.options.contains(&st.label(h)) {
        return Err(LineErr::new(format!("{} may not be pursued", st.label(h)))
            .hint(format!("one of {}", q.options.join(", "))));
    }
    Ok(Order::Answer(Answer::Pursue(h)))
}

/// `NO SQUARE`, `NO REACTION`, `NO RECALL`, `NO HUZZAH`, `NO REASSAULT`: the negative answers.
pub fn no(_: &LbState, cx: &mut Email, c: &mut Cursor) -> Line {
    let w = c
        .word("SQUARE, REACTION, RECALL, HUZZAH or REASSAULT")?
        .to_ascii_uppercase();
    let (kind, answer) = match w.as_str() {
        "SQUARE" => (QKind::Square, Answer::Square(vec![])),
        "REACTION" | "REACT" => (QKind::Reaction, Answer::React(None)),
        "RECALL" => (QKind::Recall, Answer::Recall(None)),
        "HUZZAH" => (QKind::Huzzah, Answer::Huzzah(false)),
        "REASSAULT" => (QKind::NewAssault, Answer::NewAssault(None)),
        "EXPLOITATION" => (QKind::Exploit, Answer::Exploit(vec![])),
        _ => {
            return Err(c.wrong(format!(
                "NO {w}: answer NO SQUARE, NO REACTION, NO RECALL, NO HUZZAH or NO REASSAULT"
            )));
        }
    };
    cx.asked(c, &[kind], &format!("NO {w}"))?;
    Ok(Order::Answer(answer))
}

/// `OPPORTUNITY FIRE ON|OFF`.
pub fn opportunity(_: &LbState, _: &mut Email, c: &mut Cursor) -> Line {
    c.expect("FIRE")?;
    let on = c.one_of(&[("ON", true), ("OFF", false)])?;
    Ok(Order::Standing(StandingOrder::OpportunityFire(on)))
}

/// `PASS`: nothing this time.
pub fn pass(_: &LbState, cx: &mut Email, _: &mut Cursor) -> Line {
    if let Role::Asked(q) = &cx.role {
        return Err(
            LineErr::new("you are asked a question: PASS does not answer it").hint(super::hint(q)),
        );
    }
    Ok(Order::Pass)
}
