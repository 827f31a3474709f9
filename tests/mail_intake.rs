//! Intake against mail as real clients write it (tests/fixtures/mail), the build → parse round
//! trip, Maildir idempotence, and garbage that must never make intake panic.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use chrono::{DateTime, Utc};
use despatch::mail::inbound::{self, Inbound, IntakeError, Route};
use despatch::mail::maildir::{Loaded, Maildir, unique_name_for};
use despatch::mail::outbound::{self, Outgoing};
use proptest::prelude::*;
use sha2::{Digest, Sha256};

const LOCAL_PART: &str = "despatch";

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/mail")
}

fn raw(name: &str) -> Vec<u8> {
    fs::read(fixture_dir().join(name)).unwrap_or_else(|e| panic!("fixture {name}: {e}"))
}

fn intake(name: &str) -> (Inbound, Route) {
    let inb = inbound::parse(&raw(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    let route = inbound::route(&inb, LOCAL_PART);
    (inb, route)
}

fn route(game: Option<&str>, seat: Option<&str>, token: Option<&str>, help: bool) -> Route {
    Route {
        game: game.map(str::to_string),
        seat: seat.map(str::to_string),
        token: token.map(str::to_string),
        help,
        command: None,
        step: None,
        ..Route::default()
    }
}

fn all_fixtures() -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = fs::read_dir(fixture_dir())
        .expect("fixture dir")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "eml"))
        .map(|p| {
            let name = p.file_name().map(|n| n.to_string_lossy().into_owned());
            (
                name.unwrap_or_default(),
                fs::read(&p).expect("readable fixture"),
            )
        })
        .collect();
    out.sort();
    out
}

// ---------------------------------------------------------------- fixtures, one by one

#[test]
fn gmail_top_posted_reply_keeps_only_the_top() {
    let (inb, r) = intake("gmail_reply_top_posted.eml");
    assert_eq!(
        inb.body,
        "TURN Mikasa PORT 30\nFIRE Mikasa AT Tsesarevich\nFIRE Shikishima AT Tsesarevich"
    );
    assert_eq!(
        r,
        route(Some("yellow-sea-1"), Some("japan"), Some("k7q2m9x4"), false)
    );
    assert_eq!(inb.auto, None);
    assert_eq!(
        inb.message_id,
        "CAJx9Tq3mK8vR2nYpL4wZ7bE1sD6fH0gA5cU9iO2eX3rT8yN1Qw@mail.gmail.com"
    );
    assert_eq!(inb.from, "h.togo@gmail.com");
    assert_eq!(inb.from_name.as_deref(), Some("Heihachiro Togo"));
    assert_eq!(
        inb.to,
        ["despatch+yellow-sea-1.japan.k7q2m9x4@club.example"]
    );
    assert_eq!(
        inb.subject,
        "Re: [yellow-sea-1] Turn 3: orders for Japan due"
    );
    assert_eq!(inb.date.as_deref(), Some("2024-06-03T19:13:54+09:00"));
    assert_eq!(
        inb.in_reply_to.as_deref(),
        Some("6c1e0b9d4f2a8e7c3b5d1f9a0e2c4b6d@club.example")
    );
    assert_eq!(
        inb.references,
        ["6c1e0b9d4f2a8e7c3b5d1f9a0e2c4b6d@club.example"]
    );
}

#[test]
fn outlook365_reply_cuts_the_unquoted_original_below_the_rule() {
    let (inb, r) = intake("outlook365_reply.eml");
    // Outlook quotes without '>' marks; the From/Sent block is where the player's text ends.
    // A valediction without a "-- " marker is the player's own text and stays.
    assert_eq!(
        inb.body,
        "TURN Tsesarevich PORT 45\nFIRE Tsesarevich AT Mikasa\nFIRE Retvizan AT Mikasa\n\nRegards,\nWilhelm"
    );
    assert_eq!(
        r,
        route(
            Some("yellow-sea-1"),
            Some("russia"),
            Some("p4w8n2c6"),
            false
        )
    );
    assert_eq!(inb.auto, None);
    assert_eq!(
        inb.message_id,
        "AM9PR08MB6100B7C2E1F0A3D49E58C6A1B2EEAM9PR08MB6100@AM9PR08MB6100.eurprd08.prod.outlook.com"
    );
}

