//! The players' order syntax (naval-orders.md): parsing every line of an email against the
//! current step and state, and printing the canonical form. It never changes the state.

pub use crate::rulesets::common::{edit_distance, normalise};
use std::collections::{BTreeMap, BTreeSet};

use crate::board::tabletop::Pt;
use crate::engine::Rejected;

use super::command;
use super::data::{Formation, ShipClass};
use super::gunnery;
use super::state::{
    Fate, FireOrder, Group, NavalState, Order, Orders, Phase, Ship, StandingFire, TurnBy,
};
use super::stats;

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

const KEYWORDS: &[&str] = &[
    "FLAGSHIP",
    "SECOND",
    "MINEFIELD",
    "REPAIR",
    "TURN",
    "MOVE",
    "HALT",
    "LEAVE",
    "SPLIT",
    "JOIN",
    "ABREAST",
    "ASTERN",
    "WITHDRAW",
    "CHASE",
    "LAY",
    "SWEEP",
    "RESCUE",
    "CAPTURE",
    "SMOKE",
    "FIRE",
    "STANDING",
    "PASS",
    "END",
];

/// A number as the canonical form prints it: no trailing `.0`, no `-0`.
pub fn num(v: f64) -> String {
    let v = if v == 0.0 { 0.0 } else { v };
    format!("{v}")
}

fn print_turn(by: &TurnBy) -> String {
    match by {
        TurnBy::Port(d) => format!("PORT {}", num(*d)),
        TurnBy::Starboard(d) => format!("STARBOARD {}", num(*d)),
        TurnBy::To(h) => format!("TO {}", num(*h)),
    }
}

/// One order as its canonical line (without the newline).
pub fn print_order(order: &Order) -> String {
    match order {
        Order::Flagship(s) => format!("FLAGSHIP {s}"),
        Order::Second(s) => format!("SECOND {s}"),
        Order::Minefield {
            genuine,
            at,
            heading,
        } => format!(
            "MINEFIELD {} AT {},{} HEADING {}",
            if *genuine { "GENUINE" } else { "DUMMY" },
            num(at.x),
            num(at.y),
            num(*heading)
        ),
        Order::Repair { ship, markers } => {
            if *markers == 1 {
                format!("REPAIR {ship}")
            } else {
                format!("REPAIR {ship} {markers}")
            }
        }
        Order::Turn { ship, by } => format!("TURN {ship} {}", print_turn(by)),
        Order::Move { ship, distance } => match distance {
            None => format!("MOVE {ship}"),
            Some(d) => format!("MOVE {ship} {}", num(*d)),
        },
        Order::Halt(s) => format!("HALT {s}"),
        Order::Leave(s) => format!("LEAVE {s}"),
        Order::Join { ship, group_of } => format!("JOIN {ship} TO {group_of}"),
        Order::Split { at } => format!("SPLIT {at}"),
        Order::FormAbreast(s) => format!("ABREAST {s}"),
        Order::FormAstern(s) => format!("ASTERN {s}"),
        Order::Withdraw => "WITHDRAW".to_string(),
        Order::Chase => "CHASE".to_string(),
        Order::Lay(s) => format!("LAY {s}"),
        Order::Sweep { ship, field } => format!("SWEEP {ship} {field}"),
        Order::Rescue { wreck, with } => format!("RESCUE {wreck} WITH {}", with.join(" ")),
        Order::Capture { prize, with } => format!("CAPTURE {prize} WITH {with}"),
        Order::Smoke(s) => format!("SMOKE {s}"),
        Order::Fire(f) => {
            let mut line = format!("FIRE {}", f.ship);
            if f.secondary {
                line.push_str(" SECONDARY");
            }
            line.push_str(" AT ");
            line.push_str(&f.targets.join(" ELSE "));
            if !f.support.is_empty() {
                line.push_str(" SUPPORT ");
                line.push_str(&f.support.join(" "));
            }
            line
        }
        Order::Standing(None) => "STANDING FIRE OFF".to_string(),
        Order::Standing(Some(StandingFire::Nearest)) => "STANDING FIRE NEAREST".to_string(),
        Order::Standing(Some(StandingFire::Flagship)) => "STANDING FIRE FLAGSHIP".to_string(),
        Order::Pass => "PASS".to_string(),
    }
}

/// The canonical text: one order per line, each ending in `\n`, in the order given.
pub fn print(orders: &Orders) -> String {
    orders.iter().map(|o| print_order(o) + "\n").collect()
}

/// The candidates nearest to `word` by edit distance, for hints.
fn nearest<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> Vec<String> {
    let w = normalise(word);
    let mut scored: Vec<(usize, String)> = candidates
        .map(|c| {
            let n = normalise(c);
            // Compare against the same-length prefix too, so `Mikas` is near `Mikasa`.
            let d = edit_distance(&w, &n);
            (d, c.to_string())
        })
        .collect();
    scored.sort();
    let Some(best) = scored.first().map(|x| x.0) else {
        return Vec::new();
    };
    // Only a plausible typo earns a suggestion: "Regards" is not a misspelt REPAIR.
    if best > (w.chars().count() / 2).max(2) {
        return Vec::new();
    }
    scored
        .into_iter()
        .filter(|(d, _)| *d == best)
        .take(3)
        .map(|x| x.1)
        .collect()
}

fn did_you_mean(names: &[String]) -> Option<String> {
    if names.is_empty() {
        None
    } else {
        Some(format!("did you mean {}?", names.join(" or ")))
    }
}

/// Which ships a name position expects (for prefix matching and hints).
#[derive(Clone, Copy, PartialEq)]
enum Whose {
    Own,
    Enemy,
}

struct LineErr {
    reason: String,
    hint: Option<String>,
}

