//! What the attack run found, as regression tests (issue "Hostile or odd mail never stops the
//! service…"): odd addresses and file names, a failing message or game set aside while the
//! others go on, floods and forgers that cannot cost a player their mail, nothing a forger
//! wrote echoed, out-of-range settings refused, torn side files healed, auto-responders caught.

use crate::world;

use chrono::Duration;
use despatch::config::{Config, DEFAULT_CONFIG};
use despatch::daemon::Intake;
use despatch::verify;
use world::*;

fn registry() -> despatch::engine::Registry {
    despatch::rulesets::registry()
}

fn drop_in_inbox(w: &World, name: &std::ffi::OsStr, raw: &[u8]) {
    let p = w.daemon.cfg.mail.inbox.join("new").join(name);
    std::fs::write(p, raw).unwrap();
}

#[test]
fn addresses_with_display_names_are_stored_mailable_and_replaced_likewise() {
    let mut w = world_with("training", 1000, |_| {});
    w.daemon
        .gm_replace(
            GAME,
            "russia",
            "Vitgeft, Wilgelm <wkv@port-arthur.example>",
            "new player",
            w.now,
        )
        .unwrap_err(); // a comma outside quotes is not one mailbox
    w.daemon
        .gm_replace(
            GAME,
            "russia",
            "\"Vitgeft, Wilgelm\" <WKV@port-arthur.example>",
            "new player",
            w.now,
        )
        .unwrap();
    let seats = w.daemon.data.game(GAME).seats().unwrap();
    assert_eq!(seats.seats["russia"].address, "wkv@port-arthur.example");
    assert_eq!(seats.seats["russia"].name, "Vitgeft, Wilgelm");
    let takeover = w
        .delivered()
        .into_iter()
        .find(|d| d.1 == "wkv@port-arthur.example")
        .expect("the new player's welcome went out");
    assert!(
        takeover.3.contains("Dear Vitgeft, Wilgelm"),
        "{}",
        takeover.3
    );
    // Odd numbers are refused before anything is recorded.
    let before = w.journal_len();
    assert!(
        w.daemon
            .gm_extend(GAME, 10_000_000_000, "x", w.now)
            .is_err()
    );
    assert!(w.daemon.gm_extend(GAME, 0, "x", w.now).is_err());
    assert_eq!(w.journal_len(), before);
    assert!(matches!(
        w.send("japan", "FLAGSHIP Mikasa\n"),
        Intake::Accepted { .. }
    ));
}

#[test]
fn inbox_files_with_any_name_are_read_and_moved() {
    use std::os::unix::ffi::OsStrExt;
    let mut w = world("training");
    let names: Vec<std::ffi::OsString> = vec![
        "with a space".into(),
        "hash#tag".into(),
        "slash\\057escaped".into(),
        "nön-ascii-ünïcödé".into(),
        "x".repeat(240).into(),
        std::ffi::OsStr::from_bytes(b"latin1-\xe9t\xe9").to_os_string(),
    ];
    for (i, name) in names.iter().enumerate() {
        let raw = mail(
            JAPAN,
            &reply_to("japan"),
            &format!("odd{i}@x"),
            "",
            "FLAGSHIP Mikasa\n",
        );
        drop_in_inbox(&w, name, &raw);
    }
    w.now += Duration::minutes(5);
    let pass = w.daemon.run_once(w.now).unwrap();
    assert_eq!(pass.processed.len(), names.len(), "{:?}", pass.processed);
    assert!(
        pass.processed
            .iter()
            .all(|p| matches!(p, Intake::Accepted { .. })),
        "{:?}",
        pass.processed
    );
    let left: Vec<_> = std::fs::read_dir(w.daemon.cfg.mail.inbox.join("new"))
        .unwrap()
        .collect();
    assert!(left.is_empty(), "every file was moved out of new/");
    // A second pass reads nothing again.
    assert!(w.daemon.run_once(w.now).unwrap().processed.is_empty());
}

