//! Issue 31 point 1, the lobby by mail (docs/club-rules.md G1–G9), through the real intake and
//! a real ruleset (Naval's Gunnery School): a member opens a game, another asks for the list
//! and joins, the game starts with its welcomes at the pace asked; a replayed mail does
//! nothing; a stranger's and a forged mail act on nothing; an open game lapses; under
//! approval the organiser's APPROVE by reply is what starts it. Every answer goes to the
//! sender's own lobby address, which no one else's mail carries.

use chrono::{DateTime, Duration, TimeZone, Utc};
use despatch::config::{Config, DEFAULT_CONFIG};
use despatch::daemon::{Daemon, Intake};
use despatch::engine::lobby::Who;
use mail_parser::MessageParser;

const ANN: &str = "ann@club.example";
const BOB: &str = "bob@club.example";
const EVE: &str = "eve@elsewhere.example";
const GM: &str = "gm@club.example";

struct Lobby {
    _tmp: tempfile::TempDir,
    d: Daemon,
    n: u32,
    /// Every mail delivered, in the order the calls below found them.
    history: Vec<Sent>,
    known: std::collections::HashSet<std::path::PathBuf>,
}

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 12, 1, 9, 0, 0).unwrap()
}

fn lobby(who: Who) -> Lobby {
    let tmp = tempfile::tempdir().unwrap();
    let mut cfg = Config::parse(DEFAULT_CONFIG, &tmp.path().join("config.toml")).unwrap();
    cfg.games.games_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    cfg.games.games_dir_set = true;
    cfg.games.onion_len = 200;
    cfg.mail.gm_address = Some(GM.into());
    cfg.lobby.open = who;
    cfg.lobby.members = vec![format!("Ann Arbor <{ANN}>"), BOB.into()];
    let d = Daemon::new(cfg).unwrap();
    Lobby {
        _tmp: tmp,
        d,
        n: 0,
        history: vec![],
        known: Default::default(),
    }
}

/// A parsed mail Despatch delivered: to, subject, text, Reply-To.
#[derive(Debug, Clone)]
struct Sent {
    to: String,
    text: String,
    reply_to: String,
    raw: String,
}

impl Lobby {
    /// `from` mails `to` (the house, or a lobby reply address) with `body`; returns the intake.
    fn mail(&mut self, from: &str, name: &str, to: &str, body: &str, at: DateTime<Utc>) -> Intake {
        self.n += 1;
        let raw = format!(
            "From: {name} <{from}>\r\nTo: {to}\r\nSubject: lobby\r\nMessage-ID: <l{}@club.example>\r\n\r\n{body}\r\n",
            self.n
        );
        let out = self.d.ingest(raw.as_bytes(), at).unwrap();
        self.d.deliver().unwrap();
        self.collect();
        out
    }

    /// A pass of the daemon at `at` (the clock's part of the lobby).
    fn run(&mut self, at: DateTime<Utc>) {
        self.d.run_once(at).unwrap();
        self.collect();
    }

    /// Adds the mails delivered since the last look to `history`.
    fn collect(&mut self) {
        let mut files: Vec<_> = ["new", "cur"]
            .iter()
            .flat_map(|sub| std::fs::read_dir(self.d.cfg.mail.outbox.join(sub)).unwrap())
            .map(|e| e.unwrap().path())
            .filter(|p| !self.known.contains(p))
            .collect();
        files.sort();
        for p in files {
            self.known.insert(p.clone());
            self.history.push(read_sent(&p));
        }
    }

    fn replay(&mut self, from: &str, to: &str, body: &str, at: DateTime<Utc>) -> Intake {
        let raw = format!(
            "From: <{from}>\r\nTo: {to}\r\nSubject: lobby\r\nMessage-ID: <l{}@club.example>\r\n\r\n{body}\r\n",
            self.n
        );
        self.d.ingest(raw.as_bytes(), at).unwrap()
    }

    fn sent(&self) -> Vec<Sent> {
        self.history.clone()
    }

    fn to(&self, address: &str) -> Vec<Sent> {
        self.sent()
            .into_iter()
            .filter(|s| s.to == address)
            .collect()
    }

    fn last_to(&self, address: &str) -> Sent {
        self.to(address)
            .pop()
            .unwrap_or_else(|| panic!("no mail to {address}"))
    }

