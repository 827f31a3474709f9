//! Issue 29 point 4: one-click unsubscription that works (RFC 8058, docs/club-rules.md L1).
//! `despatch listen`'s server runs on 127.0.0.1:0; a code is taken from a real mail's
//! `List-Unsubscribe` header and POSTed as a mail provider would; the daemon's next pass
//! carries it out as STOP. GET, garbage, oversize and slow requests queue nothing, and the
//! server goes on serving.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::time::Duration;

use crate::club_consent::{WATCHER, code_of, flat, header, naval_mail_now, raw_to, seats};
use crate::naval_mail;

use despatch::config::Config;
use despatch::engine::club::Spectators;
use despatch::listen::{Limits, Site, base_path, serve};
use naval_mail::{Game, SEATS, start_configured};

const URL: &str = "https://club.example/despatch/stop";
const FORM: &str = "List-Unsubscribe=One-Click";

/// A game with one-click configured, a confirmed spectator, two steps played, and a listener.
fn watched_game() -> (Game, SocketAddr) {
    let mut g = start_configured("training", |c: &mut Config| {
        c.games.policy.club.spectators = Spectators::Players;
        c.web.unsubscribe_url = Some(URL.into());
    });
    g.d.gm_spectator("g", true, WATCHER, naval_mail_now())
        .unwrap();
    let (code, _) = code_of(&g, WATCHER);
    g.send_from(WATCHER, "despatch+g@localhost", "Re: x", None, &code);
    g.play_until(2);
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let site = Site {
        base_path: base_path(URL),
        data: g.d.data.clone(),
        limits: Limits {
            read_timeout: Duration::from_millis(500),
            deadline: Duration::from_secs(1),
            ..Limits::default()
        },
    };
    std::thread::spawn(move || serve(listener, site));
    (g, addr)
}

/// The one-click URI of the newest mail to `address`, and its path on the listener.
fn one_click_path(g: &Game, address: &str) -> String {
    let raw = raw_to(g, address).pop().expect("a mail");
    let l = header(&raw, "List-Unsubscribe").unwrap();
    assert_eq!(
        header(&raw, "List-Unsubscribe-Post").as_deref(),
        Some("List-Unsubscribe=One-Click")
    );
    let uri = l
        .strip_prefix('<')
        .and_then(|l| l.split_once('>'))
        .map(|(u, _)| u)
        .unwrap();
    assert!(uri.starts_with(&format!("{URL}/")), "{uri}");
    uri.strip_prefix("https://club.example")
        .unwrap()
        .to_string()
}

/// Sends `raw` and returns the whole answer.
fn exchange(addr: SocketAddr, raw: &[u8]) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    // A server that closes early may refuse the rest of an oversize request: fine.
    let _ = s.write_all(raw);
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    String::from_utf8_lossy(&out).into_owned()
}

