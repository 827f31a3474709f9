//! Shared harness of the La Bataille golden and ruling tests: a game on a scenario or a test
//! field, played from mails in the players' own order syntax with dice chosen in advance (a
//! `Scripted` roller that also records every die's label), and the small fields the tests use.
#![allow(dead_code)]

use std::collections::BTreeMap;

use despatch::engine::{Ruleset, SeatId, Submitted};
use despatch::rulesets::kit::roster::Roster;
use despatch::rulesets::la_bataille::LaBataille;
use despatch::rulesets::la_bataille::orders;
use despatch::rulesets::la_bataille::procedure;
use despatch::rulesets::la_bataille::roll::Scripted;
use despatch::rulesets::la_bataille::state::{LbState, Orders, Phase};

pub const RULESET: &str = include_str!("../../games/la-bataille/ruleset.toml");

pub fn seats() -> Vec<String> {
    vec!["france".into(), "allies".into()]
}

/// A game on a scenario, played by mails with scripted dice.
pub struct Table {
    pub st: LbState,
    /// Every log line so far.
    pub log: Vec<String>,
    /// Every die's label so far.
    pub labels: Vec<String>,
}

impl Table {
    pub fn new(scenario: &str) -> Self {
        Table {
            st: LaBataille::setup(RULESET, scenario, &seats()).expect("setup"),
            log: vec![],
            labels: vec![],
        }
    }

    /// Mails from the seats (`(seat, text)`), then resolves with these dice; every die must
    /// be used. Returns this resolution's log.
    pub fn play(&mut self, mails: &[(&str, &str)], dice: &[u32]) -> Vec<String> {
        self.run(mails, dice, true)
    }

    /// As `play`, for a test that checks only the first part of the resolution: the dice
    /// after `dice` are 1s, as many as it takes.
    pub fn play_on(&mut self, mails: &[(&str, &str)], dice: &[u32]) -> Vec<String> {
        let mut d = dice.to_vec();
        d.extend([1; 60]);
        self.run(mails, &d, false)
    }

    pub fn run(&mut self, mails: &[(&str, &str)], dice: &[u32], exact: bool) -> Vec<String> {
        let mut subs: BTreeMap<SeatId, Submitted<Orders>> = BTreeMap::new();
        for (seat, text) in mails {
            let o = orders::parse(&self.st, seat, text)
                .unwrap_or_else(|e| panic!("{seat}'s mail is refused: {e:?}"));
            let canon = LaBataille::canonical(&o);
            assert_eq!(
                orders::parse(&self.st, seat, &canon).as_ref(),
                Ok(&o),
                "canonical"
            );
            subs.insert(seat.to_string(), Submitted::Orders(o));
        }
        let mut r = Scripted::new(dice);
        procedure::resolve_with(&mut self.st, &subs, &mut r);
        let lines: Vec<String> = self.st.log.iter().map(|l| l.text.clone()).collect();
        for l in &lines {
            eprintln!("  | {l}");
        }
        assert!(
            !exact || r.faces.is_empty(),
            "dice left over: {:?}; rolled {:?}",
            r.faces,
            r.rolled
        );
        self.labels.extend(r.labels());
        self.log.extend(lines.clone());
        lines
    }

    pub fn asked(&self) -> Option<(String, String)> {
        match &self.st.phase {
            Phase::Question { question } => Some((question.seat.clone(), question.text.clone())),
            _ => None,
        }
    }

    pub fn unit(&self, n: &str) -> &despatch::rulesets::la_bataille::state::Unit {
        self.st.unit(n).unwrap_or_else(|| panic!("no unit {n}"))
    }
}

/// One counter of a test field: side, name, class, nation, hex, facing, formation,
/// increments, morale.
pub type Piece<'a> = (
    &'a str,
    &'a str,
    &'a str,
    &'a str,
    &'a str,
    &'a str,
    &'a str,
    u32,
    u32,
);

/// A clear 10×10 field with these counters and no leaders; `extra` is more scenario TOML
/// (terrain, ammunition) appended to the head.
pub fn field(pieces: &[Piece], extra: &str) -> String {
    let mut s = format!(
        "name = \"test field\"\nturns = 3\nfirst = \"france\"\n[map]\ncolumns = [1, 10]\nrows = [1, 10]\n{extra}\n"
    );
    for side in ["france", "allies"] {
        s.push_str(&format!(
            "[[sides]]\nid = \"{side}\"\nname = \"{}\"\n",
            if side == "france" { "French" } else { "Allies" }
        ));
        for p in pieces.iter().filter(|p| p.0 == side) {
            s.push_str(&format!(
                "[[sides.units]]\nname = \"{}\"\nclass = \"{}\"\nnation = \"{}\"\nhex = \"{}\"\nfacing = \"{}\"\nformation = \"{}\"\nincrements = {}\nmorale = {}\n",
                p.1, p.2, p.3, p.4, p.5, p.6, p.7, p.8
            ));
        }
    }
    s
}

