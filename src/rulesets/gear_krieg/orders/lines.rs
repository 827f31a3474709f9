//! Parsers of the Gear Krieg orders, one per keyword: Step 1 declarations, activation blocks,
//! Command Points, interrupt answers and standing orders. Each sees what the email's earlier
//! lines declared; which step takes which word is checked before them (`orders::in_step`, from
//! the words the sequence of play lists). They never change the state.

use crate::rulesets::gear_krieg::data::{InitialSpeed, MoveMode};
use crate::rulesets::gear_krieg::state::{
    Act, Filter, Fire, FireMode, GkState, Melee, Order, Overwatch, Phase, Setting, Shift,
};
use crate::rulesets::gear_krieg::stats;
use crate::rulesets::kit::grammar::{Cursor, LineErr, refuse};
use crate::rulesets::kit::roster::Roster;

use super::email::{Email, Role, amount, turn_by, weapon_key};

type Line = Result<Order, LineErr>;

/// `SPEED General-1 COMBAT` in Step 1 of round 1, or `SPEED TOP` inside an activation.
pub fn speed(state: &GkState, cx: &mut Email, c: &mut Cursor) -> Line {
    if c.left() != 2 {
        return act(cx, c, "SPEED", |_, c| {
            match c.next_word().map(str::to_ascii_uppercase).as_deref() {
                Some("TOP") => Ok(Act::Speed(Shift::Top)),
                Some("COMBAT") => Ok(Act::Speed(Shift::Combat)),
                _ => refuse("after moving, SPEED is TOP or COMBAT"),
            }
        });
    }
    if cx.role != Role::Declare || state.round != 1 {
        return Err(
            LineErr::new("initial speeds are declared in Step 1 of round 1 only")
                .hint("after moving, write SPEED TOP or SPEED COMBAT inside the activation"),
        );
    }
    let unit = cx.own(state, c)?;
    let speed = c.one_of(&[
        ("STATIONARY", InitialSpeed::Stationary),
        ("COMBAT", InitialSpeed::Combat),
        ("TOP", InitialSpeed::Top),
    ])?;
    if speed == InitialSpeed::Top {
        if state.unit(&unit).is_some_and(|u| u.is_infantry()) {
            return refuse("infantry have no Top Speed");
        }
        if let Some(l) = cx.defending.get(&unit) {
            return refuse(format!(
                "{unit} declares Defensive Maneuvers on line {l}: no Top Speed with them"
            ));
        }
    }
    cx.speeds.insert(unit.clone(), (speed, c.line()));
    Ok(Order::Speed { unit, speed })
}

/// `EXTRA General-1 [1-3]`: extra Actions, declared in Step 1.
pub fn extra(state: &GkState, cx: &mut Email, c: &mut Cursor) -> Line {
    let unit = cx.own(state, c)?;
    let n = if c.done() { 1 } else { c.count("actions", 64)? };
    if !(1..=3).contains(&n) {
        return Err(c.wrong("EXTRA unit [1-3]"));
    }
    Ok(Order::Extra { unit, n })
}

/// `DEFEND Valkurie-2`: Defensive Maneuvers, never at Top Speed, whichever line says so.
pub fn defend(state: &GkState, cx: &mut Email, c: &mut Cursor) -> Line {
    let unit = cx.own(state, c)?;
    c.end()?;
    match cx.speeds.get(&unit) {
        Some((InitialSpeed::Top, l)) => {
            return refuse(format!(
                "{unit} is declared at Top Speed on line {l}: no Defensive Maneuvers"
            ));
        }
        None if state.unit(&unit).is_some_and(|u| u.top) => {
            return refuse(format!("{unit} is at Top Speed: no Defensive Maneuvers"));
        }
        _ => {}
    }
    cx.defending.insert(unit.clone(), c.line());
    Ok(Order::Defend(unit))
}

