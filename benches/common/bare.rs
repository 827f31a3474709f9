//! The mail_loop bench's yardstick: a bare IDLE responder doing the mail work Despatch does per
//! order and nothing else (no store, no fsync). Measures itself; decides nothing.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::common::*;
use lettre::Transport;

/// What the bare responder counts of itself: when it sent each IMAP command, its CPU so far.
pub struct BareCounts {
    pub commands: Arc<Mutex<Vec<f64>>>,
    pub cpu_us: Arc<AtomicU64>,
}

/// Seconds since the epoch (the clock of Dovecot's rawlog).
pub fn now_epoch() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs_f64()
}

/// This thread's CPU time so far, µs.
fn thread_cpu_us() -> u64 {
    use nix::sys::resource::{UsageWho, getrusage};
    let u = getrusage(UsageWho::RUSAGE_THREAD).unwrap();
    let us = |t: nix::sys::time::TimeVal| t.tv_sec() as u64 * 1_000_000 + t.tv_usec() as u64;
    us(u.user_time()) + us(u.system_time())
}

/// The yardstick's responder: the mail work Despatch does per order, and nothing else.
/// The first reply of each order goes to the player, the others (Despatch's notices to the
/// other seats) to `others`.
pub fn bare_responder(stop: Arc<AtomicBool>, reply_size: usize, replies: u32, meter: BareCounts) {
    use lettre::transport::smtp::authentication::Credentials;
    use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters};
    let (player, others) = (format!("makarov@{DOMAIN}"), format!("gm@{DOMAIN}"));
    let pem = std::fs::read(ca()).unwrap();
    let params = TlsParameters::builder("localhost".into())
        .add_root_certificate(Certificate::from_pem(&pem).unwrap())
        .build()
        .unwrap();
    let smtp = lettre::SmtpTransport::builder_dangerous("localhost")
        .port(10587)
        .tls(Tls::Required(params))
        .credentials(Credentials::new("bench".into(), "bench-pass".into()))
        .build();
    let own = format!("bench@{DOMAIN}");
    let envelope = |to: &str| {
        lettre::address::Envelope::new(
            Some(own.parse().unwrap()),
            vec![to.parse().unwrap(), own.parse().unwrap()],
        )
        .unwrap()
    };
    let mut s = imap_login("bench");
    let _ = s.create("Done");
    s.select("INBOX").unwrap();
    let count = |n: usize| {
        let t = now_epoch();
        meter
            .commands
            .lock()
            .unwrap()
            .extend(std::iter::repeat_n(t, n));
        meter.cpu_us.store(thread_cpu_us(), Ordering::Relaxed);
    };
    let mut n = 0u64;
    while !stop.load(Ordering::Relaxed) {
        // The fresh look, then IDLE while the mailbox is empty.
        s.noop().unwrap();
        let uids = s.uid_search("ALL").unwrap();
        count(2);
        if uids.is_empty() {
            // Long: a short timeout would be a slow poll, and make the yardstick's cold path
            // quicker than any IDLE client's.
            let _ = s
                .idle()
                .and_then(|h| h.wait_with_timeout(Duration::from_secs(120)));
            count(1);
            continue;
        }
        for uid in uids {
            let fetched = s.uid_fetch(uid.to_string(), "BODY.PEEK[]").unwrap();
            let raw = fetched
                .iter()
                .next()
                .and_then(|f| f.body())
                .unwrap_or_default()
                .to_vec();
            drop(fetched);
            // Its own copies are filed, as Despatch files its copies in Sent.
            let is_copy = raw.windows(9).any(|w| w == b"X-Bare: 1");
            s.uid_mv(uid.to_string(), "Done").unwrap();
            count(2);
            if is_copy {
                continue;
            }
            for r in 0..replies {
                n += 1;
                let to = if r == 0 { &player } else { &others };
                let mut mail = format!(
                    "From: <{own}>\r\nTo: <{to}>\r\nSubject: Re: orders\r\nMessage-ID: <bare-reply-{n}@{DOMAIN}>\r\nX-Bare: 1\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
                )
                .into_bytes();
                // Pad to the receipt's size with plain lines.
                while mail.len() + 2 < reply_size {
                    mail.extend_from_slice(b"x".repeat(70).as_slice());
                    mail.extend_from_slice(b"\r\n");
                }
                smtp.send_raw(&envelope(to), &mail).unwrap();
            }
            count(0);
        }
    }
    let _ = s.logout();
}
