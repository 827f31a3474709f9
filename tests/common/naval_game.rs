//! The naval golden tests' game harness: a two-fleet scenario written as TOML (Japan against
//! Russia), set-up and steps resolved through the public `Ruleset` API with fixed dice, and
//! assertions on the log, positions and refusals. Pure: no mail, no disk.
#![allow(dead_code)]

use std::collections::BTreeMap;

use despatch::dice::{Dice, Faces, roll_stream};
use despatch::engine::{Ruleset, Silence, Submitted};
use despatch::rulesets::naval_rjw::NavalRjw;
use despatch::rulesets::naval_rjw::command::order_cost;
use despatch::rulesets::naval_rjw::state::{Fate, NavalState, Order, Phase};

use super::naval::*;

/// Japan (flagship Mikasa, second Asahi, withdraws to 270) against Russia (Tsesarevich,
/// Retvizan, withdraws to 90). `*_side` lines go into the side's own table (leadership, coal…).
pub struct Sc<'a> {
    pub first: &'a str,
    pub max_turns: u32,
    pub extra: &'a str,
    pub japan_side: &'a str,
    pub japan: String,
    pub russia_side: &'a str,
    pub russia: String,
}

impl Sc<'_> {
    pub fn text(&self) -> String {
        format!(
            r#"
name = "Orders golden"
date = "1904"
description = "test"
width = 72
height = 48
max_turns = {}
first = "{}"
{}

[[sides]]
id = "japan"
name = "Japan"
capital_gunnery_bonus = 1
withdrawal_heading = 270
flagship = "Mikasa"
second = "Asahi"
{}
{}

[[sides]]
id = "russia"
name = "Russia"
withdrawal_heading = 90
flagship = "Tsesarevich"
second = "Retvizan"
{}
{}
"#,
            self.max_turns,
            self.first,
            self.extra,
            self.japan_side,
            self.japan,
            self.russia_side,
            self.russia
        )
    }
}

pub fn sc(japan: String, russia: String) -> Sc<'static> {
    Sc {
        first: "japan",
        max_turns: 20,
        extra: "",
        japan_side: "",
        japan,
        russia_side: "",
        russia,
    }
}

pub fn silence() -> BTreeMap<String, Submitted<Vec<Order>>> {
    seats()
        .into_iter()
        .map(|s| (s, Submitted::Nmr(Silence::Pass)))
        .collect()
}

/// Set-up resolved with silence (dice `seed`); returns the state and the dice labels.
pub fn set_up(scenario: &Sc, seed: u8) -> (NavalState, Dice) {
    let st = NavalRjw::setup(RULESET, &scenario.text(), &seats()).expect("setup");
    let mut dice = Dice::new([seed; 32]);
    let st = NavalRjw::resolve(&st, &silence(), &mut dice);
    assert_eq!(st.phase, Phase::Manoeuvre);
    (st, dice)
}

/// Set-up done; the first side manoeuvres with `cp` CP.
pub fn begin(scenario: &Sc, cp: i32) -> NavalState {
    let (mut st, _) = set_up(scenario, 1);
    assert_eq!(st.active, scenario.first);
    st.cp_rolled = cp;
    st.cp_left = cp;
    st
}

pub fn labels(dice: &Dice) -> Vec<String> {
    dice.table().iter().map(|r| r.label.clone()).collect()
}

/// `seat` sends `text` (the only email this step); resolved with dice `[seed; 32]`.
pub fn send(st: &NavalState, seat: &str, text: &str, seed: u8) -> (NavalState, Dice) {
    send_all(st, &[(seat, text)], seed)
}

pub fn send_all(st: &NavalState, emails: &[(&str, &str)], seed: u8) -> (NavalState, Dice) {
    send_seeded(st, emails, [seed; 32])
}

/// `send_all` with a whole 32-byte dice seed (see `seed_where`). Seats that send nothing are
/// left out, as the engine leaves them out when they owe nothing: standing orders then apply.
pub fn send_seeded(st: &NavalState, emails: &[(&str, &str)], seed: [u8; 32]) -> (NavalState, Dice) {
    let mut subs = BTreeMap::new();
    for (seat, text) in emails {
        let o = NavalRjw::parse(st, seat, text)
            .unwrap_or_else(|e| panic!("{seat}: {text:?} rejected: {e:#?}"));
        subs.insert(seat.to_string(), Submitted::Orders(o));
    }
    let mut dice = Dice::new(seed);
    let next = NavalRjw::resolve(st, &subs, &mut dice);
    (next, dice)
}

/// The first seed, counting up, that `pred` accepts: a test states the dice it needs (with
/// `roll_stream`) instead of naming a magic seed.
pub fn seed_where(pred: impl Fn(&[u8; 32]) -> bool) -> [u8; 32] {
    (0u64..)
        .map(|n| {
            let mut s = [0u8; 32];
            s[..8].copy_from_slice(&n.to_be_bytes());
            s
        })
        .find(|s| pred(s))
        .expect("some seed rolls these dice")
}

/// What d6 roll request `j` of `seed` shows (`count` dice).
pub fn d6(seed: &[u8; 32], j: u64, count: usize) -> Vec<u32> {
    roll_stream(seed, j, &Faces::d(6), count)
}

/// What the roll labelled `label` showed.
pub fn rolled(dice: &Dice, label: &str) -> Vec<u32> {
    dice.table()
        .iter()
        .find(|r| r.label == label)
        .unwrap_or_else(|| panic!("no roll {label:?} in {:?}", labels(dice)))
        .results
        .clone()
}

