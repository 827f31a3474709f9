//! Lone Star by mail through the real pipeline: four players (two a side) play one whole turn
//! of the patrol scenario by raw mails into `Daemon::ingest`, from the order reference alone,
//! and `verify` passes on what it left. Also measures the mails each player is asked for per
//! turn in the convention game (eight players), with and without standing orders.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Duration, TimeZone, Utc};
use despatch::config::{Config, DEFAULT_CONFIG};
use despatch::daemon::{Daemon, Intake};
use despatch::dice::{Dice, GameSecrets};
use despatch::engine::{Game, Play, Ruleset, Silence, Submitted};
use despatch::rulesets::lone_star::LoneStar;
use despatch::rulesets::lone_star::state::{Phase, State};
use despatch::verify;
use mail_parser::MessageParser;

const GAME: &str = "colorado";
const SEATS: [(&str, &str); 4] = [
    ("hays", "hays@rangers.example"),
    ("bowie", "bowie@navy.example"),
    ("von-arnim", "arnim@grenzer.example"),
    ("enver", "enver@sipahi.example"),
];

fn token(i: usize) -> String {
    format!("tok{i}0123456789abcdefghij")
}

struct World {
    _tmp: tempfile::TempDir,
    daemon: Daemon,
    now: DateTime<Utc>,
    n: u32,
}

fn world() -> World {
    let tmp = tempfile::tempdir().unwrap();
    let mut cfg = Config::parse(DEFAULT_CONFIG, &tmp.path().join("config.toml")).unwrap();
    cfg.games.games_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("games");
    cfg.games.onion_len = 1000;
    // Each step's results read in each seat's inbox as they happen (one mail a step keeps
    // those that ask nothing for the seat's next mail: one_mail_a_step.rs, inbox_volume.rs).
    cfg.games.notify = despatch::store::Notify::all();
    let daemon = Daemon::new(cfg).unwrap();
    let now = Utc.with_ymd_and_hms(2026, 11, 23, 9, 0, 0).unwrap();
    daemon
        .create_game_with(
            GAME,
            "lone-star",
            "patrol",
            &SEATS.map(|(s, a)| (s.to_string(), a.to_string())),
            now,
            GameSecrets::pinned(GAME, [0x4c; 32], [0x5a; 32], 1000),
            &(0..4).map(token).collect::<Vec<_>>(),
        )
        .unwrap();
    daemon.deliver().unwrap();
    World {
        _tmp: tmp,
        daemon,
        now,
        n: 0,
    }
}

impl World {
    fn send(&mut self, seat: &str, body: &str) -> Intake {
        self.n += 1;
        self.now += Duration::minutes(10);
        let i = SEATS.iter().position(|(s, _)| *s == seat).unwrap();
        let raw = format!(
            "From: Player <{}>\r\nTo: despatch+{GAME}.{seat}.{}@localhost\r\nSubject: Re: [{GAME}] orders\r\nMessage-ID: <ls{}@player.example>\r\nDate: Mon, 23 Nov 2026 10:00:00 +0000\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}\r\n",
            SEATS[i].1,
            token(i),
            self.n,
            body.replace('\n', "\r\n")
        );
        self.daemon.ingest(raw.as_bytes(), self.now).unwrap()
    }

    fn game(&self) -> Game<LoneStar> {
        self.daemon.data.game(GAME).load().unwrap()
    }
}

/// The text of every delivered mail to `address`.
fn mails_to(dir: &Path, address: &str) -> Vec<String> {
    let mut out = Vec::new();
    for sub in ["new", "cur"] {
        let Ok(rd) = std::fs::read_dir(dir.join(sub)) else {
            continue;
        };
        let mut files: Vec<_> = rd.flatten().map(|e| e.path()).collect();
        files.sort();
        for p in files {
            let bytes = std::fs::read(&p).unwrap();
            let m = MessageParser::default().parse(&bytes).unwrap();
            let to = m
                .to()
                .and_then(|a| a.first())
                .and_then(|a| a.address())
                .unwrap_or_default()
                .to_string();
            if to.eq_ignore_ascii_case(address) {
                out.push(m.body_text(0).map(|t| t.into_owned()).unwrap_or_default());
            }
        }
    }
    out
}

