//! Issue 14 points 2, 4 and 8 by mail, as a player writes them: no mail vanishes (the seat's
//! secret from a second address, `ADDRESS ADD`, a replaced player writing again, a mail that
//! names no game), every seat sets its own time zone (`TIMEZONE`), and inbox noise can be
//! turned off (`NOTIFY`). Unknown senders still get nothing. Naval order syntax.

use crate::naval_mail;

use chrono::{TimeZone, Utc};
use despatch::daemon::Intake;
use naval_mail::{Game, SEATS, plain_address, start};

const HOME: &str = "togo@home.example";

/// A mail's words with its line breaks read as spaces (texts are wrapped at 72 columns).
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn settings(g: &Game) -> despatch::store::SeatsFile {
    g.d.data.game("g").seats().unwrap()
}

/// The newest mail to `seat` whose subject contains `words`.
fn titled(g: &Game, seat: &str, words: &str) -> naval_mail::Mail {
    g.inbox(seat)
        .into_iter()
        .rfind(|m| m.subject.contains(words))
        .unwrap_or_else(|| panic!("no mail to {seat} titled {words:?}"))
}

/// A new mail from Japan's player (registered address) to the game, with the seat's secret.
fn japan_says(g: &mut Game, body: &str) -> (Intake, String) {
    g.send("japan", &plain_address("japan"), "settings", None, body)
}

#[test]
fn the_seats_secret_from_a_second_address_is_reported_to_the_registered_one() {
    let mut g = start();
    let orders = g.orders("japan");
    let before = g.inbox("japan").len();
    let out = g.send_from(HOME, &plain_address("japan"), "orders", None, &orders);
    assert_eq!(
        out,
        Intake::Unregistered {
            game: "g".into(),
            seat: "japan".into()
        }
    );
    assert_eq!(g.step(), 1, "nothing was applied");
    let told = g.inbox("japan");
    assert_eq!(
        told.len(),
        before + 1,
        "the registered address is told once"
    );
    let notice = &told.last().unwrap().text;
    assert!(notice.contains(&format!("ADDRESS ADD {HOME}")), "{notice}");
    let first_order = orders.lines().find(|l| !l.trim().is_empty()).unwrap();
    assert!(
        !flat(notice).contains(first_order),
        "the orders are not quoted: {notice}"
    );
    assert!(
        g.mails_to(HOME).is_empty(),
        "the sender gets nothing (it may be a forger)"
    );
    // A second try within the hour is not announced again (no mail flood to the player).
    g.send_from(HOME, &plain_address("japan"), "orders", None, &orders);
    assert_eq!(g.inbox("japan").len(), before + 1);
}

#[test]
fn address_add_from_the_registered_address_lets_the_second_one_send_orders() {
    let mut g = start();
    let (out, answer) = japan_says(&mut g, &format!("ADDRESS ADD Heihachiro <{HOME}>"));
    assert_eq!(
        out,
        Intake::Settings {
            game: "g".into(),
            seat: "japan".into()
        }
    );
    assert!(
        flat(&answer).contains(&format!("Mails from {HOME}")),
        "{answer}"
    );
    assert!(
        answer.contains(&format!("Also read from:   {HOME}")),
        "{answer}"
    );
    assert_eq!(
        settings(&g).seats["japan"].also_from,
        vec![HOME.to_string()]
    );

    let orders = g.orders("japan");
    let receipts_before = g.inbox("japan").len();
    let out = g.send_from(HOME, &plain_address("japan"), "orders", None, &orders);
    assert!(matches!(out, Intake::Accepted { .. }), "{out:?}");
    assert_eq!(
        g.inbox("japan").len(),
        receipts_before + 1,
        "the receipt goes to the registered address"
    );
    assert!(g.mails_to(HOME).is_empty(), "mails go to one address only");

    // Only the registered address adds or removes addresses.
    let out = g.send_from(
        HOME,
        &plain_address("japan"),
        "x",
        None,
        "ADDRESS ADD evil@else.example",
    );
    assert!(matches!(out, Intake::Settings { .. }), "{out:?}");
    assert_eq!(
        settings(&g).seats["japan"].also_from,
        vec![HOME.to_string()]
    );
    assert!(
        g.inbox("japan")
            .iter()
            .any(|m| flat(&m.text).contains("only by a mail from the seat's registered")),
        "the refusal is told to the registered address"
    );

    // Removed again, the second address is refused as before.
    let (_, answer) = japan_says(&mut g, &format!("ADDRESS REMOVE {HOME}"));
    assert!(flat(&answer).contains("no longer read"), "{answer}");
    assert!(settings(&g).seats["japan"].also_from.is_empty());
    let out = g.send_from(HOME, &plain_address("japan"), "again", None, "PASS");
    assert!(matches!(out, Intake::Unregistered { .. }), "{out:?}");
}

#[test]
fn unknown_senders_still_get_nothing() {
    let mut g = start();
    let stranger = "who@nowhere.example";
    let mails_before = g.inbox("japan").len() + g.inbox("russia").len();
    for (to, body) in [
        ("despatch+g@localhost", "TURN Mikasa PORT 30"),
        ("despatch+g.japan.wrongtoken@localhost", "PASS"),
        ("despatch@localhost", "LIST"),
        ("despatch@localhost", "hello"),
    ] {
        let out = g.send_from(stranger, to, "hi", None, body);
        assert!(matches!(out, Intake::Unknown(_)), "{to}: {out:?}");
    }
    assert!(g.mails_to(stranger).is_empty(), "no backscatter");
    assert_eq!(
        g.inbox("japan").len() + g.inbox("russia").len(),
        mails_before
    );
}

