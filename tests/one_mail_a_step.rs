//! Issue 30.2, one mail a step: on the shipped configuration, receipts, "has sent orders"
//! notices and results that ask nothing of a seat wait for its next mail that asks something
//! (or ends the game), which lists them at its top and carries each attached whole — sealed,
//! with its dice — so `despatch verify` reads every one and nothing a player sent or was owed is
//! lost. `NOTIFY … ON` sends a kind on its own again. Naval order syntax, from the samples.

use despatch::daemon::Intake;
use despatch::engine::{Play, Ruleset};
use despatch::rulesets::naval_rjw::NavalRjw;
use despatch::store::Notify;
use despatch::verify;
use mail_parser::{MessageParser, MimeHeaders, PartType};

use crate::world::{self, JAPAN, RUSSIA, World};

/// The Battle of the Yellow Sea on the shipped configuration (one mail a step).
fn gathered() -> World {
    world::world_with("yellow-sea-1904", 1000, |c| {
        c.games.notify = Notify::default()
    })
}

/// Every seat awaited sends the sample orders, `steps` times; returns the order mails sent.
fn play(w: &mut World, steps: usize) -> usize {
    let mut sent = 0;
    for round in 0..steps {
        let g = w.game();
        if g.is_over() {
            break;
        }
        for seat in g.waiting_for() {
            let orders = NavalRjw::sample_orders(&w.game().state, &seat, round as u64 + 3);
            let out = w.send(&seat, &orders);
            assert!(matches!(out, Intake::Accepted { .. }), "{seat}: {out:?}");
            sent += 1;
        }
        w.daemon.deliver().unwrap();
    }
    sent
}

/// The mails attached whole to a mail: (attachment name, inner bytes).
fn attached(raw: &[u8]) -> Vec<(String, Vec<u8>)> {
    let m = MessageParser::default().parse(raw).unwrap();
    m.parts
        .iter()
        .filter_map(|p| match &p.body {
            PartType::Message(inner) => Some((
                p.attachment_name().unwrap_or("").to_string(),
                inner.raw_message().to_vec(),
            )),
            _ => None,
        })
        .collect()
}

fn subject(raw: &[u8]) -> String {
    MessageParser::default()
        .parse(raw)
        .unwrap()
        .subject()
        .unwrap_or("")
        .to_string()
}

fn to(raw: &[u8]) -> String {
    MessageParser::default()
        .parse(raw)
        .unwrap()
        .to()
        .and_then(|a| a.first())
        .and_then(|a| a.address())
        .unwrap_or("")
        .to_string()
}

#[test]
fn receipts_and_notices_wait_and_come_attached_to_the_next_mail_that_asks() {
    let mut w = gathered();
    let sent = play(&mut w, 6);
    assert!(sent >= 6, "the game went {sent} mails");
    let mails = w.raw_delivered();
    // No receipt and no notice went on its own.
    for (name, raw) in &mails {
        let s = subject(raw);
        assert!(
            !s.contains("Receipt:") && !s.contains("has sent orders"),
            "{name} went on its own: {s}"
        );
    }
    // Every receipt reached its seat: attached to a later mail, or still waiting for one.
    let mut receipts = 0;
    let mut carriers = 0;
    for (_, raw) in &mails {
        let inner = attached(raw);
        if inner.is_empty() {
            continue;
        }
        carriers += 1;
        let text = MessageParser::default()
            .parse(raw)
            .unwrap()
            .body_text(0)
            .unwrap()
            .replace("\r\n", "\n");
        assert!(text.contains("SINCE YOUR LAST MAIL"), "{text}");
        // The HTML, which most players read, lists the same.
        let html = MessageParser::default()
            .parse(raw)
            .unwrap()
            .body_html(0)
            .unwrap()
            .replace("&#x27;", "'")
            .replace("&quot;", "\"")
            .replace("&#x2f;", "/")
            .replace("&amp;", "&");
        assert!(html.contains("Since your last mail"), "{html}");
        let flat = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
        let said = text
            .split("SINCE YOUR LAST MAIL")
            .nth(1)
            .unwrap()
            .lines()
            .filter(|l| l.starts_with("- "))
            .map(|l| l[2..].to_string())
            .collect::<Vec<_>>();
        assert!(!said.is_empty(), "{text}");
        for line in said {
            // The first line of each entry (the text wraps at 72, the HTML does not).
            let head: String = line.chars().take(40).collect();
            assert!(
                flat(&html).contains(flat(&head).as_str()),
                "HTML lacks {head:?}"
            );
        }
        for (file, bytes) in &inner {
            // Each is listed in the carrier's sealed Parts under its own name.
            assert!(text.contains(file.as_str()), "{file} not in Parts:\n{text}");
            assert_eq!(
                to(bytes),
                to(raw),
                "a mail of one seat attached to another's"
            );
            if subject(bytes).contains("Receipt:") {
                receipts += 1;
            }
        }
    }
    assert!(carriers > 0, "no mail brought the mails that waited");
    let store = w.daemon.data.game(world::GAME);
    let waiting = store
        .waiting_mails()
        .unwrap()
        .iter()
        .filter(|m| m.name.contains("-submission-"))
        .count();
    assert_eq!(
        receipts + waiting,
        sent,
        "every order mail has its receipt, brought ({receipts}) or waiting ({waiting})"
    );
    // The verifier reads the attached mails as mails of their own, and they check.
    let (checked, findings) = verify::verify_mails(&w.daemon.cfg.mail.outbox, Some(world::GAME));
    assert!(findings.is_empty(), "{findings:?}");
    let top: u64 = mails.len() as u64;
    assert!(
        checked.mails > top,
        "verify read {} mails; {top} were delivered, and more came attached",
        checked.mails
    );
    assert!(checked.digests >= receipts as u64, "{checked:?}");
}

