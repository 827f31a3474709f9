//! Last Hundred Yards: what the newcomer play-through of the teaching scenario found missing
//! from the mails — the move a call for Reaction answers, what a refused firer could fire at,
//! a key to the text board and its offset columns — each told without leaking what the reader may not know.

use crate::lhy;

use despatch::dice::Dice;
use despatch::engine::{Ruleset, Viewer};
use despatch::rulesets::kit::roster::Roster;
use despatch::rulesets::last_hundred_yards::LastHundredYards as Lhy;
use despatch::rulesets::last_hundred_yards::action;
use despatch::rulesets::last_hundred_yards::state::{Action, LhyState, Phase};
use lhy::hex;

fn moved(st: &LhyState, unit: &str, to: &str) -> LhyState {
    let mut st = st.clone();
    st.log.clear();
    let a = Action::Move {
        units: vec![unit.into()],
        path: vec![hex(&st, to)],
        reverse: false,
        deploy: false,
        overrun: None,
        stop: false,
        exit: false,
    };
    action::check(&st, "germany", &a, false).expect("a legal move");
    action::perform(&mut st, "germany", &a, &mut Dice::new(lhy::seed(1, 1)));
    st
}

/// A call for Reaction must say what the enemy did: a concealed squad moving is told to the
/// other side as a Concealment marker moving (no name), a unit it sees by name, a hidden one
/// not at all; its owner reads the names.
#[test]
fn a_maneuver_is_told_as_the_enemy_saw_it() {
    let mut st = lhy::game(lhy::PATROL);
    assert!(st.unit("G1-2").unwrap().concealed);
    // Both hexes are out of every US unit's sight where the mission sets them up, and a move
    // out of sight is not told at all (issue 28); A1-1 stands next to both, so it sees them,
    // disrupted, so it does not strip the marker's concealment (R10).
    let unseen = lhy::log(&moved(&st, "G1-2", "0604"), "us");
    assert!(!unseen.contains("moves"), "{unseen}");
    let (a, b) = (hex(&st, "0603"), hex(&st, "0604"));
    let next_to_both = st
        .map
        .grid()
        .neighbours(a)
        .into_iter()
        .find(|h| {
            *h != b && st.map.on_map(*h) && h.is_adjacent(b) && !st.on_map().any(|u| u.at == *h)
        })
        .expect("a free hex next to 0603 and 0604");
    st.unit_mut("A1-1").unwrap().at = next_to_both;
    st.unit_mut("A1-1").unwrap().status =
        despatch::rulesets::last_hundred_yards::state::Status::Disrupted;
    let st1 = moved(&st, "G1-2", "0604");
    let us = lhy::log(&st1, "us");
    assert!(
        us.contains("A Concealment marker moves from 0603 to 0604."),
        "{us}"
    );
    assert!(!us.contains("G1-2"), "{us}");
    assert!(lhy::log(&st1, "germany").contains("G1-2 moves from 0603 to 0604"));
    // Seen, it is named; hidden, nothing at all.
    let mut open = st.clone();
    open.unit_mut("G1-2").unwrap().concealed = false;
    assert!(
        lhy::log(&moved(&open, "G1-2", "0604"), "us").contains("G1-2 moves from 0603 to 0604.")
    );
    let mut hidden = st.clone();
    hidden.unit_mut("G1-2").unwrap().hidden = true;
    let us = lhy::log(&moved(&hidden, "G1-2", "0604"), "us");
    assert!(!us.contains("0603"), "a hidden unit's move shows: {us}");
}

/// A FIRE refused for want of LOS says what the unit could fire at: the hexes of enemy
/// counters its side knows of in its LOS and range (a US squad put next to the MG, then
/// the same squad hidden), never a hidden unit.
#[test]
fn a_refused_fire_names_what_the_unit_sees() {
    let st = lhy::game(lhy::PATROL);
    let mut st = lhy::step(&st, &[("us", "PASS"), ("germany", "PASS")], 1);
    st.turn.active = "germany".into();
    st.phase = Phase::Activate {
        side: "germany".into(),
    };
    let why = |st: &LhyState| match lhy::parse(st, "germany", "ACTIVATE G1PLT\nFIRE MG-42 AT 0810")
    {
        Ok(o) => panic!("accepted {o:?}"),
        Err(e) => e[0].reason.clone(),
    };
    let first = why(&st);
    assert!(first.contains("MG-42 has no LOS to 0810"), "{first}");
    // Put a US squad next to the MG (adjacent hexes always see each other): now it is offered.
    st.unit_mut("A1-3").unwrap().at = hex(&st, "0804");
    let second = why(&st);
    assert!(second.contains("in its LOS and range: 0804"), "{second}");
    // Hidden, it is not offered.
    st.unit_mut("A1-3").unwrap().hidden = true;
    let third = why(&st);
    assert!(!third.contains("0804"), "{third}");
}

