//! Issue 27.3, failures: a mail whose processing fails (its game's files cannot be read — a
//! seats file that does not parse, which stops root as surely as anyone) is held, the
//! organiser and the sender (recognised by the seat's reply address, quoting nothing) are
//! told, `despatch status` and `despatch held` list it, and it is read as soon as the cause
//! is gone, before later mail of the same sender; by hand with `despatch held --retry`; a
//! mail that fails for good stays listed without being retried hot.

use std::path::{Path, PathBuf};
use std::process::Command;

use chrono::Duration;
use despatch::config::DEFAULT_CONFIG;
use despatch::daemon::Intake;
use despatch::store::HeldCause;

use crate::held_mail::{pass, receipts, to_with};
use crate::world::{GAME, JAPAN, RUSSIA, World, mail, reply_to, world_with};

const GM: &str = "gm@club.example";

fn with_gm(limit: u32) -> World {
    world_with("training", 1000, |c| {
        c.mail.gm_address = Some(GM.into());
        c.mail.max_per_sender_per_hour = limit;
    })
}

fn seats_file(w: &World) -> PathBuf {
    w.daemon.data.game(GAME).dir.join("seats.toml")
}

/// Breaks the game's private seats file; returns what it held, to put back.
fn break_game(w: &World) -> Vec<u8> {
    let good = std::fs::read(seats_file(w)).unwrap();
    std::fs::write(seats_file(w), "seats = 3\n").unwrap();
    good
}

fn drop_raw(w: &World, name: &str, raw: &[u8]) {
    std::fs::write(w.daemon.cfg.mail.inbox.join("new").join(name), raw).unwrap();
}

fn drop_mail(w: &World, seat: &str, id: &str, body: &str) {
    let from = if seat == "japan" { JAPAN } else { RUSSIA };
    drop_raw(w, id, &mail(from, &reply_to(seat), id, "", body));
}

