//! Issue 29 point 4, the loose ends: HELP says what STOP stops and what still comes; the games
//! list carries `List-Unsubscribe` like every game mail, and STOP to the house ends the lists
//! nobody provably asked for (docs/club-rules.md L2); `ADDRESS ADD` refuses an address another
//! player uses in any game of the host, and takes one the same player uses elsewhere (E2).

use crate::club_consent::{flat, header, players_may_add, raw_to};
use crate::naval_mail;

use chrono::{TimeZone, Utc};
use despatch::daemon::Intake;
use despatch::dice::GameSecrets;
use naval_mail::{Game, SEATS, plain_address};

#[test]
fn help_says_what_stop_stops_and_what_still_comes() {
    let mut g = players_may_add();
    let (out, answer) = g.send("japan", &plain_address("japan"), "x", None, "HELP");
    assert!(matches!(out, Intake::Help { .. }), "{out:?}");
    let a = flat(&answer);
    assert!(
        a.contains(
            "STOP one mail a step at most (as NOTIFY ALL OFF); the mails that ask for your \
             orders, answers and the game-over mail still come (RESIGN to leave)"
        ),
        "{answer}"
    );
    assert!(
        a.contains(
            "leaves with a one-word reply, STOP or UNSUBSCRIBE: then nothing more is sent to it"
        ),
        "{answer}"
    );
}

/// The newest delivered mail to `address` whose subject holds `subject`, raw.
fn newest_raw(g: &Game, address: &str, subject: &str) -> String {
    raw_to(g, address)
        .into_iter()
        .rfind(|raw| header(raw, "Subject").is_some_and(|s| s.contains(subject)))
        .unwrap_or_else(|| panic!("no mail `{subject}` to {address}"))
}

#[test]
fn the_games_list_carries_list_unsubscribe_and_stop_to_the_house_ends_unasked_lists() {
    let mut g = players_may_add();
    let (japan, russia) = (SEATS[0].1, SEATS[1].1);
    let lists = |g: &Game, to: &str| {
        g.mails_to(to)
            .iter()
            .filter(|m| m.subject.contains("Your games"))
            .count()
    };
    let out = g.send_from(russia, "despatch@localhost", "my games?", None, "LIST");
    assert!(matches!(out, Intake::Listed { .. }), "{out:?}");
    let raw = newest_raw(&g, russia, "Your games");
    assert_eq!(
        header(&raw, "List-Unsubscribe").as_deref(),
        Some("<mailto:despatch@localhost?subject=STOP>"),
        "{raw}"
    );
    assert_eq!(header(&raw, "List-Unsubscribe-Post"), None, "no https URI");
    // STOP to the house, as a mail client sends that mailto: recorded, never answered (the
    // From may be forged, and an answer would be one more mail).
    let mails = g.mails_to(russia).len();
    let out = g.send_from(russia, "despatch@localhost", "STOP", None, "-- \nRozh");
    assert!(matches!(out, Intake::Unknown(_)), "{out:?}");
    assert_eq!(g.mails_to(russia).len(), mails, "STOP is not answered");
    // A tokenless mail from the address gets no list any more…
    let out = g.send_from(russia, "despatch@localhost", "my games?", None, "LIST");
    assert!(matches!(out, Intake::Unknown(_)), "{out:?}");
    assert_eq!(lists(&g, russia), 1);
    // …while the seat's own LIST, which carries its secret, is answered: it asked, provably.
    let (out, _) = g.send("russia", &plain_address("russia"), "x", None, "LIST");
    assert!(matches!(out, Intake::Listed { .. }), "{out:?}");
    assert_eq!(lists(&g, russia), 2);
    // Control: another address still gets its list for a tokenless mail, and a word other
    // than STOP alone to the house is no STOP.
    g.send_from(
        japan,
        "despatch@localhost",
        "Re: STOP",
        None,
        "stop the guns",
    );
    assert_eq!(lists(&g, japan), 1);
    g.send_from(japan, "despatch@localhost", "hello", None, "anything");
    assert_eq!(lists(&g, japan), 2);
}