#[test]
fn a_replaced_player_is_told_once_that_the_seat_passed_on() {
    let mut g = start();
    let old = SEATS[1].1;
    g.d.gm_replace(
        "g",
        "russia",
        "makarov@fleet.example",
        "left the club",
        Utc.with_ymd_and_hms(2026, 6, 1, 9, 30, 0).unwrap(),
    )
    .unwrap();
    let before = g.mails_to(old).len();
    let out = g.send_from(old, &plain_address("russia"), "my orders", None, "PASS");
    assert_eq!(
        out,
        Intake::PassedOn {
            game: "g".into(),
            seat: "russia".into()
        }
    );
    let mails = g.mails_to(old);
    assert_eq!(mails.len(), before + 1);
    let told = mails.last().unwrap();
    assert!(
        flat(&told.text).contains("passed to another player"),
        "{}",
        told.text
    );
    assert!(
        !flat(&told.text).contains("makarov"),
        "the new player is not named"
    );
    assert_eq!(told.in_reply_to, format!("m{}@player.example", g.n));
    // Told once: the next mail gets nothing.
    let out = g.send_from(old, &plain_address("russia"), "again", None, "PASS");
    assert!(matches!(out, Intake::Unknown(_)), "{out:?}");
    assert_eq!(g.mails_to(old).len(), before + 1);
}

#[test]
fn a_mail_that_names_no_game_gets_the_players_games() {
    let mut g = start();
    let out = g.send_from(SEATS[0].1, "despatch@localhost", "orders", None, "PASS");
    assert_eq!(out, Intake::Listed { games: 1 });
    let list = titled(&g, "japan", "Your games");
    assert!(list.text.contains("named no game"), "{}", list.text);
    assert!(
        flat(&list.text).contains("g (naval-rjw), seat japan"),
        "{}",
        list.text
    );
    assert!(
        list.text
            .contains(&format!("despatch+g.japan.{}", SEATS[0].2)),
        "{}",
        list.text
    );
    assert!(
        !flat(&list.text).contains(SEATS[1].2),
        "another seat's secret never appears"
    );
    // LIST inside a game's thread answers the same.
    let (out, _) = japan_says(&mut g, "LIST");
    assert_eq!(out, Intake::Listed { games: 1 });
    let lists: Vec<_> = g
        .inbox("japan")
        .into_iter()
        .filter(|m| m.subject == "Your games")
        .collect();
    assert_eq!(lists.len(), 2);
    assert!(
        lists
            .iter()
            .any(|m| !flat(&m.text).contains("named no game")),
        "LIST is answered as asked"
    );
}

#[test]
fn timezone_by_mail_shows_every_later_time_in_it_and_in_utc() {
    let mut g = start();
    let (out, answer) = japan_says(&mut g, "TIMEZONE asia/tokyo");
    assert!(matches!(out, Intake::Settings { .. }), "{out:?}");
    assert!(flat(&answer).contains("Asia/Tokyo"), "{answer}");
    assert!(
        flat(&answer).contains("JST (") && flat(&answer).contains("UTC)"),
        "{answer}"
    );
    assert_eq!(settings(&g).seats["japan"].time_zone, "Asia/Tokyo");
    g.play_until(2);
    let results = titled(&g, "japan", "Your orders");
    assert!(results.subject.contains("JST"), "{}", results.subject);
    assert!(results.text.contains("JST ("), "{}", results.text);
    let russia = g.inbox("russia").pop().unwrap();
    assert!(
        !russia.text.contains("JST"),
        "one seat's zone is its own: {}",
        russia.text
    );
    // A zone that does not exist changes nothing and says why.
    let (_, answer) = japan_says(&mut g, "TIMEZONE Mars/Olympus");
    assert!(flat(&answer).contains("not a time zone name"), "{answer}");
    assert_eq!(settings(&g).seats["japan"].time_zone, "Asia/Tokyo");
}

#[test]
fn notify_orders_off_stops_the_sent_orders_notices_and_nothing_else() {
    let mut g = start();
    // Control: with notices on, Russia hears that Japan has sent orders.
    let before = g.inbox("russia").len();
    let orders = g.orders("japan");
    let (out, _) = japan_says(&mut g, &orders);
    assert!(matches!(out, Intake::Accepted { .. }), "{out:?}");
    let notices = |g: &Game| {
        g.inbox("russia")
            .iter()
            .filter(|m| m.subject.contains("has sent orders"))
            .count()
    };
    assert_eq!(notices(&g), 1);
    assert_eq!(g.inbox("russia").len(), before + 1);

    let (_, answer) = g.send(
        "russia",
        &plain_address("russia"),
        "x",
        None,
        "NOTIFY ORDERS OFF",
    );
    assert!(
        answer.contains("Orders notices:   with your next mail"),
        "{answer}"
    );
    // Japan sends again (replacing its orders): no notice to Russia now.
    let (out, _) = japan_says(&mut g, &orders);
    assert!(matches!(out, Intake::Accepted { .. }), "{out:?}");
    assert_eq!(notices(&g), 1, "no second notice");
    // The step still resolves and Russia still gets its results with every digest.
    let step = g.step();
    g.play_until(step + 1);
    let results = g.inbox("russia");
    let subjects: Vec<&str> = results.iter().map(|m| m.subject.as_str()).collect();
    assert!(
        results
            .iter()
            .any(|m| flat(&m.text).contains("lock input japan = ")),
        "{subjects:?}"
    );
}