/// The gunnery log line a ruling calls for: `who` (the firer, or `X's secondary battery`) of
/// `firer` attacks `target` at `at` (`12"`, or `25", extreme range`) with these CFs and
/// modifiers; the totals and hits come from the two dice that attack rolled.
#[allow(clippy::too_many_arguments)]
pub fn attack_line(
    dice: &Dice,
    who: &str,
    firer: &str,
    target: &str,
    att_cf: i32,
    def_cf: i32,
    mods: &[(&str, i32)],
    at: &str,
) -> String {
    let a = rolled(dice, &format!("gunnery {firer}->{target} attacker"))[0] as i32;
    let d = rolled(dice, &format!("gunnery {firer}->{target} defender"))[0] as i32;
    let m: i32 = mods.iter().map(|(_, v)| v).sum();
    let (att, def) = (a + att_cf + m, d + def_cf);
    let sum = match m {
        0 => format!("{a}+{att_cf}={att}"),
        m if m > 0 => format!("{a}+{att_cf}+{m}={att}"),
        m => format!("{a}+{att_cf}{m}={att}"),
    };
    let result = match (att - def).max(0) {
        0 => "no hits".to_string(),
        1 => "1 hit".to_string(),
        n => format!("{n} hits"),
    };
    let detail = if mods.is_empty() {
        String::new()
    } else {
        let parts: Vec<String> = mods.iter().map(|(l, v)| format!("{l} {v:+}")).collect();
        format!(" [{}]", parts.join(", "))
    };
    format!("{who} ({sum}) fires on {target} ({d}+{def_cf}={def}) at {at}: {result}.{detail}")
}

/// The gunnery rolls of a step, in order (critical and CP rolls left out).
pub fn gunnery_labels(dice: &Dice) -> Vec<String> {
    labels(dice)
        .into_iter()
        .filter(|l| l.starts_with("gunnery "))
        .collect()
}

/// Japan's manoeuvre in which every afloat Japanese ship that may be halted is halted (a line
/// astern or a flotilla by its lead), so a fire test's geometry is the scenario's; CP are topped up.
pub fn all_halted(st: &NavalState) -> NavalState {
    let followers: Vec<&String> = st
        .groups
        .iter()
        .filter(|g| g.side == "japan")
        .flat_map(|g| g.ships.iter().skip(1))
        .collect();
    let text: String = st
        .ships
        .iter()
        .filter(|s| s.side == "japan" && s.hit_markers == 0 && !s.anchored)
        .filter(|s| s.fate == Fate::Afloat)
        .filter(|s| !followers.contains(&&s.name))
        .map(|s| format!("HALT {}\n", s.name))
        .collect();
    let mut st = st.clone();
    st.cp_rolled = 40;
    st.cp_left = 40;
    let (st, _) = send(&st, "japan", &text, 1);
    assert_eq!(st.phase, Phase::Fire);
    st
}

/// A fire step in which neither side fires.
pub fn quiet_fire(st: &NavalState, seed: u8) -> (NavalState, Dice) {
    assert_eq!(st.phase, Phase::Fire);
    let mut dice = Dice::new([seed; 32]);
    let next = NavalRjw::resolve(st, &silence(), &mut dice);
    (next, dice)
}

/// From Japan's fire step to Japan's next manoeuvre with `cp` CP: nobody fires, Russia sends
/// no orders (compulsory moves only).
pub fn next_japan_turn(st: &NavalState, cp: i32) -> NavalState {
    let (st, _) = quiet_fire(st, 2);
    assert_eq!(
        (st.active.as_str(), &st.phase),
        ("russia", &Phase::Manoeuvre)
    );
    let st = NavalRjw::resolve(&st, &silence(), &mut Dice::new([3; 32]));
    let (mut st, _) = quiet_fire(&st, 4);
    assert_eq!(
        (st.active.as_str(), &st.phase),
        ("japan", &Phase::Manoeuvre)
    );
    st.cp_rolled = cp;
    st.cp_left = cp;
    st
}

pub fn at(st: &NavalState, name: &str, x: f64, y: f64, heading: f64) {
    let h = find(st, name).hull;
    assert!(
        near(h.centre.x, x) && near(h.centre.y, y) && near(h.heading.rem_euclid(360.0), heading),
        "{name} is at {},{} heading {}, expected {x},{y} heading {heading}\n{}",
        h.centre.x,
        h.centre.y,
        h.heading,
        log_text(st)
    );
}

pub fn log_text(st: &NavalState) -> String {
    st.log
        .iter()
        .map(|l| l.text.as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The log has exactly this line.
pub fn logged(st: &NavalState, line: &str) {
    assert!(
        st.log.iter().any(|l| l.text == line),
        "missing log line {line:?} in:\n{}",
        log_text(st)
    );
}

/// Parses and expects exactly one rejection at `line` whose reason contains `why`.
pub fn rejected(st: &NavalState, seat: &str, text: &str, line: usize, why: &str) {
    let err = NavalRjw::parse(st, seat, text).expect_err(text);
    assert_eq!(err.len(), 1, "{err:#?}");
    assert_eq!(err[0].line, line, "{err:#?}");
    assert!(
        err[0].reason.contains(why),
        "{:?} lacks {why:?}",
        err[0].reason
    );
}

pub fn cost(st: &NavalState, text: &str) -> i32 {
    let o = NavalRjw::parse(st, "japan", text).unwrap_or_else(|e| panic!("{e:#?}"));
    o.iter().map(|x| order_cost(st, "japan", x)).sum()
}
