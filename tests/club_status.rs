//! Issue 16 points 1 and 8 by mail, as a player writes them: `STATUS` tells a seat where the
//! game stands as that seat may know it, and `HISTORY n` / `RESEND n` sends step n's results
//! mail again exactly as that seat received it (same sealed text, map and dice), never another
//! seat's; bad lines are answered with line, reason and hint, and nothing else happens. Naval
//! order syntax, through `Daemon::ingest`.

use std::path::Path;

use despatch::daemon::Intake;
use despatch::engine::{Play, Ruleset};
use despatch::rulesets::naval_rjw::NavalRjw;
use mail_parser::{MessageParser, MimeHeaders};

use crate::world;
use world::*;

/// A mail's words with its line breaks read as spaces (texts are wrapped at 72 columns).
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn play_until(w: &mut World, step: u64) {
    while !w.game().is_over() && w.game().step < step {
        let g = w.game();
        for seat in g.waiting_for() {
            let orders = NavalRjw::sample_orders(&g.state, &seat, g.step * 31 + w.n as u64);
            let out = w.send(&seat, &orders);
            assert!(matches!(out, Intake::Accepted { .. }), "{out:?}");
        }
    }
}

/// The text of the mail answering the last mail sent (its In-Reply-To).
fn answer(w: &World) -> String {
    let id = format!("<m{}@player.example>", w.n);
    let hits: Vec<String> = w
        .raw_delivered()
        .into_iter()
        .filter(|(_, b)| String::from_utf8_lossy(b).contains(&format!("In-Reply-To: {id}")))
        .map(|(_, b)| text_of(&b))
        .collect();
    assert_eq!(hits.len(), 1, "one answer to {id}");
    hits[0].clone()
}

fn text_of(bytes: &[u8]) -> String {
    MessageParser::default()
        .parse(bytes)
        .unwrap()
        .body_text(0)
        .unwrap()
        .into_owned()
}

fn to_of(bytes: &[u8]) -> String {
    let m = MessageParser::default().parse(bytes).unwrap();
    m.to()
        .and_then(|a| a.first())
        .and_then(|a| a.address())
        .unwrap_or("")
        .to_string()
}

/// Everything after the header block: the MIME body, byte for byte.
fn body_bytes(raw: &[u8]) -> &[u8] {
    let at = raw.windows(2).position(|w| w == b"\n\n").unwrap();
    &raw[at + 2..]
}

/// The results mail of `step` first delivered to `address` (its DICE heading names the step).
fn results_of(w: &World, address: &str, step: u64) -> Vec<u8> {
    let heading = format!("game {GAME}, step {step})");
    let hits: Vec<Vec<u8>> = w
        .raw_delivered()
        .into_iter()
        .filter(|(name, b)| {
            !name.contains("resend-") && to_of(b) == address && text_of(b).contains(&heading)
        })
        .map(|(_, b)| b)
        .collect();
    assert_eq!(
        hits.len(),
        1,
        "one results mail of step {step} to {address}"
    );
    hits[0].clone()
}

fn resent(w: &World) -> Vec<(String, Vec<u8>)> {
    w.raw_delivered()
        .into_iter()
        .filter(|(name, _)| name.contains("resend-"))
        .collect()
}

