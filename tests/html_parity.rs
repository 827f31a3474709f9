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

/// A part's words, lower case: runs of letters and digits (a word split by the HTML's own
/// layout, `L<sub>3</sub>`, reads as its pieces in both).
fn words(s: &str) -> std::collections::BTreeSet<String> {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// The text part less what the HTML shows another way: the footer and seal (the HTML names the
/// log head in a line of its own), the Parts digests, and the text board where the HTML has
/// the map picture.
fn text_said(text: &str, html_has_map: bool) -> String {
    // Lines as sealed, before folding to 72 columns (a Parts entry is one line then).
    let text = despatch::report::unfold(text);
    let body = text.split("\n-- \n").next().unwrap_or(&text);
    let mut out = String::new();
    let mut in_board = false;
    let mut table_title = false;
    let mut in_parts = false;
    for line in body.lines() {
        // The Parts block: its heading, then one `name=hex` a line, indented.
        if line.starts_with("Parts (sha256):") {
            in_parts = true;
            continue;
        }
        if in_parts && line.starts_with(' ') && line.contains('=') {
            continue;
        }
        in_parts = false;
        if html_has_map
            && ["THE BOARD AS YOU SEE IT", "THE BOARD AT THE END"].contains(&line.trim())
        {
            in_board = true;
            continue;
        }
        // The welcome's table: its heading and the scenario's title (the HTML's heading),
        // then the drawing and its key, which the map stands for.
        if html_has_map && line.trim() == "THE TABLE AS YOU SEE IT" {
            table_title = true;
            continue;
        }
        if table_title {
            table_title = false;
            in_board = true;
            out.push_str(line);
            out.push('\n');
            continue;
        }
        if in_board {
            // The board's lines are indented; the next heading is not.
            if line.starts_with(' ') || line.is_empty() {
                continue;
            }
            in_board = false;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The HTML's own words around what the mail says (its frame, the map's caption, the prompt
/// box's title and how to reply): the words the test allows the HTML alone.
const FRAME: &str = "Despatch game seat The map is also attached as SVG for zooming the table as \
     sees it Your orders now Reply to this mail with one order per line send HELP for the \
     reference Deadline attached as a calendar entry Log head The plain text part of this mail \
     is the sealed record of the turn despatch verify re derives every roll from it What \
     happened step Dice j die results roll L v S How it was decided No dice were rolled in \
     this step Above your units what they see and the objectives The whole map is attached";

/// The kinds of mail the game below sends, as their queue names start or carry them.
const KINDS: [&str; 11] = [
    "welcome",
    "submission",
    "reject",
    "status",
    "history",
    "settings",
    "act",
    "refused",
    "help",
    "results",
    "over",
];

#[test]
fn html_and_text_say_the_same_words_in_every_mail_kind() {
    use despatch::engine::{Play, Ruleset};
    use despatch::rulesets::naval_rjw::NavalRjw;
    let mut w = world("training");
    w.one_receipt_and_one_rejection();
    for body in [
        "STATUS",
        "HISTORY",
        "TIMEZONE Europe/Paris",
        "NAME Heihachiro Togo",
        "NOTIFY ORDERS OFF",
        "HISTORY 9",
        "ABSENT 2026-12-20 TO 2026-12-22",
        "HELP",
    ] {
        w.send("japan", body);
    }
    // Then the game to its end: results, reminders' absence aside, the game-over mail.
    while !w.game().is_over() && w.game().step <= 200 {
        let g = w.game();
        for seat in g.waiting_for() {
            let orders = NavalRjw::sample_orders(&g.state, &seat, g.step * 31 + w.n as u64);
            w.send(&seat, &orders);
        }
    }
    let frame = words(FRAME);
    let mut kinds = std::collections::BTreeSet::new();
    let mut differ = Vec::new();
    for (name, raw) in w.raw_delivered() {
        let m = MessageParser::default().parse(&raw).unwrap();
        let text = m.body_text(0).unwrap().into_owned();
        let html_raw = m.body_html(0).map(|h| h.into_owned()).unwrap_or_default();
        let has_map = html_raw.contains("src=\"cid:");
        // What a reader sees: the body (the <title> is the subject, shown by the client), and
        // a tag ends a word (`Mikasa</li><li>Chitose` are two).
        let body = html_raw
            .split("<body")
            .nth(1)
            .and_then(|b| b.split_once('>'))
            .map_or(html_raw.as_str(), |(_, rest)| rest);
        let html = visible(&body.replace('<', " <"));
        let t = words(&text_said(&text, has_map));
        let h = words(&html);
        let only_text: Vec<_> = t.difference(&h).collect();
        // The HTML may repeat what the footer says (the log head); its header names game and
        // seat.
        let whole_text = words(&format!("{text} {GAME} japan russia"));
        let only_html: Vec<_> = h
            .difference(&whole_text)
            .filter(|w| !frame.contains(*w))
            .collect();
        let same = only_text.is_empty() && only_html.is_empty();
        if !same {
            differ.push(format!(
                "{name}: the text part alone says {only_text:?}; the HTML alone says {only_html:?}"
            ));
        }
        for mark in ["`", "**", "__"] {
            assert!(
                !text.contains(mark) && !html.contains(mark),
                "{name}: Markdown {mark}"
            );
        }
        for kind in KINDS {
            if name.contains(&format!("-{kind}-")) || name.contains(&format!("{kind}-")) {
                kinds.insert(kind);
            }
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
    // Every kind of mail this game sent was compared (a queue name says its kind).
    assert_eq!(kinds.len(), KINDS.len(), "compared only {kinds:?}");
}