#[test]
fn apple_mail_fresh_mail_routes_by_subject_tag_and_token_line() {
    let (inb, r) = intake("apple_mail_fresh.eml");
    assert_eq!(
        inb.body,
        "TOKEN m3x8c1v5\nTURN Nisshin STBD 15\nFIRE Nisshin AT Oslyabya\n\
         # Kataoka\u{2019}s 5th division keeps station astern of the battle line this turn, as agreed with Togo"
    );
    assert_eq!(r, route(Some("tsushima-2"), None, Some("m3x8c1v5"), false));
    assert_eq!(inb.auto, None);
    assert_eq!(
        inbound::strip_control_lines(&inb.body).lines().next(),
        Some(""),
        "the TOKEN line is blanked, not removed"
    );
}

#[test]
fn thunderbird_bottom_post_numbers_the_players_own_lines_and_unflows() {
    let (inb, r) = intake("thunderbird_bottom_posted_flowed.eml");
    // Attribution, quote and the blank line under them are not the player's lines, so TOKEN,
    // the first line the player wrote, is line 1; the format=flowed soft break inside the
    // comment is joined back.
    assert_eq!(
        inb.body,
        "TOKEN u9t4k2w7\nTURN Peresvet STBD 30\n\
         # Peresvet keeps station on Pobeda; \u{41f}\u{435}\u{440}\u{435}\u{441}\u{432}\u{435}\u{442} takes the lead if the flagship falls out of line.\n\
         FIRE Peresvet AT Asahi"
    );
    assert_eq!(
        r,
        route(Some("yellow-sea-1"), None, Some("u9t4k2w7"), false)
    );
    assert_eq!(inb.auto, None);
}

#[test]
fn mutt_latin1_mail_routes_by_game_line() {
    let (inb, r) = intake("mutt_latin1_game_line.eml");
    assert_eq!(
        inb.body,
        "GAME yellow-sea-1\nTOKEN p4w8n2c6\n\nTURN Tsesarevich PORT 45\nFIRE Tsesarevich AT Mikasa\n\
         # Withöft: à outrance, même sans Retvizan"
    );
    assert_eq!(inb.from_name.as_deref(), Some("Wilhelm Withöft"));
    assert_eq!(
        r,
        route(Some("yellow-sea-1"), None, Some("p4w8n2c6"), false)
    );
    assert_eq!(inb.auto, None);
    assert_eq!(
        inbound::strip_control_lines(&inb.body),
        "\n\n\nTURN Tsesarevich PORT 45\nFIRE Tsesarevich AT Mikasa\n\
         # Withöft: à outrance, même sans Retvizan"
    );
}

#[test]
fn outlook2016_windows1252_decodes_smart_punctuation_and_cuts_original_message() {
    let (inb, r) = intake("outlook2016_windows1252.eml");
    assert_eq!(
        inb.body,
        "TURN Retvizan STBD 15\nFIRE Retvizan AT Fuji\n# Retvizan\u{2019}s 12\u{201d} guns \u{2013} everything on Fuji"
    );
    assert_eq!(
        r,
        route(
            Some("yellow-sea-1"),
            Some("russia"),
            Some("p4w8n2c6"),
            false
        )
    );
    assert_eq!(inb.auto, None);
    assert_eq!(inb.from_name.as_deref(), Some("Eduard Shchensnovich"));
}

#[test]
fn html_only_mail_becomes_lines_without_the_blockquote() {
    let (inb, r) = intake("sogo_html_only.eml");
    assert_eq!(
        inb.body,
        "TURN Shikishima PORT 15\nFIRE Shikishima AT Pobeda\nFIRE Fuji AT Peresvet\n# Fuji & Asahi à volonté"
    );
    assert_eq!(
        r,
        route(Some("yellow-sea-1"), Some("japan"), Some("k7q2m9x4"), false)
    );
    assert_eq!(
        inb.subject,
        "Re: [yellow-sea-1] Turn 3: orders for Japan due"
    );
    assert_eq!(inb.auto, None);
}

