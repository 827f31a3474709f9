//! Issue 29 points 4 and 5 by mail: consent for every address Despatch mails. Unfit
//! addresses (the game's own, the organiser's, role addresses, another seat's) are refused as
//! spectators and as `ADDRESS ADD` (docs/club-rules.md E1–E2).

use crate::naval_mail;

use despatch::config::Config;
use despatch::daemon::Intake;
use despatch::engine::club::Spectators;
use naval_mail::{Game, SEATS, plain_address, start_configured};

pub(crate) const UMPIRE: &str = "umpire@club.example";

pub(crate) fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

pub(crate) fn players_may_add() -> Game {
    start_configured("training", |c: &mut Config| {
        c.games.policy.club.spectators = Spectators::Players;
        c.mail.gm_address = Some(format!("Umpire <{UMPIRE}>"));
    })
}

/// Addresses that are no one person who asked for the game's mail, and why each is refused.
const UNFIT: [(&str, &str); 9] = [
    ("despatch@localhost", "the game's own addresses"),
    ("despatch+g@localhost", "the game's own addresses"),
    (UMPIRE, "the organiser's address"),
    ("mailer-daemon@fleet.example", "role or system address"),
    ("postmaster@fleet.example", "role or system address"),
    ("no-reply@fleet.example", "role or system address"),
    ("abuse@fleet.example", "role or system address"),
    ("owner-club@fleet.example", "role or system address"),
    ("club-request@fleet.example", "role or system address"),
];

#[test]
fn unfit_addresses_are_refused_as_spectators_and_a_neighbour_is_not() {
    let mut g = players_may_add();
    for (address, why) in UNFIT {
        let (out, answer) = g.send(
            "japan",
            &plain_address("japan"),
            "x",
            None,
            &format!("SPECTATOR ADD {address}"),
        );
        assert!(matches!(out, Intake::Settings { .. }), "{out:?}");
        assert!(flat(&answer).contains("Not done"), "{address}: {answer}");
        assert!(flat(&answer).contains(why), "{address}: {answer}");
        assert!(g.mails_to(address).is_empty(), "{address} was mailed");
    }
    // The opponent's address too (it plays a seat).
    let (_, answer) = g.send(
        "japan",
        &plain_address("japan"),
        "x",
        None,
        &format!("SPECTATOR ADD {}", SEATS[1].1),
    );
    assert!(flat(&answer).contains("Not done"), "{answer}");
    // The organiser cannot add them either.
    let err =
        g.d.gm_spectator("g", true, "postmaster@fleet.example", naval_mail_now())
            .unwrap_err();
    assert!(err.to_string().contains("role or system address"), "{err}");
    assert!(g.d.data.game("g").seats().unwrap().spectators.is_empty());
    // Positive control: an address that only begins like a role one is a person's.
    let (_, answer) = g.send(
        "japan",
        &plain_address("japan"),
        "x",
        None,
        "SPECTATOR ADD postmasterfan@fleet.example",
    );
    assert!(!flat(&answer).contains("Not done"), "{answer}");
    let seats = g.d.data.game("g").seats().unwrap();
    assert_eq!(seats.spectators.len(), 1);
    assert_eq!(seats.spectators[0].address, "postmasterfan@fleet.example");
}

pub(crate) fn naval_mail_now() -> chrono::DateTime<chrono::Utc> {
    use chrono::TimeZone;
    chrono::Utc.with_ymd_and_hms(2026, 6, 1, 9, 30, 0).unwrap()
}

#[test]
fn address_add_refuses_unfit_addresses_and_the_opponents_without_naming_it() {
    let mut g = players_may_add();
    for (address, why) in UNFIT {
        let (out, answer) = g.send(
            "japan",
            &plain_address("japan"),
            "x",
            None,
            &format!("ADDRESS ADD {address}"),
        );
        assert!(matches!(out, Intake::Settings { .. }), "{out:?}");
        assert!(
            flat(&answer).contains("Nothing changed"),
            "{address}: {answer}"
        );
        assert!(flat(&answer).contains(why), "{address}: {answer}");
    }
    let opponent = SEATS[1].1;
    let (_, answer) = g.send(
        "japan",
        &plain_address("japan"),
        "x",
        None,
        &format!("ADDRESS ADD {opponent}"),
    );
    assert!(
        flat(&answer)
            .contains("already registered for another player's seat on this host. Nothing changed"),
        "{answer}"
    );
    assert!(
        !answer.contains("russia"),
        "the answer names whose: {answer}"
    );
    let seats = g.d.data.game("g").seats().unwrap();
    assert!(seats.seats["japan"].also_from.is_empty(), "{seats:?}");
    // The opponent's LIST (a tokenless mail) carries no secret of Japan's.
    let out = g.send_from(opponent, "despatch@localhost", "my games?", None, "LIST");
    assert!(matches!(out, Intake::Listed { .. }), "{out:?}");
    let listed = g.mails_to(opponent).pop().unwrap();
    assert!(listed.subject.contains("Your games"), "{}", listed.subject);
    assert!(!listed.text.contains(SEATS[0].2), "{}", listed.text);
    // Positive control: a home address of Japan's own is taken.
    let (_, answer) = g.send(
        "japan",
        &plain_address("japan"),
        "x",
        None,
        "ADDRESS ADD togo.home@fleet.example",
    );
    assert!(flat(&answer).contains("are now read as yours"), "{answer}");
    let seats = g.d.data.game("g").seats().unwrap();
    assert_eq!(seats.seats["japan"].also_from, ["togo.home@fleet.example"]);
}

