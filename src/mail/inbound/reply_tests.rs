//! Unit tests of the reply cutter: what is kept, what is cut, and how the kept lines number.

use super::*;

fn body(text: &str) -> String {
    cut_reply(text).body
}

#[test]
fn bottom_posted_orders_survive_the_attribution() {
    let text = "On Mon, 3 Jun 2024, Despatch wrote:\n> Your orders?\n\nTURN Mikasa PORT 30\n";
    let cut = cut_reply(text);
    // The player's first line is line 1: the attribution, the quote and the blank line that
    // framed it are not counted.
    assert_eq!(cut.body, "TURN Mikasa PORT 30");
    assert!(cut.quoted && !cut.signature);
}

#[test]
fn interleaved_answers_number_from_the_players_first_line() {
    let text = "On Mon, 3 Jun 2024, Despatch wrote:\n> Mikasa?\n\nTURN Mikasa PORT 30\n\n\
                > Fuji?\n> (she is damaged)\n\nFIRE Fuji AT Pobeda\n\n# keep station\n\n> Asahi?\nTURN Asahi STBD 15\n";
    assert_eq!(
        body(text),
        "TURN Mikasa PORT 30\nFIRE Fuji AT Pobeda\n\n# keep station\nTURN Asahi STBD 15"
    );
}

#[test]
fn unquoted_text_under_an_attribution_is_cut() {
    let text = "FIRE Mikasa AT Tsesarevich\n\nOn Mon, 3 Jun 2024 at 10:02, Despatch <d@x>\nwrote:\n\nTurn 3 results\n";
    let cut = cut_reply(text);
    assert_eq!(cut.body, "FIRE Mikasa AT Tsesarevich");
    assert!(cut.quoted);
}

#[test]
fn signature_and_outlook_block_are_cut() {
    let signed = cut_reply("TURN Mikasa STBD 15\n-- \nAdm. Togo\n");
    assert_eq!(signed.body, "TURN Mikasa STBD 15");
    assert!(signed.signature && !signed.quoted);
    let outlook = "FIRE Fuji AT Pobeda\n\n________________________________\nFrom: Despatch <d@x>\nSent: Monday\nTo: me\n";
    assert_eq!(body(outlook), "FIRE Fuji AT Pobeda");
    assert_eq!(
        body("TURN Asahi PORT 45\n-----Original Message-----\nFrom: d@x\n"),
        "TURN Asahi PORT 45"
    );
    assert_eq!(
        body("TURN Asahi PORT 45\n**From:** Despatch\n**Sent:** Monday\n"),
        "TURN Asahi PORT 45"
    );
}

#[test]
fn blank_lines_between_own_lines_count_but_framing_ones_do_not() {
    assert_eq!(
        body("\n\n  \nTURN A\n\n\nFIRE B\n\n\n"),
        "TURN A\n\n\nFIRE B"
    );
    assert_eq!(body("TURN A\n\n>\n\nFIRE B"), "TURN A\nFIRE B");
    assert_eq!(body("\u{a0}TURN A\u{200b} \r"), " TURN A");
}

#[test]
fn nothing_of_the_players_own_is_told_apart() {
    let quote_only = cut_reply("On Mon, Despatch wrote:\n> Your orders?\n\n-- \nTogo\n");
    assert_eq!(quote_only.body, "");
    assert!(quote_only.quoted && quote_only.signature);
    let signature_above_quote = cut_reply("\n-- \nH. Togo\n\nOn Mon, Despatch wrote:\n> Orders?\n");
    assert!(signature_above_quote.quoted && signature_above_quote.signature);
    let signature_only = cut_reply("\n\nSent from my iPhone\n");
    assert_eq!(signature_only.body, "");
    assert!(signature_only.signature && !signature_only.quoted);
    assert_eq!(cut_reply(" \n\t\n"), Cut::default());
}

#[test]
fn pgp_clearsigned_text_is_read_and_an_encrypted_block_is_flagged() {
    let signed = "-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\nTURN Mikasa PORT 30\n- --- not a rule\n-----BEGIN PGP SIGNATURE-----\n\niQEz\n-----END PGP SIGNATURE-----\n";
    let cut = cut_reply(signed);
    assert_eq!(cut.body, "TURN Mikasa PORT 30\n--- not a rule");
    assert!(!cut.pgp_message);
    let encrypted = cut_reply("-----BEGIN PGP MESSAGE-----\n\nhQEMA5\n-----END PGP MESSAGE-----\n");
    assert!(encrypted.pgp_message);
    assert_eq!(encrypted.body, "");
}

#[test]
fn inline_image_placeholders_are_not_lines() {
    assert_eq!(
        body("[image: map.png]\nTURN A\n[cid:image001.png@01DAB5C3.2E4F1A90]\nFIRE B\n[Image 3]"),
        "TURN A\nFIRE B\n[Image 3]"
    );
}