#[test]
fn a_broken_game_is_set_aside_and_the_others_go_on_and_the_gm_is_told_once() {
    let mut w = world_with("training", 1000, |c| {
        c.mail.gm_address = Some("gm@club.example".into())
    });
    // A second game whose private seats file was damaged.
    w.daemon
        .create_game_with(
            "broken",
            "naval-rjw",
            "training",
            &[
                ("japan".into(), JAPAN.into()),
                ("russia".into(), RUSSIA.into()),
            ],
            w.now,
            despatch::dice::GameSecrets::pinned("broken", [9; 32], [8; 32], 100),
            &[
                "brokentokenjapanxxxxxxx".into(),
                "brokentokenrussiaxxxxxx".into(),
            ],
        )
        .unwrap();
    std::fs::write(
        w.daemon.data.game("broken").dir.join("seats.toml"),
        "seats = 3\n",
    )
    .unwrap();
    // Mail to the broken game fails and is quarantined; mail to the good game is applied.
    let raw = mail(
        JAPAN,
        "despatch+broken.japan.brokentokenjapanxxxxxxx@localhost",
        "b1@x",
        "",
        "PASS\n",
    );
    drop_in_inbox(&w, "1-broken".as_ref(), &raw);
    let raw = mail(JAPAN, &reply_to("japan"), "g1@x", "", "FLAGSHIP Mikasa\n");
    drop_in_inbox(&w, "2-good".as_ref(), &raw);
    w.now += Duration::minutes(5);
    let pass = w.daemon.run_once(w.now).unwrap();
    assert!(
        matches!(pass.processed[0], Intake::Failed(_)),
        "{:?}",
        pass.processed
    );
    assert!(
        matches!(pass.processed[1], Intake::Accepted { .. }),
        "{:?}",
        pass.processed
    );
    assert!(
        pass.failed_games.contains(&"broken".to_string()),
        "{pass:?}"
    );
    let quarantine = w.daemon.data.root.join("quarantine");
    assert_eq!(
        std::fs::read_dir(&quarantine).unwrap().count(),
        2,
        "the mail and its reason"
    );
    // Later passes go on for the good game; the organiser hears of each trouble once.
    for _ in 0..3 {
        w.now += Duration::minutes(5);
        w.daemon.run_once(w.now).unwrap();
    }
    let to_gm: Vec<_> = w
        .delivered()
        .into_iter()
        .filter(|d| d.1 == "gm@club.example")
        .collect();
    assert_eq!(
        to_gm.len(),
        2,
        "one report for the mail, one for the game: {to_gm:?}"
    );
    assert!(matches!(
        w.send("russia", "FLAGSHIP Tsesarevich\n"),
        Intake::Accepted { .. }
    ));
}

#[test]
fn a_forgers_flood_neither_silences_nor_squats_a_players_genuine_mail() {
    let mut w = world_with("training", 1000, |c| c.mail.max_per_sender_per_hour = 5);
    // 100 forged mails with Japan's From and no secret, one of them with the Message-ID the
    // player's real mail will carry.
    for i in 0..100 {
        let id = if i == 50 {
            "genuine@mikasa.example".to_string()
        } else {
            format!("forged{i}@x")
        };
        let raw = mail(
            JAPAN,
            "despatch+school.japan.wrongsecret@localhost",
            &id,
            "",
            "FLAGSHIP Asahi\n",
        );
        w.now += Duration::seconds(10);
        w.daemon.ingest(&raw, w.now).unwrap();
    }
    assert_eq!(w.journal_len(), 1, "nothing forged was applied");
    let warned = w
        .delivered()
        .into_iter()
        .filter(|d| d.2.contains("without your seat's secret"))
        .count();
    assert_eq!(warned, 1, "the player is warned once, not a hundred times");
    let raw = mail(
        JAPAN,
        &reply_to("japan"),
        "genuine@mikasa.example",
        "",
        "FLAGSHIP Mikasa\n",
    );
    w.now += Duration::minutes(1);
    assert!(matches!(
        w.daemon.ingest(&raw, w.now).unwrap(),
        Intake::Accepted { .. }
    ));
    // Re-delivered, it is recognised.
    assert_eq!(w.daemon.ingest(&raw, w.now).unwrap(), Intake::Duplicate);
}

