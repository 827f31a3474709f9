//! Issue 16 point 4 (and point 8 for it) by mail, as a player writes it: `CONCEDE <game>`,
//! `RESIGN <game>` under the game's policy for the empty seat, and secret draw votes that end
//! the game only when every seat still playing has voted. Rulings C1–G1 of
//! docs/club-rules.md. Naval order syntax.

use crate::naval_mail;

use std::path::Path;

use chrono::{TimeZone, Utc};
use despatch::daemon::Intake;
use despatch::verify;
use naval_mail::{Game, SEATS, plain_address, start};

/// A mail's words with its line breaks read as spaces (texts are wrapped at 72 columns).
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn says(g: &mut Game, seat: &str, body: &str) -> (Intake, String) {
    g.send(seat, &plain_address(seat), "a word", None, body)
}

fn acted(seat: &str) -> Intake {
    Intake::SeatAct {
        game: "g".into(),
        seat: seat.into(),
    }
}

fn over(g: &Game) -> bool {
    g.d.open_game("g").unwrap().game.is_over()
}

fn seats_file(g: &Game) -> despatch::store::SeatsFile {
    g.d.data.game("g").seats().unwrap()
}

/// What the answer to an act says before the seat's own absences are listed.
fn said(answer: &str) -> String {
    flat(answer.split("YOUR ABSENCES").next().unwrap())
}

/// `despatch verify` on the folder of every mail `address` received: no findings.
fn verify_folder_of(g: &Game, address: &str, dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    for sub in ["new", "cur"] {
        for e in std::fs::read_dir(g.d.cfg.mail.outbox.join(sub))
            .unwrap()
            .flatten()
        {
            let bytes = std::fs::read(e.path()).unwrap();
            let msg = mail_parser::MessageParser::default().parse(&bytes).unwrap();
            let to = msg.to().and_then(|a| a.first()).and_then(|a| a.address());
            if to == Some(address) {
                std::fs::write(dir.join(e.file_name()), &bytes).unwrap();
            }
        }
    }
    let (checked, findings) = verify::verify_mails(dir, None);
    assert!(findings.is_empty(), "{findings:?}");
    assert!(checked.replayed_mails > 0, "{checked:?}");
}