/// The text board says what its letters and digits mean, naming only terrain on this map.
#[test]
fn the_text_board_has_a_key() {
    let st = lhy::game(lhy::PATROL);
    let v = Lhy::view(&st, &Viewer::Seat("us".into()));
    let key = v
        .board
        .iter()
        .find(|l| l.starts_with("Key: "))
        .expect("a key line");
    assert!(
        key.contains(". open") && key.contains("U urban road"),
        "{key}"
    );
    assert!(!key.contains("~ river"), "patrol has no river: {key}");
    assert!(v.board.iter().any(|l| l.starts_with("A digit: ")));
}

/// R18: asked by mail, a player answers for the units he names; the others keep their standing
/// reactions, even under a PASS (the play-through's MG-30 stayed silent before), and `HOLD
/// unit` stops one (the control).
#[test]
fn r18_units_a_reaction_mail_does_not_name_follow_their_standing_reactions() {
    let fired_by_mg = |answer: &str| {
        let st = lhy::game(lhy::PATROL);
        let mut st = lhy::step(
            &st,
            &[
                ("us", "PLACE A1-2 0910"),
                (
                    "germany",
                    "PLACE MG-42 0905\nPLACE G1-2 0805\nSTANDING MG-42 FIRE",
                ),
            ],
            1,
        );
        st.turn.active = "us".into();
        st.turn.holder = "us".into();
        st.phase = Phase::Activate { side: "us".into() };
        let st = lhy::step(&st, &[("us", "ACTIVATE 1PLT\nMOVE A1-2 TO 0909 0908")], 2);
        assert_eq!(
            st.phase,
            Phase::React {
                side: "germany".into()
            },
            "G1-2 is uncovered"
        );
        let st = lhy::step(&st, &[("germany", answer)], 3);
        // The fire as its owner reads it (the MG is concealed in 0905, or seen by name).
        let log = lhy::log(&st, "germany");
        log.contains("concealed in 0905 fires") || log.contains("MG-42 fires")
    };
    assert!(
        fired_by_mg("PASS"),
        "the MG's standing FIRE answers under a PASS"
    );
    assert!(fired_by_mg("FIRE G1-2 AT A1-2"), "and beside a named unit");
    assert!(!fired_by_mg("HOLD MG-42"), "HOLD stops it");
}

/// A call for Reaction names the actions the player's units saw (which unit, or "a concealed
/// unit", and where), so he knows what he answers; a concealed mover is never named.
#[test]
fn a_call_for_reaction_says_what_was_seen() {
    let st = lhy::game(lhy::PATROL);
    let mut st = lhy::step(
        &st,
        &[
            ("us", "PLACE A1-2 0910"),
            ("germany", "PLACE MG-42 0905\nPLACE G1-2 0805"),
        ],
        1,
    );
    st.turn.active = "us".into();
    st.turn.holder = "us".into();
    st.phase = Phase::Activate { side: "us".into() };
    let st = lhy::step(&st, &[("us", "ACTIVATE 1PLT\nMOVE A1-2 TO 0909 0908")], 2);
    let spec = Lhy::step(&st);
    let q = &spec
        .prompts
        .iter()
        .find(|p| p.seat == "germany")
        .unwrap()
        .question;
    assert!(
        q.contains("your units saw: ") && q.contains("moved to 0908"),
        "{q}"
    );
    let named = q.contains("A1-2 moved to 0908");
    assert_eq!(named, !st.unit("A1-2").unwrap().concealed, "{q}");
}

/// A hex written with three digits is answered with the four-digit form to write instead.
#[test]
fn a_short_hex_number_is_answered_with_the_four_digit_form() {
    let mut st = lhy::step(
        &lhy::game(lhy::PATROL),
        &[("us", "PASS"), ("germany", "PASS")],
        1,
    );
    st.turn.active = "us".into();
    st.phase = Phase::Activate { side: "us".into() };
    let why = match lhy::parse(&st, "us", "ACTIVATE 1PLT\nfire mg-30 at 604") {
        Ok(o) => panic!("accepted {o:?}"),
        Err(e) => e[0].reason.clone(),
    };
    assert!(
        why.contains("`604` is not a hex number") && why.contains("e.g. 0604"),
        "{why}"
    );
    lhy::parse(&st, "us", "ACTIVATE 1PLT\nHOLD MG-30").expect("the control parses");
}

