//! Issue 14.1: most players read HTML only, so every mail's HTML part carries what its text
//! part gives a player to act on: the welcome's order syntax at a glance, the GAME/TOKEN
//! lines for a fresh mail and the dice commitment; receipts, rejections, notices and reminders
//! get HTML too; no Markdown marks leak into either part.

use mail_parser::MessageParser;

use crate::world;
use world::*;

/// (file name, text part, HTML part with its tags stripped and entities decoded).
fn parts(w: &World) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for (name, raw) in w.raw_delivered() {
        let m = MessageParser::default().parse(&raw).unwrap();
        let text = m.body_text(0).unwrap().into_owned();
        let html = m.body_html(0).map(|h| h.into_owned()).unwrap_or_default();
        out.push((name, text, visible(&html)));
    }
    out.sort();
    out
}

/// What a reader sees of an HTML part: tags dropped, the common entities decoded.
fn visible(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#x27;", "'")
        .replace("&#x2f;", "/")
        .replace("&amp;", "&")
}

#[test]
fn every_mail_has_html_that_carries_what_a_player_needs() {
    let mut w = world("training");
    w.one_receipt_and_one_rejection();
    let mails = parts(&w);
    assert!(mails.len() >= 5, "{}", mails.len());
    for (name, text, html) in &mails {
        assert!(!html.trim().is_empty(), "{name} has no HTML part");
        assert!(!html.contains("**"), "{name}: Markdown in the HTML");
        // Every order and digest line of the text is in the HTML too.
        for line in text.lines().filter(|l| {
            let l = l.trim();
            l.starts_with("Digest D = ") || l.starts_with("FLAGSHIP") || l.starts_with("Line ")
        }) {
            assert!(html.contains(line.trim()), "{name}: HTML lacks {line:?}");
        }
    }
    let (_, text, html) = mails
        .iter()
        .find(|(n, _, _)| n.contains("welcome-japan"))
        .unwrap();
    for needed in [
        "FIRE Mikasa AT Tsesarevich",
        "MINEFIELD GENUINE AT 30,24",
        &format!("GAME {GAME}"),
        "TOKEN <the secret",
        "Anchor A = ",
        "Salt key Z = ",
    ] {
        assert!(
            html.contains(needed),
            "welcome HTML lacks {needed:?}:\n{html}"
        );
    }
    // The anchor line is folded to 72 columns in the text: read it unfolded.
    let text = despatch::report::unfold(text);
    let anchor = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("Anchor A = "))
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap();
    assert!(html.contains(anchor), "the HTML shows the same anchor");
    let (_, _, rejection) = mails
        .iter()
        .find(|(n, _, _)| n.contains("-reject-"))
        .unwrap();
    assert!(rejection.contains("Nobody"), "{rejection}");
}