    fn tables(&self) -> Vec<String> {
        self.d
            .data
            .lobby_book()
            .unwrap()
            .tables
            .iter()
            .map(|t| t.id.clone())
            .collect()
    }
}

fn read_sent(p: &std::path::Path) -> Sent {
    let bytes = std::fs::read(p).unwrap();
    let m = MessageParser::default().parse(&bytes).unwrap();
    let first = |a: Option<&mail_parser::Address>| {
        a.and_then(|a| a.first())
            .and_then(|a| a.address())
            .unwrap_or("")
            .to_string()
    };
    Sent {
        to: first(m.to()),
        text: m.body_text(0).map(|t| t.into_owned()).unwrap_or_default(),
        reply_to: first(m.reply_to()),
        raw: String::from_utf8_lossy(&bytes).into_owned(),
    }
}

const HOUSE: &str = "despatch@localhost";

fn word(i: &Intake) -> &'static str {
    i.word()
}

#[test]
fn a_member_opens_another_joins_and_the_game_starts_at_the_pace_asked() {
    let mut l = lobby(Who::Members);
    // First contact: nothing is done until the mailbox is proved.
    let open = "OPEN naval-rjw training AS russia PACE 48";
    let got = l.mail(ANN, "Ann Arbor", HOUSE, open, t0());
    assert_eq!(word(&got), "confirm");
    assert!(l.tables().is_empty(), "nothing done before the reply");
    let ask = l.last_to(ANN);
    assert!(ask.text.contains("nothing was done yet"), "{}", ask.text);
    assert!(
        ask.reply_to.starts_with("despatch+lobby."),
        "{}",
        ask.reply_to
    );
    // The empty reply to it carries the line out.
    let got = l.mail(
        ANN,
        "Ann Arbor",
        &ask.reply_to,
        "",
        t0() + Duration::minutes(5),
    );
    assert_eq!(word(&got), "acted");
    assert_eq!(l.tables(), vec!["training-1"]);
    let opened = l.last_to(ANN);
    assert!(
        opened.text.contains("Game training-1 is open"),
        "{}",
        opened.text
    );
    assert!(opened.text.contains("JOIN training-1"));
    assert!(
        opened
            .raw
            .contains("Subject: Lobby: Game training-1 is open: Gunnery School"),
        "the subject says what the letter says first"
    );
    assert!(
        ask.raw
            .contains("Subject: Lobby: To make sure this mail came from you")
    );
    // The same mail again does nothing.
    let again = l.replay(ANN, &ask.reply_to, "", t0() + Duration::minutes(6));
    assert_eq!(word(&again), "duplicate");
    assert_eq!(l.tables().len(), 1);

    // Bob asks for the list: names, never addresses.
    let got = l.mail(BOB, "Bob", HOUSE, "games", t0() + Duration::hours(1));
    assert_eq!(word(&got), "games");
    let list = l.last_to(BOB);
    assert!(
        list.text.contains("training-1: Gunnery School"),
        "{}",
        list.text
    );
    assert!(list.text.contains("Ann Arbor"), "{}", list.text);
    assert!(list.text.contains("free"));
    assert!(
        !list.text.contains(ANN),
        "an address in the list:\n{}",
        list.text
    );
    let bob_lobby = list.reply_to.clone();
    // Bob replies to the list's own address: proven, acted on at once.
    let got = l.mail(
        BOB,
        "Bob",
        &list.reply_to,
        "JOIN training-1",
        t0() + Duration::hours(2),
    );
    assert_eq!(word(&got), "acted");
    assert!(l.tables().is_empty(), "a full table starts");
    let g = l.d.open_game("training-1").expect("the game exists");
    assert_eq!(g.game.book().policy.step_hours, 48, "PACE 48");
    assert!(g.game.book().policy.hours_by_kind.is_empty());
    let welcomes: Vec<Sent> = l
        .sent()
        .into_iter()
        .filter(|s| s.raw.contains("despatch+training-1."))
        .collect();
    assert!(welcomes.iter().any(|s| s.to == ANN), "Ann welcomed");
    assert!(welcomes.iter().any(|s| s.to == BOB), "Bob welcomed");
    let note = l
        .to(ANN)
        .into_iter()
        .find(|s| s.text.contains("Bob took japan"))
        .expect("the opener hears who joined");
    assert!(!note.text.contains(BOB));
    // A big table in the list, and every lobby mail within 72 columns.
    l.mail(
        ANN,
        "Ann Arbor",
        &opened.reply_to,
        "OPEN lone-star tidal",
        t0() + Duration::hours(3),
    );
    let list = l.mail(BOB, "Bob", &bob_lobby, "GAMES", t0() + Duration::hours(3));
    assert_eq!(word(&list), "acted");
    let list = l.last_to(BOB).text;
    assert!(list.contains("tidal-1: Brazos Crossing, Tidal"), "{list}");
    for s in l
        .sent()
        .iter()
        .filter(|s| s.raw.contains("Subject: Lobby: "))
    {
        for line in s.text.lines() {
            assert!(line.chars().count() <= 72, "over 72 columns: {line:?}");
        }
    }
    // For a reader: LOBBY_SHOW=1 prints the lobby's mails as sent.
    if std::env::var_os("LOBBY_SHOW").is_some() {
        for s in l
            .sent()
            .iter()
            .filter(|s| s.raw.contains("Subject: Lobby: "))
        {
            eprintln!("===== to {} (reply to {})\n{}", s.to, s.reply_to, s.text);
        }
    }
    // No site configured: no page named.
    assert!(!opened.text.contains("https://"));
    // Seats as asked: Ann russia, Bob japan.
    let seats = l.d.data.game("training-1").seats().unwrap();
    assert_eq!(seats.seats["russia"].address, ANN);
    assert_eq!(seats.seats["japan"].address, BOB);
    assert_eq!(seats.seats["russia"].name, "Ann Arbor");
}