#[test]
fn status_tells_the_seat_where_the_game_stands_and_nothing_of_others_orders() {
    let mut w = world("training");
    assert!(matches!(
        w.send("japan", "TIMEZONE Asia/Tokyo"),
        Intake::Settings { .. }
    ));
    let orders = NavalRjw::sample_orders(&w.game().state, "japan", 1);
    assert!(matches!(w.send("japan", &orders), Intake::Accepted { .. }));
    // The receipt is sealed, its long lines folded to 72 columns (issue 30 point 8).
    let receipt = despatch::report::unfold(&answer(&w));
    let digest = receipt
        .lines()
        .find_map(|l| l.strip_prefix("Digest D = "))
        .expect("the receipt prints the digest")
        .trim()
        .to_string();
    let first_order = orders
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap()
        .trim();
    assert!(
        receipt.contains(first_order),
        "control: the receipt shows the orders"
    );

    let out = w.send("japan", "STATUS");
    assert_eq!(
        out,
        Intake::Talk {
            game: GAME.into(),
            seat: "japan".into(),
            command: "status"
        }
    );
    let status = answer(&w);
    let title = w.game().spec().title;
    assert!(
        status.contains(&format!("Open step:     1 ({title})")),
        "{status}"
    );
    assert!(status.contains("Awaited:       russia"), "{status}");
    assert!(
        status.contains("JST (") && status.contains("UTC)"),
        "{status}"
    );
    // Unfolded as a reader does: the digest's line is folded to 72 columns.
    assert!(
        despatch::report::unfold(&status).contains(&format!("digest D = {digest}")),
        "{status}"
    );
    assert!(
        flat(&status).contains("your standing orders apply"),
        "{status}"
    );
    assert!(flat(&status).contains("Press: open"), "{status}");

    // Russia learns that Japan is no longer awaited, and nothing of what Japan ordered.
    w.send("russia", "status");
    let theirs = answer(&w);
    assert!(theirs.contains("Awaited:       russia"), "{theirs}");
    assert!(theirs.contains("not in yet"), "{theirs}");
    assert!(!theirs.contains(first_order), "{theirs}");
    assert!(!theirs.contains(&digest), "Japan's digest is not Russia's");
    assert!(!theirs.contains("JST"), "Japan's zone is Japan's own");
    assert!(
        w.game().pending.contains_key("japan"),
        "STATUS changed nothing"
    );
}

#[test]
fn history_sends_the_results_mail_again_exactly_as_that_seat_received_it() {
    let mut w = world("training");
    play_until(&mut w, 3);
    let mine = results_of(&w, JAPAN, 1);
    let theirs = results_of(&w, RUSSIA, 1);
    assert_ne!(
        text_of(&mine),
        text_of(&theirs),
        "control: each seat's copy is its own"
    );
    let before_r = w
        .raw_delivered()
        .iter()
        .filter(|(_, b)| to_of(b) == RUSSIA)
        .count();

    let out = w.send("japan", "HISTORY 1");
    assert_eq!(
        out,
        Intake::Talk {
            game: GAME.into(),
            seat: "japan".into(),
            command: "history"
        }
    );
    let again = resent(&w);
    assert_eq!(again.len(), 1, "one mail sent again");
    let (_, copy) = &again[0];
    assert_eq!(to_of(copy), JAPAN);
    // The body (sealed text, HTML, map and every attachment) is the first one, byte for byte.
    assert_eq!(text_of(copy), text_of(&mine));
    assert_eq!(body_bytes(copy), body_bytes(&mine));
    let parse = |b: &[u8]| {
        let m = MessageParser::default().parse(b).unwrap().into_owned();
        let names: Vec<String> = m
            .attachments()
            .map(|p| p.attachment_name().unwrap_or("").to_string())
            .collect();
        (
            m.message_id().unwrap().to_string(),
            m.subject().unwrap().to_string(),
            names,
            m.in_reply_to().as_text().map(str::to_string),
        )
    };
    let (id0, subject0, parts0, _) = parse(&mine);
    let (id1, subject1, parts1, answers) = parse(copy);
    assert_ne!(id0, id1, "a new envelope");
    // Issue 30: the copy says what it is in the index, and threads under the request, so it
    // is not taken for a new result.
    assert_ne!(subject0, subject1);
    assert!(
        subject1.starts_with(&format!("[{GAME} #"))
            && subject1.ends_with("] History: step 1 — resent"),
        "{subject1}"
    );
    // tests/common/world.rs numbers the player's mails m1, m2, …: this was the last.
    assert_eq!(
        answers.as_deref(),
        Some(format!("m{}@player.example", w.n).as_str()),
        "In-Reply-To the HISTORY mail"
    );
    assert_eq!(parts0, parts1);
    assert!(!parts1.is_empty(), "the map travels again");
    assert!(String::from_utf8_lossy(copy).contains("X-Despatch-Resent: results of step 1"));
    assert_eq!(
        w.raw_delivered()
            .iter()
            .filter(|(_, b)| to_of(b) == RUSSIA)
            .count(),
        before_r,
        "Russia gets nothing"
    );

    // RESEND is the same word; Russia asking gets Russia's copy, never Japan's.
    w.send("russia", "RESEND 1");
    let theirs_again: Vec<_> = resent(&w)
        .into_iter()
        .filter(|(_, b)| to_of(b) == RUSSIA)
        .collect();
    assert_eq!(theirs_again.len(), 1);
    assert_eq!(body_bytes(&theirs_again[0].1), body_bytes(&theirs));
    assert_ne!(text_of(&theirs_again[0].1), text_of(&mine));

    // HISTORY alone lists the steps that can be had again.
    w.send("japan", "HISTORY");
    let list = answer(&w);
    assert!(
        list.contains("step 1 ") && list.contains("step 2 "),
        "{list}"
    );
    let open = w.game().step;
    assert!(list.contains(&format!("step {} ", open - 1)), "{list}");
    assert!(
        !list.contains(&format!("step {open} ")),
        "step {open} is open: {list}"
    );
}