/// What each seat writes for the step in hand, from the order reference.
fn orders_for(st: &State, seat: &str) -> Option<&'static str> {
    Some(match (&st.phase, seat) {
        (Phase::Move { .. }, "hays") => {
            "FORM Rangers COLUMN\nMOVE Rangers 24,16\nHOLD Comanche Scouts\nSTANDING Comanche Scouts AMBUSH 10"
        }
        (Phase::Move { .. }, "bowie") => "SAIL Prairie Schooner 0",
        (Phase::Move { .. }, "von-arnim") => "MOVE Grenzer 16,16\nSTANDING Jaeger TARGET NEAREST",
        (Phase::Move { .. }, "enver") => "MOVE Sipahi 6 ON 90",
        (Phase::Combat, "bowie") => "FIRE Alamo Battery AT 16,16",
        (Phase::Combat, "hays") => "FIRE Rangers NONE",
        (Phase::Combat, _) => return None,
        (Phase::Extra, "hays") => "EXTRA Rangers NONE",
        (Phase::Extra, "von-arnim") => "EXTRA Grenzer 18,18",
        (Phase::Extra, _) => return None,
        _ => return None,
    })
}

#[test]
fn four_players_play_one_whole_turn_by_mail() {
    let mut w = world();
    let outbox = w.daemon.cfg.mail.outbox.clone();
    // The welcome mail carries the order reference's help and the briefing.
    let welcome = mails_to(&outbox, "hays@rangers.example").join("\n");
    assert!(welcome.contains("Rangers"), "{welcome}");
    let mut sent: BTreeMap<String, u32> = BTreeMap::new();
    for _ in 0..40 {
        let g = w.game();
        if g.state.turn > 1 {
            break;
        }
        let waiting = g.waiting_for();
        let step_before = g.book.step;
        let spec = LoneStar::step(&g.state);
        let mut any = false;
        for p in &spec.prompts {
            if let Some(text) = orders_for(&g.state, &p.seat)
                && (p.required || waiting.contains(&p.seat))
            {
                let out = w.send(&p.seat, text);
                assert!(
                    matches!(out, Intake::Accepted { .. }),
                    "{}: {out:?}\n{text}",
                    p.seat
                );
                *sent.entry(p.seat.clone()).or_default() += 1;
                any = true;
            }
        }
        let g = w.game();
        let same_step = g.book.step == step_before;
        if (same_step && !g.waiting_for().is_empty()) || !any {
            // Silent seats: the deadline applies their standing orders.
            let deadline = g.book.deadline.expect("a deadline");
            w.now = deadline + Duration::hours(g.policy.grace_hours as i64 + 1);
            w.daemon.run_once(w.now).unwrap();
        }
    }
    let g = w.game();
    assert_eq!(g.state.turn, 2, "one whole turn: {:?}", g.state.phase);
    // Every seat moved once, on its card, by one mail.
    for (seat, _) in SEATS {
        assert!(
            sent.get(seat).copied().unwrap_or(0) >= 1,
            "{seat} never wrote: {sent:?}"
        );
    }
    w.daemon.deliver().unwrap();
    let hays = mails_to(&outbox, "hays@rangers.example").join("\n");
    assert!(
        hays.contains("Turn-order cards"),
        "the cards are in the mails"
    );
    assert!(
        hays.contains("Alamo Battery fires at 16,16"),
        "the gun's shot is reported"
    );
    // The Jaeger's standing order stays von Arnim's; the Scouts' hiding place Hays's.
    let enver = mails_to(&outbox, "enver@sipahi.example").join("\n");
    assert!(!enver.contains("STANDING Jaeger"));
    assert!(
        !mails_to(&outbox, "arnim@grenzer.example")
            .join("\n")
            .contains("HIDDEN at 26,26")
    );
    assert!(hays.contains("Comanche Scouts") && hays.contains("HIDDEN at 26,26"));
    let (_, findings) =
        verify::verify_store(&w.daemon.data.game(GAME), &despatch::rulesets::registry());
    assert!(findings.is_empty(), "{findings:?}");
    let (_, mf) = verify::verify_mails(&outbox, Some(GAME));
    assert!(mf.is_empty(), "{mf:?}");
}