#[test]
fn strangers_and_forgeries_act_on_nothing_and_flood_no_one() {
    let mut l = lobby(Who::Members);
    // Not a member: told why, nothing kept.
    let got = l.mail(EVE, "Eve", HOUSE, "OPEN naval-rjw training", t0());
    assert_eq!(word(&got), "refused");
    assert!(l.last_to(EVE).text.contains("not on the list"));
    let book = l.d.data.lobby_book().unwrap();
    assert!(
        !book.members.contains_key(EVE),
        "a refused stranger leaves no record"
    );
    // A forged From: Ann is asked to confirm, and nothing happens while she does not.
    for k in 0..5 {
        l.mail(
            ANN,
            "Ann",
            HOUSE,
            "OPEN naval-rjw training",
            t0() + Duration::minutes(k),
        );
    }
    assert!(l.tables().is_empty());
    assert_eq!(
        l.to(ANN).len(),
        3,
        "three unproven answers an hour (F1), not five"
    );
    // The next hour has room again.
    l.mail(ANN, "Ann", HOUSE, "GAMES", t0() + Duration::minutes(61));
    assert_eq!(l.to(ANN).len(), 4);
    // Someone else's lobby secret from a stranger is not proof.
    let ann_reply = l.last_to(ANN).reply_to;
    let got = l.mail(EVE, "Eve", &ann_reply, "", t0() + Duration::hours(2));
    assert_ne!(word(&got), "acted");
    assert!(l.tables().is_empty());
    // The pending lines lapse 72 hours after they were kept (the third answered OPEN, at
    // t0 + 2 min): at exactly 72 hours an empty reply does nothing.
    let kept = t0() + Duration::minutes(2);
    let got = l.mail(ANN, "Ann", &ann_reply, "", kept + Duration::hours(72));
    assert_eq!(word(&got), "nothing");
    assert!(l.tables().is_empty());
    // One second inside 72 hours it acts: the other side of the threshold.
    l.mail(
        BOB,
        "Bob",
        HOUSE,
        "OPEN naval-rjw training",
        t0() + Duration::hours(80),
    );
    let bob_reply = l.last_to(BOB).reply_to;
    let got = l.mail(
        BOB,
        "Bob",
        &bob_reply,
        "",
        t0() + Duration::hours(80 + 72) - Duration::seconds(1),
    );
    assert_eq!(word(&got), "acted");
    assert_eq!(l.tables(), vec!["training-1"]);
    // No lobby secret of one address is in any mail to another.
    for s in l.sent() {
        for (who, secret) in [(ANN, &ann_reply), (BOB, &bob_reply)] {
            let tok = secret.split('@').next().unwrap();
            if s.to == who {
                continue;
            }
            assert!(
                !s.raw.contains(tok),
                "{who}'s lobby secret in a mail to {}",
                s.to
            );
        }
    }
    // Positive control: the secret is in its owner's mail, so the search can find it.
    let tok = ann_reply.split('@').next().unwrap();
    assert!(l.to(ANN).iter().any(|s| s.raw.contains(tok)));
}