pub(crate) const WATCHER: &str = "watcher@club.example";

/// Every delivered mail to `address`, raw, oldest first (to read its headers).
pub(crate) fn raw_to(g: &Game, address: &str) -> Vec<String> {
    let mut files: Vec<_> = ["new", "cur"]
        .iter()
        .flat_map(|sub| std::fs::read_dir(g.d.cfg.mail.outbox.join(sub)).unwrap())
        .map(|e| e.unwrap().path())
        .collect();
    files.sort_by_key(|p| {
        let when = std::fs::metadata(p).and_then(|m| m.modified()).unwrap();
        (when, p.file_name().unwrap().to_os_string())
    });
    files
        .into_iter()
        .map(|p| String::from_utf8_lossy(&std::fs::read(p).unwrap()).into_owned())
        .filter(|raw| {
            raw.lines()
                .take_while(|l| !l.is_empty())
                .any(|l| l.starts_with("To:") && l.contains(address))
        })
        .collect()
}

/// A header's value, its folded lines joined.
pub(crate) fn header(raw: &str, name: &str) -> Option<String> {
    let mut out: Option<String> = None;
    for l in raw.lines().take_while(|l| !l.is_empty()) {
        match &mut out {
            Some(v) if l.starts_with([' ', '\t']) => v.push_str(&format!(" {}", l.trim())),
            Some(_) => break,
            None => out = l.strip_prefix(&format!("{name}: ")).map(str::to_string),
        }
    }
    out
}

pub(crate) fn seats(g: &Game) -> despatch::store::SeatsFile {
    g.d.data.game("g").seats().unwrap()
}

pub(crate) fn code_of(g: &Game, address: &str) -> (String, String) {
    let ask = g
        .mails_to(address)
        .into_iter()
        .rfind(|m| m.subject.contains("Please confirm you want to watch"))
        .expect("a request to confirm");
    let code = ask
        .subject
        .rsplit("code ")
        .next()
        .unwrap()
        .trim_end_matches(')');
    (code.to_string(), ask.message_id)
}

#[test]
fn a_spectator_gets_one_request_and_nothing_more_until_the_code_comes_back() {
    let mut g = players_may_add();
    let (_, answer) = g.send(
        "japan",
        &plain_address("japan"),
        "x",
        None,
        &format!("SPECTATOR ADD {WATCHER}"),
    );
    assert!(flat(&answer).contains("asking them to confirm"), "{answer}");
    assert!(
        flat(&answer).contains("(asked, not confirmed yet)"),
        "{answer}"
    );
    assert_eq!(g.mails_to(WATCHER).len(), 1, "one request");
    let s = &seats(&g).spectators[0];
    assert!(!s.watching(), "pending until confirmed");
    // Not watching yet: no W1 notice, no results.
    let noticed = |g: &Game| {
        g.inbox("russia")
            .iter()
            .filter(|m| m.subject.contains("A spectator now watches"))
            .count()
    };
    assert_eq!(noticed(&g), 0);
    g.play_until(2);
    assert_eq!(g.mails_to(WATCHER).len(), 1, "nothing but the request");
    // A forged or careless reply without the code, or with a wrong one, confirms nothing and
    // is not answered.
    let (code, asked) = code_of(&g, WATCHER);
    for body in ["yes please", "WATCH abcdefghijklmnopqrstuvwx"] {
        let out = g.send_from(WATCHER, "despatch+g@localhost", "Re: watch", None, body);
        assert_eq!(out, Intake::Observer { game: "g".into() });
    }
    assert_eq!(g.mails_to(WATCHER).len(), 1);
    assert!(!seats(&g).spectators[0].watching());
    // The code, quoted in a reply: confirmed, welcomed, and the seats are told.
    let ask = g.mails_to(WATCHER).pop().unwrap();
    assert!(ask.subject.contains(&code), "{}", ask.subject);
    let out = g.send_from(
        WATCHER,
        "despatch@localhost",
        &format!("Re: {}", ask.subject),
        Some(&asked),
        "ok, count me in",
    );
    assert_eq!(out, Intake::Observer { game: "g".into() });
    assert!(seats(&g).spectators[0].watching());
    let mails = g.mails_to(WATCHER);
    assert_eq!(mails.len(), 2, "then the welcome");
    assert!(
        mails[1].text.starts_with("SPECTATOR VIEW"),
        "{}",
        mails[1].text
    );
    assert_eq!(noticed(&g), 1);
    let journal = String::from_utf8(g.journal()).unwrap();
    assert!(!journal.contains("watcher") && !journal.contains(&code));
    // A confirmed observer is stored as before consent existed: old seats files load as
    // confirmed observers, who keep receiving.
    let raw = std::fs::read_to_string(g.d.data.game("g").dir.join("seats.toml")).unwrap();
    assert!(!raw.contains("pending"), "{raw}");
    g.play_until(3);
    assert!(g.mails_to(WATCHER).len() > 2, "results come once confirmed");
}

