//! What intake reads in mails as real clients write them (tests/fixtures/mail): mails that hold
//! nothing readable say why, and the lines of a reply are numbered as the player counts their
//! own, so a rejection points at the line the player wrote.

use std::fs;
use std::path::Path;

use despatch::engine::Ruleset;
use despatch::mail::inbound::{self, Inbound, NothingReadable};
use despatch::rulesets::naval_rjw::NavalRjw;

const LOCAL_PART: &str = "despatch";

fn raw(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/mail")
        .join(name);
    fs::read(&path).unwrap_or_else(|e| panic!("fixture {name}: {e}"))
}

fn intake(name: &str) -> Inbound {
    inbound::parse(&raw(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Changes one piece of a fixture (which must be there) and parses the result.
fn variant(name: &str, from: &str, to: &str) -> Inbound {
    let text = String::from_utf8(raw(name)).expect("fixture is UTF-8");
    assert!(text.contains(from), "{name} lacks {from:?}");
    inbound::parse(text.replacen(from, to, 1).as_bytes()).expect("variant parses")
}

// ---------------------------------------------------------------- nothing readable, and why

#[test]
fn each_unreadable_mail_of_a_real_client_says_why() {
    use NothingReadable::*;
    for (name, why) in [
        ("gmail_quote_only_reply.eml", OnlyQuote),
        ("iphone_screenshot.eml", OnlyPictures),
        ("gmail_inline_screenshot.eml", OnlyPictures),
        ("outlook_docx_only.eml", OnlyAttachments),
        ("thunderbird_pgp_mime_encrypted.eml", PgpEncrypted),
        ("mutt_pgp_inline_encrypted.eml", PgpEncrypted),
        ("outlook_smime_encrypted.eml", SmimeEncrypted),
        ("k9_whitespace_only.eml", Empty),
        ("thunderbird_signature_only.eml", OnlySignature),
    ] {
        let inb = intake(name);
        assert_eq!(
            inb.nothing_readable,
            Some(why),
            "{name}: body {:?}",
            inb.body
        );
        assert_eq!(inb.auto, None, "{name} is a person's mail");
        // Still routed: the daemon must know whose mail it is to answer it.
        assert!(
            inbound::route(&inb, LOCAL_PART).token.is_some(),
            "{name} routes to a seat"
        );
    }
}

#[test]
fn a_mail_that_is_only_pass_is_readable() {
    let inb = intake("apple_mail_pass.eml");
    assert_eq!(inb.body, "PASS");
    assert_eq!(inb.nothing_readable, None);
    // The same reply with PASS deleted holds only the quote.
    let emptied = variant("apple_mail_pass.eml", "PASS\n\n>", "\n\n>");
    assert_eq!(emptied.body, "");
    assert_eq!(emptied.nothing_readable, Some(NothingReadable::OnlyQuote));
}

#[test]
fn signed_mails_are_read_and_their_signature_is_no_attachment() {
    let mime = intake("thunderbird_pgp_mime_signed.eml");
    assert_eq!(mime.body, "TURN Peresvet STBD 30\nFIRE Peresvet AT Asahi");
    assert_eq!(mime.nothing_readable, None);
    // Signed but with nothing typed: empty, not "only an attachment".
    let empty = variant(
        "thunderbird_pgp_mime_signed.eml",
        "TURN Peresvet STBD 30\nFIRE Peresvet AT Asahi\n\n-- \nPrince Pavel Ukhtomsky\n",
        "\n",
    );
    assert_eq!(empty.nothing_readable, Some(NothingReadable::Empty));

    let inline = intake("mutt_pgp_clearsigned.eml");
    assert_eq!(
        inline.body,
        "TURN Tsesarevich PORT 45\nFIRE Tsesarevich AT Mikasa\n-- three turns of this and we are home"
    );
    assert_eq!(inline.nothing_readable, None);
}

#[test]
fn a_picture_with_orders_typed_beside_it_is_readable() {
    let inb = variant(
        "iphone_screenshot.eml",
        "\n\nSent from my iPhone",
        "\nTURN Mikasa PORT 30\n\nSent from my iPhone",
    );
    assert_eq!(inb.body, "TURN Mikasa PORT 30");
    assert_eq!(inb.nothing_readable, None);
    let gmail = variant(
        "gmail_inline_screenshot.eml",
        "[image: Screenshot 2024-06-03 at 19.24.30.png]\n",
        "[image: Screenshot 2024-06-03 at 19.24.30.png]\nFIRE Mikasa AT Tsesarevich\n",
    );
    assert_eq!(gmail.body, "FIRE Mikasa AT Tsesarevich");
    assert_eq!(gmail.nothing_readable, None);
}

#[test]
fn a_blank_text_part_gives_way_to_the_html_beside_it() {
    let inb = variant(
        "outlook_docx_only.eml",
        "<o:p>&nbsp;</o:p>",
        "TURN Retvizan PORT 15",
    );
    assert_eq!(inb.body, "TURN Retvizan PORT 15");
    assert_eq!(inb.nothing_readable, None);
}

#[test]
fn encryption_is_the_reason_even_with_a_greeting_above_it() {
    let inb = variant(
        "mutt_pgp_inline_encrypted.eml",
        "-----BEGIN PGP MESSAGE-----",
        "Orders below, encrypted as agreed.\n\n-----BEGIN PGP MESSAGE-----",
    );
    assert_eq!(inb.body, "Orders below, encrypted as agreed.");
    assert_eq!(inb.nothing_readable, Some(NothingReadable::PgpEncrypted));
}

#[test]
fn only_game_and_token_lines_are_no_orders_but_help_is_a_request() {
    let token_only = variant(
        "thunderbird_signature_only.eml",
        "\n\n\n-- \n",
        "\nGAME yellow-sea-1\nTOKEN p4w8n2c6\n\n-- \n",
    );
    assert_eq!(token_only.body, "GAME yellow-sea-1\nTOKEN p4w8n2c6");
    assert_eq!(
        token_only.nothing_readable,
        Some(NothingReadable::OnlyControlLines)
    );
    let help = variant(
        "thunderbird_signature_only.eml",
        "\n\n\n-- \n",
        "\nHELP\n\n-- \n",
    );
    assert_eq!(help.nothing_readable, None);
    assert!(inbound::route(&help, LOCAL_PART).help);
}

#[test]
fn readable_fixtures_of_real_clients_stay_readable() {
    for name in [
        "gmail_reply_top_posted.eml",
        "outlook365_reply.eml",
        "apple_mail_fresh.eml",
        "thunderbird_bottom_posted_flowed.eml",
        "mutt_latin1_game_line.eml",
        "outlook2016_windows1252.eml",
        "sogo_html_only.eml",
        "no_message_id.eml",
        "iphone_help.eml",
        "gmail_bottom_posted_reply.eml",
        "thunderbird_interleaved_reply.eml",
    ] {
        let inb = intake(name);
        assert_eq!(inb.nothing_readable, None, "{name}: body {:?}", inb.body);
    }
}

// ---------------------------------------------------------------- line numbers of a reply

/// The naval set-up step of the training scenario, where Japan names a flagship and a second.
fn training() -> <NavalRjw as Ruleset>::State {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("games/naval-rjw");
    let ruleset = fs::read_to_string(dir.join("ruleset.toml")).expect("ruleset");
    let scenario = fs::read_to_string(dir.join("scenarios/training.toml")).expect("scenario");
    NavalRjw::setup(
        &ruleset,
        &scenario,
        &["japan".to_string(), "russia".to_string()],
    )
    .expect("training set-up")
}

/// The (line, text) of every line the ruleset rejects in the mail, as a rejection quotes them.
fn rejected_lines(inb: &Inbound) -> Vec<(usize, String)> {
    let text = inbound::strip_control_lines(&inb.body);
    let problems = NavalRjw::parse(&training(), "japan", &text).expect_err("bad lines");
    problems.into_iter().map(|p| (p.line, p.text)).collect()
}

#[test]
fn a_bottom_posted_gmail_reply_numbers_from_the_players_first_line() {
    let inb = intake("gmail_bottom_posted_reply.eml");
    // The player typed two lines under eight lines of attribution and quote: Akatsuki is the
    // second line they wrote, and the rejection says line 2.
    assert_eq!(inb.body, "FLAGSHIP Mikasa\nSECOND Akatsuki");
    assert_eq!(rejected_lines(&inb), [(2, "SECOND Akatsuki".to_string())]);
    assert_eq!(inb.nothing_readable, None);
}

#[test]
fn an_interleaved_thunderbird_reply_numbers_only_the_players_lines() {
    let inb = intake("thunderbird_interleaved_reply.eml");
    // Quotes above and between the answers are not counted, nor the blank lines around them;
    // the flowed comment is one line again.
    assert_eq!(
        inb.body,
        "FLAGSHP Mikasa\nSECOND Asahi\n\
         # Asahi leads if Mikasa falls out of line, as agreed with the flag lieutenant.\n\
         FLAGSHIP Mikasaa"
    );
    assert_eq!(
        rejected_lines(&inb),
        [
            (1, "FLAGSHP Mikasa".to_string()),
            (4, "FLAGSHIP Mikasaa".to_string())
        ]
    );
}

#[test]
fn the_html_of_a_bottom_posted_reply_reads_the_same_lines() {
    // Without its text part, the Gmail reply is read from the HTML: the blockquote stands for
    // the quote, so the attribution above it is removed rather than taken as a cut.
    let text = String::from_utf8(raw("gmail_bottom_posted_reply.eml")).expect("UTF-8");
    let start = text
        .find("--0000000000001a2b3c061a0fd8e3\nContent-Type: text/plain")
        .expect("text part");
    let end = text[start + 1..]
        .find("--0000000000001a2b3c061a0fd8e3")
        .expect("next part")
        + start
        + 1;
    let html_only = format!("{}{}", &text[..start], &text[end..]);
    let inb = inbound::parse(html_only.as_bytes()).expect("parses");
    assert_eq!(inb.body, "FLAGSHIP Mikasa\nSECOND Akatsuki");
}
