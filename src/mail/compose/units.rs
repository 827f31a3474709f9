//! The answer to `UNITS` (issue 30 point 6): the numbers the seat's own units are ordered
//! with — ranges, strength, cohesion or morale, movement, datacards — as the ruleset gives
//! them (`Play::unit_numbers`), so a player need not learn a range from a refusal. Pure text
//! from values; it shows only what the ruleset lets the seat see, never an enemy's numbers.

use crate::engine::Play;

use super::replies::{answer_draft, short};
use super::{Draft, DraftKind, Recipient};

/// The subject of every `UNITS` answer: what it holds, first.
pub const UNITS_SUBJECT: &str = "Units: yours now";

/// The seat's units and their numbers now, in reply to `message_id`.
pub fn units_reply(game: &dyn Play, to: &Recipient, message_id: &str) -> Draft {
    let book = game.book();
    let mut b = format!(
        "YOUR UNITS IN GAME {} (seat {}, step {})\n",
        book.id, to.seat, book.step
    );
    let sections = game.unit_numbers(&to.seat);
    if sections.iter().all(|(_, lines)| lines.is_empty()) {
        b.push_str(&format!(
            "\nThe {} ruleset lists no numbers for your units, or none of them is left in \
             play.\n",
            game.ruleset()
        ));
    }
    for (title, lines) in sections.iter().filter(|(_, l)| !l.is_empty()) {
        b.push_str(&format!("\n{}\n", title.to_uppercase()));
        for line in lines {
            b.push_str(&format!("  {line}\n"));
        }
    }
    b.push_str(
        "\nThese are your own units only, as they stand now. Write STATUS for where the game \
         stands, or HELP for the order reference.\n",
    );
    answer_draft(
        game,
        to,
        format!("units-{}", short(message_id)),
        DraftKind::Settings,
        UNITS_SUBJECT,
        &b,
        message_id,
    )
}