/// `ACTIVATE General-1 [CP]`: the lines below are this unit's block.
pub fn activate(state: &GkState, cx: &mut Email, c: &mut Cursor) -> Line {
    let unit = cx.own(state, c)?;
    let cp = c.eat("CP");
    c.end()?;
    if state.unit(&unit).is_some_and(|u| u.activated) {
        return refuse(format!("{unit} has already been activated this round"));
    }
    if cp {
        cx.spend_cp(state, &unit, "ACTIVATE … CP", c.line())?;
    }
    cx.current = Some(unit.clone());
    Ok(Order::Activate { unit, cp })
}

/// `CP EXTRA` (in a block), `CP DEFEND unit` or `CP ABOUTFACE unit LEFT|RIGHT n`.
pub fn cp(state: &GkState, cx: &mut Email, c: &mut Cursor) -> Line {
    let line = c.line();
    match c.next_word().map(str::to_ascii_uppercase).as_deref() {
        Some("EXTRA") => {
            c.end()?;
            let Some(unit) = cx.current.clone() else {
                return Err(LineErr::new("CP EXTRA must follow an ACTIVATE line")
                    .hint("start with ACTIVATE <your unit>"));
            };
            cx.spend_cp(state, &unit, "CP EXTRA", line)?;
            Ok(Order::Act(Act::CpExtra))
        }
        Some("DEFEND") => {
            let unit = cx.own(state, c)?;
            c.end()?;
            cx.spend_cp(state, &unit, "CP DEFEND", line)?;
            Ok(Order::CpDefend(unit))
        }
        Some("ABOUTFACE") => {
            if cx.role == Role::Declare {
                return refuse("no Command Points before the initiative roll");
            }
            let unit = cx.own(state, c)?;
            let by = turn_by(c)?;
            c.end()?;
            cx.spend_cp(state, &unit, "CP ABOUTFACE", line)?;
            Ok(Order::CpAboutFace { unit, by })
        }
        _ => Err(c.wrong("CP EXTRA, CP DEFEND unit or CP ABOUTFACE unit LEFT|RIGHT n")),
    }
}

/// `INTERRUPT Valkurie-2 FIRE KwK [ROF n]`: fire at the mover where it stands.
pub fn interrupt(state: &GkState, cx: &mut Email, c: &mut Cursor) -> Line {
    if cx.role != Role::Interrupt {
        return Err(LineErr::new("nobody is asking you to interrupt now")
            .hint("use OVERWATCH for standing reactive fire"));
    }
    let unit = cx.own(state, c)?;
    if state
        .unit(&unit)
        .is_some_and(|u| u.defensive || u.actions_left() == 0)
    {
        return refuse(format!("{unit} has no Action left to interrupt with"));
    }
    if !c.eat("FIRE") {
        return Err(c.wrong("INTERRUPT unit FIRE weapon [ROF n]"));
    }
    let weapon = weapon_key(state, &unit, c)?;
    let rof = rof(c)?;
    c.end()?;
    let Phase::Interrupt { mover, .. } = &state.phase else {
        unreachable!("the interrupt role comes from the phase")
    };
    Ok(Order::Interrupt {
        unit,
        fire: Fire {
            weapon,
            mode: FireMode::At(mover.clone()),
            rof,
        },
    })
}

/// `NO INTERRUPT`.
pub fn no(_: &GkState, cx: &mut Email, c: &mut Cursor) -> Line {
    c.expect("INTERRUPT")?;
    if cx.role != Role::Interrupt {
        return refuse("nobody is asking you to interrupt now");
    }
    Ok(Order::NoInterrupt)
}

