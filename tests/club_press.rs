//! Issue 16 points 2 and 8 by mail: `PRESS TO <seat|side|all|gm>` relays a player's message
//! to the seats named, with the sender's seat and side and never the sender's address, under
//! the game's press policy (open, side, none); the journal keeps a press event with the
//! message's digest (its text only under `press_record = "text"`); bad lines are answered with
//! line, reason and hint and relay nothing. Lone Star's patrol (two seats a side) by raw mails
//! through `Daemon::ingest`; Naval's training game for the game-over journal.

use std::path::PathBuf;

use chrono::{DateTime, Duration, TimeZone, Utc};
use despatch::config::{Config, DEFAULT_CONFIG};
use despatch::daemon::{Daemon, Intake};
use despatch::dice::{self, GameSecrets};
use despatch::engine::club::{Press, PressRecord};
use mail_parser::{MessageParser, MimeHeaders};

use crate::world;

const GAME: &str = "colorado";
const SEATS: [(&str, &str); 4] = [
    ("hays", "hays@rangers.example"),
    ("bowie", "bowie@navy.example"),
    ("von-arnim", "arnim@grenzer.example"),
    ("enver", "enver@sipahi.example"),
];
const GM: &str = "umpire@club.example";

fn token(i: usize) -> String {
    format!("tok{i}0123456789abcdefghij")
}

fn address(seat: &str) -> &'static str {
    SEATS.iter().find(|s| s.0 == seat).unwrap().1
}

struct Club {
    _tmp: tempfile::TempDir,
    d: Daemon,
    now: DateTime<Utc>,
    n: u32,
}

/// The patrol game for four, its configuration first `tune`d (press policy, GM address).
fn club(tune: impl FnOnce(&mut Config)) -> Club {
    let tmp = tempfile::tempdir().unwrap();
    let mut cfg = Config::parse(DEFAULT_CONFIG, &tmp.path().join("config.toml")).unwrap();
    cfg.games.games_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("games");
    cfg.games.onion_len = 100;
    tune(&mut cfg);
    let d = Daemon::new(cfg).unwrap();
    let now = Utc.with_ymd_and_hms(2026, 11, 23, 9, 0, 0).unwrap();
    d.create_game_with(
        GAME,
        "lone-star",
        "patrol",
        &SEATS.map(|(s, a)| (s.to_string(), a.to_string())),
        now,
        GameSecrets::pinned(GAME, [0x4c; 32], [0x5a; 32], 100),
        &(0..4).map(token).collect::<Vec<_>>(),
    )
    .unwrap();
    d.deliver().unwrap();
    Club {
        _tmp: tmp,
        d,
        now,
        n: 0,
    }
}

impl Club {
    /// `seat`'s player writes `body` to the game from the seat's reply address.
    fn send(&mut self, seat: &str, body: &str) -> Intake {
        self.n += 1;
        self.now += Duration::minutes(10);
        let i = SEATS.iter().position(|s| s.0 == seat).unwrap();
        let raw = format!(
            "From: Player <{}>\r\nTo: despatch+{GAME}.{seat}.{}@localhost\r\nSubject: a word\r\nMessage-ID: <p{}@player.example>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}\r\n",
            address(seat),
            token(i),
            self.n,
            body.replace('\n', "\r\n")
        );
        let out = self.d.ingest(raw.as_bytes(), self.now).unwrap();
        self.d.deliver().unwrap();
        out
    }

    /// Every delivered mail to `to`, raw, by file name.
    fn mails_to(&self, to: &str) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        for sub in ["new", "cur"] {
            let Ok(rd) = std::fs::read_dir(self.d.cfg.mail.outbox.join(sub)) else {
                continue;
            };
            let mut files: Vec<_> = rd.flatten().map(|e| e.path()).collect();
            files.sort();
            for p in files {
                let bytes = std::fs::read(p).unwrap();
                if to_of(&bytes) == to {
                    out.push(bytes);
                }
            }
        }
        out
    }

    fn journal(&self) -> String {
        String::from_utf8(std::fs::read(self.d.data.game(GAME).journal_path()).unwrap()).unwrap()
    }

    /// The answer to the last mail sent.
    fn answer(&self, seat: &str) -> String {
        let id = format!("In-Reply-To: <p{}@player.example>", self.n);
        let hits: Vec<String> = self
            .mails_to(address(seat))
            .into_iter()
            .filter(|b| String::from_utf8_lossy(b).contains(&id))
            .map(|b| text_of(&b))
            .collect();
        assert_eq!(hits.len(), 1, "one answer to mail {}", self.n);
        hits[0].clone()
    }
}

fn to_of(bytes: &[u8]) -> String {
    let m = MessageParser::default().parse(bytes).unwrap();
    m.to()
        .and_then(|a| a.first())
        .and_then(|a| a.address())
        .unwrap_or("")
        .to_string()
}

