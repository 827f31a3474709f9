//! Issue 28.3: step orders are bound to their step; standing orders, settings and commands are
//! not (rulings SO1–SO4 in docs/standing-orders.md). In every ruleset, by mail through
//! `Daemon::ingest`: a mail that answers a step already resolved carries its standing orders
//! (in force at once, the rest of the mail refused with why), its commands are carried out, a
//! mail with step orders only is still refused, and a standing order gone wrong applies
//! nothing. La Bataille's case from the games by mail: a standing order sent after the
//! question was put answers it, and the seat is not asked again.

use chrono::{TimeZone, Utc};
use despatch::daemon::Intake;
use despatch::engine::{Event, Play};
use despatch::rulesets::gear_krieg::GearKrieg;
use despatch::rulesets::kit::roster::TwoSides;
use despatch::rulesets::la_bataille::LaBataille;
use despatch::rulesets::la_bataille::state::{Phase as LbPhase, Policy, QKind};
use despatch::rulesets::last_hundred_yards::LastHundredYards;
use despatch::rulesets::lone_star::LoneStar;
use despatch::rulesets::naval_rjw::NavalRjw;
use despatch::rulesets::naval_rjw::state::StandingFire;
use despatch::verify;

use crate::mail_world::{self, World, delivered};

const GAME: &str = "anystep";

fn two_seats(ruleset: &str, scenario: &str, a: &'static str, b: &'static str) -> World {
    mail_world::world(
        GAME,
        ruleset,
        scenario,
        &[
            (a, "first@club.example", "firsttoken0123456789abc"),
            (b, "second@club.example", "secondtoken0123456789ab"),
        ],
        Utc.with_ymd_and_hms(2026, 11, 27, 9, 0, 0).unwrap(),
        ([0x53; 32], [0x4f; 32]),
    )
}

fn play(w: &World) -> Box<dyn Play> {
    w.daemon.data.game(GAME).replay(&w.daemon.registry).unwrap()
}

/// Every waiting seat sends the scripted players' orders until the open step is past `step`
/// and, if `who` is given, that seat is asked something (or `stop` says so).
fn advance(w: &mut World, step: u64, stop: impl Fn(&dyn Play) -> bool) {
    for round in 0..400u64 {
        let g = play(w);
        assert!(!g.is_over(), "the game ended before the case was reached");
        if g.book().step > step && stop(g.as_ref()) {
            return;
        }
        let waiting = g.waiting_for();
        assert!(!waiting.is_empty(), "dead end at step {}", g.book().step);
        for seat in waiting {
            let text = g.sample_orders(&seat, round * 7 + 3);
            let text = if text.trim().is_empty() {
                "PASS".to_string()
            } else {
                text
            };
            let out = w.send(&seat, &text);
            assert!(
                matches!(out, Intake::Accepted { .. }),
                "{seat}: {text}\n{out:?}"
            );
        }
    }
    panic!("the case was not reached in 400 rounds");
}

/// The journal's last `standing` event (the step may have resolved after it).
fn last_standing(w: &World) -> Option<Event> {
    let lines = w.daemon.data.game(GAME).read_journal().unwrap().lines;
    lines
        .iter()
        .rev()
        .map(|l| serde_json::from_str::<Event>(l).unwrap())
        .find(|e| matches!(e, Event::Standing { .. }))
}

/// The reply the daemon sent for standing orders taken outside a step.
fn standing_reply(w: &World) -> String {
    let found = delivered(w.outbox(), "standing");
    assert_eq!(found.len(), 1, "one reply for the standing orders");
    found.into_iter().next().unwrap()
}