#[test]
fn out_of_office_reply_is_flagged_although_it_routes_to_a_seat() {
    let (inb, r) = intake("outlook365_out_of_office.eml");
    assert_eq!(inb.auto.as_deref(), Some("Auto-Submitted: auto-generated"));
    // It came back to the seat's reply address, token and all: only the flag keeps it out.
    assert_eq!(
        r,
        route(
            Some("yellow-sea-1"),
            Some("russia"),
            Some("p4w8n2c6"),
            false
        )
    );
    assert_eq!(
        inb.body,
        "I am at sea until 10 June with limited access to email.\nFor urgent matters please contact the flag lieutenant."
    );
}

#[test]
fn postfix_bounce_is_flagged() {
    let (inb, r) = intake("postfix_bounce.eml");
    assert_eq!(inb.auto.as_deref(), Some("Auto-Submitted: auto-replied"));
    assert_eq!(inb.from, "mailer-daemon@mx.club.example");
    assert_eq!(
        r,
        route(
            Some("yellow-sea-1"),
            Some("russia"),
            Some("p4w8n2c6"),
            false
        )
    );
    assert_eq!(
        inb.body,
        "This is the mail system at host mx.club.example.\n\n\
         I'm sorry to have to inform you that your message could not\n\
         be delivered to one or more recipients. It's attached below.\n\n\
         For further assistance, please send mail to postmaster.\n\n\
         If you do so, please include this problem report. You can\n\
         delete your own text from the attached returned message.\n\n\
         \x20                  The mail system\n\n\
         <w.withoft@port-arthur.example>: host\n\
         \x20   port-arthur-example.mail.protection.outlook.com[52.101.73.4] said: 550\n\
         \x20   5.4.1 Recipient address rejected: Access denied. (in reply to RCPT TO\n\
         \x20   command)"
    );
}

#[test]
fn mailing_list_post_is_flagged_and_upper_case_list_tag_is_no_game() {
    let (inb, r) = intake("mailman3_list_post.eml");
    assert_eq!(inb.auto.as_deref(), Some("Precedence: list"));
    assert_eq!(
        inb.body,
        "To watch the game, send Despatch a mail with these two lines:\n\nGAME yellow-sea-1\nHELP\n\nNikolai"
    );
    // "[Wargames]" is not a game id; the GAME line is. HELP is not the first line.
    assert_eq!(r, route(Some("yellow-sea-1"), None, None, false));
    assert_eq!(
        inb.to,
        ["wargames@lists.example.org", "despatch@club.example"]
    );
}

#[test]
fn mail_without_message_id_is_keyed_by_its_bytes() {
    let bytes = raw("no_message_id.eml");
    let (inb, r) = intake("no_message_id.eml");
    assert_eq!(
        inb.message_id,
        format!("sha256:{}", hex::encode(Sha256::digest(&bytes)))
    );
    assert_eq!(
        inb.body,
        "TOKEN p4w8n2c6\nTURN Pobeda PORT 15\nFIRE Pobeda AT Shikishima"
    );
    assert_eq!(
        r,
        route(Some("yellow-sea-1"), None, Some("p4w8n2c6"), false)
    );
    assert_eq!(inb.auto, None);
}

#[test]
fn iphone_help_request_drops_the_sent_from_line() {
    let (inb, r) = intake("iphone_help.eml");
    assert_eq!(inb.body, "HELP");
    assert_eq!(r, route(None, None, None, true));
    assert_eq!(inb.auto, None);
}

// ---------------------------------------------------------------- auto detection, signal by signal

fn replace_header(raw: &[u8], from: &str, to: &str) -> Vec<u8> {
    let text = String::from_utf8(raw.to_vec()).expect("fixture is UTF-8");
    assert!(text.contains(from), "fixture lacks {from:?}");
    text.replacen(from, to, 1).into_bytes()
}

