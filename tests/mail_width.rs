//! Issue 14 points 5 and 10: the text part of every mail kind, as a player's client decodes
//! it, is at most 72 columns wide except for the few lines that must not be broken (defined
//! here, narrowly and independently of the wrapping code), has a blank line before each
//! heading, and every sealed mail still verifies after wrapping.

use chrono::Duration;
use despatch::daemon::Intake;
use despatch::engine::{Game, Play, Ruleset, Silence};
use despatch::report;
use despatch::rulesets::{
    gear_krieg::GearKrieg, la_bataille::LaBataille, last_hundred_yards::LastHundredYards,
    lone_star::LoneStar, naval_rjw::NavalRjw,
};
use despatch::verify;
use mail_parser::MessageParser;

use crate::world;
use world::*;

use crate::mail_world;

const WIDTH: usize = 72;

/// Why a line of a text part may be longer than 72 columns, or None when it may not. Narrow on
/// purpose: each case is a line a program or a player reads as one piece.
fn unbreakable(line: &str) -> Option<&'static str> {
    let body = line.trim_start();
    let indent = line.len() - body.len();
    let words: Vec<&str> = body.split_whitespace().collect();
    // (`label = <64 hex>` lines are no exception since issue 30 point 8: the seal folds them,
    // docs/dice-protocol.md "Lines of 72 columns".)
    // The dice table: `  j | die | results | label`.
    if body.split(" | ").count() >= 3 {
        return Some("a table row");
    }
    // An order or an order example, set off by four spaces: a player copies it as it is.
    if indent >= 4
        && words
            .first()
            .is_some_and(|w| w.chars().all(|c| c.is_ascii_uppercase()))
    {
        return Some("an order");
    }
    // A single word longer than a line (an address, a URL) on its own.
    if words.len() == 1 {
        return Some("one word");
    }
    None
}

/// Headings as the templates write them: not indented, in capitals, perhaps ended by a
/// parenthesis (`DICE (despatch-dice/v2, game g, step 3)`).
fn heading(line: &str) -> bool {
    let words = match line.split_once(" (") {
        Some((words, _)) if line.ends_with(')') => words,
        Some(_) => return false,
        None => line,
    };
    !line.starts_with(' ')
        && words.chars().filter(|c| c.is_ascii_uppercase()).count() >= 3
        && words
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || " ,:'/&-".contains(c))
}

/// Every breach of the width rule and of the blank-line-before-heading rule in `text`.
fn breaches(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        if line.chars().count() > WIDTH && unbreakable(line).is_none() {
            out.push(format!(
                "line {} is {} wide: {line:?}",
                i + 1,
                line.chars().count()
            ));
        }
        if heading(line) && i > 0 && !lines[i - 1].trim().is_empty() {
            out.push(format!(
                "no blank line before heading {line:?} (line {})",
                i + 1
            ));
        }
    }
    out
}

/// Every delivered mail's file name and decoded text part.
fn texts(w: &World) -> Vec<(String, String)> {
    w.raw_delivered()
        .into_iter()
        .map(|(name, raw)| {
            let m = MessageParser::default().parse(&raw).unwrap();
            let text = m.body_text(0).unwrap().replace("\r\n", "\n");
            (name, text)
        })
        .collect()
}

/// Plays the game out with the ruleset's sample orders.
fn play_out(w: &mut World) {
    while !w.game().is_over() && w.game().step <= 200 {
        let g = w.game();
        for seat in g.waiting_for() {
            let orders = NavalRjw::sample_orders(&g.state, &seat, g.step * 31 + w.n as u64);
            assert!(matches!(w.send(&seat, &orders), Intake::Accepted { .. }));
        }
    }
}