#[test]
fn history_lines_that_cannot_be_carried_out_are_answered_and_nothing_is_sent() {
    let mut w = world("training");
    play_until(&mut w, 2);
    let journal = w.journal_len();
    for (line, why) in [
        ("HISTORY 0", "numbered from 1"),
        ("HISTORY 2", "step 2 is open"),
        ("HISTORY 40", "has no step 40"),
        ("HISTORY three", "not a step number"),
        ("HISTORY 1 russia", "takes one step number"),
        ("STATUS please", "takes no words"),
    ] {
        let out = w.send("japan", line);
        assert!(
            matches!(
                out,
                Intake::Talk {
                    command: "refused",
                    ..
                }
            ),
            "{line}: {out:?}"
        );
        let a = flat(&answer(&w));
        assert!(a.contains(&format!("line 1: {line}")), "{line}: {a}");
        assert!(a.contains(why), "{line}: {a}");
        assert!(a.contains("hint:"), "{line}: {a}");
    }
    assert!(resent(&w).is_empty(), "nothing was sent again");
    assert_eq!(w.journal_len(), journal, "nothing was journaled");
    // Control: the same seat's good line is carried out.
    w.send("japan", "HISTORY 1");
    assert_eq!(resent(&w).len(), 1);
}

/// The mails one player received, copied into a folder of their own.
fn folder_of(w: &World, address: &str, dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    for (name, bytes) in w.raw_delivered() {
        if to_of(&bytes) == address {
            std::fs::write(dir.join(name), bytes).unwrap();
        }
    }
}

#[test]
fn a_players_folder_with_a_resent_mail_still_verifies_against_the_journal() {
    let mut w = world("training");
    play_until(&mut w, 200);
    assert!(w.game().is_over(), "the training game ends");
    assert!(matches!(
        w.send("japan", "HISTORY 2"),
        Intake::Talk {
            command: "history",
            ..
        }
    ));
    let copy = resent(&w)
        .pop()
        .expect("step 2 sent again after the game")
        .1;
    let dir = tempfile::tempdir().unwrap();
    folder_of(&w, JAPAN, &dir.path().join("japan"));
    let (checked, findings) = despatch::verify::verify_mails(&dir.path().join("japan"), None);
    assert!(findings.is_empty(), "{findings:?}");
    assert!(checked.replayed_mails > 0, "{checked:?}");

    // Control: the resent copy is held against the journal too — with its subject changed,
    // the same folder fails.
    let bad = String::from_utf8_lossy(&copy).replacen("Subject: [", "Subject: [x", 1);
    let name = resent(&w).pop().unwrap().0;
    std::fs::write(dir.path().join("japan").join(name), bad).unwrap();
    let (_, findings) = despatch::verify::verify_mails(&dir.path().join("japan"), None);
    assert!(!findings.is_empty(), "a changed resent copy is found out");
}

use crate::naval_mail;