fn err(reason: impl Into<String>, hint: Option<String>) -> LineErr {
    LineErr {
        reason: reason.into(),
        hint,
    }
}

fn example(ex: &str) -> Option<String> {
    Some(format!("for example: {ex}"))
}

/// Tokens of one line with a cursor; names may span several tokens.
struct Cursor<'a> {
    toks: Vec<&'a str>,
    i: usize,
}

impl<'a> Cursor<'a> {
    fn done(&self) -> bool {
        self.i >= self.toks.len()
    }

    fn peek_kw(&self) -> Option<String> {
        self.toks.get(self.i).map(|t| t.to_ascii_uppercase())
    }

    fn next_raw(&mut self) -> Option<&'a str> {
        let t = self.toks.get(self.i).copied();
        if t.is_some() {
            self.i += 1;
        }
        t
    }

    fn expect_kw(&mut self, kw: &str, ex: &str) -> Result<(), LineErr> {
        match self.peek_kw() {
            Some(k) if k == kw => {
                self.i += 1;
                Ok(())
            }
            Some(_) => Err(err(
                format!("expected `{kw}` but found `{}`", self.toks[self.i]),
                example(ex),
            )),
            None => Err(err(format!("`{kw}` is missing"), example(ex))),
        }
    }

    fn number(&mut self, what: &str, ex: &str) -> Result<f64, LineErr> {
        let Some(t) = self.next_raw() else {
            return Err(err(format!("{what} is missing"), example(ex)));
        };
        let t = t.trim_end_matches('"');
        match t.parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(v),
            _ => Err(err(format!("`{t}` is not a number ({what})"), example(ex))),
        }
    }

    fn end(&self, ex: &str) -> Result<(), LineErr> {
        if self.done() {
            Ok(())
        } else {
            Err(err(
                format!("unexpected `{}`", self.toks[self.i..].join(" ")),
                example(ex),
            ))
        }
    }

    /// A ship name at the cursor: exact (spaces, `-`, `_` ignored), else an unambiguous prefix,
    /// preferring ships of the expected side.
    fn ship(
        &mut self,
        state: &NavalState,
        side: &str,
        whose: Whose,
        ex: &str,
    ) -> Result<String, LineErr> {
        if self.done() {
            return Err(err("a ship name is missing", example(ex)));
        }
        let mut span = 0;
        while self.i + span < self.toks.len()
            && span < 4
            && !STOP_WORDS.contains(&self.toks[self.i + span].to_ascii_uppercase().as_str())
        {
            span += 1;
        }
        if span == 0 {
            return Err(err(
                format!("a ship name is missing before `{}`", self.toks[self.i]),
                example(ex),
            ));
        }
        let expected = |s: &&Ship| match whose {
            Whose::Own => s.side == side,
            Whose::Enemy => s.side != side,
        };
        for k in (1..=span).rev() {
            let w = normalise(&self.toks[self.i..self.i + k].concat());
            if let Some(s) = state.ships.iter().find(|s| normalise(&s.name) == w) {
                self.i += k;
                return Ok(s.name.clone());
            }
        }
        for k in (1..=span).rev() {
            let w = normalise(&self.toks[self.i..self.i + k].concat());
            let mine: Vec<&Ship> = state
                .ships
                .iter()
                .filter(expected)
                .filter(|s| normalise(&s.name).starts_with(&w))
                .collect();
            let all: Vec<&Ship> = state
                .ships
                .iter()
                .filter(|s| normalise(&s.name).starts_with(&w))
                .collect();
            let pick = if mine.len() == 1 {
                Some(mine[0])
            } else if mine.is_empty() && all.len() == 1 {
                Some(all[0])
            } else {
                None
            };
            if let Some(s) = pick {
                self.i += k;
                return Ok(s.name.clone());
            }
            if k == 1 && (mine.len() > 1 || (mine.is_empty() && all.len() > 1)) {
                let names: Vec<String> = if mine.len() > 1 { mine } else { all }
                    .iter()
                    .map(|s| s.name.clone())
                    .collect();
                return Err(err(
                    format!("`{}` is ambiguous", self.toks[self.i]),
                    Some(format!("one of: {}", names.join(", "))),
                ));
            }
        }
        let word = self.toks[self.i..self.i + span].join(" ");
        let pool: Vec<&str> = state
            .ships
            .iter()
            .filter(expected)
            .map(|s| s.name.as_str())
            .collect();
        Err(err(
            format!("no ship called `{word}`"),
            did_you_mean(&nearest(&word, pool.into_iter())),
        ))
    }
}

/// What earlier lines of the same email have done, so later lines are checked against it.
struct Sim {
    side: String,
    hit_markers: BTreeMap<String, u32>,
    groups: Vec<Group>,
    turned: BTreeSet<String>,
    moved: BTreeSet<String>,
    halted: BTreeSet<String>,
    repaired_critical: BTreeSet<String>,
    laid: BTreeSet<String>,
    swept: BTreeSet<String>,
    smoke: BTreeSet<String>,
    main_used: BTreeSet<String>,
    secondary_used: BTreeSet<String>,
    general: bool,
    withdrawal: bool,
    chase: bool,
    cp_spent: i32,
    cp_reported: bool,
    flagship: Option<String>,
    second: Option<String>,
    flagship_line: bool,
    second_line: bool,
    genuine: u32,
    dummies: u32,
    rescue_sent: BTreeSet<String>,
    capture_sent: BTreeSet<String>,
    on_duty: BTreeSet<String>,
    standing: bool,
    dummy_lines: Vec<usize>,
}

fn ship_of<'a>(state: &'a NavalState, name: &str) -> &'a Ship {
    state
        .ships
        .iter()
        .find(|s| s.name == name)
        .expect("names come from the state")
}