/// SO1: the standing line holds at once, the step line is listed as changing nothing; the
/// journal replays (so `verify` takes the new event) and the reply names the resolved step.
fn standing_taken(w: &mut World, seat: &str, standing: &str, step_line: &str) -> u64 {
    let open = play(w).book().step;
    let old = open - 1;
    let out = w.send_answering(seat, old, &format!("{step_line}\n{standing}\n"));
    assert!(matches!(out, Intake::Accepted { .. }), "{out:?}");
    let Some(Event::Standing {
        seat: who,
        orders,
        answered,
        not_applied,
        step,
        ..
    }) = last_standing(w)
    else {
        panic!("the mail's standing orders were not journaled")
    };
    assert_eq!((who.as_str(), step, answered), (seat, open, Some(old)));
    assert_eq!(
        orders.trim().to_ascii_uppercase(),
        standing.to_ascii_uppercase()
    );
    assert_eq!(not_applied, vec![step_line.to_string()]);
    let reply = standing_reply(w);
    assert!(reply.contains("Standing orders received for"), "{reply}");
    assert!(
        reply.contains(&format!(
            "Your mail answered step {old}, which has already been resolved"
        )),
        "{reply}"
    );
    assert!(reply.contains(step_line), "{reply}");
    open
}

/// A mail with step orders only, for a step already resolved, is refused as before; a command
/// in a mail answering that step is carried out.
fn step_orders_refused_and_commands_carried_out(w: &mut World, seat: &str, step_line: &str) {
    let old = play(w).book().step - 1;
    let journal = w.daemon.data.game(GAME).read_journal().unwrap().lines.len();
    let out = w.send_answering(seat, old, step_line);
    assert!(matches!(out, Intake::Rejected { .. }), "{out:?}");
    assert_eq!(
        w.daemon.data.game(GAME).read_journal().unwrap().lines.len(),
        journal,
        "a refused mail journals nothing"
    );
    let out = w.send_answering(seat, old, "TIMEZONE Europe/Paris");
    assert!(matches!(out, Intake::Settings { .. }), "{out:?}");
}

/// SO3: one standing line gone wrong applies nothing, and says which line and why.
fn wrong_standing_applies_nothing(w: &mut World, seat: &str, good: &str, bad: &str) {
    let old = play(w).book().step - 1;
    let before = play(w).state_json();
    let out = w.send_answering(seat, old, &format!("{good}\n{bad}\n"));
    assert!(matches!(out, Intake::Rejected { lines: 1, .. }), "{out:?}");
    assert_eq!(play(w).state_json(), before, "nothing applied");
}

/// The journal replays with its `standing` events, and once the game is over (one side
/// concedes) every mail, the standing receipt among them, is held against the journal.
fn verified_to_the_end(w: &mut World, conceding: &str) {
    let store = w.daemon.data.game(GAME);
    let (_, findings) = verify::verify_store(&store, &despatch::rulesets::registry());
    assert!(findings.is_empty(), "{findings:?}");
    let out = w.send(conceding, &format!("CONCEDE {GAME}"));
    assert!(matches!(out, Intake::SeatAct { .. }), "{out:?}");
    assert!(play(w).is_over());
    let (checked, findings) = verify::verify_mails(&w.daemon.cfg.mail.outbox, Some(GAME));
    assert!(findings.is_empty(), "{findings:?}");
    assert!(checked.replayed_mails > 0, "{checked:?}");
}

#[test]
fn naval_standing_fire_from_a_mail_for_a_resolved_step_holds_at_once() {
    let mut w = two_seats("naval-rjw", "training", "japan", "russia");
    advance(&mut w, 2, |_| true);
    let fleet = |w: &World| {
        let g = w.daemon.data.game(GAME).load::<NavalRjw>().unwrap();
        g.state
            .fleets
            .iter()
            .find(|f| f.side == "russia")
            .unwrap()
            .standing_fire
    };
    assert_ne!(fleet(&w), Some(StandingFire::Flagship));
    standing_taken(&mut w, "russia", "STANDING FIRE FLAGSHIP", "PASS");
    assert_eq!(fleet(&w), Some(StandingFire::Flagship));
    step_orders_refused_and_commands_carried_out(&mut w, "russia", "PASS");
    wrong_standing_applies_nothing(
        &mut w,
        "russia",
        "STANDING FIRE NEAREST",
        "STANDING FIRE AT WILL",
    );
    verified_to_the_end(&mut w, "japan");
}

