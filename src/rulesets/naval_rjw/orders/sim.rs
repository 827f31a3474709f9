//! What the earlier lines of one email have done (turns, moves, groups, CP), so each later line
//! is checked against the fleet as the email leaves it; and the checks many orders share. It
//! never changes the state.

use std::collections::{BTreeMap, BTreeSet};

use crate::rulesets::kit::grammar::{Cursor, LineErr, Names, refuse};
use crate::rulesets::naval_rjw::data::Formation;
use crate::rulesets::naval_rjw::state::{Fate, Group, NavalState, Ship};

/// Words that end a ship name written with spaces.
const STOP_WORDS: &[&str] = &[
    "AT",
    "ELSE",
    "SUPPORT",
    "SECONDARY",
    "PORT",
    "STARBOARD",
    "TO",
    "WITH",
    "HEADING",
];

/// The email so far, line by line.
pub struct Sim {
    pub side: String,
    pub hit_markers: BTreeMap<String, u32>,
    pub groups: Vec<Group>,
    pub turned: BTreeSet<String>,
    pub moved: BTreeSet<String>,
    pub halted: BTreeSet<String>,
    pub laid: BTreeSet<String>,
    pub swept: BTreeSet<String>,
    pub smoke: BTreeSet<String>,
    pub main_used: BTreeSet<String>,
    pub secondary_used: BTreeSet<String>,
    /// A General Withdrawal or Chase is in force: CP may only repair hits.
    pub general: bool,
    pub withdrawal: bool,
    pub chase: bool,
    pub flagship: Option<String>,
    pub second: Option<String>,
    pub flagship_line: bool,
    pub second_line: bool,
    pub genuine: u32,
    pub rescue_sent: BTreeSet<String>,
    pub capture_sent: BTreeSet<String>,
    /// Ships already sent to rescue survivors or take a prize (before or in this email).
    pub on_duty: BTreeSet<String>,
    pub standing: bool,
}

impl Sim {
    /// The fleet of `side` as the state leaves it; `None` if `side` has no fleet.
    pub fn new(state: &NavalState, side: &str) -> Option<Self> {
        let fleet = state.fleets.iter().find(|f| f.side == side)?;
        Some(Self {
            side: side.to_string(),
            hit_markers: state
                .ships
                .iter()
                .map(|s| (s.name.clone(), s.hit_markers))
                .collect(),
            groups: state.groups.clone(),
            turned: BTreeSet::new(),
            moved: BTreeSet::new(),
            halted: BTreeSet::new(),
            laid: BTreeSet::new(),
            swept: BTreeSet::new(),
            smoke: BTreeSet::new(),
            main_used: BTreeSet::new(),
            secondary_used: BTreeSet::new(),
            general: fleet.withdrawal || fleet.chase,
            withdrawal: fleet.withdrawal,
            chase: fleet.chase,
            flagship: fleet.flagship.clone(),
            second: fleet.second.clone(),
            flagship_line: false,
            second_line: false,
            genuine: 0,
            rescue_sent: BTreeSet::new(),
            capture_sent: BTreeSet::new(),
            on_duty: state
                .ships
                .iter()
                .filter(|s| s.rescue.is_some() || s.capturing.is_some())
                .map(|s| s.name.clone())
                .collect(),
            standing: false,
        })
    }
}

/// Which ships a name position expects (for prefix matching and hints).
#[derive(Clone, Copy, PartialEq)]
pub enum Whose {
    Own,
    Enemy,
}

/// A ship name at the cursor, preferring ships of the expected side.
pub fn ship(
    state: &NavalState,
    sim: &Sim,
    whose: Whose,
    c: &mut Cursor,
) -> Result<String, LineErr> {
    let names = Names {
        all: state
            .ships
            .iter()
            .map(|s| {
                (
                    s.name.as_str(),
                    (s.side == sim.side) == (whose == Whose::Own),
                )
            })
            .collect(),
        what: "ship",
        stop: STOP_WORDS,
        max_words: 4,
    };
    c.name(&names)
}

pub fn ship_of<'a>(state: &'a NavalState, name: &str) -> &'a Ship {
    state
        .ships
        .iter()
        .find(|s| s.name == name)
        .expect("names come from the state")
}

/// The group `ship` belongs to in the simulated groups.
pub fn group_of<'a>(groups: &'a [Group], ship: &str) -> Option<&'a Group> {
    groups.iter().find(|g| g.ships.iter().any(|s| s == ship))
}

/// Why `ship` cannot be given an individual manoeuvre: it follows a lead in line astern or flotilla.
fn follower_of(groups: &[Group], ship: &str) -> Option<String> {
    let g = group_of(groups, ship)?;
    if g.ships.first().map(String::as_str) == Some(ship) {
        return None;
    }
    if !g.flotilla && g.formation == Formation::Abreast {
        return None;
    }
    g.ships.first().cloned()
}

pub fn own_afloat(state: &NavalState, sim: &Sim, name: &str) -> Result<(), LineErr> {
    let s = ship_of(state, name);
    if s.side != sim.side {
        return refuse(format!("{name} is not one of your ships"));
    }
    match s.fate {
        Fate::Afloat => Ok(()),
        Fate::Sunk => refuse(format!("{name} has sunk")),
        Fate::Struck => refuse(format!("{name} has struck her colours")),
        Fate::Escaped => refuse(format!("{name} has left the table")),
    }
}

pub fn no_general_orders(sim: &Sim) -> Result<(), LineErr> {
    if sim.general {
        return refuse("General Withdrawal or Chase is in force: CP may only repair hits");
    }
    Ok(())
}

pub fn can_manoeuvre(state: &NavalState, sim: &Sim, name: &str) -> Result<(), LineErr> {
    own_afloat(state, sim, name)?;
    let markers = sim.hit_markers.get(name).copied().unwrap_or(0);
    if markers > 0 {
        return Err(LineErr::new(format!(
            "{name} has {markers} hit marker(s) and cannot manoeuvre"
        ))
        .hint(format!("REPAIR {name} first")));
    }
    no_general_orders(sim)
}

/// Ships the movement step never moves, so a TURN, MOVE or HALT would cost CP for nothing:
/// anchored ships are halted free (p.4), and a rescuer by the wreck or a capturer alongside her
/// prize stays put (R10, R28).
pub fn stays_put(state: &NavalState, name: &str) -> Result<(), LineErr> {
    let s = ship_of(state, name);
    if s.anchored {
        return refuse(format!("{name} is at anchor and stays halted for free"));
    }
    if s.rescue.as_ref().is_some_and(|r| r.turns_left.is_some()) {
        return refuse(format!("{name} stays by the wreck, picking up survivors"));
    }
    if let Some(prize) = &s.capturing
        && state
            .ships
            .iter()
            .any(|p| p.name == *prize && p.captured_by.as_deref() == Some(name))
    {
        return refuse(format!(
            "{name} lies alongside her prize {prize} and takes no further part"
        ));
    }
    Ok(())
}

pub fn not_follower(sim: &Sim, name: &str, what: &str) -> Result<(), LineErr> {
    if let Some(lead) = follower_of(&sim.groups, name) {
        return Err(LineErr::new(format!(
            "{name} follows {lead}; {what} the lead or make her leave first"
        ))
        .hint(format!("LEAVE {name}")));
    }
    Ok(())
}

/// The signed shortest turn from heading `from` to `to`, degrees in (-180, 180].
pub fn shortest(from: f64, to: f64) -> f64 {
    let mut d = (to - from).rem_euclid(360.0);
    if d > 180.0 {
        d -= 360.0;
    }
    d
}