fn post(addr: SocketAddr, path: &str, content_type: &str, body: &str) -> String {
    exchange(
        addr,
        format!(
            "POST {path} HTTP/1.1\r\nHost: club.example\r\nContent-Type: {content_type}\r\n\
             Content-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .as_bytes(),
    )
}

fn status(answer: &str) -> u16 {
    answer
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status: {answer:?}"))
}

fn queued(g: &Game) -> usize {
    g.d.data.queued_unsubscribes().unwrap().len()
}

fn journal(g: &Game) -> String {
    String::from_utf8(g.journal()).unwrap()
}

#[test]
fn a_spectators_one_click_post_is_carried_out_by_the_next_pass() {
    let (g, addr) = watched_game();
    let path = one_click_path(&g, WATCHER);
    let answer = post(addr, &path, "application/x-www-form-urlencoded", FORM);
    assert_eq!(status(&answer), 200, "{answer}");
    assert!(answer.contains("Unsubscribed"), "{answer}");
    // Queued, not yet done: the listener touches no game.
    assert_eq!(queued(&g), 1);
    assert_eq!(seats(&g).spectators.len(), 1);
    let left = |g: &Game| journal(g).matches("\"spectator_left\"").count();
    assert_eq!(left(&g), 0);
    g.d.run_once(naval_mail_now()).unwrap();
    assert!(seats(&g).spectators.is_empty());
    assert_eq!(left(&g), 1, "journaled as gm unsubscribe does");
    assert_eq!(queued(&g), 0);
    let told = g.inbox("russia").pop().unwrap();
    assert!(
        flat(&told.text).contains("at their own request"),
        "{}",
        told.text
    );
    // Nothing more goes to the spectator, and no code is left in the data folder's queue.
    let before = g.mails_to(WATCHER).len();
    g.d.run_once(naval_mail_now()).unwrap();
    assert_eq!(g.mails_to(WATCHER).len(), before);
}

#[test]
fn a_seats_one_click_is_its_stop_and_curl_can_send_it() {
    let (g, addr) = watched_game();
    let path = one_click_path(&g, SEATS[0].1);
    let url = format!("http://{addr}{path}");
    let curl = std::process::Command::new("curl")
        .args(["-s", "-X", "POST", "-d", FORM, &url])
        .output();
    match curl {
        Ok(out) if out.status.success() => {
            let said = String::from_utf8_lossy(&out.stdout);
            assert!(said.contains("Unsubscribed"), "{said}");
        }
        // No curl on this machine: the same request by hand.
        _ => {
            let answer = post(addr, &path, "application/x-www-form-urlencoded", FORM);
            assert_eq!(status(&answer), 200, "{answer}");
        }
    }
    assert_eq!(queued(&g), 1);
    assert!(
        seats(&g).seats["japan"].notify.orders,
        "not before the pass"
    );
    g.d.run_once(naval_mail_now()).unwrap();
    let n = seats(&g).seats["japan"].notify;
    assert!(!n.orders && !n.optional, "STOP (S1): {n:?}");
    assert!(seats(&g).seats["russia"].notify.orders, "only that seat");
    assert_eq!(queued(&g), 0);
}

#[test]
fn get_shows_a_button_and_never_unsubscribes() {
    let (g, addr) = watched_game();
    let path = one_click_path(&g, WATCHER);
    let answer = exchange(
        addr,
        format!("GET {path} HTTP/1.1\r\nHost: club.example\r\n\r\n").as_bytes(),
    );
    assert_eq!(status(&answer), 200, "{answer}");
    assert!(answer.contains("<form method=\"post\">"), "{answer}");
    assert!(
        answer.contains("name=\"List-Unsubscribe\" value=\"One-Click\""),
        "{answer}"
    );
    assert!(answer.contains("Referrer-Policy: no-referrer"), "{answer}");
    let code = path.rsplit('/').next().unwrap();
    assert!(!answer.contains(code), "the page repeats the code");
    let head = exchange(
        addr,
        format!("HEAD {path} HTTP/1.1\r\nHost: club.example\r\n\r\n").as_bytes(),
    );
    assert_eq!(status(&head), 200);
    assert!(!head.contains("<form"), "{head}");
    assert_eq!(queued(&g), 0);
    g.d.run_once(naval_mail_now()).unwrap();
    assert_eq!(seats(&g).spectators.len(), 1, "still watching");
    // Positive control: the page's own form, as a browser posts it, does unsubscribe.
    post(addr, &path, "application/x-www-form-urlencoded", FORM);
    g.d.run_once(naval_mail_now()).unwrap();
    assert!(seats(&g).spectators.is_empty());
}

#[test]
fn hostile_requests_queue_nothing_and_the_server_goes_on() {
    let (g, addr) = watched_game();
    let path = one_click_path(&g, WATCHER);
    let code = path.rsplit('/').next().unwrap().to_string();
    let form = "application/x-www-form-urlencoded";
    let big = "x".repeat(100_000);
    let cases: Vec<(&str, Vec<u8>, u16)> = vec![
        ("garbage", b"\x00\x01\xffGARBAGE\r\n\r\n".to_vec(), 400),
        (
            "oversize body",
            format!(
                "POST {path} HTTP/1.1\r\nContent-Length: 100000\r\n\r\n{FORM}&{big}"
            )
            .into_bytes(),
            413,
        ),
        (
            "oversize headers",
            format!("POST {path} HTTP/1.1\r\nX-Big: {big}\r\n\r\n").into_bytes(),
            431,
        ),
        (
            "chunked",
            format!(
                "POST {path} HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n1a\r\n{FORM}\r\n0\r\n\r\n"
            )
            .into_bytes(),
            411,
        ),
        (
            "no length",
            format!("POST {path} HTTP/1.1\r\n\r\n{FORM}").into_bytes(),
            411,
        ),
        (
            "wrong method",
            format!("PUT {path} HTTP/1.1\r\nContent-Length: 26\r\n\r\n{FORM}").into_bytes(),
            405,
        ),
    ];
    for (what, raw, want) in cases {
        let answer = exchange(addr, &raw);
        assert_eq!(status(&answer), want, "{what}: {answer}");
    }
    for (what, target, body, want) in [
        ("wrong path", format!("/elsewhere/{code}"), FORM, 404),
        (
            "malformed code",
            format!("{URL}/{}", &code[..31]),
            FORM,
            404,
        ),
        ("code and more", format!("{path}x"), FORM, 404),
        ("not the form", path.clone(), "List-Unsubscribe=Yes", 400),
    ] {
        let target = target.replace("https://club.example", "");
        let answer = post(addr, &target, form, body);
        assert_eq!(status(&answer), want, "{what}: {answer}");
    }
    // A slow client is cut off at the deadline (1 s here), answered 408.
    let mut slow = TcpStream::connect(addr).unwrap();
    slow.write_all(format!("POST {path} HTTP/1.1\r\n").as_bytes())
        .unwrap();
    slow.set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut out = String::new();
    let _ = slow.read_to_string(&mut out);
    assert_eq!(status(&out), 408, "{out}");
    assert_eq!(queued(&g), 0, "nothing queued");
    // The server still serves, and the good request after all of it is queued.
    let answer = post(addr, &path, form, FORM);
    assert_eq!(status(&answer), 200, "{answer}");
    assert_eq!(queued(&g), 1);
}

#[test]
fn a_code_left_by_a_crash_is_carried_out_by_the_next_pass_once() {
    let (g, addr) = watched_game();
    let watcher = one_click_path(&g, WATCHER);
    let seat = one_click_path(&g, SEATS[1].1);
    for path in [&watcher, &seat] {
        let answer = post(
            addr,
            path,
            "multipart/form-data; boundary=b0",
            "--b0\r\nContent-Disposition: form-data; name=\"List-Unsubscribe\"\r\n\r\nOne-Click\r\n--b0--\r\n",
        );
        assert_eq!(status(&answer), 200, "{answer}");
    }
    // The daemon was down (or crashed) after the listener queued: the files wait.
    assert_eq!(queued(&g), 2);
    assert_eq!(seats(&g).spectators.len(), 1);
    g.d.run_once(naval_mail_now()).unwrap();
    assert_eq!(queued(&g), 0);
    assert!(seats(&g).spectators.is_empty());
    assert!(!seats(&g).seats["russia"].notify.orders);
    let journal_after = g.journal();
    let mails_after = g.mails_to(WATCHER).len() + g.mails_to(SEATS[1].1).len();
    // A crash after carrying them out but before taking them off the queue: both again.
    for path in [&watcher, &seat] {
        let code = path.rsplit('/').next().unwrap();
        std::fs::write(g.d.data.root.join("unsubscribe").join(code), b"").unwrap();
    }
    assert_eq!(queued(&g), 2);
    g.d.run_once(naval_mail_now()).unwrap();
    assert_eq!(queued(&g), 0, "each done (or found done) and taken off");
    assert_eq!(g.journal(), journal_after, "nothing journaled twice");
    assert_eq!(
        g.mails_to(WATCHER).len() + g.mails_to(SEATS[1].1).len(),
        mails_after,
        "nothing mailed twice"
    );
    assert!(!seats(&g).seats["russia"].notify.orders);
}

#[test]
fn made_up_codes_fill_the_queue_only_to_its_cap_and_the_pass_drops_them() {
    let (g, addr) = watched_game();
    let path = one_click_path(&g, WATCHER);
    let form = "application/x-www-form-urlencoded";
    // A stranger posts made-up codes: each is queued (the answer tells no one which exist)…
    let dir = g.d.data.root.join("unsubscribe");
    std::fs::create_dir_all(&dir).unwrap();
    for i in 0..despatch::store::MAX_QUEUED - 1 {
        std::fs::write(dir.join(format!("{i:032x}")), b"").unwrap();
    }
    let made_up = format!("{URL}/{:032x}", 999_999).replace("https://club.example", "");
    assert_eq!(status(&post(addr, &made_up, form, FORM)), 200);
    assert_eq!(queued(&g), despatch::store::MAX_QUEUED);
    // …until the cap: then nothing more is queued, a real code included, and it is said.
    let answer = post(addr, &path, form, FORM);
    assert_eq!(status(&answer), 503, "{answer}");
    assert_eq!(queued(&g), despatch::store::MAX_QUEUED);
    // The pass drops every code that names no one, and the real one is taken again.
    g.d.run_once(naval_mail_now()).unwrap();
    assert_eq!(queued(&g), 0);
    assert_eq!(seats(&g).spectators.len(), 1, "made-up codes stop no one");
    assert_eq!(status(&post(addr, &path, form, FORM)), 200);
    g.d.run_once(naval_mail_now()).unwrap();
    assert!(seats(&g).spectators.is_empty());
}