#[test]
fn gear_krieg_settings_from_a_mail_for_a_resolved_step_hold_at_once() {
    let mut w = two_seats("gear-krieg", "crossroads", "us", "germany");
    advance(&mut w, 2, |_| true);
    let asks = |w: &World| {
        let g = w.daemon.data.game(GAME).load::<GearKrieg>().unwrap();
        g.state.side("germany").unwrap().ask_interrupts
    };
    let before = asks(&w);
    let (line, want) = if before {
        ("INTERRUPTS NEVER", false)
    } else {
        ("INTERRUPTS ASK", true)
    };
    standing_taken(&mut w, "germany", line, "HOLD");
    assert_eq!(asks(&w), want);
    step_orders_refused_and_commands_carried_out(&mut w, "germany", "HOLD");
    wrong_standing_applies_nothing(
        &mut w,
        "germany",
        "DECLARATIONS SKIP",
        "INTERRUPTS SOMETIMES",
    );
}

#[test]
fn lone_star_standing_orders_from_a_seat_the_step_does_not_ask_hold_at_once() {
    let mut w = mail_world::lone_star_patrol(GAME);
    // Card-order moves ask one seat a step: find a step that does not ask `enver`.
    advance(&mut w, 1, |g| {
        !g.spec().prompts.iter().any(|p| p.seat == "enver")
    });
    let g = w.daemon.data.game(GAME).load::<LoneStar>().unwrap();
    let unit = g
        .state
        .units
        .iter()
        .find(|u| u.seat == "enver" && u.alive())
        .unwrap()
        .name
        .clone();
    let want = g.state.unit(&unit).unwrap().standing.target_nearest != Some(false);
    let line = format!(
        "STANDING {unit} TARGET {}",
        if want { "NONE" } else { "NEAREST" }
    );
    let journal = w.daemon.data.game(GAME).read_journal().unwrap().lines.len();
    // Not a reply to an old step: the open step just does not ask this seat (SO1).
    let out = w.send("enver", &format!("HOLD {unit}\n{line}"));
    assert!(matches!(out, Intake::Accepted { .. }), "{out:?}");
    assert!(w.daemon.data.game(GAME).read_journal().unwrap().lines.len() > journal);
    let g = w.daemon.data.game(GAME).load::<LoneStar>().unwrap();
    assert_eq!(
        g.state.unit(&unit).unwrap().standing.target_nearest,
        Some(!want)
    );
    let reply = standing_reply(&w);
    assert!(
        reply.contains("The open step asks no orders of enver")
            && reply.contains(&format!("    HOLD {unit}"))
            && reply.contains("It asks nothing of you."),
        "{reply}"
    );
    // Step orders from a seat not asked are still refused, standing lines or none.
    let out = w.send("enver", &format!("HOLD {unit}"));
    assert!(matches!(out, Intake::Rejected { .. }), "{out:?}");
}

#[test]
fn lone_star_standing_orders_from_a_mail_for_a_resolved_step_hold_at_once() {
    let mut w = mail_world::lone_star_patrol(GAME);
    advance(&mut w, 2, |_| true);
    let g = w.daemon.data.game(GAME).load::<LoneStar>().unwrap();
    let unit = g
        .state
        .units
        .iter()
        .find(|u| u.seat == "hays" && u.alive())
        .unwrap()
        .name
        .clone();
    standing_taken(
        &mut w,
        "hays",
        &format!("STANDING {unit} MELEE LEAVE"),
        &format!("HOLD {unit}"),
    );
    let g = w.daemon.data.game(GAME).load::<LoneStar>().unwrap();
    assert_eq!(g.state.unit(&unit).unwrap().standing.stay, Some(false));
    step_orders_refused_and_commands_carried_out(&mut w, "hays", &format!("HOLD {unit}"));
    wrong_standing_applies_nothing(
        &mut w,
        "hays",
        &format!("STANDING {unit} TARGET NONE"),
        &format!("STANDING {unit} MELEE MAYBE"),
    );
}

#[test]
fn last_hundred_yards_standing_reactions_from_a_mail_for_a_resolved_step_hold_at_once() {
    let mut w = two_seats("last-hundred-yards", "patrol", "us", "germany");
    advance(&mut w, 2, |_| true);
    let standing = |w: &World| {
        let g = w.daemon.data.game(GAME).load::<LastHundredYards>().unwrap();
        g.state.side("germany").unwrap().standing.len()
    };
    let before = standing(&w);
    standing_taken(&mut w, "germany", "STANDING ALL FIRE WITHIN 3", "PASS");
    assert!(standing(&w) >= before.max(1));
    step_orders_refused_and_commands_carried_out(&mut w, "germany", "PASS");
    wrong_standing_applies_nothing(
        &mut w,
        "germany",
        "STANDING ALL FIRE WITHIN 4",
        "STANDING ALL FIRE SOMETIMES",
    );
}