#[test]
fn requests_lapse_after_seven_days_and_count_toward_the_cap() {
    use chrono::{Duration, TimeZone, Utc};
    let mut g = players_may_add();
    let t0 = Utc.with_ymd_and_hms(2026, 5, 20, 9, 0, 0).unwrap();
    for i in 0..20 {
        g.d.gm_spectator("g", true, &format!("w{i}@club.example"), t0)
            .unwrap();
    }
    let err = g.d.gm_spectator("g", true, WATCHER, t0).unwrap_err();
    assert!(err.to_string().contains("at most 20"), "{err}");
    // Just before the seventh day ends, still full; just after, the lapsed requests go.
    let edge = t0 + Duration::days(7);
    let err =
        g.d.gm_spectator("g", true, WATCHER, edge - Duration::seconds(1))
            .unwrap_err();
    assert!(err.to_string().contains("at most 20"), "{err}");
    g.d.gm_spectator("g", true, WATCHER, edge).unwrap();
    assert_eq!(seats(&g).spectators.len(), 1, "{:?}", seats(&g).spectators);
    // A lapsed request's code confirms nothing (the game's clock is past 2026-05-27).
    let (code, _) = code_of(&g, "w0@club.example");
    let out = g.send_from(
        "w0@club.example",
        "despatch+g@localhost",
        "Re: x",
        None,
        &format!("WATCH {code}"),
    );
    assert_eq!(out, Intake::Unknown("sender not registered in `g`".into()));
    assert_eq!(g.mails_to("w0@club.example").len(), 1);
}