#[test]
fn an_attached_mail_changed_on_the_way_is_found_by_verify() {
    let mut w = gathered();
    play(&mut w, 6);
    let mails = w.raw_delivered();
    let (name, raw) = mails
        .iter()
        .find(|(_, raw)| !attached(raw).is_empty())
        .cloned()
        .expect("a mail that brings others");
    // That seat's folder, as delivered: clean.
    let dir = tempfile::tempdir().unwrap();
    for (n, r) in mails.iter().filter(|(_, r)| to(r) == to(&raw)) {
        std::fs::write(dir.path().join(n), r).unwrap();
    }
    let (_, findings) = verify::verify_mails(dir.path(), Some(world::GAME));
    assert!(findings.is_empty(), "{findings:?}");
    // One digit of an attached mail's seal changed: found, and named.
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (first, _) = &attached(&raw)[0];
    let part = text
        .find(&format!("{first}\""))
        .expect("the attachment's header");
    let at = part
        + text[part..]
            .find("Mail-Digest: sha256:")
            .expect("an attached mail's seal")
        + 20;
    let was = text.as_bytes()[at];
    let mut forged = raw.clone();
    forged[at] = if was == b'0' { b'1' } else { b'0' };
    std::fs::write(dir.path().join(&name), &forged).unwrap();
    let (_, findings) = verify::verify_mails(dir.path(), Some(world::GAME));
    assert!(
        findings.iter().any(|f| f.place.contains(".eml")),
        "a changed attached mail went unnoticed: {findings:?}"
    );
}

#[test]
fn notify_receipts_on_sends_that_seats_receipts_on_their_own_and_only_theirs() {
    let mut w = gathered();
    assert!(matches!(
        w.send("japan", "NOTIFY RECEIPTS ON"),
        Intake::Settings { .. }
    ));
    play(&mut w, 4);
    let receipts_to = |who: &str| {
        w.raw_delivered()
            .iter()
            .filter(|(_, raw)| to(raw) == who && subject(raw).contains("Receipt:"))
            .count()
    };
    assert!(receipts_to(JAPAN) >= 2, "japan asked for its receipts");
    assert_eq!(receipts_to(RUSSIA), 0, "russia did not");
}

#[test]
fn notify_all_on_is_every_mail_on_its_own_as_before() {
    let mut w = world::world_with("yellow-sea-1904", 1000, |c| c.games.notify = Notify::all());
    let sent = play(&mut w, 4);
    let mails = w.raw_delivered();
    let receipts = mails
        .iter()
        .filter(|(_, raw)| subject(raw).contains("Receipt:"))
        .count();
    assert_eq!(receipts, sent, "one receipt on its own per order mail");
    assert!(
        mails.iter().all(|(_, raw)| attached(raw).is_empty()),
        "nothing waits, so nothing comes attached"
    );
}