/// Worlds whose outboxes between them hold a mail of every kind: welcome, receipt, notice,
/// rejection, HELP, a mail without the secret, reminders, a moved deadline, a closed step, a
/// seat handed over (takeover and notice), a forfeit, a new dice anchor, results, game over.
fn every_kind() -> Vec<World> {
    let mut a = world_with("training", 3, |_| {});
    a.one_receipt_and_one_rejection();
    assert!(matches!(a.send("russia", "HELP"), Intake::Help { .. }));
    let forged = mail(
        RUSSIA,
        &format!("despatch+{GAME}.russia.wrongtoken@localhost"),
        "forged@x",
        "",
        "FLAGSHIP Tsesarevich\n",
    );
    assert!(matches!(
        a.daemon.ingest(&forged, a.now).unwrap(),
        Intake::Unauthenticated { .. }
    ));
    // Seat commands and the answers about players (issue 14 points 2, 4, 8).
    for command in [
        "TIMEZONE Europe/Paris",
        "NOTIFY ORDERS OFF",
        "ADDRESS ADD togo@home.example",
        "TIMEZONE Nowhere/Special",
    ] {
        assert!(matches!(a.send("japan", command), Intake::Settings { .. }));
    }
    let from_elsewhere = mail(
        "someone@elsewhere.example",
        &format!("despatch+{GAME}.japan.{TOKEN_J}@localhost"),
        "elsewhere@x",
        "",
        "FLAGSHIP Tsesarevich\n",
    );
    assert!(matches!(
        a.daemon.ingest(&from_elsewhere, a.now).unwrap(),
        Intake::Unregistered { .. }
    ));
    let no_game = format!(
        "From: <{JAPAN}>\r\nTo: despatch@localhost\r\nSubject: my orders\r\nMessage-ID: <nogame@x>\r\n\r\nFLAGSHIP Mikasa\r\n"
    );
    assert!(matches!(
        a.daemon.ingest(no_game.as_bytes(), a.now).unwrap(),
        Intake::Listed { .. }
    ));
    let deadline = a.game().deadline.unwrap();
    a.daemon.run_once(deadline - Duration::hours(23)).unwrap();
    a.daemon
        .gm_extend(GAME, 24, "a club holiday that runs over the weekend", a.now)
        .unwrap();
    play_out(&mut a);

    let mut b = world_with("training", 1000, |c| {
        c.games.policy.on_silence = Silence::WaitForGm;
    });
    b.send("japan", "FLAGSHIP Mikasa\n");
    let deadline = b.game().deadline.unwrap();
    b.daemon.run_once(deadline + Duration::hours(30)).unwrap();
    b.daemon
        .gm_close_step(GAME, "Vitgeft is at sea", deadline + Duration::hours(31))
        .unwrap();
    b.daemon
        .gm_replace(
            GAME,
            "russia",
            "makarov@petropavlovsk.example",
            "Vitgeft left",
            deadline + Duration::hours(32),
        )
        .unwrap();
    // The player who left writes again: told once that the seat passed on.
    assert!(matches!(
        b.send("russia", "FLAGSHIP Tsesarevich\n"),
        Intake::PassedOn { .. }
    ));

    let mut c = world_with("training", 1000, |c| {
        c.games.policy.on_silence = Silence::Forfeit;
    });
    c.send("japan", "FLAGSHIP Mikasa\n");
    let deadline = c.game().deadline.unwrap();
    c.daemon.run_once(deadline + Duration::minutes(1)).unwrap();
    vec![a, b, c]
}

#[test]
fn the_checker_catches_an_over_long_line_and_a_heading_without_a_blank_line() {
    let prose = "word ".repeat(15) + "end";
    assert!(prose.len() > WIDTH);
    assert_eq!(breaches(&prose).len(), 1, "an over-long prose line");
    assert!(breaches(&report::wrap_text(&prose)).is_empty());
    assert_eq!(breaches("text\nHOW TO SEND ORDERS\nmore").len(), 1);
    assert!(breaches("text\n\nHOW TO SEND ORDERS\nmore").is_empty());
    // The exceptions stay narrow: indented prose, or a long line beside a short hash, is prose.
    assert_eq!(breaches(&format!("    {prose}")).len(), 1);
    assert_eq!(breaches(&format!("{prose} abcdef0123")).len(), 1);
    // A line holding a hash is no exception: folded, it keeps to 72 columns.
    let hash = "ab".repeat(32);
    let line = format!("lock input log_head = {hash} and more words");
    assert_eq!(breaches(&line).len(), 1);
    assert!(breaches(&report::fold_text(&line)).is_empty());
    assert!(breaches(&format!("    FIRE Mikasa AT Tsesarevich {prose}")).is_empty());
}