#[test]
fn each_bounce_signal_is_enough_on_its_own() {
    let bounce = raw("postfix_bounce.eml");
    let no_auto = replace_header(&bounce, "Auto-Submitted: auto-replied\n", "");
    let reason = |bytes: &[u8]| inbound::parse(bytes).expect("parses").auto;
    assert_eq!(reason(&no_auto).as_deref(), Some("null Return-Path"));
    let no_path = replace_header(&no_auto, "Return-Path: <>\n", "");
    assert_eq!(reason(&no_path).as_deref(), Some("sender mailer-daemon"));
    let other_sender = replace_header(
        &no_path,
        "From: MAILER-DAEMON@mx.club.example",
        "From: reports@mx.club.example",
    );
    assert_eq!(
        reason(&other_sender).as_deref(),
        Some("multipart/report; report-type=delivery-status")
    );
    let postmaster = replace_header(&no_path, "From: MAILER-DAEMON@", "From: Postmaster@");
    assert_eq!(reason(&postmaster).as_deref(), Some("sender postmaster"));
}

#[test]
fn human_markers_are_not_automation() {
    let gmail = raw("gmail_reply_top_posted.eml");
    let marked = replace_header(
        &gmail,
        "MIME-Version: 1.0\n",
        "MIME-Version: 1.0\nAuto-Submitted: no\n",
    );
    assert_eq!(inbound::parse(&marked).expect("parses").auto, None);
    let vacation = replace_header(
        &gmail,
        "MIME-Version: 1.0\n",
        "MIME-Version: 1.0\nX-Autoreply: yes\n",
    );
    assert_eq!(
        inbound::parse(&vacation).expect("parses").auto.as_deref(),
        Some("X-Autoreply")
    );
    let bulk = replace_header(
        &gmail,
        "MIME-Version: 1.0\n",
        "MIME-Version: 1.0\nPrecedence: Bulk\n",
    );
    assert_eq!(
        inbound::parse(&bulk).expect("parses").auto.as_deref(),
        Some("Precedence: bulk")
    );
}

// ---------------------------------------------------------------- routing rules

fn with(body: &str, subject: &str, to: &[&str]) -> Inbound {
    Inbound {
        message_id: "m@x".into(),
        from: "a@b".into(),
        from_name: None,
        to: to.iter().map(|s| s.to_string()).collect(),
        subject: subject.into(),
        date: None,
        body: body.into(),
        auto: None,
        in_reply_to: None,
        references: Vec::new(),
        ..Default::default()
    }
}

#[test]
fn address_beats_subject_beats_game_line() {
    let body = "GAME from-line\nTOKEN typed1";
    let all = with(
        body,
        "[from-subject]",
        &["despatch+from-address.japan.tok1@club.example"],
    );
    assert_eq!(
        inbound::route(&all, LOCAL_PART),
        route(Some("from-address"), Some("japan"), Some("tok1"), false)
    );
    let no_address = with(
        body,
        "Re: [from-subject] turn 2",
        &["despatch@club.example"],
    );
    assert_eq!(
        inbound::route(&no_address, LOCAL_PART),
        route(Some("from-subject"), None, Some("typed1"), false)
    );
    let line_only = with(body, "orders", &["despatch@club.example"]);
    assert_eq!(
        inbound::route(&line_only, LOCAL_PART),
        route(Some("from-line"), None, Some("typed1"), false)
    );
    let game_only_address = with("TOKEN Typed2", "", &["despatch+solo-game@club.example"]);
    assert_eq!(
        inbound::route(&game_only_address, LOCAL_PART),
        route(Some("solo-game"), None, Some("typed2"), false)
    );
}

#[test]
fn malformed_addresses_and_other_mailboxes_do_not_route() {
    for to in [
        "despatch+Upper.japan.tok@club.example",
        "despatch+game.japan.to-k@club.example",
        "despatch+game.japan.tok.extra@club.example",
        "other+game.japan.tok@club.example",
        "despatchx+game.japan.tok@club.example",
    ] {
        let inb = with("", "", &[to]);
        assert_eq!(inbound::route(&inb, LOCAL_PART), Route::default(), "{to}");
    }
}

