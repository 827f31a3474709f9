//! The players' order syntax (games/gear-krieg/README.md): parsing every line of an email
//! against the current step and state, and printing the canonical form. Every bad line is
//! reported, with a hint. It never changes the state.

use crate::board::tabletop::Pt;
use crate::engine::Rejected;
pub use crate::rulesets::common::{edit_distance, normalise};

use super::activation;
use super::data::{InitialSpeed, MoveMode};
use super::state::{
    Act, Block, Filter, Fire, FireMode, GkState, Melee, Order, Orders, Overwatch, Phase, Setting,
    Shift, TurnBy,
};
use super::stats;

const KEYWORDS: &[&str] = &[
    "SPEED",
    "EXTRA",
    "DEFEND",
    "ACTIVATE",
    "MOVE",
    "REVERSE",
    "TURN",
    "TO",
    "MODE",
    "FIRE",
    "PUNCH",
    "KICK",
    "RAM",
    "ASSAULT",
    "RALLY",
    "HOLD",
    "CP",
    "INTERRUPT",
    "NO",
    "OVERWATCH",
    "INTERRUPTS",
    "DECLARATIONS",
    "CHOOSE",
    "PASS",
    "END",
];

/// A number as the canonical form prints it: no trailing `.0`, no `-0`.
pub fn num(v: f64) -> String {
    let v = (v * 1000.0).round() / 1000.0;
    let v = if v == 0.0 { 0.0 } else { v };
    format!("{v}")
}

fn pt(p: Pt) -> String {
    format!("{},{}", num(p.x), num(p.y))
}

fn turn_text(by: &TurnBy) -> String {
    match by {
        TurnBy::Left(d) => format!("LEFT {}", num(*d)),
        TurnBy::Right(d) => format!("RIGHT {}", num(*d)),
        TurnBy::To(h) => format!("TO {}", num(*h)),
    }
}

fn fire_text(f: &Fire) -> String {
    let mut s = format!("FIRE {}", f.weapon);
    match &f.mode {
        FireMode::At(t) => s.push_str(&format!(" AT {t}")),
        FireMode::Walk(ts) => s.push_str(&format!(" WALK {}", ts.join(" "))),
        FireMode::Saturate(p) => s.push_str(&format!(" SATURATE {}", pt(*p))),
    }
    if f.rof > 0 {
        s.push_str(&format!(" ROF {}", f.rof));
    }
    s
}

fn speed_word(s: InitialSpeed) -> &'static str {
    match s {
        InitialSpeed::Stationary => "STATIONARY",
        InitialSpeed::Combat => "COMBAT",
        InitialSpeed::Top => "TOP",
    }
}

pub fn print_act(a: &Act) -> String {
    match a {
        Act::Move(d) => format!("MOVE {}", num(*d)),
        Act::Reverse(d) => format!("REVERSE {}", num(*d)),
        Act::Turn(by) => format!("TURN {}", turn_text(by)),
        Act::To(p) => format!("TO {}", pt(*p)),
        Act::Mode(MoveMode::Walker) => "MODE WALKER".into(),
        Act::Mode(MoveMode::Ground) => "MODE GROUND".into(),
        Act::Speed(Shift::Top) => "SPEED TOP".into(),
        Act::Speed(Shift::Combat) => "SPEED COMBAT".into(),
        Act::Fire(f) => fire_text(f),
        Act::Melee(Melee::Punch, t) => format!("PUNCH {t}"),
        Act::Melee(Melee::Kick, t) => format!("KICK {t}"),
        Act::Melee(Melee::Ram, t) => format!("RAM {t}"),
        Act::Melee(Melee::Assault, t) => format!("ASSAULT {t}"),
        Act::Rally => "RALLY".into(),
        Act::CpExtra => "CP EXTRA".into(),
        Act::Hold => "HOLD".into(),
    }
}