#[test]
fn every_mail_kind_keeps_to_72_columns_and_sets_off_its_headings() {
    let worlds = every_kind();
    let mut kinds = std::collections::BTreeSet::new();
    let mut long = 0;
    let mut failures = Vec::new();
    for w in &worlds {
        for (name, text) in texts(w) {
            // `000012-results-japan.eml` → `results`; `reject-<hash>` → `reject`.
            let kind = name
                .trim_start_matches(&format!("{GAME}-"))
                .trim_start_matches("despatch-")
                .split(['-', '.'])
                .find(|p| p.chars().all(|c| c.is_ascii_lowercase()) && p.len() >= 2)
                .unwrap_or("")
                .to_string();
            kinds.insert(kind);
            long += text.lines().filter(|l| l.chars().count() > WIDTH).count();
            for b in breaches(&text) {
                failures.push(format!("{name}: {b}"));
            }
        }
        let (checked, findings) = verify::verify_mails(&w.daemon.cfg.mail.outbox, Some(GAME));
        // Wrapped before sealing: every seal holds and every story is found in its mail.
        assert!(findings.is_empty(), "{findings:?}");
        assert!(checked.mails > 0);
    }
    eprintln!("mail kinds seen: {kinds:?}; lines kept long: {long}");
    for kind in [
        "welcome",
        "submission",
        "reject",
        "help",
        "auth",
        "reminder",
        "deadline",
        "gm",
        "results",
        "over",
        "anchor",
        "settings",
        "unregistered",
        "list",
        "passed",
    ] {
        assert!(kinds.contains(kind), "no {kind} mail among {kinds:?}");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A game of `R` on `scenario`, played for a few steps with the ruleset's sample orders.
fn few_steps<R: Ruleset>(
    game: &'static str,
    ruleset: &str,
    scenario: &str,
    seats: &[mail_world::SeatLine],
) -> mail_world::World {
    let t0 = chrono::TimeZone::with_ymd_and_hms(&chrono::Utc, 2026, 11, 23, 9, 0, 0).unwrap();
    let mut w = mail_world::world(game, ruleset, scenario, seats, t0, ([0x4c; 32], [0x5a; 32]));
    for _ in 0..4 {
        let g: Game<R> = w.daemon.data.game(game).load().unwrap();
        if g.is_over() {
            break;
        }
        for seat in g.waiting_for() {
            let orders = R::sample_orders(&g.state, &seat, g.step * 31 + w.n as u64);
            assert!(
                matches!(w.send(&seat, &orders), Intake::Accepted { .. }),
                "{ruleset} step {}: {orders}",
                g.step
            );
        }
    }
    w
}

#[test]
fn every_rulesets_welcome_receipts_and_results_keep_to_72_columns() {
    let worlds = [
        few_steps::<GearKrieg>(
            "gk",
            "gear-krieg",
            "crossroads",
            &[
                ("us", "us@a.example", "ustoken0123456789abcdefg"),
                ("germany", "de@b.example", "detoken0123456789abcdefg"),
            ],
        ),
        few_steps::<LaBataille>(
            "lb",
            "la-bataille",
            "teaching",
            &[
                ("france", "fr@a.example", "frtoken0123456789abcdefg"),
                ("allies", "al@b.example", "altoken0123456789abcdefg"),
            ],
        ),
        few_steps::<LastHundredYards>(
            "lhy",
            "last-hundred-yards",
            "patrol",
            &[
                ("us", "us@a.example", "ustoken0123456789abcdefg"),
                ("germany", "de@b.example", "detoken0123456789abcdefg"),
            ],
        ),
        few_steps::<LoneStar>(
            "ls",
            "lone-star",
            "patrol",
            &[
                ("hays", "hays@a.example", "tok00123456789abcdefghij"),
                ("bowie", "bowie@b.example", "tok10123456789abcdefghij"),
                ("von-arnim", "arnim@c.example", "tok20123456789abcdefghij"),
                ("enver", "enver@d.example", "tok30123456789abcdefghij"),
            ],
        ),
    ];
    let mut failures = Vec::new();
    for w in &worlds {
        let texts = mail_world::delivered(w.outbox(), "");
        assert!(
            texts.iter().any(|t| t.contains("WHAT HAPPENED (step")),
            "{}: a results mail among {} mails",
            w.game,
            texts.len()
        );
        for text in texts {
            for b in breaches(&text.replace("\r\n", "\n")) {
                failures.push(format!("{}: {b}", w.game));
            }
        }
        let (_, findings) = verify::verify_mails(w.outbox(), Some(w.game));
        assert!(findings.is_empty(), "{}: {findings:?}", w.game);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
