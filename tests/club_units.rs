//! Issue 30 point 6 by mail: `UNITS` answers a seat with the numbers its own ships are
//! ordered with (speed, turn, CF, ranges, from the class table), under a subject of its own
//! kind, threaded under the player's mail, and names no enemy ship; the welcome carries the
//! same section. Naval order syntax, through `Daemon::ingest`.

use despatch::daemon::Intake;
use mail_parser::MessageParser;

use crate::world;
use world::*;

/// (subject, text) of the mail answering the last mail sent (its In-Reply-To).
fn answer(w: &World) -> (String, String) {
    let id = format!("<m{}@player.example>", w.n);
    let hits: Vec<(String, String)> = w
        .raw_delivered()
        .into_iter()
        .filter(|(_, b)| String::from_utf8_lossy(b).contains(&format!("In-Reply-To: {id}")))
        .map(|(_, b)| {
            let m = MessageParser::default().parse(&b).unwrap();
            (
                m.subject().unwrap_or_default().to_string(),
                m.body_text(0).unwrap().into_owned(),
            )
        })
        .collect();
    assert_eq!(hits.len(), 1, "one answer to {id}");
    hits[0].clone()
}

/// The list entry starting with `start`, its wrapped lines (hanging further in) joined.
fn entry(text: &str, start: &str) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let i = lines
        .iter()
        .position(|l| l.trim_start().starts_with(start))?;
    let indent = lines[i].len() - lines[i].trim_start().len();
    let mut out = lines[i].trim().to_string();
    for l in &lines[i + 1..] {
        if l.len() - l.trim_start().len() <= indent || l.trim().is_empty() {
            break;
        }
        out.push(' ');
        out.push_str(l.trim());
    }
    Some(out)
}

#[test]
fn units_answers_with_the_seats_own_numbers_and_no_enemy_ship() {
    let mut w = world("training");
    let out = w.send("japan", "UNITS");
    assert_eq!(
        out,
        Intake::Talk {
            game: GAME.into(),
            seat: "japan".into(),
            command: "units"
        }
    );
    let (subject, text) = answer(&w);
    assert!(subject.ends_with("Units: yours now"), "{subject}");
    let text = despatch::report::unfold(&text);
    assert!(text.contains("YOUR SHIPS' NUMBERS"), "{text}");
    let state = w.game().state;
    for s in state.ships.iter() {
        let class = &state.data.classes[&s.class];
        if s.side == "japan" {
            // The class table's numbers, not a copy of them.
            let line = entry(&text, &format!("{} (", s.name))
                .unwrap_or_else(|| panic!("no line for {}:\n{text}", s.name));
            assert!(line.contains(&format!("CF {}", class.cf.int())), "{line}");
            assert!(
                line.contains(&format!(
                    "range {}\"",
                    despatch::rulesets::kit::grammar::num(class.range.get())
                )),
                "{line}"
            );
        } else {
            assert!(
                !text.contains(&s.name),
                "an enemy ship, {}:\n{text}",
                s.name
            );
        }
    }
    // Nothing else happened: the open step is the same.
    assert_eq!(w.game().step, 1);
    // Written wrong, it is answered with why and what to write.
    let _ = w.send("japan", "UNITS please");
    let (_, refusal) = answer(&w);
    assert!(
        refusal.contains("UNITS takes no words after it"),
        "{refusal}"
    );
    // The welcome shows the same section.
    let welcome = body_of(&w, "welcome-japan");
    assert!(welcome.contains("YOUR SHIPS' NUMBERS"), "{welcome}");
}