const OTHER: (&str, &str) = ("kamimura@fleet.example", "kamitokenxxxxxxxxxxxxxxx");
const TOGO_G2: &str = "togotokenxxxxxxxxxxxxxxx";

/// A second game on the host: seat japan is another player's (with an extra address), seat
/// russia the same player as `g`'s japan (with an extra address of their own).
fn second_game(g: &mut Game) {
    let japan = SEATS[0].1;
    g.d.create_game_with(
        "g2",
        "naval-rjw",
        "training",
        &[
            ("japan".to_string(), OTHER.0.to_string()),
            ("russia".to_string(), japan.to_string()),
        ],
        Utc.with_ymd_and_hms(2026, 6, 1, 9, 0, 0).unwrap(),
        GameSecrets::pinned("g2", [7; 32], [2; 32], 100),
        &[OTHER.1.to_string(), TOGO_G2.to_string()],
    )
    .unwrap();
    g.d.deliver().unwrap();
    for (from, to, extra) in [
        (
            OTHER.0,
            format!("despatch+g2.japan.{}@localhost", OTHER.1),
            "kami.home@fleet.example",
        ),
        (
            japan,
            format!("despatch+g2.russia.{TOGO_G2}@localhost"),
            "togo.home@fleet.example",
        ),
    ] {
        let out = g.send_from(from, &to, "x", None, &format!("ADDRESS ADD {extra}"));
        assert!(matches!(out, Intake::Settings { .. }), "{out:?}");
    }
    let seats = g.d.data.game("g2").seats().unwrap();
    assert_eq!(seats.seats["japan"].also_from, ["kami.home@fleet.example"]);
    assert_eq!(seats.seats["russia"].also_from, ["togo.home@fleet.example"]);
}

#[test]
fn address_add_refuses_another_players_address_from_any_game_but_not_ones_own() {
    let mut g = players_may_add();
    second_game(&mut g);
    // Another player's address in g2 (main or extra): refused, saying neither whose nor where.
    for theirs in [OTHER.0, "kami.home@fleet.example"] {
        let (out, answer) = g.send(
            "japan",
            &plain_address("japan"),
            "x",
            None,
            &format!("ADDRESS ADD {theirs}"),
        );
        assert!(matches!(out, Intake::Settings { .. }), "{out:?}");
        assert!(
            flat(&answer).contains(
                "already registered for another player's seat on this host. Nothing changed"
            ),
            "{theirs}: {answer}"
        );
        assert!(!answer.contains("g2"), "the answer says where: {answer}");
    }
    assert!(
        g.d.data.game("g").seats().unwrap().seats["japan"]
            .also_from
            .is_empty()
    );
    // The same player's own address from g2 is theirs to add here.
    let (_, answer) = g.send(
        "japan",
        &plain_address("japan"),
        "x",
        None,
        "ADDRESS ADD togo.home@fleet.example",
    );
    assert!(flat(&answer).contains("are now read as yours"), "{answer}");
    let seats = g.d.data.game("g").seats().unwrap();
    assert_eq!(seats.seats["japan"].also_from, ["togo.home@fleet.example"]);
    // A player of another game may still be asked to watch this one (ruling E2): the
    // spectator gets no seat's secret, and must confirm first (W5).
    let (_, answer) = g.send(
        "japan",
        &plain_address("japan"),
        "x",
        None,
        &format!("SPECTATOR ADD {}", OTHER.0),
    );
    assert!(flat(&answer).contains("asking them to confirm"), "{answer}");
    // So the other player's LIST never carries Japan's secret reply address of g.
    g.send_from(OTHER.0, "despatch@localhost", "my games?", None, "LIST");
    let listed = g
        .mails_to(OTHER.0)
        .into_iter()
        .rfind(|m| m.subject.contains("Your games"))
        .expect("the games list");
    assert!(!listed.text.contains(SEATS[0].2), "{}", listed.text);
}