/// A line-infantry battalion of morale 8 (French for `france`, Prussian for `allies`): the
/// counter most test fields are made of, in one line.
pub fn battalion<'a>(
    side: &'a str,
    name: &'a str,
    hex: &'a str,
    facing: &'a str,
    formation: &'a str,
    increments: u32,
) -> Piece<'a> {
    let nation = if side == "france" {
        "French"
    } else {
        "Prussian"
    };
    (
        side,
        name,
        "line_infantry",
        nation,
        hex,
        facing,
        formation,
        increments,
        8,
    )
}

/// A British line battalion of morale 8 on the Allied side: the nation that may Huzzah (R23).
pub fn british<'a>(name: &'a str, hex: &'a str, facing: &'a str, increments: u32) -> Piece<'a> {
    let (side, name, class, _, hex, facing, formation, increments, morale) =
        battalion("allies", name, hex, facing, "line", increments);
    (
        side, name, class, "British", hex, facing, formation, increments, morale,
    )
}

/// The Old Guard grenadiers of the Guard Charge tests: four increments in column at `hex`,
/// facing north, morale 10.
pub fn grenadiers(hex: &str) -> Piece<'_> {
    (
        "france",
        "Grenadiers",
        "old_guard",
        "French",
        hex,
        "N",
        "column",
        4,
        10,
    )
}

pub fn has(log: &[String], part: &str) -> bool {
    log.iter().any(|l| l.contains(part))
}

pub fn assert_has(log: &[String], part: &str) {
    assert!(
        has(log, part),
        "no log line contains `{part}`:\n{}",
        log.join("\n")
    );
}

/// A French column two hexes south of a British line, nobody else: the smallest assault.
pub fn duel(french_formation: &str, british_nation: &str) -> Table {
    Table::new(&field(
        &[
            (
                "france",
                "1/45e",
                "line_infantry",
                "French",
                "0507",
                "N",
                french_formation,
                4,
                8,
            ),
            (
                "allies",
                "28th-Foot",
                "line_infantry",
                british_nation,
                "0505",
                "S",
                "line",
                4,
                8,
            ),
        ],
        "",
    ))
}

/// The standing order that keeps opportunity fire out of a test's dice.
pub const QUIET: (&str, &str) = ("allies", "OPPORTUNITY FIRE OFF\n");

/// Two French columns against one line: the assault A1 of both.
pub fn two_on_one(nation: &str) -> Table {
    Table::new(&field(
        &[
            (
                "france",
                "A",
                "line_infantry",
                "French",
                "0506",
                "N",
                "column",
                4,
                8,
            ),
            (
                "france",
                "B",
                "line_infantry",
                "French",
                "0606",
                "NW",
                "column",
                4,
                8,
            ),
            (
                "allies",
                "28th-Foot",
                "line_infantry",
                nation,
                "0505",
                "S",
                "line",
                4,
                8,
            ),
        ],
        "",
    ))
}

/// Cuirassiers four hexes south of a line battalion.
pub fn charge_field(target_class: &str, target_formation: &str) -> Table {
    Table::new(&field(
        &[
            (
                "france",
                "Cuir",
                "heavy_cavalry",
                "French",
                "0509",
                "N",
                "line",
                3,
                9,
            ),
            (
                "allies",
                "Target",
                target_class,
                "Prussian",
                "0505",
                "S",
                target_formation,
                3,
                8,
            ),
        ],
        "",
    ))
}

pub const NO_SQUARE: (&str, &str) = (
    "allies",
    "OPPORTUNITY FIRE OFF\nSQUARE NEVER\nREACTION NEVER\n",
);

/// One French column against two Prussian lines, both in its front: an assault on two hexes.
pub fn one_on_two() -> Table {
    Table::new(&field(
        &[
            (
                "france",
                "A",
                "line_infantry",
                "French",
                "0506",
                "N",
                "column",
                4,
                8,
            ),
            (
                "allies",
                "28th",
                "line_infantry",
                "Prussian",
                "0505",
                "S",
                "line",
                4,
                8,
            ),
            (
                "allies",
                "29th",
                "line_infantry",
                "Prussian",
                "0606",
                "SW",
                "line",
                4,
                8,
            ),
        ],
        "",
    ))
}