#[test]
fn an_open_game_lapses_at_its_time_and_everyone_seated_is_told() {
    let mut l = lobby(Who::Members);
    l.mail(ANN, "Ann", HOUSE, "OPEN naval-rjw training", t0());
    let reply = l.last_to(ANN).reply_to;
    l.mail(ANN, "Ann", &reply, "", t0());
    assert_eq!(l.tables().len(), 1);
    let lapse = t0() + Duration::hours(l.d.cfg.lobby.expire_hours as i64);
    l.run(lapse - Duration::seconds(1));
    assert_eq!(l.tables().len(), 1, "not before its time");
    l.run(lapse);
    assert!(l.tables().is_empty());
    assert!(
        l.last_to(ANN)
            .text
            .contains("training-1 (naval-rjw training) lapsed")
    );
}

#[test]
fn under_approval_the_organisers_reply_starts_the_game() {
    let mut l = lobby(Who::Approval);
    // Anyone may ask; the organiser hears, with the words to reply.
    l.mail(EVE, "Eve", HOUSE, "OPEN naval-rjw training", t0());
    let reply = l.last_to(EVE).reply_to;
    l.mail(EVE, "Eve", &reply, "", t0());
    let ask = l.last_to(GM);
    assert!(
        ask.text.contains("APPROVE training-1 japan"),
        "{}",
        ask.text
    );
    assert!(ask.reply_to.starts_with("despatch+lobby."));
    l.mail(BOB, "Bob", HOUSE, "JOIN training-1", t0());
    let reply = l.last_to(BOB).reply_to;
    l.mail(BOB, "Bob", &reply, "", t0());
    assert_eq!(
        l.tables(),
        vec!["training-1"],
        "full but not approved: waits"
    );
    // Eve cannot approve herself, even from her own proven address.
    let eve_reply = l.last_to(EVE).reply_to;
    l.mail(EVE, "Eve", &eve_reply, "APPROVE training-1", t0());
    assert!(l.last_to(EVE).text.contains("only the organiser"));
    assert_eq!(l.tables(), vec!["training-1"]);
    // The organiser's reply to the lobby's mail approves both seats, and the game starts.
    let gm_reply = l.last_to(GM).reply_to;
    let got = l.mail(GM, "Organiser", &gm_reply, "APPROVE training-1", t0());
    assert_eq!(word(&got), "acted");
    assert!(l.tables().is_empty());
    assert!(l.d.open_game("training-1").is_ok());
    assert!(
        l.to(EVE)
            .iter()
            .any(|s| s.text.contains("approved your seat japan"))
    );
}

#[test]
fn every_shipped_scenario_offered_can_start() {
    let l = lobby(Who::Anyone);
    let offers = l.d.lobby_offers();
    assert!(offers.len() >= 10, "{} offers", offers.len());
    let reg = despatch::rulesets::registry();
    for o in offers {
        if o.scenario
            .starts_with(despatch::engine::lobby::CAMPAIGN_PREFIX)
        {
            continue; // campaigns: `a_campaign_opened_by_mail_starts_when_its_table_is_full`
        }
        let seats: Vec<(String, String)> = o
            .seats
            .iter()
            .enumerate()
            .map(|(i, (s, _))| (s.clone(), format!("p{i}@club.example")))
            .collect();
        despatch::daemon::check_new_game(
            &l.d.cfg,
            &reg,
            "probe-1",
            &o.ruleset,
            &o.scenario,
            &seats,
            &Default::default(),
        )
        .unwrap_or_else(|e| panic!("{} {}: {e:#}", o.ruleset, o.scenario));
    }
}

#[test]
fn with_a_site_the_answer_names_the_page_and_the_index_lists_the_open_game() {
    let mut l = lobby(Who::Members);
    l.d.cfg.site.base_url = Some("https://club.example/games/".into());
    l.mail(ANN, "Ann", HOUSE, "OPEN naval-rjw training", t0());
    let reply = l.last_to(ANN).reply_to;
    l.mail(ANN, "Ann", &reply, "", t0());
    let flat = l
        .last_to(ANN)
        .text
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        flat.contains("https://club.example/games/#wanting"),
        "{flat}"
    );
    assert!(
        flat.contains("https://club.example/games/<game>/"),
        "{flat}"
    );
    let index = std::fs::read_to_string(l.d.cfg.site_root().join("index.html")).unwrap();
    assert!(index.contains("id=\"wanting\""), "{index}");
    assert!(
        index.contains("training-1"),
        "the open game is listed:\n{index}"
    );
    assert!(!index.contains(ANN), "never an address");
}