/// The group `ship` belongs to in the simulated groups.
fn group_of<'a>(groups: &'a [Group], ship: &str) -> Option<&'a Group> {
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

fn own_afloat(state: &NavalState, sim: &Sim, name: &str) -> Result<(), LineErr> {
    let s = ship_of(state, name);
    if s.side != sim.side {
        return Err(err(format!("{name} is not one of your ships"), None));
    }
    match s.fate {
        Fate::Afloat => Ok(()),
        Fate::Sunk => Err(err(format!("{name} has sunk"), None)),
        Fate::Struck => Err(err(format!("{name} has struck her colours"), None)),
        Fate::Escaped => Err(err(format!("{name} has left the table"), None)),
    }
}

fn can_manoeuvre(state: &NavalState, sim: &Sim, name: &str) -> Result<(), LineErr> {
    own_afloat(state, sim, name)?;
    let markers = sim.hit_markers.get(name).copied().unwrap_or(0);
    if markers > 0 {
        return Err(err(
            format!("{name} has {markers} hit marker(s) and cannot manoeuvre"),
            Some(format!("REPAIR {name} first")),
        ));
    }
    if sim.general {
        return Err(err(
            "General Withdrawal or Chase is in force: CP may only repair hits",
            None,
        ));
    }
    Ok(())
}

/// Ships the movement step never moves, so a TURN, MOVE or HALT would cost CP for nothing:
/// anchored ships are halted free (p.4), and a rescuer by the wreck or a capturer alongside her
/// prize stays put (R10, R28).
fn stays_put(state: &NavalState, name: &str) -> Result<(), LineErr> {
    let s = ship_of(state, name);
    if s.anchored {
        return Err(err(
            format!("{name} is at anchor and stays halted for free"),
            None,
        ));
    }
    if s.rescue.as_ref().is_some_and(|r| r.turns_left.is_some()) {
        return Err(err(
            format!("{name} stays by the wreck, picking up survivors"),
            None,
        ));
    }
    if let Some(prize) = &s.capturing
        && state
            .ships
            .iter()
            .any(|p| p.name == *prize && p.captured_by.as_deref() == Some(name))
    {
        return Err(err(
            format!("{name} lies alongside her prize {prize} and takes no further part"),
            None,
        ));
    }
    Ok(())
}

fn not_follower(sim: &Sim, name: &str, what: &str) -> Result<(), LineErr> {
    if let Some(lead) = follower_of(&sim.groups, name) {
        return Err(err(
            format!("{name} follows {lead}; {what} the lead or make her leave first"),
            Some(format!("LEAVE {name}")),
        ));
    }
    Ok(())
}

fn shortest(from: f64, to: f64) -> f64 {
    let mut d = (to - from).rem_euclid(360.0);
    if d > 180.0 {
        d -= 360.0;
    }
    d
}

fn line_kw(first: &str) -> String {
    first.to_ascii_uppercase()
}

/// Parses `text` as `seat`'s orders for the current step. Every bad line is reported.
pub fn parse(state: &NavalState, seat: &str, text: &str) -> Result<Orders, Vec<Rejected>> {
    let mut orders = Vec::new();
    let mut bad = Vec::new();
    let Some(fleet) = state.fleets.iter().find(|f| f.side == seat) else {
        return Err(vec![Rejected {
            line: 1,
            text: text.lines().next().unwrap_or("").to_string(),
            reason: format!("`{seat}` is not a side in this game"),
            hint: None,
        }]);
    };
    let enemy_withdrawing = state.fleets.iter().any(|f| f.side != seat && f.withdrawal);
    let mut sim = Sim {
        side: seat.to_string(),
        hit_markers: state
            .ships
            .iter()
            .map(|s| (s.name.clone(), s.hit_markers))
            .collect(),
        groups: state.groups.clone(),
        turned: BTreeSet::new(),
        moved: BTreeSet::new(),
        halted: BTreeSet::new(),
        repaired_critical: BTreeSet::new(),
        laid: BTreeSet::new(),
        swept: BTreeSet::new(),
        smoke: BTreeSet::new(),
        main_used: BTreeSet::new(),
        secondary_used: BTreeSet::new(),
        general: fleet.withdrawal || fleet.chase,
        withdrawal: fleet.withdrawal,
        chase: fleet.chase,
        cp_spent: 0,
        cp_reported: false,
        flagship: fleet.flagship.clone(),
        second: fleet.second.clone(),
        flagship_line: false,
        second_line: false,
        genuine: 0,
        dummies: 0,
        rescue_sent: BTreeSet::new(),
        capture_sent: BTreeSet::new(),
        on_duty: state
            .ships
            .iter()
            .filter(|s| s.rescue.is_some() || s.capturing.is_some())
            .map(|s| s.name.clone())
            .collect(),
        standing: false,
        dummy_lines: Vec::new(),
    };
    let _ = enemy_withdrawing;
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let toks: Vec<&str> = line.split_whitespace().collect();
        let kw = line_kw(toks[0]);
        if matches!(kw.as_str(), "GAME" | "TOKEN" | "HELP") {
            continue;
        }
        if (kw == "END" || kw == "PASS") && toks.len() == 1 {
            orders.push(Order::Pass);
            break;
        }
        match parse_line(state, seat, &mut sim, &toks) {
            Ok(order) => {
                let cost = if state.phase == Phase::Manoeuvre {
                    command::order_cost(state, seat, &order)
                } else {
                    0
                };
                if cost > 0 && sim.cp_spent + cost > state.cp_left && !sim.cp_reported {
                    sim.cp_reported = true;
                    bad.push(Rejected {
                        line: n + 1,
                        text: raw.to_string(),
                        reason: format!(
                            "CP run out here: this order costs {cost} CP and {} of your {} CP are left",
                            (state.cp_left - sim.cp_spent).max(0),
                            state.cp_left
                        ),
                        hint: Some("drop an order or halt fewer ships".to_string()),
                    });
                }
                sim.cp_spent += cost;
                if matches!(order, Order::Minefield { genuine: false, .. }) {
                    sim.dummy_lines.push(n + 1);
                }
                orders.push(order);
            }
            Err(e) => bad.push(Rejected {
                line: n + 1,
                text: raw.to_string(),
                reason: e.reason,
                hint: e.hint,
            }),
        }
    }
    let per = state.data.rule("dummies_per_genuine").round() as u32;
    if let Some(&line) = sim.dummy_lines.get((per * sim.genuine) as usize) {
        bad.push(Rejected {
            line,
            text: text.lines().nth(line - 1).unwrap_or("").to_string(),
            reason: format!(
                "at most {per} dummy minefields per genuine one ({} genuine ordered)",
                sim.genuine
            ),
            hint: None,
        });
        bad.sort_by_key(|r| r.line);
    }
    if state.phase == Phase::Setup
        && bad.is_empty()
        && let (Some(f), Some(s)) = (&sim.flagship, &sim.second)
        && f == s
    {
        let line = text
            .lines()
            .position(|l| {
                let u = l.trim().to_ascii_uppercase();
                u.starts_with("FLAGSHIP") || u.starts_with("SECOND")
            })
            .map(|i| i + 1)
            .unwrap_or(1);
        bad.push(Rejected {
            line,
            text: text.lines().nth(line - 1).unwrap_or("").to_string(),
            reason: format!("{f} cannot be both flagship and second-in-command"),
            hint: Some("name another capital ship with SECOND".to_string()),
        });
    }
    if bad.is_empty() { Ok(orders) } else { Err(bad) }
}

