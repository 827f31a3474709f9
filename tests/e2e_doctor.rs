//! Issue 27 point 7 against the loopback Dovecot and Postfix: `despatch doctor` logs in to
//! IMAP (TLS and STARTTLS, folder selected) and SMTP (STARTTLS and implicit TLS, AUTH) with
//! the right password and says OK; with a wrong one it names the refused login (AUTH) of each
//! and exits 1. Runs when DESPATCH_E2E=1, under the real-server lock.

use crate::common;
use common::*;

fn doctor(h: &Host, password: &str) -> (Option<i32>, String) {
    let out = h
        .cmd()
        .arg("doctor")
        .env("DESPATCH_E2E_IMAP_PW", password)
        .env("DESPATCH_E2E_SMTP_PW", password)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn doctor_logs_in_to_the_real_servers_and_names_a_refused_login() {
    if !enabled() {
        return;
    }
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    for (imap_port, imap_sec, smtp_port, smtp_sec) in [
        (10143, "starttls", 10587, "starttls"),
        (10993, "tls", 10465, "tls"),
    ] {
        let h = host("", imap_port, imap_sec, smtp_port, smtp_sec);
        let (code, out) = doctor(&h, "despatch-pass");
        assert_eq!(code, Some(0), "{out}");
        assert!(
            out.contains(&format!(
                "OK      imap localhost:{imap_port}: TLS, login as despatch and folder INBOX fine"
            )),
            "{out}"
        );
        let tls = if smtp_sec == "tls" { "TLS" } else { "STARTTLS" };
        assert!(
            out.contains(&format!(
                "OK      smtp localhost:{smtp_port}: EHLO, {tls} and AUTH as despatch fine"
            )),
            "{out}"
        );
        let (code, out) = doctor(&h, "not-the-password");
        assert_eq!(code, Some(1), "{out}");
        for (what, port) in [("imap", imap_port), ("smtp", smtp_port)] {
            let line = out
                .lines()
                .find(|l| l.starts_with(&format!("PROBLEM {what} localhost:{port}")))
                .unwrap_or_else(|| panic!("no {what} problem in:\n{out}"));
            assert!(line.contains("login refused (AUTH)"), "{line}");
        }
        assert!(out.contains("check [smtp] user and the password"), "{out}");
    }
}