#[test]
fn nothing_a_forger_writes_reaches_the_warning() {
    let mut w = world("training");
    let raw = format!(
        "From: <{JAPAN}>\r\nTo: despatch+school.japan.nope@localhost\r\nSubject: Your account is suspended, click http://evil.example\r\nMessage-ID: <f@x>\r\n\r\nFLAGSHIP Asahi\r\n"
    );
    w.now += Duration::minutes(1);
    w.daemon.ingest(raw.as_bytes(), w.now).unwrap();
    let warning = w
        .delivered()
        .into_iter()
        .find(|d| d.2.contains("without your seat's secret"))
        .unwrap();
    for word in ["suspended", "evil.example", "Asahi"] {
        assert!(
            !warning.3.contains(word) && !warning.2.contains(word),
            "{word} echoed: {warning:?}"
        );
    }
}

#[test]
fn an_auto_responder_that_ignores_auto_submitted_is_caught_after_three() {
    let mut w = world("training");
    let canned = "I am out of the office until Monday.\nFor urgent matters call 555-0100.\n";
    let mut rejected = 0;
    for _ in 0..8 {
        if matches!(w.send("japan", canned), Intake::Rejected { .. }) {
            rejected += 1;
        }
    }
    assert_eq!(rejected, 3, "three rejections, then silence");
    assert!(
        matches!(
            w.send("japan", "FLAGSHIP Mikasa\n"),
            Intake::Accepted { .. }
        ),
        "real orders still work"
    );
}

