//! La Bataille by mail through the real pipeline: raw mails into `Daemon::ingest` on a tempdir
//! config, with the onion and seat secrets pinned, the seats replying to their tokened reply
//! addresses. A whole assault and a whole cavalry charge with a square attempt are played by
//! mail, and the mails players send per game turn are counted with and without standing
//! orders (the figures in games/la-bataille/README.md).

use std::collections::BTreeMap;

use chrono::{DateTime, TimeZone, Utc};
use despatch::daemon::Intake;
use despatch::engine::{Game, Play, Ruleset};
use despatch::rulesets::kit::roster::Roster;
use despatch::rulesets::la_bataille::LaBataille;
use despatch::rulesets::la_bataille::state::{Formation, Phase, QKind};
use despatch::verify;

const GAME: &str = "quatre";
const FRANCE: &str = "ney@grande-armee.example";
const ALLIES: &str = "wellington@peninsula.example";
const TOKEN_FR: &str = "frtoken0123456789abcdefg";
const TOKEN_AL: &str = "altoken0123456789abcdefg";

/// Turn 1, the French Maneuver Segment: one assault and one charge (README examples).
const FRENCH_TURN_1: &str = "ASSAULT 1/45e AT 0504 VIA 0506 0505\nCHARGE 1er-Cuirassiers AT 0804\n";

/// The standing orders the README documents, one mail each before the first turn.
const STANDING_FR: &str = "PICK AUTO\nREASSAULT NEVER\nRECALL IF SQUARE\nDISPLACE AUTO\nIMPETUS AUTO\nPURSUE AUTO\nREACTION NEVER\nFORM UP NEVER\nRETREAT BEFORE ASSAULT NEVER\nRETREAT BEFORE CHARGE NEVER\n";
const STANDING_AL: &str = "PICK AUTO\nSQUARE ALWAYS\nHUZZAH ALWAYS\nRETREAT BEFORE ASSAULT IF 3:1\nRETREAT BEFORE CHARGE NEVER\nREASSAULT NEVER\nRECALL NEVER\nREACTION NEVER\nFORM UP NEVER\nDISPLACE AUTO\nIMPETUS AUTO\nPURSUE AUTO\n";

use crate::mail_world;

use mail_world::{World, delivered};

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 23, 9, 0, 0).unwrap()
}

fn world() -> World {
    mail_world::world(
        GAME,
        "la-bataille",
        "teaching",
        &[("france", FRANCE, TOKEN_FR), ("allies", ALLIES, TOKEN_AL)],
        t0(),
        ([0x4c; 32], [0x42; 32]),
    )
}

impl World {
    fn game(&self) -> Game<LaBataille> {
        self.daemon.data.game(GAME).load().unwrap()
    }

    fn accepted(&mut self, seat: &str, body: &str) {
        let out = self.send(seat, body);
        assert!(
            matches!(out, Intake::Accepted { .. }),
            "{seat}: {body}\n{out:?}"
        );
    }
}

/// Mails each seat sent in each game turn, and the questions asked by mail.
#[derive(Debug, Default)]
struct Counts {
    turns: BTreeMap<u32, (usize, usize)>,
    questions: usize,
}

/// The sample players' answer for a seat, without the standing orders they sometimes add
/// (so that a game without standing orders really has none).
fn answer(g: &Game<LaBataille>, seat: &str, salt: u64) -> String {
    let text: String = LaBataille::sample_orders(&g.state, seat, g.step * 31 + salt)
        .lines()
        .filter(|l| {
            ![
                "HUZZAH ALWAYS",
                "SQUARE ALWAYS",
                "RETREAT BEFORE ASSAULT IF 3:1",
                "PICK AUTO",
                "DISPLACE AUTO",
                "IMPETUS AUTO",
                "PURSUE AUTO",
                "REACTION NEVER",
                "RECALL IF SQUARE",
            ]
            .contains(l)
        })
        .map(|l| format!("{l}\n"))
        .collect();
    if text.trim().is_empty() {
        "PASS\n".into()
    } else {
        text
    }
}

/// Plays game turns 1..=`turns` by mail: the French open with the README's assault and
/// charge, then both sides play the sample players' orders, answering every question.
fn play_turns(w: &mut World, turns: u32, standing: bool) -> Counts {
    let mut counts = Counts::default();
    if standing {
        // The Allies' standing orders answer the optional prompt of the French Maneuver
        // Segment; the French send theirs with their first orders.
        w.accepted("allies", STANDING_AL);
        counts.turns.entry(1).or_default().1 += 1;
    }
    let mut first = true;
    for _ in 0..300 {
        let g = w.game();
        if g.is_over() || g.state.turn > turns {
            return counts;
        }
        let waiting = g.waiting_for();
        assert!(
            !waiting.is_empty(),
            "dead end at step {}: {:?}",
            g.step,
            g.state.phase
        );
        if matches!(g.state.phase, Phase::Question { .. }) {
            counts.questions += 1;
        }
        let turn = g.state.turn;
        for seat in waiting {
            let text = if first && seat == "france" {
                first = false;
                if standing {
                    format!("{STANDING_FR}{FRENCH_TURN_1}")
                } else {
                    FRENCH_TURN_1.to_string()
                }
            } else {
                answer(&g, &seat, u64::from(w.n))
            };
            w.accepted(&seat, &text);
            let c = counts.turns.entry(turn).or_default();
            if seat == "france" {
                c.0 += 1;
            } else {
                c.1 += 1;
            }
        }
    }
    panic!("{turns} turn(s) do not end");
}