/// One order as its canonical line (without the newline).
pub fn print_order(o: &Order) -> String {
    match o {
        Order::Speed { unit, speed } => format!("SPEED {unit} {}", speed_word(*speed)),
        Order::Extra { unit, n } => {
            if *n == 1 {
                format!("EXTRA {unit}")
            } else {
                format!("EXTRA {unit} {n}")
            }
        }
        Order::Defend(u) => format!("DEFEND {u}"),
        Order::Activate { unit, cp } => {
            if *cp {
                format!("ACTIVATE {unit} CP")
            } else {
                format!("ACTIVATE {unit}")
            }
        }
        Order::Act(a) => print_act(a),
        Order::Interrupt { unit, fire } => {
            let mut s = format!("INTERRUPT {unit} FIRE {}", fire.weapon);
            if fire.rof > 0 {
                s.push_str(&format!(" ROF {}", fire.rof));
            }
            s
        }
        Order::NoInterrupt => "NO INTERRUPT".into(),
        Order::Overwatch(ow) => {
            let mut s = format!("OVERWATCH {}", ow.unit);
            if let Some(w) = &ow.weapon {
                s.push_str(&format!(" WITH {w}"));
            }
            match &ow.filter {
                Filter::Any => s.push_str(" AT ANY"),
                Filter::Vehicles => s.push_str(" AT VEHICLES"),
                Filter::Infantry => s.push_str(" AT INFANTRY"),
                Filter::Unit(u) => s.push_str(&format!(" AT {u}")),
            }
            if let Some(r) = ow.within {
                s.push_str(&format!(" WITHIN {}", num(r)));
            }
            s.push_str(&format!(" ACTIONS {}", ow.actions));
            if ow.rof > 0 {
                s.push_str(&format!(" ROF {}", ow.rof));
            }
            s
        }
        Order::OverwatchOff(u) => format!("OVERWATCH {u} OFF"),
        Order::Set(s) => match s {
            Setting::InterruptsAsk => "INTERRUPTS ASK",
            Setting::InterruptsNever => "INTERRUPTS NEVER",
            Setting::DeclarationsAsk => "DECLARATIONS ASK",
            Setting::DeclarationsSkip => "DECLARATIONS SKIP",
            Setting::ChooseFirst => "CHOOSE FIRST",
            Setting::ChooseSecond => "CHOOSE SECOND",
        }
        .into(),
        Order::CpDefend(u) => format!("CP DEFEND {u}"),
        Order::CpAboutFace { unit, by } => format!("CP ABOUTFACE {unit} {}", turn_text(by)),
        Order::Pass => "PASS".into(),
    }
}

/// The canonical text: one order per line, each ending in `\n`.
pub fn print(orders: &Orders) -> String {
    orders.iter().map(|o| print_order(o) + "\n").collect()
}

fn nearest(word: &str, cands: &[String]) -> Option<String> {
    let w = normalise(word);
    let best = cands
        .iter()
        .map(|c| (edit_distance(&w, &normalise(c)), c))
        .min_by_key(|x| x.0)?;
    (best.0 <= (w.chars().count() / 2).max(2)).then(|| format!("did you mean {}?", best.1))
}

/// Blocks grouped from a parsed email: (ACTIVATE line index, block).
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

struct Parser<'a> {
    state: &'a GkState,
    seat: &'a str,
}

type LineResult<T> = Result<T, (String, Option<String>)>;

fn bad<T>(reason: impl Into<String>, hint: Option<String>) -> LineResult<T> {
    Err((reason.into(), hint))
}

impl Parser<'_> {
    fn unit_names(&self, own: bool) -> Vec<String> {
        self.state
            .units
            .iter()
            .filter(|u| (u.side == self.seat) == own && u.alive())
            .map(|u| u.name.clone())
            .collect()
    }

    fn own(&self, word: Option<&str>) -> LineResult<String> {
        let Some(w) = word else {
            return bad(
                "a unit name is missing",
                Some(self.unit_names(true).join(", ")),
            );
        };
        let n = normalise(w);
        match self.state.units.iter().find(|u| normalise(&u.name) == n) {
            Some(u) if u.side != self.seat => bad(format!("{} is not yours", u.name), None),
            Some(u) if !u.alive() => bad(format!("{} has been destroyed", u.name), None),
            Some(u) => Ok(u.name.clone()),
            None => bad(
                format!("no unit of yours is called `{w}`"),
                nearest(w, &self.unit_names(true)),
            ),
        }
    }

    fn enemy(&self, word: Option<&str>) -> LineResult<String> {
        let Some(w) = word else {
            return bad(
                "a target is missing",
                Some(self.unit_names(false).join(", ")),
            );
        };
        let n = normalise(w);
        match self.state.units.iter().find(|u| normalise(&u.name) == n) {
            Some(u) if u.side == self.seat => bad(format!("{} is on your side", u.name), None),
            Some(u) => Ok(u.name.clone()),
            None => bad(
                format!("no enemy unit is called `{w}`"),
                nearest(w, &self.unit_names(false)),
            ),
        }
    }

    fn weapon_key(&self, unit: &str, word: Option<&str>) -> LineResult<String> {
        let u = self.state.unit(unit).expect("resolved name");
        let keys: Vec<String> = stats::weapons(&self.state.data, u)
            .iter()
            .map(|w| w.key.clone())
            .collect();
        let Some(w) = word else {
            return bad("a weapon is missing", Some(keys.join(", ")));
        };
        match keys.iter().find(|k| k.eq_ignore_ascii_case(w)) {
            Some(k) => Ok(k.clone()),
            None => bad(
                format!("{unit} has no weapon `{w}` (it has {})", keys.join(", ")),
                nearest(w, &keys),
            ),
        }
    }
}