#[test]
fn out_of_range_settings_are_refused_with_one_line_each() {
    let tmp = tempfile::tempdir().unwrap();
    let origin = tmp.path().join("config.toml");
    for (from, to, says) in [
        ("step_hours = 72", "step_hours = 0", "step_hours"),
        ("log = \"info\"", "log = \"verbose!!\"", "daemon.log"),
        ("onion_len = 100000", "onion_len = 0", "onion_len"),
        ("poll_seconds = 10", "poll_seconds = 0", "poll_seconds"),
        (
            "max_per_sender_per_hour = 300",
            "max_per_sender_per_hour = 0",
            "max_per_sender_per_hour",
        ),
    ] {
        let text = DEFAULT_CONFIG.replace(from, to);
        assert_ne!(text, DEFAULT_CONFIG, "{from}");
        let e = Config::parse(&text, &origin).unwrap_err().to_string();
        assert!(e.contains(says) && e.lines().count() == 1, "{e}");
    }
    let both = DEFAULT_CONFIG.replace("inbound = \"maildir\"", "inbound = \"imap\"")
        + "\n[imap]\nhost = \"localhost\"\nuser = \"d\"\npassword_env = \"X\"\npassword_file = \"pw\"\n";
    let e = Config::parse(&both, &origin).unwrap_err().to_string();
    assert!(e.contains("not both"), "{e}");
    // A password file others can read is refused when it is read.
    let pw = tmp.path().join("pw");
    std::fs::write(&pw, "secret\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&pw, std::fs::Permissions::from_mode(0o644)).unwrap();
    let text = DEFAULT_CONFIG.replace("inbound = \"maildir\"", "inbound = \"imap\"")
        + "\n[imap]\nhost = \"localhost\"\nuser = \"d\"\npassword_file = \"pw\"\n";
    let cfg = Config::parse(&text, &origin).unwrap();
    let e = cfg
        .imap
        .as_ref()
        .unwrap()
        .password
        .resolve("imap")
        .unwrap_err()
        .to_string();
    assert!(e.contains("readable by others"), "{e}");
    std::fs::set_permissions(&pw, std::fs::Permissions::from_mode(0o600)).unwrap();
    assert_eq!(
        cfg.imap
            .unwrap()
            .password
            .resolve("imap")
            .unwrap()
            .as_deref(),
        Some("secret")
    );
}

#[test]
fn torn_side_files_heal_and_a_stale_snapshot_is_no_alarm() {
    let mut w = world("training");
    assert!(matches!(
        w.send("japan", "FLAGSHIP Mikasa\n"),
        Intake::Accepted { .. }
    ));
    let store = w.daemon.data.game(GAME);
    let snapshot = std::fs::read(store.dir.join("snapshot.json")).unwrap();
    // A crash mid-append left half a line in heads.log and in seen.log.
    for f in [
        store.dir.join("heads.log"),
        w.daemon.data.root.join("seen.log"),
    ] {
        let mut bytes = std::fs::read(&f).unwrap();
        bytes.extend_from_slice(b"17\tdeadbe");
        std::fs::write(&f, bytes).unwrap();
    }
    assert!(
        verify::verify_store(&store, &registry()).1.is_empty(),
        "a torn line is no tamper"
    );
    assert!(matches!(
        w.send("russia", "FLAGSHIP Tsesarevich\n"),
        Intake::Accepted { .. }
    ));
    assert!(
        !std::fs::read_to_string(store.dir.join("heads.log"))
            .unwrap()
            .contains("deadbe")
    );
    // A snapshot left behind by a crash (older than the journal) is only a cache.
    std::fs::write(store.dir.join("snapshot.json"), snapshot).unwrap();
    let (_, findings) = verify::verify_store(&store, &registry());
    assert!(findings.is_empty(), "{findings:?}");
    assert!(
        matches!(w.send("japan", "PASS\n"), Intake::Accepted { .. }),
        "the daemon rebuilds it"
    );
    assert!(verify::verify_store(&store, &registry()).1.is_empty());
}

/// Issue 29, point 2: a crash after a journal line and before its head left heads.log one
/// index short (5 of 16 games in the attack run, never repaired). The next append fills the
/// gap from the journal's own bytes, so every line is pinned down again.
#[test]
fn a_head_lost_in_a_crash_is_filled_in_by_the_next_append() {
    let mut w = world("training");
    assert!(matches!(
        w.send("japan", "FLAGSHIP Mikasa\n"),
        Intake::Accepted { .. }
    ));
    let store = w.daemon.data.game(GAME);
    let heads = store.dir.join("heads.log");
    let indexes = |store: &despatch::store::GameStore| -> Vec<u64> {
        store
            .recorded_heads()
            .unwrap()
            .iter()
            .map(|(i, _)| *i)
            .collect()
    };
    let lines = store.read_journal().unwrap().lines.len() as u64;
    assert_eq!(indexes(&store), (0..lines).collect::<Vec<_>>(), "control");
    // The crash: the last line's head never reached heads.log.
    let text = std::fs::read_to_string(&heads).unwrap();
    let kept: Vec<&str> = text.lines().collect();
    std::fs::write(&heads, kept[..kept.len() - 1].join("\n") + "\n").unwrap();
    assert_eq!(indexes(&store).len() as u64, lines - 1, "a one-index gap");

    assert!(matches!(
        w.send("russia", "FLAGSHIP Tsesarevich\n"),
        Intake::Accepted { .. }
    ));
    let now = store.read_journal().unwrap().lines;
    assert_eq!(
        indexes(&store),
        (0..now.len() as u64).collect::<Vec<_>>(),
        "every index recorded again, in order"
    );
    // Each filled head is the chain's own: verify holds every line to them.
    let mut head = despatch::dice::log_genesis(despatch::dice::Protocol::V2);
    let recorded = store.recorded_heads().unwrap();
    for (i, line) in now.iter().enumerate() {
        head = despatch::dice::log_step(despatch::dice::Protocol::V2, &head, line.as_bytes());
        assert_eq!(recorded[i].1, despatch::dice::to_hex(&head), "head #{i}");
    }
    assert!(verify::verify_store(&store, &registry()).1.is_empty());
}

/// Issue 29, point 1: the store's mail key must be the one the creation event committed to
/// (the key on every welcome's anchor line); a swapped key is a finding of `verify`.
#[test]
fn a_host_secret_whose_mail_key_is_not_the_committed_one_fails_verify() {
    let w = world("training");
    let store = w.daemon.data.game(GAME);
    assert!(
        verify::verify_store(&store, &registry()).1.is_empty(),
        "control: the store as made"
    );
    let p = store.dir.join("host.secret");
    let text = std::fs::read_to_string(&p).unwrap();
    let line = text
        .lines()
        .find(|l| l.starts_with("mail_key = "))
        .expect("a game made since mails are signed keeps its mail key")
        .to_string();
    std::fs::write(
        &p,
        text.replace(&line, &format!("mail_key = \"{}\"", "44".repeat(32))),
    )
    .unwrap();
    let (_, found) = verify::verify_store(&store, &registry());
    assert!(found.iter().any(|f| f.field == "mail_key"), "{found:?}");
}