#[test]
fn help_comes_from_first_line_or_subject() {
    let first = with("\n  help  \nTURN Mikasa PORT 15", "orders", &[]);
    assert!(inbound::route(&first, LOCAL_PART).help);
    let subject = with("", "Re: [yellow-sea-1] HELP", &[]);
    assert!(inbound::route(&subject, LOCAL_PART).help);
    let later = with("TURN Mikasa PORT 15\nHELP", "orders", &[]);
    assert!(!inbound::route(&later, LOCAL_PART).help);
}

// ---------------------------------------------------------------- build → parse round trip

fn outgoing(text: &str) -> Outgoing {
    let date: DateTime<Utc> = DateTime::parse_from_rfc3339("2024-06-03T10:02:00Z")
        .expect("valid date")
        .with_timezone(&Utc);
    Outgoing {
        to: "h.togo@gmail.com".into(),
        to_name: Some("Heihachiro Tōgō".into()),
        from: "Despatch <despatch@club.example>".into(),
        reply_to: Some(
            outbound::reply_address(
                "despatch",
                "yellow-sea-1",
                "japan",
                "k7q2m9x4",
                None,
                "club.example",
            )
            .expect("valid ids"),
        ),
        subject: "[yellow-sea-1] Turn 3: receipt".into(),
        text: text.into(),
        message_id: outbound::message_id(
            &["yellow-sea-1", "japan", "receipt", "3"],
            "club.example",
        ),
        in_reply_to: Some(
            "CAJx9Tq3mK8vR2nYpL4wZ7bE1sD6fH0gA5cU9iO2eX3rT8yN1Qw@mail.gmail.com".into(),
        ),
        references: vec![
            "6c1e0b9d4f2a8e7c3b5d1f9a0e2c4b6d@club.example".into(),
            "CAJx9Tq3mK8vR2nYpL4wZ7bE1sD6fH0gA5cU9iO2eX3rT8yN1Qw@mail.gmail.com".into(),
        ],
        date,
        ..Default::default()
    }
}

#[test]
fn built_mail_parses_back_to_the_same_text_and_threading() {
    for text in [
        "Turn 3 orders received for Japan:\n  1  TURN Mikasa PORT 30\n  2  FIRE Mikasa AT Tsesarevich",
        "Ordres reçus pour Tōgō — tour 3.\nA long line that goes well past seventy-six characters so the encoder must wrap it somehow.",
        "\u{41f}\u{435}\u{440}\u{435}\u{441}\u{432}\u{435}\u{442}: \u{43f}\u{440}\u{438}\u{43a}\u{430}\u{437} \u{43f}\u{440}\u{438}\u{43d}\u{44f}\u{442}",
    ] {
        let o = outgoing(text);
        let bytes = outbound::build(&o).expect("builds");
        let back = inbound::parse(&bytes).expect("parses back");
        assert_eq!(back.body, text);
        assert_eq!(back.message_id, o.message_id);
        assert_eq!(back.in_reply_to, o.in_reply_to);
        assert_eq!(back.references, o.references);
        assert_eq!(back.subject, o.subject);
        assert_eq!(back.from, "despatch@club.example");
        assert_eq!(back.to, ["h.togo@gmail.com"]);
        assert_eq!(back.date.as_deref(), Some("2024-06-03T10:02:00Z"));
        // Our own mail, looped back, must never be taken as orders.
        assert_eq!(back.auto.as_deref(), Some("Auto-Submitted: auto-replied"));
    }
}

#[test]
fn a_reply_to_our_reply_address_routes_to_the_seat() {
    let o = outgoing("Your orders, please.");
    let mut player = o.clone();
    player.to = o.reply_to.clone().expect("reply-to set");
    player.to_name = None;
    player.from = "h.togo@gmail.com".into();
    player.reply_to = None;
    let back = inbound::parse(&outbound::build(&player).expect("builds")).expect("parses");
    assert_eq!(
        inbound::route(&back, LOCAL_PART),
        route(Some("yellow-sea-1"), Some("japan"), Some("k7q2m9x4"), false)
    );
}

