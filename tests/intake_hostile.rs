//! Intake is linear on any input: every hostile case of `common/hostile_mail.rs` at 5 MB goes
//! through `inbound::parse` and `route` and must come back with a bounded result. There is no
//! timing assertion; the guard is that this file finishes in seconds, where one quadratic stage
//! at 5 MB takes minutes (2 MB of `&` once held the daemon for over three minutes).
//! `cargo bench --bench intake` prints the time per MB at 1 and 5 MB beside mail_parser alone.

use crate::hostile_mail;

use despatch::mail::inbound::{self, NothingReadable};

const MB: usize = 1 << 20;

/// Builds every case of one family at 5 MB and checks what intake makes of it. One test per
/// family, so the harness runs them side by side.
fn family(prefix: &str) {
    let recipes: Vec<_> = hostile_mail::recipes()
        .into_iter()
        .filter(|(name, _)| name.starts_with(prefix))
        .collect();
    assert!(recipes.len() >= 3, "{prefix} cases are all here");
    for (name, make) in recipes {
        let raw = make(5 * MB);
        assert!(raw.len() >= 4 * MB, "{name}: only {} bytes", raw.len());
        let inb = inbound::parse(&raw).unwrap_or_else(|e| panic!("{name}: {e}"));
        let route = inbound::route(&inb, "despatch");
        let text = inbound::strip_control_lines(&inb.body);
        // Nothing grows: decoding and cutting only ever shorten the text.
        assert!(inb.body.len() <= raw.len(), "{name}: body grew");
        assert!(text.len() <= inb.body.len(), "{name}");
        assert!(inb.subject.len() <= raw.len(), "{name}: subject grew");
        assert!(
            inb.to.iter().map(String::len).sum::<usize>() <= raw.len(),
            "{name}"
        );
        // Every case is addressed to a seat by its reply address, whatever else it holds.
        assert_eq!(route.game.as_deref(), Some("yellow-sea-1"), "{name}");
        assert_eq!(route.token.as_deref(), Some("k7q2m9x4"), "{name}");
        assert_eq!(inb.from, "stranger@evil.example", "{name}");
    }
}

#[test]
fn hostile_html_of_5_mb_comes_back_bounded() {
    family("html:");
}

#[test]
fn hostile_plain_and_flowed_text_of_5_mb_comes_back_bounded() {
    family("plain:");
    family("flowed:");
}

#[test]
fn hostile_headers_of_5_mb_come_back_bounded() {
    family("headers:");
}

#[test]
fn hostile_mime_structure_of_5_mb_comes_back_bounded() {
    family("mime:");
}

#[test]
fn every_hostile_case_is_in_a_family() {
    let recipes = hostile_mail::recipes();
    assert!(recipes.len() >= 40);
    for (name, _) in recipes {
        assert!(
            ["html:", "plain:", "flowed:", "headers:", "mime:"]
                .iter()
                .any(|f| name.starts_with(f)),
            "{name}"
        );
    }
}

/// The reported case, checked for what it reads as, not only that it ends: 5 MB of `&` is text
/// (no entity), and a body of only quotes is a mail with nothing of the player's own.
#[test]
fn the_reported_cases_read_as_what_they_are() {
    let amps = inbound::parse(&hostile_mail::message(
        "Content-Type: text/html\r\n",
        &hostile_mail::fill("&", 5 * MB),
    ))
    .expect("parses");
    assert_eq!(amps.body.len(), 5 * MB);
    assert!(amps.body.bytes().all(|b| b == b'&'));
    assert_eq!(amps.nothing_readable, None);

    let quotes = inbound::parse(&hostile_mail::message(
        "Content-Type: text/plain\r\n",
        &hostile_mail::fill("> Your orders?\n", 5 * MB),
    ))
    .expect("parses");
    assert_eq!(quotes.body, "");
    assert_eq!(quotes.nothing_readable, Some(NothingReadable::OnlyQuote));

    let lone_angles = inbound::parse(&hostile_mail::message(
        "Content-Type: text/html\r\n",
        &hostile_mail::fill("< ", MB),
    ))
    .expect("parses");
    assert_eq!(lone_angles.body.len(), MB - 1, "every `<` kept as text");
}

/// Real-client fixtures, sorted by name.
fn fixtures() -> Vec<Vec<u8>> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/mail");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .expect("fixture dir")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "eml"))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|p| std::fs::read(p).expect("readable fixture"))
        .collect()
}

/// Pieces of MIME structure and of the markers intake looks for, spliced into real mails.
const SPLICES: [&str; 16] = [
    "\n--",
    "\nContent-Type: multipart/mixed; boundary=\"",
    "\nContent-Type: multipart/encrypted\n\n",
    "\nContent-Transfer-Encoding: base64\n",
    "\nContent-Type: text/plain; format=flowed; delsp=yes\n\n",
    "=?utf-8?b?",
    "=\n",
    "<blockquote>",
    "&#x",
    "-----BEGIN PGP SIGNED MESSAGE-----\n",
    "\n> ",
    "\n-- \n",
    "\nOn Mon, Despatch wrote:\n",
    "\r",
    "\u{feff}\u{a0}",
    "\0\u{fffc}",
];

proptest::proptest! {
    /// Real mails with MIME pieces spliced in anywhere never make intake panic, and a mail it
    /// calls readable always has a line of the player's own.
    #[test]
    fn mime_pieces_spliced_into_real_mails_never_panic(
        pick in 0usize..64,
        splices in proptest::collection::vec(
            (proptest::prelude::any::<proptest::sample::Index>(), 0usize..SPLICES.len()),
            1..12,
        ),
    ) {
        let all = fixtures();
        let mut bytes = all[pick % all.len()].clone();
        for (at, which) in splices {
            let i = at.index(bytes.len() + 1);
            bytes.splice(i..i, SPLICES[which].bytes());
        }
        if let Ok(inb) = inbound::parse(&bytes) {
            let _ = inbound::route(&inb, "despatch");
            let _ = inbound::strip_control_lines(&inb.body);
            if inb.nothing_readable.is_none() {
                proptest::prop_assert!(inb.body.lines().any(|l| !l.trim().is_empty()));
            }
        }
    }
}
