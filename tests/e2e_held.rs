//! Issue 27.3 over real IMAP (Dovecot) and SMTP (Postfix): a seat's mails over its hourly
//! limit are held — the local copy kept, the server's filed in `Despatch/Held`, the
//! IMAP cursor past them — the seat is told once, and they are read, in order, once the
//! seat's hour has room. The daemon runs in this process so that the test holds its clock
//! (an hour cannot pass in a test otherwise); the mail goes through the real servers.

use chrono::{Duration, Utc};
use despatch::config::{Config, PasswordSource};
use despatch::daemon::{Daemon, Intake};
use despatch::dice::GameSecrets;
use despatch::verify;

use crate::common;
use common::*;

const TOKEN_J: &str = "japanheldtoken0123456789";
const TOKEN_R: &str = "russiaheldtoken012345678";

#[test]
fn over_the_hourly_limit_imap_mail_is_held_filed_and_read_when_the_hour_has_room() {
    if !enabled() {
        return;
    }
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    for u in ["despatch", "togo", "vitgeft", "gm"] {
        clear(u);
    }
    let h = host(
        "max_per_sender_per_hour = 3",
        10143,
        "starttls",
        10587,
        "starttls",
    );
    let mut cfg = Config::load(&h.config).unwrap();
    let pw = h.dir.path().join("password");
    std::fs::write(&pw, "despatch-pass\n").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&pw, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    let from_file = PasswordSource {
        password_env: None,
        password_file: Some(pw),
    };
    cfg.imap.as_mut().unwrap().password = from_file.clone();
    cfg.smtp.as_mut().unwrap().password = from_file;
    let d = Daemon::new(cfg).unwrap();
    let t0 = Utc::now();
    let togo = format!("togo@{DOMAIN}");
    d.create_game_with(
        "heldimap",
        "naval-rjw",
        "training",
        &[
            ("japan".into(), togo.clone()),
            ("russia".into(), format!("vitgeft@{DOMAIN}")),
        ],
        t0,
        GameSecrets::pinned("heldimap", [0x21; 32], [0x22; 32], 1000),
        &[TOKEN_J.into(), TOKEN_R.into()],
    )
    .unwrap();
    d.deliver_at(t0).unwrap();
    let to = format!("despatch+heldimap.japan.{TOKEN_J}@{DOMAIN}");
    for (i, ship) in ["Mikasa", "Asahi", "Mikasa", "Asahi", "Mikasa"]
        .iter()
        .enumerate()
    {
        swaks(
            &togo,
            &to,
            &format!("held-{i}@{DOMAIN}"),
            "orders",
            &format!("FLAGSHIP {ship}\n"),
        );
    }
    wait_until("the five mails", std::time::Duration::from_secs(30), || {
        mailbox("despatch", "INBOX")
            .iter()
            .filter(|m| m.message_id.starts_with("held-"))
            .count()
            == 5
    });
    let first = d.run_once(t0 + Duration::minutes(1)).unwrap();
    let words: Vec<&str> = first.processed.iter().map(Intake::word).collect();
    assert_eq!(
        words,
        ["accepted", "accepted", "accepted", "held", "held"],
        "{first:?}"
    );
    let held: Vec<String> = d
        .data
        .held_mail()
        .unwrap()
        .into_iter()
        .map(|m| m.key)
        .collect();
    assert_eq!(held.len(), 2);
    let held_folder = mailbox("despatch", "Despatch/Held");
    assert_eq!(held_folder.len(), 2, "the server's copies filed as held");
    assert!(
        !mailbox("despatch", "INBOX")
            .iter()
            .any(|m| m.message_id.starts_with("held-")),
        "nothing left to read twice"
    );
    // The cursor is past them: the next pass reads nothing again.
    let again = d.run_once(t0 + Duration::minutes(2)).unwrap();
    assert!(
        again.processed.iter().all(|i| i.word() != "held"),
        "{again:?}"
    );
    assert!(again.retried.is_empty(), "{again:?}");
    wait_until("the notice", std::time::Duration::from_secs(30), || {
        mailbox("togo", "INBOX")
            .iter()
            .any(|m| m.subject.contains("Your mail is held"))
    });
    // An hour after the first three, both are read, in the order sent.
    let later = d.run_once(t0 + Duration::minutes(62)).unwrap();
    let order: Vec<&String> = later.retried.iter().map(|(k, _)| k).collect();
    assert_eq!(order, held.iter().collect::<Vec<_>>(), "{later:?}");
    assert!(
        later
            .retried
            .iter()
            .all(|(_, i)| matches!(i, Intake::Accepted { .. })),
        "{later:?}"
    );
    assert!(d.data.held_mail().unwrap().is_empty());
    wait_until("five receipts", std::time::Duration::from_secs(30), || {
        mailbox("togo", "INBOX")
            .iter()
            .filter(|m| m.text.contains("Orders received for"))
            .count()
            == 5
    });
    let inbox = mailbox("togo", "INBOX");
    assert_eq!(
        inbox
            .iter()
            .filter(|m| m.subject.contains("Your mail is held"))
            .count(),
        1,
        "told once"
    );
    let store = d.data.game("heldimap");
    let (_, findings) = verify::verify_store(&store, &despatch::rulesets::registry());
    assert!(findings.is_empty(), "{findings:?}");
}