fn number(word: Option<&str>, what: &str) -> LineResult<f64> {
    let Some(w) = word else {
        return bad(format!("{what} is missing"), None);
    };
    match w.parse::<f64>() {
        Ok(v) if (0.0..=10_000.0).contains(&v) => Ok(v),
        _ => bad(format!("`{w}` is not a number of {what}"), None),
    }
}

fn count(word: Option<&str>, what: &str) -> LineResult<u32> {
    let Some(w) = word else {
        return bad(format!("{what} is missing"), None);
    };
    match w.parse::<u32>() {
        Ok(v) if v <= 64 => Ok(v),
        _ => bad(format!("`{w}` is not a whole number of {what}"), None),
    }
}

fn point(word: Option<&str>) -> LineResult<Pt> {
    let Some(w) = word else {
        return bad("a point x,y is missing", Some("e.g. TO 12.5,20".into()));
    };
    let mut it = w.split(',');
    let (Some(x), Some(y), None) = (it.next(), it.next(), it.next()) else {
        return bad(
            format!("`{w}` is not a point x,y"),
            Some("e.g. 12.5,20".into()),
        );
    };
    match (x.trim().parse::<f64>(), y.trim().parse::<f64>()) {
        (Ok(x), Ok(y)) if x.is_finite() && y.is_finite() => Ok(Pt::new(x, y)),
        _ => bad(
            format!("`{w}` is not a point x,y"),
            Some("e.g. 12.5,20".into()),
        ),
    }
}

fn turn_by(words: &[&str]) -> LineResult<TurnBy> {
    let dir = words.first().map(|w| w.to_ascii_uppercase());
    let v = number(words.get(1).copied(), "degrees")?;
    match dir.as_deref() {
        Some("LEFT" | "L") if v <= 360.0 => Ok(TurnBy::Left(v)),
        Some("RIGHT" | "R") if v <= 360.0 => Ok(TurnBy::Right(v)),
        Some("TO") => Ok(TurnBy::To(v % 360.0)),
        _ => bad(
            "a turn is LEFT n, RIGHT n (degrees) or TO a compass heading",
            Some("e.g. TURN RIGHT 60 or TURN TO 90".into()),
        ),
    }
}