/// Plays the convention game to its end on the ruleset alone (scripted players answering every
/// required prompt; `standing` adds the standing orders to each seat's first mail), and returns
/// mails per player per turn, with the turns played and each seat's count of mails.
fn mails_per_player_turn(standing: bool) -> (f64, u32, BTreeMap<String, u32>) {
    let seats: Vec<String> = [
        "hays",
        "travis",
        "smythe",
        "bowie",
        "von-arnim",
        "von-moltke",
        "enver",
        "krupp",
    ]
    .map(String::from)
    .to_vec();
    let mut st = LoneStar::setup(
        include_str!("../games/lone-star/ruleset.toml"),
        include_str!("../games/lone-star/scenarios/tidal.toml"),
        &seats,
    )
    .unwrap();
    let mut mails = 0u32;
    let mut by_seat: BTreeMap<String, u32> = BTreeMap::new();
    let mut first: BTreeMap<String, bool> = BTreeMap::new();
    for k in 0..2000u64 {
        if LoneStar::outcome(&st).is_some() {
            break;
        }
        let spec = LoneStar::step(&st);
        let mut subs = BTreeMap::new();
        for p in &spec.prompts {
            let mut text: String =
                LoneStar::sample_orders(&st, &p.seat, k * 31 + p.seat.len() as u64)
                    .lines()
                    .filter(|l| !l.starts_with("STANDING"))
                    .map(|l| format!("{l}\n"))
                    .collect();
            let give_standing = standing && !first.contains_key(&p.seat);
            if give_standing {
                first.insert(p.seat.clone(), true);
                for u in st.seat_units(&p.seat) {
                    let to = format!("{},{}", if u.side == "alliance" { 40 } else { 32 }, 24);
                    text.push_str(&format!("STANDING {0} TARGET NEAREST\nSTANDING {0} MELEE STAY\nSTANDING {0} PRISONERS NO\n", u.name));
                    if u.hidden {
                        text.push_str(&format!("STANDING {} AMBUSH 10\n", u.name));
                    }
                    if u.on_foot() {
                        text.push_str(&format!("STANDING {} EXTRA NONE\n", u.name));
                    }
                    if u.may_move() && u.arm != despatch::rulesets::lone_star::data::Arm::Windwagon
                    {
                        text.push_str(&format!("STANDING {} ADVANCE {to}\n", u.name));
                    }
                }
            }
            if p.required || give_standing {
                mails += 1;
                *by_seat.entry(p.seat.clone()).or_default() += 1;
                subs.insert(
                    p.seat.clone(),
                    Submitted::Orders(
                        LoneStar::parse(&st, &p.seat, &text)
                            .unwrap_or_else(|e| panic!("{e:?}\n{text}")),
                    ),
                );
            } else {
                subs.insert(p.seat.clone(), Submitted::Nmr(Silence::StandingOrders));
            }
        }
        st = LoneStar::resolve(&st, &subs, &mut Dice::new([(k % 251) as u8; 32]));
    }
    let turns = (st.turn - 1).max(1);
    (
        mails as f64 / (seats.len() as f64 * turns as f64),
        turns,
        by_seat,
    )
}

#[test]
fn standing_orders_lower_the_mails_per_player_per_turn() {
    let (without, turns_without, seats_without) = mails_per_player_turn(false);
    let (with, turns_with, seats_with) = mails_per_player_turn(true);
    eprintln!(
        "Lone Star, Brazos Crossing (8 players): mails per player per turn without standing orders {without:.2} ({turns_without} turns, {seats_without:?}), with {with:.2} ({turns_with} turns, {seats_with:?})"
    );
    assert!(with < without, "{with} !< {without}");
}