#[test]
fn message_ids_are_stable_across_calls() {
    let a = outbound::message_id(&["yellow-sea-1", "russia", "results", "3"], "club.example");
    assert_eq!(
        a,
        outbound::message_id(&["yellow-sea-1", "russia", "results", "3"], "club.example")
    );
    assert_ne!(
        a,
        outbound::message_id(&["yellow-sea-1", "russia", "results", "4"], "club.example")
    );
    assert!(a.ends_with("@club.example"));
    let built = outbound::build(&outgoing("x")).expect("builds");
    assert_eq!(
        built,
        outbound::build(&outgoing("x")).expect("builds"),
        "build is deterministic"
    );
}

// ---------------------------------------------------------------- Maildir

fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .expect("dir")
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn maildir_delivery_is_atomic_idempotent_and_survives_being_seen() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let md = Maildir::open_or_create(tmp.path().join("inbox")).expect("create");
    for sub in ["cur", "new", "tmp"] {
        assert!(tmp.path().join("inbox").join(sub).is_dir());
    }
    let name = unique_name_for("CAJx9Tq3@mail.gmail.com");
    let first = md.deliver(b"first", &name).expect("deliver");
    let again = md.deliver(b"second", &name).expect("re-deliver");
    assert_eq!(first, again);
    assert_eq!(
        fs::read(&first).expect("read"),
        b"first",
        "never written twice"
    );
    assert_eq!(files_in(&md.root().join("new")), [name.as_str()]);
    assert!(
        files_in(&md.root().join("tmp")).is_empty(),
        "tmp is left clean"
    );

    let entries = md.list_new().expect("list");
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0].id, name);
    let seen = md.mark_seen(&entries[0]).expect("seen");
    assert_eq!(seen, md.root().join("cur").join(format!("{name}:2,S")));
    assert_eq!(md.mark_seen(&entries[0]).expect("seen twice"), seen);
    assert!(md.list_new().expect("list").is_empty());
    assert_eq!(md.read(&entries[0]).expect("read after move"), b"first");

    // A re-run that delivers the same mail again after it was processed adds nothing.
    assert_eq!(md.deliver(b"first", &name).expect("re-deliver"), seen);
    assert!(files_in(&md.root().join("new")).is_empty());
    assert_eq!(files_in(&md.root().join("cur")).len(), 1);

    // Moved by another reader with other flags: still found, still not duplicated.
    let other = md.deliver(b"other", "outbox-2").expect("deliver");
    fs::rename(&other, md.root().join("cur").join("outbox-2:2,RS")).expect("rename");
    assert_eq!(
        md.deliver(b"other", "outbox-2").expect("re-deliver"),
        md.root().join("cur").join("outbox-2:2,RS")
    );
    assert!(files_in(&md.root().join("new")).is_empty());
}

#[test]
fn maildir_lists_oldest_first_then_by_name_and_refuses_unsafe_names() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let md = Maildir::open_or_create(tmp.path()).expect("create");
    let base = SystemTime::UNIX_EPOCH + Duration::from_secs(1_717_400_000);
    for (name, age) in [
        ("a-late", 30),
        ("z-early", 10),
        ("m-tie", 20),
        ("b-tie", 20),
    ] {
        let path = md.deliver(name.as_bytes(), name).expect("deliver");
        let file = fs::File::options().write(true).open(&path).expect("open");
        file.set_modified(base + Duration::from_secs(age))
            .expect("mtime");
    }
    fs::write(md.root().join("new").join(".hidden"), b"x").expect("write");
    let ids: Vec<String> = md
        .list_new()
        .expect("list")
        .into_iter()
        .map(|e| e.id)
        .collect();
    assert_eq!(ids, ["z-early", "b-tie", "m-tie", "a-late"]);
    for bad in ["../escape", "a/b", "x:2,S", ".dot", ""] {
        assert!(md.deliver(b"x", bad).is_err(), "{bad:?} accepted");
    }
}