/// Yellow Sea with Japan on standing fire orders and Russia without: Japan's fire steps only
/// invite it (as in `optional_prompts.rs`), and their results wait for its next mail.
fn quiet_japan() -> naval_mail::Game {
    let mut g = naval_mail::start_with("yellow-sea-1904");
    let (out, _) = g.send(
        "japan",
        &naval_mail::plain_address("japan"),
        "quiet",
        None,
        "NOTIFY OPTIONAL OFF",
    );
    assert!(matches!(out, Intake::Settings { .. }), "{out:?}");
    let first = g.step();
    let mut guard = 0;
    while g.step() < 10 && !g.d.open_game("g").unwrap().game.is_over() {
        guard += 1;
        assert!(guard < 60);
        let setup = g.step() == first;
        for seat in g.waiting() {
            let last = g.inbox(&seat).pop().unwrap();
            let orders = g.orders(&seat);
            let orders = match seat.as_str() {
                "japan" if setup && !orders.contains("STANDING FIRE") => {
                    format!("STANDING FIRE NEAREST\n{orders}")
                }
                "japan" => orders,
                _ if setup => orders
                    .lines()
                    .filter(|l| !l.starts_with("STANDING"))
                    .map(|l| format!("{l}\n"))
                    .collect(),
                _ => {
                    let kept: Vec<&str> = orders
                        .lines()
                        .filter(|l| !l.starts_with("FIRE") && !l.starts_with("STANDING"))
                        .collect();
                    if kept.is_empty() {
                        "PASS\n".into()
                    } else {
                        kept.join("\n") + "\n"
                    }
                }
            };
            let subject = format!("Re: {}", last.subject);
            let (out, answer) = g.send(
                &seat,
                &last.reply_to,
                &subject,
                Some(&last.message_id),
                &orders,
            );
            assert!(matches!(out, Intake::Accepted { .. }), "{out:?}: {answer}");
        }
    }
    g
}

#[test]
fn a_step_whose_results_waited_is_sent_again_and_one_never_kept_is_said_so() {
    let mut g = quiet_japan();
    let japan = naval_mail::plain_address("japan");
    // The results of the steps that only invited Japan waited for its next mail (one mail a
    // step): they were kept, so HISTORY lists every step as one it can have again.
    let waited: Vec<String> =
        g.d.data
            .game("g")
            .waiting_mails()
            .unwrap()
            .into_iter()
            .map(|m| m.name)
            .chain(
                std::fs::read_dir(g.d.data.game("g").gathered_dir().join("japan/brought"))
                    .into_iter()
                    .flatten()
                    .flatten()
                    .filter_map(|e| {
                        e.file_name()
                            .to_string_lossy()
                            .strip_suffix(".eml")
                            .map(str::to_string)
                    }),
            )
            .filter(|n| n.contains("-results-japan"))
            .collect();
    assert!(!waited.is_empty(), "no results waited for Japan");
    let (out, list) = g.send("japan", &japan, "history", None, "HISTORY");
    assert!(
        matches!(
            out,
            Intake::Talk {
                command: "history",
                ..
            }
        ),
        "{out:?}"
    );
    assert!(!list.contains("(not sent to you)"), "{list}");
    let step_of = |name: &str| -> u64 {
        // `000012-results-japan`: the results event journaled at index 12 names its step.
        let index: usize = name[..6].parse().unwrap();
        let journal = g.d.data.game("g").read_journal().unwrap();
        let line = &journal.lines[index];
        assert!(line.contains("\"type\":\"results\""), "{line}");
        let at = line.find("\"step\":").unwrap() + 7;
        line[at..]
            .split(|c: char| !c.is_ascii_digit())
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    let n = step_of(&waited[0]);
    let before = g.inbox("japan").len();
    let (out, answer) = g.send("japan", &japan, "again", None, &format!("HISTORY {n}"));
    assert!(
        matches!(
            out,
            Intake::Talk {
                command: "history",
                ..
            }
        ),
        "{out:?}: {answer}"
    );
    assert_eq!(g.inbox("japan").len(), before + 1, "the copy");
    // A game from before one mail a step kept no copy of such results: HISTORY says so and
    // sends nothing else.
    let store = g.d.data.game("g");
    for dir in [
        store.gathered_dir().join("japan"),
        store.gathered_dir().join("japan/brought"),
    ] {
        let _ = std::fs::remove_file(dir.join(format!("{}.eml", waited[0])));
    }
    let before = g.inbox("japan").len();
    let (out, answer) = g.send("japan", &japan, "again", None, &format!("RESEND {n}"));
    assert!(
        matches!(
            out,
            Intake::Talk {
                command: "refused",
                ..
            }
        ),
        "{out:?}"
    );
    assert!(
        flat(&answer).contains(&format!("no results mail of step {n} was kept for you")),
        "{answer}"
    );
    assert_eq!(g.inbox("japan").len(), before + 1, "only the answer");
}