/// The briefing tells each seat its set-up zone (rows) and its dummies, which PLACE and DUMMY
/// need; the two seats' zones differ.
#[test]
fn r20_the_briefing_names_the_set_up_zone() {
    let st = lhy::game(lhy::PATROL);
    let zone = |seat: &str| {
        format!("{:?}", Lhy::briefing(&st, seat))
            .split("Your set-up zone (PLACE, DUMMY): ")
            .nth(1)
            .and_then(|x| x.split('.').next())
            .map(str::to_string)
            .unwrap_or_else(|| panic!("no zone for {seat}"))
    };
    let (us, de) = (zone("us"), zone("germany"));
    assert!(us.starts_with("printed rows ") && us != de, "{us} / {de}");
    // The patrol allows one dummy a side, the bridgehead two: counted in good English.
    assert!(us.ends_with("; 1 dummy allowed"), "{us}");
    let bridgehead = lhy::game(lhy::BRIDGEHEAD);
    let text = format!("{:?}", Lhy::briefing(&bridgehead, "us"));
    assert!(text.contains("; 2 dummies allowed."), "{text}");
}

/// Issue 28 point 6: the text map shows adjacency. Under the column numbers a line marks each
/// `dn` column; the README's reading of it is checked against the grid on every hex of both
/// missions' maps: a hex in a `dn` column touches the next column's hexes of its own row and
/// the row below, one in an unmarked column those of its own row and the row above. Each row's
/// letters stand under their column numbers.
#[test]
fn the_text_map_marks_the_offset_columns() {
    for scenario in [lhy::PATROL, lhy::BRIDGEHEAD] {
        let st = lhy::game(scenario);
        let board = Lhy::view(&st, &Viewer::Spectator).board;
        let at = board
            .iter()
            .position(|l| l.starts_with("   01 02 "))
            .expect("a line of column numbers");
        let offsets = &board[at + 1];
        let (columns, rows) = (st.map.columns, st.map.rows);
        let cell = |line: &str, c: u16| -> String {
            let i = 3 + 3 * (c as usize - 1);
            line.get(i..(i + 2).min(line.len()))
                .unwrap_or("")
                .to_string()
        };
        let mut marked = 0;
        for c in 1..=columns {
            let dn = cell(offsets, c) == "dn";
            marked += usize::from(dn);
            assert_eq!(
                cell(&board[at], c),
                format!("{c:02}"),
                "column numbers: {}",
                board[at]
            );
            for r in 1..=rows {
                let h = hex(&st, &format!("{c:02}{r:02}"));
                let row = &board[at + 1 + r as usize];
                assert!(row.starts_with(&format!("{r:02} ")), "{row}");
                // Its terrain letter, or the count of the counters seen there.
                let got = cell(row, c);
                let got = got.trim_end();
                assert!(
                    got == st.map.ground(h).letter().to_string()
                        || (got.len() == 1 && got.chars().all(|x| x.is_ascii_digit())),
                    "hex {c:02}{r:02} in {row:?}"
                );
                if c == columns {
                    continue;
                }
                let next = |r: u16| hex(&st, &format!("{:02}{r:02}", c + 1));
                let touches = st.map.grid().neighbours(h);
                let (below, above) = (r < rows, r > 1);
                if below {
                    assert_eq!(touches.contains(&next(r + 1)), dn, "{c:02}{r:02}, dn {dn}");
                }
                if above {
                    assert_eq!(touches.contains(&next(r - 1)), !dn, "{c:02}{r:02}, dn {dn}");
                }
                assert!(touches.contains(&next(r)), "{c:02}{r:02}");
            }
        }
        assert!(
            marked > 0 && marked < columns as usize,
            "some columns are offset, not all: {offsets:?}"
        );
        // The README's worked case: 0305, in a `dn` column, touches 0205, 0206, 0405, 0406.
        assert_eq!(cell(offsets, 3), "dn", "{offsets:?}");
        let touches = st.map.grid().neighbours(hex(&st, "0305"));
        for n in ["0205", "0206", "0405", "0406"] {
            assert!(touches.contains(&hex(&st, n)), "0305 touches {n}");
        }
    }
}