fn step_allows(state: &NavalState, seat: &str, kw: &str) -> Result<(), LineErr> {
    let manoeuvre = [
        "REPAIR", "TURN", "MOVE", "HALT", "LEAVE", "SPLIT", "JOIN", "ABREAST", "ASTERN",
        "WITHDRAW", "CHASE", "LAY", "SWEEP", "RESCUE", "CAPTURE",
    ];
    let setup = ["FLAGSHIP", "SECOND", "MINEFIELD"];
    let fire = ["FIRE", "SMOKE"];
    match state.phase {
        Phase::GameOver => Err(err("the game is over", None)),
        Phase::Setup => {
            if setup.contains(&kw) || kw == "STANDING" {
                Ok(())
            } else {
                Err(err(
                    format!("`{kw}` is not a set-up order"),
                    Some("set-up orders are FLAGSHIP, SECOND, MINEFIELD, STANDING FIRE".into()),
                ))
            }
        }
        Phase::Manoeuvre => {
            if kw == "STANDING" {
                Ok(())
            } else if seat != state.active {
                Err(err(
                    format!(
                        "it is {}'s turn to manoeuvre; you are not asked now",
                        state.active
                    ),
                    Some("only STANDING FIRE … may be sent now".into()),
                ))
            } else if manoeuvre.contains(&kw) || fire.contains(&kw) {
                Ok(())
            } else {
                Err(err(
                    format!("`{kw}` is not a manoeuvre or fire order"),
                    None,
                ))
            }
        }
        Phase::Fire => {
            if fire.contains(&kw) || kw == "STANDING" {
                Ok(())
            } else if manoeuvre.contains(&kw) {
                Err(err(
                    format!("`{kw}` belongs in the manoeuvre orders; this is the fire step"),
                    example("FIRE Mikasa AT Tsesarevich"),
                ))
            } else {
                Err(err(format!("`{kw}` is not a fire order"), None))
            }
        }
    }
}