#[test]
fn maildir_reports_an_oversized_mail_without_reading_it() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let md = Maildir::open_or_create(tmp.path()).expect("create");
    md.deliver(b"0123456789", "ten").expect("deliver");
    let huge = md.deliver(b"", "huge").expect("deliver");
    // A sparse file of 64 GiB: reading it whole would exhaust memory, its metadata does not.
    let giant = 64u64 << 30;
    fs::File::options()
        .write(true)
        .open(&huge)
        .expect("open")
        .set_len(giant)
        .expect("sparse file");
    let entries = md.list_new().expect("list");
    let entry = |id: &str| entries.iter().find(|e| e.id == id).expect("listed").clone();
    assert_eq!(md.size(&entry("huge")).expect("size"), giant);
    assert_eq!(
        md.read_at_most(&entry("huge"), 25 << 20).expect("read"),
        Loaded::TooLarge { bytes: giant }
    );
    assert_eq!(
        md.read_at_most(&entry("ten"), 10).expect("read"),
        Loaded::Whole(b"0123456789".to_vec())
    );
    assert_eq!(
        md.read_at_most(&entry("ten"), 9).expect("read"),
        Loaded::TooLarge { bytes: 10 }
    );
    // Once seen and moved to cur/, the same entry is still found and still measured.
    md.mark_seen(&entry("ten")).expect("seen");
    assert_eq!(md.size(&entry("ten")).expect("size after move"), 10);
    assert_eq!(
        md.read_at_most(&entry("ten"), 100)
            .expect("read after move"),
        Loaded::Whole(b"0123456789".to_vec())
    );
}

// ---------------------------------------------------------------- garbage never panics

#[test]
fn every_truncation_of_every_fixture_is_handled() {
    for (name, bytes) in all_fixtures() {
        for cut in (0..bytes.len()).step_by(3) {
            let slice = &bytes[..cut];
            if let Ok(inb) = inbound::parse(slice) {
                let _ = inbound::route(&inb, LOCAL_PART);
                let _ = inbound::strip_control_lines(&inb.body);
            }
        }
        assert!(inbound::parse(&bytes).is_ok(), "{name} parses whole");
    }
}

#[test]
fn nothing_is_not_a_message() {
    assert_eq!(inbound::parse(b""), Err(IntakeError::NotAMessage));
    assert_eq!(
        inbound::parse(b"Subject: hello\n\nTURN Mikasa PORT 15\n"),
        Err(IntakeError::NoSender)
    );
}

proptest! {
    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..4096)) {
        if let Ok(inb) = inbound::parse(&bytes) {
            let _ = inbound::route(&inb, LOCAL_PART);
            let _ = inbound::strip_control_lines(&inb.body);
        }
    }

    #[test]
    fn mangled_fixtures_never_panic(
        pick in 0usize..64,
        flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..24),
        cut in any::<prop::sample::Index>(),
    ) {
        let fixtures = all_fixtures();
        let (_, original) = &fixtures[pick % fixtures.len()];
        let mut bytes = original.clone();
        for (at, value) in flips {
            let i = at.index(bytes.len());
            bytes[i] = value;
        }
        bytes.truncate(cut.index(bytes.len() + 1));
        if let Ok(inb) = inbound::parse(&bytes) {
            let _ = inbound::route(&inb, LOCAL_PART);
            let _ = inbound::strip_control_lines(&inb.body);
        }
    }

    #[test]
    fn random_html_and_text_bodies_never_panic(body in "(<[a-z/!-]{0,12}[ a-z=\"']{0,8}>|&[a-z#0-9]{0,8};?|[^<&]{0,16}|\n> |\n-- \n|On x wrote:\n)*") {
        for ctype in ["text/html", "text/plain; format=flowed; delsp=yes"] {
            let raw = format!("From: a@b.example\nContent-Type: {ctype}; charset=utf-8\n\n{body}");
            let inb = inbound::parse(raw.as_bytes());
            prop_assert!(inb.is_ok());
        }
    }
}
