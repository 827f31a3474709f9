//! Issue 18.6: the welcome mail's "orders at a glance" covers every step of the game, not only
//! the set-up: each ruleset's order reference opens with a `## Orders at a glance` section that
//! names every order keyword its parser accepts, and the welcome mail carries that section.

use despatch::engine::Ruleset;
use despatch::rulesets::{
    gear_krieg::GearKrieg, la_bataille::LaBataille, last_hundred_yards::LastHundredYards,
    lone_star::LoneStar, naval_rjw::NavalRjw,
};

use crate::world;

const HEADING: &str = "## Orders at a glance";

fn glance(folder: &str) -> String {
    let path = format!("{}/games/{folder}/README.md", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let at = text
        .find(HEADING)
        .unwrap_or_else(|| panic!("{path} has no `{HEADING}` section"));
    let rest = &text[at + HEADING.len()..];
    let end = rest.find("\n## ").unwrap_or(rest.len());
    rest[..end].to_string()
}

/// Every keyword the parser accepts appears as a word of the glance section, so no step's
/// orders are missing from it; and the section stays short enough for a welcome mail.
fn covers_every_order<R: Ruleset>(folder: &str) {
    let g = glance(folder);
    let words: Vec<String> = g
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
        .map(str::to_ascii_uppercase)
        .collect();
    let missing: Vec<&str> = R::order_keywords()
        .into_iter()
        .filter(|k| !words.iter().any(|w| w == &k.to_ascii_uppercase()))
        .collect();
    assert!(
        missing.is_empty(),
        "{folder}: the glance misses {missing:?}"
    );
    let lines = g.trim().lines().count();
    assert!(
        (5..=45).contains(&lines),
        "{folder}: the glance is {lines} lines"
    );
}

#[test]
fn naval_glance_covers_every_step() {
    covers_every_order::<NavalRjw>("naval-rjw");
}

#[test]
fn gear_krieg_glance_covers_every_step() {
    covers_every_order::<GearKrieg>("gear-krieg");
}

#[test]
fn la_bataille_glance_covers_every_step() {
    covers_every_order::<LaBataille>("la-bataille");
}

#[test]
fn last_hundred_yards_glance_covers_every_step() {
    covers_every_order::<LastHundredYards>("last-hundred-yards");
}

#[test]
fn lone_star_glance_covers_every_step() {
    covers_every_order::<LoneStar>("lone-star");
}

#[test]
fn the_welcome_mail_carries_the_whole_glance() {
    let w = world::world("training");
    let welcome = w
        .delivered()
        .into_iter()
        .find(|(_, _, _, text)| text.contains("ORDERS AT A GLANCE"))
        .map(|(_, _, _, text)| text)
        .expect("a welcome mail");
    let g = glance("naval-rjw");
    for line in g.lines().filter(|l| !l.trim().is_empty()) {
        // The mail is plain text: the reference's Markdown marks are dropped.
        let line = line.replace('`', "").replace("**", "");
        assert!(
            welcome.contains(line.trim_end()),
            "the welcome lacks {line:?}"
        );
    }
    // Fire orders come in a later step than set-up; the glance names them too.
    assert!(welcome.contains("FIRE Mikasa AT"), "{welcome}");
    let section = welcome
        .split("ORDERS AT A GLANCE")
        .nth(1)
        .and_then(|r| r.split("DICE YOU CAN CHECK").next())
        .unwrap();
    assert!(
        !section.contains('`') && !section.contains("**"),
        "{section}"
    );
}