fn parse_line(
    state: &NavalState,
    seat: &str,
    sim: &mut Sim,
    toks: &[&str],
) -> Result<Order, LineErr> {
    let kw = toks[0].to_ascii_uppercase();
    if !KEYWORDS.contains(&kw.as_str()) && !matches!(kw.as_str(), "GAME" | "TOKEN" | "HELP") {
        return Err(err(
            format!("unknown order `{}`", toks[0]),
            did_you_mean(&nearest(&kw, KEYWORDS.iter().copied())),
        ));
    }
    if kw == "PASS" || kw == "END" {
        return Err(err(
            format!("`{kw}` must stand alone on its line"),
            example("PASS"),
        ));
    }
    step_allows(state, seat, &kw)?;
    let mut c = Cursor {
        toks: toks.to_vec(),
        i: 1,
    };
    match kw.as_str() {
        "FLAGSHIP" | "SECOND" => {
            let ex = if kw == "FLAGSHIP" {
                "FLAGSHIP Mikasa"
            } else {
                "SECOND Asahi"
            };
            let name = c.ship(state, seat, Whose::Own, ex)?;
            c.end(ex)?;
            own_afloat(state, sim, &name)?;
            if !ship_of(state, &name).class.is_capital() {
                return Err(err(format!("{name} is not a capital ship"), None));
            }
            if kw == "FLAGSHIP" {
                if sim.flagship_line {
                    return Err(err("FLAGSHIP given twice", None));
                }
                sim.flagship_line = true;
                if sim.second.as_deref() == Some(name.as_str()) && !sim.second_line {
                    // The old flagship becomes second unless the player names one.
                    sim.second = sim.flagship.clone();
                }
                sim.flagship = Some(name.clone());
                Ok(Order::Flagship(name))
            } else {
                if sim.second_line {
                    return Err(err("SECOND given twice", None));
                }
                sim.second_line = true;
                sim.second = Some(name.clone());
                Ok(Order::Second(name))
            }
        }
        "MINEFIELD" => {
            let ex = "MINEFIELD GENUINE AT 30,24 HEADING 90";
            let genuine = match c.next_raw().map(str::to_ascii_uppercase).as_deref() {
                Some("GENUINE") => true,
                Some("DUMMY") => false,
                _ => return Err(err("say GENUINE or DUMMY", example(ex))),
            };
            c.expect_kw("AT", ex)?;
            // `30,24`, `30, 24` or `30 24`.
            let mut coords = String::new();
            while let Some(t) = c.toks.get(c.i) {
                if t.eq_ignore_ascii_case("HEADING") {
                    break;
                }
                coords.push_str(t);
                coords.push(',');
                c.i += 1;
            }
            let parts: Vec<&str> = coords.split(',').filter(|p| !p.is_empty()).collect();
            let xy: Vec<f64> = parts.iter().filter_map(|p| p.parse::<f64>().ok()).collect();
            if parts.len() != 2 || xy.len() != 2 || !xy.iter().all(|v| v.is_finite()) {
                return Err(err(
                    format!("`{}` is not a position x,y", coords.trim_end_matches(',')),
                    example(ex),
                ));
            }
            c.expect_kw("HEADING", ex)?;
            let heading = c.number("the heading", ex)?;
            c.end(ex)?;
            if !(0.0..=state.width).contains(&xy[0]) || !(0.0..=state.height).contains(&xy[1]) {
                return Err(err(
                    format!(
                        "{},{} is off the table ({} x {})",
                        num(xy[0]),
                        num(xy[1]),
                        num(state.width),
                        num(state.height)
                    ),
                    None,
                ));
            }
            if !(0.0..360.0).contains(&heading) {
                return Err(err("a heading is 0 to 359", example(ex)));
            }
            let max_g = state.data.rule("pregame_genuine_max").round() as u32;
            if genuine {
                if sim.genuine + 1 > max_g {
                    return Err(err(
                        format!("at most {max_g} genuine minefields before the game"),
                        None,
                    ));
                }
                sim.genuine += 1;
            } else {
                // Dummies may come before their genuine fields in the email: counted at the end.
                sim.dummies += 1;
            }
            Ok(Order::Minefield {
                genuine,
                at: Pt { x: xy[0], y: xy[1] },
                heading,
            })
        }
        "REPAIR" => {
            let ex = "REPAIR Mikasa 2";
            let name = c.ship(state, seat, Whose::Own, ex)?;
            let markers = if c.done() {
                1
            } else {
                let v = c.number("the number of markers", ex)?;
                if v < 1.0 || v.fract() != 0.0 {
                    return Err(err(
                        "repair a whole number of markers (1 or more)",
                        example(ex),
                    ));
                }
                v as u32
            };
            c.end(ex)?;
            own_afloat(state, sim, &name)?;
            let have = sim.hit_markers.get(&name).copied().unwrap_or(0);
            if markers > have {
                return Err(err(
                    format!("{name} has {have} hit marker(s) to repair"),
                    None,
                ));
            }
            sim.hit_markers.insert(name.clone(), have - markers);
            sim.repaired_critical.insert(name.clone());
            Ok(Order::Repair {
                ship: name,
                markers,
            })
        }
        "TURN" => {
            let ex = "TURN Mikasa PORT 45";
            let name = c.ship(state, seat, Whose::Own, ex)?;
            let dir = c.next_raw().map(str::to_ascii_uppercase);
            let by = match dir.as_deref() {
                Some("PORT") => TurnBy::Port(c.number("the degrees", ex)?),
                Some("STARBOARD") => TurnBy::Starboard(c.number("the degrees", ex)?),
                Some("TO") => TurnBy::To(c.number("the heading", ex)?),
                _ => return Err(err("say PORT n, STARBOARD n or TO heading", example(ex))),
            };
            c.end(ex)?;
            can_manoeuvre(state, sim, &name)?;
            stays_put(state, &name)?;
            not_follower(sim, &name, "turn")?;
            let ship = ship_of(state, &name);
            if sim.on_duty.contains(&name) {
                return Err(err(
                    format!("{name} steers herself on rescue or capture duty"),
                    None,
                ));
            }
            if sim.turned.contains(&name) {
                return Err(err(format!("{name} has already turned this turn"), None));
            }
            if sim.moved.contains(&name) {
                return Err(err(format!("{name} must turn before she moves"), None));
            }
            let angle = match by {
                TurnBy::Port(d) | TurnBy::Starboard(d) => {
                    if d < 0.0 {
                        return Err(err("turn by a positive number of degrees", example(ex)));
                    }
                    d
                }
                TurnBy::To(h) => {
                    if !(0.0..360.0).contains(&h) {
                        return Err(err("a heading is 0 to 359", example("TURN Mikasa TO 270")));
                    }
                    shortest(ship.hull.heading, h).abs()
                }
            };
            let max = state.data.classes[&ship.class].max_turn.get();
            if angle > max + 1e-9 {
                return Err(err(
                    format!(
                        "a {} may turn at most {}° for 1 CP",
                        ship.class.abbr(),
                        num(max)
                    ),
                    None,
                ));
            }
            sim.turned.insert(name.clone());
            Ok(Order::Turn { ship: name, by })
        }
        "MOVE" => {
            let ex = "MOVE Mikasa 4";
            let name = c.ship(state, seat, Whose::Own, ex)?;
            let distance = if c.done() {
                None
            } else {
                Some(c.number("the distance", ex)?)
            };
            c.end(ex)?;
            can_manoeuvre(state, sim, &name)?;
            stays_put(state, &name)?;
            not_follower(sim, &name, "move")?;
            if sim.moved.contains(&name) {
                return Err(err(format!("{name} already has a move this turn"), None));
            }
            if sim.halted.contains(&name) {
                return Err(err(format!("{name} is halted this turn"), None));
            }
            let max = stats::max_speed(state, ship_of(state, &name));
            if let Some(d) = distance {
                if d <= 0.0 {
                    return Err(err("move a positive distance", example(ex)));
                }
                if d > max + 1e-9 {
                    return Err(err(
                        format!("{name}'s maximum speed is {}\"", num(max)),
                        None,
                    ));
                }
            }
            sim.moved.insert(name.clone());
            Ok(Order::Move {
                ship: name,
                distance,
            })
        }
        "HALT" => {
            let ex = "HALT Askold";
            let name = c.ship(state, seat, Whose::Own, ex)?;
            c.end(ex)?;
            own_afloat(state, sim, &name)?;
            if sim.general {
                return Err(err(
                    "General Withdrawal or Chase is in force: CP may only repair hits",
                    None,
                ));
            }
            stays_put(state, &name)?;
            not_follower(sim, &name, "halt")?;
            if sim.moved.contains(&name) {
                return Err(err(format!("{name} has a full-speed move this turn"), None));
            }
            if !sim.halted.insert(name.clone()) {
                return Err(err(format!("{name} is already halted"), None));
            }
            Ok(Order::Halt(name))
        }
        "LEAVE" | "SPLIT" => {
            let ex = if kw == "LEAVE" {
                "LEAVE Fuji"
            } else {
                "SPLIT Fuji"
            };
            let name = c.ship(state, seat, Whose::Own, ex)?;
            c.end(ex)?;
            own_afloat(state, sim, &name)?;
            let Some(gi) = sim.groups.iter().position(|g| g.ships.contains(&name)) else {
                return Err(err(format!("{name} is not in a line or flotilla"), None));
            };
            let g = &mut sim.groups[gi];
            let pos = g.ships.iter().position(|s| *s == name).unwrap_or(0);
            if kw == "LEAVE" {
                g.ships.remove(pos);
                Ok(Order::Leave(name))
            } else {
                if pos == 0 {
                    return Err(err(
                        format!("{name} leads her line: nothing ahead to split from"),
                        None,
                    ));
                }
                let tail: Vec<String> = g.ships.split_off(pos);
                let ng = Group {
                    name: format!("{}'s line", tail[0]),
                    side: g.side.clone(),
                    ships: tail,
                    formation: g.formation,
                    flotilla: g.flotilla,
                };
                sim.groups.push(ng);
                Ok(Order::Split { at: name })
            }
        }
        "JOIN" => {
            let ex = "JOIN Nisshin TO Mikasa";
            let name = c.ship(state, seat, Whose::Own, ex)?;
            c.expect_kw("TO", ex)?;
            let other = c.ship(state, seat, Whose::Own, ex)?;
            c.end(ex)?;
            can_manoeuvre(state, sim, &name)?;
            own_afloat(state, sim, &other)?;
            if name == other {
                return Err(err("a ship cannot join herself", None));
            }
            if group_of(&sim.groups, &name).is_some_and(|g| g.ships.len() > 1) {
                return Err(err(
                    format!("{name} is in a line or flotilla"),
                    Some(format!("LEAVE {name} first")),
                ));
            }
            let me = ship_of(state, &name);
            let target = group_of(&sim.groups, &other).cloned();
            let last = target
                .as_ref()
                .and_then(|g| g.ships.last().cloned())
                .unwrap_or(other.clone());
            let last_ship = ship_of(state, &last);
            if me.class.is_capital() != last_ship.class.is_capital() {
                return Err(err(
                    "destroyers form flotillas, capital ships battle lines",
                    None,
                ));
            }
            let reach = state.data.rule("join_reach");
            let gap = crate::board::tabletop::dist(me.hull.centre, last_ship.hull.stern());
            if gap > reach + me.hull.length / 2.0 + 1e-9 {
                return Err(err(
                    format!(
                        "{name} is {}\" from {last}'s stern; she must be within {}\"",
                        num((gap * 10.0).round() / 10.0),
                        num(reach)
                    ),
                    None,
                ));
            }
            if shortest(me.hull.heading, last_ship.hull.heading).abs()
                > state.data.rule("join_heading")
            {
                return Err(err(
                    format!(
                        "{name} must steer within {}° of {last}'s heading to join",
                        num(state.data.rule("join_heading"))
                    ),
                    None,
                ));
            }
            sim.groups
                .retain(|g| !(g.ships.len() == 1 && g.ships[0] == name));
            match sim.groups.iter_mut().find(|g| g.ships.contains(&other)) {
                Some(g) => g.ships.push(name.clone()),
                None => sim.groups.push(Group {
                    name: format!("{other}'s line"),
                    side: seat.to_string(),
                    ships: vec![other.clone(), name.clone()],
                    formation: Formation::Astern,
                    flotilla: !me.class.is_capital(),
                }),
            }
            Ok(Order::Join {
                ship: name,
                group_of: other,
            })
        }
        "ABREAST" | "ASTERN" => {
            let ex = if kw == "ABREAST" {
                "ABREAST Mikasa"
            } else {
                "ASTERN Mikasa"
            };
            let name = c.ship(state, seat, Whose::Own, ex)?;
            c.end(ex)?;
            can_manoeuvre(state, sim, &name)?;
            let Some(g) = sim
                .groups
                .iter_mut()
                .find(|g| g.ships.first() == Some(&name))
            else {
                return Err(err(format!("{name} does not lead a battle line"), None));
            };
            if g.flotilla {
                return Err(err("destroyer flotillas do not form lines", None));
            }
            let want = if kw == "ABREAST" {
                Formation::Abreast
            } else {
                Formation::Astern
            };
            if g.formation == want {
                return Err(err(
                    format!("the line is already in line {}", kw.to_lowercase()),
                    None,
                ));
            }
            g.formation = want;
            for s in g.ships.clone() {
                sim.moved.insert(s);
            }
            Ok(if kw == "ABREAST" {
                Order::FormAbreast(name)
            } else {
                Order::FormAstern(name)
            })
        }
        "WITHDRAW" | "CHASE" => {
            c.end(&kw)?;
            if sim.withdrawal || sim.chase {
                return Err(err(
                    "a General Withdrawal or Chase is already ordered",
                    None,
                ));
            }
            if kw == "CHASE" {
                let enemy_withdrawing = state.fleets.iter().any(|f| f.side != seat && f.withdrawal);
                if !enemy_withdrawing {
                    return Err(err(
                        "General Chase is legal only while the enemy is in General Withdrawal",
                        None,
                    ));
                }
                sim.chase = true;
                sim.general = true;
                Ok(Order::Chase)
            } else {
                sim.withdrawal = true;
                sim.general = true;
                Ok(Order::Withdraw)
            }
        }
        "LAY" => {
            let ex = "LAY Amur";
            let name = c.ship(state, seat, Whose::Own, ex)?;
            c.end(ex)?;
            can_manoeuvre(state, sim, &name)?;
            if !ship_of(state, &name).minelayer {
                return Err(err(format!("{name} is not a minelayer"), None));
            }
            if !sim.laid.insert(name.clone()) {
                return Err(err(format!("{name} lays one belt per turn"), None));
            }
            Ok(Order::Lay(name))
        }
        "SWEEP" => {
            let ex = "SWEEP Amur M3";
            let name = c.ship(state, seat, Whose::Own, ex)?;
            let Some(f) = c.next_raw() else {
                return Err(err("the minefield is missing", example(ex)));
            };
            c.end(ex)?;
            can_manoeuvre(state, sim, &name)?;
            if !ship_of(state, &name).minesweeper {
                return Err(err(format!("{name} is not a minesweeper"), None));
            }
            let Some(field) = state
                .minefields
                .iter()
                .find(|m| m.id.eq_ignore_ascii_case(f))
            else {
                let ids: Vec<&str> = state.minefields.iter().map(|m| m.id.as_str()).collect();
                return Err(err(
                    format!("no minefield `{f}`"),
                    if ids.is_empty() {
                        Some("there are no minefields".into())
                    } else {
                        Some(format!("fields: {}", ids.join(", ")))
                    },
                ));
            };
            if !sim.swept.insert(name.clone()) {
                return Err(err(format!("{name} sweeps once per turn"), None));
            }
            Ok(Order::Sweep {
                ship: name,
                field: field.id.clone(),
            })
        }
        "RESCUE" => {
            let ex = "RESCUE Retvizan WITH Askold";
            let wreck = c.ship(state, seat, Whose::Own, ex)?;
            c.expect_kw("WITH", ex)?;
            let mut with = Vec::new();
            while !c.done() {
                with.push(c.ship(state, seat, Whose::Own, ex)?);
            }
            let owed = state
                .fleets
                .iter()
                .find(|f| f.side == seat)
                .is_some_and(|f| f.rescue_owed.contains(&wreck));
            if !owed {
                return Err(err(
                    format!("no survivors of {wreck} wait for rescue"),
                    None,
                ));
            }
            if !sim.rescue_sent.insert(wreck.clone()) {
                return Err(err(
                    format!("a rescue for {wreck} is already ordered"),
                    None,
                ));
            }
            if with.is_empty() {
                return Err(err("name the rescue ship(s)", example(ex)));
            }
            for s in &with {
                own_afloat(state, sim, s)?;
                if sim.on_duty.contains(s) {
                    return Err(err(
                        format!("{s} is already on rescue or capture duty"),
                        None,
                    ));
                }
            }
            let capital_wreck = ship_of(state, &wreck).class.is_capital();
            let dds = with
                .iter()
                .filter(|s| !ship_of(state, s).class.is_capital())
                .count();
            let ok = match (capital_wreck, with.len()) {
                (_, 1) => !capital_wreck || ship_of(state, &with[0]).class.is_capital(),
                (true, 2) => dds == 2,
                _ => false,
            };
            if !ok {
                return Err(err(
                    "send one ship, or two destroyers for a capital ship's crew",
                    example(ex),
                ));
            }
            for s in &with {
                sim.on_duty.insert(s.clone());
            }
            Ok(Order::Rescue { wreck, with })
        }
        "CAPTURE" => {
            let ex = "CAPTURE Novik WITH Chitose";
            let prize = c.ship(state, seat, Whose::Enemy, ex)?;
            c.expect_kw("WITH", ex)?;
            let with = c.ship(state, seat, Whose::Own, ex)?;
            c.end(ex)?;
            let p = ship_of(state, &prize);
            if p.side == seat || p.fate != Fate::Struck || p.captured_by.is_some() {
                return Err(err(
                    format!("{prize} is not an enemy ship that has struck her colours"),
                    None,
                ));
            }
            let taken = state
                .ships
                .iter()
                .any(|s| s.capturing.as_deref() == Some(prize.as_str()));
            if taken || !sim.capture_sent.insert(prize.clone()) {
                return Err(err(format!("a ship is already sent to take {prize}"), None));
            }
            own_afloat(state, sim, &with)?;
            if sim.on_duty.contains(&with) {
                return Err(err(
                    format!("{with} is already on rescue or capture duty"),
                    None,
                ));
            }
            if ship_of(state, &with).class == ShipClass::DD && p.class != ShipClass::DD {
                return Err(err("a destroyer may capture only a destroyer", None));
            }
            sim.on_duty.insert(with.clone());
            Ok(Order::Capture { prize, with })
        }
        "SMOKE" => {
            let ex = "SMOKE Akatsuki";
            let name = c.ship(state, seat, Whose::Own, ex)?;
            c.end(ex)?;
            own_afloat(state, sim, &name)?;
            if ship_of(state, &name).class != ShipClass::DD {
                return Err(err("only destroyers lay smoke", None));
            }
            if !sim.smoke.insert(name.clone()) {
                return Err(err(format!("{name} already lays smoke"), None));
            }
            Ok(Order::Smoke(name))
        }
        "STANDING" => {
            let ex = "STANDING FIRE NEAREST";
            c.expect_kw("FIRE", ex)?;
            let what = c.next_raw().map(str::to_ascii_uppercase);
            c.end(ex)?;
            if sim.standing {
                return Err(err("STANDING FIRE given twice", None));
            }
            sim.standing = true;
            match what.as_deref() {
                Some("NEAREST") => Ok(Order::Standing(Some(StandingFire::Nearest))),
                Some("FLAGSHIP") => Ok(Order::Standing(Some(StandingFire::Flagship))),
                Some("OFF") => Ok(Order::Standing(None)),
                _ => Err(err("say NEAREST, FLAGSHIP or OFF", example(ex))),
            }
        }
        "FIRE" => parse_fire(state, seat, sim, &mut c),
        _ => Err(err(format!("`{kw}` cannot be used here"), None)),
    }
}

