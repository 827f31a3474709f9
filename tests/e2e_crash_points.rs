//! Issue 32 point 5 over real IMAP (Dovecot) and SMTP (Postfix): the fsyncs taken out of
//! delivery and intake (the in-flight mark and `sent/` per mail, `imap-state.json` per mail)
//! lose and duplicate nothing. The daemon crashes on purpose at each point they guarded
//! (`DESPATCH_CRASH_AT`), then is started again; after a process crash every write it made is
//! seen, and after a simulated machine crash the unsynced ones are undone by hand (the marks
//! and renames gone, the batch record from another boot). Every mail then arrives once, and
//! the order is applied once.

use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::common;
use common::*;

/// What the machine crash undoes: the writes made without an fsync since the batch record.
fn lose_unsynced_writes(h: &Host, point: &str) {
    let data = h.data();
    let _ = std::fs::remove_file(data.root.join("imap-state.json"));
    let mut stores: Vec<_> = data
        .game_ids()
        .unwrap()
        .iter()
        .map(|g| data.game(g))
        .collect();
    stores.push(data.house());
    let mut batches = 0;
    for store in stores {
        let outbox = store.outbox_dir();
        for e in std::fs::read_dir(&outbox).into_iter().flatten().flatten() {
            if e.path().extension().is_some_and(|x| x == "retry") {
                std::fs::remove_file(e.path()).unwrap();
            }
        }
        let Some(mut batch) = store.sending().unwrap() else {
            continue;
        };
        batches += 1;
        for name in &batch.names {
            let sent = store.sent_dir().join(name);
            if sent.exists() {
                std::fs::rename(&sent, outbox.join(name)).unwrap();
            }
        }
        batch.boot = "a-boot-before-the-crash".into();
        let record = store.outbox_dir().join("../sending.json");
        std::fs::write(record, serde_json::to_string(&batch).unwrap()).unwrap();
    }
    if point != "imap-state" {
        assert!(batches > 0, "a crash at {point} leaves a batch record");
    }
}

/// One order, a crash at `point`, then a clean run: every mail once, the order once.
fn crash_at(point: &str, machine: bool) {
    for u in ["despatch", "togo", "vitgeft", "gm"] {
        clear(u);
    }
    let mut h = host(
        "max_per_sender_per_hour = 100",
        10143,
        "starttls",
        10465,
        "tls",
    );
    h.despatch(&[
        "new",
        "c",
        "--ruleset",
        "naval-rjw",
        "--scenario",
        "training",
        "--seat",
        &format!("japan=togo@{DOMAIN}"),
        "--seat",
        &format!("russia=vitgeft@{DOMAIN}"),
    ]);
    let token = h.data().game("c").seats().unwrap().seats["japan"]
        .token
        .clone();
    let id = format!("crash-{point}-{machine}@{DOMAIN}");
    bulk_send(&[(
        format!("togo@{DOMAIN}"),
        format!("despatch+c.japan.{token}@{DOMAIN}"),
        id.clone(),
        "FLAGSHIP Mikasa\n".into(),
    )]);
    // The order must be in the folder before the daemon's first look, so that one pass reads
    // it and delivers its answers in one batch (`new` sent the welcomes, whose copies wait
    // in the folder too).
    wait_until("the order in the folder", Duration::from_secs(30), || {
        mailbox("despatch", "INBOX")
            .iter()
            .any(|m| m.message_id == id)
    });
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&h.log)
        .unwrap();
    let mut crashing = h
        .cmd()
        .arg("run")
        .env("DESPATCH_CRASH_AT", point)
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .unwrap();
    let start = Instant::now();
    let status = loop {
        if let Some(s) = crashing.try_wait().unwrap() {
            break s;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no crash at {point}"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(!status.success(), "{point}: {status}");
    assert!(
        h.log_text().contains("crashing on purpose"),
        "{point}: {}",
        h.log_text()
    );
    if machine {
        lose_unsynced_writes(&h, point);
    }
    h.start();
    wait_until("the answers", Duration::from_secs(60), || {
        outboxes_empty(&h) && mailbox("despatch", "INBOX").is_empty()
    });
    // The copies and any mail sent twice have time to arrive.
    std::thread::sleep(Duration::from_secs(3));
    h.kill();
    assert_each_sent_mail_arrived_once(&h, &["togo", "vitgeft", "gm"]);
    let journal = h.data().game("c").read_journal().unwrap();
    let applied = journal
        .lines
        .iter()
        .filter(|l| l.contains(&id) && l.contains("\"submission\""))
        .count();
    assert_eq!(applied, 1, "{point}: the order applied {applied} times");
    let sent = h.data().game("c").sent().unwrap().len();
    assert!(sent >= 2, "{point}: only {sent} mails sent");
}

/// One test per point and kind of crash, so that each shows on its own when it fails.
macro_rules! crash_tests {
    ($($name:ident: $point:literal, $machine:literal;)*) => {$(
        #[test]
        fn $name() {
            if !enabled() {
                return;
            }
            let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
            crash_at($point, $machine);
        }
    )*};
}

crash_tests! {
    a_process_crash_after_the_server_took_a_mail_sends_it_once: "taken", false;
    a_machine_crash_after_the_server_took_a_mail_sends_it_once: "taken", true;
    a_process_crash_before_a_batch_is_fsynced_sends_each_mail_once: "batch-end", false;
    a_machine_crash_before_a_batch_is_fsynced_sends_each_mail_once: "batch-end", true;
    a_process_crash_after_the_unsynced_imap_state_applies_the_order_once: "imap-state", false;
    a_machine_crash_that_loses_the_imap_state_applies_the_order_once: "imap-state", true;
}