/// `seat` sends STATUS: the text of the answer mailed to `who` (the one STATUS answer not
/// delivered before).
fn ask_status(w: &mut World, seat: &str, who: &str) -> String {
    let answers = |w: &World| {
        w.raw_delivered()
            .into_iter()
            .filter(|(_, raw)| to(raw) == who && subject(raw).contains("Status:"))
            .collect::<Vec<_>>()
    };
    let before: Vec<String> = answers(w).into_iter().map(|(n, _)| n).collect();
    w.send(seat, "STATUS");
    w.daemon.deliver().unwrap();
    let new: Vec<_> = answers(w)
        .into_iter()
        .filter(|(n, _)| !before.contains(n))
        .collect();
    assert_eq!(new.len(), 1, "one STATUS answer");
    MessageParser::default()
        .parse(&new[0].1)
        .unwrap()
        .body_text(0)
        .unwrap()
        .replace("\r\n", "\n")
}

#[test]
fn status_names_the_mails_waiting_for_the_seat_and_none_once_they_are_brought() {
    let mut w = gathered();
    let seat = w.game().waiting_for()[0].clone();
    let who = if seat == "japan" { JAPAN } else { RUSSIA };
    let orders = NavalRjw::sample_orders(&w.game().state, &seat, 3);
    assert!(matches!(w.send(&seat, &orders), Intake::Accepted { .. }));
    w.daemon.deliver().unwrap();
    // The receipt waits, and STATUS says so, naming it as the bringing mail will.
    let notes = w
        .daemon
        .data
        .game(world::GAME)
        .waiting_notes(&seat)
        .unwrap();
    assert!(!notes.is_empty(), "the receipt waits");
    let status = ask_status(&mut w, &seat, who);
    assert!(
        status.contains(&format!(
            "Mails waiting: {} for your next mail",
            notes.len()
        )),
        "{status}"
    );
    let first: String = notes[0][0].chars().take(30).collect();
    assert!(status.contains(&first), "{first:?} not in {status}");
    // An unsealed answer is folded like a sealed one: the orders' digest line (90 columns
    // whole) is within 72, and unfolds to the line as written.
    assert!(status.lines().all(|l| l.chars().count() <= 72), "{status}");
    let digest = w.game().book().pending[&seat].digest;
    assert!(
        despatch::report::unfold(&status)
            .contains(&format!("digest D = {}", despatch::dice::to_hex(&digest))),
        "{status}"
    );
    // Once the next mail that asks has brought them (the step after may ask only the other
    // seat), nothing waits and STATUS says so.
    let waiting = |w: &World| {
        w.daemon
            .data
            .game(world::GAME)
            .waiting_notes(&seat)
            .unwrap()
    };
    let mut rounds = 0;
    while !waiting(&w).is_empty() && rounds < 10 {
        play(&mut w, 1);
        rounds += 1;
    }
    assert!(waiting(&w).is_empty(), "a mail that asks brought them");
    let status = ask_status(&mut w, &seat, who);
    assert!(status.contains("Mails waiting: none"), "{status}");
}

#[test]
fn mails_kept_waiting_before_their_digest_was_kept_beside_them_still_come_listed_by_their_seal() {
    let mut w = gathered();
    let seat = w.game().waiting_for()[0].clone();
    let orders = NavalRjw::sample_orders(&w.game().state, &seat, 3);
    assert!(matches!(w.send(&seat, &orders), Intake::Accepted { .. }));
    // As a store written before this change holds them: the mail and its note, no digest.
    let dir = w.daemon.data.game(world::GAME).gathered_dir().join(&seat);
    let mut removed = 0;
    for e in std::fs::read_dir(&dir).unwrap().flatten() {
        if e.path().extension().is_some_and(|x| x == "digest") {
            std::fs::remove_file(e.path()).unwrap();
            removed += 1;
        }
    }
    assert!(removed > 0, "the receipt's digest was kept beside it");
    play(&mut w, 3);
    let carriers = w
        .raw_delivered()
        .into_iter()
        .filter(|(_, raw)| !attached(raw).is_empty())
        .count();
    assert!(carriers > 0, "a mail brought the receipt");
    // Every carrier's Parts name each attached mail by its own seal: verify finds nothing.
    let (_, findings) = verify::verify_mails(&w.daemon.cfg.mail.outbox, Some(world::GAME));
    assert!(findings.is_empty(), "{findings:?}");
}