fn parse_fire(
    state: &NavalState,
    seat: &str,
    sim: &mut Sim,
    c: &mut Cursor,
) -> Result<Order, LineErr> {
    let ex = "FIRE Mikasa AT Tsesarevich ELSE Retvizan SUPPORT Asahi Fuji";
    let ship = c.ship(state, seat, Whose::Own, ex)?;
    let secondary = if c.peek_kw().as_deref() == Some("SECONDARY") {
        c.i += 1;
        true
    } else {
        false
    };
    c.expect_kw("AT", ex)?;
    let mut targets = vec![c.ship(state, seat, Whose::Enemy, ex)?];
    while c.peek_kw().as_deref() == Some("ELSE") {
        c.i += 1;
        targets.push(c.ship(state, seat, Whose::Enemy, ex)?);
    }
    let mut support = Vec::new();
    if c.peek_kw().as_deref() == Some("SUPPORT") {
        c.i += 1;
        while !c.done() {
            support.push(c.ship(state, seat, Whose::Own, ex)?);
        }
        if support.is_empty() {
            return Err(err("name the supporting ships after SUPPORT", example(ex)));
        }
    }
    c.end(ex)?;
    own_afloat(state, sim, &ship)?;
    for s in std::iter::once(&ship).chain(support.iter()) {
        if sim.hit_markers.get(s).copied().unwrap_or(0) > 0 {
            return Err(err(
                format!("{s} has a hit marker and can neither fire nor support"),
                Some(format!("REPAIR {s} in your manoeuvre orders")),
            ));
        }
    }
    let me = ship_of(state, &ship);
    if secondary && !matches!(me.class, ShipClass::CA | ShipClass::BB) {
        return Err(err(
            "only armoured cruisers and battleships have secondary batteries",
            None,
        ));
    }
    let mut seen = BTreeSet::new();
    for t in &targets {
        let s = ship_of(state, t);
        if s.side == seat {
            return Err(err(format!("{t} is one of your own ships"), None));
        }
        if s.fate != Fate::Afloat {
            return Err(err(
                format!("{t} is no longer a target (sunk, struck or gone)"),
                None,
            ));
        }
        if secondary && s.class != ShipClass::DD {
            return Err(err(
                "secondary batteries fire only at destroyers",
                Some(format!("FIRE {ship} AT {t}")),
            ));
        }
        if !seen.insert(t.clone()) {
            return Err(err(format!("{t} is named twice"), None));
        }
    }
    let max = state.data.rule("max_supporters").round() as usize;
    if support.len() > max {
        return Err(err(
            format!("at most {max} ships may support an attack"),
            None,
        ));
    }
    for s in &support {
        own_afloat(state, sim, s)?;
        if *s == ship {
            return Err(err("a ship cannot support her own attack", None));
        }
    }
    let used = if secondary {
        &mut sim.secondary_used
    } else {
        &mut sim.main_used
    };
    if !used.insert(ship.clone()) {
        return Err(err(
            format!("{ship} already fires or supports this phase"),
            None,
        ));
    }
    for s in &support {
        // Secondary support comes from secondaries or destroyers (R5); those roles are tracked apart.
        let pool = if secondary && ship_of(state, s).class != ShipClass::DD {
            &mut sim.secondary_used
        } else {
            &mut sim.main_used
        };
        if !pool.insert(s.clone()) {
            return Err(err(
                format!("{s} already fires or supports this phase"),
                None,
            ));
        }
    }
    let order = FireOrder {
        ship,
        secondary,
        targets,
        support,
    };
    gunnery::check_fire_order(state, seat, &order).map_err(|e| err(e, example(ex)))?;
    Ok(Order::Fire(order))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_print_without_trailing_zero() {
        assert_eq!(num(4.0), "4");
        assert_eq!(num(2.5), "2.5");
        assert_eq!(num(-0.0), "0");
    }

    #[test]
    fn edit_distance_counts_changes() {
        assert_eq!(edit_distance("mikasa", "mikasa"), 0);
        assert_eq!(edit_distance("mikassa", "mikasa"), 1);
        assert_eq!(edit_distance("fuji", "asahi"), 4);
    }
}
