//! Ruling C1 of docs/club-rules.md where a side has several seats, by mail: Lone Star's
//! "Patrol on the Colorado" (two players a side). One seat's `CONCEDE <game>` puts its whole
//! side out and the other side wins; a draw vote then counts only the seats still playing.

use crate::mail_world;

use despatch::daemon::Intake;
use despatch::engine::Event;
use mail_world::{LONE_STAR_PATROL as SEATS, World};

fn patrol() -> World {
    mail_world::lone_star_patrol("lsc")
}

fn journal(w: &World) -> Vec<Event> {
    w.daemon
        .data
        .game("lsc")
        .read_journal()
        .unwrap()
        .lines
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn over(w: &World) -> bool {
    w.daemon.open_game("lsc").unwrap().game.is_over()
}

#[test]
fn one_seat_concedes_for_its_whole_side_and_the_other_side_wins() {
    let mut w = patrol();
    assert!(!over(&w));
    let out = w.send("enver", "CONCEDE lsc");
    assert!(
        matches!(&out, Intake::SeatAct { seat, .. } if seat == "enver"),
        "{out:?}"
    );
    assert!(over(&w), "one seat's concession ends a two-side game");
    let ev = journal(&w);
    let conceded: Vec<&Event> = ev
        .iter()
        .filter(|e| matches!(e, Event::Conceded { .. }))
        .collect();
    assert_eq!(conceded.len(), 1);
    assert!(
        matches!(conceded[0], Event::Conceded { seat, side, .. } if seat == "enver" && side == "empire")
    );
    assert!(matches!(ev.last(), Some(Event::GameEnded { .. })));
    let g = w.daemon.open_game("lsc").unwrap();
    let outcome = g.game.outcome().expect("an outcome");
    assert!(
        outcome.winners.iter().any(|s| s == "alliance") && outcome.winners.len() == 1,
        "{outcome:?}"
    );
    // Every seat, the conceding side's other player included, gets the game-over mail that
    // says why (mails are wrapped at 72 columns: compare with whitespace flattened).
    w.daemon.deliver().unwrap();
    let mails = mail_world::delivered(w.outbox(), "");
    let told = mails
        .iter()
        .map(|t| t.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|t| t.contains("empire conceded the game (enver for its side); alliance wins"))
        .count();
    assert!(
        told >= SEATS.len(),
        "{told} game-over mails say why:\n{}",
        mails
            .iter()
            .filter(|t| t.contains("conceded") || t.contains("GAME OVER") || t.contains("wins"))
            .map(|t| t.chars().take(700).collect::<String>())
            .take(2)
            .collect::<Vec<_>>()
            .join("\n-----\n")
    );
}

#[test]
fn draw_votes_count_only_seats_still_playing_and_a_side_mate_cannot_vote_twice() {
    let mut w = patrol();
    // Three of four vote: no draw yet, and nothing in the journal says a vote was cast.
    let before = journal(&w).len();
    for seat in ["hays", "bowie", "von-arnim"] {
        let out = w.send(seat, "PROPOSE DRAW lsc");
        assert!(matches!(out, Intake::SeatAct { .. }), "{seat}: {out:?}");
    }
    assert!(!over(&w), "one seat has not voted");
    assert_eq!(journal(&w).len(), before, "votes are never journaled");
    // A second vote of the same seat does not stand in for its side mate.
    w.send("von-arnim", "ACCEPT DRAW lsc");
    assert!(!over(&w));
    // The last seat's vote ends the game as a draw.
    w.send("enver", "ACCEPT DRAW lsc");
    assert!(over(&w));
    let ev = journal(&w);
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::DrawAgreed { seats, .. } if seats.len() == 4))
    );
    let g = w.daemon.open_game("lsc").unwrap();
    assert!(g.game.outcome().expect("an outcome").winners.is_empty());
}