/// `OVERWATCH unit [WITH weapon] [AT ANY|VEHICLES|INFANTRY|unit] [WITHIN cm] [ACTIONS n]
/// [ROF n]`, or `OVERWATCH unit OFF`.
pub fn overwatch(state: &GkState, cx: &mut Email, c: &mut Cursor) -> Line {
    let unit = cx.own(state, c)?;
    if c.eat("OFF") {
        return Ok(Order::OverwatchOff(unit));
    }
    let mut ow = Overwatch {
        unit: unit.clone(),
        weapon: None,
        filter: Filter::Any,
        within: None,
        actions: 1,
        rof: 0,
    };
    while let Some(key) = c.next_word() {
        match key.to_ascii_uppercase().as_str() {
            "WITH" => ow.weapon = Some(weapon_key(state, &unit, c)?),
            "AT" => {
                ow.filter = match c.peek().map(str::to_ascii_uppercase).as_deref() {
                    Some("ANY") => Filter::Any,
                    Some("VEHICLES") => Filter::Vehicles,
                    Some("INFANTRY") => Filter::Infantry,
                    _ => Filter::Unit(cx.enemy(state, c)?),
                };
                if !matches!(ow.filter, Filter::Unit(_)) {
                    c.next_word();
                }
            }
            "WITHIN" => ow.within = Some(amount(c, "cm")?),
            "ACTIONS" => ow.actions = c.count("actions", 64)?,
            "ROF" => ow.rof = c.count("ROF points", 64)?,
            _ => return Err(c.wrong(format!("OVERWATCH does not know `{key}`"))),
        }
    }
    if ow.actions == 0 {
        return refuse("ACTIONS 0 fires nothing; use OVERWATCH unit OFF");
    }
    if let Some(k) = &ow.weapon {
        let u = state.unit(&unit).expect("resolved");
        let w = stats::weapon(&state.data, u, k).expect("resolved");
        let max = stats::rof(&state.data, u, w);
        if ow.rof > max {
            return refuse(format!("the {k} has ROF {max}"));
        }
    }
    Ok(Order::Overwatch(ow))
}

/// `INTERRUPTS ASK|NEVER`.
pub fn interrupts(_: &GkState, _: &mut Email, c: &mut Cursor) -> Line {
    c.one_of(&[
        ("ASK", Setting::InterruptsAsk),
        ("NEVER", Setting::InterruptsNever),
    ])
    .map(Order::Set)
}

/// `DECLARATIONS ASK|SKIP`.
pub fn declarations(_: &GkState, _: &mut Email, c: &mut Cursor) -> Line {
    c.one_of(&[
        ("ASK", Setting::DeclarationsAsk),
        ("SKIP", Setting::DeclarationsSkip),
    ])
    .map(Order::Set)
}

/// `CHOOSE FIRST|SECOND`.
pub fn choose(_: &GkState, _: &mut Email, c: &mut Cursor) -> Line {
    c.one_of(&[
        ("FIRST", Setting::ChooseFirst),
        ("SECOND", Setting::ChooseSecond),
    ])
    .map(Order::Set)
}

/// `PASS`: nothing to order.
pub fn pass(_: &GkState, _: &mut Email, c: &mut Cursor) -> Line {
    c.end()?;
    Ok(Order::Pass)
}

/// One line of an activation block, read by `f` once the block's unit is known.
fn act(
    cx: &Email,
    c: &mut Cursor,
    kw: &str,
    f: impl FnOnce(&str, &mut Cursor) -> Result<Act, LineErr>,
) -> Line {
    let Some(unit) = cx.current.as_deref() else {
        return Err(LineErr::new(format!("{kw} must follow an ACTIVATE line"))
            .hint("start with ACTIVATE <your unit>"));
    };
    let a = f(unit, c)?;
    c.end()?;
    Ok(Order::Act(a))
}

/// `MOVE 2.5`: straight ahead, cm.
pub fn move_on(_: &GkState, cx: &mut Email, c: &mut Cursor) -> Line {
    act(cx, c, "MOVE", |_, c| Ok(Act::Move(amount(c, "cm")?)))
}

/// `REVERSE 1`.
pub fn reverse(_: &GkState, cx: &mut Email, c: &mut Cursor) -> Line {
    act(cx, c, "REVERSE", |_, c| Ok(Act::Reverse(amount(c, "cm")?)))
}

/// `TURN LEFT 60`, `TURN RIGHT 60` or `TURN TO 90`.
pub fn turn(_: &GkState, cx: &mut Email, c: &mut Cursor) -> Line {
    act(cx, c, "TURN", |_, c| Ok(Act::Turn(turn_by(c)?)))
}

