//! Issue 31 point 5: `CALENDAR` by mail answers with every deadline of every game the player
//! plays, listed in the seat's zone and attached as one iCalendar whose entries carry the same
//! UIDs as each step's own entry; a moved deadline moves in it, a paused game has no entry,
//! and no other player's seats are in it. `verify` on the mails still holds.

use chrono::{DateTime, Duration, TimeZone, Utc};
use despatch::config::{Config, DEFAULT_CONFIG};
use despatch::daemon::{Daemon, Intake};
use mail_parser::{MessageParser, MimeHeaders};

const ANN: &str = "ann@club.example";
const BOB: &str = "bob@club.example";
const CY: &str = "cy@club.example";

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 12, 1, 9, 0, 0).unwrap()
}

fn club() -> (tempfile::TempDir, Daemon) {
    let tmp = tempfile::tempdir().unwrap();
    let mut cfg = Config::parse(DEFAULT_CONFIG, &tmp.path().join("config.toml")).unwrap();
    cfg.games.games_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    cfg.games.games_dir_set = true;
    cfg.games.onion_len = 200;
    cfg.mail.gm_address = Some("gm@club.example".into());
    let d = Daemon::new(cfg).unwrap();
    for (id, japan, russia) in [("g1", ANN, BOB), ("g2", CY, ANN), ("g3", BOB, CY)] {
        let seats =
            [("japan", japan), ("russia", russia)].map(|(s, a)| (s.to_string(), a.to_string()));
        d.create_game_as(
            id,
            "naval-rjw",
            "training",
            &seats,
            t0(),
            &Default::default(),
        )
        .unwrap();
    }
    d.deliver().unwrap();
    (tmp, d)
}

/// Ann's seat in g1 asks; returns (text, the attached calendar).
fn ask(d: &Daemon, n: u32, at: DateTime<Utc>) -> (String, String) {
    let tok = d.data.game("g1").seats().unwrap().seats["japan"]
        .token
        .clone();
    let raw = format!(
        "From: <{ANN}>\r\nTo: despatch+g1.japan.{tok}@localhost\r\nSubject: cal\r\nMessage-ID: <c{n}@club.example>\r\n\r\nCALENDAR\r\n"
    );
    let got = d.ingest(raw.as_bytes(), at).unwrap();
    assert!(
        matches!(
            got,
            Intake::Talk {
                command: "calendar",
                ..
            }
        ),
        "{got:?}"
    );
    d.deliver().unwrap();
    let mut found = None;
    for sub in ["new", "cur"] {
        for e in std::fs::read_dir(d.cfg.mail.outbox.join(sub)).unwrap() {
            let bytes = std::fs::read(e.unwrap().path()).unwrap();
            let m = MessageParser::default().parse(&bytes).unwrap();
            if m.in_reply_to().as_text() != Some(&format!("c{n}@club.example")) {
                continue;
            }
            let ics = m
                .attachments()
                .find(|a| a.attachment_name() == Some("deadline.ics"))
                .map(|a| String::from_utf8_lossy(a.contents()).into_owned())
                .expect("the calendar is attached");
            found = Some((m.body_text(0).unwrap().into_owned(), ics));
        }
    }
    found.expect("CALENDAR answered")
}

fn dtstart(ics: &str, uid: &str) -> String {
    let unfolded = ics.replace("\r\n", "\n").replace("\n ", "");
    let ev = unfolded
        .split("BEGIN:VEVENT")
        .find(|e| e.lines().any(|l| l == format!("UID:{uid}")))
        .unwrap_or_else(|| panic!("no {uid} in {ics}"));
    ev.lines()
        .find_map(|l| l.strip_prefix("DTSTART:"))
        .unwrap()
        .to_string()
}