fn text_of(bytes: &[u8]) -> String {
    let m = MessageParser::default().parse(bytes).unwrap();
    m.body_text(0).map(|t| t.into_owned()).unwrap_or_default()
}

fn html_of(bytes: &[u8]) -> String {
    let m = MessageParser::default().parse(bytes).unwrap();
    m.body_html(0).map(|t| t.into_owned()).unwrap_or_default()
}

fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `Label = hex` from a mail's text, unfolded as every reader does (a line holding a hash is
/// folded to 72 columns).
fn value(text: &str, label: &str) -> String {
    despatch::report::unfold(text)
        .lines()
        .find_map(|l| l.strip_prefix(label))
        .unwrap_or_else(|| panic!("no {label} in {text}"))
        .trim()
        .to_string()
}

fn counts(c: &Club) -> Vec<usize> {
    SEATS.iter().map(|(_, a)| c.mails_to(a).len()).collect()
}

#[test]
fn press_reaches_the_seat_named_alone_with_the_senders_seat_never_the_address() {
    let mut c = club(|_| {});
    let before = counts(&c);
    let out = c.send(
        "hays",
        "PRESS TO von-arnim\nShall we meet at the ford at dawn?\n\nHays",
    );
    assert_eq!(
        out,
        Intake::Talk {
            game: GAME.into(),
            seat: "hays".into(),
            command: "press"
        }
    );
    let relayed = c.mails_to(address("von-arnim"));
    assert_eq!(relayed.len(), before[2] + 1);
    let relay = relayed.last().unwrap();
    let text = text_of(relay);
    let subject = MessageParser::default()
        .parse(relay)
        .unwrap()
        .subject()
        .unwrap()
        .to_string();
    assert!(subject.contains("Press from hays (alliance)"), "{subject}");
    assert!(
        text.contains("  Shall we meet at the ford at dawn?\n\n  Hays"),
        "{text}"
    );
    assert!(
        html_of(relay).contains("Shall we meet at the ford at dawn?"),
        "HTML parity"
    );
    // The sender's address is nowhere in the relayed mail; control: it is in the sender's own
    // receipt (its To), so the search can find it.
    assert!(!String::from_utf8_lossy(relay).contains(address("hays")));
    let receipt = c.answer("hays");
    assert!(flat(&receipt).contains("went to von-arnim"), "{receipt}");
    let own = c.mails_to(address("hays"));
    assert!(String::from_utf8_lossy(own.last().unwrap()).contains(address("hays")));
    // Nobody else hears of it.
    for (i, seat) in ["bowie", "enver"].iter().enumerate() {
        let n = [1, 3][i];
        assert_eq!(c.mails_to(address(seat)).len(), before[n], "{seat}");
    }
    // The journal keeps who wrote to whom and the digest, not the words.
    let journal = c.journal();
    let line = journal.lines().last().unwrap();
    assert!(line.contains(r#""type":"press""#), "{line}");
    assert!(
        line.contains(r#""from":"hays","to":["von-arnim"]"#),
        "{line}"
    );
    // (The scenario in the journal's first line speaks of a ford; the message's words are
    // nowhere.)
    assert!(!journal.contains("Shall we meet"), "{line}");
    // The salt and text in the mail open the digest in the journal.
    let p = value(&text, "Digest P = ");
    let salt = dice::from_hex(&value(&text, "Salt     = ")).unwrap();
    let step = c.d.open_game(GAME).unwrap().game.book().step;
    let words = "Shall we meet at the ford at dawn?\n\nHays";
    let opened = despatch::engine::press::digest(GAME, step, "hays", &salt, words);
    assert_eq!(dice::to_hex(&opened), p);
    assert!(line.contains(&p));
}

#[test]
fn press_policy_side_keeps_press_within_a_side() {
    let mut c = club(|cfg| cfg.games.policy.club.press = Press::Side);
    let journal = c.journal();
    let before = counts(&c);
    for line in ["PRESS TO enver", "PRESS TO all", "PRESS TO hays, von-arnim"] {
        let out = c.send("bowie", &format!("{line}\nAttack at noon."));
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
        let a = flat(&c.answer("bowie"));
        assert!(a.contains("only within your side (alliance)"), "{a}");
        assert!(a.contains("hint: write PRESS TO hays"), "{a}");
    }
    assert_eq!(c.journal(), journal, "nothing journaled");
    assert_eq!(counts(&c)[2..], before[2..], "the other side got nothing");
    // Control: within the side it goes (naming the side reaches its other seats).
    let out = c.send("bowie", "PRESS TO alliance\nAttack at noon.");
    assert!(
        matches!(
            out,
            Intake::Talk {
                command: "press",
                ..
            }
        ),
        "{out:?}"
    );
    assert!(text_of(c.mails_to(address("hays")).last().unwrap()).contains("Attack at noon."));
    assert_eq!(counts(&c)[2..], before[2..]);
}

#[test]
fn press_policy_none_leaves_only_the_organiser() {
    let mut c = club(|cfg| {
        cfg.games.policy.club.press = Press::None;
        cfg.mail.gm_address = Some(GM.into());
    });
    let before = counts(&c);
    let out = c.send("enver", "PRESS TO hays\nA truce?");
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
    assert!(flat(&c.answer("enver")).contains("PRESS TO gm"));
    let out = c.send("enver", "PRESS TO gm\nMay I ask about rule 7?");
    assert!(
        matches!(
            out,
            Intake::Talk {
                command: "press",
                ..
            }
        ),
        "{out:?}"
    );
    let gm = c.mails_to(GM);
    assert_eq!(gm.len(), 1);
    let t = text_of(&gm[0]);
    assert!(
        t.contains("May I ask about rule 7?") && flat(&t).contains("enver (empire)"),
        "{t}"
    );
    assert!(!String::from_utf8_lossy(&gm[0]).contains(address("enver")));
    assert!(flat(&c.answer("enver")).contains("went to the organiser"));
    let mut after = counts(&c);
    after[3] -= 2; // Enver's two answers
    assert_eq!(after, before, "no seat got the message");
    let journal = c.journal();
    let line = journal.lines().last().unwrap();
    assert!(line.contains(r#""to":[],"gm":true"#), "{line}");

    // Without any organiser address, a clear refusal.
    let mut c = club(|cfg| cfg.games.policy.club.press = Press::None);
    let out = c.send("enver", "PRESS TO gm\nHello?");
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
    assert!(flat(&c.answer("enver")).contains("no organiser address"));
}

#[test]
fn bad_press_lines_are_answered_with_line_reason_and_hint_and_relay_nothing() {
    let mut c = club(|_| {});
    let journal = c.journal();
    let long = "word ".repeat(2000);
    let cases: Vec<(String, &str)> = vec![
        ("PRESS\nhello".into(), "followed by TO"),
        ("PRESS bowie\nhello".into(), "followed by TO"),
        ("PRESS TO\nhello".into(), "names nobody"),
        (
            "PRESS TO nobody\nhello".into(),
            "\"nobody\" is no seat or side",
        ),
        ("PRESS TO hays\nhello".into(), "your own seat"),
        ("PRESS TO bowie\n\n   \n".into(), "the message is empty"),
        (format!("PRESS TO bowie\n{long}"), "bytes long"),
        ("PRESS TO bowie\nMail-Digest: sha256:00".into(), "seal line"),
    ];
    for (body, why) in &cases {
        let before = counts(&c);
        let out = c.send("hays", body);
        assert!(
            matches!(
                out,
                Intake::Talk {
                    command: "refused",
                    ..
                }
            ),
            "{body:.30}: {out:?}"
        );
        let a = flat(&c.answer("hays"));
        assert!(a.contains("line 1: PRESS"), "{a}");
        assert!(a.contains(why), "{why}: {a}");
        assert!(a.contains("hint:"), "{a}");
        let mut after = counts(&c);
        after[0] -= 1;
        assert_eq!(after, before, "{body:.30}: nothing relayed");
    }
    assert_eq!(c.journal(), journal, "nothing journaled");
}

#[test]
fn a_hostile_message_is_relayed_as_plain_words_and_the_folder_still_verifies() {
    let mut c = club(|_| {});
    let nasty = format!(
        "<script>alert('x')</script> & <b>bold</b>\n\u{7}bell \u{1b}[31mred \u{202E}evil\n{}",
        "y".repeat(3000)
    );
    let out = c.send("hays", &format!("PRESS TO von-arnim\n{nasty}"));
    assert!(
        matches!(
            out,
            Intake::Talk {
                command: "press",
                ..
            }
        ),
        "{out:?}"
    );
    let relay = c.mails_to(address("von-arnim")).pop().unwrap();
    let text = text_of(&relay);
    assert!(
        text.contains("<script>alert('x')</script>"),
        "the words arrive: {text}"
    );
    for l in text.lines() {
        assert!(
            l.chars().count() <= 72 || l.starts_with("Digest") || l.starts_with("Salt"),
            "{l}"
        );
        assert!(
            !l.chars().any(|ch| ch.is_control() || ch == '\u{202E}'),
            "{l:?}"
        );
    }
    let html = html_of(&relay);
    assert!(html.contains("&lt;script&gt;"), "escaped in HTML");
    assert!(!html.contains("<script>alert"), "never as markup");
    let dir = tempfile::tempdir().unwrap();
    for (i, b) in c.mails_to(address("von-arnim")).iter().enumerate() {
        std::fs::write(dir.path().join(format!("{i}.eml")), b).unwrap();
    }
    let (checked, findings) = despatch::verify::verify_mails(dir.path(), None);
    assert!(findings.is_empty(), "{findings:?}");
    assert!(
        checked.mails > 0,
        "control: the sealed game mails were checked"
    );
}

#[test]
fn relays_are_composed_again_from_the_event_after_a_crash_before_mailing() {
    let mut c = club(|_| {});
    c.send("hays", "PRESS TO bowie, enver\nHold the ford.");
    let g = c.d.open_game(GAME).unwrap();
    let index = g.game.book().events - 1;
    // As if the host died after the append: the event's mails never existed.
    g.store.set_mailed_upto(index - 1).unwrap();
    for p in g.store.sent().unwrap() {
        if p.to_string_lossy().contains(&format!("{index:06}-press")) {
            std::fs::remove_file(p).unwrap();
        }
    }
    assert!(g.store.outbox().unwrap().is_empty());
    c.d.settle(GAME, c.now).unwrap();
    // The event's mails are queued again (same names, so a reader's Maildir keeps one copy).
    let queued: Vec<String> = g
        .store
        .outbox()
        .unwrap()
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    let want: Vec<String> = ["press-bowie", "press-enver", "press-sent-hays"]
        .iter()
        .map(|w| format!("{index:06}-{w}.eml"))
        .collect();
    assert_eq!(queued, want);
    let again = std::fs::read(g.store.outbox_dir().join(&want[1])).unwrap();
    assert!(
        text_of(&again).contains("  Hold the ford."),
        "composed from the private copy"
    );
}

/// Naval's training game played out, with one press message from Japan in its first step.
fn played_out(record: PressRecord) -> world::World {
    let mut w = world::world_with("training", 1000, |cfg| {
        cfg.games.policy.club.press_record = record;
    });
    let out = w.send("japan", "PRESS TO russia\nMeet me off Port Arthur.");
    assert!(
        matches!(
            out,
            Intake::Talk {
                command: "press",
                ..
            }
        ),
        "{out:?}"
    );
    use despatch::engine::{Play, Ruleset};
    while !w.game().is_over() {
        let g = w.game();
        for seat in g.waiting_for() {
            let orders = despatch::rulesets::naval_rjw::NavalRjw::sample_orders(
                &g.state,
                &seat,
                g.step * 31 + w.n as u64,
            );
            assert!(matches!(w.send(&seat, &orders), Intake::Accepted { .. }));
        }
    }
    w
}

/// The journal attached to the game-over mail `address` received.
fn attached_journal(w: &world::World, address: &str) -> String {
    let over: Vec<String> = w
        .raw_delivered()
        .into_iter()
        .filter(|(_, b)| to_of(b) == address)
        .filter_map(|(_, b)| {
            let m = MessageParser::default().parse(&b).unwrap();
            m.attachments()
                .find(|p| p.attachment_name() == Some("journal.jsonl"))
                .map(|p| String::from_utf8_lossy(p.contents()).into_owned())
        })
        .collect();
    assert_eq!(over.len(), 1, "one game-over mail");
    over[0].clone()
}

#[test]
fn the_game_over_journal_keeps_the_text_only_under_press_record_text() {
    for (record, kept) in [(PressRecord::Digest, false), (PressRecord::Text, true)] {
        let w = played_out(record);
        let journal = attached_journal(&w, world::RUSSIA);
        assert!(journal.contains(r#""type":"press""#), "{record:?}");
        assert_eq!(journal.contains("Port Arthur"), kept, "{record:?}");
        // The relay says the truth about who reads the text after the end: under `text` the
        // archive is public, so not only the players (issue 29 point 6).
        let said: Vec<String> = w
            .raw_delivered()
            .into_iter()
            .filter(|(_, b)| to_of(b) == world::RUSSIA)
            .filter_map(|(_, b)| {
                let m = MessageParser::default().parse(&b)?;
                m.body_text(0).map(|t| t.into_owned())
            })
            .collect();
        let said = said
            .join(" ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        assert!(
            said.contains("Digest P ="),
            "positive control: a relay was read"
        );
        assert_eq!(
            said.contains("anyone, not only the players, can read it"),
            kept,
            "{record:?}: {said}"
        );
        assert!(
            !said.contains("every player can read them once"),
            "{record:?}"
        );
        // Russia's folder, press relay included, replays to the end (the press event too).
        let dir = tempfile::tempdir().unwrap();
        for (name, b) in w.raw_delivered() {
            if to_of(&b) == world::RUSSIA {
                std::fs::write(dir.path().join(name), b).unwrap();
            }
        }
        let (checked, findings) = despatch::verify::verify_mails(dir.path(), None);
        assert!(findings.is_empty(), "{record:?}: {findings:?}");
        assert!(
            checked.events > 0 && checked.replayed_mails > 0,
            "{checked:?}"
        );
    }
}