#[test]
fn lines_past_the_twenty_a_mail_may_carry_are_said_not_dropped() {
    let mut l = lobby(Who::Members);
    l.mail(BOB, "Bob", HOUSE, "GAMES", t0());
    let reply = l.last_to(BOB).reply_to;
    let body = "GAMES\n".repeat(23);
    l.mail(BOB, "Bob", &reply, &body, t0());
    let flat = l
        .last_to(BOB)
        .text
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        flat.contains("Only the first 20 lobby lines of a mail are read: 3 more were not."),
        "{flat}"
    );
    // Twenty exactly: nothing to say.
    l.mail(BOB, "Bob", &reply, &"GAMES\n".repeat(20), t0());
    assert!(!l.last_to(BOB).text.contains("Only the first"));
}

#[test]
fn a_campaign_opened_by_mail_starts_when_its_table_is_full() {
    let mut l = lobby(Who::Members);
    let offers = l.d.lobby_offers();
    for r in [
        "naval-rjw",
        "gear-krieg",
        "lone-star",
        "last-hundred-yards",
        "la-bataille",
    ] {
        assert!(
            offers.iter().any(|o| o.ruleset == r
                && o.scenario
                    .starts_with(despatch::engine::lobby::CAMPAIGN_PREFIX)
                && !o.seats.is_empty()),
            "{r}'s campaigns are offered"
        );
    }
    // PACE is refused for a campaign (its battles keep the club's pace): a line that acts on
    // nothing is answered at once.
    let got = l.mail(
        ANN,
        "Ann Arbor",
        HOUSE,
        "OPEN naval-rjw CAMPAIGN summer-1904 PACE 48",
        t0(),
    );
    assert_eq!(word(&got), "games");
    assert!(l.tables().is_empty(), "refused");
    let said = l.last_to(ANN).text;
    assert!(said.contains("PACE is not taken for a campaign"), "{said}");
    let got = l.mail(
        ANN,
        "Ann Arbor",
        HOUSE,
        "OPEN naval-rjw CAMPAIGN summer-1904 AS russia",
        t0() + Duration::minutes(10),
    );
    assert_eq!(word(&got), "confirm");
    let ask = l.last_to(ANN);
    let got = l.mail(
        ANN,
        "Ann Arbor",
        &ask.reply_to,
        "",
        t0() + Duration::minutes(15),
    );
    assert_eq!(word(&got), "acted");
    assert_eq!(l.tables(), vec!["summer-1904-1"]);
    let got = l.mail(
        BOB,
        "Bob",
        HOUSE,
        "JOIN summer-1904-1",
        t0() + Duration::hours(1),
    );
    assert_eq!(word(&got), "confirm");
    let ask = l.last_to(BOB);
    let got = l.mail(BOB, "Bob", &ask.reply_to, "", t0() + Duration::hours(2));
    assert_eq!(word(&got), "acted");
    assert!(l.tables().is_empty(), "a full table starts");
    let (rec, ledger) =
        l.d.campaign_ledger("summer-1904-1")
            .expect("the campaign exists");
    assert_eq!(rec.games, ["summer-1904-1-1"]);
    assert_eq!(
        ledger.next,
        despatch::engine::campaign_plan::Next::Fighting("sortie".into())
    );
    let seated: Vec<&str> = rec.seats.iter().map(|(s, _)| s.as_str()).collect();
    assert_eq!(seated, ["japan", "russia"]);
    assert!(
        rec.seats
            .iter()
            .any(|(s, a)| s == "russia" && a.contains(ANN)),
        "{:?}",
        rec.seats
    );
    let welcomes: Vec<Sent> = l
        .sent()
        .into_iter()
        .filter(|s| s.raw.contains("despatch+summer-1904-1-1."))
        .collect();
    assert!(
        welcomes
            .iter()
            .any(|s| s.to == ANN && s.text.contains("Campaign summer-1904-1"))
    );
    assert!(welcomes.iter().any(|s| s.to == BOB));
}