#[test]
fn every_mail_carries_list_unsubscribe_and_stop_works_by_reply() {
    let mut g = players_may_add();
    g.send(
        "japan",
        &plain_address("japan"),
        "x",
        None,
        &format!("SPECTATOR ADD {WATCHER}"),
    );
    let (code, _) = code_of(&g, WATCHER);
    g.send_from(WATCHER, "despatch+g@localhost", "Re: x", None, &code);
    g.play_until(2);
    let spectator_stop = "<mailto:despatch+g@localhost?subject=STOP>";
    let to_watcher = raw_to(&g, WATCHER);
    assert!(to_watcher.len() >= 3, "request, welcome, results");
    for raw in &to_watcher {
        assert_eq!(
            header(raw, "List-Unsubscribe").as_deref(),
            Some(spectator_stop),
            "{raw}"
        );
        assert_eq!(
            header(raw, "List-Unsubscribe-Post"),
            None,
            "no https URI configured"
        );
    }
    for (seat, address, token) in SEATS {
        for raw in raw_to(&g, address) {
            let l = header(&raw, "List-Unsubscribe").unwrap_or_else(|| panic!("{raw}"));
            assert!(
                l.starts_with(&format!("<mailto:despatch+g.{seat}.{token}")),
                "{l}"
            );
        }
    }
    // STOP from the observer's address (as a mail client sends the mailto): removed at once,
    // told by one mail, and the seats are told.
    let before = g.mails_to(WATCHER).len();
    let out = g.send_from(WATCHER, "despatch+g@localhost", "STOP", None, "");
    assert_eq!(out, Intake::Observer { game: "g".into() });
    assert!(seats(&g).spectators.is_empty());
    let mails = g.mails_to(WATCHER);
    assert_eq!(mails.len(), before + 1);
    assert!(
        flat(&mails[before].text).contains("You no longer watch game g"),
        "{}",
        mails[before].text
    );
    let told = g.inbox("russia").pop().unwrap();
    assert!(
        flat(&told.text).contains("stopped watching, at their own request. Nobody now watches"),
        "{}",
        told.text
    );
    g.play_until(3);
    assert_eq!(g.mails_to(WATCHER).len(), before + 1, "nothing after STOP");
    // UNSUBSCRIBE and SPECTATOR REMOVE me work for an address still asked.
    for (who, line) in [
        ("a@club.example", "UNSUBSCRIBE"),
        ("b@club.example", "SPECTATOR REMOVE me"),
    ] {
        g.d.gm_spectator("g", true, who, naval_mail_now()).unwrap();
        g.send_from(who, "despatch@localhost", "Re: [g] x", None, line);
        assert!(seats(&g).spectators.is_empty(), "{line}");
        let last = g.mails_to(who).pop().unwrap();
        assert!(
            flat(&last.text).contains("was withdrawn, at your word"),
            "{}",
            last.text
        );
    }
    // A seat's STOP makes every mail that may wait wait (one mail a step), and says what still
    // comes and how to leave (ruling S1). This world sends every mail on its own, so STOP
    // changes something.
    assert!(seats(&g).seats["japan"].notify.orders);
    let (out, answer) = g.send("japan", &plain_address("japan"), "STOP", None, "");
    assert!(matches!(out, Intake::Settings { .. }), "{out:?}");
    assert!(
        flat(&answer).contains("you now get one mail a step at most"),
        "{answer}"
    );
    assert!(flat(&answer).contains("write RESIGN"), "{answer}");
    let n = seats(&g).seats["japan"].notify;
    assert_eq!(n, despatch::store::Notify::default(), "{n:?}");
    assert!(
        !n.orders && !n.optional && !n.receipts && !n.results,
        "{n:?}"
    );
}

#[test]
fn forged_mails_make_despatch_flood_no_one() {
    use chrono::{TimeZone, Utc};
    use despatch::dice::GameSecrets;
    let mut g = players_may_add();
    // Five more games with the same two players.
    for k in 2..=6u8 {
        let id = format!("g{k}");
        g.d.create_game_with(
            &id,
            "naval-rjw",
            "training",
            &SEATS.map(|(s, a, _)| (s.to_string(), a.to_string())),
            Utc.with_ymd_and_hms(2026, 6, 1, 9, 0, 0).unwrap(),
            GameSecrets::pinned(&id, [k; 32], [2; 32], 100),
            &SEATS.map(|(_, _, t)| format!("{}{k}", &t[..t.len() - 1])),
        )
        .unwrap();
    }
    g.d.deliver().unwrap();
    let count = |g: &Game, to: &str, subject: &str| {
        g.mails_to(to)
            .iter()
            .filter(|m| m.subject.contains(subject))
            .count()
    };
    // 1. Tokenless mails forged from Russia's address, one a minute for two hours: each was
    // answered with the games list until the cap; now three an hour reach the victim.
    let russia = SEATS[1].1;
    for _ in 0..120 {
        g.send_from(russia, "despatch@localhost", "hello", None, "anything");
    }
    let lists = count(&g, russia, "Your games");
    assert!(lists >= 1, "positive control: the first is answered");
    assert_eq!(lists, 6, "three in each hour");
    // 2. Mails without the secret forged to each game from Japan's address: each game warns
    // its seat once in six hours; across six games, three an hour reach the player.
    let japan = SEATS[0].1;
    for round in 0..3 {
        for k in 1..=6 {
            let game = if k == 1 {
                "g".to_string()
            } else {
                format!("g{k}")
            };
            g.send_from(
                japan,
                &format!("despatch+{game}@localhost"),
                &format!("r{round}"),
                None,
                "FIRE",
            );
        }
    }
    let notices = count(&g, japan, "A mail without your seat's secret");
    assert!(notices >= 1, "positive control");
    assert_eq!(notices, 3);
    // 3. Spectator requests to one victim from six games: three reach them; the rest are
    // refused to the seat that asked, and no request is left pending unsent.
    let victim = "victim@club.example";
    let mut refused = 0;
    for k in 1..=6 {
        let (game, token) = if k == 1 {
            ("g".to_string(), SEATS[0].2.to_string())
        } else {
            (
                format!("g{k}"),
                format!("{}{k}", &SEATS[0].2[..SEATS[0].2.len() - 1]),
            )
        };
        let (_, answer) = g.send(
            "japan",
            &format!("despatch+{game}.japan.{token}@localhost"),
            "x",
            None,
            &format!("SPECTATOR ADD {victim}"),
        );
        if flat(&answer).contains("Not done") {
            assert!(flat(&answer).contains("this hour"), "{answer}");
            refused += 1;
        }
    }
    assert_eq!(count(&g, victim, "Please confirm"), 3);
    assert_eq!(refused, 3);
    // 4. STOP forged from an observer's address in six games: one answer per game, three
    // reach the address.
    let watcher = "w@club.example";
    for k in 1..=6 {
        let game = if k == 1 {
            "g".to_string()
        } else {
            format!("g{k}")
        };
        // Hours before the flood (the requests' own hour has gone by), still pending.
        let later = Utc.with_ymd_and_hms(2026, 5, 31, 1, 0, 0).unwrap();
        g.d.gm_spectator(&game, true, watcher, later + chrono::Duration::hours(k))
            .unwrap();
    }
    let before = g.mails_to(watcher).len();
    assert_eq!(before, 6, "one request a game, an hour apart");
    for k in 1..=6 {
        let game = if k == 1 {
            "g".to_string()
        } else {
            format!("g{k}")
        };
        g.send_from(
            watcher,
            &format!("despatch+{game}@localhost"),
            "STOP",
            None,
            "",
        );
    }
    assert_eq!(
        g.mails_to(watcher).len() - before,
        3,
        "three STOP answers in the hour"
    );
}

