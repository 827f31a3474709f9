//! Issue 14.3 and 14.6: subjects that work in an inbox list (action first, the step named by
//! its title, the deadline in the seat's time zone), and threading and list headers: an answer
//! is `Re:` the player's own subject and replies to that mail; every mail carries the game's
//! List-Id, says whether it was asked for (Auto-Submitted) and names the game in its From.

use despatch::daemon::Intake;
use despatch::engine::{Play, Ruleset};
use despatch::rulesets::naval_rjw::NavalRjw;
use mail_parser::{HeaderValue, MessageParser};

use crate::world;
use world::*;

fn header(raw: &[u8], name: &str) -> String {
    let m = MessageParser::default().parse(raw).unwrap();
    match m.header(name) {
        Some(HeaderValue::Text(t)) => t.to_string(),
        Some(HeaderValue::Address(a)) => a
            .first()
            .map(|x| {
                format!(
                    "{} <{}>",
                    x.name().unwrap_or_default(),
                    x.address().unwrap_or_default()
                )
            })
            .unwrap_or_default(),
        Some(HeaderValue::TextList(l)) => l.join(" "),
        Some(other) => format!("{other:?}"),
        None => String::new(),
    }
}

fn subject(raw: &[u8]) -> String {
    MessageParser::default()
        .parse(raw)
        .unwrap()
        .subject()
        .unwrap_or_default()
        .to_string()
}

fn play_out(w: &mut World, max_steps: u64) {
    while !w.game().is_over() && w.game().step <= max_steps {
        let g = w.game();
        for seat in g.waiting_for() {
            let orders = NavalRjw::sample_orders(&g.state, &seat, g.step * 31 + w.n as u64);
            assert!(matches!(w.send(&seat, &orders), Intake::Accepted { .. }));
        }
    }
}

#[test]
fn subjects_put_the_action_first_and_name_the_step_by_its_title() {
    let mut w = world("training");
    play_out(&mut w, 200);
    let mails = w.raw_delivered();
    let subjects: Vec<String> = mails.iter().map(|(_, r)| subject(r)).collect();
    let orders = subjects
        .iter()
        .find(|s| s.contains("Your orders:"))
        .expect("a mail asking for orders");
    assert!(
        orders.starts_with(&format!("[{GAME} #")) && orders.contains(", due "),
        "{orders}"
    );
    // The deadline is short (`Thu 26 Nov 18:00 UTC`) and the subject fits an inbox list.
    let due = orders.split(", due ").nth(1).unwrap();
    assert_eq!(due.split(' ').count(), 5, "{due}");
    assert!(
        subjects
            .iter()
            .any(|s| s.starts_with(&format!("[{GAME}]")) && s.contains("Game over: ")),
        "{subjects:#?}"
    );
    // No mail numbers the step where its subject names it otherwise ("step 6" beside "Turn 3").
    assert!(
        subjects
            .iter()
            .all(|s| !s.to_lowercase().contains(" step ")),
        "{subjects:#?}"
    );
}

#[test]
fn answers_thread_under_the_players_mail_and_every_mail_carries_the_list_headers() {
    let mut w = world("training");
    w.one_receipt_and_one_rejection();
    let mails = w.raw_delivered();
    let receipt = &mails
        .iter()
        .find(|(n, _)| n.contains("submission-japan"))
        .unwrap()
        .1;
    // tests/common/world.rs sends "Re: [school] orders" as message m1@player.example.
    assert_eq!(subject(receipt), format!("Re: [{GAME}] orders"));
    assert_eq!(header(receipt, "In-Reply-To"), "m1@player.example");
    assert_eq!(header(receipt, "Auto-Submitted"), "auto-replied");
    let rejection = &mails
        .iter()
        .find(|(n, _)| n.contains("-reject-"))
        .unwrap()
        .1;
    assert_eq!(subject(rejection), format!("Re: [{GAME}] orders"));
    assert_eq!(header(rejection, "In-Reply-To"), "m2@player.example");
    let notice = &mails
        .iter()
        .find(|(n, _)| n.contains("submission-russia"))
        .unwrap()
        .1;
    assert_eq!(
        header(notice, "Auto-Submitted"),
        "auto-generated",
        "nobody asked for the notice"
    );
    assert!(subject(notice).starts_with(&format!("[{GAME} #1] japan has sent orders: ")));
    for (name, raw) in &mails {
        let list = header(raw, "List-Id");
        assert!(
            list.contains(&format!("<{GAME}.despatch.localhost>")),
            "{name}: List-Id {list:?}"
        );
        let from = header(raw, "From");
        assert!(from.contains(GAME), "{name}: From {from:?} names no game");
    }
}