/// `despatch` run on the world's data folder (a config file beside it, as a club has one).
fn despatch(w: &World, args: &[&str]) -> (bool, String, String) {
    let dir = w.daemon.data.root.parent().unwrap();
    let config = dir.join("config.toml");
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    let text = DEFAULT_CONFIG.replace(
        "# games_dir = \"games\"",
        &format!("games_dir = \"{}\"", games.display()),
    );
    let text = text.replace(
        "max_per_sender_per_hour = ",
        &format!(
            "max_per_sender_per_hour = {}\n# was ",
            w.daemon.cfg.mail.max_per_sender_per_hour
        ),
    );
    std::fs::write(&config, text).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_despatch"))
        .arg("--config")
        .arg(&config)
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn mail_to_an_unreadable_game_is_held_told_listed_and_read_once_it_is_fixed() {
    let w = with_gm(60);
    let good = break_game(&w);
    let t = w.now;
    drop_mail(&w, "japan", "j1@x", "FLAGSHIP Asahi");
    // Control: no seat's reply address (the subject names the game): held, its sender
    // not told, since nothing shows it is a player's.
    let stranger = "From: <someone@else.example>\r\nTo: despatch@localhost\r\nSubject: [school] my secret plans\r\nMessage-ID: <s1@x>\r\n\r\nFLAGSHIP Asahi\r\n";
    drop_raw(&w, "s1@x", stranger.as_bytes());
    let first = pass(&w, t);
    assert!(
        first
            .processed
            .iter()
            .all(|i| matches!(i, Intake::Failed(_))),
        "{first:?}"
    );
    let held = w.daemon.data.held_mail().unwrap();
    assert_eq!(held.len(), 2, "{held:?}");
    assert!(
        held.iter().all(
            |m| matches!(&m.cause, HeldCause::Failed { error } if error.contains("seats.toml"))
        ),
        "{held:?}"
    );
    let key = held.iter().find(|m| m.from == JAPAN).unwrap().key.clone();
    // The organiser: once for this cause, though two mails are held for it.
    let gm = to_with(&w, GM, "could not be processed and is held");
    assert_eq!(gm.len(), 1, "{gm:?}");
    assert!(
        gm[0].contains("seats.toml") && gm[0].contains(&key),
        "{}",
        gm[0]
    );
    // The player, by the seat's reply address; the stranger not at all.
    let told = to_with(&w, JAPAN, "Your mail is held");
    assert_eq!(told.len(), 1, "{told:?}");
    assert!(told[0].contains("need not send it again"), "{}", told[0]);
    assert!(!told[0].contains("Asahi"), "quotes nothing: {}", told[0]);
    assert!(to_with(&w, "someone@else.example", "held").is_empty());
    // `despatch status` and `despatch held` list it.
    let (ok, status, err) = despatch(&w, &["status"]);
    assert!(ok, "{err}");
    assert!(status.contains("Held mail: 2"), "{status}");
    assert!(status.contains(&key) && status.contains(JAPAN), "{status}");
    let (ok, list, _) = despatch(&w, &["held"]);
    assert!(
        ok && list.contains("processing failed") && list.contains(&key),
        "{list}"
    );
    // Control: ten seconds on, nothing changed, not yet due: not tried.
    let idle = pass(&w, t + Duration::seconds(10));
    assert!(idle.retried.is_empty(), "{idle:?}");
    // The fix (the seats file put back) is noticed at once, before the minute's backoff.
    std::fs::write(seats_file(&w), &good).unwrap();
    let fixed = pass(&w, t + Duration::seconds(20));
    let mine = fixed.retried.iter().find(|(k, _)| *k == key).unwrap();
    assert!(matches!(mine.1, Intake::Accepted { .. }), "{fixed:?}");
    assert_eq!(fixed.retried.len(), 2, "{fixed:?}");
    assert!(w.daemon.data.held_mail().unwrap().is_empty());
    assert!(receipts(&w).iter().any(|r| r.contains("FLAGSHIP Asahi")));
    let (_, status, _) = despatch(&w, &["status"]);
    assert!(status.contains("Held mail: none."), "{status}");
}

#[test]
fn a_senders_later_mail_never_overtakes_their_held_one() {
    let w = with_gm(60);
    let good = break_game(&w);
    let t = w.now;
    drop_mail(&w, "japan", "a@x", "FLAGSHIP Asahi");
    pass(&w, t);
    // While the game is still broken, the same sender's next mail waits behind the first,
    // unread; another sender's is held on its own failure (control).
    drop_mail(&w, "japan", "b@x", "FLAGSHIP Mikasa");
    let second = pass(&w, t + Duration::seconds(5));
    assert_eq!(second.processed.len(), 1);
    // (A bad line, so that the step stays open for Japan's third mail.)
    drop_mail(&w, "russia", "c@x", "FLAGSHIP Nobody");
    pass(&w, t + Duration::seconds(6));
    let held = w.daemon.data.held_mail().unwrap();
    let causes: Vec<&HeldCause> = held.iter().map(|m| &m.cause).collect();
    assert!(
        matches!(
            causes[..],
            [
                HeldCause::Failed { .. },
                HeldCause::Behind { .. },
                HeldCause::Failed { .. }
            ]
        ),
        "{held:?}"
    );
    // Fixed; a third mail of Japan's arrives in the same pass: the held ones go first.
    std::fs::write(seats_file(&w), &good).unwrap();
    drop_mail(&w, "japan", "d@x", "FLAGSHIP Asahi");
    let fixed = pass(&w, t + Duration::seconds(10));
    assert_eq!(fixed.retried.len(), 3, "{fixed:?}");
    assert!(
        fixed
            .processed
            .iter()
            .all(|i| matches!(i, Intake::Accepted { .. })),
        "{fixed:?}"
    );
    let receipts = receipts(&w);
    let orders: Vec<&str> = receipts
        .iter()
        .map(|r| {
            if r.contains("FLAGSHIP Asahi") {
                "Asahi"
            } else {
                "Mikasa"
            }
        })
        .collect();
    assert_eq!(orders, ["Asahi", "Mikasa", "Asahi"], "in the order sent");
}

#[test]
fn held_mail_is_read_by_hand_with_despatch_held_retry() {
    let mut w = with_gm(1);
    assert!(matches!(
        w.send("japan", "FLAGSHIP Mikasa"),
        Intake::Accepted { .. }
    ));
    assert!(matches!(
        w.send("japan", "FLAGSHIP Asahi"),
        Intake::Held { .. }
    ));
    let key = w.daemon.data.held_mail().unwrap()[0].key.clone();
    let (ok, list, _) = despatch(&w, &["held"]);
    assert!(ok, "{list}");
    assert!(
        list.contains("Held mail: 1") && list.contains(&key),
        "{list}"
    );
    assert!(list.contains("over its seat's hourly limit"), "{list}");
    // Control: a key that names nothing is refused, and nothing is read.
    let (ok, _, err) = despatch(&w, &["held", "--retry", "ffffffff"]);
    assert!(!ok && err.contains("no held mail"), "{err}");
    assert_eq!(w.daemon.data.held_mail().unwrap().len(), 1);
    // By hand, the limit aside: read now (a start of the key is enough).
    let (ok, out, err) = despatch(&w, &["held", "--retry", &key[..6]]);
    assert!(ok, "{out}{err}");
    assert!(out.contains(&key) && out.contains("accepted"), "{out}");
    assert!(w.daemon.data.held_mail().unwrap().is_empty());
    assert!(receipts(&w).iter().any(|r| r.contains("FLAGSHIP Asahi")));
    // --drop sets one aside for good.
    assert!(matches!(
        w.send("japan", "FLAGSHIP Mikasa"),
        Intake::Held { .. }
    ));
    let key = w.daemon.data.held_mail().unwrap()[0].key.clone();
    let (ok, out, _) = despatch(&w, &["held", "--drop", &key]);
    assert!(ok && out.contains(&key), "{out}");
    assert!(w.daemon.data.held_mail().unwrap().is_empty());
    assert!(
        w.daemon
            .data
            .held_dir()
            .join(format!("dropped/{key}.eml"))
            .exists()
    );
}

#[test]
fn a_mail_that_fails_for_good_stays_listed_and_is_not_retried_hot() {
    let w = with_gm(60);
    break_game(&w);
    let t = w.now;
    drop_mail(&w, "japan", "x@x", "FLAGSHIP Asahi");
    // Two days of passes every ten minutes.
    let mut tries_seen = 0;
    for i in 0..=288 {
        let p = pass(&w, t + Duration::minutes(10 * i));
        tries_seen += p.retried.len();
    }
    let held = w.daemon.data.held_mail().unwrap();
    assert_eq!(held.len(), 1, "still listed");
    assert_eq!(held[0].tries, 24, "{:?}", held[0]);
    assert_eq!(tries_seen, 24);
    assert_eq!(held[0].next_try, None, "no more tries by itself");
    assert_eq!(
        to_with(&w, GM, "could not be processed").len(),
        1,
        "the organiser told once"
    );
    // A change of the game's folder (someone working on it) is tried once more.
    std::fs::write(seats_file(&w), "seats = 4\n").unwrap();
    let p = pass(&w, t + Duration::days(3));
    assert_eq!(p.retried.len(), 1, "{p:?}");
    assert!(
        pass(&w, t + Duration::days(3) + Duration::minutes(10))
            .retried
            .is_empty()
    );
}