/// Splits `... ROF n` off the end.
fn split_rof<'a>(words: &'a [&'a str]) -> LineResult<(&'a [&'a str], u32)> {
    let n = words.len();
    if n >= 2 && words[n - 2].eq_ignore_ascii_case("ROF") {
        Ok((&words[..n - 2], count(Some(words[n - 1]), "ROF points")?))
    } else {
        Ok((words, 0))
    }
}

impl Parser<'_> {
    fn fire(&self, unit: &str, words: &[&str]) -> LineResult<Fire> {
        let (words, rof) = split_rof(words)?;
        let weapon = self.weapon_key(unit, words.first().copied())?;
        let how = words.get(1).map(|w| w.to_ascii_uppercase());
        let mode = match how.as_deref() {
            Some("AT") if words.len() == 3 => FireMode::At(self.enemy(words.get(2).copied())?),
            Some("WALK") if words.len() >= 3 => FireMode::Walk(
                words[2..]
                    .iter()
                    .map(|w| self.enemy(Some(w)))
                    .collect::<LineResult<Vec<_>>>()?,
            ),
            Some("SATURATE") if words.len() == 3 => {
                FireMode::Saturate(point(words.get(2).copied())?)
            }
            _ => {
                return bad(
                    "FIRE needs AT target, WALK targets… or SATURATE x,y",
                    Some(format!("e.g. FIRE {weapon} AT <enemy unit> ROF 1")),
                );
            }
        };
        Ok(Fire { weapon, mode, rof })
    }

    fn act(&self, unit: Option<&str>, kw: &str, rest: &[&str]) -> LineResult<Act> {
        let Some(unit) = unit else {
            return bad(
                format!("{kw} must follow an ACTIVATE line"),
                Some("start with ACTIVATE <your unit>".into()),
            );
        };
        let one = |a: Act| -> LineResult<Act> {
            if rest.is_empty() {
                Ok(a)
            } else {
                bad(format!("{kw} takes nothing more"), None)
            }
        };
        match kw {
            "MOVE" if rest.len() == 1 => Ok(Act::Move(number(rest.first().copied(), "cm")?)),
            "REVERSE" if rest.len() == 1 => Ok(Act::Reverse(number(rest.first().copied(), "cm")?)),
            "TURN" if rest.len() == 2 => Ok(Act::Turn(turn_by(rest)?)),
            "TO" if rest.len() == 1 => Ok(Act::To(point(rest.first().copied())?)),
            "MODE" if rest.len() == 1 => match rest[0].to_ascii_uppercase().as_str() {
                "WALKER" | "WALK" => Ok(Act::Mode(MoveMode::Walker)),
                "GROUND" => Ok(Act::Mode(MoveMode::Ground)),
                _ => bad("MODE is WALKER or GROUND", None),
            },
            "SPEED" if rest.len() == 1 => match rest[0].to_ascii_uppercase().as_str() {
                "TOP" => Ok(Act::Speed(Shift::Top)),
                "COMBAT" => Ok(Act::Speed(Shift::Combat)),
                _ => bad("after moving, SPEED is TOP or COMBAT", None),
            },
            "FIRE" => Ok(Act::Fire(self.fire(unit, rest)?)),
            "PUNCH" | "KICK" | "RAM" | "ASSAULT" if rest.len() == 1 => {
                let t = self.enemy(rest.first().copied())?;
                let m = match kw {
                    "PUNCH" => Melee::Punch,
                    "KICK" => Melee::Kick,
                    "RAM" => Melee::Ram,
                    _ => Melee::Assault,
                };
                Ok(Act::Melee(m, t))
            }
            "RALLY" => one(Act::Rally),
            "HOLD" => one(Act::Hold),
            _ => bad(format!("{kw}: wrong number of words"), Some(example(kw))),
        }
    }

    fn overwatch(&self, rest: &[&str]) -> LineResult<Order> {
        let unit = self.own(rest.first().copied())?;
        if rest.len() == 2 && rest[1].eq_ignore_ascii_case("OFF") {
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
        let mut i = 1;
        while i < rest.len() {
            let key = rest[i].to_ascii_uppercase();
            let val = rest.get(i + 1).copied();
            match key.as_str() {
                "WITH" => ow.weapon = Some(self.weapon_key(&unit, val)?),
                "AT" => {
                    ow.filter = match val.map(str::to_ascii_uppercase).as_deref() {
                        Some("ANY") => Filter::Any,
                        Some("VEHICLES") => Filter::Vehicles,
                        Some("INFANTRY") => Filter::Infantry,
                        _ => Filter::Unit(self.enemy(val)?),
                    }
                }
                "WITHIN" => ow.within = Some(number(val, "cm")?),
                "ACTIONS" => ow.actions = count(val, "actions")?,
                "ROF" => ow.rof = count(val, "ROF points")?,
                _ => {
                    return bad(
                        format!("OVERWATCH does not know `{}`", rest[i]),
                        Some(example("OVERWATCH")),
                    );
                }
            }
            i += 2;
        }
        if ow.actions == 0 {
            return bad("ACTIONS 0 fires nothing; use OVERWATCH unit OFF", None);
        }
        if let Some(k) = &ow.weapon {
            let u = self.state.unit(&unit).expect("resolved");
            let w = stats::weapon(&self.state.data, u, k).expect("resolved");
            let max = stats::rof(&self.state.data, u, w);
            if ow.rof > max {
                return bad(format!("the {k} has ROF {max}"), None);
            }
        }
        Ok(Order::Overwatch(ow))
    }
}

fn example(kw: &str) -> String {
    match kw {
        "MOVE" => "e.g. MOVE 2.5",
        "REVERSE" => "e.g. REVERSE 1",
        "TURN" => "e.g. TURN LEFT 60 or TURN TO 270",
        "TO" => "e.g. TO 14,22",
        "MODE" => "e.g. MODE GROUND",
        "SPEED" => "e.g. SPEED General-1 COMBAT (Step 1 of round 1) or SPEED TOP (after moving)",
        "PUNCH" | "KICK" | "RAM" | "ASSAULT" => "e.g. PUNCH Valkurie-1",
        "OVERWATCH" => "e.g. OVERWATCH General-1 WITH Cannon AT VEHICLES WITHIN 16 ACTIONS 1",
        "EXTRA" => "e.g. EXTRA General-1 1",
        "INTERRUPT" => "e.g. INTERRUPT Valkurie-2 FIRE KwK ROF 1",
        "CP" => "e.g. CP EXTRA, CP DEFEND General-1, CP ABOUTFACE General-1 RIGHT 180",
        _ => "see the order reference (send HELP)",
    }
    .to_string()
}

/// What the seat is asked now.
#[derive(Clone, Copy, PartialEq)]
enum Role {
    Declare,
    /// Its turn to activate a unit.
    Active,
    /// The enemy's activation (may queue blocks and change standing orders).
    Waiting,
    /// Asked "interrupt now?".
    Interrupt,
    Over,
}

fn role(state: &GkState, seat: &str) -> Role {
    match &state.phase {
        Phase::Declare => Role::Declare,
        Phase::Activate { side } if side == seat => Role::Active,
        Phase::Activate { .. } => Role::Waiting,
        Phase::Interrupt { side, .. } if side == seat => Role::Interrupt,
        Phase::Interrupt { .. } => Role::Waiting,
        Phase::GameOver => Role::Over,
    }
}

/// Parses one seat's email for the current step. Every bad line is reported.
pub fn parse(state: &GkState, seat: &str, text: &str) -> Result<Orders, Vec<Rejected>> {
    let p = Parser { state, seat };
    let role = role(state, seat);
    let mut out: Orders = Vec::new();
    let mut lines_of: Vec<(usize, String)> = Vec::new();
    let mut errors: Vec<Rejected> = Vec::new();
    let mut current: Option<String> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let kw = words[0].to_ascii_uppercase();
        if kw == "END" {
            break;
        }
        let rest = &words[1..];
        let r: LineResult<Order> = (|| {
            if role == Role::Over {
                return bad("the battle is over", None);
            }
            match kw.as_str() {
                "SPEED" if rest.len() == 2 => {
                    if role != Role::Declare || state.round != 1 {
                        return bad(
                            "initial speeds are declared in Step 1 of round 1 only",
                            Some("after moving, write SPEED TOP or SPEED COMBAT inside the activation".into()),
                        );
                    }
                    let unit = p.own(rest.first().copied())?;
                    let speed = match rest[1].to_ascii_uppercase().as_str() {
                        "STATIONARY" => InitialSpeed::Stationary,
                        "COMBAT" => InitialSpeed::Combat,
                        "TOP" => InitialSpeed::Top,
                        _ => return bad("initial speed is STATIONARY, COMBAT or TOP", None),
                    };
                    if speed == InitialSpeed::Top
                        && state.unit(&unit).is_some_and(|u| u.is_infantry())
                    {
                        return bad("infantry have no Top Speed", None);
                    }
                    Ok(Order::Speed { unit, speed })
                }
                "EXTRA" | "DEFEND" => {
                    if role != Role::Declare {
                        return bad(format!("{kw} is declared in Step 1 only"), None);
                    }
                    let unit = p.own(rest.first().copied())?;
                    if kw == "EXTRA" {
                        let n = if rest.len() > 1 {
                            count(rest.get(1).copied(), "actions")?
                        } else {
                            1
                        };
                        if rest.len() > 2 || n == 0 || n > 3 {
                            return bad("EXTRA unit [1-3]", Some(example("EXTRA")));
                        }
                        Ok(Order::Extra { unit, n })
                    } else {
                        if rest.len() > 1 {
                            return bad("DEFEND takes one unit", None);
                        }
                        Ok(Order::Defend(unit))
                    }
                }
                "ACTIVATE" => {
                    if role == Role::Declare {
                        return bad(
                            "activations come after Step 1; this email is for declarations",
                            Some("EXTRA unit n, DEFEND unit, or PASS".into()),
                        );
                    }
                    let unit = p.own(rest.first().copied())?;
                    let cp = match rest.get(1).map(|w| w.to_ascii_uppercase()) {
                        None => false,
                        Some(w) if w == "CP" && rest.len() == 2 => true,
                        _ => return bad("ACTIVATE unit [CP]", None),
                    };
                    if state.unit(&unit).is_some_and(|u| u.activated) {
                        return bad(
                            format!("{unit} has already been activated this round"),
                            None,
                        );
                    }
                    current = Some(unit.clone());
                    Ok(Order::Activate { unit, cp })
                }
                "CP" => {
                    let what = rest.first().map(|w| w.to_ascii_uppercase());
                    match what.as_deref() {
                        Some("EXTRA") if rest.len() == 1 => {
                            p.act(current.as_deref(), "HOLD", &[])?;
                            Ok(Order::Act(Act::CpExtra))
                        }
                        Some("DEFEND") if rest.len() == 2 => {
                            Ok(Order::CpDefend(p.own(rest.get(1).copied())?))
                        }
                        Some("ABOUTFACE") if rest.len() == 4 => {
                            if role == Role::Declare {
                                return bad("no Command Points before the initiative roll", None);
                            }
                            let unit = p.own(rest.get(1).copied())?;
                            Ok(Order::CpAboutFace {
                                unit,
                                by: turn_by(&rest[2..])?,
                            })
                        }
                        _ => bad(
                            "CP EXTRA, CP DEFEND unit or CP ABOUTFACE unit LEFT|RIGHT n",
                            Some(example("CP")),
                        ),
                    }
                }
                "INTERRUPT" => {
                    if role != Role::Interrupt {
                        return bad(
                            "nobody is asking you to interrupt now",
                            Some("use OVERWATCH for standing reactive fire".into()),
                        );
                    }
                    let unit = p.own(rest.first().copied())?;
                    if state
                        .unit(&unit)
                        .is_some_and(|u| u.defensive || u.actions_left() == 0)
                    {
                        return bad(format!("{unit} has no Action left to interrupt with"), None);
                    }
                    if !rest.get(1).is_some_and(|w| w.eq_ignore_ascii_case("FIRE")) {
                        return bad(
                            "INTERRUPT unit FIRE weapon [ROF n]",
                            Some(example("INTERRUPT")),
                        );
                    }
                    let (words, rof) = split_rof(&rest[2..])?;
                    if words.len() != 1 {
                        return bad(
                            "INTERRUPT unit FIRE weapon [ROF n]",
                            Some(example("INTERRUPT")),
                        );
                    }
                    let weapon = p.weapon_key(&unit, words.first().copied())?;
                    let Phase::Interrupt { mover, .. } = &state.phase else {
                        unreachable!()
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
                "NO" if rest.len() == 1 && rest[0].eq_ignore_ascii_case("INTERRUPT") => {
                    if role != Role::Interrupt {
                        return bad("nobody is asking you to interrupt now", None);
                    }
                    Ok(Order::NoInterrupt)
                }
                "OVERWATCH" => p.overwatch(rest),
                "INTERRUPTS" | "DECLARATIONS" | "CHOOSE" if rest.len() == 1 => {
                    let v = rest[0].to_ascii_uppercase();
                    let s = match (kw.as_str(), v.as_str()) {
                        ("INTERRUPTS", "ASK") => Setting::InterruptsAsk,
                        ("INTERRUPTS", "NEVER") => Setting::InterruptsNever,
                        ("DECLARATIONS", "ASK") => Setting::DeclarationsAsk,
                        ("DECLARATIONS", "SKIP") => Setting::DeclarationsSkip,
                        ("CHOOSE", "FIRST") => Setting::ChooseFirst,
                        ("CHOOSE", "SECOND") => Setting::ChooseSecond,
                        _ => {
                            return bad(
                                format!(
                                    "{kw} is followed by {}",
                                    match kw.as_str() {
                                        "INTERRUPTS" => "ASK or NEVER",
                                        "DECLARATIONS" => "ASK or SKIP",
                                        _ => "FIRST or SECOND",
                                    }
                                ),
                                None,
                            );
                        }
                    };
                    Ok(Order::Set(s))
                }
                "PASS" if rest.is_empty() => Ok(Order::Pass),
                "MOVE" | "REVERSE" | "TURN" | "TO" | "MODE" | "SPEED" | "FIRE" | "PUNCH"
                | "KICK" | "RAM" | "ASSAULT" | "RALLY" | "HOLD" => {
                    Ok(Order::Act(p.act(current.as_deref(), &kw, rest)?))
                }
                _ => {
                    let cands: Vec<String> = KEYWORDS.iter().map(|s| s.to_string()).collect();
                    bad(
                        format!("`{}` is not an order", words[0]),
                        nearest(words[0], &cands)
                            .or_else(|| Some("send HELP for the order reference".into())),
                    )
                }
            }
        })();
        match r {
            Ok(o) => {
                lines_of.push((i + 1, raw.to_string()));
                out.push(o);
            }
            Err((reason, hint)) => errors.push(Rejected {
                line: i + 1,
                text: raw.to_string(),
                reason,
                hint,
            }),
        }
    }
    if errors.is_empty() {
        errors.extend(check(state, seat, role, &out, &lines_of));
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// Whole-email checks: the activation's legality (simulated without dice), duplicates, roles.
fn check(
    state: &GkState,
    seat: &str,
    role: Role,
    orders: &Orders,
    lines: &[(usize, String)],
) -> Vec<Rejected> {
    let mut errs = Vec::new();
    let rej = |i: usize, reason: String, hint: Option<String>| Rejected {
        line: lines.get(i).map_or(0, |l| l.0),
        text: lines.get(i).map_or(String::new(), |l| l.1.clone()),
        reason,
        hint,
    };
    // Index of each ACTIVATE line and of each act within its block.
    let mut starts: Vec<usize> = Vec::new();
    let mut act_line: Vec<Vec<usize>> = Vec::new();
    for (i, o) in orders.iter().enumerate() {
        match o {
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
    let bs = blocks(orders);
    // Declarations: one per unit; DEFEND is illegal at Top Speed.
    let mut seen = std::collections::BTreeSet::new();
    for (i, o) in orders.iter().enumerate() {
        let key = match o {
            Order::Extra { unit, .. } | Order::Defend(unit) => {
                if let Order::Defend(u) = o
                    && state.unit(u).is_some_and(|x| x.top)
                {
                    errs.push(rej(
                        i,
                        format!("{u} is at Top Speed: no Defensive Maneuvers"),
                        None,
                    ));
                }
                Some(format!("d{unit}"))
            }
            Order::Speed { unit, .. } => Some(format!("s{unit}")),
            _ => None,
        };
        if let Some(k) = key
            && !seen.insert(k)
        {
            errs.push(rej(
                i,
                "a second declaration for the same unit".into(),
                None,
            ));
        }
    }
    let mut units = std::collections::BTreeSet::new();
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
    if role == Role::Active
        && normal == 0
        && state
            .side(seat)
            .is_none_or(|s| valid_queued(state, s).is_none())
    {
        errs.push(Rejected {
            line: 0,
            text: String::new(),
            reason: "it is your turn: activate one unit (ACTIVATE unit, then its orders)".into(),
            hint: Some(format!(
                "units not yet activated: {}",
                state
                    .unactivated(seat)
                    .iter()
                    .map(|u| u.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        });
    }
    if role == Role::Active && bs.iter().filter(|b| b.cp).count() > 1 {
        errs.push(rej(
            0,
            "at most one out-of-sequence activation per email".into(),
            None,
        ));
    }
    errs
}

/// The first queued block that is still legal, if any (it stands in for the seat's orders).
pub fn valid_queued(state: &GkState, side: &super::state::Side) -> Option<Block> {
    let b = side.queued.first()?;
    let u = state.unit(&b.unit)?;
    if !u.alive() || u.activated || u.side != side.id {
        return None;
    }
    activation::check_block(state, b, true)
        .is_empty()
        .then(|| b.clone())
}