#[test]
fn concede_names_the_game_and_ends_it_with_the_other_side_winning() {
    let mut g = start();
    let journal = g.journal();
    // Without the game's id, with another id, or in a subject alone: nothing is done.
    let (out, answer) = says(&mut g, "japan", "CONCEDE");
    assert!(matches!(out, Intake::Rejected { .. }), "{out:?}");
    assert!(
        flat(&answer).contains(
            "CONCEDE gives the game up for your side and cannot be undone, so it must name the game"
        ),
        "{answer}"
    );
    assert!(
        flat(&answer).contains("write CONCEDE g alone on the first line"),
        "{answer}"
    );
    let (out, answer) = says(&mut g, "japan", "CONCEDE h");
    assert!(matches!(out, Intake::Rejected { .. }), "{out:?}");
    assert!(
        flat(&answer).contains("\"h\" is not this game's id"),
        "{answer}"
    );
    let out = g.send_from(SEATS[0].1, &plain_address("japan"), "Concede", None, "");
    assert!(matches!(out, Intake::Rejected { .. }), "{out:?}");
    assert_eq!(g.journal(), journal, "no event");
    assert!(!over(&g));

    let (out, answer) = says(&mut g, "japan", "CONCEDE g");
    assert_eq!(out, acted("japan"), "{answer}");
    assert!(over(&g));
    let o = g.d.open_game("g").unwrap().game.outcome().unwrap();
    assert_eq!(o.winners, vec!["russia".to_string()]);
    let journal = String::from_utf8(g.journal()).unwrap();
    let tail: Vec<&str> = journal.lines().rev().take(2).collect();
    assert!(
        tail[1].contains(r#""type":"conceded","step":1,"seat":"japan","side":"japan""#),
        "{journal}"
    );
    assert!(tail[0].contains(r#""type":"game_ended""#) && tail[0].contains("salt_key"));
    for seat in ["japan", "russia"] {
        let end = g
            .inbox(seat)
            .into_iter()
            .rfind(|m| m.subject.contains("Game over"))
            .unwrap_or_else(|| panic!("{seat} gets the game-over mail"));
        assert!(end.subject.contains("Russia wins"), "{}", end.subject);
        assert!(
            flat(&end.text).contains("japan conceded the game; russia wins."),
            "{}",
            end.text
        );
    }
    let dir = tempfile::tempdir().unwrap();
    verify_folder_of(&g, SEATS[1].1, &dir.path().join("russia"));
}

#[test]
fn nothing_is_conceded_for_another_seat_or_after_the_end() {
    let mut g = start();
    let journal = g.journal();
    // Russia's player, from Russia's address, with Japan's secret: nothing applied.
    let out = g.send_from(SEATS[1].1, &plain_address("japan"), "x", None, "CONCEDE g");
    assert!(matches!(out, Intake::Unauthenticated { .. }), "{out:?}");
    assert_eq!(g.journal(), journal);
    assert!(!over(&g));
    assert_eq!(says(&mut g, "russia", "CONCEDE g").0, acted("russia"));
    let journal = g.journal();
    for line in [
        "CONCEDE g",
        "RESIGN g",
        "ACCEPT DRAW g",
        "ABSENT 2026-07-01",
    ] {
        let (out, answer) = says(&mut g, "japan", line);
        assert!(matches!(out, Intake::Rejected { .. }), "{line}: {out:?}");
        assert!(
            flat(&answer).contains("the game is over"),
            "{line}: {answer}"
        );
    }
    assert_eq!(g.journal(), journal, "nothing after the end");
}

#[test]
fn a_draw_vote_is_secret_until_the_last_one_and_then_ends_the_game() {
    let mut g = start();
    let journal = g.journal();
    let russia_mails = g.inbox("russia").len();
    let (out, first) = says(&mut g, "japan", "PROPOSE DRAW g");
    assert_eq!(out, acted("japan"), "{first}");
    assert!(said(&first).contains("Your vote for a draw is recorded. Nobody is told of it"));
    // Secret: Russia gets nothing and the journal (whose head every mail shows) is unchanged;
    // the vote is in the private seats file.
    assert_eq!(
        g.inbox("russia").len(),
        russia_mails,
        "russia hears nothing"
    );
    assert_eq!(g.journal(), journal, "nothing journaled");
    assert!(seats_file(&g).draw_votes.contains("japan"));
    // Positive control: an act that is not secret does reach Russia and the journal.
    assert_eq!(says(&mut g, "japan", "ABSENT 2026-07-01").0, acted("japan"));
    assert!(g.inbox("russia").len() > russia_mails, "the check can fail");
    assert_ne!(g.journal(), journal);

    // Withdrawn, then Russia votes alone: no draw (D3: one's own vote only).
    assert_eq!(says(&mut g, "japan", "DECLINE DRAW").0, acted("japan"));
    assert!(seats_file(&g).draw_votes.is_empty());
    let (out, russias) = says(&mut g, "russia", "ACCEPT DRAW g");
    assert_eq!(out, acted("russia"));
    assert_eq!(
        said(&russias),
        said(&first),
        "the same words, proposed or not"
    );
    assert!(!over(&g));
    // Votes stand when a step resolves.
    g.play_until(2);
    assert!(seats_file(&g).draw_votes.contains("russia"));
    assert!(!over(&g));

    // Japan's vote is the last one: the same answer, and the game ends as a draw.
    let (out, last) = says(&mut g, "japan", "ACCEPT DRAW g");
    assert_eq!(out, acted("japan"));
    assert_eq!(said(&last), said(&first), "the last vote is answered alike");
    assert!(over(&g));
    assert!(seats_file(&g).draw_votes.is_empty(), "cleared once agreed");
    let journal = String::from_utf8(g.journal()).unwrap();
    assert!(journal.contains(r#""type":"draw_agreed","step":2,"seats":["japan","russia"]"#));
    assert!(
        journal
            .lines()
            .last()
            .unwrap()
            .contains(r#""type":"game_ended""#)
    );
    for seat in ["japan", "russia"] {
        let end = g
            .inbox(seat)
            .into_iter()
            .rfind(|m| m.subject.contains("Game over"))
            .unwrap();
        assert!(end.subject.contains("Game over: a draw"), "{}", end.subject);
        assert!(
            flat(&end.text)
                .contains("Drawn by agreement of every seat still playing (japan, russia)."),
            "{}",
            end.text
        );
    }
    let dir = tempfile::tempdir().unwrap();
    verify_folder_of(&g, SEATS[0].1, &dir.path().join("japan"));
}

#[test]
fn a_resigned_seat_is_answered_by_standing_orders_until_replaced() {
    let mut g = start();
    g.d.cfg.mail.gm_address = Some("gm@club.example".into());
    let (out, _) = says(&mut g, "japan", "RESIGN");
    assert!(
        matches!(out, Intake::Rejected { .. }),
        "named by the game's id"
    );
    let (out, _) = says(&mut g, "japan", "RESIGN g");
    assert_eq!(out, acted("japan"));
    let togo = g.inbox("japan");
    let bye = togo
        .iter()
        .rfind(|m| m.subject.contains("You have resigned"))
        .unwrap();
    assert!(
        flat(&bye.text).contains("seat japan is no longer yours"),
        "{}",
        bye.text
    );
    let told = g.inbox("russia");
    let notice = told
        .iter()
        .rfind(|m| m.subject.contains("japan's player resigned"))
        .unwrap();
    assert!(
        flat(&notice.text).contains("The seat waits for a new player"),
        "{}",
        notice.text
    );
    let gm = g.mails_to("gm@club.example");
    assert!(
        gm.iter()
            .any(|m| m.subject.contains("Seat japan wants a new player")),
        "the organiser is told"
    );
    let seats = seats_file(&g);
    assert!(
        !seats.seats.contains_key("japan"),
        "address and secret gone"
    );
    assert!(seats.former.iter().any(|f| f.address == SEATS[0].1));

    // No step waits for Japan: Russia's orders resolve it, Japan's standing orders answer.
    assert_eq!(g.waiting(), vec!["russia".to_string()]);
    g.play_until(2);
    assert!(g.step() >= 2, "a step asking only Japan resolves at once");
    let journal = String::from_utf8(g.journal()).unwrap();
    assert!(journal.contains(r#""nmr":["japan"]"#), "{journal}");
    // The former player's old secret is answered once with "passed on".
    let out = g.send_from(SEATS[0].1, &plain_address("japan"), "x", None, "ABSENT");
    assert!(matches!(out, Intake::PassedOn { .. }), "{out:?}");

    // The organiser hands the seat on: the game waits for it again.
    let now = Utc.with_ymd_and_hms(2026, 6, 2, 9, 0, 0).unwrap();
    g.d.gm_replace("g", "japan", "Kamimura <kami@fleet.example>", "", now)
        .unwrap();
    let book = g.d.open_game("g").unwrap().game.book().clone();
    assert!(book.awaits("japan") && book.club.resigned.is_empty());
    assert!(seats_file(&g).seats["japan"].address == "kami@fleet.example");
}