#[test]
fn la_bataille_standing_orders_from_a_mail_for_a_resolved_step_hold_at_once() {
    let mut w = two_seats("la-bataille", "teaching", "france", "allies");
    advance(&mut w, 2, |_| true);
    let huzzah = |w: &World| {
        let g = w.daemon.data.game(GAME).load::<LaBataille>().unwrap();
        g.state.side("allies").unwrap().standing.huzzah
    };
    let line = if huzzah(&w) == Policy::Never {
        "HUZZAH ALWAYS"
    } else {
        "HUZZAH NEVER"
    };
    standing_taken(&mut w, "allies", line, "PICK A1");
    assert_eq!(
        huzzah(&w),
        if line.ends_with("ALWAYS") {
            Policy::Always
        } else {
            Policy::Never
        }
    );
    step_orders_refused_and_commands_carried_out(&mut w, "allies", "MOVE 1/45e 0606");
    wrong_standing_applies_nothing(&mut w, "allies", "SQUARE ALWAYS", "OPPORTUNITY FIRE MAYBE");
}

/// The standing order that answers `kind`, as the README gives it.
fn answering(kind: &QKind) -> Option<&'static str> {
    Some(match kind {
        QKind::Pick => "PICK AUTO",
        QKind::RetreatBeforeAssault => "RETREAT BEFORE ASSAULT NEVER",
        QKind::RetreatBeforeCharge => "RETREAT BEFORE CHARGE NEVER",
        QKind::NewAssault => "REASSAULT NEVER",
        QKind::Huzzah => "HUZZAH NEVER",
        QKind::Square => "SQUARE NEVER",
        QKind::Recall => "RECALL NEVER",
        QKind::Reaction => "REACTION NEVER",
        QKind::Displace => "DISPLACE AUTO",
        QKind::Impetus => "IMPETUS AUTO",
        QKind::Pursue => "PURSUE AUTO",
        QKind::Exploit => return None,
    })
}

/// The games by mail's case: the question is put, the player's next mail answers the step
/// before with the standing order that answers it; the step resolves by that order and the
/// seat is not asked the question again. A standing order that does not answer the question
/// leaves it asked (the other side of the threshold).
#[test]
fn la_bataille_a_standing_order_sent_after_the_question_answers_it() {
    let asked = |g: &dyn Play| {
        let st: despatch::rulesets::la_bataille::state::LbState =
            serde_json::from_value(g.state_json()).unwrap();
        matches!(&st.phase, LbPhase::Question { question } if answering(&question.kind).is_some())
    };
    let mut w = two_seats("la-bataille", "teaching", "france", "allies");
    advance(&mut w, 1, asked);
    let g = w.daemon.data.game(GAME).load::<LaBataille>().unwrap();
    let LbPhase::Question { question } = &g.state.phase else {
        unreachable!()
    };
    let (seat, line) = (question.seat.clone(), answering(&question.kind).unwrap());
    let open = g.step;
    // Not the answer: a standing order about something else leaves the question asked.
    let other = if line.starts_with("OPPORTUNITY") {
        "HUZZAH ALWAYS"
    } else {
        "OPPORTUNITY FIRE OFF"
    };
    let out = w.send_answering(&seat, open - 1, other);
    assert!(matches!(out, Intake::Accepted { .. }), "{out:?}");
    let g = play(&w);
    assert_eq!(g.book().step, open, "still asked");
    assert!(g.waiting_for().contains(&seat));
    // The answer: the step resolves at once by the standing order.
    let out = w.send_answering(&seat, open - 1, line);
    assert!(matches!(out, Intake::Accepted { .. }), "{out:?}");
    let g = w.daemon.data.game(GAME).load::<LaBataille>().unwrap();
    assert!(g.step > open, "the standing order answered the question");
    assert!(
        delivered(w.outbox(), "results")
            .iter()
            .any(|m| m.contains("standing order answers")),
        "the results say the standing order answered"
    );
}
