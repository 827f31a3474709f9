//! What the earlier lines of one email have declared (the activation being written, speeds,
//! Defensive Maneuvers, Command Points), so each later line is checked against them; and the
//! readers of units, weapons and turns many orders share. It never changes the state.

use std::collections::BTreeMap;

use crate::rulesets::gear_krieg::data::InitialSpeed;
use crate::rulesets::gear_krieg::state::{GkState, Phase, TurnBy};
use crate::rulesets::gear_krieg::stats;
use crate::rulesets::kit::grammar::{Cursor, LineErr, Names, did_you_mean, num, refuse};
use crate::rulesets::kit::roster::Roster;

/// What the seat is asked now.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Role {
    Declare,
    /// Its turn to activate a unit.
    Active,
    /// The enemy's activation (may queue blocks and change standing orders).
    Waiting,
    /// Asked "interrupt now?".
    Interrupt,
    Over,
}

pub fn role(state: &GkState, seat: &str) -> Role {
    match &state.phase {
        Phase::Declare => Role::Declare,
        Phase::Activate { side } if side == seat => Role::Active,
        Phase::Activate { .. } => Role::Waiting,
        Phase::Interrupt { side, .. } if side == seat => Role::Interrupt,
        Phase::Interrupt { .. } => Role::Waiting,
        Phase::GameOver => Role::Over,
    }
}

/// The email so far.
pub struct Email {
    pub seat: String,
    pub role: Role,
    /// The unit of the ACTIVATE block the following lines belong to.
    pub current: Option<String>,
    /// Initial speeds declared so far, with their lines.
    pub speeds: BTreeMap<String, (InitialSpeed, usize)>,
    /// Defensive Maneuvers declared so far, with their lines.
    pub defending: BTreeMap<String, usize>,
    /// Command Point uses so far: the line and the order that spends each unit's one CP.
    pub cp: BTreeMap<String, (usize, &'static str)>,
}

impl Email {
    pub fn new(state: &GkState, seat: &str) -> Self {
        Self {
            seat: seat.to_string(),
            role: role(state, seat),
            current: None,
            speeds: BTreeMap::new(),
            defending: BTreeMap::new(),
            cp: BTreeMap::new(),
        }
    }

    fn names<'s>(&self, state: &'s GkState, own: bool) -> Names<'s> {
        Names {
            all: state
                .units
                .iter()
                .map(|u| (u.name.as_str(), (u.side == self.seat) == own && u.alive()))
                .collect(),
            what: if own { "unit of yours" } else { "enemy unit" },
            stop: &[],
            max_words: 1,
        }
    }

    fn listed(&self, state: &GkState, own: bool) -> String {
        let names = self.names(state, own);
        let mine: Vec<&str> = names.all.iter().filter(|x| x.1).map(|x| x.0).collect();
        mine.join(", ")
    }

    /// One of your units still on the table.
    pub fn own(&self, state: &GkState, c: &mut Cursor) -> Result<String, LineErr> {
        if c.done() {
            return Err(LineErr::new("a unit name is missing").hint(self.listed(state, true)));
        }
        let name = c.name(&self.names(state, true))?;
        match state.unit(&name) {
            Some(u) if u.side != self.seat => refuse(format!("{name} is not yours")),
            Some(u) if !u.alive() => refuse(format!("{name} has been destroyed")),
            _ => Ok(name),
        }
    }

    /// An enemy unit.
    pub fn enemy(&self, state: &GkState, c: &mut Cursor) -> Result<String, LineErr> {
        if c.done() {
            return Err(LineErr::new("a target is missing").hint(self.listed(state, false)));
        }
        let name = c.name(&self.names(state, false))?;
        match state.unit(&name) {
            Some(u) if u.side == self.seat => refuse(format!("{name} is on your side")),
            _ => Ok(name),
        }
    }

    /// Spends `unit`'s one Command Point of the round on `what` (line `line`), or says which
    /// earlier line or earlier mail already spends it.
    pub fn spend_cp(
        &mut self,
        state: &GkState,
        unit: &str,
        what: &'static str,
        line: usize,
    ) -> Result<(), LineErr> {
        if let Some((l, w)) = self.cp.get(unit) {
            return refuse(format!(
                "{unit} already uses its Command Point on line {l} ({w}): one per unit per round"
            ));
        }
        if let Some(u) = state.unit(unit) {
            if u.cp_used {
                return refuse(format!(
                    "{unit} has already used its Command Point this round"
                ));
            }
            if u.cp_defend {
                return refuse(format!(
                    "{unit}'s Command Point is already set aside for CP DEFEND this round"
                ));
            }
        }
        self.cp.insert(unit.to_string(), (line, what));
        Ok(())
    }
}

/// The key of one of `unit`'s weapons (any case).
pub fn weapon_key(state: &GkState, unit: &str, c: &mut Cursor) -> Result<String, LineErr> {
    let u = state.unit(unit).expect("resolved name");
    let keys: Vec<String> = stats::weapons(&state.data, u)
        .iter()
        .map(|w| w.key.clone())
        .collect();
    let Some(w) = c.next_word() else {
        return Err(LineErr::new("a weapon is missing").hint(keys.join(", ")));
    };
    match keys.iter().find(|k| k.eq_ignore_ascii_case(w)) {
        Some(k) => Ok(k.clone()),
        None => Err(LineErr::new(format!(
            "{unit} has no weapon `{w}` (it has {})",
            keys.join(", ")
        ))
        .maybe_hint(did_you_mean(w, keys.iter().map(String::as_str)))),
    }
}

/// A distance or angle: 0 to 10000.
pub fn amount(c: &mut Cursor, what: &str) -> Result<f64, LineErr> {
    let v = c.number(what)?;
    if (0.0..=10_000.0).contains(&v) {
        Ok(v)
    } else {
        Err(c.wrong(format!("{} is not a number of {what}", num(v))))
    }
}

/// `LEFT n`, `RIGHT n` (degrees, at most 360) or `TO heading`.
pub fn turn_by(c: &mut Cursor) -> Result<TurnBy, LineErr> {
    let dir = c.next_word().map(str::to_ascii_uppercase);
    let v = amount(c, "degrees")?;
    match dir.as_deref() {
        Some("LEFT" | "L") if v <= 360.0 => Ok(TurnBy::Left(v)),
        Some("RIGHT" | "R") if v <= 360.0 => Ok(TurnBy::Right(v)),
        Some("TO") => Ok(TurnBy::To(v % 360.0)),
        _ => Err(
            LineErr::new("a turn is LEFT n, RIGHT n (degrees) or TO a compass heading")
                .hint("for example: TURN RIGHT 60 or TURN TO 90"),
        ),
    }
}