fn verified(w: &World) {
    let store = w.daemon.data.game(GAME);
    let (checked, findings) = verify::verify_store(&store, &despatch::rulesets::registry());
    assert!(findings.is_empty(), "{findings:?}");
    assert!(checked.rolls > 0 && checked.steps > 2, "{checked:?}");
    let (mchecked, mfindings) = verify::verify_mails(&w.daemon.cfg.mail.outbox, Some(GAME));
    assert!(mfindings.is_empty(), "{mfindings:?}");
    assert_eq!(
        mchecked.steps, checked.steps,
        "every step's dice re-derive from the mails"
    );
}

fn report(what: &str, counts: &Counts) -> usize {
    let mut total = 0;
    for (turn, (fr, al)) in &counts.turns {
        eprintln!("{what}: game turn {turn}: France sent {fr} mail(s), Allies {al}");
        total += fr + al;
    }
    eprintln!(
        "{what}: {total} mail(s) from the players in all; {} question(s) asked by mail",
        counts.questions
    );
    total
}

#[test]
fn r19_a_whole_assault_and_a_whole_charge_with_a_square_attempt_by_mail() {
    let mut w = world();
    // HELP by mail answers with the order reference.
    assert!(matches!(w.send("allies", "HELP\n"), Intake::Help { .. }));
    let outbox = w.daemon.cfg.mail.outbox.clone();
    assert!(
        delivered(&outbox, "allies")
            .iter()
            .any(|m| m.contains("RETREAT BEFORE ASSAULT IF 3:1")),
        "HELP carries the README's standing orders"
    );
    w.accepted("france", FRENCH_TURN_1);
    // The cuirassiers begin their charge 4 hexes from the KGL: the Allies are asked to try
    // a square (p.6), by mail, before anything else happens.
    let g = w.game();
    let Phase::Question { question } = &g.state.phase else {
        panic!("no question: {:?}", g.state.phase)
    };
    assert_eq!(question.seat, "allies");
    assert_eq!(question.kind, QKind::Square, "{}", question.text);
    assert!(
        question.options.contains(&"5th-KGL".to_string()),
        "{question:?}"
    );
    let outbox = w.daemon.cfg.mail.outbox.clone();
    assert!(
        delivered(&outbox, "allies")
            .iter()
            .any(|m| m.contains("SQUARE") && m.contains("5th-KGL")),
        "the question reaches the Allies by mail"
    );
    // A bad answer is refused with a hint, and nothing moves.
    assert!(matches!(
        w.send("allies", "SQUARE 28th-Foot Sandham\n"),
        Intake::Rejected { .. }
    ));
    w.accepted("allies", "SQUARE 5th-KGL\n");
    let kgl = w.game().state.unit("5th-KGL").unwrap().clone();
    // The attempt's roll and result reach the Allies by mail (hard-wrapped: flattened here),
    // and the counter on the map agrees with it.
    let report = delivered(&outbox, "allies")
        .iter()
        .map(|m| m.split_whitespace().collect::<Vec<_>>().join(" "))
        .find_map(|m| {
            let at = m.find("Square attempt of 5th-KGL in 0804")?;
            let rest = &m[at..];
            Some(rest[..rest.find('.').unwrap_or(rest.len())].to_string())
        })
        .expect("the square attempt is reported by mail");
    let formed = report.contains("formed");
    assert_eq!(
        kgl.formation == Formation::Square,
        formed,
        "{report} / {:?}",
        kgl.formation
    );
    // Play on, answering every question, until the French player turn is over.
    for _ in 0..40 {
        let g = w.game();
        if g.state.phasing != "france" || g.is_over() {
            break;
        }
        for seat in g.waiting_for() {
            let text = answer(&g, &seat, u64::from(w.n));
            w.accepted(&seat, &text);
        }
    }
    let g = w.game();
    assert_eq!(g.state.phasing, "allies", "the French player turn ended");
    // The charge and the assault were resolved: no charge or assault is waiting.
    assert!(g.state.assaults.iter().all(|a| !a.due));
    assert!(
        g.state.charges.iter().all(|c| c.stage
            == despatch::rulesets::la_bataille::state::CStage::Over
            || c.stage == despatch::rulesets::la_bataille::state::CStage::Arrived)
            || g.state.charges.is_empty()
    );
    let cuir = g.state.unit("1er-Cuirassiers").unwrap();
    assert!(
        cuir.charged || cuir.eliminated,
        "the cuirassiers charged: {cuir:?}"
    );
    eprintln!("5th-KGL after its attempt: {:?} ({report})", kgl.formation);
    verified(&w);
}

#[test]
fn standing_orders_need_fewer_mails_per_game_turn() {
    let mut plain = world();
    let without = play_turns(&mut plain, 3, false);
    verified(&plain);
    let mut standing = world();
    let with = play_turns(&mut standing, 3, true);
    verified(&standing);
    let total_without = report("WITHOUT standing orders", &without);
    let total_with = report("WITH standing orders", &with);
    assert!(
        without.questions > 0,
        "the plain game asked questions by mail"
    );
    assert!(
        with.questions < without.questions,
        "{} >= {}",
        with.questions,
        without.questions
    );
    assert!(
        total_with < total_without,
        "{total_with} >= {total_without}"
    );
}
