//! What a spectator of a Last Hundred Yards game reads of a move: the narration as the side
//! not making it saw it (what every seat may see), never the owner's own line. Before the
//! fix a spectator read no move at all, since every move line was addressed to seats.

use crate::lhy;

use despatch::dice::Dice;
use despatch::engine::{LogLine, Ruleset, Viewer};
use despatch::rulesets::last_hundred_yards::LastHundredYards as Lhy;
use despatch::rulesets::last_hundred_yards::state::{Action, LhyState};
use despatch::rulesets::last_hundred_yards::{action, sight};

fn spectator_log(st: &LhyState) -> Vec<String> {
    Lhy::view(st, &Viewer::Spectator).log
}

fn seat_log(st: &LhyState, seat: &str) -> Vec<String> {
    Lhy::view(st, &Viewer::Seat(seat.into())).log
}

fn moving(unit: &str, path: Vec<despatch::board::hex::Hex>) -> Action {
    Action::Move {
        units: vec![unit.into()],
        path,
        reverse: false,
        deploy: false,
        overrun: None,
        stop: false,
        exit: false,
    }
}

/// A US squad in the open, in clear sight of a German, steps one hex on into a hex the German
/// sees: the spectator reads the move with both hexes, as the German does.
#[test]
fn a_spectator_reads_a_move_through_open_ground() {
    let mut base = lhy::face_to_face("G1-1");
    let a1 = base.unit_mut("A1-1").unwrap();
    a1.hidden = false;
    a1.concealed = false;
    let from = base.unit("A1-1").unwrap().at;
    let watcher = base.unit("G1-1").unwrap().clone();
    let mut checked = 0;
    for to in base.map.grid().neighbours(from) {
        let mv = moving("A1-1", vec![to]);
        if !base.map.on_map(to)
            || !sight::sees(&base, &watcher, to)
            || action::check(&base, "us", &mv, false).is_err()
        {
            continue;
        }
        let mut st = base.clone();
        st.log.clear();
        action::perform(&mut st, "us", &mv, &mut Dice::new(lhy::seed(3, 3)));
        let told = format!(
            "A1-1 moves from {} to {}.",
            st.name_of(from),
            st.name_of(to)
        );
        assert!(
            seat_log(&st, "germany").contains(&told),
            "{:?}",
            seat_log(&st, "germany")
        );
        let spec = spectator_log(&st);
        assert!(spec.contains(&told), "spectator: {spec:?}");
        checked += 1;
    }
    assert!(
        checked > 0,
        "no legal open move from {}",
        base.name_of(from)
    );
}

/// The spectator's log holds nothing the US (the side not moving) did not read, and names
/// no hex in `hidden`; `Err` says what gave it away.
fn told_as_to_the_enemy(st: &LhyState, hidden: &str) -> Result<(), String> {
    let us = seat_log(st, "us");
    for line in spectator_log(st) {
        if !us.contains(&line) {
            return Err(format!("the US never read {line:?}"));
        }
        if line.contains(hidden) {
            return Err(format!("{line:?} names {hidden}"));
        }
    }
    Ok(())
}

/// A concealed German moving through a hex no US unit sees, then into one it sees: the
/// spectator reads it exactly as the US does ("(out of sight)" for the hidden hex). Positive
/// control: the owner's line, planted for spectators, makes the check fail.
#[test]
fn a_spectator_reads_a_concealed_move_as_the_enemy_did() {
    let st = lhy::step(
        &lhy::game(lhy::PATROL),
        &[("us", "PASS"), ("germany", "PASS")],
        1,
    );
    let unseen = sight::unseen_by(&st, "us");
    let from = st.unit("G1-2").unwrap().at;
    let grid = st.map.grid();
    let mut checked = 0;
    for a in grid.neighbours(from) {
        if !st.map.on_map(a) || !unseen.contains(&a) {
            continue;
        }
        for b in grid.neighbours(a) {
            if b == from || !st.map.on_map(b) || unseen.contains(&b) {
                continue;
            }
            let mv = moving("G1-2", vec![a, b]);
            if action::check(&st, "germany", &mv, false).is_err() {
                continue;
            }
            let mut st = st.clone();
            st.log.clear();
            action::perform(&mut st, "germany", &mv, &mut Dice::new(lhy::seed(7, 7)));
            if !st.unit("G1-2").unwrap().concealed {
                continue; // lost concealment in the open: named, another case
            }
            let an = st.name_of(a);
            let spec = spectator_log(&st);
            assert!(
                spec.iter()
                    .any(|l| l.starts_with("A Concealment marker moves")
                        && l.contains("(out of sight)")
                        && l.contains(&st.name_of(b))),
                "the spectator reads the move: {spec:?}"
            );
            told_as_to_the_enemy(&st, &an).unwrap();
            // Positive control: the owner's telling, were it given to spectators, is caught.
            let owner = seat_log(&st, "germany")
                .into_iter()
                .find(|l| l.starts_with("(Yours:"))
                .expect("the owner reads the whole route");
            let mut planted = st.clone();
            planted
                .log
                .push(LogLine::private("germany", owner).and_spectators());
            assert!(told_as_to_the_enemy(&planted, &an).is_err());
            checked += 1;
        }
    }
    assert!(
        checked > 0,
        "no legal concealed move through an unseen hex into a seen one"
    );
}

/// A log saved before spectator lines existed (no `spectators` field) still loads, its seat
/// lines kept from spectators; a plain line saves without the field, so old states are
/// unchanged byte for byte.
#[test]
fn log_lines_saved_before_the_spectator_field_load_unchanged() {
    let old: LogLine = serde_json::from_str(r#"{"text":"x","only":["us"]}"#).unwrap();
    assert_eq!(old, LogLine::private("us", "x"));
    assert!(!old.visible_to(&Viewer::Spectator));
    assert!(old.clone().and_spectators().visible_to(&Viewer::Spectator));
    assert_eq!(
        serde_json::to_string(&old).unwrap(),
        r#"{"text":"x","only":["us"]}"#
    );
}