#[test]
fn one_click_carries_a_per_recipient_code_that_stops_as_stop_does() {
    let url = "https://club.example/stop";
    let mut g = start_configured("training", |c: &mut Config| {
        c.games.policy.club.spectators = Spectators::Players;
        c.web.unsubscribe_url = Some(url.into());
    });
    g.d.gm_spectator("g", true, WATCHER, naval_mail_now())
        .unwrap();
    let (code, _) = code_of(&g, WATCHER);
    g.send_from(WATCHER, "despatch+g@localhost", "Re: x", None, &code);
    g.play_until(2);
    let code_in = |raw: &str| {
        let l = header(raw, "List-Unsubscribe").unwrap_or_else(|| panic!("{raw}"));
        assert!(l.starts_with(&format!("<{url}/")), "{l}");
        assert!(l.ends_with("?subject=STOP>"), "the mailto stays: {l}");
        assert_eq!(
            header(raw, "List-Unsubscribe-Post").as_deref(),
            Some("List-Unsubscribe=One-Click"),
            "{raw}"
        );
        l[url.len() + 2..url.len() + 34].to_string()
    };
    let seat = code_in(&raw_to(&g, SEATS[0].1).pop().unwrap());
    let other = code_in(&raw_to(&g, SEATS[1].1).pop().unwrap());
    let watcher = code_in(&raw_to(&g, WATCHER).pop().unwrap());
    assert!(seat != other && seat != watcher, "one code per recipient");
    for token in [SEATS[0].2, SEATS[1].2] {
        assert!(!seat.contains(token) && !watcher.contains(token));
    }
    // A wrong or malformed code changes nothing.
    let err =
        g.d.unsubscribe(&"0".repeat(32), naval_mail_now())
            .unwrap_err();
    assert!(err.to_string().contains("no seat or spectator"), "{err}");
    let err = g.d.unsubscribe("hello", naval_mail_now()).unwrap_err();
    assert!(
        err.to_string().contains("not an unsubscription code"),
        "{err}"
    );
    assert!(seats(&g).seats["japan"].notify.orders);
    assert_eq!(seats(&g).spectators.len(), 1);
    // The seat's code: what STOP by mail does (S1); the observer's: they leave (W7).
    let said = g.d.unsubscribe(&seat, naval_mail_now()).unwrap();
    assert!(said.contains("seat japan"), "{said}");
    let n = seats(&g).seats["japan"].notify;
    assert!(!n.orders && !n.optional, "{n:?}");
    assert!(seats(&g).seats["russia"].notify.orders, "only that seat");
    g.d.unsubscribe(&watcher, naval_mail_now()).unwrap();
    assert!(seats(&g).spectators.is_empty());
    let told = g.inbox("russia").pop().unwrap();
    assert!(
        flat(&told.text).contains("at their own request"),
        "{}",
        told.text
    );
}