/// `TO 14,22`: face the point and move to it.
pub fn to(_: &GkState, cx: &mut Email, c: &mut Cursor) -> Line {
    act(cx, c, "TO", |_, c| Ok(Act::To(c.point(&[])?)))
}

/// `MODE GROUND` or `MODE WALKER`.
pub fn mode(_: &GkState, cx: &mut Email, c: &mut Cursor) -> Line {
    act(cx, c, "MODE", |_, c| {
        c.one_of(&[
            ("WALKER", MoveMode::Walker),
            ("WALK", MoveMode::Walker),
            ("GROUND", MoveMode::Ground),
        ])
        .map(Act::Mode)
    })
}

/// `FIRE weapon AT target`, `WALK targets…` or `SATURATE x,y`, then `[ROF n]`.
pub fn fire(state: &GkState, cx: &mut Email, c: &mut Cursor) -> Line {
    let enemy = |c: &mut Cursor| cx.enemy(state, c);
    act(cx, c, "FIRE", |unit, c| {
        let weapon = weapon_key(state, unit, c)?;
        let mode = match c.next_word().map(str::to_ascii_uppercase).as_deref() {
            Some("AT") => FireMode::At(enemy(c)?),
            Some("WALK") if !c.done() && !c.is("ROF") => {
                let mut targets = Vec::new();
                while !c.done() && !c.is("ROF") {
                    targets.push(enemy(c)?);
                }
                FireMode::Walk(targets)
            }
            Some("SATURATE") => FireMode::Saturate(c.point(&["ROF"])?),
            _ => {
                return Err(
                    LineErr::new("FIRE needs AT target, WALK targets… or SATURATE x,y")
                        .hint(format!("for example: FIRE {weapon} AT <enemy unit> ROF 1")),
                );
            }
        };
        Ok(Act::Fire(Fire {
            weapon,
            mode,
            rof: rof(c)?,
        }))
    })
}

/// `… ROF n` at the end of a fire order; 0 (a single shot) when absent.
fn rof(c: &mut Cursor) -> Result<u32, LineErr> {
    if c.eat("ROF") {
        c.count("ROF points", 64)
    } else {
        Ok(0)
    }
}

/// `PUNCH`, `KICK`, `RAM` or `ASSAULT` an enemy unit.
fn melee(state: &GkState, cx: &mut Email, c: &mut Cursor, kw: &str, m: Melee) -> Line {
    let enemy = |c: &mut Cursor| cx.enemy(state, c);
    act(cx, c, kw, |_, c| Ok(Act::Melee(m, enemy(c)?)))
}

/// `PUNCH Valkurie-1`.
pub fn punch(state: &GkState, cx: &mut Email, c: &mut Cursor) -> Line {
    melee(state, cx, c, "PUNCH", Melee::Punch)
}

/// `KICK Valkurie-1` (walkers).
pub fn kick(state: &GkState, cx: &mut Email, c: &mut Cursor) -> Line {
    melee(state, cx, c, "KICK", Melee::Kick)
}

/// `RAM Valkurie-1`.
pub fn ram(state: &GkState, cx: &mut Email, c: &mut Cursor) -> Line {
    melee(state, cx, c, "RAM", Melee::Ram)
}

/// `ASSAULT General-2` (infantry).
pub fn assault(state: &GkState, cx: &mut Email, c: &mut Cursor) -> Line {
    melee(state, cx, c, "ASSAULT", Melee::Assault)
}

/// `RALLY`: infantry remove a Pinned counter.
pub fn rally(_: &GkState, cx: &mut Email, c: &mut Cursor) -> Line {
    act(cx, c, "RALLY", |_, _| Ok(Act::Rally))
}

/// `HOLD`: the unit does nothing this round.
pub fn hold(_: &GkState, cx: &mut Email, c: &mut Cursor) -> Line {
    act(cx, c, "HOLD", |_, _| Ok(Act::Hold))
}