#[test]
fn calendar_lists_every_game_of_the_player_and_follows_moved_and_paused_deadlines() {
    let (_tmp, d) = club();
    let (text, ics) = ask(&d, 1, t0() + Duration::hours(1));
    assert_eq!(ics.matches("BEGIN:VEVENT").count(), 2, "{ics}");
    let deadline = d.open_game("g1").unwrap().game.book().deadline.unwrap();
    assert_eq!(
        dtstart(&ics, "g1-1-japan@localhost"),
        deadline.format("%Y%m%dT%H%M%SZ").to_string()
    );
    dtstart(&ics, "g2-1-russia@localhost");
    // Only Ann's seats: not Bob's g1 seat, nothing of g3.
    assert!(
        !ics.contains("g1-1-russia") && !ics.contains("g3-"),
        "{ics}"
    );
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("g1 (japan): step 1, your orders are due"),
        "{flat}"
    );
    assert!(flat.contains("g2 (russia): step 1"), "{flat}");
    // The entry carries the same UID as the step's own mail entry.
    let welcome_uid = "g1-1-japan@localhost";
    assert!(ics.contains(&format!("UID:{welcome_uid}")));

    // The organiser moves g2's deadline: the next calendar has it moved, at a higher SEQUENCE.
    let moved = d
        .gm_extend("g2", 24, "a holiday", t0() + Duration::hours(2))
        .unwrap();
    let (_, ics2) = ask(&d, 2, t0() + Duration::hours(3));
    assert_eq!(
        dtstart(&ics2, "g2-1-russia@localhost"),
        moved.format("%Y%m%dT%H%M%SZ").to_string()
    );
    let seq = |ics: &str| -> u64 {
        let unfolded = ics.replace("\r\n", "\n").replace("\n ", "");
        let ev = unfolded
            .split("BEGIN:VEVENT")
            .find(|e| e.contains("UID:g2-"))
            .unwrap()
            .to_string();
        ev.lines()
            .find_map(|l| l.strip_prefix("SEQUENCE:"))
            .unwrap()
            .parse()
            .unwrap()
    };
    assert!(
        seq(&ics2) > seq(&ics),
        "the moved entry replaces the old one"
    );

    // Paused: no entry, and the text says so.
    d.gm_pause("g2", "club weekend", t0() + Duration::hours(4))
        .unwrap();
    let (text3, ics3) = ask(&d, 3, t0() + Duration::hours(5));
    assert_eq!(ics3.matches("BEGIN:VEVENT").count(), 1, "{ics3}");
    assert!(text3.contains("paused by the organiser"), "{text3}");

    // Positive control for "only Ann's": Bob's calendar has his two seats.
    let bob = d.player_calendar(BOB, "UTC", t0()).unwrap();
    assert!(bob.ics.contains("UID:g1-1-russia@localhost"));
    assert!(bob.ics.contains("UID:g3-1-japan@localhost"));

    // The mails as sent still verify.
    let (_, findings) = despatch::verify::verify_mails(&d.cfg.mail.outbox, None);
    assert!(findings.is_empty(), "{findings:?}");
}

/// Issue 32 point 4: the calendar reads only the games the players index names for the
/// address. The index may name more (an address moved away); it must never name fewer: the
/// feed is the same as a scan of every game's seats, after an address change, and after the
/// index is taken away (rebuilt from the games at the next look).
#[test]
fn the_calendar_read_through_the_players_index_is_the_full_scans() {
    let (_tmp, d) = club();
    let at = t0() + Duration::hours(1);
    let scan = |addr: &str| -> Vec<String> {
        let mut ids: Vec<String> = d
            .data
            .game_ids()
            .unwrap()
            .into_iter()
            .filter(|id| {
                d.data
                    .game(id)
                    .seats()
                    .unwrap()
                    .seats
                    .values()
                    .any(|p| p.address.eq_ignore_ascii_case(addr))
            })
            .collect();
        ids.sort();
        ids
    };
    let listed = |addr: &str| -> Vec<String> {
        let cal = d.player_calendar(addr, "UTC", at).unwrap();
        let mut ids: Vec<String> = cal
            .lines
            .iter()
            .map(|l| l.split(' ').next().unwrap().to_string())
            .collect();
        ids.sort();
        ids.dedup();
        ids
    };
    const DEE: &str = "dee@club.example";
    let check = |what: &str| {
        for a in [ANN, BOB, CY, DEE] {
            assert_eq!(listed(a), scan(a), "{what}: {a}");
        }
    };
    check("as made");
    assert_eq!(listed(ANN), ["g1", "g2"]);
    // Cy hands g3's seat to Dee: the index learns of Dee before the seats file says so.
    let store = d.data.game("g3");
    let mut seats = store.seats().unwrap();
    seats.seats.get_mut("russia").unwrap().address = DEE.into();
    store.write_seats(&seats).unwrap();
    check("after an address change");
    assert_eq!(listed(DEE), ["g3"]);
    // The index taken away: rebuilt from the games, the same feeds.
    let ics = d.player_calendar(ANN, "UTC", at).unwrap();
    std::fs::remove_dir_all(d.data.root.join("players")).unwrap();
    check("after the index was taken away");
    assert_eq!(d.player_calendar(ANN, "UTC", at).unwrap(), ics);
}
